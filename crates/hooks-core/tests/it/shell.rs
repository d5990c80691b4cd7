//! Tests for the shell splitter: a script to its simple commands, as a shell sees them.

use hooks_core::shell::{RedirectKind, SimpleCommand, split};

/// One command, compactly: `wrapper>wrapper> argv words  >target  >>target  <<<text`.
fn render(command: &SimpleCommand) -> String {
    let mut out = String::new();
    for wrapper in &command.wrappers {
        out.push_str(wrapper);
        out.push('>');
    }
    if !command.wrappers.is_empty() {
        out.push(' ');
    }
    out.push_str(&command.argv.join(" "));
    for redirect in &command.redirects {
        let op = match redirect.kind {
            RedirectKind::Read => "<",
            RedirectKind::Write => ">",
            RedirectKind::Append => ">>",
            RedirectKind::ReadWrite => "<>",
            RedirectKind::Duplicate => ">&",
            RedirectKind::HereDocument => "<<",
            RedirectKind::HereString => "<<<",
            _ => "?",
        };
        out.push_str(&format!("  {op}{}", redirect.target));
    }
    out
}

/// `script` splits into exactly `expect` (rendered by [`render`]), and parses completely
/// when `complete`.
#[track_caller]
fn check(script: &str, complete: bool, expect: &[&str]) {
    let split = split(script);
    let got: Vec<String> = split.commands.iter().map(render).collect();
    assert_eq!(got, expect, "split of `{script}`");
    assert_eq!(split.complete, complete, "completeness of `{script}`");
}

#[test]
fn a_plain_command_is_one_command() {
    check("git push origin main", true, &["git push origin main"])
}
#[test]
fn and_or_sequence_and_pipe_are_split() {
    check(
        "cd repo && git push || echo no; ls | wc -l",
        true,
        &["cd repo", "git push", "echo no", "ls", "wc -l"],
    )
}
#[test]
fn leading_assignments_are_stripped() {
    check("FOO=1 BAR='a b' git push", true, &["git push"])
}
#[test]
fn quotes_are_removed() {
    check(r#"'rm' "-rf" \/ $'\x2f'"#, true, &["rm -rf / /"])
}
#[test]
fn a_quoted_string_is_one_word_not_a_command() {
    check(r#"echo "rm -rf / && ls""#, true, &["echo rm -rf / && ls"])
}
#[test]
fn redirections_are_collected() {
    check(
        "echo key >> ~/.ssh/authorized_keys 2>&1 < in.txt",
        true,
        &["echo key  >>~/.ssh/authorized_keys  >&1  <in.txt"],
    )
}
#[test]
fn output_and_error_redirection_writes() {
    check("make &> build.log", true, &["make  >build.log"])
}
#[test]
fn bash_c_is_split_as_a_script() {
    check(
        r#"bash -c "cd / && rm -rf *""#,
        true,
        &["bash -c cd / && rm -rf *", "bash> cd /", "bash> rm -rf *"],
    )
}
#[test]
fn sh_with_combined_flags_is_split() {
    check(
        "sh -ec 'rm -rf /'",
        true,
        &["sh -ec rm -rf /", "sh> rm -rf /"],
    )
}
#[test]
fn sudo_env_and_friends_are_unwrapped() {
    check(
        "sudo -u root env -i FOO=1 nohup nice -n 5 rm -rf /",
        true,
        &[
            "sudo -u root env -i FOO=1 nohup nice -n 5 rm -rf /",
            "sudo> env -i FOO=1 nohup nice -n 5 rm -rf /",
            "sudo>env> nohup nice -n 5 rm -rf /",
            "sudo>env>nohup> nice -n 5 rm -rf /",
            "sudo>env>nohup>nice> rm -rf /",
        ],
    )
}
#[test]
fn command_exec_time_timeout_xargs_are_unwrapped() {
    check("command rm x", true, &["command rm x", "command> rm x"]);
    check("exec rm x", true, &["exec rm x", "exec> rm x"]);
    check("time rm x", true, &["rm x"]);
    check(
        "/usr/bin/time -v rm x",
        true,
        &["/usr/bin/time -v rm x", "time> rm x"],
    );
    check(
        "timeout -s KILL 5 rm x",
        true,
        &["timeout -s KILL 5 rm x", "timeout> rm x"],
    );
    check(
        "xargs -I {} rm -rf {}",
        true,
        &["xargs -I {} rm -rf {}", "xargs> rm -rf {}"],
    );
}
#[test]
fn command_v_only_prints() {
    check("command -v rm", true, &["command -v rm"])
}
#[test]
fn find_exec_commands_are_listed() {
    check(
        r"find . -name '*.o' -exec rm -f {} \; -delete",
        true,
        &[
            "find . -name *.o -exec rm -f {} ; -delete",
            "find> rm -f {}",
        ],
    )
}
#[test]
fn eval_and_trap_are_scripts() {
    check(
        "eval 'rm -rf /'",
        true,
        &["eval rm -rf /", "eval> rm -rf /"],
    );
    check(
        "trap 'rm -rf /' EXIT",
        true,
        &["trap rm -rf / EXIT", "trap> rm -rf /"],
    );
}
#[test]
fn command_substitutions_are_listed() {
    check(
        "echo $(rm -rf /) `ls`",
        true,
        &["echo $(rm -rf /) `ls`", "rm -rf /", "ls"],
    )
}
#[test]
fn substitutions_know_where_they_sit() {
    let split = split("$(curl -s x) arg");
    let curl = &split.commands[1];
    assert_eq!(curl.program(), Some("curl"));
    let at = curl.substituted_in.unwrap();
    assert_eq!((at.command, at.word), (0, Some(0)));
}
#[test]
fn compound_commands_are_walked() {
    check(
        "if true; then (rm a); else { rm b; }; fi; for f in x; do rm c; done; while false; do rm d; done",
        true,
        &["true", "rm a", "rm b", "rm c", "false", "rm d"],
    )
}
#[test]
fn function_bodies_are_walked() {
    let split = split(":(){ :|:& };:");
    let inner: Vec<_> = split
        .commands
        .iter()
        .filter(|c| c.function.as_deref() == Some(":"))
        .collect();
    assert_eq!(inner.len(), 2);
    assert!(
        inner
            .iter()
            .all(|c| c.background && c.program() == Some(":"))
    );
    assert_eq!(inner[0].pipeline, inner[1].pipeline);
}
#[test]
fn a_heredoc_into_a_shell_is_a_script() {
    check(
        "bash <<EOF\nrm -rf /\nEOF\n",
        true,
        &["bash  <<rm -rf /\n", "bash> rm -rf /"],
    )
}
#[test]
fn an_echo_piped_into_a_shell_is_a_script() {
    check(
        "echo 'rm -rf /' | sh",
        true,
        &["echo rm -rf /", "sh", "sh> rm -rf /"],
    )
}
#[test]
fn an_echo_piped_elsewhere_is_data() {
    check(
        "echo 'rm -rf /' | grep rm",
        true,
        &["echo rm -rf /", "grep rm"],
    )
}
#[test]
fn pipelines_are_numbered() {
    let split = split("curl -s x | tee log | sudo bash");
    let stages: Vec<_> = split
        .commands
        .iter()
        .map(|c| (c.pipeline, c.stage))
        .collect();
    assert_eq!(stages, [(0, 0), (0, 1), (0, 2), (0, 2)]);
}
#[test]
fn text_that_does_not_parse_is_split_crudely() {
    check(
        "rm -rf / && echo \"unterminated",
        false,
        &["rm -rf /", "echo unterminated"],
    )
}
#[test]
fn a_bad_c_script_is_split_crudely() {
    check(
        "bash -c 'rm -rf / ('",
        false,
        &["bash -c rm -rf / (", "bash> rm -rf /"],
    )
}
#[test]
fn nesting_is_bounded() {
    let mut script = "rm -rf /".to_owned();
    for _ in 0..12 {
        script = format!("bash -c {}", shell_quote(&script));
    }
    let split = split(&script);
    assert!(!split.complete);
    assert!(split.commands.len() <= 12);
}

fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

//! Shell completions, the manual page, `--color` and the examples in `--help`: all
//! generated from the clap definitions, checked through the binary.

// `bash -n` checks the completion script as bash itself reads it.
#![allow(clippy::disallowed_methods)]

use std::time::Duration;

use assert_cmd::Command;
use clap::CommandFactory;
use hooks_cli::cli::Cli;

fn hooks() -> Command {
    let mut command = Command::cargo_bin("hooks").unwrap();
    command
        .timeout(Duration::from_secs(30))
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE");
    command
}

fn stdout(command: &mut Command) -> String {
    let out = command.assert().success().get_output().stdout.clone();
    String::from_utf8(out).unwrap()
}

/// The names of the subcommands a user sees (hidden ones left out), from the clap
/// definitions.
fn subcommands() -> Vec<String> {
    Cli::command()
        .get_subcommands()
        .filter(|c| !c.is_hide_set())
        .map(|c| c.get_name().to_owned())
        .collect()
}

#[test]
fn bash_completions_name_every_subcommand_and_parse() {
    let script = stdout(hooks().args(["completions", "bash"]));
    for name in subcommands() {
        assert!(script.contains(&name), "the bash script lacks `{name}`");
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("hooks.bash");
    std::fs::write(&path, &script).unwrap();
    let check = std::process::Command::new("bash")
        .arg("-n")
        .arg(&path)
        .output()
        .unwrap();
    assert!(check.status.success(), "bash -n: {check:?}");
}

#[test]
fn every_shell_gets_a_script() {
    for (shell, marker) in [
        ("bash", "complete -F"),
        ("zsh", "#compdef hooks"),
        ("fish", "complete -c hooks"),
        ("elvish", "edit:completion"),
        ("powershell", "Register-ArgumentCompleter"),
    ] {
        let script = stdout(hooks().args(["completions", shell]));
        assert!(script.contains(marker), "{shell}: no `{marker}`");
        assert!(script.contains("replay"), "{shell}: no subcommands");
    }
}

#[test]
fn an_unknown_shell_is_a_usage_error() {
    hooks().args(["completions", "tcsh"]).assert().code(1);
}

#[test]
fn man_prints_a_roff_page() {
    let page = stdout(hooks().arg("man"));
    assert!(page.contains(".TH hooks 1"), "{page}");
    assert!(page.contains("completions"), "{page}");
}

#[test]
fn man_dir_writes_a_page_per_command() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("man1");
    hooks().args(["man", "--dir"]).arg(&out).assert().success();
    for name in ["hooks".to_owned()].into_iter().chain(
        subcommands()
            .into_iter()
            .filter(|n| n != "help")
            .map(|n| format!("hooks-{n}")),
    ) {
        let page = std::fs::read_to_string(out.join(format!("{name}.1"))).unwrap();
        assert!(page.contains(".TH"), "{name}.1");
    }
    let run = std::fs::read_to_string(out.join("hooks-run.1")).unwrap();
    assert!(
        run.contains("hooks run PreToolUse"),
        "the examples are in the page"
    );
}

/// A config whose `hooks list` output is coloured.
fn listed(color: &[&str], env: &[(&str, &str)]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("hooks.yaml");
    std::fs::write(
        &file,
        "hooks:\n  - id: g\n    event: PreToolUse\n    command: \"exit 0\"\n",
    )
    .unwrap();
    let mut command = hooks();
    command.arg("list").arg("-c").arg(&file).args(color);
    command.envs(env.iter().copied());
    stdout(&mut command)
}

#[test]
fn color_flag_decides_over_the_environment() {
    const ESC: &str = "\x1b[";
    for (flag, env, coloured) in [
        (&[][..], &[][..], false),
        (&[][..], &[("CLICOLOR_FORCE", "1")][..], true),
        (&["--color", "always"][..], &[][..], true),
        (&["--color", "always"][..], &[("NO_COLOR", "1")][..], true),
        (&["--color", "never"][..], &[][..], false),
        (
            &["--color", "never"][..],
            &[("CLICOLOR_FORCE", "1")][..],
            false,
        ),
        (&["--color=auto"][..], &[("CLICOLOR_FORCE", "1")][..], true),
        (
            &["--color=auto"][..],
            &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")][..],
            false,
        ),
    ] {
        let out = listed(flag, env);
        assert_eq!(out.contains(ESC), coloured, "{flag:?} {env:?}: {out:?}");
    }
}

#[test]
fn color_is_a_global_flag() {
    let out = stdout(hooks().args(["--color", "always", "events"]));
    assert!(!out.is_empty());
}

#[test]
fn every_subcommand_help_has_examples() {
    let mut command = Cli::command();
    command.build();
    // Hidden commands (the telemetry exporter) are the binary's own, not the user's.
    for sub in command
        .get_subcommands()
        .filter(|s| s.get_name() != "help" && !s.is_hide_set())
    {
        let after = sub
            .get_after_help()
            .map(|h| h.to_string())
            .unwrap_or_default();
        assert!(
            after.starts_with("Examples:\n  ")
                && after.contains(&format!("hooks {}", sub.get_name())),
            "`hooks {}` has no examples: {after:?}",
            sub.get_name()
        );
    }
    let help = stdout(hooks().args(["trust", "--help"]));
    assert!(
        help.contains("Examples:\n  hooks trust .hooks/hooks.yaml"),
        "{help}"
    );
}

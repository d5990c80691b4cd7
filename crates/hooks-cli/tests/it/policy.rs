//! What a repository's files cannot do to the user's own hooks (switch them off, widen
//! their HTTP allow-list, stop them by being broken), and what one of the user's own files
//! that does not load does: blocks what it might have stopped, or (`--on-broken-config
//! allow`) is skipped. Each runs the real binary with a temporary home and project.

use std::io::Write;
use std::net::TcpListener;
use std::time::Duration;

use crate::support::{Env, read_http};

/// The user's own guard, in `~/.claude/settings.json`: blocks `rm -rf`.
const USER_GUARD: &str = r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "grep -q 'rm -rf' && { echo 'no rm -rf' >&2; exit 2; } || exit 0"}]}]}}"#;

const RM_RF: &str = r#"{"tool_name":"Bash","tool_input":{"command":"rm -rf /"}}"#;

fn run_rm_rf(env: &Env, extra: &[&str]) -> crate::support::Run {
    let mut args = vec!["run", "PreToolUse", "--json", "-p", RM_RF];
    args.extend_from_slice(extra);
    env.run(&args)
}

#[test]
fn an_untrusted_project_file_cannot_switch_off_the_users_guard() {
    let cases = [
        (
            ".claude/settings.json",
            r#"{"disableAllHooks": true}"#,
            "disableAllHooks",
        ),
        (
            ".claude/settings.local.json",
            r#"{"disableAllHooks": true}"#,
            "disableAllHooks",
        ),
        (
            ".hooks/hooks.yaml",
            "disable_all_hooks: true\n",
            "disable_all_hooks",
        ),
        (
            ".hooks/hooks.local.yaml",
            "disable_all_hooks: true\n",
            "disable_all_hooks",
        ),
    ];
    for (rel, text, setting) in cases {
        let env = Env::new();
        env.write("home/.claude/settings.json", USER_GUARD);
        env.write(rel, text);
        let run = run_rm_rf(&env, &[]);
        assert_eq!(run.code, 2, "{rel}: {run:?}");
        assert_eq!(run.json()["reason"], "no rm -rf", "{rel}");
        let list = env.run(&["list"]);
        assert_eq!(list.code, 0, "{list:?}");
        assert!(
            list.stdout.contains(&format!(
                "[dir]/{rel}: warning: ignored `{setting}`: a file that is not trusted cannot change any setting"
            )),
            "{rel}: {}",
            list.stdout
        );
        assert!(list.stdout.contains("Mode: enabled"), "{}", list.stdout);
    }
}

/// Answers one request on `listener` with a redirect to `to`.
fn redirect_once(listener: TcpListener, to: u16) {
    std::thread::spawn(move || {
        let Ok((mut stream, _)) = listener.accept() else {
            return;
        };
        let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
        let _ = read_http(&mut stream);
        let _ = write!(
            stream,
            "HTTP/1.1 307 Temporary Redirect\r\nLocation: http://127.0.0.1:{to}/\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        );
    });
}

#[test]
fn an_untrusted_project_file_cannot_widen_the_http_allow_list() {
    for (rel, text) in [
        (".claude/settings.json", r#"{"allowedHttpHookUrls": ["*"]}"#),
        (
            ".claude/settings.local.json",
            r#"{"allowedHttpHookUrls": ["*"]}"#,
        ),
        (".hooks/hooks.yaml", "allowed_http_hook_urls: ['*']\n"),
    ] {
        let env = Env::new();
        // The host the user allowed redirects to one the user never allowed.
        let allowed = TcpListener::bind("127.0.0.1:0").unwrap();
        let forbidden = TcpListener::bind("127.0.0.1:0").unwrap();
        let (a, b) = (
            allowed.local_addr().unwrap().port(),
            forbidden.local_addr().unwrap().port(),
        );
        redirect_once(allowed, b);
        let url = format!("http://127.0.0.1:{a}/");
        env.write(
            "home/.claude/settings.json",
            &format!(
                r#"{{"allowedHttpHookUrls": ["{url}"], "hooks": {{"PreToolUse": [{{"hooks": [{{"type": "http", "url": "{url}", "timeout": 5}}]}}]}}}}"#
            ),
        );
        env.write(rel, text);
        let run = run_rm_rf(&env, &[]);
        assert_eq!(run.code, 0, "{rel}: {run:?}");
        // The run is over: had the redirect been followed, the connection would be waiting.
        forbidden.set_nonblocking(true).unwrap();
        assert!(
            forbidden.accept().is_err(),
            "{rel}: the hook reached a host the user never allowed"
        );
        let failure = run.json()["hooks"][0]["failure"]["message"].to_string();
        assert!(failure.contains("redirect"), "{rel}: {failure}");
    }
}

fn alias_bomb() -> String {
    let mut text =
        String::from("a0: &a0 [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
    for i in 1..8 {
        let p = i - 1;
        text.push_str(&format!(
            "a{i}: &a{i} [*a{p},*a{p},*a{p},*a{p},*a{p},*a{p},*a{p},*a{p}]\n"
        ));
    }
    text
}

#[test]
fn a_broken_project_file_never_stops_the_users_guard() {
    let bomb = alias_bomb();
    let cases: [(&str, &str, &str); 5] = [
        (
            ".claude/settings.json",
            "{\"hooks\": [}",
            "[dir]/.claude/settings.json:1:12",
        ),
        (
            ".claude/settings.local.json",
            r#"{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "echo {{ secrets.HOOKS_TEST_NO_SUCH_SECRET }}"}]}]}}"#,
            "[dir]/.claude/settings.local.json:1:",
        ),
        (".hooks/hooks.yaml", &bomb, "[dir]/.hooks/hooks.yaml:"),
        (
            ".hooks/hooks.toml",
            "[[hooks]]\nevent = \"PreToolUze\"\ncommand = \"true\"\n",
            "[dir]/.hooks/hooks.toml:2:9",
        ),
        // A bad allow-list pattern is an error at its line and column, like a syntax error.
        (
            ".claude/settings.json",
            r#"{"allowedHttpHookUrls": ["http://[::1"]}"#,
            "[dir]/.claude/settings.json:1:26: warning: this project file does not load (invalid allowed URL pattern `http://[::1`",
        ),
    ];
    for (rel, text, reported) in cases {
        let env = Env::new();
        env.write("home/.claude/settings.json", USER_GUARD);
        env.write(rel, text);
        let run = run_rm_rf(&env, &[]);
        assert_eq!(run.code, 2, "{rel}: {run:?}");
        let json = run.json();
        assert_eq!(json["reason"], "no rm -rf", "{rel}");
        assert_eq!(json["hooks"].as_array().unwrap().len(), 1, "{rel}: {json}");
        let list = env.run(&["list"]);
        assert_eq!(list.code, 0, "{list:?}");
        let shown = format!("{}{}", run.stderr, list.stdout);
        assert!(shown.contains(reported), "{rel}: {shown}");
        assert!(
            run.stderr
                .contains("so its hooks do not run: it is skipped"),
            "{rel}: {}",
            run.stderr
        );
    }
}

/// One of the user's own files is broken; another of theirs holds an audit hook.
fn user_with_a_broken_file() -> Env {
    let env = Env::new();
    env.write(
        "home/.config/hooks/hooks.yaml",
        "hooks:\n  - id: audit\n    event: PreToolUse\n    command: touch audited\n",
    );
    env.write("home/.claude/settings.json", "{\"hooks\": [}");
    env
}

#[test]
fn a_broken_user_file_blocks_what_its_guard_might_have_stopped() {
    let env = user_with_a_broken_file();
    let run = run_rm_rf(&env, &[]);
    assert_eq!(run.code, 2, "{run:?}");
    let json = run.json();
    let reason = json["reason"].as_str().unwrap();
    assert!(
        reason.starts_with(
            "the config file [dir]/home/.claude/settings.json:1:12: invalid JSON: expected value does not load, so the hooks it holds cannot run"
        ),
        "{reason}"
    );
    // The other file's hooks still run and are reported.
    let ids: Vec<&str> = json["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["broken-config", "audit"]);
    assert!(env.path().join("audited").exists());
    assert!(
        run.stderr.contains(
            "[dir]/home/.claude/settings.json:1:12: warning: this user file does not load"
        ),
        "{}",
        run.stderr
    );
    // An event that cannot be blocked is not.
    let end = env.run(&["run", "SessionEnd"]);
    assert_eq!(end.code, 0, "{end:?}");
    // The listing says so.
    let list = env.run(&["list", "--json"]);
    assert_eq!(list.code, 0, "{list:?}");
    let broken = &list.json()["broken"][0];
    assert_eq!(broken["blocks_events"], true, "{broken}");
    assert_eq!(broken["layer"], "user");
}

#[test]
fn on_broken_config_allow_skips_a_broken_user_file() {
    let env = user_with_a_broken_file();
    let flag = run_rm_rf(&env, &["--on-broken-config", "allow"]);
    let var = env.finish(
        env.command()
            .args(["run", "PreToolUse", "--json", "-p", RM_RF])
            .env("HOOKS_ON_BROKEN_CONFIG", "allow"),
    );
    for run in [flag, var] {
        assert_eq!(run.code, 0, "{run:?}");
        assert_eq!(run.json()["hooks"][0]["id"], "audit");
        assert!(
            run.stderr
                .contains("so its hooks do not run: it is skipped; the other files' hooks run (on_broken_config: allow)"),
            "{}",
            run.stderr
        );
    }
    let bad = run_rm_rf(&env, &["--on-broken-config", "maybe"]);
    assert_eq!(bad.code, 1, "{bad:?}");
    assert!(
        bad.stderr.contains("it takes `block` or `allow`"),
        "{}",
        bad.stderr
    );
}

/// The user's guard in one of their files, the same guard in the other dialect.
const NATIVE_GUARD: &str = "hooks:\n  - id: no-rm-rf\n    event: PreToolUse\n    matcher: Bash\n    command: \"grep -q 'rm -rf' && { echo 'no rm -rf' >&2; exit 2; } || exit 0\"\n";

#[test]
fn a_bad_url_pattern_in_a_users_own_file_is_a_broken_file_not_a_failed_run() {
    // (file with the bad pattern, its text, where it is reported, the guard's file, guard)
    let cases = [
        (
            "home/.claude/settings.json",
            r#"{"allowedHttpHookUrls": ["http://[::1"]}"#,
            "[dir]/home/.claude/settings.json:1:26: invalid allowed URL pattern `http://[::1`",
            "home/.config/hooks/hooks.yaml",
            NATIVE_GUARD,
        ),
        (
            "home/.config/hooks/hooks.yaml",
            "allowed_http_hook_urls:\n  - https://hooks.example.com/\n  - ftp://files.example.com/\n",
            "[dir]/home/.config/hooks/hooks.yaml:3:5: invalid allowed URL pattern `ftp://files.example.com/`",
            "home/.claude/settings.json",
            USER_GUARD,
        ),
    ];
    for (bad, text, reported, guard_file, guard) in cases {
        let env = Env::new();
        env.write(bad, text);
        env.write(guard_file, guard);
        // By default: every event that can be blocked is, with the file named; an outcome.
        let run = env.run(&[
            "run",
            "PreToolUse",
            "--json",
            "-p",
            r#"{"tool_name":"Bash","tool_input":{"command":"ls"}}"#,
        ]);
        assert_eq!(run.code, 2, "{bad}: {run:?}");
        let reason = run.json()["reason"].as_str().unwrap().to_owned();
        assert!(
            reason.starts_with(&format!("the config file {reported}")),
            "{bad}: {reason}"
        );
        let human = env.run(&["run", "PreToolUse", "-p", RM_RF]);
        assert_eq!(human.code, 2, "{bad}: {human:?}");
        assert!(human.stdout.contains("block"), "{bad}: {}", human.stdout);
        // With `allow`, the other file's guard runs alone, and still stops `rm -rf`.
        let allow = run_rm_rf(&env, &["--on-broken-config", "allow"]);
        assert_eq!(allow.code, 2, "{bad}: {allow:?}");
        assert_eq!(allow.json()["reason"], "no rm -rf", "{bad}");
        let ok = env.run(&[
            "run",
            "PreToolUse",
            "--on-broken-config",
            "allow",
            "-p",
            r#"{"tool_name":"Bash","tool_input":{"command":"ls"}}"#,
        ]);
        assert_eq!(ok.code, 0, "{bad}: {ok:?}");
        // `hooks validate` names it as the error it is.
        let validate = env.run(&["validate"]);
        assert_eq!(validate.code, 1, "{bad}: {validate:?}");
        assert!(
            validate
                .stdout
                .contains(&reported.replacen(": invalid", ": error: invalid", 1)),
            "{bad}: {}",
            validate.stdout
        );
    }
}

#[test]
fn a_broken_file_named_with_c_blocks_with_an_outcome() {
    let env = Env::new();
    env.write("bad.yaml", "hooks:\n  - id: x\n    evnt: PreToolUse\n");
    for file in ["bad.yaml", "missing.yaml"] {
        let run = env.run(&["run", "PreToolUse", "-c", file, "-p", RM_RF]);
        assert_eq!(run.code, 2, "{file}: {run:?}");
        assert!(run.stdout.contains("block"), "{file}: {}", run.stdout);
        assert!(run.stdout.contains(file), "{file}: {}", run.stdout);
    }
}

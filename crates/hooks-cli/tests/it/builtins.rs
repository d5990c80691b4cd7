//! The built-in hooks: `hooks init` installs them, and each script does its job when run
//! as a real process with the environment and stdin the engine gives it.

// These tests start the scripts themselves, as the engine would.
#![allow(clippy::disallowed_methods)]

use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use assert_cmd::Command as Bin;

use crate::support::git;

/// Installs the built-ins into a fresh temp dir and returns it.
fn installed() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    Bin::cargo_bin("hooks")
        .unwrap()
        .args(["init", "--dir"])
        .arg(dir.path())
        .assert()
        .success();
    dir
}

fn script(dir: &Path, name: &str) -> PathBuf {
    dir.join("scripts").join(name)
}

/// Runs a script with `env` and `stdin`, in `cwd`.
fn run(path: &Path, cwd: &Path, env: &[(&str, &str)], stdin: &str) -> Output {
    let mut child = Command::new(path)
        .current_dir(cwd)
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A script that never reads its stdin may exit before the write: a broken pipe is
    // what such a hook gives a host, not a failure of the test.
    match child.stdin.take().unwrap().write_all(stdin.as_bytes()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        other => other.unwrap(),
    }
    child.wait_with_output().unwrap()
}

fn repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    git(dir.path(), &["init", "-q"]);
    git(
        dir.path(),
        &["config", "user.email", "hooks@example.invalid"],
    );
    git(dir.path(), &["config", "user.name", "hooks test"]);
    dir
}

#[test]
fn init_installs_executable_scripts_and_a_disabled_config() {
    let dir = installed();
    for name in [
        "log-event.sh",
        "sound-alert.sh",
        "auto-format.sh",
        "notify-webhook.sh",
        "git-auto-stage.sh",
        "smart-commit.sh",
    ] {
        let meta = std::fs::metadata(script(dir.path(), name)).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(
                meta.permissions().mode() & 0o111,
                0o111,
                "{name} is executable"
            );
        }
    }
    let config = std::fs::read_to_string(dir.path().join("hooks.yaml")).unwrap();
    assert_eq!(config.matches("enabled: false").count(), 10);
    assert!(!config.contains("${HOOKS_DIR}") && !config.contains("${HOOKS_BIN}"));
    assert!(config.contains(&format!("{}/scripts/log-event.sh", dir.path().display())));
}

#[test]
fn init_keeps_an_edited_config_unless_forced() {
    let dir = installed();
    let config = dir.path().join("hooks.yaml");
    std::fs::write(&config, "hooks: []\n").unwrap();
    Bin::cargo_bin("hooks")
        .unwrap()
        .args(["init", "--dir"])
        .arg(dir.path())
        .assert()
        .success();
    assert_eq!(std::fs::read_to_string(&config).unwrap(), "hooks: []\n");
    Bin::cargo_bin("hooks")
        .unwrap()
        .args(["init", "--force", "--dir"])
        .arg(dir.path())
        .assert()
        .success();
    assert!(
        std::fs::read_to_string(&config)
            .unwrap()
            .contains("security-guard")
    );
}

#[test]
fn log_event_appends_one_json_line_per_event() {
    let dir = installed();
    let logs = dir.path().join("logs");
    let env = [
        ("HOOK_EVENT", "stop"),
        ("HOOKS_LOG_DIR", logs.to_str().unwrap()),
    ];
    for n in 0..2 {
        let out = run(
            &script(dir.path(), "log-event.sh"),
            dir.path(),
            &env,
            &format!("{{\"session_id\":\"s{n}\"}}"),
        );
        assert!(out.status.success());
    }
    let text = std::fs::read_to_string(logs.join("stop.log")).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[1]["event"], "stop");
    assert_eq!(lines[1]["payload"]["session_id"], "s1");
}

#[test]
fn git_auto_stage_stages_sources_and_skips_secrets() {
    let dir = installed();
    let repo = repo();
    std::fs::create_dir_all(repo.path().join("src")).unwrap();
    std::fs::write(repo.path().join("src/a.ts"), "export {}\n").unwrap();
    std::fs::write(repo.path().join(".env"), "TOKEN=1\n").unwrap();
    let ws = repo.path().to_str().unwrap();
    let out = run(
        &script(dir.path(), "git-auto-stage.sh"),
        repo.path(),
        &[("HOOK_PATH", "src/a.ts"), ("HOOK_WORKSPACE", ws)],
        "{}",
    );
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "staged src/a.ts"
    );
    run(
        &script(dir.path(), "git-auto-stage.sh"),
        repo.path(),
        &[("HOOK_PATH", ".env"), ("HOOK_WORKSPACE", ws)],
        "{}",
    );
    assert_eq!(
        git(repo.path(), &["diff", "--cached", "--name-only"]),
        "src/a.ts\n"
    );
}

/// Every file the security guard refuses to write is one git-auto-stage does not stage:
/// every `.env*` name, keys, SSH files and credentials files.
#[test]
fn git_auto_stage_skips_every_secret_file_the_guard_protects() {
    let dir = installed();
    let repo = repo();
    let secrets = [
        ".envrc",
        ".env-prod",
        ".env_local",
        ".env.production",
        "certs/server.pem",
        "tls/private.key",
        "id_rsa",
        "id_ed25519.pub",
        ".ssh/config",
        ".npmrc",
        ".netrc",
        ".pypirc",
        "credentials",
        "aws/credentials.yml",
        "secrets.json",
    ];
    let ws = repo.path().to_str().unwrap();
    for name in secrets {
        let path = repo.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, "TOKEN=1\n").unwrap();
        assert!(
            matches!(
                hooks_cli::builtin::guard::check(&serde_json::json!({ "file_path": name })),
                hooks_cli::builtin::guard::Verdict::Block(_)
            ),
            "the guard refuses to write {name}"
        );
        let out = run(
            &script(dir.path(), "git-auto-stage.sh"),
            repo.path(),
            &[("HOOK_PATH", name), ("HOOK_WORKSPACE", ws)],
            "{}",
        );
        assert!(out.status.success());
    }
    assert_eq!(git(repo.path(), &["diff", "--cached", "--name-only"]), "");
    std::fs::write(repo.path().join("environment.ts"), "export {}\n").unwrap();
    run(
        &script(dir.path(), "git-auto-stage.sh"),
        repo.path(),
        &[("HOOK_PATH", "environment.ts"), ("HOOK_WORKSPACE", ws)],
        "{}",
    );
    assert_eq!(
        git(repo.path(), &["diff", "--cached", "--name-only"]),
        "environment.ts\n"
    );
}

/// A one-shot HTTP server on loopback: answers 200 to one request and hands its body over.
fn one_shot_server() -> (String, std::thread::JoinHandle<String>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/hook", listener.local_addr().unwrap());
    let handle = std::thread::spawn(move || {
        let (mut conn, _) = listener.accept().unwrap();
        let mut request = Vec::new();
        let mut buf = [0u8; 4096];
        // Read headers, then as many body bytes as Content-Length says.
        loop {
            let n = conn.read(&mut buf).unwrap();
            request.extend_from_slice(&buf[..n]);
            let text = String::from_utf8_lossy(&request).to_string();
            if let Some(end) = text.find("\r\n\r\n") {
                let len: usize = text
                    .lines()
                    .find_map(|l| {
                        l.to_ascii_lowercase()
                            .strip_prefix("content-length:")
                            .map(|v| v.trim().parse().unwrap())
                    })
                    .unwrap_or(0);
                if request.len() >= end + 4 + len || n == 0 {
                    conn.write_all(
                        b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok",
                    )
                    .unwrap();
                    return text[end + 4..].to_string();
                }
            }
            assert!(n > 0, "client closed early");
        }
    });
    (url, handle)
}

#[test]
fn notify_webhook_posts_a_summary() {
    let dir = installed();
    let (url, server) = one_shot_server();
    let env = [
        ("SLACK_WEBHOOK_URL", url.as_str()),
        ("HOOK_WORKSPACE", "/work/my-app"),
        ("HOOK_TOKENS", "1200"),
        ("HOOK_DURATION", "65000"),
    ];
    let out = run(
        &script(dir.path(), "notify-webhook.sh"),
        dir.path(),
        &env,
        "{}",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let body: serde_json::Value = serde_json::from_str(&server.join().unwrap()).unwrap();
    assert_eq!(
        body["text"],
        "Agent finished in my-app after 1m 5s, 1200 tokens"
    );
}

/// The duration in the notification is human, as Autohand's own `slack-notify` gives it
/// ("2m 5s"), never a raw count of milliseconds.
#[test]
fn notify_webhook_gives_a_human_duration() {
    let dir = installed();
    for (ms, human) in [
        ("900", "0s"),
        ("5000", "5s"),
        ("125000", "2m 5s"),
        ("3600000", "1h 0m"),
        ("3725000", "1h 2m"),
    ] {
        let (url, server) = one_shot_server();
        let env = [
            ("SLACK_WEBHOOK_URL", url.as_str()),
            ("HOOK_WORKSPACE", "/work/my-app"),
            ("HOOK_DURATION", ms),
        ];
        let out = run(
            &script(dir.path(), "notify-webhook.sh"),
            dir.path(),
            &env,
            "{}",
        );
        assert!(out.status.success());
        let body: serde_json::Value = serde_json::from_str(&server.join().unwrap()).unwrap();
        assert_eq!(
            body["text"],
            format!("Agent finished in my-app after {human}"),
            "{ms} ms"
        );
    }
}

#[test]
fn notify_webhook_without_a_url_says_so_and_passes() {
    let dir = installed();
    let mut cmd = Command::new(script(dir.path(), "notify-webhook.sh"));
    let out = cmd
        .env_remove("SLACK_WEBHOOK_URL")
        .env_remove("HOOKS_WEBHOOK_URL")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("set SLACK_WEBHOOK_URL"));
}

#[test]
fn auto_format_uses_the_projects_formatter() {
    let dir = installed();
    let project = tempfile::tempdir().unwrap();
    let bin = project.path().join("node_modules/.bin");
    std::fs::create_dir_all(&bin).unwrap();
    // A stand-in prettier that records the file it was asked to format.
    std::fs::write(
        bin.join("prettier"),
        "#!/bin/sh\necho \"$2\" > \"$(dirname \"$0\")/formatted\"\n",
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(bin.join("prettier"), std::fs::Permissions::from_mode(0o755))
            .unwrap();
    }
    std::fs::write(project.path().join("a.ts"), "x").unwrap();
    let ws = project.path().to_str().unwrap();
    let out = run(
        &script(dir.path(), "auto-format.sh"),
        project.path(),
        &[("HOOK_PATH", "a.ts"), ("HOOK_WORKSPACE", ws)],
        "{}",
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "formatted a.ts with prettier"
    );
    assert_eq!(
        std::fs::read_to_string(bin.join("formatted"))
            .unwrap()
            .trim(),
        "a.ts"
    );
    // Without a formatter it does nothing, quietly.
    let bare = tempfile::tempdir().unwrap();
    std::fs::write(bare.path().join("b.ts"), "x").unwrap();
    let out = run(
        &script(dir.path(), "auto-format.sh"),
        bare.path(),
        &[
            ("HOOK_PATH", "b.ts"),
            ("HOOK_WORKSPACE", bare.path().to_str().unwrap()),
        ],
        "{}",
    );
    assert!(out.status.success() && out.stdout.is_empty());
}

#[test]
fn sound_alert_never_fails_the_turn() {
    let dir = installed();
    let out = run(&script(dir.path(), "sound-alert.sh"), dir.path(), &[], "{}");
    assert!(out.status.success());
}

#[test]
fn smart_commit_commits_when_tests_pass_and_not_when_they_fail() {
    let dir = installed();
    let repo = repo();
    let ws = repo.path().to_str().unwrap();
    std::fs::write(repo.path().join("Makefile"), "test:\n\t@test -f ok\n").unwrap();
    std::fs::write(repo.path().join("notes.md"), "hello\n").unwrap();
    git(repo.path(), &["add", "notes.md"]);
    // No `ok` file: the tests fail, nothing is committed.
    let out = run(
        &script(dir.path(), "smart-commit.sh"),
        repo.path(),
        &[("HOOK_WORKSPACE", ws)],
        "{}",
    );
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("tests failed"));
    assert!(
        Command::new("git")
            .current_dir(repo.path())
            .args(["rev-parse", "HEAD"])
            .output()
            .unwrap()
            .status
            .code()
            != Some(0)
    );
    // With `ok`, it commits with a summarising subject.
    std::fs::write(repo.path().join("ok"), "").unwrap();
    let out = run(
        &script(dir.path(), "smart-commit.sh"),
        repo.path(),
        &[("HOOK_WORKSPACE", ws)],
        "{}",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        git(repo.path(), &["log", "-1", "--format=%s"]).trim(),
        "Update notes.md"
    );
}

/// `hooks init` with no `--dir` installs where every command finds it (the user's native
/// config directory), and its guard runs this binary through `{{ vars.HOOKS_BIN }}`: in a
/// fresh home and a fresh project, once enabled, it blocks `rm -rf /` and lets `ls` pass.
#[test]
fn init_installs_a_guard_that_guards_every_project() {
    let env = crate::support::Env::new();
    let project = env.path().join("project");
    std::fs::create_dir_all(&project).unwrap();
    let in_project = |args: &[&str]| {
        let mut cmd = env.command();
        cmd.current_dir(&project).args(args);
        env.finish(&mut cmd)
    };

    let init = in_project(&["init"]);
    assert_eq!(init.code, 0, "{init:?}");
    let enable = in_project(&["enable", "security-guard"]);
    for (command, exit) in [("rm -rf /", 2), ("ls -la", 0)] {
        let payload = serde_json::json!({
            "tool_name": "Bash",
            "tool_input": {"command": command},
            "cwd": project,
        })
        .to_string();
        let run = in_project(&["run", "PreToolUse", "-p", &payload]);
        assert_eq!(run.code, exit, "`{command}`: {run:?}\n{init:?}\n{enable:?}");
    }
    assert_eq!(enable.code, 0, "{enable:?}");

    assert!(
        init.stdout
            .contains("wrote [dir]/home/.config/hooks/hooks.yaml"),
        "{}",
        init.stdout
    );
    assert!(!init.stdout.contains("note:"), "{}", init.stdout);
    let config = std::fs::read_to_string(env.path().join("home/.config/hooks/hooks.yaml")).unwrap();
    assert!(config.contains(r#"args: ["{{ vars.HOOKS_BIN }}", "builtin", "security-guard"]"#));
    let bin = assert_cmd::cargo::cargo_bin("hooks");
    assert!(
        !config.contains(&bin.display().to_string()),
        "no build path in {config}"
    );
}

/// `hooks init --dir DIR` installs where it is told, and says that no command reads
/// `DIR/hooks.yaml` unless named with `-c`.
#[test]
fn init_into_another_dir_says_how_to_use_it() {
    let env = crate::support::Env::new();
    let init = env.run(&["init", "--dir", "elsewhere"]);
    assert_eq!(init.code, 0, "{init:?}");
    assert!(
        init.stdout.contains(
            "note: elsewhere/hooks.yaml is not a place hooks looks for configs; name it with `-c elsewhere/hooks.yaml`"
        ),
        "{}",
        init.stdout
    );
}

/// The built-in entries as Autohand's documentation writes them (its own config lines),
/// with a payload each: after `hooks init --autohand`, every one runs its script.
const SEED_BUILTINS: &[(&str, &str, &str)] = &[
    (
        r#"{"event": "stop", "command": "~/.autohand/hooks/sound-alert.sh", "description": "Play sound when task completes", "enabled": true, "async": true}"#,
        "stop",
        "{}",
    ),
    (
        r#"{"event": "file-modified", "command": "~/.autohand/hooks/auto-format.sh", "description": "Auto-format changed files", "enabled": true, "filter": {"path": ["**/*.ts", "**/*.tsx", "**/*.js", "**/*.jsx", "**/*.json", "**/*.css", "**/*.md"]}}"#,
        "file-modified",
        r#"{"file_path": "src/a.ts", "change_type": "modify"}"#,
    ),
    (
        r#"{"event": "stop", "command": "~/.autohand/hooks/slack-notify.sh", "description": "Send Slack notification when task completes", "enabled": true, "async": true}"#,
        "stop",
        "{}",
    ),
    (
        r#"{"event": "file-modified", "command": "~/.autohand/hooks/git-auto-stage.sh", "description": "Auto-stage modified files to git", "enabled": true, "filter": {"path": ["src/**/*", "lib/**/*", "tests/**/*"]}}"#,
        "file-modified",
        r#"{"file_path": "src/a.ts", "change_type": "modify"}"#,
    ),
    (
        r#"{"event": "pre-tool", "command": "~/.autohand/hooks/security-guard.sh", "description": "Block dangerous commands and operations", "enabled": true, "matcher": "^(run_command|delete_path|write_file)$"}"#,
        "pre-tool",
        r#"{"tool_name": "run_command", "tool_input": {"command": "rm -rf /"}}"#,
    ),
    (
        r#"{"event": "stop", "command": "~/.autohand/hooks/smart-commit.sh", "description": "Auto lint, test, and commit with LLM message", "enabled": false, "async": true}"#,
        "stop",
        "{}",
    ),
];

/// A directory of programs for PATH: `sh`, `uname` and `timeout` from the system, and a
/// stub for each of `stubs` (name, exit code) that appends its name to `played.log`.
fn stub_path(env: &crate::support::Env, stubs: &[(&str, i32)]) -> String {
    let bin = env.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    for tool in ["sh", "uname", "timeout"] {
        let found = Command::new("sh")
            .args(["-c", &format!("command -v {tool}")])
            .output()
            .unwrap();
        let real = String::from_utf8(found.stdout).unwrap();
        std::os::unix::fs::symlink(real.trim(), bin.join(tool)).unwrap();
    }
    let log = env.path().join("played.log");
    for (name, code) in stubs {
        let path = bin.join(name);
        std::fs::write(
            &path,
            format!(
                "#!/bin/sh\necho {name} >> '{}'\nexit {code}\n",
                log.display()
            ),
        )
        .unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    bin.display().to_string()
}

/// `hooks init --autohand` installs the scripts where Autohand's documentation puts them
/// and adds their entries, every one disabled, to `~/.autohand/config.json`; the
/// documentation's own config lines then run those scripts, and the guard blocks.
#[test]
fn init_autohand_makes_the_seeds_own_config_lines_work() {
    let env = crate::support::Env::new().in_dir("p");
    let init = env.run(&["init", "--autohand"]);
    assert_eq!(init.code, 0, "{init:?}");
    assert_eq!(
        init.stdout,
        "installed 7 built-in scripts into [dir]/home/.autohand/hooks\n\
         wrote [dir]/home/.autohand/config.json (every hook disabled; enable one with `hooks enable DESCRIPTION` or `hooks manage`)\n"
    );
    // The entries: every one disabled, every command an existing script or the built-in.
    let listed = env.run(&["list", "--json"]).json();
    let hooks: Vec<&serde_json::Value> = listed["events"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|e| e["hooks"].as_array().unwrap())
        .collect();
    assert_eq!(hooks.len(), 10, "{listed:#}");
    let home = env.path().join("home");
    for hook in &hooks {
        assert_eq!(hook["enabled"], false, "{hook}");
        let action = hook["action"].as_str().unwrap_or_default();
        let command = action.strip_prefix("command: ").unwrap_or(action);
        match command.strip_prefix("~/") {
            Some(rest) => assert!(home.join(rest).is_file(), "{command}"),
            None => assert!(command.ends_with(" builtin security-guard"), "{command}"),
        }
    }
    // The seed's lines, each alone in a config of its own, run their scripts: no spawn
    // failure, and the guard blocks `rm -rf /`.
    let path = stub_path(&env, &[("aplay", 0)]);
    for (line, event, payload) in SEED_BUILTINS {
        env.write(
            "p/seed.json",
            &format!(r#"{{"hooks": {{"hooks": [{line}]}}}}"#),
        );
        let handle: serde_json::Value = serde_json::from_str(line).unwrap();
        let handle = handle["description"].as_str().unwrap();
        let run = env.finish(
            env.command()
                .args(["test", handle, "-c", "seed.json", "-p", payload, "--json"])
                .env("PATH", format!("{path}:/usr/bin:/bin"))
                .env_remove("SLACK_WEBHOOK_URL")
                .timeout(std::time::Duration::from_secs(30)),
        );
        let outcome = &run.json()["outcome"];
        let expect = if *event == "pre-tool" { 2 } else { 0 };
        assert_eq!(outcome["exit_code"], expect, "{line}:\n{run:?}");
    }
}

/// An existing `~/.autohand/config.json` keeps its settings and hooks; the built-ins are
/// added once.
#[test]
fn init_autohand_adds_to_an_existing_config_once() {
    let env = crate::support::Env::new();
    let mine = "{\n  \"theme\": \"dark\",\n  \"hooks\": {\n    \"enabled\": true,\n    \"hooks\": [\n      {\"event\": \"stop\", \"command\": \"./mine.sh\", \"description\": \"Mine\"}\n    ]\n  }\n}\n";
    // (what the file holds before, what the second line of the output says, hooks after)
    let cases = [
        (
            mine,
            "added 10 built-in hooks to [dir]/home/.autohand/config.json, every one disabled (its other settings and hooks are kept)",
            11,
        ),
        (
            "{\"theme\": \"dark\"}\n",
            "added 10 built-in hooks to [dir]/home/.autohand/config.json, every one disabled (its other settings and hooks are kept)",
            10,
        ),
    ];
    for (before, said, total) in cases {
        env.write("home/.autohand/config.json", before);
        let first = env.run(&["init", "--autohand"]);
        assert_eq!(first.code, 0, "{first:?}");
        assert_eq!(first.stdout.lines().nth(1), Some(said));
        let again = env.run(&["init", "--autohand"]);
        assert_eq!(
            again.stdout.lines().nth(1),
            Some("[dir]/home/.autohand/config.json already has every built-in hook")
        );
        let text = std::fs::read_to_string(env.path().join("home/.autohand/config.json")).unwrap();
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["theme"], "dark", "{text}");
        let hooks = value["hooks"]["hooks"].as_array().unwrap();
        assert_eq!(hooks.len(), total, "{text}");
        let enabled: Vec<&serde_json::Value> =
            hooks.iter().filter(|h| h["enabled"] != false).collect();
        assert_eq!(
            enabled.len(),
            total - 10,
            "only the user's own hook is on: {text}"
        );
    }
}

/// The sound alert tries paplay, then aplay, then speaker-test on Linux, each when the
/// one before is missing or fails, and never fails the turn.
#[test]
fn sound_alert_falls_back_through_the_linux_players() {
    // (the players on PATH with their exit codes, the ones tried in order)
    let cases: &[(&[(&str, i32)], &str)] = &[
        (
            &[("paplay", 0), ("aplay", 0), ("speaker-test", 0)],
            "paplay",
        ),
        (
            &[("paplay", 1), ("aplay", 0), ("speaker-test", 0)],
            "paplay aplay",
        ),
        (&[("aplay", 0), ("speaker-test", 0)], "aplay"),
        (
            &[("paplay", 1), ("aplay", 1), ("speaker-test", 0)],
            "paplay aplay speaker-test",
        ),
        (&[("speaker-test", 0)], "speaker-test"),
        (
            &[("paplay", 1), ("aplay", 1), ("speaker-test", 1)],
            "paplay aplay speaker-test",
        ),
        (&[], ""),
    ];
    for (players, tried) in cases {
        let env = crate::support::Env::new();
        assert_eq!(env.run(&["init", "--autohand"]).code, 0);
        let path = stub_path(&env, players);
        let run = env.finish(
            env.command()
                .args(["test", "Play sound when task completes", "--json"])
                .env("PATH", &path)
                .timeout(std::time::Duration::from_secs(30)),
        );
        assert_eq!(
            run.json()["outcome"]["exit_code"],
            0,
            "{players:?}: {run:?}"
        );
        let log = std::fs::read_to_string(env.path().join("played.log")).unwrap_or_default();
        assert_eq!(
            log.split_whitespace().collect::<Vec<_>>().join(" "),
            *tried,
            "{players:?}"
        );
    }
}

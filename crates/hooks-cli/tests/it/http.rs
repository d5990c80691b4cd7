//! http hooks as their dialects write them, through the real `hooks run`: a URL written in
//! a file the user trusts, or names with `-c`, is sent to with no allow-list anywhere; an
//! untrusted file's hook is not; an allow-list the user sets restricts, and `hooks
//! validate` names the hook's line and the key to set. A loopback peer counts what it got.

use crate::support::{Env, Peer};

const PAYLOAD: &str = r#"{"session_id":"s1","tool_name":"Bash","tool_input":{"command":"ls"}}"#;

/// One case: files to write (`PORT` and `CASE` filled in), the file to trust first, the
/// config arguments, whether the hook reached the peer, and the warning `hooks validate`
/// gives (empty: none about the URL).
struct Case {
    files: &'static [(&'static str, &'static str)],
    trust: Option<&'static str>,
    args: &'static [&'static str],
    sent: bool,
    warning: &'static str,
}

const ECHO: &str = r#"hooks:
  PreToolUse:
    - matcher: "Bash"
      hooks:
        - type: http
          url: "http://127.0.0.1:PORT/CASE"
          timeout: 5
"#;

const CLAUDE: &str = r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
  {"type": "http", "url": "http://127.0.0.1:PORT/CASE", "timeout": 5}
]}]}}"#;

const FABRO: &str = r#"_version = 1

[[run.hooks]]
id = "audit"
event = "pre_tool_use"
url = "http://127.0.0.1:PORT/CASE"
tls = "off"
timeout = "5s"
"#;

const NATIVE_LISTED: &str = r#"allowed_http_hook_urls: ["http://127.0.0.1:PORT/"]
hooks:
  - event: PreToolUse
    url: "http://127.0.0.1:PORT/CASE"
    timeout: 5
"#;

const USER_LIST: &str = r#"{"allowedHttpHookUrls": ["https://hooks.example.com/"]}"#;

const CASES: &[Case] = &[
    // echo-agent's http hook, named with -c.
    Case {
        files: &[("echo-agent.yaml", ECHO)],
        trust: None,
        args: &["-c", "echo-agent.yaml"],
        sent: true,
        warning: "",
    },
    // Fabro's `url` hook in a run config.
    Case {
        files: &[("run.toml", FABRO)],
        trust: None,
        args: &["-c", "run.toml"],
        sent: true,
        warning: "",
    },
    // Claude Code's project settings, trusted.
    Case {
        files: &[(".claude/settings.json", CLAUDE)],
        trust: Some(".claude/settings.json"),
        args: &[],
        sent: true,
        warning: "",
    },
    // The same, not trusted: nothing is sent.
    Case {
        files: &[(".claude/settings.json", CLAUDE)],
        trust: None,
        args: &[],
        sent: false,
        warning: "",
    },
    // The user's own allow-list restricts a trusted project's hook.
    Case {
        files: &[
            (".claude/settings.json", CLAUDE),
            ("home/.claude/settings.json", USER_LIST),
        ],
        trust: Some(".claude/settings.json"),
        args: &[],
        sent: false,
        warning: "[dir]/.claude/settings.json:2:3: warning: http hook `http: http://127.0.0.1:PORT/CASE` does not run: its URL is not in the allowed HTTP hook URLs",
    },
    // A list that holds the URL lets it through.
    Case {
        files: &[("hooks.yaml", NATIVE_LISTED)],
        trust: None,
        args: &["-c", "hooks.yaml"],
        sent: true,
        warning: "",
    },
];

#[test]
fn http_hooks_are_sent_on_the_trust_of_their_file() {
    let peer = Peer::start();
    let port = peer.port.to_string();
    for (i, case) in CASES.iter().enumerate() {
        let path = format!("case-{i}");
        let fill = |text: &str| text.replace("PORT", &port).replace("CASE", &path);
        let env = Env::new();
        for (rel, text) in case.files {
            env.write(rel, &fill(text));
        }
        if let Some(file) = case.trust {
            let trusted = env.run(&["trust", file]);
            assert_eq!(trusted.code, 0, "case {i}: {trusted:?}");
        }
        let mut args = vec!["run", "PreToolUse", "-p", PAYLOAD, "--json"];
        args.extend(case.args);
        let run = env.run(&args);
        let hits = peer
            .requests()
            .iter()
            .filter(|r| r.starts_with(&format!("POST /{path} ")))
            .count();
        assert_eq!(hits, usize::from(case.sent), "case {i}: {run:?}");
        // What the peer answered is the outcome: a block quoting the path it saw.
        assert_eq!(run.code, if case.sent { 2 } else { 0 }, "case {i}: {run:?}");
        let mut validate = vec!["validate"];
        validate.extend(case.args);
        let checked = env.run(&validate);
        let warning = fill(case.warning);
        if warning.is_empty() {
            assert!(
                !checked.stdout.contains("allowed HTTP hook URLs")
                    && !checked.stdout.contains("never sent"),
                "case {i}: {checked:?}"
            );
        } else {
            assert!(
                checked.stdout.contains(&warning),
                "case {i}: no `{warning}` in:\n{}",
                checked.stdout
            );
            assert!(
                checked.stdout.contains("hint: add a pattern that covers it to `allowed_http_hook_urls` (`allowedHttpHookUrls` in Claude Code's settings)"),
                "case {i}: {}",
                checked.stdout
            );
        }
    }
}

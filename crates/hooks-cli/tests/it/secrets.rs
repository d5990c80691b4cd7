//! Secrets under attack: hooks given `{{ secrets.NAME }}` that echo it back every way they
//! can (stdout, stderr, JSON fields, a spawn error naming the path or directory, an HTTP
//! transport error naming the URL, an HTTP peer echoing it), and every output of the
//! binary (`hooks run`, `replay`, `test`, `serve --stdio`), checked byte for byte: the value
//! never appears, its mask does. And `{{ env.X }}` in an http hook's URL and headers,
//! which reads only the variables the hook allows: a loopback peer checks what was sent.

use std::net::TcpListener;
use std::time::Duration;

use crate::support::{Env, Peer};

/// The secret's name, read by the default provider from the environment variable of that name.
const NAME: &str = "HOOKS_TEST_TOKEN";
/// The value a hostile hook tries to get written out.
const VALUE: &str = "tok-7Qz9xK2mP4wL";
/// What the engine writes instead.
const MASK: &str = "[secret HOOKS_TEST_TOKEN]";
/// A bound on every run of the binary.
const PATIENCE: Duration = Duration::from_secs(60);

const PAYLOAD: &str = r#"{"session_id":"s1","tool_name":"Bash","tool_input":{"command":"ls"}}"#;

/// A loopback port nothing listens on.
fn closed_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Hooks that each try to get the secret written out in another way.
fn config(echo: u16, closed: u16) -> String {
    let secret = format!("{{{{ secrets.{NAME} }}}}");
    format!(
        r#"allowed_http_hook_urls: ["http://127.0.0.1:{echo}/*", "http://127.0.0.1:{closed}/*"]
hooks:
  - id: stderr-block
    event: PreToolUse
    command: 'echo "denied {secret}" >&2; exit 2'
  - id: json-fields
    event: PreToolUse
    env: {{ T: "{secret}" }}
    command: |
      printf '{{"systemMessage":"m %s","hookSpecificOutput":{{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"r %s","additionalContext":"c %s"}}}}' "$T" "$T" "$T"
  - id: exit-1
    event: PreToolUse
    env: {{ T: "{secret}" }}
    command: 'echo "oops $T" >&2; exit 1'
  - id: argv-path
    event: PreToolUse
    args: ["/nonexistent/{secret}/bin"]
  - id: cwd-path
    event: PreToolUse
    command: "true"
    cwd: "/nonexistent/{secret}"
  - id: http-closed
    event: PreToolUse
    url: "http://127.0.0.1:{closed}/hook/{secret}"
  - id: http-echo
    event: PreToolUse
    url: "http://127.0.0.1:{echo}/echo/{secret}"
  - id: http-fail
    event: PreToolUse
    url: "http://127.0.0.1:{echo}/fail/{secret}"
  - id: async-echo
    event: PreToolUse
    async: true
    command: 'echo "async {secret}" >&2; exit 2'
"#
    )
}

/// The hook ids of [`config`] that `hooks test` runs one by one.
const IDS: [&str; 8] = [
    "stderr-block",
    "json-fields",
    "exit-1",
    "argv-path",
    "cwd-path",
    "http-closed",
    "http-echo",
    "http-fail",
];

/// Runs the binary with the secret in its environment and returns everything it wrote.
fn run(env: &Env, args: &[&str], stdin: &str) -> (String, Vec<u8>) {
    let out = env
        .command()
        .env(NAME, VALUE)
        .args(args)
        .write_stdin(stdin)
        .timeout(PATIENCE)
        .output()
        .unwrap();
    let mut all = out.stdout.clone();
    all.extend_from_slice(&out.stderr);
    (String::from_utf8_lossy(&out.stdout).into_owned(), all)
}

/// The secret is nowhere in what the binary wrote, and `expect_masks` of its masks are in
/// stdout (so the hooks did get it written where they tried).
#[track_caller]
fn check(what: &str, (stdout, all): &(String, Vec<u8>), expect_masks: usize) {
    let text = String::from_utf8_lossy(all);
    assert!(
        !all.windows(VALUE.len()).any(|w| w == VALUE.as_bytes()),
        "{what} wrote the secret:\n{text}"
    );
    let masks = stdout.matches(MASK).count();
    assert!(
        masks >= expect_masks,
        "{what}: {masks} masks, expected at least {expect_masks}:\n{text}"
    );
}

fn setup() -> Env {
    let env = Env::new();
    env.write("hooks.yaml", &config(Peer::start().port, closed_port()));
    env
}

#[test]
fn hooks_run_never_writes_a_secret_its_hooks_were_given() {
    let env = setup();
    let args = ["run", "PreToolUse", "-c", "hooks.yaml", "-p", PAYLOAD];
    // Reason, system message, context, and the failures of exit-1, argv-path, cwd-path,
    // http-closed and http-fail (as messages and in the per-hook reports).
    check(
        "hooks run --json",
        &run(&env, &[&args[..], &["--json"]].concat(), ""),
        8,
    );
    check("hooks run", &run(&env, &args, ""), 8);
}

#[test]
fn hooks_test_never_writes_a_secret_the_hook_was_given() {
    let env = setup();
    for id in IDS {
        let args = ["test", id, "-c", "hooks.yaml", "-p", PAYLOAD];
        check(
            &format!("hooks test {id} --json"),
            &run(&env, &[&args[..], &["--json"]].concat(), ""),
            1,
        );
        check(&format!("hooks test {id}"), &run(&env, &args, ""), 1);
    }
}

#[test]
fn hooks_replay_never_writes_a_secret_its_hooks_were_given() {
    let env = setup();
    env.write(
        "session.jsonl",
        &format!("{{\"event\":\"PreToolUse\",\"payload\":{PAYLOAD}}}\n"),
    );
    let args = ["replay", "session.jsonl", "-c", "hooks.yaml"];
    check(
        "hooks replay --json",
        &run(&env, &[&args[..], &["--json"]].concat(), ""),
        1,
    );
    check("hooks replay", &run(&env, &args, ""), 1);
}

#[test]
fn hooks_serve_never_writes_a_secret_in_answers_or_notifications() {
    let env = setup();
    let requests = [
        format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"hooks/dispatch","params":{{"event":"PreToolUse","payload":{PAYLOAD}}}}}"#
        ),
        r#"{"jsonrpc":"2.0","id":2,"method":"hooks/list"}"#.to_owned(),
    ];
    let stdin = requests.join("\n") + "\n";
    let out = run(&env, &["serve", "--stdio", "-c", "hooks.yaml"], &stdin);
    check("hooks serve --stdio", &out, 8);
    // The async hook's outcome went out as a notification, masked.
    let notification = out
        .0
        .lines()
        .find(|l| l.contains("hooks.asyncHook.completed"))
        .unwrap_or_else(|| panic!("no async notification:\n{}", out.0));
    assert!(
        notification.contains(&format!("async {MASK}")),
        "{notification}"
    );
}

/// A Claude settings file whose http hook puts `{{ env.AWS_SECRET }}` in its URL and a
/// header, allowing `allowed` (a JSON list) of the environment.
fn claude_http(port: u16, allowed: &str) -> String {
    format!(
        r#"{{"allowedHttpHookUrls": ["http://127.0.0.1:{port}/*"],
  "hooks": {{"PreToolUse": [{{"matcher": "*", "hooks": [{{
    "type": "http",
    "url": "http://127.0.0.1:{port}/hook?k={{{{ env.AWS_SECRET }}}}",
    "headers": {{"X-Key": "{{{{ env.AWS_SECRET }}}}", "X-Other": "v={{{{ env.AWS_OTHER }}}}"}},
    "allowedEnvVars": {allowed}
  }}]}}]}}}}"#
    )
}

#[test]
fn http_hooks_send_and_list_only_the_environment_they_allow() {
    const AWS: &str = "aws-7f2Kq9Zx-secret";
    const OTHER: &str = "other-4Rt8Yw-value";
    for (allowed, sent) in [("[]", None), (r#"["AWS_OTHER"]"#, Some(OTHER))] {
        let env = Env::new();
        let peer = Peer::start();
        env.write(".claude/settings.json", &claude_http(peer.port, allowed));
        let cmd = |args: &[&str]| {
            let out = env
                .command()
                .env("AWS_SECRET", AWS)
                .env("AWS_OTHER", OTHER)
                .args(args)
                .timeout(PATIENCE)
                .output()
                .unwrap();
            let text = String::from_utf8_lossy(&[out.stdout, out.stderr].concat()).into_owned();
            (out.status.code(), text)
        };
        let config = ["-c", ".claude/settings.json"];
        let (code, run) = cmd(&[&["run", "PreToolUse", "-p", PAYLOAD][..], &config].concat());
        assert_eq!(code, Some(2), "the peer answered: {run}");
        let requests = peer.requests();
        assert_eq!(requests.len(), 1, "{requests:?}");
        let request = &requests[0];
        assert!(
            !request.contains(AWS),
            "{allowed}: the request carried AWS_SECRET:\n{request}"
        );
        match sent {
            Some(value) => assert!(
                request.contains(&format!("x-other: v={value}")),
                "{request}"
            ),
            None => assert!(!request.contains(OTHER), "{request}"),
        }
        // Not in any output, nor in the listing; the warning names the hook and the variable.
        let (_, list) = cmd(&[&["list"][..], &config].concat());
        let (_, json) = cmd(&[&["list", "--json"][..], &config].concat());
        for text in [&run, &list, &json] {
            assert!(
                !text.contains(AWS) && !text.contains(OTHER),
                "{allowed}:\n{text}"
            );
        }
        assert!(
            list.contains("`{{ env.AWS_SECRET }}` is not in the http hook's allowed env vars"),
            "{list}"
        );
    }
}

//! The command executor against real processes: every dialect's answers, environment and
//! stdin, timeouts with group kill, output caps, stdin floods, crashes and spawn failures.

use std::path::Path;
use std::time::{Duration, Instant};

use hooks_core::CancellationToken;
use hooks_core::{
    Action, BuiltinEvent, CommandAction, CommandLine, Decision, Dialect, EventContext, FailureKind,
    HookOutcome, HookSpec, HookStatus,
};
use hooks_exec::{CommandExecutor, Executor, HookRun};
use serde_json::{Value, json};

use crate::support::{Fixture, is_running, read_fifo, run, run_with, wait_gone};

fn script_hook(event: BuiltinEvent, dialect: Dialect, script: &str) -> HookSpec {
    HookSpec::new(event, Action::script(script))
        .with_id("h")
        .with_dialect(dialect)
}

/// Runs `script` as a `dialect` hook on a PreToolUse for Bash and checks the decision,
/// status and reason it came to.
#[track_caller]
fn check(
    dialect: Dialect,
    script: &str,
    decision: Decision,
    status: HookStatus,
    reason: Option<&str>,
) {
    let caller = std::panic::Location::caller();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let fx = Fixture::new();
    let spec = script_hook(BuiltinEvent::PreToolUse, dialect, script);
    let outcome = rt.block_on(run(&spec, &fx.pre_tool()));
    assert_eq!(
        (
            outcome.effects.decision,
            outcome.run.status,
            outcome.effects.reason.as_deref()
        ),
        (decision, status, reason),
        "{caller}: {outcome:#?}"
    );
}

#[test]
fn every_dialect_decides() {
    use Decision::*;
    use HookStatus::{Blocked, Ok};
    // Claude Code: hookSpecificOutput, after checking its stdin names the event its way.
    let claude = |d: &str| {
        format!(
            r#"grep -q '"hook_event_name":"PreToolUse"' || exit 1
echo '{{"hookSpecificOutput":{{"hookEventName":"PreToolUse","permissionDecision":"{d}","permissionDecisionReason":"claude says {d}"}}}}'"#
        )
    };
    check(
        Dialect::Claude,
        &claude("allow"),
        Allow,
        Ok,
        Some("claude says allow"),
    );
    check(
        Dialect::Claude,
        &claude("deny"),
        Deny,
        Blocked,
        Some("claude says deny"),
    );
    check(
        Dialect::Claude,
        &claude("ask"),
        Ask,
        Ok,
        Some("claude says ask"),
    );
    check(
        Dialect::Claude,
        &claude("defer"),
        Defer,
        Ok,
        Some("claude says defer"),
    );

    // echo-agent: `decision` + `message`; its stdin carries `event` too.
    let echo = |d: &str| {
        format!(
            r#"grep -q '"event":"PreToolUse"' || exit 1
echo '{{"decision":"{d}","reason":"echo says {d}"}}'"#
        )
    };
    check(
        Dialect::Echo,
        &echo("allow"),
        Allow,
        Ok,
        Some("echo says allow"),
    );
    check(
        Dialect::Echo,
        &echo("deny"),
        Deny,
        Blocked,
        Some("echo says deny"),
    );
    check(Dialect::Echo, &echo("ask"), Ask, Ok, Some("echo says ask"));

    // Autohand: its HOOK_* variables, and `decision` with `reason`.
    let autohand = |d: &str| {
        format!(
            r#"[ "$HOOK_EVENT" = pre-tool ] && [ "$HOOK_TOOL" = Bash ] || exit 1
echo '{{"decision":"{d}","reason":"autohand says {d}"}}'"#
        )
    };
    check(
        Dialect::Autohand,
        &autohand("allow"),
        Allow,
        Ok,
        Some("autohand says allow"),
    );
    check(
        Dialect::Autohand,
        &autohand("deny"),
        Deny,
        Blocked,
        Some("autohand says deny"),
    );
    check(
        Dialect::Autohand,
        &autohand("ask"),
        Ask,
        Ok,
        Some("autohand says ask"),
    );
    check(
        Dialect::Autohand,
        &autohand("block"),
        Block,
        Blocked,
        Some("autohand says block"),
    );

    // Fabro: FABRO_EVENT, proceed / block.
    let fabro =
        |answer: &str| format!("[ \"$FABRO_EVENT\" = pre_tool_use ] || exit 1\necho '{answer}'");
    check(
        Dialect::Fabro,
        &fabro(r#"{"decision":"proceed"}"#),
        None,
        Ok,
        Option::None,
    );
    check(
        Dialect::Fabro,
        &fabro(r#"{"decision":"block","reason":"fabro says block"}"#),
        Block,
        Blocked,
        Some("fabro says block"),
    );

    // Cursor: `permission` (its `user_message` is a message for the user, not a reason).
    let cursor =
        |d: &str| format!(r#"echo '{{"permission":"{d}","user_message":"cursor says {d}"}}'"#);
    check(Dialect::Native, &cursor("allow"), Allow, Ok, Option::None);
    check(
        Dialect::Native,
        &cursor("deny"),
        Deny,
        Blocked,
        Option::None,
    );
    check(Dialect::Native, &cursor("ask"), Ask, Ok, Option::None);

    // Exit 2 blocks with stderr as the reason, whatever the dialect.
    check(
        Dialect::Claude,
        "echo 'rm -rf is not allowed' >&2; exit 2",
        Block,
        Blocked,
        Some("rm -rf is not allowed"),
    );
}

#[tokio::test]
async fn exit_2_with_json_still_reads_stdout_and_cannot_be_undone() {
    let fx = Fixture::new();
    let spec = script_hook(
        BuiltinEvent::PreToolUse,
        Dialect::Claude,
        r#"echo '{"systemMessage":"checked by policy","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'
echo 'policy forbids this' >&2
exit 2"#,
    );
    let outcome = run(&spec, &fx.pre_tool()).await;
    assert_eq!(outcome.run.status, HookStatus::Blocked);
    assert_eq!(outcome.effects.decision, Decision::Block);
    assert_eq!(
        outcome.effects.reason.as_deref(),
        Some("policy forbids this")
    );
    assert_eq!(
        outcome.effects.system_message.as_deref(),
        Some("checked by policy")
    );
    assert_eq!(outcome.run.exit_code, Some(2));
}

#[tokio::test]
async fn each_dialect_gets_its_stdin_environment_and_working_directory() {
    let fx = Fixture::new();
    let ctx = EventContext::pre_tool_use("Write", json!({"file_path": "src/a.rs"}))
        .session_id("s-9")
        .cwd(fx.dir())
        .run("run-1", "deploy")
        .with("node_id", "build");
    for dialect in [
        Dialect::Claude,
        Dialect::Echo,
        Dialect::Autohand,
        Dialect::Fabro,
        Dialect::Native,
        Dialect::Qwen,
        Dialect::Droid,
        Dialect::Copilot,
    ] {
        let name = dialect.as_str();
        let mut action = CommandAction::new(CommandLine::Script(format!(
            "cat > stdin-{name}.json; env > env-{name}.txt; pwd > pwd-{name}.txt"
        )));
        action.env.push(("MY_SETTING".to_owned(), "on".to_owned()));
        action.sandbox = Some(false);
        let spec =
            HookSpec::new(BuiltinEvent::PreToolUse, Action::Command(action)).with_dialect(dialect);
        let outcome = run(&spec, &ctx).await;
        assert_eq!(outcome.run.status, HookStatus::Ok, "{name}: {outcome:?}");

        let stdin: Value = serde_json::from_str(&fx.read(&format!("stdin-{name}.json"))).unwrap();
        assert_eq!(stdin, ctx.to_json(dialect), "{name}");
        let env = fx.read(&format!("env-{name}.txt"));
        let has = |line: &str| env.lines().any(|l| l == line);
        assert!(has("MY_SETTING=on"), "{name}");
        // The engine's own environment is inherited.
        assert!(env.lines().any(|l| l.starts_with("PATH=")), "{name}");
        let autohand =
            has("HOOK_EVENT=pre-tool") && has("HOOK_TOOL=Write") && has("HOOK_PATH=src/a.rs");
        let fabro = has("FABRO_EVENT=pre_tool_use")
            && has("FABRO_RUN_ID=run-1")
            && has("FABRO_NODE_ID=build");
        // The project root is the executor's (the engine's directory here), not the `cwd`.
        let root = std::env::current_dir().unwrap();
        let claude = has(&format!("CLAUDE_PROJECT_DIR={}", root.display()));
        let expected = match dialect {
            Dialect::Autohand => (true, false, false),
            Dialect::Fabro => (false, true, false),
            Dialect::Native => (true, true, true),
            Dialect::Claude
            | Dialect::Echo
            | Dialect::Cursor
            | Dialect::Qwen
            | Dialect::Droid
            | Dialect::Copilot => (false, false, true),
            // Gemini CLI's CLAUDE_PROJECT_DIR is the event's `cwd`; Codex gives none.
            Dialect::Gemini | Dialect::Codex | Dialect::Cline => (false, false, false),
            // OpenCode's plugin hooks get no variables of their own.
            Dialect::Opencode => (false, false, false),
        };
        assert_eq!((autohand, fabro, claude), expected, "{name}: {env}");
        let pwd = fx.read(&format!("pwd-{name}.txt"));
        assert_eq!(
            std::fs::canonicalize(pwd.trim()).unwrap(),
            std::fs::canonicalize(fx.path()).unwrap(),
            "{name}"
        );
    }
}

#[tokio::test]
async fn working_directory_is_the_hooks_own_relative_to_the_events() {
    let fx = Fixture::new();
    std::fs::create_dir(fx.file("sub")).unwrap();
    let mut action = CommandAction::new(CommandLine::Script("pwd".to_owned()));
    action.cwd = Some("sub".into());
    let spec = HookSpec::new(BuiltinEvent::UserPromptSubmit, Action::Command(action));
    let ctx = EventContext::user_prompt_submit("hi").cwd(fx.dir());
    let outcome = run(&spec, &ctx).await;
    let pwd = std::fs::canonicalize(outcome.effects.additional_context[0].trim()).unwrap();
    assert_eq!(pwd, std::fs::canonicalize(fx.file("sub")).unwrap());

    // An event `cwd` that does not exist falls back to the engine's directory.
    let spec = HookSpec::new(BuiltinEvent::UserPromptSubmit, Action::script("pwd"));
    let ctx = EventContext::user_prompt_submit("hi").cwd("/nonexistent/dir");
    let outcome = run(&spec, &ctx).await;
    let pwd = std::fs::canonicalize(outcome.effects.additional_context[0].trim()).unwrap();
    assert_eq!(
        pwd,
        std::fs::canonicalize(std::env::current_dir().unwrap()).unwrap()
    );
}

#[tokio::test]
async fn argv_is_passed_verbatim_never_through_a_shell() {
    let fx = Fixture::new();
    let spec = HookSpec::new(
        BuiltinEvent::UserPromptSubmit,
        Action::argv(["printf", "%s|", "a b", "$HOME", "; rm -rf x", "`id`"]),
    );
    let outcome = run(&spec, &EventContext::user_prompt_submit("hi").cwd(fx.dir())).await;
    assert_eq!(
        outcome.effects.additional_context,
        vec!["a b|$HOME|; rm -rf x|`id`|".to_owned()]
    );
}

#[tokio::test]
async fn claude_project_dir_is_the_project_root_never_the_cwd() {
    let fx = Fixture::new();
    let root = fx.file("project");
    std::fs::create_dir_all(root.join("worktree")).unwrap();
    let exec = CommandExecutor::builder().project_dir(&root).build();
    let spec = script_hook(
        BuiltinEvent::UserPromptSubmit,
        Dialect::Claude,
        r#"printf '%s' "$CLAUDE_PROJECT_DIR""#,
    );
    // The agent moved into a worktree: `cwd` follows it, the project root stays.
    let moved =
        EventContext::user_prompt_submit("hi").cwd(root.join("worktree").display().to_string());
    let outcome = run_with(&exec, &spec, &moved, Duration::from_secs(30)).await;
    assert_eq!(
        outcome.effects.additional_context,
        [root.display().to_string()]
    );
    // A host that names the project root per event is followed.
    let named = moved.with("project_dir", "/elsewhere");
    let outcome = run_with(&exec, &spec, &named, Duration::from_secs(30)).await;
    assert_eq!(outcome.effects.additional_context, ["/elsewhere"]);
    // Without a root given, the engine's working directory, never empty.
    let outcome = run(
        &spec,
        &EventContext::user_prompt_submit("hi").cwd(root.join("worktree").display().to_string()),
    )
    .await;
    assert_eq!(
        outcome.effects.additional_context,
        [std::env::current_dir().unwrap().display().to_string()]
    );
}

/// `(event, dialect, what the hook writes to its env file, the outcome's env)`.
#[track_caller]
fn check_env_file(event: BuiltinEvent, dialect: Dialect, script: &str, expect: &[(&str, &str)]) {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let spec = script_hook(event, dialect, script);
    let ctx = EventContext::new(event).session_id("s");
    let outcome = runtime.block_on(run(&spec, &ctx));
    let got: Vec<(&str, &str)> = outcome
        .effects
        .env
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    assert_eq!(got, expect, "{event} {dialect:?}: {outcome:#?}");
}

#[test]
fn claude_env_file_exports_are_in_the_outcome() {
    let write = r#"[ -f "$CLAUDE_ENV_FILE" ] && echo 'export FOO=bar' >> "$CLAUDE_ENV_FILE""#;
    for event in [
        BuiltinEvent::SessionStart,
        BuiltinEvent::Setup,
        BuiltinEvent::CwdChanged,
        BuiltinEvent::FileChanged,
    ] {
        check_env_file(event, Dialect::Claude, write, &[("FOO", "bar")]);
        check_env_file(event, Dialect::Native, write, &[("FOO", "bar")]);
    }
    // Other events and dialects get no file.
    check_env_file(BuiltinEvent::UserPromptSubmit, Dialect::Claude, write, &[]);
    check_env_file(BuiltinEvent::SessionStart, Dialect::Echo, write, &[]);
    // A hook that fails exports nothing.
    check_env_file(
        BuiltinEvent::SessionStart,
        Dialect::Claude,
        &format!("{write}; exit 1"),
        &[],
    );
    // A file replaced by a FIFO is not read (the read would never end).
    check_env_file(
        BuiltinEvent::SessionStart,
        Dialect::Claude,
        r#"rm "$CLAUDE_ENV_FILE" && mkfifo "$CLAUDE_ENV_FILE""#,
        &[],
    );
}

#[tokio::test]
async fn claude_env_files_are_removed_and_added_to_the_session_file() {
    let fx = Fixture::new();
    let exec = CommandExecutor::builder().env_file_dir(fx.path()).build();
    let spec = script_hook(
        BuiltinEvent::SessionStart,
        Dialect::Claude,
        &format!(
            r#"echo "$CLAUDE_ENV_FILE" > '{}/path'; echo 'export FOO=bar' >> "$CLAUDE_ENV_FILE""#,
            fx.dir()
        ),
    );
    let ctx = EventContext::session_start("startup").session_id("abc/1");
    for _ in 0..2 {
        let outcome = run_with(&exec, &spec, &ctx, Duration::from_secs(30)).await;
        assert_eq!(outcome.run.status, HookStatus::Ok, "{outcome:?}");
        assert_eq!(
            outcome.effects.env.get("FOO").map(String::as_str),
            Some("bar")
        );
        let own = fx.read("path");
        assert!(!Path::new(own.trim()).exists(), "{own} was left behind");
    }
    let file = exec.env_file_for(Some("abc/1")).unwrap();
    assert_eq!(file, fx.file("abc_1.env"));
    assert_eq!(
        std::fs::read_to_string(file).unwrap(),
        "export FOO=bar\nexport FOO=bar\n"
    );
}

#[tokio::test]
async fn a_timeout_kills_the_whole_process_group() {
    let fx = Fixture::new();
    // The grandchild keeps the hook's stdout open: it must die for the run to end.
    let spec = script_hook(
        BuiltinEvent::PreToolUse,
        Dialect::Native,
        &format!("sleep 1000 & echo $! > '{}/pid'; exec sleep 1000", fx.dir()),
    );
    let started = Instant::now();
    let outcome = run_with(
        &CommandExecutor::default(),
        &spec,
        &fx.pre_tool(),
        Duration::from_secs(2),
    )
    .await;
    assert_eq!(outcome.run.status, HookStatus::TimedOut, "{outcome:?}");
    assert_eq!(
        outcome.run.failure.as_ref().unwrap().kind,
        FailureKind::Timeout
    );
    assert!(
        outcome
            .run
            .failure
            .as_ref()
            .unwrap()
            .message
            .contains("timed out after 2s")
    );
    assert!(started.elapsed() < Duration::from_secs(20));
    let grandchild: i32 = fx.read("pid").trim().parse().unwrap();
    assert!(
        wait_gone(grandchild).await,
        "the grandchild {grandchild} survived"
    );
}

#[tokio::test]
async fn a_hook_ignoring_sigterm_gets_sigkill() {
    let fx = Fixture::new();
    let ready = fx.fifo("ready");
    let exec = CommandExecutor::builder()
        .kill_grace(Duration::from_millis(200))
        .build();
    let spec = script_hook(
        BuiltinEvent::PreToolUse,
        Dialect::Native,
        &format!(
            "trap '' TERM; echo $$ > '{}'; while :; do sleep 1; done",
            ready.display()
        ),
    );
    let cancel = CancellationToken::new();
    let ctx = fx.pre_tool();
    let run = exec.execute(HookRun {
        spec: &spec,
        ctx: &ctx,
        timeout: Duration::from_secs(60),
        cancel: &cancel,
    });
    let signal = async {
        let pid: i32 = read_fifo(&ready).await.trim().parse().unwrap();
        cancel.cancel();
        pid
    };
    let (outcome, pid) = tokio::join!(run, signal);
    assert_eq!(outcome.run.status, HookStatus::Failed, "{outcome:?}");
    assert_eq!(
        outcome.run.failure.as_ref().unwrap().kind,
        FailureKind::Cancelled
    );
    assert!(wait_gone(pid).await, "the hook {pid} survived SIGKILL");
}

#[tokio::test]
async fn cancellation_kills_the_hook_and_its_children() {
    let fx = Fixture::new();
    let ready = fx.fifo("ready");
    let spec = script_hook(
        BuiltinEvent::PreToolUse,
        Dialect::Native,
        &format!("sleep 1000 & echo \"$$ $!\" > '{}'; wait", ready.display()),
    );
    let cancel = CancellationToken::new();
    let ctx = fx.pre_tool();
    let exec = CommandExecutor::default();
    let run = exec.execute(HookRun {
        spec: &spec,
        ctx: &ctx,
        timeout: Duration::from_secs(60),
        cancel: &cancel,
    });
    let signal = async {
        let pids = read_fifo(&ready).await;
        cancel.cancel();
        pids
    };
    let (outcome, pids) = tokio::join!(run, signal);
    assert_eq!(
        outcome.run.failure.as_ref().unwrap().kind,
        FailureKind::Cancelled,
        "{outcome:?}"
    );
    for pid in pids.split_whitespace() {
        let pid: i32 = pid.parse().unwrap();
        assert!(
            wait_gone(pid).await,
            "process {pid} survived the cancellation"
        );
    }
}

#[tokio::test]
async fn dropping_a_run_kills_its_process_group() {
    let fx = Fixture::new();
    let ready = fx.fifo("ready");
    let spec = script_hook(
        BuiltinEvent::PreToolUse,
        Dialect::Native,
        &format!("sleep 1000 & echo \"$$ $!\" > '{}'; wait", ready.display()),
    );
    let ctx = fx.pre_tool();
    let task = tokio::spawn(async move {
        let cancel = CancellationToken::new();
        CommandExecutor::default()
            .execute(HookRun {
                spec: &spec,
                ctx: &ctx,
                timeout: Duration::from_secs(60),
                cancel: &cancel,
            })
            .await
    });
    let pids = read_fifo(&ready).await;
    task.abort();
    assert!(task.await.unwrap_err().is_cancelled());
    for pid in pids.split_whitespace() {
        let pid: i32 = pid.parse().unwrap();
        assert!(
            wait_gone(pid).await,
            "process {pid} outlived its dropped run"
        );
    }
}

#[tokio::test]
async fn a_background_process_holding_stdout_is_killed_after_the_hook_exits() {
    let fx = Fixture::new();
    let exec = CommandExecutor::builder()
        .orphan_grace(Duration::from_millis(200))
        .build();
    let spec = script_hook(
        BuiltinEvent::PreToolUse,
        Dialect::Native,
        &format!(
            r#"sleep 1000 & echo $! > '{}/pid'; echo '{{"decision":"deny","reason":"no"}}'"#,
            fx.dir()
        ),
    );
    let outcome = run_with(&exec, &spec, &fx.pre_tool(), Duration::from_secs(60)).await;
    assert_eq!(
        (outcome.run.status, outcome.effects.decision),
        (HookStatus::Blocked, Decision::Deny),
        "{outcome:?}"
    );
    assert!(outcome.effects.messages[0].contains("left processes holding its output open"));
    let pid: i32 = fx.read("pid").trim().parse().unwrap();
    assert!(
        wait_gone(pid).await,
        "the background process {pid} survived"
    );
}

#[tokio::test]
async fn a_detached_background_process_does_not_delay_the_hook() {
    let fx = Fixture::new();
    let spec = script_hook(
        BuiltinEvent::PreToolUse,
        Dialect::Native,
        &format!(
            "sleep 1000 >/dev/null 2>&1 </dev/null & echo $! > '{}/pid'",
            fx.dir()
        ),
    );
    let outcome = run_with(
        &CommandExecutor::default(),
        &spec,
        &fx.pre_tool(),
        Duration::from_secs(60),
    )
    .await;
    let pid: i32 = fx.read("pid").trim().parse().unwrap();
    // Its output closed, so the run ended when the hook did, and the process was left alone.
    assert_eq!(outcome.run.status, HookStatus::Ok, "{outcome:?}");
    assert!(outcome.effects.messages.is_empty());
    assert!(is_running(pid));
    rustix::process::kill_process(
        rustix::process::Pid::from_raw(pid).unwrap(),
        rustix::process::Signal::KILL,
    )
    .unwrap();
}

#[tokio::test]
async fn floods_of_output_are_capped_and_flagged() {
    let fx = Fixture::new();
    let spec = script_hook(
        BuiltinEvent::UserPromptSubmit,
        Dialect::Native,
        "yes 'out' | head -c 52428800; yes 'err' | head -c 20000000 >&2",
    );
    let ctx = EventContext::user_prompt_submit("hi").cwd(fx.dir());
    let outcome = run(&spec, &ctx).await;
    assert_eq!(
        outcome.run.status,
        HookStatus::Ok,
        "{:?}",
        outcome.run.failure
    );
    assert!(outcome.run.stdout_truncated && outcome.run.stderr_truncated);
    let kept: usize = outcome
        .effects
        .additional_context
        .iter()
        .map(String::len)
        .sum();
    assert!(kept <= hooks_exec::DEFAULT_OUTPUT_CAP, "{kept}");
    assert!(kept > hooks_exec::DEFAULT_OUTPUT_CAP / 2, "{kept}");

    // Cut JSON is malformed, and the failure says it was cut.
    let exec = CommandExecutor::builder().stdout_cap(1000).build();
    let spec = script_hook(
        BuiltinEvent::PreToolUse,
        Dialect::Native,
        r#"printf '{"reason":"'; yes x | head -c 100000; printf '"}'"#,
    );
    let outcome = run_with(&exec, &spec, &fx.pre_tool(), Duration::from_secs(30)).await;
    let failure = outcome.run.failure.unwrap();
    assert_eq!(failure.kind, FailureKind::MalformedOutput);
    assert!(
        failure.message.contains("stdout was cut at 1000 bytes"),
        "{}",
        failure.message
    );
    assert!(outcome.run.stdout_truncated);
}

#[tokio::test]
async fn a_large_payload_to_a_hook_that_never_reads_it_completes() {
    let fx = Fixture::new();
    let big = "x".repeat(10 * 1024 * 1024);
    let ctx = EventContext::pre_tool_use("Write", json!({"content": big})).cwd(fx.dir());
    let spec = script_hook(
        BuiltinEvent::PreToolUse,
        Dialect::Native,
        "echo '{\"decision\":\"allow\"}'",
    );
    let outcome = run(&spec, &ctx).await;
    assert_eq!(outcome.effects.decision, Decision::Allow, "{outcome:?}");

    // `HOOK_ARGS` would be 10 MB, too large for an environment: it is left out, and named.
    let spec = script_hook(
        BuiltinEvent::PreToolUse,
        Dialect::Autohand,
        "echo \"$HOOKS_OMITTED_ENV:${HOOK_ARGS:-unset}:$HOOK_TOOL\" > env.txt",
    );
    let outcome = run(&spec, &ctx).await;
    assert_eq!(outcome.run.status, HookStatus::Ok, "{outcome:?}");
    assert_eq!(fx.read("env.txt"), "HOOK_ARGS:unset:Write\n");

    // And a hook that does read it gets all of it.
    let spec = script_hook(
        BuiltinEvent::PreToolUse,
        Dialect::Native,
        "wc -c > size.txt",
    );
    let outcome = run(&spec, &ctx).await;
    assert_eq!(outcome.run.status, HookStatus::Ok);
    let expected = serde_json::to_vec(&ctx.to_json(Dialect::Native))
        .unwrap()
        .len()
        + 1;
    assert_eq!(fx.read("size.txt").trim(), expected.to_string());
}

/// A payload string with a NUL byte cannot become an environment variable (the kernel's
/// strings end at NUL). A fail-open guard on `rm -rf /` must still run and deny: the
/// variable is left out and named in `HOOKS_OMITTED_ENV`, and stdin carries the value whole.
#[tokio::test]
async fn a_nul_byte_in_the_payload_never_stops_a_guard_from_starting() {
    let fx = Fixture::new();
    let dir = fx.dir();
    // The guard writes what it saw into the fixture by absolute path: a `cwd` with a NUL is
    // no directory, so the hook runs in the engine's.
    let guard = format!(
        r#"input=$(cat); printf '%s' "$input" > '{dir}/stdin.json'
printf '%s' "${{HOOKS_OMITTED_ENV-none}}" > '{dir}/omitted.txt'
case "$input" in
  *'rm -rf /'*) echo '{{"decision":"deny","reason":"destructive command"}}' ;;
  *) echo '{{"decision":"allow"}}' ;;
esac"#
    );
    let nul = "x\u{0}y";
    let base = || EventContext::pre_tool_use("Bash", json!({"command": "rm -rf /"}));
    // (field, context, dialect, the variables left out)
    let cases = [
        (
            "prompt",
            base().cwd(&dir).with("prompt", nul),
            Dialect::Native,
            "HOOK_INSTRUCTION",
        ),
        (
            "session_id",
            base().cwd(&dir).session_id(nul),
            Dialect::Autohand,
            "HOOK_SESSION_ID",
        ),
        (
            "file_path",
            base().cwd(&dir).with("file_path", nul),
            Dialect::Native,
            "HOOK_PATH",
        ),
        (
            "cwd",
            base().cwd(format!("{dir}/\u{0}/elsewhere")),
            Dialect::Native,
            "HOOK_WORKSPACE",
        ),
        (
            "project_dir",
            base().cwd(&dir).with("project_dir", format!("{dir}\u{0}")),
            Dialect::Claude,
            "CLAUDE_PROJECT_DIR",
        ),
    ];
    for (field, ctx, dialect, omitted) in cases {
        let spec = script_hook(BuiltinEvent::PreToolUse, dialect, &guard);
        assert_eq!(
            spec.on_failure,
            hooks_core::FailurePolicy::Allow,
            "fail-open guard"
        );
        let dispatcher = hooks_exec::Dispatcher::new(hooks_core::HookIndex::new(vec![spec]));
        let result = tokio::time::timeout(Duration::from_secs(30), dispatcher.dispatch(&ctx))
            .await
            .unwrap();
        assert_eq!(
            result.effects.decision,
            Decision::Deny,
            "{field} in {dialect:?}: {result:#?}"
        );
        assert_eq!(fx.read("omitted.txt"), omitted, "{field} in {dialect:?}");
        let stdin: Value = serde_json::from_str(&fx.read("stdin.json")).unwrap();
        assert_eq!(stdin, ctx.to_json(dialect), "{field} in {dialect:?}");
    }
}

#[tokio::test]
async fn malformed_output_is_a_failure() {
    let fx = Fixture::new();
    let spec = script_hook(
        BuiltinEvent::PreToolUse,
        Dialect::Native,
        "echo '{\"decision\": allow'",
    );
    let outcome = run(&spec, &fx.pre_tool()).await;
    assert_eq!(outcome.run.status, HookStatus::Failed);
    assert_eq!(
        outcome.run.failure.unwrap().kind,
        FailureKind::MalformedOutput
    );
}

#[tokio::test]
async fn a_crash_by_signal_is_reported() {
    let fx = Fixture::new();
    let spec = script_hook(
        BuiltinEvent::PreToolUse,
        Dialect::Native,
        "echo dying >&2; kill -SEGV $$",
    );
    let outcome = run(&spec, &fx.pre_tool()).await;
    assert_eq!(outcome.run.status, HookStatus::Failed, "{outcome:?}");
    assert_eq!(outcome.run.exit_code, None);
    let failure = outcome.run.failure.unwrap();
    assert_eq!(failure.kind, FailureKind::Crash);
    assert!(failure.message.contains("signal 11"), "{}", failure.message);
    assert!(failure.message.contains("dying"), "{}", failure.message);
}

#[tokio::test]
async fn a_non_zero_exit_is_a_failure_with_stderr() {
    let fx = Fixture::new();
    let spec = script_hook(
        BuiltinEvent::PreToolUse,
        Dialect::Native,
        "echo 'lint failed' >&2; exit 3",
    );
    let outcome = run(&spec, &fx.pre_tool()).await;
    assert_eq!(outcome.run.exit_code, Some(3));
    let failure = outcome.run.failure.unwrap();
    assert_eq!(failure.kind, FailureKind::NonZeroExit);
    assert!(failure.message.contains("lint failed"));
}

/// Runs `action` and checks it fails to start with a message containing `needle`.
async fn check_spawn_failure(fx: &Fixture, action: Action, needle: &str) {
    let spec = HookSpec::new(BuiltinEvent::PreToolUse, action);
    let outcome = run(&spec, &fx.pre_tool()).await;
    assert_eq!(outcome.run.status, HookStatus::Failed, "{outcome:?}");
    let failure = outcome.run.failure.unwrap();
    assert_eq!(failure.kind, FailureKind::Spawn, "{}", failure.message);
    assert!(
        failure.message.contains(needle),
        "`{}` lacks `{needle}`",
        failure.message
    );
}

#[tokio::test]
async fn hooks_that_cannot_start_are_spawn_failures() {
    let fx = Fixture::new();
    let no_exec = fx.write_mode("no-exec.sh", "#!/bin/sh\necho hi\n", 0o644);
    let bad_shebang = fx.write_mode("bad.sh", "#!/nonexistent/interpreter\necho hi\n", 0o755);
    let no_shebang = fx.write_mode("bin.dat", "\u{7f}ELF\u{2}garbage", 0o755);
    let p = |p: &std::path::Path| p.to_str().unwrap().to_owned();

    check_spawn_failure(&fx, Action::argv(["/nonexistent/hook"]), "no such file").await;
    check_spawn_failure(
        &fx,
        Action::argv(["no-such-command-xyz"]),
        "command not found in PATH",
    )
    .await;
    check_spawn_failure(&fx, Action::argv([p(&no_exec)]), "permission denied").await;
    check_spawn_failure(
        &fx,
        Action::argv([p(&bad_shebang)]),
        "interpreter `/nonexistent/interpreter` was not found",
    )
    .await;
    check_spawn_failure(&fx, Action::argv([p(&no_shebang)]), "exec format error").await;
    check_spawn_failure(&fx, Action::argv(Vec::<String>::new()), "argv is empty").await;
    // Through `sh -c`, the shell reports the same problems as exit 127 and 126.
    check_spawn_failure(
        &fx,
        Action::script("/nonexistent/hook --flag"),
        "command not found, exit 127",
    )
    .await;
    check_spawn_failure(
        &fx,
        Action::script(p(&no_exec)),
        "command not executable, exit 126",
    )
    .await;
    check_spawn_failure(&fx, Action::script(p(&bad_shebang)), "exit 127").await;
    // A missing interpreter for the shell itself.
    let mut action = CommandAction::new(CommandLine::Argv(vec![
        "hooks-missing-interpreter".into(),
        "x".into(),
    ]));
    action.cwd = Some(fx.file("missing-dir"));
    check_spawn_failure(&fx, Action::Command(action), "working directory").await;
}

#[tokio::test]
async fn a_missing_shell_is_a_spawn_failure() {
    let fx = Fixture::new();
    let exec = CommandExecutor::builder()
        .shell(Dialect::Native, "/nonexistent/bash")
        .build();
    let spec = script_hook(BuiltinEvent::PreToolUse, Dialect::Native, "true");
    let outcome = run_with(&exec, &spec, &fx.pre_tool(), Duration::from_secs(30)).await;
    let failure = outcome.run.failure.unwrap();
    assert_eq!(failure.kind, FailureKind::Spawn);
    assert!(
        failure.message.contains("/nonexistent/bash"),
        "{}",
        failure.message
    );
}

#[tokio::test]
async fn the_executor_refuses_other_hook_types() {
    let fx = Fixture::new();
    let spec = HookSpec::new(
        BuiltinEvent::PreToolUse,
        Action::permission(Decision::Allow),
    );
    let outcome: HookOutcome = run(&spec, &fx.pre_tool()).await;
    assert_eq!(outcome.run.failure.unwrap().kind, FailureKind::Spawn);
}

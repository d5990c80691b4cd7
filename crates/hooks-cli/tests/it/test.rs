//! `hooks test`: one hook, by id, on a sample context for its event or on a payload; and
//! the sample contexts themselves.

use hooks_cli::cmd::test::sample;
use hooks_core::{Action, BuiltinEvent, HookSpec, Matcher};
use insta::{assert_json_snapshot, assert_snapshot};

use crate::support::{Env, POLICY};

#[track_caller]
fn check(args: &[&str], code: i32) -> crate::support::Run {
    let env = Env::new();
    env.write("hooks.yaml", POLICY);
    let mut all = vec!["test"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["-c", "hooks.yaml"]);
    let run = env.run(&all);
    assert_eq!(run.code, code, "{run:?}");
    run
}

#[test]
fn the_sample_for_pre_tool_use_is_an_ordinary_bash_call() {
    let run = check(&["guard"], 0);
    assert_snapshot!(run.stdout);
}

#[test]
fn a_payload_that_blocks_exits_2() {
    let run = check(
        &[
            "guard",
            "-p",
            r#"{"tool_name":"Bash","tool_input":{"command":"rm -rf /srv"}}"#,
            "--json",
        ],
        2,
    );
    assert_json_snapshot!(run.json());
}

#[test]
fn a_failing_hook_exits_1() {
    let run = check(&["crashy"], 1);
    assert_snapshot!(run.stdout);
}

#[test]
fn a_disabled_hook_is_tested_anyway_and_says_so() {
    let run = check(&["old-check"], 0);
    assert!(
        run.stdout
            .contains("note: the hook does not run in dispatches (disabled); tested anyway"),
        "{}",
        run.stdout
    );
}

#[test]
fn an_unknown_id_suggests_the_closest() {
    let run = check(&["gaurd"], 1);
    assert_snapshot!(run.stderr, @"
    error: no hook `gaurd` in the 6 configured hooks
      hint: did you mean `guard`?
    ");
}

#[test]
fn an_untrusted_hook_is_refused() {
    let env = Env::new();
    env.write(
        ".hooks/hooks.yaml",
        "hooks:\n  - id: probe\n    event: Stop\n    command: touch ran\n",
    );
    let run = env.run(&["test", "probe"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(run.stderr.contains("hooks trust"), "{}", run.stderr);
    assert!(!env.path().join("ran").exists());
}

/// A sample for a hook on `event` with `matcher`: the field its matcher is tried against.
#[track_caller]
fn check_sample(event: BuiltinEvent, matcher: &str, field: &str, expect: &str) {
    let spec =
        HookSpec::new(event, Action::script("true")).with_matcher(Matcher::parse(matcher).unwrap());
    let ctx = sample(&spec);
    assert_eq!(ctx.event().builtin(), Some(event));
    assert_eq!(ctx.get_str(field), Some(expect), "{:?}", ctx.fields());
    assert_eq!(ctx.get_str("session_id"), Some("sample-session"));
    let index = hooks_core::HookIndex::new(vec![spec]);
    assert_eq!(index.matching(&ctx), [0], "the sample must select the hook");
}

#[test]
fn samples_follow_the_matcher() {
    check_sample(BuiltinEvent::PreToolUse, "*", "tool_name", "Bash");
    check_sample(BuiltinEvent::PreToolUse, "Write|Edit", "tool_name", "Write");
    check_sample(
        BuiltinEvent::PreToolUse,
        "^(run_command|delete_path)$",
        "tool_name",
        "run_command",
    );
    check_sample(
        BuiltinEvent::PreToolUse,
        "mcp__github__.*",
        "tool_name",
        "mcp__github__",
    );
    check_sample(BuiltinEvent::PostToolUse, "Edit", "tool_name", "Edit");
    check_sample(BuiltinEvent::SessionStart, "resume", "source", "resume");
    check_sample(BuiltinEvent::SessionStart, "", "source", "startup");
    check_sample(BuiltinEvent::SubagentStop, "Plan", "agent_type", "Plan");
    check_sample(
        BuiltinEvent::Notification,
        "idle_prompt",
        "notification_type",
        "idle_prompt",
    );
    check_sample(BuiltinEvent::StageStart, "agent", "handler_type", "agent");
}

#[test]
fn samples_carry_the_events_own_fields() {
    let sample_of = |event| sample(&HookSpec::new(event, Action::script("true")));
    let pre = sample_of(BuiltinEvent::PreToolUse);
    assert_eq!(pre.tool_input().unwrap()["command"], "ls");
    let write = sample(
        &HookSpec::new(BuiltinEvent::PreToolUse, Action::script("true"))
            .with_matcher(Matcher::parse("Write").unwrap()),
    );
    assert_eq!(write.tool_input().unwrap()["file_path"], "src/example.ts");
    assert_eq!(
        sample_of(BuiltinEvent::Stop).get("stop_hook_active"),
        Some(&serde_json::json!(false))
    );
    assert!(
        sample_of(BuiltinEvent::UserPromptSubmit)
            .get_str("prompt")
            .is_some()
    );
    assert_eq!(
        sample_of(BuiltinEvent::FileChanged).get_str("file_path"),
        Some("src/example.ts")
    );
    assert!(
        sample_of(BuiltinEvent::PostToolUse)
            .get("tool_response")
            .is_some()
    );
}

#[test]
fn an_unknown_handle_says_how_many_hooks_were_searched_and_how_to_name_one() {
    let cases = [
        // A `name` counts as an id; none matches `foo`.
        (
            "hooks:\n  - name: guard\n    event: PreToolUse\n    command: echo hi\n",
            "error: no hook `foo` in the 1 configured hook\n  hint: `hooks list` prints the handle of every hook (its id, action or FILE:LINE)\n",
        ),
        (
            "hooks:\n  - event: Stop\n    command: echo bye\n  - event: Stop\n    command: echo again\n",
            "error: no hook `foo` in the 2 configured hooks\n  hint: `hooks list` prints the handle of every hook (its id, action or FILE:LINE)\n",
        ),
        (
            "hooks: []\n",
            "error: no hook `foo` in the configuration (it has no hooks)\n  hint: `hooks list` prints the handle of every hook (its id, action or FILE:LINE)\n",
        ),
    ];
    for (config, expect) in cases {
        let env = Env::new();
        env.write("hooks.yaml", config);
        let run = env.run(&["test", "foo", "-c", "hooks.yaml"]);
        assert_eq!(run.code, 1, "{run:?}");
        assert_eq!(run.stderr, expect, "{config}");
    }
}

/// An Autohand hook's sample gives it the variables Autohand documents for its event:
/// `HOOK_TOKENS`, `HOOK_TOOL_CALLS_COUNT`, `HOOK_DURATION` on stop, `HOOK_SUCCESS`,
/// `HOOK_OUTPUT`, `HOOK_DURATION` after a tool, the subagent's on subagent-stop.
#[test]
fn an_autohand_hooks_sample_has_autohands_variables() {
    let vars = |event| {
        let spec = HookSpec::new(event, Action::script("true"))
            .with_dialect(hooks_core::Dialect::Autohand);
        let env = hooks_core::env_vars(&sample(&spec), hooks_core::Dialect::Autohand);
        env.into_iter().map(|(k, _)| k).collect::<Vec<String>>()
    };
    let cases: [(BuiltinEvent, &[&str]); 6] = [
        (
            BuiltinEvent::Stop,
            &[
                "HOOK_TOKENS",
                "HOOK_TOOL_CALLS_COUNT",
                "HOOK_TURN_TOOL_CALLS",
                "HOOK_TURN_DURATION",
                "HOOK_DURATION",
            ],
        ),
        (
            BuiltinEvent::PostToolUse,
            &[
                "HOOK_SUCCESS",
                "HOOK_OUTPUT",
                "HOOK_DURATION",
                "HOOK_TOOL_CALL_ID",
            ],
        ),
        (
            BuiltinEvent::PostToolUseFailure,
            &["HOOK_SUCCESS", "HOOK_DURATION"],
        ),
        (
            BuiltinEvent::SessionEnd,
            &["HOOK_SESSION_END_REASON", "HOOK_DURATION"],
        ),
        (
            BuiltinEvent::SubagentStop,
            &[
                "HOOK_SUBAGENT_ID",
                "HOOK_SUBAGENT_NAME",
                "HOOK_SUBAGENT_TYPE",
                "HOOK_SUBAGENT_SUCCESS",
                "HOOK_SUBAGENT_DURATION",
            ],
        ),
        (
            BuiltinEvent::SessionError,
            &["HOOK_ERROR", "HOOK_ERROR_CODE"],
        ),
    ];
    for (event, want) in cases {
        let got = vars(event);
        for var in want {
            assert!(
                got.iter().any(|g| g == var),
                "{event:?}: no {var} in {got:?}"
            );
        }
    }
}

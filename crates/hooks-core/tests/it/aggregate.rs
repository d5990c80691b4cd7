//! Tests for aggregation: one test per documented rule.

use hooks_core::{
    Aggregate, AggregateEntry, BuiltinEvent, Decision, Effects, Event, FailureKind, FailurePolicy,
    HookOutcome, HookPos, HookStatus, OutputField, aggregate,
};
use serde_json::{Value, json};

/// An entry declared at `index` with id `h<index>`, fail-open, not sequential.
fn entry(index: usize, outcome: HookOutcome) -> AggregateEntry {
    AggregateEntry {
        index: HookPos::new(index),
        id: format!("h{index}"),
        source: "test".to_owned(),
        on_failure: FailurePolicy::Allow,
        sequential: None,
        decides: false,
        outcome,
    }
}

fn decided(d: Decision, reason: &str) -> HookOutcome {
    HookOutcome::decided(d, Some(reason.to_owned()))
}

fn rewrite(v: Value) -> HookOutcome {
    HookOutcome {
        effects: Effects {
            updated_input: Some(v),
            ..Effects::default()
        },
        ..HookOutcome::ok()
    }
}

fn fail_closed(mut e: AggregateEntry) -> AggregateEntry {
    e.on_failure = FailurePolicy::Block;
    e
}

fn seq(mut e: AggregateEntry, group: &str) -> AggregateEntry {
    e.sequential = Some(group.to_owned());
    e
}

fn run(event: BuiltinEvent, entries: Vec<AggregateEntry>) -> Aggregate {
    aggregate(&Event::from(event), entries)
}

#[track_caller]
fn check_decision(event: BuiltinEvent, decisions: &[Decision], expect: Decision) {
    let entries = decisions
        .iter()
        .enumerate()
        .map(|(i, d)| entry(i, decided(*d, &format!("r{i}"))))
        .collect();
    assert_eq!(
        run(event, entries).effects.decision,
        expect,
        "{decisions:?} on {event}"
    );
}

use BuiltinEvent::{PostToolUse, PreToolUse, Stop, UserPromptSubmit};
use Decision::{Allow, Ask, Block, Defer, Deny, None as NoDecision};

#[test]
fn allow_then_deny_is_deny() {
    check_decision(PreToolUse, &[Allow, Deny], Deny)
}
#[test]
fn deny_then_allow_is_deny() {
    check_decision(PreToolUse, &[Deny, Allow], Deny)
}
#[test]
fn block_beats_deny() {
    check_decision(PreToolUse, &[Deny, Block, Allow], Block)
}
#[test]
fn deny_beats_defer() {
    check_decision(PreToolUse, &[Defer, Deny], Deny)
}
#[test]
fn defer_beats_ask() {
    check_decision(PreToolUse, &[Ask, Defer, Allow], Defer)
}
#[test]
fn ask_beats_allow() {
    check_decision(PreToolUse, &[Allow, Ask], Ask)
}
#[test]
fn allow_beats_none() {
    check_decision(PreToolUse, &[NoDecision, Allow], Allow)
}
#[test]
fn no_hooks_is_none() {
    check_decision(PreToolUse, &[], NoDecision)
}
#[test]
fn deny_blocks_a_blocking_event_without_permissions() {
    check_decision(UserPromptSubmit, &[Deny], Deny)
}
#[test]
fn allow_is_ignored_where_no_permission_is_taken() {
    check_decision(Stop, &[Allow], NoDecision)
}
#[test]
fn block_is_ignored_on_events_that_cannot_block() {
    check_decision(PostToolUse, &[Block], NoDecision)
}

#[test]
fn first_declared_gives_the_reason_among_equals() {
    // Given in finish order: the later-declared deny finished first.
    let agg = run(
        PreToolUse,
        vec![
            entry(1, decided(Deny, "second")),
            entry(0, decided(Deny, "first")),
        ],
    );
    assert_eq!(agg.effects.reason.as_deref(), Some("first"));
    assert_eq!(
        agg.hooks.iter().map(|h| h.id.as_str()).collect::<Vec<_>>(),
        ["h0", "h1"]
    );
}

#[test]
fn winning_reason_comes_from_the_winning_hook() {
    let agg = run(
        PreToolUse,
        vec![
            entry(0, decided(Allow, "fine")),
            entry(1, decided(Deny, "dangerous")),
        ],
    );
    assert_eq!(
        (agg.effects.decision, agg.effects.reason.as_deref()),
        (Deny, Some("dangerous"))
    );
}

#[test]
fn ignored_decision_is_reported_and_its_reason_becomes_context() {
    let agg = run(PostToolUse, vec![entry(0, decided(Block, "lint failed"))]);
    assert_eq!(agg.effects.decision, NoDecision);
    assert_eq!(agg.effects.additional_context, ["lint failed"]);
    assert_eq!(agg.ignored.len(), 1);
    assert_eq!(
        (agg.ignored[0].hook.as_str(), agg.ignored[0].field.as_str()),
        ("h0", "decision")
    );
}

#[test]
fn ignored_block_reason_is_a_message_where_no_context_is_taken() {
    let agg = run(
        BuiltinEvent::Notification,
        vec![entry(0, decided(Block, "nope"))],
    );
    assert!(agg.effects.additional_context.is_empty());
    assert_eq!(agg.effects.messages, ["nope"]);
}

#[test]
fn timeout_fails_open_by_default() {
    let agg = run(
        PreToolUse,
        vec![entry(
            0,
            HookOutcome::failed(FailureKind::Timeout, "timed out after 10s"),
        )],
    );
    assert_eq!(agg.effects.decision, NoDecision);
    assert_eq!(agg.hooks[0].run.status, HookStatus::TimedOut);
    assert!(
        agg.effects.messages[0].contains("fails open"),
        "{:?}",
        agg.effects.messages
    );
    assert!(agg.effects.messages[0].contains("timed out after 10s"));
}

#[test]
fn crash_fails_closed_when_asked() {
    let agg = run(
        PreToolUse,
        vec![fail_closed(entry(
            0,
            HookOutcome::failed(FailureKind::Crash, "terminated by a signal"),
        ))],
    );
    assert_eq!(agg.effects.decision, Block);
    let reason = agg.effects.reason.unwrap();
    assert!(
        reason.contains("`h0`") && reason.contains("fails closed") && reason.contains("crash"),
        "{reason}"
    );
    assert_eq!(agg.hooks[0].decision, Block);
}

#[test]
fn every_failure_kind_gets_the_same_policy() {
    for kind in [
        FailureKind::Timeout,
        FailureKind::Spawn,
        FailureKind::Crash,
        FailureKind::NonZeroExit,
        FailureKind::MalformedOutput,
        FailureKind::Transport,
    ] {
        let closed = run(
            Stop,
            vec![fail_closed(entry(0, HookOutcome::failed(kind, "x")))],
        );
        assert_eq!(closed.effects.decision, Block, "{kind:?} fail-closed");
        let open = run(Stop, vec![entry(0, HookOutcome::failed(kind, "x"))]);
        assert_eq!(open.effects.decision, NoDecision, "{kind:?} fail-open");
    }
}

#[test]
fn fail_closed_on_an_event_that_cannot_block_is_reported() {
    let agg = run(
        PostToolUse,
        vec![fail_closed(entry(
            0,
            HookOutcome::failed(FailureKind::NonZeroExit, "exited with code 1"),
        ))],
    );
    assert_eq!(agg.effects.decision, NoDecision);
    assert_eq!(agg.ignored[0].field, OutputField::OnFailure);
}

#[test]
fn failed_hooks_contribute_none_of_their_output() {
    let mut failed = HookOutcome::failed(FailureKind::MalformedOutput, "bad json");
    failed.effects.additional_context.push("leaked".to_owned());
    failed.effects.updated_input = Some(json!({"x": 1}));
    failed.effects.continue_ = false;
    let agg = run(PreToolUse, vec![entry(0, failed)]);
    assert!(agg.effects.additional_context.is_empty());
    assert_eq!(agg.effects.updated_input, None);
    assert!(agg.effects.continue_);
}

#[test]
fn skipped_hooks_contribute_nothing() {
    let mut skipped = HookOutcome::skipped("not trusted");
    skipped.effects.decision = Deny;
    let agg = run(PreToolUse, vec![entry(0, skipped)]);
    assert_eq!(agg.effects.decision, NoDecision);
    assert_eq!(agg.hooks[0].run.status, HookStatus::Skipped);
}

#[test]
fn continue_false_from_any_hook_stops_with_the_first_declared_reason() {
    let stop = |r: &str| HookOutcome {
        effects: Effects {
            continue_: false,
            stop_reason: Some(r.to_owned()),
            ..Effects::default()
        },
        ..HookOutcome::ok()
    };
    let agg = run(
        PostToolUse,
        vec![
            entry(2, stop("late")),
            entry(0, HookOutcome::ok()),
            entry(1, stop("early")),
        ],
    );
    assert!(!agg.effects.continue_);
    assert_eq!(agg.effects.stop_reason.as_deref(), Some("early"));
}

#[test]
fn parallel_rewrites_that_differ_conflict_and_the_later_declared_wins() {
    let agg = run(
        PreToolUse,
        vec![
            entry(1, rewrite(json!({"command": "b"}))),
            entry(0, rewrite(json!({"command": "a"}))),
        ],
    );
    assert_eq!(agg.effects.updated_input, Some(json!({"command": "b"})));
    assert_eq!(agg.conflicts.len(), 1);
    assert_eq!(
        (
            agg.conflicts[0].overridden.as_str(),
            agg.conflicts[0].kept.as_str()
        ),
        ("h0", "h1")
    );
}

#[test]
fn identical_parallel_rewrites_do_not_conflict() {
    let agg = run(
        PreToolUse,
        vec![
            entry(0, rewrite(json!({"c": 1}))),
            entry(1, rewrite(json!({"c": 1}))),
        ],
    );
    assert!(agg.conflicts.is_empty());
    assert_eq!(agg.effects.updated_input, Some(json!({"c": 1})));
}

#[test]
fn sequential_group_is_a_pipeline_without_conflict() {
    let agg = run(
        PreToolUse,
        vec![
            seq(entry(0, rewrite(json!({"command": "ls"}))), "fmt"),
            seq(entry(1, HookOutcome::ok()), "fmt"),
            seq(
                entry(2, rewrite(json!({"command": "ls --color=never"}))),
                "fmt",
            ),
        ],
    );
    assert_eq!(
        agg.effects.updated_input,
        Some(json!({"command": "ls --color=never"}))
    );
    assert!(agg.conflicts.is_empty(), "{:?}", agg.conflicts);
}

#[test]
fn sequential_group_result_conflicts_with_a_parallel_hook() {
    let agg = run(
        PreToolUse,
        vec![
            seq(entry(0, rewrite(json!(1))), "g"),
            entry(1, rewrite(json!(2))),
            seq(entry(2, rewrite(json!(3))), "g"),
        ],
    );
    // Units in order of first rewrite: group g (result 3), then h1 (2): h1 is later and wins.
    assert_eq!(agg.effects.updated_input, Some(json!(2)));
    assert_eq!(agg.conflicts[0].overridden, "sequential:g");
    assert_eq!(agg.conflicts[0].kept, "h1");
}

#[test]
fn rewrites_are_ignored_where_not_honoured() {
    let agg = run(PostToolUse, vec![entry(0, rewrite(json!({"a": 1})))]);
    assert_eq!(agg.effects.updated_input, None);
    assert_eq!(agg.ignored[0].field, OutputField::UpdatedInput);
}

#[test]
fn context_and_messages_concatenate_in_declaration_order() {
    let ctx = |c: &str| HookOutcome {
        effects: Effects {
            additional_context: vec![c.to_owned()],
            messages: vec![format!("m-{c}")],
            system_message: Some(format!("s-{c}")),
            ..Effects::default()
        },
        ..HookOutcome::ok()
    };
    let agg = run(
        UserPromptSubmit,
        vec![entry(2, ctx("c")), entry(0, ctx("a")), entry(1, ctx("b"))],
    );
    assert_eq!(agg.effects.additional_context, ["a", "b", "c"]);
    assert_eq!(agg.effects.messages, ["m-a", "m-b", "m-c"]);
    assert_eq!(agg.effects.system_message.as_deref(), Some("s-a\ns-b\ns-c"));
}

#[test]
fn context_is_ignored_where_not_honoured() {
    let agg = run(
        BuiltinEvent::Notification,
        vec![entry(
            0,
            HookOutcome {
                effects: Effects {
                    additional_context: vec!["x".into()],
                    ..Effects::default()
                },
                ..HookOutcome::ok()
            },
        )],
    );
    assert!(agg.effects.additional_context.is_empty());
    assert_eq!(agg.ignored[0].field, OutputField::AdditionalContext);
}

#[test]
fn retry_is_honoured_on_permission_denied_only() {
    let retry = || HookOutcome {
        effects: Effects {
            retry: Some(true),
            ..Effects::default()
        },
        ..HookOutcome::ok()
    };
    assert_eq!(
        run(BuiltinEvent::PermissionDenied, vec![entry(0, retry())])
            .effects
            .retry,
        Some(true)
    );
    let agg = run(PreToolUse, vec![entry(0, retry())]);
    assert_eq!(
        (agg.effects.retry, agg.ignored[0].field.as_str()),
        (None, "retry")
    );
}

#[test]
fn fabro_skip_is_honoured_on_stage_start_only() {
    let skip = || HookOutcome {
        effects: Effects {
            skip: true,
            ..Effects::default()
        },
        ..HookOutcome::ok()
    };
    assert!(
        run(BuiltinEvent::StageStart, vec![entry(0, skip())])
            .effects
            .skip
    );
    let agg = run(BuiltinEvent::StageComplete, vec![entry(0, skip())]);
    assert!(!agg.effects.skip);
    assert_eq!(agg.ignored[0].field, OutputField::Skip);
}

#[test]
fn a_fabro_blocking_hooks_decisions_count_on_every_event() {
    let skip = |reason: &str| HookOutcome {
        effects: Effects {
            skip: true,
            reason: Some(reason.to_owned()),
            ..Effects::default()
        },
        ..HookOutcome::ok()
    };
    let edge = HookOutcome {
        effects: Effects {
            override_edge: Some("fix".to_owned()),
            reason: Some("retry".to_owned()),
            ..Effects::default()
        },
        ..HookOutcome::ok()
    };
    let crash = || HookOutcome::failed(FailureKind::NonZeroExit, "exited with code 1");
    // (event, outcome, decides, decision, skip, override edge, reason, ignored fields)
    let cases = [
        (
            BuiltinEvent::StageComplete,
            decided(Decision::Block, "no"),
            true,
            Decision::Block,
            false,
            None,
            Some("no"),
            vec![],
        ),
        (
            BuiltinEvent::StageComplete,
            decided(Decision::Block, "no"),
            false,
            Decision::None,
            false,
            None,
            None,
            vec!["decision"],
        ),
        (
            BuiltinEvent::RunComplete,
            skip("later"),
            true,
            Decision::None,
            true,
            None,
            Some("later"),
            vec![],
        ),
        (
            BuiltinEvent::RunComplete,
            skip("later"),
            false,
            Decision::None,
            false,
            None,
            None,
            vec!["skip"],
        ),
        (
            BuiltinEvent::StageStart,
            skip("not today"),
            false,
            Decision::None,
            true,
            None,
            Some("not today"),
            vec![],
        ),
        (
            BuiltinEvent::StageFailed,
            edge.clone(),
            true,
            Decision::None,
            false,
            Some("fix"),
            Some("retry"),
            vec![],
        ),
        (
            BuiltinEvent::StageFailed,
            edge.clone(),
            false,
            Decision::None,
            false,
            None,
            None,
            vec!["override"],
        ),
        (
            BuiltinEvent::RunFailed,
            crash(),
            true,
            Decision::Block,
            false,
            None,
            Some("hook `h0` failed and fails closed: exited with code 1 (non_zero_exit)"),
            vec![],
        ),
    ];
    for (event, outcome, decides, decision, skipped, over, reason, ignored) in cases {
        let mut e = fail_closed(entry(0, outcome));
        e.decides = decides;
        let agg = run(event, vec![e]);
        let got: Vec<&str> = agg.ignored.iter().map(|i| i.field.as_str()).collect();
        assert_eq!(agg.effects.decision, decision, "{event:?} {decides}");
        assert_eq!(agg.effects.skip, skipped, "{event:?} {decides}");
        assert_eq!(
            agg.effects.override_edge.as_deref(),
            over,
            "{event:?} {decides}"
        );
        assert_eq!(agg.effects.reason.as_deref(), reason, "{event:?} {decides}");
        assert_eq!(got, ignored, "{event:?} {decides}");
    }
}

#[test]
fn fabro_override_is_honoured_on_edge_selected_only_and_conflicts_are_reported() {
    let edge = |e: &str| HookOutcome {
        effects: Effects {
            override_edge: Some(e.to_owned()),
            ..Effects::default()
        },
        ..HookOutcome::ok()
    };
    let agg = run(
        BuiltinEvent::EdgeSelected,
        vec![entry(0, edge("fix")), entry(1, edge("ship"))],
    );
    assert_eq!(agg.effects.override_edge.as_deref(), Some("ship"));
    assert_eq!(agg.conflicts[0].field, OutputField::Override);
    let agg = run(BuiltinEvent::StageStart, vec![entry(0, edge("fix"))]);
    assert_eq!(
        (agg.effects.override_edge, agg.ignored[0].field.as_str()),
        (None, "override")
    );
}

#[test]
fn empty_aggregate_proceeds() {
    let agg = run(PreToolUse, vec![]);
    assert_eq!(agg, Aggregate::empty(&Event::from(PreToolUse)));
    assert!(agg.effects.continue_ && !agg.is_blocked());
}

#[test]
fn aggregate_json_is_the_cli_contract() {
    let mut guard = decided(Block, "rm -rf / is not allowed");
    guard.run.exit_code = Some(2);
    guard.run.duration = Some(std::time::Duration::from_millis(12));
    let mut timed_out = HookOutcome::failed(FailureKind::Timeout, "timed out after 5s");
    timed_out.run.stdout_truncated = true;
    let agg = run(
        PreToolUse,
        vec![
            entry(0, guard),
            entry(
                1,
                HookOutcome {
                    effects: Effects {
                        additional_context: vec!["repo uses bun".into()],
                        ..Effects::default()
                    },
                    ..HookOutcome::ok()
                },
            ),
            entry(2, timed_out),
        ],
    );
    insta::assert_json_snapshot!(agg);
}

fn exported(pairs: &[(&str, &str)]) -> HookOutcome {
    let mut outcome = HookOutcome::ok();
    outcome.effects.env = pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
    outcome
}

#[test]
fn rule_7_exported_variables_merge_and_the_later_declared_value_wins() {
    // Finish order does not matter: h1 is declared after h0.
    let agg = run(
        BuiltinEvent::SessionStart,
        vec![
            entry(1, exported(&[("NODE_ENV", "test"), ("B", "2")])),
            entry(0, exported(&[("NODE_ENV", "production"), ("A", "1")])),
            entry(2, exported(&[("B", "2")])),
        ],
    );
    assert_eq!(
        serde_json::to_value(&agg.effects.env).unwrap(),
        json!({"A": "1", "B": "2", "NODE_ENV": "test"})
    );
    // The same value twice is no conflict.
    assert_eq!(
        serde_json::to_value(&agg.conflicts).unwrap(),
        json!([{"field": "env", "overridden": "h0", "kept": "h1"}])
    );
}

#[test]
fn rule_7_a_failed_hook_exports_nothing() {
    let mut failed = exported(&[("A", "1")]);
    failed.run.status = HookStatus::Failed;
    let agg = run(BuiltinEvent::SessionStart, vec![entry(0, failed)]);
    assert!(agg.effects.env.is_empty(), "{agg:#?}");
    // No variables: no `env` key in the JSON.
    assert!(serde_json::to_value(&agg).unwrap().get("env").is_none());
}

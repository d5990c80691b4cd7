//! Property tests of the aggregation rules: finish order never matters, and an `allow`
//! never weakens a `deny`.

use hooks_core::{
    AggregateEntry, BuiltinEvent, Decision, Effects, Event, FailureKind, FailurePolicy,
    HookOutcome, HookPos, aggregate,
};
use proptest::prelude::*;
use serde_json::json;

fn decision() -> impl Strategy<Value = Decision> {
    prop_oneof![
        Just(Decision::None),
        Just(Decision::Allow),
        Just(Decision::Ask),
        Just(Decision::Defer),
        Just(Decision::Deny),
        Just(Decision::Block),
    ]
}

fn outcome() -> impl Strategy<Value = HookOutcome> {
    let answered = (
        decision(),
        proptest::option::of("[a-c]"),
        any::<bool>(),
        proptest::option::of(0..3u8),
        proptest::collection::vec("[x-z]", 0..2),
        proptest::option::of(prop_oneof![Just("fix"), Just("ship")]),
        any::<bool>(),
    )
        .prop_map(|(decision, reason, cont, rewrite, context, edge, skip)| {
            let mut outcome = HookOutcome::decided(decision, reason.clone());
            outcome.effects = Effects {
                continue_: cont,
                stop_reason: if cont { None } else { reason },
                updated_input: rewrite.map(|r| json!({ "v": r })),
                additional_context: context,
                override_edge: edge.map(str::to_owned),
                skip,
                ..outcome.effects
            };
            outcome
        });
    let failed = prop_oneof![
        Just(FailureKind::Timeout),
        Just(FailureKind::Crash),
        Just(FailureKind::MalformedOutput)
    ]
    .prop_map(|k| HookOutcome::failed(k, "boom"));
    prop_oneof![4 => answered, 1 => failed, 1 => Just(HookOutcome::skipped("untrusted"))]
}

fn entries() -> impl Strategy<Value = Vec<AggregateEntry>> {
    proptest::collection::vec(
        (
            outcome(),
            any::<bool>(),
            proptest::option::of(prop_oneof![Just("g1"), Just("g2")]),
        ),
        0..8,
    )
    .prop_map(|items| {
        items
            .into_iter()
            .enumerate()
            .map(|(index, (outcome, closed, group))| AggregateEntry {
                index: HookPos::new(index),
                id: format!("h{index}"),
                source: "prop".to_owned(),
                on_failure: if closed {
                    FailurePolicy::Block
                } else {
                    FailurePolicy::Allow
                },
                sequential: group.map(str::to_owned),
                decides: false,
                outcome,
            })
            .collect()
    })
}

fn event() -> impl Strategy<Value = Event> {
    prop_oneof![
        Just(BuiltinEvent::PreToolUse),
        Just(BuiltinEvent::PostToolUse),
        Just(BuiltinEvent::Stop),
        Just(BuiltinEvent::EdgeSelected),
        Just(BuiltinEvent::StageStart),
    ]
    .prop_map(Event::from)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// The aggregate depends on what each hook answered, never on when it finished.
    #[test]
    fn aggregation_is_independent_of_finish_order(
        event in event(),
        (list, shuffled) in entries().prop_flat_map(|v| (Just(v.clone()), Just(v).prop_shuffle())),
    ) {
        prop_assert_eq!(aggregate(&event, list), aggregate(&event, shuffled));
    }

    /// Adding an `allow` anywhere never weakens the decision, and a deny or block stays.
    #[test]
    fn adding_an_allow_never_weakens_a_deny(
        event in event(),
        list in entries(),
        at in 0usize..9,
    ) {
        let before = aggregate(&event, list.clone()).effects.decision;
        let mut with_allow = list;
        let at = at.min(with_allow.len());
        for e in &mut with_allow[at..] {
            e.index = HookPos::new(e.index.get() + 1);
        }
        with_allow.insert(at, AggregateEntry {
            index: HookPos::new(at),
            id: "allow".to_owned(),
            source: "prop".to_owned(),
            on_failure: FailurePolicy::Allow,
            sequential: None,
            decides: false,
            outcome: HookOutcome::decided(Decision::Allow, None),
        });
        let after = aggregate(&event, with_allow).effects.decision;
        prop_assert!(after >= before, "{:?} -> {:?}", before, after);
        if before.is_blocking() {
            prop_assert_eq!(after, before);
        }
    }

    /// A fail-closed failure on an event that can block always blocks.
    #[test]
    fn a_fail_closed_failure_always_blocks(list in entries(), kind in prop_oneof![Just(FailureKind::Timeout), Just(FailureKind::Spawn)]) {
        let event = Event::from(BuiltinEvent::PreToolUse);
        let mut list = list;
        let index = list.len();
        list.push(AggregateEntry {
            index: HookPos::new(index),
            id: "guard".to_owned(),
            source: "prop".to_owned(),
            on_failure: FailurePolicy::Block,
            sequential: None,
            decides: false,
            outcome: HookOutcome::failed(kind, "x"),
        });
        prop_assert_eq!(aggregate(&event, list).effects.decision, Decision::Block);
    }
}

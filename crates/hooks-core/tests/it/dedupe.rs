//! Duplicate hooks: which hooks are copies of each other, and which copy runs.

use std::cmp::Ordering;
use std::time::Duration;

use hooks_core::{
    Action, BuiltinEvent, CommandAction, CommandLine, DedupeKey, DedupeScope, Dialect,
    FailurePolicy, HookSpec, Layer, Matcher, Provenance, find_duplicates, more_protective,
};

fn guard() -> HookSpec {
    HookSpec::new(BuiltinEvent::PreToolUse, Action::script("./guard.sh"))
        .with_matcher(Matcher::parse("Bash").unwrap())
        .with_on_failure(FailurePolicy::Block)
        .with_timeout(Duration::from_secs(30))
        .with_provenance(in_layer(Layer::Managed))
}

fn in_layer(layer: Layer) -> Provenance {
    Provenance {
        layer,
        ..Provenance::default()
    }
}

fn with_command(spec: HookSpec, edit: impl FnOnce(&mut CommandAction)) -> HookSpec {
    let mut spec = spec;
    if let Action::Command(c) = &mut spec.action {
        edit(c);
    }
    spec
}

/// Which of `specs` run in `scope` (`None`) and which are copies of which.
fn copies(specs: &[HookSpec], scope: DedupeScope) -> Vec<Option<usize>> {
    let keys: Vec<Option<DedupeKey<'_>>> = specs.iter().map(|s| DedupeKey::new(s, scope)).collect();
    find_duplicates(&keys)
}

#[test]
fn a_copy_that_differs_in_anything_that_counts_is_a_different_hook() {
    let variants: Vec<(&str, HookSpec)> = vec![
        (
            "failure policy",
            guard().with_on_failure(FailurePolicy::Allow),
        ),
        ("timeout", guard().with_timeout(Duration::from_millis(100))),
        ("no timeout", {
            let mut g = guard();
            g.timeout = None;
            g
        }),
        ("layer", guard().with_provenance(in_layer(Layer::User))),
        ("dialect", guard().with_dialect(Dialect::Claude)),
        ("async", guard().with_async(true)),
        ("sandbox", with_command(guard(), |c| c.sandbox = Some(true))),
        (
            "environment",
            with_command(guard(), |c| c.env.push(("X".into(), "1".into()))),
        ),
        (
            "working directory",
            with_command(guard(), |c| c.cwd = Some("/tmp".into())),
        ),
        (
            "command",
            with_command(guard(), |c| {
                c.command = CommandLine::Script("./other.sh".into());
            }),
        ),
    ];
    for scope in [DedupeScope::Merge, DedupeScope::Dispatch] {
        for (what, variant) in &variants {
            assert_eq!(
                copies(&[guard(), variant.clone()], scope),
                [None, None],
                "{what} ({scope:?})"
            );
        }
        assert_eq!(
            copies(&[guard(), guard(), guard()], scope),
            [None, Some(0), Some(0)],
            "{scope:?}"
        );
    }
}

#[test]
fn merging_also_compares_when_a_hook_fires_and_a_dispatch_only_commands() {
    let edit = guard().with_matcher(Matcher::parse("Edit").unwrap());
    assert_eq!(
        copies(&[guard(), edit.clone()], DedupeScope::Merge),
        [None, None]
    );
    // In a dispatch both matched already: the same run.
    assert_eq!(
        copies(&[guard(), edit], DedupeScope::Dispatch),
        [None, Some(0)]
    );
    let ask = HookSpec::new(
        BuiltinEvent::PreToolUse,
        Action::permission(hooks_core::Decision::Ask),
    );
    assert_eq!(
        copies(&[ask.clone(), ask.clone()], DedupeScope::Merge),
        [None, Some(0)]
    );
    assert_eq!(
        copies(&[ask.clone(), ask], DedupeScope::Dispatch),
        [None, None]
    );
    let step = guard().with_sequential("p");
    for scope in [DedupeScope::Merge, DedupeScope::Dispatch] {
        assert_eq!(copies(&[step.clone(), step.clone()], scope), [None, None]);
    }
}

#[test]
fn the_most_protective_copy_is_managed_then_fail_closed_then_longer() {
    let user = guard().with_provenance(in_layer(Layer::User));
    let open = guard().with_on_failure(FailurePolicy::Allow);
    let short = guard().with_timeout(Duration::from_secs(1));
    let cases = [
        (&guard(), &user, Ordering::Greater),
        // Managed beats fail-closed: a managed fail-open hook over a user fail-closed one.
        (
            &open,
            &user.clone().with_on_failure(FailurePolicy::Block),
            Ordering::Greater,
        ),
        (&guard(), &open, Ordering::Greater),
        (&guard(), &short, Ordering::Greater),
        (&short, &guard(), Ordering::Less),
        (&guard(), &guard(), Ordering::Equal),
    ];
    for (a, b, want) in cases {
        assert_eq!(more_protective(a, b), want);
    }
}

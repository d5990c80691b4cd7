//! Masking secret values: whole, in the encodings the engine quotes them in, cut where the
//! engine cut text, and in every string of an outcome.

use hooks_core::{Effects, Failure, FailureKind, HookOutcome, Redactor, RunInfo};
use serde_json::json;

const VALUE: &str = "tok-7Qz9xK2mP4wL";

fn redactor() -> Redactor {
    Redactor::new()
        .with("TOKEN", VALUE)
        .with("QUOTED", "a \"b\" c{d}")
        .with("TOK", "tok-7Q")
}

#[track_caller]
fn check(text: &str, expect: &str) {
    assert_eq!(redactor().redact(text), expect, "for {text:?}");
}

#[test]
fn values_are_masked_whole_and_the_longest_first() {
    check("plain text", "plain text");
    check(
        &format!("a {VALUE} b {VALUE}"),
        "a [secret TOKEN] b [secret TOKEN]",
    );
    check(&format!("{VALUE}{VALUE}"), "[secret TOKEN][secret TOKEN]");
    check("just tok-7Q here", "just [secret TOK] here");
    check("", "");
    check("héllo wörld", "héllo wörld");
}

#[test]
fn values_are_masked_json_escaped_and_percent_encoded() {
    check(r#"say a \"b\" c{d}"#, "say [secret QUOTED]");
    check(
        "GET /x/a%20%22b%22%20c%7Bd%7D/y",
        "GET /x/[secret QUOTED]/y",
    );
    check("raw a \"b\" c{d}!", "raw [secret QUOTED]!");
}

#[test]
fn parts_of_a_value_are_masked_where_text_was_cut() {
    // A head cut (`…` after), a tail cut (`…` before), a cap (the end of the text).
    check("exited: tok-7Qz9x…", "exited: [secret TOKEN]…");
    check(
        "exited: …9xK2mP4wL and more",
        "exited: …[secret TOKEN] and more",
    );
    check(
        "stdout was cut at tok-7Qz9",
        "stdout was cut at [secret TOKEN]",
    );
    // Under the minimum, or not at a cut, a part stays.
    check("ends with tok", "ends with tok");
    check("tok-7Qz9 in the middle", "[secret TOK]z9 in the middle");
    check("mP4wL in the middle", "mP4wL in the middle");
}

#[test]
fn every_string_of_an_outcome_is_masked() {
    let mut outcome = HookOutcome {
        run: RunInfo {
            failure: Some(Failure {
                kind: FailureKind::Spawn,
                message: format!("cannot start `/opt/{VALUE}/bin`"),
            }),
            ..RunInfo::default()
        },
        effects: Effects {
            reason: Some(format!("r {VALUE}")),
            stop_reason: Some(format!("s {VALUE}")),
            updated_input: Some(json!({"command": format!("echo {VALUE}"), VALUE: [VALUE]})),
            additional_context: vec![format!("c {VALUE}")],
            system_message: Some(format!("m {VALUE}")),
            messages: vec![format!("x {VALUE}")],
            override_edge: Some(VALUE.to_owned()),
            ..Effects::default()
        },
        unknown_fields: vec![VALUE.to_owned()],
        ..HookOutcome::default()
    };
    Redactor::new()
        .with("TOKEN", VALUE)
        .redact_outcome(&mut outcome);
    let text = serde_json::to_string(&outcome).unwrap();
    assert!(!text.contains(VALUE), "{text}");
    assert_eq!(text.matches("[secret TOKEN]").count(), 11, "{text}");
}

#[test]
fn debug_shows_masks_never_values() {
    let shown = format!("{:?}", redactor());
    assert_eq!(
        shown,
        r#"Redactor(["[secret QUOTED]", "[secret TOKEN]", "[secret TOK]"])"#
    );
}

proptest::proptest! {
    /// Whatever surrounds a value, and wherever the text is cut (head, tail or cap, as the
    /// engine cuts), no part of it of `MIN_PARTIAL` bytes or more survives next to the cut,
    /// and the whole value never does.
    #[test]
    fn no_value_survives_masking_or_a_cut(
        before in "[a-z…4wL ]{0,12}",
        after in "[a-z…tok ]{0,12}",
        cut in 0..VALUE.len(),
    ) {
        let r = Redactor::new().with("TOKEN", VALUE);
        let text = format!("{before}{VALUE}{after}");
        proptest::prop_assert!(!r.redact(&text).contains(VALUE));
        let head = format!("{before}{}…", &VALUE[..cut]);
        let tail = format!("…{}{after}", &VALUE[cut..]);
        let capped = format!("{before}{}", &VALUE[..cut]);
        for (text, part) in [(&head, &VALUE[..cut]), (&tail, &VALUE[cut..]), (&capped, &VALUE[..cut])] {
            let masked = r.redact(text);
            if part.len() >= Redactor::MIN_PARTIAL {
                proptest::prop_assert!(masked.contains("[secret TOKEN]"), "{text} -> {masked}");
            }
            proptest::prop_assert!(!masked.contains(VALUE));
        }
    }
}

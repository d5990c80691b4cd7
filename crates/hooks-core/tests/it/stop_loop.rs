//! The stop-loop cap: its value from `CLAUDE_CODE_STOP_HOOK_BLOCK_CAP`, read as Claude Code
//! reads it, and which block it overrides.

use hooks_core::StopBlockCap;

#[track_caller]
fn check(value: Option<&str>, expect: Option<u32>) {
    assert_eq!(
        StopBlockCap::from_env_value(value).limit(),
        expect,
        "{value:?}"
    );
}

#[test]
fn the_variable_is_read_as_claude_code_reads_it() {
    check(None, Some(8));
    check(Some("3"), Some(3));
    check(Some(" 12 "), Some(12));
    check(Some("12x"), Some(12));
    check(Some("+5"), Some(5));
    // 0 and negative numbers turn the cap off.
    check(Some("0"), None);
    check(Some("-1"), None);
    // Not a number: the default.
    check(Some(""), Some(8));
    check(Some("many"), Some(8));
    check(Some("-"), Some(8));
    // Beyond what anyone reaches: no cap.
    check(Some("99999999999999"), None);
}

#[test]
fn the_block_past_the_cap_is_overridden() {
    let cap = StopBlockCap::at_most(8);
    assert!(!cap.overrides(1));
    assert!(!cap.overrides(8));
    assert!(cap.overrides(9));
    assert!(!StopBlockCap::NONE.overrides(u32::MAX));
    assert!(StopBlockCap::at_most(0).overrides(1));
    assert_eq!(StopBlockCap::default(), StopBlockCap::at_most(8));
}

#[test]
fn the_message_says_what_happened_and_how_to_change_it() {
    assert_eq!(
        StopBlockCap::at_most(8).message("Stop", 9, Some("tests fail")),
        "stop-loop cap: the Stop hooks blocked 9 consecutive times, more than the cap of 8 \
         (CLAUDE_CODE_STOP_HOOK_BLOCK_CAP); the block is overridden and the agent stops \
         (last reason: tests fail)"
    );
}

//! `hooks bridge codex` inside the real Codex, after `hooks install codex` (its entries
//! trusted by the install alone, no `--dangerously-bypass-hook-trust`): a rewrite of the
//! engine's config is what Codex's shell runs (Codex 0.171.0 honours `updatedInput` given
//! with `permissionDecision: "allow"`), and the context of SessionStart and
//! UserPromptSubmit hooks reaches the model's first request.

use super::Agent;
use super::bridge::{bridged_with, home_file};

/// The engine's user config: a rewrite of `touch original` into `touch rewritten` (in
/// Claude Code's answer shape, which the native format reads), and two context hooks.
const REWRITE_AND_CONTEXT: &str = r#"hooks:
  - id: rename
    event: PreToolUse
    matcher: Bash
    if: "Bash(touch original)"
    command: |
      echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"touch rewritten"}}}'
  - id: build
    event: SessionStart
    command: "echo 'Context from SessionStart: the build uses make.'"
  - id: brief
    event: UserPromptSubmit
    command: "echo 'Context from UserPromptSubmit: be brief.'"
"#;

#[test]
fn codex_takes_the_engines_rewrite_and_context() {
    let (run, out) = bridged_with(Agent::Codex, "touch original", None, |run| {
        home_file(run, ".config/hooks/hooks.yaml", REWRITE_AND_CONTEXT);
    });
    out.assert_success();
    assert!(run.project().join("rewritten").exists(), "{out}");
    assert!(!run.project().join("original").exists(), "{out}");
    let first = out.turn(0).to_string();
    for context in [
        "Context from SessionStart: the build uses make.",
        "Context from UserPromptSubmit: be brief.",
    ] {
        assert!(first.contains(context), "{context:?} not in {first}");
    }
}

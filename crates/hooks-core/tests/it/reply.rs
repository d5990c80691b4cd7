//! The answers `hooks bridge` writes back, agent by agent: one row per (event, what the
//! hooks decided), giving the exact stdout JSON, exit code and stderr each agent is
//! written. Claude Code's rows are also read back with the engine's own reader of Claude
//! Code answers, which must see the same decision, reason and context.

use hooks_core::reply::Reply;
use hooks_core::{
    Aggregate, Decision, Dialect, Effects, Event, EventCatalog, EventContext, HookOutcome,
    parse_output_in,
};
use hooks_core::{claude, cline, codex, cursor, gemini};
use serde_json::{Value, json};

/// The aggregate of `event` whose effects are `effects` (a subset of the `--json` fields)
/// over the defaults.
fn aggregate(event: &Event, effects: &Value) -> Aggregate {
    let mut full = json!({"decision": "none", "continue": true});
    for (k, v) in effects.as_object().unwrap() {
        full[k] = v.clone();
    }
    let mut agg = Aggregate::empty(event);
    agg.effects = serde_json::from_value::<Effects>(full).unwrap();
    agg
}

fn event(name: &str) -> Event {
    EventCatalog::new().resolve(name).unwrap()
}

/// One row: the agent's writer, the event, the effects, and the expected stdout (`null`:
/// nothing), exit code and stderr.
#[track_caller]
fn check(
    write: fn(&Event, &Aggregate) -> Reply,
    name: &str,
    effects: Value,
    stdout: Value,
    exit_code: i32,
    stderr: &str,
) {
    let event = event(name);
    let reply = write(&event, &aggregate(&event, &effects));
    check_reply(
        &reply,
        &format!("{name} {effects}"),
        stdout,
        exit_code,
        stderr,
    );
}

/// One row as [`check`] checks it, then the reply read back by the engine's reader of
/// `dialect`'s answers: the event, the aggregate, the reply written and what the reader
/// made of it.
#[track_caller]
fn written_and_read(
    write: fn(&Event, &Aggregate) -> Reply,
    dialect: Dialect,
    name: &str,
    effects: &Value,
    (stdout, exit_code, stderr): (Value, i32, &str),
) -> (Event, Aggregate, Reply, HookOutcome) {
    check(write, name, effects.clone(), stdout, exit_code, stderr);
    let event = event(name);
    let agg = aggregate(&event, effects);
    let written = write(&event, &agg);
    let read = parse_output_in(
        dialect,
        &event,
        Some(written.exit_code),
        written.stdout.as_bytes(),
        written.stderr.as_bytes(),
    );
    (event, agg, written, read)
}

/// `reply` is the expected stdout (`null`: nothing), exit code and stderr.
#[track_caller]
fn check_reply(reply: &Reply, row: &str, stdout: Value, exit_code: i32, stderr: &str) {
    let got: Value = if reply.stdout.is_empty() {
        Value::Null
    } else {
        assert!(reply.stdout.ends_with('\n'), "{reply:?}");
        serde_json::from_str(&reply.stdout).unwrap_or(Value::String(reply.stdout.clone()))
    };
    assert_eq!(got, stdout, "{row}: stdout");
    assert_eq!(reply.exit_code, exit_code, "{row}: exit code");
    assert_eq!(reply.stderr.trim_end(), stderr, "{row}: stderr");
}

/// A Gemini CLI row: exit 0 and nothing on stderr, whatever the decision, and `stdout`.
/// Its writer is given the event's context; `tool` is the canonical tool of a tool event,
/// in whose Gemini CLI argument names a rewrite is written.
#[track_caller]
fn gemini(name: &str, tool: Option<&str>, effects: Value, stdout: Value) {
    let event = event(name);
    let mut ctx = EventContext::new(event.clone());
    if let Some(tool) = tool {
        ctx.set("tool_name", tool);
    }
    let reply = gemini::reply(&ctx, &aggregate(&event, &effects));
    check_reply(&reply, &format!("{name} {tool:?} {effects}"), stdout, 0, "");
}

/// A Claude Code row, also read back as Claude Code reads it: the decision (`deny` for
/// a block on PreToolUse), the reason and the context survive.
#[track_caller]
fn claude(name: &str, effects: Value, stdout: Value, exit_code: i32, stderr: &str) {
    let (_, agg, written, read) = written_and_read(
        claude::reply,
        Dialect::Claude,
        name,
        &effects,
        (stdout, exit_code, stderr),
    );
    let want = agg.effects.decision;
    let got = read.effects.decision;
    let same = got == want
        || (want == Decision::Block && got == Decision::Deny)
        || (want == Decision::None
            && got == Decision::Allow
            && agg.effects.updated_input.is_some());
    assert!(
        same,
        "{name} {effects}: read back as {got:?}, wrote {want:?}"
    );
    if agg.is_blocked() && written.exit_code != 1 && agg.effects.reason.is_some() {
        assert_eq!(
            read.effects.reason, agg.effects.reason,
            "{name}: reason read back"
        );
    }
    if !agg.effects.additional_context.is_empty() {
        assert_eq!(
            read.effects.additional_context.join("\n\n"),
            agg.effects.additional_context.join("\n\n"),
            "{name}: context read back"
        );
    }
}

#[test]
fn claude_code_answers() {
    let none = Value::Null;
    claude("PreToolUse", json!({}), none.clone(), 0, "");
    claude(
        "PreToolUse",
        json!({"decision": "deny", "reason": "no rm"}),
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "no rm"}}),
        0,
        "",
    );
    claude(
        "PreToolUse",
        json!({"decision": "block", "reason": "refusing"}),
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "refusing"}}),
        0,
        "",
    );
    claude(
        "PreToolUse",
        json!({"decision": "ask", "reason": "sure?"}),
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask", "permissionDecisionReason": "sure?"}}),
        0,
        "",
    );
    claude(
        "PreToolUse",
        json!({"updated_input": {"command": "bun test"}}),
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": {"command": "bun test"}}}),
        0,
        "",
    );
    claude(
        "PreToolUse",
        json!({"decision": "defer", "updated_input": {"command": "x"}}),
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "defer"}}),
        0,
        "",
    );
    claude(
        "PreToolUse",
        json!({"additional_context": ["one", "two"]}),
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "one\n\ntwo"}}),
        0,
        "",
    );
    claude(
        "PreToolUse",
        json!({"messages": ["hook `g` failed: exit 1"], "system_message": "careful"}),
        json!({"systemMessage": "careful\nhook `g` failed: exit 1"}),
        0,
        "",
    );
    claude(
        "PermissionRequest",
        json!({"decision": "deny", "reason": "not here"}),
        json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "deny", "message": "not here"}}}),
        0,
        "",
    );
    claude(
        "PermissionRequest",
        json!({"decision": "allow", "updated_permissions": [{"type": "setMode", "mode": "plan"}]}),
        json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "allow", "updatedPermissions": [{"type": "setMode", "mode": "plan"}]}}}),
        0,
        "",
    );
    claude(
        "Stop",
        json!({"decision": "block", "reason": "tests fail"}),
        json!({"decision": "block", "reason": "tests fail"}),
        0,
        "",
    );
    claude(
        "UserPromptSubmit",
        json!({"additional_context": ["today is Monday"], "session_title": "T"}),
        json!({"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": "today is Monday", "sessionTitle": "T"}}),
        0,
        "",
    );
    claude(
        "UserPromptSubmit",
        json!({"decision": "block", "reason": "secret in prompt"}),
        json!({"decision": "block", "reason": "secret in prompt"}),
        0,
        "",
    );
    claude(
        "SessionStart",
        json!({"additional_context": ["branch main"], "watch_paths": ["/p/.env"]}),
        json!({"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "branch main", "watchPaths": ["/p/.env"]}}),
        0,
        "",
    );
    claude(
        "PostToolUse",
        json!({"decision": "block", "reason": "lint failed"}),
        json!({"decision": "block", "reason": "lint failed"}),
        0,
        "",
    );
    claude(
        "TaskCompleted",
        json!({"decision": "block", "reason": "not done"}),
        none.clone(),
        2,
        "not done",
    );
    claude(
        "PreCompact",
        json!({"decision": "block", "reason": "keep it"}),
        none.clone(),
        2,
        "keep it",
    );
    claude(
        "WorktreeCreate",
        json!({"worktree_path": "/tmp/wt"}),
        json!("/tmp/wt\n"),
        0,
        "",
    );
    claude(
        "WorktreeCreate",
        json!({"decision": "block", "reason": "no"}),
        none.clone(),
        1,
        "no",
    );
    claude(
        "PreToolUse",
        json!({"continue": false, "stop_reason": "halt"}),
        json!({"continue": false, "stopReason": "halt"}),
        0,
        "",
    );
    claude(
        "PostToolUse",
        json!({"classifier_context": "ran tests"}),
        json!({"hookSpecificOutput": {"hookEventName": "PostToolUse", "classifierContext": "ran tests"}}),
        0,
        "",
    );
    claude(
        "MessageDisplay",
        json!({"display_content": "shown"}),
        json!({"hookSpecificOutput": {"hookEventName": "MessageDisplay", "displayContent": "shown"}}),
        0,
        "",
    );
    claude(
        "UserPromptSubmit",
        json!({"suppress_original_prompt": true}),
        json!({"suppressOriginalPrompt": true}),
        0,
        "",
    );
    claude(
        "Stop",
        json!({"decision": "block"}),
        json!({"decision": "block", "reason": "blocked by a Stop hook"}),
        0,
        "",
    );
}

#[test]
fn codex_answers() {
    let none = Value::Null;
    check(codex::reply, "PreToolUse", json!({}), none.clone(), 0, "");
    // Codex ignores `decision: "deny"`: a deny is exit 2 with the reason on stderr.
    check(
        codex::reply,
        "PreToolUse",
        json!({"decision": "deny", "reason": "no rm"}),
        none.clone(),
        2,
        "no rm",
    );
    check(
        codex::reply,
        "PreToolUse",
        json!({"decision": "block"}),
        none.clone(),
        2,
        "blocked by a PreToolUse hook",
    );
    // Codex has no ask, and `allow` without a rewrite is invalid: nothing is written.
    check(
        codex::reply,
        "PreToolUse",
        json!({"decision": "ask", "reason": "?"}),
        none.clone(),
        0,
        "",
    );
    check(
        codex::reply,
        "PreToolUse",
        json!({"decision": "allow"}),
        none.clone(),
        0,
        "",
    );
    check(
        codex::reply,
        "PreToolUse",
        json!({"updated_input": {"command": "ls -a"}, "additional_context": ["c"]}),
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": {"command": "ls -a"}, "additionalContext": "c"}}),
        0,
        "",
    );
    check(
        codex::reply,
        "PreToolUse",
        json!({"continue": false, "stop_reason": "halt"}),
        none.clone(),
        2,
        "halt",
    );
    check(
        codex::reply,
        "PermissionRequest",
        json!({"decision": "deny", "reason": "no"}),
        json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "deny", "message": "no"}}}),
        0,
        "",
    );
    // Stop takes no hookSpecificOutput in Codex: its context is not written.
    check(
        codex::reply,
        "Stop",
        json!({"decision": "block", "reason": "go on", "additional_context": ["x"]}),
        json!({"decision": "block", "reason": "go on"}),
        0,
        "",
    );
    check(
        codex::reply,
        "UserPromptSubmit",
        json!({"additional_context": ["ctx"], "messages": ["m"]}),
        json!({"systemMessage": "m", "hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": "ctx"}}),
        0,
        "",
    );
    check(
        codex::reply,
        "SessionStart",
        json!({"additional_context": ["hello"]}),
        json!({"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "hello"}}),
        0,
        "",
    );
}

#[test]
fn gemini_cli_answers() {
    let none = Value::Null;
    gemini("PreToolUse", None, json!({}), none.clone());
    // Gemini CLI ignores permissionDecision: a deny is a top-level decision, exit 0.
    gemini(
        "PreToolUse",
        None,
        json!({"decision": "deny", "reason": "no rm"}),
        json!({"decision": "deny", "reason": "no rm"}),
    );
    gemini(
        "PreToolUse",
        None,
        json!({"decision": "block"}),
        json!({"decision": "deny", "reason": "blocked by a PreToolUse hook"}),
    );
    gemini(
        "PreToolUse",
        None,
        json!({"decision": "ask", "reason": "sure?"}),
        json!({"decision": "ask", "reason": "sure?"}),
    );
    gemini(
        "PreToolUse",
        None,
        json!({"updated_input": {"command": "ls -a"}}),
        json!({"hookSpecificOutput": {"hookEventName": "BeforeTool", "tool_input": {"command": "ls -a"}}}),
    );
    gemini(
        "UserPromptSubmit",
        None,
        json!({"additional_context": ["ctx"]}),
        json!({"hookSpecificOutput": {"hookEventName": "BeforeAgent", "additionalContext": "ctx"}}),
    );
    gemini(
        "Stop",
        None,
        json!({"decision": "block", "reason": "retry"}),
        json!({"decision": "deny", "reason": "retry"}),
    );
    gemini(
        "SessionEnd",
        None,
        json!({"messages": ["bye"]}),
        json!({"systemMessage": "bye"}),
    );
    gemini(
        "PreToolUse",
        None,
        json!({"continue": false, "stop_reason": "halt"}),
        json!({"continue": false, "stopReason": "halt"}),
    );
    // An AfterTool hook's follow-up call is passed on for Gemini CLI to run.
    let tail = json!({"name": "read_file", "args": {"file_path": "a"}});
    gemini(
        "PostToolUse",
        Some("Bash"),
        json!({"tail_tool_call": tail}),
        json!({"hookSpecificOutput": {"hookEventName": "AfterTool", "tailToolCallRequest": tail}}),
    );
}

/// A rewrite (the canonical tool's whole input) is written as `tool_input` in the
/// argument names of Gemini CLI's tool; arguments the canonical tool does not have keep
/// theirs, and a blocked call carries no rewrite.
#[test]
fn gemini_cli_rewrites_are_in_its_tools_arguments() {
    let rewrite = |tool: &str, input: Value, written: Value| {
        gemini(
            "PreToolUse",
            Some(tool),
            json!({"updated_input": input}),
            json!({"hookSpecificOutput": {"hookEventName": "BeforeTool", "tool_input": written}}),
        );
    };
    rewrite(
        "Bash",
        json!({"command": "ls", "run_in_background": true, "dir_path": "sub"}),
        json!({"command": "ls", "is_background": true, "dir_path": "sub"}),
    );
    rewrite(
        "Edit",
        json!({"file_path": "/w/a", "old_string": "x", "new_string": "y", "replace_all": true}),
        json!({"file_path": "/w/a", "old_string": "x", "new_string": "y", "allow_multiple": true}),
    );
    rewrite(
        "Grep",
        json!({"pattern": "x", "path": "src", "glob": "*.rs"}),
        json!({"pattern": "x", "dir_path": "src", "include_pattern": "*.rs"}),
    );
    rewrite(
        "Glob",
        json!({"pattern": "*", "path": "."}),
        json!({"pattern": "*", "dir_path": "."}),
    );
    rewrite("LS", json!({"path": "."}), json!({"dir_path": "."}));
    rewrite(
        "Read",
        json!({"file_path": "/w/a"}),
        json!({"file_path": "/w/a"}),
    );
    rewrite(
        "mcp__github__create_issue",
        json!({"title": "t"}),
        json!({"title": "t"}),
    );
    gemini(
        "PreToolUse",
        Some("Bash"),
        json!({"decision": "deny", "reason": "no", "updated_input": {"command": "ls"}}),
        json!({"decision": "deny", "reason": "no"}),
    );
}

/// A Cline row, also read back as Cline reads it (the engine's reader of Cline answers):
/// a cancel blocks and stops with the reason, context is context.
#[track_caller]
fn cline(name: &str, effects: Value, stdout: Value, stderr: &str) {
    let write =
        |event: &Event, agg: &Aggregate| cline::reply(&EventContext::new(event.clone()), agg);
    let (_, agg, _, read) =
        written_and_read(write, Dialect::Cline, name, &effects, (stdout, 0, stderr));
    let cancels = agg.is_blocked() || !agg.effects.continue_;
    assert_eq!(
        read.effects.continue_, !cancels,
        "{name} {effects}: read back"
    );
    if cancels {
        assert_eq!(read.effects.decision, Decision::Block, "{name} {effects}");
    } else {
        let context: Vec<&str> = agg
            .effects
            .additional_context
            .iter()
            .map(String::as_str)
            .filter(|c| !c.is_empty())
            .collect();
        let want = (!context.is_empty()).then(|| context.join("\n\n"));
        assert_eq!(
            read.effects.additional_context.first().cloned(),
            want,
            "{name} {effects}"
        );
    }
}

/// A rewrite on PreToolUse is Cline's `overrideInput`, in the input shape of the tool
/// Cline named (`cline_tool_name`, which its reader keeps), else of Cline's name for the
/// canonical tool.
#[track_caller]
fn cline_rewrite(tool: &str, cline_tool: Option<&str>, updated: Value, override_input: Value) {
    let event = event("PreToolUse");
    let mut ctx = EventContext::new(event.clone());
    ctx.set("tool_name", tool);
    if let Some(name) = cline_tool {
        ctx.set(hooks_core::cline::TOOL_NAME_KEY, name);
    }
    let agg = aggregate(&event, &json!({"updated_input": updated}));
    let reply = cline::reply(&ctx, &agg);
    check_reply(
        &reply,
        &format!("{tool} {cline_tool:?} {updated}"),
        json!({"cancel": false, "overrideInput": override_input}),
        0,
        "",
    );
}

#[test]
fn cline_rewrites() {
    cline_rewrite(
        "Bash",
        Some("run_commands"),
        json!({"command": "ls -a\npwd"}),
        json!({"commands": ["ls -a", "pwd"]}),
    );
    cline_rewrite(
        "Bash",
        Some("execute_command"),
        json!({"command": "ls", "requires_approval": false}),
        json!({"command": "ls", "requires_approval": false}),
    );
    cline_rewrite(
        "Bash",
        None,
        json!({"command": "ls"}),
        json!({"command": "ls"}),
    );
    cline_rewrite(
        "Read",
        Some("read_file"),
        json!({"file_path": "src/lib.rs"}),
        json!({"path": "src/lib.rs"}),
    );
    cline_rewrite(
        "mcp__docs__search",
        Some("use_mcp_tool"),
        json!({"q": "hooks"}),
        json!({"server_name": "docs", "tool_name": "search", "arguments": "{\"q\":\"hooks\"}"}),
    );
}

/// Cline's rows: exit 0 and a JSON object always (any other exit is a hook error to Cline,
/// and the action goes ahead); a block, deny or stop is `cancel: true` with the reason as
/// `errorMessage` (`hook-factory.ts`, `hook-file-hooks.ts`); context is
/// `contextModification`; an ask has no form (a rewrite: `cline_rewrites`); messages go
/// to stderr.
#[test]
fn cline_answers() {
    let no = json!({"cancel": false});
    cline("PreToolUse", json!({}), no.clone(), "");
    cline(
        "PreToolUse",
        json!({"decision": "block", "reason": "no rm"}),
        json!({"cancel": true, "errorMessage": "no rm"}),
        "",
    );
    cline(
        "PreToolUse",
        json!({"decision": "deny", "reason": "not here"}),
        json!({"cancel": true, "errorMessage": "not here"}),
        "",
    );
    cline(
        "PreToolUse",
        json!({"decision": "block"}),
        json!({"cancel": true, "errorMessage": "blocked by a PreToolUse hook"}),
        "",
    );
    cline("PreToolUse", json!({"decision": "ask"}), no.clone(), "");
    cline("PreToolUse", json!({"decision": "allow"}), no.clone(), "");
    cline(
        "PreToolUse",
        json!({"additional_context": ["mind the tests", "and the docs"]}),
        json!({"cancel": false, "contextModification": "mind the tests\n\nand the docs"}),
        "",
    );
    cline(
        "UserPromptSubmit",
        json!({"additional_context": ["it is Tuesday"], "system_message": "hello"}),
        json!({"cancel": false, "contextModification": "it is Tuesday"}),
        "hello",
    );
    cline(
        "UserPromptSubmit",
        json!({"decision": "block", "reason": "no secrets in prompts"}),
        json!({"cancel": true, "errorMessage": "no secrets in prompts"}),
        "",
    );
    cline(
        "TaskStart",
        json!({"continue": false, "stop_reason": "out of budget"}),
        json!({"cancel": true, "errorMessage": "out of budget"}),
        "",
    );
    cline(
        "TaskStart",
        json!({"continue": false}),
        json!({"cancel": true, "errorMessage": "a TaskStart hook stopped the task"}),
        "",
    );
    cline(
        "PostToolUse",
        json!({"additional_context": ["3 tests failed"]}),
        json!({"cancel": false, "contextModification": "3 tests failed"}),
        "",
    );
    cline(
        "TaskComplete",
        json!({"messages": ["a hook failed"]}),
        no,
        "a hook failed",
    );
}

/// The writers are the profiles': the agents the bridge answers have one, and
/// writing through the profile is writing with the agent's module.
#[test]
fn each_agents_profile_holds_its_writer() {
    use hooks_core::Dialect;
    let event = hooks_core::Event::from(hooks_core::BuiltinEvent::PreToolUse);
    let ctx = EventContext::pre_tool_use("Grep", json!({"pattern": "x"}));
    let mut agg = hooks_core::aggregate(&event, Vec::new());
    agg.effects.updated_input = Some(json!({"pattern": "y", "path": "src"}));
    for (dialect, own) in [
        (Dialect::Claude, claude::reply(&event, &agg)),
        (Dialect::Cline, cline::reply(&ctx, &agg)),
        (Dialect::Codex, codex::reply(&event, &agg)),
        (Dialect::Cursor, cursor::reply(&event, &agg)),
        (Dialect::Gemini, gemini::reply(&ctx, &agg)),
    ] {
        let write = dialect.profile().reply.expect("a writer");
        assert_eq!(write(&ctx, &agg), own, "{dialect}");
    }
    for dialect in [
        Dialect::Native,
        Dialect::Echo,
        Dialect::Fabro,
        Dialect::Autohand,
    ] {
        assert!(dialect.profile().reply.is_none(), "{dialect}");
    }
}

/// A Cursor row, also read back with the engine's reader of Cursor answers
/// (`parse_output_in(Dialect::Cursor, ..)`): a block or deny is read as a blocking
/// decision with the same reason.
#[track_caller]
fn cursor(name: &str, effects: Value, stdout: Value, exit_code: i32, stderr: &str) {
    let (event, agg, written, read) = written_and_read(
        cursor::reply,
        Dialect::Cursor,
        name,
        &effects,
        (stdout, exit_code, stderr),
    );
    if agg.is_blocked()
        && event.can_block()
        && (!written.stdout.is_empty() || written.exit_code == 2)
    {
        assert!(
            read.effects.decision.is_blocking(),
            "{name} {effects}: read back as {:?}",
            read.effects.decision
        );
        if let Some(reason) = &agg.effects.reason {
            assert_eq!(read.effects.reason.as_ref(), Some(reason), "{name}: reason");
        }
    }
}

#[test]
fn cursor_answers() {
    let none = Value::Null;
    // A tool decision is written in both of Cursor's forms: `permission` (the
    // before-events) and `decision` (`preToolUse`), with the messages.
    cursor(
        "PreToolUse",
        json!({}),
        json!({"permission": "allow", "decision": "allow"}),
        0,
        "",
    );
    cursor(
        "PreToolUse",
        json!({"decision": "deny", "reason": "no rm"}),
        json!({"permission": "deny", "decision": "deny", "user_message": "no rm", "agent_message": "no rm", "reason": "no rm"}),
        0,
        "",
    );
    cursor(
        "PreToolUse",
        json!({"decision": "block", "system_message": "guarded"}),
        json!({"permission": "deny", "decision": "deny", "user_message": "guarded", "agent_message": "blocked by a PreToolUse hook", "reason": "blocked by a PreToolUse hook"}),
        0,
        "",
    );
    cursor(
        "PreToolUse",
        json!({"decision": "ask", "reason": "sure?"}),
        json!({"permission": "ask", "user_message": "sure?", "agent_message": "sure?", "reason": "sure?"}),
        0,
        "",
    );
    cursor(
        "PreToolUse",
        json!({"updated_input": {"command": "bun test"}}),
        json!({"permission": "allow", "decision": "allow", "updated_input": {"command": "bun test"}}),
        0,
        "",
    );
    // Cursor cannot stop the agent from a tool event: the call is refused.
    cursor(
        "PreToolUse",
        json!({"continue": false, "stop_reason": "halt"}),
        json!({"permission": "deny", "decision": "deny", "user_message": "halt", "agent_message": "halt", "reason": "halt"}),
        0,
        "",
    );
    cursor(
        "PreToolUse",
        json!({"messages": ["hook `g` failed: exit 1"]}),
        json!({"permission": "allow", "decision": "allow", "user_message": "hook `g` failed: exit 1"}),
        0,
        "",
    );
    // Tab has no one to ask: an ask is a deny.
    cursor(
        "BeforeTabFileRead",
        json!({"decision": "ask", "reason": "secret"}),
        json!({"permission": "deny", "user_message": "secret"}),
        0,
        "",
    );
    cursor(
        "BeforeTabFileRead",
        json!({}),
        json!({"permission": "allow"}),
        0,
        "",
    );
    cursor(
        "UserPromptSubmit",
        json!({"decision": "block", "reason": "secret in prompt"}),
        json!({"continue": false, "user_message": "secret in prompt"}),
        0,
        "",
    );
    // Cursor's beforeSubmitPrompt takes no context.
    cursor(
        "UserPromptSubmit",
        json!({"additional_context": ["today is Monday"]}),
        none.clone(),
        0,
        "",
    );
    cursor(
        "Stop",
        json!({"decision": "block", "reason": "tests fail"}),
        json!({"followup_message": "tests fail"}),
        0,
        "",
    );
    cursor(
        "SubagentStop",
        json!({"decision": "block", "reason": "check again"}),
        json!({"followup_message": "check again"}),
        0,
        "",
    );
    cursor("Stop", json!({}), none.clone(), 0, "");
    cursor(
        "SubagentStart",
        json!({"decision": "deny", "reason": "not now"}),
        json!({"decision": "deny", "reason": "not now"}),
        0,
        "",
    );
    cursor(
        "SessionStart",
        json!({"additional_context": ["branch main", "clean"], "env": {"STAGE": "dev"}}),
        json!({"additional_context": "branch main\n\nclean", "env": {"STAGE": "dev"}}),
        0,
        "",
    );
    cursor(
        "SessionStart",
        json!({"continue": false, "stop_reason": "locked"}),
        json!({"continue": false, "user_message": "locked"}),
        0,
        "",
    );
    // Cursor's preCompact JSON takes no block: the exit code blocks.
    cursor(
        "PreCompact",
        json!({"decision": "block", "reason": "keep it"}),
        none.clone(),
        2,
        "keep it",
    );
    cursor(
        "PostToolUse",
        json!({"updated_mcp_tool_output": {"rows": []}}),
        json!({"updated_mcp_tool_output": {"rows": []}}),
        0,
        "",
    );
    // Where Cursor reads nothing, nothing is written.
    for name in [
        "PostToolUseFailure",
        "SessionEnd",
        "StopFailure",
        "AfterAgentResponse",
        "AfterTabFileEdit",
    ] {
        cursor(
            name,
            json!({"decision": "block", "reason": "x", "additional_context": ["c"]}),
            none.clone(),
            0,
            "",
        );
    }
}

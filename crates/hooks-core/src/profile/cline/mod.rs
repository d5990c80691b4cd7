//! Cline's hooks (executable files named after their events): its events, the proto3 JSON
//! a Cline hook is given (`hookName`, `taskId`, `preToolUse: {toolName, parameters}`, ...),
//! its tool names, and how Cline reads a hook's answer.
//!
//! Source: `cline/cline` (`apps/vscode/proto/cline/hooks.proto`,
//! `apps/vscode/src/core/hooks/hook-factory.ts`, `apps/vscode/src/sdk/hooks-adapter.ts`,
//! `.clinerules/hooks/README.md`), summarised in the project's protocol notes.

mod reply;

use std::time::Duration;

use serde_json::{Map, Value, json};

use crate::context::{EventContext, json_kind};
use crate::dialect::Dialect;
use crate::event::{BuiltinEvent as E, BuiltinEvent, Event};
use crate::outcome::{Decision, FailureKind, HookOutcome, HookStatus};
use crate::output;
use crate::profile::row::{Events, FileShape, HookList, Profile};
use crate::profile::shared::{ArgRenames, json_text, rename_args};
use crate::timeouts::{HandlerType, TimeUnit};

pub use reply::reply;

/// The Cline profile.
pub(super) const PROFILE: Profile = Profile {
    dialect: Dialect::Cline,
    name: "cline",
    display_name: "Cline",
    time_unit: TimeUnit::Seconds { strings: false },
    default_timeout,
    shell: None,
    sandboxed_by_default: false,
    sandbox_context_file: false,
    // Cline's `timestamp` (milliseconds, as a string) is in every hook's input, so its
    // hooks need the dispatch time when the host sends none.
    documents_timestamp: true,
    fills_session_and_cwd: false,
    env_file: false,
    events: Events::Canonical(&[
        E::PreToolUse,
        E::PostToolUse,
        E::PostToolUseFailure,
        E::UserPromptSubmit,
        E::Notification,
        E::PreCompact,
        E::TaskStart,
        E::TaskResume,
        E::TaskCancel,
        E::TaskComplete,
    ]),
    event_names: &[],
    matcher_fields: &[],
    tools: &crate::tools::CLINE_TOOLS,
    merges_tool_input: false,
    dedupes_copies: true,
    blocking_hooks: false,
    prompt_verdict_by_event: false,
    file: FileShape {
        hooks: HookList::Files,
        all_switch: None,
        hook_switch: false,
    },
    provides_var: |_| false,
    stdin,
    stdin_named: Some(input_json),
    read_event: None,
    project_dir_vars: &[],
    env: |_, _| {},
    reshape: Some(read_event),
    read_answer: parse,
    reply: Some(reply),
};

/// Cline's 30 s (`HOOK_EXECUTION_TIMEOUT_MS`), for every hook.
const fn default_timeout(_handler: HandlerType, _event: Option<BuiltinEvent>) -> Duration {
    Duration::from_secs(30)
}

/// A hook registered on the canonical event gets Cline's JSON under the event's Cline
/// name (`PostToolUse` for PostToolUseFailure too).
fn stdin(ctx: &EventContext) -> Value {
    let name = ctx
        .event()
        .builtin()
        .and_then(name_of)
        .unwrap_or_else(|| ctx.event().name());
    input_json(ctx, name)
}

/// Cline's hook names (the names of its hook files) and the canonical event of each. A
/// `PostToolUse` hook also runs for a failed tool (see [`events_of`]).
pub const EVENTS: &[(&str, BuiltinEvent)] = &[
    ("TaskStart", BuiltinEvent::TaskStart),
    ("TaskResume", BuiltinEvent::TaskResume),
    ("TaskCancel", BuiltinEvent::TaskCancel),
    ("TaskComplete", BuiltinEvent::TaskComplete),
    ("PreToolUse", BuiltinEvent::PreToolUse),
    ("PostToolUse", BuiltinEvent::PostToolUse),
    ("UserPromptSubmit", BuiltinEvent::UserPromptSubmit),
    ("Notification", BuiltinEvent::Notification),
    ("PreCompact", BuiltinEvent::PreCompact),
];

/// The canonical events a Cline hook file named `name` runs on: one, but two for
/// `PostToolUse`, which Cline runs after a tool whether it succeeded or failed.
pub fn events_of(name: &str) -> &'static [BuiltinEvent] {
    match name {
        "PostToolUse" => &[BuiltinEvent::PostToolUse, BuiltinEvent::PostToolUseFailure],
        "TaskStart" => &[BuiltinEvent::TaskStart],
        "TaskResume" => &[BuiltinEvent::TaskResume],
        "TaskCancel" => &[BuiltinEvent::TaskCancel],
        "TaskComplete" => &[BuiltinEvent::TaskComplete],
        "PreToolUse" => &[BuiltinEvent::PreToolUse],
        "UserPromptSubmit" => &[BuiltinEvent::UserPromptSubmit],
        "Notification" => &[BuiltinEvent::Notification],
        "PreCompact" => &[BuiltinEvent::PreCompact],
        _ => &[],
    }
}

/// Cline's name of a canonical event, if Cline has the event.
pub fn name_of(event: BuiltinEvent) -> Option<&'static str> {
    match event {
        BuiltinEvent::PostToolUseFailure => Some("PostToolUse"),
        other => EVENTS.iter().find(|(_, e)| *e == other).map(|(n, _)| *n),
    }
}

/// The most characters of `contextModification` Cline passes on.
pub const MAX_CONTEXT: usize = 50_000;

/// Cline's parameters named otherwise than the canonical tool's input keys, by Cline tool
/// (Cline's `path` is `file_path`).
const RENAMES: ArgRenames = &[
    ("read_file", &[("path", "file_path")]),
    ("write_to_file", &[("path", "file_path")]),
    ("replace_in_file", &[("path", "file_path")]),
    ("search_files", &[("regex", "pattern")]),
];

/// The server and tool of a canonical MCP tool name (`mcp__<server>__<tool>`).
fn mcp_tool(tool: &str) -> Option<(&str, &str)> {
    tool.strip_prefix("mcp__")
        .and_then(|rest| rest.split_once("__"))
}

/// Cline's name of the tool named `tool` in the canonical vocabulary, as [`cline_tool`]
/// names it.
pub fn cline_name(tool: &str) -> String {
    if mcp_tool(tool).is_some() {
        return "use_mcp_tool".to_owned();
    }
    PROFILE.tools.from_canonical(tool).into_owned()
}

/// Cline's name and parameters for a tool call given by its canonical name (an MCP tool
/// `mcp__<server>__<tool>` is Cline's `use_mcp_tool` with `server_name`, `tool_name`
/// and `arguments`); a name that is not canonical is taken to be Cline's already.
pub fn cline_tool(tool: &str, input: &Value) -> (String, Map<String, Value>) {
    let object = input.as_object().cloned().unwrap_or_default();
    if let Some((server, name)) = mcp_tool(tool) {
        let mut params = Map::new();
        params.insert("server_name".into(), json!(server));
        params.insert("tool_name".into(), json!(name));
        params.insert("arguments".into(), Value::String(input.to_string()));
        return ("use_mcp_tool".to_owned(), params);
    }
    let cline = PROFILE.tools.from_canonical(tool);
    if cline == tool {
        return (tool.to_owned(), object);
    }
    let params = rename_args(RENAMES, &cline, object, false);
    (cline.into_owned(), params)
}

/// The context key holding the name Cline gave the tool of a `preToolUse` or `postToolUse`
/// (`run_commands`, `execute_command`, ...), which the canonical `tool_name` (`Bash`) no
/// longer tells apart: a rewrite goes back to Cline in that tool's input shape.
pub const TOOL_NAME_KEY: &str = "cline_tool_name";

/// The input of Cline's tool `cline_tool` for the canonical `input` of the same call: the
/// inverse of what its reader made of it (the SDK's `run_commands` gets its `commands`
/// list back, a line each; `file_path` is `path` again; an MCP call's arguments are
/// `arguments`, JSON-encoded). `canonical_tool` is the call's canonical name.
pub fn tool_input(cline_tool: &str, canonical_tool: &str, input: &Value) -> Map<String, Value> {
    if cline_tool == "use_mcp_tool" {
        return self::cline_tool(canonical_tool, input).1;
    }
    let mut params = input.as_object().cloned().unwrap_or_default();
    if cline_tool == "run_commands"
        && let Some(Value::String(command)) = params.remove("command")
    {
        let commands: Vec<Value> = command.lines().map(|l| json!(l)).collect();
        params.insert("commands".into(), Value::Array(commands));
    }
    rename_args(RENAMES, cline_tool, params, false)
}

/// A proto3 `map<string, string>`: every value a string, others JSON-encoded.
fn string_map(map: Map<String, Value>) -> Map<String, Value> {
    map.into_iter()
        .filter(|(_, v)| !v.is_null())
        .map(|(k, v)| match v {
            Value::String(_) => (k, v),
            other => (k, Value::String(other.to_string())),
        })
        .collect()
}

/// Whether a value is proto3's default (left out of proto3 JSON).
fn is_default(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Bool(b) => !b,
        Value::String(s) => s.is_empty(),
        Value::Number(n) => n.as_f64() == Some(0.0),
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.is_empty(),
    }
}

/// Inserts `value` unless it is proto3's default.
fn put(out: &mut Map<String, Value>, key: &str, value: Option<Value>) {
    if let Some(v) = value.filter(|v| !is_default(v)) {
        out.insert(key.to_owned(), v);
    }
}

/// Milliseconds since the Unix epoch of an RFC 3339 UTC time (`2026-05-01T10:00:00.123Z`),
/// as Cline's `timestamp` gives them.
fn epoch_millis(rfc3339: &str) -> Option<i64> {
    let b = rfc3339.as_bytes();
    let num = |r: std::ops::Range<usize>| -> Option<i64> { rfc3339.get(r)?.parse().ok() };
    if b.len() < 20 || b[4] != b'-' || b[10] != b'T' {
        return None;
    }
    let (y, m, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (hh, mm, ss) = (num(11..13)?, num(14..16)?, num(17..19)?);
    let millis = match b.get(19) {
        Some(b'.') => {
            let digits: String = rfc3339[20..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            let padded = format!("{digits:0<3}");
            padded.get(..3)?.parse().ok()?
        }
        _ => 0,
    };
    // Days from the civil date (Howard Hinnant's algorithm).
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some(((days * 24 + hh) * 60 + mm) * 60_000 + ss * 1000 + millis)
}

/// `preCompact`'s fields (proto3 JSON names) and their names in the event's context.
const PRE_COMPACT_FIELDS: &[(&str, &str)] = &[
    ("ulid", "ulid"),
    ("contextSize", "context_size"),
    ("compactionStrategy", "compaction_strategy"),
    ("previousApiReqIndex", "previous_api_req_index"),
    ("tokensIn", "tokens_in"),
    ("tokensOut", "tokens_out"),
    ("tokensInCache", "tokens_in_cache"),
    ("tokensOutCache", "tokens_out_cache"),
    ("deletedRangeStart", "deleted_range_start"),
    ("deletedRangeEnd", "deleted_range_end"),
    ("contextJsonPath", "context_json_path"),
    ("contextRawPath", "context_raw_path"),
];

/// `notification`'s fields but `event` (proto3 JSON names) and their names in the event's
/// context.
const NOTIFICATION_FIELDS: &[(&str, &str)] = &[
    ("source", "source"),
    ("message", "message"),
    ("waitingForUserInput", "waiting_for_user_input"),
    ("eventVersion", "event_version"),
    ("eventId", "event_id"),
    ("messageTruncated", "message_truncated"),
    ("sourceType", "source_type"),
    ("sourceId", "source_id"),
    ("requiresUserAction", "requires_user_action"),
    ("severity", "severity"),
];

/// The JSON a Cline hook named `name` is given for `ctx`: Cline's `HookInput` as proto3
/// JSON, camelCase with default values left out (an empty `prompt` is kept, as Cline
/// keeps it): `clineVersion`, `hookName`, `timestamp` (milliseconds since the epoch, as a
/// string: the host's, else the dispatch time), `taskId` (the task's, else the session's),
/// `workspaceRoots` (the host's, else the project root), `userId`, `model {provider,
/// slug}` (`unknown` when not known) and the event's own object.
pub fn input_json(ctx: &EventContext, name: &str) -> Value {
    let get = |k: &str| ctx.get(k).filter(|v| !v.is_null()).cloned();
    let first = |keys: &[&str]| keys.iter().find_map(|k| get(k));
    let mut out = Map::new();
    put(&mut out, "clineVersion", get("cline_version"));
    out.insert("hookName".into(), json!(name));
    let timestamp = match ctx.get("timestamp") {
        Some(Value::Number(n)) => Some(n.to_string()),
        Some(Value::String(s)) => {
            Some(epoch_millis(s).map_or_else(|| s.clone(), |ms| ms.to_string()))
        }
        _ => ctx
            .dispatched_at()
            .and_then(epoch_millis)
            .map(|ms| ms.to_string()),
    };
    put(&mut out, "timestamp", timestamp.map(Value::String));
    let task_id = first(&["task_id", "session_id"]);
    put(&mut out, "taskId", task_id.clone());
    let roots = get("workspace_roots")
        .or_else(|| first(&["project_dir", "cwd"]).map(|r| Value::Array(vec![r])));
    put(&mut out, "workspaceRoots", roots);
    put(&mut out, "userId", get("user_id"));
    let (provider, slug) = match get("model") {
        Some(Value::Object(m)) => (
            m.get("provider").cloned(),
            m.get("slug").or_else(|| m.get("id")).cloned(),
        ),
        Some(Value::String(s)) => (get("model_provider"), Some(Value::String(s))),
        _ => (get("model_provider"), None),
    };
    let known = |v: Option<Value>| match v {
        Some(Value::String(s)) if !s.trim().is_empty() => Value::String(s.trim().to_owned()),
        _ => json!("unknown"),
    };
    out.insert(
        "model".into(),
        json!({"provider": known(provider), "slug": known(slug)}),
    );
    let event = ctx.event().builtin();
    // The tool call in Cline's names: the tool as Cline named it when the event came from
    // Cline (its SDK's `run_commands` and the extension's `execute_command` are both
    // `Bash`), else Cline's name for the canonical one.
    let call = || {
        let tool = ctx.tool_name().unwrap_or_default();
        let input = ctx.tool_input().unwrap_or(&Value::Null);
        match ctx.get_str(TOOL_NAME_KEY) {
            Some(own) => (own.to_owned(), tool_input(own, tool, input)),
            None => cline_tool(tool, input),
        }
    };
    let mut data = Map::new();
    let key = match event {
        Some(BuiltinEvent::PreToolUse) => {
            let (tool, params) = call();
            put(&mut data, "toolName", Some(json!(tool)));
            put(
                &mut data,
                "parameters",
                Some(Value::Object(string_map(params))),
            );
            "preToolUse"
        }
        Some(BuiltinEvent::PostToolUse | BuiltinEvent::PostToolUseFailure) => {
            let failed = event == Some(BuiltinEvent::PostToolUseFailure);
            let (tool, params) = call();
            put(&mut data, "toolName", Some(json!(tool)));
            put(
                &mut data,
                "parameters",
                Some(Value::Object(string_map(params))),
            );
            let result = if failed {
                first(&["error", "tool_response"])
            } else {
                get("tool_response")
            };
            let result = result.map(|r| match r {
                Value::String(s) => Value::String(s),
                other => Value::String(other.to_string()),
            });
            put(&mut data, "result", result);
            put(&mut data, "success", Some(Value::Bool(!failed)));
            put(
                &mut data,
                "executionTimeMs",
                first(&["execution_time_ms", "duration_ms"]),
            );
            "postToolUse"
        }
        Some(BuiltinEvent::UserPromptSubmit) => {
            data.insert("prompt".into(), get("prompt").unwrap_or_else(|| json!("")));
            put(&mut data, "attachments", get("attachments"));
            "userPromptSubmit"
        }
        Some(
            e @ (BuiltinEvent::TaskStart
            | BuiltinEvent::TaskResume
            | BuiltinEvent::TaskCancel
            | BuiltinEvent::TaskComplete),
        ) => {
            let metadata = get("task_metadata")
                .and_then(|m| m.as_object().cloned())
                .unwrap_or_default();
            put(
                &mut data,
                "taskMetadata",
                Some(Value::Object(string_map(metadata))),
            );
            if e == BuiltinEvent::TaskResume {
                let previous = get("previous_state")
                    .and_then(|m| m.as_object().cloned())
                    .unwrap_or_default();
                put(
                    &mut data,
                    "previousState",
                    Some(Value::Object(string_map(previous))),
                );
            }
            match e {
                BuiltinEvent::TaskStart => "taskStart",
                BuiltinEvent::TaskResume => "taskResume",
                BuiltinEvent::TaskCancel => "taskCancel",
                _ => "taskComplete",
            }
        }
        Some(BuiltinEvent::PreCompact) => {
            put(&mut data, "taskId", task_id);
            for &(proto, snake) in PRE_COMPACT_FIELDS {
                put(&mut data, proto, get(snake));
            }
            "preCompact"
        }
        Some(BuiltinEvent::Notification) => {
            put(&mut data, "event", first(&["event", "notification_type"]));
            for &(proto, snake) in NOTIFICATION_FIELDS {
                put(&mut data, proto, get(snake));
            }
            "notification"
        }
        _ => return Value::Object(out),
    };
    out.insert(key.into(), Value::Object(data));
    Value::Object(out)
}

/// The answer in stdout as Cline finds it: the whole of it as JSON, else the last
/// complete `{...}` block, scanning lines from the end and counting braces as Cline does.
fn find_json(stdout: &str) -> Option<Value> {
    if let Ok(v) = serde_json::from_str::<Value>(stdout) {
        return Some(v);
    }
    let mut candidate = String::new();
    let mut depth: i64 = 0;
    let mut collecting = false;
    for line in stdout.lines().rev() {
        let line = line.trim_end();
        for c in line.chars().rev() {
            match c {
                '}' => {
                    depth += 1;
                    collecting = true;
                }
                '{' => depth -= 1,
                _ => {}
            }
        }
        if collecting {
            candidate = format!("{line}\n{candidate}");
        }
        if collecting && depth == 0 {
            break;
        }
    }
    let trimmed = candidate.trim();
    let start = trimmed.find('{')?;
    serde_json::from_str(&trimmed[start..]).ok()
}

/// Reads a Cline hook's answer as Cline does.
///
/// - Any exit code but 0 (2 included), or none: a hook error. The answer is not read; the
///   action goes ahead.
/// - Exit code 0: the answer is the whole of stdout as JSON, else its last complete
///   `{...}` block; none means go ahead. An answer whose `cancel` is not a boolean, or
///   whose `contextModification` or `errorMessage` is not a string, is invalid: the hook
///   failed (malformed output) and the action goes ahead.
/// - `cancel: true` stops the task: `continue` false, the action blocked, with
///   `errorMessage` (else `contextModification`) as the reason; a cancelling hook's
///   `contextModification` is never context. Otherwise `contextModification` is context
///   for the model (cut to [`MAX_CONTEXT`] characters) and `errorMessage` is shown to the
///   user.
/// - The older `shouldContinue: false` (which current Cline rejects) refuses the action
///   and lets the agent carry on, as Cline then did: a deny with `errorMessage` as the
///   reason.
///
/// Cline reads every event's answer alike; whether an event honours what the answer asks
/// is the aggregation's to say.
pub fn parse(_event: &Event, exit_code: Option<i32>, stdout: &[u8], stderr: &[u8]) -> HookOutcome {
    let mut outcome = if exit_code == Some(0) {
        let text = String::from_utf8_lossy(stdout);
        match find_json(&text) {
            Some(Value::Object(map)) => {
                read(&map).unwrap_or_else(|m| HookOutcome::failed(FailureKind::MalformedOutput, m))
            }
            _ if text.trim().is_empty() => HookOutcome::ok(),
            _ => output::note(text.trim().to_owned()),
        }
    } else {
        // Exit code 2 means nothing special to Cline: a hook error like any other.
        output::failed_exit(exit_code, stderr)
    };
    outcome.run.exit_code = exit_code;
    outcome
}

/// A Cline answer object, validated as Cline validates it.
fn read(map: &Map<String, Value>) -> Result<HookOutcome, String> {
    let string = |k: &str| -> Result<Option<String>, String> {
        match map.get(k) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(other) => Err(format!("`{k}` must be a string, not {}", json_kind(other))),
        }
    };
    let boolean = |k: &str| -> Result<Option<bool>, String> {
        match map.get(k) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(other) => Err(format!("`{k}` must be a boolean, not {}", json_kind(other))),
        }
    };
    let cancel = boolean("cancel")?.unwrap_or(false);
    let should_continue = boolean("shouldContinue")?;
    let context = string("contextModification")?.map(|c| cut(&c));
    let error = string("errorMessage")?;
    let mut outcome = HookOutcome::ok();
    let e = &mut outcome.effects;
    if cancel {
        e.continue_ = false;
        e.decision = Decision::Block;
        let reason = error
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .or_else(|| context.as_deref().map(str::trim).filter(|s| !s.is_empty()))
            .map(str::to_owned);
        e.stop_reason.clone_from(&reason);
        e.reason = reason;
        outcome.run.status = HookStatus::Blocked;
        return Ok(outcome);
    }
    if let Some(c) = context.as_deref().map(str::trim).filter(|c| !c.is_empty()) {
        e.additional_context.push(c.to_owned());
    }
    if should_continue == Some(false) {
        // Whether the event can be refused is the aggregation's to say.
        e.decision = Decision::Deny;
        e.reason.clone_from(&error);
        e.messages.push(
            "`shouldContinue` is older Cline's answer (current Cline wants `cancel`); read as older Cline read it".to_owned(),
        );
        outcome.run.status = HookStatus::Blocked;
    } else if let Some(error) = error {
        e.system_message = Some(error);
    }
    for key in map.keys() {
        if !matches!(
            key.as_str(),
            "cancel" | "shouldContinue" | "contextModification" | "errorMessage"
        ) {
            outcome.unknown_fields.push(key.clone());
        }
    }
    Ok(outcome)
}

/// `contextModification` cut to [`MAX_CONTEXT`] characters, as Cline cuts it.
fn cut(context: &str) -> String {
    match context.char_indices().nth(MAX_CONTEXT) {
        Some((at, _)) => format!(
            "{}\n\n[... context truncated due to size limit ...]",
            &context[..at]
        ),
        None => context.to_owned(),
    }
}

/// The hook names of Cline's SDK (the `hookName` the `cline` CLI sends, observed in
/// 3.0.65) and the hook file each stands for (`sdk/packages/core/src/hooks/hook-file-config.ts`).
/// TaskError and SessionShutdown have no canonical Cline hook of the extension: they are
/// StopFailure and SessionEnd.
pub const SDK_EVENTS: &[(&str, &str)] = &[
    ("agent_start", "TaskStart"),
    ("agent_resume", "TaskResume"),
    ("agent_abort", "TaskCancel"),
    ("agent_end", "TaskComplete"),
    ("agent_error", "StopFailure"),
    ("tool_call", "PreToolUse"),
    ("tool_result", "PostToolUse"),
    ("prompt_submit", "UserPromptSubmit"),
    ("session_shutdown", "SessionEnd"),
];

/// A Cline event as Cline writes it on a hook's stdin (the extension's proto3 JSON, or the
/// SDK's, which the `cline` CLI sends: `hookName` in the SDK's names, an ISO `timestamp`,
/// `tool_call {id, name, input}` beside the legacy `preToolUse`), made canonical: the
/// inverse of [`input_json`]. `None` when `payload` has no `hookName` (not Cline's shape).
///
/// - `hookName` is `hook_event_name` (a failed tool's `PostToolUse` is PostToolUseFailure);
///   `taskId` is `session_id` and `task_id`; the first of `workspaceRoots` is `cwd`;
///   `clineVersion`, `userId`, `timestamp` and `model` are kept (snake_case).
/// - `preToolUse` / `postToolUse`: `toolName` in the canonical vocabulary (`execute_command`
///   and the SDK's `run_commands` are `Bash`; `use_mcp_tool` is `mcp__<server>__<tool>`),
///   its `parameters` (the SDK's `input` when there, being real JSON, else the proto's
///   strings, JSON-decoded where they hold an array or object) renamed back
///   (`path` is `file_path`; the SDK's `commands` list is one `command`, a line each);
///   `result` is `tool_response` (`error` when `success` is false), `executionTimeMs` is
///   `duration_ms`.
/// - `userPromptSubmit`, `taskStart`... , `preCompact`, `notification`: their fields in
///   snake_case.
pub fn read_event(payload: &Value) -> Option<Value> {
    let map = payload.as_object()?;
    let hook = map.get("hookName")?.as_str()?;
    let name = SDK_EVENTS
        .iter()
        .find(|(sdk, _)| *sdk == hook)
        .map_or(hook, |(_, file)| *file);
    let get = |k: &str| map.get(k).filter(|v| !v.is_null()).cloned();
    let mut out = Map::new();
    let mut event = name.to_owned();
    if let Some(id) = get("taskId") {
        out.insert("session_id".into(), id.clone());
        out.insert("task_id".into(), id);
    }
    let roots = get("workspaceRoots").or_else(|| {
        map.get("workspaceInfo")
            .and_then(|w| w.get("rootPath"))
            .map(|r| Value::Array(vec![r.clone()]))
    });
    if let Some(first) = roots.as_ref().and_then(|r| r.get(0)).cloned() {
        out.insert("cwd".into(), first);
    }
    put(&mut out, "workspace_roots", roots);
    put(&mut out, "cline_version", get("clineVersion"));
    put(&mut out, "user_id", get("userId"));
    put(&mut out, "timestamp", get("timestamp"));
    put(&mut out, "model", get("model"));
    let data = |key: &str| map.get(key).and_then(Value::as_object);
    match name {
        "PreToolUse" | "PostToolUse" => {
            let (legacy, sdk) = if name == "PreToolUse" {
                (data("preToolUse"), data("tool_call"))
            } else {
                (data("postToolUse"), data("tool_result"))
            };
            let tool = legacy
                .and_then(|d| d.get("toolName"))
                .or_else(|| sdk.and_then(|d| d.get("name")))
                .and_then(Value::as_str)
                .unwrap_or_default();
            let params = match sdk.and_then(|d| d.get("input")) {
                Some(Value::Object(input)) => input.clone(),
                _ => legacy
                    .and_then(|d| d.get("parameters"))
                    .and_then(Value::as_object)
                    .map(decoded)
                    .unwrap_or_default(),
            };
            if !tool.is_empty() {
                out.insert(TOOL_NAME_KEY.into(), json!(tool));
            }
            let (tool, input) = canonical_tool(tool, params);
            if !tool.is_empty() {
                out.insert("tool_name".into(), Value::String(tool));
            }
            out.insert("tool_input".into(), Value::Object(input));
            put(
                &mut out,
                "tool_use_id",
                sdk.and_then(|d| d.get("id")).cloned(),
            );
            if let Some(post) = legacy {
                let failed = post.get("success") == Some(&Value::Bool(false));
                let result = post.get("result").cloned();
                if failed {
                    event = "PostToolUseFailure".to_owned();
                    put(&mut out, "error", result);
                } else {
                    put(&mut out, "tool_response", result);
                }
                put(
                    &mut out,
                    "duration_ms",
                    post.get("executionTimeMs").cloned(),
                );
            }
        }
        "UserPromptSubmit" => {
            let d = data("userPromptSubmit");
            let prompt = d.and_then(|d| d.get("prompt")).cloned();
            out.insert("prompt".into(), prompt.unwrap_or_else(|| json!("")));
            put(
                &mut out,
                "attachments",
                d.and_then(|d| d.get("attachments")).cloned(),
            );
        }
        "TaskStart" | "TaskResume" | "TaskCancel" | "TaskComplete" => {
            let key = format!("{}{}", name[..1].to_ascii_lowercase(), &name[1..]);
            let d = data(&key);
            put(
                &mut out,
                "task_metadata",
                d.and_then(|d| d.get("taskMetadata")).cloned(),
            );
            put(
                &mut out,
                "previous_state",
                d.and_then(|d| d.get("previousState")).cloned(),
            );
        }
        "PreCompact" => {
            if let Some(d) = data("preCompact") {
                for &(proto, snake) in PRE_COMPACT_FIELDS {
                    put(&mut out, snake, d.get(proto).cloned());
                }
            }
        }
        "Notification" => {
            if let Some(d) = data("notification") {
                put(&mut out, "notification_type", d.get("event").cloned());
                for &(proto, snake) in NOTIFICATION_FIELDS {
                    put(&mut out, snake, d.get(proto).cloned());
                }
            }
        }
        _ => {}
    }
    out.insert("hook_event_name".into(), Value::String(event));
    Some(Value::Object(out))
}

/// The proto's string parameters with those that hold a JSON array or object decoded (the
/// extension and the SDK JSON-encode every parameter that is not a string).
fn decoded(params: &Map<String, Value>) -> Map<String, Value> {
    params
        .iter()
        .map(|(k, v)| {
            let value = match v.as_str().map(str::trim_start) {
                Some(s) if s.starts_with('[') || s.starts_with('{') => {
                    serde_json::from_str(s).unwrap_or_else(|_| v.clone())
                }
                _ => v.clone(),
            };
            (k.clone(), value)
        })
        .collect()
}

/// The canonical name and input of Cline's tool call `tool` with `params`: the inverse of
/// [`cline_tool`].
fn canonical_tool(tool: &str, mut params: Map<String, Value>) -> (String, Map<String, Value>) {
    if tool == "use_mcp_tool" {
        let text = |k: &str| params.get(k).and_then(Value::as_str).map(str::to_owned);
        if let (Some(server), Some(name)) = (text("server_name"), text("tool_name")) {
            let input = match json_text(params.remove("arguments")) {
                Value::Object(m) => m,
                other => Map::from_iter([("arguments".to_owned(), other)]),
            };
            return (format!("mcp__{server}__{name}"), input);
        }
    }
    if tool == "run_commands"
        && let Some(Value::Array(commands)) = params.remove("commands")
    {
        let lines: Vec<String> = commands
            .iter()
            .map(|c| c.as_str().map_or_else(|| c.to_string(), str::to_owned))
            .collect();
        params.insert("command".into(), Value::String(lines.join("\n")));
    }
    let input = rename_args(RENAMES, tool, params, true);
    (PROFILE.tools.to_canonical(tool).into_owned(), input)
}

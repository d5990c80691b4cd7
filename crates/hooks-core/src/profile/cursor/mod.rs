//! Cursor's hooks (`.cursor/hooks.json`): its event names and the tools each implies, the
//! JSON a Cursor hook is given for its event, and how Cursor reads a hook's answer.
//!
//! Source: Cursor's hooks documentation (cursor.com/docs/agent/hooks, the 2.x page and the
//! 1.7 one), summarised in the project's protocol notes.

mod reply;

use std::time::Duration;

use serde_json::{Map, Value, json};

use crate::context::EventContext;
use crate::dialect::Dialect;
use crate::env::push_table;
use crate::event::{BuiltinEvent as E, BuiltinEvent, Event};
use crate::outcome::{Decision, FailureKind, HookOutcome, HookStatus};
use crate::output::{self, Stdout};
use crate::profile::row::{Events, FileShape, HookList, Profile};
use crate::profile::shared::json_text;
use crate::timeouts::{HandlerType, TimeUnit};

pub use reply::reply;

/// How many follow-ups of a `stop` or `subagentStop` hook Cursor sends when the entry's
/// `loop_limit` does not say (`null` is no limit).
pub const DEFAULT_LOOP_LIMIT: u32 = 5;

/// The Cursor profile.
pub(super) const PROFILE: Profile = Profile {
    dialect: Dialect::Cursor,
    name: "cursor",
    display_name: "Cursor",
    time_unit: TimeUnit::Seconds { strings: false },
    default_timeout,
    shell: None,
    sandboxed_by_default: false,
    sandbox_context_file: false,
    documents_timestamp: false,
    fills_session_and_cwd: false,
    env_file: false,
    events: Events::Named,
    // The generic name of each event first: it is the one a hook registered on the
    // canonical event is given.
    event_names: &[
        (E::PreToolUse, "preToolUse"),
        (E::PreToolUse, "beforeShellExecution"),
        (E::PreToolUse, "beforeMCPExecution"),
        (E::PreToolUse, "beforeReadFile"),
        (E::PostToolUse, "postToolUse"),
        (E::PostToolUse, "afterShellExecution"),
        (E::PostToolUse, "afterMCPExecution"),
        (E::PostToolUse, "afterFileEdit"),
        (E::PostToolUseFailure, "postToolUseFailure"),
        (E::UserPromptSubmit, "beforeSubmitPrompt"),
        (E::Stop, "stop"),
        (E::SubagentStart, "subagentStart"),
        (E::SubagentStop, "subagentStop"),
        (E::SessionStart, "sessionStart"),
        (E::SessionEnd, "sessionEnd"),
        (E::PreCompact, "preCompact"),
        (E::AfterAgentResponse, "afterAgentResponse"),
        (E::AfterAgentThought, "afterAgentThought"),
        (E::BeforeTabFileRead, "beforeTabFileRead"),
        (E::AfterTabFileEdit, "afterTabFileEdit"),
    ],
    matcher_fields: &[],
    tools: &crate::tools::CURSOR_TOOLS,
    merges_tool_input: false,
    dedupes_copies: true,
    blocking_hooks: false,
    prompt_verdict_by_event: false,
    file: FileShape {
        hooks: HookList::ByEvent,
        all_switch: None,
        hook_switch: false,
    },
    provides_var,
    stdin,
    stdin_named: Some(stdin_named),
    read_event: Some(read_context_fields),
    project_dir_vars: &["CURSOR_PROJECT_DIR", "CLAUDE_PROJECT_DIR"],
    env,
    reshape: None,
    read_answer: parse,
    reply: Some(|ctx, agg| reply(ctx.event(), agg)),
};

/// Cursor documents a "platform default" without a number: 60 s, with Claude Code's 30 s
/// for prompt hooks.
const fn default_timeout(handler: HandlerType, _event: Option<BuiltinEvent>) -> Duration {
    match handler {
        HandlerType::Prompt => Duration::from_secs(30),
        HandlerType::Command
        | HandlerType::Http
        | HandlerType::McpTool
        | HandlerType::Agent
        | HandlerType::Inject
        | HandlerType::Permission => Duration::from_secs(60),
    }
}

/// Cursor's variables: `CURSOR_PROJECT_DIR` and its alias `CLAUDE_PROJECT_DIR` (the
/// event's `project_dir`, else the executor's project root), `CURSOR_VERSION`,
/// `CURSOR_USER_EMAIL`.
const VARS: &[(&str, &[&str])] = &[
    ("CURSOR_PROJECT_DIR", &["project_dir"]),
    ("CLAUDE_PROJECT_DIR", &["project_dir"]),
    ("CURSOR_VERSION", &["cursor_version"]),
    ("CURSOR_USER_EMAIL", &["user_email"]),
];

fn provides_var(name: &str) -> bool {
    VARS.iter().any(|(n, _)| *n == name)
}

fn env(ctx: &EventContext, out: &mut Vec<(String, String)>) {
    push_table(ctx, VARS, out);
}

/// A hook registered on the canonical event gets the JSON of the event's first Cursor
/// name (`preToolUse` for PreToolUse).
fn stdin(ctx: &EventContext) -> Value {
    match ctx.event().builtin().and_then(default_for) {
        Some(home) => input_json(ctx, home),
        None => Value::Object(crate::profile::shared::claude_stdin(
            ctx,
            Dialect::Cursor,
            None,
        )),
    }
}

fn stdin_named(ctx: &EventContext, name: &str) -> Value {
    match event(name) {
        Some(home) => input_json(ctx, home),
        None => stdin(ctx),
    }
}

/// Which tools a Cursor event fires for, when it is one of the tool events.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tools {
    /// Every tool (`preToolUse`, `postToolUse`, `postToolUseFailure`) or not a tool event.
    Any,
    /// The shell tool (`beforeShellExecution`, `afterShellExecution`): Claude Code's `Bash`.
    Shell,
    /// The read tool (`beforeReadFile`): `Read`.
    Read,
    /// MCP tools (`beforeMCPExecution`, `afterMCPExecution`): `mcp__<server>__<tool>`.
    Mcp,
    /// The edit tools (`afterFileEdit`): `Edit`, `MultiEdit`, `Write`, `NotebookEdit`.
    Edit,
}

impl Tools {
    /// The canonical matcher selecting these tools, or `None` for every tool.
    pub fn matcher(self) -> Option<&'static str> {
        match self {
            Tools::Any => None,
            Tools::Shell => Some("Bash"),
            Tools::Read => Some("Read"),
            Tools::Mcp => Some("^mcp__"),
            Tools::Edit => Some("Edit|MultiEdit|Write|NotebookEdit"),
        }
    }
}

/// What a Cursor matcher is matched against on an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatcherTarget {
    /// No matcher (the event takes none).
    None,
    /// The tool, by Cursor's tool type (`Shell`, `Read`, `Write`, `Grep`, `Delete`, `MCP`,
    /// `Task`).
    ToolType,
    /// The command text, as a regular expression (`beforeShellExecution`).
    Command,
    /// The subagent's type (`subagentStart`, `subagentStop`).
    Subagent,
}

/// One Cursor event: its name, the canonical event it is, the tools it fires for, what
/// its matcher is matched against, and whether a failed hook blocks it.
#[derive(Clone, Copy, Debug)]
pub struct CursorEvent {
    /// Cursor's name (`beforeShellExecution`).
    pub name: &'static str,
    /// The canonical event.
    pub event: BuiltinEvent,
    /// The tools it fires for.
    pub tools: Tools,
    /// What its matcher is matched against.
    pub matcher: MatcherTarget,
    /// Whether a crash, a timeout or an answer that is not JSON blocks (Cursor's
    /// `beforeMCPExecution` and `beforeReadFile`), as `failClosed: true` makes any entry.
    pub fail_closed: bool,
}

const fn ev(
    name: &'static str,
    event: BuiltinEvent,
    tools: Tools,
    matcher: MatcherTarget,
    fail_closed: bool,
) -> CursorEvent {
    CursorEvent {
        name,
        event,
        tools,
        matcher,
        fail_closed,
    }
}

/// Every Cursor event, agent hooks then Tab hooks.
pub const EVENTS: &[CursorEvent] = &[
    ev(
        "preToolUse",
        BuiltinEvent::PreToolUse,
        Tools::Any,
        MatcherTarget::ToolType,
        false,
    ),
    ev(
        "postToolUse",
        BuiltinEvent::PostToolUse,
        Tools::Any,
        MatcherTarget::ToolType,
        false,
    ),
    ev(
        "postToolUseFailure",
        BuiltinEvent::PostToolUseFailure,
        Tools::Any,
        MatcherTarget::ToolType,
        false,
    ),
    ev(
        "beforeShellExecution",
        BuiltinEvent::PreToolUse,
        Tools::Shell,
        MatcherTarget::Command,
        false,
    ),
    ev(
        "afterShellExecution",
        BuiltinEvent::PostToolUse,
        Tools::Shell,
        MatcherTarget::Command,
        false,
    ),
    ev(
        "beforeMCPExecution",
        BuiltinEvent::PreToolUse,
        Tools::Mcp,
        MatcherTarget::None,
        true,
    ),
    ev(
        "afterMCPExecution",
        BuiltinEvent::PostToolUse,
        Tools::Mcp,
        MatcherTarget::None,
        false,
    ),
    ev(
        "beforeReadFile",
        BuiltinEvent::PreToolUse,
        Tools::Read,
        MatcherTarget::None,
        true,
    ),
    ev(
        "afterFileEdit",
        BuiltinEvent::PostToolUse,
        Tools::Edit,
        MatcherTarget::None,
        false,
    ),
    ev(
        "beforeSubmitPrompt",
        BuiltinEvent::UserPromptSubmit,
        Tools::Any,
        MatcherTarget::None,
        false,
    ),
    ev(
        "stop",
        BuiltinEvent::Stop,
        Tools::Any,
        MatcherTarget::None,
        false,
    ),
    ev(
        "subagentStart",
        BuiltinEvent::SubagentStart,
        Tools::Any,
        MatcherTarget::Subagent,
        false,
    ),
    ev(
        "subagentStop",
        BuiltinEvent::SubagentStop,
        Tools::Any,
        MatcherTarget::Subagent,
        false,
    ),
    ev(
        "sessionStart",
        BuiltinEvent::SessionStart,
        Tools::Any,
        MatcherTarget::None,
        false,
    ),
    ev(
        "sessionEnd",
        BuiltinEvent::SessionEnd,
        Tools::Any,
        MatcherTarget::None,
        false,
    ),
    ev(
        "preCompact",
        BuiltinEvent::PreCompact,
        Tools::Any,
        MatcherTarget::None,
        false,
    ),
    ev(
        "afterAgentResponse",
        BuiltinEvent::AfterAgentResponse,
        Tools::Any,
        MatcherTarget::None,
        false,
    ),
    ev(
        "afterAgentThought",
        BuiltinEvent::AfterAgentThought,
        Tools::Any,
        MatcherTarget::None,
        false,
    ),
    ev(
        "beforeTabFileRead",
        BuiltinEvent::BeforeTabFileRead,
        Tools::Any,
        MatcherTarget::None,
        false,
    ),
    ev(
        "afterTabFileEdit",
        BuiltinEvent::AfterTabFileEdit,
        Tools::Any,
        MatcherTarget::None,
        false,
    ),
];

/// The Cursor event of that name (exact spelling).
pub fn event(name: &str) -> Option<&'static CursorEvent> {
    EVENTS.iter().find(|e| e.name == name)
}

/// The Cursor event a canonical event is given as when no hook says which (the generic
/// tool events for tool events, the one Cursor name otherwise).
pub fn default_for(event: BuiltinEvent) -> Option<&'static CursorEvent> {
    EVENTS.iter().find(|e| e.event == event)
}

/// The Cursor event a canonical event arrives as, where Cursor has one: the generic name
/// of a tool event (`preToolUse` for PreToolUse, which Cursor fires for every tool), the
/// one Cursor name of the others, and `stop` for StopFailure (Cursor's stop hook also runs
/// when the agent errs, with `status: "error"`).
pub fn event_for(event: BuiltinEvent) -> Option<&'static CursorEvent> {
    match event {
        BuiltinEvent::StopFailure => self::event("stop"),
        other => default_for(other),
    }
}

/// The canonical matcher a Cursor tool-type matcher (`Shell`, `Write|Read`, `MCP`) stands
/// for: each word replaced by the canonical names Cursor's tool type covers
/// ([`CURSOR_TOOLS`](crate::CURSOR_TOOLS): `Shell` is `Bash`, `Write` is `Write|Edit|MultiEdit|NotebookEdit`;
/// `MCP` is `mcp__.*`); any other word (`Read`, a name Cursor has no type for) is kept as
/// it is.
pub fn canonical_tool_matcher(matcher: &str) -> String {
    let words: Vec<String> = matcher
        .split(['|', ','])
        .map(str::trim)
        .filter(|w| !w.is_empty())
        .flat_map(|word| -> Vec<String> {
            if word == "MCP" {
                return vec!["mcp__.*".to_owned()];
            }
            let names: Vec<String> = PROFILE
                .tools
                .canonical_names(word)
                .map(str::to_owned)
                .collect();
            if names.is_empty() {
                vec![word.to_owned()]
            } else {
                names
            }
        })
        .collect();
    let regex = words.iter().any(|w| w.contains(".*"));
    if regex {
        let alternatives: Vec<String> = words
            .iter()
            .map(|w| {
                if w.contains(".*") {
                    format!("^{w}$")
                } else {
                    format!("^{}$", regex::escape(w))
                }
            })
            .collect();
        alternatives.join("|")
    } else {
        words.join("|")
    }
}

/// Cursor's tool type for a canonical tool name (`Bash` is `Shell`, an MCP tool `MCP`);
/// a name Cursor has no type for is given as it is.
pub fn tool_type(tool: &str) -> std::borrow::Cow<'_, str> {
    if tool.starts_with("mcp__") {
        return std::borrow::Cow::Borrowed("MCP");
    }
    PROFILE.tools.from_canonical(tool)
}

/// `mcp__<server>__<tool>` split into its server and tool.
fn mcp_parts(tool: &str) -> Option<(&str, &str)> {
    tool.strip_prefix("mcp__")?.split_once("__")
}

/// The JSON a Cursor hook registered on `home` is given for `ctx`: Cursor's common fields
/// (`conversation_id`, `generation_id`, `model`, `hook_event_name` in Cursor's spelling,
/// `cursor_version`, `workspace_roots`, `user_email`, `transcript_path`) and the event's
/// own, read from the context's fields of the same name when the host gave them (an event
/// that came from Cursor), else from the canonical ones (`command` from
/// `tool_input.command`, `edits` from an `Edit`'s strings, `status` `completed`, ...).
pub fn input_json(ctx: &EventContext, home: &CursorEvent) -> Value {
    let mut out = Map::new();
    let get = |k: &str| ctx.get(k).filter(|v| !v.is_null()).cloned();
    let first = |keys: &[&str]| keys.iter().find_map(|k| get(k));
    let input = ctx.tool_input().cloned().unwrap_or(Value::Null);
    let input_str = |k: &str| input.get(k).cloned();
    if let Some(v) = first(&["conversation_id", "session_id"]) {
        out.insert("conversation_id".into(), v);
    }
    if let Some(v) = first(&["generation_id", "prompt_id"]) {
        out.insert("generation_id".into(), v);
    }
    if let Some(v) = get("model") {
        out.insert("model".into(), v);
    }
    out.insert(
        "hook_event_name".into(),
        Value::String(home.name.to_owned()),
    );
    if let Some(v) = get("cursor_version") {
        out.insert("cursor_version".into(), v);
    }
    let roots = get("workspace_roots")
        .or_else(|| first(&["project_dir", "cwd"]).map(|root| Value::Array(vec![root])));
    if let Some(v) = roots {
        out.insert("workspace_roots".into(), v);
    }
    out.insert(
        "user_email".into(),
        get("user_email").unwrap_or(Value::Null),
    );
    out.insert(
        "transcript_path".into(),
        get("transcript_path").unwrap_or(Value::Null),
    );
    let mut put = |k: &str, v: Option<Value>| {
        if let Some(v) = v {
            out.insert(k.to_owned(), v);
        }
    };
    let tool = ctx.tool_name().unwrap_or_default();
    let duration = first(&["duration", "duration_ms"]);
    let response = get("tool_response");
    let as_text = |v: &Value| match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    match home.name {
        "beforeShellExecution" | "afterShellExecution" => {
            put("command", get("command").or_else(|| input_str("command")));
            put("cwd", get("cwd"));
            if home.name == "beforeShellExecution" {
                put("timeout", input_str("timeout"));
            } else {
                let output = get("output").or_else(|| {
                    response.as_ref().map(|r| match r.get("stdout") {
                        Some(Value::String(s)) => Value::String(s.clone()),
                        _ => Value::String(as_text(r)),
                    })
                });
                put("output", output);
                put("duration", duration);
            }
        }
        "beforeMCPExecution" | "afterMCPExecution" => {
            let name = mcp_parts(tool).map_or(tool, |(_, t)| t);
            put("tool_name", Some(Value::String(name.to_owned())));
            let input_json = match &input {
                Value::String(s) => s.clone(),
                Value::Null => "{}".to_owned(),
                other => other.to_string(),
            };
            put("tool_input", Some(Value::String(input_json)));
            if home.name == "beforeMCPExecution" {
                put("url", get("url"));
                put("command", get("command"));
            } else {
                put(
                    "result_json",
                    get("result_json")
                        .or_else(|| response.as_ref().map(|r| Value::String(as_text(r)))),
                );
                put("duration", duration);
            }
        }
        "beforeReadFile" | "beforeTabFileRead" => {
            put(
                "file_path",
                get("file_path")
                    .or_else(|| input_str("file_path"))
                    .or_else(|| input_str("path")),
            );
            put("content", get("content"));
            if home.name == "beforeReadFile" {
                put(
                    "attachments",
                    Some(get("attachments").unwrap_or_else(|| json!([]))),
                );
            }
        }
        "afterFileEdit" | "afterTabFileEdit" => {
            put(
                "file_path",
                get("file_path").or_else(|| input_str("file_path")),
            );
            put(
                "edits",
                Some(get("edits").unwrap_or_else(|| edits(tool, &input))),
            );
        }
        "preToolUse" | "postToolUse" | "postToolUseFailure" => {
            put(
                "tool_name",
                Some(Value::String(tool_type(tool).into_owned())),
            );
            put("tool_input", Some(input.clone()));
            put("tool_use_id", get("tool_use_id"));
            put("cwd", get("cwd"));
            match home.name {
                "preToolUse" => put("agent_message", get("agent_message")),
                "postToolUse" => {
                    put("tool_output", get("tool_output").or(response));
                    put("duration", duration);
                }
                _ => {
                    put("error_message", first(&["error_message", "error"]));
                    put(
                        "failure_type",
                        Some(get("failure_type").unwrap_or_else(|| json!("error"))),
                    );
                    put("duration", duration);
                    put(
                        "is_interrupt",
                        Some(get("is_interrupt").unwrap_or(Value::Bool(false))),
                    );
                }
            }
        }
        "beforeSubmitPrompt" => {
            put("prompt", get("prompt"));
            put(
                "attachments",
                Some(get("attachments").unwrap_or_else(|| json!([]))),
            );
        }
        "stop" => {
            let status = if ctx.event().builtin() == Some(E::StopFailure) {
                "error"
            } else {
                "completed"
            };
            put(
                "status",
                Some(get("status").unwrap_or_else(|| json!(status))),
            );
            let looped = ctx
                .get("stop_hook_active")
                .and_then(Value::as_bool)
                .unwrap_or(false);
            put(
                "loop_count",
                Some(get("loop_count").unwrap_or_else(|| json!(u8::from(looped)))),
            );
        }
        "subagentStart" | "subagentStop" => {
            put("subagent_type", first(&["subagent_type", "agent_type"]));
            if home.name == "subagentStart" {
                put("prompt", get("prompt"));
            } else {
                put(
                    "status",
                    Some(get("status").unwrap_or_else(|| json!("completed"))),
                );
                put("result", first(&["result", "last_assistant_message"]));
                put("duration", duration);
                put("agent_transcript_path", get("agent_transcript_path"));
            }
        }
        "sessionStart" | "sessionEnd" => {
            put("session_id", first(&["session_id", "conversation_id"]));
            put(
                "is_background_agent",
                Some(get("is_background_agent").unwrap_or(Value::Bool(false))),
            );
            if home.name == "sessionStart" {
                put("composer_mode", get("composer_mode"));
            } else {
                for k in ["reason", "duration_ms", "final_status", "error_message"] {
                    put(k, get(k));
                }
            }
        }
        "preCompact" => {
            for k in [
                "trigger",
                "context_usage_percent",
                "context_tokens",
                "context_window_size",
                "message_count",
                "messages_to_compact",
                "is_first_compaction",
            ] {
                put(k, get(k));
            }
        }
        "afterAgentResponse" | "afterAgentThought" => {
            put("text", get("text"));
            put("duration_ms", get("duration_ms"));
        }
        _ => {}
    }
    Value::Object(out)
}

/// The server segment of the canonical name of an MCP tool Cursor names alone: Cursor's
/// `beforeMCPExecution` and `afterMCPExecution` give the tool's name and the server's
/// `url` or `command`, not the server's name.
pub const UNNAMED_MCP_SERVER: &str = "unknown";

/// The event Cursor sent (its stdin JSON, `fields`) as the engine's context
/// ([`Profile::read_event`]): read by [`read_event`] under the name in its
/// `hook_event_name`, which may refine `event` (a `stop` with `status: "error"` is
/// StopFailure); a payload that names no Cursor event is taken as it is.
fn read_context_fields(event: Event, mut fields: Map<String, Value>) -> EventContext {
    let name = fields
        .get("hook_event_name")
        .and_then(Value::as_str)
        .map(str::to_owned);
    let event = name
        .and_then(|name| read_event(&name, &mut fields))
        .unwrap_or(event);
    EventContext::from_fields(event, fields)
}

/// Reads an event Cursor sent in its own shape (its agent's name for it, `name`), the inverse of
/// [`input_json`]: Cursor's fields are kept as they are (a Cursor hook is given them back)
/// and the canonical ones are added, so that hooks of every dialect see the event.
///
/// - Every event: `session_id` from `conversation_id`, `cwd` from `cwd`, else the first
///   of `workspace_roots`.
/// - `beforeShellExecution` / `afterShellExecution`: `Bash`, `tool_input.command` (and
///   `timeout`), `tool_response.stdout` from `output`.
/// - `beforeMCPExecution` / `afterMCPExecution`: `mcp__unknown__<tool_name>` (Cursor does
///   not name the server), `tool_input` parsed from its JSON string, `tool_response` from
///   `result_json`.
/// - `beforeReadFile`: `Read` with `tool_input.file_path`.
/// - `afterFileEdit`: `Edit` (one edit) or `MultiEdit` with the file and its edits.
/// - `preToolUse`, `postToolUse`, `postToolUseFailure`: Cursor's tool type made canonical
///   by its [`ToolNames`](crate::ToolNames) (`Shell` is `Bash`), `tool_response` from
///   `tool_output`, `error` from `error_message`.
/// - `stop`, `subagentStop`: `stop_hook_active` when `loop_count` is above 0; a `stop`
///   with `status: "error"` is StopFailure (Cursor's stop hook also runs when the agent
///   errs).
/// - `subagentStart`, `subagentStop`: `agent_type` from `subagent_type`;
///   `last_assistant_message` from `result`.
/// - `sessionStart`: `source: "startup"` (a Cursor session always starts a conversation).
pub fn read_event(name: &str, fields: &mut Map<String, Value>) -> Option<Event> {
    let home = event(name)?;
    let get = |k: &str| fields.get(k).filter(|v| !v.is_null()).cloned();
    let text = |k: &str| get(k).and_then(|v| v.as_str().map(str::to_owned));
    let mut add: Vec<(&str, Value)> = Vec::new();
    if let Some(id) = get("conversation_id").filter(|_| !fields.contains_key("session_id")) {
        add.push(("session_id", id));
    }
    let root = get("workspace_roots")
        .and_then(|r| r.as_array().and_then(|a| a.first().cloned()))
        .filter(Value::is_string);
    if let Some(cwd) = get("cwd").or(root) {
        add.push(("cwd", cwd));
    }
    let mut event = home.event;
    match home.name {
        "beforeShellExecution" | "afterShellExecution" => {
            let mut input = Map::new();
            if let Some(c) = get("command") {
                input.insert("command".into(), c);
            }
            if let Some(t) = get("timeout") {
                input.insert("timeout".into(), t);
            }
            add.push(("tool_name", json!("Bash")));
            add.push(("tool_input", Value::Object(input)));
            if let Some(output) = get("output") {
                add.push(("tool_response", json!({"stdout": output})));
            }
        }
        "beforeMCPExecution" | "afterMCPExecution" => {
            // Read twice (the bridge's background process), the name is already canonical.
            let tool = text("tool_name").unwrap_or_default();
            if !tool.starts_with("mcp__") {
                add.push((
                    "tool_name",
                    json!(format!("mcp__{UNNAMED_MCP_SERVER}__{tool}")),
                ));
            }
            add.push(("tool_input", json_text(get("tool_input"))));
            if let Some(result) = get("result_json") {
                add.push(("tool_response", json_text(Some(result))));
            }
        }
        "beforeReadFile" => {
            add.push(("tool_name", json!("Read")));
            add.push(("tool_input", json!({"file_path": get("file_path")})));
        }
        "afterFileEdit" => {
            let edits = get("edits").and_then(|e| e.as_array().cloned());
            let file = get("file_path");
            match edits.as_deref() {
                Some([one]) => {
                    add.push(("tool_name", json!("Edit")));
                    add.push((
                        "tool_input",
                        json!({"file_path": file, "old_string": one.get("old_string"), "new_string": one.get("new_string")}),
                    ));
                }
                _ => {
                    add.push(("tool_name", json!("MultiEdit")));
                    add.push((
                        "tool_input",
                        json!({"file_path": file, "edits": edits.unwrap_or_default()}),
                    ));
                }
            }
        }
        "preToolUse" | "postToolUse" | "postToolUseFailure" => {
            if let Some(tool) = text("tool_name") {
                let canonical = PROFILE.tools.to_canonical(&tool);
                add.push(("tool_name", json!(canonical)));
            }
            if let Some(output) = get("tool_output") {
                add.push(("tool_response", output));
            }
            if let Some(error) = get("error_message") {
                add.push(("error", error));
            }
        }
        "stop" | "subagentStop" => {
            let looped = get("loop_count")
                .and_then(|n| n.as_u64())
                .is_some_and(|n| n > 0);
            add.push(("stop_hook_active", Value::Bool(looped)));
            if home.name == "stop" && text("status").as_deref() == Some("error") {
                event = BuiltinEvent::StopFailure;
            }
            if home.name == "subagentStop" {
                if let Some(t) = get("subagent_type") {
                    add.push(("agent_type", t));
                }
                if let Some(r) = get("result") {
                    add.push(("last_assistant_message", r));
                }
            }
        }
        "subagentStart" => {
            if let Some(t) = get("subagent_type") {
                add.push(("agent_type", t));
            }
        }
        "sessionStart" if !fields.contains_key("source") => {
            add.push(("source", json!("startup")));
        }
        _ => {}
    }
    for (k, v) in add {
        fields.insert(k.to_owned(), v);
    }
    Some(Event::Builtin(event))
}

/// The `edits[]` of an `afterFileEdit` from a canonical edit tool's input.
fn edits(tool: &str, input: &Value) -> Value {
    let s = |v: &Value, k: &str| {
        v.get(k)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned()
    };
    let one = |old: String, new: String| json!({"old_string": old, "new_string": new});
    match tool {
        "Write" => json!([one(String::new(), s(input, "content"))]),
        "MultiEdit" => Value::Array(
            input
                .get("edits")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .map(|e| one(s(e, "old_string"), s(e, "new_string")))
                .collect(),
        ),
        _ => json!([one(s(input, "old_string"), s(input, "new_string"))]),
    }
}

/// Reads a Cursor hook's answer as Cursor does.
///
/// - Exit code 0: stdout is a JSON object, or nothing. Plain text is not an answer Cursor
///   documents: no decision, kept as a message. Text starting with `{` that does not parse
///   is malformed (which blocks where the hook fails closed).
/// - Exit code 2 blocks, with stderr (else the JSON's `agent_message`) as the reason.
/// - Any other code, or none: the hook failed; the action goes ahead unless it fails
///   closed.
///
/// The JSON: `permission` (or `decision`) `allow` / `deny` / `ask`; `agent_message` (or
/// `reason`, or Cursor 1.7's `agentMessage`) is the reason the agent is given, and
/// `user_message` (`userMessage`) is shown to the user (the reason too when there is no
/// agent message); `continue: false` refuses the prompt on `beforeSubmitPrompt` and stops
/// the agent elsewhere; `followup_message` keeps the agent (or subagent) going on `stop`
/// (`subagentStop`), as a block whose reason is the message; `updated_input`,
/// `updated_mcp_tool_output`, `additional_context` and `env` are what their names say.
pub fn parse(event: &Event, exit_code: Option<i32>, stdout: &[u8], stderr: &[u8]) -> HookOutcome {
    let mut outcome = match exit_code {
        Some(0) => match output::read_stdout(stdout) {
            Ok(Stdout::Empty) => HookOutcome::ok(),
            Ok(Stdout::Text(text)) => output::note(text),
            Ok(Stdout::Object(map)) => read(event, &map)
                .unwrap_or_else(|m| HookOutcome::failed(FailureKind::MalformedOutput, m)),
            Err(m) => HookOutcome::failed(FailureKind::MalformedOutput, m),
        },
        Some(2) => {
            let mut outcome = match output::read_stdout(stdout) {
                Ok(Stdout::Object(map)) => read(event, &map).unwrap_or_default(),
                _ => HookOutcome::ok(),
            };
            let stderr = output::text(stderr);
            if !stderr.is_empty() {
                outcome.effects.reason = Some(stderr);
            } else if outcome.effects.reason.is_none() {
                outcome.effects.reason = Some(output::EXIT_2_REASON.to_owned());
            }
            outcome.effects.decision = Decision::Block;
            outcome.run.status = HookStatus::Blocked;
            outcome
        }
        _ => output::failed_exit(exit_code, stderr),
    };
    outcome.run.exit_code = exit_code;
    outcome
}

/// Cursor's answer fields turned into the canonical answer, read by the one reader.
fn read(event: &Event, map: &Map<String, Value>) -> Result<HookOutcome, String> {
    let text = |keys: &[&str]| -> Result<Option<String>, String> {
        for k in keys {
            match map.get(*k) {
                None | Some(Value::Null) => {}
                Some(Value::String(s)) => return Ok(Some(s.clone())),
                Some(other) => {
                    return Err(format!(
                        "`{k}` must be a string, not {}",
                        crate::context::json_kind(other)
                    ));
                }
            }
        }
        Ok(None)
    };
    let builtin = event.builtin();
    let agent = text(&["agent_message", "agentMessage", "reason"])?;
    let user = text(&["user_message", "userMessage"])?;
    let followup = text(&["followup_message", "followupMessage"])?;
    let mut canonical = Map::new();
    let mut unknown = Vec::new();
    for (key, value) in map {
        match key.as_str() {
            "permission" | "decision" => {
                canonical.insert("decision".into(), value.clone());
            }
            "continue" => match (value, builtin) {
                (Value::Bool(false), Some(BuiltinEvent::UserPromptSubmit)) => {
                    canonical.insert("decision".into(), json!("block"));
                }
                (Value::Bool(false), _) => {
                    canonical.insert("continue".into(), Value::Bool(false));
                    if let Some(u) = &user {
                        canonical.insert("stopReason".into(), json!(u));
                    }
                }
                (Value::Bool(true) | Value::Null, _) => {}
                (other, _) => {
                    return Err(format!(
                        "`continue` must be a boolean, not {}",
                        crate::context::json_kind(other)
                    ));
                }
            },
            "updated_input" | "updatedInput" => {
                canonical.insert("updated_input".into(), value.clone());
            }
            "additional_context" | "additionalContext" => {
                canonical.insert("additional_context".into(), value.clone());
            }
            "updated_mcp_tool_output" => {
                canonical.insert(
                    "hookSpecificOutput".into(),
                    json!({"updatedMCPToolOutput": value}),
                );
            }
            "agent_message" | "agentMessage" | "reason" | "user_message" | "userMessage"
            | "followup_message" | "followupMessage" | "env" => {}
            other => unknown.push(other.to_owned()),
        }
    }
    if let Some(f) = &followup
        && matches!(
            builtin,
            Some(BuiltinEvent::Stop | BuiltinEvent::SubagentStop)
        )
    {
        canonical.insert("decision".into(), json!("block"));
        canonical.insert("reason".into(), json!(f));
    } else if let Some(reason) = agent.clone().or_else(|| user.clone()) {
        canonical.insert("reason".into(), json!(reason));
    }
    if let Some(u) = &user {
        canonical.insert("systemMessage".into(), json!(u));
    }
    let mut outcome = output::read_object(event, &canonical)?;
    if let Some(env) = map.get("env").filter(|v| !v.is_null()) {
        let Some(vars) = env.as_object() else {
            return Err(format!(
                "`env` must be an object, not {}",
                crate::context::json_kind(env)
            ));
        };
        for (name, value) in vars {
            let value = match value {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            outcome.effects.env.insert(name.clone(), value);
        }
    }
    outcome.unknown_fields.extend(unknown);
    Ok(outcome)
}

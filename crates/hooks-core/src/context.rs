//! The event context: the JSON a hook receives, with typed builders for common events.
//!
//! A context is the event plus a JSON object of fields in Claude Code's snake_case
//! vocabulary (`session_id`, `cwd`, `tool_name`, `tool_input`, ...). Typed constructors
//! cover the common events; [`EventContext::from_value`] takes any JSON object for the rest.

use std::borrow::Cow;
use std::sync::Arc;

use serde_json::{Map, Value};

use crate::dialect::Dialect;
use crate::error::{Error, ErrorKind};
use crate::event::{BuiltinEvent, Event};
use crate::tools::ToolNames;

/// One event's context.
#[derive(Clone, Debug, PartialEq)]
pub struct EventContext {
    event: Event,
    fields: Map<String, Value>,
    /// When the engine dispatched the event (RFC 3339), for the dialects whose hooks are
    /// documented to get a `timestamp`; not a field, so other dialects never see it.
    dispatched_at: Option<Arc<str>>,
    /// Whether the emitter bounds this stop's loop itself (see
    /// [`EventContext::set_stop_loop_owned`]); not a field, so no hook sees it.
    stop_loop_owned: bool,
    /// The event's name as the agent that sent it spelled it (see
    /// [`EventContext::set_sent_as`]); not a field, so no hook sees it.
    sent_as: Option<Arc<str>>,
}

/// Keys the engine writes itself; a payload's own values for them are replaced.
const ENGINE_KEYS: [&str; 2] = ["hook_event_name", "event"];

impl EventContext {
    /// An empty context for `event`.
    pub fn new(event: impl Into<Event>) -> EventContext {
        EventContext {
            event: event.into(),
            fields: Map::new(),
            dispatched_at: None,
            stop_loop_owned: false,
            sent_as: None,
        }
    }

    /// The context of `event` with `fields` (an event's JSON object), the engine's own keys
    /// dropped as in [`EventContext::from_value`].
    pub fn from_fields(event: impl Into<Event>, mut fields: Map<String, Value>) -> EventContext {
        for key in ENGINE_KEYS {
            fields.remove(key);
        }
        EventContext {
            event: event.into(),
            fields,
            dispatched_at: None,
            stop_loop_owned: false,
            sent_as: None,
        }
    }

    /// The JSON escape hatch: a context from any JSON object. `hook_event_name` and `event`
    /// keys in the payload are dropped, since the engine writes them per dialect.
    pub fn from_value(event: impl Into<Event>, value: Value) -> Result<EventContext, Error> {
        match value {
            Value::Object(fields) => Ok(EventContext::from_fields(event, fields)),
            Value::Null => Ok(EventContext::new(event)),
            other => Err(Error::new(ErrorKind::InvalidSpec {
                message: format!(
                    "an event payload must be a JSON object, not {}",
                    json_kind(&other)
                ),
            })),
        }
    }

    /// The event.
    pub fn event(&self) -> &Event {
        &self.event
    }

    /// All fields, in insertion order.
    pub fn fields(&self) -> &Map<String, Value> {
        &self.fields
    }

    /// One field.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.fields.get(key)
    }

    /// One field, if it is a string.
    pub fn get_str(&self, key: &str) -> Option<&str> {
        self.fields.get(key).and_then(Value::as_str)
    }

    /// Sets a field.
    pub fn set(&mut self, key: impl Into<String>, value: impl Into<Value>) {
        let key = key.into();
        if !ENGINE_KEYS.contains(&key.as_str()) {
            self.fields.insert(key, value.into());
        }
    }

    /// Sets a field, builder style.
    #[must_use]
    pub fn with(mut self, key: impl Into<String>, value: impl Into<Value>) -> EventContext {
        self.set(key, value);
        self
    }

    /// Sets `session_id`.
    #[must_use]
    pub fn session_id(self, id: impl Into<String>) -> EventContext {
        self.with("session_id", id.into())
    }

    /// Sets `cwd`, the agent's working directory.
    #[must_use]
    pub fn cwd(self, dir: impl Into<String>) -> EventContext {
        self.with("cwd", dir.into())
    }

    /// Sets `transcript_path`.
    #[must_use]
    pub fn transcript_path(self, path: impl Into<String>) -> EventContext {
        self.with("transcript_path", path.into())
    }

    /// Sets `permission_mode`.
    #[must_use]
    pub fn permission_mode(self, mode: impl Into<String>) -> EventContext {
        self.with("permission_mode", mode.into())
    }

    /// Sets `agent_id` and `agent_type`, as inside a subagent.
    #[must_use]
    pub fn agent(self, id: impl Into<String>, agent_type: impl Into<String>) -> EventContext {
        self.with("agent_id", id.into())
            .with("agent_type", agent_type.into())
    }

    /// Sets `timestamp` (RFC 3339); echo-agent hooks expect it. Without it, they get the
    /// time the engine dispatched the event ([`EventContext::set_dispatched_at`]).
    #[must_use]
    pub fn timestamp(self, ts: impl Into<String>) -> EventContext {
        self.with("timestamp", ts.into())
    }

    /// Records when the event was dispatched (RFC 3339). Hooks of a dialect that documents
    /// a `timestamp` ([`Dialect::documents_timestamp`]) get it as `timestamp` when the
    /// context has no `timestamp` field of its own; it is not a field, so the other
    /// dialects' input does not change. The dispatcher sets it, once per dispatch.
    pub fn set_dispatched_at(&mut self, rfc3339: impl Into<Arc<str>>) {
        self.dispatched_at = Some(rfc3339.into());
    }

    /// When the event was dispatched, if the dispatcher recorded it.
    pub fn dispatched_at(&self) -> Option<&str> {
        self.dispatched_at.as_deref()
    }

    /// Records the event's name as the agent that sent it spelled it: an agent with two
    /// spellings of its events (GitHub Copilot CLI's `preToolUse` and `PreToolUse`) reads
    /// the answer in the form of the spelling it called with.
    pub fn set_sent_as(&mut self, name: impl Into<Arc<str>>) {
        self.sent_as = Some(name.into());
    }

    /// The event's name as the agent spelled it, if recorded
    /// ([`EventContext::set_sent_as`]).
    pub fn sent_as(&self) -> Option<&str> {
        self.sent_as.as_deref()
    }

    /// Marks a `Stop` or `SubagentStop` whose emitter keeps the agent going on a block and
    /// bounds that loop itself (orchestration's subagent dispatcher): the dispatcher's
    /// stop-loop cap ([`crate::StopBlockCap`]) does not count it, so one loop has one cap.
    pub fn set_stop_loop_owned(&mut self) {
        self.stop_loop_owned = true;
    }

    /// Whether the emitter bounds this stop's loop itself
    /// ([`EventContext::set_stop_loop_owned`]).
    pub fn stop_loop_owned(&self) -> bool {
        self.stop_loop_owned
    }

    /// Fabro's run identity: `run_id` and `workflow_name` (the keys of Fabro's hook
    /// context).
    #[must_use]
    pub fn run(self, run_id: impl Into<String>, workflow: impl Into<String>) -> EventContext {
        self.with("run_id", run_id.into())
            .with("workflow_name", workflow.into())
    }

    /// `PreToolUse`: a tool is about to run.
    pub fn pre_tool_use(tool_name: impl Into<String>, tool_input: Value) -> EventContext {
        EventContext::new(BuiltinEvent::PreToolUse)
            .with("tool_name", tool_name.into())
            .with("tool_input", tool_input)
    }

    /// `PostToolUse`: a tool ran and answered `tool_response`.
    pub fn post_tool_use(
        tool_name: impl Into<String>,
        tool_input: Value,
        tool_response: Value,
    ) -> EventContext {
        EventContext::new(BuiltinEvent::PostToolUse)
            .with("tool_name", tool_name.into())
            .with("tool_input", tool_input)
            .with("tool_response", tool_response)
    }

    /// `PostToolUseFailure`: a tool failed with `error`.
    pub fn post_tool_use_failure(
        tool_name: impl Into<String>,
        tool_input: Value,
        error: impl Into<String>,
    ) -> EventContext {
        EventContext::new(BuiltinEvent::PostToolUseFailure)
            .with("tool_name", tool_name.into())
            .with("tool_input", tool_input)
            .with("error", error.into())
    }

    /// `PermissionRequest`: a permission dialog is about to be shown for a tool.
    pub fn permission_request(tool_name: impl Into<String>, tool_input: Value) -> EventContext {
        EventContext::new(BuiltinEvent::PermissionRequest)
            .with("tool_name", tool_name.into())
            .with("tool_input", tool_input)
    }

    /// `SessionStart` with its `source` (`startup`, `resume`, `clear`, `compact`).
    pub fn session_start(source: impl Into<String>) -> EventContext {
        EventContext::new(BuiltinEvent::SessionStart).with("source", source.into())
    }

    /// `SessionEnd` with its `reason`.
    pub fn session_end(reason: impl Into<String>) -> EventContext {
        EventContext::new(BuiltinEvent::SessionEnd).with("reason", reason.into())
    }

    /// `Stop`; `stop_hook_active` says whether the agent is already continuing because a
    /// Stop hook blocked.
    pub fn stop(stop_hook_active: bool) -> EventContext {
        EventContext::new(BuiltinEvent::Stop).with("stop_hook_active", stop_hook_active)
    }

    /// `UserPromptSubmit` with the user's `prompt`.
    pub fn user_prompt_submit(prompt: impl Into<String>) -> EventContext {
        EventContext::new(BuiltinEvent::UserPromptSubmit).with("prompt", prompt.into())
    }

    /// `Notification` of `notification_type` with its `message`.
    pub fn notification(
        notification_type: impl Into<String>,
        message: impl Into<String>,
    ) -> EventContext {
        EventContext::new(BuiltinEvent::Notification)
            .with("notification_type", notification_type.into())
            .with("message", message.into())
    }

    /// `SubagentStart` for a subagent of `agent_type`.
    pub fn subagent_start(
        agent_id: impl Into<String>,
        agent_type: impl Into<String>,
    ) -> EventContext {
        EventContext::new(BuiltinEvent::SubagentStart).agent(agent_id, agent_type)
    }

    /// `SubagentStop` for a subagent of `agent_type`.
    pub fn subagent_stop(
        agent_id: impl Into<String>,
        agent_type: impl Into<String>,
        stop_hook_active: bool,
    ) -> EventContext {
        EventContext::new(BuiltinEvent::SubagentStop)
            .agent(agent_id, agent_type)
            .with("stop_hook_active", stop_hook_active)
    }

    /// `TaskCreated` for task `task_id` with its `task_subject`.
    pub fn task_created(task_id: impl Into<String>, subject: impl Into<String>) -> EventContext {
        EventContext::new(BuiltinEvent::TaskCreated)
            .with("task_id", task_id.into())
            .with("task_subject", subject.into())
    }

    /// `TaskCompleted` for task `task_id` with its `task_subject`.
    pub fn task_completed(task_id: impl Into<String>, subject: impl Into<String>) -> EventContext {
        EventContext::new(BuiltinEvent::TaskCompleted)
            .with("task_id", task_id.into())
            .with("task_subject", subject.into())
    }

    /// `FileChanged` (Autohand `file-modified`): `file_path` was created, modified or
    /// deleted (`change_type`). `file_name` is set to the path's last component.
    pub fn file_changed(
        file_path: impl Into<String>,
        change_type: impl Into<String>,
    ) -> EventContext {
        let path = file_path.into();
        let name = path.rsplit('/').next().unwrap_or(&path).to_owned();
        EventContext::new(BuiltinEvent::FileChanged)
            .with("file_path", path)
            .with("file_name", name)
            .with("change_type", change_type.into())
    }

    /// Fabro `run_start`.
    pub fn run_start(run_id: impl Into<String>, workflow: impl Into<String>) -> EventContext {
        EventContext::new(BuiltinEvent::RunStart).run(run_id, workflow)
    }

    /// Fabro `run_complete`.
    pub fn run_complete(run_id: impl Into<String>, workflow: impl Into<String>) -> EventContext {
        EventContext::new(BuiltinEvent::RunComplete).run(run_id, workflow)
    }

    /// Fabro `run_failed` with the `error`.
    pub fn run_failed(
        run_id: impl Into<String>,
        workflow: impl Into<String>,
        error: impl Into<String>,
    ) -> EventContext {
        EventContext::new(BuiltinEvent::RunFailed)
            .run(run_id, workflow)
            .with("error", error.into())
    }

    /// A Fabro stage event (`stage_start`, `stage_complete`, `stage_failed`,
    /// `stage_retrying`) for node `node_id` run by `handler_type`.
    pub fn stage(
        event: StageEvent,
        node_id: impl Into<String>,
        handler_type: impl Into<String>,
    ) -> EventContext {
        let builtin = match event {
            StageEvent::Start => BuiltinEvent::StageStart,
            StageEvent::Complete => BuiltinEvent::StageComplete,
            StageEvent::Failed => BuiltinEvent::StageFailed,
            StageEvent::Retrying => BuiltinEvent::StageRetrying,
        };
        EventContext::new(builtin)
            .with("node_id", node_id.into())
            .with("handler_type", handler_type.into())
    }

    /// Fabro `edge_selected`: the edge from `node_id` to `edge_to` was chosen. The source
    /// is both `node_id` and Fabro's `edge_from`.
    pub fn edge_selected(node_id: impl Into<String>, edge_to: impl Into<String>) -> EventContext {
        let from = node_id.into();
        EventContext::new(BuiltinEvent::EdgeSelected)
            .with("node_id", from.clone())
            .with("edge_from", from)
            .with("edge_to", edge_to.into())
    }

    /// The tool name (`tool_name`), on tool events.
    pub fn tool_name(&self) -> Option<&str> {
        self.get_str("tool_name")
    }

    /// The tool input (`tool_input`), on tool events.
    pub fn tool_input(&self) -> Option<&Value> {
        self.get("tool_input")
    }

    /// Makes the tool name canonical, for an event sent by an agent whose tool names are
    /// `tools` (Gemini CLI's `run_shell_command` becomes `Bash`): done once, where the
    /// event enters, so that every hook is matched against and given its own agent's name
    /// from the one canonical name.
    pub fn canonicalize_tool_name(&mut self, tools: &ToolNames) {
        if tools.is_canonical() {
            return;
        }
        if let Some(Value::String(name)) = self.fields.get_mut("tool_name") {
            let canonical = tools.to_canonical(name);
            if canonical != name.as_str() {
                *name = canonical.into_owned();
            }
        }
    }

    /// Replaces the tool input: how a rewrite reaches the next hook of a sequential group.
    pub fn set_tool_input(&mut self, input: Value) {
        self.fields.insert("tool_input".to_owned(), input);
    }

    /// The working directory (`cwd`).
    pub fn working_dir(&self) -> Option<&str> {
        self.get_str("cwd")
    }

    /// The file path this event is about: `file_path`, else the tool input's `file_path`,
    /// `path` or `notebook_path`.
    pub fn file_path(&self) -> Option<&str> {
        if let Some(p) = self.get_str("file_path") {
            return Some(p);
        }
        let input = self.tool_input()?.as_object()?;
        ["file_path", "path", "notebook_path"]
            .iter()
            .find_map(|k| input.get(*k)?.as_str())
    }

    /// The values the event's matcher is matched against: for each of the event's matcher
    /// fields present in the context, its text (numbers and booleans as written in JSON).
    pub fn matcher_subjects(&self) -> impl Iterator<Item = (&str, Cow<'_, str>)> + '_ {
        self.subjects(self.event.info().matcher_fields())
    }

    /// The values the matcher of a hook written in `dialect` is matched against: as
    /// [`EventContext::matcher_subjects`], over the fields of
    /// [`EventInfo::matcher_fields_in`](crate::EventInfo::matcher_fields_in).
    ///
    /// A dialect whose agent names tools otherwise sees the tool name in its own
    /// vocabulary (a Gemini CLI hook sees `run_shell_command` where the event says
    /// `Bash`), with the other names its matchers take for that tool (Codex's `Edit` and
    /// `Write` for `apply_patch`).
    pub fn matcher_subjects_in(
        &self,
        dialect: Dialect,
    ) -> impl Iterator<Item = (&str, Cow<'_, str>)> + '_ {
        let tools = dialect.tools();
        let translate = tools.translates_matchers();
        self.subjects(self.event.info().matcher_fields_in(dialect))
            .flat_map(move |(field, text)| {
                if !translate || field != "tool_name" {
                    return Subjects::One(std::iter::once((field, text)));
                }
                let own: Cow<'_, str> = match text {
                    Cow::Borrowed(name) => tools.from_canonical(name),
                    Cow::Owned(name) => Cow::Owned(tools.from_canonical(&name).into_owned()),
                };
                let aliases = tools.matcher_aliases(&own);
                Subjects::Translated(
                    std::iter::once((field, own))
                        .chain(aliases.iter().map(move |a| (field, Cow::Borrowed(*a)))),
                )
            })
    }

    fn subjects<'a>(
        &'a self,
        fields: &'a [String],
    ) -> impl Iterator<Item = (&'a str, Cow<'a, str>)> + 'a {
        fields.iter().filter_map(move |field| {
            let text = match self.fields.get(field.as_str())? {
                Value::String(s) => Cow::Borrowed(s.as_str()),
                Value::Null => return None,
                other => Cow::Owned(other.to_string()),
            };
            Some((field.as_str(), text))
        })
    }

    /// The JSON a hook of `dialect` receives on stdin: `hook_event_name` (the event's name
    /// in that dialect) followed by the context fields. echo-agent hooks also get `event`
    /// (the canonical name), and `timestamp` last: the context's own, else the dispatch
    /// time; Fabro hooks get `event` in Fabro's spelling (`stage_start`), the key Fabro's
    /// own hook context has. Autohand hooks get every key of Autohand's JSON Input
    /// Structure, in its order, `null` where the event has no value for it (`instruction`
    /// from `prompt`, `session_type` from `source`, ... when only those are set), then the
    /// other fields.
    pub fn to_json(&self, dialect: Dialect) -> Value {
        (dialect.profile().stdin)(self)
    }

    /// The JSON `spec` receives on stdin: [`EventContext::to_json`] in its dialect, or,
    /// when the hook was registered under one of several names its dialect has for the
    /// event ([`HookSpec::home_event`]), the JSON its dialect sends for that name (Cursor's
    /// `beforeShellExecution` hooks get the command at the top level, its `preToolUse`
    /// hooks the tool and its input).
    ///
    /// [`HookSpec::home_event`]: crate::HookSpec::home_event
    pub fn input_for(&self, spec: &crate::HookSpec) -> Value {
        let profile = spec.dialect.profile();
        match (spec.home_event, profile.stdin_named) {
            (Some(home), Some(named)) => named(self, home),
            _ => (profile.stdin)(self),
        }
    }
}

/// The subjects of one matcher field: the value itself, or its translation into a
/// dialect's tool names with that dialect's other names for the tool.
enum Subjects<A, B> {
    One(A),
    Translated(B),
}

impl<T, A: Iterator<Item = T>, B: Iterator<Item = T>> Iterator for Subjects<A, B> {
    type Item = T;
    fn next(&mut self) -> Option<T> {
        match self {
            Subjects::One(a) => a.next(),
            Subjects::Translated(b) => b.next(),
        }
    }
}

/// The four Fabro stage events, for [`EventContext::stage`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StageEvent {
    /// `stage_start`.
    Start,
    /// `stage_complete`.
    Complete,
    /// `stage_failed`.
    Failed,
    /// `stage_retrying`.
    Retrying,
}

/// The type of a configuration or JSON value, as messages name it: the one vocabulary
/// for hook output, config diagnostics and the CLI's editor. The words are JSON's (the
/// data model every config format here maps onto, and the one `hooks schema` describes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ValueType {
    /// `null`.
    Null,
    /// `true` or `false`.
    Boolean,
    /// A whole number (where the format tells it from other numbers).
    Integer,
    /// A number.
    Number,
    /// A string.
    String,
    /// An array (a YAML sequence, a TOML array).
    Array,
    /// An object (a YAML mapping, a TOML table).
    Object,
}

impl ValueType {
    /// The type of a JSON value (numbers are [`ValueType::Number`]).
    pub fn of(v: &Value) -> ValueType {
        match v {
            Value::Null => ValueType::Null,
            Value::Bool(_) => ValueType::Boolean,
            Value::Number(_) => ValueType::Number,
            Value::String(_) => ValueType::String,
            Value::Array(_) => ValueType::Array,
            Value::Object(_) => ValueType::Object,
        }
    }

    /// The type a JSON Schema `type` keyword names (`"array"`), if it is one.
    pub fn from_schema(name: &str) -> Option<ValueType> {
        Some(match name {
            "null" => ValueType::Null,
            "boolean" => ValueType::Boolean,
            "integer" => ValueType::Integer,
            "number" => ValueType::Number,
            "string" => ValueType::String,
            "array" => ValueType::Array,
            "object" => ValueType::Object,
            _ => return None,
        })
    }

    /// The word for it in messages, with its article (`an array`, `null`).
    pub fn word(self) -> &'static str {
        match self {
            ValueType::Null => "null",
            ValueType::Boolean => "a boolean",
            ValueType::Integer => "an integer",
            ValueType::Number => "a number",
            ValueType::String => "a string",
            ValueType::Array => "an array",
            ValueType::Object => "an object",
        }
    }
}

/// A word for a JSON value's type, for messages (`a string`, `an array`, `null`):
/// [`ValueType::of`]'s [`ValueType::word`].
pub fn json_kind(v: &Value) -> &'static str {
    ValueType::of(v).word()
}

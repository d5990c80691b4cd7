//! The event catalog: every lifecycle event the engine knows, with its aliases in each
//! dialect, what its matcher is matched against, whether it can block and which outcome
//! fields it honours.
//!
//! Built-in events cover echo-agent, Fabro, Autohand and Claude Code. Hosts add their own
//! through [`EventCatalog::register`].

use std::collections::HashMap;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, LazyLock};

use crate::dialect::Dialect;
use crate::error::{Error, ErrorKind};

/// The fields an event's matchers test in one dialect, against the catalog's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatcherFields {
    /// The catalog's fields and then these (Fabro's tool events also match `node_id`).
    Add(&'static [&'static str]),
    /// Exactly these; none: the event takes no matcher in this dialect (Claude Code
    /// ignores a matcher on TaskCreated).
    Only(&'static [&'static str]),
}

/// The outcome fields an event honours. A field a hook returns that its event does not
/// honour is reported as ignored by the aggregation, never silently applied.
///
/// `continue`, `stopReason`, `systemMessage`, `terminalSequence` and messages are honoured
/// by every event and so have no flag (a dialect's reader drops those its dialect
/// discards on an event, see [`parse_output_in`](crate::parse_output_in)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Fields(u32);

impl Fields {
    /// No optional field.
    pub const NONE: Fields = Fields(0);
    /// The event can be blocked (exit code 2, `decision: "block"`, fail-closed failures).
    pub const BLOCK: Fields = Fields(1 << 0);
    /// Permission decisions (`allow`, `ask`, `defer`, `deny`) are honoured.
    pub const PERMISSION: Fields = Fields(1 << 1);
    /// `updated_input` (a rewritten tool input) is honoured.
    pub const UPDATED_INPUT: Fields = Fields(1 << 2);
    /// `additional_context` (text for the model) is honoured.
    pub const CONTEXT: Fields = Fields(1 << 3);
    /// The `retry` flag (Claude's PermissionDenied) is honoured.
    pub const RETRY: Fields = Fields(1 << 4);
    /// Fabro's `skip` decision is honoured.
    pub const SKIP: Fields = Fields(1 << 5);
    /// Fabro's `override` decision (choose another edge) is honoured.
    pub const OVERRIDE: Fields = Fields(1 << 6);
    /// `updated_permissions` (Claude's PermissionRequest) is honoured.
    pub const UPDATED_PERMISSIONS: Fields = Fields(1 << 7);
    /// `updated_tool_output` and `updated_mcp_tool_output` (Claude's PostToolUse) are
    /// honoured.
    pub const UPDATED_TOOL_OUTPUT: Fields = Fields(1 << 8);
    /// `session_title` (Claude's SessionStart, UserPromptSubmit) is honoured.
    pub const SESSION_TITLE: Fields = Fields(1 << 9);
    /// `initial_user_message` and `reload_skills` (Claude's SessionStart) are honoured.
    pub const SESSION_SETUP: Fields = Fields(1 << 10);
    /// `watch_paths` (Claude's SessionStart, CwdChanged, FileChanged) is honoured.
    pub const WATCH_PATHS: Fields = Fields(1 << 11);
    /// `elicitation` (an action and content, Claude's Elicitation events) is honoured.
    pub const ELICITATION: Fields = Fields(1 << 12);
    /// `worktree_path` (Claude's WorktreeCreate) is honoured.
    pub const WORKTREE_PATH: Fields = Fields(1 << 13);
    /// `clear_context` (Gemini CLI's AfterAgent) is honoured.
    pub const CLEAR_CONTEXT: Fields = Fields(1 << 17);
    /// `llm_request` (Gemini CLI's BeforeModel) is honoured.
    pub const LLM_REQUEST: Fields = Fields(1 << 18);
    /// `llm_response` (Gemini CLI's BeforeModel and AfterModel) is honoured.
    pub const LLM_RESPONSE: Fields = Fields(1 << 19);
    /// `tool_config` (Gemini CLI's BeforeToolSelection) is honoured.
    pub const TOOL_CONFIG: Fields = Fields(1 << 20);
    /// `tail_tool_call` (Gemini CLI's AfterTool `tailToolCallRequest`) is honoured.
    pub const TAIL_TOOL_CALL: Fields = Fields(1 << 21);
    /// `suppress_original_prompt` (Claude's UserPromptSubmit) is honoured.
    pub const SUPPRESS_PROMPT: Fields = Fields(1 << 14);
    /// `classifier_context` (Claude's PostToolUse) is honoured.
    pub const CLASSIFIER_CONTEXT: Fields = Fields(1 << 15);
    /// `display_content` (Claude's MessageDisplay) is honoured.
    pub const DISPLAY_CONTENT: Fields = Fields(1 << 16);

    /// The union of two sets.
    pub const fn union(self, other: Fields) -> Fields {
        Fields(self.0 | other.0)
    }

    /// Whether every field of `other` is in `self`.
    pub const fn contains(self, other: Fields) -> bool {
        self.0 & other.0 == other.0
    }

    /// The names of the fields in this set, for display.
    pub fn names(self) -> Vec<&'static str> {
        const NAMES: [(Fields, &str); 22] = [
            (Fields::BLOCK, "block"),
            (Fields::PERMISSION, "permission"),
            (Fields::UPDATED_INPUT, "updated_input"),
            (Fields::CONTEXT, "additional_context"),
            (Fields::RETRY, "retry"),
            (Fields::SKIP, "skip"),
            (Fields::OVERRIDE, "override"),
            (Fields::UPDATED_PERMISSIONS, "updated_permissions"),
            (Fields::UPDATED_TOOL_OUTPUT, "updated_tool_output"),
            (Fields::SESSION_TITLE, "session_title"),
            (Fields::SESSION_SETUP, "initial_user_message, reload_skills"),
            (Fields::WATCH_PATHS, "watch_paths"),
            (Fields::ELICITATION, "elicitation"),
            (Fields::WORKTREE_PATH, "worktree_path"),
            (Fields::CLEAR_CONTEXT, "clear_context"),
            (Fields::LLM_REQUEST, "llm_request"),
            (Fields::LLM_RESPONSE, "llm_response"),
            (Fields::TOOL_CONFIG, "tool_config"),
            (Fields::TAIL_TOOL_CALL, "tail_tool_call"),
            (Fields::SUPPRESS_PROMPT, "suppress_original_prompt"),
            (Fields::CLASSIFIER_CONTEXT, "classifier_context"),
            (Fields::DISPLAY_CONTENT, "display_content"),
        ];
        NAMES
            .iter()
            .filter(|(f, _)| self.contains(*f))
            .map(|(_, n)| *n)
            .collect()
    }
}

impl std::ops::BitOr for Fields {
    type Output = Fields;
    fn bitor(self, rhs: Fields) -> Fields {
        self.union(rhs)
    }
}

/// Another name for an event, as one dialect spells it (`pre-tool` in Autohand).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Alias {
    /// The dialect that uses this name.
    pub dialect: Dialect,
    /// The name itself.
    pub name: String,
}

/// What the catalog knows of one event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventInfo {
    name: String,
    aliases: Vec<Alias>,
    matcher_fields: Vec<String>,
    /// Dialects whose hooks match against more fields than `matcher_fields`, with the
    /// whole list for each.
    dialect_matcher_fields: Vec<(Dialect, Vec<String>)>,
    honours: Fields,
    description: String,
}

impl EventInfo {
    /// Describes a new (custom) event with a canonical name; it honours nothing optional,
    /// cannot block and has no matcher target until told otherwise.
    pub fn new(name: impl Into<String>) -> EventInfo {
        EventInfo {
            name: name.into(),
            aliases: Vec::new(),
            matcher_fields: Vec::new(),
            dialect_matcher_fields: Vec::new(),
            honours: Fields::NONE,
            description: String::new(),
        }
    }

    /// Adds an alias used by `dialect`.
    pub fn alias(mut self, dialect: Dialect, name: impl Into<String>) -> EventInfo {
        self.aliases.push(Alias {
            dialect,
            name: name.into(),
        });
        self
    }

    /// Adds a context field the matcher is matched against. With several fields a matcher
    /// matches when it matches any of them; with none, matchers are ignored for this event.
    pub fn matcher_field(mut self, field: impl Into<String>) -> EventInfo {
        self.matcher_fields.push(field.into());
        self
    }

    /// Adds a context field the matchers of `dialect`'s hooks are also matched against,
    /// after the event's own fields (Fabro's tool-event matchers also see `node_id`).
    pub fn dialect_matcher_field(
        mut self,
        dialect: Dialect,
        field: impl Into<String>,
    ) -> EventInfo {
        let field = field.into();
        match self
            .dialect_matcher_fields
            .iter_mut()
            .find(|(d, _)| *d == dialect)
        {
            Some((_, fields)) => fields.push(field),
            None => {
                let mut fields = self.matcher_fields.clone();
                fields.push(field);
                self.dialect_matcher_fields.push((dialect, fields));
            }
        }
        self
    }

    /// Sets the outcome fields this event honours.
    pub fn honours(mut self, fields: Fields) -> EventInfo {
        self.honours = fields;
        self
    }

    /// Sets a one-line description.
    pub fn description(mut self, text: impl Into<String>) -> EventInfo {
        self.description = text.into();
        self
    }

    /// The canonical (PascalCase for built-ins) name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Every alias of this event.
    pub fn aliases(&self) -> &[Alias] {
        &self.aliases
    }

    /// The name this event has in `dialect`: its alias there, or the canonical name.
    pub fn name_in(&self, dialect: Dialect) -> &str {
        self.aliases
            .iter()
            .find(|a| a.dialect == dialect)
            .map_or(&self.name, |a| &a.name)
    }

    /// The context fields the matcher is matched against (empty: matchers are ignored).
    pub fn matcher_fields(&self) -> &[String] {
        &self.matcher_fields
    }

    /// Whether the matcher is matched against the tool name: a tool event's matcher is a
    /// list of tool names (or a pattern of them), written in its dialect's vocabulary.
    pub fn matches_tool_name(&self) -> bool {
        self.matcher_fields.iter().any(|f| f == "tool_name")
    }

    /// The context fields the matcher of a hook written in `dialect` is matched against:
    /// [`EventInfo::matcher_fields`], plus the fields that dialect adds for this event
    /// (Fabro's tool events also match `node_id`).
    pub fn matcher_fields_in(&self, dialect: Dialect) -> &[String] {
        self.dialect_matcher_fields
            .iter()
            .find(|(d, _)| *d == dialect)
            .map_or(&self.matcher_fields, |(_, fields)| fields)
    }

    /// Says that the matchers of `dialect`'s hooks are matched against exactly `fields`
    /// (none: the event takes no matcher in that dialect, so one written there is ignored,
    /// as Claude Code ignores a matcher on TaskCreated).
    pub fn dialect_matcher_fields<I, S>(mut self, dialect: Dialect, fields: I) -> EventInfo
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let fields: Vec<String> = fields.into_iter().map(Into::into).collect();
        self.dialect_matcher_fields.retain(|(d, _)| *d != dialect);
        self.dialect_matcher_fields.push((dialect, fields));
        self
    }

    /// Whether some dialect's hooks match this event against other fields than
    /// [`EventInfo::matcher_fields`].
    pub fn has_dialect_matcher_fields(&self) -> bool {
        !self.dialect_matcher_fields.is_empty()
    }

    /// The optional outcome fields this event honours.
    pub fn honoured(&self) -> Fields {
        self.honours
    }

    /// Whether hooks can block this event.
    pub fn can_block(&self) -> bool {
        self.honours.contains(Fields::BLOCK)
    }

    /// A one-line description.
    pub fn describe(&self) -> &str {
        &self.description
    }
}

macro_rules! builtin_events {
    ($(
        $(#[doc = $doc:literal])+
        $variant:ident {
            honours: [$($h:ident),*],
            matcher: [$($m:literal),*] $(,)?
        }
    )*) => {
        /// The built-in events, one per lifecycle point of echo-agent, Fabro, Autohand and
        /// Claude Code. Dialect names are aliases of these (see [`EventInfo::aliases`]),
        /// given by each dialect's [`Profile`](crate::Profile).
        #[non_exhaustive]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum BuiltinEvent {
            $($(#[doc = $doc])+ $variant,)*
        }

        impl BuiltinEvent {
            /// Every built-in event, in catalog order.
            pub const ALL: &'static [BuiltinEvent] = &[$(BuiltinEvent::$variant,)*];
        }

        fn builtin_table() -> Vec<EventInfo> {
            vec![$(
                EventInfo::new(stringify!($variant))
                    .description(concat!($($doc),+).trim())
                    .honours(Fields::NONE $(| Fields::$h)*)
                    $(.matcher_field($m))*,
            )*]
        }
    };
}

builtin_events! {
    /// Before a tool runs: allow, deny, ask, rewrite its input.
    PreToolUse { honours: [BLOCK, PERMISSION, UPDATED_INPUT, CONTEXT, SKIP], matcher: ["tool_name"] }
    /// After a tool succeeded.
    PostToolUse { honours: [CONTEXT, UPDATED_TOOL_OUTPUT, CLASSIFIER_CONTEXT, TAIL_TOOL_CALL], matcher: ["tool_name"] }
    /// After a tool failed.
    PostToolUseFailure { honours: [CONTEXT], matcher: ["tool_name"] }
    /// After a batch of parallel tool calls.
    PostToolBatch { honours: [BLOCK, CONTEXT], matcher: [] }
    /// A permission dialog is about to be shown.
    PermissionRequest { honours: [BLOCK, PERMISSION, UPDATED_INPUT, UPDATED_PERMISSIONS], matcher: ["tool_name", "tool"] }
    /// A permission was denied; hooks may ask for a retry.
    PermissionDenied { honours: [RETRY], matcher: ["tool_name"] }
    /// A session begins or resumes.
    SessionStart { honours: [CONTEXT, SESSION_TITLE, SESSION_SETUP, WATCH_PATHS], matcher: ["source", "session_type"] }
    /// A session ends.
    SessionEnd { honours: [], matcher: ["reason", "session_end_reason"] }
    /// One-time setup of a repository or session.
    Setup { honours: [CONTEXT], matcher: ["trigger"] }
    /// The user submitted a prompt (Autohand: before the instruction goes to the model).
    UserPromptSubmit { honours: [BLOCK, CONTEXT, SESSION_TITLE, SUPPRESS_PROMPT], matcher: [] }
    /// A slash command or MCP prompt is about to be expanded into a prompt.
    UserPromptExpansion { honours: [BLOCK, CONTEXT], matcher: ["command_name"] }
    /// Assistant text is about to be shown; hooks may rewrite what the screen shows.
    MessageDisplay { honours: [DISPLAY_CONTENT], matcher: [] }
    /// The agent finished responding; blocking keeps it going.
    Stop { honours: [BLOCK, CONTEXT, CLEAR_CONTEXT], matcher: [] }
    /// The agent hit an unrecoverable error.
    StopFailure { honours: [], matcher: ["error"] }
    /// The agent needs the user's attention.
    Notification { honours: [], matcher: ["notification_type"] }
    /// Before the context is compacted.
    PreCompact { honours: [BLOCK, CONTEXT], matcher: ["trigger"] }
    /// After the context was compacted.
    PostCompact { honours: [CONTEXT], matcher: ["trigger"] }
    /// A configuration file changed.
    ConfigChange { honours: [BLOCK], matcher: ["source", "config_source"] }
    /// Skills or instruction files were loaded.
    InstructionsLoaded { honours: [], matcher: ["load_reason"] }
    /// A file was created, modified or deleted.
    FileChanged { honours: [WATCH_PATHS], matcher: ["file_name", "file_path"] }
    /// The working directory changed.
    CwdChanged { honours: [WATCH_PATHS], matcher: [] }
    /// A directory was added to the session's workspace (runs in the background).
    DirectoryAdded { honours: [], matcher: ["source"] }
    /// A worktree is about to be created.
    WorktreeCreate { honours: [BLOCK, WORKTREE_PATH], matcher: [] }
    /// A worktree was removed.
    WorktreeRemove { honours: [], matcher: [] }
    /// An MCP server asks the user for input.
    Elicitation { honours: [BLOCK, PERMISSION, ELICITATION], matcher: ["mcp_server_name"] }
    /// The user answered an MCP elicitation.
    ElicitationResult { honours: [BLOCK, ELICITATION], matcher: ["mcp_server_name"] }
    /// An error occurred in the session.
    SessionError { honours: [], matcher: ["error_code"] }
    /// Before memory extraction on `/clear` or `/new`.
    PreClear { honours: [], matcher: [] }
    /// The permission mode changed.
    ModeChange { honours: [], matcher: ["permission_mode"] }
    /// Before a subagent is dispatched.
    SubagentStart { honours: [CONTEXT], matcher: ["agent_type", "subagent_type"] }
    /// A subagent finished; blocking keeps it going; context is added to its result.
    SubagentStop { honours: [BLOCK, CONTEXT], matcher: ["agent_type", "subagent_type"] }
    /// A task was created or scheduled; blocking rolls it back; context goes to the agent
    /// that executes it.
    TaskCreated { honours: [BLOCK, CONTEXT], matcher: ["task_id"] }
    /// A task was completed; blocking keeps it from completing; context is added to its
    /// result.
    TaskCompleted { honours: [BLOCK, CONTEXT], matcher: ["task_id", "team_task_id", "team_task_owner", "team_task_result"] }
    /// A teammate is about to go idle; blocking keeps it working.
    TeammateIdle { honours: [BLOCK], matcher: ["team_name", "teammate_name", "teammate_agent_name"] }
    /// A team was created.
    TeamCreated { honours: [], matcher: ["team_name"] }
    /// A teammate process started.
    TeammateSpawned { honours: [], matcher: ["team_name", "teammate_name", "teammate_agent_name"] }
    /// A task was assigned to a teammate.
    TaskAssigned { honours: [], matcher: ["team_task_id", "team_task_owner"] }
    /// Team cleanup completed.
    TeamShutdown { honours: [], matcher: ["team_name"] }
    /// Auto-mode started.
    AutomodeStart { honours: [], matcher: ["automode_prompt"] }
    /// One auto-mode iteration.
    AutomodeIteration { honours: [], matcher: ["automode_iteration", "automode_prompt"] }
    /// Auto-mode created a checkpoint.
    AutomodeCheckpoint { honours: [], matcher: ["automode_iteration"] }
    /// Auto-mode paused.
    AutomodePause { honours: [], matcher: ["automode_iteration"] }
    /// Auto-mode resumed.
    AutomodeResume { honours: [], matcher: ["automode_iteration"] }
    /// Auto-mode was cancelled.
    AutomodeCancel { honours: [], matcher: ["automode_cancel_reason"] }
    /// Auto-mode completed.
    AutomodeComplete { honours: [], matcher: ["automode_iteration"] }
    /// Auto-mode hit an error.
    AutomodeError { honours: [], matcher: ["error"] }
    /// A code review began.
    ReviewStart { honours: [], matcher: ["review_path", "review_scope", "review_instructions"] }
    /// A code review session ended.
    ReviewEnd { honours: [], matcher: ["review_path", "review_scope"] }
    /// A code review paused.
    ReviewPaused { honours: [], matcher: ["review_path", "review_scope"] }
    /// A code review failed.
    ReviewFailed { honours: [], matcher: ["review_path", "review_scope", "review_error"] }
    /// A code review completed.
    ReviewCompleted { honours: [], matcher: ["review_path", "review_scope"] }
    /// The context was compacted (Autohand's context lifecycle).
    ContextCompact { honours: [], matcher: [] }
    /// A context overflow was detected.
    ContextOverflow { honours: [], matcher: [] }
    /// Context usage crossed the warning threshold.
    ContextWarning { honours: [], matcher: [] }
    /// Context usage crossed the critical threshold.
    ContextCritical { honours: [], matcher: [] }
    /// Before a learn operation.
    PreLearn { honours: [], matcher: [] }
    /// After a learn operation.
    PostLearn { honours: [], matcher: [] }
    /// A goal objective was written.
    GoalWritten { honours: [], matcher: ["goal_source"] }
    /// Before a request goes to the model (Gemini CLI): hooks may rewrite the request,
    /// answer in the model's place, or block the turn.
    BeforeModel { honours: [BLOCK, LLM_REQUEST, LLM_RESPONSE], matcher: [] }
    /// After a model response (one chunk when streaming) arrived (Gemini CLI): hooks may
    /// replace it or block the turn.
    AfterModel { honours: [BLOCK, LLM_RESPONSE], matcher: [] }
    /// Before the model chooses among the tools (Gemini CLI): hooks may restrict the
    /// tools it may call.
    BeforeToolSelection { honours: [TOOL_CONFIG], matcher: [] }
    /// A workflow run starts.
    RunStart { honours: [BLOCK], matcher: [] }
    /// A workflow run completed.
    RunComplete { honours: [], matcher: [] }
    /// A workflow run failed.
    RunFailed { honours: [], matcher: [] }
    /// A workflow stage starts; hooks may block or skip it.
    StageStart { honours: [BLOCK, SKIP], matcher: ["node_id", "handler_type"] }
    /// A workflow stage completed.
    StageComplete { honours: [], matcher: ["node_id", "handler_type"] }
    /// A workflow stage failed.
    StageFailed { honours: [], matcher: ["node_id", "handler_type"] }
    /// A workflow stage is about to be retried.
    StageRetrying { honours: [], matcher: ["node_id", "handler_type"] }
    /// The workflow selected an edge; hooks may block or override it.
    EdgeSelected { honours: [BLOCK, OVERRIDE], matcher: ["edge_from", "edge_to", "edge_label", "node_id"] }
    /// Parallel branches start.
    ParallelStart { honours: [], matcher: [] }
    /// Parallel branches completed.
    ParallelComplete { honours: [], matcher: [] }
    /// The run's sandbox is ready.
    SandboxReady { honours: [BLOCK], matcher: [] }
    /// The run's sandbox is being cleaned up.
    SandboxCleanup { honours: [], matcher: [] }
    /// A checkpoint was saved.
    CheckpointSaved { honours: [], matcher: ["node_id"] }
    /// The agent finished a response (Cursor's `afterAgentResponse`): its text.
    AfterAgentResponse { honours: [], matcher: [] }
    /// The agent finished a thinking block (Cursor's `afterAgentThought`): its text.
    AfterAgentThought { honours: [], matcher: [] }
    /// Tab completion is about to read a file (Cursor's `beforeTabFileRead`); hooks may
    /// refuse it.
    BeforeTabFileRead { honours: [BLOCK, PERMISSION], matcher: ["file_path"] }
    /// Tab completion edited a file (Cursor's `afterTabFileEdit`).
    AfterTabFileEdit { honours: [], matcher: ["file_path"] }
    /// A new task starts (Cline's `TaskStart`); blocking cancels it; context is given to
    /// the model.
    TaskStart { honours: [BLOCK, CONTEXT], matcher: [] }
    /// An existing task is resumed (Cline's `TaskResume`); blocking cancels it; context is
    /// given to the model.
    TaskResume { honours: [BLOCK, CONTEXT], matcher: [] }
    /// A task was cancelled (Cline's `TaskCancel`).
    TaskCancel { honours: [], matcher: [] }
    /// A task was completed (Cline's `TaskComplete`).
    TaskComplete { honours: [], matcher: [] }
}

/// The catalog's rows, with each dialect's names and matcher fields from its profile.
static BUILTIN_INFOS: LazyLock<Vec<EventInfo>> = LazyLock::new(|| {
    let mut table = builtin_table();
    for dialect in Dialect::ALL {
        let profile = dialect.profile();
        // A dialect that keeps an event's canonical name (Gemini CLI's SessionStart) lists
        // it to say it has the event; that is no alias.
        for &(event, name) in profile.event_names {
            let row = &mut table[event as usize];
            if row.name() == name {
                continue;
            }
            *row = std::mem::replace(row, EventInfo::new("")).alias(dialect, name);
        }
        for &(event, fields) in profile.matcher_fields {
            let row = &mut table[event as usize];
            let info = std::mem::replace(row, EventInfo::new(""));
            *row = match fields {
                MatcherFields::Add(extra) => extra
                    .iter()
                    .fold(info, |info, f| info.dialect_matcher_field(dialect, *f)),
                MatcherFields::Only(only) => {
                    info.dialect_matcher_fields(dialect, only.iter().copied())
                }
            };
        }
    }
    table
});

impl BuiltinEvent {
    /// What the catalog knows of this event.
    pub fn info(self) -> &'static EventInfo {
        &BUILTIN_INFOS[self as usize]
    }

    /// The canonical name.
    pub fn name(self) -> &'static str {
        self.info().name()
    }

    /// Position in [`BuiltinEvent::ALL`]; stable for one build, for array-indexed tables.
    pub fn ordinal(self) -> usize {
        self as usize
    }
}

impl fmt::Display for BuiltinEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An event: a built-in one, or one a host registered.
///
/// Cheap to clone. Two events are equal when their canonical names are.
#[derive(Clone)]
pub enum Event {
    /// A built-in event.
    Builtin(BuiltinEvent),
    /// A host-registered event.
    Custom(Arc<EventInfo>),
}

impl Event {
    /// What the catalog knows of this event.
    pub fn info(&self) -> &EventInfo {
        match self {
            Event::Builtin(b) => b.info(),
            Event::Custom(info) => info,
        }
    }

    /// The canonical name.
    pub fn name(&self) -> &str {
        self.info().name()
    }

    /// The built-in event, if this is one.
    pub fn builtin(&self) -> Option<BuiltinEvent> {
        match self {
            Event::Builtin(b) => Some(*b),
            Event::Custom(_) => None,
        }
    }

    /// Whether hooks can block this event.
    pub fn can_block(&self) -> bool {
        self.info().can_block()
    }

    /// Whether this event honours every field of `fields`.
    pub fn honours(&self, fields: Fields) -> bool {
        self.info().honoured().contains(fields)
    }
}

impl From<BuiltinEvent> for Event {
    fn from(b: BuiltinEvent) -> Event {
        Event::Builtin(b)
    }
}

impl PartialEq for Event {
    fn eq(&self, other: &Event) -> bool {
        match (self, other) {
            (Event::Builtin(a), Event::Builtin(b)) => a == b,
            _ => self.name() == other.name(),
        }
    }
}

impl Eq for Event {}

impl Hash for Event {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.name().hash(state);
    }
}

impl fmt::Debug for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Event({})", self.name())
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl serde::Serialize for Event {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// Folds a name for tolerant lookup: ASCII lower case, separators dropped, so that
/// `pre_tool_use`, `pre-tool-use` and `PreToolUse` meet.
fn fold(name: &str) -> String {
    name.chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// Resolves event names (canonical, alias, or loosely spelled) to events, and holds the
/// events a host registered.
///
/// Lookup order: exact canonical name, exact alias (any dialect), then the name with case
/// and separators (`-`, `_`, `:`, spaces) ignored. A name that resolves nowhere is an
/// [`ErrorKind::UnknownEvent`] error carrying the closest known name as a hint.
#[derive(Clone, Debug, Default)]
pub struct EventCatalog {
    /// The names of the host events registered in this catalog. The built-in events'
    /// names are in tables shared by every catalog ([`BUILTIN_EXACT`],
    /// [`BUILTIN_FOLDED`]), so that making a catalog costs nothing.
    custom_names: Names,
    custom: Vec<Event>,
}

/// An event's name and its aliases.
fn names_of(info: &EventInfo) -> impl Iterator<Item = &str> {
    std::iter::once(info.name()).chain(info.aliases().iter().map(|a| a.name.as_str()))
}

/// Names to events: exact spellings, and spellings with case and separators folded.
#[derive(Clone, Debug, Default)]
struct Names {
    exact: HashMap<String, Event>,
    folded: HashMap<String, Event>,
}

impl Names {
    /// Adds `event`'s name and aliases; a name already taken keeps its event.
    fn insert(&mut self, event: &Event) {
        add_names(&mut self.exact, event, str::to_owned);
        add_names(&mut self.folded, event, fold);
    }
}

/// Adds `event` to `map` under `key` of each of its names; a key already taken keeps its
/// event.
fn add_names(map: &mut HashMap<String, Event>, event: &Event, key: fn(&str) -> String) {
    for name in names_of(event.info()) {
        map.entry(key(name)).or_insert_with(|| event.clone());
    }
}

/// The built-in events by each of their names, made on first use.
static BUILTIN_EXACT: LazyLock<HashMap<String, Event>> =
    LazyLock::new(|| builtin_names(str::to_owned));

/// The built-in events by each of their names folded, made on the first lookup that
/// the exact names do not answer (most lookups are exact: a process that reads only
/// canonical names never makes it).
static BUILTIN_FOLDED: LazyLock<HashMap<String, Event>> = LazyLock::new(|| builtin_names(fold));

/// The built-in events by `key` of each of their names; a key already taken keeps its
/// event (the first in [`BuiltinEvent::ALL`]).
fn builtin_names(key: fn(&str) -> String) -> HashMap<String, Event> {
    let mut map = HashMap::new();
    for &b in BuiltinEvent::ALL {
        add_names(&mut map, &Event::Builtin(b), key);
    }
    map
}

impl EventCatalog {
    /// A catalog of the built-in events.
    pub fn new() -> EventCatalog {
        EventCatalog::default()
    }

    /// The event `name` folds to, built-in or registered.
    fn get_folded(&self, name: &str) -> Option<&Event> {
        let folded = fold(name);
        BUILTIN_FOLDED
            .get(&folded)
            .or_else(|| self.custom_names.folded.get(&folded))
    }

    /// Registers a host event. Its name and aliases must not collide with any known name
    /// (compared loosely, as lookups are).
    pub fn register(&mut self, info: EventInfo) -> Result<Event, Error> {
        for name in names_of(&info) {
            if name.trim().is_empty() {
                return Err(Error::new(ErrorKind::InvalidEvent {
                    name: name.to_owned(),
                    reason: "an event name cannot be empty".to_owned(),
                }));
            }
            if let Some(existing) = self.get_folded(name) {
                return Err(Error::new(ErrorKind::InvalidEvent {
                    name: name.to_owned(),
                    reason: format!("the name is already taken by event `{existing}`"),
                }));
            }
        }
        let event = Event::Custom(Arc::new(info));
        self.custom_names.insert(&event);
        self.custom.push(event.clone());
        Ok(event)
    }

    /// The events hosts registered, in registration order.
    pub fn custom_events(&self) -> &[Event] {
        &self.custom
    }

    /// Looks an event up by any of its names; `None` if unknown.
    pub fn get(&self, name: &str) -> Option<Event> {
        BUILTIN_EXACT
            .get(name)
            .or_else(|| self.custom_names.exact.get(name))
            .or_else(|| self.get_folded(name))
            .cloned()
    }

    /// Resolves a name or fails with a did-you-mean hint (or, for another agent's event
    /// name, a hint naming that agent).
    pub fn resolve(&self, name: &str) -> Result<Event, Error> {
        self.get(name).ok_or_else(|| {
            Error::new(ErrorKind::UnknownEvent {
                name: name.to_owned(),
                suggestion: self.suggest(name),
                other_agent: other_agent(name),
            })
        })
    }

    /// The known name closest to `name`, if any is close enough to be a likely typo;
    /// never for the event name of an agent whose hooks no dialect reads (Cursor's
    /// `beforeShellExecution`), whose closest spelling here is a different event.
    pub fn suggest(&self, name: &str) -> Option<String> {
        if other_agent(name).is_some() {
            return None;
        }
        let known = BUILTIN_EXACT.keys().chain(self.custom_names.exact.keys());
        crate::error::did_you_mean(name, known.map(String::as_str))
    }
}

/// Event names of agents whose hooks no dialect reads yet, by agent (none now: every
/// agent listed before has its dialect). Names such agents share with the catalog resolve
/// as usual.
const OTHER_AGENTS: &[(&str, &[&str])] = &[];

/// The agent whose event `name` is (compared loosely, as lookups are), when it is one of
/// an agent whose hooks no dialect reads yet.
fn other_agent(name: &str) -> Option<&'static str> {
    let folded = fold(name);
    OTHER_AGENTS
        .iter()
        .find(|(_, names)| names.iter().any(|n| fold(n) == folded))
        .map(|(agent, _)| *agent)
}

//! The file formats of every dialect, as Rust types that derive JSON Schemas.
//!
//! These types are the one description of each format's structure: `cargo xtask codegen`
//! writes their schemas to `schemas/`, and the loaders check every file against the same
//! schemas (unknown keys with a did-you-mean, wrong types), so the published schema and
//! the loader cannot disagree about which keys exist. The loaders then read the values
//! themselves, with positions; these types are never deserialized.
//!
//! Fields are `Option`s because every key may be left out unless the loader says
//! otherwise; `null` is accepted where a key is optional and means the same as leaving it
//! out.

// The fields are read by the schema generator through the derive, never by code.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::sync::OnceLock;

use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use serde_json::Value;

/// A timeout in seconds (a number) or a duration string such as `"30s"` or `"1m"`.
#[derive(JsonSchema)]
#[serde(untagged)]
pub(crate) enum Seconds {
    /// Seconds.
    Number(f64),
    /// A duration: a number and a unit (`ms`, `s`, `m`, `h`), as in `"1m 30s"`.
    Duration(String),
}

/// A command: a shell script run with `sh -c`, or an argv vector run directly.
#[derive(JsonSchema)]
#[serde(untagged)]
pub(crate) enum CommandField {
    /// A shell script, run as `sh -c SCRIPT`.
    Script(String),
    /// An argv vector: the program and its arguments, never joined into a shell string.
    Argv(Vec<String>),
}

/// A sequential group: `true` for the event's one ordered group, or a group's name.
#[derive(JsonSchema)]
#[serde(untagged)]
pub(crate) enum SequentialField {
    /// `true`: the event's one ordered group (named after the event); `false`: no group.
    Ordered(bool),
    /// The group of this name.
    Group(String),
}

/// Narrows a hook to some tools, paths and commands.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct FilterSchema {
    /// Tool names the hook fires for (exact, case-sensitive).
    tool: Option<Vec<String>>,
    /// Path globs; a glob starting with `!` excludes.
    path: Option<Vec<String>>,
    /// A regular expression the tool input's `command` must contain a match of (Cursor's
    /// matcher over the command text on `beforeShellExecution`); a call without a command
    /// does not pass.
    command: Option<String>,
}

/// The hook types of the native format.
#[derive(JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum NativeType {
    /// Run `command` (a script) or `args` (an argv vector).
    Command,
    /// POST the event to `url`.
    Http,
    /// Call `tool` on MCP server `server`.
    McpTool,
    /// A prompt: inject text (`mode: inject`) or ask a model (`mode: evaluate`).
    Prompt,
    /// A model with tools evaluates `prompt`.
    Agent,
    /// Answer a fixed `decision`.
    Permission,
}

/// How a prompt hook uses its prompt.
#[derive(JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum PromptModeSchema {
    /// Inject the text as context for the model (echo-agent's meaning).
    Inject,
    /// Ask a model, which answers `{ok, reason}` (Claude Code's and Fabro's meaning).
    Evaluate,
    /// A model with tools evaluates the prompt.
    Agent,
}

/// A fixed permission decision.
#[derive(JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum DecisionSchema {
    /// Approve.
    Allow,
    /// Reject.
    Deny,
    /// Ask the user.
    Ask,
}

/// Fail open or fail closed.
#[derive(JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum OnFailureSchema {
    /// A failure (timeout, crash, bad output) lets the event proceed.
    Allow,
    /// A failure blocks the event, where the event can be blocked.
    Block,
}

/// One hook of the native format, as written inside a matcher group (no `event`, no
/// `matcher`).
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct NativeHandler {
    /// Merge identity: a hook with the same id in a higher layer replaces this one in place.
    id: Option<String>,
    /// Display name.
    name: Option<String>,
    /// What the hook is for.
    description: Option<String>,
    /// The hook type; inferred from the action key when left out.
    #[serde(rename = "type")]
    kind: Option<NativeType>,
    /// A shell script (`sh -c`), or an argv vector.
    command: Option<CommandField>,
    /// An argv vector run directly.
    args: Option<Vec<String>>,
    /// Working directory of a command.
    cwd: Option<String>,
    /// Extra environment variables of a command.
    env: Option<BTreeMap<String, String>>,
    /// Run a command in the sandbox.
    sandbox: Option<bool>,
    /// The URL an http hook POSTs to.
    url: Option<String>,
    /// Headers of an http hook.
    headers: Option<BTreeMap<String, String>>,
    /// Environment variables header values may use.
    allowed_env_vars: Option<Vec<String>>,
    /// The MCP server of an mcp_tool hook.
    server: Option<String>,
    /// The tool of an mcp_tool hook.
    tool: Option<String>,
    /// Arguments of an mcp_tool hook, templated from the event.
    input: Option<Value>,
    /// The prompt of a prompt or agent hook.
    prompt: Option<String>,
    /// How a prompt hook uses its prompt (default `evaluate`).
    mode: Option<PromptModeSchema>,
    /// The model a prompt or agent hook asks.
    model: Option<String>,
    /// The most tool-call rounds an agent hook (`mode: agent`) may use.
    max_tool_rounds: Option<u32>,
    /// The answer of a permission hook.
    decision: Option<DecisionSchema>,
    /// The reason given with a permission decision.
    reason: Option<String>,
    /// Timeout in seconds or as a duration (`"30s"`); default 10 s (prompts 30 s, agents 60 s), at most 300 s.
    timeout: Option<Seconds>,
    /// What a failure means: `allow` (fail open, default) or `block` (fail closed).
    on_failure: Option<OnFailureSchema>,
    /// Run in the background without delaying the event.
    #[serde(rename = "async")]
    is_async: Option<bool>,
    /// `true` puts the hook in its event's one ordered group, a name in the group of that
    /// name; the hooks of a group run one after another, each seeing the previous one's
    /// rewritten input.
    sequential: Option<SequentialField>,
    /// `false` disables the hook; with only an `id`, disables an inherited hook.
    enabled: Option<bool>,
    /// With an `id`: remove the inherited hook of that id.
    remove: Option<bool>,
    /// Tool, path and command filters.
    filter: Option<FilterSchema>,
    /// On `Stop` and `SubagentStop`: how many consecutive follow-ups this hook's block may
    /// make (Cursor's `loop_limit`), `null` for no limit; left out, the engine's stop-loop
    /// cap applies.
    loop_limit: Option<Option<u32>>,
    /// Claude Code's per-handler condition, as in `Bash(git *)`.
    #[serde(rename = "if")]
    condition: Option<String>,
}

/// One hook of the native flat shape: a handler plus its event and matcher.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct NativeHook {
    /// The event (any dialect's name for it); not needed by an `{id, enabled}` or
    /// `{id, remove}` directive.
    event: Option<String>,
    /// What the event's subject (a tool name, a source) must match: `*`, names like
    /// `Bash|Edit`, or a regular expression.
    matcher: Option<String>,
    /// The dialect the hook was written for (default `native`). `cursor`: the hook is
    /// given Cursor's JSON and its answer is read as Cursor's; its `event` is then Cursor's
    /// name for it (`beforeShellExecution`, `stop`), which says which JSON. `gemini`,
    /// `codex`: the hook is given that agent's JSON and tool names, and its answer is read
    /// by that agent's rules.
    dialect: Option<NativeHookDialect>,
    #[serde(flatten)]
    handler: NativeHandler,
}

/// The dialects a native hook can be written for.
#[derive(JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum NativeHookDialect {
    /// The engine's own JSON and answers.
    Native,
    /// Cursor's JSON and answers (a hook moved from a Cursor `hooks.json`).
    Cursor,
    /// Gemini CLI's JSON, tool names and answers (a hook moved from its `settings.json`).
    Gemini,
    /// Codex's JSON and answers, validated as strictly as Codex does (a hook moved from
    /// its `hooks.json` or `config.toml`).
    Codex,
}

/// A matcher and the hooks it guards (the nested shape).
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct NativeGroup {
    /// What the event's subject must match.
    matcher: Option<String>,
    /// The hooks.
    hooks: Vec<NativeHandler>,
}

/// The hooks of a native file: a flat list, or lists of matcher groups by event.
#[derive(JsonSchema)]
#[serde(untagged)]
pub(crate) enum NativeHooks {
    /// A flat list of hooks, each naming its event.
    Flat(Vec<NativeHook>),
    /// Matcher groups by event name.
    ByEvent(BTreeMap<String, Vec<NativeGroup>>),
}

/// A native hooks file (`hooks.yaml`, `hooks.toml`, `hooks.json`).
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "hooks native config")]
pub(crate) struct NativeConfig {
    /// Format version; only `1`.
    version: Option<u32>,
    /// Values for `{{ vars.NAME }}`; the host's values take precedence.
    vars: Option<BTreeMap<String, String>>,
    /// Turn every hook off (in the managed layer, managed hooks too).
    disable_all_hooks: Option<bool>,
    /// Managed layer only: run only the managed layer's hooks.
    managed_hooks_only: Option<bool>,
    /// URL patterns http hooks may use: `*`, or an http(s) URL where `*` stands for any run of characters, the port included (`http://localhost:*`).
    allowed_http_hook_urls: Option<Vec<String>>,
    /// MCP servers `mcp_tool` hooks call by name: a stdio `command` (with `args`, `env`,
    /// `cwd`) or a streamable HTTP `url` (with `headers`).
    mcp_servers: Option<BTreeMap<String, NativeMcpServer>>,
    /// OpenTelemetry export of hook runs. Honoured in the user's own file and in managed
    /// policy only; a project's or local file's is ignored, with a warning.
    telemetry: Option<NativeTelemetry>,
    /// The hooks.
    hooks: Option<NativeHooks>,
}

/// The `telemetry` section of a native file: where hook runs are exported (OTLP/HTTP
/// protobuf) and what they include. Managed policy wins over the `OTEL_*` variables, and
/// they over the user's file.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct NativeTelemetry {
    /// `false` turns export off; `true` turns it back on where a lower source turned it
    /// off (`OTEL_SDK_DISABLED=true` under managed `enabled: true`).
    enabled: Option<bool>,
    /// The collector's base URL (`http://` or `https://`); `/v1/traces` and `/v1/metrics`
    /// are appended.
    endpoint: Option<String>,
    /// Headers sent with each request to this endpoint (`{{ env.NAME }}` is filled in).
    headers: Option<BTreeMap<String, String>>,
    /// The resource's `service.name` (default `agentic-hooks`).
    service_name: Option<String>,
    /// More resource attributes.
    resource_attributes: Option<BTreeMap<String, String>>,
    /// Put each hook's command text on its span (`hooks.hook.command`), secrets shown as
    /// `[secret NAME]`. Default `false`: commands are not exported.
    export_commands: Option<bool>,
}

/// One MCP server of a native file: exactly one of `command` and `url`.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct NativeMcpServer {
    /// The program of a stdio server.
    command: Option<String>,
    /// Its arguments.
    args: Option<Vec<String>>,
    /// Extra environment variables of a stdio server.
    env: Option<BTreeMap<String, String>>,
    /// The working directory of a stdio server.
    cwd: Option<String>,
    /// The endpoint of a streamable HTTP server.
    url: Option<String>,
    /// Headers sent to an HTTP server.
    headers: Option<BTreeMap<String, String>>,
}

/// Claude Code's MCP transports.
#[derive(JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum ClaudeMcpType {
    /// A child process (the default with `command`).
    Stdio,
    /// Streamable HTTP.
    Http,
    /// Server-sent events (not reachable by hooks).
    Sse,
}

/// One server of Claude Code's `mcpServers` (`.mcp.json`, `~/.claude.json`); other keys
/// are allowed and ignored.
#[derive(JsonSchema)]
pub(crate) struct ClaudeMcpServer {
    /// The transport; `stdio` with `command`, else `http`.
    #[serde(rename = "type")]
    kind: Option<ClaudeMcpType>,
    /// The program of a stdio server.
    command: Option<String>,
    /// Its arguments.
    args: Option<Vec<String>>,
    /// Extra environment variables.
    env: Option<BTreeMap<String, String>>,
    /// The endpoint of an HTTP server.
    url: Option<String>,
    /// Headers sent to an HTTP server.
    headers: Option<BTreeMap<String, String>>,
}

/// The handler types of Claude Code.
#[derive(JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum ClaudeType {
    /// Run a shell command.
    Command,
    /// POST the event to a URL.
    Http,
    /// Call an MCP tool.
    McpTool,
    /// Ask a model.
    Prompt,
    /// A model with tools.
    Agent,
}

/// The shells a Claude Code command hook can name.
#[derive(JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum ClaudeShell {
    /// `bash -c`.
    Bash,
    /// PowerShell (`pwsh`, else `powershell`).
    Powershell,
}

/// One Claude Code hook handler.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct ClaudeHandler {
    /// The handler type.
    #[serde(rename = "type")]
    kind: ClaudeType,
    /// The shell command of a command hook; with `args`, the program to run without a shell.
    command: Option<String>,
    /// The arguments of a command hook: `command` is then run directly with them, no shell.
    args: Option<Vec<String>>,
    /// The shell a command hook's `command` runs in (ignored with `args`).
    shell: Option<ClaudeShell>,
    /// Run in the background, and wake the agent with stderr (or stdout) on exit 2.
    async_rewake: Option<bool>,
    /// A prompt hook's `ok: false` feeds the reason back and continues the turn (PreToolUse,
    /// PostToolUse, TeammateIdle) instead of ending it.
    continue_on_block: Option<bool>,
    /// Timeout in seconds (default 600, at most 300 here; UserPromptSubmit 30, MessageDisplay 10, SessionEnd 1.5; prompts 30, agents 60).
    timeout: Option<f64>,
    /// Run in the background.
    #[serde(rename = "async")]
    is_async: Option<bool>,
    /// A condition such as `Bash(git *)`.
    #[serde(rename = "if")]
    condition: Option<String>,
    /// Text shown while the hook runs.
    status_message: Option<String>,
    /// Run once per session.
    once: Option<bool>,
    /// The URL of an http hook.
    url: Option<String>,
    /// Headers of an http hook.
    headers: Option<BTreeMap<String, String>>,
    /// Environment variables header values may use.
    allowed_env_vars: Option<Vec<String>>,
    /// The MCP server of an mcp_tool hook.
    server: Option<String>,
    /// The tool of an mcp_tool hook.
    tool: Option<String>,
    /// Arguments of an mcp_tool hook.
    input: Option<Value>,
    /// The prompt of a prompt or agent hook.
    prompt: Option<String>,
    /// The model of a prompt or agent hook.
    model: Option<String>,
}

/// A Claude Code matcher group.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ClaudeGroup {
    /// `*`, names like `Bash|Edit`, or a regular expression.
    matcher: Option<String>,
    /// The handlers.
    hooks: Vec<ClaudeHandler>,
}

/// Claude Code `settings.json`, `settings.local.json` or managed settings (hooks and the
/// hook switches; other settings are allowed and ignored).
#[derive(JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(title = "Claude Code settings (hooks)")]
pub(crate) struct ClaudeSettings {
    /// Matcher groups by event name.
    hooks: Option<BTreeMap<String, Vec<ClaudeGroup>>>,
    /// Turn every hook off.
    disable_all_hooks: Option<bool>,
    /// Managed settings only: run only managed hooks.
    allow_managed_hooks_only: Option<bool>,
    /// URL patterns http hooks may use: `*`, or an http(s) URL where `*` stands for any run of characters, the port included (`http://localhost:*`).
    allowed_http_hook_urls: Option<Vec<String>>,
    /// MCP servers by name (`.mcp.json`, `~/.claude.json`).
    mcp_servers: Option<BTreeMap<String, ClaudeMcpServer>>,
}

/// The handler types of Gemini CLI.
#[derive(JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum GeminiType {
    /// Run a shell command (`bash -c`).
    Command,
}

/// One Gemini CLI hook (`packages/core/src/hooks/types.ts`, `CommandHookConfig`).
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct GeminiHandler {
    /// The handler type.
    #[serde(rename = "type")]
    kind: GeminiType,
    /// The shell command.
    command: String,
    /// A friendly name in logs and commands (`hooksConfig.disabled` names it).
    name: Option<String>,
    /// A brief explanation of the hook's purpose.
    description: Option<String>,
    /// Timeout in milliseconds (default 60000, at most 300000 here).
    timeout: Option<f64>,
    /// Environment variables of the command.
    env: Option<BTreeMap<String, String>>,
}

/// A Gemini CLI hook definition.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct GeminiGroup {
    /// A regular expression over the tool name (BeforeTool, AfterTool), else an exact
    /// string; `*` or empty matches everything.
    matcher: Option<String>,
    /// Run the hooks of the matching definitions one after another.
    sequential: Option<bool>,
    /// The hooks.
    hooks: Vec<GeminiHandler>,
}

/// Gemini CLI's `hooksConfig`.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct GeminiHooksConfig {
    /// Whether hooks run at all (default true).
    enabled: Option<bool>,
    /// Names (or commands) of hooks that do not run.
    disabled: Option<Vec<String>>,
    /// Whether hook notifications are shown.
    notifications: Option<bool>,
}

/// Gemini CLI `settings.json` (system, user, project) or an extension's
/// `hooks/hooks.json`: hooks and `hooksConfig`; the CLI's other settings are allowed and
/// ignored.
#[derive(JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(title = "Gemini CLI settings (hooks)")]
pub(crate) struct GeminiSettings {
    /// Hook definitions by event name (`BeforeTool`, `AfterAgent`, ...).
    hooks: Option<BTreeMap<String, Vec<GeminiGroup>>>,
    /// The hooks switches.
    hooks_config: Option<GeminiHooksConfig>,
}

/// The handler types of Codex (only `command` runs; the others are skipped).
#[derive(JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum CodexType {
    /// Run a shell command.
    Command,
    /// Parsed and skipped by Codex.
    Prompt,
    /// Parsed and skipped by Codex.
    Agent,
}

/// One Codex hook handler (`codex-rs/config/src/hook_config.rs`).
#[derive(JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct CodexHandler {
    /// The handler type.
    #[serde(rename = "type")]
    kind: CodexType,
    /// The shell command.
    command: Option<String>,
    /// The command on Windows (`command_windows` in TOML).
    #[serde(alias = "command_windows")]
    command_windows: Option<String>,
    /// Timeout in seconds (default 600, at most 300 here; SessionEnd 1, at most 3).
    timeout: Option<f64>,
    /// Parsed and skipped by Codex (async hooks are not supported).
    #[serde(rename = "async")]
    is_async: Option<bool>,
    /// Text shown while the hook runs.
    status_message: Option<String>,
    /// About how many tokens of `additionalContext` stay inline before they spill to a
    /// file (default 2500, 0 = never).
    additional_context_limit: Option<u64>,
    /// The prompt of a prompt or agent handler (skipped).
    prompt: Option<String>,
    /// The model of a prompt or agent handler (skipped).
    model: Option<String>,
}

/// A Codex matcher group.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct CodexGroup {
    /// `*`, empty or absent for all; `[A-Za-z0-9_|]` only: exact names; else a regex.
    matcher: Option<String>,
    /// The handlers.
    hooks: Vec<CodexHandler>,
}

/// A Codex `hooks.json` (`description` and `hooks` only), or the hooks of a
/// `config.toml` / `requirements.toml` (Codex's other settings are allowed and ignored).
#[derive(JsonSchema)]
#[schemars(title = "Codex hooks")]
pub(crate) struct CodexHooksFile {
    /// A description of the file.
    description: Option<String>,
    /// Matcher groups by event name (`PreToolUse`, ...), and in a TOML config `state`,
    /// `managed_dir` and `windows_managed_dir`.
    hooks: Option<BTreeMap<String, Value>>,
}

/// The hook types of echo-agent.
#[derive(JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum EchoType {
    /// Run a shell command; stdin gets the JSON context.
    Command,
    /// Inject a prompt message for the model.
    Prompt,
    /// Return a permission decision.
    Permission,
    /// POST the event to a URL.
    Http,
    /// Call an MCP server tool.
    McpTool,
}

/// One echo-agent hook.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct EchoHandler {
    /// The hook type.
    #[serde(rename = "type")]
    kind: EchoType,
    /// The shell command; `${SKILL_DIR}` is the skill's folder.
    command: Option<String>,
    /// Timeout in seconds (default 10, at most 300).
    timeout: Option<f64>,
    /// Run the command in the sandbox.
    sandbox: Option<bool>,
    /// The prompt to inject.
    prompt: Option<String>,
    /// The permission decision.
    decision: Option<DecisionSchema>,
    /// The reason given with the decision.
    reason: Option<String>,
    /// The URL of an http hook.
    url: Option<String>,
    /// Headers of an http hook.
    headers: Option<BTreeMap<String, String>>,
    /// The MCP server of an mcp_tool hook.
    server: Option<String>,
    /// The tool of an mcp_tool hook.
    tool: Option<String>,
    /// Arguments of an mcp_tool hook.
    input: Option<Value>,
}

/// An echo-agent matcher group.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct EchoGroup {
    /// `*`, names like `Edit|Write`, or a regular expression.
    matcher: Option<String>,
    /// The hooks.
    hooks: Vec<EchoHandler>,
}

/// `echo-agent.yaml` or a SKILL.md frontmatter (hooks; other keys are allowed).
#[derive(JsonSchema)]
#[schemars(title = "echo-agent hooks")]
pub(crate) struct EchoConfig {
    /// Matcher groups by event name.
    hooks: Option<BTreeMap<String, Vec<EchoGroup>>>,
}

/// Autohand's tool and path filter.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct AutohandFilter {
    /// Tool names the hook fires for.
    tool: Option<Vec<String>>,
    /// Path globs the hook fires for.
    path: Option<Vec<String>>,
}

/// One Autohand hook.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct AutohandHook {
    /// The event, kebab-case (`pre-tool`, `file-modified`, `automode:start`).
    event: String,
    /// The shell command.
    command: String,
    /// Shown in `/hooks`.
    description: Option<String>,
    /// Whether the hook is active (default true).
    enabled: Option<bool>,
    /// Timeout in milliseconds (default 5000).
    timeout: Option<f64>,
    /// Run without blocking.
    #[serde(rename = "async")]
    is_async: Option<bool>,
    /// A regular expression over the event's subject.
    matcher: Option<String>,
    /// Tool and path filters.
    filter: Option<AutohandFilter>,
}

/// Autohand's hooks section.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct AutohandHooks {
    /// `false` turns every hook of the file off.
    enabled: Option<bool>,
    /// The hooks.
    hooks: Option<Vec<AutohandHook>>,
}

/// Autohand `config.json` (the `hooks` section; other settings are allowed).
#[derive(JsonSchema)]
#[schemars(title = "Autohand config (hooks)")]
pub(crate) struct AutohandConfig {
    /// The hooks section.
    hooks: Option<AutohandHooks>,
}

/// A Fabro hook (`[[run.hooks]]`).
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct FabroHook {
    /// Merge identity: the same id in a higher layer replaces this hook in place.
    id: Option<String>,
    /// Display name.
    name: Option<String>,
    /// The lifecycle event (`run_start`, `stage_start`, `pre_tool_use`, ...).
    event: String,
    /// A shell script (`sh -c`).
    script: Option<String>,
    /// An argv vector, run directly.
    command: Option<Vec<String>>,
    /// POST the event to this URL (`https://` unless `tls = "off"`).
    url: Option<String>,
    /// Headers of a url hook.
    headers: Option<BTreeMap<String, String>>,
    /// Environment variables header values may use.
    allowed_env_vars: Option<Vec<String>>,
    /// TLS mode of a url hook: `verify` (default), `no_verify` or `off`.
    tls: Option<FabroTls>,
    /// Ask a model this prompt; it answers `{ok, reason}`.
    prompt: Option<String>,
    /// `"enabled"`: an agent with tools carries out `prompt`; it answers `{ok, reason}`.
    agent: Option<FabroAgentMarker>,
    /// The model of a prompt or agent hook.
    model: Option<String>,
    /// Tool-call rounds an agent hook may use.
    max_tool_rounds: Option<u32>,
    /// A regular expression over the node id, handler type, edge or tool name.
    matcher: Option<String>,
    /// Whether the run waits for the hook (default true for run_start, stage_start,
    /// edge_selected, pre_tool_use and sandbox_ready).
    blocking: Option<bool>,
    /// A duration such as `"30s"` or `"1m"` (default `"60s"`, `"30s"` for prompts).
    timeout: Option<String>,
    /// Run inside the sandbox (default) or on the host (`false`).
    sandbox: Option<bool>,
}

/// The marker of a Fabro agent hook.
#[derive(JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum FabroAgentMarker {
    /// The hook is an agent hook.
    Enabled,
}

/// Fabro's TLS modes for url hooks.
#[derive(JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum FabroTls {
    /// Verify certificates.
    Verify,
    /// Do not verify certificates.
    NoVerify,
    /// Allow plain `http://`.
    Off,
}

/// `[workflow]`.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct FabroWorkflow {
    /// The Graphviz workflow file, relative to the TOML file.
    graph: Option<String>,
}

/// `[run.model.controls]`.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct FabroModelControls {
    /// Reasoning effort (`low`, `medium`, `high`, `xhigh`, `max`).
    reasoning_effort: Option<String>,
    /// Speed (`fast`).
    speed: Option<String>,
}

/// `[run.model]`.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct FabroModel {
    /// Model slug or alias.
    name: Option<String>,
    /// Provider pin.
    provider: Option<String>,
    /// Fallback model references; `"..."` splices the inherited list.
    fallbacks: Option<Vec<String>>,
    /// Model controls.
    controls: Option<FabroModelControls>,
}

/// One prepare step.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct FabroStep {
    /// Bash source.
    script: Option<String>,
    /// An argv vector.
    command: Option<Vec<String>>,
    /// Extra environment variables.
    env: Option<BTreeMap<String, String>>,
}

/// `[run.prepare]`.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct FabroPrepare {
    /// The steps, in order.
    steps: Option<Vec<FabroStep>>,
}

/// A switch table (`[run.clone]`).
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct FabroEnabled {
    /// On or off.
    enabled: Option<bool>,
}

/// `[run.run_branch]` and `[run.meta_branch]`.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct FabroBranch {
    /// On or off.
    enabled: Option<bool>,
    /// Push to the remote.
    push: Option<bool>,
}

/// An inline Dockerfile or a path to one.
#[derive(JsonSchema)]
#[serde(untagged)]
pub(crate) enum FabroDockerfile {
    /// Inline Dockerfile text.
    Inline(String),
    /// A path to a Dockerfile.
    Path(FabroPath),
}

/// `{ path = "Dockerfile" }`.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct FabroPath {
    /// The path.
    path: String,
}

/// An environment's image.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct FabroImage {
    /// A Docker image.
    docker: Option<String>,
    /// An inline Dockerfile or `{ path = ".." }`.
    dockerfile: Option<FabroDockerfile>,
}

/// A resource hint: a number or a size string.
#[derive(JsonSchema)]
#[serde(untagged)]
pub(crate) enum FabroQuantity {
    /// A count.
    Number(f64),
    /// A size such as `"8GB"`.
    Text(String),
}

/// An environment's resource hints.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct FabroResources {
    /// CPUs.
    cpu: Option<FabroQuantity>,
    /// Memory, as `"8GB"`.
    memory: Option<FabroQuantity>,
    /// Disk, as `"20GB"`.
    disk: Option<FabroQuantity>,
}

/// Network modes.
#[derive(JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum FabroNetworkMode {
    /// Any network.
    AllowAll,
    /// No network.
    Block,
    /// Only `allow`'s CIDRs.
    CidrAllowList,
}

/// An environment's network.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct FabroNetwork {
    /// The mode.
    mode: Option<FabroNetworkMode>,
    /// CIDRs for `cidr_allow_list`.
    allow: Option<Vec<String>>,
}

/// An environment's lifecycle.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct FabroLifecycle {
    /// Keep the sandbox after the run.
    preserve: Option<bool>,
    /// Stop the sandbox at a terminal state.
    stop_on_terminal: Option<bool>,
    /// Daytona auto-stop duration, as `"30m"`.
    auto_stop: Option<String>,
}

/// Providers of an environment.
#[derive(JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum FabroProvider {
    /// Run in the working directory.
    Local,
    /// A Docker container.
    Docker,
    /// A Daytona sandbox.
    Daytona,
}

/// `[environments.<slug>]`.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct FabroEnvironment {
    /// `local`, `docker` or `daytona`.
    provider: Option<FabroProvider>,
    /// The image.
    image: Option<FabroImage>,
    /// Resource hints.
    resources: Option<FabroResources>,
    /// Networking.
    network: Option<FabroNetwork>,
    /// Lifecycle.
    lifecycle: Option<FabroLifecycle>,
    /// Provider labels.
    labels: Option<BTreeMap<String, String>>,
    /// Environment variables.
    env: Option<BTreeMap<String, String>>,
}

/// `[run.environment]`: the selected environment and sparse overrides of it.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct FabroRunEnvironment {
    /// The environment slug (default `default`).
    id: Option<String>,
    /// Provider override.
    provider: Option<FabroProvider>,
    /// Image override.
    image: Option<FabroImage>,
    /// Resource overrides.
    resources: Option<FabroResources>,
    /// Network override.
    network: Option<FabroNetwork>,
    /// Lifecycle override.
    lifecycle: Option<FabroLifecycle>,
    /// Label overrides.
    labels: Option<BTreeMap<String, String>>,
    /// Environment variable overrides.
    env: Option<BTreeMap<String, String>>,
}

/// `[run.integrations.github]`.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct FabroGithub {
    /// GitHub App permissions and access levels.
    permissions: Option<BTreeMap<String, String>>,
}

/// `[run.integrations]`.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct FabroIntegrations {
    /// GitHub.
    github: Option<FabroGithub>,
}

/// `[run.notifications.<name>.slack]`.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct FabroSlack {
    /// The channel.
    channel: Option<String>,
}

/// `[run.notifications.<name>]`.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct FabroNotification {
    /// Enables the route (default false).
    enabled: Option<bool>,
    /// The provider (`slack`).
    provider: Option<String>,
    /// Fabro event names (`run.started`, ...).
    events: Option<Vec<String>>,
    /// Slack settings.
    slack: Option<FabroSlack>,
}

/// `[run.checkpoint]`.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct FabroCheckpoint {
    /// Globs excluded from checkpoint commits.
    exclude_globs: Option<Vec<String>>,
    /// Bypass Git commit hooks.
    skip_git_hooks: Option<bool>,
    /// Commit timeout, as `"30s"`.
    commit_timeout: Option<String>,
}

/// `[run.artifacts]`.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct FabroArtifacts {
    /// Workspace-relative globs of files to collect.
    include: Option<Vec<String>>,
}

/// MCP transports.
#[derive(JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum FabroMcpType {
    /// A child process.
    Stdio,
    /// Streamable HTTP.
    Http,
    /// A process inside the sandbox.
    Sandbox,
}

/// `[run.agent.mcps.<name>]`.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct FabroMcp {
    /// A server-managed definition to use.
    id: Option<String>,
    /// `false` leaves the server off.
    enabled: Option<bool>,
    /// The transport.
    #[serde(rename = "type")]
    kind: Option<FabroMcpType>,
    /// A shell startup command.
    script: Option<String>,
    /// An argv startup command.
    command: Option<Vec<String>>,
    /// The port inside the sandbox.
    port: Option<u32>,
    /// The endpoint of an http server.
    url: Option<String>,
    /// Extra environment variables.
    env: Option<BTreeMap<String, String>>,
    /// HTTP headers.
    headers: Option<BTreeMap<String, String>>,
    /// Startup and handshake timeout, as `"10s"`.
    startup_timeout: Option<String>,
    /// Tool-call timeout, as `"60s"`.
    tool_timeout: Option<String>,
}

/// `[run.agent]`.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct FabroAgent {
    /// Expose Fabro's run-management tools to agents.
    fabro_tools: Option<bool>,
    /// MCP servers for agent stages.
    mcps: Option<BTreeMap<String, FabroMcp>>,
}

/// Merge strategies.
#[derive(JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum FabroMergeStrategy {
    /// Squash.
    Squash,
    /// Merge commit.
    Merge,
    /// Rebase.
    Rebase,
}

/// `[run.pull_request]`.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct FabroPullRequest {
    /// Open a PR after a successful run.
    enabled: Option<bool>,
    /// As a draft.
    draft: Option<bool>,
    /// Enable auto-merge.
    auto_merge: Option<bool>,
    /// The merge method.
    merge_strategy: Option<FabroMergeStrategy>,
}

/// `[run]`.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct FabroRun {
    /// What the workflow should accomplish.
    goal: Option<String>,
    /// The working directory.
    working_dir: Option<String>,
    /// The model.
    model: Option<FabroModel>,
    /// Steps before the workflow starts.
    prepare: Option<FabroPrepare>,
    /// Cloning of the run's origin.
    clone: Option<FabroEnabled>,
    /// The `fabro/run/<id>` branch.
    run_branch: Option<FabroBranch>,
    /// The `fabro/meta/<id>` branch.
    meta_branch: Option<FabroBranch>,
    /// The selected environment.
    environment: Option<FabroRunEnvironment>,
    /// Integrations.
    integrations: Option<FabroIntegrations>,
    /// Notification routes by name.
    notifications: Option<BTreeMap<String, FabroNotification>>,
    /// Checkpoint commits.
    checkpoint: Option<FabroCheckpoint>,
    /// Workflow inputs.
    inputs: Option<BTreeMap<String, Value>>,
    /// Artifact collection.
    artifacts: Option<FabroArtifacts>,
    /// Agent behaviour.
    agent: Option<FabroAgent>,
    /// Pull requests.
    pull_request: Option<FabroPullRequest>,
    /// Lifecycle hooks.
    hooks: Option<Vec<FabroHook>>,
}

/// `[llm]` (settings).
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct FabroLlm {
    /// Provider definitions by id.
    providers: Option<BTreeMap<String, Value>>,
}

/// A Fabro run config, `.fabro/project.toml` or `~/.fabro/settings.toml`.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "Fabro run configuration")]
pub(crate) struct FabroConfig {
    /// Schema version; only `1`.
    #[serde(rename = "_version")]
    version: Option<u32>,
    /// Project settings.
    project: Option<BTreeMap<String, Value>>,
    /// The workflow graph.
    workflow: Option<FabroWorkflow>,
    /// Run settings and hooks.
    run: Option<FabroRun>,
    /// CLI settings.
    cli: Option<BTreeMap<String, Value>>,
    /// Server settings.
    server: Option<BTreeMap<String, Value>>,
    /// Named environments.
    environments: Option<BTreeMap<String, FabroEnvironment>>,
    /// LLM provider settings.
    llm: Option<FabroLlm>,
}

/// The hook types of a Cursor entry.
#[derive(JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum CursorType {
    /// Run `command`; stdin gets Cursor's JSON for the event.
    Command,
    /// Ask a model `prompt`; it answers `{ok, reason}`.
    Prompt,
}

/// One Cursor hook entry.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct CursorHook {
    /// A shell command, or the path of a script.
    command: Option<String>,
    /// `command` (default) or `prompt`.
    #[serde(rename = "type")]
    kind: Option<CursorType>,
    /// The question a prompt hook asks (`$ARGUMENTS` is the event's JSON).
    prompt: Option<String>,
    /// The model of a prompt hook.
    model: Option<String>,
    /// Timeout in seconds.
    timeout: Option<f64>,
    /// Tool events: Cursor's tool types (`Shell`, `Read`, `Write`, `Grep`, `Delete`, `MCP`,
    /// `Task`); `beforeShellExecution`: a regular expression over the command text;
    /// `subagentStart` / `subagentStop`: the subagent type.
    matcher: Option<String>,
    /// How many automatic follow-ups `stop` and `subagentStop` may make (default 5; `null`
    /// for no limit).
    loop_limit: Option<Option<u32>>,
    /// A crash, a timeout or an answer that is not JSON blocks the action.
    #[serde(rename = "failClosed")]
    fail_closed: Option<bool>,
}

/// Cursor `hooks.json`.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "Cursor hooks.json")]
pub(crate) struct CursorConfig {
    /// A JSON Schema for editors.
    #[serde(rename = "$schema")]
    schema: Option<String>,
    /// The format's version: 1.
    version: Option<u32>,
    /// Hook entries by Cursor event name (`beforeShellExecution`, `afterFileEdit`, `stop`,
    /// ...).
    hooks: Option<BTreeMap<String, Vec<CursorHook>>>,
}

/// The schema of each dialect's file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum FileSchema {
    Native,
    Claude,
    Echo,
    Fabro,
    Autohand,
    Gemini,
    Codex,
    Cursor,
}

fn settings() -> SchemaSettings {
    SchemaSettings::draft2020_12()
}

fn generate<T: JsonSchema>() -> Value {
    settings()
        .into_generator()
        .into_root_schema_for::<T>()
        .to_value()
}

impl FileSchema {
    /// The generated schema, made on first use. Each dialect's is made on its own, so
    /// loading a file costs its own dialect's schema, not every dialect's: generating them
    /// all took half of a `hooks bridge` call's start-up.
    pub(crate) fn schema(self) -> &'static Value {
        static SCHEMAS: [OnceLock<Value>; 8] = [const { OnceLock::new() }; 8];
        SCHEMAS[self as usize].get_or_init(|| match self {
            FileSchema::Native => generate::<NativeConfig>(),
            FileSchema::Claude => generate::<ClaudeSettings>(),
            FileSchema::Echo => generate::<EchoConfig>(),
            FileSchema::Fabro => generate::<FabroConfig>(),
            FileSchema::Autohand => generate::<AutohandConfig>(),
            FileSchema::Gemini => generate::<GeminiSettings>(),
            FileSchema::Codex => generate::<CodexHooksFile>(),
            FileSchema::Cursor => generate::<CursorConfig>(),
        })
    }
}

/// One generated schema file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchemaFile {
    /// The file name (`native.schema.json`).
    pub name: &'static str,
    /// The file's text: pretty JSON with sorted keys and a "generated, do not edit" note.
    pub text: String,
}

/// The JSON Schemas of every dialect's file format, as `cargo xtask codegen` writes them to
/// `schemas/`: `native`, `claude`, `echo`, `fabro`, `autohand`, `gemini`, `codex` and
/// `cursor`, each
/// `<name>.schema.json`. Cline has no config file (its hooks are executables), so no
/// schema.
pub fn schema_files() -> Vec<SchemaFile> {
    [
        (FileSchema::Native, "native.schema.json"),
        (FileSchema::Claude, "claude.schema.json"),
        (FileSchema::Echo, "echo.schema.json"),
        (FileSchema::Fabro, "fabro.schema.json"),
        (FileSchema::Autohand, "autohand.schema.json"),
        (FileSchema::Gemini, "gemini.schema.json"),
        (FileSchema::Codex, "codex.schema.json"),
        (FileSchema::Cursor, "cursor.schema.json"),
    ]
    .into_iter()
    .map(|(schema, name)| {
        let mut value = schema.schema().clone();
        if let Value::Object(map) = &mut value {
            map.insert(
                "$comment".to_owned(),
                Value::String(
                    "Generated by `cargo xtask codegen` from crates/hooks-config/src/schema.rs; do not edit."
                        .to_owned(),
                ),
            );
        }
        let sorted = sort_keys(value);
        let mut text = serde_json::to_string_pretty(&sorted).unwrap_or_default();
        text.push('\n');
        SchemaFile { name, text }
    })
    .collect()
}

/// A copy of `value` with every object's keys in sorted order, so generated files are
/// stable whatever the map type's order.
fn sort_keys(value: Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<(String, Value)> = map.into_iter().collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            Value::Object(
                entries
                    .into_iter()
                    .map(|(k, v)| (k, sort_keys(v)))
                    .collect(),
            )
        }
        Value::Array(items) => Value::Array(items.into_iter().map(sort_keys).collect()),
        other => other,
    }
}

//! What is true of Claude Code settings files only: a file with an event or a handler type
//! the engine does not know loads the rest (the unknown part is skipped with a warning, as
//! Claude Code skips it), unknown handler keys are ignored with a warning, and the handler
//! types each event runs.

pub(crate) mod convert;

use std::path::{Path, PathBuf};

use hooks_core::{BuiltinEvent, Dialect, Event};

use crate::check;
use crate::dialects::files::{Claim, DialectFiles, EditRules, Shape, SwitchNames, Writing};
use crate::dialects::handler;
use crate::error::{Diagnostic, DiagnosticKind, Severity};
use crate::file::ConfigFile;
use crate::parse::Format;
use crate::reader::{ReadRules, Reader, field};
use crate::schema::FileSchema;
use crate::tree::{Entry, Node, Value};
use crate::write::WriteRules;

/// Claude Code's row.
pub(crate) static FILES: DialectFiles = DialectFiles {
    dialect: Dialect::Claude,
    formats: &[Format::Json],
    from_path: |path| {
        let name = path.file_name()?.to_str()?;
        let parent = path
            .parent()
            .and_then(Path::file_name)
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        match name {
            "settings.json" | "settings.local.json" | "managed-settings.json" => Some(Claim::Name),
            // Claude Code's MCP server files: `.mcp.json` (a project's), `~/.claude.json`,
            // and the managed `managed-mcp.json`.
            ".mcp.json" | ".claude.json" | "managed-mcp.json" => Some(Claim::Name),
            // A Claude Code plugin's hooks file, `<plugin>/hooks/hooks.json`.
            "hooks.json" if parent == "hooks" => Some(Claim::Name),
            _ => None,
        }
    },
    shapes: &[
        Shape {
            rank: 40,
            fits: |_, root| {
                [
                    "disableAllHooks",
                    "allowManagedHooksOnly",
                    "allowedHttpHookUrls",
                    "mcpServers",
                ]
                .iter()
                .any(|k| root.get(k).is_some())
                    && root.get("hooks").is_none()
            },
        },
        Shape {
            rank: 90,
            fits: |format, root| {
                format == Format::Json && super::native::hooks_by_event(root).is_some()
            },
        },
    ],
    // A Cursor plugin's `hooks/hooks.json` has Cursor's shape, a Claude Code plugin's
    // Claude's.
    shape_over_name: |root| super::cursor::has_cursor_shape(root).then_some(Dialect::Cursor),
    layer_from_path: crate::dialects::files::no_layer,
    unparsed: None,
    read,
    path_var: |path| {
        plugin_root(path).map(|root| ("${CLAUDE_PLUGIN_ROOT}", root.to_string_lossy().into_owned()))
    },
    reading: ReadRules {
        ignores_inapplicable_keys: true,
        exec_form: true,
        mcp_env_expansion: true,
        ..ReadRules::PLAIN
    },
    writing: Writing::File(convert::write),
    write_rules: WriteRules::PLAIN,
    switch_names: SwitchNames {
        disable_all_hooks: "disableAllHooks",
        managed_hooks_only: "allowManagedHooksOnly",
        allowed_http_hook_urls: "allowedHttpHookUrls",
    },
    run_config: None,
    disabled_name: None,
    editing: EditRules {
        project_settings: Some(".claude/settings.json"),
        settings_files: Some(
            "`~/.claude/settings.json`, `.claude/settings.json`, `.claude/settings.local.json`",
        ),
        asks_description: true,
        ..EditRules::IN_PLACE
    },
};

/// Reads a Claude Code file: what the engine does not run is skipped with a warning (as
/// Claude Code skips it), the rest checked against Claude Code's schema (unknown keys
/// ignored with a warning) and read with its switches and MCP servers.
fn read(reader: &mut Reader<'_>, root: &Node, file: &mut ConfigFile) {
    read_shaped(reader, root, file, &CLAUDE);
}

/// What differs between the agents whose files have Claude Code's shape (Claude Code,
/// Qwen Code, Factory Droid): the handler types each runs, and the keys of its `hooks`
/// table that are settings, not events.
#[derive(Debug)]
pub(crate) struct ClaudeShaped {
    /// The agent's name in messages (`Claude Code runs only ...`).
    pub(crate) agent: &'static str,
    /// Every handler type it runs.
    pub(crate) types: &'static [&'static str],
    /// The handler types it runs on an event.
    pub(crate) types_on: fn(&Event) -> &'static [&'static str],
    /// The keys of its `hooks` table that are settings, skipped as events.
    pub(crate) settings_keys: &'static [&'static str],
}

/// Claude Code's own.
const CLAUDE: ClaudeShaped = ClaudeShaped {
    agent: "Claude Code",
    types: &TYPES,
    types_on,
    settings_keys: &[],
};

/// Reads a file of Claude Code's shape as `how` says the agent reads it: what the engine
/// does not run is skipped with a warning, the rest checked against Claude Code's schema
/// (unknown keys ignored with a warning) and read with its switches and MCP servers.
pub(crate) fn read_shaped(
    reader: &mut Reader<'_>,
    root: &Node,
    file: &mut ConfigFile,
    how: &ClaudeShaped,
) {
    if !check::top_table(reader, root) {
        return;
    }
    let root = prune(reader, root, how);
    check::file(reader, FileSchema::Claude, &root, handler::rename_hint);
    soften_unknown_keys(&mut reader.structural);
    super::native::load_nested_file(reader, &root, file, true);
}

/// The plugin a Claude Code plugin hooks file belongs to: for `<plugin>/hooks/hooks.json`,
/// the `<plugin>` folder, made absolute (what `${CLAUDE_PLUGIN_ROOT}` names; a Gemini CLI
/// extension and a Codex plugin keep their hooks file at the same place).
pub fn plugin_root(path: &Path) -> Option<PathBuf> {
    let path = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let hooks = path.parent()?;
    let is_plugin_file = path.file_name().is_some_and(|n| n == "hooks.json")
        && hooks.file_name().is_some_and(|n| n == "hooks");
    is_plugin_file.then(|| hooks.parent().map(Path::to_path_buf))?
}

/// Claude Code's handler types.
pub(crate) const TYPES: [&str; 5] = ["command", "http", "mcp_tool", "prompt", "agent"];

/// The handler types Claude Code runs on `event`, where the reference limits them:
/// SessionStart and Setup run command and mcp_tool hooks; the events of the second list
/// run command, http and mcp_tool hooks; every other event runs all five.
fn types_on(event: &Event) -> &'static [&'static str] {
    use BuiltinEvent as E;
    const COMMAND_MCP: &[&str] = &["command", "mcp_tool"];
    const NO_MODEL: &[&str] = &["command", "http", "mcp_tool"];
    const NO_MODEL_EVENTS: [BuiltinEvent; 16] = [
        E::ConfigChange,
        E::CwdChanged,
        E::DirectoryAdded,
        E::Elicitation,
        E::ElicitationResult,
        E::FileChanged,
        E::InstructionsLoaded,
        E::MessageDisplay,
        E::Notification,
        E::PostCompact,
        E::PreCompact,
        E::SessionEnd,
        E::StopFailure,
        E::SubagentStart,
        E::WorktreeCreate,
        E::WorktreeRemove,
    ];
    match event.builtin() {
        Some(E::SessionStart | E::Setup) => COMMAND_MCP,
        Some(b) if NO_MODEL_EVENTS.contains(&b) => NO_MODEL,
        _ => &TYPES,
    }
}

/// `root` without the events and handlers the engine does not run: an unknown event, a
/// handler of an unknown type, and a handler of a type its event does not run are each
/// dropped with a warning at their line and column, and the rest of the file loads.
fn prune(reader: &mut Reader<'_>, root: &Node, how: &ClaudeShaped) -> Node {
    let mut root = root.clone();
    let Value::Map(top) = &mut root.value else {
        return root;
    };
    let Some(hooks) = top.iter_mut().find(|e| e.key == "hooks") else {
        return root;
    };
    let Value::Map(events) = &mut hooks.value.value else {
        return root;
    };
    events.retain_mut(|entry| {
        if how.settings_keys.contains(&entry.key.as_str()) {
            return false;
        }
        let Some(event) = known_event(reader, entry) else {
            return false;
        };
        if let Value::Seq(groups) = &mut entry.value.value {
            for group in groups {
                prune_group(reader, &event, group, how);
            }
        }
        true
    });
    root
}

/// The event `entry` is under, or `None` (reported) when the engine does not know it.
fn known_event(reader: &mut Reader<'_>, entry: &Entry) -> Option<Event> {
    match reader.lookup_event(&entry.key) {
        Ok(event) => Some(event),
        Err(hint) => {
            reader.warn(
                DiagnosticKind::UnknownEvent,
                entry.key_pos,
                format!(
                    "unknown event `{}`; its hooks are skipped, and the rest of the file loads",
                    entry.key
                ),
                hint,
            );
            None
        }
    }
}

fn prune_group(reader: &mut Reader<'_>, event: &Event, group: &mut Node, how: &ClaudeShaped) {
    let Value::Map(entries) = &mut group.value else {
        return;
    };
    let Some(handlers) = entries.iter_mut().find(|e| e.key == "hooks") else {
        return;
    };
    let Value::Seq(handlers) = &mut handlers.value.value else {
        return;
    };
    handlers.retain(|handler| runs(reader, event, handler, how));
}

/// Whether `handler` is of a type the engine runs on `event` (reported when it is not).
/// A handler without a string `type` stays, for the schema check to report.
fn runs(reader: &mut Reader<'_>, event: &Event, handler: &Node, how: &ClaudeShaped) -> bool {
    let Some(ty_node) = field(handler, "type") else {
        return true;
    };
    let Some(ty) = ty_node.as_str() else {
        return true;
    };
    if !how.types.contains(&ty) && TYPES.contains(&ty) {
        reader.warn(
            DiagnosticKind::InvalidValue,
            ty_node.pos,
            format!(
                "{} runs only {} hooks; this {ty} hook is skipped",
                how.agent,
                words(how.types)
            ),
            None,
        );
        return false;
    }
    if !how.types.contains(&ty) {
        reader.warn(
            DiagnosticKind::InvalidValue,
            ty_node.pos,
            format!("unknown hook type `{ty}`; this hook is skipped"),
            hooks_core::did_you_mean(ty, how.types.iter().copied())
                .map(|s| format!("did you mean `{s}`?")),
        );
        return false;
    }
    let allowed = (how.types_on)(event);
    if !allowed.contains(&ty) {
        reader.warn(
            DiagnosticKind::InvalidValue,
            ty_node.pos,
            format!(
                "{} runs only {} hooks on {}; this {ty} hook is skipped",
                how.agent,
                words(allowed),
                event.name()
            ),
            None,
        );
        return false;
    }
    true
}

/// Unknown keys are ignored, as Claude Code ignores them: each schema error about one
/// becomes a warning saying so.
pub(crate) fn soften_unknown_keys(diags: &mut [Diagnostic]) {
    for d in diags {
        if d.kind == DiagnosticKind::UnknownKey && d.is_error() {
            d.severity = Severity::Warning;
            d.message.push_str("; it is ignored");
        }
    }
}

/// `a`, `a and b`, `a, b and c`.
fn words(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

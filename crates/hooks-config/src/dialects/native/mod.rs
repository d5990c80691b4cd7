//! The native format (flat or nested by event, in YAML, TOML or JSON) and the nested
//! files of Claude Code (`settings.json`) and echo-agent (`echo-agent.yaml`, SKILL.md).

mod convert;
mod telemetry;

use std::path::Path;

use hooks_core::{Dialect, Event, Layer, Matcher};

use crate::check;
use crate::dialects::files::{DialectFiles, EditRules, Shape, SwitchNames, Writing};
use crate::dialects::handler::{self, handler, is_directive};
use crate::error::DiagnosticKind;
use crate::file::{ConfigFile, Item};
use crate::mcp;
use crate::parse::Format;
use crate::reader::{ReadRules, Reader, field};
use crate::schema::FileSchema;
use crate::tree::{Node, Value};
use crate::write::WriteRules;

/// The native format's row.
pub(crate) static FILES: DialectFiles = DialectFiles {
    dialect: Dialect::Native,
    formats: &[Format::Yaml, Format::Toml, Format::Json],
    from_path: |_| None,
    shapes: &[
        Shape {
            rank: 50,
            fits: |_, root| {
                field(root, "hooks").is_none()
                    && [
                        "version",
                        "vars",
                        "disable_all_hooks",
                        "managed_hooks_only",
                        "allowed_http_hook_urls",
                        "mcp_servers",
                        "telemetry",
                    ]
                    .iter()
                    .any(|k| root.get(k).is_some())
            },
        },
        Shape {
            rank: 80,
            fits: |format, root| {
                hooks_by_event(root)
                    .is_some_and(|events| format == Format::Toml || native_keys_on_handlers(events))
            },
        },
        Shape {
            rank: 110,
            fits: |_, root| field(root, "hooks").and_then(Node::as_seq).is_some(),
        },
    ],
    shape_over_name: crate::dialects::files::no_other_shape,
    layer_from_path: crate::dialects::files::no_layer,
    unparsed: None,
    read,
    path_var: crate::dialects::files::no_path_var,
    reading: ReadRules {
        native_handlers: true,
        prompt_mode: None,
        holds_other_dialects: true,
        ..ReadRules::PLAIN
    },
    writing: Writing::File(convert::write),
    write_rules: WriteRules {
        loop_limit: true,
        holds_other_dialects: true,
        ..WriteRules::PLAIN
    },
    switch_names: SwitchNames::NATIVE,
    run_config: None,
    disabled_name: None,
    editing: EditRules {
        asks_description: true,
        ..EditRules::IN_PLACE
    },
};

/// Keys only the native format has on a hook.
const NATIVE_ONLY: [&str; 10] = [
    "id",
    "on_failure",
    "sequential",
    "enabled",
    "remove",
    "filter",
    "args",
    "allowed_env_vars",
    "mode",
    "cwd",
];

/// The entries of a `hooks` table keyed by event, if the file has one.
pub(crate) fn hooks_by_event(root: &Node) -> Option<&[crate::tree::Entry]> {
    field(root, "hooks").and_then(Node::as_map)
}

/// Whether a handler nested under `events` uses a key only the native format has.
fn native_keys_on_handlers(events: &[crate::tree::Entry]) -> bool {
    events
        .iter()
        .filter_map(|e| e.value.as_seq())
        .flatten()
        .filter_map(|group| field(group, "hooks").and_then(Node::as_seq))
        .flatten()
        .any(|h| NATIVE_ONLY.iter().any(|k| h.get(k).is_some()))
}

/// Reads a native file: checked against the native schema, then [`load`].
fn read(reader: &mut Reader<'_>, root: &Node, file: &mut ConfigFile) {
    if !check::top_table(reader, root) {
        return;
    }
    check::file(reader, FileSchema::Native, root, handler::rename_hint);
    load(reader, root, file);
}

/// A native file: `version`, `vars`, the switches and `hooks` in either shape.
pub(crate) fn load(reader: &mut Reader<'_>, root: &Node, file: &mut ConfigFile) {
    if let Some(v) = field(root, "version")
        && v.value != Value::Int(1)
    {
        reader.error(
            DiagnosticKind::InvalidValue,
            v.pos,
            "unsupported `version`; only 1 is known",
            Some("write `version: 1` or leave it out".to_owned()),
        );
    }
    if let Some(vars) = field(root, "vars").and_then(Node::as_map) {
        for e in vars {
            if let Some(v) = e.value.as_str() {
                file.settings.vars.insert(e.key.clone(), v.to_owned());
            }
        }
        reader.file_vars = file.settings.vars.clone();
    }
    file.settings.disable_all_hooks = reader.boolean(field(root, "disable_all_hooks"));
    file.settings.managed_hooks_only = reader.boolean(field(root, "managed_hooks_only"));
    file.settings.allowed_http_hook_urls =
        reader.url_patterns(field(root, "allowed_http_hook_urls"));
    file.settings.mcp_servers =
        mcp::read::servers(reader, field(root, "mcp_servers"), reader.opts.layer, None);
    file.settings.telemetry = telemetry::read(reader, root);
    match field(root, "hooks").map(|h| &h.value) {
        Some(Value::Seq(hooks)) => {
            for hook in hooks {
                if hook.as_map().is_none() {
                    continue;
                }
                if field(hook, "event").is_none() && !is_directive(hook) {
                    reader.error(
                        DiagnosticKind::MissingKey,
                        hook.pos,
                        "the hook has no `event`",
                        Some("name the event it runs on, as in `event: PreToolUse`".to_owned()),
                    );
                }
                // A hook kept in Cursor's dialect names its event as Cursor does
                // (`beforeShellExecution`): the name says which JSON it is given.
                let dialect = field(hook, "dialect").and_then(Node::as_str);
                let cursor = dialect == Some("cursor");
                let home = field(hook, "event")
                    .filter(|_| cursor)
                    .and_then(|e| super::cursor::named_event(reader, e));
                let event = match home {
                    Some(home) => Some(Event::Builtin(home.event)),
                    None if cursor => None,
                    None => field(hook, "event").and_then(|e| {
                        let name = e.as_str()?;
                        reader.event(name, e.pos)
                    }),
                };
                let written = field(hook, "matcher");
                // Left out, the tools Cursor's event implies (`Bash` for
                // `beforeShellExecution`).
                let implied = home
                    .filter(|_| written.is_none())
                    .and_then(|h| h.tools.matcher());
                let matcher = match implied {
                    Some(tools) => Matcher::parse(tools).ok(),
                    None => reader.matcher(written, event.as_ref(), false),
                };
                // A hook kept in Gemini CLI's or Codex's dialect is given that agent's JSON
                // and its answer is read by that agent's rules; its event and timeout are
                // written as in any native hook.
                let kept = match dialect {
                    Some("gemini") => Some(hooks_core::Dialect::Gemini),
                    Some("codex") => Some(hooks_core::Dialect::Codex),
                    _ => None,
                };
                match (handler(reader, hook, event, matcher), home, kept) {
                    (Some(Item::Hook(spec)), Some(home), _) => file
                        .items
                        .push(Item::Hook(super::cursor::as_cursors(spec, home))),
                    (Some(Item::Hook(spec)), None, Some(dialect)) => {
                        file.items.push(Item::Hook(spec.with_dialect(dialect)));
                    }
                    (Some(item), _, _) => file.items.push(item),
                    (None, _, _) => {}
                }
            }
        }
        Some(Value::Map(_)) => {
            if let Some(hooks) = field(root, "hooks") {
                nested(reader, hooks, file);
            }
        }
        _ => {}
    }
}

/// A Claude Code or echo-agent file: the switches, the MCP servers (when `servers`: Claude
/// Code's) and hooks nested by event.
pub(crate) fn load_nested_file(
    reader: &mut Reader<'_>,
    root: &Node,
    file: &mut ConfigFile,
    servers: bool,
) {
    file.settings.disable_all_hooks = reader.boolean(field(root, "disableAllHooks"));
    file.settings.managed_hooks_only = reader.boolean(field(root, "allowManagedHooksOnly"));
    file.settings.allowed_http_hook_urls = reader.url_patterns(field(root, "allowedHttpHookUrls"));
    if servers {
        // Claude Code starts a project's servers in the project root: `.mcp.json`'s
        // folder, or the root a `~/.claude.json` entry is kept under.
        let path = reader.src.path().map(Path::to_path_buf);
        let folder = path
            .as_deref()
            .filter(|p| p.file_name().is_some_and(|n| n == ".mcp.json"))
            .and_then(|p| std::path::absolute(p).ok())
            .and_then(|p| p.parent().map(Path::to_path_buf));
        file.settings.mcp_servers = mcp::read::servers(
            reader,
            field(root, "mcpServers"),
            reader.opts.layer,
            folder.as_deref(),
        );
        // `~/.claude.json` keeps the servers of one project (Claude Code's local scope)
        // under its root's path; they rank as the local layer.
        if let Some(project) = project_entry(reader, root) {
            let root_dir = reader.opts.project.clone();
            let local = mcp::read::servers(
                reader,
                field(project, "mcpServers"),
                Layer::Local,
                root_dir.as_deref(),
            );
            file.settings.mcp_servers.extend(local);
        }
    }
    if let Some(hooks) = field(root, "hooks") {
        nested(reader, hooks, file);
    }
}

/// The `projects.<root>` entry of a `~/.claude.json` for the project being loaded, its key
/// compared with the root as given and with its symlinks resolved.
fn project_entry<'n>(reader: &Reader<'_>, root: &'n Node) -> Option<&'n Node> {
    let project = reader.opts.project.as_deref()?;
    let is_claude_json = reader
        .src
        .path()
        .and_then(|p| p.file_name())
        .is_some_and(|n| n == ".claude.json");
    if !is_claude_json {
        return None;
    }
    let real = std::fs::canonicalize(project).ok();
    field(root, "projects")?
        .as_map()?
        .iter()
        .find(|e| {
            let key = Path::new(&e.key);
            key == project || real.as_deref() == Some(key)
        })
        .map(|e| &e.value)
}

/// `{Event: [{matcher, hooks: [handler, ..]}, ..], ..}`.
fn nested(reader: &mut Reader<'_>, hooks: &Node, file: &mut ConfigFile) {
    let Some(events) = hooks.as_map() else {
        return;
    };
    for entry in events {
        let event = reader.event(&entry.key, entry.key_pos);
        let Some(groups) = entry.value.as_seq() else {
            continue;
        };
        for group in groups {
            if group.as_map().is_none() {
                continue;
            }
            let matcher = reader.matcher(field(group, "matcher"), event.as_ref(), false);
            let Some(handlers) = field(group, "hooks").and_then(Node::as_seq) else {
                continue;
            };
            for h in handlers {
                if let Some(item) = handler(reader, h, event.clone(), matcher.clone()) {
                    file.items.push(item);
                }
            }
        }
    }
}

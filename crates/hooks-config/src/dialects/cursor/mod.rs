//! Cursor `hooks.json`: `{"version": 1, "hooks": {"<event>": [{"command": ..}]}}`, with
//! Cursor's camelCase event names (aliases of the canonical events, several of them naming
//! PreToolUse or PostToolUse on one tool), timeouts in seconds, matchers over Cursor's tool
//! types or (on `beforeShellExecution`) the command text, `failClosed`, `loop_limit`, and
//! prompt hooks.
//!
//! As Cursor runs them: a `stop` entry also runs when the agent errs (StopFailure, given
//! `status: "error"`); `loop_limit` (default 5, `null` for none) bounds how often a `stop`
//! or `subagentStop` entry's follow-up is sent; user and enterprise hooks run in their
//! file's folder (`~/.cursor/`, `/etc/cursor/`), project hooks in the project root.

mod convert;

use std::path::{Path, PathBuf};

use hooks_core::cursor::{self, CursorEvent, MatcherTarget};
use hooks_core::{
    Action, BuiltinEvent, Dialect, Event, FailurePolicy, Filter, HookSpec, Layer, Matcher,
    StopBlockCap,
};

use crate::check;
use crate::dialects::files::{Claim, DialectFiles, EditRules, Shape, SwitchNames, Writing};
use crate::error::DiagnosticKind;
use crate::file::{ConfigFile, Item};
use crate::parse::Format;
use crate::reader::{ReadRules, Reader, field};
use crate::schema::FileSchema;
use crate::tree::{Node, Value};
use crate::write::WriteRules;

/// Cursor's row.
pub(crate) static FILES: DialectFiles = DialectFiles {
    dialect: Dialect::Cursor,
    formats: &[Format::Json],
    // Cursor's `hooks.json`, in a `.cursor` folder (the project's, the user's) or a
    // `cursor` one (the enterprise file, `/etc/cursor/hooks.json`).
    from_path: |path| {
        let parent = path
            .parent()
            .and_then(Path::file_name)
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        let cursor = path.file_name()?.to_str()? == "hooks.json"
            && (parent == ".cursor" || parent.eq_ignore_ascii_case("cursor"));
        cursor.then_some(Claim::Name)
    },
    shapes: &[Shape {
        rank: 20,
        fits: |_, root| has_cursor_shape(root),
    }],
    shape_over_name: crate::dialects::files::no_other_shape,
    layer_from_path: crate::dialects::files::no_layer,
    unparsed: None,
    read,
    path_var: crate::dialects::files::no_path_var,
    reading: ReadRules {
        tool_event_names: true,
        ..ReadRules::PLAIN
    },
    writing: Writing::File(convert::write),
    write_rules: WriteRules {
        loop_limit: true,
        native_name: Some(convert::native_name),
        own_input: true,
        ..WriteRules::PLAIN
    },
    switch_names: SwitchNames::NATIVE,
    run_config: None,
    disabled_name: None,
    editing: EditRules {
        refusal: Some(
            "is Cursor's hooks.json, which this command does not edit in place\n  hint: edit the file itself (`hooks validate` checks it), or convert it to a native config (`hooks convert --to native`) and edit that",
        ),
        project_settings: Some(".cursor/hooks.json"),
        settings_files: Some("`~/.cursor/hooks.json`, `.cursor/hooks.json`"),
        ..EditRules::IN_PLACE
    },
};

/// Reads a Cursor `hooks.json`: checked against its schema, then [`load`].
fn read(reader: &mut Reader<'_>, root: &Node, file: &mut ConfigFile) {
    if !check::top_table(reader, root) {
        return;
    }
    check::file(reader, FileSchema::Cursor, root, rename_hint);
    load(reader, root, file);
}

/// Whether a file has Cursor's shape: a top-level `version` beside `hooks` whose events are
/// Cursor's (camelCase: `beforeShellExecution`, `stop`, ...) holding flat entries (a
/// `command` or `prompt` each, no nested `hooks` as Claude Code's matcher groups have).
pub(crate) fn has_cursor_shape(root: &Node) -> bool {
    let Some(hooks) = field(root, "hooks").and_then(Node::as_map) else {
        return false;
    };
    if root.get("version").is_none() || hooks.is_empty() {
        return false;
    }
    let cursor_events = hooks.iter().all(|e| cursor::event(&e.key).is_some());
    let flat = hooks
        .iter()
        .filter_map(|e| e.value.as_seq())
        .flatten()
        .all(|entry| entry.get("hooks").is_none());
    cursor_events && flat
}

/// Cursor's hints for unknown keys.
pub(crate) fn rename_hint(path: &[String], key: &str) -> Option<String> {
    let in_entry = path.len() == 3 && path[0] == "hooks";
    match key {
        "fail_closed" | "failclosed" if in_entry => Some("Cursor writes `failClosed`".to_owned()),
        "loopLimit" if in_entry => Some("Cursor writes `loop_limit`".to_owned()),
        "hooks" if in_entry => Some(
            "a Cursor entry is one hook (`{\"command\": ..}`), not a Claude Code matcher group"
                .to_owned(),
        ),
        _ => None,
    }
}

pub(crate) fn load(reader: &mut Reader<'_>, root: &Node, file: &mut ConfigFile) {
    if let Some(v) = field(root, "version")
        && !matches!(v.value, Value::Int(1))
    {
        reader.warn(
            DiagnosticKind::InvalidValue,
            v.pos,
            "Cursor reads `\"version\": 1`",
            None,
        );
    }
    let Some(hooks) = field(root, "hooks").and_then(Node::as_map) else {
        return;
    };
    for entry in hooks {
        let Some(home) = cursor::event(&entry.key) else {
            let names = cursor::EVENTS.iter().map(|e| e.name);
            let hint =
                hooks_core::did_you_mean(&entry.key, names).map(|s| format!("did you mean `{s}`?"));
            reader.warn(
                DiagnosticKind::UnknownEvent,
                entry.key_pos,
                format!(
                    "unknown Cursor event `{}`; its hooks are skipped",
                    entry.key
                ),
                hint,
            );
            continue;
        };
        for hook in entry.value.as_seq().into_iter().flatten() {
            if hook.as_map().is_none() {
                continue;
            }
            if let Some(spec) = cursor_hook(reader, home, hook) {
                file.items.push(Item::Hook(spec));
            }
        }
    }
}

fn cursor_hook(
    reader: &mut Reader<'_>,
    home: &'static CursorEvent,
    node: &Node,
) -> Option<HookSpec> {
    let event = Event::Builtin(home.event);
    let ty = reader
        .string(field(node, "type"))
        .unwrap_or_else(|| "command".to_owned());
    let mut action = super::handler::action(reader, node, &ty)?;
    if let Action::Command(command) = &mut action
        && command.cwd.is_none()
    {
        command.cwd = reader
            .src
            .path()
            .and_then(|p| working_dir(p, reader.opts.layer));
    }
    let timeout = reader.timeout(field(node, "timeout"))?;
    let (matcher, filter) = matcher(reader, home, field(node, "matcher"))?;
    let timeout = timeout.unwrap_or_else(|| reader.default_timeout(&event, &action, node.pos));
    let fail_closed = reader
        .boolean(field(node, "failClosed"))
        .unwrap_or(home.fail_closed);
    let loops = matches!(home.event, BuiltinEvent::Stop | BuiltinEvent::SubagentStop);
    let written = node.get("loop_limit").map(|e| &e.value);
    let loop_limit = match written {
        // Cursor's default limit, on the events that loop.
        None => loops.then(|| StopBlockCap::at_most(cursor::DEFAULT_LOOP_LIMIT)),
        Some(_) => reader.loop_limit(written, &event, "`stop` and `subagentStop`")?,
    };
    let spec = as_cursors(HookSpec::new(event, action), home);
    let spec = match loop_limit {
        Some(limit) => spec.with_loop_limit(limit),
        None => spec,
    };
    Some(
        spec.with_matcher(matcher)
            .with_filter(filter)
            .with_timeout(timeout)
            .with_on_failure(if fail_closed {
                FailurePolicy::Block
            } else {
                FailurePolicy::Allow
            })
            .with_provenance(reader.provenance(node.pos)),
    )
}

/// `spec`, registered on Cursor's `home` event, as Cursor runs it: in Cursor's dialect,
/// given the JSON of `home`, and (a `stop` hook) also when the agent errs (StopFailure).
pub(crate) fn as_cursors(spec: HookSpec, home: &CursorEvent) -> HookSpec {
    let spec = spec
        .with_dialect(Dialect::Cursor)
        .with_home_event(home.name);
    if cursor::event_for(BuiltinEvent::StopFailure).is_some_and(|e| e.name == home.name) {
        spec.with_also_on(BuiltinEvent::StopFailure)
    } else {
        spec
    }
}

/// The Cursor event `node` names (its exact spelling), reported as an error when it names
/// none: the event of a native hook kept in Cursor's dialect (`dialect: cursor`).
pub(crate) fn named_event(reader: &mut Reader<'_>, node: &Node) -> Option<&'static CursorEvent> {
    let name = node.as_str()?;
    let home = cursor::event(name);
    if home.is_none() {
        let names = cursor::EVENTS.iter().map(|e| e.name);
        let hint = hooks_core::did_you_mean(name, names).map_or_else(
            || "a hook with `dialect: cursor` names its event as Cursor does (`beforeShellExecution`, `stop`, ...)".to_owned(),
            |s| format!("did you mean `{s}`?"),
        );
        reader.error(
            DiagnosticKind::UnknownEvent,
            node.pos,
            format!("unknown Cursor event `{name}`"),
            Some(hint),
        );
    }
    home
}

/// Where Cursor runs the hooks of the file at `path`, loaded in `layer`: user and
/// enterprise hooks in the file's folder (`~/.cursor/`, `/etc/cursor/`), the hooks of a
/// `.cursor/hooks.json` elsewhere (the project's) in the folder holding `.cursor`, the
/// project root. `None`: the event's working directory, as other hooks.
pub(crate) fn working_dir(path: &Path, layer: Layer) -> Option<PathBuf> {
    let dir = crate::source::file_dir(path)?;
    match layer {
        Layer::User | Layer::Managed => Some(dir),
        _ if dir.file_name().is_some_and(|n| n == ".cursor") => dir.parent().map(Path::to_path_buf),
        _ => None,
    }
}

/// The canonical matcher and filter of an entry on `home` with the matcher `node`: the
/// tools the event implies (`Bash` for `beforeShellExecution`), narrowed by the entry's
/// matcher as Cursor reads it there (tool types, the command text, the subagent type).
fn matcher(
    reader: &mut Reader<'_>,
    home: &CursorEvent,
    node: Option<&Node>,
) -> Option<(Matcher, Filter)> {
    let written = node.and_then(Node::as_str).filter(|m| !m.trim().is_empty());
    let implied = || {
        home.tools
            .matcher()
            .map_or_else(|| Ok(Matcher::all()), Matcher::parse)
    };
    let compiled = match (home.matcher, written) {
        (_, None) => implied().map(|m| (m, Filter::new())),
        (MatcherTarget::ToolType, Some(w)) => {
            Matcher::parse(&cursor::canonical_tool_matcher(w)).map(|m| (m, Filter::new()))
        }
        (MatcherTarget::Subagent, Some(w)) => Matcher::parse(w).map(|m| (m, Filter::new())),
        (MatcherTarget::Command, Some(w)) => {
            implied().and_then(|m| Filter::new().with_command(w).map(|f| (m, f)))
        }
        (MatcherTarget::None, Some(_)) => {
            if let Some(n) = node {
                reader.warn(
                    DiagnosticKind::InvalidMatcher,
                    n.pos,
                    format!("Cursor's `{}` takes no matcher; it is ignored", home.name),
                    None,
                );
            }
            implied().map(|m| (m, Filter::new()))
        }
    };
    match compiled {
        Ok(pair) => Some(pair),
        Err(e) => {
            let pos = node.map_or_else(Default::default, |n| n.pos);
            reader.error(DiagnosticKind::InvalidMatcher, pos, e.to_string(), None);
            None
        }
    }
}

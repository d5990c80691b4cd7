//! GitHub Copilot CLI's hooks files: the repository's `.github/hooks/*.json` and the
//! `hooks` of `.github/copilot/settings.json` and `settings.local.json`; the user's
//! `$COPILOT_HOME/hooks/*.json` and the `hooks` of `$COPILOT_HOME/settings.json`
//! (`$COPILOT_HOME` defaults to `~/.copilot`).
//!
//! A file holds `{"version": 1, "hooks": {EVENT: [..]}}` in two spellings, which may be
//! mixed: under a camelCase event (`preToolUse`) a flat list of hooks `{"type":
//! "command", "bash" | "command": CMD, "cwd", "env", "timeoutSec" | "timeout" (seconds),
//! "matcher"}`, whose matcher is a regular expression that must match Copilot's whole tool
//! name (`bash`); under a PascalCase event (`PreToolUse`) Claude Code's matcher groups.
//! `version` must be 1 when given; `disableAllHooks: true` turns the file's hooks off.

mod convert;

use std::path::{Path, PathBuf};

use hooks_core::copilot;
use hooks_core::{Action, BuiltinEvent, CommandAction, CommandLine, Dialect, Event, HookSpec};
use hooks_core::{Matcher, MatcherKind};

use crate::check;
use crate::dialects::files::{Claim, DialectFiles, EditRules, Shape, SwitchNames, Writing};
use crate::dialects::handler;
use crate::error::DiagnosticKind;
use crate::file::{ConfigFile, Item};
use crate::parse::Format;
use crate::reader::{ReadRules, Reader, field};
use crate::tree::{Node, Value};
use crate::write::WriteRules;

/// GitHub Copilot CLI's row.
pub(crate) static FILES: DialectFiles = DialectFiles {
    dialect: Dialect::Copilot,
    formats: &[Format::Json],
    from_path: |path| is_copilot_path(path).then_some(Claim::Place),
    shapes: &[Shape {
        rank: 15,
        fits: |_, root| has_copilot_shape(root),
    }],
    shape_over_name: crate::dialects::files::no_other_shape,
    layer_from_path: crate::dialects::files::no_layer,
    unparsed: None,
    read,
    path_var: crate::dialects::files::no_path_var,
    reading: ReadRules::PLAIN,
    writing: Writing::File(convert::write),
    write_rules: WriteRules {
        regex_matchers: true,
        own_input: true,
        ..WriteRules::PLAIN
    },
    switch_names: SwitchNames {
        disable_all_hooks: "disableAllHooks",
        ..SwitchNames::NATIVE
    },
    run_config: None,
    disabled_name: None,
    editing: EditRules {
        refusal: Some(
            "is a GitHub Copilot CLI hooks file, which this command does not edit in place\n  hint: edit the file itself (`hooks validate` checks it), or convert it to a native config (`hooks convert --to native`) and edit that",
        ),
        project_settings: Some(".github/hooks/agentic-hooks.json"),
        settings_files: Some(
            "`~/.copilot/hooks/*.json`, `~/.copilot/settings.json`, `.github/hooks/*.json`, `.github/copilot/settings.json`, `.github/copilot/settings.local.json`",
        ),
        ..EditRules::IN_PLACE
    },
};

/// Copilot's home: `$COPILOT_HOME` when it is an absolute path, else `~/.copilot`.
pub(crate) fn home_from_env() -> Option<PathBuf> {
    std::env::var_os("COPILOT_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
}

/// Whether `path` is where Copilot keeps hooks: a JSON file in `.github/hooks/` or in the
/// `hooks/` of its home (`~/.copilot`, `$COPILOT_HOME`), a `settings.json` or
/// `settings.local.json` in `.github/copilot/`, or its home's `settings.json`.
pub(crate) fn is_copilot_path(path: &Path) -> bool {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    let Some(parent) = path.parent() else {
        return false;
    };
    let named = |dir: &Path, n: &str| dir.file_name().is_some_and(|x| x == n);
    let grand = parent.parent();
    let is_home = |dir: &Path| {
        named(dir, ".copilot")
            || home_from_env().is_some_and(|h| {
                dir == h || std::fs::canonicalize(&h).is_ok_and(|real| dir == real)
            })
    };
    if name.ends_with(".json") && named(parent, "hooks") {
        return grand.is_some_and(|g| named(g, ".github") || is_home(g));
    }
    match name {
        "settings.json" | "settings.local.json" if named(parent, "copilot") => {
            grand.is_some_and(|g| named(g, ".github"))
        }
        "settings.json" => is_home(parent),
        _ => false,
    }
}

/// Whether a file has Copilot's own shape: a `hooks` map with an event only Copilot names
/// (`agentStop`, `userPromptSubmitted`, ...), or a flat hook with a key only Copilot's
/// have (`bash`, `powershell`, `timeoutSec`).
pub(crate) fn has_copilot_shape(root: &Node) -> bool {
    let Some(hooks) = field(root, "hooks").and_then(Node::as_map) else {
        return false;
    };
    let own_event = hooks.iter().any(|e| {
        copilot::event(&e.key).is_some()
            && !copilot::is_pascal(&e.key)
            && hooks_core::cursor::event(&e.key).is_none()
    });
    let own_keys = hooks
        .iter()
        .filter(|e| !copilot::is_pascal(&e.key))
        .filter_map(|e| e.value.as_seq())
        .flatten()
        .any(|h| ["bash", "powershell", "timeoutSec"].iter().any(|k| h.get(k).is_some()));
    own_event || own_keys
}

/// Reads a Copilot hooks file (see the module docs).
fn read(reader: &mut Reader<'_>, root: &Node, file: &mut ConfigFile) {
    if !check::top_table(reader, root) {
        return;
    }
    if let Some(v) = field(root, "version")
        && !matches!(v.value, Value::Int(1))
    {
        reader.error(
            DiagnosticKind::InvalidValue,
            v.pos,
            "Copilot reads only `\"version\": 1` and refuses the file otherwise",
            None,
        );
        return;
    }
    file.settings.disable_all_hooks = reader.boolean(field(root, "disableAllHooks"));
    let Some(hooks) = field(root, "hooks") else {
        return;
    };
    let Some(events) = hooks.as_map() else {
        reader.error(
            DiagnosticKind::InvalidValue,
            hooks.pos,
            "`hooks` maps each event to its list of hooks",
            None,
        );
        return;
    };
    for entry in events {
        let Some((event, name)) = copilot::event(&entry.key) else {
            let hint = hooks_core::did_you_mean(&entry.key, copilot::names())
                .map(|s| format!("did you mean `{s}`?"));
            reader.warn(
                DiagnosticKind::UnknownEvent,
                entry.key_pos,
                format!(
                    "unknown GitHub Copilot CLI event `{}`; its hooks are skipped",
                    entry.key
                ),
                hint,
            );
            continue;
        };
        let Some(list) = entry.value.as_seq() else {
            reader.error(
                DiagnosticKind::InvalidValue,
                entry.value.pos,
                format!("`{}` takes a list of hooks", entry.key),
                None,
            );
            continue;
        };
        for node in list {
            if node.as_map().is_none() {
                continue;
            }
            if copilot::is_pascal(name) {
                group(reader, event, name, node, file);
            } else if let Some(spec) = camel_hook(reader, event, name, node) {
                file.items.push(Item::Hook(spec));
            }
        }
    }
}

/// A Claude Code matcher group under a PascalCase event: its matcher over Claude Code's
/// tool names (Copilot's own names match too), its hooks read as Claude Code's.
fn group(
    reader: &mut Reader<'_>,
    event: BuiltinEvent,
    name: &'static str,
    node: &Node,
    file: &mut ConfigFile,
) {
    let ev = Event::Builtin(event);
    let Some(matcher) = reader.matcher(field(node, "matcher"), Some(&ev), false) else {
        return;
    };
    let Some(handlers) = field(node, "hooks").and_then(Node::as_seq) else {
        reader.error(
            DiagnosticKind::MissingKey,
            node.pos,
            format!("a `{name}` matcher group needs `hooks`"),
            None,
        );
        return;
    };
    for h in handlers {
        if h.as_map().is_none() {
            continue;
        }
        let ty = reader
            .string(field(h, "type"))
            .unwrap_or_else(|| "command".to_owned());
        if ty != "command" {
            skipped_type(reader, h, &ty);
            continue;
        }
        let Some(action) = handler::action(reader, h, &ty) else {
            continue;
        };
        let Some(timeout) = reader.timeout(field(h, "timeout")) else {
            continue;
        };
        let timeout = timeout.unwrap_or_else(|| reader.default_timeout(&ev, &action, h.pos));
        let spec = HookSpec::new(ev.clone(), action)
            .with_dialect(Dialect::Copilot)
            .with_home_event(name)
            .with_matcher(matcher.clone())
            .with_timeout(timeout)
            .with_provenance(reader.provenance(h.pos));
        file.items.push(Item::Hook(spec));
    }
}

/// A hook under a camelCase event.
fn camel_hook(
    reader: &mut Reader<'_>,
    event: BuiltinEvent,
    name: &'static str,
    node: &Node,
) -> Option<HookSpec> {
    let ev = Event::Builtin(event);
    let ty = reader
        .string(field(node, "type"))
        .unwrap_or_else(|| "command".to_owned());
    if ty != "command" {
        skipped_type(reader, node, &ty);
        return None;
    }
    // On Linux and macOS Copilot runs `bash`, else `command` (the alias of both shells).
    let Some(script) = field(node, "bash").or_else(|| field(node, "command")) else {
        let (kind, message) = if field(node, "powershell").is_some() {
            (
                DiagnosticKind::InvalidValue,
                "this hook has only `powershell`, which Copilot runs on Windows only; it is skipped",
            )
        } else {
            (
                DiagnosticKind::MissingKey,
                "a Copilot command hook needs `bash` or `command`",
            )
        };
        reader.warn(kind, node.pos, message, None);
        return None;
    };
    let text = script.as_str()?;
    reader.check_command_len(text.len(), script.pos).then_some(())?;
    let mut command = CommandAction::new(CommandLine::Script(reader.interp(text, script.pos)));
    if let Some(cwd) = field(node, "cwd").and_then(Node::as_str) {
        let pos = field(node, "cwd").map_or(node.pos, |n| n.pos);
        command.cwd = Some(reader.interp(cwd, pos).into());
    }
    command.env = reader.string_map(field(node, "env"));
    let action = Action::Command(command);
    let timeout = reader.timeout(field(node, "timeoutSec").or_else(|| field(node, "timeout")))?;
    let timeout = timeout.unwrap_or_else(|| reader.default_timeout(&ev, &action, node.pos));
    let matcher = camel_matcher(reader, field(node, "matcher"))?;
    Some(
        HookSpec::new(ev, action)
            .with_dialect(Dialect::Copilot)
            .with_home_event(name)
            .with_matcher(matcher)
            .with_timeout(timeout)
            .with_provenance(reader.provenance(node.pos)),
    )
}

/// A camelCase matcher: a regular expression that must match the whole of Copilot's tool
/// name. A list of plain names (`bash|view`) is that list; anything else is anchored.
fn camel_matcher(reader: &mut Reader<'_>, node: Option<&Node>) -> Option<Matcher> {
    let Some(node) = node else {
        return Some(Matcher::all());
    };
    let pattern = node.as_str()?.trim();
    if pattern.is_empty() {
        return Some(Matcher::all());
    }
    let plain = pattern
        .split('|')
        .all(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'));
    let names = plain
        .then(|| Matcher::parse(pattern).ok())
        .flatten()
        .filter(|m| matches!(m.kind(), MatcherKind::Exact(_)));
    match names.map_or_else(|| Matcher::regex(&format!("^(?:{pattern})$")), Ok) {
        Ok(m) => Some(m),
        Err(e) => {
            reader.error(
                DiagnosticKind::InvalidMatcher,
                node.pos,
                format!("invalid matcher `{pattern}`: {e}"),
                None,
            );
            None
        }
    }
}

/// A hook of a type the engine does not run for Copilot (`http`, `prompt`): skipped with
/// a warning.
fn skipped_type(reader: &mut Reader<'_>, node: &Node, ty: &str) {
    let pos = field(node, "type").map_or(node.pos, |n| n.pos);
    reader.warn(
        DiagnosticKind::InvalidValue,
        pos,
        format!("Copilot `{ty}` hooks are not run by this engine; this hook is skipped"),
        Some("only `command` hooks of Copilot files are read".to_owned()),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copilot_paths() {
        for yes in [
            "/p/.github/hooks/guard.json",
            "/p/.github/copilot/settings.json",
            "/p/.github/copilot/settings.local.json",
            "/h/.copilot/hooks/agentic-hooks.json",
            "/h/.copilot/settings.json",
        ] {
            assert!(is_copilot_path(Path::new(yes)), "{yes}");
        }
        for no in [
            "/p/.claude/settings.json",
            "/p/.github/hooks/notes.txt",
            "/p/hooks/hooks.json",
            "/p/.github/settings.json",
        ] {
            assert!(!is_copilot_path(Path::new(no)), "{no}");
        }
    }
}

//! Gemini CLI's hooks files: `settings.json` (system `/etc/gemini-cli/`, user `~/.gemini/`,
//! project `.gemini/`) and an extension's `hooks/hooks.json`.
//!
//! As Gemini CLI reads them: an unknown event is skipped with a warning and the rest of
//! the file loads; the CLI's other settings are allowed and ignored; `hooksConfig.enabled:
//! false` turns the file's hooks off and `hooksConfig.disabled` names hooks (by `name`,
//! else by command) that do not run, in this file and, joined with the other Gemini CLI
//! files' lists when they are merged, in every Gemini CLI file (as Gemini CLI joins the
//! lists of its settings layers); `sequential: true` on a definition makes its hooks
//! one ordered group of the event; tool events' matchers are regular expressions (an
//! invalid one compares exactly, as Gemini CLI falls back), the others' exact strings.
//! An extension's `${extensionPath}`, `${workspacePath}` and `${/}` are replaced in its
//! commands.

mod convert;

use std::path::Path;

use hooks_core::{Action, CommandLine, Dialect, Event, Matcher};

use crate::check;
use crate::dialects::files::{Claim, DialectFiles, EditRules, Shape, SwitchNames, Writing};
use crate::dialects::handler::{self, handler};
use crate::error::DiagnosticKind;
use crate::file::{ConfigFile, Item};
use crate::parse::Format;
use crate::reader::{ReadRules, Reader, field};
use crate::schema::FileSchema;
use crate::tree::{Node, Value};
use crate::write::WriteRules;

/// Gemini CLI's row.
pub(crate) static FILES: DialectFiles = DialectFiles {
    dialect: Dialect::Gemini,
    formats: &[Format::Json],
    from_path: |path| {
        path.file_name()?.to_str()?;
        is_gemini_path(path).then_some(Claim::Place)
    },
    shapes: &[
        Shape {
            rank: 10,
            fits: |_, root| has_hooks_config(root),
        },
        // An event only Gemini CLI spells so (`BeforeTool`, `AfterAgent`, ...), in JSON.
        Shape {
            rank: 70,
            fits: |format, root| {
                format == Format::Json
                    && super::native::hooks_by_event(root)
                        .is_some_and(|entries| entries.iter().any(|e| is_gemini_only_name(&e.key)))
            },
        },
    ],
    shape_over_name: crate::dialects::files::no_other_shape,
    layer_from_path: crate::dialects::files::no_layer,
    unparsed: None,
    read,
    // A Gemini CLI extension's `<extension>/hooks/hooks.json`.
    path_var: |path| {
        super::claude::plugin_root(path)
            .map(|root| ("${extensionPath}", root.to_string_lossy().into_owned()))
    },
    reading: ReadRules::PLAIN,
    writing: Writing::File(convert::write),
    write_rules: WriteRules {
        regex_matchers: true,
        lifecycle_matcher: Some(convert::lifecycle_matcher),
        kept_in_native: true,
        ..WriteRules::PLAIN
    },
    switch_names: SwitchNames::NATIVE,
    run_config: None,
    disabled_name: Some(hook_name),
    editing: EditRules {
        refusal: Some(
            "is a Gemini CLI settings file, which this command does not edit in place\n  hint: edit the file itself (`hooks validate` checks it), or convert it to a native config (`hooks convert --to native`) and edit that",
        ),
        project_settings: Some(".gemini/settings.json"),
        settings_files: Some("`~/.gemini/settings.json`, `.gemini/settings.json`"),
        moved_matcher: Some(names_as_list),
        ..EditRules::IN_PLACE
    },
};

/// Reads a Gemini CLI settings file: checked against its schema (unknown keys ignored with
/// a warning, as Gemini CLI ignores them), then [`load`].
fn read(reader: &mut Reader<'_>, root: &Node, file: &mut ConfigFile) {
    if !check::top_table(reader, root) {
        return;
    }
    check::file(reader, FileSchema::Gemini, root, handler::rename_hint);
    super::claude::soften_unknown_keys(&mut reader.structural);
    load(reader, root, file);
}

/// Whether `path` is where Gemini CLI keeps hooks: `settings.json` in `.gemini/` (user,
/// project) or `gemini-cli/` (`/etc/gemini-cli`, system), or an extension's
/// `.gemini/extensions/<name>/hooks/hooks.json`.
fn is_gemini_path(path: &Path) -> bool {
    let names: Vec<&str> = path
        .iter()
        .rev()
        .take(5)
        .filter_map(|c| c.to_str())
        .collect();
    matches!(
        names.as_slice(),
        ["settings.json", ".gemini" | "gemini-cli", ..]
            | ["hooks.json", "hooks", _, "extensions", ".gemini"]
    )
}

/// Whether `name` is an event name of Gemini CLI's that no other dialect uses: its
/// spellings of shared events (`BeforeTool`) and its own events (`BeforeModel`).
fn is_gemini_only_name(name: &str) -> bool {
    let profile = Dialect::Gemini.profile();
    profile.event_names.iter().any(|(event, own)| {
        *own == name
            && Dialect::ALL
                .iter()
                .filter(|d| **d != Dialect::Gemini)
                .all(|d| !d.profile().has_event(*event) || event.info().name_in(*d) != name)
    })
}

/// Reads a Gemini CLI file's hooks into `file`.
pub(crate) fn load(reader: &mut Reader<'_>, root: &Node, file: &mut ConfigFile) {
    let switches = field(root, "hooksConfig");
    let switch = reader.boolean(switches.and_then(|s| field(s, "enabled")));
    file.settings.hooks_enabled = switch;
    let enabled = switch.unwrap_or(true);
    let disabled: Vec<String> = switches
        .and_then(|s| field(s, "disabled"))
        .and_then(Node::as_seq)
        .into_iter()
        .flatten()
        .filter_map(|n| n.as_str().map(str::to_owned))
        .collect();
    file.settings.disabled_hooks.clone_from(&disabled);
    let Some(events) = field(root, "hooks").and_then(Node::as_map) else {
        return;
    };
    for entry in events {
        let event = match reader.lookup_event(&entry.key) {
            // Gemini CLI knows its events by its own names only.
            Ok(event) if event.info().name_in(Dialect::Gemini) == entry.key => event,
            Ok(event) => {
                let hint = Some(format!(
                    "Gemini CLI calls it `{}`",
                    event.info().name_in(Dialect::Gemini)
                ))
                .filter(|_| {
                    event
                        .builtin()
                        .is_some_and(|b| Dialect::Gemini.profile().has_event(b))
                });
                reader.warn(
                    DiagnosticKind::UnknownEvent,
                    entry.key_pos,
                    format!(
                        "`{}` is not a Gemini CLI event; its hooks are skipped, and the rest of the file loads",
                        entry.key
                    ),
                    hint,
                );
                continue;
            }
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
                continue;
            }
        };
        let Some(groups) = entry.value.as_seq() else {
            continue;
        };
        for group in groups {
            if group.as_map().is_none() {
                continue;
            }
            let matcher = matcher(field(group, "matcher"), &event);
            let sequential = reader.boolean(field(group, "sequential")) == Some(true);
            let Some(handlers) = field(group, "hooks").and_then(Node::as_seq) else {
                continue;
            };
            for h in handlers {
                let Some(Item::Hook(mut spec)) =
                    handler(reader, h, Some(event.clone()), Some(matcher.clone()))
                else {
                    continue;
                };
                if let Action::Command(command) = &mut spec.action
                    && let CommandLine::Script(script) = &mut command.command
                {
                    *script = extension_vars(reader, script);
                }
                if !enabled || hook_name(&spec).is_some_and(|n| disabled.contains(&n)) {
                    spec.enabled = false;
                }
                if sequential {
                    spec.sequential = Some(spec.event.name().to_owned());
                }
                file.items.push(Item::Hook(spec));
            }
        }
    }
}

/// The name `hooksConfig.disabled` knows a Gemini CLI hook by: its `name`, else its
/// command (`getHookName` in Gemini CLI's `hookRegistry.ts`).
pub(crate) fn hook_name(spec: &hooks_core::HookSpec) -> Option<String> {
    spec.name.clone().or_else(|| match &spec.action {
        Action::Command(c) => Some(match &c.command {
            CommandLine::Script(s) => s.clone(),
            CommandLine::Argv(argv) => argv.join(" "),
        }),
        _ => None,
    })
}

/// A definition's matcher as Gemini CLI matches it: `*`, empty or absent for all; on tool
/// events a regular expression (one that does not compile compares exactly); on the
/// others the exact string (`startup|resume` matches neither).
fn matcher(node: Option<&Node>, event: &Event) -> Matcher {
    let Some(pattern) = node.and_then(Node::as_str) else {
        return Matcher::all();
    };
    if event.info().matches_tool_name() {
        Matcher::regex(pattern).unwrap_or_else(|_| Matcher::literal(pattern))
    } else {
        Matcher::literal(pattern)
    }
}

/// `${/}` and `${workspacePath}` (an extension's `${extensionPath}` is the file's path
/// placeholder, replaced with the others at interpolation).
fn extension_vars(reader: &Reader<'_>, script: &str) -> String {
    let mut out = script.replace("${/}", "/");
    if out.contains("${workspacePath}")
        && let Some(root) = reader.opts.project.as_deref()
    {
        out = out.replace("${workspacePath}", &root.to_string_lossy());
    }
    out
}

/// Whether `value` is a Gemini CLI settings value this loader reads (for detection).
pub(crate) fn has_hooks_config(root: &Node) -> bool {
    matches!(
        field(root, "hooksConfig").map(|n| &n.value),
        Some(Value::Map(_))
    )
}

/// A Gemini CLI tool matcher that is a list of tool names (`run_shell_command`,
/// `read_file|write_file`), a regular expression to Gemini CLI, read as that list of
/// names, so that the native file holds a plain list (`run_shell_command|read_file`,
/// matched in Gemini CLI's names, the moved hook's dialect): Gemini CLI tests it
/// unanchored, but its tool names contain no other tool's name whole. Any other regular
/// expression stays one, over the same names.
fn names_as_list(spec: &mut hooks_core::HookSpec) {
    let tool_event = spec.event.info().matches_tool_name();
    if !tool_event || !matches!(spec.matcher.kind(), hooks_core::MatcherKind::Regex(_)) {
        return;
    }
    if let Ok(list) = Matcher::parse(spec.matcher.as_str())
        && matches!(list.kind(), hooks_core::MatcherKind::Exact(_))
    {
        spec.matcher = list;
    }
}

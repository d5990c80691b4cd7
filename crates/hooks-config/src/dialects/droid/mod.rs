//! Factory Droid's hooks files: `settings.json` in `~/.factory/` (user) and a project's
//! `.factory/`, in Claude Code's shape and event names (`droid exec` reads neither
//! `settings.local.json` nor Claude Code's files). As the engine reads them: an unknown
//! event is skipped with a warning and the rest of the file loads; `disableAllHooks: true`
//! turns every hook off; timeouts are in seconds; the hooks are command hooks.

use std::path::Path;

use hooks_core::{Dialect, Event, HookSpec};
use serde_json::{Map, Value};

use crate::dialects::claude::convert::{handler_in, write_shaped};
use crate::dialects::claude::{ClaudeShaped, read_shaped};
use crate::dialects::files::{Claim, DialectFiles, EditRules, SwitchNames, Writing};
use crate::file::ConfigFile;
use crate::parse::Format;
use crate::reader::{ReadRules, Reader};
use crate::tree::Node;
use crate::write::{WriteRules, Writer};

/// Factory Droid's row.
pub(crate) static FILES: DialectFiles = DialectFiles {
    dialect: Dialect::Droid,
    formats: &[Format::Json],
    from_path: |path| is_droid_path(path).then_some(Claim::Place),
    // A `settings.json` elsewhere in Claude Code's shape is Claude Code's.
    shapes: &[],
    shape_over_name: crate::dialects::files::no_other_shape,
    layer_from_path: crate::dialects::files::no_layer,
    unparsed: None,
    read,
    path_var: crate::dialects::files::no_path_var,
    reading: ReadRules {
        ignores_inapplicable_keys: true,
        ..ReadRules::PLAIN
    },
    writing: Writing::File(|w, items, settings| write_shaped(w, items, settings, handler)),
    write_rules: WriteRules::PLAIN,
    switch_names: SwitchNames {
        disable_all_hooks: "disableAllHooks",
        ..SwitchNames::NATIVE
    },
    run_config: None,
    disabled_name: None,
    editing: EditRules {
        refusal: Some(
            "is a Factory Droid settings file, which this command does not edit in place\n  hint: edit the file itself (`hooks validate` checks it), or convert it to a native config (`hooks convert --to native`) and edit that",
        ),
        project_settings: Some(".factory/settings.json"),
        settings_files: Some("`~/.factory/settings.json`, `.factory/settings.json`"),
        ..EditRules::IN_PLACE
    },
};

/// How the engine reads Droid's files' hooks.
const DROID: ClaudeShaped = ClaudeShaped {
    agent: "Factory Droid",
    types: TYPES,
    types_on: |_: &Event| TYPES,
    settings_keys: &[],
};

/// The handler types of Droid's files, on every event.
const TYPES: &[&str] = &["command"];

/// A hook written in its file: Claude Code's handler, of a type the agent runs.
fn handler(w: &mut Writer, spec: &HookSpec) -> Option<Map<String, Value>> {
    handler_in(w, spec, Dialect::Droid, TYPES)
}

fn read(reader: &mut Reader<'_>, root: &Node, file: &mut ConfigFile) {
    read_shaped(reader, root, file, &DROID);
}

/// Whether `path` is where Droid keeps hooks: `settings.json` in a `.factory` folder.
fn is_droid_path(path: &Path) -> bool {
    let mut names = path.iter().rev().filter_map(|c| c.to_str());
    matches!(
        (names.next(), names.next()),
        (Some("settings.json"), Some(".factory"))
    )
}

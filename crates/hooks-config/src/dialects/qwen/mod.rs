//! Qwen Code's hooks files: `settings.json` in `~/.qwen/` (user), a project's `.qwen/`
//! and `/etc/qwen-code/` (system, with `system-defaults.json` beside it), in Claude Code's
//! shape and event names. As Qwen Code reads them: the `enabled`, `disabled` and
//! `notifications` keys of `hooks` are its settings, not events; an unknown event is skipped
//! with a warning and the rest of the file loads; `disableAllHooks: true` turns every hook
//! off; a timeout is in seconds, and 1000 or more is milliseconds (the legacy Gemini CLI
//! form); it runs command, HTTP and prompt hooks (its in-process `function` hooks are not
//! written in files).

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

/// Qwen Code's row.
pub(crate) static FILES: DialectFiles = DialectFiles {
    dialect: Dialect::Qwen,
    formats: &[Format::Json],
    from_path: |path| is_qwen_path(path).then_some(Claim::Place),
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
            "is a Qwen Code settings file, which this command does not edit in place\n  hint: edit the file itself (`hooks validate` checks it), or convert it to a native config (`hooks convert --to native`) and edit that",
        ),
        project_settings: Some(".qwen/settings.json"),
        settings_files: Some("`~/.qwen/settings.json`, `.qwen/settings.json`"),
        ..EditRules::IN_PLACE
    },
};

/// How Qwen Code reads its files' hooks.
const QWEN: ClaudeShaped = ClaudeShaped {
    agent: "Qwen Code",
    types: TYPES,
    types_on: |_: &Event| TYPES,
    settings_keys: &["enabled", "disabled", "notifications"],
};

/// The handler types of Qwen Code's files, on every event.
const TYPES: &[&str] = &["command", "http", "prompt"];

/// A hook written in its file: Claude Code's handler, of a type the agent runs.
fn handler(w: &mut Writer, spec: &HookSpec) -> Option<Map<String, Value>> {
    handler_in(w, spec, Dialect::Qwen, TYPES)
}

fn read(reader: &mut Reader<'_>, root: &Node, file: &mut ConfigFile) {
    read_shaped(reader, root, file, &QWEN);
}

/// Whether `path` is where Qwen Code keeps hooks: `settings.json` in a `.qwen` folder
/// (user, project), or `settings.json` or `system-defaults.json` in a `qwen-code` folder
/// (`/etc/qwen-code`, system).
fn is_qwen_path(path: &Path) -> bool {
    let mut names = path.iter().rev().filter_map(|c| c.to_str());
    matches!(
        (names.next(), names.next()),
        (Some("settings.json"), Some(".qwen" | "qwen-code"))
            | (Some("system-defaults.json"), Some("qwen-code"))
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn qwens_places() {
        assert!(is_qwen_path(Path::new("/h/.qwen/settings.json")));
        assert!(is_qwen_path(Path::new("/etc/qwen-code/settings.json")));
        assert!(is_qwen_path(Path::new("/etc/qwen-code/system-defaults.json")));
        assert!(!is_qwen_path(Path::new("/p/.claude/settings.json")));
        assert!(!is_qwen_path(Path::new("/p/.qwen/other.json")));
    }
}

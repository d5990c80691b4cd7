//! Autohand `config.json`: `{"hooks": {"enabled": true, "hooks": [..]}}`, timeouts in
//! milliseconds (default 5000), kebab-case events, regular-expression matchers, `filter`
//! with tool names and path globs, `async`, and the file-wide `enabled` switch (`false`
//! turns every hook of the file off).

mod convert;

use std::path::Path;

use hooks_core::{Action, Dialect, HookSpec};

use crate::check;
use crate::dialects::files::{Claim, DialectFiles, EditRules, Shape, SwitchNames, Writing};
use crate::file::{ConfigFile, Item};
use crate::parse::Format;
use crate::reader::{ReadRules, Reader, field};
use crate::schema::FileSchema;
use crate::tree::Node;
use crate::write::WriteRules;

/// Autohand's row.
pub(crate) static FILES: DialectFiles = DialectFiles {
    dialect: Dialect::Autohand,
    formats: &[Format::Json],
    from_path: |path| {
        let in_autohand_dir = path
            .parent()
            .and_then(Path::file_name)
            .is_some_and(|n| n == ".autohand");
        (path.file_name()?.to_str()? == "config.json" && in_autohand_dir).then_some(Claim::Name)
    },
    shapes: &[Shape {
        rank: 60,
        fits: |_, root| {
            super::native::hooks_by_event(root).is_some_and(|entries| {
                entries.iter().any(|e| e.key == "enabled")
                    || entries
                        .iter()
                        .any(|e| e.key == "hooks" && e.value.as_seq().is_some())
            })
        },
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
        ..WriteRules::PLAIN
    },
    switch_names: SwitchNames::NATIVE,
    run_config: None,
    disabled_name: None,
    editing: EditRules {
        switch_in_hooks: true,
        typed_regex: true,
        asks_description: true,
        ..EditRules::IN_PLACE
    },
};

/// Reads an Autohand `config.json`: checked against its schema, then [`load`].
fn read(reader: &mut Reader<'_>, root: &Node, file: &mut ConfigFile) {
    if !check::top_table(reader, root) {
        return;
    }
    check::file(reader, FileSchema::Autohand, root, rename_hint);
    load(reader, root, file);
}

/// Autohand's hints for unknown keys.
pub(crate) fn rename_hint(path: &[String], key: &str) -> Option<String> {
    let in_hook = path.len() == 3 && path[0] == "hooks" && path[1] == "hooks";
    match key {
        "timeout_ms" | "timeoutMs" if in_hook => {
            Some("Autohand's `timeout` is already in milliseconds".to_owned())
        }
        "type" if in_hook => Some("Autohand hooks are shell commands; write `command`".to_owned()),
        _ => None,
    }
}

pub(crate) fn load(reader: &mut Reader<'_>, root: &Node, file: &mut ConfigFile) {
    let Some(section) = field(root, "hooks") else {
        return;
    };
    let switch = reader.boolean(field(section, "enabled"));
    file.settings.hooks_enabled = switch;
    let Some(hooks) = field(section, "hooks").and_then(Node::as_seq) else {
        return;
    };
    for hook in hooks {
        if hook.as_map().is_none() {
            continue;
        }
        if let Some(mut spec) = autohand_hook(reader, hook) {
            if switch == Some(false) {
                spec.enabled = false;
            }
            file.items.push(Item::Hook(spec));
        }
    }
}

fn autohand_hook(reader: &mut Reader<'_>, node: &Node) -> Option<HookSpec> {
    reader.hook_label = reader.string(field(node, "description"));
    let event = field(node, "event").and_then(|e| {
        let name = e.as_str()?;
        reader.event(name, e.pos)
    });
    let command = field(node, "command").and_then(|c| {
        let s = c.as_str()?;
        reader.check_command_len(s.len(), c.pos).then_some(())?;
        Some(reader.interp(s, c.pos))
    });
    let matcher = reader.matcher(field(node, "matcher"), event.as_ref(), true);
    let timeout = reader.timeout(field(node, "timeout"));
    let filter = reader.filter(field(node, "filter"));
    let (Some(event), Some(command), Some(matcher), Some(timeout), Some(filter)) =
        (event, command, matcher, timeout, filter)
    else {
        return None;
    };
    let action = Action::script(command);
    let timeout = timeout.unwrap_or_else(|| reader.default_timeout(&event, &action, node.pos));
    let mut spec = HookSpec::new(event, action)
        .with_matcher(matcher)
        .with_filter(filter)
        .with_timeout(timeout)
        .with_async(reader.boolean(field(node, "async")).unwrap_or(false))
        .with_enabled(reader.boolean(field(node, "enabled")).unwrap_or(true))
        .with_dialect(Dialect::Autohand)
        .with_provenance(reader.provenance(node.pos));
    spec.description = reader.string(field(node, "description"));
    Some(spec)
}

//! OpenCode: no config file of hooks. Its hooks are JavaScript plugins (`.opencode/plugin/`,
//! `~/.config/opencode/plugin/`), which it runs itself and which the engine does not read;
//! the engine reaches it through the bridge's own plugin (`hooks install opencode`). So no
//! file is OpenCode's by its place, name or shape, text read in its dialect is refused,
//! and `hooks convert` writes nothing in it.

use hooks_core::Dialect;

use crate::dialects::files::{DialectFiles, EditRules, SwitchNames, Writing};
use crate::error::DiagnosticKind;
use crate::file::ConfigFile;
use crate::parse::Format;
use crate::reader::{ReadRules, Reader};
use crate::tree::Node;
use crate::write::WriteRules;

/// Why no text is read in OpenCode's dialect.
const NOT_A_CONFIG: &str = "OpenCode has no hooks config file: its hooks are JavaScript plugins, which the engine does not read";

/// OpenCode's row.
pub(crate) static FILES: DialectFiles = DialectFiles {
    dialect: Dialect::Opencode,
    formats: &[Format::Json],
    from_path: |_| None,
    shapes: &[],
    shape_over_name: crate::dialects::files::no_other_shape,
    layer_from_path: crate::dialects::files::no_layer,
    unparsed: None,
    read,
    path_var: crate::dialects::files::no_path_var,
    reading: ReadRules::PLAIN,
    writing: Writing::Refused {
        message: "OpenCode has no hooks config file to write: its hooks are JavaScript plugins",
        hint: "keep the hooks in the engine's own config and run `hooks install opencode`: its plugin sends OpenCode's tool calls and session events to them",
    },
    write_rules: WriteRules::PLAIN,
    switch_names: SwitchNames::NATIVE,
    run_config: None,
    disabled_name: None,
    editing: EditRules {
        refusal: Some(
            "is not an OpenCode hooks file: OpenCode has none (its hooks are JavaScript plugins)\n  hint: write hooks in the engine's own config; `hooks install opencode` makes OpenCode call them",
        ),
        ..EditRules::IN_PLACE
    },
};

/// Text read in OpenCode's dialect (`--dialect opencode`) is refused: OpenCode has no
/// hooks config to read.
fn read(reader: &mut Reader<'_>, root: &Node, _: &mut ConfigFile) {
    reader.error(
        DiagnosticKind::Dialect,
        root.pos,
        NOT_A_CONFIG,
        Some("write the hooks in the engine's own config (`hooks init`)".to_owned()),
    );
}

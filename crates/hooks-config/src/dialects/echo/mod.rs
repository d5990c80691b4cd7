//! echo-agent's files: `echo-agent.yaml` and a skill's `SKILL.md` frontmatter, hooks
//! nested by event as in Claude Code's files, prompt hooks that inject their text, and
//! `${SKILL_DIR}`, the skill's folder.

mod convert;

use std::path::Path;

use hooks_core::{Dialect, PromptMode};

use crate::check;
use crate::dialects::files::{Claim, DialectFiles, EditRules, Shape, SwitchNames, Writing};
use crate::dialects::handler;
use crate::file::ConfigFile;
use crate::parse::Format;
use crate::reader::{ReadRules, Reader};
use crate::schema::FileSchema;
use crate::tree::Node;
use crate::write::WriteRules;

/// echo-agent's row.
pub(crate) static FILES: DialectFiles = DialectFiles {
    dialect: Dialect::Echo,
    formats: &[Format::Yaml],
    from_path: |path| {
        let name = path.file_name()?.to_str()?;
        let echo = matches!(name, "SKILL.md" | "echo-agent.yaml" | "echo-agent.yml")
            || name.ends_with(".md");
        echo.then_some(Claim::Name)
    },
    shapes: &[Shape {
        rank: 90,
        fits: |format, root| {
            format == Format::Yaml && super::native::hooks_by_event(root).is_some()
        },
    }],
    shape_over_name: crate::dialects::files::no_other_shape,
    layer_from_path: crate::dialects::files::no_layer,
    unparsed: None,
    read,
    path_var: |path| skill_dir(path).map(|dir| ("${SKILL_DIR}", dir)),
    reading: ReadRules {
        prompt_mode: Some(PromptMode::Inject),
        ..ReadRules::PLAIN
    },
    writing: Writing::File(convert::write),
    write_rules: WriteRules::PLAIN,
    switch_names: SwitchNames::NATIVE,
    run_config: None,
    disabled_name: None,
    editing: EditRules::IN_PLACE,
};

/// Reads an echo-agent file: checked against its schema, then its hooks nested by event.
fn read(reader: &mut Reader<'_>, root: &Node, file: &mut ConfigFile) {
    if !check::top_table(reader, root) {
        return;
    }
    check::file(reader, FileSchema::Echo, root, handler::rename_hint);
    super::native::load_nested_file(reader, root, file, false);
}

/// The folder `${SKILL_DIR}` names: the file's folder, made absolute. The file's path is
/// made absolute first, so a bare file name's folder is the current directory rather than
/// the empty string (which would turn `${SKILL_DIR}/x.sh` into `/x.sh`).
fn skill_dir(path: &Path) -> Option<String> {
    crate::source::file_dir(path).map(|dir| dir.to_string_lossy().into_owned())
}

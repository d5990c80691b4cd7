//! The dialect loaders: each checks a parsed file against its dialect's schema, then reads
//! the hooks into [`hooks_core::HookSpec`]s with provenance.

mod autohand;
mod claude;
pub(crate) mod cline;
pub(crate) mod codex;
pub(crate) mod cursor;
mod fabro;
pub(crate) mod gemini;
mod handler;
mod native;

use hooks_core::Dialect;

use crate::check;
use crate::file::ConfigFile;
use crate::reader::Reader;
use crate::schema::FileSchema;
use crate::tree::Node;

/// Reads `root` in `reader.dialect` into `file`, reporting problems into `reader.diags`.
pub(crate) fn load(reader: &mut Reader<'_>, root: &Node, file: &mut ConfigFile) {
    let (schema, renames): (FileSchema, check::RenameHint) = match reader.dialect {
        Dialect::Fabro => (FileSchema::Fabro, fabro::rename_hint),
        Dialect::Autohand => (FileSchema::Autohand, autohand::rename_hint),
        Dialect::Claude => (FileSchema::Claude, handler::rename_hint),
        Dialect::Echo => (FileSchema::Echo, handler::rename_hint),
        Dialect::Gemini => (FileSchema::Gemini, handler::rename_hint),
        Dialect::Codex => (FileSchema::Codex, handler::rename_hint),
        Dialect::Native => (FileSchema::Native, handler::rename_hint),
        Dialect::Cursor => (FileSchema::Cursor, cursor::rename_hint),
        Dialect::Cline => {
            // A Cline hook is an executable file, loaded by its path, never parsed.
            reader.error(
                crate::error::DiagnosticKind::Dialect,
                root.pos,
                "a Cline hook is an executable file named after its event, not a config to parse",
                Some("name the file by its path (`-c .clinerules/hooks/PreToolUse`)".to_owned()),
            );
            return;
        }
    };
    if root.as_map().is_none() && root.value != crate::tree::Value::Null {
        reader.error(
            crate::error::DiagnosticKind::WrongType,
            root.pos,
            format!(
                "expected a table at the top of the file, found {}",
                root.type_name()
            ),
            None,
        );
        return;
    }
    if root.as_map().is_none() {
        // An empty document: nothing to check or read.
        return;
    }
    // Claude Code skips what it does not know and loads the rest; so does its loader here.
    let pruned;
    let mut codex_disabled = std::collections::HashSet::new();
    let root = match reader.dialect {
        Dialect::Claude => {
            pruned = claude::prune(reader, root);
            &pruned
        }
        Dialect::Codex => match codex::prune(reader, root, reader.format) {
            Some((tree, disabled)) => {
                pruned = tree;
                codex_disabled = disabled;
                &pruned
            }
            // A hooks.json Codex rejects whole: none of its hooks load.
            None => return,
        },
        Dialect::Native
        | Dialect::Echo
        | Dialect::Fabro
        | Dialect::Autohand
        | Dialect::Gemini
        | Dialect::Cursor
        | Dialect::Cline => root,
    };
    check::check(
        reader.src,
        schema.schema(),
        root,
        renames,
        &mut reader.structural,
    );
    // Claude Code, Gemini CLI and Codex ignore the keys they do not know.
    if matches!(
        reader.dialect,
        Dialect::Claude | Dialect::Gemini | Dialect::Codex
    ) {
        claude::soften_unknown_keys(&mut reader.structural);
    }
    match reader.dialect {
        Dialect::Fabro => {
            fabro::load(reader, root, file);
            fabro::run::check(reader, root);
            file.settings.run_environment = fabro::run::run_environment(reader, root);
        }
        Dialect::Autohand => autohand::load(reader, root, file),
        Dialect::Cursor => cursor::load(reader, root, file),
        Dialect::Claude | Dialect::Echo => native::load_nested_file(reader, root, file),
        Dialect::Gemini => gemini::load(reader, root, file),
        Dialect::Codex => codex::load(reader, root, &codex_disabled, file),
        Dialect::Native => native::load(reader, root, file),
        // Returned above.
        Dialect::Cline => {}
    }
}

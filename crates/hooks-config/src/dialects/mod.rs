//! The dialect loaders: each checks a parsed file against its dialect's schema, then reads
//! the hooks into [`hooks_core::HookSpec`]s with provenance.

mod autohand;
mod claude;
pub(crate) mod cline;
pub(crate) mod codex;
pub(crate) mod cursor;
pub(crate) mod fabro;
mod fabro_run;
pub(crate) mod gemini;
mod handler;
mod native;

use hooks_core::Dialect;

use crate::check;
use crate::load::{ConfigFile, Cx};
use crate::schema::FileSchema;
use crate::tree::Node;

/// Reads `root` in `cx.dialect` into `file`, reporting problems into `cx.diags`.
pub(crate) fn load(cx: &mut Cx<'_>, root: &Node, file: &mut ConfigFile) {
    let (schema, renames): (FileSchema, check::RenameHint) = match cx.dialect {
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
            cx.error(
                crate::error::DiagnosticKind::Dialect,
                root.pos,
                "a Cline hook is an executable file named after its event, not a config to parse",
                Some("name the file by its path (`-c .clinerules/hooks/PreToolUse`)".to_owned()),
            );
            return;
        }
    };
    if root.as_map().is_none() && root.value != crate::tree::Value::Null {
        cx.error(
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
    let root = match cx.dialect {
        Dialect::Claude => {
            pruned = claude::prune(cx, root);
            &pruned
        }
        Dialect::Codex => match codex::prune(cx, root, cx.format) {
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
    check::check(cx.src, schema.schema(), root, renames, &mut cx.structural);
    // Claude Code, Gemini CLI and Codex ignore the keys they do not know.
    if matches!(
        cx.dialect,
        Dialect::Claude | Dialect::Gemini | Dialect::Codex
    ) {
        claude::soften_unknown_keys(&mut cx.structural);
    }
    match cx.dialect {
        Dialect::Fabro => {
            fabro::load(cx, root, file);
            fabro_run::check(cx, root);
            file.settings.run_environment = fabro_run::run_environment(cx, root);
        }
        Dialect::Autohand => autohand::load(cx, root, file),
        Dialect::Cursor => cursor::load(cx, root, file),
        Dialect::Claude | Dialect::Echo => native::load_nested_file(cx, root, file),
        Dialect::Gemini => gemini::load(cx, root, file),
        Dialect::Codex => codex::load(cx, root, &codex_disabled, file),
        Dialect::Native => native::load(cx, root, file),
        // Returned above.
        Dialect::Cline => {}
    }
}

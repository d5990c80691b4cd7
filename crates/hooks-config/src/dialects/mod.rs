//! The dialect loaders: each checks a parsed file against its dialect's schema, then reads
//! the hooks into [`hooks_core::HookSpec`]s with provenance.

mod autohand;
mod claude;
mod fabro;
mod fabro_run;
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
        Dialect::Native => (FileSchema::Native, handler::rename_hint),
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
    let root = if cx.dialect == Dialect::Claude {
        pruned = claude::prune(cx, root);
        &pruned
    } else {
        root
    };
    check::check(cx.src, schema.schema(), root, renames, &mut cx.structural);
    if cx.dialect == Dialect::Claude {
        claude::soften_unknown_keys(&mut cx.structural);
    }
    match cx.dialect {
        Dialect::Fabro => {
            fabro::load(cx, root, file);
            fabro_run::check(cx, root);
            file.settings.run_environment = fabro_run::run_environment(cx, root);
        }
        Dialect::Autohand => autohand::load(cx, root, file),
        Dialect::Claude | Dialect::Echo => native::load_nested_file(cx, root, file),
        Dialect::Native => native::load(cx, root, file),
    }
}

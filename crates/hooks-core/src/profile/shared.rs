//! What several dialects' rows share: the Claude-shaped stdin most of them give their
//! hooks, and the renaming of a tool's arguments between an agent's names and the
//! canonical ones.

use serde_json::{Map, Value};

use crate::context::EventContext;
use crate::dialect::Dialect;

/// The stdin JSON most dialects share: `hook_event_name` (the event's name in `dialect`),
/// then `extra` (keys a dialect puts first, such as Fabro's `event`), then the context's
/// fields.
pub(crate) fn claude_stdin(
    ctx: &EventContext,
    dialect: Dialect,
    extra: Option<(&str, &str)>,
) -> Map<String, Value> {
    let mut out = Map::with_capacity(ctx.fields().len() + 3);
    out.insert(
        "hook_event_name".to_owned(),
        Value::String(ctx.event().info().name_in(dialect).to_owned()),
    );
    if let Some((key, value)) = extra {
        out.insert(key.to_owned(), Value::String(value.to_owned()));
    }
    for (k, v) in ctx.fields() {
        out.insert(k.clone(), v.clone());
    }
    out
}

/// [`claude_stdin`] for an agent that sends Claude Code's fields under its own tool names
/// (Qwen Code, Factory Droid): the event's tool in `dialect`'s name.
pub(crate) fn claude_stdin_in(ctx: &EventContext, dialect: Dialect) -> Map<String, Value> {
    let mut out = claude_stdin(ctx, dialect, None);
    if let Some(Value::String(name)) = out.get_mut("tool_name") {
        let own = dialect.profile().tools.from_canonical(name).into_owned();
        *name = own;
    }
    out
}

/// The argument names of an agent's tools where the canonical tool names them otherwise,
/// as (the agent's tool, [(its argument, the canonical tool's)]).
pub(crate) type ArgRenames = &'static [(&'static str, &'static [(&'static str, &'static str)])];

/// `args` of the agent's tool `tool` with the names `table` lists for that tool renamed:
/// from the agent's to the canonical ones (`to_canonical`), or back. Other arguments, and
/// the arguments of a tool the table does not list, keep their names.
pub(crate) fn rename_args(
    table: ArgRenames,
    tool: &str,
    args: Map<String, Value>,
    to_canonical: bool,
) -> Map<String, Value> {
    let Some((_, pairs)) = table.iter().find(|(t, _)| *t == tool) else {
        return args;
    };
    args.into_iter()
        .map(|(key, value)| {
            let to = pairs.iter().find_map(|&(own, canonical)| {
                let (from, to) = if to_canonical {
                    (own, canonical)
                } else {
                    (canonical, own)
                };
                (key == from).then_some(to)
            });
            (to.map_or(key, str::to_owned), value)
        })
        .collect()
}

/// A value an agent sends as JSON text (an MCP call's arguments): the JSON it holds, else
/// the text itself; a value that is not text as it is; none is `{}`.
pub(crate) fn json_text(value: Option<Value>) -> Value {
    match value {
        Some(Value::String(s)) => serde_json::from_str(&s).unwrap_or(Value::String(s)),
        Some(other) => other,
        None => Value::Object(Map::new()),
    }
}

//! Writing hooks as a Cursor `hooks.json`: command and prompt hooks under Cursor's event
//! names, tool matchers in Cursor's tool types.

use hooks_core::{
    Action, Dialect, Event, FailurePolicy, HookSpec, MatcherKind, PromptMode, StopBlockCap,
};
use serde_json::{Map, Value, json};

use crate::file::{Item, Settings};
use crate::write::{Writer, own_timeout, secs};

/// Cursor's `{"version": 1, "hooks": {event: [entry]}}`: command and prompt hooks, each
/// under the Cursor name it was registered on, else the event's first Cursor name with
/// its tool matcher in Cursor's tool types (`Bash` is `Shell`).
pub(crate) fn write(w: &mut Writer, items: &[Item], settings: &Settings) -> Value {
    w.directives(items);
    w.settings_lost(settings);
    let mut hooks: Map<String, Value> = Map::new();
    for spec in items.iter().filter_map(Item::hook) {
        if w.enabled(spec).is_none() {
            continue;
        }
        let mut h = Map::new();
        match &spec.action {
            Action::Command(c) => {
                let script = w.script(spec, &c.command);
                h.insert("command".into(), json!(script));
            }
            Action::Prompt(p) if p.mode == PromptMode::Evaluate => {
                h.insert("type".into(), json!("prompt"));
                h.insert("prompt".into(), json!(p.prompt));
                if let Some(m) = &p.model {
                    h.insert("model".into(), json!(m));
                }
            }
            other => {
                let why = format!("`{}` hooks", other.type_name());
                w.skip(spec, &why);
                continue;
            }
        }
        let home = spec
            .home_event
            .filter(|_| spec.dialect == Dialect::Cursor)
            .and_then(hooks_core::cursor::event);
        let (event, matcher) = match home {
            Some(home) => {
                let matcher = match home.matcher {
                    hooks_core::cursor::MatcherTarget::Command => {
                        spec.filter.command().map(str::to_owned)
                    }
                    hooks_core::cursor::MatcherTarget::ToolType
                    | hooks_core::cursor::MatcherTarget::Subagent => cursor_matcher(w, spec),
                    hooks_core::cursor::MatcherTarget::None => None,
                };
                (home.name.to_owned(), matcher)
            }
            None => (w.event_name(spec), cursor_matcher(w, spec)),
        };
        if let Some(m) = matcher {
            h.insert("matcher".into(), json!(m));
        }
        if let Some(t) = own_timeout(spec, Dialect::Cursor) {
            h.insert("timeout".into(), secs(t));
        }
        let fails_closed_anyway = home.is_some_and(|h| h.fail_closed);
        let fails_closed = spec.on_failure == FailurePolicy::Block;
        if fails_closed != fails_closed_anyway {
            h.insert("failClosed".into(), json!(fails_closed));
        }
        if let Some(limit) = spec.loop_limit {
            let default = StopBlockCap::at_most(hooks_core::cursor::DEFAULT_LOOP_LIMIT);
            if limit != default {
                h.insert("loop_limit".into(), json!(limit.limit()));
            }
        }
        let command_filter =
            home.is_some_and(|h| h.matcher == hooks_core::cursor::MatcherTarget::Command);
        // The folder Cursor runs a hook in follows from its file's place.
        let implied_cwd = match (&spec.action, &spec.provenance.file) {
            (Action::Command(c), Some(file)) if spec.dialect == Dialect::Cursor => {
                c.cwd.is_some() && c.cwd == super::working_dir(file, spec.provenance.layer)
            }
            _ => false,
        };
        let can: &[&str] = match (command_filter, implied_cwd) {
            (true, true) => &["command_filter", "cwd"],
            (true, false) => &["command_filter"],
            (false, true) => &["cwd"],
            (false, false) => &[],
        };
        w.common_losses(spec, can);
        if let Value::Array(list) = hooks.entry(event).or_insert_with(|| json!([])) {
            list.push(Value::Object(h));
        }
    }
    json!({"version": 1, "hooks": hooks})
}

/// A hook's tool matcher in Cursor's tool types: each canonical name of a name list
/// becomes its Cursor type (`Bash` is `Shell`); a regular expression is written as it
/// is, with a warning, since Cursor matches tool types by name.
fn cursor_matcher(w: &mut Writer, spec: &HookSpec) -> Option<String> {
    match spec.matcher.kind() {
        MatcherKind::All => None,
        MatcherKind::Exact(names) => {
            let mut types: Vec<String> = Vec::new();
            for name in names {
                let t = hooks_core::cursor::tool_type(name).into_owned();
                if !types.contains(&t) {
                    types.push(t);
                }
            }
            Some(types.join("|"))
        }
        MatcherKind::Regex(_) => {
            w.warn(
                spec,
                "the regular-expression matcher is written as it is; Cursor matches tool types (`Shell`, `Read`, ...) by name",
            );
            Some(spec.matcher.as_str().to_owned())
        }
    }
}

/// The Cursor event name a Cursor hook is kept under in a native file: the name it was
/// registered on, else its event's first Cursor name.
pub(crate) fn native_name(spec: &HookSpec) -> Option<&'static str> {
    let Event::Builtin(event) = &spec.event else {
        return None;
    };
    spec.home_event
        .and_then(hooks_core::cursor::event)
        .or_else(|| hooks_core::cursor::event_for(*event))
        .map(|home| home.name)
}

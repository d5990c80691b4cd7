//! One hook handler in the shape Claude Code, echo-agent and the native format share:
//! `{type, command | url | server + tool | prompt | decision, timeout, ...}`.

use hooks_core::{
    Action, CommandAction, CommandLine, Decision, Event, FailurePolicy, HookSpec, HttpAction,
    Matcher, McpToolAction, PermissionAction, PromptAction, PromptMode, Shell,
};

use crate::error::DiagnosticKind;
use crate::file::Item;
use crate::interpolate::EnvScope;
use crate::reader::{Reader, field};
use crate::tree::{Node, Value};

/// Hook types and the keys that belong to each.
const TYPE_KEYS: [(&str, &[&str]); 6] = [
    (
        "command",
        &[
            "command",
            "args",
            "cwd",
            "env",
            "sandbox",
            "shell",
            "asyncRewake",
        ],
    ),
    (
        "http",
        &["url", "headers", "allowed_env_vars", "allowedEnvVars"],
    ),
    ("mcp_tool", &["server", "tool", "input"]),
    (
        "prompt",
        &[
            "prompt",
            "model",
            "mode",
            "max_tool_rounds",
            "continueOnBlock",
        ],
    ),
    ("agent", &["prompt", "model", "max_tool_rounds"]),
    ("permission", &["decision", "reason"]),
];

/// Unknown-key hints shared by the native, Claude and echo-agent shapes.
pub(crate) fn rename_hint(path: &[String], key: &str) -> Option<String> {
    let in_handler = path.last().is_some_and(|p| p.starts_with('['));
    match key {
        "timeout_ms" | "timeoutMs" => Some(
            "timeouts are given as `timeout`, in seconds (the native format also takes `\"30s\"`)"
                .to_owned(),
        ),
        "matcher" if in_handler && path.len() >= 4 => {
            Some("a matcher belongs to the group, next to `hooks`".to_owned())
        }
        "event" if in_handler && path.len() >= 4 => {
            Some("in the nested shape, the event is the key the group list is under".to_owned())
        }
        _ => None,
    }
}

/// Which type a native handler is: its `type`, or the one its action key implies.
/// `Err` when the keys name several types (reported here).
fn infer_type(reader: &mut Reader<'_>, node: &Node) -> Result<Option<String>, ()> {
    if let Some(t) = field(node, "type") {
        return Ok(t.as_str().map(str::to_owned));
    }
    let mut found: Vec<&str> = Vec::new();
    for (key, ty) in [
        ("command", "command"),
        ("args", "command"),
        ("url", "http"),
        ("server", "mcp_tool"),
        ("tool", "mcp_tool"),
        ("prompt", "prompt"),
        ("decision", "permission"),
    ] {
        if field(node, key).is_some() && !found.contains(&ty) {
            found.push(ty);
        }
    }
    match found.as_slice() {
        [one] => Ok(Some((*one).to_owned())),
        [] => Ok(None),
        many => {
            reader.error(
                DiagnosticKind::Conflict,
                node.pos,
                format!(
                    "a hook does one thing, but this one has the keys of {}",
                    many.join(", ")
                ),
                Some("split it into one hook per action, or set `type`".to_owned()),
            );
            Err(())
        }
    }
}

/// Whether a native handler is only a merge directive (`{id, enabled}` or `{id, remove}`).
pub(crate) fn is_directive(node: &Node) -> bool {
    let Some(entries) = node.as_map() else {
        return false;
    };
    entries.iter().all(|e| {
        matches!(
            e.key.as_str(),
            "id" | "enabled" | "remove" | "event" | "matcher"
        )
    }) && (field(node, "remove").is_some() || field(node, "enabled").is_some())
}

fn label(node: &Node) -> Option<String> {
    for key in ["id", "name", "command", "url", "prompt", "tool"] {
        if let Some(text) = field(node, key).and_then(Node::as_str) {
            let short: String = text.chars().take(40).collect();
            return Some(short);
        }
    }
    None
}

/// Reads one handler. `event` and `matcher` come from the surrounding group or hook.
pub(crate) fn handler(
    reader: &mut Reader<'_>,
    node: &Node,
    event: Option<Event>,
    matcher: Option<Matcher>,
) -> Option<Item> {
    // A handler that is not a table was reported by the schema check.
    node.as_map()?;
    let dialect = reader.dialect;
    let native = reader.rules.native_handlers;
    reader.hook_label = label(node);
    let id = reader.string(field(node, "id"));
    if native && is_directive(node) {
        let Some(id) = id else {
            reader.error(
                DiagnosticKind::MissingKey,
                node.pos,
                "`enabled` or `remove` without an action needs the `id` of the hook to change",
                None,
            );
            return None;
        };
        let provenance = reader.provenance(node.pos);
        if reader.boolean(field(node, "remove")) == Some(true) {
            return Some(Item::Remove { id, provenance });
        }
        if let Some(enabled) = reader.boolean(field(node, "enabled")) {
            return Some(Item::SetEnabled {
                id,
                enabled,
                provenance,
            });
        }
        return None;
    }
    if native && field(node, "remove").is_some() {
        let pos = node.get("remove").map_or(node.pos, |e| e.key_pos);
        reader.error(
            DiagnosticKind::Conflict,
            pos,
            "`remove` takes only the `id` of the inherited hook to remove",
            Some("drop the other keys, or drop `remove` to replace the hook instead".to_owned()),
        );
        return None;
    }
    let ty = if native {
        infer_type(reader, node).ok()?
    } else {
        reader.string(field(node, "type"))
    };
    let Some(ty) = ty else {
        if native && field(node, "type").is_none() {
            reader.error(
                DiagnosticKind::MissingKey,
                node.pos,
                "the hook has no action",
                Some("give it one of `command`, `args`, `url`, `server` + `tool`, `prompt` or `decision`".to_owned()),
            );
        }
        return None;
    };
    // Keys of another hook type are mistakes, not silently ignored extras.
    let Some(own) = TYPE_KEYS.iter().find(|(t, _)| *t == ty).map(|(_, k)| *k) else {
        // An unknown type was reported by the schema check.
        return None;
    };
    for entry in node.as_map().unwrap_or_default() {
        let foreign = TYPE_KEYS
            .iter()
            .any(|(t, keys)| *t != ty && keys.contains(&entry.key.as_str()));
        if foreign && !own.contains(&entry.key.as_str()) {
            // Claude Code ignores what does not apply; other dialects refuse it.
            if reader.rules.ignores_inapplicable_keys {
                reader.warn(
                    DiagnosticKind::Conflict,
                    entry.key_pos,
                    format!(
                        "`{}` does not apply to a {ty} hook; it is ignored",
                        entry.key
                    ),
                    None,
                );
            } else {
                reader.error(
                    DiagnosticKind::Conflict,
                    entry.key_pos,
                    format!("`{}` does not apply to a {ty} hook", entry.key),
                    None,
                );
            }
        }
    }
    let action = action(reader, node, &ty);
    let timeout = reader.timeout(field(node, "timeout"));
    let condition = reader.condition(field(node, "if"));
    let filter = reader.filter(field(node, "filter"));
    // Every part was checked (and its problems reported) before giving up on the hook.
    let (Some(action), Some(timeout), Some(condition), Some(filter), Some(event), Some(matcher)) =
        (action, timeout, condition, filter, event, matcher)
    else {
        return None;
    };
    // Only the native format says how often a Stop hook's block may keep the agent going.
    let loop_limit = if native {
        let written = node.get("loop_limit").map(|e| &e.value);
        reader.loop_limit(written, &event, "`Stop` and `SubagentStop`")?
    } else {
        None
    };
    let timeout = timeout.unwrap_or_else(|| reader.default_timeout(&event, &action, node.pos));
    let mut spec = HookSpec::new(event, action)
        .with_matcher(matcher)
        .with_filter(filter)
        .with_timeout(timeout)
        .with_dialect(dialect)
        .with_provenance(reader.provenance(node.pos));
    spec.id = id;
    spec.loop_limit = loop_limit;
    spec.name = reader.string(field(node, "name"));
    spec.description = reader
        .string(field(node, "description"))
        .or_else(|| reader.string(field(node, "statusMessage")));
    spec.condition = condition;
    let rewake = matches!(&spec.action, Action::Command(c) if c.rewake);
    spec.is_async = rewake || reader.boolean(field(node, "async")).unwrap_or(false);
    spec.enabled = reader.boolean(field(node, "enabled")).unwrap_or(true);
    // `true` is the event's one ordered group, named after the event.
    spec.sequential = match field(node, "sequential") {
        Some(n) if n.value == Value::Bool(true) => Some(spec.event.name().to_owned()),
        other => reader.string(other),
    };
    if reader.string(field(node, "on_failure")).as_deref() == Some("block") {
        spec.on_failure = FailurePolicy::Block;
    }
    if let Some(once) = field(node, "once")
        && once.value == Value::Bool(true)
    {
        reader.warn(
            DiagnosticKind::InvalidValue,
            once.pos,
            "`once` is not supported; the hook runs every time it matches",
            None,
        );
    }
    Some(Item::Hook(spec))
}

pub(crate) fn action(reader: &mut Reader<'_>, node: &Node, ty: &str) -> Option<Action> {
    let missing = |reader: &mut Reader<'_>, key: &str| {
        reader.error(
            DiagnosticKind::MissingKey,
            node.pos,
            format!("a {ty} hook needs `{key}`"),
            None,
        );
    };
    match ty {
        "command" => {
            let command = field(node, "command");
            let args = field(node, "args");
            let claude = reader.rules.exec_form;
            let line = match (command, args) {
                // Claude Code's exec form: `command` is the program, `args` its arguments.
                (Some(c), Some(a)) if claude => {
                    let mut argv = vec![Node::new(c.pos, c.value.clone())];
                    argv.extend(a.as_seq()?.iter().cloned());
                    argv_of(reader, &argv, c.pos)?
                }
                (None, Some(_)) if claude => {
                    missing(reader, "command");
                    return None;
                }
                (Some(_), Some(a)) => {
                    let pos = node.get("args").map_or(a.pos, |e| e.key_pos);
                    reader.error(
                        DiagnosticKind::Conflict,
                        pos,
                        "a hook has `command` or `args`, not both",
                        Some("`command` is a shell script, `args` an argv vector".to_owned()),
                    );
                    return None;
                }
                (Some(c), None) => match &c.value {
                    Value::Str(s) => {
                        reader.check_command_len(s.len(), c.pos).then_some(())?;
                        CommandLine::Script(reader.interp(s, c.pos))
                    }
                    Value::Seq(_) => argv(reader, c)?,
                    _ => return None,
                },
                (None, Some(a)) => argv(reader, a)?,
                (None, None) => {
                    missing(reader, "command");
                    return None;
                }
            };
            let mut action = CommandAction::new(line);
            if let Some(cwd) = field(node, "cwd").and_then(Node::as_str) {
                let pos = field(node, "cwd").map_or(node.pos, |n| n.pos);
                action.cwd = Some(reader.interp(cwd, pos).into());
            }
            action.env = reader.string_map(field(node, "env"));
            // A plugin's hooks get its root, as Claude Code exports it (their own `env`,
            // later, still wins).
            if let Some(root) = reader.plugin_root() {
                action
                    .env
                    .insert(0, ("CLAUDE_PLUGIN_ROOT".to_owned(), root.to_owned()));
            }
            // A Codex plugin's hooks get its root and data directory, under Codex's names
            // and Claude Code's, as Codex exports them (worked out once per file; none for
            // any other file).
            action
                .env
                .splice(0..0, reader.codex_plugin_env.iter().cloned());
            action.sandbox = reader.boolean(field(node, "sandbox"));
            action.rewake = reader.boolean(field(node, "asyncRewake")).unwrap_or(false);
            if let Some(shell) = field(node, "shell") {
                action.shell = match shell.as_str() {
                    Some("bash") => Some(Shell::Bash),
                    Some("powershell") => Some(Shell::Powershell),
                    // The schema check reported other values.
                    _ => None,
                };
                if matches!(action.command, CommandLine::Argv(_)) {
                    reader.warn(
                        DiagnosticKind::Conflict,
                        shell.pos,
                        "`shell` is ignored with `args`: the program runs without a shell",
                        None,
                    );
                    action.shell = None;
                }
            }
            Some(Action::Command(action))
        }
        "http" => {
            let Some(url_node) = field(node, "url") else {
                missing(reader, "url");
                return None;
            };
            let allowed = reader
                .strings(field(node, "allowed_env_vars").or_else(|| field(node, "allowedEnvVars")))
                .unwrap_or_default();
            let url = reader.interp_in(
                url_node.as_str()?,
                url_node.pos,
                EnvScope::HttpUrl(&allowed),
            );
            let headers =
                reader.string_map_in(field(node, "headers"), EnvScope::HttpHeader(&allowed));
            Some(Action::Http(HttpAction {
                url,
                headers,
                allowed_env_vars: allowed,
            }))
        }
        "mcp_tool" => {
            let server = reader.string(field(node, "server"));
            let tool = reader.string(field(node, "tool"));
            let (Some(server), Some(tool)) = (server, tool) else {
                missing(reader, "server` and `tool");
                return None;
            };
            let input = field(node, "input")
                .map_or(serde_json::Value::Object(Default::default()), Node::to_json);
            let pos = field(node, "input").map_or(node.pos, |n| n.pos);
            let input = crate::interpolate::map_action::<()>(
                &Action::McpTool(McpToolAction {
                    server: server.clone(),
                    tool: tool.clone(),
                    input,
                }),
                &mut |s| Ok(reader.interp(s, pos)),
            )
            .ok()?;
            Some(input)
        }
        "prompt" | "agent" => {
            let Some(p) = field(node, "prompt") else {
                missing(reader, "prompt");
                return None;
            };
            let prompt = reader.interp(p.as_str()?, p.pos);
            let mode = match (reader.rules.prompt_mode, ty) {
                (_, "agent") => PromptMode::Agent,
                (Some(mode), _) => mode,
                (None, _) => match reader.string(field(node, "mode")).as_deref() {
                    Some("inject") => PromptMode::Inject,
                    Some("agent") => PromptMode::Agent,
                    _ => PromptMode::Evaluate,
                },
            };
            // Native agent hooks take Fabro's `max_tool_rounds` (the schema allows it there
            // only), so a converted Fabro agent hook keeps it.
            let max_tool_rounds = match field(node, "max_tool_rounds").map(|n| &n.value) {
                Some(Value::Int(i)) if mode == PromptMode::Agent => u32::try_from(*i).ok(),
                _ => None,
            };
            Some(Action::Prompt(PromptAction {
                prompt,
                mode,
                model: reader.string(field(node, "model")),
                max_tool_rounds,
                // Agent hooks always feed the reason back (the executor knows).
                continue_on_block: mode == PromptMode::Evaluate
                    && reader.boolean(field(node, "continueOnBlock")) == Some(true),
            }))
        }
        "permission" => {
            let Some(d) = field(node, "decision") else {
                missing(reader, "decision");
                return None;
            };
            let decision = match d.as_str()? {
                "allow" => Decision::Allow,
                "deny" => Decision::Deny,
                "ask" => Decision::Ask,
                // The schema check reported other values.
                _ => return None,
            };
            let reason = field(node, "reason")
                .and_then(|r| r.as_str().map(|s| (s.to_owned(), r.pos)))
                .map(|(s, pos)| reader.interp(&s, pos));
            Some(Action::Permission(PermissionAction { decision, reason }))
        }
        // The schema check reported unknown types.
        _ => None,
    }
}

/// An argv command (a list of strings, at least the program), length-checked and
/// interpolated; shared by every dialect that has one.
pub(crate) fn argv(reader: &mut Reader<'_>, node: &Node) -> Option<CommandLine> {
    argv_of(reader, node.as_seq()?, node.pos)
}

/// [`argv`] of the items written at `pos`.
fn argv_of(reader: &mut Reader<'_>, items: &[Node], pos: crate::tree::Pos) -> Option<CommandLine> {
    if items.is_empty() {
        reader.error(
            DiagnosticKind::InvalidValue,
            pos,
            "an argv command needs at least the program",
            None,
        );
        return None;
    }
    let len: usize = items
        .iter()
        .filter_map(Node::as_str)
        .map(|s| s.len() + 1)
        .sum();
    reader.check_command_len(len, pos).then_some(())?;
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        out.push(reader.interp(item.as_str()?, item.pos));
    }
    Some(CommandLine::Argv(out))
}

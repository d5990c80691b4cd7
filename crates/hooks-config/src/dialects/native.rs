//! The native format (flat or nested by event, in YAML, TOML or JSON) and the nested
//! files of Claude Code (`settings.json`) and echo-agent (`echo-agent.yaml`, SKILL.md).

use crate::dialects::handler::{handler, is_directive};
use crate::error::DiagnosticKind;
use crate::load::{ConfigFile, Cx, field};
use crate::tree::{Node, Value};

/// A native file: `version`, `vars`, the switches and `hooks` in either shape.
pub(crate) fn load(cx: &mut Cx<'_>, root: &Node, file: &mut ConfigFile) {
    if let Some(v) = field(root, "version")
        && v.value != Value::Int(1)
    {
        cx.error(
            DiagnosticKind::InvalidValue,
            v.pos,
            "unsupported `version`; only 1 is known",
            Some("write `version: 1` or leave it out".to_owned()),
        );
    }
    if let Some(vars) = field(root, "vars").and_then(Node::as_map) {
        for e in vars {
            if let Some(v) = e.value.as_str() {
                file.settings.vars.insert(e.key.clone(), v.to_owned());
            }
        }
        cx.file_vars = file.settings.vars.clone();
    }
    file.settings.disable_all_hooks = cx.boolean(field(root, "disable_all_hooks"));
    file.settings.managed_hooks_only = cx.boolean(field(root, "managed_hooks_only"));
    file.settings.allowed_http_hook_urls = cx.url_patterns(field(root, "allowed_http_hook_urls"));
    match field(root, "hooks").map(|h| &h.value) {
        Some(Value::Seq(hooks)) => {
            for hook in hooks {
                if hook.as_map().is_none() {
                    continue;
                }
                if field(hook, "event").is_none() && !is_directive(hook) {
                    cx.error(
                        DiagnosticKind::MissingKey,
                        hook.pos,
                        "the hook has no `event`",
                        Some("name the event it runs on, as in `event: PreToolUse`".to_owned()),
                    );
                }
                let event = field(hook, "event").and_then(|e| {
                    let name = e.as_str()?;
                    cx.event(name, e.pos)
                });
                let matcher = cx.matcher(field(hook, "matcher"), event.as_ref(), false);
                if let Some(item) = handler(cx, hook, event, matcher) {
                    file.items.push(item);
                }
            }
        }
        Some(Value::Map(_)) => {
            if let Some(hooks) = field(root, "hooks") {
                nested(cx, hooks, file);
            }
        }
        _ => {}
    }
}

/// A Claude Code or echo-agent file: the switches (Claude) and hooks nested by event.
pub(crate) fn load_nested_file(cx: &mut Cx<'_>, root: &Node, file: &mut ConfigFile) {
    file.settings.disable_all_hooks = cx.boolean(field(root, "disableAllHooks"));
    file.settings.managed_hooks_only = cx.boolean(field(root, "allowManagedHooksOnly"));
    file.settings.allowed_http_hook_urls = cx.url_patterns(field(root, "allowedHttpHookUrls"));
    if let Some(hooks) = field(root, "hooks") {
        nested(cx, hooks, file);
    }
}

/// `{Event: [{matcher, hooks: [handler, ..]}, ..], ..}`.
fn nested(cx: &mut Cx<'_>, hooks: &Node, file: &mut ConfigFile) {
    let Some(events) = hooks.as_map() else {
        return;
    };
    for entry in events {
        let event = cx.event(&entry.key, entry.key_pos);
        let Some(groups) = entry.value.as_seq() else {
            continue;
        };
        for group in groups {
            if group.as_map().is_none() {
                continue;
            }
            let matcher = cx.matcher(field(group, "matcher"), event.as_ref(), false);
            let Some(handlers) = field(group, "hooks").and_then(Node::as_seq) else {
                continue;
            };
            for h in handlers {
                if let Some(item) = handler(cx, h, event.clone(), matcher.clone()) {
                    file.items.push(item);
                }
            }
        }
    }
}

//! Default timeouts have one owner: a hook loaded from a file without a `timeout` gets what
//! the executor would give the same hook built in code without one, and both are
//! `hooks_core::default_timeout`'s, for every dialect, handler type and a spread of events.

use hooks::config::{LoadOptions, load_str};
use hooks::core::{BuiltinEvent, Dialect, HookSpec, MAX_TIMEOUT, default_timeout_for};
use hooks::exec::Timeouts;

/// A file of `dialect` holding one hook of handler type `ty` on `event`, with no timeout.
fn file(dialect: Dialect, event: BuiltinEvent, ty: &str) -> String {
    let name = event.info().name_in(dialect).to_owned();
    let action = |cmd: &str, prompt: &str, agent: &str| match ty {
        "command" => cmd.to_owned(),
        "prompt" => prompt.to_owned(),
        _ => agent.to_owned(),
    };
    match dialect {
        Dialect::Native => format!(
            "hooks:\n  - event: {name}\n    {}\n",
            action(
                "command: 'true'",
                "prompt: ok?",
                "type: agent\n    prompt: ok?"
            )
        ),
        Dialect::Claude => format!(
            r#"{{"hooks": {{"{name}": [{{"hooks": [{{"type": "{ty}", {}}}]}}]}}}}"#,
            action(
                r#""command": "true""#,
                r#""prompt": "ok?""#,
                r#""prompt": "ok?""#
            )
        ),
        Dialect::Echo => format!(
            "hooks:\n  {name}:\n    - hooks:\n        - type: command\n          command: 'true'\n"
        ),
        Dialect::Fabro => format!(
            "_version = 1\n[[run.hooks]]\nevent = \"{name}\"\n{}\n",
            action(
                "script = \"true\"",
                "prompt = \"ok?\"",
                "agent = \"enabled\"\nprompt = \"ok?\""
            )
        ),
        Dialect::Autohand => {
            format!(r#"{{"hooks": {{"hooks": [{{"event": "{name}", "command": "true"}}]}}}}"#)
        }
        Dialect::Gemini | Dialect::Codex | Dialect::Droid => format!(
            r#"{{"hooks": {{"{name}": [{{"hooks": [{{"type": "command", "command": "true"}}]}}]}}}}"#
        ),
        Dialect::Qwen => format!(
            r#"{{"hooks": {{"{name}": [{{"hooks": [{{"type": "{ty}", {}}}]}}]}}}}"#,
            action(r#""command": "true""#, r#""prompt": "ok?""#, "")
        ),
        Dialect::Cursor => format!(
            r#"{{"version": 1, "hooks": {{"{name}": [{{{}}}]}}}}"#,
            action(
                r#""command": "true""#,
                r#""type": "prompt", "prompt": "ok?""#,
                r#""type": "prompt", "prompt": "ok?""#
            )
        ),
        // Cline hooks are files, not text: none is loaded from a string.
        Dialect::Cline => String::new(),
        Dialect::Copilot => {
            format!(
                r#"{{"version": 1, "hooks": {{"{name}": [{{"type": "command", "bash": "true"}}]}}}}"#
            )
        }
        // OpenCode has no hooks file: none is loaded.
        Dialect::Opencode => String::new(),
    }
}

/// The handler types each dialect's files can write.
fn types(dialect: Dialect) -> &'static [&'static str] {
    match dialect {
        Dialect::Native | Dialect::Claude | Dialect::Fabro => &["command", "prompt", "agent"],
        Dialect::Echo
        | Dialect::Autohand
        | Dialect::Gemini
        | Dialect::Codex
        | Dialect::Droid
        | Dialect::Copilot => &["command"],
        Dialect::Cursor | Dialect::Qwen => &["command", "prompt"],
        Dialect::Cline => &[],
        Dialect::Opencode => &[],
    }
}

#[test]
fn loaded_and_built_hooks_get_the_one_tables_default() {
    let events = [
        BuiltinEvent::PreToolUse,
        BuiltinEvent::PostToolUse,
        BuiltinEvent::UserPromptSubmit,
        BuiltinEvent::MessageDisplay,
        BuiltinEvent::SessionEnd,
        BuiltinEvent::Stop,
        BuiltinEvent::StageStart,
    ];
    let mut checked = 0;
    for dialect in Dialect::ALL {
        for &event in &events {
            // Fabro runs only its own events.
            let is_fabro_event = event
                .info()
                .aliases()
                .iter()
                .any(|a| a.dialect == Dialect::Fabro);
            if (dialect == Dialect::Fabro) != is_fabro_event && event != BuiltinEvent::PreToolUse {
                continue;
            }
            if dialect == Dialect::Autohand && event.info().name_in(dialect) == event.name() {
                continue;
            }
            // Gemini CLI, Codex, Cursor, Qwen Code, Droid and Copilot run only their own
            // events.
            if matches!(
                dialect,
                Dialect::Gemini
                    | Dialect::Codex
                    | Dialect::Cursor
                    | Dialect::Qwen
                    | Dialect::Droid
                    | Dialect::Copilot
            ) && !dialect.profile().has_event(event)
            {
                continue;
            }
            for ty in types(dialect) {
                let text = file(dialect, event, ty);
                let options = LoadOptions::new().with_dialect(dialect);
                let loaded = load_str(&text, None, &options)
                    .unwrap_or_else(|e| panic!("{dialect} {event} {ty}: {e}\n{text}"));
                // Claude Code runs no prompt or agent hooks on some events (SessionEnd,
                // MessageDisplay): the loader skips them.
                let Some(spec) = loaded.hooks().next().cloned() else {
                    assert!(
                        dialect == Dialect::Claude && *ty != "command",
                        "{dialect} {event} {ty}"
                    );
                    continue;
                };
                let mut built =
                    HookSpec::new(spec.event.clone(), spec.action.clone()).with_dialect(dialect);
                built.timeout = None;
                let table =
                    default_timeout_for(dialect, &spec.action, &spec.event).min(MAX_TIMEOUT);
                assert_eq!(
                    spec.timeout,
                    Some(table),
                    "{dialect} {event} {ty}: the loader"
                );
                assert_eq!(
                    Timeouts::default().effective(&built),
                    table,
                    "{dialect} {event} {ty}: the executor"
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 20, "only {checked} combinations checked");
}

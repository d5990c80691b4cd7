//! Converting between dialects: round trips (load, convert, load again gives the same
//! hooks), warnings for what a target cannot express, and no secret ever written out.

use std::path::Path;

use hooks_config::core::Dialect;
use hooks_config::{ConfigFile, Format, convert, convert_items, equivalent, load_str};
use serde_json::Value;

use crate::support::{load_example, options, summary};

fn file_name(dialect: Dialect, format: Format) -> &'static str {
    match (dialect, format) {
        (Dialect::Claude, _) => "settings.json",
        (Dialect::Echo, _) => "echo-agent.yaml",
        (Dialect::Fabro, _) => "run.toml",
        (Dialect::Autohand, _) => "config.json",
        (Dialect::Gemini, _) => "gemini-settings.json",
        (Dialect::Codex, _) => "hooks.json",
        (Dialect::Cursor, _) => ".cursor/hooks.json",
        (Dialect::Cline, _) => ".clinerules/hooks/PreToolUse",
        (Dialect::Qwen, _) => ".qwen/settings.json",
        (Dialect::Droid, _) => ".factory/settings.json",
        (Dialect::Copilot, _) => ".github/hooks/guard.json",
        // OpenCode has no hooks file: nothing converts to it (below).
        (Dialect::Opencode, _) => "opencode.json",
        (Dialect::Native, Format::Toml) => "hooks.toml",
        (Dialect::Native, Format::Json) => "hooks.json",
        (Dialect::Native, Format::Yaml | _) => "hooks.yaml",
    }
}

/// Converts `file` to `to` and loads the result back.
#[track_caller]
fn round(file: &ConfigFile, to: Dialect, format: Option<Format>) -> (ConfigFile, Vec<String>) {
    let converted = convert_items(&file.items, &file.settings, to, format).unwrap();
    let name = file_name(to, converted.format);
    let back = load_str(
        &converted.text,
        Some(Path::new(name)),
        &options().with_dialect(to),
    )
    .unwrap_or_else(|e| {
        panic!(
            "the {to} output does not load:\n{e}\n---\n{}",
            converted.text
        )
    });
    let warnings = converted
        .warnings
        .iter()
        .map(|w| w.message.clone())
        .collect();
    (back, warnings)
}

/// The two files have equivalent hooks, in order.
#[track_caller]
fn same(a: &ConfigFile, b: &ConfigFile) {
    let left: Vec<_> = a.hooks().collect();
    let right: Vec<_> = b.hooks().collect();
    assert_eq!(left.len(), right.len(), "hook counts differ");
    for (x, y) in left.iter().zip(&right) {
        assert!(
            equivalent(x, y),
            "not equivalent:\n{:#}\n{:#}",
            summary(x),
            summary(y)
        );
    }
}

const EXAMPLES: [&str; 13] = [
    "echo/echo-agent.yaml",
    "echo/skills/safe-shell/SKILL.md",
    "fabro/run.toml",
    "fabro/hooks.toml",
    "fabro/.fabro/project.toml",
    "fabro/home/.fabro/settings.toml",
    "autohand/.autohand/config.json",
    "claude/.claude/settings.json",
    "claude/.claude/settings.local.json",
    "claude/managed/managed-settings.json",
    "native/hooks.yaml",
    "native/hooks.toml",
    "native/hooks.json",
];

#[test]
fn every_example_round_trips_in_its_own_dialect() {
    for rel in EXAMPLES {
        let file = load_example(rel);
        let (back, warnings) = round(&file, file.dialect, Some(file.format));
        same(&file, &back);
        assert_eq!(
            back.settings.disable_all_hooks, file.settings.disable_all_hooks,
            "{rel}"
        );
        assert_eq!(
            back.settings.allowed_http_hook_urls, file.settings.allowed_http_hook_urls,
            "{rel}"
        );
        // Only argv commands, which Claude-style targets write as quoted shell commands,
        // may warn when a file goes back to its own dialect; none of these examples has one
        // outside the native and Fabro dialects, which keep argv.
        assert!(warnings.is_empty(), "{rel}: {warnings:?}");
    }
}

#[test]
fn every_dialect_round_trips_through_native_in_each_syntax() {
    for rel in EXAMPLES {
        let file = load_example(rel);
        for format in [Format::Yaml, Format::Toml, Format::Json] {
            let (native, warnings) = round(&file, Dialect::Native, Some(format));
            assert!(warnings.is_empty(), "{rel}: {warnings:?}");
            same(&file, &native);
            // And back to where it came from.
            let (back, _) = round(&native, file.dialect, None);
            same(&file, &back);
        }
    }
}

#[test]
fn what_a_target_cannot_express_is_a_warning() {
    let file = load_example("native/hooks.yaml");
    let mut report = serde_json::Map::new();
    for to in [
        Dialect::Claude,
        Dialect::Echo,
        Dialect::Fabro,
        Dialect::Autohand,
    ] {
        let converted = convert(&file, to).unwrap();
        let shown: Vec<String> = converted
            .warnings
            .iter()
            .map(|w| {
                let at = w.line.map(|l| format!("{l}: ")).unwrap_or_default();
                format!("{at}{}", w.message)
            })
            .collect();
        report.insert(to.as_str().to_owned(), serde_json::json!(shown));
        // What was written loads, and every hook in it is one of the originals (argv
        // commands come back as quoted shell commands where the target has no argv).
        let (back, _) = round(&file, to, None);
        for hook in back.hooks() {
            assert!(file.hooks().any(|h| {
                h.event == hook.event
                    && h.action.type_name() == hook.action.type_name()
                    && h.matcher.as_str().trim_start_matches('^')
                        == hook
                            .matcher
                            .as_str()
                            .trim_start_matches('^')
                            .trim_end_matches('$')
                    || h.matcher.as_str() == hook.matcher.as_str()
            }));
        }
    }
    insta::assert_json_snapshot!(Value::Object(report));
}

#[test]
fn converted_texts() {
    let file = load_example("claude/.claude/settings.json");
    for to in [
        Dialect::Native,
        Dialect::Echo,
        Dialect::Fabro,
        Dialect::Autohand,
    ] {
        let converted = convert(&file, to).unwrap();
        insta::assert_snapshot!(format!("claude_to_{to}"), converted.text);
    }
    let fabro = load_example("fabro/hooks.toml");
    insta::assert_snapshot!(
        "fabro_to_claude",
        convert(&fabro, Dialect::Claude).unwrap().text
    );
}

#[test]
fn matchers_keep_their_meaning_across_matcher_languages() {
    let claude = load_str(
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash|Edit", "hooks": [{"type": "command", "command": "a"}]}, {"matcher": "Write", "hooks": [{"type": "command", "command": "b"}]}]}}"#,
        Some(Path::new("settings.json")),
        &options(),
    )
    .unwrap();
    let (fabro, _) = round(&claude, Dialect::Fabro, None);
    let matchers: Vec<&str> = fabro.hooks().map(|h| h.matcher.as_str()).collect();
    assert_eq!(matchers, ["^(?:Bash|Edit)$", "^Write$"]);
    // As regexes they match exactly what the name lists matched.
    let bash_x = fabro.hooks().next().unwrap();
    assert!(bash_x.matcher.is_match("Bash") && !bash_x.matcher.is_match("BashX"));
    // A Fabro regex that looks like a name stays a regex in a Claude-style file.
    let fabro = load_example("fabro/hooks.toml");
    let (claude, _) = round(&fabro, Dialect::Claude, None);
    let first = claude.hooks().next().unwrap();
    assert_eq!(first.matcher.as_str(), "(?:agent)");
    assert!(first.matcher.is_match("my-agent-node"));
}

#[test]
fn secrets_stay_tokens_in_converted_files() {
    let file = load_example("fabro/hooks.toml");
    for to in [Dialect::Native, Dialect::Claude, Dialect::Fabro] {
        let text = convert(&file, to).unwrap().text;
        assert!(text.contains("{{ secrets.SLACK_TOKEN }}"), "{to}: {text}");
        assert!(!text.contains("xoxb-slack-secret"), "{to}");
    }
}

#[test]
fn tool_names_timeouts_and_events_are_written_in_gemini_clis_and_codexs_terms() {
    let claude = load_str(
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash|Edit", "hooks": [{"type": "command", "command": "a", "timeout": 30}]}],
            "SessionStart": [{"matcher": "startup|resume", "hooks": [{"type": "command", "command": "b"}]}],
            "PostToolUse": [{"matcher": "Write", "hooks": [{"type": "http", "url": "http://127.0.0.1:1/"}]}]}}"#,
        Some(Path::new("settings.json")),
        &options(),
    )
    .unwrap();
    let (gemini, warnings) = round(&claude, Dialect::Gemini, None);
    let hooks: Vec<_> = gemini.hooks().collect();
    assert_eq!(hooks.len(), 2, "the http hook is left out: {warnings:?}");
    assert_eq!(hooks[0].matcher.as_str(), "^(?:run_shell_command|replace)$");
    assert!(hooks[0].matcher.is_match("run_shell_command") && !hooks[0].matcher.is_match("Bash"));
    assert_eq!(hooks[0].timeout, Some(std::time::Duration::from_secs(30)));
    assert_eq!(hooks[1].matcher.as_str(), "startup");
    let text = convert(&claude, Dialect::Gemini).unwrap().text;
    assert!(
        text.contains("\"BeforeTool\"") && text.contains("\"timeout\": 30000"),
        "{text}"
    );
    for want in [
        "only `startup` of the names is kept",
        "left out: gemini cannot express `http` hooks",
    ] {
        assert!(
            warnings.iter().any(|w| w.contains(want)),
            "{want}: {warnings:?}"
        );
    }
    // A regular expression over Gemini CLI's names is kept as it is (with a warning).
    let (back, _) = round(&gemini, Dialect::Codex, None);
    let first = back.hooks().next().unwrap();
    assert!(
        first.matcher.is_match("run_shell_command"),
        "a regex is kept: {}",
        first.matcher.as_str()
    );
    let (codex, _) = round(&claude, Dialect::Codex, None);
    let codex_hooks: Vec<_> = codex.hooks().collect();
    assert_eq!(codex_hooks[0].matcher.as_str(), "Bash|apply_patch");
    assert_eq!(codex_hooks[1].matcher.as_str(), "startup|resume");
    let text = convert(&claude, Dialect::Codex).unwrap().text;
    assert!(text.contains("\"timeout\": 30"), "{text}");
}

/// A Cursor `hooks.json` with a guard on shell commands matched on the command text, a
/// tool hook matched on Cursor's tool types, a file-read guard and a prompt hook.
const CURSOR: &str = r#"{
  "version": 1,
  "hooks": {
    "beforeShellExecution": [{"command": "./guard.sh", "matcher": "git\\s+push"}],
    "preToolUse": [{"command": "./tools.sh", "matcher": "Shell|Write", "timeout": 5}],
    "beforeReadFile": [{"command": "./secrets.sh", "failClosed": false}],
    "stop": [{"type": "prompt", "prompt": "Done? $ARGUMENTS"}]
  }
}"#;

#[test]
fn cursor_round_trips_in_its_own_dialect() {
    let file = load_str(CURSOR, Some(Path::new(".cursor/hooks.json")), &options()).unwrap();
    assert_eq!(file.dialect, Dialect::Cursor);
    let (back, warnings) = round(&file, Dialect::Cursor, None);
    same(&file, &back);
    assert!(warnings.is_empty(), "{warnings:?}");
    let names: Vec<_> = back.hooks().map(|h| h.home_event).collect();
    assert_eq!(
        names,
        [
            Some("beforeShellExecution"),
            Some("preToolUse"),
            Some("beforeReadFile"),
            Some("stop")
        ]
    );
}

#[test]
fn cursor_to_native_says_what_is_lost() {
    let file = load_str(CURSOR, Some(Path::new(".cursor/hooks.json")), &options()).unwrap();
    let converted = convert(&file, Dialect::Native).unwrap();
    let warnings: Vec<&str> = converted
        .warnings
        .iter()
        .map(|w| w.message.as_str())
        .collect();
    // The matcher over the command text is the native `filter.command`, and the stop
    // hook's `loop_limit` (Cursor's default of 5) the native `loop_limit`: neither is lost.
    assert!(
        !warnings
            .iter()
            .any(|w| w.contains("the matcher over the command text") || w.contains("loop_limit")),
        "{warnings:?}"
    );
    // Every hook keeps its Cursor dialect (`dialect: cursor`), so it is still given
    // Cursor's input: nothing is said about it.
    assert!(
        !warnings
            .iter()
            .any(|w| w.contains("written for Cursor's input")),
        "{warnings:?}"
    );
    assert_eq!(
        converted.text.matches("dialect: cursor").count(),
        4,
        "{}",
        converted.text
    );
    // The tools the events imply are kept as matchers, Cursor's tool types as canonical
    // names, and `beforeReadFile`'s own fail-closed is turned off as the file says.
    let (native, _) = round(&file, Dialect::Native, None);
    let matchers: Vec<&str> = native.hooks().map(|h| h.matcher.as_str()).collect();
    assert_eq!(
        matchers,
        ["Bash", "Bash|Write|Edit|MultiEdit|NotebookEdit", "Read", ""]
    );
    let read = native.hooks().nth(2).unwrap();
    assert_eq!(read.on_failure, hooks_config::core::FailurePolicy::Allow);
    same(&file, &native);
    let names: Vec<_> = native.hooks().map(|h| (h.dialect, h.home_event)).collect();
    assert_eq!(
        names,
        [
            (Dialect::Cursor, Some("beforeShellExecution")),
            (Dialect::Cursor, Some("preToolUse")),
            (Dialect::Cursor, Some("beforeReadFile")),
            (Dialect::Cursor, Some("stop"))
        ]
    );
    let guard = native.hooks().next().unwrap();
    assert_eq!(guard.filter.command(), Some("git\\s+push"));
    let stop = native.hooks().nth(3).unwrap();
    assert_eq!(stop.loop_limit.map(|l| l.limit()), Some(Some(5)));
}

#[test]
fn native_to_cursor_writes_cursors_names_and_tool_types() {
    let native = load_str(
        "hooks:\n  - event: PreToolUse\n    matcher: Bash|Read\n    command: ./check.sh\n    on_failure: block\n  - event: UserPromptSubmit\n    command: ./prompt.sh\n",
        Some(Path::new("hooks.yaml")),
        &options(),
    )
    .unwrap();
    let converted = convert(&native, Dialect::Cursor).unwrap();
    let value: Value = serde_json::from_str(&converted.text).unwrap();
    assert_eq!(
        value,
        serde_json::json!({
            "version": 1,
            "hooks": {
                "preToolUse": [{"command": "./check.sh", "matcher": "Shell|Read", "failClosed": true, "timeout": 10}],
                "beforeSubmitPrompt": [{"command": "./prompt.sh", "timeout": 10}]
            }
        })
    );
}

#[test]
fn nothing_converts_to_cline() {
    let native = load_str(
        "hooks:\n  - event: PreToolUse\n    command: ./check.sh\n",
        Some(Path::new("hooks.yaml")),
        &options(),
    )
    .unwrap();
    let err = convert(&native, Dialect::Cline).unwrap_err().to_string();
    assert!(err.contains("Cline has no config file to write"), "{err}");
}

/// Qwen Code's and Droid's files are Claude Code's shape in their own tool names: a
/// matcher is written in the agent's names (`run_shell_command|edit`, `Execute|Edit`) and
/// keeps matching the same tools once read back, a timeout stays in seconds, and what the
/// agent does not run (Droid's HTTP hooks) is left out with a warning.
#[test]
fn qwen_code_and_droid_get_their_tool_names_and_handler_types() {
    let claude = load_str(
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash|Edit", "hooks": [{"type": "command", "command": "a", "timeout": 30}]}],
            "PostToolUse": [{"matcher": "Write", "hooks": [{"type": "http", "url": "http://127.0.0.1:1/"}]}]}}"#,
        Some(Path::new("settings.json")),
        &options(),
    )
    .unwrap();
    let (qwen, warnings) = round(&claude, Dialect::Qwen, None);
    assert!(warnings.is_empty(), "{warnings:?}");
    let hooks: Vec<_> = qwen.hooks().collect();
    assert_eq!(hooks.len(), 2);
    assert!(hooks[0].matcher.is_match("run_shell_command") && hooks[0].matcher.is_match("edit"));
    assert!(!hooks[0].matcher.is_match("read_file"));
    let text = convert(&claude, Dialect::Qwen).unwrap().text;
    assert!(
        text.contains("\"matcher\": \"run_shell_command|edit\"")
            && text.contains("\"timeout\": 30"),
        "{text}"
    );
    let (droid, warnings) = round(&claude, Dialect::Droid, None);
    let hooks: Vec<_> = droid.hooks().collect();
    assert_eq!(hooks.len(), 1, "the http hook is left out: {warnings:?}");
    assert_eq!(hooks[0].matcher.as_str(), "Execute|Edit");
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("left out: droid cannot express `http` hooks")),
        "{warnings:?}"
    );
    // Back in Claude Code's names.
    let (back, _) = round(&droid, Dialect::Claude, None);
    assert_eq!(back.hooks().next().unwrap().matcher.as_str(), "Bash|Edit");
}

#[test]
fn nothing_converts_to_opencode() {
    let native = load_str(
        "hooks:\n  - event: PreToolUse\n    command: ./check.sh\n",
        Some(Path::new("hooks.yaml")),
        &options(),
    )
    .unwrap();
    let err = convert(&native, Dialect::Opencode).unwrap_err().to_string();
    assert!(
        err.contains("OpenCode has no hooks config file to write"),
        "{err}"
    );
    assert!(err.contains("hooks install opencode"), "{err}");
}

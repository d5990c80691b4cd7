//! Validation: every error with file:line:col and a hint, several at once; invalid
//! regexes, globs and conditions; timeouts clamped; long commands rejected; dialect
//! detection and its override.

use std::path::Path;

use hooks_config::core::Dialect;
use hooks_config::{DiagnosticKind, LoadOptions, load_str};

use crate::support::options;

/// Loads `text` as the file `name` and checks the whole error text.
#[track_caller]
fn check(name: &str, text: &str, expect: &str) {
    match load_str(text, Some(Path::new(name)), &options()) {
        Ok(file) => panic!("{name} loaded, with {} hooks", file.hooks().count()),
        Err(e) => {
            let got = e.to_string();
            if std::env::var("UPDATE_EXPECT").is_ok() {
                let line = std::panic::Location::caller().line();
                println!("@@EXPECT {line} {}", serde_json::to_string(&got).unwrap());
            } else {
                assert_eq!(got, expect.trim_start_matches('\n'));
            }
        }
    }
}

#[test]
fn unknown_keys_get_did_you_mean_hints() {
    check(
        "hooks.yaml",
        "hooks:\n  - event: PreToolUse\n    command: ./a.sh\n    timout: 5\n",
        "
hooks.yaml:4:5: error: unknown key `timout` in `hooks[0]`
 4 |     timout: 5
   |     ^
  hint: did you mean `timeout`?",
    );
}

#[test]
fn fabro_rename_hints() {
    check(
        "run.toml",
        "version = 1\n\n[[hooks]]\nevent = \"stage_start\"\nscript = \"./a.sh\"\n",
        "
run.toml:1:1: error: unknown key `version`
 1 | version = 1
   | ^
  hint: `version` was renamed to `_version`
run.toml:3:3: error: unknown key `hooks`
 3 | [[hooks]]
   |   ^
  hint: hooks moved to `[[run.hooks]]`",
    );
    check(
        "run.toml",
        "_version = 1\n\n[[run.hooks]]\nevent = \"stage_start\"\nscript = \"./a.sh\"\ntimeout_ms = 3000\n\n[[run.hooks]]\ntype = \"command\"\nevent = \"run_start\"\nscript = \"./b.sh\"\n",
        r#"
run.toml:6:1: error: unknown key `timeout_ms` in `run.hooks[0]`
 6 | timeout_ms = 3000
   | ^
  hint: `timeout_ms` is now `timeout`, a duration such as `"30s"`
run.toml:9:1: error: unknown key `type` in `run.hooks[1]`
 9 | type = "command"
   | ^
  hint: v2 hooks have no `type`: write `script` (shell), `command` (argv), `url`, `prompt` or `agent`"#,
    );
    check(
        "run.toml",
        "_version = 1\ngoal = \"ship it\"\n[run]\nmodle = { name = \"opus\" }\n",
        r#"
run.toml:2:1: error: unknown key `goal`
 2 | goal = "ship it"
   | ^
  hint: `goal` moved to `[run].goal`
run.toml:4:1: error: unknown key `modle` in `run`
 4 | modle = { name = "opus" }
   | ^
  hint: did you mean `model`?"#,
    );
}

/// A run config whose hooks live in a layer above is recognised by its own keys (Fabro's
/// tables, or an older run config's keys in a file Fabro names so): its legacy keys get
/// their rename hints, never "does not look like a hook config".
#[test]
fn fabro_run_configs_without_hooks_get_rename_hints() {
    check(
        "run.toml",
        "goal = \"ship it\"\nworking_dir = \"/tmp\"\n",
        r#"
run.toml:1:1: error: unknown key `goal`
 1 | goal = "ship it"
   | ^
  hint: `goal` moved to `[run].goal`
run.toml:2:1: error: unknown key `working_dir`
 2 | working_dir = "/tmp"
   | ^
  hint: `working_dir` moved to `[run].working_dir`"#,
    );
    check(
        "ci.toml",
        "[workflow]\ngraph = \"ci.fabro\"\n\n[run]\ngoal = \"ship it\"\nmodle = { name = \"opus\" }\n",
        r#"
ci.toml:6:1: error: unknown key `modle` in `run`
 6 | modle = { name = "opus" }
   | ^
  hint: did you mean `model`?"#,
    );
    check(
        "ci.toml",
        "[environments.cloud]\nprovider = \"daytona\"\nsandbox = true\n",
        "
ci.toml:3:1: error: unknown key `sandbox` in `environments.cloud`
 3 | sandbox = true
   | ^",
    );
}

/// A Daytona environment takes its image from a Dockerfile: `image.docker` is refused, as
/// Fabro refuses it; Docker's takes it.
#[test]
fn a_daytona_environment_refuses_image_docker() {
    check(
        "run.toml",
        "_version = 1\n\n[environments.cloud]\nprovider = \"daytona\"\n\n[environments.cloud.image]\ndocker = \"node:20\"\n",
        r#"
run.toml:7:1: error: environment `cloud` is a Daytona sandbox, which takes no `image.docker`
 7 | docker = "node:20"
   | ^
  hint: give Daytona a Dockerfile: `image.dockerfile = "FROM node:20"` (or `{ path = "Dockerfile" }`)"#,
    );
    let docker = "_version = 1\n\n[environments.ci]\nprovider = \"docker\"\n\n[environments.ci.image]\ndocker = \"node:20\"\n";
    load_str(docker, Some(Path::new("run.toml")), &options()).unwrap();
}

#[test]
fn several_errors_at_once() {
    check(
        "settings.json",
        r#"{
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash(", "hooks": [{"type": "command", "command": "a.sh", "timeout": "5"}]},
      {"matcher": "Edit", "hooks": [{"type": "comand", "command": "b.sh"}]}
    ],
    "PostToolUze": [{"hooks": [{"type": "command", "command": "c.sh", "if": "Bash(git *"}]}]
  }
}"#,
        r#"
settings.json:4:19: error: invalid matcher `Bash(`: unclosed group
 4 |       {"matcher": "Bash(", "hooks": [{"type": "command", "command": "a.sh", "timeout": "5"}]},
   |                   ^
  hint: a matcher is `*`, a list of names like `Bash|Edit`, or a regular expression
settings.json:4:88: error: expected a number, found a string
 4 |       {"matcher": "Bash(", "hooks": [{"type": "command", "command": "a.sh", "timeout": "5"}]},
   |                                                                                        ^
  hint: Timeout in seconds (default 600, at most 300 here; UserPromptSubmit 30, MessageDisplay 10, SessionEnd 1.5; prompts 30, agents 60).
settings.json:5:46: warning: unknown hook type `comand`; this hook is skipped
 5 |       {"matcher": "Edit", "hooks": [{"type": "comand", "command": "b.sh"}]}
   |                                              ^
  hint: did you mean `command`?
settings.json:7:5: warning: unknown event `PostToolUze`; its hooks are skipped, and the rest of the file loads
 7 |     "PostToolUze": [{"hooks": [{"type": "command", "command": "c.sh", "if": "Bash(git *"}]}]
   |     ^
  hint: did you mean `PostToolUse`?"#,
    );
}

#[test]
fn invalid_globs_and_regexes_are_errors() {
    check(
        "config.json",
        r#"{"hooks": {"enabled": true, "hooks": [
  {"event": "pre-tool", "command": "a", "matcher": "^(run_command"},
  {"event": "file-modified", "command": "b", "filter": {"path": ["src/**/*.{ts"]}}
]}}"#,
        r#"
config.json:2:52: error: invalid matcher `^(run_command`: unclosed group
 2 |   {"event": "pre-tool", "command": "a", "matcher": "^(run_command"},
   |                                                    ^
  hint: a matcher is `*`, a list of names like `Bash|Edit`, or a regular expression
config.json:3:66: error: invalid glob `src/**/*.{ts`: unclosed alternate group; missing '}' (maybe escape '{' with '[{]'?)
 3 |   {"event": "file-modified", "command": "b", "filter": {"path": ["src/**/*.{ts"]}}
   |                                                                  ^
  hint: globs use `*`, `?`, `[..]`, `{a,b}` and `**`; a leading `!` excludes"#,
    );
}

#[test]
fn command_over_32_kib_is_rejected() {
    let long = "x".repeat(33 * 1024);
    let text = format!("hooks:\n  - event: Stop\n    command: {long}\n");
    let err = load_str(&text, Some(Path::new("hooks.yaml")), &options()).unwrap_err();
    assert_eq!(err.kind(), DiagnosticKind::CommandTooLong);
    let first = err.first();
    assert_eq!((first.line, first.column), (Some(3), Some(14)));
    assert_eq!(
        first.message,
        "the command is 33792 bytes long, more than the maximum of 32768 bytes"
    );
    // Exactly at the limit is fine.
    let ok = "x".repeat(32 * 1024);
    let text = format!("hooks:\n  - event: Stop\n    command: {ok}\n");
    assert!(load_str(&text, Some(Path::new("hooks.yaml")), &options()).is_ok());
}

#[test]
fn timeouts_are_clamped_with_a_warning() {
    let text = "hooks:\n  - event: Stop\n    command: a\n    timeout: 10m\n";
    let file = load_str(text, Some(Path::new("hooks.yaml")), &options()).unwrap();
    assert_eq!(file.hooks().next().unwrap().timeout.unwrap().as_secs(), 300);
    assert_eq!(
        file.warnings[0].to_string(),
        "hooks.yaml:4:14: warning: timeout of 10m is above the maximum of 5m; using 5m\n 4 |     timeout: 10m\n   |              ^"
    );
    // The maximum is configurable.
    let options = options().with_max_timeout(std::time::Duration::from_secs(60));
    let file = load_str(
        "hooks:\n  - event: Stop\n    command: a\n    timeout: 90\n",
        Some(Path::new("hooks.yaml")),
        &options,
    )
    .unwrap();
    assert_eq!(file.hooks().next().unwrap().timeout.unwrap().as_secs(), 60);
    check(
        "hooks.yaml",
        "hooks:\n  - event: Stop\n    command: a\n    timeout: 0\n",
        "
hooks.yaml:4:14: error: a timeout must be greater than zero
 4 |     timeout: 0
   |              ^",
    );
    check(
        "run.toml",
        "[[run.hooks]]\nevent = \"run_start\"\nscript = \"a\"\ntimeout = \"30 parsecs\"\n",
        r#"
run.toml:4:11: error: invalid timeout: `30 parsecs` is not a duration: `parsecs` is not a unit (use ms, s, m or h)
 4 | timeout = "30 parsecs"
   |           ^
  hint: write it as `"30s"`, `"1m"` or `"1m 30s"`"#,
    );
    check(
        "run.toml",
        "[[run.hooks]]\nevent = \"run_start\"\nscript = \"a\"\ntimeout = 30\n",
        r#"
run.toml:4:11: error: invalid timeout: a Fabro timeout is a duration string
 4 | timeout = 30
   |           ^
  hint: write it as `"30s"`, `"1m"` or `"1m 30s"`"#,
    );
}

#[test]
fn conflicting_and_missing_keys() {
    check(
        "run.toml",
        "[[run.hooks]]\nevent = \"run_start\"\nscript = \"a\"\ncommand = [\"b\"]\n",
        r#"
run.toml:4:1: error: a hook has exactly one of `script`, `command`, `url`, `prompt` or `agent`, not `script` and `command`
 4 | command = ["b"]
   | ^"#,
    );
    check(
        "run.toml",
        "[[run.hooks]]\nevent = \"run_start\"\ncommand = \"b --x\"\n",
        r#"
run.toml:3:11: error: `command` is an argv list in Fabro's v2 run config
 3 | command = "b --x"
   |           ^
  hint: write a shell command as `script = "..."`, or split it: `command = ["prog", "arg"]`"#,
    );
    check(
        "run.toml",
        "[[run.hooks]]\nevent = \"run_start\"\nurl = \"http://example.com/hook\"\n",
        r#"
run.toml:3:7: error: a hook URL must use `https://` unless `tls = "off"`
 3 | url = "http://example.com/hook"
   |       ^"#,
    );
    check(
        "hooks.yaml",
        "hooks:\n  - event: Stop\n    command: a\n    url: https://example.com\n",
        "
hooks.yaml:2:5: error: a hook does one thing, but this one has the keys of command, http
 2 |   - event: Stop
   |     ^
  hint: split it into one hook per action, or set `type`",
    );
    check(
        "hooks.yaml",
        "hooks:\n  - id: x\n    event: Stop\n    command: a\n    remove: true\n",
        "
hooks.yaml:5:5: error: `remove` takes only the `id` of the inherited hook to remove
 5 |     remove: true
   |     ^
  hint: drop the other keys, or drop `remove` to replace the hook instead",
    );
    check(
        "hooks.yaml",
        "hooks:\n  - event: Stop\n    timeout: 5\n",
        "
hooks.yaml:2:5: error: the hook has no action
 2 |   - event: Stop
   |     ^
  hint: give it one of `command`, `args`, `url`, `server` + `tool`, `prompt` or `decision`",
    );
    check(
        "settings.json",
        r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "url": "https://x"}]}]}}"#,
        r#"
settings.json:1:32: error: a command hook needs `command`
 1 | {"hooks": {"Stop": [{"hooks": [{"type": "command", "url": "https://x"}]}]}}
   |                                ^
settings.json:1:52: warning: `url` does not apply to a command hook; it is ignored
 1 | {"hooks": {"Stop": [{"hooks": [{"type": "command", "url": "https://x"}]}]}}
   |                                                    ^"#,
    );
}

#[test]
fn dialect_detection_by_name_and_shape() {
    let detect = |name: &str, text: &str| {
        load_str(text, Some(Path::new(name)), &options())
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .dialect
    };
    let nested_json = r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "a"}]}]}}"#;
    let nested_yaml =
        "hooks:\n  Stop:\n    - hooks:\n        - type: command\n          command: a\n";
    assert_eq!(detect("settings.json", nested_json), Dialect::Claude);
    assert_eq!(detect("anything.json", nested_json), Dialect::Claude);
    assert_eq!(detect("anything.yaml", nested_yaml), Dialect::Echo);
    assert_eq!(detect("echo-agent.yaml", nested_yaml), Dialect::Echo);
    // Cursor's hooks.json: by its folder, and by its shape (flat entries under Cursor's
    // event names beside a `version`), a Cursor plugin's `hooks/hooks.json` too.
    let cursor = r#"{"version": 1, "hooks": {"beforeShellExecution": [{"command": "a"}]}}"#;
    assert_eq!(detect(".cursor/hooks.json", cursor), Dialect::Cursor);
    assert_eq!(detect("/etc/cursor/hooks.json", cursor), Dialect::Cursor);
    assert_eq!(detect("anything.json", cursor), Dialect::Cursor);
    assert_eq!(detect("plugin/hooks/hooks.json", cursor), Dialect::Cursor);
    assert_eq!(
        detect("plugin/hooks/hooks.json", nested_json),
        Dialect::Claude
    );
    // A Claude Code shape with a `version` stays Claude's.
    assert_eq!(
        detect(
            "anything.json",
            r#"{"version": 1, "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "a"}]}]}}"#
        ),
        Dialect::Claude
    );
    // A file in one of Cline's hooks directories is a Cline hook, whatever it holds.
    for path in [
        ".clinerules/hooks/PreToolUse",
        "/home/u/Documents/Cline/Hooks/TaskStart",
        "/w/.cline/hooks/PostToolUse",
    ] {
        assert_eq!(
            hooks_config::dialect_from_path(Path::new(path)),
            Some(Dialect::Cline),
            "{path}"
        );
    }
    assert_eq!(
        hooks_config::dialect_from_path(Path::new("hooks/PreToolUse")),
        None
    );
    // A Codex plugin's hooks file is Codex's where a Codex home keeps its plugins (any JSON
    // file there but the manifest and the MCP and app files, since the manifest may name
    // any); Claude Code's plugin cache is not Codex's.
    let plugin = "/home/u/.codex/plugins/cache/acme/tool/1.0.0";
    for (path, want) in [
        (format!("{plugin}/hooks/hooks.json"), Some(Dialect::Codex)),
        (format!("{plugin}/config/guard.json"), Some(Dialect::Codex)),
        (format!("{plugin}/.codex-plugin/plugin.json"), None),
        (format!("{plugin}/.mcp.json"), Some(Dialect::Claude)),
        (
            "/home/u/.claude/plugins/cache/acme/tool/1.0.0/hooks/hooks.json".to_owned(),
            Some(Dialect::Claude),
        ),
        (
            "/home/u/.codex/cache/acme/tool/1.0.0/hooks/hooks.json".to_owned(),
            Some(Dialect::Claude),
        ),
    ] {
        assert_eq!(
            hooks_config::dialect_from_path(Path::new(&path)),
            want,
            "{path}"
        );
    }
    assert_eq!(
        detect(
            "hooks.toml",
            "[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = \"a\"\n"
        ),
        Dialect::Native
    );
    // A native-only key makes the nested shape native.
    assert_eq!(
        detect(
            "x.json",
            r#"{"hooks": {"Stop": [{"hooks": [{"id": "a", "command": "a"}]}]}}"#
        ),
        Dialect::Native
    );
    assert_eq!(
        detect("x.json", r#"{"hooks": {"enabled": true, "hooks": []}}"#),
        Dialect::Autohand
    );
    assert_eq!(detect("x.toml", "_version = 1\n"), Dialect::Fabro);
    assert_eq!(detect("x.toml", "[run]\ngoal = \"g\"\n"), Dialect::Fabro);
    assert_eq!(
        detect("x.yaml", "hooks:\n  - event: Stop\n    command: a\n"),
        Dialect::Native
    );
    assert_eq!(
        detect("x.json", r#"{"disableAllHooks": true}"#),
        Dialect::Claude
    );
    assert_eq!(detect("x.yaml", ""), Dialect::Native);
    // Text without a file name: JSON, TOML or YAML by content.
    let file = load_str("[run]\ngoal = \"g\"\n", None, &options()).unwrap();
    assert_eq!(
        (file.dialect, file.format),
        (Dialect::Fabro, hooks_config::Format::Toml)
    );
    check("x.yaml", "name: not a hooks file\n", "
x.yaml: error: cannot tell which dialect this file is written in
  hint: give it a `hooks` key (native, Claude, echo-agent, Autohand or Cursor shape) or Fabro's `_version`/`[run]`, or name the dialect: `--dialect native|claude|echo|fabro|autohand|cursor|cline` on the command line, `LoadOptions::with_dialect` in code");
}

#[test]
fn dialect_can_be_named_explicitly() {
    // A nested YAML file would be echo-agent; named as Claude, it is read as Claude.
    let text = "hooks:\n  Stop:\n    - hooks:\n        - type: agent\n          prompt: check\n";
    let options = options().with_dialect(Dialect::Claude);
    let file = load_str(text, Some(Path::new("x.yaml")), &options).unwrap();
    assert_eq!(file.dialect, Dialect::Claude);
    assert_eq!(file.hooks().next().unwrap().timeout.unwrap().as_secs(), 60);
    // The same file as echo-agent rejects the `agent` type echo-agent does not have.
    check(
        "x.yaml",
        text,
        "
x.yaml:4:17: error: `agent` is not one of: command, prompt, permission, http, mcp_tool
 4 |         - type: agent
   |                 ^",
    );
    let _ = LoadOptions::new();
}

#[test]
fn host_events_resolve_through_the_hosts_catalog() {
    use hooks_config::core::{EventCatalog, EventInfo};
    let mut catalog = EventCatalog::new();
    catalog
        .register(
            EventInfo::new("DeployStart")
                .alias(Dialect::Native, "deploy-start")
                .matcher_field("environment"),
        )
        .unwrap();
    let options = options().with_catalog(catalog);
    let text = "hooks:\n  - event: deploy-start\n    matcher: prod\n    command: ./check.sh\n";
    let file = load_str(text, Some(Path::new("hooks.yaml")), &options).unwrap();
    let hook = file.hooks().next().unwrap();
    assert_eq!(hook.event.name(), "DeployStart");
    assert!(hook.event.builtin().is_none());
    // A typo of a custom event gets a suggestion too; without the catalog it is unknown.
    let err = load_str(
        "hooks:\n  - event: DeployStrat\n    command: a\n",
        Some(Path::new("hooks.yaml")),
        &options,
    )
    .unwrap_err();
    assert_eq!(
        err.first().hint.as_deref(),
        Some("did you mean `DeployStart`?")
    );
    assert!(
        load_str(
            text,
            Some(Path::new("hooks.yaml")),
            &crate::support::options()
        )
        .is_err()
    );
}

#[test]
fn a_sequential_of_the_wrong_type_says_what_the_key_takes() {
    let hint = "  hint: `true` puts the hook in its event's one ordered group, a name in the group of that name; the hooks of a group run one after another, each seeing the previous one's rewritten input.";
    for (value, found) in [
        ("3", "an integer"),
        ("[a, b]", "an array"),
        ("{group: a}", "an object"),
    ] {
        check(
            "hooks.yaml",
            &format!("hooks:\n  - event: PreToolUse\n    command: a\n    sequential: {value}\n"),
            &format!(
                "
hooks.yaml:4:17: error: expected a boolean or a string, found {found}
 4 |     sequential: {value}
   |                 ^
{hint}"
            ),
        );
    }
}

#[test]
fn a_timeout_string_that_is_not_a_duration_says_why_in_words() {
    for (value, why) in [
        ("abc", "a duration is a number and a unit"),
        ("5 parsecs", "`parsecs` is not a unit (use ms, s, m or h)"),
    ] {
        check(
            "hooks.yaml",
            &format!("hooks:\n  - event: Stop\n    command: x\n    timeout: \"{value}\"\n"),
            &format!(
                "
hooks.yaml:4:14: error: invalid timeout: `{value}` is not a duration: {why}
 4 |     timeout: \"{value}\"
   |              ^
  hint: write a number of seconds, or a duration such as `\"30s\"`"
            ),
        );
    }
}

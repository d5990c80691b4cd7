//! Every dialect's loader on the realistic configs in `examples/configs/` (including the
//! full examples of the seed docs): events, matchers, timeouts and provenance.

use hooks_config::core::{Action, CommandLine, Dialect, PromptMode};
use hooks_config::{ConfigFile, Format};

use crate::support::{examples, load_example, summaries};

/// Checks each hook's event, matcher, timeout (ms) and line, in order.
#[track_caller]
fn check(file: &ConfigFile, expect: &[(&str, &str, u64, u32)]) {
    let got: Vec<(String, String, u64, u32)> = file
        .hooks()
        .map(|h| {
            (
                h.event.name().to_owned(),
                h.matcher.as_str().to_owned(),
                h.timeout.unwrap().as_millis() as u64,
                h.provenance.line.unwrap(),
            )
        })
        .collect();
    let want: Vec<(String, String, u64, u32)> = expect
        .iter()
        .map(|(e, m, t, l)| ((*e).to_owned(), (*m).to_owned(), *t, *l))
        .collect();
    assert_eq!(got, want);
    for hook in file.hooks() {
        assert_eq!(hook.provenance.file.as_deref(), file.path.as_deref());
        assert!(hook.provenance.column.unwrap() >= 1);
    }
}

#[test]
fn echo_agent_yaml_seed_example() {
    let file = load_example("echo/echo-agent.yaml");
    assert_eq!(file.dialect, Dialect::Echo);
    assert_eq!(file.format, Format::Yaml);
    check(
        &file,
        &[
            ("PreToolUse", "Bash", 5_000, 6),
            ("PreToolUse", "Write", 10_000, 11),
            ("PostToolUse", "Edit|Write", 10_000, 16),
            ("Stop", "", 10_000, 20),
            ("SessionStart", "startup", 10_000, 25),
            ("PermissionRequest", "shell", 10_000, 30),
        ],
    );
    let hooks: Vec<_> = file.hooks().collect();
    // `${SKILL_DIR}` is the folder of the file, made absolute.
    let dir = examples().join("echo");
    assert_eq!(
        hooks[0].action,
        Action::script(format!("{}/validate.sh", dir.display()))
    );
    assert!(matches!(&hooks[1].action, Action::Prompt(p) if p.mode == PromptMode::Inject));
    assert!(hooks[3].matcher.is_all());
    insta::assert_json_snapshot!(summaries(&file));
}

#[test]
fn skill_md_frontmatter_with_every_hook_type() {
    let file = load_example("echo/skills/safe-shell/SKILL.md");
    assert_eq!(file.dialect, Dialect::Echo);
    // Lines count from the top of SKILL.md, the `---` line included.
    check(
        &file,
        &[
            ("PreToolUse", "Bash", 5_000, 8),
            ("PreToolUse", "Bash", 3_000, 12),
            ("PreToolUse", "mcp__github__.*", 10_000, 19),
            ("PermissionRequest", "Read|Glob|Grep", 10_000, 27),
            ("UserPromptSubmit", "", 10_000, 32),
            // 400 s is clamped to the 300 s maximum, with a warning.
            ("PostToolUse", "Edit|Write", 300_000, 37),
        ],
    );
    let types: Vec<&str> = file.hooks().map(|h| h.action.type_name()).collect();
    assert_eq!(
        types,
        [
            "command",
            "http",
            "mcp_tool",
            "permission",
            "prompt",
            "command"
        ]
    );
    let dir = examples().join("echo/skills/safe-shell");
    let first = file.hooks().next().unwrap();
    match &first.action {
        Action::Command(c) => {
            assert_eq!(
                c.command,
                CommandLine::Script(format!("{}/scripts/guard.sh", dir.display()))
            );
            assert_eq!(c.sandbox, Some(true));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(file.warnings.len(), 1, "{:?}", file.warnings);
    assert_eq!(
        file.warnings[0].to_string(),
        format!(
            "{}:39:20: warning: timeout of 6m 40s is above the maximum of 5m; using 5m\n 39 |           timeout: 400\n    |                    ^",
            dir.join("SKILL.md").display()
        )
    );
    insta::assert_json_snapshot!(summaries(&file));
}

#[test]
fn fabro_full_example_of_the_run_configuration_doc() {
    let file = load_example("fabro/run.toml");
    assert_eq!(file.dialect, Dialect::Fabro);
    assert_eq!(file.format, Format::Toml);
    check(
        &file,
        &[
            ("StageStart", "", 60_000, 81),
            ("RunComplete", "", 60_000, 88),
        ],
    );
    let hooks: Vec<_> = file.hooks().collect();
    assert_eq!(hooks[0].id.as_deref(), Some("pre-check"));
    // `blocking = true` and the event's default: run_complete does not block by default.
    assert!(!hooks[0].is_async);
    assert!(hooks[1].is_async);
    match &hooks[0].action {
        Action::Command(c) => assert_eq!(c.sandbox, Some(false)),
        other => panic!("{other:?}"),
    }
    insta::assert_json_snapshot!(summaries(&file));
}

#[test]
fn fabro_every_hook_kind() {
    let file = load_example("fabro/hooks.toml");
    check(
        &file,
        &[
            ("StageStart", "agent", 30_000, 44),
            (
                "PostToolUse",
                "write_file|edit_file|apply_patch",
                60_000,
                54,
            ),
            ("StageComplete", "", 60_000, 63),
            ("StageStart", "^agent$", 15_000, 70),
            ("RunComplete", "", 120_000, 78),
            ("EdgeSelected", "deploy", 60_000, 88),
        ],
    );
    // Fabro matchers are regular expressions, even when they look like names.
    assert!(
        file.hooks()
            .filter(|h| !h.matcher.is_all())
            .all(|h| matches!(h.matcher.kind(), hooks_config::core::MatcherKind::Regex(_)))
    );
    insta::assert_json_snapshot!(summaries(&file));
}

#[test]
fn fabro_project_and_machine_defaults() {
    let project = load_example("fabro/.fabro/project.toml");
    check(
        &project,
        &[
            ("StageStart", "", 60_000, 16),
            ("RunFailed", "", 60_000, 21),
        ],
    );
    let settings = load_example("fabro/home/.fabro/settings.toml");
    assert_eq!(settings.dialect, Dialect::Fabro);
    check(&settings, &[("RunStart", "", 60_000, 35)]);
}

#[test]
fn autohand_config_with_the_docs_examples_and_builtin_hooks() {
    let file = load_example("autohand/.autohand/config.json");
    assert_eq!(file.dialect, Dialect::Autohand);
    assert_eq!(file.format, Format::Json);
    let events: Vec<&str> = file
        .hooks()
        .map(|h| h.event.info().name_in(Dialect::Autohand))
        .collect();
    assert_eq!(
        events,
        [
            "pre-tool",
            "pre-tool",
            "file-modified",
            "stop",
            "file-modified",
            "permission-request",
            "session-start",
            "session-end",
            "subagent-stop",
            "stop",
            "file-modified",
            "stop",
            "file-modified",
            "pre-tool",
            "stop",
            "pre-tool",
            "automode:iteration",
            "review:completed",
            "stop",
        ]
    );
    let hooks: Vec<_> = file.hooks().collect();
    // Milliseconds: default 5000, `2000` and `10000` as written.
    assert_eq!(hooks[0].timeout.unwrap().as_millis(), 5_000);
    assert_eq!(hooks[13].timeout.unwrap().as_millis(), 2_000);
    assert_eq!(hooks[15].timeout.unwrap().as_millis(), 10_000);
    assert!(matches!(
        hooks[1].matcher.kind(),
        hooks_config::core::MatcherKind::Regex(_)
    ));
    assert_eq!(hooks[15].filter.tools(), ["run_command", "write_file"]);
    assert_eq!(
        hooks[15].filter.path_globs(),
        ["src/**/*.ts", "lib/**/*.js"]
    );
    assert!(hooks[3].is_async);
    assert!(!hooks[14].enabled);
    // `post-response` is Autohand's other name for stop.
    assert_eq!(hooks[18].event.name(), "Stop");
    assert_eq!(hooks[0].provenance.line, Some(7));
    assert_eq!(hooks[0].provenance.column, Some(7));
    insta::assert_json_snapshot!(summaries(&file));
}

#[test]
fn autohand_file_switch_disables_every_hook() {
    let text = r#"{"hooks": {"enabled": false, "hooks": [{"event": "pre-tool", "command": "a"}, {"event": "stop", "command": "b", "enabled": true}]}}"#;
    let file = hooks_config::load_str(text, None, &crate::support::options()).unwrap();
    assert_eq!(file.dialect, Dialect::Autohand);
    assert_eq!(file.settings.hooks_enabled, Some(false));
    assert!(file.hooks().all(|h| !h.enabled));
}

#[test]
fn claude_settings_local_and_managed() {
    let file = load_example("claude/.claude/settings.json");
    assert_eq!(file.dialect, Dialect::Claude);
    check(
        &file,
        &[
            ("PreToolUse", "Bash", 30_000, 10),
            // Claude's 600 s default is capped at the 300 s maximum without a warning.
            ("PreToolUse", "Edit|Write|MultiEdit", 300_000, 21),
            ("PreToolUse", "Edit|Write|MultiEdit", 10_000, 25),
            ("PreToolUse", "mcp__github__.*", 300_000, 37),
            ("PostToolUse", "Edit|Write", 300_000, 50),
            // UserPromptSubmit lowers the command default to 30 s.
            ("UserPromptSubmit", "", 30_000, 61),
            ("Stop", "", 20_000, 68),
            ("Stop", "", 120_000, 73),
            ("SessionStart", "startup|resume", 300_000, 85),
            ("Notification", "permission_prompt", 300_000, 93),
        ],
    );
    assert!(file.warnings.is_empty(), "{:?}", file.warnings);
    let hooks: Vec<_> = file.hooks().collect();
    assert_eq!(hooks[0].condition.as_ref().unwrap().as_str(), "Bash(rm *)");
    assert!(matches!(&hooks[6].action, Action::Prompt(p) if p.mode == PromptMode::Evaluate));
    assert!(matches!(&hooks[7].action, Action::Prompt(p) if p.mode == PromptMode::Agent));
    assert!(hooks[4].is_async);
    insta::assert_json_snapshot!(summaries(&file));

    let local = load_example("claude/.claude/settings.local.json");
    check(&local, &[("PreToolUse", "Bash", 5_000, 7)]);

    let managed = load_example("claude/managed/managed-settings.json");
    assert_eq!(managed.dialect, Dialect::Claude);
    assert_eq!(managed.settings.managed_hooks_only, Some(false));
    assert_eq!(
        managed.settings.allowed_http_hook_urls.as_deref().unwrap(),
        [
            "https://policy.example.com/*",
            "https://audit.example.com/*"
        ]
    );
    check(
        &managed,
        &[
            ("PreToolUse", "Bash", 10_000, 9),
            ("ConfigChange", "", 300_000, 16),
        ],
    );
}

#[test]
fn native_flat_yaml() {
    let file = load_example("native/hooks.yaml");
    assert_eq!(file.dialect, Dialect::Native);
    check(
        &file,
        &[
            ("PreToolUse", "Bash", 5_000, 8),
            ("PreToolUse", "Bash", 10_000, 15),
            ("PreToolUse", "Bash", 10_000, 20),
            ("FileChanged", "", 30_000, 25),
            ("PostToolUse", "", 10_000, 31),
            ("PreToolUse", "mcp__.*", 10_000, 37),
            ("SessionStart", "startup", 10_000, 44),
            ("Stop", "", 30_000, 49),
            ("PermissionRequest", "Read|Glob|Grep", 10_000, 55),
            ("SessionEnd", "", 10_000, 60),
        ],
    );
    let hooks: Vec<_> = file.hooks().collect();
    // `{{ vars.AUDIT_URL }}` comes from the file's own `vars`.
    assert!(
        matches!(&hooks[4].action, Action::Http(h) if h.url == "https://audit.example.com/hooks/post-tool")
    );
    assert_eq!(hooks[1].sequential.as_deref(), Some("rewrites"));
    assert_eq!(
        hooks[3].filter.path_globs(),
        ["src/**/*.ts", "!src/generated/**"]
    );
    assert!(!hooks[9].enabled);
    insta::assert_json_snapshot!(summaries(&file));
}

#[test]
fn native_flat_toml_and_nested_json() {
    let toml = load_example("native/hooks.toml");
    assert_eq!(toml.dialect, Dialect::Native);
    check(
        &toml,
        &[
            ("PreToolUse", "Bash", 5_000, 4),
            ("StageStart", "^deploy", 60_000, 12),
            ("PostToolUse", "Edit|Write", 10_000, 19),
        ],
    );
    let json = load_example("native/hooks.json");
    assert_eq!(json.dialect, Dialect::Native);
    check(
        &json,
        &[
            ("PreToolUse", "Bash", 5_000, 8),
            ("PreToolUse", "Bash", 10_000, 9),
            ("Notification", "permission_prompt", 2_000, 17),
        ],
    );
    insta::assert_json_snapshot!("native_toml", summaries(&toml));
    insta::assert_json_snapshot!("native_json", summaries(&json));
}

/// Loads the native file `name` and checks each hook's (event, sequential group), in order.
#[track_caller]
fn check_groups(name: &str, text: &str, expect: &[(&str, Option<&str>)]) {
    let file = hooks_config::load_str(
        text,
        Some(std::path::Path::new(name)),
        &crate::support::options(),
    )
    .unwrap_or_else(|e| panic!("{name} did not load:\n{e}"));
    let got: Vec<(String, Option<String>)> = file
        .hooks()
        .map(|h| (h.event.name().to_owned(), h.sequential.clone()))
        .collect();
    let want: Vec<(String, Option<String>)> = expect
        .iter()
        .map(|(e, g)| ((*e).to_owned(), g.map(str::to_owned)))
        .collect();
    assert_eq!(got, want, "{name}");
}

#[test]
fn native_sequential_true_is_the_events_one_ordered_group_and_a_string_names_a_group() {
    check_groups(
        "hooks.yaml",
        "hooks:
  - {event: PreToolUse, command: a, sequential: true}
  - {event: pre_tool_use, command: b, sequential: true}
  - {event: PostToolUse, command: c, sequential: true}
  - {event: PreToolUse, command: d, sequential: false}
  - {event: PreToolUse, command: e, sequential: rewrites}
  - {event: PreToolUse, command: f}
",
        &[
            ("PreToolUse", Some("PreToolUse")),
            ("PreToolUse", Some("PreToolUse")),
            ("PostToolUse", Some("PostToolUse")),
            ("PreToolUse", None),
            ("PreToolUse", Some("rewrites")),
            ("PreToolUse", None),
        ],
    );
    // The nested shape and TOML read it the same way.
    check_groups(
        "hooks.json",
        r#"{"hooks": {"Stop": [{"hooks": [
            {"type": "command", "command": "a", "sequential": true},
            {"type": "command", "command": "b", "sequential": "named"}]}]}}"#,
        &[("Stop", Some("Stop")), ("Stop", Some("named"))],
    );
    check_groups(
        "hooks.toml",
        "[[hooks]]\nevent = \"SessionStart\"\ncommand = \"a\"\nsequential = true\n",
        &[("SessionStart", Some("SessionStart"))],
    );
}

/// A hook's `loop_limit` (`None`: not set, `Some(None)`: no limit), command filter and the
/// warnings loading it gave (their text, joined by newlines).
type Keys<'a> = (Option<Option<u32>>, Option<&'a str>, &'a str);

/// Loads the native `hooks.yaml` of one hook and checks its `loop_limit` (`None`: not set,
/// `Some(None)`: no limit), its command filter and the warnings (their text, joined by
/// newlines), or else the whole error text.
#[track_caller]
fn check_native_keys(text: &str, expect: Result<Keys<'_>, &str>) {
    let got = hooks_config::load_str(
        text,
        Some(std::path::Path::new("hooks.yaml")),
        &crate::support::options(),
    )
    .map(|file| {
        let hook = file.hooks().next().expect("one hook");
        let warnings: Vec<String> = file.warnings.iter().map(ToString::to_string).collect();
        (
            hook.loop_limit.map(|l| l.limit()),
            hook.filter.command().map(str::to_owned),
            warnings.join("\n"),
        )
    })
    .map_err(|e| e.to_string());
    let want = expect
        .map(|(limit, command, warnings)| {
            (
                limit,
                command.map(str::to_owned),
                warnings.trim_start_matches('\n').to_owned(),
            )
        })
        .map_err(|e| e.trim_start_matches('\n').to_owned());
    assert_eq!(got, want, "{text}");
}

/// A native hook's `loop_limit` (how many follow-ups its Stop or SubagentStop block may
/// make, `null` for none) and `filter.command` (a regular expression over the command
/// text), as Cursor's hooks say them, with their problems at file:line:col.
#[test]
fn native_loop_limit_and_command_filter() {
    let stop = "hooks:\n  - event: Stop\n    command: ./again.sh\n";
    check_native_keys(stop, Ok((None, None, "")));
    check_native_keys(
        &format!("{stop}    loop_limit: 2\n"),
        Ok((Some(Some(2)), None, "")),
    );
    check_native_keys(
        &format!("{stop}    loop_limit: 0\n"),
        Ok((Some(Some(0)), None, "")),
    );
    check_native_keys(
        &format!("{stop}    loop_limit: null\n"),
        Ok((Some(None), None, "")),
    );
    check_native_keys(
        "hooks:\n  - {event: SubagentStop, command: a, loop_limit: 3}\n",
        Ok((Some(Some(3)), None, "")),
    );
    check_native_keys(
        "hooks:\n  - {event: PreToolUse, command: a, loop_limit: 3}\n",
        Ok((
            None,
            None,
            "
hooks.yaml:2:49: warning: `loop_limit` applies to `Stop` and `SubagentStop` only; ignored here
 2 |   - {event: PreToolUse, command: a, loop_limit: 3}
   |                                                 ^",
        )),
    );
    check_native_keys(
        &format!("{stop}    loop_limit: -1\n"),
        Err("
hooks.yaml:4:17: error: `loop_limit` is a count of follow-ups (0 or more), or null for no limit
 4 |     loop_limit: -1
   |                 ^"),
    );
    check_native_keys(
        &format!("{stop}    loop_limit: many\n"),
        Err("
hooks.yaml:4:17: error: expected an integer, found a string
 4 |     loop_limit: many
   |                 ^
  hint: On `Stop` and `SubagentStop`: how many consecutive follow-ups this hook's block may make (Cursor's `loop_limit`), `null` for no limit; left out, the engine's stop-loop cap applies."),
    );
    let shell = "hooks:\n  - event: PreToolUse\n    matcher: Bash\n    command: ./guard.sh\n";
    check_native_keys(
        &format!("{shell}    filter: {{command: 'git\\s+push'}}\n"),
        Ok((None, Some("git\\s+push"), "")),
    );
    check_native_keys(
        &format!("{shell}    filter: {{command: 'git (push'}}\n"),
        Err("
hooks.yaml:5:23: error: invalid `filter.command` `git (push`: unclosed group
 5 |     filter: {command: 'git (push'}
   |                       ^
  hint: `filter.command` is a regular expression found anywhere in the command text"),
    );
    check_native_keys(
        &format!("{shell}    filter: {{command: [git]}}\n"),
        Err("
hooks.yaml:5:23: error: expected a string, found an array
 5 |     filter: {command: [git]}
   |                       ^
  hint: A regular expression the tool input's `command` must contain a match of (Cursor's matcher over the command text on `beforeShellExecution`); a call without a command does not pass."),
    );
}

/// A hook's dialect, Cursor event, event, matcher and also-on event.
type Kept<'a> = (&'a str, Option<&'a str>, &'a str, &'a str, Option<&'a str>);

/// Loads the native `hooks.yaml` `text` and checks each hook's (dialect, Cursor event, event,
/// matcher, also-on event), or else the whole error text.
#[track_caller]
fn check_dialect(text: &str, expect: Result<&[Kept<'_>], &str>) {
    let got = hooks_config::load_str(
        text,
        Some(std::path::Path::new("hooks.yaml")),
        &crate::support::options(),
    )
    .map(|file| {
        file.hooks()
            .map(|h| {
                (
                    h.dialect.as_str().to_owned(),
                    h.home_event.map(str::to_owned),
                    h.event.name().to_owned(),
                    h.matcher.as_str().to_owned(),
                    h.also_on
                        .map(|e| hooks_config::core::Event::Builtin(e).name().to_owned()),
                )
            })
            .collect::<Vec<_>>()
    })
    .map_err(|e| e.to_string());
    let want = expect
        .map(|hooks| {
            hooks
                .iter()
                .map(|(d, home, e, m, also)| {
                    (
                        (*d).to_owned(),
                        home.map(str::to_owned),
                        (*e).to_owned(),
                        (*m).to_owned(),
                        also.map(str::to_owned),
                    )
                })
                .collect()
        })
        .map_err(|e| e.trim_start_matches('\n').to_owned());
    assert_eq!(got, want, "{text}");
}

/// A native hook kept in Cursor's dialect (`dialect: cursor`, as a moved Cursor hook is)
/// names its event as Cursor does, which says which of Cursor's JSON it is given; the tools
/// the event implies are its matcher unless it has one; Cursor's `stop` also runs on
/// StopFailure.
#[test]
fn native_hook_in_cursors_dialect() {
    check_dialect(
        "hooks:
  - {event: beforeShellExecution, dialect: cursor, command: a}
  - {event: preToolUse, dialect: cursor, matcher: Bash|Read, command: b}
  - {event: stop, dialect: cursor, command: c, loop_limit: 2}
  - {event: Stop, dialect: native, command: d}
",
        Ok(&[
            (
                "cursor",
                Some("beforeShellExecution"),
                "PreToolUse",
                "Bash",
                None,
            ),
            (
                "cursor",
                Some("preToolUse"),
                "PreToolUse",
                "Bash|Read",
                None,
            ),
            ("cursor", Some("stop"), "Stop", "", Some("StopFailure")),
            ("native", None, "Stop", "", None),
        ]),
    );
    check_dialect(
        "hooks:\n  - {event: PreToolUse, dialect: cursor, command: a}\n",
        Err("
hooks.yaml:2:13: error: unknown Cursor event `PreToolUse`
 2 |   - {event: PreToolUse, dialect: cursor, command: a}
   |             ^
  hint: did you mean `preToolUse`?"),
    );
    check_dialect(
        "hooks:\n  - {event: beforeShellExecution, command: a}\n",
        Err("
hooks.yaml:2:13: error: `beforeShellExecution` is Cursor's name for PreToolUse on some tools only
 2 |   - {event: beforeShellExecution, command: a}
   |             ^
  hint: write the event `PreToolUse` with the matcher `Bash`, or add `dialect: cursor` to give the hook Cursor's JSON"),
    );
    // Gemini CLI's and Codex's hooks keep their dialect under canonical event names (or
    // their own), their matchers in their own tool names.
    check_dialect(
        "hooks:
  - {event: PreToolUse, dialect: gemini, matcher: run_shell_command, command: a}
  - {event: BeforeTool, dialect: gemini, command: b}
  - {event: PreToolUse, dialect: codex, matcher: Bash, command: c}
",
        Ok(&[
            ("gemini", None, "PreToolUse", "run_shell_command", None),
            ("gemini", None, "PreToolUse", "", None),
            ("codex", None, "PreToolUse", "Bash", None),
        ]),
    );
    check_dialect(
        "hooks:\n  - {event: Stop, dialect: claude, command: a}\n",
        Err("
hooks.yaml:2:28: error: `claude` is not one of: native, cursor, gemini, codex
 2 |   - {event: Stop, dialect: claude, command: a}
   |                            ^"),
    );
}

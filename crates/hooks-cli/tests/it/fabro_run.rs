//! Fabro run configs through `hooks run`, as a Fabro user runs them: blocking hooks one
//! after another up to the first block, decisions read as Fabro's executor reads them,
//! matchers on Fabro's fields, and what a hook is given (its context JSON, `FABRO_*`
//! variables, `FABRO_HOOK_CONTEXT` in the sandbox, the run's working directory). The hooks
//! are real shell scripts that record whether they ran.

use serde_json::{Value, json};

use crate::support::{Env, Run};

/// A `[[run.hooks]]` entry: `id`, `event`, `script`, then any extra lines (`matcher = ..`).
fn hook(id: &str, event: &str, script: &str, extra: &str) -> String {
    format!("[[run.hooks]]\nid = \"{id}\"\nevent = \"{event}\"\nscript = '''{script}'''\n{extra}\n")
}

/// A run config of `hooks` (host hooks unless an entry says `sandbox`).
fn run_config(hooks: &[String]) -> String {
    let mut text = "_version = 1\n\n".to_owned();
    for h in hooks {
        text.push_str(h);
        if !h.contains("sandbox =") {
            text.push_str("sandbox = false\n");
        }
        text.push('\n');
    }
    text
}

/// `hooks run EVENT --json -p PAYLOAD -c run.toml` in `env`.
fn dispatch(env: &Env, event: &str, payload: &Value) -> Run {
    env.run(&[
        "run",
        event,
        "--json",
        "-p",
        &payload.to_string(),
        "-c",
        "run.toml",
    ])
}

/// The lines of `log` under `env`'s directory (what the hooks recorded), empty if none ran.
fn log(env: &Env) -> Vec<String> {
    std::fs::read_to_string(env.path().join("log"))
        .unwrap_or_default()
        .lines()
        .map(str::to_owned)
        .collect()
}

/// Each hook's `(id, status)` in the aggregate.
fn statuses(json: &Value) -> Vec<(String, String)> {
    json["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            (
                h["id"].as_str().unwrap().to_owned(),
                h["status"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

// 1. Blocking hooks run one after another in declaration order and stop at the first block.

/// What the second of three hooks does, the hooks that ran in order, the exit code of
/// `hooks run` and each hook's status.
type OrderCase = (
    &'static str,
    &'static [&'static str],
    i32,
    &'static [(&'static str, &'static str)],
);

/// Event, `blocking` line, script, exit code of `hooks run`, decision, skip, reason.
type AnswerCase = (
    &'static str,
    &'static str,
    &'static str,
    i32,
    &'static str,
    bool,
    Option<&'static str>,
);

#[test]
fn blocking_hooks_run_in_order_and_stop_at_the_first_block() {
    let cases: [OrderCase; 5] = [
        (
            "exit 0",
            &["first", "second", "third"],
            0,
            &[("first", "ok"), ("second", "ok"), ("third", "ok")],
        ),
        (
            "echo 'not allowed' >&2; exit 2",
            &["first", "second"],
            2,
            &[("first", "ok"), ("second", "blocked"), ("third", "skipped")],
        ),
        (
            r#"echo '{"decision":"block","reason":"no"}'"#,
            &["first", "second"],
            2,
            &[("first", "ok"), ("second", "blocked"), ("third", "skipped")],
        ),
        // A crash blocks: Fabro's command hooks fail closed.
        (
            "exit 1",
            &["first", "second"],
            2,
            &[("first", "ok"), ("second", "failed"), ("third", "skipped")],
        ),
        // A skip does not stop the others.
        (
            r#"echo '{"decision":"skip"}'"#,
            &["first", "second", "third"],
            0,
            &[("first", "ok"), ("second", "ok"), ("third", "ok")],
        ),
    ];
    for (second, ran, code, want) in cases {
        let env = Env::new();
        // Each hook checks that the one before it has finished: they run in order.
        let config = run_config(&[
            hook("first", "stage_start", "echo first >> log", ""),
            hook(
                "second",
                "stage_start",
                &format!("grep -qx first log || exit 1; echo second >> log; {second}"),
                "",
            ),
            hook(
                "third",
                "stage_start",
                "grep -qx second log || exit 1; echo third >> log",
                "",
            ),
        ]);
        env.write("run.toml", &config);
        let run = dispatch(&env, "stage_start", &json!({"node_id": "build"}));
        assert_eq!(run.code, code, "{second}: {run:?}");
        assert_eq!(log(&env), ran, "{second}");
        let want: Vec<(String, String)> = want
            .iter()
            .map(|(id, s)| ((*id).to_owned(), (*s).to_owned()))
            .collect();
        assert_eq!(statuses(&run.json()), want, "{second}");
    }
}

#[test]
fn native_hooks_keep_running_concurrently_after_a_block() {
    let env = Env::new();
    env.write(
        "hooks.yaml",
        "hooks:\n  - {id: first, event: StageStart, command: 'echo first >> log'}\n  \
         - {id: second, event: StageStart, command: 'echo second >> log; exit 2'}\n  \
         - {id: third, event: StageStart, command: 'echo third >> log'}\n",
    );
    let run = env.run(&["run", "stage_start", "--json", "-c", "hooks.yaml"]);
    assert_eq!(run.code, 2, "{run:?}");
    let mut ran = log(&env);
    ran.sort();
    assert_eq!(ran, ["first", "second", "third"]);
}

// 2. Decisions as Fabro's executor reads them.

#[test]
fn command_hook_answers_read_as_fabro_reads_them() {
    let cases: [AnswerCase; 13] = [
        // The seed's own example.
        (
            "stage_start",
            "",
            r#"if [ "$FABRO_NODE_ID" = "deploy" ]; then echo '{"decision": "skip", "reason": "deploy disabled in CI"}'; exit 0; fi"#,
            0,
            "none",
            true,
            Some("deploy disabled in CI"),
        ),
        // Exit 2 with a decision on stdout: that decision, not a block.
        (
            "stage_start",
            "",
            r#"echo '{"decision": "skip", "reason": "not today"}'; exit 2"#,
            0,
            "none",
            true,
            Some("not today"),
        ),
        (
            "stage_start",
            "",
            r#"echo '{"decision": "proceed"}'; exit 2"#,
            0,
            "none",
            false,
            None,
        ),
        (
            "stage_start",
            "",
            r#"echo '{"decision": "block", "reason": "tests fail"}'; exit 2"#,
            2,
            "block",
            false,
            Some("tests fail"),
        ),
        // Exit 2 without a decision blocks.
        (
            "stage_start",
            "",
            "echo 'gate closed' >&2; exit 2",
            2,
            "block",
            false,
            Some("gate closed"),
        ),
        (
            "stage_start",
            "",
            r#"echo '{"reason": "x"'; exit 2"#,
            2,
            "block",
            false,
            Some("hook exited with code 2"),
        ),
        // Exit 0 with stdout that is not a decision proceeds.
        (
            "stage_start",
            "",
            r#"echo '{"decision": "skip"'"#,
            0,
            "none",
            false,
            None,
        ),
        (
            "stage_start",
            "",
            r#"echo '["a", "b"]'"#,
            0,
            "none",
            false,
            None,
        ),
        (
            "stage_start",
            "",
            r#"echo '{"decision": "override"}'"#,
            0,
            "none",
            false,
            None,
        ),
        ("stage_start", "", "echo all good", 0, "none", false, None),
        // `blocking = true` on events that do not block by default: the decisions count.
        (
            "stage_complete",
            "blocking = true",
            "echo 'coverage fell' >&2; exit 2",
            2,
            "block",
            false,
            Some("coverage fell"),
        ),
        (
            "run_complete",
            "blocking = true",
            r#"echo '{"decision": "block", "reason": "release notes missing"}'"#,
            2,
            "block",
            false,
            Some("release notes missing"),
        ),
        (
            "stage_complete",
            "blocking = true",
            r#"echo '{"decision": "skip", "reason": "nothing to report"}'"#,
            0,
            "none",
            true,
            Some("nothing to report"),
        ),
    ];
    for (event, blocking, script, code, decision, skip, reason) in cases {
        let env = Env::new();
        env.write(
            "run.toml",
            &run_config(&[hook("gate", event, script, blocking)]),
        );
        let run = dispatch(&env, event, &json!({"node_id": "deploy"}));
        assert_eq!(run.code, code, "{script}: {run:?}");
        let agg = run.json();
        assert_eq!(agg["decision"], decision, "{script}: {agg}");
        assert_eq!(
            agg["skip"].as_bool().unwrap_or(false),
            skip,
            "{script}: {agg}"
        );
        assert_eq!(agg["reason"].as_str(), reason, "{script}: {agg}");
        assert!(agg.get("ignored").is_none(), "{script}: {agg}");
    }
}

// 3. Matchers on Fabro's fields; events that take no matcher always fire, with a warning.

#[test]
fn matchers_see_the_fields_fabro_matches() {
    // (event, matcher, payload, whether the hook fires)
    let cases: [(&str, &str, Value, bool); 12] = [
        (
            "edge_selected",
            "^review$",
            json!({"edge_from": "review", "edge_to": "fix"}),
            true,
        ),
        (
            "edge_selected",
            "^fix$",
            json!({"edge_from": "review", "edge_to": "fix"}),
            true,
        ),
        (
            "edge_selected",
            "^retry$",
            json!({"edge_from": "review", "edge_to": "fix", "edge_label": "retry"}),
            true,
        ),
        (
            "edge_selected",
            "^deploy$",
            json!({"edge_from": "review", "edge_to": "fix"}),
            false,
        ),
        (
            "pre_tool_use",
            "^implement$",
            json!({"node_id": "implement", "tool_name": "shell"}),
            true,
        ),
        (
            "pre_tool_use",
            "write_file|edit_file",
            json!({"node_id": "implement", "tool_name": "edit_file"}),
            true,
        ),
        (
            "post_tool_use",
            "^implement$",
            json!({"node_id": "implement", "tool_name": "shell"}),
            true,
        ),
        (
            "pre_tool_use",
            "^review$",
            json!({"node_id": "implement", "tool_name": "shell"}),
            false,
        ),
        // No matcher support: the hook fires on every occurrence.
        (
            "run_start",
            "^nightly$",
            json!({"workflow_name": "ci"}),
            true,
        ),
        (
            "run_complete",
            "^nightly$",
            json!({"workflow_name": "ci"}),
            true,
        ),
        ("parallel_start", "^fan$", json!({"node_id": "split"}), true),
        ("sandbox_ready", "^x$", json!({}), true),
    ];
    for (event, matcher, payload, fires) in cases {
        let env = Env::new();
        let extra = format!("matcher = \"{matcher}\"\nblocking = true");
        env.write(
            "run.toml",
            &run_config(&[hook("probe", event, "echo probe >> log", &extra)]),
        );
        let run = dispatch(&env, event, &payload);
        assert_eq!(run.code, 0, "{event} {matcher}: {run:?}");
        let want: &[&str] = if fires { &["probe"] } else { &[] };
        assert_eq!(log(&env), want, "{event} {matcher} {payload}");
    }
}

#[test]
fn a_native_tool_matcher_still_sees_only_the_tool_name() {
    let env = Env::new();
    env.write(
        "hooks.yaml",
        "hooks:\n  - {id: probe, event: PreToolUse, matcher: implement, command: 'echo probe >> log'}\n",
    );
    let payload = json!({"node_id": "implement", "tool_name": "shell"}).to_string();
    let run = env.run(&["run", "pre_tool_use", "-p", &payload, "-c", "hooks.yaml"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(log(&env).is_empty());
}

#[test]
fn a_matcher_on_an_event_without_matcher_support_is_a_load_warning() {
    let events = [
        "run_start",
        "run_complete",
        "run_failed",
        "parallel_start",
        "parallel_complete",
        "sandbox_ready",
        "sandbox_cleanup",
    ];
    for event in events {
        let env = Env::new();
        env.write(
            "run.toml",
            &run_config(&[hook("probe", event, "true", "matcher = \"^ci$\"")]),
        );
        let run = env.run(&["validate", "-c", "run.toml"]);
        assert_eq!(run.code, 0, "{event}: {run:?}");
        let want = format!(
            "run.toml:7:11: warning: event `{event}` has no matcher subject, so the matcher `^ci$` is ignored"
        );
        assert!(
            run.stdout.contains(&want) || run.stderr.contains(&want),
            "{event}: {run:?}"
        );
    }
}

// 4. What a Fabro hook is given.

#[test]
fn a_host_hook_reads_fabros_context_keys_on_stdin() {
    let env = Env::new();
    env.write(
        "run.toml",
        &run_config(&[hook("ctx", "stage_start", "cat > ctx.json", "")]),
    );
    let payload = json!({"run_id": "run-1", "workflow_name": "ci", "node_id": "implement", "handler_type": "agent"});
    let run = dispatch(&env, "stage_start", &payload);
    assert_eq!(run.code, 0, "{run:?}");
    let ctx: Value =
        serde_json::from_str(&std::fs::read_to_string(env.path().join("ctx.json")).unwrap())
            .unwrap();
    for (key, value) in [
        ("event", "stage_start"),
        ("run_id", "run-1"),
        ("workflow_name", "ci"),
        ("node_id", "implement"),
        ("handler_type", "agent"),
    ] {
        assert_eq!(ctx[key], value, "{key}: {ctx}");
    }
}

#[test]
fn fabro_workflow_comes_from_workflow_name_or_workflow() {
    let cases = [
        (json!({"workflow_name": "ci-pipeline"}), "ci-pipeline"),
        (json!({"workflow": "nightly"}), "nightly"),
        (
            json!({"workflow_name": "ci-pipeline", "workflow": "nightly"}),
            "ci-pipeline",
        ),
    ];
    for (payload, want) in cases {
        let env = Env::new();
        env.write(
            "run.toml",
            &run_config(&[hook(
                "wf",
                "run_start",
                r#"printf '%s' "$FABRO_WORKFLOW" > wf.txt"#,
                "",
            )]),
        );
        let run = dispatch(&env, "run_start", &payload);
        assert_eq!(run.code, 0, "{run:?}");
        assert_eq!(
            std::fs::read_to_string(env.path().join("wf.txt")).unwrap(),
            want,
            "{payload}"
        );
    }
}

#[test]
fn a_sandboxed_hook_gets_its_context_in_a_file() {
    let env = Env::new();
    // Sandboxed (Fabro's default): the working directory is the one place it may write.
    let script =
        r#"printf '%s' "$FABRO_HOOK_CONTEXT" > path.txt; cat "$FABRO_HOOK_CONTEXT" > ctx.json"#;
    env.write(
        "run.toml",
        &run_config(&[hook("boxed", "stage_start", script, "sandbox = true")]),
    );
    let run = dispatch(
        &env,
        "stage_start",
        &json!({"run_id": "run-1", "workflow_name": "ci", "node_id": "implement"}),
    );
    assert_eq!(run.code, 0, "{run:?}");
    let ctx: Value =
        serde_json::from_str(&std::fs::read_to_string(env.path().join("ctx.json")).unwrap())
            .unwrap();
    assert_eq!(ctx["event"], "stage_start", "{ctx}");
    assert_eq!(ctx["node_id"], "implement", "{ctx}");
    let path = std::fs::read_to_string(env.path().join("path.txt")).unwrap();
    assert!(path.ends_with(".json"), "{path}");
    assert!(
        !std::path::Path::new(&path).exists(),
        "the context file is removed after the hook: {path}"
    );
}

#[test]
fn hooks_run_in_the_runs_working_directory() {
    // (`[run]` lines, where the hook runs, relative to the temporary directory)
    let cases = [
        ("working_dir = \"work\"", "project/work"),
        ("working_dir = \"../shared\"", "shared"),
        ("working_dir = \"[abs]\"", "absolute"),
    ];
    for (run_lines, want) in cases {
        let env = Env::new().in_dir("elsewhere");
        for dir in ["project/work", "shared", "absolute"] {
            env.write(
                &format!("{dir}/scripts/pre-check.sh"),
                "#!/bin/sh\npwd > \"$OUT\"\n",
            );
            let script = env.path().join(dir).join("scripts/pre-check.sh");
            let mut perms = std::fs::metadata(&script).unwrap().permissions();
            std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
            std::fs::set_permissions(&script, perms).unwrap();
        }
        let abs = env.path().join("absolute").display().to_string();
        let config = format!(
            "[run]\n{}\n\n{}",
            run_lines.replace("[abs]", &abs),
            run_config(&[hook(
                "pre-check",
                "stage_start",
                "./scripts/pre-check.sh",
                ""
            )])
            .replace("_version = 1\n\n", "")
        );
        env.write("project/run.toml", &format!("_version = 1\n\n{config}"));
        let out = env.path().join("pwd.txt");
        let run = env.finish(env.command().env("OUT", &out).args([
            "run",
            "stage_start",
            "--json",
            "-c",
            "../project/run.toml",
        ]));
        assert_eq!(run.code, 0, "{run_lines}: {run:?}");
        let ran_in = std::fs::read_to_string(&out).unwrap();
        let want = env.path().join(want).canonicalize().unwrap();
        assert_eq!(
            std::path::Path::new(ran_in.trim()).canonicalize().unwrap(),
            want,
            "{run_lines}"
        );
    }
}

/// The full example of Fabro's run configuration documentation, as written there: its run
/// works in a Daytona sandbox at `working_dir = "/tmp/workdir"`, which is not on this
/// machine, and its `pre-check` hook runs on the host (`sandbox = false`), so it runs in
/// the directory the run was started from, where `./scripts/pre-check.sh` is, and the
/// stage starts; `run_complete`'s `echo done` runs too.
#[test]
fn the_documented_full_example_runs_its_host_hook_on_the_host() {
    let env = Env::new().in_dir("project");
    let example = crate::support::workspace_root().join("examples/configs/fabro/run.toml");
    env.write(
        "project/run.toml",
        &std::fs::read_to_string(example).unwrap(),
    );
    let script = env.write(
        "project/scripts/pre-check.sh",
        "#!/bin/sh\necho \"pre-check in $(pwd)\" >> \"$LOG\"\n",
    );
    let mut perms = std::fs::metadata(&script).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(&script, perms).unwrap();
    let log = env.path().join("log");
    let run = env.finish(env.command().env("LOG", &log).args([
        "run",
        "stage_start",
        "--json",
        "-p",
        r#"{"node_id": "build", "handler_type": "agent"}"#,
        "-c",
        "run.toml",
    ]));
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        statuses(&run.json()),
        [("pre-check".to_owned(), "ok".to_owned())]
    );
    let project = env.path().join("project").canonicalize().unwrap();
    assert_eq!(
        std::fs::read_to_string(&log).unwrap().trim(),
        format!("pre-check in {}", project.display())
    );
    let done = env.run(&["run", "run_complete", "-c", "run.toml"]);
    assert_eq!(done.code, 0, "{done:?}");
}

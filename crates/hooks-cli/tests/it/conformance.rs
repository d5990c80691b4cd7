//! The Claude Code protocol, case by case: each case of `tests/conformance/claude/*.json` is
//! a settings file, a payload and the answers of the hooks (stdout, stderr, exit code) in,
//! and the outcome `hooks run --json` prints (and the warnings it gives) out. The cases
//! follow the rules of Claude Code's hooks reference, one or more per event, per output
//! field and per cross-cutting rule; each names the rule it checks.
//!
//! A case file is a JSON array of cases:
//!
//! ```json
//! {
//!   "name": "PreToolUse: permissionDecision deny blocks with its reason",
//!   "rule": "PreToolUse decision control",
//!   "event": "PreToolUse",
//!   "payload": {"tool_name": "Bash", "tool_input": {"command": "ls"}},
//!   "hook": {"matcher": "Bash"},
//!   "answers": [{"exit": 0, "stdout": {"hookSpecificOutput": {...}}}],
//!   "expect": {"decision": "deny", "reason": "no"},
//!   "warnings": ["a substring of stderr"]
//! }
//! ```
//!
//! - `answers`: one command hook per answer, in this order, each printing `stdout` (a JSON
//!   value is printed as JSON, a string as it is), `stderr`, and exiting with `exit`
//!   (default 0).
//! - `hook`: the matcher group's `matcher` and extra keys of every handler (`timeout`,
//!   `async`, ...). Without `settings`, the file is `{"hooks": {EVENT: [{"matcher": ..,
//!   "hooks": [handler per answer]}]}}`.
//! - `settings`: the whole settings file instead; `"{{answer N}}"` in a string is the
//!   command that gives answer N.
//! - `expect`: a subset of the `--json` outcome: every key given must be there with that
//!   value (objects compared key by key, arrays element by element and by length);
//!   `{"$has": "text"}` matches a string containing `text`, `{"$absent": true}` a key
//!   that is not there or is `null`.
//! - `warnings`: substrings that must appear on stderr; `no_warnings: true` says stderr
//!   is empty.
//! - `status`: the exit code of `hooks run` (default: not checked).
//!
//! Optional, for rules about sequences, the environment and where files are:
//!
//! - `steps`: payloads of one session, replayed in order by one `hooks replay --json`
//!   (instead of `payload`); `expect` is matched against the last outcome, and
//!   `expect_steps` (one expectation or `null` per step) against each.
//! - an answer's `script`: shell run by that hook before it prints its answer, with the
//!   hook's environment (`$CLAUDE_ENV_FILE`, `$CLAUDE_PROJECT_DIR`, ...).
//! - `env`: environment variables of the `hooks` process.
//! - `config`: where the settings file is written and named with `-c` (default
//!   `.claude/settings.json`); `files`: more files to write, by path.
//! - `project`: a directory passed as `--project`; `cwd`: the directory `hooks` runs in
//!   (both relative to the case's directory, and created). Paths in the outcome and on
//!   stderr show the case's directory as `[dir]`.
//! - `validate`: substrings that must appear in what `hooks validate` says of the settings
//!   file (its load warnings, with file:line:col), and `validate_status` its exit code.
//! - `list`: a subset of `hooks list --json` for the settings file (each hook's `type`,
//!   `timeout_ms`, `state`, ...), compared as `expect` is.
//! - an answer's `sleep`: seconds the hook waits before answering (to meet a timeout).
//! - an answer's `stdin`: a subset of the JSON the hook was given on stdin (compared as
//!   `expect` is; `{"$present": true}` matches any value that is there), and its `env`:
//!   environment variables the hook saw, by name (a string, `$has`, `$present` or
//!   `$absent`).
//! - `from`: the agent that sends the event (`hooks run --from`), for the translation of
//!   events and tool names between agents; `hook_event`: the event's name in the
//!   settings file, when the file's agent spells it otherwise than `event`.
//! - `settings_text`: the settings file's text as it is (a TOML `config.toml`), with
//!   `{{answer N}}` and `{{config}}` (the file's own path) filled in.
//!
//! The suites of the other agents (`tests/conformance/gemini`, `tests/conformance/codex`)
//! take the same cases; their settings file is by default where that agent keeps its
//! project hooks (`.gemini/settings.json`, `.codex/hooks.json`).

use std::path::Path;
use std::time::Duration;

use serde_json::{Map, Value, json};

use crate::support::Env;

/// Every case of every file, with the failures listed together.
#[test]
fn claude_code_reference_cases() {
    run_suite("claude", ".claude/settings.json");
}

/// Gemini CLI's hooks reference, case by case.
#[test]
fn gemini_cli_reference_cases() {
    run_suite("gemini", ".gemini/settings.json");
}

/// Codex's hooks reference and its strict output parser, case by case.
#[test]
fn codex_reference_cases() {
    run_suite("codex", ".codex/hooks.json");
}

/// Runs every case of `tests/conformance/AGENT/*.json`, whose settings file is by default
/// at `config`.
fn run_suite(agent: &str, config: &str) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/conformance")
        .join(agent);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no case files in {}", dir.display());
    let mut failures = Vec::new();
    let mut count = 0;
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let cases: Vec<Value> = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{}: not a JSON array of cases: {e}", file.display()));
        let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
        for case in &cases {
            count += 1;
            if let Err(why) = run_case(case, config) {
                failures.push(format!(
                    "{stem}: {}: {why}",
                    case["name"].as_str().unwrap_or("?")
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {count} cases failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

fn run_case(case: &Value, default_config: &str) -> Result<(), String> {
    let mut env = Env::new();
    if let Some(cwd) = case["cwd"].as_str() {
        env = env.in_dir(cwd);
    }
    let event = case["event"].as_str().ok_or("a case needs an `event`")?;
    let answers = case["answers"].as_array().cloned().unwrap_or_default();
    let mut commands = Vec::new();
    for (i, answer) in answers.iter().enumerate() {
        let out = match &answer["stdout"] {
            Value::Null => String::new(),
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        env.write(&format!("answer{i}.out"), &out);
        env.write(
            &format!("answer{i}.err"),
            answer["stderr"].as_str().unwrap_or(""),
        );
        let script = env.write(
            &format!("answer{i}.sh"),
            &format!(
                "#!/bin/sh\ncat >'{dir}/answer{i}.stdin'\nenv -0 >'{dir}/answer{i}.env'\n{sleep}{script}\ncat '{dir}/answer{i}.out'\ncat '{dir}/answer{i}.err' >&2\nexit {code}\n",
                script = answer["script"].as_str().unwrap_or(""),
                dir = env.path().display(),
                code = answer["exit"].as_i64().unwrap_or(0),
                sleep = answer["sleep"]
                    .as_f64()
                    .map(|s| format!("sleep {s}\n"))
                    .unwrap_or_default()
            ),
        );
        commands.push(format!("sh {}", script.display()));
    }
    let config = case["config"].as_str().unwrap_or(default_config);
    let config_path = env.path().join(config);
    let settings = match &case["settings"] {
        Value::Null => {
            let extra = case["hook"].as_object().cloned().unwrap_or_default();
            let mut group = Map::new();
            if let Some(m) = extra.get("matcher") {
                group.insert("matcher".to_owned(), m.clone());
            }
            let handlers: Vec<Value> = commands
                .iter()
                .map(|c| {
                    let mut h = Map::new();
                    h.insert("type".to_owned(), json!("command"));
                    h.insert("command".to_owned(), json!(c));
                    for (k, v) in &extra {
                        if k != "matcher" {
                            h.insert(k.clone(), v.clone());
                        }
                    }
                    Value::Object(h)
                })
                .collect();
            group.insert("hooks".to_owned(), Value::Array(handlers));
            let key = case["hook_event"].as_str().unwrap_or(event);
            json!({ "hooks": { key: [Value::Object(group)] } })
        }
        given => fill_answers(given, &commands),
    };
    let text = match case["settings_text"].as_str() {
        Some(text) => fill_answers(&json!(text), &commands)
            .as_str()
            .unwrap_or_default()
            .replace("{{config}}", &config_path.display().to_string()),
        None => serde_json::to_string_pretty(&settings).unwrap(),
    };
    let config = env.write(config, &text);
    for (path, text) in case["files"].as_object().into_iter().flatten() {
        env.write(path, text.as_str().unwrap_or_default());
    }
    let mut command = env.command();
    command.timeout(Duration::from_secs(60));
    for (name, value) in case["env"].as_object().into_iter().flatten() {
        command.env(name, value.as_str().unwrap_or_default());
    }
    let steps = case["steps"].as_array();
    match steps {
        Some(steps) => {
            let lines: Vec<String> = steps
                .iter()
                .map(|p| json!({"event": event, "payload": p}).to_string())
                .collect();
            let session = env.write("session.jsonl", &(lines.join("\n") + "\n"));
            command.arg("replay").arg(session).arg("--json");
        }
        None => {
            let payload = case.get("payload").cloned().unwrap_or_else(|| json!({}));
            let payload = env.write("payload.json", &payload.to_string());
            command.args(["run", event, "--json", "-p"]).arg(payload);
        }
    }
    if let Some(from) = case["from"].as_str() {
        command.args(["--from", from]);
    }
    command.arg("-c").arg(&config);
    if let Some(project) = case["project"].as_str() {
        let dir = env.path().join(project);
        std::fs::create_dir_all(&dir).unwrap();
        command.arg("--project").arg(dir);
    }
    let run = env.finish(&mut command);
    if let Some(status) = case["status"].as_i64()
        && i64::from(run.code) != status
    {
        return Err(format!(
            "`hooks run` exited {} (expected {status})\nstderr: {}",
            run.code, run.stderr
        ));
    }
    let outcomes: Vec<Value> = run
        .stdout
        .lines()
        .map(serde_json::from_str)
        .collect::<Result<_, _>>()
        .map_err(|e| {
            format!(
                "stdout is not JSON lines ({e}): {}\nstderr: {}",
                run.stdout, run.stderr
            )
        })?;
    let expected_lines = steps.map_or(1, Vec::len);
    if outcomes.len() != expected_lines {
        return Err(format!(
            "expected {expected_lines} outcome(s), got {}: {}\nstderr: {}",
            outcomes.len(),
            run.stdout,
            run.stderr
        ));
    }
    for (n, (outcome, expect)) in outcomes
        .iter()
        .zip(case["expect_steps"].as_array().into_iter().flatten())
        .enumerate()
    {
        if !expect.is_null() {
            contains(outcome, expect, &format!("step {}", n + 1)).map_err(|why| {
                format!(
                    "{why}\n  outcome: {outcome}\n  stderr: {}",
                    run.stderr.trim_end()
                )
            })?;
        }
    }
    let actual = outcomes.last().cloned().unwrap_or_default();
    if let Some(expect) = case.get("expect") {
        contains(&actual, expect, "$").map_err(|why| {
            format!(
                "{why}\n  outcome: {actual}\n  stderr: {}",
                run.stderr.trim_end()
            )
        })?;
    }
    for warning in case["warnings"].as_array().into_iter().flatten() {
        let want = warning.as_str().unwrap_or_default();
        if !run.stderr.contains(want) {
            return Err(format!("stderr lacks {want:?}:\n{}", run.stderr.trim_end()));
        }
    }
    if case["no_warnings"].as_bool() == Some(true) && !run.stderr.trim().is_empty() {
        return Err(format!("stderr is not empty:\n{}", run.stderr.trim_end()));
    }
    if case.get("validate").is_some() || case.get("validate_status").is_some() {
        let out = env.finish(
            env.command()
                .args(["validate", "-c"])
                .arg(&config)
                .timeout(Duration::from_secs(60)),
        );
        let text = format!("{}{}", out.stdout, out.stderr);
        if let Some(status) = case["validate_status"].as_i64()
            && i64::from(out.code) != status
        {
            return Err(format!(
                "`hooks validate` exited {} (expected {status}):\n{text}",
                out.code
            ));
        }
        for want in case["validate"].as_array().into_iter().flatten() {
            let want = want.as_str().unwrap_or_default();
            if !text.contains(want) {
                return Err(format!("`hooks validate` lacks {want:?}:\n{text}"));
            }
        }
    }
    for (i, answer) in answers.iter().enumerate() {
        check_answer_input(&env, i, answer)?;
    }
    if let Some(expect) = case.get("list") {
        let out = env.finish(
            env.command()
                .args(["list", "--json", "-c"])
                .arg(&config)
                .timeout(Duration::from_secs(60)),
        );
        let listed: Value = serde_json::from_str(&out.stdout)
            .map_err(|e| format!("`hooks list --json` is not JSON ({e}): {}", out.stdout))?;
        contains(&listed, expect, "list").map_err(|why| format!("{why}\n  list: {listed}"))?;
    }
    Ok(())
}

/// Whether answer `i`'s hook was given the `stdin` and `env` the case expects.
fn check_answer_input(env: &Env, i: usize, answer: &Value) -> Result<(), String> {
    if answer.get("stdin").is_none() && answer.get("env").is_none() {
        return Ok(());
    }
    let read = |ext: &str| std::fs::read(env.path().join(format!("answer{i}.{ext}")));
    let (Ok(stdin), Ok(vars)) = (read("stdin"), read("env")) else {
        return Err(format!("the hook of answer {i} did not run"));
    };
    if let Some(expect) = answer.get("stdin") {
        let given: Value = serde_json::from_slice(&stdin).map_err(|e| {
            format!(
                "answer {i}: stdin is not JSON ({e}): {}",
                String::from_utf8_lossy(&stdin)
            )
        })?;
        contains(&given, expect, &format!("answer {i} stdin"))
            .map_err(|why| format!("{why}\n  stdin: {given}"))?;
    }
    if let Some(expect) = answer.get("env") {
        let vars: Map<String, Value> = vars
            .split(|b| *b == 0)
            .filter_map(|entry| {
                let entry = String::from_utf8_lossy(entry);
                let (k, v) = entry.split_once('=')?;
                Some((k.to_owned(), json!(v)))
            })
            .collect();
        contains(&Value::Object(vars), expect, &format!("answer {i} env"))?;
    }
    Ok(())
}

/// `settings` with every `{{answer N}}` replaced by answer N's command.
fn fill_answers(settings: &Value, commands: &[String]) -> Value {
    match settings {
        Value::String(s) => {
            let mut out = s.clone();
            for (i, c) in commands.iter().enumerate() {
                out = out.replace(&format!("{{{{answer {i}}}}}"), c);
            }
            Value::String(out)
        }
        Value::Array(items) => {
            Value::Array(items.iter().map(|v| fill_answers(v, commands)).collect())
        }
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), fill_answers(v, commands)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Whether `actual` holds `expect` (see the module's docs), or where it does not.
fn contains(actual: &Value, expect: &Value, at: &str) -> Result<(), String> {
    match expect {
        Value::Object(e) if e.contains_key("$has") => {
            let want = e["$has"].as_str().unwrap_or_default();
            match actual.as_str() {
                Some(s) if s.contains(want) => Ok(()),
                _ => Err(format!("{at}: {actual} does not contain {want:?}")),
            }
        }
        Value::Object(e) => {
            let Some(a) = actual.as_object() else {
                return Err(format!("{at}: expected an object, got {actual}"));
            };
            for (k, v) in e {
                let here = format!("{at}.{k}");
                match a.get(k) {
                    Some(x) if v.get("$present").is_some() && !x.is_null() => {}
                    _ if v.get("$present").is_some() => {
                        return Err(format!("{here}: missing (expected a value)"));
                    }
                    _ if v.get("$absent").is_some() => {
                        if a.get(k).is_some_and(|x| !x.is_null()) {
                            return Err(format!("{here}: expected absent, got {}", a[k]));
                        }
                    }
                    None => return Err(format!("{here}: missing (expected {v})")),
                    Some(x) => contains(x, v, &here)?,
                }
            }
            Ok(())
        }
        Value::Array(e) => {
            let Some(a) = actual.as_array() else {
                return Err(format!("{at}: expected an array, got {actual}"));
            };
            if a.len() != e.len() {
                return Err(format!(
                    "{at}: expected {} items {expect}, got {actual}",
                    e.len()
                ));
            }
            for (i, (x, v)) in a.iter().zip(e).enumerate() {
                contains(x, v, &format!("{at}[{i}]"))?;
            }
            Ok(())
        }
        scalar if scalar == actual => Ok(()),
        _ => Err(format!("{at}: expected {expect}, got {actual}")),
    }
}

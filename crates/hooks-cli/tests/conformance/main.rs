//! Each agent's hook protocol, case by case: each case of `tests/conformance/<agent>/*.json`
//! (`claude` for Claude Code, `cursor`, `cline`, `gemini`, `codex`, `qwen` for Qwen Code,
//! `droid` for Factory Droid, `copilot` for GitHub Copilot CLI, `opencode`) is its own test,
//! named
//! `<agent>::<file stem>::<case name>`, so that `cargo test -p agentic-hooks-cli --test
//! conformance -- <name>` runs the cases whose names contain `<name>` and a failure names
//! its case. A case is a config in the agent's own form, a payload and the answers of the
//! hooks (stdout, stderr, exit code) in, and the outcome `hooks run --json` prints (and the
//! warnings it gives), and what each hook was given on stdin and in its environment, out.
//! The cases follow the rules of the agent's hooks reference, one or more per event, per
//! output field and per cross-cutting rule; each names the rule it checks.
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
//! - `answers`: one command hook per answer, in this order, each saving its stdin and
//!   environment, printing `stdout` (a JSON value is printed as JSON, a string as it is),
//!   `stderr`, and exiting with `exit` (default 0).
//! - `hook`: the matcher group's `matcher` and extra keys of every handler (`timeout`,
//!   `async`, ...). Without `settings`, the file is `{"hooks": {EVENT: [{"matcher": ..,
//!   "hooks": [handler per answer]}]}}`.
//! - `settings`: the whole settings file instead; `"{{answer N}}"` in a string is the
//!   command that gives answer N.
//! - `expect`: a subset of the `--json` outcome: every key given must be there with that
//!   value (objects compared key by key, arrays element by element and by length);
//!   `{"$has": "text"}` matches a string containing `text`, `{"$absent": true}` a key
//!   that is not there or is `null`.
//!   `{"$type": "string"}` (or `number`, `boolean`, `array`, `object`) a value of that
//!   JSON type.
//! - `warnings`: substrings that must appear on stderr; `no_warnings: true` says stderr
//!   is empty.
//! - `stdin`: a subset of the JSON the first hook read on its stdin, compared as `expect`
//!   is (`stdins`: one per answer, `null` for one not checked); the hook must have run.
//! - `hook_env`: a subset of the first hook's environment (name to value, or
//!   `{"$absent": true}`).
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
//!   `.claude/settings.json`); `files`: more files to write, by path; `discover: true`
//!   names no file and lets discovery find it, with the case's directory as the project.
//!
//! Per agent, the config is made from the answers this way (`hook_event`, default `event`,
//! is the agent's name of the event the hooks are registered on):
//!
//! - `claude`: the settings file above; `gemini`, `codex`, `qwen` and `droid` the same
//!   shape, written to `.gemini/settings.json`, `.codex/hooks.json`, `.qwen/settings.json`
//!   and `.factory/settings.json` by default (`settings_text`: the
//!   file's text as it is, a Codex `config.toml`, with `{{answer N}}` and `{{config}}`, its
//!   own path, filled in; `from`: the agent that sends the event, `hooks run --from`).
//! - `cursor`: `{"version": 1, "hooks": {HOOK_EVENT: [entry per answer]}}`, each entry a
//!   `command` with the keys of `hook` (`matcher`, `timeout`, `failClosed`, ...), written to
//!   `.cursor/hooks.json` by default; `settings` replaces it as for Claude Code.
//! - `copilot`: `{"version": 1, "hooks": {HOOK_EVENT: [..]}}` written to
//!   `.github/hooks/guard.json`: under a camelCase HOOK_EVENT an entry per answer, a
//!   `bash` command with the keys of `hook`; under a PascalCase one Claude Code's matcher
//!   group.
//! - `opencode`: no config file of its own (its hooks are plugins): the hooks are Claude
//!   Code's settings file above, and the payload is what the bridge's OpenCode plugin
//!   sends (`from: "opencode"`, the event under OpenCode's name, its `hook_event` the
//!   canonical one).
//! - `cline`: no config file: each answer is a hook file named HOOK_EVENT, the first in
//!   `.clinerules/hooks/` (or at `config`), the second in the global
//!   `home/Documents/Cline/Hooks/`, with the mode `mode` (default `755`); every file is
//!   named with `-c`.
//! - `project`: a directory passed as `--project`; `cwd`: the directory `hooks` runs in
//!   (both relative to the case's directory, and created). Paths in the outcome and on
//!   stderr show the case's directory as `[dir]`.
//! - `validate`: substrings that must appear in what `hooks validate` says of the settings
//!   file (its load warnings, with file:line:col), and `validate_status` its exit code.
//! - `list`: a subset of `hooks list --json` for the settings file (each hook's `type`,
//!   `timeout_ms`, `state`, ...), compared as `expect` is.
//! - an answer's `sleep`: seconds the hook waits before answering (to meet a timeout).

#![allow(clippy::unwrap_used)]

use std::path::Path;
use std::time::Duration;

use libtest_mimic::{Arguments, Trial};
use serde_json::{Map, Value, json};

use crate::support::Env;

// The command-line tests' fixtures; the suite uses `Env` of them.
#[allow(dead_code)]
#[path = "../it/support.rs"]
mod support;

/// One trial per case of every agent's suite.
fn main() {
    let args = Arguments::from_args();
    let trials = [
        Agent::Claude,
        Agent::Cursor,
        Agent::Cline,
        Agent::Gemini,
        Agent::Codex,
        Agent::Qwen,
        Agent::Droid,
        Agent::Copilot,
        Agent::Opencode,
    ]
    .into_iter()
    .flat_map(trials)
    .collect();
    libtest_mimic::run(&args, trials).exit();
}

/// The agent whose protocol a suite checks, which decides how its config is written.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Agent {
    Claude,
    Cursor,
    Cline,
    Gemini,
    Codex,
    Qwen,
    Droid,
    Copilot,
    Opencode,
}

impl Agent {
    fn dir(self) -> &'static str {
        match self {
            Agent::Claude => "claude",
            Agent::Cursor => "cursor",
            Agent::Cline => "cline",
            Agent::Gemini => "gemini",
            Agent::Codex => "codex",
            Agent::Qwen => "qwen",
            Agent::Droid => "droid",
            Agent::Copilot => "copilot",
            Agent::Opencode => "opencode",
        }
    }

    fn default_config(self, hook_event: &str) -> String {
        match self {
            Agent::Claude => ".claude/settings.json".to_owned(),
            Agent::Cursor => ".cursor/hooks.json".to_owned(),
            Agent::Cline => format!(".clinerules/hooks/{hook_event}"),
            Agent::Gemini => ".gemini/settings.json".to_owned(),
            Agent::Codex => ".codex/hooks.json".to_owned(),
            Agent::Qwen => ".qwen/settings.json".to_owned(),
            Agent::Droid => ".factory/settings.json".to_owned(),
            Agent::Copilot => ".github/hooks/guard.json".to_owned(),
            // OpenCode has no hooks file: its events reach hooks of Claude Code's form.
            Agent::Opencode => ".claude/settings.json".to_owned(),
        }
    }
}

/// A trial for each case of each file of `agent`'s suite, named
/// `<agent>::<file stem>::<case name>` (the case's position in its file when it has no
/// name).
fn trials(agent: Agent) -> Vec<Trial> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/conformance")
        .join(agent.dir());
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no case files in {}", dir.display());
    let mut trials = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let cases: Vec<Value> = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{}: not a JSON array of cases: {e}", file.display()));
        let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
        for (i, case) in cases.into_iter().enumerate() {
            let name = case["name"]
                .as_str()
                .map_or_else(|| format!("case {}", i + 1), str::to_owned);
            let name = format!("{}::{stem}::{name}", agent.dir());
            trials.push(Trial::test(name, move || Ok(run_case(agent, &case)?)));
        }
    }
    trials
}

fn run_case(agent: Agent, case: &Value) -> Result<(), String> {
    let mut env = Env::new();
    if let Some(cwd) = case["cwd"].as_str() {
        env = env.in_dir(cwd);
    }
    let event = case["event"].as_str().ok_or("a case needs an `event`")?;
    let hook_event = case["hook_event"].as_str().unwrap_or(event);
    let answers = case["answers"].as_array().cloned().unwrap_or_default();
    let config_at = case["config"]
        .as_str()
        .map_or_else(|| agent.default_config(hook_event), str::to_owned);
    let mut commands = Vec::new();
    let mut configs = Vec::new();
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
        let text = format!(
            "#!/bin/sh\ncat > '{dir}/answer{i}.in'\nenv > '{dir}/answer{i}.env'\n{sleep}{script}\ncat '{dir}/answer{i}.out'\ncat '{dir}/answer{i}.err' >&2\nexit {code}\n",
            script = answer["script"].as_str().unwrap_or(""),
            dir = env.path().display(),
            code = answer["exit"].as_i64().unwrap_or(0),
            sleep = answer["sleep"]
                .as_f64()
                .map(|s| format!("sleep {s}\n"))
                .unwrap_or_default()
        );
        if agent == Agent::Cline {
            // A Cline hook is the executable file itself, named after its event.
            let at = match i {
                0 => config_at.clone(),
                1 => format!("home/Documents/Cline/Hooks/{hook_event}"),
                _ => return Err("a Cline case has at most two hook files".to_owned()),
            };
            let path = env.write(&at, &text);
            let mode = u32::from_str_radix(case["mode"].as_str().unwrap_or("755"), 8)
                .map_err(|e| format!("`mode`: {e}"))?;
            std::fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(mode))
                .unwrap();
            configs.push(path);
        } else {
            let script = env.write(&format!("answer{i}.sh"), &text);
            commands.push(format!("sh {}", script.display()));
        }
    }
    if agent != Agent::Cline {
        let settings = match &case["settings"] {
            Value::Null => default_settings(agent, hook_event, case, &commands),
            given => fill_answers(given, &commands),
        };
        let text = match case["settings_text"].as_str() {
            // A TOML config as it is, `{{config}}` its own path.
            Some(text) => fill_answers(&json!(text), &commands)
                .as_str()
                .unwrap_or_default()
                .replace(
                    "{{config}}",
                    &env.path().join(&config_at).display().to_string(),
                ),
            None => serde_json::to_string_pretty(&settings).unwrap(),
        };
        configs.push(env.write(&config_at, &text));
    }
    for (path, text) in case["files"].as_object().into_iter().flatten() {
        env.write(path, text.as_str().unwrap_or_default());
    }
    let discover = case["discover"].as_bool() == Some(true);
    let config_args = |command: &mut assert_cmd::Command| {
        if discover {
            command.arg("--project").arg(env.path());
        } else {
            for config in &configs {
                command.arg("-c").arg(config);
            }
        }
    };
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
    config_args(&mut command);
    if let Some(from) = case["from"].as_str() {
        command.args(["--from", from]);
    }
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
        let mut validate = env.command();
        validate.arg("validate").timeout(Duration::from_secs(60));
        config_args(&mut validate);
        let out = env.finish(&mut validate);
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
    if let Some(expect) = case.get("list") {
        let mut list = env.command();
        list.args(["list", "--json"])
            .timeout(Duration::from_secs(60));
        config_args(&mut list);
        let out = env.finish(&mut list);
        let listed: Value = serde_json::from_str(&out.stdout)
            .map_err(|e| format!("`hooks list --json` is not JSON ({e}): {}", out.stdout))?;
        contains(&listed, expect, "list").map_err(|why| format!("{why}\n  list: {listed}"))?;
    }
    let stdins = match (&case["stdin"], &case["stdins"]) {
        (Value::Null, Value::Array(each)) => each.clone(),
        (Value::Null, _) => Vec::new(),
        (first, _) => vec![first.clone()],
    };
    for (i, expect) in stdins.iter().enumerate() {
        if expect.is_null() {
            continue;
        }
        let given = read_json(&env, &format!("answer{i}.in"))?;
        contains(&given, expect, &format!("stdin{i}"))
            .map_err(|why| format!("{why}\n  stdin: {given}\n  stderr: {}", run.stderr))?;
    }
    if let Some(expect) = case.get("hook_env") {
        let text = std::fs::read_to_string(env.path().join("answer0.env"))
            .map_err(|e| format!("the hook did not run ({e})\n  stderr: {}", run.stderr))?;
        let vars: Map<String, Value> = mask_dir(&env, &text)
            .lines()
            .filter_map(|l| l.split_once('='))
            .map(|(k, v)| (k.to_owned(), Value::String(v.to_owned())))
            .collect();
        let vars = Value::Object(vars);
        contains(&vars, expect, "env").map_err(|why| format!("{why}\n  env: {vars}"))?;
    }
    Ok(())
}

/// The config a case without `settings` is given: the answers' commands as hooks on
/// `hook_event`, in the agent's own form.
fn default_settings(agent: Agent, hook_event: &str, case: &Value, commands: &[String]) -> Value {
    let extra = case["hook"].as_object().cloned().unwrap_or_default();
    match agent {
        Agent::Claude
        | Agent::Cline
        | Agent::Gemini
        | Agent::Codex
        | Agent::Qwen
        | Agent::Droid
        | Agent::Opencode => {
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
            json!({ "hooks": { hook_event: [Value::Object(group)] } })
        }
        Agent::Cursor => {
            let entries: Vec<Value> = commands
                .iter()
                .map(|c| {
                    let mut entry = extra.clone();
                    entry.insert("command".to_owned(), json!(c));
                    Value::Object(entry)
                })
                .collect();
            json!({ "version": 1, "hooks": { hook_event: entries } })
        }
        // A PascalCase event holds Claude Code's matcher groups; a camelCase one hooks
        // with `bash`.
        Agent::Copilot if hook_event.starts_with(|c: char| c.is_ascii_uppercase()) => {
            let mut settings = default_settings(Agent::Claude, hook_event, case, commands);
            settings["version"] = json!(1);
            settings
        }
        Agent::Copilot => {
            let entries: Vec<Value> = commands
                .iter()
                .map(|c| {
                    let mut entry = Map::new();
                    entry.insert("type".to_owned(), json!("command"));
                    entry.insert("bash".to_owned(), json!(c));
                    entry.extend(extra.clone());
                    Value::Object(entry)
                })
                .collect();
            json!({ "version": 1, "hooks": { hook_event: entries } })
        }
    }
}

/// The JSON in `rel` under the case's directory (paths in it shown as `[dir]`).
fn read_json(env: &Env, rel: &str) -> Result<Value, String> {
    let text = std::fs::read_to_string(env.path().join(rel))
        .map_err(|e| format!("{rel}: the hook did not run ({e})"))?;
    serde_json::from_str(&mask_dir(env, &text))
        .map_err(|e| format!("{rel} is not JSON ({e}): {text}"))
}

/// `text` with the case's directory shown as `[dir]` (and nothing else masked: a hook's
/// input keeps its durations).
fn mask_dir(env: &Env, text: &str) -> String {
    let dir = env.path().display().to_string();
    let canonical =
        std::fs::canonicalize(env.path()).map_or_else(|_| dir.clone(), |p| p.display().to_string());
    text.replace(&canonical, "[dir]").replace(&dir, "[dir]")
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
        Value::Object(e) if e.contains_key("$type") => {
            let want = e["$type"].as_str().unwrap_or_default();
            let kind = match actual {
                Value::Null => "null",
                Value::Bool(_) => "boolean",
                Value::Number(_) => "number",
                Value::String(_) => "string",
                Value::Array(_) => "array",
                Value::Object(_) => "object",
            };
            if kind == want {
                Ok(())
            } else {
                Err(format!("{at}: expected a {want}, got {actual}"))
            }
        }
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

//! Fuzzing the loaders with proptest: arbitrary bytes, mutated copies of the real example
//! configs, structured near-valid documents in every syntax and dialect, SKILL.md
//! frontmatter and interpolation tokens. Each input must give a loaded file or an error
//! with a message, never a panic or a hang.
//!
//! cargo-fuzz needs a nightly toolchain, so these are property tests. The case count is
//! bounded (a few hundred per property) so CI runs them in seconds; set `PROPTEST_CASES`
//! to run longer, e.g. `PROPTEST_CASES=20000 cargo test -p agentic-hooks-config --test it fuzz`.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc;
use std::time::Duration;

use hooks_config::core::{Dialect, HookIndex, Layer};
use hooks_config::{
    EnvSource, Error, Format, Interpolation, LoadOptions, MapSecrets, TrustPolicy, load_bytes,
    merge, parse_value, resolve_secrets,
};
use proptest::prelude::*;
use proptest::test_runner::Config as ProptestConfig;
use serde_json::{Map, Value};

use crate::support::examples;

/// The example configs of every dialect, the seeds of the mutation properties.
const SEEDS: &[&str] = &[
    "autohand/.autohand/config.json",
    "claude/.claude/settings.json",
    "claude/.claude/settings.local.json",
    "claude/managed/managed-settings.json",
    "echo/echo-agent.yaml",
    "echo/skills/safe-shell/SKILL.md",
    "fabro/.fabro/project.toml",
    "fabro/run.toml",
    "fabro/hooks.toml",
    "fabro/home/.fabro/settings.toml",
    "native/hooks.json",
    "native/hooks.toml",
    "native/hooks.yaml",
];

/// File names that make the loader pick each dialect and syntax.
const NAMES: &[&str] = &[
    "hooks.yaml",
    "hooks.toml",
    "hooks.json",
    ".claude/settings.json",
    "echo-agent.yaml",
    "skills/x/SKILL.md",
    ".autohand/config.json",
    "run.toml",
    ".fabro/project.toml",
    "config",
];

/// How long one input may take to load before the property calls it a hang. Every input
/// here is at most a few dozen KiB, which loads in milliseconds.
const HANG: Duration = Duration::from_secs(20);

/// The property's settings: `default` cases unless `PROPTEST_CASES` says otherwise, and no
/// regression files written into the source tree (a failure prints its minimal input).
fn config(default: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default);
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Runs `f` on a thread of its own and fails if it takes longer than [`HANG`]. A panic in
/// `f` fails the property with the panic's message.
fn bounded<T: Send + 'static>(what: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    let handle = std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    match rx.recv_timeout(HANG) {
        Ok(value) => {
            handle.join().unwrap();
            value
        }
        Err(mpsc::RecvTimeoutError::Disconnected) => match handle.join() {
            Err(panic) => std::panic::resume_unwind(panic),
            Ok(()) => unreachable!("the thread ended without sending"),
        },
        Err(mpsc::RecvTimeoutError::Timeout) => panic!("{what} did not finish within {HANG:?}"),
    }
}

/// Interpolation values that never read the process's environment.
fn interpolation(check_secrets: bool) -> Interpolation {
    Interpolation {
        vars: [("REPO".to_owned(), "hooks".to_owned())].into(),
        env: EnvSource::Map([("HOME".to_owned(), "/home/fuzz".to_owned())].into()),
        secrets: Arc::new(MapSecrets::new().with("TOKEN", SECRET)),
        check_secrets,
    }
}

/// The one secret value: it must never show up in a diagnostic.
const SECRET: &str = "s3cr3t-fuzz-value";

/// Counts the lines of `text` as an editor does (a last line without a newline counts).
fn line_count(text: &[u8]) -> u32 {
    let newlines = text.iter().filter(|&&b| b == b'\n').count();
    u32::try_from(newlines + 1).unwrap()
}

/// Loads `bytes` as the file `name` and checks what came back: an error has a message,
/// positions inside the text and no secret; a file merges, indexes and resolves its
/// secrets without panicking, with hooks at positions inside the text.
fn check_load(bytes: Vec<u8>, name: &str, options: LoadOptions) {
    let name = PathBuf::from(name);
    let lines = line_count(&bytes);
    let shown = format!("loading {} ({} bytes)", name.display(), bytes.len());
    bounded(&shown, move || {
        let result = load_bytes(bytes, Some(&name), &options);
        check_result(result, lines);
    });
}

fn check_result(result: Result<hooks_config::ConfigFile, Error>, lines: u32) {
    match result {
        Err(err) => check_error(&err, lines),
        Ok(file) => {
            for hook in file.hooks() {
                if let Some(line) = hook.provenance.line {
                    assert!(line >= 1 && line <= lines, "hook at line {line} of {lines}");
                }
            }
            for warning in &file.warnings {
                check_diagnostic(warning, lines);
            }
            let set = merge(std::slice::from_ref(&file), &TrustPolicy::Bypass);
            let index = HookIndex::new(set.active_specs());
            assert!(index.len() <= file.hooks().count());
            let provider = MapSecrets::new().with("TOKEN", SECRET);
            for hook in file.hooks() {
                match resolve_secrets(hook, &provider) {
                    Ok(resolved) => {
                        assert!(!format!("{resolved:?}").contains(SECRET));
                        if resolved.has_secrets() {
                            assert!(!resolved.redact(SECRET).contains(SECRET));
                        }
                    }
                    Err(err) => check_error(&err, lines),
                }
            }
        }
    }
}

fn check_error(err: &Error, lines: u32) {
    assert!(!err.diagnostics().is_empty());
    for d in err.diagnostics() {
        check_diagnostic(d, lines);
    }
    let text = err.to_string();
    assert!(!text.is_empty());
    assert!(
        !text.contains(SECRET),
        "a diagnostic shows the secret: {text}"
    );
}

fn check_diagnostic(d: &hooks_config::Diagnostic, lines: u32) {
    assert!(!d.message.is_empty(), "{d:?}");
    if let Some(line) = d.line {
        // A diagnostic may point just past the last line (an unclosed document).
        assert!(
            line >= 1 && line <= lines + 1,
            "{d} (the text has {lines} lines)"
        );
    }
}

/// Load options for one case: detected or forced dialect, a layer, with or without the
/// early secret check.
fn options() -> impl Strategy<Value = LoadOptions> {
    let dialect = prop::option::of(prop::sample::select(vec![
        Dialect::Native,
        Dialect::Claude,
        Dialect::Echo,
        Dialect::Fabro,
        Dialect::Autohand,
    ]));
    let layer = prop::sample::select(vec![
        Layer::User,
        Layer::Project,
        Layer::Local,
        Layer::CommandLine,
    ]);
    (dialect, layer, any::<bool>()).prop_map(|(dialect, layer, check)| {
        let mut options = LoadOptions::new()
            .with_layer(layer)
            .with_interpolation(interpolation(check));
        if let Some(d) = dialect {
            options = options.with_dialect(d);
        }
        options
    })
}

fn name() -> impl Strategy<Value = &'static str> {
    prop::sample::select(NAMES)
}

fn seed() -> impl Strategy<Value = &'static str> {
    prop::sample::select(SEEDS)
}

fn read_seed(rel: &str) -> String {
    std::fs::read_to_string(examples().join(rel)).unwrap()
}

/// Words that steer generated documents into the loaders' interesting paths.
const WORDS: &[&str] = &[
    "hooks",
    "event",
    "matcher",
    "command",
    "args",
    "script",
    "url",
    "type",
    "timeout",
    "on_failure",
    "async",
    "blocking",
    "sequential",
    "enabled",
    "remove",
    "filter",
    "tool",
    "path",
    "id",
    "name",
    "prompt",
    "mode",
    "decision",
    "reason",
    "server",
    "input",
    "headers",
    "allowed_env_vars",
    "allowedEnvVars",
    "cwd",
    "env",
    "if",
    "sandbox",
    "vars",
    "version",
    "_version",
    "run",
    "workflow",
    "disable_all_hooks",
    "disableAllHooks",
    "allowManagedHooksOnly",
    "allowed_http_hook_urls",
    "allowedHttpHookUrls",
    "managed_hooks_only",
    "tls",
    "PreToolUse",
    "PostToolUse",
    "pre-tool",
    "pre_tool_use",
    "stage_start",
    "Stop",
    "SessionStart",
    "PreToolUze",
    "command",
    "http",
    "mcp_tool",
    "permission",
    "agent",
    "allow",
    "deny",
    "ask",
    "block",
    "inject",
    "evaluate",
];

/// Strings a user (or an attacker) might write as values.
const VALUES: &[&str] = &[
    "",
    "*",
    "Bash",
    "Bash|Edit",
    "Edit,Write",
    "mcp__github__.*",
    "^Run.*",
    "(",
    "[a-",
    "a{99999}",
    "(?P<x>",
    "Bash(git *)",
    "Edit(*.ts)",
    "src/**/*.ts",
    "!src/gen/**",
    "[",
    "30s",
    "0s",
    "-1s",
    "1e400",
    "5000ms",
    "forever",
    "./guard.sh",
    "echo '{\"decision\":\"deny\"}'",
    "https://hooks.example.com/x",
    "http://127.0.0.1:1/",
    "ftp://x",
    "{{ vars.REPO }}",
    "{{ env.HOME }}",
    "{{ secrets.TOKEN }}",
    "{{ secrets.MISSING }}",
    "{{ secret.TOKEN }}",
    "{{ vars.",
    "{{}}",
    "${SKILL_DIR}/x.sh",
    "$HOME",
    "\u{0}",
    "\u{feff}",
    "é\u{301}",
    "allow",
    "deny",
    "block",
];

/// A JSON value shaped like config: objects keyed by config words, strings from config
/// values, numbers of every kind, nested a few levels.
fn config_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        prop_oneof![
            Just(0i64),
            Just(-1),
            Just(5),
            Just(300),
            Just(301),
            Just(5000)
        ]
        .prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        prop::sample::select(VALUES).prop_map(Value::from),
        prop::sample::select(WORDS).prop_map(Value::from),
        "[ -~]{0,12}".prop_map(Value::from),
    ];
    leaf.prop_recursive(5, 64, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec((prop::sample::select(WORDS), inner), 0..6).prop_map(|entries| {
                Value::Object(
                    entries
                        .into_iter()
                        .map(|(k, v)| (k.to_owned(), v))
                        .collect::<Map<_, _>>(),
                )
            }),
        ]
    })
}

/// A document in one of the dialects' shapes, with generated values where the real
/// configs have theirs.
fn near_valid_document() -> impl Strategy<Value = Value> {
    let hook = prop::collection::vec((prop::sample::select(WORDS), config_value()), 1..7).prop_map(
        |entries| {
            Value::Object(
                entries
                    .into_iter()
                    .map(|(k, v)| (k.to_owned(), v))
                    .collect::<Map<_, _>>(),
            )
        },
    );
    let hooks = prop::collection::vec(hook, 0..5);
    let event = prop::sample::select(vec!["PreToolUse", "pre-tool", "Stop", "stage_start"]);
    (0..5u8, hooks, event, config_value()).prop_map(|(shape, hooks, event, extra)| {
        let list = Value::Array(hooks);
        let mut doc = match shape {
            // Native flat.
            0 => serde_json::json!({ "version": 1, "hooks": list }),
            // Claude Code / echo-agent / native nested by event.
            1 => serde_json::json!({ "hooks": { event: [{ "matcher": "Bash", "hooks": list }] } }),
            // Autohand.
            2 => serde_json::json!({ "hooks": { "enabled": true, "hooks": list } }),
            // Fabro.
            3 => serde_json::json!({ "_version": 1, "run": { "hooks": list } }),
            // Anything at the top.
            _ => serde_json::json!({ "hooks": list, "settings": extra.clone() }),
        };
        if let (Value::Object(map), Value::Object(more)) = (&mut doc, extra) {
            for (k, v) in more {
                map.entry(k).or_insert(v);
            }
        }
        doc
    })
}

/// `value` written in `format`, or `None` where that syntax cannot hold it (TOML has no
/// null).
fn render(value: &Value, format: Format) -> Option<String> {
    match format {
        Format::Json => Some(serde_json::to_string_pretty(value).unwrap()),
        // JSON is YAML, in flow style.
        Format::Yaml => Some(serde_json::to_string_pretty(value).unwrap()),
        Format::Toml => toml::to_string(value).ok(),
        _ => None,
    }
}

/// The syntax a file name implies.
fn format_of(name: &str) -> Format {
    Format::from_path(Path::new(name)).unwrap_or(Format::Yaml)
}

/// Wraps YAML as a SKILL.md's frontmatter when `name` is one.
fn as_file(name: &str, text: String) -> String {
    if name.ends_with(".md") {
        format!("---\n{text}\n---\n# Skill\n")
    } else {
        text
    }
}

/// One edit of a text: what to do, where (a fraction of the length), and what to insert.
#[derive(Clone, Debug)]
enum Edit {
    Insert(usize, String),
    Delete(usize, usize),
    DuplicateLine(usize),
    SwapLines(usize, usize),
}

fn edits() -> impl Strategy<Value = Vec<Edit>> {
    let fragment = prop_oneof![
        prop::sample::select(vec![
            "{",
            "}",
            "[",
            "]",
            "\"",
            "'",
            ":",
            ",",
            "=",
            "\n",
            "  ",
            "\t",
            "-",
            "---",
            "#",
            "&a",
            "*a",
            "!!",
            "<<: *a",
            "[[run.hooks]]",
            "\\",
            "\\u0000",
            "{{",
            "}}",
            "\u{0}",
        ])
        .prop_map(str::to_owned),
        prop::sample::select(WORDS).prop_map(str::to_owned),
        prop::sample::select(VALUES).prop_map(str::to_owned),
        any::<String>().prop_map(|s| s.chars().take(8).collect()),
    ];
    let edit = prop_oneof![
        (any::<usize>(), fragment).prop_map(|(at, s)| Edit::Insert(at, s)),
        (any::<usize>(), 1..40usize).prop_map(|(at, n)| Edit::Delete(at, n)),
        any::<usize>().prop_map(Edit::DuplicateLine),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Edit::SwapLines(a, b)),
    ];
    prop::collection::vec(edit, 1..6)
}

/// The nearest character boundary at or before `at % (len + 1)`.
fn boundary(text: &str, at: usize) -> usize {
    let mut at = at % (text.len() + 1);
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn apply(text: &str, edits: &[Edit]) -> String {
    let mut text = text.to_owned();
    for edit in edits {
        match edit {
            Edit::Insert(at, s) => {
                let at = boundary(&text, *at);
                text.insert_str(at, s);
            }
            Edit::Delete(at, n) => {
                let from = boundary(&text, *at);
                let to = boundary(&text, from + (*n).min(text.len() - from));
                text.replace_range(from..to.max(from), "");
            }
            Edit::DuplicateLine(i) => {
                let mut lines: Vec<&str> = text.split('\n').collect();
                let i = i % lines.len();
                lines.insert(i, lines[i]);
                text = lines.join("\n");
            }
            Edit::SwapLines(a, b) => {
                let mut lines: Vec<&str> = text.split('\n').collect();
                let (a, b) = (a % lines.len(), b % lines.len());
                lines.swap(a, b);
                text = lines.join("\n");
            }
        }
    }
    text
}

/// One change to a parsed document: the node (by its position in a depth-first walk,
/// modulo the node count) and what happens to it.
#[derive(Clone, Debug)]
enum Mutation {
    Replace(usize, Value),
    Remove(usize),
    AddKey(usize, &'static str, Value),
}

fn mutations() -> impl Strategy<Value = Vec<Mutation>> {
    let m = prop_oneof![
        (any::<usize>(), config_value()).prop_map(|(at, v)| Mutation::Replace(at, v)),
        any::<usize>().prop_map(Mutation::Remove),
        (any::<usize>(), prop::sample::select(WORDS), config_value())
            .prop_map(|(at, k, v)| Mutation::AddKey(at, k, v)),
    ];
    prop::collection::vec(m, 1..5)
}

fn count_nodes(v: &Value) -> usize {
    1 + match v {
        Value::Array(items) => items.iter().map(count_nodes).sum(),
        Value::Object(map) => map.values().map(count_nodes).sum(),
        _ => 0,
    }
}

/// Applies `mutation` to the `target`-th node of a depth-first walk; `seen` counts nodes
/// visited so far. Returns true once applied.
fn mutate_at(v: &mut Value, target: usize, seen: &mut usize, mutation: &Mutation) -> bool {
    if *seen == target {
        match mutation {
            Mutation::Replace(_, new) => *v = new.clone(),
            Mutation::AddKey(_, key, new) => match v {
                Value::Object(map) => {
                    map.insert((*key).to_owned(), new.clone());
                }
                Value::Array(items) => items.push(new.clone()),
                _ => *v = new.clone(),
            },
            // Removing is done by the parent, below.
            Mutation::Remove(_) => *v = Value::Null,
        }
        return true;
    }
    *seen += 1;
    match v {
        Value::Array(items) => {
            for i in 0..items.len() {
                if *seen == target && matches!(mutation, Mutation::Remove(_)) {
                    items.remove(i);
                    return true;
                }
                if mutate_at(&mut items[i], target, seen, mutation) {
                    return true;
                }
            }
            false
        }
        Value::Object(map) => {
            let keys: Vec<String> = map.keys().cloned().collect();
            for key in keys {
                if *seen == target && matches!(mutation, Mutation::Remove(_)) {
                    map.remove(&key);
                    return true;
                }
                if mutate_at(map.get_mut(&key).unwrap(), target, seen, mutation) {
                    return true;
                }
            }
            false
        }
        _ => false,
    }
}

fn mutate(mut doc: Value, mutations: &[Mutation]) -> Value {
    for m in mutations {
        let at = match m {
            Mutation::Replace(at, _) | Mutation::Remove(at) | Mutation::AddKey(at, _, _) => *at,
        };
        let target = at % count_nodes(&doc);
        mutate_at(&mut doc, target, &mut 0, m);
    }
    doc
}

/// Lines a SKILL.md is made of: delimiters in their near-miss spellings, frontmatter and
/// body text.
fn skill_line() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "---",
            "--- ",
            "----",
            "...",
            " ---",
            "---\r",
            "",
            "hooks:",
            "  PreToolUse:",
            "    - matcher: Bash",
            "      hooks:",
            "        - type: command",
            "          command: ${SKILL_DIR}/check.sh",
            "          timeout: 5",
            "name: skill",
            "# Heading",
            "hooks: [",
            "  - {",
            "\t- x",
        ])
        .prop_map(str::to_owned),
        "[ -~]{0,30}",
    ]
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn arbitrary_bytes_give_a_file_or_an_error(
        bytes in prop::collection::vec(any::<u8>(), 0..2048),
        name in name(),
        options in options(),
    ) {
        check_load(bytes, name, options);
    }

    #[test]
    fn arbitrary_text_gives_a_file_or_an_error(
        text in any::<String>(),
        name in name(),
        options in options(),
    ) {
        check_load(text.into_bytes(), name, options);
    }

    #[test]
    fn edited_examples_give_a_file_or_an_error(
        seed in seed(),
        edits in edits(),
        options in options(),
    ) {
        let text = apply(&read_seed(seed), &edits);
        check_load(text.into_bytes(), seed, options);
    }

    #[test]
    fn mutated_examples_give_a_file_or_an_error(
        seed in seed(),
        mutations in mutations(),
        options in options(),
    ) {
        let path = Path::new(seed);
        let value = parse_value(&read_seed(seed), Some(path), None).unwrap();
        let value = mutate(value, &mutations);
        let format = format_of(seed);
        if let Some(text) = render(&value, format) {
            check_load(as_file(seed, text).into_bytes(), seed, options);
        }
    }

    #[test]
    fn near_valid_documents_give_a_file_or_an_error(
        doc in near_valid_document(),
        name in name(),
        options in options(),
    ) {
        if let Some(text) = render(&doc, format_of(name)) {
            check_load(as_file(name, text).into_bytes(), name, options);
        }
    }

    #[test]
    fn skill_md_frontmatter_gives_a_file_or_an_error(
        lines in prop::collection::vec(skill_line(), 0..24),
        crlf in any::<bool>(),
        options in options(),
    ) {
        let text = lines.join(if crlf { "\r\n" } else { "\n" });
        let parsed = {
            let text = text.clone();
            bounded("parse_value of a SKILL.md", move || {
                parse_value(&text, Some(Path::new("skills/x/SKILL.md")), None).map(|_| ())
            })
        };
        if let Err(err) = parsed {
            check_error(&err, line_count(text.as_bytes()));
        }
        check_load(text.into_bytes(), "skills/x/SKILL.md", options);
    }

    #[test]
    fn interpolation_tokens_give_a_file_or_an_error(
        parts in prop::collection::vec(
            prop_oneof![
                prop::sample::select(VALUES).prop_map(str::to_owned),
                prop::sample::select(vec![
                    "{{", "}}", "{{ ", " }}", "vars.", "env.", "secrets.", "secret.", "var.",
                    "REPO", "HOME", "TOKEN", "MISSING", ".", "-", "{", "}", "${", "$",
                ]).prop_map(str::to_owned),
                "[ -~]{0,6}",
            ],
            0..12,
        ),
        name in prop::sample::select(vec!["hooks.yaml", "hooks.json", "hooks.toml"]),
        check in any::<bool>(),
    ) {
        let command = parts.concat();
        let doc = serde_json::json!({
            "vars": { "REPO": command.clone() },
            "hooks": [
                { "id": "a", "event": "PreToolUse", "command": command.clone() },
                { "id": "b", "event": "PreToolUse", "url": command.clone(),
                  "headers": { "Authorization": command.clone() } },
                { "id": "c", "event": "SessionStart", "prompt": command.clone(), "mode": "inject" },
            ],
        });
        let text = render(&doc, format_of(name)).unwrap();
        let options = LoadOptions::new().with_interpolation(interpolation(check));
        check_load(text.into_bytes(), name, options);
    }
}

//! Config loading benchmark (row 7 of the benchmark report): three layers holding 1,000
//! hooks between them, loaded, merged and indexed (every matcher compiled), against the raw
//! baseline of reading the same files, parsing them into untyped values and compiling the
//! same regular expressions.
//!
//! The layers: the user's native YAML (334 hooks), the project's Claude Code
//! `settings.json` (333) and the local native TOML (333), whose first 50 hooks replace user
//! hooks by id. Matchers mix exact names, `A|B` lists, regexes and MCP-style names, and
//! some native hooks carry path globs.
//!
//! Three more functions say where the time goes: `load_only` and `merge_index_only` time
//! the engine's two stages, `regexes_only` the baseline's regex compilation.
//!
//! With `HOOKS_BENCH_LAYERS_DIR` set, the files are also written there, so that
//! `cargo xtask bench` can measure the CLI's peak memory on the same hooks.

use std::fmt::Write as _;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use hooks_config::core::{HookIndex, Layer};
use hooks_config::{LoadOptions, TrustPolicy, load_file, merge};

/// Hooks in each layer.
const USER: usize = 334;
const PROJECT: usize = 333;
const LOCAL: usize = 333;
/// Local hooks that replace a user hook (same id) rather than add one.
const REPLACED: usize = 50;

/// The matcher of hook `i`, in the mix users write.
fn matcher(i: usize) -> String {
    match i % 5 {
        0 => format!("Tool{i}"),
        1 => format!("Edit{i}|Write{i}"),
        2 => format!("^Run{i}.*"),
        3 => format!("mcp__server{i}__.*"),
        _ => format!("Read{i}"),
    }
}

/// Whether a matcher is a regular expression (the others are exact names).
fn is_regex(m: &str) -> bool {
    m.contains(['^', '.', '*'])
}

fn event(i: usize) -> &'static str {
    if i % 4 == 3 {
        "PostToolUse"
    } else {
        "PreToolUse"
    }
}

fn user_yaml() -> String {
    let mut out = String::from("hooks:\n");
    for i in 0..USER {
        let _ = write!(
            out,
            "  - id: user-{i}\n    event: {}\n    matcher: \"{}\"\n    command: ./hooks/check.sh {i}\n    timeout: 5\n",
            event(i),
            matcher(i)
        );
        if i % 5 == 4 {
            let _ = writeln!(out, "    filter: {{ path: [\"src/{i}/**/*.ts\"] }}");
        }
    }
    out
}

fn project_claude() -> String {
    let mut pre = Vec::new();
    let mut post = Vec::new();
    for j in 0..PROJECT {
        let i = USER + j;
        let group = serde_json::json!({
            "matcher": matcher(i),
            "hooks": [{"type": "command", "command": format!("./scripts/hook.sh {i}"), "timeout": 30}],
        });
        if event(i) == "PreToolUse" {
            pre.push(group);
        } else {
            post.push(group);
        }
    }
    serde_json::to_string_pretty(&serde_json::json!({
        "hooks": {"PreToolUse": pre, "PostToolUse": post}
    }))
    .expect("JSON")
}

fn local_toml() -> String {
    let mut out = String::new();
    for j in 0..LOCAL {
        // The first hooks replace user hooks by id; the rest are new.
        let (id, i) = if j < REPLACED {
            (format!("user-{j}"), j)
        } else {
            (format!("local-{j}"), USER + PROJECT + j)
        };
        let _ = write!(
            out,
            "[[hooks]]\nid = \"{id}\"\nevent = \"{}\"\nmatcher = \"{}\"\ncommand = \"./local/hook.sh {i}\"\ntimeout = \"10s\"\n\n",
            event(i),
            matcher(i)
        );
    }
    out
}

/// Writes the three layers into `dir`; returns their paths and layers.
fn write_layers(dir: &Path) -> Vec<(PathBuf, Layer)> {
    std::fs::create_dir_all(dir.join(".claude")).expect("create the layer directory");
    let files = vec![
        (dir.join("hooks.yaml"), Layer::User, user_yaml()),
        (
            dir.join(".claude/settings.json"),
            Layer::Project,
            project_claude(),
        ),
        (dir.join("hooks.local.toml"), Layer::Local, local_toml()),
    ];
    files
        .into_iter()
        .map(|(path, layer, text)| {
            std::fs::write(&path, text).expect("write a layer");
            (path, layer)
        })
        .collect()
}

/// Loads each file into its layer.
fn load(layers: &[(PathBuf, Layer)]) -> Vec<hooks_config::ConfigFile> {
    layers
        .iter()
        .map(|(path, layer)| {
            load_file(path, &LoadOptions::new().with_layer(*layer))
                .unwrap_or_else(|e| panic!("{} does not load:\n{e}", path.display()))
        })
        .collect()
}

/// Merges loaded files and indexes the hooks that run.
fn merge_and_index(files: &[hooks_config::ConfigFile]) -> HookIndex {
    let set = merge(files, &TrustPolicy::Deny);
    HookIndex::new(set.active_specs())
}

/// The engine: load each file into its layer, merge, index.
fn engine(layers: &[(PathBuf, Layer)]) -> HookIndex {
    merge_and_index(&load(layers))
}

/// The raw baseline: read each file, parse it into an untyped value, compile each regex
/// matcher once.
fn baseline(layers: &[(PathBuf, Layer)]) -> usize {
    let mut values = 0;
    for (path, _) in layers {
        let text = std::fs::read_to_string(path).expect("read a layer");
        let value: serde_json::Value = match path.extension().and_then(|e| e.to_str()) {
            Some("yaml") => serde_saphyr::from_str(&text).expect("YAML"),
            Some("toml") => {
                let v: toml::Value = toml::from_str(&text).expect("TOML");
                serde_json::to_value(v).expect("TOML as JSON")
            }
            _ => serde_json::from_str(&text).expect("JSON"),
        };
        values += usize::from(value.is_object());
    }
    values + compile_regexes()
}

/// Compiles each regex matcher of the three layers once, as the baseline does.
fn compile_regexes() -> usize {
    let regexes: Vec<regex::Regex> = (0..USER + PROJECT + LOCAL)
        .map(matcher)
        .filter(|m| is_regex(m))
        .map(|m| regex::Regex::new(&m).expect("regex"))
        .collect();
    regexes.len()
}

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temp dir");
    let layers = write_layers(dir.path());
    if let Some(out) = std::env::var_os("HOOKS_BENCH_LAYERS_DIR") {
        write_layers(Path::new(&out));
    }
    let index = engine(&layers);
    assert_eq!(
        index.len(),
        USER + PROJECT + LOCAL - REPLACED,
        "every hook loads"
    );

    // The two sides alternate, so both see the same machine load.
    let alternate = |iters: u64, engine_timed: bool| {
        let mut total = Duration::ZERO;
        for _ in 0..iters {
            let start = Instant::now();
            black_box(engine(black_box(&layers)));
            let engine_took = start.elapsed();
            let start = Instant::now();
            black_box(baseline(black_box(&layers)));
            total += if engine_timed {
                engine_took
            } else {
                start.elapsed()
            };
        }
        total
    };
    let mut group = c.benchmark_group("config_load_1000");
    group.bench_function("engine", |b| b.iter_custom(|iters| alternate(iters, true)));
    group.bench_function("baseline", |b| {
        b.iter_custom(|iters| alternate(iters, false))
    });
    // The engine's two stages on their own, to say where its time goes.
    group.bench_function("load_only", |b| {
        b.iter(|| black_box(load(black_box(&layers))))
    });
    group.bench_function("regexes_only", |b| b.iter(|| black_box(compile_regexes())));
    let files = load(&layers);
    group.bench_function("merge_index_only", |b| {
        b.iter(|| black_box(merge_and_index(black_box(&files))))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

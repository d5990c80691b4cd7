//! Matching benchmarks (row 1 of the benchmark report): the engine's index against the raw
//! baseline doing the same work in the same process.
//!
//! - `no_hooks`: an event nobody hooked, in an index of 1,000 hooks on other events,
//!   against one hash lookup.
//! - `hooks_1000`: an event matched against 1,000 configured hooks (exact names, `A|B`
//!   lists, regexes, MCP-style names, path globs), against one `RegexSet` over 1,000
//!   patterns.
//!
//! `cargo xtask bench` runs these and prints medians and ratios.

use std::collections::HashMap;
use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use hooks_core::{Action, BuiltinEvent, EventContext, Filter, HookIndex, HookSpec, Matcher};
use regex::RegexSet;
use serde_json::json;

/// 1,000 hooks on PreToolUse, mixing every matcher form users write.
fn mixed_hooks(event: BuiltinEvent) -> Vec<HookSpec> {
    (0..1000)
        .map(|i| {
            let matcher = match i % 5 {
                0 => Matcher::parse(&format!("Tool{i}")),
                1 => Matcher::parse(&format!("Edit{i}|Write{i}")),
                2 => Matcher::parse(&format!("^Run{i}.*")),
                3 => Matcher::parse(&format!("mcp__server{i}__.*")),
                _ => Matcher::parse(&format!("Read{i}")),
            }
            .expect("valid matcher");
            let mut spec =
                HookSpec::new(event, Action::script(format!("hook-{i}"))).with_matcher(matcher);
            if i % 5 == 4 {
                spec = spec.with_filter(
                    Filter::new()
                        .with_paths([format!("src/{i}/**/*.ts")])
                        .expect("valid glob"),
                );
            }
            spec
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    // Row 1a: an event with no hooks.
    let index = HookIndex::new(mixed_hooks(BuiltinEvent::PostToolUse));
    let ctx = EventContext::pre_tool_use("Bash", json!({"command": "ls"}));
    let raw: HashMap<&str, Vec<usize>> = HashMap::from([("PostToolUse", (0..1000).collect())]);
    let mut group = c.benchmark_group("no_hooks");
    group.bench_function("engine", |b| {
        b.iter(|| black_box(index.matching(black_box(&ctx))))
    });
    group.bench_function("baseline", |b| {
        b.iter(|| black_box(raw.get(black_box(ctx.event().name())).map(Vec::len)))
    });
    group.finish();

    // Row 1b: one event against 1,000 hooks.
    let index = HookIndex::new(mixed_hooks(BuiltinEvent::PreToolUse));
    let ctx = EventContext::pre_tool_use("Edit500", json!({"file_path": "src/500/a.ts"}));
    let patterns: Vec<String> = (0..1000)
        .map(|i| format!("^(Tool{i}|Edit{i}|Write{i}|Run{i}.*|mcp__server{i}__.*|Read{i})$"))
        .collect();
    let set = RegexSet::new(&patterns).expect("valid regex set");
    let mut group = c.benchmark_group("hooks_1000");
    group.bench_function("engine", |b| {
        b.iter(|| black_box(index.matching(black_box(&ctx))))
    });
    group.bench_function("baseline", |b| {
        b.iter(|| {
            black_box(
                set.matches(black_box(ctx.tool_name().unwrap_or_default()))
                    .iter()
                    .count(),
            )
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

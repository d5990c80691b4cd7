//! `cargo xtask bench`: runs the criterion benchmarks and prints one table of medians, each
//! engine row beside the raw baseline measured in the same run, with their ratio.
//!
//! Every benchmark group has an `engine` function and a `baseline` function; the report
//! reads criterion's `estimates.json` for both.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde_json::Value;

/// The benchmark groups, in report order: (group, bench target, package, what it measures,
/// target).
const ROWS: &[(&str, &str, &str, &str, &str)] = &[
    (
        "no_hooks",
        "matching",
        "hooks-core",
        "event with no hooks (1,000 hooks on other events)",
        "< 100 ns",
    ),
    (
        "hooks_1000",
        "matching",
        "hooks-core",
        "event matched against 1,000 mixed hooks",
        "< 1 µs",
    ),
];

/// Runs the benches (unless `report_only`) and prints the table; returns it as Markdown.
pub(crate) fn run(report_only: bool, quick: bool) -> Result<String> {
    if !report_only {
        let mut targets: Vec<(&str, &str)> = ROWS.iter().map(|r| (r.2, r.1)).collect();
        targets.dedup();
        for (package, bench) in targets {
            let mut args = vec!["bench", "-p", package, "--bench", bench, "--"];
            if quick {
                args.extend(["--warm-up-time", "1", "--measurement-time", "2"]);
            }
            crate::cargo(&args)?;
        }
    }
    let root = criterion_dir()?;
    let mut table = String::from(
        "| benchmark | engine (median) | baseline (median) | ratio | target |\n| --- | --- | --- | --- | --- |\n",
    );
    for (group, _, _, what, target) in ROWS {
        let engine = median_ns(&root, group, "engine")?;
        let baseline = median_ns(&root, group, "baseline")?;
        writeln!(
            table,
            "| {what} | {} | {} | {} | {target} |",
            human(engine),
            human(baseline),
            ratio(engine / baseline)
        )?;
    }
    Ok(table)
}

fn criterion_dir() -> Result<PathBuf> {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"));
    Ok(target.join("criterion"))
}

fn median_ns(root: &Path, group: &str, function: &str) -> Result<f64> {
    let path = root.join(group).join(function).join("new/estimates.json");
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("no results at {} (run `cargo xtask bench`)", path.display()))?;
    let json: Value = serde_json::from_str(&text)?;
    json["median"]["point_estimate"]
        .as_f64()
        .with_context(|| format!("no median in {}", path.display()))
}

/// A ratio with two significant figures below 0.1, two decimals above.
fn ratio(r: f64) -> String {
    if r < 0.1 {
        format!("{r:.2e}x")
    } else {
        format!("{r:.2}x")
    }
}

/// A duration in nanoseconds, in the unit that reads best.
fn human(ns: f64) -> String {
    if ns < 1_000.0 {
        format!("{ns:.1} ns")
    } else if ns < 1_000_000.0 {
        format!("{:.2} µs", ns / 1_000.0)
    } else {
        format!("{:.2} ms", ns / 1_000_000.0)
    }
}

//! `cargo xtask bench`: runs the benchmarks and prints one table of every row of the
//! benchmark report (medians, the raw baseline measured in the same run, their ratio, the
//! target and whether it was met), and writes it, with the machine described, into
//! `docs/benchmarks.md`.
//!
//! Criterion rows: every benchmark group has an `engine` function and a `baseline`
//! function, and the report reads criterion's `estimates.json` for both. Two rows are
//! measured runs rather than criterion groups: the CLI's peak memory on the 1,000 hooks of
//! the config benchmark (`/usr/bin/time -f %M`), and the soak run of the async queue (the
//! `soak` bench target of hooks-exec, which writes its own JSON result).
//!
//! `--quick` shortens every measurement (criterion's warm-up 1 s and measurement 2 s, the
//! soak 2 s instead of 10 s); `--report-only` runs nothing and reports the last results.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};
use serde_json::Value;

/// How a row's figure is judged.
#[derive(Clone, Copy, Debug)]
enum Target {
    /// The engine's median is under this many nanoseconds.
    Below(f64),
    /// The engine's median is at most this multiple of the baseline's.
    RatioAtMost(f64),
    /// The engine is at least this many times faster than the baseline.
    FasterBy(f64),
    /// A figure to report, with no target.
    Report,
}

/// One criterion row of the report.
struct Row {
    /// The row number of the list, and a letter for its second part.
    number: &'static str,
    /// The criterion group.
    group: &'static str,
    /// The bench target holding it, and its package.
    bench: &'static str,
    package: &'static str,
    /// What it measures.
    what: &'static str,
    target: Target,
    /// Events per iteration, for rows that also report throughput.
    events: Option<u32>,
}

/// The criterion rows, in report order.
const ROWS: &[Row] = &[
    Row {
        number: "1a",
        group: "no_hooks",
        bench: "matching",
        package: "agentic-hooks-core",
        what: "event with no hooks (1,000 hooks on other events) vs a hash lookup",
        target: Target::Below(100.0),
        events: None,
    },
    Row {
        number: "1b",
        group: "hooks_1000",
        bench: "matching",
        package: "agentic-hooks-core",
        what: "event matched against 1,000 mixed hooks vs one RegexSet",
        target: Target::Below(1_000.0),
        events: None,
    },
    Row {
        number: "2",
        group: "command_round_trip",
        bench: "process",
        package: "agentic-hooks-exec",
        what: "command hook round trip (sh -c, 1 KiB JSON in, JSON out, parsed) vs raw tokio::process",
        target: Target::RatioAtMost(1.10),
        events: None,
    },
    Row {
        number: "3",
        group: "node_round_trip",
        bench: "process",
        package: "agentic-hooks-exec",
        what: "the same round trip vs Node.js child_process.spawn(cmd, {shell: true})",
        target: Target::FasterBy(1.6),
        events: None,
    },
    Row {
        number: "4",
        group: "parallel_8x50ms",
        bench: "process",
        package: "agentic-hooks-exec",
        what: "8 matching hooks of 50 ms each vs a single such hook (wall time)",
        target: Target::RatioAtMost(1.15),
        events: None,
    },
    Row {
        number: "5",
        group: "timeout_20ms",
        bench: "process",
        package: "agentic-hooks-exec",
        what: "hook overrunning a 20 ms timeout: deadline to outcome (killed, reaped, reported) vs raw timeout + killpg + wait",
        target: Target::Below(5_000_000.0),
        events: None,
    },
    Row {
        number: "6a",
        group: "http_round_trip",
        bench: "http",
        package: "agentic-hooks-exec",
        what: "http hook on loopback keep-alive vs raw reqwest POST + parse",
        target: Target::RatioAtMost(1.2),
        events: None,
    },
    Row {
        number: "6b",
        group: "http_16_concurrent",
        bench: "http",
        package: "agentic-hooks-exec",
        what: "16 concurrent http events (batch median; events/s) vs 16 raw POSTs",
        target: Target::Report,
        events: Some(16),
    },
    Row {
        number: "7a",
        group: "config_load_1000",
        bench: "load",
        package: "agentic-hooks-config",
        what: "load + merge 3 layers holding 1,000 hooks, index built (regexes compiled) vs raw parse + Regex::new",
        target: Target::Below(30_000_000.0),
        events: None,
    },
    Row {
        number: "9a",
        group: "bridge_no_hooks",
        bench: "bridge",
        package: "agentic-hooks-cli",
        what: "the hook command (`hooks-bridge claude`) on an event matching no hook vs `/bin/true`",
        target: Target::RatioAtMost(2.0),
        events: None,
    },
    Row {
        number: "9b",
        group: "bridge_one_hook",
        bench: "bridge",
        package: "agentic-hooks-cli",
        what: "the hook command (`hooks-bridge claude`) with one `sh -c` hook vs that `sh -c` + `/bin/true`",
        target: Target::RatioAtMost(1.15),
        events: None,
    },
    Row {
        number: "9c",
        group: "bridge_20_hooks",
        bench: "bridge",
        package: "agentic-hooks-cli",
        what: "the same with 20 configured hooks, one matching",
        target: Target::Report,
        events: None,
    },
    Row {
        number: "9d",
        group: "bridge_1000_hooks",
        bench: "bridge",
        package: "agentic-hooks-cli",
        what: "the same with 1,000 configured hooks, one matching",
        target: Target::Report,
        events: None,
    },
    Row {
        number: "9e",
        group: "daemon_no_hooks",
        bench: "bridge",
        package: "agentic-hooks-cli",
        what: "9a with `hooks daemon` running (the hook command hands it the call) vs `/bin/true`",
        target: Target::RatioAtMost(1.3),
        events: None,
    },
    Row {
        number: "9f",
        group: "daemon_one_hook",
        bench: "bridge",
        package: "agentic-hooks-cli",
        what: "9b with `hooks daemon` running vs that `sh -c` + `/bin/true`",
        target: Target::RatioAtMost(1.15),
        events: None,
    },
];

/// The CLI's peak memory must stay under this many KiB (30 MiB).
const CLI_MEMORY_TARGET_KIB: u64 = 30 * 1024;

/// Runs the benchmarks (unless `report_only`), prints nothing itself, and returns the
/// table as Markdown; `docs/benchmarks.md` is rewritten with it.
pub(crate) fn run(report_only: bool, quick: bool) -> Result<String> {
    let target = target_dir();
    let results = target.join("criterion");
    let layers = target.join("bench-data/layers");
    let mode_file = results.join("xtask-bench-mode");
    if !report_only {
        std::fs::create_dir_all(&results)?;
        std::fs::write(&mode_file, if quick { "quick" } else { "full" })?;
        let mut benches: Vec<(&str, &str)> = ROWS.iter().map(|r| (r.package, r.bench)).collect();
        benches.dedup();
        let client = static_client(&target)?;
        let client = client.to_string_lossy();
        for (package, bench) in benches {
            let mut args = vec!["bench", "-p", package, "--bench", bench, "--"];
            if quick {
                args.extend(["--warm-up-time", "1", "--measurement-time", "2"]);
            }
            let layers = layers.to_string_lossy();
            crate::cargo_with_env(
                &args,
                &[
                    ("HOOKS_BENCH_LAYERS_DIR", &layers),
                    ("HOOKS_BENCH_CLIENT", &client),
                ],
            )?;
        }
        measure_cli_memory(&target, &layers, &results.join("cli_memory/result.json"))?;
        let soak = results.join("soak/result.json");
        let seconds = if quick { "2" } else { "10" };
        crate::cargo(&[
            "bench",
            "-p",
            "agentic-hooks-exec",
            "--bench",
            "soak",
            "--",
            "--seconds",
            seconds,
            "--out",
            &soak.to_string_lossy(),
        ])?;
    }

    let mut table = String::from(
        "| # | benchmark | engine | baseline | ratio | target | result |\n\
         | --- | --- | --- | --- | --- | --- | --- |\n",
    );
    let mut misses = Vec::new();
    for row in ROWS {
        let line = criterion_row(&results, row, &mut misses);
        table.push_str(&line);
    }
    table.push_str(&cli_memory_row(
        &results.join("cli_memory/result.json"),
        &mut misses,
    ));
    table.push_str(&soak_row(&results.join("soak/result.json"), &mut misses));
    if !misses.is_empty() {
        let _ = writeln!(table, "\nMissed: {}.", misses.join("; "));
    }
    // What the reported results were measured with (`--report-only` reports the last run).
    let quick = std::fs::read_to_string(&mode_file).map_or(quick, |m| m.trim() == "quick");
    write_doc(&table, quick)?;
    Ok(table)
}

/// The hook command's client as the packages ship it ([`crate::dist::build_client`]: on
/// Linux `hooks-bridge-lite`, which links no C library), built with the release profile
/// the benches use and copied to `bench-client/hooks-bridge` in `target` beside a link to
/// the release `hooks` (the client runs the `hooks` beside it).
fn static_client(target: &Path) -> Result<PathBuf> {
    crate::cargo(&["build", "--release", "-p", "agentic-hooks-cli", "--bins"])?;
    let built = crate::dist::build_client("release", crate::dist::host()?, None)?;
    let dir = target.join("bench-client");
    std::fs::create_dir_all(&dir)?;
    let client = dir.join("hooks-bridge");
    let _ = std::fs::remove_file(&client);
    std::fs::copy(&built, &client)?;
    let engine = dir.join("hooks");
    let _ = std::fs::remove_file(&engine);
    std::os::unix::fs::symlink(target.join("release/hooks"), &engine)?;
    Ok(client)
}

pub(crate) fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| crate::workspace_root().join("target"))
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

/// One criterion row: medians, ratio, target, result; a miss is added to `misses`.
fn criterion_row(root: &Path, row: &Row, misses: &mut Vec<String>) -> String {
    let medians = median_ns(root, row.group, "engine")
        .and_then(|e| Ok((e, median_ns(root, row.group, "baseline")?)));
    let (engine, baseline) = match medians {
        Ok(m) => m,
        Err(err) => {
            misses.push(format!("{} not measured", row.number));
            return format!(
                "| {} | {} | not measured | | | {} | {err} |\n",
                row.number,
                row.what,
                target_text(row.target)
            );
        }
    };
    let ratio = engine / baseline;
    let (pass, by) = match row.target {
        Target::Below(limit) => (engine < limit, format!("{:.2}x the limit", engine / limit)),
        Target::RatioAtMost(limit) => (ratio <= limit, format!("ratio {}", ratio_text(ratio))),
        Target::FasterBy(factor) => (
            baseline / engine >= factor,
            format!("{:.2}x faster", baseline / engine),
        ),
        Target::Report => (true, String::new()),
    };
    let result = match (row.target, pass) {
        (Target::Report, _) => "reported".to_owned(),
        (_, true) => "pass".to_owned(),
        (_, false) => {
            misses.push(format!("{} ({by})", row.number));
            format!("**miss** ({by})")
        }
    };
    let cell = |ns: f64| match row.events {
        Some(n) => format!(
            "{} ({} events/s)",
            human(ns),
            thousands(f64::from(n) * 1e9 / ns)
        ),
        None => human(ns),
    };
    let ratio = match row.target {
        Target::FasterBy(_) => format!("{} ({:.2}x faster)", ratio_text(ratio), baseline / engine),
        _ => ratio_text(ratio),
    };
    format!(
        "| {} | {} | {} | {} | {ratio} | {} | {result} |\n",
        row.number,
        row.what,
        cell(engine),
        cell(baseline),
        target_text(row.target)
    )
}

fn target_text(target: Target) -> String {
    match target {
        Target::Below(ns) => format!("< {}", human(ns)),
        Target::RatioAtMost(r) => format!("≤ {r:.2}x"),
        Target::FasterBy(r) => format!("engine ≥ {r:.1}x faster"),
        Target::Report => "—".to_owned(),
    }
}

/// Builds the CLI and runs `hooks validate` on the config benchmark's three layers under
/// `/usr/bin/time -f %M` (peak resident set, KiB); `hooks --version` is the baseline.
fn measure_cli_memory(target: &Path, layers: &Path, out: &Path) -> Result<()> {
    crate::cargo(&[
        "build",
        "--release",
        "-p",
        "agentic-hooks-cli",
        "--bin",
        "hooks",
    ])?;
    let hooks = target.join("release/hooks");
    let files = ["hooks.yaml", ".claude/settings.json", "hooks.local.toml"];
    let mut validate = vec!["validate".to_owned()];
    for f in files {
        let path = layers.join(f);
        if !path.is_file() {
            bail!(
                "{} is missing: the config benchmark writes it",
                path.display()
            );
        }
        validate.extend(["-c".to_owned(), path.to_string_lossy().into_owned()]);
    }
    let engine = max_rss_kib(&hooks, &validate)?;
    let baseline = max_rss_kib(&hooks, &["--version".to_owned()])?;
    let result = serde_json::json!({
        "command": format!("hooks {}", validate.join(" ")),
        "engine_kib": engine.0,
        "engine_status": engine.1,
        "engine_stderr": engine.2,
        "baseline_kib": baseline.0,
    });
    std::fs::create_dir_all(out.parent().unwrap_or(Path::new(".")))?;
    std::fs::write(out, serde_json::to_string_pretty(&result)?)?;
    Ok(())
}

/// Peak RSS of `program args` in KiB, its exit code, and the start of its stderr.
fn max_rss_kib(program: &Path, args: &[String]) -> Result<(u64, Option<i32>, String)> {
    let output = Command::new("/usr/bin/time")
        .arg("-f")
        .arg("maxrss=%M")
        .arg(program)
        .args(args)
        .output()
        .context("cannot run /usr/bin/time (install it: apt-get install time)")?;
    let stderr = String::from_utf8_lossy(&output.stderr);
    let kib = stderr
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("maxrss="))
        .and_then(|v| v.trim().parse().ok())
        .with_context(|| format!("no peak memory in the output of /usr/bin/time: {stderr}"))?;
    let mut rest: String = stderr
        .lines()
        .filter(|l| !l.starts_with("maxrss="))
        .collect::<Vec<_>>()
        .join(" ");
    rest.truncate(200);
    Ok((kib, output.status.code(), rest))
}

fn read_json(path: &Path) -> Result<Value> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("no results at {} (run `cargo xtask bench`)", path.display()))?;
    Ok(serde_json::from_str(&text)?)
}

fn cli_memory_row(path: &Path, misses: &mut Vec<String>) -> String {
    let what = "peak memory of `hooks validate` on those 1,000 hooks vs `hooks --version`";
    let target = format!("< {} MiB", CLI_MEMORY_TARGET_KIB / 1024);
    let json = match read_json(path) {
        Ok(json) => json,
        Err(err) => {
            misses.push("7b not measured".to_owned());
            return format!("| 7b | {what} | not measured | | | {target} | {err} |\n");
        }
    };
    let engine = json["engine_kib"].as_u64().unwrap_or(0);
    let baseline = json["baseline_kib"].as_u64().unwrap_or(0);
    let status = json["engine_status"].as_i64();
    let ratio = ratio_text(engine as f64 / baseline.max(1) as f64);
    let result = if status != Some(0) {
        misses.push("7b (the CLI failed)".to_owned());
        format!(
            "**miss** (`hooks validate` exited {status:?}: {})",
            json["engine_stderr"].as_str().unwrap_or("")
        )
    } else if engine < CLI_MEMORY_TARGET_KIB {
        "pass".to_owned()
    } else {
        let by = format!(
            "{:.2}x the limit",
            engine as f64 / CLI_MEMORY_TARGET_KIB as f64
        );
        misses.push(format!("7b ({by})"));
        format!("**miss** ({by})")
    };
    format!(
        "| 7b | {what} | {} | {} | {ratio} | {target} | {result} |\n",
        mib(engine),
        mib(baseline)
    )
}

fn soak_row(path: &Path, misses: &mut Vec<String>) -> String {
    let what = "async logging hooks at 10,000 events/s: memory flat, overflow counted, nothing accepted lost";
    let target = "flat RSS, drops counted, 0 lost";
    let json = match read_json(path) {
        Ok(json) => json,
        Err(err) => {
            misses.push("8 not measured".to_owned());
            return format!("| 8 | {what} | not measured | | | {target} | {err} |\n");
        }
    };
    let u = |key: &str| json[key].as_u64().unwrap_or(0);
    let engine = format!(
        "{} events in {} s ({} events/s): {} accepted, all {} logged; {} dropped and counted",
        thousands(u("events") as f64),
        json["seconds"].as_f64().unwrap_or(0.0),
        thousands(json["rate_achieved"].as_f64().unwrap_or(0.0)),
        thousands(u("accepted") as f64),
        thousands(u("logged") as f64),
        thousands(u("dropped") as f64),
    );
    let memory = format!(
        "RSS {} (first third) → {} (last third), peak {}",
        mib(u("rss_first_third_kib")),
        mib(u("rss_last_third_kib")),
        mib(u("rss_peak_kib"))
    );
    let checks = [
        ("memory_flat", "memory grew"),
        ("overflow_counted", "drops miscounted"),
        ("nothing_lost", "accepted events lost"),
    ];
    let failed: Vec<&str> = checks
        .iter()
        .filter(|(key, _)| json[*key].as_bool() != Some(true))
        .map(|(_, why)| *why)
        .collect();
    let result = if failed.is_empty() {
        "pass".to_owned()
    } else {
        misses.push(format!("8 ({})", failed.join(", ")));
        format!("**miss** ({}; lost {})", failed.join(", "), u("lost"))
    };
    format!("| 8 | {what} | {engine} | {memory} | — | {target} | {result} |\n")
}

/// Rewrites the generated part of `docs/benchmarks.md` (between the markers), keeping the
/// hand-written analysis around it; creates the file if it does not exist.
fn write_doc(table: &str, quick: bool) -> Result<()> {
    const START: &str = "<!-- bench:start (written by `cargo xtask bench`) -->";
    const END: &str = "<!-- bench:end -->";
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/benchmarks.md");
    let mode = if quick {
        "`cargo xtask bench --quick` (shortened measurements)"
    } else {
        "`cargo xtask bench`"
    };
    let generated = format!("{START}\n{}\nRun with {mode}.\n\n{table}{END}", machine());
    let doc = match std::fs::read_to_string(&path) {
        Ok(text) => match (text.find(START), text.find(END)) {
            (Some(a), Some(b)) if a < b => {
                format!("{}{generated}{}", &text[..a], &text[b + END.len()..])
            }
            _ => format!("{text}\n{generated}\n"),
        },
        Err(_) => format!("# Benchmarks\n\n{generated}\n"),
    };
    std::fs::write(&path, doc).with_context(|| format!("cannot write {}", path.display()))
}

/// The machine, as a Markdown list: cores, CPU model, kernel, rustc, node.
fn machine() -> String {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = cpuinfo
        .lines()
        .find_map(|l| l.strip_prefix("model name"))
        .and_then(|l| l.split_once(':'))
        .map_or("unknown", |(_, m)| m.trim())
        .to_owned();
    let cores = std::thread::available_parallelism().map_or(0, usize::from);
    let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease")
        .map_or_else(|_| "unknown".to_owned(), |k| k.trim().to_owned());
    let version = |program: &str| {
        Command::new(program)
            .arg("--version")
            .output()
            .ok()
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
            .filter(|v| !v.is_empty())
            .unwrap_or_else(|| "not found".to_owned())
    };
    let date = Command::new("date")
        .args(["-u", "+%Y-%m-%d %H:%M UTC"])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_default();
    format!(
        "Measured {date} on:\n\n- {cores} cores, {model}\n- Linux {kernel}\n- {}\n- node {}\n",
        version("rustc"),
        version("node")
    )
}

/// A ratio with two significant figures below 0.1, two decimals above.
fn ratio_text(r: f64) -> String {
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

/// KiB as MiB with one decimal.
fn mib(kib: u64) -> String {
    format!("{:.1} MiB", kib as f64 / 1024.0)
}

/// A count rounded to a whole number, with thousands separators.
fn thousands(n: f64) -> String {
    let digits = format!("{:.0}", n.max(0.0));
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

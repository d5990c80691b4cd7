//! `cargo xtask`: workspace automation.
//!
//! - `cargo xtask ci`: the whole check, as CI runs it: installs the test peers (npm
//!   packages, bubblewrap, jq) when missing, then format, clippy with `-D warnings`, the docs
//!   with `-D warnings`, the test suite (including the tidy tests in this crate).
//! - `cargo xtask peers`: only the first step of `ci`, installing the test peers (`npm
//!   install` of the versions `package-lock.json` pins, when `node_modules` was not
//!   installed from the current `package-lock.json`).
//! - `cargo xtask tidy`: only the tidy tests (layering, file headers, lints).
//! - `cargo xtask codegen [--check]`: write the generated files (the JSON Schemas in
//!   `schemas/`, `docs/events.md`, `docs/config-reference.md`), or with `--check` fail if
//!   they are out of date.
//! - `cargo xtask release [--dry-run] [--no-verify] [--allow-dirty]`: the release checks
//!   (versions, changelog, fresh generated files, packaged files), then `cargo package`
//!   (dry run) or `cargo publish` of every publishable crate in dependency order.
//! - `cargo xtask bench [--quick] [--report-only]`: the criterion benchmarks, reported as
//!   one table of medians beside their raw baselines.
//! - `cargo xtask client [--profile PROFILE]`: the hook command's client as the packages
//!   ship it, for this machine (on Linux `hooks-bridge-lite`, which links no C library;
//!   `release` profile by default); prints its path. `ci` builds it before the tests,
//!   which run it (`HOOKS_TEST_CLIENT`).
//! - `cargo xtask dist [--target TRIPLE] [--out DIR]`: the shipped `hooks` binary (the
//!   `dist` profile), its client `hooks-bridge`, and their packages: the npm packages, the
//!   wheel and their checksums.

// Build tooling starts cargo; the workspace's ban on spawning applies to library code.
#![allow(clippy::disallowed_methods)]
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod bench;
mod codegen;
mod dist;
mod doccheck;
mod docgen;
#[cfg(test)]
mod imports;
mod markdown;
mod peers;
mod release;
mod tidy;

use std::process::Command;

use anyhow::{Context, Result, bail};

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("ci") => ci(),
        Some("peers") => peers::ensure(&workspace_root()),
        Some("tidy") => cargo(&["test", "-p", "xtask", "--", "tidy"]),
        Some("codegen") => codegen::run(args.get(1).is_some_and(|a| a == "--check")),
        Some("release") => release::run(release::Options::parse(&args[1..])?),
        Some("dist") => {
            let dist = dist::run(&dist::Options::parse(&args[1..])?)?;
            eprintln!(
                "\ndist {} for {}: the binary is {} bytes, the client {}; the packages are {}, {} and {}, in",
                dist.version,
                dist.platform.triple,
                dist.binary_bytes,
                dist.client_bytes,
                dist.npm_platform.display(),
                dist.npm_main.display(),
                dist.wheel.display()
            );
            println!("{}", dist.out.display());
            Ok(())
        }
        Some("client") => {
            let profile = match args.get(1).map(String::as_str) {
                Some("--profile") => args.get(2).map_or("release", String::as_str),
                _ => "release",
            };
            let client = dist::build_client(profile, dist::host()?, None)?;
            println!("{}", client.display());
            Ok(())
        }
        Some("bench") => {
            let rest = &args[1..];
            let table = bench::run(
                rest.iter().any(|a| a == "--report-only"),
                rest.iter().any(|a| a == "--quick"),
            )?;
            println!("{table}");
            Ok(())
        }
        _ => {
            eprintln!(
                "usage: cargo xtask <ci|peers|tidy|codegen [--check]|release [--dry-run] [--no-verify] \
                 [--allow-dirty]|bench [--quick] [--report-only]|client [--profile PROFILE]\
                 |dist [--target TRIPLE] [--out DIR]>"
            );
            bail!("unknown or missing xtask command")
        }
    }
}

/// Runs every check CI runs, failing on the first that fails.
fn ci() -> Result<()> {
    peers::ensure(&workspace_root())?;
    cargo(&["fmt", "--all", "--", "--check"])?;
    cargo(&[
        "clippy",
        "--workspace",
        "--all-targets",
        "--locked",
        "--",
        "-D",
        "warnings",
    ])?;
    // The Linux client, which the workspace's lints skip (it builds only with `-C
    // panic=abort`: `docs/decisions.md`, "The Linux client links no C library").
    if cfg!(target_os = "linux") {
        cargo(&[
            "clippy",
            "--locked",
            "-p",
            "agentic-hooks-bridge-lite",
            "--features",
            "lite",
            "--",
            "-C",
            "panic=abort",
            "-D",
            "warnings",
        ])?;
    }
    cargo_with_env(
        &["doc", "--workspace", "--no-deps", "--locked"],
        &[("RUSTDOCFLAGS", "-D warnings")],
    )?;
    // The client the packages ship, which the tests run as agents would.
    let client = dist::build_client("release", dist::host()?, None)?;
    let client = client.to_string_lossy();
    cargo_with_env(
        &["test", "--workspace", "--locked"],
        &[(TEST_CLIENT_VAR, client.as_ref())],
    )?;
    Ok(())
}

/// The variable naming the shipped client's build to the tests (`cargo xtask client`);
/// without it they build it themselves.
const TEST_CLIENT_VAR: &str = "HOOKS_TEST_CLIENT";

/// The workspace root (xtask's parent directory).
pub(crate) fn workspace_root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map_or_else(|| ".".into(), std::path::Path::to_path_buf)
}

pub(crate) fn cargo(args: &[&str]) -> Result<()> {
    cargo_with_env(args, &[])
}

fn cargo_with_env(args: &[&str], env: &[(&str, &str)]) -> Result<()> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    eprintln!("$ cargo {}", args.join(" "));
    let status = Command::new(&cargo)
        .args(args)
        .envs(env.iter().copied())
        .status()
        .with_context(|| format!("could not start `{cargo}`"))?;
    if !status.success() {
        bail!("`cargo {}` failed ({status})", args.join(" "));
    }
    Ok(())
}

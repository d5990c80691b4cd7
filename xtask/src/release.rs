//! `cargo xtask release [--dry-run] [--no-verify] [--allow-dirty]`: the checks a release
//! must pass, then `cargo package` (dry run) or `cargo publish` of every publishable crate.
//!
//! The checks, in order, each failing with a message that says what to fix:
//!
//! 1. **Versions agree**: every workspace member has the workspace version, and every
//!    dependency on a member asks for exactly that version.
//! 2. **Metadata**: every publishable crate has a description and a licence (crates.io
//!    refuses a crate without them), and a repository URL that is a real `https` address:
//!    not empty, not a placeholder host (`example.invalid`, `example.com`, `localhost`, ...).
//!    The URL is set once under `[workspace.package]` in the root Cargo.toml; a release
//!    refuses to publish without it, a dry run warns and goes on (as for the changelog).
//! 3. **No publish cycles**: a dev-dependency on a crate that depends back on this one must
//!    be path-only (no `version`), so that `cargo publish` strips it; otherwise neither
//!    crate can be published first.
//! 4. **Changelog**: `CHANGELOG.md` has a `## [VERSION]` section, or, for a dry run, an
//!    `## [Unreleased]` section with entries.
//! 5. **Generated files are fresh**: the schemas and the generated docs are what
//!    `cargo xtask codegen` would write.
//! 6. **Docs' code blocks**: every Rust block in `docs/` is compiled (doctested, or copied
//!    from a compiled example and identical to it), and every config block marked for
//!    checking loads, and every relative link names an existing file and heading (see
//!    `crate::doccheck`).
//! 7. **Packaged files**: every file a crate's sources `include_str!` or `include_bytes!`
//!    is in its `cargo package --list` (a path outside the crate directory is not, and the
//!    packaged crate would not build).
//! 8. **`cargo package`** of every publishable crate, in dependency order, in one cargo
//!    invocation: cargo 1.90 and later package the crates of one invocation together,
//!    resolving their dependencies on each other through a local overlay of the crates just
//!    packaged, so a crate can be verified before the crates it depends on are on
//!    crates.io. Packaging one crate alone (`cargo package -p agentic-hooks`) fails with
//!    "no matching package named `agentic-hooks-config` found" until its dependencies are
//!    published.
//!    Third-party dependencies still come from the crates.io index, which must be
//!    reachable.
//!
//! Without `--dry-run`, the same checks run (and the changelog must name the version),
//! then `cargo publish` with the same crates, which cargo publishes in dependency order,
//! waiting for each to appear in the index before the next.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};
use serde_json::Value;

use crate::codegen::{self, Part};
use crate::workspace_root;

/// The options of `cargo xtask release`.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Options {
    /// Package, do not publish.
    pub(crate) dry_run: bool,
    /// Pass `--no-verify` to cargo (skip building the packaged crates).
    pub(crate) no_verify: bool,
    /// Pass `--allow-dirty` to cargo (package uncommitted changes).
    pub(crate) allow_dirty: bool,
}

impl Options {
    /// Parses the arguments after `release`.
    pub(crate) fn parse(args: &[String]) -> Result<Options> {
        let mut options = Options::default();
        for arg in args {
            match arg.as_str() {
                "--dry-run" => options.dry_run = true,
                "--no-verify" => options.no_verify = true,
                "--allow-dirty" => options.allow_dirty = true,
                other => bail!(
                    "unknown option `{other}`; usage: cargo xtask release [--dry-run] \
                     [--no-verify] [--allow-dirty]"
                ),
            }
        }
        Ok(options)
    }
}

/// Runs the release checks and then packages (dry run) or publishes.
pub(crate) fn run(options: Options) -> Result<()> {
    let root = workspace_root();
    let meta = cargo_metadata(&root)?;
    let workspace = Workspace::from_metadata(&meta)?;

    step("versions agree");
    let version = workspace.check_versions()?;
    eprintln!("  {} crates at {version}", workspace.members.len());

    step("crate metadata");
    let order = workspace.publish_order()?;
    workspace.check_metadata(&order)?;
    eprintln!("  publishable, in dependency order: {}", order.join(", "));
    if let Err(problem) = workspace.check_repository(&order) {
        if !options.dry_run {
            return Err(problem);
        }
        eprintln!("  warning: {problem:#}; a release refuses to publish until it is set");
    }

    step("no publish cycles through dev-dependencies");
    workspace.check_dev_cycles(&order)?;

    step("CHANGELOG.md");
    let changelog =
        std::fs::read_to_string(root.join("CHANGELOG.md")).context("cannot read CHANGELOG.md")?;
    eprintln!(
        "  {}",
        check_changelog(&changelog, &version, options.dry_run)?
    );

    step("generated files are fresh");
    let stale = codegen::ensure(&[Part::Schemas, Part::Docs], true)?;
    if !stale.is_empty() {
        bail!("{}", codegen::stale_message(&stale));
    }

    step("code blocks of the docs");
    let mut problems = crate::doccheck::check_rust_blocks(&root)?;
    problems.extend(crate::doccheck::check_config_blocks(&root)?.0);
    problems.extend(crate::doccheck::check_shell_blocks(&root)?.0);
    problems.extend(crate::doccheck::check_links(&root)?);
    if !problems.is_empty() {
        bail!(
            "the docs' code blocks are not checked:\n{}",
            problems.join("\n")
        );
    }

    step("packaged files");
    for name in &order {
        let dir = &workspace.members[name].dir;
        let listed = package_list(&root, name, options.allow_dirty)?;
        check_included_files(dir, &listed)
            .with_context(|| format!("`{name}` would not build from its package"))?;
    }

    let verb = if options.dry_run {
        "package"
    } else {
        "publish"
    };
    step(&format!("cargo {verb}"));
    let mut args = vec![verb, "--locked"];
    if options.no_verify {
        args.push("--no-verify");
    }
    if options.allow_dirty {
        args.push("--allow-dirty");
    }
    for name in &order {
        args.push("-p");
        args.push(name);
    }
    crate::cargo(&args)?;
    if options.dry_run {
        let target = std::env::var("CARGO_TARGET_DIR").unwrap_or_else(|_| "target".to_owned());
        eprintln!("\nrelease {version}: every check passed; the packages are in {target}/package/");
    }
    Ok(())
}

fn step(what: &str) {
    eprintln!("release: {what}");
}

/// `cargo metadata` of the workspace (members only).
pub(crate) fn cargo_metadata(root: &Path) -> Result<Value> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let out = Command::new(&cargo)
        .args(["metadata", "--format-version", "1", "--no-deps", "--locked"])
        .current_dir(root)
        .output()
        .with_context(|| format!("could not start `{cargo}`"))?;
    if !out.status.success() {
        bail!(
            "cargo metadata failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    serde_json::from_slice(&out.stdout).context("cargo metadata printed something not JSON")
}

/// `cargo package --list -p NAME`: the files that go into the crate.
fn package_list(root: &Path, name: &str, allow_dirty: bool) -> Result<BTreeSet<String>> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let mut command = Command::new(&cargo);
    command
        .args(["package", "--list", "--locked", "-p", name])
        .current_dir(root);
    if allow_dirty {
        command.arg("--allow-dirty");
    }
    let out = command
        .output()
        .with_context(|| format!("could not start `{cargo}`"))?;
    if !out.status.success() {
        bail!(
            "cargo package --list -p {name} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Ok(String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_owned)
        .collect())
}

/// One workspace member, as far as releasing goes.
#[derive(Debug)]
struct Member {
    version: String,
    dir: PathBuf,
    publishable: bool,
    description: bool,
    license: bool,
    /// The `repository` URL, empty when unset.
    repository: String,
    /// Dependencies on other members: (name, version requirement, kind, has a version).
    deps: Vec<Dep>,
}

#[derive(Debug)]
struct Dep {
    name: String,
    req: String,
    /// `None` for normal dependencies, else `dev` or `build`.
    kind: Option<String>,
}

/// The workspace's members and the workspace version.
#[derive(Debug)]
struct Workspace {
    members: BTreeMap<String, Member>,
}

impl Workspace {
    fn from_metadata(meta: &Value) -> Result<Workspace> {
        let ids: BTreeSet<&str> = meta["workspace_members"]
            .as_array()
            .context("cargo metadata: no workspace_members")?
            .iter()
            .filter_map(Value::as_str)
            .collect();
        let packages: Vec<&Value> = meta["packages"]
            .as_array()
            .context("cargo metadata: no packages")?
            .iter()
            .filter(|p| p["id"].as_str().is_some_and(|id| ids.contains(id)))
            .collect();
        let names: BTreeSet<&str> = packages.iter().filter_map(|p| p["name"].as_str()).collect();
        let mut members = BTreeMap::new();
        for p in packages {
            let name = p["name"].as_str().context("a package without a name")?;
            let manifest = p["manifest_path"].as_str().unwrap_or_default();
            let text = |key: &str| p[key].as_str().is_some_and(|s| !s.trim().is_empty());
            let deps = p["dependencies"]
                .as_array()
                .map(Vec::as_slice)
                .unwrap_or_default()
                .iter()
                .filter(|d| d["name"].as_str().is_some_and(|n| names.contains(n)))
                .map(|d| Dep {
                    name: d["name"].as_str().unwrap_or_default().to_owned(),
                    req: d["req"].as_str().unwrap_or("*").to_owned(),
                    kind: d["kind"].as_str().map(str::to_owned),
                })
                .collect();
            members.insert(
                name.to_owned(),
                Member {
                    version: p["version"].as_str().unwrap_or_default().to_owned(),
                    dir: Path::new(manifest)
                        .parent()
                        .map_or_else(PathBuf::new, Path::to_path_buf),
                    // `publish = false` is `[]`; absent is `null` (any registry).
                    publishable: p["publish"].as_array().is_none_or(|r| !r.is_empty()),
                    description: text("description"),
                    license: text("license") || text("license_file"),
                    repository: p["repository"].as_str().unwrap_or_default().to_owned(),
                    deps,
                },
            );
        }
        Ok(Workspace { members })
    }

    /// Every member has one version, and every dependency on a member asks for it.
    fn check_versions(&self) -> Result<String> {
        let versions: BTreeSet<&str> = self.members.values().map(|m| m.version.as_str()).collect();
        let Some(version) = versions.first().copied() else {
            bail!("the workspace has no members");
        };
        if versions.len() > 1 {
            let list: Vec<String> = self
                .members
                .iter()
                .map(|(n, m)| format!("{n} {}", m.version))
                .collect();
            bail!(
                "workspace members disagree on the version: {}; set `version.workspace = true` \
                 in each manifest",
                list.join(", ")
            );
        }
        let mut wrong = Vec::new();
        for (name, member) in &self.members {
            for dep in &member.deps {
                let asked = dep.req.trim_start_matches(['^', '=']);
                // A path-only dev-dependency has no version requirement (`*`); it is
                // stripped on publish and so cannot disagree.
                let path_only_dev = dep.req == "*" && dep.kind.as_deref() == Some("dev");
                if asked != version && !path_only_dev {
                    wrong.push(format!("{name} -> {} {}", dep.name, dep.req));
                }
            }
        }
        if !wrong.is_empty() {
            bail!(
                "dependencies on workspace crates do not ask for version {version}: {}; fix \
                 `[workspace.dependencies]` in the root Cargo.toml",
                wrong.join(", ")
            );
        }
        Ok(version.to_owned())
    }

    /// Publishable members in dependency order (normal and build dependencies first; ties
    /// by name, so the order is stable).
    fn publish_order(&self) -> Result<Vec<String>> {
        let publishable: BTreeSet<&str> = self
            .members
            .iter()
            .filter(|(_, m)| m.publishable)
            .map(|(n, _)| n.as_str())
            .collect();
        let mut unpublished_deps = Vec::new();
        let mut waiting: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
        for name in &publishable {
            let member = &self.members[*name];
            let mut needs = BTreeSet::new();
            for dep in member
                .deps
                .iter()
                .filter(|d| d.kind.as_deref() != Some("dev"))
            {
                if publishable.contains(dep.name.as_str()) {
                    needs.insert(dep.name.as_str());
                } else {
                    unpublished_deps.push(format!("{name} -> {}", dep.name));
                }
            }
            waiting.insert(name, needs);
        }
        if !unpublished_deps.is_empty() {
            bail!(
                "publishable crates depend on crates that are `publish = false`: {}",
                unpublished_deps.join(", ")
            );
        }
        let mut order: Vec<String> = Vec::new();
        while !waiting.is_empty() {
            let ready: Vec<&str> = waiting
                .iter()
                .filter(|(_, needs)| needs.iter().all(|n| order.iter().any(|o| o == n)))
                .map(|(n, _)| *n)
                .collect();
            if ready.is_empty() {
                bail!(
                    "workspace crates depend on each other in a cycle: {}",
                    waiting.keys().copied().collect::<Vec<_>>().join(", ")
                );
            }
            for name in ready {
                waiting.remove(name);
                order.push(name.to_owned());
            }
        }
        Ok(order)
    }

    fn check_metadata(&self, order: &[String]) -> Result<()> {
        let mut missing = Vec::new();
        for name in order {
            let m = &self.members[name];
            for (ok, field) in [(m.description, "description"), (m.license, "license")] {
                if !ok {
                    missing.push(format!("{name}: {field}"));
                }
            }
        }
        if !missing.is_empty() {
            bail!(
                "publishable crates lack manifest fields: {}",
                missing.join(", ")
            );
        }
        Ok(())
    }

    /// Every publishable crate names its public repository: an `https` URL on a real host.
    /// The crates inherit it from `[workspace.package]`, so the message says to set it
    /// there.
    fn check_repository(&self, order: &[String]) -> Result<()> {
        let mut problems: BTreeMap<String, Vec<&str>> = BTreeMap::new();
        for name in order {
            if let Some(problem) = repository_problem(&self.members[name].repository) {
                problems.entry(problem).or_default().push(name);
            }
        }
        if problems.is_empty() {
            return Ok(());
        }
        let list: Vec<String> = problems
            .iter()
            .map(|(problem, crates)| format!("{problem} ({})", crates.join(", ")))
            .collect();
        bail!(
            "the repository URL {}: set `repository = \"https://...\"` under \
             `[workspace.package]` in the root Cargo.toml (every crate inherits it)",
            list.join("; ")
        )
    }

    /// A dev-dependency with a version on a crate that (transitively) depends on this one
    /// cannot be published: each would need the other on crates.io first.
    fn check_dev_cycles(&self, order: &[String]) -> Result<()> {
        let position = |n: &str| order.iter().position(|o| o == n);
        let mut cycles = Vec::new();
        for (name, member) in &self.members {
            let Some(mine) = position(name) else { continue };
            for dep in &member.deps {
                let versioned = dep.req != "*";
                if dep.kind.as_deref() == Some("dev")
                    && versioned
                    && position(&dep.name).is_some_and(|theirs| theirs > mine)
                {
                    cycles.push(format!("{name} -> {} (dev, {})", dep.name, dep.req));
                }
            }
        }
        if !cycles.is_empty() {
            bail!(
                "dev-dependencies on crates published later: {}; declare them path-only \
                 (`name = {{ path = \"../name\" }}`, no `version`, not `workspace = true`) so \
                 that cargo strips them on publish",
                cycles.join(", ")
            );
        }
        Ok(())
    }
}

/// What is wrong with a `repository` URL, or `None` when it can be published: empty, not
/// `https`, or a host reserved for examples and tests (RFC 2606 and RFC 6761).
fn repository_problem(url: &str) -> Option<String> {
    let url = url.trim();
    if url.is_empty() {
        return Some("is not set".to_owned());
    }
    let Some(rest) = url.strip_prefix("https://") else {
        return Some(format!("`{url}` is not an https URL"));
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host = authority
        .rsplit('@')
        .next()
        .unwrap_or_default()
        .split(':')
        .next()
        .unwrap_or_default()
        .trim_end_matches('.')
        .to_ascii_lowercase();
    let reserved_domain = ["example.com", "example.org", "example.net"]
        .iter()
        .any(|d| host == *d || host.ends_with(&format!(".{d}")));
    let reserved_tld = ["invalid", "example", "test", "localhost", "local"]
        .iter()
        .any(|tld| host == *tld || host.ends_with(&format!(".{tld}")));
    if host.is_empty() || !host.contains('.') || reserved_domain || reserved_tld {
        return Some(format!("`{url}` is a placeholder, not a public address"));
    }
    None
}

/// Checks that `CHANGELOG.md` covers `version`: a `## [VERSION]` section, or for a dry run
/// an `## [Unreleased]` section with at least one entry. Returns which it found.
fn check_changelog(text: &str, version: &str, dry_run: bool) -> Result<String> {
    let sections = changelog_sections(text);
    let released = sections.iter().find(|(title, _)| {
        title
            .trim_start_matches('[')
            .starts_with(&format!("{version}]"))
    });
    if let Some((title, entries)) = released {
        if entries == &0 {
            bail!("CHANGELOG.md: the section `## {title}` has no entries");
        }
        return Ok(format!("`## {title}`: {entries} entries"));
    }
    let unreleased = sections
        .iter()
        .find(|(title, _)| title.eq_ignore_ascii_case("[Unreleased]"));
    match unreleased {
        Some((_, entries)) if dry_run && *entries > 0 => Ok(format!(
            "`## [Unreleased]`: {entries} entries (name it `## [{version}] - DATE` to release)"
        )),
        Some(_) if dry_run => bail!("CHANGELOG.md: `## [Unreleased]` has no entries"),
        _ if dry_run => {
            bail!("CHANGELOG.md has no `## [{version}]` or `## [Unreleased]` section with entries")
        }
        _ => bail!(
            "CHANGELOG.md has no `## [{version}] - DATE` section; rename `## [Unreleased]` \
             to release"
        ),
    }
}

/// The `## ` sections of a Keep a Changelog file, with how many list entries each has.
fn changelog_sections(text: &str) -> Vec<(String, usize)> {
    let mut sections: Vec<(String, usize)> = Vec::new();
    let mut in_code = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            continue;
        }
        if let Some(title) = line.strip_prefix("## ") {
            sections.push((title.trim().to_owned(), 0));
        } else if (line.starts_with("- ") || line.starts_with("* "))
            && let Some((_, entries)) = sections.last_mut()
        {
            *entries += 1;
        }
    }
    sections
}

/// Every `include_str!`/`include_bytes!` path in `dir/src` must be a packaged file.
fn check_included_files(dir: &Path, listed: &BTreeSet<String>) -> Result<()> {
    let mut missing = Vec::new();
    let mut stack = vec![dir.join("src")];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries {
            let path = entry?.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let source = std::fs::read_to_string(&path)
                    .with_context(|| format!("cannot read {}", path.display()))?;
                for included in included_paths(&source) {
                    let Some(parent) = path.parent() else {
                        continue;
                    };
                    let resolved = normalize(&parent.join(&included));
                    let inside = resolved
                        .strip_prefix(dir)
                        .ok()
                        .map(|p| p.to_string_lossy().replace('\\', "/"));
                    if !inside.is_some_and(|p| listed.contains(&p)) {
                        missing.push(format!("{} includes `{included}`", path.display()));
                    }
                }
            }
        }
    }
    if !missing.is_empty() {
        missing.sort();
        bail!(
            "files the sources include are not in the package: {}; keep them inside the \
             crate directory (a symlink to a shared file works)",
            missing.join("; ")
        );
    }
    Ok(())
}

/// The literal paths of `include_str!("..")` and `include_bytes!("..")` in `source`.
fn included_paths(source: &str) -> Vec<String> {
    let mut paths = Vec::new();
    for mac in ["include_str!(\"", "include_bytes!(\""] {
        let mut rest = source;
        while let Some(at) = rest.find(mac) {
            rest = &rest[at + mac.len()..];
            if let Some(end) = rest.find('"') {
                paths.push(rest[..end].to_owned());
                rest = &rest[end..];
            }
        }
    }
    paths
}

/// Resolves `.` and `..` without touching the filesystem (the file may not exist).
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use serde_json::{Value, json};

    use super::{
        Workspace, check_changelog, check_included_files, included_paths, repository_problem,
    };

    /// A dependency: `(name, req, kind)`.
    type TestDep<'a> = (&'a str, &'a str, Option<&'a str>);

    /// Metadata of a workspace: `(name, version, publishable, dependencies)`.
    fn metadata(packages: &[(&str, &str, bool, &[TestDep<'_>])]) -> Value {
        let packages: Vec<Value> = packages
            .iter()
            .map(|(name, version, publish, deps)| {
                json!({
                    "id": format!("path+file:///ws/{name}#{version}"),
                    "name": name,
                    "version": version,
                    "publish": if *publish { Value::Null } else { json!([]) },
                    "description": "d",
                    "license": "MIT",
                    "repository": "https://github.com/someone/r",
                    "manifest_path": format!("/ws/{name}/Cargo.toml"),
                    "dependencies": deps.iter().map(|(d, req, kind)| json!({
                        "name": d, "req": req, "kind": kind,
                    })).collect::<Vec<_>>(),
                })
            })
            .collect();
        let ids: Vec<Value> = packages.iter().map(|p| p["id"].clone()).collect();
        json!({"packages": packages, "workspace_members": ids})
    }

    #[track_caller]
    fn check_order(meta: &Value, expect: Result<&[&str], &str>) {
        let ws = Workspace::from_metadata(meta).unwrap();
        match (ws.publish_order(), expect) {
            (Ok(order), Ok(want)) => assert_eq!(order, want),
            (Err(e), Err(want)) => assert!(e.to_string().contains(want), "{e}"),
            (got, want) => panic!("got {got:?}, want {want:?}"),
        }
    }

    #[test]
    fn publish_order_follows_dependencies_and_skips_unpublished() {
        let meta = metadata(&[
            ("cli", "0.1.0", true, &[("facade", "^0.1.0", None)]),
            (
                "facade",
                "0.1.0",
                true,
                &[("exec", "^0.1.0", None), ("core", "^0.1.0", None)],
            ),
            (
                "exec",
                "0.1.0",
                true,
                &[("core", "^0.1.0", None), ("facade", "*", Some("dev"))],
            ),
            ("core", "0.1.0", true, &[]),
            ("xtask", "0.1.0", false, &[("core", "^0.1.0", None)]),
        ]);
        check_order(&meta, Ok(&["core", "exec", "facade", "cli"]));
    }

    #[test]
    fn publish_order_rejects_cycles_and_unpublished_dependencies() {
        let cycle = metadata(&[
            ("a", "0.1.0", true, &[("b", "^0.1.0", None)]),
            ("b", "0.1.0", true, &[("a", "^0.1.0", None)]),
        ]);
        check_order(&cycle, Err("cycle: a, b"));
        let private = metadata(&[
            ("a", "0.1.0", true, &[("support", "^0.1.0", None)]),
            ("support", "0.1.0", false, &[]),
        ]);
        check_order(&private, Err("`publish = false`: a -> support"));
    }

    #[track_caller]
    fn check_versions(meta: &Value, expect: Result<&str, &str>) {
        let ws = Workspace::from_metadata(meta).unwrap();
        match (ws.check_versions(), expect) {
            (Ok(v), Ok(want)) => assert_eq!(v, want),
            (Err(e), Err(want)) => assert!(e.to_string().contains(want), "{e}"),
            (got, want) => panic!("got {got:?}, want {want:?}"),
        }
    }

    #[test]
    fn versions_must_agree() {
        check_versions(
            &metadata(&[
                (
                    "a",
                    "0.2.0",
                    true,
                    &[("b", "^0.2.0", None), ("c", "*", Some("dev"))],
                ),
                ("b", "0.2.0", true, &[]),
                ("c", "0.2.0", true, &[]),
            ]),
            Ok("0.2.0"),
        );
        check_versions(
            &metadata(&[("a", "0.2.0", true, &[]), ("b", "0.1.0", true, &[])]),
            Err("disagree on the version: a 0.2.0, b 0.1.0"),
        );
        check_versions(
            &metadata(&[
                ("a", "0.2.0", true, &[("b", "^0.1.0", None)]),
                ("b", "0.2.0", true, &[]),
            ]),
            Err("do not ask for version 0.2.0: a -> b ^0.1.0"),
        );
    }

    #[test]
    fn versioned_dev_dependencies_on_later_crates_are_publish_cycles() {
        let meta = metadata(&[
            ("core", "0.1.0", true, &[]),
            (
                "exec",
                "0.1.0",
                true,
                &[("core", "^0.1.0", None), ("facade", "^0.1.0", Some("dev"))],
            ),
            ("facade", "0.1.0", true, &[("exec", "^0.1.0", None)]),
        ]);
        let ws = Workspace::from_metadata(&meta).unwrap();
        let order = ws.publish_order().unwrap();
        let err = ws.check_dev_cycles(&order).unwrap_err().to_string();
        assert!(err.contains("exec -> facade (dev, ^0.1.0)"), "{err}");

        // Path-only (`*`) it is stripped on publish, and fine.
        let meta = metadata(&[
            ("core", "0.1.0", true, &[]),
            (
                "exec",
                "0.1.0",
                true,
                &[("core", "^0.1.0", None), ("facade", "*", Some("dev"))],
            ),
            ("facade", "0.1.0", true, &[("exec", "^0.1.0", None)]),
        ]);
        let ws = Workspace::from_metadata(&meta).unwrap();
        let order = ws.publish_order().unwrap();
        ws.check_dev_cycles(&order).unwrap();
    }

    #[track_caller]
    fn check_log(text: &str, dry_run: bool, expect: Result<&str, &str>) {
        match (check_changelog(text, "0.1.0", dry_run), expect) {
            (Ok(found), Ok(want)) => assert!(found.contains(want), "{found}"),
            (Err(e), Err(want)) => assert!(e.to_string().contains(want), "{e}"),
            (got, want) => panic!("got {got:?}, want {want:?}"),
        }
    }

    #[test]
    fn changelog_needs_an_entry() {
        let unreleased = "# Changelog\n\n## [Unreleased]\n\n### Added\n\n- a\n- b\n";
        check_log(unreleased, true, Ok("`## [Unreleased]`: 2 entries"));
        check_log(unreleased, false, Err("no `## [0.1.0] - DATE` section"));
        let released = "## [Unreleased]\n\n## [0.1.0] - 2026-01-02\n\n- a\n";
        check_log(released, false, Ok("`## [0.1.0] - 2026-01-02`: 1 entries"));
        check_log(released, true, Ok("[0.1.0]"));
        check_log(
            "## [Unreleased]\n\n### Added\n",
            true,
            Err("has no entries"),
        );
        check_log("## [0.1.0]\n", false, Err("has no entries"));
        check_log(
            "# Changelog\n",
            true,
            Err("no `## [0.1.0]` or `## [Unreleased]`"),
        );
        // A list inside a code block is not an entry.
        check_log(
            "## [Unreleased]\n```\n- not an entry\n```\n",
            true,
            Err("has no entries"),
        );
        // Another version's section does not count.
        check_log(
            "## [0.1.1] - 2026-01-02\n- a\n",
            true,
            Err("no `## [0.1.0]`"),
        );
    }

    #[test]
    fn included_files_must_be_packaged() {
        let source = "const A: &str = include_str!(\"../builtin/a.sh\");\n\
                      #[doc = include_str!(\"../../../docs/guide.md\")]\n\
                      const B: &[u8] = include_bytes!(\"data.bin\");";
        assert_eq!(
            included_paths(source),
            ["../builtin/a.sh", "../../../docs/guide.md", "data.bin"]
        );

        let dir = tempfile_dir();
        std::fs::create_dir_all(dir.join("src/cmd")).unwrap();
        std::fs::write(
            dir.join("src/cmd/mod.rs"),
            "//! x\nconst A: &str = include_str!(\"../../builtin/a.sh\");\n",
        )
        .unwrap();
        std::fs::write(
            dir.join("src/lib.rs"),
            "//! x\n#[doc = include_str!(\"../../../docs/guide.md\")]\npub mod guide {}\n",
        )
        .unwrap();
        let listed: BTreeSet<String> = ["src/lib.rs", "src/cmd/mod.rs", "builtin/a.sh"]
            .into_iter()
            .map(str::to_owned)
            .collect();
        let err = check_included_files(&dir, &listed).unwrap_err().to_string();
        assert!(err.contains("includes `../../../docs/guide.md`"), "{err}");
        assert!(!err.contains("a.sh"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A fresh directory under the system's temp directory for one test.
    fn tempfile_dir() -> std::path::PathBuf {
        let dir =
            std::env::temp_dir().join(format!("xtask-release-{}-{}", std::process::id(), line!()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn the_repository_must_be_a_public_https_url() {
        for (url, problem) in [
            ("", Some("is not set")),
            ("  ", Some("is not set")),
            ("https://example.invalid/hooks", Some("placeholder")),
            ("https://github.com.invalid/x", Some("placeholder")),
            ("https://example.com/hooks", Some("placeholder")),
            ("https://git.example.org/hooks", Some("placeholder")),
            ("https://hooks.test/x", Some("placeholder")),
            ("https://localhost:3000/x", Some("placeholder")),
            ("https://gitserver/x", Some("placeholder")),
            ("https://", Some("placeholder")),
            ("http://github.com/o/hooks", Some("not an https URL")),
            ("github.com/o/hooks", Some("not an https URL")),
            ("https://github.com/o/hooks", None),
            ("https://git@codeberg.org:443/o/hooks", None),
        ] {
            let got = repository_problem(url);
            match (problem, &got) {
                (None, None) => {}
                (Some(want), Some(got)) => assert!(got.contains(want), "{url:?}: {got}"),
                _ => panic!("{url:?}: got {got:?}, want {problem:?}"),
            }
        }

        let mut meta = metadata(&[("a", "0.1.0", true, &[]), ("b", "0.1.0", true, &[])]);
        for p in meta["packages"].as_array_mut().unwrap() {
            p["repository"] = Value::Null;
        }
        let ws = Workspace::from_metadata(&meta).unwrap();
        let order = ws.publish_order().unwrap();
        let err = ws.check_repository(&order).unwrap_err().to_string();
        assert!(err.contains("is not set (a, b)"), "{err}");
        assert!(err.contains("under `[workspace.package]`"), "{err}");
    }

    /// This workspace: one version, the publishable crates in the documented order.
    #[test]
    fn this_workspace_publishes_in_layer_order() {
        let root = crate::workspace_root();
        let meta = super::cargo_metadata(&root).unwrap();
        let ws = Workspace::from_metadata(&meta).unwrap();
        ws.check_versions().unwrap();
        let order = ws.publish_order().unwrap();
        assert_eq!(
            order,
            [
                "agentic-hooks-client",
                "agentic-hooks-core",
                "agentic-hooks-config",
                "agentic-hooks-exec",
                "agentic-hooks-orchestration",
                "agentic-hooks",
                "agentic-hooks-server",
                "agentic-hooks-cli"
            ]
        );
        ws.check_metadata(&order).unwrap();
    }
}

//! Tidy tests: the workspace's architecture invariants, checked from `cargo metadata` and the
//! source tree.

#[cfg(test)]
mod tests {
    use std::collections::{BTreeSet, HashMap};
    use std::path::{Path, PathBuf};
    use std::process::Command;

    use serde_json::Value;

    fn workspace_root() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .unwrap()
            .to_path_buf()
    }

    fn metadata() -> Value {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
        let out = Command::new(cargo)
            .args(["metadata", "--format-version", "1", "--locked"])
            .current_dir(workspace_root())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "cargo metadata failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).unwrap()
    }

    /// Names of every package `package` depends on through normal (non-dev, non-build)
    /// dependencies, transitively, for any target platform.
    fn normal_closure(meta: &Value, package: &str) -> BTreeSet<String> {
        let packages: HashMap<&str, &str> = meta["packages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| (p["id"].as_str().unwrap(), p["name"].as_str().unwrap()))
            .collect();
        let nodes: HashMap<&str, &Value> = meta["resolve"]["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| (n["id"].as_str().unwrap(), n))
            .collect();
        let start = packages
            .iter()
            .find(|(_, name)| **name == package)
            .map(|(id, _)| *id)
            .unwrap();
        let mut seen = BTreeSet::new();
        let mut stack = vec![start];
        while let Some(id) = stack.pop() {
            for dep in nodes[id]["deps"].as_array().unwrap() {
                let normal = dep["dep_kinds"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|k| k["kind"].is_null());
                let dep_id = dep["pkg"].as_str().unwrap();
                if normal && seen.insert(packages[dep_id].to_owned()) {
                    stack.push(dep_id);
                }
            }
        }
        seen
    }

    /// Architecture invariant: the core, config and orchestration crates never pull an
    /// async runtime, an HTTP client or an MCP client, and never depend on each other's
    /// siblings.
    #[test]
    fn tidy_layering() {
        let meta = metadata();
        let banned = [
            "tokio",
            "reqwest",
            "rmcp",
            "hyper",
            "async-std",
            "smol",
            "process-wrap",
        ];
        for krate in [
            "agentic-hooks-core",
            "agentic-hooks-config",
            "agentic-hooks-orchestration",
        ] {
            let deps = normal_closure(&meta, krate);
            for b in banned {
                assert!(
                    !deps.contains(b),
                    "{krate} must not depend on {b} (found in its dependency tree)"
                );
            }
        }
        let core = normal_closure(&meta, "agentic-hooks-core");
        assert!(
            !core.iter().any(|d| d.starts_with("agentic-hooks")),
            "hooks-core depends on a workspace crate: {core:?}"
        );
        for (krate, forbidden) in [
            (
                "agentic-hooks-config",
                ["agentic-hooks-exec", "agentic-hooks-orchestration"],
            ),
            (
                "agentic-hooks-exec",
                ["agentic-hooks-config", "agentic-hooks-orchestration"],
            ),
            (
                "agentic-hooks-orchestration",
                ["agentic-hooks-config", "agentic-hooks-exec"],
            ),
        ] {
            let deps = normal_closure(&meta, krate);
            for f in forbidden {
                assert!(
                    !deps.contains(f),
                    "{krate} must not depend on its sibling {f}"
                );
            }
        }
    }

    fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            if path.is_dir() {
                if path
                    .file_name()
                    .is_some_and(|n| n == "target" || n == "node_modules")
                {
                    continue;
                }
                rust_files(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }

    /// Only hooks-exec starts processes: no process API in the other library crates.
    #[test]
    fn tidy_no_process_spawning_outside_exec() {
        let root = workspace_root();
        let mut offenders = Vec::new();
        for krate in [
            "hooks-core",
            "hooks-config",
            "hooks-orchestration",
            "hooks",
            "hooks-server",
        ] {
            let mut files = Vec::new();
            rust_files(&root.join("crates").join(krate).join("src"), &mut files);
            for file in files {
                let text = std::fs::read_to_string(&file).unwrap();
                for needle in [
                    "std::process",
                    "tokio::process",
                    "Command::new",
                    "libc::fork",
                    "posix_spawn",
                ] {
                    if text.contains(needle) {
                        offenders.push(format!("{}: {needle}", file.display()));
                    }
                }
            }
        }
        assert!(
            offenders.is_empty(),
            "process APIs outside hooks-exec:\n{}",
            offenders.join("\n")
        );
    }

    /// Whether a hook blocks an event has one owner, `hooks_core::Blocking`: outside the
    /// catalog (which states the fact), the answer readers (which read exit code 2 as a
    /// block where the event can block) and the owner, no library decides it from
    /// `can_block()`.
    #[test]
    fn tidy_one_owner_of_blocking() {
        let root = workspace_root();
        let allowed = [
            "crates/hooks-core/src/event.rs",
            "crates/hooks-core/src/aggregate.rs",
            "crates/hooks-core/src/output.rs",
            "crates/hooks-core/src/profile/claude/answers.rs",
            // `hooks events` prints the catalog's column.
            "crates/hooks-cli/src/cmd/events.rs",
        ];
        let mut offenders = Vec::new();
        for krate in [
            "hooks-core",
            "hooks-config",
            "hooks-exec",
            "hooks-orchestration",
            "hooks",
            "hooks-server",
            "hooks-cli",
        ] {
            let mut files = Vec::new();
            rust_files(&root.join("crates").join(krate).join("src"), &mut files);
            for file in files {
                let rel = file
                    .strip_prefix(&root)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                let text = std::fs::read_to_string(&file).unwrap();
                if text.contains("can_block()") && !allowed.contains(&rel.as_str()) {
                    offenders.push(rel);
                }
            }
        }
        assert!(
            offenders.is_empty(),
            "decides whether a hook blocks outside hooks_core::Blocking:\n{}",
            offenders.join("\n")
        );
    }

    /// Architecture invariant: a `match` on a [`Dialect`] names every dialect, never a
    /// wildcard (`_`, or a bare binding) beside `Dialect::` arms, so that a new dialect
    /// makes the compiler list every place that must say what it does. An arm's
    /// indentation tells which `match` it belongs to (the workspace is `cargo fmt`ed).
    #[test]
    fn tidy_no_wildcard_arms_on_dialect() {
        let root = workspace_root();
        let mut files = Vec::new();
        rust_files(&root.join("crates"), &mut files);
        rust_files(&root.join("xtask"), &mut files);
        let mut offenders = Vec::new();
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            let lines: Vec<&str> = text.lines().collect();
            for (i, line) in lines.iter().enumerate() {
                let body = line.trim_start();
                let indent = line.len() - body.len();
                let Some((pattern, _)) = body.split_once(" =>") else {
                    continue;
                };
                let catch_all =
                    pattern == "_" || pattern.chars().all(|c| c.is_ascii_lowercase() || c == '_');
                if !catch_all {
                    continue;
                }
                // The sibling arms: lines above at the same indentation, up to the `match`.
                let dialect_arm = lines[..i]
                    .iter()
                    .rev()
                    .take_while(|l| {
                        let b = l.trim_start();
                        b.is_empty() || l.len() - b.len() >= indent
                    })
                    .filter(|l| l.len() - l.trim_start().len() == indent)
                    .any(|l| {
                        let b = l.trim_start();
                        b.starts_with("Dialect::") || b.starts_with("(Dialect::")
                    });
                if dialect_arm {
                    let rel = file.strip_prefix(&root).unwrap().display().to_string();
                    offenders.push(format!("{rel}:{}: {body}", i + 1));
                }
            }
        }
        assert!(
            offenders.is_empty(),
            "wildcard arms in a match on Dialect (name every dialect, or read its Profile):\n{}",
            offenders.join("\n")
        );
    }

    /// Every Rust file starts with a `//!` line saying what it holds.
    #[test]
    fn tidy_file_headers() {
        let root = workspace_root();
        let mut files = Vec::new();
        rust_files(&root.join("crates"), &mut files);
        rust_files(&root.join("xtask"), &mut files);
        rust_files(&root.join("examples"), &mut files);
        let missing: Vec<String> = files
            .iter()
            .filter(|f| !std::fs::read_to_string(f).unwrap().starts_with("//!"))
            .map(|f| f.display().to_string())
            .collect();
        assert!(
            missing.is_empty(),
            "files without a leading `//!` line:\n{}",
            missing.join("\n")
        );
    }

    /// Every crate takes the workspace's metadata and lints.
    #[test]
    fn tidy_manifests_use_workspace_lints() {
        let meta = metadata();
        for package in meta["packages"].as_array().unwrap() {
            let manifest = package["manifest_path"].as_str().unwrap();
            if !manifest.starts_with(workspace_root().to_str().unwrap()) {
                continue;
            }
            let text = std::fs::read_to_string(manifest).unwrap();
            // The one exception: the Linux client, which has no standard library and so
            // must write its entry point, allocator and few system calls itself. It keeps
            // the workspace's lints but `unsafe_code` at `deny` (not `forbid`), so that
            // each unsafe item opts out where it says why.
            if package["name"] == "agentic-hooks-bridge-lite" {
                assert!(
                    text.contains("[lints.rust]\n") && text.contains("unsafe_code = \"deny\""),
                    "{manifest} must keep its own lints with `unsafe_code = \"deny\"`"
                );
            } else {
                assert!(
                    text.contains("[lints]\nworkspace = true"),
                    "{manifest} must say `[lints] workspace = true`"
                );
            }
            assert!(
                text.contains("edition.workspace = true"),
                "{manifest} must take the workspace edition"
            );
        }
    }

    /// The dialects' variant names, as `Dialect::` and the CLI's `Agent::` write them.
    const VARIANTS: [&str; 9] = [
        "Native", "Claude", "Echo", "Fabro", "Autohand", "Gemini", "Codex", "Cursor", "Cline",
    ];

    /// Whether `rel` (a path from the workspace root) is a dialect's own: under a dialect
    /// folder (`profile/` in core, `dialects/` in config, `bridge/agents/` in the facade),
    /// in a folder or file named after the dialect (`profile/claude/answers.rs`,
    /// `agents/cursor.rs`).
    fn in_dialect_folder(rel: &str) -> bool {
        let parts: Vec<&str> = rel.split('/').collect();
        parts.windows(2).any(|w| {
            let own = w[1].strip_suffix(".rs").unwrap_or(w[1]);
            matches!(w[0], "profile" | "dialects" | "agents")
                && VARIANTS.iter().any(|v| v.to_lowercase() == own)
        })
    }

    /// The dialect variants a line names (`Dialect::Cursor`), each once per mention, except
    /// a registry's: a line that is only a variant (`Dialect::Claude,` in `Dialect::ALL`)
    /// or a variant mapped to its own module (`Dialect::Claude => &claude::PROFILE,`).
    fn variant_mentions(line: &str) -> usize {
        let body = line.trim();
        let mut count = 0;
        for prefix in ["Dialect::", "Agent::"] {
            let mut rest = line;
            while let Some(at) = rest.find(prefix) {
                let before = rest[..at].chars().next_back();
                let tail = &rest[at + prefix.len()..];
                let name: String = tail
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if before.is_none_or(|c| !(c.is_alphanumeric() || c == '_'))
                    && VARIANTS.contains(&name.as_str())
                {
                    let own = name.to_lowercase();
                    let registry = body == format!("{prefix}{name},")
                        || body
                            .strip_prefix(&format!("{prefix}{name} => "))
                            .is_some_and(|to| {
                                to.trim_start_matches(['&', '(', ' '])
                                    .starts_with(&format!("{own}::"))
                            });
                    if !registry {
                        count += 1;
                    }
                }
                rest = tail;
            }
        }
        count
    }

    /// Architecture invariant: a dialect's knowledge lives in its own folder, and the rest
    /// of the workspace asks its row (`Dialect::profile`, config's and the bridge's
    /// registries) instead of naming it. Outside the dialect folders and the registries'
    /// own lines, the sources name a dialect variant at most 40 times in at most 6 files.
    /// Tests, benches and examples, which build hooks of a given dialect, are not counted,
    /// nor this file.
    #[test]
    fn tidy_dialects_are_named_in_their_folders() {
        let root = workspace_root();
        let mut files = Vec::new();
        rust_files(&root.join("crates"), &mut files);
        rust_files(&root.join("xtask"), &mut files);
        let mut by_file: Vec<(usize, String)> = Vec::new();
        for file in files {
            let rel = file.strip_prefix(&root).unwrap().display().to_string();
            let test_like = ["/tests/", "/benches/", "/examples/"]
                .iter()
                .any(|d| rel.contains(d));
            if test_like || rel == "xtask/src/tidy.rs" || in_dialect_folder(&rel) {
                continue;
            }
            let text = std::fs::read_to_string(&file).unwrap();
            let n: usize = text.lines().map(variant_mentions).sum();
            if n > 0 {
                by_file.push((n, rel));
            }
        }
        by_file.sort_by(|a, b| b.cmp(a));
        let total: usize = by_file.iter().map(|(n, _)| n).sum();
        let listing: Vec<String> = by_file.iter().map(|(n, f)| format!("{n:4} {f}")).collect();
        assert!(
            total <= 40 && by_file.len() <= 6,
            "dialect variants named outside the dialect folders: {total} times in {} files \
             (at most 40 in 6): move the knowledge into the dialect's folder and ask its row\n{}",
            by_file.len(),
            listing.join("\n")
        );
    }

    #[test]
    fn registry_lines_are_not_mentions() {
        assert_eq!(variant_mentions("            Dialect::Claude,"), 0);
        assert_eq!(
            variant_mentions("    Dialect::Cline => &cline::PROFILE,"),
            0
        );
        assert_eq!(
            variant_mentions("    Dialect::Cline => &claude::PROFILE,"),
            1
        );
        assert_eq!(
            variant_mentions("if d == Dialect::Fabro || d == Dialect::Echo {"),
            2
        );
        assert_eq!(variant_mentions("MyDialect::Claude Dialect::Claudex"), 0);
        assert!(in_dialect_folder(
            "crates/hooks-core/src/profile/claude/mod.rs"
        ));
        assert!(!in_dialect_folder("crates/hooks-core/src/profile/mod.rs"));
        assert!(in_dialect_folder(
            "crates/hooks/src/bridge/agents/cursor.rs"
        ));
        assert!(!in_dialect_folder("crates/hooks/src/bridge/agents/mod.rs"));
        assert!(!in_dialect_folder(
            "crates/hooks-config/src/dialects/handler.rs"
        ));
    }

    /// Architecture invariant: inside a crate, files import each other in layers; no
    /// circle of more than 6 files (a module and its few helpers may lean on each other).
    #[test]
    fn tidy_no_large_import_circles() {
        let root = workspace_root();
        let mut offenders = Vec::new();
        let mut srcs: Vec<PathBuf> = std::fs::read_dir(root.join("crates"))
            .unwrap()
            .flatten()
            .map(|e| e.path().join("src"))
            .collect();
        srcs.push(root.join("xtask/src"));
        srcs.sort();
        for src in srcs {
            let krate = crate::imports::Crate::read(&src);
            for circle in crate::imports::circles(&krate.arrows()) {
                if circle.len() > 6 {
                    let files: Vec<String> = circle
                        .iter()
                        .map(|f| f.strip_prefix(&root).unwrap().display().to_string())
                        .collect();
                    offenders.push(format!("{} files: {}", files.len(), files.join(", ")));
                }
            }
        }
        assert!(
            offenders.is_empty(),
            "import circles of more than 6 files (order the modules in layers):\n{}",
            offenders.join("\n")
        );
    }
}

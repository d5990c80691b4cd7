//! The real peers the test suite starts, installed before the tests run: the npm packages
//! of `package.json` (an MCP server, a JSON-RPC client, the coding agents the end-to-end
//! tests drive), bubblewrap (the command sandbox), jq (which the Cursor and Cline hook
//! scripts of the fixtures and docs read their JSON with, as those agents' documented
//! examples do) and maturin (which builds the wheel of `cargo xtask dist`, whose test
//! installs it). `cargo xtask ci` calls [`ensure`],
//! so the README's test command works on a fresh machine; `.ci/run` calls the same
//! command, and `cargo xtask peers` only this step.

use std::path::Path;
use std::process::Command;

use anyhow::{Context, Result, bail};

/// Installs what is missing; does nothing when everything is in place.
pub(crate) fn ensure(root: &Path) -> Result<()> {
    npm_packages(root)?;
    debian_package("bwrap", "bubblewrap")?;
    debian_package("jq", "jq")?;
    maturin()
}

/// maturin, pinned ([`crate::dist::MATURIN`]), installed with pip for the Python that
/// `cargo xtask dist` runs it with when that Python has another version or none.
fn maturin() -> Result<()> {
    let python = crate::dist::python();
    let wanted = format!("maturin {}", crate::dist::MATURIN);
    let have = Command::new(&python)
        .args(["-m", "maturin", "--version"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned());
    if have.as_deref() == Some(wanted.as_str()) {
        return Ok(());
    }
    let pin = format!("maturin=={}", crate::dist::MATURIN);
    eprintln!("$ {python} -m pip install {pin}");
    // A distribution's own Python refuses pip's installs (PEP 668) unless told: maturin is
    // a build tool with no dependencies to conflict with the system's packages.
    let status = Command::new(&python)
        .args(["-m", "pip", "install", "--disable-pip-version-check", &pin])
        .env("PIP_BREAK_SYSTEM_PACKAGES", "1")
        .status()
        .with_context(|| format!("Python 3 with pip is required (`{python}`): the wheel of `cargo xtask dist` is built by maturin"))?;
    if !status.success() {
        bail!("`{python} -m pip install {pin}` failed ({status})");
    }
    Ok(())
}

/// Where a successful install leaves a copy of the `package-lock.json` it installed.
const INSTALLED_LOCK: &str = "node_modules/.hooks-installed-lock.json";

/// `npm install` of exactly the versions `package-lock.json` pins (from npm's cache where it
/// holds a package: `--prefer-offline`, as the agents' packages are a few hundred MB each)
/// unless `node_modules` was installed by this function from the current
/// `package-lock.json`: the copy of the lock file it leaves after a successful install must
/// equal the lock file byte for byte. Comparing contents, not times, also re-installs a
/// `node_modules` that a cache restored, a branch switch left behind, or an interrupted
/// install half wrote.
///
/// Not `npm ci`: the agents' packages name optional platform packages for other systems
/// (Droid's, OpenCode's, a Qwen Code dependency's) that the package registry reachable
/// here does not hold, so the lock file cannot list them, and `npm ci` refuses a lock file
/// that lacks an optional dependency; `npm install` skips a missing optional package, as
/// npm does for any, and with the lock file present installs the versions it pins.
fn npm_packages(root: &Path) -> Result<()> {
    let lock = root.join("package-lock.json");
    let Ok(wanted) = std::fs::read(&lock) else {
        return Ok(());
    };
    if installed_from(root, &wanted) {
        return Ok(());
    }
    eprintln!("$ npm install --prefer-offline --no-audit --no-fund");
    let status = Command::new("npm")
        .args(["install", "--prefer-offline", "--no-audit", "--no-fund"])
        .current_dir(root)
        .status()
        .context(
            "npm is required: the tests start real peers under node (install Node.js and npm)",
        )?;
    if !status.success() {
        bail!("`npm install` failed ({status})");
    }
    let installed = root.join(INSTALLED_LOCK);
    std::fs::write(&installed, &wanted)
        .with_context(|| format!("writing {}", installed.display()))?;
    Ok(())
}

/// Whether `node_modules` under `root` was installed from the lock file `lock`.
fn installed_from(root: &Path, lock: &[u8]) -> bool {
    std::fs::read(root.join(INSTALLED_LOCK)).is_ok_and(|have| have == lock)
}

/// The Debian package `package`, installed with apt when its program `program` is missing
/// (as root, or through sudo).
fn debian_package(program: &str, package: &str) -> Result<()> {
    if Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
    {
        return Ok(());
    }
    let root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.starts_with(b"0"));
    let sudo: &[&str] = if root { &[] } else { &["sudo"] };
    for args in [
        &["apt-get", "update"][..],
        &["apt-get", "install", "-y", package][..],
    ] {
        let argv: Vec<&str> = sudo.iter().chain(args).copied().collect();
        eprintln!("$ {}", argv.join(" "));
        let status = Command::new(argv[0]).args(&argv[1..]).status().with_context(|| {
            format!(
                "installing {package} needs apt-get (Debian or Ubuntu); install it by hand otherwise"
            )
        })?;
        if !status.success() {
            bail!("`{}` failed ({status})", argv.join(" "));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_modules_is_fresh_only_when_installed_from_the_same_lock_file() {
        let root = std::env::temp_dir().join(format!("xtask-peers-{}", std::process::id()));
        std::fs::create_dir_all(root.join("node_modules")).unwrap();
        let lock =
            br#"{"lockfileVersion": 3, "packages": {"node_modules/a": {"version": "2.0.0"}}}"#;
        // npm's own hidden lock file, newer than anything, says nothing.
        std::fs::write(root.join("node_modules/.package-lock.json"), b"{}").unwrap();
        assert!(!installed_from(&root, lock));
        std::fs::write(
            root.join(INSTALLED_LOCK),
            br#"{"lockfileVersion": 3, "packages": {"node_modules/a": {"version": "1.0.0"}}}"#,
        )
        .unwrap();
        assert!(
            !installed_from(&root, lock),
            "an install from an older lock file is stale"
        );
        std::fs::write(root.join(INSTALLED_LOCK), lock).unwrap();
        assert!(installed_from(&root, lock));
        std::fs::remove_dir_all(&root).unwrap();
    }
}

//! `cargo xtask dist [--target TRIPLE] [--out DIR]`: the shipped `hooks` binary, its client
//! `hooks-bridge`, and the packages that carry them to people without a Rust toolchain.
//!
//! 1. **The binary**: `cargo build --profile dist -p agentic-hooks-cli --bin hooks` for the
//!    host, or for `--target TRIPLE` (one of [`PLATFORMS`]). The `dist` profile (root
//!    Cargo.toml) is the release profile without debug info, linked whole (fat LTO, one
//!    codegen unit) and stripped. A binary over [`MAX_BINARY_BYTES`] fails the command. A
//!    copy named `hooks-VERSION-TRIPLE[.exe]` goes into the output folder.
//! 2. **The client** ([`build_client`]), the hook command `hooks install` writes when it
//!    sits beside `hooks` (`docs/decisions.md`, "The hook command is a small client"): on
//!    Linux `hooks-bridge-lite`, which links no C library (no loader, no relocations, no C
//!    library start-up at every tool call: "The Linux client links no C library"),
//!    elsewhere `cargo rustc --profile dist -p agentic-hooks-cli --bin hooks-bridge`. A
//!    client over [`MAX_CLIENT_BYTES`] fails the command. A copy named
//!    `hooks-bridge-VERSION-TRIPLE[.exe]` goes into the output folder, before the wheel's
//!    build replaces the one in the target directory.
//! 3. **The wheel**: `maturin build --profile dist` of `packaging/pypi/pyproject.toml`
//!    (`bindings = "bin"`), which reuses the build of step 1, into `pypi/`. maturin packs
//!    every binary of the crate, each built by its own `cargo rustc --bin`: the wheel's
//!    `hooks-bridge` is maturin's build, linked dynamically against the C library, as the
//!    wheel's tags say it may be, except on Linux, where `packaging/pypi/swap_client.py`
//!    puts the client of step 2 in its place (and its hash and size in the wheel's
//!    `RECORD`); it is installed beside `hooks`.
//! 4. **The npm packages**, packed with `npm pack` into `npm/`: the platform package
//!    (`@agentic-hooks/linux-x64` and so on: the binary and the client of step 2 in `bin/`,
//!    with the `os`, `cpu` and,
//!    on Linux, `libc` fields that make npm install it only where it runs) and the main
//!    package `agentic-hooks`, whose `bin` is the launcher `packaging/npm/hooks.js` and
//!    whose `optionalDependencies` name every platform package. Neither has an install
//!    script; nothing is downloaded at install time.
//! 5. **`SHA256SUMS`**: the SHA-256 of every file above, as `sha256sum` writes them.
//!
//! Every package's version is the workspace version. The output folder is `--out DIR`, by
//! default `packages/` under the target directory (cargo's `target/dist/` is the `dist`
//! profile's own build folder); its last line names it.
//!
//! The release workflow (`.github/workflows/release.yml`) runs this command on each
//! platform of [`PLATFORMS`]; the test below runs it for the host and installs what it
//! wrote, offline.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::workspace_root;

/// The largest shipped binary this command accepts (15 MB).
pub(crate) const MAX_BINARY_BYTES: u64 = 15_000_000;

/// The largest shipped client this command accepts (5 MB): a socket and the frames (with
/// the standard library outside Linux); a client that grows past it has taken in the
/// engine.
pub(crate) const MAX_CLIENT_BYTES: u64 = 5_000_000;

/// The client's name, the binary `hooks install` writes into agents' settings when it sits
/// beside `hooks`.
const CLIENT: &str = "hooks-bridge";

/// The npm scope of the platform packages.
const SCOPE: &str = "@agentic-hooks";

/// The name of the main npm package and of the PyPI package.
const PACKAGE: &str = "agentic-hooks";

/// A platform the packages are built for.
#[derive(Debug)]
pub(crate) struct Platform {
    /// Rust's target triple.
    pub(crate) triple: &'static str,
    /// The npm package's name after the scope: `linux-x64`, `linux-x64-musl`, ...
    pub(crate) npm: &'static str,
    /// Node's `process.platform`, npm's `os`.
    pub(crate) os: &'static str,
    /// Node's `process.arch`, npm's `cpu`.
    pub(crate) cpu: &'static str,
    /// npm's `libc` (Linux only).
    pub(crate) libc: Option<&'static str>,
}

impl Platform {
    /// The binary's file name on this platform.
    pub(crate) fn exe(&self) -> &'static str {
        if self.os == "win32" {
            "hooks.exe"
        } else {
            "hooks"
        }
    }

    /// The client's file name on this platform.
    pub(crate) fn client_exe(&self) -> String {
        format!("{CLIENT}{}", self.suffix())
    }

    /// The file-name suffix of executables on this platform (`.exe` on Windows).
    fn suffix(&self) -> &'static str {
        if self.os == "win32" { ".exe" } else { "" }
    }

    /// The platform package's full name.
    pub(crate) fn package(&self) -> String {
        format!("{SCOPE}/{}", self.npm)
    }
}

/// Every platform of a release, in the order of the release workflow's matrix.
pub(crate) const PLATFORMS: &[Platform] = &[
    Platform {
        triple: "x86_64-unknown-linux-gnu",
        npm: "linux-x64",
        os: "linux",
        cpu: "x64",
        libc: Some("glibc"),
    },
    Platform {
        triple: "aarch64-unknown-linux-gnu",
        npm: "linux-arm64",
        os: "linux",
        cpu: "arm64",
        libc: Some("glibc"),
    },
    Platform {
        triple: "x86_64-unknown-linux-musl",
        npm: "linux-x64-musl",
        os: "linux",
        cpu: "x64",
        libc: Some("musl"),
    },
    Platform {
        triple: "aarch64-unknown-linux-musl",
        npm: "linux-arm64-musl",
        os: "linux",
        cpu: "arm64",
        libc: Some("musl"),
    },
    Platform {
        triple: "x86_64-apple-darwin",
        npm: "darwin-x64",
        os: "darwin",
        cpu: "x64",
        libc: None,
    },
    Platform {
        triple: "aarch64-apple-darwin",
        npm: "darwin-arm64",
        os: "darwin",
        cpu: "arm64",
        libc: None,
    },
    Platform {
        triple: "x86_64-pc-windows-msvc",
        npm: "win32-x64",
        os: "win32",
        cpu: "x64",
        libc: None,
    },
];

/// The options of `cargo xtask dist`.
#[derive(Clone, Debug, Default)]
pub(crate) struct Options {
    /// The target triple; the host's when absent.
    pub(crate) target: Option<String>,
    /// The output folder; `packages/` under the target directory when absent.
    pub(crate) out: Option<PathBuf>,
}

impl Options {
    /// Parses the arguments after `dist`.
    pub(crate) fn parse(args: &[String]) -> Result<Options> {
        let mut options = Options::default();
        let mut args = args.iter();
        while let Some(arg) = args.next() {
            let (name, inline) = match arg.split_once('=') {
                Some((name, value)) => (name, Some(value.to_owned())),
                None => (arg.as_str(), None),
            };
            let mut value = || {
                inline
                    .clone()
                    .or_else(|| args.next().cloned())
                    .with_context(|| format!("{name} takes a value"))
            };
            match name {
                "--target" => options.target = Some(value()?),
                "--out" => options.out = Some(PathBuf::from(value()?)),
                other => bail!(
                    "unknown option `{other}`; usage: cargo xtask dist [--target TRIPLE] [--out DIR]"
                ),
            }
        }
        Ok(options)
    }
}

/// What `cargo xtask dist` wrote.
#[derive(Debug)]
pub(crate) struct Dist {
    /// The output folder.
    pub(crate) out: PathBuf,
    /// The workspace version, every package's.
    pub(crate) version: String,
    /// The platform built for.
    pub(crate) platform: &'static Platform,
    /// Its size in bytes.
    pub(crate) binary_bytes: u64,
    /// The client's size in bytes.
    pub(crate) client_bytes: u64,
    /// The main npm package's tarball.
    pub(crate) npm_main: PathBuf,
    /// The platform npm package's tarball.
    pub(crate) npm_platform: PathBuf,
    /// The wheel.
    pub(crate) wheel: PathBuf,
}

/// Builds the binary and writes the packages (see the module docs).
pub(crate) fn run(options: &Options) -> Result<Dist> {
    let root = workspace_root();
    let meta = crate::release::cargo_metadata(&root)?;
    let version = cli_version(&meta)?;
    let target_dir = PathBuf::from(
        meta["target_directory"]
            .as_str()
            .context("cargo metadata names no target directory")?,
    );
    let triple = match &options.target {
        Some(t) => t.clone(),
        None => host_triple()?,
    };
    let platform = PLATFORMS
        .iter()
        .find(|p| p.triple == triple)
        .with_context(|| {
            format!(
                "no package is made for `{triple}`; the platforms: {}",
                PLATFORMS
                    .iter()
                    .map(|p| p.triple)
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })?;
    let out = match &options.out {
        Some(out) => std::path::absolute(out).unwrap_or_else(|_| out.clone()),
        None => target_dir.join("packages"),
    };

    step(&format!("the `dist` build of `hooks` for {triple}"));
    let started = Instant::now();
    dist_build("hooks", options.target.as_deref())?;
    eprintln!("  built in {:.0} s", started.elapsed().as_secs_f64());
    let mut built = target_dir.clone();
    if let Some(target) = &options.target {
        built.push(target);
    }
    let binary = built.join("dist").join(platform.exe());
    let binary_bytes = size_within(&binary, "binary", MAX_BINARY_BYTES)?;

    step(&format!("the `dist` build of `{CLIENT}` for {triple}"));
    let client = build_client("dist", platform, options.target.as_deref())?;
    let client_bytes = size_within(&client, "client", MAX_CLIENT_BYTES)?;

    for old in ["npm", "pypi", "SHA256SUMS"] {
        let path = out.join(old);
        if path.is_dir() {
            std::fs::remove_dir_all(&path)
        } else if path.exists() {
            std::fs::remove_file(&path)
        } else {
            Ok(())
        }
        .with_context(|| format!("removing the old {}", path.display()))?;
    }
    std::fs::create_dir_all(&out).with_context(|| format!("creating {}", out.display()))?;
    let suffix = platform.suffix();
    let copy = out.join(format!("hooks-{version}-{triple}{suffix}"));
    copy_executable(&binary, &copy)?;
    // The wheel's build writes its own client where this one is: the copy is the shipped one.
    let client_copy = out.join(format!("{CLIENT}-{version}-{triple}{suffix}"));
    copy_executable(&client, &client_copy)?;

    step("the wheel (maturin)");
    let wheel = wheel(&root, options.target.as_deref(), &out.join("pypi"))?;
    if platform.os == "linux" {
        // maturin packs its own build of the portable client; the Linux one goes in its
        // place, as in the npm package.
        swap_wheel_client(&root, &wheel, &client_copy)?;
    }

    step("the npm packages");
    let npm_dir = out.join("npm");
    let stage = npm_dir.join("stage");
    let platform_dir = stage.join(platform.npm);
    stage_platform_package(platform, &version, &binary, &client_copy, &platform_dir)?;
    let main_dir = stage.join(PACKAGE);
    stage_main_package(&root, &version, &main_dir)?;
    let npm_platform = npm_pack(&platform_dir, &npm_dir)?;
    let npm_main = npm_pack(&main_dir, &npm_dir)?;
    std::fs::remove_dir_all(&stage).with_context(|| format!("removing {}", stage.display()))?;

    step("SHA256SUMS");
    let files = [&copy, &client_copy, &wheel, &npm_platform, &npm_main];
    let mut sums = String::new();
    for file in files {
        let bytes = std::fs::read(file).with_context(|| format!("reading {}", file.display()))?;
        let name = file.strip_prefix(&out).unwrap_or(file).to_string_lossy();
        let _ = writeln!(
            sums,
            "{}  {}",
            hex(&Sha256::digest(&bytes)),
            name.replace('\\', "/")
        );
    }
    std::fs::write(out.join("SHA256SUMS"), &sums).context("writing SHA256SUMS")?;
    eprint!("{sums}");

    Ok(Dist {
        out,
        version,
        platform,
        binary_bytes,
        client_bytes,
        npm_main,
        npm_platform,
        wheel,
    })
}

fn step(what: &str) {
    eprintln!("dist: {what}");
}

/// The size of the built `file` (the `what`), which must be at most `max` bytes.
fn size_within(file: &Path, what: &str, max: u64) -> Result<u64> {
    let bytes = std::fs::metadata(file)
        .with_context(|| format!("the build left no {}", file.display()))?
        .len();
    eprintln!(
        "  {}: {bytes} bytes ({:.1} MiB)",
        file.display(),
        bytes as f64 / 1024.0 / 1024.0
    );
    if bytes > max {
        bail!("the shipped {what} is {bytes} bytes, over the {max} the packages allow");
    }
    Ok(bytes)
}

/// The version of the CLI crate, which must be the workspace's (the release checks hold
/// every member to it).
fn cli_version(meta: &Value) -> Result<String> {
    meta["packages"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|p| p["name"] == "agentic-hooks-cli")
        .and_then(|p| p["version"].as_str())
        .map(str::to_owned)
        .context("cargo metadata has no agentic-hooks-cli")
}

/// The host's target triple, as rustc names it.
fn host_triple() -> Result<String> {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
    let out = Command::new(&rustc)
        .arg("-vV")
        .output()
        .with_context(|| format!("could not start `{rustc}`"))?;
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: "))
        .map(|h| h.trim().to_owned())
        .context("`rustc -vV` names no host")
}

/// Copies `from` to `to`, executable.
fn copy_executable(from: &Path, to: &Path) -> Result<()> {
    std::fs::copy(from, to)
        .with_context(|| format!("copying {} to {}", from.display(), to.display()))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(to, std::fs::Permissions::from_mode(0o755))
            .with_context(|| format!("making {} executable", to.display()))?;
    }
    Ok(())
}

/// The Python that runs maturin: `$PYTHON`, else `python3` (`python` on Windows).
pub(crate) fn python() -> String {
    std::env::var("PYTHON")
        .unwrap_or_else(|_| if cfg!(windows) { "python" } else { "python3" }.to_owned())
}

/// npm's program name (a `.cmd` script on Windows, which `Command` does not look up alone).
pub(crate) fn npm() -> &'static str {
    if cfg!(windows) { "npm.cmd" } else { "npm" }
}

/// `maturin build --profile dist` of `packaging/pypi`, the wheel written into `dir`.
/// Puts `client` into `wheel` in place of maturin's build of the client, with the
/// wheel's RECORD updated (`packaging/pypi/swap_client.py`).
fn swap_wheel_client(root: &Path, wheel: &Path, client: &Path) -> Result<()> {
    let status = Command::new(python())
        .arg(root.join("packaging/pypi/swap_client.py"))
        .arg(wheel)
        .arg(client)
        .status()
        .context("could not start Python to put the client into the wheel")?;
    if !status.success() {
        bail!(
            "putting the client into {} failed ({status})",
            wheel.display()
        );
    }
    Ok(())
}

fn wheel(root: &Path, target: Option<&str>, dir: &Path) -> Result<PathBuf> {
    let python = python();
    let mut command = Command::new(&python);
    command
        .args(["-m", "maturin", "build", "--profile", "dist", "--locked"])
        .arg("--out")
        .arg(dir)
        .current_dir(root.join("packaging/pypi"));
    if let Some(target) = target {
        command.args(["--target", target]);
    }
    eprintln!(
        "$ {python} -m maturin build --profile dist --locked --out {}",
        dir.display()
    );
    let status = command.status().with_context(|| {
        format!(
            "could not start `{python}`; the wheel needs Python 3 and maturin (`cargo xtask peers`)"
        )
    })?;
    if !status.success() {
        bail!(
            "`maturin build` failed ({status}); is maturin installed (`{python} -m pip install maturin=={MATURIN}`, or `cargo xtask peers`)?"
        );
    }
    let wheels: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("maturin wrote no {}", dir.display()))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "whl"))
        .collect();
    match wheels.as_slice() {
        [one] => Ok(one.clone()),
        other => bail!(
            "maturin wrote {} wheels into {}, not one",
            other.len(),
            dir.display()
        ),
    }
}

/// The maturin version the peers step installs and the wheel is built with.
pub(crate) const MATURIN: &str = "1.16.0";

/// The fields every npm package of the project shares.
fn common_fields(version: &str, description: &str) -> serde_json::Map<String, Value> {
    let mut fields = serde_json::Map::new();
    fields.insert("version".into(), json!(version));
    fields.insert("description".into(), json!(description));
    fields.insert("license".into(), json!("MIT OR Apache-2.0"));
    fields.insert(
        "keywords".into(),
        json!(["hooks", "claude-code", "codex", "gemini-cli", "agents"]),
    );
    fields
}

/// Writes `value` as `dir/package.json`, and a README.
fn write_package(dir: &Path, value: &Value, readme: &str) -> Result<()> {
    std::fs::create_dir_all(dir.join("bin"))
        .with_context(|| format!("creating {}", dir.display()))?;
    let text = serde_json::to_string_pretty(value)? + "\n";
    std::fs::write(dir.join("package.json"), text).context("writing package.json")?;
    std::fs::write(dir.join("README.md"), readme).context("writing README.md")?;
    Ok(())
}

/// The platform package in `dir`: `bin/hooks[.exe]`, `bin/hooks-bridge[.exe]` beside it (the
/// client, `client`), and a package.json that npm installs only on `platform`.
fn stage_platform_package(
    platform: &Platform,
    version: &str,
    binary: &Path,
    client: &Path,
    dir: &Path,
) -> Result<()> {
    let mut fields = serde_json::Map::new();
    fields.insert("name".into(), json!(platform.package()));
    fields.extend(common_fields(
        version,
        &format!(
            "The `hooks` binary of agentic-hooks and its client `hooks-bridge` for {} ({}); installed by the `agentic-hooks` package",
            platform.npm, platform.triple
        ),
    ));
    fields.insert("os".into(), json!([platform.os]));
    fields.insert("cpu".into(), json!([platform.cpu]));
    if let Some(libc) = platform.libc {
        fields.insert("libc".into(), json!([libc]));
    }
    fields.insert(
        "files".into(),
        json!([
            format!("bin/{}", platform.exe()),
            format!("bin/{}", platform.client_exe())
        ]),
    );
    fields.insert("preferUnplugged".into(), json!(true));
    let readme = format!(
        "# {}\n\nThe `hooks` binary of [agentic-hooks](https://www.npmjs.com/package/{PACKAGE}) and its client `hooks-bridge` for {}.\nInstall `{PACKAGE}`, which depends on this package where it runs.\n",
        platform.package(),
        platform.triple
    );
    write_package(dir, &Value::Object(fields), &readme)?;
    copy_executable(binary, &dir.join("bin").join(platform.exe()))?;
    copy_executable(client, &dir.join("bin").join(platform.client_exe()))
}

/// The launcher's table of platform packages: `{"linux-x64": [{"name": ..., "libc": ...}]}`.
fn launcher_table() -> Value {
    let mut table = serde_json::Map::new();
    for p in PLATFORMS {
        let key = format!("{}-{}", p.os, p.cpu);
        let entry = table.entry(key).or_insert_with(|| json!([]));
        if let Some(list) = entry.as_array_mut() {
            list.push(json!({"name": p.package(), "libc": p.libc}));
        }
    }
    Value::Object(table)
}

/// The launcher marker line that [`launcher_table`] replaces.
const LAUNCHER_TABLE: &str = "const PACKAGES = {};";

/// The main package in `dir`: the launcher, and every platform package as an optional
/// dependency.
fn stage_main_package(root: &Path, version: &str, dir: &Path) -> Result<()> {
    let template = std::fs::read_to_string(root.join("packaging/npm/hooks.js"))
        .context("reading packaging/npm/hooks.js")?;
    if !template.contains(LAUNCHER_TABLE) {
        bail!("packaging/npm/hooks.js has no `{LAUNCHER_TABLE}` line to fill");
    }
    let launcher = template.replace(
        LAUNCHER_TABLE,
        &format!(
            "const PACKAGES = {};",
            serde_json::to_string(&launcher_table())?
        ),
    );
    let mut fields = serde_json::Map::new();
    fields.insert("name".into(), json!(PACKAGE));
    fields.extend(common_fields(
        version,
        "A lifecycle-hooks engine for AI agents: the `hooks` command line (a native binary per platform)",
    ));
    fields.insert("bin".into(), json!({"hooks": "bin/hooks.js"}));
    fields.insert("files".into(), json!(["bin/hooks.js"]));
    fields.insert("engines".into(), json!({"node": ">=16"}));
    let optional: serde_json::Map<String, Value> = PLATFORMS
        .iter()
        .map(|p| (p.package(), json!(version)))
        .collect();
    fields.insert("optionalDependencies".into(), Value::Object(optional));
    let readme = std::fs::read_to_string(root.join("packaging/pypi/README.md"))
        .context("reading packaging/pypi/README.md")?
        .replace(
            "pip install agentic-hooks        # or: pipx install agentic-hooks, uv tool install agentic-hooks",
            "npm install -g agentic-hooks",
        );
    write_package(dir, &Value::Object(fields), &readme)?;
    std::fs::write(dir.join("bin/hooks.js"), launcher).context("writing bin/hooks.js")?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(
            dir.join("bin/hooks.js"),
            std::fs::Permissions::from_mode(0o755),
        )
        .context("making bin/hooks.js executable")?;
    }
    Ok(())
}

/// `npm pack` of the package in `dir` into `dest`; the tarball's path.
fn npm_pack(dir: &Path, dest: &Path) -> Result<PathBuf> {
    let out = Command::new(npm())
        .args(["pack", "--silent", "--pack-destination"])
        .arg(dest)
        .current_dir(dir)
        .output()
        .context("could not start npm; the npm packages need Node.js and npm")?;
    if !out.status.success() {
        bail!(
            "`npm pack` in {} failed ({}): {}",
            dir.display(),
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let name = String::from_utf8_lossy(&out.stdout)
        .lines()
        .rfind(|l| l.trim().ends_with(".tgz"))
        .map(|l| l.trim().to_owned())
        .context("`npm pack` named no tarball")?;
    let tarball = dest.join(&name);
    eprintln!("  {}", tarball.display());
    Ok(tarball)
}

/// Lower-case hex of `bytes`.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// Builds agentic-hooks-cli's binary `bin` with the `dist` profile (for `target`, else
/// the host).
fn dist_build(bin: &str, target: Option<&str>) -> Result<()> {
    let mut args = vec![
        "build",
        "--locked",
        "--profile",
        "dist",
        "-p",
        "agentic-hooks-cli",
        "--bin",
        bin,
    ];
    if let Some(target) = target {
        args.extend(["--target", target]);
    }
    crate::cargo(&args)
}

/// The package and binary of the Linux client, `hooks-bridge-lite` (shipped as
/// `hooks-bridge`): no C library, so none of its start-up on every tool call.
const LITE_PACKAGE: &str = "agentic-hooks-bridge-lite";
/// See [`LITE_PACKAGE`].
const LITE_BIN: &str = "hooks-bridge-lite";

/// The `rustc` flags of the Linux client: it cannot unwind (no standard library), starts
/// at its own `_start`, links nothing of the system's, and is position-dependent (nothing
/// would apply its relocations).
const LITE_RUSTC_ARGS: &[&str] = &[
    "-C",
    "panic=abort",
    "-C",
    "relocation-model=static",
    "-C",
    "link-arg=-nostartfiles",
    "-C",
    "link-arg=-nostdlib",
    "-C",
    "link-arg=-static",
];

/// Builds the hook command's client as the packages ship it, with cargo's `profile`, for
/// `platform` (`target`, else the host), and gives the path of what was built: on Linux
/// the `hooks-bridge-lite` program (`crates/hooks-bridge-lite`), elsewhere
/// `agentic-hooks-cli`'s portable `hooks-bridge`. Both answer alike; `docs/decisions.md`,
/// "The Linux client links no C library", says why two.
pub(crate) fn build_client(
    profile: &str,
    platform: &Platform,
    target: Option<&str>,
) -> Result<PathBuf> {
    let linux = platform.os == "linux";
    let (package, bin) = if linux {
        (LITE_PACKAGE, LITE_BIN)
    } else {
        ("agentic-hooks-cli", CLIENT)
    };
    let mut args = vec![
        "rustc",
        "--locked",
        "--profile",
        profile,
        "-p",
        package,
        "--bin",
        bin,
    ];
    if linux {
        args.extend(["--features", "lite"]);
    }
    if let Some(target) = target {
        args.extend(["--target", target]);
    }
    if linux {
        args.push("--");
        args.extend(LITE_RUSTC_ARGS);
    }
    crate::cargo(&args)?;
    let mut built = crate::bench::target_dir();
    if let Some(target) = target {
        built.push(target);
    }
    // cargo's folder for the `dev` profile is `debug`.
    built.push(if profile == "dev" { "debug" } else { profile });
    Ok(built.join(format!("{bin}{}", platform.suffix())))
}

/// The platform of this machine, among [`PLATFORMS`].
pub(crate) fn host() -> Result<&'static Platform> {
    let (os, cpu) = (std::env::consts::OS, std::env::consts::ARCH);
    let (os, cpu) = (
        match os {
            "macos" => "darwin",
            "windows" => "win32",
            other => other,
        },
        match cpu {
            "x86_64" => "x64",
            "aarch64" => "arm64",
            other => other,
        },
    );
    PLATFORMS
        .iter()
        .find(|p| p.os == os && p.cpu == cpu)
        .with_context(|| format!("no client for {os} on {cpu}"))
}

#[cfg(test)]
mod tests {
    use std::io::{Read, Write};
    use std::process::{Output, Stdio};
    use std::time::Duration;

    use super::*;

    /// Runs `command` with `stdin`, killing it after `limit`; its output.
    fn bounded(command: &mut Command, stdin: &str, limit: Duration) -> Output {
        let shown = format!("{command:?}");
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {shown}: {e}"));
        if let Some(mut pipe) = child.stdin.take() {
            let _ = pipe.write_all(stdin.as_bytes());
        }
        let stdout = drain(child.stdout.take());
        let stderr = drain(child.stderr.take());
        let started = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().expect("wait") {
                break status;
            }
            if started.elapsed() > limit {
                let _ = child.kill();
                let _ = child.wait();
                panic!("{shown} took more than {limit:?}");
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let stdout = stdout.join().unwrap_or_default();
        let stderr = stderr.join().unwrap_or_default();
        Output {
            status,
            stdout,
            stderr,
        }
    }

    /// Reads `pipe` to its end on a thread of its own.
    fn drain(pipe: Option<impl Read + Send + 'static>) -> std::thread::JoinHandle<Vec<u8>> {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut bytes);
            }
            bytes
        })
    }

    /// `bounded`, which must succeed; its stdout.
    #[track_caller]
    fn ok(command: &mut Command, stdin: &str, limit: Duration) -> String {
        let out = bounded(command, stdin, limit);
        assert!(
            out.status.success(),
            "{command:?} failed ({}):\n{}\n{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// A command of `hooks` run in `home`'s isolated world (its config, state and trust).
    fn isolated(program: &Path, home: &Path) -> Command {
        let mut command = Command::new(program);
        command
            .env("HOME", home)
            .env("XDG_CONFIG_HOME", home.join(".config"))
            .env("XDG_STATE_HOME", home.join(".local/state"))
            .env("XDG_DATA_HOME", home.join(".local/share"))
            .env("HOOKS_TRUST_STORE", home.join("trust.json"))
            .env_remove("HOOKS_DEPTH")
            .env_remove("HOOKS_HOME")
            .env_remove("CLAUDE_CONFIG_DIR")
            .env_remove("CLAUDE_PROJECT_DIR");
        command
    }

    /// The program a shell command starts: its first word, unquoted.
    fn program_of(command: &str) -> String {
        match command.strip_prefix('\'') {
            Some(rest) => rest.split('\'').next().unwrap_or_default().to_owned(),
            None => command
                .split_whitespace()
                .next()
                .unwrap_or_default()
                .to_owned(),
        }
    }

    const MINUTE: Duration = Duration::from_secs(60);

    /// `cargo xtask dist` for the host (or for `$HOOKS_DIST_TARGET`, which the release
    /// workflow sets to its job's target, so that the test reuses that job's build), its npm packages installed with `npm install
    /// --offline` and its wheel with `pip install --no-index` from those files alone: both
    /// give `hooks` at the workspace version, and the client `hooks-bridge` beside it;
    /// `hooks install claude` run through the npm launcher writes the path of the client
    /// beside the native binary into Claude Code's settings, and that command answers a
    /// PreToolUse call, running the configured hook.
    #[test]
    fn dist_packages_install_offline_and_install_the_native_binary() {
        let tmp = tempfile::tempdir().expect("temp dir");
        let dist = run(&Options {
            target: std::env::var("HOOKS_DIST_TARGET").ok(),
            out: Some(tmp.path().join("out")),
        })
        .expect("cargo xtask dist");
        assert!(dist.binary_bytes <= MAX_BINARY_BYTES);
        assert!(dist.client_bytes <= MAX_CLIENT_BYTES);
        let sums = std::fs::read_to_string(dist.out.join("SHA256SUMS")).expect("SHA256SUMS");
        assert_eq!(sums.lines().count(), 5, "{sums}");
        let client_name = format!(
            "{CLIENT}-{}-{}{}",
            dist.version,
            dist.platform.triple,
            dist.platform.suffix()
        );
        assert!(sums.contains(&format!("  {client_name}\n")), "{sums}");
        let want = format!("hooks {}\n", dist.version);
        let manifest = std::fs::read_to_string(workspace_root().join("Cargo.toml")).unwrap();
        let workspace_version = manifest
            .split("[workspace.package]")
            .nth(1)
            .and_then(|t| t.lines().find_map(|l| l.strip_prefix("version = ")))
            .map(|v| v.trim().trim_matches('"'))
            .expect("the workspace version");
        assert_eq!(dist.version, workspace_version);
        let wheel_name = dist.wheel.file_name().unwrap().to_string_lossy();
        assert!(
            wheel_name.starts_with(&format!("agentic_hooks-{workspace_version}-")),
            "{wheel_name}"
        );

        // npm, offline, from the two tarballs alone.
        let prefix = tmp.path().join("npm");
        ok(
            Command::new(npm())
                .args([
                    "install",
                    "--offline",
                    "--no-audit",
                    "--no-fund",
                    "--prefix",
                ])
                .arg(&prefix)
                .arg(&dist.npm_main)
                .arg(&dist.npm_platform)
                .env("npm_config_cache", tmp.path().join("npm-cache"))
                .env("npm_config_update_notifier", "false"),
            "",
            3 * MINUTE,
        );
        let launcher = prefix.join("node_modules/.bin/hooks");
        let native = prefix
            .join("node_modules")
            .join(dist.platform.package())
            .join("bin")
            .join(dist.platform.exe());
        assert!(native.is_file(), "npm did not install {}", native.display());
        let client = native.with_file_name(dist.platform.client_exe());
        assert!(client.is_file(), "npm did not install {}", client.display());
        for package in [PACKAGE.to_owned(), dist.platform.package()] {
            let json = prefix
                .join("node_modules")
                .join(package)
                .join("package.json");
            let json: Value = serde_json::from_str(&std::fs::read_to_string(json).unwrap())
                .expect("package.json");
            assert_eq!(json["version"], workspace_version, "{json}");
        }
        assert_eq!(
            ok(Command::new(&launcher).arg("--version"), "", MINUTE),
            want
        );

        // The launcher passes the binary's exit code and streams on.
        let bad = bounded(Command::new(&launcher).arg("--no-such-flag"), "", MINUTE);
        let native_bad = bounded(Command::new(&native).arg("--no-such-flag"), "", MINUTE);
        assert_eq!(bad.status.code(), native_bad.status.code(), "{bad:?}");
        assert_eq!(bad.stderr, native_bad.stderr);
        #[cfg(unix)]
        launcher_passes_a_signal_on(&launcher);

        // pip, from the wheel alone.
        let site = tmp.path().join("py");
        ok(
            Command::new(python())
                .args([
                    "-m",
                    "pip",
                    "install",
                    "--no-index",
                    "--disable-pip-version-check",
                    "--no-input",
                    "--target",
                ])
                .arg(&site)
                .arg(&dist.wheel),
            "",
            3 * MINUTE,
        );
        let from_pip = site.join("bin").join(dist.platform.exe());
        assert_eq!(
            ok(Command::new(&from_pip).arg("--version"), "", MINUTE),
            want
        );
        let client_from_pip = from_pip.with_file_name(dist.platform.client_exe());
        assert!(
            client_from_pip.is_file(),
            "the wheel has no {}",
            client_from_pip.display()
        );
        // On Linux it is the client the npm package ships (no C library), not maturin's.
        #[cfg(target_os = "linux")]
        assert!(
            std::fs::read(&client_from_pip).expect("the wheel's client")
                == std::fs::read(&client).expect("the npm package's client"),
            "the wheel's client is not the shipped Linux client"
        );

        // A user with one hook on Bash, which leaves a mark when it runs.
        let home = tmp.path().join("home");
        let project = tmp.path().join("proj");
        std::fs::create_dir_all(home.join(".config/hooks")).expect("config dir");
        std::fs::create_dir_all(project.join(".git")).expect("project");
        let mark = tmp.path().join("ran");
        std::fs::write(
            home.join(".config/hooks/hooks.yaml"),
            format!(
                "hooks:\n  - id: mark\n    event: PreToolUse\n    matcher: Bash\n    command: \"touch '{}'\"\n",
                mark.display()
            ),
        )
        .expect("config");
        ok(
            isolated(&launcher, &home)
                .args(["install", "claude", "--scope", "user"])
                .current_dir(&project),
            "",
            MINUTE,
        );
        let settings: Value = serde_json::from_str(
            &std::fs::read_to_string(home.join(".claude/settings.json")).expect("settings"),
        )
        .expect("settings JSON");
        let command = settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
            .as_str()
            .unwrap_or_else(|| panic!("no PreToolUse command in {settings:#}"))
            .to_owned();
        let program = PathBuf::from(program_of(&command));
        assert!(program.is_absolute(), "{command}");
        assert_eq!(
            std::fs::canonicalize(&program).expect("the installed program"),
            std::fs::canonicalize(&client).expect("the client beside the native binary"),
            "the settings' command starts {command}, not the client beside the native binary"
        );
        let head = std::fs::read(&program).expect("read the program");
        assert!(
            !head.starts_with(b"#!"),
            "the settings' command starts a script: {command}"
        );
        #[cfg(target_os = "linux")]
        assert!(head.starts_with(b"\x7fELF"), "{command}");

        // The agent's call: that command, with Claude Code's PreToolUse event on stdin.
        let event = json!({
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": "ls"},
            "session_id": "s",
            "tool_use_id": "toolu_dist",
            "cwd": project,
        });
        let out = bounded(
            isolated(Path::new("sh"), &home)
                .args(["-c", &command])
                .current_dir(&project),
            &event.to_string(),
            MINUTE,
        );
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        assert!(mark.exists(), "the hook did not run: {out:?}");
    }

    /// A SIGTERM sent to the launcher alone reaches the binary (`hooks serve`, which has
    /// answered a request, so the launcher's handlers are in place), and the launcher
    /// then ends by that signal, as the binary did.
    #[cfg(unix)]
    fn launcher_passes_a_signal_on(launcher: &Path) {
        use std::io::BufRead;
        use std::os::unix::process::ExitStatusExt;

        let mut child = Command::new(launcher)
            .args(["serve", "--stdio"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the launcher");
        let mut stdin = child.stdin.take().expect("stdin");
        stdin
            .write_all(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"nope\"}\n")
            .expect("write a request");
        let stdout = child.stdout.take().expect("stdout");
        let answered = std::thread::spawn(move || {
            let mut line = String::new();
            let _ = std::io::BufReader::new(stdout).read_line(&mut line);
            line
        });
        let started = Instant::now();
        while !answered.is_finished() && started.elapsed() < MINUTE {
            std::thread::sleep(Duration::from_millis(20));
        }
        if !answered.is_finished() {
            let _ = child.kill();
            panic!("`hooks serve` did not answer through the launcher");
        }
        assert!(answered.join().unwrap_or_default().contains("-32601"));
        let pid = child.id().to_string();
        ok(Command::new("kill").args(["-TERM", &pid]), "", MINUTE);
        let started = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().expect("wait") {
                break status;
            }
            if started.elapsed() > MINUTE {
                let _ = child.kill();
                panic!("the launcher did not end on SIGTERM");
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        drop(stdin);
        assert_eq!(status.signal(), Some(15), "{status:?}");
    }

    #[test]
    fn every_platform_has_its_own_package_and_the_launcher_table_names_them() {
        let mut names: Vec<String> = PLATFORMS.iter().map(Platform::package).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), PLATFORMS.len());
        let table = launcher_table();
        for p in PLATFORMS {
            let key = format!("{}-{}", p.os, p.cpu);
            assert!(
                table[&key]
                    .as_array()
                    .is_some_and(|l| l.iter().any(|e| e["name"] == p.package().as_str())),
                "{key}: {table}"
            );
        }
        let template =
            std::fs::read_to_string(workspace_root().join("packaging/npm/hooks.js")).unwrap();
        assert!(template.contains(LAUNCHER_TABLE));
    }

    /// The release workflow builds every platform of the table, with the table's command,
    /// and the maturin this command is tested with.
    #[test]
    fn the_release_workflow_builds_every_platform_with_this_command() {
        let workflow =
            std::fs::read_to_string(workspace_root().join(".github/workflows/release.yml"))
                .expect("release.yml");
        let targets: Vec<&str> = workflow
            .lines()
            .filter_map(|l| l.trim().strip_prefix("- { target: "))
            .filter_map(|l| l.split(',').next())
            .collect();
        let triples: Vec<&str> = PLATFORMS.iter().map(|p| p.triple).collect();
        assert_eq!(targets, triples);
        assert!(workflow.contains("cargo xtask dist --target ${{ matrix.target }} --out out"));
        assert!(workflow.contains("cargo test --locked -p xtask -- dist"));
        assert!(workflow.contains(&format!("maturin=={MATURIN}")));
    }

    /// The README's install commands name the packages this command makes: the npm
    /// package, the wheel's project, and the crate whose binary is `hooks`; the install
    /// section comes before the set-up commands.
    #[test]
    fn the_readmes_install_commands_name_the_packages_dist_makes() {
        let root = workspace_root();
        let readme = std::fs::read_to_string(root.join("README.md")).expect("README");
        let install = readme.find("\n## Install\n").expect("an Install section");
        let set_up = readme.find("\n## Set up\n").expect("a Set up section");
        assert!(install < set_up, "Install comes first");
        let block = readme[install..]
            .split("```sh\n")
            .nth(1)
            .and_then(|b| b.split("```").next())
            .expect("a sh block under Install");
        let commands: Vec<String> = block
            .lines()
            .map(|l| l.split('#').next().unwrap_or_default().trim().to_owned())
            .collect();
        let pyproject = std::fs::read_to_string(root.join("packaging/pypi/pyproject.toml"))
            .expect("pyproject.toml");
        assert!(pyproject.contains(&format!("name = \"{PACKAGE}\"")));
        assert!(pyproject.contains("bindings = \"bin\""));
        let meta = crate::release::cargo_metadata(&root).expect("cargo metadata");
        let cli = meta["packages"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|p| p["name"] == "agentic-hooks-cli")
            .expect("the CLI crate");
        assert!(
            cli["targets"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|t| t["name"] == "hooks" && t["kind"][0] == "bin"),
            "agentic-hooks-cli has the `hooks` binary"
        );
        assert!(
            cli["targets"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|t| t["name"] == CLIENT && t["kind"][0] == "bin"),
            "agentic-hooks-cli has the client binary, `{CLIENT}`"
        );
        assert_ne!(cli["publish"], json!([]), "agentic-hooks-cli is published");
        assert_eq!(
            commands,
            [
                format!("npm install -g {PACKAGE}"),
                format!("pip install {PACKAGE}"),
                format!("uv tool install {PACKAGE}"),
                "cargo install agentic-hooks-cli".to_owned(),
            ]
        );
    }

    #[test]
    fn options_take_a_target_and_an_out_folder() {
        let args = |a: &[&str]| a.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        let o = Options::parse(&args(&["--target", "x86_64-apple-darwin", "--out=d"])).unwrap();
        assert_eq!(o.target.as_deref(), Some("x86_64-apple-darwin"));
        assert_eq!(o.out, Some(PathBuf::from("d")));
        assert!(Options::parse(&args(&["--target"])).is_err());
        assert!(Options::parse(&args(&["--bogus"])).is_err());
    }
}

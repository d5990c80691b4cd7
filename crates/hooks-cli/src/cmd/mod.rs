//! One module per command, and what they share: building the engine from `-c` files or
//! discovery, reading payloads, the async runtime.

pub mod bridge;
pub mod builtin;
pub mod completions;
pub mod convert;
pub mod daemon;
pub mod edit;
pub mod events;
pub mod explain;
pub mod init;
pub mod list;
pub mod manage;
pub mod migrate;
pub mod notes;
pub mod otel;
pub mod render;
pub mod replay;
pub mod run;
pub mod schema;
pub mod serve;
pub mod test;
pub mod trust;
pub mod validate;

use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use anyhow::{Context, Result};
use hooks::config::{Interpolation, Locations, TrustStore};
use hooks::core::{EventContext, Layer};
use hooks::{BrokenConfig, Engine, EngineBuilder};
use serde_json::Value;

use crate::cli::{Command, ConfigArgs};

/// Runs one parsed command; returns its exit code.
pub fn dispatch(command: Command) -> Result<u8> {
    match command {
        Command::Validate(a) => validate::run(&a),
        Command::List(a) => list::run(&a),
        Command::Explain(a) => explain::run(&a),
        Command::Run(a) => run::run(&a),
        Command::Replay(a) => replay::run(&a),
        Command::Test(a) => test::run(&a),
        Command::Enable(a) => edit::enable(&a, true),
        Command::Disable(a) => edit::enable(&a, false),
        Command::Add(a) => edit::add(&a),
        Command::Remove(a) => edit::remove(&a),
        Command::Trust(a) => trust::run(&a),
        Command::Convert(a) => convert::run(&a),
        Command::Schema(a) => schema::run(&a),
        Command::Serve(a) => serve::run(&a),
        Command::Manage(a) => manage::run(&a),
        Command::Events(a) => events::run(&a),
        Command::Builtin(a) => builtin::run(&a),
        Command::Init(a) => init::run(&a),
        Command::Completions(a) => completions::completions(&a),
        Command::Man(a) => completions::man(&a),
        Command::Migrate(a) => migrate::run(&a),
        Command::Bridge(a) => bridge::run(&a),
        Command::Install(a) => bridge::install::install(&a),
        Command::Uninstall(a) => bridge::install::uninstall(&a),
        Command::Doctor(a) => bridge::install::doctor(&a),
        Command::Daemon(c) => daemon::run(&c),
        Command::OtelFlush => otel::flush(),
    }
}

/// The dialect `--dialect` names for the `-c` files, if any.
pub fn dialect(args: &ConfigArgs) -> Option<hooks::core::Dialect> {
    args.dialect
        .as_deref()
        .and_then(hooks::core::Dialect::from_name)
}

/// The project root: `--project DIR` (which must be an existing directory), else the one
/// the current directory is in ([`Locations::project_root`]: the nearest ancestor with a
/// config, else the git root, else the current directory itself).
pub fn project_dir(args: &ConfigArgs) -> Result<PathBuf> {
    match &args.project {
        Some(p) if p.is_dir() => Ok(p.clone()),
        Some(p) if p.exists() => anyhow::bail!("--project {} is not a directory", p.display()),
        Some(p) => anyhow::bail!("--project {}: no such directory", p.display()),
        None => {
            let (cwd, found) = current_project()?;
            Ok(found.unwrap_or(cwd))
        }
    }
}

/// The current directory and the project it is in, if any
/// ([`Locations::find_project_root`]).
fn current_project() -> Result<(PathBuf, Option<PathBuf>)> {
    // Found once per process: a command asks for it several times (the payload's default
    // `cwd`, discovery, the notes), and the walk up the directories is the same each time
    // (the command line never changes its directory).
    static FOUND: std::sync::OnceLock<(PathBuf, Option<PathBuf>)> = std::sync::OnceLock::new();
    if let Some(found) = FOUND.get() {
        return Ok(found.clone());
    }
    let cwd = std::env::current_dir().context("reading the current directory")?;
    let found = Locations::find_project_root(&cwd, home().as_deref());
    Ok(FOUND.get_or_init(|| (cwd, found)).clone())
}

/// The home directory, with its symlinks resolved, as the current directory has them.
fn home() -> Option<PathBuf> {
    std::env::var_os("HOME").map(|h| std::fs::canonicalize(&h).unwrap_or_else(|_| PathBuf::from(h)))
}

/// `args` with the project root of the event of `ctx` made explicit, for the commands that
/// dispatch one event (`hooks run`): `--project` when given; else the project the current
/// directory is in; else, when the current directory is in none, the project of the
/// event's `cwd` (an existing directory: its nearest ancestor with a config, else its git
/// root), as an agent started in that project has it; else the current directory.
/// `CLAUDE_PROJECT_DIR`, discovery and the default `cwd` follow it, so a hook script that
/// runs `cd "$CLAUDE_PROJECT_DIR"` acts on the event's project however `hooks run` was
/// started.
pub fn for_event(args: &ConfigArgs, ctx: &EventContext) -> Result<ConfigArgs> {
    if args.project.is_some() {
        return Ok(args.clone());
    }
    let (cwd, found) = current_project()?;
    if found.is_some() {
        return Ok(args.clone());
    }
    let event_root = ctx
        .get_str("cwd")
        .map(|dir| cwd.join(dir))
        .filter(|dir| dir.is_dir())
        .and_then(|dir| std::fs::canonicalize(dir).ok())
        .and_then(|dir| Locations::find_project_root(&dir, home().as_deref()));
    Ok(ConfigArgs {
        project: event_root,
        ..args.clone()
    })
}

/// The engine for `args`: the named files (trusted by being named; a directory names
/// every config file in it), or else the standard locations with the user's trust store.
/// Configs may write `{{ vars.HOOKS_BIN }}` for this `hooks` binary (see [`interpolation`]).
pub fn engine(args: &ConfigArgs) -> Result<Engine> {
    Ok(engine_builder(args)?.build()?)
}

/// The builder [`engine`] uses, for commands that add to it (`hooks serve` plugs in its
/// notification sink).
pub fn engine_builder(args: &ConfigArgs) -> Result<EngineBuilder> {
    engine_builder_with(args, TrustStore::open_default().ok())
}

/// Like [`engine_builder`], with discovered project hooks trusted by `store` (none: not
/// trusted at all), for `hooks trust --store FILE`.
pub fn engine_builder_with(args: &ConfigArgs, store: Option<TrustStore>) -> Result<EngineBuilder> {
    if args.dialect.is_some() && args.config.is_empty() && args.with.is_empty() {
        anyhow::bail!(
            "--dialect needs the files it names the dialect of: --config <FILE> or --with <FILE>"
        );
    }
    let project = project_dir(args)?;
    // `CLAUDE_PROJECT_DIR` is the project root, as an absolute path, whatever `cwd` a
    // payload gives.
    let root = std::path::absolute(&project).unwrap_or_else(|_| project.clone());
    let mut builder = Engine::builder()
        .interpolation(interpolation_for(args)?)
        .on_broken_config(on_broken_config(args)?)
        .project_dir(root);
    if args.config.is_empty() {
        builder = builder.discover(Some(&project));
        if let Some(store) = store {
            builder = builder.trust_store(store);
        }
    }
    for (file, layer) in named_files(args)? {
        builder = builder.config_file_in(file, layer, dialect(args));
    }
    Ok(builder)
}

/// The layers a command line can name with `LAYER:FILE`.
const NAMED_LAYERS: [(&str, Layer); 4] = [
    ("user", Layer::User),
    ("project", Layer::Project),
    ("local", Layer::Local),
    ("run", Layer::Run),
];

/// `arg` without its `LAYER:` prefix, and the layer it names. A path that exists as
/// written is never split, so a file called `run:x.toml` can still be named.
pub fn split_layer(arg: &Path) -> (Option<Layer>, PathBuf) {
    let Some(text) = arg.to_str() else {
        return (None, arg.to_path_buf());
    };
    if arg.exists() {
        return (None, arg.to_path_buf());
    }
    for (name, layer) in NAMED_LAYERS {
        if let Some(rest) = text.strip_prefix(name).and_then(|r| r.strip_prefix(':')) {
            return (Some(layer), PathBuf::from(rest));
        }
    }
    (None, arg.to_path_buf())
}

/// The files `-c` or `--with` name, each with its layer: the one its `LAYER:` prefix
/// names, else the one its dialect's layering gives it
/// ([`hooks::config::layer_from_path`]: Fabro's settings, project and run configs), else
/// the command-line layer. Within a layer, files keep their command-line order.
pub fn named_files(args: &ConfigArgs) -> Result<Vec<(PathBuf, Layer)>> {
    let mut out = Vec::new();
    for arg in args.config.iter().chain(&args.with) {
        let (named, path) = split_layer(arg);
        for file in config_files(std::slice::from_ref(&path))? {
            let layer = named
                .or_else(|| hooks::config::layer_from_path(&file, dialect(args)))
                .unwrap_or(Layer::CommandLine);
            out.push((file, layer));
        }
    }
    Ok(out)
}

/// What a broken config file of the user's own means: `--on-broken-config`, else
/// `$HOOKS_ON_BROKEN_CONFIG`, else block.
pub fn on_broken_config(args: &ConfigArgs) -> Result<BrokenConfig> {
    let (text, from) = match &args.on_broken_config {
        Some(text) => (text.clone(), "--on-broken-config"),
        None => match std::env::var("HOOKS_ON_BROKEN_CONFIG") {
            Ok(text) if !text.is_empty() => (text, "HOOKS_ON_BROKEN_CONFIG"),
            _ => return Ok(BrokenConfig::default()),
        },
    };
    BrokenConfig::parse(&text)
        .with_context(|| format!("{from} is `{text}`; it takes `block` or `allow`"))
}

/// What configs loaded by the command line may interpolate: the process environment, and
/// `{{ vars.HOOKS_BIN }}`, the path of the running `hooks` binary, so that a config can call
/// a built-in hook (`{{ vars.HOOKS_BIN }} builtin security-guard`) without knowing where the
/// binary is installed. A file's own `vars` may give a fallback for other hosts; this value
/// takes precedence over it.
pub fn interpolation() -> Interpolation {
    let mut interpolation = Interpolation::default();
    if let Ok(exe) = std::env::current_exe() {
        interpolation
            .vars
            .insert("HOOKS_BIN".to_owned(), exe.display().to_string());
    }
    interpolation
}

/// [`interpolation`] with the `--var NAME=VALUE` values of `args` (the last of a name wins;
/// they take precedence over `HOOKS_BIN` and over a file's own `vars`).
pub fn interpolation_for(args: &ConfigArgs) -> Result<Interpolation> {
    let mut interpolation = interpolation();
    for var in &args.vars {
        let Some((name, value)) = var.split_once('=').filter(|(n, _)| !n.trim().is_empty()) else {
            anyhow::bail!("--var {var}: write `--var NAME=VALUE`");
        };
        interpolation = interpolation.with_var(name.trim(), value);
    }
    Ok(interpolation)
}

/// The files `-c` names, with each directory replaced by the config files directly in it
/// (`*.json`, `*.yaml`, `*.yml`, `*.toml` and `SKILL.md`), in name order, so that one
/// directory can hold a set of configs in several dialects; one of Cline's hooks
/// directories (`.clinerules/hooks`, ...) gives its hook files, those named after Cline's
/// events, as discovery takes them.
pub fn config_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for path in paths {
        let (_, path) = &split_layer(path);
        if !path.is_dir() {
            files.push(path.clone());
            continue;
        }
        if hooks::config::is_cline_hooks_dir(path) {
            let hooks = hooks::config::cline_hook_files(path);
            if hooks.is_empty() {
                anyhow::bail!(
                    "{} holds no Cline hook files (executables named after Cline's events: PreToolUse, TaskStart, ...)",
                    path.display()
                );
            }
            files.extend(hooks);
            continue;
        }
        let mut found: Vec<PathBuf> = std::fs::read_dir(path)
            .with_context(|| format!("reading the directory {}", path.display()))?
            .filter_map(|entry| entry.ok().map(|e| e.path()))
            .filter(|p| p.is_file() && is_config_file(p))
            .collect();
        if found.is_empty() {
            anyhow::bail!(
                "{} holds no config files (*.json, *.yaml, *.yml, *.toml, SKILL.md)",
                path.display()
            );
        }
        found.sort();
        files.extend(found);
    }
    Ok(files)
}

fn is_config_file(path: &Path) -> bool {
    if path.file_name().is_some_and(|n| n == "SKILL.md") {
        return true;
    }
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| matches!(e, "json" | "yaml" | "yml" | "toml"))
}

/// How long a payload piped on stdin without `-p -` may take to start arriving before the
/// command goes on without it: long enough for `echo ... |` or `cat FILE |`, short enough
/// that an agent's open, empty stdin costs little.
pub const STDIN_WAIT: Duration = Duration::from_millis(200);

/// Reads a payload argument ([`read_payload`]); none given is `{}`.
pub fn payload(arg: Option<&str>) -> Result<Value> {
    Ok(read_payload(arg)?.unwrap_or_else(|| Value::Object(serde_json::Map::new())))
}

/// Reads a payload argument: JSON text, `@FILE`, `-` for stdin (read to its end), or the
/// path of an existing file (`-p payload.json` reads it; a path that is no file is an error
/// asking whether `@payload.json` was meant). Without `-p`, a payload piped on stdin is read
/// when stdin is not a terminal and its first bytes arrive within [`STDIN_WAIT`]; an open
/// stdin that stays silent is ignored, with a note on stderr, so that the command never
/// hangs on it. `None`: no payload was given.
pub fn read_payload(arg: Option<&str>) -> Result<Option<Value>> {
    let text = match arg {
        None => match piped_stdin()? {
            Some(text) => text,
            None => return Ok(None),
        },
        Some("-") => {
            let mut s = String::new();
            std::io::stdin()
                .read_to_string(&mut s)
                .context("reading the payload from stdin")?;
            s
        }
        Some(a) if a.starts_with('@') => std::fs::read_to_string(&a[1..])
            .with_context(|| format!("reading the payload file {}", &a[1..]))?,
        Some(a) => match serde_json::from_str(a) {
            Ok(value) => return Ok(Some(value)),
            Err(_) if Path::new(a).is_file() => std::fs::read_to_string(a)
                .with_context(|| format!("reading the payload file {a}"))?,
            Err(e) if a.trim_start().starts_with(['{', '[', '"']) => {
                return Err(anyhow::Error::new(e).context("the payload is not valid JSON"));
            }
            Err(_) => anyhow::bail!(
                "the payload `{a}` is neither JSON nor an existing file (did you mean `@{a}`? \
                 -p takes JSON text, @FILE, or - for stdin)"
            ),
        },
    };
    serde_json::from_str(&text)
        .map(Some)
        .context("the payload is not valid JSON")
}

/// A payload piped on stdin, when stdin is not a terminal and gives its first bytes within
/// [`STDIN_WAIT`]; `None` when it is a terminal, empty, or silent (said on stderr).
fn piped_stdin() -> Result<Option<String>> {
    if std::io::stdin().is_terminal() {
        return Ok(None);
    }
    let (tx, rx) = mpsc::channel::<std::io::Result<Vec<u8>>>();
    // A thread, so that the wait is bounded whatever stdin is; one left blocked on a silent
    // stdin ends with the process.
    std::thread::spawn(move || {
        let mut stdin = std::io::stdin().lock();
        let mut first = vec![0u8; 8192];
        let read = loop {
            match stdin.read(&mut first) {
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                other => break other,
            }
        };
        let started = matches!(read, Ok(n) if n > 0);
        let sent = tx.send(read.map(|n| {
            first.truncate(n);
            first
        }));
        if sent.is_ok() && started {
            let mut rest = Vec::new();
            let _ = tx.send(stdin.read_to_end(&mut rest).map(|_| rest));
        }
    });
    let mut bytes = match rx.recv_timeout(STDIN_WAIT) {
        Ok(read) => read.context("reading the payload from stdin")?,
        Err(mpsc::RecvTimeoutError::Timeout) => {
            writeln!(
                std::io::stderr(),
                "note: stdin is not a terminal but gave nothing within {} ms, so it was ignored \
                 (pass `-p -` to wait for a payload on stdin)",
                STDIN_WAIT.as_millis()
            )?;
            return Ok(None);
        }
        Err(mpsc::RecvTimeoutError::Disconnected) => return Ok(None),
    };
    if !bytes.is_empty() {
        // The payload has started: read it to its end, as `-p -` would.
        if let Ok(rest) = rx.recv() {
            bytes.extend(rest.context("reading the payload from stdin")?);
        }
    }
    let text = String::from_utf8(bytes).context("the payload on stdin is not UTF-8")?;
    Ok(Some(text).filter(|t| !t.trim().is_empty()))
}

/// Gives `ctx` the project root as its `cwd` when its payload has none, as an agent would:
/// `HOOK_WORKSPACE` and the hooks' working directory follow it (`CLAUDE_PROJECT_DIR` is the
/// project root whatever the `cwd`: see [`engine_builder_with`]).
pub fn default_cwd(ctx: &mut EventContext, project: &Path) {
    if ctx.get("cwd").is_none() {
        ctx.set("cwd", project.display().to_string());
    }
}

/// A runtime for the commands that dispatch events.
pub fn runtime() -> Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("starting the async runtime")
}

//! One module per command, and what they share: building the engine from `-c` files or
//! discovery, reading payloads, the async runtime.

pub mod builtin;
pub mod convert;
pub mod edit;
pub mod events;
pub mod explain;
pub mod init;
pub mod list;
pub mod manage;
pub mod replay;
pub mod run;
pub mod schema;
pub mod serve;
pub mod test;
pub mod trust;
pub mod validate;

use std::io::Read;
use std::path::PathBuf;

use anyhow::{Context, Result};
use hooks::Engine;
use hooks::config::TrustStore;
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
    }
}

/// The project root: `--project`, else the current directory.
pub fn project_dir(args: &ConfigArgs) -> Result<PathBuf> {
    match &args.project {
        Some(p) => Ok(p.clone()),
        None => std::env::current_dir().context("reading the current directory"),
    }
}

/// The engine for `args`: the named files (trusted by being named), or else the standard
/// locations with the user's trust store.
pub fn engine(args: &ConfigArgs) -> Result<Engine> {
    let mut builder = Engine::builder();
    if args.config.is_empty() {
        let project = project_dir(args)?;
        builder = builder.discover(Some(&project));
        if let Ok(store) = TrustStore::open_default() {
            builder = builder.trust_store(store);
        }
    } else {
        for file in &args.config {
            builder = builder.config_file(file);
        }
    }
    Ok(builder.build()?)
}

/// Reads a payload argument: JSON text, `@FILE`, or `-` for stdin; none is `{}`.
pub fn payload(arg: Option<&str>) -> Result<Value> {
    let text = match arg {
        None => return Ok(Value::Object(serde_json::Map::new())),
        Some("-") => {
            let mut s = String::new();
            std::io::stdin()
                .read_to_string(&mut s)
                .context("reading the payload from stdin")?;
            s
        }
        Some(a) if a.starts_with('@') => std::fs::read_to_string(&a[1..])
            .with_context(|| format!("reading the payload file {}", &a[1..]))?,
        Some(a) => a.to_owned(),
    };
    serde_json::from_str(&text).context("the payload is not valid JSON")
}

/// A runtime for the commands that dispatch events.
pub fn runtime() -> Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("starting the async runtime")
}

//! `hooks enable|disable|add|remove`: change one config file in place, in its own dialect
//! and syntax, keeping its comments and formatting, and write it atomically.
//!
//! Which file: the `-c FILE` given; else, for enable, disable and remove, the discovered
//! file that defines the hook; else, for add, the project's native config
//! (`.hooks/hooks.{yaml,yml,toml,json}`, created as `.hooks/hooks.yaml` if there is none).
//! See `docs/cli-edit.md`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Result, anyhow, bail};
use hooks::config::{DialectFacts, Discovered, LoadOptions, Locations, Origin};
use hooks::core::{
    Action, Decision, Dialect, HookSpec, Layer, Matcher, PermissionAction, PromptAction,
};

use crate::cli::{AddArgs, ConfigArgs, EditIdArgs};
use hooks::config::edit::{Change, ConfigEdit, Entry};

use crate::handle::find;

/// The options config files are loaded with for editing: those of the engine.
pub fn load_options() -> LoadOptions {
    LoadOptions::new().with_interpolation(super::interpolation())
}

/// [`load_options`], with the dialect `--dialect` names for the `-c` files.
fn load_options_for(args: &ConfigArgs) -> LoadOptions {
    match super::dialect(args) {
        Some(d) => load_options().with_dialect(d),
        None => load_options(),
    }
}

/// The files an edit may touch: the `-c` files (each must load), else the discovered ones.
/// Discovered files that do not load are left out and their errors returned, to be named
/// if the hook is not found elsewhere.
pub fn open_files(args: &ConfigArgs) -> Result<(Vec<ConfigEdit>, Vec<String>)> {
    let options = load_options_for(args);
    if !args.config.is_empty() {
        let mut files = Vec::new();
        for path in super::config_files(&args.config)? {
            files.push(ConfigEdit::open(&path, &options)?);
        }
        return Ok((files, Vec::new()));
    }
    let project = super::project_dir(args)?;
    let mut files = Vec::new();
    let mut broken = Vec::new();
    for found in Locations::from_env(Some(&project)).discover() {
        if found.layer == Layer::Managed {
            // Managed settings belong to an administrator; they are never edited here.
            continue;
        }
        // Opened as the engine loads it, so that its hooks' trust is what the engine sees.
        let options = options
            .clone()
            .with_layer(found.layer)
            .with_origin(Origin::Discovered);
        match ConfigEdit::open_discovered(&found, &options) {
            Ok(f) => files.push(f),
            Err(e) => broken.push(format!("{e:#}")),
        }
    }
    Ok((files, broken))
}

/// Finds the hook `address` names in the files of `args`.
fn locate(args: &ConfigArgs, address: &str) -> Result<(ConfigEdit, Entry)> {
    let (mut files, broken) = open_files(args)?;
    match find(&files, address) {
        Ok(found) => Ok((files.swap_remove(found.file), found.entry)),
        Err(e) if broken.is_empty() => Err(e),
        Err(e) => Err(anyhow!(
            "{e:#}\n  note: these config files could not be read, so they were not searched:\n{}",
            broken.join("\n")
        )),
    }
}

fn place(file: &ConfigEdit, line: Option<u32>) -> String {
    match line {
        Some(l) => format!("{}:{l}", file.path().display()),
        None => file.path().display().to_string(),
    }
}

/// Enables (`on`) or disables a hook.
pub fn enable(args: &EditIdArgs, on: bool) -> Result<u8> {
    let (mut file, entry) = locate(&args.config, &args.hook_id)?;
    let change = file.set_enabled(&entry, on)?;
    report(&mut file, change, |file| {
        format!(
            "{} `{}` in {}",
            if on { "enabled" } else { "disabled" },
            entry.label(),
            place(file, entry.line)
        )
    })
}

/// Removes a hook.
pub fn remove(args: &EditIdArgs) -> Result<u8> {
    let (mut file, entry) = locate(&args.config, &args.hook_id)?;
    let change = file.remove(&entry)?;
    report(&mut file, change, |file| {
        format!(
            "removed `{}` from {}",
            entry.label(),
            place(file, entry.line)
        )
    })
}

/// Adds a hook.
pub fn add(args: &AddArgs) -> Result<u8> {
    let mut file = add_target(&args.config)?;
    if let Some(id) = &args.id {
        refuse_taken_id(&args.config, &file, id)?;
    }
    let spec = new_hook(args, file.file().dialect)?;
    let change = file.add(&spec)?;
    // Without `-c` the hook goes to the project's file; if it waits for trust there, the
    // other way to a hook that runs is the user's own config.
    let mine = match (args.config.config.is_empty(), user_config()) {
        (true, Some(p)) => Some(format!(
            "  hint: a hook that runs at once, in every project, goes to your own config: `hooks add -c {} ...`",
            hooks::config::shell_quote(&p.display().to_string())
        )),
        _ => None,
    };
    report_with(&mut file, change, mine, |file| {
        format!(
            "added `{}` on {} to {}",
            hooks::config::edit::label(&spec),
            spec.event.info().name_in(file.file().dialect),
            file.path().display()
        )
    })
}

/// Refuses an id that a hook of the target's merged set already has (the discovered files
/// when no `-c` is given, else the named ones), or an entry of the target file itself: a
/// second hook with that id would replace or shadow the first, and handles would no
/// longer name one hook.
fn refuse_taken_id(args: &ConfigArgs, target: &ConfigEdit, id: &str) -> Result<()> {
    let own = target
        .entries()
        .into_iter()
        .find(|e| e.id.as_deref() == Some(id))
        .map(|e| place(target, e.line));
    let merged = || -> Option<String> {
        // Only the configuration the new hook joins; one that does not load has no ids
        // to compare with (and `hooks validate` says why).
        let engine = super::engine(args).ok()?;
        let loaded = engine.loaded();
        loaded
            .hooks
            .hooks()
            .iter()
            .find(|h| h.spec.id.as_deref() == Some(id))
            .map(|h| h.spec.provenance.to_string())
    };
    if let Some(at) = own.or_else(merged) {
        bail!(
            "`--id {id}` is taken: a hook at {at} has it\n  hint: choose another id, or change that hook (`hooks enable|disable|remove {id}`)"
        );
    }
    Ok(())
}

/// Writes the file if the edit changed it, and says what happened, and what of the file
/// waits for trust.
fn report(
    file: &mut ConfigEdit,
    change: Change,
    done: impl FnOnce(&ConfigEdit) -> String,
) -> Result<u8> {
    report_with(file, change, None, done)
}

/// [`report`], with `hint` after the note on trust, when there is one.
fn report_with(
    file: &mut ConfigEdit,
    change: Change,
    hint: Option<String>,
    done: impl FnOnce(&ConfigEdit) -> String,
) -> Result<u8> {
    let mut out = std::io::stdout().lock();
    match change {
        Change::Changed => {
            let saved = file.save()?;
            writeln!(out, "{}", done(file))?;
            if let Some(note) = saved.note() {
                writeln!(out, "{note}")?;
                if let Some(hint) = hint {
                    writeln!(out, "{hint}")?;
                }
            }
        }
        Change::Unchanged(why) => writeln!(out, "{why}; {} is unchanged", file.path().display())?,
    }
    Ok(0)
}

/// The file `hooks add` writes: the one `-c` names (created if it does not exist), else
/// the project's native config.
pub fn add_target(args: &ConfigArgs) -> Result<ConfigEdit> {
    if args.config.len() > 1 {
        bail!("`hooks add` writes one file; name it with a single `-c FILE`");
    }
    target_file(args)
}

/// The file new hooks go to: the first `-c FILE` (created if it does not exist), else the
/// project's native config (see [`project_config`]).
pub fn target_file(args: &ConfigArgs) -> Result<ConfigEdit> {
    let options = load_options_for(args);
    let path = match args.config.first() {
        Some(one) => one.clone(),
        None => project_config(&super::project_dir(args)?),
    };
    if path.is_dir() {
        // Say which files it holds, so that the fix can be copied.
        let files = super::config_files(std::slice::from_ref(&path)).unwrap_or_default();
        let names: Vec<String> = files
            .iter()
            .map(|f| format!("`-c {}`", f.display()))
            .collect();
        let choice = match &names[..] {
            [] => format!("name it: `-c {}`", path.join("hooks.yaml").display()),
            [one] => format!("name it: {one}"),
            many => format!("name one of its files: {}", many.join(", ")),
        };
        bail!(
            "`-c {}` is a directory, and new hooks and switches go to one file; {choice}",
            path.display()
        );
    }
    // The project's config is a discovered project file: its hooks need trust, and it is
    // read as discovery reads it.
    if args.config.is_empty() {
        let options = options
            .with_layer(Layer::Project)
            .with_origin(hooks::config::Origin::Discovered);
        let found = Discovered {
            path: path.clone(),
            layer: Layer::Project,
            within: Some(super::project_dir(args)?),
        };
        return Ok(if path.exists() {
            ConfigEdit::open_discovered(&found, &options)?
        } else {
            ConfigEdit::create(&path, &options)?
        });
    }
    Ok(if path.exists() {
        ConfigEdit::open(&path, &options)?
    } else {
        ConfigEdit::create(&path, &options)?
    })
}

/// The project's native config: the first of `.hooks/hooks.{yaml,yml,toml,json}` that
/// exists, else `.hooks/hooks.yaml`.
pub fn project_config(project: &Path) -> PathBuf {
    native_config_in(&project.join(".hooks"))
}

/// The user's own native config, whose hooks need no trust: the first of
/// `hooks/hooks.{yaml,yml,toml,json}` in the user's config directory that exists, else
/// `hooks/hooks.yaml` there; `None` when there is no config directory.
pub fn user_config() -> Option<PathBuf> {
    let dir = Locations::from_env(None).config_dir?;
    Some(native_config_in(&dir.join("hooks")))
}

/// The first of `hooks.{yaml,yml,toml,json}` in `dir` that exists, else `hooks.yaml`.
fn native_config_in(dir: &Path) -> PathBuf {
    ["yaml", "yml", "toml", "json"]
        .iter()
        .map(|ext| dir.join(format!("hooks.{ext}")))
        .find(|p| p.is_file())
        .unwrap_or_else(|| dir.join("hooks.yaml"))
}

/// The hook `hooks add` describes, for a file of `dialect` (whose matcher language the
/// `--matcher` is written in).
fn new_hook(args: &AddArgs, dialect: Dialect) -> Result<HookSpec> {
    let action = match (&args.command, &args.url, &args.decision, &args.prompt) {
        (Some(c), None, None, None) => Action::script(c.clone()),
        (None, Some(u), None, None) => Action::Http(hooks::core::HttpAction {
            url: u.clone(),
            headers: Vec::new(),
            allowed_env_vars: Vec::new(),
        }),
        (None, None, Some(d), None) => Action::Permission(PermissionAction {
            decision: match d.as_str() {
                "allow" => Decision::Allow,
                "deny" => Decision::Deny,
                "ask" => Decision::Ask,
                other => bail!("`--decision {other}`: write allow, deny or ask"),
            },
            reason: None,
        }),
        (None, None, None, Some(p)) => Action::Prompt(PromptAction {
            prompt: p.clone(),
            mode: DialectFacts::of(dialect).prompt_mode(),
            model: None,
            max_tool_rounds: None,
            continue_on_block: false,
        }),
        (None, None, None, None) => {
            bail!("say what the hook does: `--command`, `--url`, `--decision` or `--prompt`")
        }
        _ => bail!(
            "a hook does one thing: give one of `--command`, `--url`, `--decision`, `--prompt`"
        ),
    };
    let spec = build_hook(&args.event, args.matcher.as_deref(), action, dialect)?;
    let mut spec = spec.with_enabled(!args.disabled);
    spec.id = args.id.clone();
    spec.description = args.description.clone();
    if let Some(t) = &args.timeout {
        spec.timeout = Some(parse_timeout(t)?);
    }
    Ok(spec)
}

/// A hook on `event` (any dialect's spelling) with `matcher` read in `dialect`'s matcher
/// language (a regular expression where [`DialectFacts::typed_matcher_is_regex`] says
/// so), with the defaults `dialect`'s loader gives a new hook.
pub fn build_hook(
    event: &str,
    matcher: Option<&str>,
    action: Action,
    dialect: Dialect,
) -> Result<HookSpec> {
    let event = super::render::resolve_event(event)?;
    let facts = DialectFacts::of(dialect);
    let matcher = match matcher
        .map(str::trim)
        .filter(|m| !m.is_empty() && *m != "*")
    {
        None => Matcher::all(),
        Some(m) if facts.typed_matcher_is_regex() => {
            Matcher::regex(m).map_err(|e| anyhow!("{e}"))?
        }
        Some(m) => Matcher::parse(m).map_err(|e| anyhow!("{e}"))?,
    };
    let mut spec = HookSpec::new(event, action)
        .with_matcher(matcher)
        .with_dialect(dialect);
    // The defaults its dialect's loader gives a new hook (Fabro's depend on the event and
    // the action), so that it is written with no more keys than it needs.
    facts
        .complete_new_hook(&mut spec)
        .map_err(|e| anyhow!("{e}"))?;
    Ok(spec)
}

/// `30` (seconds), `30s`, `1m 30s`, `500ms`.
fn parse_timeout(text: &str) -> Result<Duration> {
    let t = text.trim();
    let d = match t.parse::<f64>() {
        Ok(secs) if secs.is_finite() && secs >= 0.0 => Duration::from_secs_f64(secs),
        _ => hooks::config::parse_duration(t).map_err(|why| {
            anyhow!(
                "`--timeout {text}` is not a timeout: {why}\n  hint: write a number of seconds (`30`) or a duration (`30s`, `500ms`, `1m 30s`)"
            )
        })?,
    };
    if d.is_zero() {
        bail!("`--timeout {text}`: a timeout is greater than zero");
    }
    Ok(d)
}

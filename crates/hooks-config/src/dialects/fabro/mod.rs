//! Fabro run configs (`run.toml`, `.fabro/project.toml`, `~/.fabro/settings.toml`): the
//! whole documented schema is checked, and `[[run.hooks]]` become hooks.
//!
//! Fabro specifics: exactly one of `script` (sh -c), `command` (argv), `url`, `prompt` or
//! `agent = "enabled"` (an agent hook, whose task is its `prompt`); matchers are always regular expressions; `blocking` defaults to true for
//! `run_start`, `stage_start`, `edge_selected`, `pre_tool_use` and `sandbox_ready` and a
//! non-blocking hook runs in the background; timeouts are duration strings (default
//! `"60s"`, `"30s"` for prompts); command hooks fail closed (a crash blocks) and the others
//! fail open, as Fabro documents; `url` must be `https://` unless `tls = "off"`. Command
//! hooks run in the run's working directory, `[run].working_dir` (relative to the run
//! config's folder, as Fabro resolves the paths a run config names), when it is set; the
//! merge takes it away again when the run's environment is a `docker` or `daytona`
//! container, whose directory it is.

mod convert;
pub(crate) mod run;

use std::path::{Path, PathBuf};

use hooks_core::{
    Action, BuiltinEvent, CommandAction, CommandLine, Dialect, Event, FailurePolicy, HookSpec,
    HttpAction, Layer, PromptAction, PromptMode,
};

use crate::check;
use crate::dialects::files::{
    Claim, DialectFiles, EditRules, RunConfig, Shape, SwitchNames, Writing,
};
use crate::error::DiagnosticKind;
use crate::file::{ConfigFile, Item};
use crate::interpolate::EnvScope;
use crate::parse::Format;
use crate::reader::{ReadRules, Reader, field};
use crate::schema::FileSchema;
use crate::tree::{Node, Value};
use crate::write::WriteRules;

/// Fabro's row.
pub(crate) static FILES: DialectFiles = DialectFiles {
    dialect: Dialect::Fabro,
    formats: &[Format::Toml],
    from_path: |path| {
        let name = path.file_name()?.to_str()?;
        let fabro = match name {
            "project.toml" | "settings.toml" => in_fabro_dir(path),
            "run.toml" | "workflow.toml" | "fabro.toml" => true,
            _ => false,
        };
        fabro.then_some(Claim::Name)
    },
    shapes: &[
        Shape {
            rank: 30,
            fits: |_, root| {
                ["_version", "run", "workflow", "environments"]
                    .iter()
                    .any(|k| root.get(k).is_some())
            },
        },
        // A legacy top-level `[[hooks]]` list whose hooks use Fabro's keys.
        Shape {
            rank: 100,
            fits: |_, root| {
                field(root, "hooks")
                    .and_then(Node::as_seq)
                    .is_some_and(|items| {
                        items
                            .iter()
                            .any(|h| h.get("script").is_some() || h.get("blocking").is_some())
                    })
            },
        },
    ],
    shape_over_name: crate::dialects::files::no_other_shape,
    layer_from_path,
    unparsed: None,
    read,
    path_var: crate::dialects::files::no_path_var,
    reading: ReadRules::PLAIN,
    writing: Writing::File(convert::write),
    write_rules: WriteRules {
        regex_matchers: true,
        ..WriteRules::PLAIN
    },
    switch_names: SwitchNames::NATIVE,
    run_config: Some(RunConfig {
        recognised: is_run_config,
        runs_here: run::runs_here,
    }),
    disabled_name: None,
    editing: EditRules {
        template: Some("_version = 1\n"),
        comments_out: true,
        typed_regex: true,
        new_hook: Some(new_hook),
        ..EditRules::IN_PLACE
    },
};

/// Gives a new hook Fabro's defaults, which depend on the event and the action (blocking
/// on some events, command hooks fail closed): taken from Fabro's loader rather than
/// restated, by loading the hook written with only its event and action.
fn new_hook(spec: &mut HookSpec) -> Result<(), crate::Error> {
    let key = match &spec.action {
        Action::Http(_) => "url",
        Action::Prompt(_) => "prompt",
        _ => "script",
    };
    let value = if key == "url" {
        "https://example.invalid/"
    } else {
        "x"
    };
    let text = format!(
        "[[run.hooks]]\nevent = {}\n{key} = \"{value}\"\n",
        serde_json::Value::String(spec.event.info().name_in(Dialect::Fabro).to_owned())
    );
    let options = crate::LoadOptions::new().with_dialect(Dialect::Fabro);
    let defaults = crate::load_str(&text, Some(Path::new("run.toml")), &options)?;
    if let Some(d) = defaults.hooks().next() {
        spec.on_failure = d.on_failure;
        spec.is_async = d.is_async;
    }
    Ok(())
}

/// Whether the file at `path` is directly in a `.fabro` folder.
fn in_fabro_dir(path: &Path) -> bool {
    path.parent()
        .and_then(Path::file_name)
        .is_some_and(|n| n == ".fabro")
}

/// The layer a Fabro file's name gives it: `~/.fabro/settings.toml` (any
/// `.fabro/settings.toml`) is the user layer, `.fabro/project.toml` the project layer,
/// and any other run config (`run.toml`, `workflow.toml`, ...) the run layer.
fn layer_from_path(path: &Path) -> Option<Layer> {
    let name = path.file_name()?.to_str()?;
    Some(match name {
        "settings.toml" if in_fabro_dir(path) => Layer::User,
        "project.toml" if in_fabro_dir(path) => Layer::Project,
        _ => Layer::Run,
    })
}

/// Reads a Fabro run config: the whole documented schema checked, its hooks, the rest of
/// the run config checked as Fabro checks it, and the run environment it selects.
fn read(reader: &mut Reader<'_>, root: &Node, file: &mut ConfigFile) {
    if !check::top_table(reader, root) {
        return;
    }
    check::file(reader, FileSchema::Fabro, root, rename_hint);
    load(reader, root, file);
    run::check(reader, root);
    file.settings.run_environment = run::run_environment(reader, root);
}

/// Keys that moved in Fabro's v2 run config, with where they went.
const TOP_LEVEL_MOVES: [(&str, &str); 14] = [
    ("version", "`version` was renamed to `_version`"),
    ("hooks", "hooks moved to `[[run.hooks]]`"),
    ("goal", "`goal` moved to `[run].goal`"),
    ("working_dir", "`working_dir` moved to `[run].working_dir`"),
    ("graph", "`graph` moved to `[workflow].graph`"),
    ("model", "`model` moved to `[run.model]`"),
    ("prepare", "`prepare` moved to `[[run.prepare.steps]]`"),
    ("setup", "setup commands moved to `[[run.prepare.steps]]`"),
    ("inputs", "`inputs` moved to `[run.inputs]`"),
    (
        "sandbox",
        "sandbox settings moved to `[run.environment]` and `[environments.<slug>]`",
    ),
    ("checkpoint", "`checkpoint` moved to `[run.checkpoint]`"),
    (
        "pull_request",
        "`pull_request` moved to `[run.pull_request]`",
    ),
    (
        "mcp_servers",
        "MCP servers moved to `[run.agent.mcps.<name>]`",
    ),
    ("artifacts", "`artifacts` moved to `[run.artifacts]`"),
];

/// Fabro's own tables: a file that writes one is a run config, hooks or none.
const RUN_CONFIG_TABLES: [&str; 3] = ["run", "workflow", "environments"];

/// Whether `text` is a Fabro run config by its own keys, though it may have no hooks (they
/// can live in a layer above): it writes one of Fabro's tables (`[run]`, `[run.model]`,
/// `[[run.hooks]]`, `[workflow]`, `[environments.<slug>]`), or, when `named` is Fabro (the
/// dialect the file's name or the caller gives it), a key an older run config had at the
/// top level (`goal`, `working_dir`, `[sandbox]`, ...; see [`TOP_LEVEL_MOVES`]). Such a
/// file's diagnostics quote it, so its rename hints are seen.
fn is_run_config(named: Option<Dialect>, text: &str) -> bool {
    let fabro = named == Some(Dialect::Fabro);
    let mut top_level = true;
    text.lines().any(|line| {
        let line = line.trim_start();
        if let Some(header) = line.strip_prefix('[') {
            let name = header
                .trim_start_matches('[')
                .split(['.', ']'])
                .next()
                .unwrap_or_default()
                .trim()
                .trim_matches(['"', '\'']);
            let legacy = fabro && TOP_LEVEL_MOVES.iter().any(|(k, _)| *k == name);
            top_level = false;
            return RUN_CONFIG_TABLES.contains(&name) || legacy;
        }
        let key = line
            .split('=')
            .next()
            .filter(|_| line.contains('='))
            .unwrap_or_default()
            .trim()
            .trim_matches(['"', '\'']);
        fabro && top_level && TOP_LEVEL_MOVES.iter().any(|(k, _)| *k == key)
    })
}

/// Fabro's rename hints for unknown keys.
pub(crate) fn rename_hint(path: &[String], key: &str) -> Option<String> {
    if path.is_empty() {
        return TOP_LEVEL_MOVES
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, hint)| (*hint).to_owned());
    }
    let in_hook = path.len() == 3 && path[0] == "run" && path[1] == "hooks";
    match key {
        "timeout_ms" if in_hook => Some("`timeout_ms` is now `timeout`, a duration such as `\"30s\"`".to_owned()),
        "type" if in_hook => Some(
            "v2 hooks have no `type`: write `script` (shell), `command` (argv), `url`, `prompt` or `agent`".to_owned(),
        ),
        _ => None,
    }
}

/// Events where Fabro hooks block (the run waits for them) unless `blocking = false`.
fn blocking_by_default(event: &Event) -> bool {
    matches!(
        event.builtin(),
        Some(
            BuiltinEvent::RunStart
                | BuiltinEvent::StageStart
                | BuiltinEvent::EdgeSelected
                | BuiltinEvent::PreToolUse
                | BuiltinEvent::SandboxReady
        )
    )
}

pub(crate) fn load(reader: &mut Reader<'_>, root: &Node, file: &mut ConfigFile) {
    if let Some(v) = field(root, "_version")
        && v.value != Value::Int(1)
    {
        reader.error(
            DiagnosticKind::InvalidValue,
            v.pos,
            "unsupported `_version`; only 1 is accepted",
            Some("write `_version = 1` or leave it out".to_owned()),
        );
    }
    if let Some(legacy) = root.get("hooks") {
        // Reported by the schema check with its rename hint; reading on would duplicate it.
        let _ = legacy;
    }
    let run = field(root, "run");
    let mcps = run
        .and_then(|r| field(r, "agent"))
        .and_then(|a| field(a, "mcps"));
    file.settings.mcp_servers = crate::mcp::read::fabro_servers(reader, mcps);
    let workdir = run
        .and_then(|r| field(r, "working_dir"))
        .and_then(Node::as_str)
        .map(|dir| working_dir(reader.src.path(), dir));
    file.settings.working_dir.clone_from(&workdir);
    let Some(hooks) = run.and_then(|r| field(r, "hooks")).and_then(Node::as_seq) else {
        return;
    };
    for hook in hooks {
        if hook.as_map().is_some()
            && let Some(mut spec) = fabro_hook(reader, hook)
        {
            if let Action::Command(c) = &mut spec.action {
                c.cwd.clone_from(&workdir);
            }
            file.items.push(Item::Hook(spec));
        }
    }
}

/// `[run].working_dir` as a directory: absolute as written, else relative to the run
/// config's folder (as Fabro resolves `[workflow].graph`), else, for a config with no file,
/// as written (relative to the event's `cwd`).
fn working_dir(config: Option<&Path>, dir: &str) -> PathBuf {
    let dir = Path::new(dir);
    match config.and_then(crate::source::file_dir) {
        Some(base) if dir.is_relative() => base.join(dir),
        Some(_) | None => dir.to_path_buf(),
    }
}

/// The keys of other kinds of hook that a command hook (`script` or `command`) refuses.
const NOT_FOR_COMMANDS: [&str; 5] = [
    "headers",
    "allowed_env_vars",
    "tls",
    "model",
    "max_tool_rounds",
];

fn fabro_hook(reader: &mut Reader<'_>, node: &Node) -> Option<HookSpec> {
    reader.hook_label = reader
        .string(field(node, "id"))
        .or_else(|| reader.string(field(node, "name")));
    let event = field(node, "event").and_then(|e| {
        let name = e.as_str()?;
        reader.event(name, e.pos)
    });
    // An agent hook is `agent = "enabled"` with its task in `prompt`, so a `prompt` beside
    // `agent` is part of the agent hook rather than a second action.
    let is_agent = field(node, "agent").is_some();
    let present: Vec<&str> = ["script", "command", "url", "prompt", "agent"]
        .into_iter()
        .filter(|k| field(node, k).is_some() && !(is_agent && *k == "prompt"))
        .collect();
    let action = match present.as_slice() {
        [one] => fabro_action(reader, node, one),
        [] => {
            reader.error(
                DiagnosticKind::MissingKey,
                node.pos,
                "the hook has no action",
                Some(
                    "give it exactly one of `script`, `command`, `url`, `prompt` or `agent`"
                        .to_owned(),
                ),
            );
            None
        }
        many => {
            let pos = node.get(many[1]).map_or(node.pos, |e| e.key_pos);
            reader.error(
                DiagnosticKind::Conflict,
                pos,
                format!("a hook has exactly one of `script`, `command`, `url`, `prompt` or `agent`, not {}", many.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(" and ")),
                None,
            );
            None
        }
    };
    let matcher = reader.matcher(field(node, "matcher"), event.as_ref(), true);
    let timeout = reader.timeout(field(node, "timeout"));
    let (Some(event), Some(action), Some(matcher), Some(timeout)) =
        (event, action, matcher, timeout)
    else {
        return None;
    };
    let timeout = timeout.unwrap_or_else(|| reader.default_timeout(&event, &action, node.pos));
    let blocking = reader
        .boolean(field(node, "blocking"))
        .unwrap_or_else(|| blocking_by_default(&event));
    let on_failure = if matches!(action, Action::Command(_)) {
        FailurePolicy::Block
    } else {
        FailurePolicy::Allow
    };
    let mut spec = HookSpec::new(event, action)
        .with_matcher(matcher)
        .with_timeout(timeout)
        .with_on_failure(on_failure)
        .with_async(!blocking)
        .with_dialect(hooks_core::Dialect::Fabro)
        .with_provenance(reader.provenance(node.pos));
    spec.id = reader.string(field(node, "id"));
    spec.name = reader.string(field(node, "name"));
    Some(spec)
}

fn fabro_action(reader: &mut Reader<'_>, node: &Node, key: &str) -> Option<Action> {
    let value = field(node, key)?;
    let not_for = |reader: &mut Reader<'_>, keys: &[&str], kind: &str| {
        for k in keys {
            if let Some(e) = node.get(k) {
                reader.error(
                    DiagnosticKind::Conflict,
                    e.key_pos,
                    format!("`{k}` does not apply to a {kind} hook"),
                    None,
                );
            }
        }
    };
    match key {
        "script" => {
            let s = value.as_str()?;
            not_for(
                reader,
                &NOT_FOR_COMMANDS,
                "script",
            );
            reader.check_command_len(s.len(), value.pos).then_some(())?;
            let mut c = CommandAction::new(CommandLine::Script(reader.interp(s, value.pos)));
            c.sandbox = reader.boolean(field(node, "sandbox"));
            Some(Action::Command(c))
        }
        "command" => {
            not_for(
                reader,
                &NOT_FOR_COMMANDS,
                "command",
            );
            if value.as_seq().is_none() {
                if value.as_str().is_some() {
                    reader.error(
                        DiagnosticKind::WrongType,
                        value.pos,
                        "`command` is an argv list in Fabro's v2 run config",
                        Some("write a shell command as `script = \"...\"`, or split it: `command = [\"prog\", \"arg\"]`".to_owned()),
                    );
                }
                return None;
            }
            let mut c = CommandAction::new(crate::dialects::handler::argv(reader, value)?);
            c.sandbox = reader.boolean(field(node, "sandbox"));
            Some(Action::Command(c))
        }
        "url" => {
            not_for(reader, &["model", "max_tool_rounds"], "url");
            let allowed = reader
                .strings(field(node, "allowed_env_vars"))
                .unwrap_or_default();
            let url = reader.interp_in(value.as_str()?, value.pos, EnvScope::HttpUrl(&allowed));
            let tls = reader.string(field(node, "tls"));
            if tls.as_deref() != Some("off") && !url.starts_with("https://") {
                reader.error(
                    DiagnosticKind::InvalidValue,
                    value.pos,
                    "a hook URL must use `https://` unless `tls = \"off\"`",
                    None,
                );
                return None;
            }
            if tls.as_deref() == Some("no_verify")
                && let Some(t) = field(node, "tls")
            {
                reader.warn(
                    DiagnosticKind::InvalidValue,
                    t.pos,
                    "`tls = \"no_verify\"` is not supported; certificates are always verified",
                    None,
                );
            }
            let headers =
                reader.string_map_in(field(node, "headers"), EnvScope::HttpHeader(&allowed));
            Some(Action::Http(HttpAction {
                url,
                headers,
                allowed_env_vars: allowed,
            }))
        }
        "prompt" => {
            not_for(reader, &["headers", "allowed_env_vars", "tls"], key);
            if let Some(e) = node.get("max_tool_rounds") {
                reader.error(
                    DiagnosticKind::Conflict,
                    e.key_pos,
                    "`max_tool_rounds` applies to agent hooks only",
                    Some("make it an agent hook with `agent = \"enabled\"`, or remove `max_tool_rounds`".to_owned()),
                );
            }
            let prompt = reader.interp(value.as_str()?, value.pos);
            Some(Action::Prompt(PromptAction {
                prompt,
                mode: PromptMode::Evaluate,
                model: reader.string(field(node, "model")),
                max_tool_rounds: None,
                continue_on_block: false,
            }))
        }
        "agent" => {
            not_for(reader, &["headers", "allowed_env_vars", "tls"], key);
            // Fabro's marker: `agent = "enabled"`, and the task is the `prompt`.
            match value.as_str() {
                Some("enabled") => {}
                Some(_) => {
                    reader.error(
                        DiagnosticKind::InvalidValue,
                        value.pos,
                        "`agent` is the marker `\"enabled\"`; an agent hook's task goes in `prompt`",
                        Some("write `agent = \"enabled\"` and `prompt = \"...\"`".to_owned()),
                    );
                    return None;
                }
                // A wrong type was reported by the schema check.
                None => return None,
            }
            let Some(text) = field(node, "prompt") else {
                reader.error(
                    DiagnosticKind::MissingKey,
                    node.pos,
                    "an agent hook needs a `prompt`: the task the agent carries out",
                    Some("add `prompt = \"...\"` beside `agent = \"enabled\"`".to_owned()),
                );
                return None;
            };
            let prompt = reader.interp(text.as_str()?, text.pos);
            let max_tool_rounds = match field(node, "max_tool_rounds").map(|n| &n.value) {
                Some(Value::Int(i)) => u32::try_from(*i).ok(),
                _ => None,
            };
            Some(Action::Prompt(PromptAction {
                prompt,
                mode: PromptMode::Agent,
                model: reader.string(field(node, "model")),
                max_tool_rounds,
                continue_on_block: false,
            }))
        }
        _ => None,
    }
}

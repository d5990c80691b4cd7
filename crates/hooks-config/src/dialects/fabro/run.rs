//! The rest of a Fabro run config, checked as Fabro checks it when it loads: the CIDRs of
//! network allow lists, artifact globs, prepare steps and MCP servers (`script` xor
//! `command`, a catalog `id` never mixed with inline transport fields), a provider for
//! every environment, and hook ids that a file uses once each.
//!
//! Every problem is an error at its `file:line:col` with a hint; the file then does not
//! load, and the other files still do (see [`crate::BrokenFile`]).

use std::collections::BTreeMap;
use std::net::IpAddr;

use crate::error::{Diagnostic, DiagnosticKind};
use crate::file::{ConfigFile, RunEnvironment};
use crate::interpolate::{self, EnvScope};
use crate::reader::{Reader, field};
use crate::tree::{Node, Pos};

/// Checks everything of `root` but its hooks' own fields, which `fabro::fabro_hook` reads.
pub(crate) fn check(reader: &mut Reader<'_>, root: &Node) {
    let run = field(root, "run");
    if let Some(envs) = field(root, "environments").and_then(Node::as_map) {
        for env in envs {
            catalog_entry(reader, &env.key, env.key_pos, &env.value);
        }
    }
    if let Some(selected) = run.and_then(|r| field(r, "environment")) {
        network(reader, selected);
    }
    if let Some(include) = run
        .and_then(|r| field(r, "artifacts"))
        .and_then(|a| field(a, "include"))
        .and_then(Node::as_seq)
    {
        for glob in include {
            artifact_glob(reader, glob);
        }
    }
    if let Some(steps) = run
        .and_then(|r| field(r, "prepare"))
        .and_then(|p| field(p, "steps"))
        .and_then(Node::as_seq)
    {
        for step in steps.iter().filter(|s| s.as_map().is_some()) {
            one_launcher(reader, step, "a prepare step", true);
        }
    }
    if let Some(mcps) = run
        .and_then(|r| field(r, "agent"))
        .and_then(|a| field(a, "mcps"))
        .and_then(Node::as_map)
    {
        for server in mcps.iter().filter(|s| s.value.as_map().is_some()) {
            mcp_server(reader, &server.key, &server.value);
        }
    }
    if let Some(hooks) = run.and_then(|r| field(r, "hooks")).and_then(Node::as_seq) {
        unique_ids(reader, hooks);
    }
}

/// `[environments.<slug>]`: a provider, no `image.docker` for a Daytona one (Fabro refuses
/// it: Daytona builds from `image.dockerfile`), and a network allow list of CIDRs.
fn catalog_entry(reader: &mut Reader<'_>, slug: &str, key_pos: Pos, node: &Node) {
    if node.as_map().is_none() {
        return;
    }
    if field(node, "provider").is_none() {
        reader.error(
            DiagnosticKind::MissingKey,
            key_pos,
            format!("environment `{slug}` has no `provider`"),
            Some(format!(
                "add `provider = \"local\"`, `\"docker\"` or `\"daytona\"` under `[environments.{slug}]`; to change the selected environment of another layer, write the change under `[run.environment]`"
            )),
        );
    }
    if field(node, "provider").and_then(Node::as_str) == Some("daytona")
        && let Some(docker) = field(node, "image")
            .and_then(Node::as_map)
            .and_then(|image| image.iter().find(|e| e.key == "docker"))
    {
        reader.error(
            DiagnosticKind::InvalidValue,
            docker.key_pos,
            format!("environment `{slug}` is a Daytona sandbox, which takes no `image.docker`"),
            Some(
                "give Daytona a Dockerfile: `image.dockerfile = \"FROM node:20\"` (or `{ path = \"Dockerfile\" }`)"
                    .to_owned(),
            ),
        );
    }
    network(reader, node);
}

/// `network.allow` of an environment (or of `[run.environment]`): CIDRs.
fn network(reader: &mut Reader<'_>, node: &Node) {
    let Some(allow) = field(node, "network")
        .and_then(|n| field(n, "allow"))
        .and_then(Node::as_seq)
    else {
        return;
    };
    for entry in allow {
        let Some(text) = entry.as_str() else { continue };
        if let Err(why) = cidr(text) {
            reader.error(
                DiagnosticKind::InvalidValue,
                entry.pos,
                format!("`{text}` is not a CIDR: {why}"),
                Some(
                    "write an address and a prefix length, such as `10.0.0.0/8` or `2001:db8::/32`"
                        .to_owned(),
                ),
            );
        }
    }
}

/// Whether `text` is an IPv4 or IPv6 CIDR (`address/prefix`), and if not, why.
fn cidr(text: &str) -> Result<(), String> {
    let Some((addr, prefix)) = text.split_once('/') else {
        return Err("it has no `/prefix`".to_owned());
    };
    let addr: IpAddr = addr
        .parse()
        .map_err(|_| format!("`{addr}` is not an IP address"))?;
    let max = if addr.is_ipv4() { 32 } else { 128 };
    match prefix.parse::<u8>() {
        Ok(p) if p <= max && !prefix.starts_with('+') => Ok(()),
        _ => Err(format!(
            "the prefix length `{prefix}` is not a number from 0 to {max}"
        )),
    }
}

/// One `[run.artifacts].include` pattern: relative, with no `..` segment, `/` separators.
fn artifact_glob(reader: &mut Reader<'_>, node: &Node) {
    let Some(glob) = node.as_str() else { return };
    let why = if glob.starts_with('/') {
        Some("it is absolute")
    } else if glob.contains('\\') {
        Some("it has a backslash (patterns use `/`)")
    } else if glob.split('/').any(|segment| segment == "..") {
        Some("it has a `..` segment")
    } else if glob.is_empty() {
        Some("it is empty")
    } else {
        None
    };
    if let Some(why) = why {
        reader.error(
            DiagnosticKind::InvalidGlob,
            node.pos,
            format!("the artifact pattern `{glob}` is invalid: {why}"),
            Some("artifact patterns are relative to the sandbox working directory, such as `test-results/**`".to_owned()),
        );
    }
}

/// Exactly one of `script` and `command` in `node` (a prepare step, or an MCP server that
/// starts a process); `required`: having neither is an error too.
fn one_launcher(reader: &mut Reader<'_>, node: &Node, what: &str, required: bool) {
    match (node.get("script"), node.get("command")) {
        (Some(_), Some(command)) => reader.error(
            DiagnosticKind::Conflict,
            command.key_pos,
            format!("{what} has both `script` and `command`"),
            Some("keep one: `script` is Bash source, `command` an argv list".to_owned()),
        ),
        (None, None) if required => reader.error(
            DiagnosticKind::MissingKey,
            node.pos,
            format!("{what} has neither `script` nor `command`"),
            Some("give it `script = \"...\"` (Bash) or `command = [\"prog\", \"arg\"]`".to_owned()),
        ),
        _ => {}
    }
}

/// The keys of an inline MCP transport, which a catalog reference (`id`) cannot have.
const INLINE_MCP_KEYS: [&str; 9] = [
    "type",
    "script",
    "command",
    "port",
    "url",
    "env",
    "headers",
    "startup_timeout",
    "tool_timeout",
];

/// `[run.agent.mcps.<name>]`: a catalog reference (`id`, `enabled`) or an inline transport.
fn mcp_server(reader: &mut Reader<'_>, name: &str, node: &Node) {
    if node.get("id").is_some() {
        for key in INLINE_MCP_KEYS {
            if let Some(e) = node.get(key) {
                reader.error(
                    DiagnosticKind::Conflict,
                    e.key_pos,
                    format!("MCP server `{name}` references the catalog entry `id`, so it cannot also set the inline field `{key}`"),
                    Some("remove `id` to define the server inline, or remove the inline fields to use the catalog's definition".to_owned()),
                );
            }
        }
        return;
    }
    let what = format!("MCP server `{name}`");
    match field(node, "type").and_then(Node::as_str) {
        None => {
            if node.get("type").is_none() {
                reader.error(
                    DiagnosticKind::MissingKey,
                    node.pos,
                    format!("{what} has neither `id` nor `type`"),
                    Some("reference a catalog entry with `id = \"...\"`, or define it inline with `type = \"stdio\"`, `\"http\"` or `\"sandbox\"`".to_owned()),
                );
            }
        }
        Some("http") => {
            for key in ["script", "command", "port", "env"] {
                if let Some(e) = node.get(key) {
                    reader.error(
                        DiagnosticKind::Conflict,
                        e.key_pos,
                        format!("`{key}` does not apply to the http {what}"),
                        Some("an http server is reached at its `url`, with `headers`".to_owned()),
                    );
                }
            }
            if node.get("url").is_none() {
                reader.error(
                    DiagnosticKind::MissingKey,
                    node.pos,
                    format!("the http {what} has no `url`"),
                    None,
                );
            }
        }
        Some(kind) => {
            one_launcher(reader, node, &what, true);
            for key in ["url", "headers"] {
                if let Some(e) = node.get(key) {
                    reader.error(
                        DiagnosticKind::Conflict,
                        e.key_pos,
                        format!("`{key}` does not apply to the {kind} {what}"),
                        Some("`url` and `headers` belong to `type = \"http\"`".to_owned()),
                    );
                }
            }
            if kind == "sandbox" && node.get("port").is_none() {
                reader.error(
                    DiagnosticKind::MissingKey,
                    node.pos,
                    format!("the sandbox {what} has no `port`"),
                    Some(
                        "give the port it listens on inside the sandbox, such as `port = 3100`"
                            .to_owned(),
                    ),
                );
            }
        }
    }
}

/// The hooks of one file use each `id` once: the id is how a higher layer replaces a hook,
/// so a second use in the same file is an error naming both lines.
fn unique_ids(reader: &mut Reader<'_>, hooks: &[Node]) {
    let mut seen: BTreeMap<&str, Pos> = BTreeMap::new();
    for hook in hooks {
        let Some(id) = field(hook, "id") else {
            continue;
        };
        let Some(text) = id.as_str() else { continue };
        match seen.get(text) {
            Some(first) => {
                let first = *first;
                reader.error(
                    DiagnosticKind::Conflict,
                    id.pos,
                    format!(
                        "the hook id `{text}` is used twice in this file, at lines {} and {}",
                        first.line, id.pos.line
                    ),
                    Some("an id names one hook (a higher layer replaces it by that id); give each hook of the file its own id".to_owned()),
                );
            }
            None => {
                seen.insert(text, id.pos);
            }
        }
    }
}

/// What the file says about the run's environment: `[run.environment].id`, and the
/// interpolated variables of `[environments.<id>.env]` and `[run.environment.env]`.
pub(crate) fn run_environment(reader: &mut Reader<'_>, root: &Node) -> RunEnvironment {
    let selected = field(root, "run").and_then(|r| field(r, "environment"));
    let mut out = RunEnvironment {
        id: selected.and_then(|s| reader.string(field(s, "id"))),
        ..RunEnvironment::default()
    };
    if let Some(envs) = field(root, "environments").and_then(Node::as_map) {
        for env in envs {
            if let Some(provider) = field(&env.value, "provider").and_then(Node::as_str) {
                out.providers.insert(env.key.clone(), provider.to_owned());
            }
            if let Some(vars) = field(&env.value, "env") {
                let vars = env_vars(reader, vars);
                out.catalog.insert(env.key.clone(), vars);
            }
        }
    }
    if let Some(vars) = selected.and_then(|s| field(s, "env")) {
        out.overrides = env_vars(reader, vars);
    }
    out
}

/// Whether the run's environment is this machine, as the trusted run configs `files`
/// (lowest layer first) select it (the highest layer's `[run.environment].id`, else
/// `default`, as merging selects it): its provider, as the highest layer that defines it
/// writes it, is `local`, or no file defines it. A `docker` or `daytona` environment's
/// working directory is inside its container.
pub(crate) fn runs_here(files: &[&ConfigFile]) -> bool {
    let id = files
        .iter()
        .rev()
        .find_map(|f| f.settings.run_environment.id.as_deref())
        .unwrap_or("default");
    files
        .iter()
        .rev()
        .find_map(|f| f.settings.run_environment.providers.get(id))
        .is_none_or(|provider| provider == "local")
}

/// An `env` table, each value interpolated the way Fabro interpolates environment values:
/// a missing variable or secret is an error at the value (fails closed), an environment
/// variable that is not set stays as written, with a note for `hooks validate`.
fn env_vars(reader: &mut Reader<'_>, node: &Node) -> Vec<(String, String)> {
    let Some(entries) = node.as_map() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for e in entries {
        let Some(value) = e.value.as_str() else {
            continue;
        };
        let mut notes = Vec::new();
        let result = interpolate::load_time(
            value,
            &reader.opts.interpolation,
            &reader.file_vars,
            None,
            EnvScope::PassMissing,
            &mut notes,
        );
        for n in notes {
            let d = Diagnostic::warning(
                DiagnosticKind::Interpolation,
                format!("environment variable `{}`: {}", e.key, n.message),
            )
            .with_hint_opt(n.hint);
            let d = reader.src.diag(d, e.value.pos);
            reader.notes.push(d);
        }
        match result {
            Ok(v) => out.push((e.key.clone(), v)),
            Err(err) => reader.error(
                DiagnosticKind::Interpolation,
                e.value.pos,
                format!("environment variable `{}`: {}", e.key, err.message),
                err.hint,
            ),
        }
    }
    out
}

//! Reading MCP server definitions from a parsed file: a native `mcp_servers` table, Claude
//! Code's `mcpServers` (with `${VAR}` and `${VAR:-default}` expanded), Fabro's
//! `[run.agent.mcps]`.

use std::path::{Path, PathBuf};

use hooks_core::{Layer, McpServerConfig, Provenance};

use crate::error::DiagnosticKind;
use crate::mcp::McpServer;
use crate::reader::{Reader, field};
use crate::tree::Node;

/// The servers of a native `mcp_servers` table or a Claude Code `mcpServers` table, in
/// `layer`; a stdio server that names no `cwd` runs in `default_cwd` (for Claude Code's
/// files, the project root, where Claude Code starts them).
pub(crate) fn servers(
    reader: &mut Reader<'_>,
    table: Option<&Node>,
    layer: Layer,
    default_cwd: Option<&Path>,
) -> Vec<McpServer> {
    let Some(entries) = table.and_then(Node::as_map) else {
        return Vec::new();
    };
    let claude = reader.rules.mcp_env_expansion;
    let mut out = Vec::new();
    for entry in entries {
        let node = &entry.value;
        if node.as_map().is_none() {
            continue;
        }
        let kind = reader.string(field(node, "type"));
        let transport = match (kind.as_deref(), field(node, "command"), field(node, "url")) {
            (Some("sse"), _, _) => {
                reader.warn(
                    DiagnosticKind::InvalidValue,
                    node.pos,
                    format!(
                        "MCP server `{}` uses the SSE transport, which hooks cannot reach; it is not started",
                        entry.key
                    ),
                    Some("serve it over streamable HTTP (`\"type\": \"http\"`) or stdio".to_owned()),
                );
                continue;
            }
            (_, Some(command), None) => {
                let Some(command) = text(reader, command, claude) else {
                    continue;
                };
                let args = match field(node, "args").and_then(Node::as_seq) {
                    Some(args) => {
                        let mut out = Vec::new();
                        for arg in args {
                            match text(reader, arg, claude) {
                                Some(arg) => out.push(arg),
                                None => break,
                            }
                        }
                        if out.len() != args.len() {
                            continue;
                        }
                        out
                    }
                    None => Vec::new(),
                };
                let Some(env) = pairs(reader, field(node, "env"), claude) else {
                    continue;
                };
                let cwd = reader
                    .string(field(node, "cwd"))
                    .map(PathBuf::from)
                    .or_else(|| default_cwd.map(Path::to_path_buf));
                McpServerConfig::Stdio {
                    command,
                    args,
                    env,
                    cwd,
                }
            }
            (_, None, Some(url)) => {
                let Some(url) = text(reader, url, claude) else {
                    continue;
                };
                let Some(headers) = pairs(reader, field(node, "headers"), claude) else {
                    continue;
                };
                McpServerConfig::Http { url, headers }
            }
            (_, command, _) => {
                let both = command.is_some();
                reader.error(
                    if both {
                        DiagnosticKind::Conflict
                    } else {
                        DiagnosticKind::MissingKey
                    },
                    node.pos,
                    format!(
                        "MCP server `{}` needs exactly one of `command` (stdio) or `url` (streamable HTTP){}",
                        entry.key,
                        if both { ", not both" } else { "" }
                    ),
                    None,
                );
                continue;
            }
        };
        let mut provenance = reader.provenance(entry.key_pos);
        provenance.layer = layer;
        if let Some(server) = checked(reader, entry.key.clone(), transport, provenance, node) {
            out.push(server);
        }
    }
    out
}

/// The servers of Fabro's `[run.agent.mcps]`: inline `stdio` and `http` servers; catalog
/// references (`id`) and `sandbox` servers, which need Fabro's server and sandbox, are
/// left out with a warning, and `enabled = false` leaves a server off.
pub(crate) fn fabro_servers(reader: &mut Reader<'_>, table: Option<&Node>) -> Vec<McpServer> {
    let Some(entries) = table.and_then(Node::as_map) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for entry in entries {
        let node = &entry.value;
        if node.as_map().is_none() || reader.boolean(field(node, "enabled")) == Some(false) {
            continue;
        }
        let skip = |reader: &mut Reader<'_>, why: &str| {
            reader.warn(
                DiagnosticKind::InvalidValue,
                node.pos,
                format!(
                    "MCP server `{}` {why}, so mcp_tool hooks cannot call it here",
                    entry.key
                ),
                Some("define it inline with `type = \"stdio\"` or `type = \"http\"`".to_owned()),
            );
        };
        if field(node, "id").is_some() {
            skip(reader, "refers to Fabro's server-managed catalog");
            continue;
        }
        let transport = match reader.string(field(node, "type")).as_deref() {
            Some("sandbox") => {
                skip(reader, "runs inside Fabro's sandbox");
                continue;
            }
            Some("http") => {
                let Some(url) = field(node, "url").and_then(Node::as_str) else {
                    continue;
                };
                let url = reader.interp(url, node.pos);
                let headers = reader.string_map(field(node, "headers"));
                McpServerConfig::Http { url, headers }
            }
            _ => {
                let argv = match (field(node, "script"), field(node, "command")) {
                    (Some(script), None) => script.as_str().map(|s| {
                        vec![
                            "sh".to_owned(),
                            "-c".to_owned(),
                            reader.interp(s, script.pos),
                        ]
                    }),
                    (None, Some(command)) => command.as_seq().map(|items| {
                        items
                            .iter()
                            .filter_map(|i| i.as_str().map(|s| reader.interp(s, i.pos)))
                            .collect()
                    }),
                    _ => None,
                };
                let Some((command, args)) = argv.and_then(|mut argv: Vec<String>| {
                    (!argv.is_empty()).then(|| {
                        let command = argv.remove(0);
                        (command, argv)
                    })
                }) else {
                    continue;
                };
                let env = reader.string_map(field(node, "env"));
                McpServerConfig::Stdio {
                    command,
                    args,
                    env,
                    cwd: None,
                }
            }
        };
        let provenance = reader.provenance(entry.key_pos);
        if let Some(server) = checked(reader, entry.key.clone(), transport, provenance, node) {
            out.push(server);
        }
    }
    out
}

/// The server, if its command is not empty and its URL is an http(s) URL (what the
/// executor needs); otherwise an error at its definition.
fn checked(
    reader: &mut Reader<'_>,
    name: String,
    transport: McpServerConfig,
    provenance: Provenance,
    node: &Node,
) -> Option<McpServer> {
    let problem = match &transport {
        McpServerConfig::Stdio { command, .. } if command.trim().is_empty() => {
            Some("its command is empty".to_owned())
        }
        McpServerConfig::Http { url, .. }
            if !(url.starts_with("http://") || url.starts_with("https://")) =>
        {
            Some(format!("its URL `{url}` is not an http(s) URL"))
        }
        McpServerConfig::Stdio { .. } | McpServerConfig::Http { .. } => None,
    };
    if let Some(problem) = problem {
        reader.error(
            DiagnosticKind::InvalidValue,
            node.pos,
            format!("MCP server `{name}`: {problem}"),
            None,
        );
        return None;
    }
    Some(McpServer {
        name,
        transport,
        provenance,
    })
}

/// A string value, with Claude Code's `${VAR}` / `${VAR:-default}` expanded (`claude`) or
/// the engine's `{{ ... }}` interpolation; `None` when a variable Claude Code would need is
/// unset (a warning says which; the server is not started).
fn text(reader: &mut Reader<'_>, node: &Node, claude: bool) -> Option<String> {
    let s = node.as_str()?;
    if !claude {
        return Some(reader.interp(s, node.pos));
    }
    match expand(s, &|name| reader.opts.interpolation.env.get(name)) {
        Ok(out) => Some(out),
        Err(name) => {
            reader.warn(
                DiagnosticKind::Interpolation,
                node.pos,
                format!(
                    "`${{{name}}}` is not set and has no default, so this MCP server is not started"
                ),
                Some(format!(
                    "set `{name}`, or give a default: `${{{name}:-value}}`"
                )),
            );
            None
        }
    }
}

/// A table of strings, each value read with [`text`]; `None` when one cannot be.
fn pairs(
    reader: &mut Reader<'_>,
    node: Option<&Node>,
    claude: bool,
) -> Option<Vec<(String, String)>> {
    let Some(entries) = node.and_then(Node::as_map) else {
        return Some(Vec::new());
    };
    let mut out = Vec::new();
    for e in entries {
        if e.value.as_str().is_some() {
            out.push((e.key.clone(), text(reader, &e.value, claude)?));
        }
    }
    Some(out)
}

/// Claude Code's expansion: `${VAR}` is the variable's value, `${VAR:-default}` the value
/// or, when unset, the default. `Err(name)`: a variable is unset and has no default. Other
/// text, and `$` not followed by `{`, stays as written.
pub(crate) fn expand(s: &str, env: &dyn Fn(&str) -> Option<String>) -> Result<String, String> {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let Some(end) = after.find('}') else {
            out.push_str(&rest[start..]);
            return Ok(out);
        };
        let inner = &after[..end];
        let (name, default) = match inner.split_once(":-") {
            Some((name, default)) => (name, Some(default)),
            None => (inner, None),
        };
        match (env(name), default) {
            (Some(value), _) => out.push_str(&value),
            (None, Some(default)) => out.push_str(default),
            (None, None) => return Err(name.to_owned()),
        }
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

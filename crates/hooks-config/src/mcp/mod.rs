//! MCP server definitions, read where users already keep them, for `mcp_tool` hooks to
//! call by name.
//!
//! | Where | Shape |
//! |-------|-------|
//! | native files | `mcp_servers: {NAME: {command, args, env, cwd} \| {url, headers}}` |
//! | Claude Code `.mcp.json` (project), `~/.claude.json` (`mcpServers` for every project, `projects.<root>.mcpServers` for one), any Claude settings file | `mcpServers: {NAME: {type?, command, args, env} \| {type: "http", url, headers}}`, with `${VAR}` and `${VAR:-default}` expanded |
//! | Fabro run configs | `[run.agent.mcps.NAME]`: `type = "stdio"` with `script` or `command`, `env`; `type = "http"` with `url`, `headers` |
//!
//! Starting a server is running code, so a server of a file that needs trust (a discovered
//! project file) is started only when the file is trusted as a whole; the merge keeps the
//! others aside, with a warning ([`crate::HookSet::withheld_mcp_servers`]). Of servers
//! with the same name the highest layer's wins (Claude Code's local scope, a
//! `projects.<root>` entry of `~/.claude.json`, counts as the local layer).
//! `{{ secrets.NAME }}` stays a token until [`McpServer::resolve_secrets`], right before
//! the server is handed to the executor.

pub(crate) mod read;

use hooks_core::{McpServerConfig, Provenance};

use crate::error::{Diagnostic, DiagnosticKind, Error};
use crate::interpolate::{SecretProvider, tokens};

/// One MCP server a config defines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct McpServer {
    /// The name `mcp_tool` hooks give as `server`.
    pub name: String,
    /// How to reach it.
    pub transport: McpServerConfig,
    /// Where it was defined; its layer decides which of two same-named servers wins.
    pub provenance: Provenance,
}

impl McpServer {
    /// The server with its `{{ secrets.NAME }}` tokens filled in from `provider`.
    ///
    /// # Errors
    ///
    /// A missing secret, naming the server, the token and where the server was defined
    /// (never a value): the server is not started.
    pub fn resolve_secrets(&self, provider: &dyn SecretProvider) -> Result<McpServer, Error> {
        let mut missing = None;
        let mut fill = |s: &str| -> String {
            let mut out = String::with_capacity(s.len());
            let mut last = 0;
            for token in tokens(s).into_iter().filter(|t| t.namespace == "secrets") {
                out.push_str(&s[last..token.range.start]);
                match provider.secret(token.name) {
                    Some(secret) => out.push_str(secret.expose()),
                    None => missing = Some(token.name.to_owned()),
                }
                last = token.range.end;
            }
            out.push_str(&s[last..]);
            out
        };
        let pairs = |pairs: &[(String, String)], fill: &mut dyn FnMut(&str) -> String| {
            pairs
                .iter()
                .map(|(k, v)| (k.clone(), fill(v)))
                .collect::<Vec<_>>()
        };
        let transport = match &self.transport {
            McpServerConfig::Stdio {
                command,
                args,
                env,
                cwd,
            } => McpServerConfig::Stdio {
                command: fill(command),
                args: args.iter().map(|a| fill(a)).collect(),
                env: pairs(env, &mut fill),
                cwd: cwd.clone(),
            },
            McpServerConfig::Http { url, headers } => McpServerConfig::Http {
                url: fill(url),
                headers: pairs(headers, &mut fill),
            },
        };
        if let Some(name) = missing {
            let mut d = Diagnostic::error(
                DiagnosticKind::Interpolation,
                format!(
                    "MCP server `{}` needs secret `{name}` (`{{{{ secrets.{name} }}}}`), which is not available",
                    self.name
                ),
            )
            .with_hint("the server is not started; provide the secret to the secret provider");
            if let Some(file) = &self.provenance.file {
                d = d.with_file(file.clone());
            }
            if let (Some(line), Some(col)) = (self.provenance.line, self.provenance.column) {
                d = d.at(line, col);
            }
            return Err(d.into());
        }
        Ok(McpServer {
            name: self.name.clone(),
            transport,
            provenance: self.provenance.clone(),
        })
    }
}

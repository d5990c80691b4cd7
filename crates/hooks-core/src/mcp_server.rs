//! How to reach an MCP server: the one definition that config files produce, hosts give
//! and the mcp_tool executor connects to. Pure data: connecting is the executor's.

use std::path::PathBuf;

/// How to reach one MCP server. Exhaustive: the transports the engine can reach, matched
/// in full wherever one is read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum McpServerConfig {
    /// A server started as a child process, speaking MCP on its stdin and stdout.
    ///
    /// The process inherits the engine's environment plus `env`, runs in `cwd` (the
    /// engine's working directory when `None`) in its own process group, and its stderr
    /// is logged (`tracing`, debug level) and quoted in failure messages.
    Stdio {
        /// The program (looked up in `PATH` when it has no slash).
        command: String,
        /// Its arguments.
        args: Vec<String>,
        /// Extra environment variables.
        env: Vec<(String, String)>,
        /// The working directory.
        cwd: Option<PathBuf>,
    },
    /// A server reached over MCP's streamable HTTP transport.
    Http {
        /// The endpoint (`http://127.0.0.1:3001/mcp`).
        url: String,
        /// Headers sent with every request (`Authorization`, ...).
        headers: Vec<(String, String)>,
    },
}

impl McpServerConfig {
    /// A stdio server: `command` with `args`, no extra environment, the engine's directory.
    pub fn stdio<I, S>(command: impl Into<String>, args: I) -> McpServerConfig
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        McpServerConfig::Stdio {
            command: command.into(),
            args: args.into_iter().map(Into::into).collect(),
            env: Vec::new(),
            cwd: None,
        }
    }

    /// A streamable HTTP server at `url`, with no extra headers.
    pub fn http(url: impl Into<String>) -> McpServerConfig {
        McpServerConfig::Http {
            url: url.into(),
            headers: Vec::new(),
        }
    }
}

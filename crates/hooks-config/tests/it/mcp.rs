//! MCP server definitions in each dialect's own place (native `mcp_servers`, Claude Code's
//! `mcpServers` in `.mcp.json` and `~/.claude.json`, Fabro's `[run.agent.mcps]`), and the
//! merge: one server per name, the highest layer's, and none from a file that is not
//! trusted.

use std::path::Path;

use hooks_config::core::Layer;
use hooks_config::core::McpServerConfig;
use hooks_config::{LoadOptions, Origin, TrustPolicy, merge};

use crate::support::options;

/// A server as one line: `name: stdio PROGRAM ARGS.. [env K=V..] [cwd DIR] (LAYER)` or
/// `name: http URL [H: V..] (LAYER)`.
fn summary(server: &hooks_config::McpServer) -> String {
    let what = match &server.transport {
        McpServerConfig::Stdio {
            command,
            args,
            env,
            cwd,
        } => {
            let mut s = format!("stdio {command}");
            for a in args {
                s.push(' ');
                s.push_str(a);
            }
            for (k, v) in env {
                s.push_str(&format!(" env {k}={v}"));
            }
            if let Some(cwd) = cwd {
                s.push_str(&format!(" cwd {}", cwd.display()));
            }
            s
        }
        McpServerConfig::Http { url, headers } => {
            let mut s = format!("http {url}");
            for (k, v) in headers {
                s.push_str(&format!(" {k}: {v}"));
            }
            s
        }
    };
    format!(
        "{}: {what} ({})",
        server.name,
        server.provenance.layer.as_str()
    )
}

/// Loads `text` as the file `name`, and checks its servers and warnings.
#[track_caller]
fn check(name: &str, text: &str, options: LoadOptions, servers: &[&str], warnings: &[&str]) {
    let file = hooks_config::load_str(text, Some(Path::new(name)), &options)
        .unwrap_or_else(|e| panic!("{name} does not load:\n{e}"));
    let got: Vec<String> = file.settings.mcp_servers.iter().map(summary).collect();
    assert_eq!(got, servers, "{name}");
    let got: Vec<&str> = file.warnings.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(got, warnings, "{name}");
}

#[test]
fn each_dialect_declares_servers_in_its_own_place() {
    check(
        "hooks.yaml",
        "mcp_servers:\n  guard:\n    command: node\n    args: [guard.js, --home, '{{ env.HOME }}']\n    env: {LEVEL: strict}\n  policy:\n    url: http://127.0.0.1:3001/mcp\n    headers: {Authorization: 'Bearer {{ secrets.DOCS_TOKEN }}'}\n",
        options(),
        &[
            "guard: stdio node guard.js --home /home/test env LEVEL=strict (command_line)",
            "policy: http http://127.0.0.1:3001/mcp Authorization: Bearer {{ secrets.DOCS_TOKEN }} (command_line)",
        ],
        &[],
    );
    // Claude Code's `${VAR}` and `${VAR:-default}`; a project's servers start in its root.
    check(
        "/repo/.mcp.json",
        r#"{"mcpServers": {
            "files": {"command": "npx", "args": ["-y", "files-server", "${HOME}"], "env": {"MODE": "${MODE:-ro}"}},
            "api": {"type": "http", "url": "https://api.example.com/mcp", "headers": {"X-Home": "${HOME}"}},
            "old": {"type": "sse", "url": "https://sse.example.com/"},
            "needs": {"command": "tool", "env": {"KEY": "${API_KEY}"}}
        }}"#,
        options().with_layer(Layer::Project),
        &[
            "files: stdio npx -y files-server /home/test env MODE=ro cwd /repo (project)",
            "api: http https://api.example.com/mcp X-Home: /home/test (project)",
        ],
        &[
            "MCP server `old` uses the SSE transport, which hooks cannot reach; it is not started",
            "`${API_KEY}` is not set and has no default, so this MCP server is not started",
        ],
    );
    // `~/.claude.json`: the user scope, and the local scope of the project being loaded
    // (which ranks as the local layer); another project's servers are not read.
    check(
        "/home/test/.claude.json",
        r#"{"numStartups": 9, "mcpServers": {"mine": {"command": "mine"}},
            "projects": {
              "/repo": {"mcpServers": {"here": {"type": "stdio", "command": "here"}}},
              "/elsewhere": {"mcpServers": {"there": {"command": "there"}}}
            }}"#,
        options()
            .with_layer(Layer::User)
            .with_project(Some("/repo".into())),
        &[
            "mine: stdio mine (user)",
            "here: stdio here cwd /repo (local)",
        ],
        &[],
    );
    // Fabro: stdio by `command` (argv) or `script` (sh -c), http; a catalog reference and
    // a sandbox server need Fabro itself; `enabled = false` is off.
    check(
        "run.toml",
        r#"_version = 1

[run.agent.mcps.argv]
type = "stdio"
command = ["node", "server.js"]
env = { REPO = "{{ vars.REPO }}" }

[run.agent.mcps.shell]
type = "stdio"
script = "exec ./server --fast"

[run.agent.mcps.remote]
type = "http"
url = "https://mcp.example.com/"
headers = { Authorization = "Bearer {{ secrets.SLACK_TOKEN }}" }

[run.agent.mcps.sentry]
id = "sentry"

[run.agent.mcps.playwright]
type = "sandbox"
command = ["npx", "@playwright/mcp@latest"]
port = 3100

[run.agent.mcps.off]
enabled = false
type = "stdio"
command = ["off"]
"#,
        options(),
        &[
            "argv: stdio node server.js env REPO=hooks (command_line)",
            "remote: http https://mcp.example.com/ Authorization: Bearer {{ secrets.SLACK_TOKEN }} (command_line)",
            "shell: stdio sh -c exec ./server --fast (command_line)",
        ],
        &[
            "MCP server `sentry` refers to Fabro's server-managed catalog, so mcp_tool hooks cannot call it here",
            "MCP server `playwright` runs inside Fabro's sandbox, so mcp_tool hooks cannot call it here",
        ],
    );
}

#[test]
fn a_server_needs_one_way_to_reach_it() {
    for (text, message) in [
        (
            "mcp_servers:\n  x:\n    args: [a]\n",
            "MCP server `x` needs exactly one of `command` (stdio) or `url` (streamable HTTP)",
        ),
        (
            "mcp_servers:\n  x:\n    command: node\n    url: http://127.0.0.1:1/\n",
            "MCP server `x` needs exactly one of `command` (stdio) or `url` (streamable HTTP), not both",
        ),
        (
            "mcp_servers:\n  x:\n    command: ' '\n",
            "MCP server `x`: its command is empty",
        ),
        (
            "mcp_servers:\n  x:\n    url: ftp://files.example.com/\n",
            "MCP server `x`: its URL `ftp://files.example.com/` is not an http(s) URL",
        ),
    ] {
        let error =
            hooks_config::load_str(text, Some(Path::new("hooks.yaml")), &options()).unwrap_err();
        assert_eq!(error.first().message, message, "{text}");
        assert_eq!(error.first().line, Some(3), "{text}");
    }
}

/// Servers of one name: the highest layer's wins; a discovered project file's servers
/// start only when it is trusted as a whole, and are reported as withheld otherwise.
#[test]
fn the_merge_keeps_one_server_per_name_and_none_of_an_untrusted_file() {
    let load = |name: &str, text: &str, layer: Layer, origin: Origin| {
        hooks_config::load_str(
            text,
            Some(Path::new(name)),
            &options().with_layer(layer).with_origin(origin),
        )
        .unwrap()
    };
    let user = load(
        "/home/test/.config/hooks/hooks.yaml",
        "mcp_servers:\n  a: {command: user-a}\n  b: {command: user-b}\n",
        Layer::User,
        Origin::Discovered,
    );
    let project = load(
        "/repo/.mcp.json",
        r#"{"mcpServers": {"b": {"command": "project-b"}, "c": {"command": "project-c"}}}"#,
        Layer::Project,
        Origin::Discovered,
    );
    let files = [user, project];
    // (policy, servers that start, servers withheld).
    let cases: [(TrustPolicy<'_>, &[&str], &[&str]); 2] = [
        (
            TrustPolicy::Bypass,
            &[
                "a: stdio user-a (user)",
                "b: stdio project-b cwd /repo (project)",
                "c: stdio project-c cwd /repo (project)",
            ],
            &[],
        ),
        (
            TrustPolicy::Deny,
            &["a: stdio user-a (user)", "b: stdio user-b (user)"],
            &["c: stdio project-c cwd /repo (project)"],
        ),
    ];
    for (policy, started, withheld) in cases {
        let set = merge(&files, &policy);
        let got: Vec<String> = set.mcp_servers().iter().map(summary).collect();
        assert_eq!(got, started, "{policy:?}");
        let got: Vec<String> = set.withheld_mcp_servers().iter().map(summary).collect();
        assert_eq!(got, withheld, "{policy:?}");
        let warned = set
            .diagnostics()
            .iter()
            .any(|d| d.message.contains("not started") && d.message.contains("not trusted"));
        assert_eq!(warned, !withheld.is_empty(), "{policy:?}");
    }
}

//! mcp_tool hooks whose servers are declared where users keep them (a native
//! `mcp_servers` table, Claude Code's `.mcp.json` and `~/.claude.json`, Fabro's
//! `[run.agent.mcps]`), run through the real `hooks run` against the real
//! `@modelcontextprotocol/server-everything` over stdio; a project file's servers start
//! only once the file is trusted.

use crate::support::{Env, workspace_root};

const PAYLOAD: &str = r#"{"session_id":"s1","tool_name":"Bash","tool_input":{"command":"ls"}}"#;

/// The entry point of `@modelcontextprotocol/server-everything`, or a failure saying to
/// run `cargo xtask peers` (never a silent skip).
fn everything_script() -> String {
    let script =
        workspace_root().join("node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    assert!(
        script.is_file(),
        "{} is missing: run `cargo xtask peers` at the repository root to install the test peers",
        script.display()
    );
    script.display().to_string()
}

/// A native mcp_tool hook calling `echo` on the server `everything`.
const NATIVE_HOOK: &str = r#"hooks:
  - id: echo
    event: PreToolUse
    type: mcp_tool
    server: everything
    tool: echo
    input: {message: "{{ tool_name }} wants {{ tool_input.command }}"}
    timeout: 30
"#;

/// The same hook in Claude Code's settings.
const CLAUDE_HOOK: &str = r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
  {"type": "mcp_tool", "server": "everything", "tool": "echo", "input": {"message": "Bash wants ls"}, "timeout": 30}
]}]}}"#;

/// One case: files to write (`SCRIPT` is the server's entry point), files to trust first,
/// the config arguments, and what the hook's outcome holds: the tool's answer as context,
/// or the failure kind and a piece of its message.
struct Case {
    name: &'static str,
    files: &'static [(&'static str, &'static str)],
    trust: &'static [&'static str],
    args: &'static [&'static str],
    expect: Expect,
}

enum Expect {
    Answered,
    Failed(&'static str, &'static str),
}

const CASES: &[Case] = &[
    Case {
        name: "native mcp_servers, named with -c",
        files: &[(
            "hooks.yaml",
            "mcp_servers:\n  everything:\n    command: node\n    args: [SCRIPT, stdio]\nHOOK",
        )],
        trust: &[],
        args: &["-c", "hooks.yaml"],
        expect: Expect::Answered,
    },
    Case {
        name: "Claude Code .mcp.json, trusted, with the hook in the project's settings",
        files: &[
            (
                ".mcp.json",
                r#"{"mcpServers": {"everything": {"command": "${NODE:-node}", "args": ["SCRIPT", "stdio"]}}}"#,
            ),
            (".claude/settings.json", CLAUDE_HOOK),
        ],
        trust: &[".mcp.json", ".claude/settings.json"],
        args: &[],
        expect: Expect::Answered,
    },
    Case {
        name: "Claude Code .mcp.json, not trusted: its server is not started",
        files: &[
            (
                ".mcp.json",
                r#"{"mcpServers": {"everything": {"command": "node", "args": ["SCRIPT", "stdio"]}}}"#,
            ),
            (".claude/settings.json", CLAUDE_HOOK),
        ],
        trust: &[".claude/settings.json"],
        args: &[],
        expect: Expect::Failed("refused", "which is not trusted"),
    },
    Case {
        name: "Claude Code ~/.claude.json, the user's own (no trust needed), local scope",
        files: &[
            (
                "home/.claude.json",
                r#"{"numStartups": 3, "projects": {"PROJECT": {"mcpServers": {"everything": {"type": "stdio", "command": "node", "args": ["SCRIPT", "stdio"]}}}}}"#,
            ),
            ("home/.claude/settings.json", CLAUDE_HOOK),
        ],
        trust: &[],
        args: &[],
        expect: Expect::Answered,
    },
    Case {
        name: "Fabro [run.agent.mcps] in a run config, hook in a native file",
        files: &[
            (
                "run.toml",
                "_version = 1\n\n[run.agent.mcps.everything]\ntype = \"stdio\"\ncommand = [\"node\", \"SCRIPT\", \"stdio\"]\n",
            ),
            ("hooks.yaml", "HOOK"),
        ],
        trust: &[],
        args: &["-c", "run.toml", "-c", "hooks.yaml"],
        expect: Expect::Answered,
    },
    Case {
        name: "Fabro .fabro/project.toml, trusted",
        files: &[
            (
                ".fabro/project.toml",
                "_version = 1\n\n[run.agent.mcps.everything]\ntype = \"stdio\"\nscript = \"exec node SCRIPT stdio\"\n",
            ),
            ("home/.config/hooks/hooks.yaml", "HOOK"),
        ],
        trust: &[".fabro/project.toml"],
        args: &[],
        expect: Expect::Answered,
    },
    Case {
        name: "Fabro .fabro/project.toml, not trusted",
        files: &[
            (
                ".fabro/project.toml",
                "_version = 1\n\n[run.agent.mcps.everything]\ntype = \"stdio\"\ncommand = [\"node\", \"SCRIPT\", \"stdio\"]\n",
            ),
            ("home/.config/hooks/hooks.yaml", "HOOK"),
        ],
        trust: &[],
        args: &[],
        expect: Expect::Failed("refused", "hooks trust"),
    },
];

#[test]
fn mcp_tool_hooks_reach_the_servers_their_configs_declare() {
    let script = everything_script();
    for case in CASES {
        let env = Env::new().in_dir("project");
        // The project is a git work tree, so that it is the project root.
        std::fs::create_dir_all(env.path().join("project/.git")).unwrap();
        let project = env.path().join("project").canonicalize().unwrap();
        for (rel, text) in case.files {
            let text = text
                .replace("HOOK", NATIVE_HOOK)
                .replace("SCRIPT", &script)
                .replace("PROJECT", &project.display().to_string());
            let rel = match rel.strip_prefix("home/") {
                Some(_) => (*rel).to_owned(),
                None => format!("project/{rel}"),
            };
            env.write(&rel, &text);
        }
        for file in case.trust {
            let trusted = env.run(&["trust", file]);
            assert_eq!(trusted.code, 0, "{}: {trusted:?}", case.name);
        }
        let mut args = vec!["run", "PreToolUse", "-p", PAYLOAD, "--json"];
        args.extend(case.args);
        let run = env.run(&args);
        assert_eq!(run.code, 0, "{}: {run:?}", case.name);
        let outcome = run.json();
        let hook = &outcome["hooks"][0];
        match case.expect {
            Expect::Answered => {
                assert_eq!(hook["status"], "ok", "{}: {outcome:#}", case.name);
                let context = outcome["additional_context"].to_string();
                assert!(
                    context.contains("Echo: Bash wants ls"),
                    "{}: {outcome:#}",
                    case.name
                );
            }
            Expect::Failed(kind, needle) => {
                assert_eq!(hook["failure"]["kind"], kind, "{}: {outcome:#}", case.name);
                let message = hook["failure"]["message"].as_str().unwrap_or_default();
                assert!(message.contains(needle), "{}: {message}", case.name);
            }
        }
    }
}

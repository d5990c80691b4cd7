//! The canonical tool vocabulary and each agent's names for its tools.
//!
//! An event's `tool_name` is held in the canonical vocabulary, Claude Code's names (`Bash`,
//! `Read`, `Write`, `Edit`, `Grep`, `Glob`, `WebFetch`, `WebSearch`, `mcp__server__tool`).
//! An event from another agent has its tool name made canonical once, where the event
//! enters ([`ToolNames::to_canonical`]); a hook written for an agent is matched against,
//! and given, the name in its agent's vocabulary ([`ToolNames::from_canonical`]), once per
//! event and vocabulary, never per hook. A name a vocabulary does not list passes through
//! unchanged both ways, so an agent's own tools that have no canonical counterpart
//! (Gemini CLI's `write_todos`) reach its hooks as they are.

use std::borrow::Cow;

/// How an agent spells the name of an MCP server's tool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum McpNaming {
    /// `mcp__<server>__<tool>` (Claude Code, Codex): the canonical form.
    DoubleUnderscore,
    /// `mcp_<server>_<tool>`, the server name without `_` (Gemini CLI's
    /// `parseMcpToolName`).
    SingleUnderscore,
}

/// One agent's tool names: pairs of (agent's name, canonical name), and its MCP spelling.
///
/// The first pair naming an agent's tool gives its canonical name; the first pair naming a
/// canonical tool gives the agent's name for it. `aliases` are more of the agent's names a
/// matcher of that agent also sees for a canonical tool (Codex's `apply_patch` is matched
/// by `Edit` and `Write`).
#[derive(Debug)]
pub struct ToolNames {
    pairs: &'static [(&'static str, &'static str)],
    aliases: &'static [(&'static str, &'static [&'static str])],
    mcp: McpNaming,
    /// Whether its hooks' matchers are written in these names, so an event's tool is
    /// translated for them ([`ToolNames::translates_matchers`]). Cursor's loader rewrites
    /// its tool-type matchers into canonical names instead.
    own_name_matchers: bool,
}

/// Claude Code's names: the canonical vocabulary itself.
pub static CLAUDE_TOOLS: ToolNames = ToolNames {
    pairs: &[],
    aliases: &[],
    mcp: McpNaming::DoubleUnderscore,
    own_name_matchers: false,
};

/// Gemini CLI's built-in tools (`packages/core/src/tools/definitions/base-declarations.ts`;
/// `search_file_content` is the legacy name of `grep_search`).
pub static GEMINI_TOOLS: ToolNames = ToolNames {
    pairs: &[
        ("run_shell_command", "Bash"),
        ("read_file", "Read"),
        ("write_file", "Write"),
        ("replace", "Edit"),
        ("grep_search", "Grep"),
        ("search_file_content", "Grep"),
        ("glob", "Glob"),
        ("list_directory", "LS"),
        ("web_fetch", "WebFetch"),
        ("google_web_search", "WebSearch"),
        ("write_todos", "TodoWrite"),
    ],
    aliases: &[],
    mcp: McpNaming::SingleUnderscore,
    own_name_matchers: true,
};

/// Codex's tools as its hooks see them: the shell tool is `Bash` whatever the model
/// called (`exec_command`, `shell`, `shell_command`, `local_shell`), file edits are
/// `apply_patch`, matched by `Edit` and `Write` too.
pub static CODEX_TOOLS: ToolNames = ToolNames {
    pairs: &[
        ("Bash", "Bash"),
        ("exec_command", "Bash"),
        ("shell", "Bash"),
        ("shell_command", "Bash"),
        ("local_shell", "Bash"),
        ("apply_patch", "Edit"),
        ("apply_patch", "Write"),
    ],
    aliases: &[("apply_patch", &["Edit", "Write"])],
    mcp: McpNaming::DoubleUnderscore,
    own_name_matchers: true,
};

/// OpenCode's built-in tools (the tool list it sends its model, 1.18.33). Its MCP tools are
/// `<server>_<tool>`, which no name tells from a built-in one, so they pass through as
/// they are; no hook file is written in its names, so no matcher is translated for it.
pub static OPENCODE_TOOLS: ToolNames = ToolNames {
    pairs: &[
        ("bash", "Bash"),
        ("read", "Read"),
        ("write", "Write"),
        ("edit", "Edit"),
        ("glob", "Glob"),
        ("grep", "Grep"),
        ("task", "Task"),
        ("webfetch", "WebFetch"),
        ("todowrite", "TodoWrite"),
    ],
    aliases: &[],
    mcp: McpNaming::DoubleUnderscore,
    own_name_matchers: false,
};

/// Cursor's tool types (`Shell`, `Write`, `Grep`, `Task`, ...), each covering the canonical
/// tools listed; its matchers are rewritten into canonical names when a file loads.
pub static CURSOR_TOOLS: ToolNames = ToolNames {
    pairs: &[
        ("Shell", "Bash"),
        ("Write", "Write"),
        ("Write", "Edit"),
        ("Write", "MultiEdit"),
        ("Write", "NotebookEdit"),
        ("Grep", "Grep"),
        ("Grep", "Glob"),
        ("Task", "Task"),
        ("Task", "Agent"),
    ],
    aliases: &[],
    mcp: McpNaming::DoubleUnderscore,
    own_name_matchers: false,
};

/// GitHub Copilot CLI's tools, as far as observed (`bash`, its shell tool, given to a
/// PascalCase hook as `Bash`); its other tools keep their own names. A camelCase matcher
/// is a regular expression over these names; a PascalCase one also sees `Bash`.
pub static COPILOT_TOOLS: ToolNames = ToolNames {
    pairs: &[("bash", "Bash")],
    aliases: &[("bash", &["Bash"])],
    mcp: McpNaming::DoubleUnderscore,
    own_name_matchers: true,
};

/// Cline's tools: the extension's (`execute_command`, `read_file`, `write_to_file`,
/// `replace_in_file`, ...), then the SDK's that the `cline` CLI calls (`run_commands`,
/// `read_files`, `editor`, `search_codebase`, `fetch_web_content`, observed in `cline`
/// 3.0.65), which come in but are never given out (the extension's name comes first).
pub static CLINE_TOOLS: ToolNames = ToolNames {
    pairs: &[
        ("execute_command", "Bash"),
        ("read_file", "Read"),
        ("write_to_file", "Write"),
        ("replace_in_file", "Edit"),
        ("replace_in_file", "MultiEdit"),
        ("search_files", "Grep"),
        ("list_files", "Glob"),
        ("list_files", "LS"),
        ("web_fetch", "WebFetch"),
        ("web_search", "WebSearch"),
        ("ask_followup_question", "AskUserQuestion"),
        ("new_task", "Task"),
        ("run_commands", "Bash"),
        ("read_files", "Read"),
        ("editor", "Edit"),
        ("search_codebase", "Grep"),
        ("fetch_web_content", "WebFetch"),
        ("ask_question", "AskUserQuestion"),
        ("spawn_agent", "Task"),
    ],
    aliases: &[],
    mcp: McpNaming::DoubleUnderscore,
    own_name_matchers: true,
};

/// Qwen Code's built-in tools (`packages/core/src/tools/tool-names.ts`, observed in
/// `@qwen-code/qwen-code` 0.24.4). Its matchers see a tool's own name and its aliases
/// (`run_shell_command`, `Bash` and `Shell` all match the shell tool), as Qwen Code's
/// `TOOL_NAME_ALIASES` read them; its MCP tools are `mcp__server__tool`.
pub static QWEN_TOOLS: ToolNames = ToolNames {
    pairs: &[
        ("run_shell_command", "Bash"),
        ("read_file", "Read"),
        ("write_file", "Write"),
        ("edit", "Edit"),
        ("grep_search", "Grep"),
        ("glob", "Glob"),
        ("list_directory", "LS"),
        ("web_fetch", "WebFetch"),
        ("web_search", "WebSearch"),
        ("todo_write", "TodoWrite"),
        ("notebook_edit", "NotebookEdit"),
        ("agent", "Task"),
        ("ask_user_question", "AskUserQuestion"),
        ("exit_plan_mode", "ExitPlanMode"),
        ("skill", "Skill"),
    ],
    aliases: &[
        ("run_shell_command", &["Bash", "Shell"]),
        ("read_file", &["Read", "ReadFile"]),
        ("write_file", &["Write", "WriteFile"]),
        ("edit", &["Edit"]),
        ("grep_search", &["Grep"]),
        ("glob", &["Glob"]),
        ("list_directory", &["LS", "ListFiles"]),
        ("web_fetch", &["WebFetch"]),
        ("todo_write", &["TodoWrite"]),
        ("agent", &["Task", "Agent"]),
    ],
    mcp: McpNaming::DoubleUnderscore,
    own_name_matchers: true,
};

/// Factory Droid's tools, as its hooks see them (observed in `droid` 0.225.2): the shell
/// tool is `Execute` and a new file is `Create`; `Read`, `LS`, `Edit`, `Grep` and `Glob`
/// keep the canonical names. Its matchers are written in these names (`Execute` matches
/// the shell tool, `Bash` does not).
pub static DROID_TOOLS: ToolNames = ToolNames {
    pairs: &[("Execute", "Bash"), ("Create", "Write")],
    aliases: &[],
    mcp: McpNaming::DoubleUnderscore,
    own_name_matchers: true,
};

impl ToolNames {
    /// Whether this vocabulary is the canonical one (nothing to translate).
    pub fn is_canonical(&self) -> bool {
        self.pairs.is_empty() && self.mcp == McpNaming::DoubleUnderscore
    }

    /// Whether a hook of this vocabulary's agent is matched against the event's tool in
    /// these names (Gemini CLI, Codex, Cline), so the index gives its matchers a bucket of
    /// their own and the event's tool is translated once per event for them.
    pub fn translates_matchers(&self) -> bool {
        self.own_name_matchers && !self.is_canonical()
    }

    /// Every canonical tool the agent's name `own` covers, in the table's order (Cursor's
    /// `Write`: `Write`, `Edit`, `MultiEdit`, `NotebookEdit`); none when it is not one of
    /// the agent's names.
    pub fn canonical_names<'s>(&'s self, own: &'s str) -> impl Iterator<Item = &'static str> + 's {
        self.pairs
            .iter()
            .filter(move |(agent, _)| *agent == own)
            .map(|(_, canonical)| *canonical)
    }

    /// The canonical name of the agent's tool `name` (`run_shell_command` → `Bash`,
    /// `mcp_github_create_issue` → `mcp__github__create_issue`); other names unchanged.
    pub fn to_canonical<'a>(&self, name: &'a str) -> Cow<'a, str> {
        if let Some((_, canonical)) = self.pairs.iter().find(|(agent, _)| *agent == name) {
            return Cow::Borrowed(canonical);
        }
        match self.mcp {
            McpNaming::DoubleUnderscore => Cow::Borrowed(name),
            McpNaming::SingleUnderscore => match name
                .strip_prefix("mcp_")
                .and_then(|rest| rest.split_once('_'))
            {
                Some((server, tool)) if !server.is_empty() && !tool.is_empty() => {
                    Cow::Owned(format!("mcp__{server}__{tool}"))
                }
                _ => Cow::Borrowed(name),
            },
        }
    }

    /// The agent's name for the canonical tool `name` (`Bash` → `run_shell_command`,
    /// `mcp__github__create_issue` → `mcp_github_create_issue`); other names unchanged.
    pub fn from_canonical<'a>(&self, name: &'a str) -> Cow<'a, str> {
        if let Some((agent, _)) = self.pairs.iter().find(|(_, canonical)| *canonical == name) {
            return Cow::Borrowed(agent);
        }
        match self.mcp {
            McpNaming::DoubleUnderscore => Cow::Borrowed(name),
            McpNaming::SingleUnderscore => match name
                .strip_prefix("mcp__")
                .and_then(|rest| rest.split_once("__"))
            {
                Some((server, tool)) if !server.is_empty() && !tool.is_empty() => {
                    Cow::Owned(format!("mcp_{server}_{tool}"))
                }
                _ => Cow::Borrowed(name),
            },
        }
    }

    /// More names a matcher of this agent sees for its tool `name` (Codex: `Edit` and
    /// `Write` for `apply_patch`).
    pub fn matcher_aliases(&self, name: &str) -> &'static [&'static str] {
        self.aliases
            .iter()
            .find(|(agent, _)| *agent == name)
            .map_or(&[], |(_, more)| more)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn check(names: &ToolNames, agent: &str, canonical: &str) {
        assert_eq!(
            names.to_canonical(agent),
            canonical,
            "to_canonical({agent})"
        );
        assert_eq!(
            names.from_canonical(canonical),
            agent,
            "from_canonical({canonical})"
        );
    }

    #[test]
    fn gemini_names() {
        check(&GEMINI_TOOLS, "run_shell_command", "Bash");
        check(&GEMINI_TOOLS, "replace", "Edit");
        check(
            &GEMINI_TOOLS,
            "mcp_github_create_issue",
            "mcp__github__create_issue",
        );
        check(&GEMINI_TOOLS, "activate_skill", "activate_skill");
        assert_eq!(GEMINI_TOOLS.to_canonical("search_file_content"), "Grep");
        assert_eq!(GEMINI_TOOLS.from_canonical("Grep"), "grep_search");
        assert_eq!(GEMINI_TOOLS.to_canonical("mcp_"), "mcp_");
    }

    #[test]
    fn qwen_and_droid_names() {
        check(&QWEN_TOOLS, "run_shell_command", "Bash");
        check(&QWEN_TOOLS, "edit", "Edit");
        assert_eq!(
            QWEN_TOOLS.matcher_aliases("run_shell_command"),
            ["Bash", "Shell"]
        );
        check(&QWEN_TOOLS, "mcp__fs__read", "mcp__fs__read");
        check(&DROID_TOOLS, "Execute", "Bash");
        check(&DROID_TOOLS, "Create", "Write");
        check(&DROID_TOOLS, "Edit", "Edit");
        assert!(DROID_TOOLS.translates_matchers());
    }

    #[test]
    fn codex_names() {
        check(&CODEX_TOOLS, "Bash", "Bash");
        check(&CODEX_TOOLS, "apply_patch", "Edit");
        assert_eq!(CODEX_TOOLS.from_canonical("Write"), "apply_patch");
        assert_eq!(CODEX_TOOLS.to_canonical("exec_command"), "Bash");
        check(&CODEX_TOOLS, "mcp__fs__read", "mcp__fs__read");
        assert_eq!(
            CODEX_TOOLS.matcher_aliases("apply_patch"),
            ["Edit", "Write"]
        );
    }

    #[test]
    fn claude_is_canonical() {
        assert!(CLAUDE_TOOLS.is_canonical());
        assert!(!GEMINI_TOOLS.is_canonical());
        check(&CLAUDE_TOOLS, "Bash", "Bash");
    }
}

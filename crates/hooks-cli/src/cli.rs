//! The command-line contract (see docs/cli.md), as clap definitions. Keep it stable:
//! acceptance tests use it. Adding commands and flags is fine; changing them is not.

use std::path::PathBuf;

use clap::{Args, ColorChoice, Parser, Subcommand};
use hooks::core::Dialect;

/// Lifecycle hooks for AI agents: validate, inspect, run and replay them.
#[derive(Debug, Parser)]
#[command(name = "hooks", version, about, propagate_version = true)]
pub struct Cli {
    /// The command.
    #[command(subcommand)]
    pub command: Command,
    /// When to colour the output: `auto` (a terminal, unless `NO_COLOR` is set or
    /// `CLICOLOR_FORCE` asks for colour), `always` or `never`. The flag wins over the
    /// variables.
    #[arg(
        long,
        value_name = "WHEN",
        value_enum,
        default_value_t = ColorChoice::Auto,
        global = true
    )]
    pub color: ColorChoice,
}

/// Where the hooks come from: `-c FILE`s, or else the standard locations.
#[derive(Clone, Debug, Default, Args)]
pub struct ConfigArgs {
    /// A config file (repeatable), instead of the standard locations. Named files are
    /// trusted by being named. `LAYER:FILE` (`user:`, `project:`, `local:` or `run:`) puts
    /// it in that layer; without a prefix a Fabro file's name gives its layer
    /// (`.fabro/settings.toml` user, `.fabro/project.toml` project, others run) and any
    /// other file is in the command-line layer. Without any, the standard locations are
    /// discovered.
    #[arg(short = 'c', long = "config", value_name = "[LAYER:]FILE")]
    pub config: Vec<PathBuf>,
    /// A config file on top of the discovered layers (repeatable): discovery stays on, and
    /// the file joins in its layer (`LAYER:FILE`, else as for `-c`), such as a Fabro run
    /// config over `.fabro/project.toml` and `~/.fabro/settings.toml`.
    #[arg(long = "with", value_name = "[LAYER:]FILE", conflicts_with = "config")]
    pub with: Vec<PathBuf>,
    /// The dialect of every `-c` or `--with` file, instead of telling it from the file's
    /// name and shape.
    #[arg(long, value_name = "DIALECT", value_parser = DIALECTS)]
    pub dialect: Option<String>,
    /// The value of `{{ vars.NAME }}` in configs (repeatable; the last of a name wins).
    #[arg(long = "var", value_name = "NAME=VALUE")]
    pub vars: Vec<String>,
    /// The project root for discovery (default: the nearest ancestor of the current
    /// directory with a config, else the git root, else the current directory).
    #[arg(long, value_name = "DIR", global = true)]
    pub project: Option<PathBuf>,
    /// When one of your own config files (a user or managed file, or one named with -c)
    /// does not load: `block` every event that can be blocked until it is fixed (the
    /// default), or `allow` the other files' hooks to run alone. A project's file that
    /// does not load is always skipped. Default: `$HOOKS_ON_BROKEN_CONFIG`, else `block`.
    #[arg(long, value_name = "block|allow", global = true)]
    pub on_broken_config: Option<String>,
}

/// The names `--dialect` and `--to` take: every dialect's, in [`Dialect::ALL`]'s order.
pub const DIALECTS: [&str; Dialect::ALL.len()] = {
    let mut names = [""; Dialect::ALL.len()];
    let mut i = 0;
    while i < names.len() {
        names[i] = Dialect::ALL[i].as_str();
        i += 1;
    }
    names
};

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check config files: exit 0 if valid, 1 with file:line:col diagnostics.
    #[command(
        after_help = "Examples:\n  hooks validate\n  hooks validate -c .claude/settings.json --json"
    )]
    Validate(ValidateArgs),
    /// List the hooks, grouped by event, with source, enabled and trust.
    #[command(after_help = "Examples:\n  hooks list\n  hooks list -c hooks.yaml --json")]
    List(ListArgs),
    /// Show which hooks an event would match, and why the others do not.
    #[command(
        after_help = "Examples:\n  hooks explain PreToolUse -p '{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"git push\"}}'"
    )]
    Explain(ExplainArgs),
    /// Dispatch one event and print the outcome (exit 0 proceed, 2 blocked or denied, 1 error).
    #[command(
        after_help = "Examples:\n  hooks run PreToolUse -p @payload.json\n  echo '{\"prompt\":\"hi\"}' | hooks run UserPromptSubmit -p - --json"
    )]
    Run(RunArgs),
    /// Replay a session: one `{"event": .., "payload": ..}` per line.
    #[command(
        after_help = "Examples:\n  hooks replay session.jsonl\n  hooks replay session.jsonl --json"
    )]
    Replay(ReplayArgs),
    /// Run one hook with a sample context.
    #[command(
        after_help = "Examples:\n  hooks test guard\n  hooks test guard -p '{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"rm -rf /\"}}'"
    )]
    Test(TestArgs),
    /// Enable a hook in its config file.
    #[command(
        after_help = "Examples:\n  hooks enable security-guard\n  hooks enable guard -c .claude/settings.json"
    )]
    Enable(EditIdArgs),
    /// Disable a hook in its config file.
    #[command(
        after_help = "Examples:\n  hooks disable guard\n  hooks disable guard -c .claude/settings.json"
    )]
    Disable(EditIdArgs),
    /// Add a hook to a config file.
    #[command(
        after_help = "Examples:\n  hooks add --event PreToolUse --matcher Bash --command ./guard.sh --id guard\n  hooks add --event Stop --url http://localhost:8080/stop -c hooks.yaml"
    )]
    Add(AddArgs),
    /// Remove a hook from its config file.
    #[command(after_help = "Examples:\n  hooks remove guard\n  hooks remove guard -c hooks.yaml")]
    Remove(EditIdArgs),
    /// Grant, list or revoke trust for project hooks.
    #[command(
        after_help = "Examples:\n  hooks trust .hooks/hooks.yaml\n  hooks trust --list\n  hooks trust --revoke .hooks/hooks.yaml"
    )]
    Trust(TrustArgs),
    /// Convert a config file to another dialect.
    #[command(
        after_help = "Examples:\n  hooks convert .claude/settings.json --to native\n  hooks convert hooks.yaml --to claude -o .claude/settings.json"
    )]
    Convert(ConvertArgs),
    /// Write the JSON Schemas of every config dialect.
    #[command(after_help = "Examples:\n  hooks schema\n  hooks schema --out schemas/")]
    Schema(SchemaArgs),
    /// Serve JSON-RPC 2.0 on stdin/stdout: dispatch requests, hook notifications.
    #[command(
        after_help = "Examples:\n  hooks serve --stdio\n  hooks serve --stdio --watch -c hooks.yaml"
    )]
    Serve(ServeArgs),
    /// Manage hooks interactively: view by event, add, toggle, remove, test.
    #[command(after_help = "Examples:\n  hooks manage\n  hooks manage -c hooks.yaml")]
    Manage(ManageArgs),
    /// List the event catalog: names, aliases, matcher fields, what each honours.
    #[command(after_help = "Examples:\n  hooks events\n  hooks events --json")]
    Events(EventsArgs),
    /// Run a built-in hook on the event JSON read from stdin; `ask`: ask the host's model.
    #[command(
        after_help = "Examples:\n  echo '{\"tool_input\":{\"command\":\"rm -rf /\"}}' | hooks builtin security-guard\n  git diff --cached | hooks builtin ask   # inside a command hook, with a prompt evaluator"
    )]
    Builtin(BuiltinArgs),
    /// Install the built-in hooks (all disabled).
    #[command(
        after_help = "Examples:\n  hooks init\n  hooks init --dir .hooks --force\n  hooks init --autohand"
    )]
    Init(InitArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    #[command(
        after_help = "Examples:\n  hooks completions bash > ~/.local/share/bash-completion/completions/hooks\n  hooks completions zsh > ~/.zfunc/_hooks\n  hooks completions fish > ~/.config/fish/completions/hooks.fish"
    )]
    Completions(CompletionsArgs),
    /// Print the manual page (roff), or write one page per command into a directory.
    #[command(
        after_help = "Examples:\n  hooks man | man -l -\n  hooks man --dir ~/.local/share/man/man1"
    )]
    Man(ManArgs),
    /// Move the hooks of a Claude Code settings file into a native config (`--undo`: back).
    #[command(
        after_help = "Examples:\n  hooks migrate claude                      # .claude/settings.json -> .hooks/hooks.yaml\n  hooks migrate claude ~/.claude/settings.json\n  hooks migrate claude --undo\n  hooks migrate codex ~/.codex/config.toml"
    )]
    Migrate(MigrateArgs),
    /// Answer an agent's hook call: read its event on stdin, run every configured hook,
    /// answer in the agent's protocol (the one hook command an agent needs).
    #[command(
        after_help = "Examples:\n  echo '{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"ls\"}}' | hooks bridge claude"
    )]
    Bridge(BridgeArgs),
    /// Register `hooks bridge AGENT` as the agent's hook command in its settings file.
    #[command(
        after_help = "Examples:\n  hooks install claude\n  hooks install claude --scope user --all-events\n  hooks install claude --migrate"
    )]
    Install(InstallArgs),
    /// Restore the agent's settings file as it was before `hooks install`.
    #[command(
        after_help = "Examples:\n  hooks uninstall claude\n  hooks uninstall claude --scope user"
    )]
    Uninstall(InstallArgs),
    /// Show where the bridge is installed, whether each agent calls it, and what each event runs.
    #[command(after_help = "Examples:\n  hooks doctor")]
    Doctor(DoctorArgs),
    /// The resident engine: answers the bridge's calls with its configs loaded once.
    #[command(
        subcommand,
        after_help = "Examples:\n  hooks daemon start\n  hooks daemon status\n  hooks daemon install     # a systemd user unit or launchd agent\n  hooks daemon stop"
    )]
    Daemon(DaemonCommand),
    /// Post the spooled telemetry to the OTLP collector the starting process hands over on
    /// stdin, else the one the `OTEL_*` variables name (the detached exporter that `hooks
    /// bridge` and `hooks run` start).
    #[command(name = "otel-flush", hide = true)]
    OtelFlush,
}

/// `hooks daemon`.
#[derive(Debug, Subcommand)]
pub enum DaemonCommand {
    /// Start the daemon in the background, if none runs; wait until it answers.
    Start,
    /// Stop the daemon (the bridge then answers every call itself).
    Stop,
    /// Say whether a daemon runs, and its version, workers and calls served.
    Status(DaemonStatusArgs),
    /// Run the daemon in the foreground (what `start` and the service files run).
    Run,
    /// Write the user service that starts the daemon at login (systemd, launchd).
    Install,
    /// Remove the user service file `install` wrote.
    Uninstall,
    /// Serve one caller's calls on stdin and stdout, and on its own socket (the daemon
    /// starts these).
    #[command(hide = true)]
    Worker {
        /// The socket for the caller's later calls.
        #[arg(long)]
        socket: Option<PathBuf>,
    },
}

/// `hooks daemon status`.
#[derive(Debug, Args)]
pub struct DaemonStatusArgs {
    /// Print the daemon's state as JSON.
    #[arg(long)]
    pub json: bool,
}

/// `hooks validate`.
#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// Config files (or directories) to validate, as `-c` names them: `hooks validate
    /// FILE` is `hooks validate -c FILE`.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub config: ConfigArgs,
    /// Print diagnostics as JSON.
    #[arg(long)]
    pub json: bool,
}

/// `hooks list`.
#[derive(Debug, Args)]
pub struct ListArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub config: ConfigArgs,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// `hooks explain`.
#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// The event, in any dialect's spelling.
    pub event: String,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub config: ConfigArgs,
    /// The agent that sends the event (`claude`, `gemini`, `codex`, ...): its tool names
    /// are made canonical before matching. Default: the agent whose spelling the event
    /// name is (`BeforeTool` is Gemini CLI's), else Claude Code's (the canonical names).
    #[arg(long, value_name = "AGENT", value_parser = clap::builder::PossibleValuesParser::new(DIALECTS))]
    pub from: Option<String>,
    /// The event payload: JSON text, `@FILE` (or the path of an existing file), or `-` for
    /// stdin. Without it, a payload piped on stdin is read (see `docs/cli.md`).
    #[arg(short = 'p', long = "payload")]
    pub payload: Option<String>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// `hooks run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// The event, in any dialect's spelling.
    pub event: String,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub config: ConfigArgs,
    /// The agent that sends the event (`claude`, `gemini`, `codex`, ...): its tool names
    /// are made canonical before matching. Default: the agent whose spelling the event
    /// name is (`BeforeTool` is Gemini CLI's), else Claude Code's (the canonical names).
    #[arg(long, value_name = "AGENT", value_parser = clap::builder::PossibleValuesParser::new(DIALECTS))]
    pub from: Option<String>,
    /// The event payload: JSON text, `@FILE` (or the path of an existing file), or `-` for
    /// stdin. Without it, a payload piped on stdin is read (see `docs/cli.md`).
    #[arg(short = 'p', long = "payload")]
    pub payload: Option<String>,
    /// Print the outcome as one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// `hooks replay`.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// The session file (JSON lines).
    pub session: PathBuf,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub config: ConfigArgs,
    /// Print one JSON object per event.
    #[arg(long)]
    pub json: bool,
}

/// `hooks test`.
#[derive(Debug, Args)]
pub struct TestArgs {
    /// The hook's id.
    pub hook_id: String,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub config: ConfigArgs,
    /// The event payload: JSON text, `@FILE` (or the path of an existing file), or `-` for
    /// stdin (default: a payload piped on stdin, else a sample).
    #[arg(short = 'p', long = "payload")]
    pub payload: Option<String>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// `hooks enable|disable|remove`.
#[derive(Debug, Args)]
pub struct EditIdArgs {
    /// The hook's id.
    pub hook_id: String,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub config: ConfigArgs,
}

/// `hooks add`.
#[derive(Debug, Args)]
pub struct AddArgs {
    /// The event, in any dialect's spelling (written in the file's dialect).
    #[arg(long)]
    pub event: String,
    /// The hook's id.
    #[arg(long)]
    pub id: Option<String>,
    /// A matcher.
    #[arg(long)]
    pub matcher: Option<String>,
    /// A shell command.
    #[arg(long, conflicts_with_all = ["url", "decision", "prompt"])]
    pub command: Option<String>,
    /// An HTTP endpoint.
    #[arg(long)]
    pub url: Option<String>,
    /// A fixed permission decision.
    #[arg(long)]
    pub decision: Option<String>,
    /// A prompt.
    #[arg(long)]
    pub prompt: Option<String>,
    /// A timeout, like `30s`.
    #[arg(long)]
    pub timeout: Option<String>,
    /// A description.
    #[arg(long)]
    pub description: Option<String>,
    /// Add it disabled.
    #[arg(long)]
    pub disabled: bool,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub config: ConfigArgs,
}

/// `hooks trust`.
#[derive(Debug, Args)]
pub struct TrustArgs {
    /// A config file (trust all its hooks) or a hook id (trust that hook).
    pub target: Option<String>,
    /// List the grants.
    #[arg(long)]
    pub list: bool,
    /// Revoke grants for a file, hook id or hash.
    #[arg(long, value_name = "TARGET")]
    pub revoke: Option<String>,
    /// The trust store file (default: the user's).
    #[arg(long, value_name = "FILE")]
    pub store: Option<PathBuf>,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub config: ConfigArgs,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// `hooks convert`.
#[derive(Debug, Args)]
pub struct ConvertArgs {
    /// The config file to convert.
    pub file: PathBuf,
    /// The dialect of the file, instead of telling it from its name and shape.
    #[arg(long, value_name = "DIALECT", value_parser = DIALECTS)]
    pub dialect: Option<String>,
    /// The target dialect.
    #[arg(long, value_name = "DIALECT", value_parser = DIALECTS)]
    pub to: String,
    /// Write here instead of stdout.
    #[arg(short = 'o', long)]
    pub out: Option<PathBuf>,
}

/// `hooks schema`.
#[derive(Debug, Args)]
pub struct SchemaArgs {
    /// Write the schemas into this directory instead of listing them.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

/// `hooks serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Speak JSON-RPC 2.0 on stdin and stdout (the only transport).
    #[arg(long, required = true)]
    pub stdio: bool,
    /// Reload when the config files change, and tell the client (`hooks/didReload`).
    #[arg(long)]
    pub watch: bool,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub config: ConfigArgs,
}

/// `hooks manage`.
#[derive(Debug, Args)]
pub struct ManageArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub config: ConfigArgs,
}

/// `hooks events`.
#[derive(Debug, Args)]
pub struct EventsArgs {
    /// One event, in detail (any dialect's name for it).
    pub event: Option<String>,
    /// Print JSON lines.
    #[arg(long)]
    pub json: bool,
}

/// `hooks builtin`.
#[derive(Debug, Args)]
pub struct BuiltinArgs {
    /// The built-in hook (`security-guard`), or `ask`: put a question to the host's model
    /// from inside a command hook (through its `HOOKS_PROMPT_SOCKET`) and print the answer.
    pub name: String,
    /// For `ask`: the question (default: read from stdin).
    pub question: Option<String>,
}

/// `hooks init`.
#[derive(Debug, Args)]
pub struct InitArgs {
    /// Where to install (default: the user's native config directory,
    /// `$XDG_CONFIG_HOME/hooks`, else `~/.config/hooks`, where every command finds it).
    #[arg(long)]
    pub dir: Option<PathBuf>,
    /// Replace an existing `hooks.yaml` (with `--autohand`, `config.json`).
    #[arg(long)]
    pub force: bool,
    /// Install the Autohand way: the scripts into `~/.autohand/hooks/` and their entries,
    /// all disabled, into `~/.autohand/config.json` (added to an existing one); `--dir`
    /// names another directory in place of `~/.autohand`.
    #[arg(long)]
    pub autohand: bool,
}

/// `hooks completions`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// `hooks man`.
#[derive(Debug, Args)]
pub struct ManArgs {
    /// Write `hooks.1` and a `hooks-COMMAND.1` page per command into this directory
    /// instead of printing `hooks.1`.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// `hooks migrate`.
#[derive(Debug, Args)]
pub struct MigrateArgs {
    /// Where the hooks come from: `claude` (a Claude Code `settings.json`), `codex` (a
    /// Codex `hooks.json` or `config.toml`, named), `cursor` (a Cursor `hooks.json`) or
    /// `gemini` (a Gemini CLI `settings.json`).
    #[arg(value_parser = ["claude", "codex", "cursor", "gemini"])]
    pub from: String,
    /// The settings file: `~/.claude/settings.json`, `.claude/settings.json` or
    /// `.claude/settings.local.json` (Gemini CLI: `~/.gemini/settings.json` or
    /// `.gemini/settings.json`; Cursor: `~/.cursor/hooks.json` or `.cursor/hooks.json`);
    /// default: the project's (`.claude/settings.json`, `.gemini/settings.json`,
    /// `.cursor/hooks.json`).
    pub settings: Option<PathBuf>,
    /// The native file to move them into (default: the one discovery reads in the
    /// settings file's layer, such as `.hooks/hooks.yaml` for the project).
    #[arg(long, value_name = "FILE")]
    pub to: Option<PathBuf>,
    /// Put the hooks back into the settings file, exactly as they were.
    #[arg(long, conflicts_with = "to")]
    pub undo: bool,
    /// The project root (default: the current directory).
    #[arg(long, value_name = "DIR")]
    pub project: Option<PathBuf>,
}

/// An agent `hooks bridge`, `install` and `uninstall` speak to: one of the bridge's
/// agents ([`hooks::bridge::agents::AGENTS`]), named on the command line by its dialect's
/// name, in name order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Agent(hooks::core::Dialect);

impl Agent {
    /// The agent's dialect, whose profile knows its protocol.
    pub fn dialect(self) -> hooks::core::Dialect {
        self.0
    }

    /// The name on the command line and in the audit log.
    pub fn as_str(self) -> &'static str {
        self.0.as_str()
    }
}

impl clap::ValueEnum for Agent {
    fn value_variants<'a>() -> &'a [Self] {
        static ALL: std::sync::LazyLock<Vec<Agent>> = std::sync::LazyLock::new(|| {
            let mut all: Vec<Agent> = hooks::bridge::agents::AGENTS
                .iter()
                .map(|a| Agent(a.dialect))
                .collect();
            all.sort_by_key(|a| a.as_str());
            all
        });
        &ALL
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        let about = hooks::bridge::agents::agent(self.0).map_or("", |a| a.about);
        Some(clap::builder::PossibleValue::new(self.as_str()).help(about))
    }
}

/// `hooks bridge`.
#[derive(Debug, Args)]
pub struct BridgeArgs {
    /// The agent calling: its stdin, project root and answer protocol.
    #[arg(value_enum)]
    pub agent: Agent,
    /// The event, as the agent names it, for an agent whose event on stdin does not name
    /// itself (GitHub Copilot CLI's camelCase hooks: `hooks bridge copilot preToolUse`).
    #[arg(value_name = "EVENT")]
    pub event: Option<String>,
    /// Run the event's async hooks (the detached background process the bridge starts).
    #[arg(long, hide = true)]
    pub async_worker: bool,
}

/// Where `hooks install` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Scope {
    /// The user's settings (`~/.claude/settings.json`, `~/.gemini/settings.json`).
    User,
    /// The project's settings (`.claude/settings.json`, `.gemini/settings.json`).
    #[default]
    Project,
}

/// `hooks install` and `hooks uninstall`.
#[derive(Debug, Args)]
pub struct InstallArgs {
    /// The agent whose settings file is edited.
    #[arg(value_enum)]
    pub agent: Agent,
    /// The user's or the project's settings file (default: the project's; GitHub Copilot
    /// CLI's: the user's, which it reads in every mode).
    #[arg(long, value_enum)]
    pub scope: Option<Scope>,
    /// Install: also move the file's own hooks into the engine's config (uninstall puts
    /// them back).
    #[arg(long)]
    pub migrate: bool,
    /// Install an entry for every event the agent has, not only those with a hook.
    #[arg(long)]
    pub all_events: bool,
    /// The project root (default: the current directory's).
    #[arg(long, value_name = "DIR")]
    pub project: Option<PathBuf>,
}

/// `hooks doctor`.
#[derive(Debug, Args)]
pub struct DoctorArgs {
    /// The project root (default: the current directory's).
    #[arg(long, value_name = "DIR")]
    pub project: Option<PathBuf>,
}

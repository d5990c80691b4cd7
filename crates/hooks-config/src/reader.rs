//! Reading one parsed file: the [`Reader`] every dialect's reader shares (events,
//! matchers, filters, timeouts, limits, interpolation), each reporting problems at their
//! line and column.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use hooks_core::{
    Action, BuiltinEvent, Dialect, Event, Filter, IfCondition, Matcher, PromptMode, Provenance,
    StopBlockCap, TimeUnit,
};

use crate::error::{Diagnostic, DiagnosticKind};
use crate::file::LoadOptions;
use crate::interpolate::{self, EnvScope};
use crate::parse::Format;
use crate::source::Source;
use crate::tree::{Node, Pos, Value};

/// What a dialect's files mean by the keys the shared readers take: its row's reading
/// facts ([`crate::dialects::of`]).
#[derive(Debug)]
pub(crate) struct ReadRules {
    /// Whether a handler may use the native format's own keys: merge directives (`{id,
    /// enabled}`, `{id, remove}`), a type implied by its action key, `loop_limit`.
    pub(crate) native_handlers: bool,
    /// Whether a key that does not apply to a handler's type is ignored with a warning (as
    /// Claude Code ignores it) rather than refused.
    pub(crate) ignores_inapplicable_keys: bool,
    /// Whether a command handler's `command` with `args` is a program and its arguments
    /// (Claude Code's exec form), and `args` alone is refused.
    pub(crate) exec_form: bool,
    /// What a `prompt` handler does; `None`: its `mode` key says (the native format).
    pub(crate) prompt_mode: Option<PromptMode>,
    /// Whether the strings of its MCP servers expand `${VAR}` and `${VAR:-default}` (Claude
    /// Code's) rather than the engine's `{{ ... }}`.
    pub(crate) mcp_env_expansion: bool,
    /// Whether its event names include Cursor's names for an event on some tools only
    /// (`beforeShellExecution`); in other files such a name is refused.
    pub(crate) tool_event_names: bool,
    /// Whether its files hold hooks that keep another dialect (`dialect: cursor`).
    pub(crate) holds_other_dialects: bool,
}

impl ReadRules {
    /// No key of another dialect's meaning: prompts evaluate, nothing else is taken.
    pub(crate) const PLAIN: ReadRules = ReadRules {
        native_handlers: false,
        ignores_inapplicable_keys: false,
        exec_form: false,
        prompt_mode: Some(PromptMode::Evaluate),
        mcp_env_expansion: false,
        tool_event_names: false,
        holds_other_dialects: false,
    };
}

/// The reading of one parsed file, shared by the dialects' readers: the text, the options,
/// the dialect and its reading facts, and the problems found so far.
pub(crate) struct Reader<'a> {
    pub(crate) src: &'a Source,
    pub(crate) opts: &'a LoadOptions,
    pub(crate) dialect: Dialect,
    /// The dialect's reading facts.
    pub(crate) rules: &'static ReadRules,
    /// The file's syntax.
    pub(crate) format: Format,
    pub(crate) diags: Vec<Diagnostic>,
    /// The schema check's diagnostics, kept apart so that `tidy` can tell them from the
    /// loader's.
    pub(crate) structural: Vec<Diagnostic>,
    /// Warnings for linters only ([`ConfigFile::notes`]).
    pub(crate) notes: Vec<Diagnostic>,
    pub(crate) file_vars: BTreeMap<String, String>,
    /// The file's path placeholder and its value (`${SKILL_DIR}` of a skill,
    /// `${CLAUDE_PLUGIN_ROOT}` of a plugin's hooks file), substituted at load.
    pub(crate) path_var: Option<(&'static str, String)>,
    /// The variables a Codex plugin's hooks get (`PLUGIN_ROOT`, ..., see
    /// [`crate::dialects::codex::plugin_env`]), worked out once for the file; empty but for
    /// a Codex plugin's hooks file.
    pub(crate) codex_plugin_env: Vec<(String, String)>,
    /// The hook being read, named in interpolation errors.
    pub(crate) hook_label: Option<String>,
    /// How many more did-you-mean searches this file may cost (see `check::HINT_BUDGET`).
    pub(crate) hints_left: usize,
}

/// The value of `key` in a map node, unless it is absent or null.
pub(crate) fn field<'n>(node: &'n Node, key: &str) -> Option<&'n Node> {
    node.get(key)
        .map(|e| &e.value)
        .filter(|v| v.value != Value::Null)
}

impl Reader<'_> {
    pub(crate) fn report(&mut self, d: Diagnostic, pos: Pos) {
        let d = self.src.diag(d, pos);
        self.diags.push(d);
    }

    pub(crate) fn error(
        &mut self,
        kind: DiagnosticKind,
        pos: Pos,
        message: impl Into<String>,
        hint: Option<String>,
    ) {
        self.report(Diagnostic::error(kind, message).with_hint_opt(hint), pos);
    }

    pub(crate) fn warn(
        &mut self,
        kind: DiagnosticKind,
        pos: Pos,
        message: impl Into<String>,
        hint: Option<String>,
    ) {
        self.report(Diagnostic::warning(kind, message).with_hint_opt(hint), pos);
    }

    pub(crate) fn provenance(&self, pos: Pos) -> Provenance {
        Provenance {
            file: self.src.path().map(Path::to_path_buf),
            line: Some(pos.line),
            column: Some(pos.col),
            layer: self.opts.layer,
        }
    }

    /// A string value; a wrong type was reported by the schema check already.
    pub(crate) fn string(&self, node: Option<&Node>) -> Option<String> {
        node.and_then(Node::as_str).map(str::to_owned)
    }

    pub(crate) fn boolean(&self, node: Option<&Node>) -> Option<bool> {
        match node.map(|n| &n.value) {
            Some(Value::Bool(b)) => Some(*b),
            _ => None,
        }
    }

    pub(crate) fn strings(&self, node: Option<&Node>) -> Option<Vec<String>> {
        let items = node?.as_seq()?;
        Some(
            items
                .iter()
                .filter_map(|n| n.as_str().map(str::to_owned))
                .collect(),
        )
    }

    /// The HTTP hook URL allow-list: each pattern is checked with the parser the HTTP
    /// executor compiles it with, and a bad one is an error at its own line and column, so
    /// that the file does not load (rather than the engine failing to build after the
    /// merge, where no position is known).
    pub(crate) fn url_patterns(&mut self, node: Option<&Node>) -> Option<Vec<String>> {
        if let Some(items) = node.and_then(Node::as_seq) {
            for item in items {
                let Some(pattern) = item.as_str() else {
                    continue;
                };
                if let Err(e) = hooks_core::UrlPattern::parse(pattern) {
                    self.error(
                        DiagnosticKind::InvalidValue,
                        item.pos,
                        e.to_string(),
                        Some("an entry is `*` or an http(s) URL such as `https://hooks.example.com/` or `http://localhost:*` (`*` stands for any run of characters)".to_owned()),
                    );
                }
            }
        }
        self.strings(node)
    }

    /// A table of strings, in written order, each value interpolated.
    pub(crate) fn string_map(&mut self, node: Option<&Node>) -> Vec<(String, String)> {
        self.string_map_in(node, EnvScope::All)
    }

    /// A table of strings, in written order, each value interpolated reading only the
    /// environment `env` allows.
    pub(crate) fn string_map_in(
        &mut self,
        node: Option<&Node>,
        env: EnvScope<'_>,
    ) -> Vec<(String, String)> {
        let Some(entries) = node.and_then(Node::as_map) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for e in entries {
            if let Some(v) = e.value.as_str() {
                let v = self.interp_in(v, e.value.pos, env);
                out.push((e.key.clone(), v));
            }
        }
        out
    }

    /// Resolves an event name written at `pos`; an unknown one is an error there.
    pub(crate) fn event(&mut self, name: &str, pos: Pos) -> Option<Event> {
        // Cursor's names for an event on one tool (`beforeShellExecution` is PreToolUse on
        // the shell tool) mean that tool only in Cursor's files; elsewhere the name alone
        // would make a hook for every tool.
        if !self.rules.tool_event_names
            && let Some(cursor) = hooks_core::cursor::EVENTS.iter().find(|e| {
                e.tools != hooks_core::cursor::Tools::Any && e.name.eq_ignore_ascii_case(name)
            })
        {
            let matcher = cursor.tools.matcher().unwrap_or_default();
            self.error(
                DiagnosticKind::UnknownEvent,
                pos,
                format!(
                    "`{name}` is Cursor's name for {} on some tools only",
                    cursor.event.name()
                ),
                Some(format!(
                    "write the event `{}` with the matcher `{matcher}`, or {}",
                    cursor.event.name(),
                    if self.rules.holds_other_dialects {
                        "add `dialect: cursor` to give the hook Cursor's JSON"
                    } else {
                        "keep the hook in a Cursor `hooks.json`"
                    }
                )),
            );
            return None;
        }
        match self.lookup_event(name) {
            Ok(event) => Some(event),
            Err(hint) => {
                self.error(
                    DiagnosticKind::UnknownEvent,
                    pos,
                    format!("unknown event `{name}`"),
                    hint,
                );
                None
            }
        }
    }

    /// Resolves an event name, or gives the did-you-mean hint for an unknown one.
    pub(crate) fn lookup_event(&mut self, name: &str) -> Result<Event, Option<String>> {
        if let Some(event) = self.opts.catalog.get(name) {
            return Ok(event);
        }
        // Thousands of unknown events are not typos; stop searching for suggestions.
        if self.hints_left == 0 {
            return Err(None);
        }
        self.hints_left -= 1;
        self.opts.catalog.resolve(name).map_err(|e| e.hint())
    }

    /// Compiles a matcher: Claude's rules, or always a regex (Fabro, Autohand).
    pub(crate) fn matcher(
        &mut self,
        node: Option<&Node>,
        event: Option<&Event>,
        regex: bool,
    ) -> Option<Matcher> {
        let Some(node) = node else {
            return Some(Matcher::all());
        };
        let pattern = node.as_str()?;
        let compiled = if regex {
            Matcher::regex(pattern)
        } else {
            Matcher::parse(pattern)
        };
        match compiled {
            Ok(m) => {
                if let Some(event) = event
                    && !m.is_all()
                    && event.info().matcher_fields_in(self.dialect).is_empty()
                {
                    self.warn(
                        DiagnosticKind::InvalidValue,
                        node.pos,
                        format!("event `{}` has no matcher subject, so the matcher `{pattern}` is ignored", event.info().name_in(self.dialect)),
                        Some("remove the matcher; the hook fires on every occurrence".to_owned()),
                    );
                }
                Some(m)
            }
            Err(e) => {
                let message = match regex_reason(&e) {
                    Some(why) => format!("invalid matcher `{pattern}`: {why}"),
                    None => e.to_string(),
                };
                self.error(DiagnosticKind::InvalidMatcher, node.pos, message, e.hint());
                None
            }
        }
    }

    pub(crate) fn condition(&mut self, node: Option<&Node>) -> Option<Option<IfCondition>> {
        let Some(node) = node else {
            return Some(None);
        };
        let text = node.as_str()?;
        match IfCondition::parse(text) {
            Ok(c) => Some(Some(c)),
            Err(e) => {
                let message = e.to_string();
                let message = message
                    .split(" (an `if`")
                    .next()
                    .unwrap_or(&message)
                    .to_owned();
                self.error(
                    DiagnosticKind::InvalidCondition,
                    node.pos,
                    message,
                    e.hint(),
                );
                None
            }
        }
    }

    /// A `{tool: [..], path: [..], command: REGEX}` filter.
    pub(crate) fn filter(&mut self, node: Option<&Node>) -> Option<Filter> {
        let Some(node) = node else {
            return Some(Filter::new());
        };
        let tools = self.strings(field(node, "tool")).unwrap_or_default();
        let mut filter = Filter::new().with_tools(tools);
        if let Some(command) = field(node, "command")
            && let Some(pattern) = command.as_str()
        {
            match filter.clone().with_command(pattern) {
                Ok(f) => filter = f,
                Err(e) => {
                    let message = e.to_string();
                    let why = regex_reason(&e).unwrap_or(&message);
                    self.error(
                        DiagnosticKind::InvalidMatcher,
                        command.pos,
                        format!("invalid `filter.command` `{pattern}`: {why}"),
                        Some("`filter.command` is a regular expression found anywhere in the command text".to_owned()),
                    );
                    return None;
                }
            }
        }
        if let Some(paths) = field(node, "path").and_then(Node::as_seq) {
            for glob in paths {
                let Some(text) = glob.as_str() else { continue };
                match filter.clone().with_paths([text]) {
                    Ok(f) => filter = f,
                    Err(e) => {
                        self.error(DiagnosticKind::InvalidGlob, glob.pos, e.to_string(), Some("globs use `*`, `?`, `[..]`, `{a,b}` and `**`; a leading `!` excludes".to_owned()));
                        return None;
                    }
                }
            }
        }
        Some(filter)
    }

    /// A hook's `loop_limit` on `event` (Cursor's, and the native format's): how many
    /// consecutive follow-ups its Stop or SubagentStop block may make, `null` for no limit.
    /// `written` is the value as written, `null` included (`hook.get("loop_limit")`);
    /// `events` names Stop and SubagentStop as the dialect spells them, for the warning on
    /// another event, where the limit is ignored. `Some(None)`: not written, or ignored;
    /// `None`: invalid (reported).
    pub(crate) fn loop_limit(
        &mut self,
        written: Option<&Node>,
        event: &Event,
        events: &str,
    ) -> Option<Option<StopBlockCap>> {
        let Some(node) = written else {
            return Some(None);
        };
        let loops = matches!(
            event,
            Event::Builtin(BuiltinEvent::Stop | BuiltinEvent::SubagentStop)
        );
        if !loops {
            self.warn(
                DiagnosticKind::InvalidValue,
                node.pos,
                format!("`loop_limit` applies to {events} only; ignored here"),
                None,
            );
            return Some(None);
        }
        match &node.value {
            Value::Null => Some(Some(StopBlockCap::NONE)),
            Value::Int(n) => match u32::try_from(*n) {
                Ok(n) => Some(Some(StopBlockCap::at_most(n))),
                Err(_) => {
                    self.error(
                        DiagnosticKind::InvalidValue,
                        node.pos,
                        "`loop_limit` is a count of follow-ups (0 or more), or null for no limit",
                        None,
                    );
                    None
                }
            },
            // Another type was reported by the schema check.
            _ => None,
        }
    }

    /// A timeout in the dialect's unit ([`TimeUnit::of`]), clamped to the maximum.
    pub(crate) fn timeout(&mut self, node: Option<&Node>) -> Option<Option<Duration>> {
        let Some(node) = node else {
            return Some(None);
        };
        let unit = TimeUnit::of(self.dialect);
        let parsed: Result<Duration, String> = match (&node.value, unit) {
            (Value::Int(_) | Value::Float(_), TimeUnit::DurationString) => {
                Err("a Fabro timeout is a duration string".to_owned())
            }
            (Value::Int(i), TimeUnit::Seconds { .. }) => seconds(*i as f64),
            (Value::Float(f), TimeUnit::Seconds { .. }) => seconds(*f),
            (Value::Int(i), TimeUnit::Millis) => seconds(*i as f64 / 1000.0),
            (Value::Int(i), TimeUnit::SecondsOrLegacyMillis) if *i >= 1000 => {
                seconds(*i as f64 / 1000.0)
            }
            (Value::Float(f), TimeUnit::SecondsOrLegacyMillis) if *f >= 1000.0 => {
                seconds(*f / 1000.0)
            }
            (Value::Int(i), TimeUnit::SecondsOrLegacyMillis) => seconds(*i as f64),
            (Value::Float(f), TimeUnit::SecondsOrLegacyMillis) => seconds(*f),
            (Value::Float(f), TimeUnit::Millis) => seconds(*f / 1000.0),
            (Value::Str(s), TimeUnit::DurationString | TimeUnit::Seconds { strings: true }) => {
                parse_duration(s).map_err(|why| format!("`{s}` is not a duration: {why}"))
            }
            // Wrong types were reported by the schema check.
            _ => return None,
        };
        match parsed {
            Ok(d) if d.is_zero() => {
                self.error(
                    DiagnosticKind::Timeout,
                    node.pos,
                    "a timeout must be greater than zero",
                    None,
                );
                None
            }
            Ok(d) => Some(Some(self.clamp(d, node.pos))),
            Err(message) => {
                let hint = match unit {
                    TimeUnit::DurationString => "write it as `\"30s\"`, `\"1m\"` or `\"1m 30s\"`",
                    TimeUnit::Seconds { .. } => {
                        "write a number of seconds, or a duration such as `\"30s\"`"
                    }
                    TimeUnit::Millis => "write a number of milliseconds",
                    TimeUnit::SecondsOrLegacyMillis => {
                        "write a number of seconds (1000 or more is read as milliseconds)"
                    }
                };
                self.error(
                    DiagnosticKind::Timeout,
                    node.pos,
                    format!("invalid timeout: {message}"),
                    Some(hint.to_owned()),
                );
                None
            }
        }
    }

    /// Clamps a timeout to the maximum, with a warning at `pos` if it was above.
    pub(crate) fn clamp(&mut self, d: Duration, pos: Pos) -> Duration {
        let max = self.opts.max_timeout;
        if d > max {
            self.warn(
                DiagnosticKind::Timeout,
                pos,
                format!(
                    "timeout of {} is above the maximum of {}; using {}",
                    humantime::format_duration(d),
                    humantime::format_duration(max),
                    humantime::format_duration(max)
                ),
                None,
            );
            max
        } else {
            d
        }
    }

    /// The default timeout of the hook doing `action` on `event` written at `pos`, from the
    /// one table ([`hooks_core::default_timeout`]): used as is, or the maximum if it is
    /// lower, with a note for linters, since the hook then gets less time than its dialect
    /// promises (Claude Code's 600 s default against the 300 s maximum).
    pub(crate) fn default_timeout(&mut self, event: &Event, action: &Action, pos: Pos) -> Duration {
        let d = hooks_core::default_timeout_for(self.dialect, action, event);
        let max = self.opts.max_timeout;
        if d > max {
            let note = Diagnostic::warning(
                DiagnosticKind::Timeout,
                format!(
                    "the hook has no `timeout`, and the {} default of {} is above the maximum of {}; using {}",
                    self.dialect,
                    humantime::format_duration(d),
                    humantime::format_duration(max),
                    humantime::format_duration(max)
                ),
            )
            .with_hint(format!(
                "set `timeout` on the hook to say how long it may run (at most {})",
                humantime::format_duration(max)
            ));
            let note = self.src.diag(note, pos);
            self.notes.push(note);
            max
        } else {
            d
        }
    }

    /// Rejects a command longer than the maximum.
    pub(crate) fn check_command_len(&mut self, len: usize, pos: Pos) -> bool {
        if len > self.opts.max_command_len {
            self.error(
                DiagnosticKind::CommandTooLong,
                pos,
                format!(
                    "the command is {len} bytes long, more than the maximum of {} bytes",
                    self.opts.max_command_len
                ),
                Some("put long scripts in a file and run the file".to_owned()),
            );
            false
        } else {
            true
        }
    }

    /// The root of the Claude Code plugin whose hooks file this is, if it is one.
    pub(crate) fn plugin_root(&self) -> Option<&str> {
        match &self.path_var {
            Some(("${CLAUDE_PLUGIN_ROOT}", root)) => Some(root),
            _ => None,
        }
    }

    /// Interpolates a string written at `pos` (see [`crate::interpolate`]).
    pub(crate) fn interp(&mut self, s: &str, pos: Pos) -> String {
        self.interp_in(s, pos, EnvScope::All)
    }

    /// Interpolates a string written at `pos`, reading only the environment `env` allows.
    pub(crate) fn interp_in(&mut self, s: &str, pos: Pos, env: EnvScope<'_>) -> String {
        let mut warnings = Vec::new();
        let result = interpolate::load_time(
            s,
            &self.opts.interpolation,
            &self.file_vars,
            self.path_var.as_ref().map(|(p, v)| (*p, v.as_str())),
            env,
            &mut warnings,
        );
        for w in warnings {
            let message = match &self.hook_label {
                Some(label) => format!("hook `{label}`: {}", w.message),
                None => w.message,
            };
            self.warn(DiagnosticKind::Interpolation, pos, message, w.hint);
        }
        match result {
            Ok(out) => out,
            Err(e) => {
                let message = match &self.hook_label {
                    Some(label) => format!("hook `{label}`: {}", e.message),
                    None => e.message,
                };
                self.error(DiagnosticKind::Interpolation, pos, message, e.hint);
                s.to_owned()
            }
        }
    }
}

/// Parses a duration string such as `30s`, `500ms` or `1m 30s` (units `ns`, `us`, `ms`,
/// `s`, `m`, `h`, `d` and their longer spellings); the error says in plain words what is
/// wrong with it (`` `x` is not a unit ``), for every place that reads one.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    use humantime::DurationError as E;
    humantime::parse_duration(text.trim()).map_err(|e| match e {
        E::Empty => "it is empty".to_owned(),
        E::NumberExpected(_) => "a duration is a number and a unit".to_owned(),
        E::InvalidCharacter(at) => match text.trim().get(at..).and_then(|t| t.chars().next()) {
            Some(c) => format!("`{c}` cannot be part of a duration"),
            None => "a duration is a number and a unit".to_owned(),
        },
        E::UnknownUnit { unit, .. } => {
            format!("`{unit}` is not a unit (use ms, s, m or h)")
        }
        E::NumberOverflow => "it is too large".to_owned(),
    })
}

/// Why a matcher or a `filter.command` pattern does not compile, as the regex engine says
/// it (`unclosed group`, without its `error: ` prefix); `None` for an error that is not
/// an invalid matcher.
fn regex_reason(e: &hooks_core::Error) -> Option<&str> {
    if let hooks_core::ErrorKind::InvalidMatcher { message, .. } = e.kind() {
        Some(message.strip_prefix("error: ").unwrap_or(message))
    } else {
        None
    }
}

fn seconds(s: f64) -> Result<Duration, String> {
    if !s.is_finite() || s < 0.0 {
        return Err(format!("{s} is not a non-negative number"));
    }
    Duration::try_from_secs_f64(s).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regex_reasons() {
        let reason = |p: &str| {
            Matcher::regex(p)
                .err()
                .and_then(|e| regex_reason(&e).map(str::to_owned))
        };
        assert_eq!(reason("git (push").as_deref(), Some("unclosed group"));
        assert_eq!(reason("a)").as_deref(), Some("unopened group"));
        assert_eq!(reason("Bash"), None);
        let other = hooks_core::Error::new(hooks_core::ErrorKind::InvalidSpec {
            message: "x".to_owned(),
        });
        assert_eq!(regex_reason(&other), None);
    }
}

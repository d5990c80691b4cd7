//! What every dialect's writer shares when hooks are converted: the [`Writer`] (the
//! target, its warnings for each loss, matchers in the target's language, the losses
//! common to every target) and the shape of hooks nested by event ([`nested`]).

use std::time::Duration;

use hooks_core::{
    Action, CommandAction, CommandLine, Dialect, Event, HookSpec, Matcher, MatcherKind,
    provides_var,
};
use serde_json::{Map, Value, json};

use crate::error::{Diagnostic, DiagnosticKind};
use crate::file::{DEFAULT_MAX_TIMEOUT, Item, Settings};

/// What a dialect's files can say when hooks are written in it, and how its own hooks fare
/// in another dialect: its row's writing facts ([`crate::dialects::of`]).
#[derive(Debug)]
pub(crate) struct WriteRules {
    /// Whether its matchers are always regular expressions (a name list becomes
    /// `^(?:A|B)$`).
    pub(crate) regex_matchers: bool,
    /// How a matcher on an event that is not a tool's is written, when the dialect
    /// compares such matchers otherwise (Gemini CLI compares them exactly); `None`: as on
    /// a tool event.
    pub(crate) lifecycle_matcher: Option<NamesMatcher>,
    /// Whether a name list is written as the names joined by `|` on every event (only
    /// letters, digits, `_` and `|` make a name list in Codex).
    pub(crate) joins_names: bool,
    /// Whether its files say how often a stop hook may keep the agent going (`loop_limit`).
    pub(crate) loop_limit: bool,
    /// Whether its files hold hooks that keep another dialect (`dialect: gemini`).
    pub(crate) holds_other_dialects: bool,
    /// Whether its hooks keep their dialect, and their matchers its tool names, in a file
    /// that holds other dialects' hooks: they are given its agent's JSON and tool names and
    /// read by its rules as at home.
    pub(crate) kept_in_native: bool,
    /// The event name under which one of its hooks is kept, with its dialect, in a file
    /// that holds other dialects' hooks (Cursor's names say which of its JSON a hook gets);
    /// `None`: it is not kept so.
    pub(crate) native_name: Option<fn(&HookSpec) -> Option<&'static str>>,
    /// Whether its command hooks are written for its agent's own input (its JSON on
    /// stdin), which a hook of another dialect is not given.
    pub(crate) own_input: bool,
}

impl WriteRules {
    /// Claude Code's matcher language, no `loop_limit`, no hooks of other dialects, and
    /// hooks that keep nothing of their own elsewhere.
    pub(crate) const PLAIN: WriteRules = WriteRules {
        regex_matchers: false,
        lifecycle_matcher: None,
        joins_names: false,
        loop_limit: false,
        holds_other_dialects: false,
        kept_in_native: false,
        native_name: None,
        own_input: false,
    };
}

/// Writes a hook's matcher, given its names (a name list's, in the target's tool names;
/// empty for a regular expression), or `None` for none.
pub(crate) type NamesMatcher = fn(&mut Writer, &HookSpec, &[String]) -> Option<String>;

/// A target dialect's writer: the target, its facts, and the warnings for what it cannot
/// express.
pub(crate) struct Writer {
    /// The target dialect.
    pub(crate) to: Dialect,
    /// The target's writing facts.
    rules: &'static WriteRules,
    /// Every dialect's writing facts (the registry's), for what a hook of its own dialect
    /// keeps or loses.
    rules_of: fn(Dialect) -> &'static WriteRules,
    /// What the target could not express, one warning per hook and loss.
    pub(crate) warnings: Vec<Diagnostic>,
}

/// How a dialect of hooks nested by event writes them ([`nested`]).
pub(crate) struct Nested {
    /// One hook's handler, `None` when the target cannot express it (with a warning).
    pub(crate) handler: fn(&mut Writer, &HookSpec) -> Option<Map<String, Value>>,
    /// The file-wide switches, written into the root or warned about.
    pub(crate) settings: fn(&mut Writer, &Settings, &mut Map<String, Value>),
    /// Whether a sequential hook gets a group of its own (`sequential: true`, Gemini CLI's).
    pub(crate) sequential_groups: bool,
}

impl Nested {
    /// Each hook's handler written by `handler`, in a target that has none of the
    /// file-wide switches (each is warned about) and no sequential groups: echo-agent's,
    /// Codex's.
    pub(crate) fn without_switches(
        handler: fn(&mut Writer, &HookSpec) -> Option<Map<String, Value>>,
    ) -> Nested {
        Nested {
            handler,
            settings: |w, settings, _| w.settings_lost(settings),
            sequential_groups: false,
        }
    }
}

fn has_event(dialect: Dialect, event: &Event) -> bool {
    event
        .builtin()
        .is_some_and(|b| dialect.profile().has_event(b))
}

/// "a Claude Code", "an echo-agent": `name` with its indefinite article.
pub(crate) fn article(name: &str) -> String {
    let vowel = name
        .chars()
        .next()
        .is_some_and(|c| "aeiouAEIOU".contains(c));
    format!("{} {name}", if vowel { "an" } else { "a" })
}

/// Quotes one argument for `sh`: as it is when it holds only characters the shell takes
/// literally, else in single quotes.
pub fn shell_quote(arg: &str) -> String {
    let plain = !arg.is_empty()
        && arg.chars().all(|c| {
            c.is_ascii_alphanumeric()
                || matches!(c, '_' | '.' | '/' | '=' | ':' | '@' | '%' | '+' | '-' | ',')
        });
    if plain {
        arg.to_owned()
    } else {
        format!("'{}'", arg.replace('\'', r"'\''"))
    }
}

/// Whether a command hook runs sandboxed: its own setting, else its dialect's default.
pub(crate) fn sandboxed(spec: &HookSpec, c: &CommandAction) -> bool {
    c.sandbox
        .unwrap_or_else(|| spec.dialect.sandboxed_by_default())
}

/// The environment variables a command hook's command, working directory and environment
/// values read (`$NAME`, `${NAME}`), each once, in order of appearance.
fn var_refs(c: &CommandAction) -> Vec<&str> {
    let mut texts: Vec<&str> = match &c.command {
        CommandLine::Script(s) => vec![s.as_str()],
        CommandLine::Argv(argv) => argv.iter().map(String::as_str).collect(),
    };
    texts.extend(c.env.iter().map(|(_, v)| v.as_str()));
    if let Some(cwd) = c.cwd.as_deref().and_then(|p| p.to_str()) {
        texts.push(cwd);
    }
    let mut names: Vec<&str> = Vec::new();
    for text in texts {
        let mut rest = text;
        while let Some(at) = rest.find('$') {
            let after = &rest[at + 1..];
            let body = after.strip_prefix('{').unwrap_or(after);
            let len = body
                .find(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_'))
                .unwrap_or(body.len());
            let name = &body[..len];
            if name.starts_with(|ch: char| ch.is_ascii_alphabetic() || ch == '_')
                && !names.contains(&name)
            {
                names.push(name);
            }
            rest = &body[len..];
        }
    }
    names
}

pub(crate) fn secs(d: Duration) -> Value {
    if d.subsec_nanos() == 0 {
        json!(d.as_secs())
    } else {
        json!(d.as_secs_f64())
    }
}

impl Writer {
    /// A writer of `to`, whose facts and every dialect's are `rules_of`'s.
    pub(crate) fn new(to: Dialect, rules_of: fn(Dialect) -> &'static WriteRules) -> Writer {
        Writer {
            to,
            rules: rules_of(to),
            rules_of,
            warnings: Vec::new(),
        }
    }

    /// The writing facts of `dialect`.
    pub(crate) fn rules_of(&self, dialect: Dialect) -> &'static WriteRules {
        (self.rules_of)(dialect)
    }

    pub(crate) fn warn(&mut self, spec: &HookSpec, what: &str) {
        let mut d = Diagnostic::warning(
            DiagnosticKind::Convert,
            format!("hook `{}`: {what}", spec.display_id()),
        );
        if let Some(file) = &spec.provenance.file {
            d = d.with_file(file.clone());
        }
        if let (Some(line), Some(col)) = (spec.provenance.line, spec.provenance.column) {
            d = d.at(line, col);
        }
        self.warnings.push(d);
    }

    /// `Some` for a hook that is on; a disabled hook is left out, with a warning, since
    /// the targets that call this have no switch of a hook's own.
    pub(crate) fn enabled(&mut self, spec: &HookSpec) -> Option<()> {
        if spec.enabled {
            Some(())
        } else {
            self.skip(spec, "a disabled hook");
            None
        }
    }

    pub(crate) fn skip(&mut self, spec: &HookSpec, why: &str) {
        let what = format!("left out: {} cannot express {why}", self.to);
        self.warn(spec, &what);
    }

    pub(crate) fn lost(&mut self, spec: &HookSpec, what: &str) {
        let message = format!("{what} dropped: {} has no way to say it", self.to);
        self.warn(spec, &message);
    }

    pub(crate) fn directives(&mut self, items: &[Item]) {
        for item in items {
            let (id, provenance) = match item {
                Item::SetEnabled { id, provenance, .. } | Item::Remove { id, provenance } => {
                    (id, provenance)
                }
                Item::Hook(_) => continue,
            };
            let mut d = Diagnostic::warning(
                DiagnosticKind::Convert,
                format!(
                    "the directive on `{id}` is left out: {} has no merge directives",
                    self.to
                ),
            );
            if let Some(file) = &provenance.file {
                d = d.with_file(file.clone());
            }
            if let (Some(line), Some(col)) = (provenance.line, provenance.column) {
                d = d.at(line, col);
            }
            self.warnings.push(d);
        }
    }

    pub(crate) fn settings_lost(&mut self, settings: &Settings) {
        let mut lost = Vec::new();
        if settings.disable_all_hooks.is_some() {
            lost.push("disable_all_hooks");
        }
        if settings.managed_hooks_only.is_some() {
            lost.push("managed_hooks_only");
        }
        if settings.allowed_http_hook_urls.is_some() {
            lost.push("allowed_http_hook_urls");
        }
        if !lost.is_empty() {
            self.warnings.push(Diagnostic::warning(
                DiagnosticKind::Convert,
                format!(
                    "{} dropped: {} has no such setting",
                    lost.join(", "),
                    self.to
                ),
            ));
        }
    }

    pub(crate) fn event_name(&mut self, spec: &HookSpec) -> String {
        if !has_event(self.to, &spec.event) {
            let message = format!(
                "{} has no event `{}`; written under its canonical name",
                self.to,
                spec.event.name()
            );
            self.warn(spec, &message);
        }
        spec.event.info().name_in(self.to).to_owned()
    }

    /// Whether `spec` keeps its own dialect, and its matcher its own tool names, in the
    /// file written (`dialect: gemini` in a native file): Gemini CLI's and Codex's hooks
    /// do, so they are given their agent's JSON and tool names and read by its rules as at
    /// home (Cursor's keep theirs under Cursor's event names, see `native_hook`).
    pub(crate) fn keeps_dialect(&self, spec: &HookSpec) -> bool {
        self.rules.holds_other_dialects && self.rules_of(spec.dialect).kept_in_native
    }

    /// The matcher in the target's language, `None` for match-everything.
    pub(crate) fn matcher(&mut self, spec: &HookSpec) -> Option<String> {
        let m = &spec.matcher;
        let tool_event = spec.event.info().matches_tool_name();
        // Tool names are written in the target's vocabulary, or, for a hook that keeps its
        // own dialect in a native file, in that dialect's (its matcher is matched there).
        let from = spec.dialect.tools();
        let to = if self.keeps_dialect(spec) {
            from
        } else {
            self.to.tools()
        };
        let names: Vec<String> = match m.kind() {
            MatcherKind::Exact(names) if tool_event => names
                .iter()
                .map(|n| to.from_canonical(&from.to_canonical(n)).into_owned())
                .collect(),
            MatcherKind::Exact(names) => names.clone(),
            MatcherKind::All | MatcherKind::Regex(_) => Vec::new(),
        };
        if tool_event
            && matches!(m.kind(), MatcherKind::Regex(_))
            && !std::ptr::eq(from, to)
            && !(from.is_canonical() && to.is_canonical())
        {
            self.warn(
                spec,
                &format!(
                    "the matcher `{}` is a regular expression over {} tool names, kept as it is; {} names tools otherwise",
                    m.as_str(),
                    spec.dialect,
                    self.to
                ),
            );
        }
        if m.is_all() {
            return None;
        }
        if !tool_event && let Some(lifecycle) = self.rules.lifecycle_matcher {
            return lifecycle(self, spec, &names);
        }
        if self.rules.joins_names && !names.is_empty() {
            return Some(names.join("|"));
        }
        let regex_target = self.rules.regex_matchers;
        match m.kind() {
            MatcherKind::All => None,
            MatcherKind::Exact(_) if tool_event && !names.is_empty() && regex_target => {
                Some(match names.as_slice() {
                    [one] => format!("^{one}$"),
                    many => format!("^(?:{})$", many.join("|")),
                })
            }
            MatcherKind::Exact(_) if tool_event && !names.is_empty() => Some(names.join("|")),
            MatcherKind::Exact(names) if regex_target => Some(match names.as_slice() {
                [one] => format!("^{one}$"),
                many => format!("^(?:{})$", many.join("|")),
            }),
            MatcherKind::Exact(_) => Some(m.as_str().to_owned()),
            MatcherKind::Regex(_) if regex_target => Some(m.as_str().to_owned()),
            MatcherKind::Regex(_) => {
                // A regex that Claude's rules would read as a name list is wrapped so that
                // it stays a regex.
                let src = m.as_str();
                match Matcher::parse(src).map(|p| matches!(p.kind(), MatcherKind::Regex(_))) {
                    Ok(true) => Some(src.to_owned()),
                    _ => Some(format!("(?:{src})")),
                }
            }
        }
    }

    /// The `sandbox` to write for a command hook, in a target that has the key: whether the
    /// hook runs sandboxed now, when the hook said so or the target's default differs (a
    /// native hook written for Fabro says `sandbox = false`, since Fabro would sandbox it).
    pub(crate) fn sandbox_value(&self, spec: &HookSpec, c: &CommandAction) -> Option<bool> {
        let now = sandboxed(spec, c);
        (c.sandbox.is_some() || now != self.to.sandboxed_by_default()).then_some(now)
    }

    pub(crate) fn script(&mut self, spec: &HookSpec, line: &CommandLine) -> String {
        match line {
            CommandLine::Script(s) => s.clone(),
            CommandLine::Argv(argv) => {
                let message = format!(
                    "the argv command is written as a shell command, since {} has no argv form",
                    self.to
                );
                self.warn(spec, &message);
                argv.iter()
                    .map(|a| shell_quote(a))
                    .collect::<Vec<_>>()
                    .join(" ")
            }
        }
    }

    /// What a hook of Cursor or Cline loses in another dialect: the matcher over the
    /// command text (unless the target keeps it, `command_filter`), and the JSON its
    /// command was written for (unless the written hook keeps its dialect, `kept`).
    pub(crate) fn home_losses(&mut self, spec: &HookSpec, command_filter: bool, kept: bool) {
        if let Some(pattern) = spec.filter.command()
            && !command_filter
        {
            let what = format!(
                "the matcher over the command text (`{pattern}`, Cursor's), so the hook now fires for every shell command,"
            );
            self.lost(spec, &what);
        }
        // Only Cursor's and native files say how often a stop hook may keep the agent going.
        if spec.loop_limit.is_some() && !self.rules.loop_limit {
            self.lost(
                spec,
                "its `loop_limit` (the engine's stop-loop cap applies instead)",
            );
        }
        if spec.dialect != self.to
            && !kept
            && self.rules_of(spec.dialect).own_input
            && matches!(spec.action, Action::Command(_))
        {
            let home = spec.dialect.profile().display_name;
            let what = format!(
                "the hook's command was written for {home}'s input (its JSON on stdin), and {} hook is given another: a script reading {home}'s fields must be changed",
                article(self.to.profile().display_name),
            );
            self.warn(spec, &what);
        }
    }

    pub(crate) fn common_losses(&mut self, spec: &HookSpec, can: &[&str]) {
        let has = |k: &str| can.contains(&k);
        if spec.id.is_some() && !has("id") {
            self.lost(spec, "the id (its merge identity)");
        }
        if spec.name.is_some() && !has("name") {
            self.lost(spec, "the name");
        }
        if spec.description.is_some() && !has("description") {
            self.lost(spec, "the description");
        }
        let tool_or_path = !spec.filter.tools().is_empty() || !spec.filter.path_globs().is_empty();
        if tool_or_path && !has("filter") {
            self.lost(spec, "the tool/path filter (the hook now fires more often)");
        }
        self.home_losses(spec, has("command_filter"), false);
        if spec.condition.is_some() && !has("if") {
            self.lost(spec, "the `if` condition (the hook now fires more often)");
        }
        if spec.sequential.is_some() && !has("sequential") {
            self.lost(spec, "the sequential group");
        }
        if spec.is_async && !has("async") {
            self.lost(spec, "`async` (the hook now delays the event)");
        }
        if let Action::Command(c) = &spec.action {
            if c.cwd.is_some() && !has("cwd") {
                self.lost(spec, "the working directory");
            }
            if !c.env.is_empty() && !has("env") {
                self.lost(spec, "the environment variables");
            }
            if !has("sandbox") && sandboxed(spec, c) {
                self.lost(spec, "the sandbox (the hook now runs outside it)");
            }
            for name in var_refs(c) {
                if provides_var(spec.dialect, name) && !provides_var(self.to, name) {
                    let what = format!(
                        "the command reads `${name}`, which {} hooks are not given: it is empty there",
                        self.to
                    );
                    self.warn(spec, &what);
                }
            }
        }
        if let Action::Http(h) = &spec.action
            && !h.allowed_env_vars.is_empty()
            && !has("allowed_env_vars")
        {
            self.lost(spec, "the allowed environment variables");
        }
    }
}

/// Hooks nested by event and matcher groups (Claude Code's shape, which echo-agent, Gemini
/// CLI and Codex share), each handler and the switches written as `how` says.
pub(crate) fn nested(w: &mut Writer, items: &[Item], settings: &Settings, how: &Nested) -> Value {
    w.directives(items);
    let mut root = Map::new();
    (how.settings)(w, settings, &mut root);
    // Event name -> groups of (matcher, handlers), consecutive hooks sharing a matcher
    // sharing a group.
    let mut events: Map<String, Value> = Map::new();
    for spec in items.iter().filter_map(Item::hook) {
        let handler = (how.handler)(w, spec);
        let Some(handler) = handler else { continue };
        let event = w.event_name(spec);
        let matcher = w.matcher(spec);
        // Gemini CLI's `sequential` is a definition's: a group of its own.
        let sequential = how.sequential_groups && spec.sequential.is_some();
        let groups = events.entry(event).or_insert_with(|| json!([]));
        let Value::Array(groups) = groups else {
            continue;
        };
        let same = groups.last().is_some_and(|g| {
            g.get("matcher").and_then(Value::as_str) == matcher.as_deref()
                && g.get("sequential").is_some() == sequential
        });
        if !same {
            let mut g = Map::new();
            if let Some(m) = &matcher {
                g.insert("matcher".into(), json!(m));
            }
            if sequential {
                g.insert("sequential".into(), json!(true));
            }
            g.insert("hooks".into(), json!([]));
            groups.push(Value::Object(g));
        }
        if let Some(Value::Array(handlers)) = groups.last_mut().and_then(|g| g.get_mut("hooks")) {
            handlers.push(Value::Object(handler));
        }
    }
    root.insert("hooks".into(), Value::Object(events));
    Value::Object(root)
}

/// An HTTP hook's headers as a JSON object, when it has any.
pub(crate) fn headers_value(headers: &[(String, String)]) -> Option<Value> {
    (!headers.is_empty())
        .then(|| Value::Object(headers.iter().map(|(k, v)| (k.clone(), json!(v))).collect()))
}

/// The timeout to write for `spec` in `dialect`: its own, unless it is what the hook would
/// get there anyway (that dialect's default from the one table, within the maximum).
pub(crate) fn own_timeout(spec: &HookSpec, dialect: Dialect) -> Option<Duration> {
    let default = hooks_core::default_timeout_for(dialect, &spec.action, &spec.event);
    spec.timeout
        .filter(|t| *t != default.min(DEFAULT_MAX_TIMEOUT))
}

//! Writing hooks out in any dialect: `hooks convert FILE --to DIALECT`.
//!
//! Each target expresses what it can; everything else is a warning naming the hook and
//! what was lost. Hooks a target cannot express at all (a permission hook for Claude Code,
//! anything but a command for Autohand, a disabled hook where the target has no `enabled`)
//! are left out, with a warning, rather than written as something that behaves
//! differently. Matchers keep their meaning across the two matcher languages: a name list
//! becomes `^(?:A|B)$` for Fabro and Autohand (always regular expressions), and a regular
//! expression that looks like a name becomes `(?:name)` for Claude-style targets, so it
//! stays a regular expression there. Timeouts equal to the target's default are left out.
//!
//! [`equivalent`] says whether two hooks behave the same, whatever their dialect and
//! provenance: what round-trip tests compare.

use std::time::Duration;

use hooks_core::{
    Action, BuiltinEvent, CommandAction, CommandLine, Decision, Dialect, Event, FailurePolicy,
    HookSpec, Matcher, MatcherKind, PromptMode, StopBlockCap, provides_var,
};
use serde_json::{Map, Value, json};

use crate::error::{Diagnostic, DiagnosticKind, Error};
use crate::file::{ConfigFile, DEFAULT_MAX_TIMEOUT, Item, Settings};
use crate::parse::{Format, yaml};

/// The text of a converted config and what could not be expressed.
#[derive(Clone, Debug)]
pub struct Converted {
    /// The file's text.
    pub text: String,
    /// Its syntax.
    pub format: Format,
    /// What the target could not express, one warning per hook and loss.
    pub warnings: Vec<Diagnostic>,
}

/// The syntax a dialect is written in by default (native: YAML).
pub fn default_format(dialect: Dialect) -> Format {
    match dialect {
        Dialect::Claude
        | Dialect::Autohand
        | Dialect::Gemini
        | Dialect::Codex
        | Dialect::Cursor
        | Dialect::Cline => Format::Json,
        Dialect::Fabro => Format::Toml,
        Dialect::Native | Dialect::Echo => Format::Yaml,
    }
}

/// Converts a loaded file to `to`, in the target's own syntax (native: YAML).
pub fn convert(file: &ConfigFile, to: Dialect) -> Result<Converted, Error> {
    convert_items(&file.items, &file.settings, to, None)
}

/// Converts hooks (and merge directives) to `to`. `format` chooses the syntax of a native
/// target; the other dialects have one syntax each and a different `format` is a warning.
pub fn convert_items(
    items: &[Item],
    settings: &Settings,
    to: Dialect,
    format: Option<Format>,
) -> Result<Converted, Error> {
    if to == Dialect::Cline {
        return Err(Diagnostic::error(
            DiagnosticKind::Convert,
            "Cline has no config file to write: its hooks are executables named after their events (`.clinerules/hooks/PreToolUse`, ...)",
        )
        .with_hint("write the hook's script to that file and make it executable; `hooks convert` reads Cline hook files, to any other dialect")
        .into());
    }
    let mut w = Writer {
        to,
        warnings: Vec::new(),
    };
    let own = default_format(to);
    let format = match format {
        Some(f) if to == Dialect::Native => f,
        Some(f) if f != own => {
            w.warnings.push(Diagnostic::warning(
                DiagnosticKind::Convert,
                format!(
                    "{to} configs are {}; writing {} instead of {}",
                    own.as_str(),
                    own.as_str(),
                    f.as_str()
                ),
            ));
            own
        }
        Some(_) | None => own,
    };
    let value = match to {
        Dialect::Claude | Dialect::Echo | Dialect::Gemini | Dialect::Codex => {
            w.nested(items, settings)
        }
        Dialect::Fabro => w.fabro(items, settings),
        Dialect::Autohand => w.autohand(items, settings),
        Dialect::Native => w.native(items, settings),
        Dialect::Cursor => w.cursor(items, settings),
        // Refused above: a Cline hook is a file, not a config.
        Dialect::Cline => Value::Null,
    };
    let text = match format {
        Format::Json => {
            let mut t = serde_json::to_string_pretty(&value).unwrap_or_default();
            t.push('\n');
            t
        }
        Format::Toml => toml::to_string_pretty(&value).map_err(|e| {
            Error::from(Diagnostic::error(
                DiagnosticKind::Convert,
                format!("cannot write TOML: {e}"),
            ))
        })?,
        Format::Yaml => yaml::to_string(&value)?,
    };
    Ok(Converted {
        text,
        format,
        warnings: w.warnings,
    })
}

fn has_event(dialect: Dialect, event: &Event) -> bool {
    event
        .builtin()
        .is_some_and(|b| dialect.profile().has_event(b))
}

/// "a Claude Code", "an echo-agent": `name` with its indefinite article.
fn article(name: &str) -> String {
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

/// A hook's action with a command's sandbox made explicit, for comparing hooks of
/// different dialects.
fn effective_action(spec: &HookSpec) -> Action {
    match &spec.action {
        Action::Command(c) => {
            let mut c = c.clone();
            c.sandbox = Some(sandboxed(spec, &c));
            Action::Command(c)
        }
        other => other.clone(),
    }
}

/// Whether a command hook runs sandboxed: its own setting, else its dialect's default.
fn sandboxed(spec: &HookSpec, c: &CommandAction) -> bool {
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

/// The meaning of a matcher, for comparing matchers written in different languages.
#[derive(Debug, PartialEq, Eq)]
enum MatcherMeaning {
    All,
    Names(Vec<String>),
    Regex(String),
}

fn is_name(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-'))
}

fn meaning(m: &Matcher) -> MatcherMeaning {
    match m.kind() {
        MatcherKind::All => MatcherMeaning::All,
        MatcherKind::Exact(names) => {
            let mut names = names.clone();
            names.sort();
            names.dedup();
            MatcherMeaning::Names(names)
        }
        MatcherKind::Regex(_) => {
            let src = m.as_str();
            // `^(?:A|B)$` and `^A$`: an exact name list written as a regex.
            let anchored = src
                .strip_prefix('^')
                .and_then(|s| s.strip_suffix('$'))
                .map(|s| {
                    s.strip_prefix("(?:")
                        .and_then(|s| s.strip_suffix(')'))
                        .unwrap_or(s)
                });
            if let Some(inner) = anchored {
                let names: Vec<&str> = inner.split('|').collect();
                if names.iter().all(|n| is_name(n)) {
                    let mut names: Vec<String> = names.into_iter().map(str::to_owned).collect();
                    names.sort();
                    names.dedup();
                    return MatcherMeaning::Names(names);
                }
            }
            // `(?:agent)`: a regex kept a regex in a Claude-style target.
            let unwrapped = src
                .strip_prefix("(?:")
                .and_then(|s| s.strip_suffix(')'))
                .filter(|inner| !inner.contains(['(', ')']))
                .unwrap_or(src);
            MatcherMeaning::Regex(unwrapped.to_owned())
        }
    }
}

/// Whether two hooks behave the same: event, matcher meaning, filter, condition, action
/// (a command's sandbox as whether it runs sandboxed, whether said or its dialect's
/// default), timeout, failure policy, async, sequential group, enabled, id, name and
/// description. Dialect and provenance are not compared.
pub fn equivalent(a: &HookSpec, b: &HookSpec) -> bool {
    a.event == b.event
        && meaning(&a.matcher) == meaning(&b.matcher)
        && a.filter.tools() == b.filter.tools()
        && a.filter.path_globs() == b.filter.path_globs()
        && a.filter.command() == b.filter.command()
        && a.condition.as_ref().map(|c| c.as_str()) == b.condition.as_ref().map(|c| c.as_str())
        && effective_action(a) == effective_action(b)
        && a.timeout == b.timeout
        && a.on_failure == b.on_failure
        && a.is_async == b.is_async
        && a.sequential == b.sequential
        && a.enabled == b.enabled
        && a.id == b.id
        && a.name == b.name
        && a.description == b.description
}

fn secs(d: Duration) -> Value {
    if d.subsec_nanos() == 0 {
        json!(d.as_secs())
    } else {
        json!(d.as_secs_f64())
    }
}

struct Writer {
    to: Dialect,
    warnings: Vec<Diagnostic>,
}

impl Writer {
    fn warn(&mut self, spec: &HookSpec, what: &str) {
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

    fn skip(&mut self, spec: &HookSpec, why: &str) {
        let what = format!("left out: {} cannot express {why}", self.to);
        self.warn(spec, &what);
    }

    fn lost(&mut self, spec: &HookSpec, what: &str) {
        let message = format!("{what} dropped: {} has no way to say it", self.to);
        self.warn(spec, &message);
    }

    fn directives(&mut self, items: &[Item]) {
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

    fn settings_lost(&mut self, settings: &Settings) {
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

    fn event_name(&mut self, spec: &HookSpec) -> String {
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

    /// The matcher in the target's language, `None` for match-everything.
    /// Whether `spec` keeps its own dialect, and its matcher its own tool names, in the
    /// file written (`dialect: gemini` in a native file): Gemini CLI's and Codex's hooks
    /// do, so they are given their agent's JSON and tool names and read by its rules as at
    /// home (Cursor's keep theirs under Cursor's event names, see `native_hook`).
    fn keeps_dialect(&self, spec: &HookSpec) -> bool {
        self.to == Dialect::Native && matches!(spec.dialect, Dialect::Gemini | Dialect::Codex)
    }

    fn matcher(&mut self, spec: &HookSpec) -> Option<String> {
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
        if self.to == Dialect::Gemini && !tool_event {
            return self.gemini_lifecycle_matcher(spec, &names);
        }
        // Codex: only letters, digits, `_` and `|` make a name list.
        if self.to == Dialect::Codex && !names.is_empty() {
            return Some(names.join("|"));
        }
        let regex_target = matches!(
            self.to,
            Dialect::Fabro | Dialect::Autohand | Dialect::Gemini
        );
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

    /// A matcher on a Gemini CLI lifecycle event, which Gemini CLI compares exactly: one
    /// name of a list (the others are lost, with a warning), a regular expression as it is
    /// (with a warning).
    fn gemini_lifecycle_matcher(&mut self, spec: &HookSpec, names: &[String]) -> Option<String> {
        let event = spec.event.info().name_in(Dialect::Gemini).to_owned();
        if names.is_empty() {
            let what = format!(
                "Gemini CLI matches `{event}` exactly, not by regular expression; the matcher is written as it is"
            );
            self.warn(spec, &what);
            return Some(spec.matcher.as_str().to_owned());
        }
        if names.len() > 1 {
            let what = format!(
                "Gemini CLI matches `{event}` exactly, so only `{}` of the names is kept",
                names[0]
            );
            self.warn(spec, &what);
        }
        names.first().cloned()
    }

    /// The `sandbox` to write for a command hook, in a target that has the key: whether the
    /// hook runs sandboxed now, when the hook said so or the target's default differs (a
    /// native hook written for Fabro says `sandbox = false`, since Fabro would sandbox it).
    fn sandbox_value(&self, spec: &HookSpec, c: &CommandAction) -> Option<bool> {
        let now = sandboxed(spec, c);
        (c.sandbox.is_some() || now != self.to.sandboxed_by_default()).then_some(now)
    }

    fn script(&mut self, spec: &HookSpec, line: &CommandLine) -> String {
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
    fn home_losses(&mut self, spec: &HookSpec, command_filter: bool, kept: bool) {
        if let Some(pattern) = spec.filter.command()
            && !command_filter
        {
            let what = format!(
                "the matcher over the command text (`{pattern}`, Cursor's), so the hook now fires for every shell command,"
            );
            self.lost(spec, &what);
        }
        // Only Cursor's and native files say how often a stop hook may keep the agent going.
        if spec.loop_limit.is_some() && !matches!(self.to, Dialect::Cursor | Dialect::Native) {
            self.lost(
                spec,
                "its `loop_limit` (the engine's stop-loop cap applies instead)",
            );
        }
        if spec.dialect != self.to
            && !kept
            && matches!(spec.dialect, Dialect::Cursor | Dialect::Cline)
            && matches!(spec.action, Action::Command(_))
        {
            let home = spec.dialect.profile().display_name;
            let what = format!(
                "the hook's command was written for {home}'s input (its JSON on stdin), and {} hook is given another: a script reading {home}'s fields must be changed",
                crate::convert::article(self.to.profile().display_name),
            );
            self.warn(spec, &what);
        }
    }

    fn common_losses(&mut self, spec: &HookSpec, can: &[&str]) {
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

    fn native(&mut self, items: &[Item], settings: &Settings) -> Value {
        let mut root = Map::new();
        root.insert("version".into(), json!(1));
        if !settings.vars.is_empty() {
            root.insert("vars".into(), json!(settings.vars));
        }
        if let Some(v) = settings.disable_all_hooks {
            root.insert("disable_all_hooks".into(), json!(v));
        }
        if let Some(v) = settings.managed_hooks_only {
            root.insert("managed_hooks_only".into(), json!(v));
        }
        if let Some(v) = &settings.allowed_http_hook_urls {
            root.insert("allowed_http_hook_urls".into(), json!(v));
        }
        let mut hooks = Vec::new();
        for item in items {
            match item {
                Item::Hook(spec) => hooks.push(Value::Object(self.native_hook(spec))),
                Item::SetEnabled { id, enabled, .. } => {
                    hooks.push(json!({"id": id, "enabled": enabled}))
                }
                Item::Remove { id, .. } => hooks.push(json!({"id": id, "remove": true})),
            }
        }
        root.insert("hooks".into(), Value::Array(hooks));
        Value::Object(root)
    }

    fn native_hook(&mut self, spec: &HookSpec) -> Map<String, Value> {
        let mut h = Map::new();
        let mut put = |k: &str, v: Value| {
            h.insert(k.to_owned(), v);
        };
        if let Some(id) = &spec.id {
            put("id", json!(id));
        }
        if let Some(name) = &spec.name {
            put("name", json!(name));
        }
        if let Some(d) = &spec.description {
            put("description", json!(d));
        }
        // A Cursor hook keeps its dialect, under the Cursor name of its event, which says
        // which of Cursor's JSON it is given.
        let cursor_home = match &spec.event {
            Event::Builtin(event) if spec.dialect == Dialect::Cursor => spec
                .home_event
                .and_then(hooks_core::cursor::event)
                .or_else(|| hooks_core::cursor::event_for(*event)),
            _ => None,
        };
        match cursor_home {
            Some(home) => {
                put("event", json!(home.name));
                put("dialect", json!(Dialect::Cursor.as_str()));
            }
            None => put("event", json!(spec.event.name())),
        }
        // Gemini CLI's and Codex's hooks keep their dialect too: it says which JSON and
        // tool names they are given and how their answers are read.
        if self.keeps_dialect(spec) {
            put("dialect", json!(spec.dialect.as_str()));
        }
        if let Some(m) = self.matcher(spec) {
            put("matcher", json!(m));
        }
        match &spec.action {
            Action::Command(c) => {
                match &c.command {
                    CommandLine::Script(s) => put("command", json!(s)),
                    CommandLine::Argv(v) => put("args", json!(v)),
                }
                if let Some(cwd) = &c.cwd {
                    put("cwd", json!(cwd.to_string_lossy()));
                }
                if !c.env.is_empty() {
                    put(
                        "env",
                        Value::Object(c.env.iter().map(|(k, v)| (k.clone(), json!(v))).collect()),
                    );
                }
                if let Some(s) = self.sandbox_value(spec, c) {
                    put("sandbox", json!(s));
                }
            }
            Action::Http(x) => {
                put("url", json!(x.url));
                if let Some(headers) = headers_value(&x.headers) {
                    put("headers", headers);
                }
                if !x.allowed_env_vars.is_empty() {
                    put("allowed_env_vars", json!(x.allowed_env_vars));
                }
            }
            Action::McpTool(m) => {
                put("server", json!(m.server));
                put("tool", json!(m.tool));
                put("input", m.input.clone());
            }
            Action::Prompt(p) => {
                match p.mode {
                    PromptMode::Agent => put("type", json!("agent")),
                    PromptMode::Inject => put("mode", json!("inject")),
                    _ => {}
                }
                put("prompt", json!(p.prompt));
                if let Some(m) = &p.model {
                    put("model", json!(m));
                }
                if let Some(rounds) = p.max_tool_rounds {
                    put("max_tool_rounds", json!(rounds));
                }
            }
            Action::Permission(p) => {
                put("decision", json!(p.decision.as_str()));
                if let Some(r) = &p.reason {
                    put("reason", json!(r));
                }
            }
            other => put("type", json!(other.type_name())),
        }
        if let Some(t) = own_timeout(spec, Dialect::Native) {
            put(
                "timeout",
                if t.subsec_millis() == 0 && t.subsec_nanos() == 0 {
                    secs(t)
                } else {
                    json!(humantime::format_duration(t).to_string())
                },
            );
        }
        if spec.on_failure == FailurePolicy::Block {
            put("on_failure", json!("block"));
        }
        if spec.is_async {
            put("async", json!(true));
        }
        if let Some(s) = &spec.sequential {
            put("sequential", json!(s));
        }
        if !spec.enabled {
            put("enabled", json!(false));
        }
        if let Some(limit) = spec.loop_limit {
            put("loop_limit", json!(limit.limit()));
        }
        self.home_losses(spec, true, cursor_home.is_some());
        if !spec.filter.is_empty() {
            let mut f = Map::new();
            if !spec.filter.tools().is_empty() {
                f.insert("tool".into(), json!(spec.filter.tools()));
            }
            if !spec.filter.path_globs().is_empty() {
                f.insert("path".into(), json!(spec.filter.path_globs()));
            }
            if let Some(command) = spec.filter.command() {
                f.insert("command".into(), json!(command));
            }
            put("filter", Value::Object(f));
        }
        if let Some(c) = &spec.condition {
            put("if", json!(c.as_str()));
        }
        h
    }

    /// Claude Code (`claude`) or echo-agent: hooks nested by event and matcher.
    fn nested(&mut self, items: &[Item], settings: &Settings) -> Value {
        self.directives(items);
        let mut root = Map::new();
        if self.to == Dialect::Gemini && settings.disable_all_hooks == Some(true) {
            root.insert("hooksConfig".into(), json!({"enabled": false}));
            let rest = Settings {
                disable_all_hooks: None,
                ..settings.clone()
            };
            self.settings_lost(&rest);
        } else if self.to == Dialect::Claude {
            if let Some(v) = settings.disable_all_hooks {
                root.insert("disableAllHooks".into(), json!(v));
            }
            if let Some(v) = settings.managed_hooks_only {
                root.insert("allowManagedHooksOnly".into(), json!(v));
            }
            if let Some(v) = &settings.allowed_http_hook_urls {
                root.insert("allowedHttpHookUrls".into(), json!(v));
            }
        } else {
            self.settings_lost(settings);
        }
        // Event name -> groups of (matcher, handlers), consecutive hooks sharing a matcher
        // sharing a group.
        let mut events: Map<String, Value> = Map::new();
        for spec in items.iter().filter_map(Item::hook) {
            let handler = match self.to {
                Dialect::Claude => self.claude_handler(spec),
                Dialect::Gemini => self.gemini_handler(spec),
                Dialect::Codex => self.codex_handler(spec),
                Dialect::Echo
                | Dialect::Native
                | Dialect::Fabro
                | Dialect::Autohand
                | Dialect::Cursor
                | Dialect::Cline => self.echo_handler(spec),
            };
            let Some(handler) = handler else { continue };
            let event = self.event_name(spec);
            let matcher = self.matcher(spec);
            // Gemini CLI's `sequential` is a definition's: a group of its own.
            let sequential = self.to == Dialect::Gemini && spec.sequential.is_some();
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
            if let Some(Value::Array(handlers)) = groups.last_mut().and_then(|g| g.get_mut("hooks"))
            {
                handlers.push(Value::Object(handler));
            }
        }
        root.insert("hooks".into(), Value::Object(events));
        Value::Object(root)
    }

    fn claude_handler(&mut self, spec: &HookSpec) -> Option<Map<String, Value>> {
        if !spec.enabled {
            self.skip(spec, "a disabled hook");
            return None;
        }
        let mut h = Map::new();
        match &spec.action {
            Action::Command(c) => {
                h.insert("type".into(), json!("command"));
                let script = self.script(spec, &c.command);
                h.insert("command".into(), json!(script));
            }
            Action::Http(x) => {
                h.insert("type".into(), json!("http"));
                h.insert("url".into(), json!(x.url));
                if let Some(headers) = headers_value(&x.headers) {
                    h.insert("headers".into(), headers);
                }
                if !x.allowed_env_vars.is_empty() {
                    h.insert("allowedEnvVars".into(), json!(x.allowed_env_vars));
                }
            }
            Action::McpTool(m) => {
                h.insert("type".into(), json!("mcp_tool"));
                h.insert("server".into(), json!(m.server));
                h.insert("tool".into(), json!(m.tool));
                h.insert("input".into(), m.input.clone());
            }
            Action::Prompt(p) if p.mode != PromptMode::Inject => {
                let ty = if p.mode == PromptMode::Agent {
                    "agent"
                } else {
                    "prompt"
                };
                h.insert("type".into(), json!(ty));
                h.insert("prompt".into(), json!(p.prompt));
                if let Some(m) = &p.model {
                    h.insert("model".into(), json!(m));
                }
            }
            Action::Prompt(_) => {
                self.skip(spec, "an injected prompt (its prompt hooks ask a model)");
                return None;
            }
            other => {
                let why = format!("`{}` hooks", other.type_name());
                self.skip(spec, &why);
                return None;
            }
        };
        if let Some(t) = own_timeout(spec, Dialect::Claude) {
            h.insert("timeout".into(), secs(t));
        }
        if spec.is_async {
            h.insert("async".into(), json!(true));
        }
        if let Some(c) = &spec.condition {
            h.insert("if".into(), json!(c.as_str()));
        }
        if let Some(d) = &spec.description {
            h.insert("statusMessage".into(), json!(d));
        }
        if spec.on_failure == FailurePolicy::Block {
            self.lost(spec, "fail-closed (`on_failure: block`)");
        }
        self.common_losses(spec, &["description", "if", "async", "allowed_env_vars"]);
        Some(h)
    }

    /// A Gemini CLI hook: a command, its `name`, `description`, `env` and `timeout` in
    /// milliseconds.
    fn gemini_handler(&mut self, spec: &HookSpec) -> Option<Map<String, Value>> {
        if !spec.enabled {
            self.skip(spec, "a disabled hook");
            return None;
        }
        let Action::Command(c) = &spec.action else {
            let why = format!("`{}` hooks", spec.action.type_name());
            self.skip(spec, &why);
            return None;
        };
        let mut h = Map::new();
        h.insert("type".into(), json!("command"));
        if let Some(n) = &spec.name {
            h.insert("name".into(), json!(n));
        }
        let script = self.script(spec, &c.command);
        h.insert("command".into(), json!(script));
        if let Some(t) = own_timeout(spec, Dialect::Gemini) {
            h.insert("timeout".into(), json!(t.as_millis()));
        }
        if let Some(d) = &spec.description {
            h.insert("description".into(), json!(d));
        }
        if !c.env.is_empty() {
            let env: Map<String, Value> =
                c.env.iter().map(|(k, v)| (k.clone(), json!(v))).collect();
            h.insert("env".into(), Value::Object(env));
        }
        if spec.on_failure == FailurePolicy::Block {
            self.lost(spec, "fail-closed (`on_failure: block`)");
        }
        self.common_losses(spec, &["name", "description", "env", "sequential"]);
        Some(h)
    }

    /// A Codex handler: a command, its `timeout` in seconds and `statusMessage`.
    fn codex_handler(&mut self, spec: &HookSpec) -> Option<Map<String, Value>> {
        if !spec.enabled {
            self.skip(spec, "a disabled hook");
            return None;
        }
        let Action::Command(c) = &spec.action else {
            let why = format!(
                "`{}` hooks (Codex runs only command hooks)",
                spec.action.type_name()
            );
            self.skip(spec, &why);
            return None;
        };
        let mut h = Map::new();
        h.insert("type".into(), json!("command"));
        let script = self.script(spec, &c.command);
        h.insert("command".into(), json!(script));
        if let Some(t) = own_timeout(spec, Dialect::Codex) {
            h.insert("timeout".into(), secs(t));
        }
        if let Some(d) = &spec.description {
            h.insert("statusMessage".into(), json!(d));
        }
        if spec.is_async {
            self.lost(
                spec,
                "`async` (Codex skips async hooks, so it is written as one that waits)",
            );
        }
        if spec.on_failure == FailurePolicy::Block {
            self.lost(spec, "fail-closed (`on_failure: block`)");
        }
        self.common_losses(spec, &["description", "async"]);
        Some(h)
    }

    fn echo_handler(&mut self, spec: &HookSpec) -> Option<Map<String, Value>> {
        if !spec.enabled {
            self.skip(spec, "a disabled hook");
            return None;
        }
        let mut h = Map::new();
        match &spec.action {
            Action::Command(c) => {
                h.insert("type".into(), json!("command"));
                let script = self.script(spec, &c.command);
                h.insert("command".into(), json!(script));
                if let Some(s) = self.sandbox_value(spec, c) {
                    h.insert("sandbox".into(), json!(s));
                }
            }
            Action::Prompt(p) if p.mode == PromptMode::Inject => {
                h.insert("type".into(), json!("prompt"));
                h.insert("prompt".into(), json!(p.prompt));
            }
            Action::Prompt(_) => {
                self.skip(
                    spec,
                    "a prompt that asks a model (its prompt hooks inject text)",
                );
                return None;
            }
            Action::Permission(p)
                if matches!(p.decision, Decision::Allow | Decision::Deny | Decision::Ask) =>
            {
                h.insert("type".into(), json!("permission"));
                h.insert("decision".into(), json!(p.decision.as_str()));
                if let Some(r) = &p.reason {
                    h.insert("reason".into(), json!(r));
                }
            }
            Action::Http(x) => {
                h.insert("type".into(), json!("http"));
                h.insert("url".into(), json!(x.url));
                if let Some(headers) = headers_value(&x.headers) {
                    h.insert("headers".into(), headers);
                }
            }
            Action::McpTool(m) => {
                h.insert("type".into(), json!("mcp_tool"));
                h.insert("server".into(), json!(m.server));
                h.insert("tool".into(), json!(m.tool));
                h.insert("input".into(), m.input.clone());
            }
            other => {
                let why = format!("`{}` hooks", other.type_name());
                self.skip(spec, &why);
                return None;
            }
        }
        if let Some(t) = own_timeout(spec, Dialect::Echo) {
            h.insert("timeout".into(), secs(t));
        }
        if spec.on_failure == FailurePolicy::Block {
            self.lost(spec, "fail-closed (`on_failure: block`)");
        }
        self.common_losses(spec, &["sandbox"]);
        Some(h)
    }

    fn fabro(&mut self, items: &[Item], settings: &Settings) -> Value {
        self.directives(items);
        self.settings_lost(settings);
        // Fabro's command hooks run in the run's working directory: one `[run].working_dir`
        // keeps the hooks' directory when every enabled command hook has the same one.
        let mut dirs = items
            .iter()
            .filter_map(Item::hook)
            .filter(|spec| spec.enabled)
            .filter_map(|spec| match &spec.action {
                Action::Command(c) => Some(c.cwd.as_deref()),
                _ => None,
            });
        let first = dirs.next().flatten();
        let workdir = first.filter(|dir| dirs.all(|d| d == Some(*dir)));
        let mut hooks = Vec::new();
        for spec in items.iter().filter_map(Item::hook) {
            if let Some(h) = self.fabro_hook(spec, workdir) {
                hooks.push(Value::Object(h));
            }
        }
        let mut run = Map::new();
        if let Some(dir) = workdir {
            run.insert("working_dir".into(), json!(dir.to_string_lossy()));
        }
        run.insert("hooks".into(), Value::Array(hooks));
        json!({"_version": 1, "run": run})
    }

    fn fabro_hook(
        &mut self,
        spec: &HookSpec,
        workdir: Option<&std::path::Path>,
    ) -> Option<Map<String, Value>> {
        if !spec.enabled {
            self.skip(spec, "a disabled hook");
            return None;
        }
        let mut h = Map::new();
        if let Some(id) = &spec.id {
            h.insert("id".into(), json!(id));
        }
        if let Some(n) = &spec.name {
            h.insert("name".into(), json!(n));
        }
        let event = self.event_name(spec);
        h.insert("event".into(), json!(event));
        let default_policy = match &spec.action {
            Action::Command(c) => {
                match &c.command {
                    CommandLine::Script(s) => h.insert("script".into(), json!(s)),
                    CommandLine::Argv(v) => h.insert("command".into(), json!(v)),
                };
                if let Some(s) = self.sandbox_value(spec, c) {
                    h.insert("sandbox".into(), json!(s));
                }
                FailurePolicy::Block
            }
            Action::Http(x) => {
                h.insert("url".into(), json!(x.url));
                if !x.url.starts_with("https://") {
                    h.insert("tls".into(), json!("off"));
                }
                if let Some(headers) = headers_value(&x.headers) {
                    h.insert("headers".into(), headers);
                }
                if !x.allowed_env_vars.is_empty() {
                    h.insert("allowed_env_vars".into(), json!(x.allowed_env_vars));
                }
                FailurePolicy::Allow
            }
            Action::Prompt(p) if p.mode != PromptMode::Inject => {
                let agent = p.mode == PromptMode::Agent;
                if agent {
                    h.insert("agent".into(), json!("enabled"));
                }
                h.insert("prompt".into(), json!(p.prompt));
                if let Some(m) = &p.model {
                    h.insert("model".into(), json!(m));
                }
                if let (true, Some(rounds)) = (agent, p.max_tool_rounds) {
                    h.insert("max_tool_rounds".into(), json!(rounds));
                }
                FailurePolicy::Allow
            }
            Action::Prompt(_) => {
                self.skip(spec, "an injected prompt");
                return None;
            }
            other => {
                let why = format!("`{}` hooks", other.type_name());
                self.skip(spec, &why);
                return None;
            }
        };
        if let Some(m) = self.matcher(spec) {
            h.insert("matcher".into(), json!(m));
        }
        let blocking_default = matches!(
            spec.event.builtin(),
            Some(
                BuiltinEvent::RunStart
                    | BuiltinEvent::StageStart
                    | BuiltinEvent::EdgeSelected
                    | BuiltinEvent::PreToolUse
                    | BuiltinEvent::SandboxReady
            )
        );
        if spec.is_async == blocking_default {
            h.insert("blocking".into(), json!(!spec.is_async));
        }
        if let Some(t) = own_timeout(spec, Dialect::Fabro) {
            h.insert(
                "timeout".into(),
                json!(humantime::format_duration(t).to_string()),
            );
        }
        if spec.on_failure != default_policy {
            let what = format!(
                "the failure policy (Fabro's {} hooks always fail {})",
                spec.action.type_name(),
                if default_policy == FailurePolicy::Block {
                    "closed"
                } else {
                    "open"
                }
            );
            self.lost(spec, &what);
        }
        let kept_cwd = match &spec.action {
            Action::Command(c) => c.cwd.is_some() && c.cwd.as_deref() == workdir,
            _ => false,
        };
        let can: &[&str] = if kept_cwd {
            &["id", "name", "async", "sandbox", "allowed_env_vars", "cwd"]
        } else {
            &["id", "name", "async", "sandbox", "allowed_env_vars"]
        };
        self.common_losses(spec, can);
        Some(h)
    }

    fn autohand(&mut self, items: &[Item], settings: &Settings) -> Value {
        self.directives(items);
        self.settings_lost(settings);
        let mut hooks = Vec::new();
        for spec in items.iter().filter_map(Item::hook) {
            let Action::Command(c) = &spec.action else {
                let why = format!(
                    "`{}` hooks (its hooks are shell commands)",
                    spec.action.type_name()
                );
                self.skip(spec, &why);
                continue;
            };
            let mut h = Map::new();
            let event = self.event_name(spec);
            h.insert("event".into(), json!(event));
            let script = self.script(spec, &c.command);
            h.insert("command".into(), json!(script));
            if let Some(d) = &spec.description {
                h.insert("description".into(), json!(d));
            }
            if !spec.enabled {
                h.insert("enabled".into(), json!(false));
            }
            if let Some(t) = own_timeout(spec, Dialect::Autohand) {
                h.insert("timeout".into(), json!(t.as_millis() as u64));
                if t.subsec_nanos() % 1_000_000 != 0 {
                    self.lost(spec, "the sub-millisecond part of the timeout");
                }
            }
            if spec.is_async {
                h.insert("async".into(), json!(true));
            }
            if let Some(m) = self.matcher(spec) {
                h.insert("matcher".into(), json!(m));
            }
            if !spec.filter.tools().is_empty() || !spec.filter.path_globs().is_empty() {
                let mut f = Map::new();
                if !spec.filter.tools().is_empty() {
                    f.insert("tool".into(), json!(spec.filter.tools()));
                }
                if !spec.filter.path_globs().is_empty() {
                    f.insert("path".into(), json!(spec.filter.path_globs()));
                }
                h.insert("filter".into(), Value::Object(f));
            }
            if spec.on_failure == FailurePolicy::Block {
                self.lost(spec, "fail-closed (`on_failure: block`)");
            }
            self.common_losses(spec, &["description", "filter", "async"]);
            hooks.push(Value::Object(h));
        }
        json!({"hooks": {"enabled": true, "hooks": hooks}})
    }

    /// Cursor's `{"version": 1, "hooks": {event: [entry]}}`: command and prompt hooks, each
    /// under the Cursor name it was registered on, else the event's first Cursor name with
    /// its tool matcher in Cursor's tool types (`Bash` is `Shell`).
    fn cursor(&mut self, items: &[Item], settings: &Settings) -> Value {
        self.directives(items);
        self.settings_lost(settings);
        let mut hooks: Map<String, Value> = Map::new();
        for spec in items.iter().filter_map(Item::hook) {
            if !spec.enabled {
                self.skip(spec, "a disabled hook");
                continue;
            }
            let mut h = Map::new();
            match &spec.action {
                Action::Command(c) => {
                    let script = self.script(spec, &c.command);
                    h.insert("command".into(), json!(script));
                }
                Action::Prompt(p) if p.mode == PromptMode::Evaluate => {
                    h.insert("type".into(), json!("prompt"));
                    h.insert("prompt".into(), json!(p.prompt));
                    if let Some(m) = &p.model {
                        h.insert("model".into(), json!(m));
                    }
                }
                other => {
                    let why = format!("`{}` hooks", other.type_name());
                    self.skip(spec, &why);
                    continue;
                }
            }
            let home = spec
                .home_event
                .filter(|_| spec.dialect == Dialect::Cursor)
                .and_then(hooks_core::cursor::event);
            let (event, matcher) = match home {
                Some(home) => {
                    let matcher = match home.matcher {
                        hooks_core::cursor::MatcherTarget::Command => {
                            spec.filter.command().map(str::to_owned)
                        }
                        hooks_core::cursor::MatcherTarget::ToolType
                        | hooks_core::cursor::MatcherTarget::Subagent => self.cursor_matcher(spec),
                        hooks_core::cursor::MatcherTarget::None => None,
                    };
                    (home.name.to_owned(), matcher)
                }
                None => (self.event_name(spec), self.cursor_matcher(spec)),
            };
            if let Some(m) = matcher {
                h.insert("matcher".into(), json!(m));
            }
            if let Some(t) = own_timeout(spec, Dialect::Cursor) {
                h.insert("timeout".into(), secs(t));
            }
            let fails_closed_anyway = home.is_some_and(|h| h.fail_closed);
            let fails_closed = spec.on_failure == FailurePolicy::Block;
            if fails_closed != fails_closed_anyway {
                h.insert("failClosed".into(), json!(fails_closed));
            }
            if let Some(limit) = spec.loop_limit {
                let default = StopBlockCap::at_most(hooks_core::cursor::DEFAULT_LOOP_LIMIT);
                if limit != default {
                    h.insert("loop_limit".into(), json!(limit.limit()));
                }
            }
            let command_filter =
                home.is_some_and(|h| h.matcher == hooks_core::cursor::MatcherTarget::Command);
            // The folder Cursor runs a hook in follows from its file's place.
            let implied_cwd = match (&spec.action, &spec.provenance.file) {
                (Action::Command(c), Some(file)) if spec.dialect == Dialect::Cursor => {
                    c.cwd.is_some()
                        && c.cwd
                            == crate::dialects::cursor::working_dir(file, spec.provenance.layer)
                }
                _ => false,
            };
            let can: &[&str] = match (command_filter, implied_cwd) {
                (true, true) => &["command_filter", "cwd"],
                (true, false) => &["command_filter"],
                (false, true) => &["cwd"],
                (false, false) => &[],
            };
            self.common_losses(spec, can);
            if let Value::Array(list) = hooks.entry(event).or_insert_with(|| json!([])) {
                list.push(Value::Object(h));
            }
        }
        json!({"version": 1, "hooks": hooks})
    }

    /// A hook's tool matcher in Cursor's tool types: each canonical name of a name list
    /// becomes its Cursor type (`Bash` is `Shell`); a regular expression is written as it
    /// is, with a warning, since Cursor matches tool types by name.
    fn cursor_matcher(&mut self, spec: &HookSpec) -> Option<String> {
        match spec.matcher.kind() {
            MatcherKind::All => None,
            MatcherKind::Exact(names) => {
                let mut types: Vec<String> = Vec::new();
                for name in names {
                    let t = hooks_core::cursor::tool_type(name).into_owned();
                    if !types.contains(&t) {
                        types.push(t);
                    }
                }
                Some(types.join("|"))
            }
            MatcherKind::Regex(_) => {
                self.warn(
                    spec,
                    "the regular-expression matcher is written as it is; Cursor matches tool types (`Shell`, `Read`, ...) by name",
                );
                Some(spec.matcher.as_str().to_owned())
            }
        }
    }
}

/// An HTTP hook's headers as a JSON object, when it has any.
fn headers_value(headers: &[(String, String)]) -> Option<Value> {
    (!headers.is_empty())
        .then(|| Value::Object(headers.iter().map(|(k, v)| (k.clone(), json!(v))).collect()))
}

/// The timeout to write for `spec` in `dialect`: its own, unless it is what the hook would
/// get there anyway (that dialect's default from the one table, within the maximum).
fn own_timeout(spec: &HookSpec, dialect: Dialect) -> Option<Duration> {
    let default = hooks_core::default_timeout_for(dialect, &spec.action, &spec.event);
    spec.timeout
        .filter(|t| *t != default.min(DEFAULT_MAX_TIMEOUT))
}

//! `hooks manage`: Autohand's `/hooks` as a line-based menu on stdin and stdout, so that it
//! works in any terminal and can be driven by piped input: view the hooks grouped by event,
//! add one, toggle one, remove one, test one with a sample context, toggle all, quit.
//!
//! Hooks are numbered within their event's group, as Autohand's display numbers them
//! (`t pre-tool 2` toggles the second hook of `pre-tool`; a bare `t 2` when one event has
//! hooks). Toggling, removing and testing act on the file that defines the hook; adding and toggling all act on the
//! target file: the first `-c FILE`, else the project's native config. Every change goes
//! through the same editor as `hooks enable|disable|add|remove`. When stdin is not a
//! terminal, each line read is echoed after its prompt, so a transcript reads like a
//! session. Colours only when stdout is a terminal.

use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};

use anyhow::{Result, anyhow, bail};
use hooks::Engine;
use hooks::config::{ConfigFile, DialectFacts, TrustPolicy, TrustStore};
use hooks::core::{
    Action, AggregateEntry, CommandLine, Dialect, Event, HookPos, Layer, aggregate_context,
};
use hooks::exec::CancellationToken;

use super::edit::{build_hook, open_files, target_file, user_config};
use super::render::{self, Style};
use crate::cli::{ConfigArgs, ManageArgs};
use hooks::config::edit::{Change, ConfigEdit, Entry, dialect_name, label, waits_for_trust};

/// The rule between the header, the list and the totals.
const RULE: &str = "──────────────────────────────────────────────────";

/// Runs `hooks manage` on stdin and stdout.
pub fn run(args: &ManageArgs) -> Result<u8> {
    let stdin = std::io::stdin();
    let echo = !stdin.is_terminal();
    let mut input = stdin.lock();
    let mut out = std::io::stdout().lock();
    let mut session = Session {
        args: &args.config,
        style: Style::stdout(),
        echo,
        files: Vec::new(),
        listed: Vec::new(),
        trust: None,
        switch: AllSwitch::default(),
        engine: None,
        runtime: None,
    };
    session.run(&mut input, &mut out)
}

/// What a listed hook is: on, off, on but switched off with all hooks, or on but waiting
/// for trust (so it does not run).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Enabled,
    Disabled,
    SwitchedOff,
    Untrusted,
}

/// The listed hooks of one event: indices into the list, in the order shown.
struct Group {
    event: Event,
    members: Vec<usize>,
}

/// The switch for all hooks as merging applies it (`disable_all_hooks`, Claude Code's
/// `disableAllHooks`): the highest layer's trusted file that sets it decides for every
/// layer but managed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct AllSwitch {
    /// Every non-managed hook is off.
    off: bool,
    /// The file that decides, and its layer.
    decider: Option<(PathBuf, Layer)>,
}

/// How a file spells the switch for all hooks (`hooks.enabled`).
fn switch_key(dialect: Dialect) -> String {
    dialect
        .profile()
        .file
        .all_switch
        .map_or_else(|| "the switch for all hooks".to_owned(), |s| s.dotted())
}

struct Session<'a> {
    args: &'a ConfigArgs,
    style: Style,
    echo: bool,
    files: Vec<ConfigEdit>,
    /// The listed hooks, numbered from 1: (file index, entry).
    listed: Vec<(usize, Entry)>,
    /// The trust store as it was at the last refresh (`None`: it cannot be read).
    trust: Option<TrustStore>,
    /// The switch for all hooks at the last refresh.
    switch: AllSwitch,
    engine: Option<Engine>,
    runtime: Option<tokio::runtime::Runtime>,
}

impl Session<'_> {
    fn run(&mut self, input: &mut dyn BufRead, out: &mut dyn Write) -> Result<u8> {
        self.refresh()?;
        self.view(out)?;
        self.help(out)?;
        loop {
            let Some(line) = self.ask(input, out, "> ")? else {
                writeln!(out)?;
                return Ok(0);
            };
            let (cmd, arg) = match line.split_once(char::is_whitespace) {
                Some((c, a)) => (c, a.trim()),
                None => (line.as_str(), ""),
            };
            let result = match cmd {
                "q" | "quit" | "exit" => return Ok(0),
                "" | "l" | "list" | "v" | "view" => self.view(out),
                "a" | "add" => self.add(input, out),
                "t" | "toggle" => self.toggle(input, out, arg),
                "r" | "remove" => self.remove(input, out, arg),
                "x" | "test" => self.test(input, out, arg),
                "g" | "all" => self.toggle_all(out),
                "h" | "help" | "?" => self.help(out),
                other => writeln!(out, "unknown command `{other}`; `?` lists the commands")
                    .map_err(Into::into),
            };
            if let Err(e) = result {
                writeln!(out, "{} {e:#}", self.style.red("error:"))?;
            }
        }
    }

    /// Reads the files again, so numbers and states are what the files say now.
    fn refresh(&mut self) -> Result<()> {
        let (files, broken) = open_files(self.args)?;
        if let Some(first) = broken.first() {
            return Err(anyhow!("{first}"));
        }
        self.listed = files
            .iter()
            .enumerate()
            .flat_map(|(i, f)| {
                f.entries()
                    .into_iter()
                    .filter(|e| e.spec.is_some())
                    .map(move |e| (i, e))
            })
            .collect();
        // Numbered as shown: grouped by event, groups in the order their first hook is
        // declared, declaration order within a group.
        let mut order: Vec<String> = Vec::new();
        for (_, e) in &self.listed {
            if let Some(spec) = &e.spec
                && !order.iter().any(|n| n == spec.event.name())
            {
                order.push(spec.event.name().to_owned());
            }
        }
        self.listed.sort_by_key(|(_, e)| {
            e.spec
                .as_ref()
                .and_then(|s| order.iter().position(|n| n == s.event.name()))
        });
        self.files = files;
        self.trust = TrustStore::open_default().ok();
        self.switch = self.all_switch(None);
        // A hook's test runs with the engine of the files as they are now.
        self.engine = None;
        Ok(())
    }

    fn ask(
        &self,
        input: &mut dyn BufRead,
        out: &mut dyn Write,
        prompt: &str,
    ) -> Result<Option<String>> {
        write!(out, "{prompt}")?;
        out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            return Ok(None);
        }
        let line = line.trim_end_matches(['\n', '\r']).to_owned();
        if self.echo {
            writeln!(out, "{line}")?;
        }
        Ok(Some(line.trim().to_owned()))
    }

    fn help(&self, out: &mut dyn Write) -> Result<()> {
        writeln!(
            out,
            "commands: l list · a add · t EVENT N toggle · r EVENT N remove · x EVENT N test · g toggle all · q quit"
        )?;
        Ok(())
    }

    /// The file adding and toggling all act on; `None` when `-c` names a directory (of
    /// several files), which is for viewing and acting on listed hooks only.
    fn target(&self) -> Result<Option<ConfigEdit>> {
        match self.args.config.first() {
            Some(dir) if dir.is_dir() => Ok(None),
            _ => target_file(self.args).map(Some),
        }
    }

    /// [`Session::target`], for the commands that need one.
    fn one_target(&self, what: &str) -> Result<ConfigEdit> {
        match self.target()? {
            Some(t) => Ok(t),
            None => {
                let dir = self.args.config.first().map(|d| d.display().to_string());
                bail!(
                    "{what} acts on one file, and `-c {}` is a directory of {} config files\n  hint: name the file, as in `hooks manage -c {}`",
                    dir.unwrap_or_default(),
                    self.files.len(),
                    self.files
                        .first()
                        .map(|f| f.path().display().to_string())
                        .unwrap_or_else(|| "FILE".to_owned())
                )
            }
        }
    }

    /// The switch for all hooks as merging applies it, with `edited` in place of the file
    /// of the same path (or added, if it is new).
    /// A file trusted as a whole keeps its grant over the edit, as saving it does.
    fn all_switch(&self, edited: Option<&ConfigFile>) -> AllSwitch {
        let mut files: Vec<ConfigFile> = self.files.iter().map(|f| f.file().clone()).collect();
        let mut store = self.trust.clone();
        if let Some(e) = edited {
            match files
                .iter_mut()
                .find(|f| same_path(f.path.as_deref(), e.path.as_deref()))
            {
                Some(f) => {
                    if let Some(s) = &mut store {
                        // In memory only: the real grant follows when the file is saved.
                        let _ = s.follow_edit(f, e);
                    }
                    *f = e.clone();
                }
                None => files.push(e.clone()),
            }
        }
        let policy = match &store {
            Some(store) => TrustPolicy::Store(store),
            None => TrustPolicy::Deny,
        };
        let off = hooks::config::merge(&files, &policy).all_hooks_disabled();
        // The same order merging applies the files in: by layer, then as given.
        let mut order: Vec<&ConfigFile> = files.iter().collect();
        order.sort_by_key(|f| f.layer);
        let decider = order
            .iter()
            .rev()
            .find(|f| {
                f.layer != Layer::Managed
                    && f.settings.disable_all_hooks.is_some()
                    && policy.allows_file(f)
            })
            .and_then(|f| Some((f.path.clone()?, f.layer)));
        AllSwitch { off, decider }
    }

    fn view(&self, out: &mut dyn Write) -> Result<()> {
        let s = self.style;
        let target = self.target()?;
        let dialect = target
            .as_ref()
            .map_or_else(Dialect::default, |t| t.file().dialect);
        writeln!(out, "{}", s.bold("Hooks"))?;
        writeln!(out, "{RULE}")?;
        let all = self.all_switch(target.as_ref().map(|t| t.file()));
        let mode = match (&all, target.as_ref().map(|t| (t, t.all_enabled()))) {
            (AllSwitch { off: true, decider }, _) => s.red(&format!(
                "disabled (every hook but managed ones is off: {})",
                decider
                    .as_ref()
                    .map_or("managed settings".to_owned(), |(p, l)| format!(
                        "`{}: true` in {}{}",
                        switch_key(dialect_of(&self.files, p)),
                        p.display(),
                        layer_note(*l)
                    ))
            )),
            (_, Some((t, Some(false)))) if DialectFacts::of(dialect).switch_in_hooks() => {
                s.red(&format!(
                    "disabled (`hooks.enabled: false` switches off every hook of {})",
                    t.path().display()
                ))
            }
            (_, Some((_, None))) => format!(
                "per hook ({} configs have no switch for all hooks)",
                dialect_name(dialect)
            ),
            _ => s.green("enabled"),
        };
        writeln!(out, "Mode: {mode}")?;
        match &target {
            Some(target) => writeln!(
                out,
                "File: {} ({}{})",
                target.path().display(),
                dialect_name(dialect),
                if target.is_changed() {
                    ", not created yet"
                } else {
                    ""
                }
            )?,
            None => writeln!(
                out,
                "Files: {} ({} config file{})",
                self.args
                    .config
                    .first()
                    .map(|d| d.display().to_string())
                    .unwrap_or_default(),
                self.files.len(),
                render::plural(self.files.len())
            )?,
        }
        let groups = self.groups();
        let spelling = self.spelling(target.as_ref());
        if groups.is_empty() {
            writeln!(out, "\nNo hooks yet: `a` adds one.")?;
        }
        let several = self.files.len() > 1;
        for group in &groups {
            let on = group.members.iter().filter(|n| self.runs(**n)).count();
            let name = group.event.info().name_in(spelling);
            writeln!(
                out,
                "\n{} ({on}/{} enabled)",
                s.cyan(name),
                group.members.len()
            )?;
            for (i, n) in group.members.iter().enumerate() {
                let (file, entry) = &self.listed[*n];
                writeln!(
                    out,
                    "  {}",
                    self.line(*n, i + 1, &self.files[*file], entry, several)
                )?;
            }
        }
        let total = self.listed.len();
        let untrusted = (0..total)
            .filter(|n| self.state(*n) == State::Untrusted)
            .count();
        let on = (0..total).filter(|n| self.runs(*n)).count();
        writeln!(out, "\n{RULE}")?;
        let switched = (0..total)
            .filter(|n| self.state(*n) == State::SwitchedOff)
            .count();
        let mut extra = String::new();
        if switched > 0 {
            extra.push_str(&format!(", {switched} switched off with all"));
        }
        if untrusted > 0 {
            extra.push_str(&format!(", {untrusted} untrusted"));
        }
        writeln!(
            out,
            "Total: {total} hook{} ({on} enabled, {} disabled{extra})",
            render::plural(total),
            total - on - untrusted - switched
        )?;
        // The exact command for each file whose hooks wait for trust.
        let mut files: Vec<usize> = Vec::new();
        for n in (0..total).filter(|n| self.state(*n) == State::Untrusted) {
            if !files.contains(&self.listed[n].0) {
                files.push(self.listed[n].0);
            }
        }
        for file in files {
            let path = self.files[file].path().display().to_string();
            writeln!(
                out,
                "{} hooks of {path} wait for trust: review it, then `hooks trust {}`",
                s.yellow("untrusted:"),
                hooks::config::shell_quote(&path)
            )?;
        }
        Ok(())
    }

    /// Whether the listed hook numbered `n` (from 0) is on, trusted or not.
    fn state(&self, n: usize) -> State {
        let (file, entry) = &self.listed[n];
        let f = self.files[*file].file();
        match &entry.spec {
            _ if !entry.enabled => State::Disabled,
            // Autohand's `hooks.enabled: false` shows in the hook's own `enabled`.
            Some(spec) if !spec.enabled => State::SwitchedOff,
            Some(_) if f.layer != Layer::Managed && self.switch.off => State::SwitchedOff,
            Some(spec) if waits_for_trust(self.trust.as_ref(), f, spec) => State::Untrusted,
            _ => State::Enabled,
        }
    }

    /// Whether a hook added to `target` would wait for trust: the file needs it and is not
    /// trusted as a whole.
    fn waits_for_trust(&self, target: &ConfigEdit) -> bool {
        let f = target.file();
        f.needs_trust() && !self.trust.as_ref().is_some_and(|s| s.is_file_trusted(f))
    }

    /// Whether the listed hook numbered `n` (from 0) runs: enabled and trusted.
    fn runs(&self, n: usize) -> bool {
        self.state(n) == State::Enabled
    }

    /// `2. [enabled] ./guard.sh - Block dangerous commands  (guard)`: the listed hook `n`
    /// (from 0), numbered `number` in its group.
    fn line(
        &self,
        n: usize,
        number: usize,
        file: &ConfigEdit,
        entry: &Entry,
        several: bool,
    ) -> String {
        let s = self.style;
        let state = match self.state(n) {
            State::Enabled => s.green("[enabled]"),
            State::Disabled => s.yellow("[disabled]"),
            State::SwitchedOff => s.yellow("[switched off]"),
            State::Untrusted => s.red("[untrusted]"),
        };
        let Some(spec) = &entry.spec else {
            return String::new();
        };
        let what = match &spec.action {
            Action::Command(c) => match &c.command {
                CommandLine::Script(script) => script.clone(),
                CommandLine::Argv(argv) => argv.join(" "),
            },
            other => other.summary(),
        };
        let mut line = format!("{number}. {state} {}", render::shorten(&what, 60));
        if let Some(d) = &spec.description {
            line.push_str(&format!(" - {d}"));
        }
        let mut notes = Vec::new();
        if let Some(id) = spec.id.as_ref().or(spec.name.as_ref()) {
            notes.push(id.clone());
        }
        if several {
            notes.push(match entry.line {
                Some(l) => format!("{}:{l}", file.path().display()),
                None => file.path().display().to_string(),
            });
        }
        if !notes.is_empty() {
            line.push_str(&format!("  {}", s.dim(&format!("({})", notes.join(", ")))));
        }
        line
    }

    /// The listed hooks by event, groups in the order their first hook is listed.
    fn groups(&self) -> Vec<Group> {
        let mut groups: Vec<Group> = Vec::new();
        for (n, (_, entry)) in self.listed.iter().enumerate() {
            let Some(spec) = &entry.spec else { continue };
            match groups.iter_mut().find(|g| g.event == spec.event) {
                Some(group) => group.members.push(n),
                None => groups.push(Group {
                    event: spec.event.clone(),
                    members: vec![n],
                }),
            }
        }
        groups
    }

    /// How event names are spelt: as the target file spells them; with no target file yet
    /// (or a directory), as the listed files do when they are all of one dialect.
    fn spelling(&self, target: Option<&ConfigEdit>) -> Dialect {
        let first = self.files.first().map(|f| f.file().dialect);
        let shared = first.filter(|d| self.files.iter().all(|f| f.file().dialect == *d));
        match target {
            Some(t) if !t.is_changed() => t.file().dialect,
            Some(t) => shared.unwrap_or(t.file().dialect),
            None => shared.unwrap_or_default(),
        }
    }

    /// The listed hook `arg` names (`EVENT N`, `N` when one event has hooks, `EVENT` when
    /// it has one hook), asking for it if `arg` is empty. `verb` is the command, for hints.
    fn pick(
        &self,
        input: &mut dyn BufRead,
        out: &mut dyn Write,
        verb: &str,
        arg: &str,
    ) -> Result<Option<(usize, Entry)>> {
        if self.listed.is_empty() {
            writeln!(out, "there are no hooks")?;
            return Ok(None);
        }
        let text = if arg.is_empty() {
            match self.ask(input, out, "hook (event and number): ")? {
                Some(t) => t,
                None => return Ok(None),
            }
        } else {
            arg.to_owned()
        };
        let groups = self.groups();
        let spelling = self.spelling(self.target().ok().flatten().as_ref());
        let (event, number) = match text.rsplit_once(char::is_whitespace) {
            Some((event, number)) => (Some(event.trim()), Some(number)),
            None if text.parse::<usize>().is_ok() => (None, Some(text.as_str())),
            None => (Some(text.as_str()), None),
        };
        let example = |g: &Group| {
            let name = g.event.info().name_in(spelling);
            format!("`{verb} {name} 1`")
        };
        let group = match event {
            Some(name) => {
                let event = render::resolve_event(name)?;
                match groups.iter().find(|g| g.event == event) {
                    Some(group) => group,
                    None => {
                        writeln!(out, "no hook is listed for {name}")?;
                        return Ok(None);
                    }
                }
            }
            None => match groups.as_slice() {
                [only] => only,
                [first, ..] => {
                    writeln!(
                        out,
                        "hooks are numbered per event: say which, as in {}",
                        example(first)
                    )?;
                    return Ok(None);
                }
                [] => return Ok(None),
            },
        };
        let count = group.members.len();
        let n = match number.map(str::parse::<usize>) {
            Some(Ok(n)) if (1..=count).contains(&n) => n,
            None if count == 1 => 1,
            None => {
                writeln!(
                    out,
                    "{} has {count} hooks: say which, as in {}",
                    group.event.info().name_in(spelling),
                    example(group)
                )?;
                return Ok(None);
            }
            Some(_) => {
                writeln!(
                    out,
                    "`{text}` is not a hook: {} has hooks 1 to {count}",
                    group.event.info().name_in(spelling)
                )?;
                return Ok(None);
            }
        };
        Ok(Some(self.listed[group.members[n - 1]].clone()))
    }

    /// Saves `file` if `change` changed it and says what happened; then reads everything
    /// again (and shows the list, if something changed).
    fn finish(
        &mut self,
        out: &mut dyn Write,
        file: &mut ConfigEdit,
        change: Change,
        done: &str,
    ) -> Result<()> {
        let changed = change == Change::Changed;
        match change {
            Change::Changed => {
                let saved = file.save()?;
                writeln!(out, "{done}")?;
                if let Some(note) = saved.note() {
                    writeln!(out, "{note}")?;
                }
            }
            Change::Unchanged(why) => writeln!(out, "{why}")?,
        }
        self.refresh()?;
        if changed { self.view(out) } else { Ok(()) }
    }

    fn toggle(&mut self, input: &mut dyn BufRead, out: &mut dyn Write, arg: &str) -> Result<()> {
        let Some((file, entry)) = self.pick(input, out, "t", arg)? else {
            return Ok(());
        };
        let on = !entry.enabled;
        let change = self.files[file].set_enabled(&entry, on)?;
        let mut edit = self.files.swap_remove(file);
        let done = format!(
            "{} `{}` in {}",
            if on { "enabled" } else { "disabled" },
            entry.label(),
            edit.path().display()
        );
        self.finish(out, &mut edit, change, &done)
    }

    fn remove(&mut self, input: &mut dyn BufRead, out: &mut dyn Write, arg: &str) -> Result<()> {
        let Some((file, entry)) = self.pick(input, out, "r", arg)? else {
            return Ok(());
        };
        let sure = self.ask(input, out, &format!("remove `{}`? [y/N] ", entry.label()))?;
        if !matches!(sure.as_deref(), Some("y" | "Y" | "yes")) {
            writeln!(out, "kept")?;
            return Ok(());
        }
        let change = self.files[file].remove(&entry)?;
        let mut edit = self.files.swap_remove(file);
        let done = format!("removed `{}` from {}", entry.label(), edit.path().display());
        self.finish(out, &mut edit, change, &done)
    }

    fn add(&mut self, input: &mut dyn BufRead, out: &mut dyn Write) -> Result<()> {
        let mut target = self.one_target("adding a hook")?;
        let dialect = target.file().dialect;
        writeln!(
            out,
            "adding to {} ({}); an empty answer cancels",
            target.path().display(),
            dialect_name(dialect)
        )?;
        // Said before the hook is asked for: a hook added here would not run yet.
        if self.args.config.is_empty() && self.waits_for_trust(&target) {
            let path = hooks::config::shell_quote(&target.path().display().to_string());
            let mine = user_config().map_or_else(String::new, |p| {
                format!(
                    "; a hook that runs at once, in every project, goes to your own config: `hooks manage -c {}`",
                    hooks::config::shell_quote(&p.display().to_string())
                )
            });
            writeln!(
                out,
                "{} hooks of this project file run once it is trusted: after adding, review it, then `hooks trust {path}`{mine}",
                self.style.yellow("note:")
            )?;
        }
        let Some(event) = self.ask(input, out, "event: ")?.filter(|e| !e.is_empty()) else {
            return writeln!(out, "cancelled").map_err(Into::into);
        };
        // A misspelt event is caught before the other questions.
        render::resolve_event(&event)?;
        let facts = DialectFacts::of(dialect);
        let matcher_hint = if facts.typed_matcher_is_regex() {
            "matcher (a regular expression; empty for all): "
        } else {
            "matcher (empty for all): "
        };
        let Some(matcher) = self.ask(input, out, matcher_hint)? else {
            return Ok(());
        };
        let Some(command) = self.ask(input, out, "command: ")?.filter(|c| !c.is_empty()) else {
            return writeln!(out, "cancelled").map_err(Into::into);
        };
        // Only some dialects keep a description; the others are not asked for one.
        let description = if facts.asks_description() {
            self.ask(input, out, "description (optional): ")?
                .filter(|d| !d.is_empty())
        } else {
            None
        };
        let mut spec = build_hook(&event, Some(&matcher), Action::script(command), dialect)?;
        spec.description = description;
        let change = target.add(&spec)?;
        let done = format!(
            "added `{}` on {} to {}",
            label(&spec),
            spec.event.info().name_in(dialect),
            target.path().display()
        );
        self.finish(out, &mut target, change, &done)
    }

    /// Flips the switch for all hooks where it takes effect, and says what it switched:
    /// Autohand's `hooks.enabled` covers its file; `disable_all_hooks` every layer but
    /// managed, decided by the highest trusted file that sets it. Switching back on removes
    /// the key the switching off wrote, so the file is again as it was.
    fn toggle_all(&mut self, out: &mut dyn Write) -> Result<()> {
        let mut target = self.one_target("toggling all hooks")?;
        let path = target.path().display().to_string();
        let dialect = target.file().dialect;
        let key = switch_key(dialect);
        if DialectFacts::of(dialect).switch_in_hooks() {
            let on = target.all_enabled() == Some(false);
            let (change, done) = if on {
                let c = target.clear_all_switch()?;
                (
                    c,
                    format!("switched the hooks of {path} back on (removed `{key}: false`)"),
                )
            } else {
                let c = target.set_all_enabled(false)?;
                (
                    c,
                    format!("switched off every hook of {path} (`{key}: false`)"),
                )
            };
            return self.finish(out, &mut target, change, &done);
        }
        if target.all_enabled().is_none() {
            // Fabro and echo-agent: the editor's refusal says so.
            let change = target.set_all_enabled(true)?;
            return self.finish(out, &mut target, change, "");
        }
        let f = target.file();
        if f.needs_trust() && !self.trust.as_ref().is_some_and(|s| s.is_file_trusted(f)) {
            bail!(
                "{path} is not trusted as a whole, so its `{key}` is ignored and would switch nothing; nothing was changed\n  hint: review it, then `hooks trust {}`",
                hooks::config::shell_quote(&path)
            );
        }
        let on = self.switch.off;
        let change = if on {
            // Remove the key; if a lower layer's `true` then decides, say `false` instead.
            let cleared = target.clear_all_switch()?;
            if self.all_switch(Some(target.file())).off {
                target = self.one_target("toggling all hooks")?;
                target.set_all_enabled(true)?
            } else {
                cleared
            }
        } else {
            target.set_all_enabled(false)?
        };
        let now = self.all_switch(Some(target.file()));
        if now.off == on {
            let (p, layer) = now
                .decider
                .map(|(p, l)| (p.display().to_string(), layer_note(l)))
                .unwrap_or_else(|| ("managed settings".to_owned(), String::new()));
            bail!(
                "{p}{layer} sets the switch for all hooks and decides over {path}, so nothing was changed\n  hint: toggle it there: `hooks manage -c {}`",
                hooks::config::shell_quote(&p)
            );
        }
        let done = match (on, target.all_switch()) {
            (false, _) => format!(
                "switched off every hook of every layer but managed: `{key}: true` in {path}"
            ),
            (true, None) => {
                format!("switched every hook back on: removed `{key}: true` from {path}")
            }
            (true, Some(_)) => format!(
                "switched every hook back on: `{key}: false` in {path} overrides a lower layer's `true`"
            ),
        };
        self.finish(out, &mut target, change, &done)
    }

    fn test(&mut self, input: &mut dyn BufRead, out: &mut dyn Write, arg: &str) -> Result<()> {
        let Some((_, entry)) = self.pick(input, out, "x", arg)? else {
            return Ok(());
        };
        let Some(spec) = entry.spec.clone() else {
            return Ok(());
        };
        let spec = spec.with_enabled(true);
        let ctx = super::test::sample(&spec);
        writeln!(
            out,
            "testing `{}` on a sample {} ({})",
            entry.label(),
            ctx.event().name(),
            render::subject(&ctx)
        )?;
        if self.engine.is_none() {
            self.engine = Some(render::load_engine(self.args)?);
        }
        if self.runtime.is_none() {
            self.runtime = Some(super::runtime()?);
        }
        let (Some(engine), Some(runtime)) = (&self.engine, &self.runtime) else {
            return Ok(());
        };
        let outcome = runtime.block_on(async {
            engine
                .dispatcher()
                .run_hook(&spec, &ctx, &CancellationToken::new())
                .await
        });
        let agg = aggregate_context(
            &ctx,
            vec![AggregateEntry::new(&spec, HookPos::new(0), outcome)],
        );
        write!(out, "{}", render::outcome(self.style, &agg, "  "))?;
        Ok(())
    }
}

/// Whether two paths name the same file.
fn same_path(a: Option<&Path>, b: Option<&Path>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => hooks::config::edit::atomic::same_file(a, b),
        _ => false,
    }
}

/// The dialect of the file at `path` among `files` (native if it is not one of them).
fn dialect_of(files: &[ConfigEdit], path: &Path) -> Dialect {
    files
        .iter()
        .find(|f| same_path(Some(f.path()), Some(path)))
        .map_or_else(Dialect::default, |f| f.file().dialect)
}

/// ` (local layer)`, for files of a discovered layer; nothing for named files.
fn layer_note(layer: Layer) -> String {
    match layer {
        Layer::CommandLine => String::new(),
        l => format!(" ({} layer)", l.as_str()),
    }
}

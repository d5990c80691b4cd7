//! `hooks manage`: Autohand's `/hooks` as a line-based menu on stdin and stdout, so that it
//! works in any terminal and can be driven by piped input: view the hooks grouped by event,
//! add one, toggle one, remove one, test one with a sample context, toggle all, quit.
//!
//! Hooks are numbered across groups (`t 3` toggles the third listed). Toggling, removing
//! and testing act on the file that defines the hook; adding and toggling all act on the
//! target file: the first `-c FILE`, else the project's native config. Every change goes
//! through the same editor as `hooks enable|disable|add|remove`. When stdin is not a
//! terminal, each line read is echoed after its prompt, so a transcript reads like a
//! session. Colours only when stdout is a terminal.

use std::io::{BufRead, IsTerminal, Write};

use anyhow::{Result, anyhow};
use hooks::Engine;
use hooks::core::{Action, AggregateEntry, CommandLine, Dialect, aggregate};
use hooks::exec::CancellationToken;

use hooks::config::TrustStore;

use super::edit::{build_hook, open_files, target_file};
use super::render::{self, Style};
use crate::cli::{ConfigArgs, ManageArgs};
use crate::edit::{Change, ConfigEdit, Entry, dialect_name, label, waits_for_trust};

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
        engine: None,
        runtime: None,
    };
    session.run(&mut input, &mut out)
}

/// What a listed hook is: on, off, or on but waiting for trust (so it does not run).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Enabled,
    Disabled,
    Untrusted,
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
            "commands: l list · a add · t N toggle · r N remove · x N test · g toggle all · q quit"
        )?;
        Ok(())
    }

    fn view(&self, out: &mut dyn Write) -> Result<()> {
        let s = self.style;
        let target = target_file(self.args)?;
        let dialect = target.file().dialect;
        writeln!(out, "{}", s.bold("Hooks"))?;
        writeln!(out, "{RULE}")?;
        let mode = match target.all_enabled() {
            Some(true) => s.green("enabled"),
            Some(false) => s.red("disabled (every hook of the file is off)"),
            None => format!(
                "per hook ({} configs have no switch for all hooks)",
                dialect_name(dialect)
            ),
        };
        writeln!(out, "Mode: {mode}")?;
        writeln!(
            out,
            "File: {} ({}{})",
            target.path().display(),
            dialect_name(dialect),
            if target.is_changed() {
                ", not created yet"
            } else {
                ""
            }
        )?;
        // Groups in the order their first hook is listed.
        let mut groups: Vec<(String, Vec<usize>)> = Vec::new();
        for (n, (_, entry)) in self.listed.iter().enumerate() {
            let Some(spec) = &entry.spec else { continue };
            let name = spec.event.info().name_in(dialect).to_owned();
            match groups.iter_mut().find(|(g, _)| *g == name) {
                Some((_, members)) => members.push(n),
                None => groups.push((name, vec![n])),
            }
        }
        if groups.is_empty() {
            writeln!(out, "\nNo hooks yet: `a` adds one.")?;
        }
        let several = self.files.len() > 1;
        for (name, members) in &groups {
            let on = members.iter().filter(|n| self.runs(**n)).count();
            writeln!(out, "\n{} ({on}/{} enabled)", s.cyan(name), members.len())?;
            for n in members {
                let (file, entry) = &self.listed[*n];
                writeln!(
                    out,
                    "  {}",
                    self.line(*n, &self.files[*file], entry, several)
                )?;
            }
        }
        let total = self.listed.len();
        let untrusted = (0..total)
            .filter(|n| self.state(*n) == State::Untrusted)
            .count();
        let on = (0..total).filter(|n| self.runs(*n)).count();
        writeln!(out, "\n{RULE}")?;
        let waiting = if untrusted > 0 {
            format!(", {untrusted} untrusted")
        } else {
            String::new()
        };
        writeln!(
            out,
            "Total: {total} hook{} ({on} enabled, {} disabled{waiting})",
            render::plural(total),
            total - on - untrusted
        )?;
        // The exact command for each file whose hooks wait for trust.
        let mut files: Vec<usize> = (0..total)
            .filter(|n| self.state(*n) == State::Untrusted)
            .map(|n| self.listed[n].0)
            .collect();
        files.dedup();
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
        match &entry.spec {
            _ if !entry.enabled => State::Disabled,
            Some(spec) if waits_for_trust(self.trust.as_ref(), self.files[*file].file(), spec) => {
                State::Untrusted
            }
            _ => State::Enabled,
        }
    }

    /// Whether the listed hook numbered `n` (from 0) runs: enabled and trusted.
    fn runs(&self, n: usize) -> bool {
        self.state(n) == State::Enabled
    }

    /// `3. [enabled] ./guard.sh - Block dangerous commands  (guard)`.
    fn line(&self, n: usize, file: &ConfigEdit, entry: &Entry, several: bool) -> String {
        let s = self.style;
        let state = match self.state(n) {
            State::Enabled => s.green("[enabled]"),
            State::Disabled => s.yellow("[disabled]"),
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
        let mut line = format!("{}. {state} {}", n + 1, render::shorten(&what, 60));
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

    /// The listed hook numbered by `arg`, asking for the number if `arg` is empty.
    fn pick(
        &self,
        input: &mut dyn BufRead,
        out: &mut dyn Write,
        arg: &str,
    ) -> Result<Option<(usize, Entry)>> {
        if self.listed.is_empty() {
            writeln!(out, "there are no hooks")?;
            return Ok(None);
        }
        let text = if arg.is_empty() {
            match self.ask(input, out, "hook number: ")? {
                Some(t) => t,
                None => return Ok(None),
            }
        } else {
            arg.to_owned()
        };
        match text.parse::<usize>() {
            Ok(n) if (1..=self.listed.len()).contains(&n) => Ok(Some(self.listed[n - 1].clone())),
            _ => {
                writeln!(
                    out,
                    "`{text}` is not a hook number (1 to {})",
                    self.listed.len()
                )?;
                Ok(None)
            }
        }
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
        let Some((file, entry)) = self.pick(input, out, arg)? else {
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
        let Some((file, entry)) = self.pick(input, out, arg)? else {
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
        let mut target = target_file(self.args)?;
        let dialect = target.file().dialect;
        writeln!(
            out,
            "adding to {} ({}); an empty answer cancels",
            target.path().display(),
            dialect_name(dialect)
        )?;
        let Some(event) = self.ask(input, out, "event: ")?.filter(|e| !e.is_empty()) else {
            return writeln!(out, "cancelled").map_err(Into::into);
        };
        // A misspelt event is caught before the other questions.
        render::resolve_event(&event)?;
        let matcher_hint = if matches!(dialect, Dialect::Fabro | Dialect::Autohand) {
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
        let description = if matches!(
            dialect,
            Dialect::Native | Dialect::Claude | Dialect::Autohand
        ) {
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

    fn toggle_all(&mut self, out: &mut dyn Write) -> Result<()> {
        let mut target = target_file(self.args)?;
        let on = !target.all_enabled().unwrap_or(true);
        let change = target.set_all_enabled(on)?;
        let done = format!(
            "every hook of {} is {}",
            target.path().display(),
            if on { "on" } else { "off" }
        );
        self.finish(out, &mut target, change, &done)
    }

    fn test(&mut self, input: &mut dyn BufRead, out: &mut dyn Write, arg: &str) -> Result<()> {
        let Some((_, entry)) = self.pick(input, out, arg)? else {
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
        let agg = aggregate(ctx.event(), vec![AggregateEntry::new(&spec, 0, outcome)]);
        write!(out, "{}", render::outcome(self.style, &agg, "  "))?;
        Ok(())
    }
}

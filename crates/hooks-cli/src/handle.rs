//! Naming a hook on the command line: the one resolver behind `hooks test`, `trust`,
//! `enable`, `disable` and `remove`, and the handle `hooks list` prints for each hook.
//!
//! A handle is, strongest first: a declared id (or a Fabro `name`); what `hooks list`
//! shows for the hook (its display id, the action as listed, the action without its type,
//! as in `./x.sh` for `command: ./x.sh`, or its description); `FILE:LINE` (or `:LINE`) of
//! the hook's first line. The first kind that names any hook decides: one hook is the
//! answer, several are an error listing them with the `FILE:LINE` that names each, none
//! go on to the next kind. Nothing matched is an error with a did-you-mean.

use std::path::{Path, PathBuf};

use anyhow::{Result, bail};
use hooks::config::MergedHook;
use hooks::config::edit::{ConfigEdit, Entry, atomic};
use hooks_core::HookSpec;

use crate::cmd::render;

/// One hook (or merge directive) a handle may name.
#[derive(Clone, Debug)]
pub struct Candidate {
    /// Its declared id and name.
    strong: Vec<String>,
    /// What listings show for it: display id, listed action, bare action, description.
    weak: Vec<String>,
    /// The file it is written in, as the command was given it.
    pub file: Option<PathBuf>,
    /// The 1-based line it starts on.
    pub line: Option<u32>,
    /// How messages name it.
    pub label: String,
}

impl Candidate {
    /// The candidate for a hook `spec` (or, with no spec, a directive with `id`), written at
    /// `file:line`.
    pub fn new(
        id: Option<&str>,
        spec: Option<&HookSpec>,
        file: Option<&Path>,
        line: Option<u32>,
    ) -> Candidate {
        let mut strong: Vec<String> = id.map(str::to_owned).into_iter().collect();
        let mut weak = Vec::new();
        if let Some(spec) = spec {
            if let Some(id) = &spec.id
                && !strong.contains(id)
            {
                strong.push(id.clone());
            }
            if let Some(n) = &spec.name {
                strong.push(n.clone());
            }
            weak.push(spec.display_id());
            let summary = spec.action.summary();
            weak.push(listed_action(spec));
            if let Some((_, bare)) = summary.split_once(": ") {
                weak.push(bare.to_owned());
            }
            weak.push(summary);
            if let Some(d) = &spec.description {
                weak.push(d.clone());
            }
        }
        let label = match spec {
            Some(spec) => hooks::config::edit::label(spec),
            None => id.map_or_else(|| "(directive)".to_owned(), str::to_owned),
        };
        Candidate {
            strong,
            weak,
            file: file.map(Path::to_path_buf),
            line,
            label,
        }
    }

    /// The candidate for a hook of the merged set.
    pub fn merged(hook: &MergedHook) -> Candidate {
        let p = &hook.spec.provenance;
        Candidate::new(None, Some(&hook.spec), p.file.as_deref(), p.line)
    }

    /// `FILE:LINE`, as far as it is known.
    fn locator(&self) -> String {
        let file = self
            .file
            .as_ref()
            .map_or_else(String::new, |f| f.display().to_string());
        format!("{file}:{}", self.line.unwrap_or(0))
    }

    fn at(&self, handle: &str) -> bool {
        let (Some((file, n)), Some(line)) = (split_locator(handle), self.line) else {
            return false;
        };
        if n != line {
            return false;
        }
        match &self.file {
            Some(path) => names_file(file, path),
            None => file.is_empty(),
        }
    }
}

/// `FILE:LINE` (or `:LINE`) split into its parts.
pub fn split_locator(handle: &str) -> Option<(&str, u32)> {
    let (file, n) = handle.rsplit_once(':')?;
    Some((file, n.parse().ok()?))
}

/// Whether `file`, as typed in a `FILE:LINE` handle (empty: any file), is the file at `path`.
pub fn names_file(file: &str, path: &Path) -> bool {
    file.is_empty()
        || Path::new(file) == path
        || path.ends_with(file)
        || atomic::real_path(Path::new(file)) == atomic::real_path(path)
}

/// The action as `hooks list` prints it on the hook's line.
pub fn listed_action(spec: &HookSpec) -> String {
    render::shorten(&spec.action.summary(), 70)
}

/// The candidates of the merged set, in its order.
pub fn merged(hooks: &[MergedHook]) -> Vec<Candidate> {
    hooks.iter().map(Candidate::merged).collect()
}

/// Which kinds of name match `handle`, strongest first.
fn tiers(c: &Candidate, handle: &str) -> [bool; 3] {
    [
        c.strong.iter().any(|n| n == handle),
        c.weak.iter().any(|n| n == handle),
        c.at(handle),
    ]
}

/// The index of the one candidate `handle` names; `searched` says where (`hooks.yaml`,
/// `3 config files`) in the message when nothing matches.
pub fn resolve(candidates: &[Candidate], handle: &str, searched: &str) -> Result<usize> {
    for tier in 0..3 {
        let hits: Vec<usize> = (0..candidates.len())
            .filter(|&i| tiers(&candidates[i], handle)[tier])
            .collect();
        match hits.as_slice() {
            [] => continue,
            [one] => return Ok(*one),
            many => {
                let list: Vec<String> = many
                    .iter()
                    .map(|&i| format!("{}  {}", candidates[i].locator(), candidates[i].label))
                    .collect();
                bail!(
                    "`{handle}` names {} hooks:\n  {}\n  hint: name one by its file and line, as in `{}`",
                    many.len(),
                    list.join("\n  "),
                    candidates[many[0]].locator()
                );
            }
        }
    }
    let names: Vec<&str> = candidates
        .iter()
        .flat_map(|c| c.strong.iter().chain(&c.weak).map(String::as_str))
        .collect();
    let hint = match hooks_core::did_you_mean(handle, names.iter().copied()) {
        Some(s) => format!("did you mean `{s}`?"),
        None => {
            "`hooks list` prints the handle of every hook (its id, action or FILE:LINE)".to_owned()
        }
    };
    bail!("no hook `{handle}` in {searched}\n  hint: {hint}")
}

/// The handle to type for candidate `i`: its id, when no other hook has it; else its
/// shortest listed name (the action without its type, say) when that names it alone and
/// fits on a line; else its `FILE:LINE`. Quoted for a shell when it needs to be.
pub fn handle(candidates: &[Candidate], i: usize) -> String {
    let c = &candidates[i];
    if let Some(id) = c.strong.first() {
        let taken = |o: &Candidate| o.strong.contains(id);
        return if candidates.iter().filter(|o| taken(o)).count() == 1 {
            hooks::config::shell_quote(id)
        } else {
            hooks::config::shell_quote(&c.locator())
        };
    }
    // What `resolve` would answer, without its messages.
    let unique = |name: &str| {
        !candidates
            .iter()
            .any(|o| o.strong.iter().any(|n| n == name))
            && candidates
                .iter()
                .enumerate()
                .all(|(j, o)| (j == i) == o.weak.iter().any(|n| n == name))
    };
    let short = c
        .weak
        .iter()
        .skip(1)
        .filter(|n| n.chars().count() <= 60 && !n.chars().any(char::is_control))
        .min_by_key(|n| n.len());
    match short {
        Some(name) if unique(name) => hooks::config::shell_quote(name),
        _ => hooks::config::shell_quote(&c.locator()),
    }
}

/// A hook found by its address.
#[derive(Debug)]
pub struct Found {
    /// The index of its file in the list searched.
    pub file: usize,
    /// The entry.
    pub entry: Entry,
}

/// Finds the entry `address` names among `files`, by the handles every command accepts
/// (this module's): an id or Fabro `name`; what `hooks list` shows for it; its
/// `FILE:LINE`. No match is an error with a did-you-mean; several are an error listing them.
pub fn find(files: &[ConfigEdit], address: &str) -> Result<Found> {
    let mut all: Vec<(usize, Entry)> = files
        .iter()
        .enumerate()
        .flat_map(|(i, f)| f.entries().into_iter().map(move |e| (i, e)))
        .collect();
    let candidates: Vec<Candidate> = all
        .iter()
        .map(|(f, e)| {
            Candidate::new(
                e.id.as_deref(),
                e.spec.as_ref(),
                Some(files[*f].path()),
                e.line,
            )
        })
        .collect();
    let searched = match files {
        [one] => one.path().display().to_string(),
        [] => "any config file (none was found)".to_owned(),
        many => format!("{} config files", many.len()),
    };
    let i = match resolve(&candidates, address, &searched) {
        Ok(i) => i,
        Err(error) => match stale_locator(files, address) {
            Some(message) => bail!("{message}"),
            None => return Err(error),
        },
    };
    let (file, entry) = all.swap_remove(i);
    Ok(Found { file, entry })
}

/// For a `FILE:LINE` that names a file but no line a hook starts on (a line inside a hook,
/// or one that moved since `hooks list` showed it): the error, with the hooks starting
/// nearest before and after it.
fn stale_locator(files: &[ConfigEdit], address: &str) -> Option<String> {
    let (file, n) = split_locator(address)?;
    let mut near: Vec<String> = Vec::new();
    for edit in files.iter().filter(|f| names_file(file, f.path())) {
        let entries = edit.entries();
        let lines = entries.iter().filter_map(|e| e.line.map(|l| (l, e)));
        let before = lines
            .clone()
            .filter(|(l, _)| *l < n)
            .max_by_key(|(l, _)| *l);
        let after = lines.filter(|(l, _)| *l > n).min_by_key(|(l, _)| *l);
        near.extend(
            before
                .into_iter()
                .chain(after)
                .map(|(l, e)| format!("{}:{l} (`{}`)", edit.path().display(), e.label())),
        );
    }
    if near.is_empty() && !files.iter().any(|f| names_file(file, f.path())) {
        return None;
    }
    let hint = match &near[..] {
        [] => "the file holds no hooks".to_owned(),
        [one] => format!("the nearest hook starts at {one}"),
        many => format!("the nearest hooks start at {}", many.join(" and ")),
    };
    Some(format!(
        "no hook starts at `{address}`: the line is inside a hook, or the file changed since \
         the line was shown\n  hint: {hint}"
    ))
}

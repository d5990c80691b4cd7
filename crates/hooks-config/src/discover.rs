//! The standard locations of hook configs, and loading what is found there.
//!
//! | Layer   | Where (`~` is the home directory, `.` the project root) |
//! |---------|-----------------------------------------------------------|
//! | managed | `/etc/hooks/managed.{yaml,yml,toml,json}`, `/etc/claude-code/managed-settings.json`, `/Library/Application Support/ClaudeCode/managed-settings.json`, `managed-mcp.json` beside each, `/etc/gemini-cli/settings.json`, `/etc/codex/requirements.toml`, `/etc/cursor/hooks.json`, `/Library/Application Support/Cursor/hooks.json`, `/etc/qwen-code/settings.json`, `/etc/qwen-code/system-defaults.json` |
//! | user    | `$XDG_CONFIG_HOME/hooks/hooks.{yaml,yml,toml,json}` (`~/.config/hooks/...`), `~/.claude/settings.json`, `~/.claude.json` (MCP servers), `~/.fabro/settings.toml`, `~/.autohand/config.json`, `~/.echo-agent/echo-agent.yaml`, `~/.gemini/settings.json`, `~/.gemini/extensions/*/hooks/hooks.json`, Codex's `~/.codex/hooks.json`, `~/.codex/config.toml` and the hooks files of the plugins it enables (`~/.codex/plugins/cache/<marketplace>/<plugin>/<version>/hooks/hooks.json`), `~/.cursor/hooks.json`, Cline's `~/Documents/Cline/Hooks/*` and `~/.cline/hooks/*`, `~/.qwen/settings.json`, `~/.factory/settings.json`, GitHub Copilot CLI's `~/.copilot/hooks/*.json` and `~/.copilot/settings.json` |
//! | project | `./.hooks/hooks.{yaml,yml,toml,json}`, `./.claude/settings.json`, `./.mcp.json` (MCP servers), `./.fabro/project.toml`, `./echo-agent.yaml`, `./skills/*/SKILL.md`, `./.autohand/config.json`, `./.gemini/settings.json`, `./.codex/hooks.json`, `./.codex/config.toml`, `./.cursor/hooks.json`, Cline's `./.clinerules/hooks/*` and `./.cline/hooks/*`, `./.qwen/settings.json`, `./.factory/settings.json`, GitHub Copilot CLI's `./.github/hooks/*.json` and `./.github/copilot/settings.json` |
//! | local   | `./.hooks/hooks.local.{yaml,yml,toml,json}`, `./.claude/settings.local.json`, `./.github/copilot/settings.local.json` |
//!
//! Within a layer, files are listed in the order of the table (skills and Gemini CLI
//! extensions sorted by folder name, a `*.json` folder's files by name). `$CODEX_HOME`,
//! `$CLINE_DIR` and `$COPILOT_HOME`, when set to an absolute path, take the place of
//! `~/.codex`, `~/.cline` and `~/.copilot` (Codex's files and plugins, Cline's `hooks/*`,
//! Copilot's `hooks/*.json` and `settings.json`), listed last in the user layer, in that
//! order.
//!
//! In Cline's hooks directories (`*`), each file named after a Cline event (`PreToolUse`,
//! `TaskStart`, ...) is found, in the order of Cline's events; other files there are not
//! hooks. Codex's plugin hooks are those Codex runs: of each plugin its `config.toml`
//! enables (`[plugins."<plugin>@<marketplace>"]`, `enabled` true or absent), in the order of
//! those keys, the active version's hooks files (`hooks/hooks.json`, or those its manifest
//! names); see `dialects::codex::plugins` for the rules. Run configs and command-line
//! files are never discovered: they are named. Every discovered file has
//! [`Origin::Discovered`], so the project and local ones need trust.
//!
//! The project root of a command run in a subdirectory is found by
//! [`Locations::project_root`]: the nearest ancestor that holds one of the project
//! locations above (or one of their directories: `.hooks`, `.claude`, `.fabro`,
//! `.autohand`, `.gemini`, `.codex`, `.cursor`, `.clinerules`, `.cline`, `.qwen`, `.factory`), else the root of
//! the git work tree, else the directory itself.
//!
//! A discovered file is read only if it is a regular file that stays inside the place it
//! was found in once symlinks are resolved: the project root for project and local files,
//! the home directory (or the config directory, `$CODEX_HOME`, `$CLINE_DIR` or `$COPILOT_HOME`, when that
//! is outside home) for user files, and its plugin's folder for a Codex plugin's hooks
//! file. A project's `.claude/settings.json` that links to `~/.aws/credentials`, to
//! `/proc/kmsg` or to a FIFO is refused with a diagnostic, and none of it is read.

use std::path::{Path, PathBuf};

use hooks_core::Layer;

use crate::error::Error;
use crate::file::{BrokenFile, ConfigFile, LoadOptions, Origin};
use crate::load::load_file_within;
use crate::source;

/// The roots discovery looks under. [`Locations::from_env`] fills them from the process
/// environment; tests and hosts set them directly.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Locations {
    /// The home directory (`~`).
    pub home: Option<PathBuf>,
    /// The user config directory (`$XDG_CONFIG_HOME`, default `~/.config`).
    pub config_dir: Option<PathBuf>,
    /// The project root.
    pub project: Option<PathBuf>,
    /// Codex's home (`$CODEX_HOME`), whose `hooks.json`, `config.toml` and enabled plugins
    /// are Codex's user layer; `None`: `~/.codex`, Codex's default.
    pub codex_home: Option<PathBuf>,
    /// Cline's home (`$CLINE_DIR`), whose `hooks/` is Cline's user hooks directory (and
    /// whose `data/globalState.json` may switch Cline's hooks off); `None`: `~/.cline`,
    /// Cline's default.
    pub cline_dir: Option<PathBuf>,
    /// GitHub Copilot CLI's home (`$COPILOT_HOME`), whose `hooks/*.json` and
    /// `settings.json` are Copilot's user files; `None`: `~/.copilot`, Copilot's default.
    pub copilot_home: Option<PathBuf>,
    /// Directories whose managed files are looked for, in order (default `/etc` and, on
    /// macOS, `/Library/Application Support`).
    pub system_dirs: Vec<PathBuf>,
}

/// A config file found in a standard location.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Discovered {
    /// The file.
    pub path: PathBuf,
    /// The layer its location implies.
    pub layer: Layer,
    /// The directory the file must lie inside once symlinks are resolved, or `None` for no
    /// such limit (managed files, which an administrator places).
    pub within: Option<PathBuf>,
}

impl Discovered {
    /// The file's text, read as loading reads it: a regular file inside
    /// [`Discovered::within`], opened without blocking, of at most `limit` bytes, UTF-8.
    pub fn read_text(&self, limit: u64) -> Result<String, Error> {
        source::read_file(&self.path, self.within.as_deref(), limit).map(source::Source::into_text)
    }
}

const EXTENSIONS: [&str; 4] = ["yaml", "yml", "toml", "json"];

/// Codex's user files in its home: its hooks files, then its enabled plugins' hooks files
/// (a pattern [`Locations::discover`] expands by reading `config.toml`).
const CODEX_USER_FILES: [&str; 3] = [
    "hooks.json",
    "config.toml",
    "plugins/cache/*/*/*/hooks/hooks.json",
];

/// GitHub Copilot CLI's user files in its home: its hooks files (every JSON file of
/// `hooks/`, a pattern [`Locations::discover`] expands), then its settings.
const COPILOT_USER_FILES: [&str; 2] = ["hooks/*.json", "settings.json"];

/// The SDK's hooks directory in Cline's home, each file named after a Cline event a hook.
const CLINE_HOOKS: &str = "hooks/*";

impl Locations {
    /// Roots from the environment: `HOME`, `XDG_CONFIG_HOME`, `CODEX_HOME`, `CLINE_DIR`
    /// (each of the last three only when absolute), the given project root and the system
    /// directories.
    pub fn from_env(project: Option<&Path>) -> Locations {
        let home = std::env::var_os("HOME").map(PathBuf::from);
        let config_dir = std::env::var_os("XDG_CONFIG_HOME")
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
            .or_else(|| home.as_ref().map(|h| h.join(".config")));
        let mut system_dirs = vec![PathBuf::from("/etc")];
        if cfg!(target_os = "macos") {
            system_dirs.push(PathBuf::from("/Library/Application Support"));
        }
        Locations {
            home,
            config_dir,
            project: project.map(Path::to_path_buf),
            codex_home: crate::dialects::codex::home_from_env(),
            cline_dir: crate::dialects::cline::home_from_env(),
            copilot_home: crate::dialects::copilot::home_from_env(),
            system_dirs,
        }
    }

    /// The project root for a command run in `start`, as git and lefthook find theirs: the
    /// nearest of `start` and its ancestors that holds a project or local config file of
    /// the table above, or one of the hidden directories they live in (`.hooks`, `.claude`,
    /// `.fabro`, `.autohand`); else the root of the git work tree `start` is in (the
    /// nearest ancestor with a `.git`); else `start` itself.
    ///
    /// The search never climbs past a git root (a repository's parent is someone else's)
    /// and never takes the home directory `home`, whose `.claude` holds the user's
    /// settings, not a project's; it stops below it.
    pub fn project_root(start: &Path, home: Option<&Path>) -> PathBuf {
        Self::find_project_root(start, home).unwrap_or_else(|| start.to_path_buf())
    }

    /// The project `start` is in, found as [`Locations::project_root`] finds it; `None`
    /// when `start` is in none (no config and no git work tree on the way up), where
    /// `project_root` gives `start` itself.
    pub fn find_project_root(start: &Path, home: Option<&Path>) -> Option<PathBuf> {
        for dir in start.ancestors() {
            if home.is_some_and(|h| h == dir) {
                break;
            }
            if is_project_root(dir) || dir.join(".git").exists() {
                return Some(dir.to_path_buf());
            }
        }
        None
    }

    /// Every candidate path, whether it exists or not, with its layer, in load order.
    pub fn candidates(&self) -> Vec<Discovered> {
        let mut out = Vec::new();
        let home = self.home.as_deref();
        let config = self.config_dir.as_deref();
        let project = self.project.as_deref();
        // `$CODEX_HOME`'s and `$CLINE_DIR`'s files stay inside it, when it is outside home.
        let agent_homes = [
            self.codex_home.as_deref(),
            self.cline_dir.as_deref(),
            self.copilot_home.as_deref(),
        ];
        let mut push = |layer: Layer, path: PathBuf| {
            let own_home = agent_homes
                .into_iter()
                .flatten()
                .find(|c| path.starts_with(c) && !home.is_some_and(|h| c.starts_with(h)));
            let within = match layer {
                Layer::Project | Layer::Local => project,
                Layer::User => match (home, config) {
                    _ if own_home.is_some() => own_home,
                    (Some(home), Some(config))
                        if path.starts_with(config) && !config.starts_with(home) =>
                    {
                        Some(config)
                    }
                    (Some(home), _) => Some(home),
                    (None, config) => config,
                },
                _ => None,
            };
            out.push(Discovered {
                path,
                layer,
                within: within.map(Path::to_path_buf),
            });
        };
        for dir in &self.system_dirs {
            for ext in EXTENSIONS {
                push(
                    Layer::Managed,
                    dir.join("hooks").join(format!("managed.{ext}")),
                );
            }
            push(
                Layer::Managed,
                dir.join("claude-code/managed-settings.json"),
            );
            push(Layer::Managed, dir.join("ClaudeCode/managed-settings.json"));
            push(Layer::Managed, dir.join("claude-code/managed-mcp.json"));
            push(Layer::Managed, dir.join("ClaudeCode/managed-mcp.json"));
            push(Layer::Managed, dir.join("gemini-cli/settings.json"));
            push(Layer::Managed, dir.join("codex/requirements.toml"));
            // Cursor's enterprise file: `/etc/cursor/hooks.json` on Linux,
            // `/Library/Application Support/Cursor/hooks.json` on macOS.
            push(Layer::Managed, dir.join("cursor/hooks.json"));
            push(Layer::Managed, dir.join("Cursor/hooks.json"));
            // Qwen Code's system settings and their defaults.
            push(Layer::Managed, dir.join("qwen-code/settings.json"));
            push(Layer::Managed, dir.join("qwen-code/system-defaults.json"));
        }
        if let Some(config) = &self.config_dir {
            for ext in EXTENSIONS {
                push(
                    Layer::User,
                    config.join("hooks").join(format!("hooks.{ext}")),
                );
            }
        }
        if let Some(home) = &self.home {
            push(Layer::User, home.join(".claude/settings.json"));
            push(Layer::User, home.join(".claude.json"));
            push(Layer::User, home.join(".fabro/settings.toml"));
            push(Layer::User, home.join(".autohand/config.json"));
            push(Layer::User, home.join(".echo-agent/echo-agent.yaml"));
            push(Layer::User, home.join(".gemini/settings.json"));
            push(
                Layer::User,
                home.join(".gemini/extensions/*/hooks/hooks.json"),
            );
            if self.codex_home.is_none() {
                for file in CODEX_USER_FILES {
                    push(Layer::User, home.join(".codex").join(file));
                }
            }
            push(Layer::User, home.join(".cursor/hooks.json"));
            // Cline's global hooks directory (and its SDK's): each file named after a Cline
            // event is a hook.
            push(Layer::User, home.join("Documents/Cline/Hooks/*"));
            if self.cline_dir.is_none() {
                push(Layer::User, home.join(".cline").join(CLINE_HOOKS));
            }
            push(Layer::User, home.join(".qwen/settings.json"));
            push(Layer::User, home.join(".factory/settings.json"));
            if self.copilot_home.is_none() {
                for file in COPILOT_USER_FILES {
                    push(Layer::User, home.join(".copilot").join(file));
                }
            }
        }
        // A `$CODEX_HOME` elsewhere than `~/.codex`: Codex's user files are there.
        if let Some(codex) = &self.codex_home {
            for file in CODEX_USER_FILES {
                push(Layer::User, codex.join(file));
            }
        }
        // A `$CLINE_DIR` elsewhere than `~/.cline`: the SDK's hooks directory is there.
        if let Some(cline) = &self.cline_dir {
            push(Layer::User, cline.join(CLINE_HOOKS));
        }
        // A `$COPILOT_HOME` elsewhere than `~/.copilot`: Copilot's user files are there.
        if let Some(copilot) = &self.copilot_home {
            for file in COPILOT_USER_FILES {
                push(Layer::User, copilot.join(file));
            }
        }
        if let Some(root) = &self.project {
            for ext in EXTENSIONS {
                push(
                    Layer::Project,
                    root.join(".hooks").join(format!("hooks.{ext}")),
                );
            }
            push(Layer::Project, root.join(".claude/settings.json"));
            push(Layer::Project, root.join(".mcp.json"));
            push(Layer::Project, root.join(".fabro/project.toml"));
            push(Layer::Project, root.join("echo-agent.yaml"));
            push(Layer::Project, root.join("skills/*/SKILL.md"));
            push(Layer::Project, root.join(".autohand/config.json"));
            push(Layer::Project, root.join(".gemini/settings.json"));
            push(Layer::Project, root.join(".codex/hooks.json"));
            push(Layer::Project, root.join(".codex/config.toml"));
            push(Layer::Project, root.join(".cursor/hooks.json"));
            push(Layer::Project, root.join(".clinerules/hooks/*"));
            push(Layer::Project, root.join(".cline/hooks/*"));
            push(Layer::Project, root.join(".qwen/settings.json"));
            push(Layer::Project, root.join(".factory/settings.json"));
            push(Layer::Project, root.join(".github/hooks/*.json"));
            push(Layer::Project, root.join(".github/copilot/settings.json"));
            for ext in EXTENSIONS {
                push(
                    Layer::Local,
                    root.join(".hooks").join(format!("hooks.local.{ext}")),
                );
            }
            push(Layer::Local, root.join(".claude/settings.local.json"));
            push(
                Layer::Local,
                root.join(".github/copilot/settings.local.json"),
            );
        }
        out
    }

    /// These locations with their directories' symlinks resolved (a directory that does
    /// not resolve is kept as it is): the roots [`Locations::discover`] lists files under.
    pub fn resolved(&self) -> Locations {
        let real = |p: &Option<PathBuf>| {
            p.as_ref()
                .map(|p| std::fs::canonicalize(p).unwrap_or_else(|_| p.clone()))
        };
        Locations {
            home: real(&self.home),
            config_dir: real(&self.config_dir),
            project: real(&self.project),
            codex_home: real(&self.codex_home),
            cline_dir: real(&self.cline_dir),
            copilot_home: real(&self.copilot_home),
            system_dirs: self.system_dirs.clone(),
        }
    }

    /// The candidate files that exist, in load order, under the roots with their symlinks
    /// resolved (so a file has one path, whichever spelling of its project was given; trust
    /// grants record that path). Anything there but a directory is listed: loading refuses
    /// what is not a regular file, with a diagnostic, rather than pass it over in silence.
    pub fn discover(&self) -> Vec<Discovered> {
        self.discover_where(|_| true)
    }

    /// [`Locations::discover`] keeping only the files for which `keep` is true. A candidate
    /// that is one file is asked once it is found; one that stands for many files (Codex's
    /// enabled plugins, Cline's hooks directories, Gemini CLI's extensions) is asked first,
    /// by its pattern's path (`*` for each folder or file it stands for), and is not looked
    /// into when `keep` refuses it; then each file it stands for is asked.
    pub fn discover_where(&self, keep: impl Fn(&Path) -> bool) -> Vec<Discovered> {
        let exists = |p: &Path| std::fs::metadata(p).is_ok_and(|m| !m.is_dir());
        let mut out = Vec::new();
        for candidate in self.resolved().candidates() {
            let is_hook_files = candidate.path.file_name().is_some_and(|n| n == "*");
            // `*.json`: every JSON file of a folder (Copilot's hooks folders).
            let json_files = candidate.path.file_name().is_some_and(|n| n == "*.json");
            // One other `*` component stands for every folder there (`skills/*/SKILL.md`,
            // `.gemini/extensions/*/hooks/hooks.json`).
            let star = candidate.path.iter().position(|c| c == "*");
            let codex = codex_plugins_home(&candidate.path);
            // A single file is asked once it is found; a pattern before it is looked into.
            let pattern = is_hook_files || json_files || star.is_some() || codex.is_some();
            if pattern && !keep(&candidate.path) {
                continue;
            }
            if let Some(codex) = codex {
                // Codex's enabled plugins: their hooks files, each inside its plugin.
                out.extend(
                    crate::dialects::codex::enabled_plugin_hooks(codex)
                        .into_iter()
                        .filter(|p| keep(&p.path))
                        .map(|p| Discovered {
                            path: p.path,
                            layer: candidate.layer,
                            within: Some(p.root),
                        }),
                );
            } else if json_files {
                let Some(dir) = candidate.path.parent() else {
                    continue;
                };
                let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
                    .into_iter()
                    .flatten()
                    .flatten()
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|x| x == "json"))
                    .filter(|p| exists(p) && keep(p))
                    .collect();
                found.sort();
                out.extend(found.into_iter().map(|path| Discovered {
                    path,
                    ..candidate.clone()
                }));
            } else if is_hook_files {
                // Cline's hooks directories: the files named after a Cline event, in the
                // order of its events.
                let Some(dir) = candidate.path.parent() else {
                    continue;
                };
                out.extend(
                    cline_hook_files(dir)
                        .into_iter()
                        .filter(|p| keep(p))
                        .map(|path| Discovered {
                            path,
                            ..candidate.clone()
                        }),
                );
            } else if let Some(at) = star {
                let parts: Vec<&std::ffi::OsStr> = candidate.path.iter().collect();
                let parent: PathBuf = parts[..at].iter().collect();
                let rest: PathBuf = parts[at + 1..].iter().collect();
                let mut found: Vec<PathBuf> = std::fs::read_dir(&parent)
                    .into_iter()
                    .flatten()
                    .flatten()
                    .map(|e| e.path().join(&rest))
                    .filter(|p| exists(p) && keep(p))
                    .collect();
                found.sort();
                out.extend(found.into_iter().map(|path| Discovered {
                    path,
                    ..candidate.clone()
                }));
            } else if exists(&candidate.path) && keep(&candidate.path) {
                out.push(candidate);
            }
        }
        out
    }
}

/// The Codex home whose enabled plugins the candidate `path` stands for, if it is the
/// plugins pattern of [`CODEX_USER_FILES`]: the `hooks/hooks.json` of a plugin cached as
/// `*/*/*` (every marketplace, plugin and version).
fn codex_plugins_home(path: &Path) -> Option<&Path> {
    if !path.ends_with("hooks/hooks.json") {
        return None;
    }
    let plugin = crate::dialects::codex::CachedPlugin::parse(path.parent()?.parent()?)?;
    [plugin.marketplace, plugin.plugin, plugin.root.file_name()?]
        .iter()
        .all(|name| *name == "*")
        .then_some(plugin.home)
}

/// The hook files of the Cline hooks directory `dir`: those named after a Cline event,
/// in the order of Cline's events, each anything but a directory (a link is followed).
/// One `read_dir`: a missing directory costs one failed call.
pub fn cline_hook_files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut found: Vec<(usize, PathBuf)> = entries
        .flatten()
        .filter_map(|e| {
            let name = e.file_name();
            let at = hooks_core::cline::EVENTS
                .iter()
                .position(|(n, _)| name == std::ffi::OsStr::new(n))?;
            let hook = match e.file_type() {
                Ok(t) if t.is_symlink() => std::fs::metadata(e.path()).is_ok_and(|m| !m.is_dir()),
                Ok(t) => !t.is_dir(),
                Err(_) => false,
            };
            hook.then(|| (at, e.path()))
        })
        .collect();
    found.sort();
    found.into_iter().map(|(_, path)| path).collect()
}

/// Whether `dir` holds a project or local config that discovery reads, or a hidden
/// directory such configs live in.
///
/// This runs for every ancestor of an agent's working directory, on every `hooks bridge`
/// call, so it looks first at the first component of each candidate (`.hooks`, `.claude`,
/// `.mcp.json`, `skills`, ...), each once: a hidden directory among them decides at once,
/// and when none of them is there no candidate can be, so the full discovery runs only
/// when one is (a `skills` folder, a `.mcp.json`).
fn is_project_root(dir: &Path) -> bool {
    let here = Locations {
        project: Some(dir.to_path_buf()),
        ..Locations::default()
    };
    let candidates = here.candidates();
    let mut firsts: Vec<&std::ffi::OsStr> = candidates
        .iter()
        .filter_map(|c| c.path.strip_prefix(dir).ok())
        .filter_map(|rel| rel.components().next())
        .map(|first| first.as_os_str())
        .collect();
    firsts.sort_unstable();
    firsts.dedup();
    let mut any_there = false;
    for first in firsts {
        let Ok(meta) = std::fs::metadata(dir.join(first)) else {
            continue;
        };
        let hidden = first.to_str().is_some_and(|f| f.starts_with('.'));
        if hidden && meta.is_dir() {
            return true;
        }
        any_there = true;
    }
    any_there && !here.discover().is_empty()
}

/// Loads discovered files, each in its layer with [`Origin::Discovered`]; `base` gives
/// everything else (catalog, limits, interpolation). Every file is loaded: a file that
/// does not load never stops the others, and comes back as a [`BrokenFile`] with all its
/// errors.
///
/// A `~/.claude.json` reads the MCP servers of the project named by
/// [`LoadOptions::project`] as well as its own.
pub fn load_discovered(
    found: &[Discovered],
    base: &LoadOptions,
) -> (Vec<ConfigFile>, Vec<BrokenFile>) {
    let mut files = Vec::new();
    let mut broken = Vec::new();
    for d in found {
        let options = base
            .clone()
            .with_layer(d.layer)
            .with_origin(Origin::Discovered);
        match load_file_within(&d.path, d.within.as_deref(), &options) {
            Ok(file) => files.push(file),
            Err(e) => broken.push(BrokenFile::new(Some(d.path.clone()), &options, e)),
        }
    }
    (files, broken)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codex_plugins_pattern() {
        let home = Path::new("/h/.codex");
        assert_eq!(
            codex_plugins_home(&home.join(CODEX_USER_FILES[2])),
            Some(home)
        );
        for other in CODEX_USER_FILES[..2].iter().chain(&[
            "plugins/cache/acme/*/*/hooks/hooks.json",
            "plugins/cache/*/*/*/hooks.json",
            "plugin/cache/*/*/*/hooks/hooks.json",
        ]) {
            assert_eq!(codex_plugins_home(&home.join(other)), None, "{other}");
        }
    }
}

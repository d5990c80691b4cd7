//! The loaded configs a long-lived process keeps between the engines it builds, one per
//! event (the resident engine's workers, see [`crate::daemon`]): an engine built with
//! [`EngineBuilder::load_cache`](super::EngineBuilder::load_cache) reuses the config loaded
//! for the same key while nothing it was loaded from has changed, and loads afresh (with
//! every check a first load makes, trust included) as soon as anything has.
//!
//! "Nothing has changed" is read at every build: discovery runs again (so a file that
//! appeared or went away is seen), and every file the config was loaded from, and the
//! trust store, must have the identity it had (device, inode, size, modification and
//! change times to the nanosecond). Discovery and those reads cost a few dozen `stat`
//! calls; parsing, checking and merging the files, what the cache saves, costs about a
//! hundred times that.
//!
//! A cache made with [`LoadCache::watching`] (on Linux) also saves those `stat` calls
//! while nothing changes: it watches (inotify) every directory discovery looks in, and
//! the directories of the files loaded and of the trust store, each watch added before
//! the files are looked at. A build whose key was checked since the last change anyone
//! made there reuses the config without looking; any change in a watched directory (or a
//! watch that could not be added, or the kernel's queue overflowing) sends every key back
//! to the check above. The queue is read on the building thread, when the build asks: a
//! change made before the build began is always seen, never left to a watcher thread
//! that has not run yet.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use super::{Config, Loaded, Source, Trust};

/// The most configs kept; one more evicts the one used least recently.
const MAX_ENTRIES: usize = 16;

/// Loaded configs by key, for a long-lived process that builds an engine per event: an
/// engine built with [`EngineBuilder::load_cache`](super::EngineBuilder::load_cache)
/// reuses the config loaded for its key while discovery finds the same files and every
/// file it was loaded from, and the trust store, keeps its identity (device, inode, size,
/// modification and change times); anything else loads afresh, with every check of a
/// first load.
#[derive(Debug, Default)]
pub struct LoadCache {
    entries: Mutex<Entries>,
}

#[derive(Debug, Default)]
struct Entries {
    list: Vec<Entry>,
    clock: u64,
    hits: u64,
    loads: u64,
    /// The directories watched, with the count of changes seen there so far.
    watch: Option<watch::Watch>,
    /// Project roots found (with a watch): the start and home, the root, and the watch's
    /// change count when it was found.
    roots: Vec<(PathBuf, Option<PathBuf>, PathBuf, u64)>,
}

/// The most project roots kept.
const MAX_ROOTS: usize = 64;

#[derive(Debug)]
struct Entry {
    key: String,
    stamp: Stamp,
    loaded: Arc<Loaded>,
    used: u64,
    /// The watch's change count when the entry was last checked, if every directory its
    /// check looked in is watched.
    checked: Option<u64>,
}

/// How many builds reused a loaded config and how many loaded one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CacheCounts {
    /// Builds that reused a config loaded before.
    pub hits: u64,
    /// Builds that loaded the config (first use of a key, or a change).
    pub loads: u64,
    /// Configs held now.
    pub held: usize,
}

impl LoadCache {
    /// An empty cache.
    pub fn new() -> LoadCache {
        LoadCache::default()
    }

    /// An empty cache that watches the directories its configs come from, to reuse a
    /// config without looking at its files while nothing there changes (Linux; elsewhere
    /// the same as [`LoadCache::new`]): any change in a watched directory, or a watch the
    /// system refused, sends the next build back to the full check of the files.
    pub fn watching() -> LoadCache {
        LoadCache {
            entries: Mutex::new(Entries {
                watch: watch::Watch::new(),
                ..Entries::default()
            }),
        }
    }

    /// How the cache has been used so far.
    pub fn counts(&self) -> CacheCounts {
        let entries = self.lock();
        CacheCounts {
            hits: entries.hits,
            loads: entries.loads,
            held: entries.list.len(),
        }
    }

    /// [`Locations::project_root`](hooks_config::Locations::project_root) of `start`
    /// (with the home directory `home`): with a watching cache, the root found before
    /// while nothing changed in the directories its search looked at (each watched before
    /// the search), else searched now.
    pub fn project_root(&self, start: &Path, home: Option<&Path>) -> PathBuf {
        let mut entries = self.lock();
        let Some(changes) = entries.watch.as_mut().map(watch::Watch::changes) else {
            drop(entries);
            return hooks_config::Locations::project_root(start, home);
        };
        if let Some((_, _, root, _)) = entries
            .roots
            .iter()
            .find(|(s, h, _, at)| s == start && h.as_deref() == home && *at == changes)
        {
            return root.clone();
        }
        // The search looks at `start` and each folder above it, up to the root it finds
        // (or, finding none, up to the top or to just below `home`): every one of those is
        // watched, then the search made again, so that a change made meanwhile is seen
        // next time.
        let found = hooks_config::Locations::find_project_root(start, home);
        let searched: Vec<PathBuf> = start
            .ancestors()
            .take_while(|d| home != Some(*d))
            .take_while(|d| found.as_deref().is_none_or(|root| d.starts_with(root)))
            .map(Path::to_path_buf)
            .collect();
        let watched = entries.watch.as_mut().is_some_and(|w| w.add_all(&searched));
        let root = hooks_config::Locations::project_root(start, home);
        if watched {
            entries
                .roots
                .retain(|(s, h, _, _)| !(s == start && h.as_deref() == home));
            if entries.roots.len() >= MAX_ROOTS {
                entries.roots.remove(0);
            }
            entries.roots.push((
                start.to_path_buf(),
                home.map(Path::to_path_buf),
                root.clone(),
                changes,
            ));
        }
        root
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Entries> {
        self.entries
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The config `config` loads under `trust`: the one held for `key` when its stamp is
    /// unchanged, else loaded now and held.
    pub(super) fn load(&self, key: &str, config: &Config, trust: &Trust) -> Arc<Loaded> {
        let mut entries = self.lock();
        // Nothing changed in the watched directories since the key was checked: its
        // config holds, without a look at its files.
        let changes = entries.watch.as_mut().map(watch::Watch::changes);
        entries.clock += 1;
        let now = entries.clock;
        if let Some(changes) = changes
            && let Some(entry) = entries
                .list
                .iter_mut()
                .find(|e| e.key == key && e.checked == Some(changes))
        {
            entry.used = now;
            let loaded = Arc::clone(&entry.loaded);
            entries.hits += 1;
            return loaded;
        }
        // Watched before they are looked at: a change made while they are is seen next time.
        let watched = entries
            .watch
            .as_mut()
            .is_some_and(|w| w.add_all(&watch::dirs(config, trust)));
        let found = config.discover();
        let watched = watched
            && entries.watch.as_mut().is_some_and(|w| {
                w.add_all(&watch::parents(
                    found.iter().flatten().map(|d| d.path.as_path()),
                ))
            });
        let checked = changes.filter(|_| watched);
        let stamp = Stamp::of(config, &found, trust);
        if let Some(entry) = entries
            .list
            .iter_mut()
            .find(|e| e.key == key && e.stamp == stamp)
        {
            entry.used = now;
            entry.checked = checked;
            let loaded = Arc::clone(&entry.loaded);
            entries.hits += 1;
            return loaded;
        }
        drop(entries);
        let loaded = Arc::new(config.load_found(found, trust));
        let mut entries = self.lock();
        entries.loads += 1;
        entries.list.retain(|e| e.key != key);
        if entries.list.len() >= MAX_ENTRIES
            && let Some(oldest) = entries
                .list
                .iter()
                .enumerate()
                .min_by_key(|(_, e)| e.used)
                .map(|(i, _)| i)
        {
            entries.list.swap_remove(oldest);
        }
        entries.list.push(Entry {
            key: key.to_owned(),
            stamp,
            loaded: Arc::clone(&loaded),
            used: now,
            checked,
        });
        loaded
    }
}

/// The identity of every file a config was loaded from, and of the trust store.
#[derive(Debug, PartialEq, Eq)]
struct Stamp(Vec<(PathBuf, Option<FileId>)>);

impl Stamp {
    fn of(config: &Config, found: &[Vec<hooks_config::Discovered>], trust: &Trust) -> Stamp {
        let explicit = config.sources.iter().filter_map(|s| match s {
            Source::File { path, .. } => Some(path.as_path()),
            Source::Text { .. } | Source::Discover { .. } => None,
        });
        let discovered = found.iter().flatten().map(|d| d.path.as_path());
        Stamp(
            explicit
                .chain(discovered)
                .chain(trust.path())
                .map(|p| (p.to_path_buf(), FileId::of(p)))
                .collect(),
        )
    }
}

/// What tells a file's content changed without reading it.
#[derive(Debug, PartialEq, Eq)]
struct FileId {
    dev: u64,
    ino: u64,
    size: u64,
    modified: (i64, i64),
    changed: (i64, i64),
}

impl FileId {
    /// The identity of the file `path` names (a link followed), `None` when there is none.
    #[cfg(unix)]
    fn of(path: &Path) -> Option<FileId> {
        use std::os::unix::fs::MetadataExt as _;
        let m = std::fs::metadata(path).ok()?;
        Some(FileId {
            dev: m.dev(),
            ino: m.ino(),
            size: m.size(),
            modified: (m.mtime(), m.mtime_nsec()),
            changed: (m.ctime(), m.ctime_nsec()),
        })
    }

    /// Elsewhere: the size and the modification time.
    #[cfg(not(unix))]
    fn of(path: &Path) -> Option<FileId> {
        let m = std::fs::metadata(path).ok()?;
        let since = |t: std::io::Result<std::time::SystemTime>| {
            t.ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map_or((0, 0), |d| {
                    (
                        i64::try_from(d.as_secs()).unwrap_or(i64::MAX),
                        i64::from(d.subsec_nanos()),
                    )
                })
        };
        Some(FileId {
            dev: 0,
            ino: 0,
            size: m.len(),
            modified: since(m.modified()),
            changed: (0, 0),
        })
    }
}

/// The directories a config's files come from, watched for changes (inotify).
mod watch {
    use std::collections::BTreeSet;
    use std::path::{Path, PathBuf};

    use super::super::{Config, Source, Trust};

    /// The directories to watch for `config`'s discovery and `trust`'s store: the folder
    /// of every candidate file (or the nearest one that exists), every folder a pattern's
    /// `*` stands for, the folder of every file named outright, and the trust store's.
    pub(super) fn dirs(config: &Config, trust: &Trust) -> Vec<PathBuf> {
        let mut out = BTreeSet::new();
        // Candidates share their first folders: each is looked at once.
        let mut seen = std::collections::HashMap::new();
        for source in &config.sources {
            match source {
                Source::File { path, .. } => {
                    out.extend(parents(std::iter::once(path.as_path())));
                }
                Source::Discover { locations, .. } => {
                    for candidate in locations.resolved().candidates() {
                        let parts: Vec<&std::ffi::OsStr> = candidate.path.iter().collect();
                        let Some((_, dir)) = parts.split_last() else {
                            continue;
                        };
                        pattern(&mut out, &mut seen, PathBuf::new(), dir);
                    }
                }
                Source::Text { .. } => {}
            }
        }
        out.extend(parents(trust.path()));
        out.into_iter().collect()
    }

    /// Watches `dir` joined with `rest` (the folders of a candidate path, `*` for every
    /// folder there): each folder on the way that exists, down to the last, or to the
    /// nearest one to a folder that does not.
    fn pattern(
        out: &mut BTreeSet<PathBuf>,
        seen: &mut std::collections::HashMap<PathBuf, bool>,
        dir: PathBuf,
        rest: &[&std::ffi::OsStr],
    ) {
        let Some((first, more)) = rest.split_first() else {
            out.insert(dir);
            return;
        };
        if *first == "*" {
            out.insert(dir.clone());
            for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
                if entry.path().is_dir() {
                    pattern(out, seen, entry.path(), more);
                }
            }
            return;
        }
        let next = dir.join(first);
        let is_dir = *seen.entry(next.clone()).or_insert_with_key(|p| p.is_dir());
        if is_dir {
            pattern(out, seen, next, more);
        } else if !dir.as_os_str().is_empty() {
            out.insert(dir);
        }
    }

    /// The folder of each of `files`, and of what it links to.
    pub(super) fn parents<'a>(files: impl IntoIterator<Item = &'a Path>) -> Vec<PathBuf> {
        let mut out = Vec::new();
        for file in files {
            out.extend(nearest_dir(file.parent()));
            if let Ok(real) = std::fs::canonicalize(file) {
                out.extend(real.parent().map(Path::to_path_buf));
            }
        }
        out
    }

    /// `dir`, or the nearest folder above it that exists.
    fn nearest_dir(mut dir: Option<&Path>) -> Option<PathBuf> {
        while let Some(d) = dir {
            if d.is_dir() {
                return Some(d.to_path_buf());
            }
            dir = d.parent();
        }
        None
    }

    /// The most reads of the queue one look at it makes (each takes up to 4 KiB of events).
    #[cfg(target_os = "linux")]
    const DRAIN_READS: usize = 16;

    /// An inotify instance and the directories it watches.
    #[cfg(target_os = "linux")]
    #[derive(Debug)]
    pub(super) struct Watch {
        fd: std::os::fd::OwnedFd,
        watched: BTreeSet<PathBuf>,
        changes: u64,
    }

    #[cfg(target_os = "linux")]
    impl Watch {
        /// A new instance; `None` when the system gives none (its limit reached).
        pub(super) fn new() -> Option<Watch> {
            use rustix::fs::inotify::{CreateFlags, init};
            let fd = init(CreateFlags::CLOEXEC | CreateFlags::NONBLOCK).ok()?;
            Some(Watch {
                fd,
                watched: BTreeSet::new(),
                changes: 0,
            })
        }

        /// How many times a change was seen: one more than last time when anything
        /// changed in a watched directory since (or the queue overflowed, or cannot be
        /// read). Reads the queue to its end, or [`DRAIN_READS`] times: a directory
        /// written without pause (a log beside a config file) costs a call a bounded
        /// wait, and what is left counts as a change next time.
        pub(super) fn changes(&mut self) -> u64 {
            let mut buf = [0u8; 4096];
            let mut changed = false;
            for _ in 0..DRAIN_READS {
                match rustix::io::read(&self.fd, &mut buf) {
                    Ok(0) => break,
                    Ok(_) => changed = true,
                    Err(rustix::io::Errno::INTR) => {}
                    Err(rustix::io::Errno::AGAIN) => break,
                    Err(_) => {
                        changed = true;
                        break;
                    }
                }
            }
            if changed {
                self.changes += 1;
            }
            self.changes
        }

        /// Watches every one of `dirs`; `false` when one could not be watched (then
        /// nothing may be taken as unchanged on the strength of the watch).
        pub(super) fn add_all(&mut self, dirs: &[PathBuf]) -> bool {
            use rustix::fs::inotify::{WatchFlags, add_watch};
            let flags = WatchFlags::CREATE
                | WatchFlags::DELETE
                | WatchFlags::MODIFY
                | WatchFlags::ATTRIB
                | WatchFlags::CLOSE_WRITE
                | WatchFlags::MOVED_FROM
                | WatchFlags::MOVED_TO
                | WatchFlags::DELETE_SELF
                | WatchFlags::MOVE_SELF;
            let mut all = true;
            for dir in dirs {
                if self.watched.contains(dir) {
                    continue;
                }
                if add_watch(&self.fd, dir.as_path(), flags).is_ok() {
                    self.watched.insert(dir.clone());
                } else {
                    all = false;
                }
            }
            all
        }
    }

    /// No watching here: every build checks the files.
    #[cfg(not(target_os = "linux"))]
    #[derive(Debug)]
    pub(super) struct Watch;

    #[cfg(not(target_os = "linux"))]
    impl Watch {
        pub(super) fn new() -> Option<Watch> {
            None
        }

        pub(super) fn changes(&mut self) -> u64 {
            0
        }

        pub(super) fn add_all(&mut self, _: &[PathBuf]) -> bool {
            false
        }
    }
}

//! The loaded configs a long-lived process keeps between the engines it builds, one per
//! event (the resident engine's workers, see [`crate::daemon`]): an engine built with
//! [`EngineBuilder::load_cache`](super::EngineBuilder::load_cache) reuses the config loaded
//! for the same key while nothing it was loaded from has changed, and loads afresh (with
//! every check a first load makes, trust included) as soon as anything has.
//!
//! "Nothing has changed" is read at every build, not trusted to a file watcher: discovery
//! runs again (so a file that appeared or went away is seen), and every file the config
//! was loaded from, and the trust store, must have the identity it had (device, inode,
//! size, modification and change times to the nanosecond). Discovery and those reads cost
//! a few dozen `stat` calls; parsing, checking and merging the files, what the cache saves,
//! costs about a hundred times that.

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
}

#[derive(Debug)]
struct Entry {
    key: String,
    stamp: Stamp,
    loaded: Arc<Loaded>,
    used: u64,
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

    /// How the cache has been used so far.
    pub fn counts(&self) -> CacheCounts {
        let entries = self.lock();
        CacheCounts {
            hits: entries.hits,
            loads: entries.loads,
            held: entries.list.len(),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Entries> {
        self.entries
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The config `config` loads under `trust`: the one held for `key` when its stamp is
    /// unchanged, else loaded now and held.
    pub(super) fn load(&self, key: &str, config: &Config, trust: &Trust) -> Arc<Loaded> {
        let found = config.discover();
        let stamp = Stamp::of(config, &found, trust);
        let mut entries = self.lock();
        entries.clock += 1;
        let now = entries.clock;
        if let Some(entry) = entries
            .list
            .iter_mut()
            .find(|e| e.key == key && e.stamp == stamp)
        {
            entry.used = now;
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

//! The trust store: per-hook and per-file grants keyed by content hashes, listing,
//! revoking, persistence in an injectable location, and the host bypass.

use hooks_config::core::Layer;
use hooks_config::{
    ConfigFile, DiagnosticKind, GrantKind, Inactive, Origin, TrustPolicy, TrustStore, hook_hash,
    load_file, merge,
};

use crate::support::{Dir, options};

const PROJECT: &str = "hooks:\n  - id: lint\n    event: PostToolUse\n    command: ./lint.sh\n  - id: guard\n    event: PreToolUse\n    command: ./guard.sh\n";

fn discovered(path: &std::path::Path) -> ConfigFile {
    load_file(
        path,
        &options()
            .with_layer(Layer::Project)
            .with_origin(Origin::Discovered),
    )
    .unwrap()
}

fn states(file: &ConfigFile, store: &TrustStore) -> Vec<(String, bool)> {
    merge(std::slice::from_ref(file), &TrustPolicy::Store(store))
        .hooks()
        .iter()
        .map(|h| (h.spec.display_id(), h.inactive != Some(Inactive::Untrusted)))
        .collect()
}

fn pair(id: &str, trusted: bool) -> (String, bool) {
    (id.to_owned(), trusted)
}

#[test]
fn a_hook_grant_covers_that_hook_as_it_is() {
    let dir = Dir::new();
    let path = dir.write("repo/.hooks/hooks.yaml", PROJECT);
    let file = discovered(&path);
    let mut store = TrustStore::open(dir.path().join("state/trust.json")).unwrap();
    assert_eq!(
        states(&file, &store),
        [pair("lint", false), pair("guard", false)]
    );
    let lint = file.hooks().next().unwrap().clone();
    store.trust_hook(&file, &lint).unwrap();
    assert_eq!(
        states(&file, &store),
        [pair("lint", true), pair("guard", false)]
    );

    // Moving the hook and toggling `enabled` keep the grant.
    std::fs::write(
        &path,
        format!(
            "# moved\n\n{}    enabled: true\n",
            PROJECT.replace("  - id: guard", "  - id: guard\n    timeout: 3")
        ),
    )
    .unwrap();
    let moved = discovered(&path);
    assert_eq!(
        states(&moved, &store),
        [pair("lint", true), pair("guard", false)]
    );

    // Changing what it runs needs trust again.
    std::fs::write(&path, PROJECT.replace("./lint.sh", "./lint.sh --fix")).unwrap();
    let changed = discovered(&path);
    assert_eq!(
        states(&changed, &store),
        [pair("lint", false), pair("guard", false)]
    );
}

#[test]
fn a_file_grant_covers_the_file_until_it_changes() {
    let dir = Dir::new();
    let path = dir.write("repo/.hooks/hooks.yaml", PROJECT);
    let file = discovered(&path);
    let mut store = TrustStore::in_memory();
    store.trust_file(&file).unwrap();
    assert_eq!(
        states(&file, &store),
        [pair("lint", true), pair("guard", true)]
    );
    std::fs::write(&path, format!("{PROJECT}\n# an edit\n")).unwrap();
    assert_eq!(
        states(&discovered(&path), &store),
        [pair("lint", false), pair("guard", false)]
    );
}

#[test]
fn grants_are_tied_to_their_file() {
    let dir = Dir::new();
    let a = dir.write("a/.hooks/hooks.yaml", PROJECT);
    let b = dir.write("b/.hooks/hooks.yaml", PROJECT);
    let mut store = TrustStore::in_memory();
    store.trust_file(&discovered(&a)).unwrap();
    // The same content in another repository is not trusted.
    assert_eq!(
        states(&discovered(&b), &store),
        [pair("lint", false), pair("guard", false)]
    );
}

/// How project `b` comes to hold a file trusted in project `a`.
#[derive(Clone, Copy, Debug)]
enum Arrival {
    /// `b/.hooks/hooks.yaml` is a symlink to `a/.hooks/hooks.yaml`.
    FileLink,
    /// `b/.hooks` is a symlink to `a/.hooks`.
    FolderLink,
    /// `b/.hooks/hooks.yaml` is a copy (the same hash).
    Copy,
}

/// Whether the grant given to `a`'s file (per file or per hook) lets `b`'s file run.
#[cfg(unix)]
#[track_caller]
fn check_arrival(arrival: Arrival, kind: GrantKind) {
    let dir = Dir::new();
    let a = dir.write("a/.hooks/hooks.yaml", PROJECT);
    let b = dir.path().join("b/.hooks/hooks.yaml");
    match arrival {
        Arrival::FileLink => {
            std::fs::create_dir_all(b.parent().unwrap()).unwrap();
            std::os::unix::fs::symlink(&a, &b).unwrap();
        }
        Arrival::FolderLink => {
            std::fs::create_dir_all(dir.path().join("b")).unwrap();
            std::os::unix::fs::symlink(a.parent().unwrap(), b.parent().unwrap()).unwrap();
        }
        Arrival::Copy => {
            dir.write("b/.hooks/hooks.yaml", PROJECT);
        }
    }
    let mut store = TrustStore::in_memory();
    let file = discovered(&a);
    match kind {
        GrantKind::File => {
            store.trust_file(&file).unwrap();
        }
        GrantKind::Hook => {
            for spec in file.hooks() {
                store.trust_hook(&file, spec).unwrap();
            }
        }
        other => panic!("no such grant kind in this test: {other:?}"),
    }
    assert_eq!(
        states(&file, &store),
        [pair("lint", true), pair("guard", true)]
    );
    let linked = discovered(&b);
    assert_eq!(linked.content_hash, file.content_hash);
    assert_eq!(
        states(&linked, &store),
        [pair("lint", false), pair("guard", false)],
        "{arrival:?} with a {kind:?} grant"
    );
}

#[cfg(unix)]
#[test]
fn a_grant_covers_its_file_at_its_location_not_a_symlink_to_it() {
    for arrival in [Arrival::FileLink, Arrival::FolderLink, Arrival::Copy] {
        for kind in [GrantKind::File, GrantKind::Hook] {
            check_arrival(arrival, kind);
        }
    }
}

#[test]
fn list_revoke_and_persist() {
    let dir = Dir::new();
    let path = dir.write("repo/.hooks/hooks.yaml", PROJECT);
    let file = discovered(&path);
    let store_path = dir.path().join("state/hooks/trust.json");
    let mut store = TrustStore::open(&store_path).unwrap();
    assert!(store.grants().is_empty());
    let hooks: Vec<_> = file.hooks().cloned().collect();
    store.trust_hook(&file, &hooks[0]).unwrap();
    store.trust_hook(&file, &hooks[1]).unwrap();
    store.trust_file(&file).unwrap();
    // Granting the same thing twice keeps one grant.
    store.trust_hook(&file, &hooks[0]).unwrap();
    store.save().unwrap();

    let mut reopened = TrustStore::open(&store_path).unwrap();
    let listed: Vec<(GrantKind, Option<&str>)> = reopened
        .grants()
        .iter()
        .map(|g| (g.kind, g.hook.as_deref()))
        .collect();
    assert_eq!(
        listed,
        [
            (GrantKind::Hook, Some("guard")),
            (GrantKind::File, None),
            (GrantKind::Hook, Some("lint"))
        ]
    );
    assert_eq!(reopened.grants()[0].file, path.canonicalize().unwrap());
    assert_eq!(reopened.grants()[0].hash, hook_hash(&hooks[1]));

    // Revoke by hook id, by hash prefix, by file.
    assert_eq!(reopened.revoke("lint"), 1);
    let prefix = hook_hash(&hooks[1])[..12].to_owned();
    assert_eq!(reopened.revoke(&prefix), 1);
    assert_eq!(reopened.grants().len(), 1);
    assert_eq!(reopened.revoke(path.to_str().unwrap()), 1);
    assert_eq!(reopened.revoke("nothing"), 0);
    reopened.save().unwrap();
    assert!(TrustStore::open(&store_path).unwrap().grants().is_empty());
}

#[test]
fn a_corrupt_store_is_an_error() {
    let dir = Dir::new();
    let path = dir.write("trust.json", "{not json");
    let err = TrustStore::open(&path).unwrap_err();
    assert_eq!(err.kind(), DiagnosticKind::Trust);
    assert_eq!(
        err.to_string(),
        format!(
            "{}: error: the trust store is corrupt: key must be a string at line 1 column 2\n  hint: move the file aside; hooks will need trust again",
            path.display()
        )
    );
}

#[test]
fn the_host_can_bypass_trust_and_deny_is_the_safe_default() {
    let dir = Dir::new();
    let file = discovered(&dir.write("repo/.hooks/hooks.yaml", PROJECT));
    let active =
        |policy: TrustPolicy<'_>| merge(std::slice::from_ref(&file), &policy).active().count();
    assert_eq!(active(TrustPolicy::Deny), 0);
    assert_eq!(active(TrustPolicy::Bypass), 2);
    assert_eq!(active(TrustPolicy::Store(&TrustStore::in_memory())), 0);
}

/// A hook's hash covers its command filter and its `loop_limit` (each changes when it runs
/// or how long it may keep the agent going), and stays what it was for a hook with neither,
/// so that earlier grants still hold.
#[test]
fn the_hash_covers_the_command_filter_and_the_loop_limit() {
    let hash = |text: &str| {
        let file =
            hooks_config::load_str(text, Some(std::path::Path::new("hooks.yaml")), &options())
                .unwrap();
        hook_hash(file.hooks().next().unwrap())
    };
    let plain = hash("hooks:\n  - {event: Stop, command: ./a.sh}\n");
    assert_eq!(
        plain,
        "09f21c8d2f71015512423c1554199a0b8721bb2af667eed8b92295de422452af"
    );
    let limited = hash("hooks:\n  - {event: Stop, command: ./a.sh, loop_limit: 2}\n");
    let unlimited = hash("hooks:\n  - {event: Stop, command: ./a.sh, loop_limit: null}\n");
    let filtered = hash("hooks:\n  - {event: Stop, command: ./a.sh, filter: {command: git}}\n");
    let other = hash("hooks:\n  - {event: Stop, command: ./a.sh, filter: {command: rm}}\n");
    let all = [&plain, &limited, &unlimited, &filtered, &other];
    for (i, a) in all.iter().enumerate() {
        for b in &all[i + 1..] {
            assert_ne!(a, b, "{all:?}");
        }
    }
}

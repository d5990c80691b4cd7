//! Discovery of the standard locations, in a temporary home and project.

use std::path::Path;

use hooks_config::core::{Dialect, Layer};
use hooks_config::{
    DiagnosticKind, Discovered, Locations, Origin, TrustPolicy, load_discovered, merge,
};

use crate::support::{Dir, options};

#[test]
fn standard_locations_by_layer() {
    let dir = Dir::new();
    let home = dir.path().join("home");
    let project = dir.path().join("repo");
    let etc = dir.path().join("etc");
    dir.write(
        "etc/hooks/managed.yaml",
        "hooks:\n  - id: m\n    event: Stop\n    command: m\n",
    );
    dir.write(
        "home/.config/hooks/hooks.toml",
        "[[hooks]]\nid = \"u\"\nevent = \"Stop\"\ncommand = \"u\"\n",
    );
    dir.write(
        "home/.claude/settings.json",
        r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "claude-user"}]}]}}"#,
    );
    dir.write(
        "repo/.claude/settings.json",
        r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "claude-project"}]}]}}"#,
    );
    dir.write(
        "repo/.fabro/project.toml",
        "_version = 1\n[[run.hooks]]\nid = \"f\"\nevent = \"run_start\"\nscript = \"f\"\n",
    );
    dir.write("repo/skills/b/SKILL.md", "---\nhooks:\n  Stop:\n    - hooks:\n        - type: command\n          command: ${SKILL_DIR}/b.sh\n---\n");
    dir.write(
        "repo/skills/a/SKILL.md",
        "---\nname: a\n---\nNo hooks here.\n",
    );
    dir.write(
        "repo/.claude/settings.local.json",
        r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "claude-local"}]}]}}"#,
    );
    dir.write(
        "repo/.hooks/hooks.local.yaml",
        "hooks:\n  - id: u\n    enabled: false\n",
    );
    let locations = Locations {
        home: Some(home.clone()),
        config_dir: Some(home.join(".config")),
        project: Some(project.clone()),
        codex_home: None,
        cline_dir: None,
        copilot_home: None,
        system_dirs: vec![etc],
    };
    let found = locations.discover();
    let rel: Vec<(String, Layer)> = found
        .iter()
        .map(|d| {
            (
                d.path
                    .strip_prefix(dir.path())
                    .unwrap()
                    .display()
                    .to_string(),
                d.layer,
            )
        })
        .collect();
    assert_eq!(
        rel,
        [
            ("etc/hooks/managed.yaml".to_owned(), Layer::Managed),
            ("home/.config/hooks/hooks.toml".to_owned(), Layer::User),
            ("home/.claude/settings.json".to_owned(), Layer::User),
            ("repo/.claude/settings.json".to_owned(), Layer::Project),
            ("repo/.fabro/project.toml".to_owned(), Layer::Project),
            ("repo/skills/a/SKILL.md".to_owned(), Layer::Project),
            ("repo/skills/b/SKILL.md".to_owned(), Layer::Project),
            ("repo/.hooks/hooks.local.yaml".to_owned(), Layer::Local),
            ("repo/.claude/settings.local.json".to_owned(), Layer::Local),
        ]
    );
    let (files, broken) = load_discovered(&found, &options());
    assert!(broken.is_empty(), "{broken:?}");
    assert!(files.iter().all(|f| f.origin == Origin::Discovered));
    let dialects: Vec<Dialect> = files.iter().map(|f| f.dialect).collect();
    assert_eq!(
        dialects,
        [
            Dialect::Native,
            Dialect::Native,
            Dialect::Claude,
            Dialect::Claude,
            Dialect::Fabro,
            Dialect::Echo,
            Dialect::Echo,
            Dialect::Native,
            Dialect::Claude,
        ]
    );
    // Project and local hooks wait for trust; the others run.
    let set = merge(&files, &TrustPolicy::Deny);
    let active: Vec<String> = set.active().map(|h| h.display_id()).collect();
    assert_eq!(active, ["u", "command: claude-user", "m"]);
    // The untrusted local file's directive could not disable the user's `u`.
    assert_eq!(
        set.diagnostics()[0].message,
        "ignored: a file that is not trusted cannot disable or remove hooks"
    );
    // Trusted (here: bypassed), it does.
    let set = merge(&files, &TrustPolicy::Bypass);
    let active: Vec<String> = set.active().map(|h| h.display_id()).collect();
    assert_eq!(
        active,
        [
            "command: claude-user",
            "command: claude-project",
            "f",
            &format!(
                "command: {}/repo/skills/b/b.sh",
                dir.path()
                    .canonicalize()
                    .unwrap_or(dir.path().to_path_buf())
                    .display()
            ),
            "command: claude-local",
            "m",
        ]
    );
}

#[test]
fn a_broken_discovered_file_never_stops_the_others() {
    let dir = Dir::new();
    let a = dir.write("a/hooks.yaml", "hooks:\n  - event: Stpo\n    command: a\n");
    let b = dir.write("b/settings.json", "{\"hooks\": [}");
    let c = dir.write("c/hooks.yaml", "hooks:\n  - event: Stop\n    command: c\n");
    let found = [
        Discovered {
            path: a,
            layer: Layer::User,
            within: None,
        },
        Discovered {
            path: b,
            layer: Layer::Project,
            within: None,
        },
        Discovered {
            path: c.clone(),
            layer: Layer::Project,
            within: None,
        },
    ];
    let (files, broken) = load_discovered(&found, &options());
    assert_eq!(files.len(), 1);
    assert_eq!(files[0].path.as_deref(), Some(c.as_path()));
    let root = format!("{}/", dir.path().display());
    let summaries: Vec<(bool, String)> = broken
        .iter()
        .map(|b| (b.needs_trust(), b.summary().replace(&root, "")))
        .collect();
    assert_eq!(
        summaries,
        [
            (false, "a/hooks.yaml:2:12: unknown event `Stpo`".to_owned()),
            (
                true,
                "b/settings.json:1:12: invalid JSON: expected value".to_owned()
            ),
        ]
    );
}

/// Makes a FIFO at `path`.
#[cfg(unix)]
pub(crate) fn mkfifo(path: &std::path::Path) {
    use rustix::fs::{CWD, FileType, Mode, mknodat};
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    mknodat(CWD, path, FileType::Fifo, Mode::from_raw_mode(0o600), 0).unwrap();
}

/// Runs `f` on a thread and gives up after 10 s, so that a read that blocks fails the test
/// instead of hanging it.
#[track_caller]
pub(crate) fn bounded<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(std::time::Duration::from_secs(10))
        .expect("discovery blocked for 10 s")
}

#[cfg(unix)]
#[test]
fn discovery_reads_only_regular_files_inside_the_places_it_searches() {
    use std::os::unix::fs::symlink;
    let dir = Dir::new();
    // Diagnostics name the resolved paths.
    let root = dir.path().canonicalize().unwrap();
    dir.write(
        "home/.aws/credentials",
        "[default]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrXUtnFEMI\n",
    );
    let settings = r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x"}]}]}}"#;
    dir.write("home/dotfiles/claude.json", settings);
    dir.write(
        "repo/conf/autohand.json",
        r#"{"hooks": {"enabled": true, "hooks": []}}"#,
    );
    dir.write("outside/fabro/project.toml", "_version = 1\n");
    mkfifo(&root.join("outside/fifo"));
    mkfifo(&root.join("repo/pipe"));
    // (where, what it links to, what loading it gives: `None` loads, else the message)
    let cases: [(&str, &str, Option<String>); 7] = [
        // The user's own links inside home are followed.
        (
            "home/.claude/settings.json",
            "home/dotfiles/claude.json",
            None,
        ),
        // So are a project's links inside the project. Nothing else is read: not a file that
        // blocks, not a secret, not a FIFO.
        (
            "repo/.autohand/config.json",
            "repo/conf/autohand.json",
            None,
        ),
        (
            "repo/echo-agent.yaml",
            "/proc/kmsg",
            Some(format!(
                "not read: it leads outside {root}/repo (to /proc/kmsg), and a discovered config must stay inside the directory it was found in",
                root = root.display()
            )),
        ),
        (
            "repo/.claude/settings.json",
            "home/.aws/credentials",
            Some(format!(
                "not read: it leads outside {root}/repo (to {root}/home/.aws/credentials), and a discovered config must stay inside the directory it was found in",
                root = root.display()
            )),
        ),
        (
            "repo/.fabro",
            "outside/fabro",
            Some(format!(
                "not read: it leads outside {root}/repo (to {root}/outside/fabro/project.toml), and a discovered config must stay inside the directory it was found in",
                root = root.display()
            )),
        ),
        (
            "repo/.hooks/hooks.yaml",
            "outside/fifo",
            Some(format!(
                "not read: it leads outside {root}/repo (to {root}/outside/fifo), and a discovered config must stay inside the directory it was found in",
                root = root.display()
            )),
        ),
        (
            "repo/.claude/settings.local.json",
            "repo/pipe",
            Some("not read: it is a FIFO, not a regular file".to_owned()),
        ),
    ];
    // Not every system has a /proc/kmsg (macOS has no /proc).
    let cases: Vec<_> = cases
        .into_iter()
        .filter(|(_, target, _)| !target.starts_with('/') || Path::new(target).exists())
        .collect();
    for (link, target, _) in &cases {
        let link = root.join(link);
        std::fs::create_dir_all(link.parent().unwrap()).unwrap();
        let target = if target.starts_with('/') {
            std::path::PathBuf::from(target)
        } else {
            root.join(target)
        };
        symlink(target, link).unwrap();
    }
    let locations = Locations {
        home: Some(root.join("home")),
        config_dir: Some(root.join("home/.config")),
        project: Some(root.join("repo")),
        codex_home: None,
        cline_dir: None,
        copilot_home: None,
        system_dirs: vec![],
    };
    let found = bounded(move || locations.discover());
    for (link, _, expect) in &cases {
        let one: Vec<Discovered> = found
            .iter()
            .filter(|d| d.path == root.join(link) || d.path.parent() == Some(&root.join(link)))
            .cloned()
            .collect();
        assert_eq!(one.len(), 1, "{link} was not discovered: {found:?}");
        let got = bounded(move || load_discovered(&one, &options()));
        let (files, broken) = got;
        match (expect, broken.first()) {
            (None, None) => assert_eq!(files.len(), 1, "{link}"),
            (Some(message), Some(b)) => {
                assert_eq!(broken.len(), 1, "{link}");
                let e = &b.error;
                assert_eq!(e.diagnostics().len(), 1, "{e}");
                let d = &e.diagnostics()[0];
                assert_eq!(d.kind, DiagnosticKind::Refused, "{link}: {e}");
                assert_eq!(&d.message, message, "{link}");
                assert!(!e.to_string().contains("wJalr"), "{e}");
            }
            (expect, got) => panic!("{link}: expected {expect:?}, got {got:?}"),
        }
    }
}

/// Locations with only a home (and, when given, Codex's and Cline's homes elsewhere).
fn homes(dir: &Dir, codex: Option<&str>, cline: Option<&str>) -> Locations {
    Locations {
        home: Some(dir.path().join("home")),
        config_dir: Some(dir.path().join("home/.config")),
        codex_home: codex.map(|c| dir.path().join(c)),
        cline_dir: cline.map(|c| dir.path().join(c)),
        copilot_home: None,
        ..Locations::default()
    }
}

/// The discovered files under `dir`, relative to it, with the place each must stay in.
fn found(dir: &Dir, locations: &Locations) -> Vec<(String, String)> {
    let rel = |p: &Path| {
        p.strip_prefix(dir.path())
            .unwrap_or(p)
            .display()
            .to_string()
    };
    locations
        .discover()
        .iter()
        .map(|d| {
            (
                rel(&d.path),
                d.within.as_deref().map(rel).unwrap_or_default(),
            )
        })
        .collect()
}

const PLUGIN_HOOKS: &str = r#"{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "${PLUGIN_ROOT}/run.sh"}]}]}}"#;

/// Codex's home in these tests, outside the home directory. (Named `.codex`, since Codex's
/// files are told by location, and these tests cannot set `CODEX_HOME`.)
const CODEX: &str = "elsewhere/.codex";

/// Installs the plugin `<plugin>@<marketplace>` at `version` in `<codex>/plugins/cache`,
/// with `manifest` as its `.codex-plugin/plugin.json` (none when `None`) and a
/// `hooks/hooks.json`.
fn install(dir: &Dir, codex: &str, id: &str, version: &str, manifest: Option<&str>) {
    let (plugin, market) = id.split_once('@').unwrap();
    let root = format!("{codex}/plugins/cache/{market}/{plugin}/{version}");
    if let Some(m) = manifest {
        dir.write(&format!("{root}/.codex-plugin/plugin.json"), m);
    }
    dir.write(&format!("{root}/hooks/hooks.json"), PLUGIN_HOOKS);
}

/// Codex runs the hooks of the plugins its `config.toml` enables (listed, `enabled` true
/// or absent), each at its active version (`local`, else the highest), with a manifest,
/// from the files its manifest names (else `hooks/hooks.json`), in the order of the
/// plugins' keys; discovery finds exactly those, each kept inside its plugin.
#[test]
fn codex_plugin_hooks_are_those_codex_runs() {
    let dir = Dir::new();
    dir.write(
        "elsewhere/.codex/config.toml",
        r#"model = "o3"
[plugins."tool@acme"]
[plugins."off@acme"]
enabled = false
[plugins."dev@acme"]
enabled = true
[plugins."bare@acme"]
[plugins."named@acme"]
[plugins."inline@acme"]
[plugins."broken@acme"]
[plugins."bad key"]
"#,
    );
    let manifest = r#"{"name": "x"}"#;
    install(&dir, CODEX, "tool@acme", "1.9.0", Some(manifest));
    install(&dir, CODEX, "tool@acme", "1.10.0", Some(manifest));
    install(&dir, CODEX, "tool@acme", "1.10.0-rc.1", Some(manifest));
    install(&dir, CODEX, "off@acme", "1.0.0", Some(manifest));
    install(&dir, CODEX, "unlisted@acme", "1.0.0", Some(manifest));
    install(&dir, CODEX, "dev@acme", "9.0.0", Some(manifest));
    install(&dir, CODEX, "dev@acme", "local", Some(manifest));
    install(&dir, CODEX, "bare@acme", "1.0.0", None);
    install(
        &dir,
        CODEX,
        "named@acme",
        "1.0.0",
        Some(
            r#"{"name": "named", "hooks": ["./config/guard.json", "../escape.json", "./config/missing.json"]}"#,
        ),
    );
    dir.write(
        "elsewhere/.codex/plugins/cache/acme/named/1.0.0/config/guard.json",
        PLUGIN_HOOKS,
    );
    install(
        &dir,
        CODEX,
        "inline@acme",
        "1.0.0",
        Some(r#"{"name": "inline", "hooks": {"hooks": {}}}"#),
    );
    install(&dir, CODEX, "broken@acme", "1.0.0", Some("[1, 2]"));
    let cache = "elsewhere/.codex/plugins/cache/acme";
    let want = |path: &str, root: &str| (format!("{cache}/{path}"), format!("{cache}/{root}"));
    let got = found(&dir, &homes(&dir, Some(CODEX), None));
    let plugins: Vec<_> = got
        .into_iter()
        .filter(|(p, _)| p.contains("plugins/"))
        .collect();
    assert_eq!(
        plugins,
        [
            want("dev/local/hooks/hooks.json", "dev/local"),
            want("named/1.0.0/config/guard.json", "named/1.0.0"),
            want("tool/1.10.0/hooks/hooks.json", "tool/1.10.0"),
        ]
    );
    // In Codex's dialect, with the plugin's root for `${PLUGIN_ROOT}`.
    let located = homes(&dir, Some(CODEX), None).discover();
    let (files, broken) = load_discovered(&located, &options());
    assert!(broken.is_empty(), "{broken:?}");
    let plugin_files: Vec<_> = files
        .iter()
        .filter(|f| {
            f.path
                .as_ref()
                .is_some_and(|p| p.to_string_lossy().contains("plugins/"))
        })
        .collect();
    assert_eq!(plugin_files.len(), 3);
    for file in plugin_files {
        assert_eq!(file.dialect, Dialect::Codex, "{:?}", file.path);
        let text = format!("{:?}", file.items);
        let root = file.path.as_ref().unwrap().to_string_lossy().into_owned();
        let root = root
            .split("/hooks/")
            .next()
            .unwrap()
            .split("/config/")
            .next()
            .unwrap();
        assert!(text.contains(&format!("{root}/run.sh")), "{text}");
    }
}

/// Codex ignores every plugin when its `plugins` table is malformed or the plugins
/// feature is off, and a home without `config.toml` has none.
#[test]
fn codex_plugin_hooks_need_a_valid_config() {
    for config in [
        "[features]\nplugins = false\n[plugins.\"tool@acme\"]\n",
        "[plugins.\"tool@acme\"]\n[plugins.\"other@acme\"]\nenabled = \"yes\"\n",
        "plugins = [\"tool@acme\"]\n",
        "[plugins]\n\"tool@acme\" = true\n",
        "[plugins.\"tool@acme\"\n",
        "",
    ] {
        let dir = Dir::new();
        if !config.is_empty() {
            dir.write("home/.codex/config.toml", config);
        }
        install(
            &dir,
            "home/.codex",
            "tool@acme",
            "1.0.0",
            Some(r#"{"name": "tool"}"#),
        );
        let got = found(&dir, &homes(&dir, None, None));
        assert!(
            got.iter().all(|(p, _)| !p.contains("plugins/")),
            "{config}: {got:?}"
        );
    }
}

/// `~/.codex` when `$CODEX_HOME` is not set: the same plugin is found there.
#[test]
fn codex_plugin_hooks_in_the_default_home() {
    let dir = Dir::new();
    dir.write("home/.codex/config.toml", "[plugins.\"tool@acme\"]\n");
    let root = "home/.codex/plugins/cache/acme/tool/2.0.0";
    dir.write(&format!("{root}/.claude-plugin/plugin.json"), "{}");
    dir.write(&format!("{root}/hooks/hooks.json"), PLUGIN_HOOKS);
    let got = found(&dir, &homes(&dir, None, None));
    assert_eq!(
        got,
        [
            ("home/.codex/config.toml".to_owned(), "home".to_owned()),
            (format!("{root}/hooks/hooks.json"), root.to_owned()),
        ]
    );
}

/// Cline's hooks directories: the files named after a Cline event, in the order of
/// Cline's events, whatever the order of the directory; not other files, directories, or
/// links to them.
#[test]
fn cline_hook_files_in_the_order_of_clines_events() {
    let dir = Dir::new();
    let hooks = "home/Documents/Cline/Hooks";
    for name in [
        "PreCompact",
        "PreToolUse",
        "TaskStart",
        "README.md",
        "pretooluse",
    ] {
        dir.write(&format!("{hooks}/{name}"), "#!/bin/sh\n");
    }
    std::fs::create_dir_all(dir.path().join(hooks).join("TaskCancel")).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::symlink;
        symlink(
            dir.path().join(hooks).join("TaskCancel"),
            dir.path().join(hooks).join("TaskResume"),
        )
        .unwrap();
        symlink(
            dir.path().join(hooks).join("PreToolUse"),
            dir.path().join(hooks).join("PostToolUse"),
        )
        .unwrap();
        symlink(
            dir.path().join("gone"),
            dir.path().join(hooks).join("Notification"),
        )
        .unwrap();
    }
    let got: Vec<String> = found(&dir, &homes(&dir, None, None))
        .into_iter()
        .map(|(p, _)| p.trim_start_matches(&format!("{hooks}/")).to_owned())
        .collect();
    let mut want = vec!["TaskStart", "PreToolUse"];
    if cfg!(unix) {
        want.push("PostToolUse");
    }
    want.push("PreCompact");
    assert_eq!(got, want);
}

/// `$CLINE_DIR` moves Cline's home: its `hooks/` is searched instead of `~/.cline/hooks/`,
/// and its files stay inside it.
#[test]
fn cline_dir_moves_clines_hooks_directory() {
    let dir = Dir::new();
    dir.write("home/.cline/hooks/PreToolUse", "#!/bin/sh\n");
    dir.write("cline/hooks/PreToolUse", "#!/bin/sh\n");
    dir.write("cline/hooks/TaskStart", "#!/bin/sh\n");
    assert_eq!(
        found(&dir, &homes(&dir, None, None)),
        [("home/.cline/hooks/PreToolUse".to_owned(), "home".to_owned())]
    );
    assert_eq!(
        found(&dir, &homes(&dir, None, Some("cline"))),
        [
            ("cline/hooks/TaskStart".to_owned(), "cline".to_owned()),
            ("cline/hooks/PreToolUse".to_owned(), "cline".to_owned()),
        ]
    );
}

//! Discovery of the standard locations, in a temporary home and project.

use hooks_config::core::{Dialect, Layer};
use hooks_config::{Discovered, Locations, Origin, TrustPolicy, load_discovered, merge};

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
    let files = load_discovered(&found, &options()).unwrap();
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
fn errors_of_every_discovered_file_come_back_together() {
    let dir = Dir::new();
    let a = dir.write("a/hooks.yaml", "hooks:\n  - event: Stpo\n    command: a\n");
    let b = dir.write("b/settings.json", "{\"hooks\": [}");
    let found = [
        Discovered {
            path: a,
            layer: Layer::User,
        },
        Discovered {
            path: b,
            layer: Layer::Project,
        },
    ];
    let err = load_discovered(&found, &options()).unwrap_err();
    assert_eq!(err.diagnostics().len(), 2);
}

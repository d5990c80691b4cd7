//! The merge rules, one test each (see the `merge` module docs for the rules).

use std::path::Path;

use hooks_config::core::Layer;
use hooks_config::{
    ConfigFile, HookSet, Inactive, Origin, TrustPolicy, TrustStore, load_file, load_str, merge,
    url_matches,
};

use crate::support::{examples, options};

/// Loads `text` as `name` in `layer` (named explicitly, so trusted).
#[track_caller]
fn file(layer: Layer, name: &str, text: &str) -> ConfigFile {
    load_str(text, Some(Path::new(name)), &options().with_layer(layer)).unwrap()
}

/// `(id or display id, why inactive)` for every merged hook, in order.
fn listing(set: &HookSet) -> Vec<(String, Option<Inactive>)> {
    set.hooks()
        .iter()
        .map(|h| (h.spec.display_id(), h.inactive.clone()))
        .collect()
}

#[track_caller]
fn check(set: &HookSet, expect: &[(&str, Option<Inactive>)]) {
    let want: Vec<(String, Option<Inactive>)> = expect
        .iter()
        .map(|(id, i)| ((*id).to_owned(), i.clone()))
        .collect();
    assert_eq!(listing(set), want);
}

fn merged(files: &[ConfigFile]) -> HookSet {
    merge(files, &TrustPolicy::Deny)
}

const USER: &str = "hooks:\n  - id: a\n    event: Stop\n    command: user-a\n  - id: b\n    event: Stop\n    command: user-b\n  - event: Stop\n    command: user-anon\n";

#[test]
fn same_id_replaces_in_place() {
    let user = file(Layer::User, "user.yaml", USER);
    let project = file(
        Layer::Project,
        "project.yaml",
        "hooks:\n  - id: a\n    event: SessionEnd\n    command: project-a\n",
    );
    let set = merged(&[user, project]);
    check(
        &set,
        &[("a", None), ("b", None), ("command: user-anon", None)],
    );
    let a = set.get("a").unwrap();
    assert_eq!(a.spec.event.name(), "SessionEnd");
    assert_eq!(a.spec.provenance.layer, Layer::Project);
    assert_eq!(
        a.spec.provenance.file.as_deref(),
        Some(Path::new("project.yaml"))
    );
}

#[test]
fn no_id_appends_after_the_inherited_list() {
    let user = file(Layer::User, "user.yaml", USER);
    let project = file(
        Layer::Project,
        "project.yaml",
        "hooks:\n  - event: Stop\n    command: project-anon\n  - id: c\n    event: Stop\n    command: project-c\n",
    );
    let set = merged(&[user, project]);
    check(
        &set,
        &[
            ("a", None),
            ("b", None),
            ("command: user-anon", None),
            ("command: project-anon", None),
            ("c", None),
        ],
    );
}

#[test]
fn layers_apply_lowest_first_whatever_the_order_given() {
    let run = file(
        Layer::Run,
        "run.yaml",
        "hooks:\n  - id: a\n    event: Stop\n    command: run-a\n",
    );
    let user = file(Layer::User, "user.yaml", USER);
    let local = file(
        Layer::Local,
        "local.yaml",
        "hooks:\n  - id: a\n    event: Stop\n    command: local-a\n",
    );
    let set = merged(&[run, local, user]);
    assert_eq!(set.hooks()[0].spec.action.summary(), "command: run-a");
    // Files of one layer apply in the order given.
    let first = file(
        Layer::Project,
        "1.yaml",
        "hooks:\n  - id: a\n    event: Stop\n    command: first\n",
    );
    let second = file(
        Layer::Project,
        "2.yaml",
        "hooks:\n  - id: a\n    event: Stop\n    command: second\n",
    );
    let set = merged(&[first, second]);
    assert_eq!(set.hooks()[0].spec.action.summary(), "command: second");
}

#[test]
fn disable_enable_and_remove_by_id() {
    let user = file(Layer::User, "user.yaml", USER);
    let project = file(
        Layer::Project,
        "project.yaml",
        "hooks:\n  - id: a\n    enabled: false\n  - id: b\n    remove: true\n",
    );
    let set = merged(&[user.clone(), project.clone()]);
    check(
        &set,
        &[
            ("a", Some(Inactive::Disabled)),
            ("command: user-anon", None),
        ],
    );
    // The disabled hook keeps its definition, and a higher layer can turn it back on.
    assert_eq!(
        set.get("a").unwrap().spec.action.summary(),
        "command: user-a"
    );
    let local = file(
        Layer::Local,
        "local.yaml",
        "hooks:\n  - id: a\n    enabled: true\n",
    );
    let set = merged(&[user, project, local]);
    check(&set, &[("a", None), ("command: user-anon", None)]);
}

#[test]
fn a_directive_without_a_target_is_a_warning() {
    let user = file(Layer::User, "user.yaml", USER);
    let project = file(
        Layer::Project,
        "project.yaml",
        "hooks:\n  - id: zz\n    remove: true\n  - id: yy\n    enabled: false\n",
    );
    let set = merged(&[user, project]);
    assert_eq!(set.hooks().len(), 3);
    let texts: Vec<String> = set.diagnostics().iter().map(ToString::to_string).collect();
    assert_eq!(
        texts,
        [
            "project.yaml:2:5: warning: there is no inherited hook `zz` to remove",
            "project.yaml:4:5: warning: there is no inherited hook `yy` to disable",
        ]
    );
}

#[test]
fn managed_hooks_cannot_be_overridden() {
    let managed = file(
        Layer::Managed,
        "managed.yaml",
        "hooks:\n  - id: audit\n    event: PreToolUse\n    command: managed-audit\n",
    );
    // A project tries to replace, then disable, then remove the managed hook.
    let project = file(
        Layer::Project,
        "project.yaml",
        "hooks:\n  - id: audit\n    event: PreToolUse\n    command: 'true'\n  - id: audit\n    enabled: false\n",
    );
    let local = file(
        Layer::Local,
        "local.yaml",
        "hooks:\n  - id: audit\n    remove: true\n",
    );
    let set = merged(&[managed, project, local]);
    check(&set, &[("audit", None)]);
    let audit = set.get("audit").unwrap();
    assert_eq!(audit.spec.action.summary(), "command: managed-audit");
    assert_eq!(audit.spec.provenance.layer, Layer::Managed);
}

#[test]
fn disable_all_hooks_highest_layer_decides_and_managed_wins() {
    let user = file(
        Layer::User,
        "user.yaml",
        &format!("disable_all_hooks: true\n{USER}"),
    );
    let set = merged(std::slice::from_ref(&user));
    assert!(set.all_hooks_disabled());
    assert!(
        set.hooks()
            .iter()
            .all(|h| h.inactive == Some(Inactive::AllHooksDisabled))
    );
    assert_eq!(set.active().count(), 0);
    // A higher layer turns them back on.
    let project = file(
        Layer::Project,
        "settings.json",
        r#"{"disableAllHooks": false}"#,
    );
    let set = merged(&[user.clone(), project.clone()]);
    assert!(!set.all_hooks_disabled());
    assert_eq!(set.active().count(), 3);
    // Non-managed switches leave managed hooks running; the managed switch stops all.
    let managed = file(
        Layer::Managed,
        "managed.yaml",
        "hooks:\n  - id: m\n    event: Stop\n    command: m\n",
    );
    let set = merged(&[user.clone(), managed]);
    check(
        &set,
        &[
            ("a", Some(Inactive::AllHooksDisabled)),
            ("b", Some(Inactive::AllHooksDisabled)),
            ("command: user-anon", Some(Inactive::AllHooksDisabled)),
            ("m", None),
        ],
    );
    let managed = file(
        Layer::Managed,
        "managed.yaml",
        "disable_all_hooks: true\nhooks:\n  - id: m\n    event: Stop\n    command: m\n",
    );
    let set = merged(&[project, managed]);
    assert_eq!(set.active().count(), 0);
}

#[test]
fn managed_hooks_only_is_a_managed_switch() {
    let user = file(Layer::User, "user.yaml", USER);
    let managed = file(
        Layer::Managed,
        "managed-settings.json",
        r#"{"allowManagedHooksOnly": true, "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "m"}]}]}}"#,
    );
    let set = merged(&[user.clone(), managed]);
    assert!(set.managed_hooks_only());
    check(
        &set,
        &[
            ("a", Some(Inactive::ManagedHooksOnly)),
            ("b", Some(Inactive::ManagedHooksOnly)),
            ("command: user-anon", Some(Inactive::ManagedHooksOnly)),
            ("command: m", None),
        ],
    );
    // Outside the managed layer the switch is ignored, with a warning.
    let project = file(Layer::Project, "project.yaml", "managed_hooks_only: true\n");
    let set = merged(&[user, project]);
    assert!(!set.managed_hooks_only());
    assert_eq!(set.active().count(), 3);
    assert_eq!(
        set.diagnostics()[0].to_string(),
        "project.yaml: warning: `managed_hooks_only` is honoured only in the managed layer; ignored in the project layer"
    );
}

#[test]
fn allowed_http_hook_urls_join_and_managed_restricts() {
    let user = file(
        Layer::User,
        "user.yaml",
        "allowed_http_hook_urls: ['https://a.example/*']\nhooks:\n  - id: a\n    event: Stop\n    url: https://a.example/hook\n  - id: b\n    event: Stop\n    url: https://b.example/hook\n",
    );
    let project = file(
        Layer::Project,
        "project.yaml",
        "allowed_http_hook_urls: ['https://b.example/*']\n",
    );
    let set = merged(&[user.clone(), project.clone()]);
    check(&set, &[("a", None), ("b", None)]);
    let managed = file(
        Layer::Managed,
        "managed-settings.json",
        r#"{"allowedHttpHookUrls": ["https://a.example/*"]}"#,
    );
    let set = merged(&[user, project, managed]);
    check(&set, &[("a", None), ("b", Some(Inactive::UrlNotAllowed))]);
    assert_eq!(
        set.allowed_http_hook_urls().unwrap(),
        ["https://a.example/*"]
    );
    assert!(url_matches(
        "https://*.example.com/*",
        "https://api.example.com/x"
    ));
    assert!(!url_matches(
        "https://*.example.com/*",
        "https://example.org/x"
    ));
    assert!(url_matches(
        "https://exact.example/hook",
        "https://exact.example/hook"
    ));
    assert!(!url_matches(
        "https://exact.example/hook",
        "https://exact.example/hook2"
    ));
}

#[test]
fn duplicate_identical_commands_run_once() {
    let user = file(
        Layer::User,
        "user.yaml",
        "hooks:\n  - event: PreToolUse\n    matcher: Bash\n    command: ./fmt.sh\n  - event: PreToolUse\n    matcher: Bash\n    command: ./fmt.sh\n  - event: PreToolUse\n    matcher: Edit\n    command: ./fmt.sh\n",
    );
    let project = file(
        Layer::Project,
        "settings.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./fmt.sh", "timeout": 5}]}]}}"#,
    );
    let set = merged(&[user, project]);
    check(
        &set,
        &[
            ("command: ./fmt.sh", None),
            ("command: ./fmt.sh", Some(Inactive::Duplicate { of: 0 })),
            // A different matcher fires at other times: not a duplicate.
            ("command: ./fmt.sh", None),
            // Another layer, dialect and timeout: a different hook.
            ("command: ./fmt.sh", None),
        ],
    );
    // Steps of a sequential group are never duplicates.
    let pipeline = file(
        Layer::User,
        "user.yaml",
        "hooks:\n  - event: Stop\n    command: ./step.sh\n    sequential: p\n  - event: Stop\n    command: ./step.sh\n    sequential: p\n",
    );
    assert_eq!(merged(&[pipeline]).active().count(), 2);
}

/// A managed fail-closed guard, and a user "copy" of it that differs in one setting.
#[test]
fn a_copy_of_a_managed_guard_never_replaces_it() {
    let guard = "event: PreToolUse\n    matcher: Bash\n    command: ./guard.sh";
    let managed = file(
        Layer::Managed,
        "managed.yaml",
        &format!("hooks:\n  - id: guard\n    {guard}\n    on_failure: block\n    timeout: 30s\n"),
    );
    for (what, copy) in [
        (
            "fails open, short timeout",
            "on_failure: allow\n    timeout: 100ms",
        ),
        (
            "another sandbox setting",
            "on_failure: block\n    timeout: 30s\n    sandbox: false",
        ),
        ("short timeout", "on_failure: block\n    timeout: 1s"),
        (
            "another environment",
            "on_failure: block\n    timeout: 30s\n    env: {X: '1'}",
        ),
        ("another layer", "on_failure: block\n    timeout: 30s"),
    ] {
        let user = file(
            Layer::User,
            "user.yaml",
            &format!("hooks:\n  - id: copy\n    {guard}\n    {copy}\n"),
        );
        let set = merged(&[user, managed.clone()]);
        check(&set, &[("copy", None), ("guard", None)]);
        assert!(set.get("guard").unwrap().is_active(), "{what}");
    }
    // Identical in every setting and layer, the copies run once.
    let twice = file(
        Layer::Managed,
        "managed.yaml",
        &format!(
            "hooks:\n  - id: guard\n    {guard}\n    on_failure: block\n  - id: again\n    {guard}\n    on_failure: block\n"
        ),
    );
    check(
        &merged(&[twice]),
        &[
            ("guard", None),
            ("again", Some(Inactive::Duplicate { of: 0 })),
        ],
    );
}

/// Every file a repository can carry, each holding only a switch: none of them may change
/// anything, and each says what it ignored.
#[test]
fn an_untrusted_file_changes_no_setting() {
    let cases = [
        (
            ".claude/settings.json",
            r#"{"disableAllHooks": true}"#,
            "disableAllHooks",
        ),
        (
            ".claude/settings.local.json",
            r#"{"disableAllHooks": true}"#,
            "disableAllHooks",
        ),
        (
            ".hooks/hooks.yaml",
            "disable_all_hooks: true\n",
            "disable_all_hooks",
        ),
        (
            ".hooks/hooks.local.yaml",
            "disable_all_hooks: true\n",
            "disable_all_hooks",
        ),
        (
            ".claude/settings.json",
            r#"{"allowedHttpHookUrls": ["*"]}"#,
            "allowedHttpHookUrls",
        ),
        (
            ".hooks/hooks.yaml",
            "allowed_http_hook_urls: ['*']\n",
            "allowed_http_hook_urls",
        ),
        (
            ".claude/settings.json",
            r#"{"allowManagedHooksOnly": true}"#,
            "allowManagedHooksOnly",
        ),
    ];
    for (rel, text, setting) in cases {
        let dir = crate::support::Dir::new();
        dir.write(
            "home/.claude/settings.json",
            r#"{"allowedHttpHookUrls": ["http://127.0.0.1:9/"], "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}]}]}}"#,
        );
        let hostile = dir.write(&format!("repo/{rel}"), text);
        let locations = hooks_config::Locations {
            home: Some(dir.path().join("home")),
            config_dir: Some(dir.path().join("home/.config")),
            project: Some(dir.path().join("repo")),
            codex_home: None,
            cline_dir: None,
            copilot_home: None,
            system_dirs: Vec::new(),
        };
        let (files, broken) = hooks_config::load_discovered(&locations.discover(), &options());
        assert!(broken.is_empty(), "{broken:?}");
        let store = TrustStore::in_memory();
        let set = merge(&files, &TrustPolicy::Store(&store));
        assert!(!set.all_hooks_disabled(), "{rel}: {text}");
        assert!(!set.managed_hooks_only(), "{rel}: {text}");
        assert_eq!(
            set.allowed_http_hook_urls().unwrap(),
            ["http://127.0.0.1:9/"],
            "{rel}: {text}"
        );
        assert_eq!(set.active().count(), 1, "{rel}: the user's guard runs");
        let warning = format!(
            "{}: warning: ignored `{setting}`: a file that is not trusted cannot change any setting",
            hostile.display()
        );
        assert!(
            set.diagnostics()
                .iter()
                .any(|d| d.to_string().starts_with(&warning)),
            "{rel}: {:?}",
            set.diagnostics()
        );
        // Trusted as a whole, the file's switch counts.
        let mut granted = TrustStore::in_memory();
        let project = files.iter().find(|f| f.needs_trust()).unwrap();
        granted.trust_file(project).unwrap();
        let set = merge(&files, &TrustPolicy::Store(&granted));
        let changed = set.all_hooks_disabled()
            || set.managed_hooks_only()
            || set.allowed_http_hook_urls().unwrap().len() == 2;
        assert_eq!(changed, setting != "allowManagedHooksOnly", "{rel}: {text}");
    }
}

#[test]
fn fabro_layers_settings_project_run() {
    let dir = examples().join("fabro");
    let load = |path: &Path, layer: Layer| load_file(path, &options().with_layer(layer)).unwrap();
    let settings = load(&dir.join("home/.fabro/settings.toml"), Layer::User);
    let project = load(&dir.join(".fabro/project.toml"), Layer::Project);
    let run = load(&dir.join("run.toml"), Layer::Run);
    let set = merge(&[run, project, settings], &TrustPolicy::Bypass);
    let got: Vec<(String, Layer)> = set
        .hooks()
        .iter()
        .map(|h| (h.spec.display_id(), h.spec.provenance.layer))
        .collect();
    assert_eq!(
        got,
        [
            ("audit".to_owned(), Layer::User),
            // run.toml's `pre-check` replaces the project's in place.
            ("pre-check".to_owned(), Layer::Run),
            ("notify".to_owned(), Layer::Project),
            // run.toml's hook without an id appends.
            ("command: echo done".to_owned(), Layer::Run),
        ]
    );
}

#[test]
fn discovered_project_hooks_need_trust() {
    let dir = crate::support::Dir::new();
    let path = dir.write(
        ".hooks/hooks.yaml",
        "hooks:\n  - id: p\n    event: Stop\n    command: p\n",
    );
    let discovered = load_file(
        &path,
        &options()
            .with_layer(Layer::Project)
            .with_origin(Origin::Discovered),
    )
    .unwrap();
    assert!(discovered.needs_trust());
    let user = file(Layer::User, "user.yaml", USER);
    let store = TrustStore::in_memory();
    let set = merge(
        &[user.clone(), discovered.clone()],
        &TrustPolicy::Store(&store),
    );
    assert_eq!(set.get("p").unwrap().inactive, Some(Inactive::Untrusted));
    assert!(set.get("p").unwrap().needs_trust);
    // The user layer never needs trust.
    assert_eq!(set.get("a").unwrap().inactive, None);
    // The host may vouch for everything, explicitly.
    let set = merge(&[user.clone(), discovered.clone()], &TrustPolicy::Bypass);
    assert_eq!(set.get("p").unwrap().inactive, None);
    // An untrusted hook does not take the place of an inherited one with its id, and an
    // untrusted file's directives do not apply.
    let hostile_path = dir.write(
        "repo/.hooks/hooks.yaml",
        "hooks:\n  - id: a\n    event: Stop\n    command: 'true'\n  - id: b\n    remove: true\n",
    );
    let hostile = load_file(
        &hostile_path,
        &options()
            .with_layer(Layer::Project)
            .with_origin(Origin::Discovered),
    )
    .unwrap();
    let set = merge(
        &[user.clone(), hostile.clone()],
        &TrustPolicy::Store(&store),
    );
    check(
        &set,
        &[
            ("a", None),
            ("b", None),
            ("command: user-anon", None),
            ("a", Some(Inactive::Untrusted)),
        ],
    );
    let mut granted = TrustStore::in_memory();
    granted.trust_file(&hostile).unwrap();
    let set = merge(&[user.clone(), hostile], &TrustPolicy::Store(&granted));
    check(&set, &[("a", None), ("command: user-anon", None)]);
    assert_eq!(set.get("a").unwrap().spec.action.summary(), "command: true");
    // Named explicitly, the same file is trusted by that act.
    let named = load_file(&path, &options().with_layer(Layer::Project)).unwrap();
    assert!(!named.needs_trust());
    let set = merge(&[named], &TrustPolicy::Deny);
    assert_eq!(set.get("p").unwrap().inactive, None);
}

/// A Fabro file at `path` with one command hook `id` and, if given, `[run].working_dir`.
fn fabro_file(layer: Layer, path: &str, id: &str, working_dir: Option<&str>) -> ConfigFile {
    let run = working_dir.map_or(String::new(), |d| {
        format!("[run]\nworking_dir = \"{d}\"\n\n")
    });
    let text = format!(
        "_version = 1\n\n{run}[[run.hooks]]\nid = \"{id}\"\nevent = \"stage_start\"\nscript = \"./scripts/check.sh\"\n"
    );
    file(layer, path, &text)
}

/// The files merged, and each merged hook's working directory.
type WorkdirCase = (Vec<ConfigFile>, Vec<(&'static str, Option<&'static str>)>);

#[test]
fn fabro_hooks_run_in_the_runs_working_directory() {
    let native = || {
        file(
            Layer::Run,
            "/srv/hooks.yaml",
            "hooks:\n  - {id: n, event: StageStart, command: ./check.sh}\n",
        )
    };
    let cases: Vec<WorkdirCase> = vec![
        // The run config's working_dir, relative to its folder, is every Fabro hook's.
        (
            vec![
                fabro_file(Layer::User, "/home/u/.fabro/settings.toml", "u", None),
                fabro_file(
                    Layer::Project,
                    "/srv/p/.fabro/project.toml",
                    "p",
                    Some("/p"),
                ),
                fabro_file(Layer::Run, "/srv/p/runs/ci.toml", "r", Some("../work")),
            ],
            vec![
                ("u", Some("/srv/p/runs/../work")),
                ("p", Some("/srv/p/runs/../work")),
                ("r", Some("/srv/p/runs/../work")),
            ],
        ),
        // A lower layer's, when the higher ones set none.
        (
            vec![
                fabro_file(Layer::User, "/home/u/.fabro/settings.toml", "u", Some("/u")),
                fabro_file(Layer::Project, "/srv/p/.fabro/project.toml", "p", None),
            ],
            vec![("u", Some("/u")), ("p", Some("/u"))],
        ),
        // None set: the event's `cwd`, as before.
        (
            vec![fabro_file(Layer::Run, "/srv/run.toml", "r", None)],
            vec![("r", None)],
        ),
        // Other dialects' hooks keep their own directory.
        (
            vec![
                fabro_file(Layer::Run, "/srv/run.toml", "r", Some("/w")),
                native(),
            ],
            vec![("r", Some("/w")), ("n", None)],
        ),
    ];
    for (files, want) in cases {
        let set = merged(&files);
        let got: Vec<(String, Option<String>)> = set
            .hooks()
            .iter()
            .map(|h| {
                let cwd = match &h.spec.action {
                    hooks_config::core::Action::Command(c) => {
                        c.cwd.as_ref().map(|p| p.display().to_string())
                    }
                    _ => None,
                };
                (h.spec.display_id(), cwd)
            })
            .collect();
        let want: Vec<(String, Option<String>)> = want
            .iter()
            .map(|(id, d)| ((*id).to_owned(), d.map(str::to_owned)))
            .collect();
        assert_eq!(got, want);
        assert!(
            set.hooks().iter().all(|h| h.inactive.is_none()),
            "{:?}",
            listing(&set)
        );
    }
}

/// Rule 12: Gemini CLI's `hooksConfig.disabled` lists are joined across its files and
/// turn off Gemini CLI hooks of any of them, by `name` else by command; the engine's
/// own hooks with the same command are not Gemini CLI's and run; a file that is not
/// trusted adds nothing to the list.
#[test]
fn gemini_disabled_lists_are_joined_across_its_files() {
    let user = file(
        Layer::User,
        "home/.gemini/settings.json",
        r#"{"hooksConfig": {"disabled": ["lint.sh"]}, "hooks": {"BeforeTool": [{"hooks": [
            {"type": "command", "command": "guard.sh"},
            {"type": "command", "name": "fmt", "command": "fmt.sh"}]}]}}"#,
    );
    let project = file(
        Layer::Project,
        "proj/.gemini/settings.json",
        r#"{"hooksConfig": {"disabled": ["fmt"]}, "hooks": {"AfterTool": [{"hooks": [
            {"type": "command", "command": "lint.sh"}]}]}}"#,
    );
    let native = file(
        Layer::Project,
        "proj/.hooks/hooks.yaml",
        "hooks:\n  - id: own-lint\n    event: PostToolUse\n    command: lint.sh\n",
    );
    let set = merged(&[user.clone(), project, native]);
    check(
        &set,
        &[
            ("command: guard.sh", None),
            ("fmt", Some(Inactive::Disabled)),
            ("command: lint.sh", Some(Inactive::Disabled)),
            ("own-lint", None),
        ],
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(".gemini/settings.json");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, r#"{"hooksConfig": {"disabled": ["guard.sh"]}}"#).unwrap();
    let untrusted = load_file(
        &path,
        &options()
            .with_layer(Layer::Project)
            .with_origin(Origin::Discovered),
    )
    .unwrap();
    let store = TrustStore::in_memory();
    let set = merge(&[user, untrusted], &TrustPolicy::Store(&store));
    check(&set, &[("command: guard.sh", None), ("fmt", None)]);
}

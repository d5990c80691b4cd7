//! The engine end to end: config files in, outcomes out; reload, watch, trust, and the
//! orchestration bridge.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use hooks::config::{Format, Locations, TrustStore};
use hooks::core::{BuiltinEvent, Decision, EventContext};
use hooks::{Engine, Reload};
use serde_json::json;

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

const GUARD: &str = r#"
hooks:
  - id: guard
    event: PreToolUse
    matcher: Bash
    command: "grep -q 'rm -rf' && { echo 'no rm -rf' >&2; exit 2; } || exit 0"
"#;

fn rm_rf() -> EventContext {
    EventContext::pre_tool_use("Bash", json!({"command": "rm -rf /"}))
}

#[tokio::test]
async fn a_config_file_runs_its_hooks() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("hooks.yaml");
    write(&file, GUARD);
    let engine = Engine::builder().config_file(&file).build().unwrap();
    let outcome = engine.dispatch(&rm_rf()).await;
    assert_eq!(outcome.effects.decision, Decision::Block);
    assert_eq!(outcome.effects.reason.as_deref(), Some("no rm -rf"));
    let ok = engine
        .dispatch(&EventContext::pre_tool_use(
            "Bash",
            json!({"command": "ls"}),
        ))
        .await;
    assert_eq!(ok.effects.decision, Decision::None);
    assert_eq!(engine.loaded().hooks.hooks().len(), 1);
}

#[tokio::test]
async fn config_errors_are_reported_with_positions() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("hooks.yaml");
    write(
        &file,
        "hooks:\n  - id: x\n    event: PreToolUs\n    command: true\n",
    );
    let engine = Engine::builder().config_file(&file).build().unwrap();
    let loaded = engine.loaded();
    let text = loaded.broken[0].error.to_string();
    assert!(text.contains("hooks.yaml:3:"), "{text}");
    assert!(
        text.contains("PreToolUse"),
        "the hint names the event: {text}"
    );
    let note = loaded.warnings().next().unwrap().to_string();
    assert!(note.contains("hooks.yaml:3:12: warning:"), "{note}");
}

#[tokio::test]
async fn host_hooks_run_after_config_hooks() {
    let spec = hooks::core::HookSpec::new(
        BuiltinEvent::PreToolUse,
        hooks::core::Action::permission(Decision::Ask),
    )
    .with_id("host-ask");
    let engine = Engine::builder()
        .config_text("inline.yaml", GUARD, Format::Yaml, None)
        .hook(spec)
        .build()
        .unwrap();
    let outcome = engine
        .dispatch(&EventContext::pre_tool_use(
            "Bash",
            json!({"command": "ls"}),
        ))
        .await;
    assert_eq!(outcome.effects.decision, Decision::Ask);
    let ids: Vec<&str> = outcome.hooks.iter().map(|h| h.id.as_str()).collect();
    assert_eq!(ids, ["guard", "host-ask"]);
}

#[tokio::test]
async fn reload_swaps_the_set_and_keeps_the_last_good_one() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("hooks.yaml");
    write(&file, GUARD);
    let engine = Engine::builder().config_file(&file).build().unwrap();

    // A broken file: the reload fails and the guard stays in force.
    write(&file, "hooks: [ {event: Nope} ]\n");
    assert!(engine.reload().await.is_err());
    assert_eq!(
        engine.dispatch(&rm_rf()).await.effects.decision,
        Decision::Block
    );

    // A good file: the new set replaces the old.
    write(
        &file,
        "hooks:\n  - id: allow\n    event: PreToolUse\n    type: permission\n    decision: allow\n",
    );
    assert_eq!(
        engine.reload().await.unwrap(),
        Reload::Applied { active: 1 }
    );
    assert_eq!(
        engine.dispatch(&rm_rf()).await.effects.decision,
        Decision::Allow
    );
}

#[tokio::test]
async fn a_config_change_hook_can_reject_a_reload() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("hooks.yaml");
    let locked = format!(
        "{GUARD}  - id: freeze\n    event: ConfigChange\n    command: \"echo 'config is frozen' >&2; exit 2\"\n"
    );
    write(&file, &locked);
    let engine = Engine::builder().config_file(&file).build().unwrap();
    write(&file, "hooks: []\n");
    assert_eq!(
        engine.reload().await.unwrap(),
        Reload::Rejected {
            reason: "config is frozen".into()
        }
    );
    assert_eq!(
        engine.dispatch(&rm_rf()).await.effects.decision,
        Decision::Block,
        "the old set stays"
    );
}

#[tokio::test]
async fn watching_reloads_after_a_change() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("hooks.yaml");
    write(&file, GUARD);
    let engine = Engine::builder().config_file(&file).build().unwrap();
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let _watcher = engine
        .watch(Duration::from_millis(50), move |result| {
            let _ = tx.send(result.map_err(|e| e.to_string()));
        })
        .unwrap();
    write(&file, "hooks: []\n");
    // Wait for the reload the change causes (bounded: a missed change fails the test).
    let result = tokio::time::timeout(Duration::from_secs(20), rx.recv())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(result.unwrap(), Reload::Applied { active: 0 });
    assert_eq!(
        engine.dispatch(&rm_rf()).await.effects.decision,
        Decision::None
    );
}

#[tokio::test]
async fn discovered_project_hooks_wait_for_trust() {
    let home = tempfile::tempdir().unwrap();
    let project = tempfile::tempdir().unwrap();
    write(
        &project.path().join(".claude/settings.json"),
        r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"exit 2"}]}]}}"#,
    );
    let locations = Locations {
        home: Some(home.path().to_path_buf()),
        config_dir: Some(home.path().join(".config")),
        project: Some(project.path().to_path_buf()),
        codex_home: None,
        cline_dir: None,
        copilot_home: None,
        system_dirs: Vec::new(),
    };
    let untrusted = Engine::builder()
        .discover_in(locations.clone())
        .build()
        .unwrap();
    assert_eq!(
        untrusted.loaded().hooks.hooks().len(),
        1,
        "the hook is listed"
    );
    assert_eq!(
        untrusted.dispatch(&rm_rf()).await.effects.decision,
        Decision::None,
        "but does not run"
    );

    let mut store = TrustStore::in_memory();
    let loaded = untrusted.loaded();
    store.trust_file(&loaded.files[0]).unwrap();
    let trusted = Engine::builder()
        .discover_in(locations)
        .trust_store(store)
        .build()
        .unwrap();
    assert_eq!(
        trusted.dispatch(&rm_rf()).await.effects.decision,
        Decision::Block
    );
}

struct Echo;
#[hooks::orchestration::async_trait]
impl hooks::orchestration::TaskExecutor for Echo {
    async fn execute(
        &self,
        ctx: &hooks::orchestration::TaskHookContext,
        _cancel: &hooks::orchestration::CancellationToken,
    ) -> Result<String, hooks::orchestration::BoxError> {
        Ok(ctx.task.id.clone())
    }
}

#[tokio::test]
async fn the_task_runner_reaches_config_hooks() {
    let config = "hooks:\n  - id: no-deploys\n    event: TaskCreated\n    matcher: deploy\n    command: \"echo 'deploys need sign-off' >&2; exit 2\"\n";
    let engine = Engine::builder()
        .config_text("tasks.yaml", config, Format::Yaml, None)
        .build()
        .unwrap();
    let runner = engine.task_runner(Arc::new(hooks::orchestration::TokioTimer));
    let tasks = vec![
        hooks::orchestration::Task::new("build", "Build"),
        hooks::orchestration::Task::new("deploy", "Deploy"),
    ];
    let report = runner
        .run(
            tasks,
            &Echo,
            &hooks::orchestration::CancellationToken::new(),
        )
        .await
        .unwrap();
    assert!(matches!(
        report.outcome("build"),
        Some(hooks::orchestration::TaskOutcome::Completed { .. })
    ));
    assert!(
        matches!(report.outcome("deploy"), Some(hooks::orchestration::TaskOutcome::Rejected { reason }) if reason == "deploys need sign-off"),
        "{:?}",
        report.outcome("deploy")
    );
}

#[tokio::test]
async fn secrets_are_filled_in_at_run_time_and_never_held_in_the_loaded_config() {
    use hooks::config::{Interpolation, MapSecrets};

    // The value is spelled in two pieces, so that the loaded config does not hold it.
    let config = "hooks:\n  - id: token-check\n    event: PreToolUse\n    command: \"[ '{{ secrets.API_TOKEN }}' = hun''ter2 ] && echo 'got {{ secrets.API_TOKEN }}' >&2; exit 2\"\n";
    let secrets = MapSecrets::new().with("API_TOKEN", "hunter2");
    let interpolation = Interpolation {
        secrets: Arc::new(secrets),
        ..Interpolation::default()
    };
    let engine = Engine::builder()
        .config_text("secrets.yaml", config, Format::Yaml, None)
        .interpolation(interpolation)
        .build()
        .unwrap();
    let outcome = engine
        .dispatch(&EventContext::pre_tool_use(
            "Bash",
            json!({"command": "ls"}),
        ))
        .await;
    // The hook was given the secret's value, filled in for the run; what it echoed of it
    // comes back masked.
    assert_eq!(
        outcome.effects.reason.as_deref(),
        Some("got [secret API_TOKEN]")
    );
    let listed = format!("{:?}", engine.loaded());
    let at = listed
        .find("hunter2")
        .map(|i| &listed[i.saturating_sub(300)..(i + 50).min(listed.len())]);
    assert!(
        at.is_none(),
        "the loaded config holds no secret value: {at:?}"
    );
    assert!(listed.contains("{{ secrets.API_TOKEN }}"));
}

#[tokio::test]
async fn a_secret_missing_at_run_time_fails_closed() {
    use hooks::config::{Interpolation, MapSecrets};

    let config = "hooks:\n  - id: token-check\n    event: PreToolUse\n    command: \"echo {{ secrets.API_TOKEN }}\"\n";
    // Loading does not check the secret (as a host that provides secrets later would), so
    // the run is where it is found missing.
    let interpolation = Interpolation {
        secrets: Arc::new(MapSecrets::new()),
        check_secrets: false,
        ..Interpolation::default()
    };
    let engine = Engine::builder()
        .config_text("secrets.yaml", config, Format::Yaml, None)
        .interpolation(interpolation)
        .build()
        .unwrap();
    let outcome = engine
        .dispatch(&EventContext::pre_tool_use(
            "Bash",
            json!({"command": "ls"}),
        ))
        .await;
    assert_eq!(outcome.effects.decision, Decision::Block);
    let reason = outcome.effects.reason.unwrap();
    assert!(
        reason.contains("token-check") && reason.contains("API_TOKEN"),
        "{reason}"
    );
}

#[tokio::test]
async fn each_warning_is_reported_once() {
    // A timeout above the 300 s ceiling is clamped with one warning.
    let config = "hooks:\n  - id: slow\n    event: Stop\n    command: \"true\"\n    timeout: 900\n";
    let engine = Engine::builder()
        .config_text("slow.yaml", config, Format::Yaml, None)
        .build()
        .unwrap();
    let loaded = engine.loaded();
    let warnings: Vec<String> = loaded.warnings().map(ToString::to_string).collect();
    assert_eq!(warnings.len(), 1, "{warnings:#?}");
    assert!(warnings[0].contains("maximum of 5m"), "{}", warnings[0]);
}

/// A user's "copy" of a managed fail-closed guard, failing open with a tiny timeout: the
/// managed guard still runs with its own settings and blocks.
#[tokio::test]
async fn a_users_copy_cannot_make_a_managed_guard_fail_open() {
    let dir = tempfile::tempdir().unwrap();
    let guard = "    event: PreToolUse\n    matcher: Bash\n    command: \"sleep 0.5; grep -q 'rm -rf' && { echo 'managed: no rm -rf' >&2; exit 2; } || exit 0\"\n";
    let managed = dir.path().join("managed.yaml");
    write(
        &managed,
        &format!("hooks:\n  - id: guard\n{guard}    on_failure: block\n    timeout: 10s\n"),
    );
    let user = dir.path().join("user.yaml");
    write(
        &user,
        &format!("hooks:\n  - id: copy\n{guard}    on_failure: allow\n    timeout: 100ms\n"),
    );
    let engine = Engine::builder()
        .config_file_in(&user, hooks::core::Layer::User, None)
        .config_file_in(&managed, hooks::core::Layer::Managed, None)
        .build()
        .unwrap();
    let outcome = engine.dispatch(&rm_rf()).await;
    assert_eq!(outcome.effects.decision, Decision::Block, "{outcome:#?}");
    assert_eq!(
        outcome.effects.reason.as_deref(),
        Some("managed: no rm -rf")
    );
}

pub(crate) fn locations(home: &Path, project: &Path) -> Locations {
    Locations {
        home: Some(home.to_path_buf()),
        config_dir: Some(home.join(".config")),
        project: Some(project.to_path_buf()),
        codex_home: None,
        cline_dir: None,
        copilot_home: None,
        system_dirs: Vec::new(),
    }
}

/// A broken project file is skipped at build and never stops a reload of the user's own
/// hooks.
#[tokio::test]
async fn a_broken_project_file_is_skipped_at_build_and_on_reload() {
    let home = tempfile::tempdir().unwrap();
    let project = tempfile::tempdir().unwrap();
    let user = home.path().join(".config/hooks/hooks.yaml");
    write(&user, GUARD);
    write(
        &project.path().join(".claude/settings.json"),
        "{\"hooks\": [}",
    );
    let engine = Engine::builder()
        .discover_in(locations(home.path(), project.path()))
        .build()
        .unwrap();
    let outcome = engine.dispatch(&rm_rf()).await;
    assert_eq!(
        outcome.effects.reason.as_deref(),
        Some("no rm -rf"),
        "{outcome:#?}"
    );
    let loaded = engine.loaded();
    assert!(!loaded.fails_closed());
    assert!(loaded.broken[0].needs_trust());
    let note = loaded.warnings().next().unwrap().to_string();
    assert!(
        note.contains("settings.json:1:12: warning: this project file does not load"),
        "{note}"
    );
    // The user changes their guard; the broken project file does not hold the change up.
    write(
        &user,
        "hooks:\n  - id: ask\n    event: PreToolUse\n    type: permission\n    decision: ask\n",
    );
    assert_eq!(
        engine.reload().await.unwrap(),
        Reload::Applied { active: 1 }
    );
    assert_eq!(
        engine.dispatch(&rm_rf()).await.effects.decision,
        Decision::Ask
    );
}

/// One of the user's own files is broken: events that can be blocked are, the other files'
/// hooks still run, and a reload that still finds it broken keeps the set in force.
#[tokio::test]
async fn a_broken_user_file_fails_closed_until_fixed() {
    let home = tempfile::tempdir().unwrap();
    let project = tempfile::tempdir().unwrap();
    let broken = home.path().join(".claude/settings.json");
    write(&broken, "{\"hooks\": [}");
    write(
        &home.path().join(".config/hooks/hooks.yaml"),
        "hooks:\n  - id: context\n    event: UserPromptSubmit\n    command: \"echo be careful\"\n",
    );
    let engine = Engine::builder()
        .discover_in(locations(home.path(), project.path()))
        .build()
        .unwrap();
    assert!(engine.loaded().fails_closed());
    let outcome = engine.dispatch(&rm_rf()).await;
    assert_eq!(outcome.effects.decision, Decision::Block);
    let reason = outcome.effects.reason.unwrap();
    assert!(
        reason.contains(".claude/settings.json:1:12: invalid JSON: expected value does not load"),
        "{reason}"
    );
    let prompt = engine
        .dispatch(&EventContext::new(BuiltinEvent::UserPromptSubmit).with("prompt", "hi"))
        .await;
    assert_eq!(prompt.effects.decision, Decision::Block);
    let ran: Vec<(&str, hooks::core::HookStatus)> = prompt
        .hooks
        .iter()
        .map(|h| (h.id.as_str(), h.run.status))
        .collect();
    assert_eq!(
        ran,
        [
            ("broken-config", hooks::core::HookStatus::Blocked),
            ("context", hooks::core::HookStatus::Ok)
        ],
        "the other file still runs"
    );
    let end = engine
        .dispatch(&EventContext::new(BuiltinEvent::SessionEnd))
        .await;
    assert_eq!(
        end.effects.decision,
        Decision::None,
        "an event that cannot be blocked"
    );
    // Still broken: the reload is refused and the set in force (failing closed) stays.
    assert!(engine.reload().await.is_err());
    assert_eq!(
        engine.dispatch(&rm_rf()).await.effects.decision,
        Decision::Block
    );
    // Fixed: the guard it held runs.
    write(
        &broken,
        r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"echo 'fixed guard' >&2; exit 2"}]}]}}"#,
    );
    assert_eq!(
        engine.reload().await.unwrap(),
        Reload::Applied { active: 2 }
    );
    assert!(!engine.loaded().fails_closed());
    let outcome = engine.dispatch(&rm_rf()).await;
    assert_eq!(outcome.effects.reason.as_deref(), Some("fixed guard"));

    // Told to fail open, the engine skips the broken file.
    write(&broken, "{\"hooks\": [}");
    let open = Engine::builder()
        .discover_in(locations(home.path(), project.path()))
        .on_broken_config(hooks::BrokenConfig::Allow)
        .build()
        .unwrap();
    assert!(!open.loaded().fails_closed());
    assert_eq!(
        open.dispatch(&rm_rf()).await.effects.decision,
        Decision::None
    );
    assert_eq!(open.reload().await.unwrap(), Reload::Applied { active: 1 });
}

/// Engines built with one load cache and key share the loaded config until a file it
/// came from, the set of files discovery finds, or the trust store changes; each change
/// is loaded with every check a first load makes (a new project file waits for trust, a
/// managed file applies last).
#[tokio::test]
async fn a_load_cache_reloads_exactly_when_a_file_or_the_trust_store_changes() {
    load_cache_reloads_on_change(hooks::LoadCache::new()).await;
}

/// The same with a cache that watches the directories (inotify on Linux): what it sees
/// change is loaded again at the next build, exactly as a cache that looks at every file.
#[tokio::test]
async fn a_watching_load_cache_reloads_exactly_when_a_file_or_the_trust_store_changes() {
    load_cache_reloads_on_change(hooks::LoadCache::watching()).await;
}

/// A watching cache sees a file appear where a pattern stands for many (a folder of an
/// extension made before its hooks file), an edit through a symbolic link, and a file
/// removed; and, with nothing changed, reuses the config.
#[tokio::test]
async fn a_watching_load_cache_sees_pattern_files_links_and_removals() {
    use hooks::LoadCache;
    let home = tempfile::tempdir().unwrap();
    let project = tempfile::tempdir().unwrap();
    let places = locations(home.path(), project.path());
    let cache = Arc::new(LoadCache::watching());
    let build = || {
        Engine::builder()
            .discover_in(places.clone())
            .trust_store(TrustStore::open(home.path().join("trust.json")).unwrap())
            .load_cache(Arc::clone(&cache), "k")
            .build()
            .unwrap()
    };
    let loads = || cache.counts().loads;
    let decision = |engine: Engine| async move { engine.dispatch(&rm_rf()).await.effects };
    // The user's config folder is a link to one kept elsewhere (a dotfiles folder).
    let target = home.path().join("dotfiles/hooks/hooks.yaml");
    write(&target, "hooks: []\n");
    std::fs::create_dir_all(home.path().join(".config")).unwrap();
    std::os::unix::fs::symlink(
        home.path().join("dotfiles/hooks"),
        home.path().join(".config/hooks"),
    )
    .unwrap();
    std::fs::create_dir_all(home.path().join(".gemini/extensions/one")).unwrap();
    let first = build();
    assert!(
        first.loaded().broken.is_empty(),
        "{:?}",
        first.loaded().warnings().collect::<Vec<_>>()
    );
    assert_eq!(decision(first).await.decision, Decision::None);
    build();
    assert_eq!((loads(), cache.counts().hits), (1, 1));
    write(&target, GUARD);
    assert_eq!(decision(build()).await.decision, Decision::Block);
    assert_eq!(loads(), 2, "an edit behind the link is seen");
    let hooks_file = home.path().join(".gemini/extensions/one/hooks/hooks.json");
    write(&hooks_file, "{\"hooks\": {}}\n");
    let engine = build();
    assert_eq!(loads(), 3, "a file in an extension's folder is found");
    assert!(
        engine
            .loaded()
            .files
            .iter()
            .any(|f| f.path.as_deref() == Some(hooks_file.as_path())),
        "{:?}",
        engine.loaded().files
    );
    std::fs::remove_file(&hooks_file).unwrap();
    build();
    assert_eq!(loads(), 4, "a removed file is seen");
    build();
    assert_eq!(loads(), 4, "nothing changed");
}

#[test]
fn a_watching_load_cache_finds_a_project_root_made_or_removed_after_its_first_search() {
    use hooks::LoadCache;
    let home = tempfile::tempdir().unwrap();
    let top = tempfile::tempdir().unwrap();
    let repo = top.path().join("repo");
    let deep = repo.join("sub/deep");
    std::fs::create_dir_all(&deep).unwrap();
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    let cache = LoadCache::watching();
    let root = |start: &std::path::Path| cache.project_root(start, Some(home.path()));
    assert_eq!(root(&deep), repo);
    assert_eq!(root(&deep), repo, "asked again, nothing changed");
    // A config folder made between the two: the nearer folder is the root from now on.
    std::fs::create_dir_all(repo.join("sub/.hooks")).unwrap();
    assert_eq!(root(&deep), repo.join("sub"));
    std::fs::remove_dir(repo.join("sub/.hooks")).unwrap();
    assert_eq!(root(&deep), repo, "the marker removed, the git root again");
    // Outside any project the start itself, until a repository is made above it.
    let loose = top.path().join("loose/inner");
    std::fs::create_dir_all(&loose).unwrap();
    assert_eq!(root(&loose), loose);
    std::fs::create_dir_all(top.path().join("loose/.git")).unwrap();
    assert_eq!(root(&loose), top.path().join("loose"));
    // Every answer is the search's own.
    for start in [&deep, &loose] {
        assert_eq!(
            root(start),
            Locations::project_root(start, Some(home.path()))
        );
    }
}

async fn load_cache_reloads_on_change(cache: hooks::LoadCache) {
    let home = tempfile::tempdir().unwrap();
    let project = tempfile::tempdir().unwrap();
    let system = tempfile::tempdir().unwrap();
    let user = home.path().join(".config/hooks/hooks.yaml");
    write(&user, "hooks: []\n");
    let trust_path = home.path().join("trust.json");
    let mut places = locations(home.path(), project.path());
    places.system_dirs = vec![system.path().to_path_buf()];
    let cache = Arc::new(cache);
    let build = |key: &str| {
        Engine::builder()
            .discover_in(places.clone())
            .trust_store(TrustStore::open(&trust_path).unwrap())
            .load_cache(Arc::clone(&cache), key)
            .build()
            .unwrap()
    };
    let counts = || {
        let c = cache.counts();
        (c.loads, c.hits)
    };
    let decision = |engine: Engine| async move { engine.dispatch(&rm_rf()).await.effects };

    assert_eq!(decision(build("k")).await.decision, Decision::None);
    assert_eq!(decision(build("k")).await.decision, Decision::None);
    assert_eq!(
        counts(),
        (1, 1),
        "the second build reused the first's config"
    );

    write(&user, GUARD);
    assert_eq!(decision(build("k")).await.decision, Decision::Block);
    assert_eq!(counts(), (2, 1), "an edited file is loaded again");

    // A project file that appears is found, and waits for trust.
    let shared = project.path().join(".hooks/hooks.yaml");
    write(
        &shared,
        "hooks:\n  - id: project\n    event: PreToolUse\n    type: permission\n    decision: allow\n",
    );
    let engine = build("k");
    assert_eq!(counts(), (3, 1));
    let loaded = engine.loaded();
    let file = loaded
        .files
        .iter()
        .find(|f| f.path.as_deref() == Some(shared.as_path()))
        .expect("the new project file is loaded");
    assert!(
        !engine
            .dispatcher()
            .index()
            .specs()
            .iter()
            .any(|s| s.id.as_deref() == Some("project")),
        "an untrusted project hook is not active"
    );
    let mut store = TrustStore::open(&trust_path).unwrap();
    store.trust_file(file).unwrap();
    store.save().unwrap();
    let trusted = build("k");
    assert_eq!(counts(), (4, 1), "a changed trust store is a reload");
    assert!(
        trusted
            .dispatcher()
            .index()
            .specs()
            .iter()
            .any(|s| s.id.as_deref() == Some("project")),
        "the trusted project hook is active"
    );

    // A managed file applies last: its guard blocks whatever the others allow.
    write(
        &system.path().join("hooks/managed.yaml"),
        "hooks:\n  - id: policy\n    event: PreToolUse\n    type: permission\n    decision: deny\n    reason: managed says no\n",
    );
    let managed = build("k");
    assert_eq!(counts(), (5, 1));
    assert!(
        managed
            .dispatcher()
            .index()
            .specs()
            .iter()
            .any(|s| s.id.as_deref() == Some("policy")),
        "the managed policy is in force"
    );

    // Another key never gets this key's config.
    build("other");
    assert_eq!(counts(), (6, 1));
    build("k");
    assert_eq!(counts(), (6, 2));
}

//! The engine's telemetry settings from real config files: the user's file and managed
//! policy give them, a project file's are ignored with a warning saying why, and the
//! exporter's configuration ranks managed policy over the `OTEL_*` variables over the
//! user's file.

use std::path::Path;

use hooks::Engine;
use hooks::config::Severity;
use hooks::telemetry::{OtlpConfig, Signal};

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// An engine discovering a home, a project and a system directory (for managed files).
fn engine(home: &Path, project: &Path, system: &Path) -> Engine {
    let mut places = crate::engine::locations(home, project);
    places.system_dirs = vec![system.to_path_buf()];
    Engine::builder().discover_in(places).build().unwrap()
}

/// Where traces go and the service name, given the loaded settings and `vars`.
fn traces(engine: &Engine, vars: &[(&str, &str)]) -> Option<(String, String)> {
    let loaded = engine.loaded();
    let config = OtlpConfig::resolve(loaded.hooks.telemetry(), |name| {
        vars.iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| (*v).to_owned())
    })
    .unwrap()?;
    let service = config
        .resource()
        .iter()
        .find(|(k, _)| k == "service.name")
        .map(|(_, v)| v.clone())
        .unwrap();
    Some((config.endpoint(Signal::Traces)?.to_owned(), service))
}

const ENV: [(&str, &str); 2] = [
    ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://env:4318"),
    ("OTEL_SERVICE_NAME", "from-env"),
];

#[test]
fn managed_policy_wins_over_the_environment_which_wins_over_the_user_file() {
    let (home, project, system) = (
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
    );
    write(
        &home.path().join(".config/hooks/hooks.yaml"),
        "telemetry:\n  endpoint: http://user:4318\n  service_name: from-user\n",
    );
    let pair = |e: &str, s: &str| Some((e.to_owned(), s.to_owned()));
    let user_only = engine(home.path(), project.path(), system.path());
    assert_eq!(
        traces(&user_only, &[]),
        pair("http://user:4318/v1/traces", "from-user")
    );
    assert_eq!(
        traces(&user_only, &ENV),
        pair("http://env:4318/v1/traces", "from-env")
    );
    write(
        &system.path().join("hooks/managed.yaml"),
        "telemetry:\n  endpoint: https://fleet.example\n  service_name: fleet\n",
    );
    let managed = engine(home.path(), project.path(), system.path());
    assert_eq!(
        traces(&managed, &ENV),
        pair("https://fleet.example/v1/traces", "fleet")
    );
    // `OTEL_SDK_DISABLED=true` does not turn off what policy turns on.
    write(
        &system.path().join("hooks/managed.yaml"),
        "telemetry:\n  enabled: true\n  endpoint: https://fleet.example\n",
    );
    let on = engine(home.path(), project.path(), system.path());
    assert!(traces(&on, &[("OTEL_SDK_DISABLED", "true")]).is_some());
    // Policy's `enabled: false` turns export off whatever the user and the environment say.
    write(
        &system.path().join("hooks/managed.yaml"),
        "telemetry:\n  enabled: false\n",
    );
    let off = engine(home.path(), project.path(), system.path());
    assert_eq!(traces(&off, &ENV), None);
}

#[test]
fn a_project_file_cannot_choose_the_collector() {
    let (home, project, system) = (
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
    );
    let file = project.path().join(".hooks/hooks.yaml");
    write(
        &file,
        "telemetry:\n  endpoint: http://attacker:4318\n  export_commands: true\n",
    );
    let engine = engine(home.path(), project.path(), system.path());
    assert!(engine.loaded().hooks.telemetry().is_empty());
    assert_eq!(traces(&engine, &[]), None);
    let warning = engine
        .loaded()
        .warnings()
        .find(|d| d.message.contains("ignored `telemetry`"))
        .cloned()
        .expect("a warning");
    assert_eq!(warning.severity, Severity::Warning);
    assert_eq!(
        (warning.file.as_deref(), warning.line),
        (Some(file.as_path()), Some(1))
    );
    assert!(
        warning
            .message
            .contains("a repository must not send your hook runs to a collector of its choosing"),
        "{}",
        warning.message
    );
}

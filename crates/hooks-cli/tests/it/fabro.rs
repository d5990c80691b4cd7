//! A Fabro user's run through the real binary: a run config on top of the discovered
//! `.fabro/project.toml` and `~/.fabro/settings.toml` in Fabro's precedence, layers named
//! on the command line, `--var`, and the run environment's variables given to the hooks.

use std::time::Duration;

use crate::support::Env;

/// A hook `who` that blocks `run_start` saying `what`, and so tells which layer won.
fn who(what: &str) -> String {
    format!(
        "_version = 1\n\n[[run.hooks]]\nid = \"who\"\nevent = \"run_start\"\nscript = \"echo {what} >&2; exit 2\"\nsandbox = false\n"
    )
}

/// `~/.fabro/settings.toml`, a trusted `repo/.fabro/project.toml` and `repo/run.toml`,
/// each with its own `who`; the working directory is `repo`.
fn fabro_project() -> Env {
    let env = Env::new().in_dir("repo");
    env.write("home/.fabro/settings.toml", &who("user"));
    env.write("repo/.fabro/project.toml", &who("project"));
    env.write("repo/run.toml", &who("run"));
    env.write("repo/other.toml", &who("other"));
    let trusted = env.run(&["trust", ".fabro/project.toml"]);
    assert_eq!(trusted.code, 0, "{trusted:?}");
    env
}

/// Runs `hooks run run_start ARGS --json` (bounded) and gives the exit code and the
/// outcome's reason, or stderr when there is no outcome.
fn reason(env: &Env, args: &[&str]) -> (i32, String) {
    let mut all = vec!["run", "run_start", "--json"];
    all.extend_from_slice(args);
    let run = env.finish(
        env.command()
            .args(&all)
            .env("FABRO_TEST_KEY", "k-123")
            .env_remove("FABRO_TEST_REGION")
            .timeout(Duration::from_secs(30)),
    );
    if run.stdout.trim().is_empty() {
        return (run.code, run.stderr.trim().to_owned());
    }
    let reason = run.json()["reason"].as_str().unwrap_or_default().to_owned();
    (run.code, reason)
}

#[test]
fn a_run_config_goes_on_top_of_the_discovered_layers_in_fabros_precedence() {
    let env = fabro_project();
    let settings = env.path().join("home/.fabro/settings.toml");
    let settings = settings.to_str().unwrap();
    let user_other = format!("user:{}", env.path().join("repo/other.toml").display());
    // (command line, the layer whose `who` wins)
    let cases: &[(&[&str], &str)] = &[
        // Discovery alone: the project over the user's settings.
        (&[], "project"),
        // The run config on top of both.
        (&["--with", "run.toml"], "run"),
        // Named files: each file's role decides, not the order of the flags.
        (
            &[
                "-c",
                "run.toml",
                "-c",
                ".fabro/project.toml",
                "-c",
                settings,
            ],
            "run",
        ),
        (&["-c", settings, "-c", ".fabro/project.toml"], "project"),
        // A layer named on the command line: `other.toml` as the user's settings is
        // below the project, wherever it is written.
        (&["-c", ".fabro/project.toml", "-c", &user_other], "project"),
        (&["--with", "project:other.toml"], "other"),
        // `-c` alone turns discovery off.
        (&["-c", "other.toml"], "other"),
    ];
    for (args, expect) in cases {
        assert_eq!(
            reason(&env, args),
            (2, (*expect).to_owned()),
            "hooks run {args:?}"
        );
    }
}

#[test]
fn vars_from_the_command_line_and_the_run_environment_reach_the_hooks() {
    let env = Env::new().in_dir("repo");
    env.write(
        "repo/.fabro/project.toml",
        "_version = 1\n\n[environments.ci]\nprovider = \"docker\"\n\n[environments.ci.env]\nNODE_ENV = \"development\"\nTEAM = \"core\"\n",
    );
    let trusted = env.run(&["trust", ".fabro/project.toml"]);
    assert_eq!(trusted.code, 0, "{trusted:?}");
    env.write(
        "repo/run.toml",
        r#"_version = 1

[run.environment]
id = "ci"

[environments.ci]
provider = "local"

[environments.ci.env]
NODE_ENV = "production"
RELEASE_CHANNEL = "{{ vars.RELEASE_CHANNEL }}"
SERVICE_URL = "https://api.{{ env.FABRO_TEST_REGION }}.example.com"
API_KEY = "{{ secrets.FABRO_TEST_KEY }}"

[[run.hooks]]
id = "show"
event = "run_start"
script = "echo \"$NODE_ENV $TEAM $RELEASE_CHANNEL $SERVICE_URL $API_KEY {{ vars.STAGE }}\" >&2; exit 2"
sandbox = false
"#,
    );
    env.write(
        "repo/secret.toml",
        "_version = 1\n\n[environments.default]\nprovider = \"local\"\n\n[environments.default.env]\nTOKEN = \"{{ secrets.FABRO_MISSING_SECRET }}\"\n\n[[run.hooks]]\nevent = \"run_start\"\nscript = \"exit 0\"\nsandbox = false\n",
    );
    let cases: &[(&[&str], (i32, &str))] = &[
        // The run's environment is `ci`; its variables join by key across the layers (the
        // run config's NODE_ENV over the project's, the project's TEAM kept); an unset
        // environment variable passes through as written; the secret is filled in when
        // the hook runs (and masked in what it says).
        (
            &[
                "--with",
                "run.toml",
                "--var",
                "RELEASE_CHANNEL=beta",
                "--var",
                "STAGE=one",
                "--var",
                "STAGE=two",
            ],
            (
                2,
                "production core beta https://api.{{ env.FABRO_TEST_REGION }}.example.com [secret FABRO_TEST_KEY] two",
            ),
        ),
        // A variable with no value: the run config does not load, and blocks (fail closed).
        // (The cases are matched as parts of the reason.)
        (
            &["--with", "run.toml", "--var", "STAGE=one"],
            (
                2,
                "the config file run.toml:11:19: environment variable `RELEASE_CHANNEL`: `{{ vars.RELEASE_CHANNEL }}` has no value does not load, so the hooks it holds cannot run; blocked until it is fixed (check it with `hooks validate`, or set on_broken_config to allow)",
            ),
        ),
        // A missing secret in an environment value fails closed too (the block names the
        // file's position and the secret).
        (&["-c", "secret.toml"], (2, "secret.toml:7:9: ")),
        (&["-c", "secret.toml"], (2, "FABRO_MISSING_SECRET")),
        (
            &["--var", "NOEQUALS"],
            (1, "error: --var NOEQUALS: write `--var NAME=VALUE`"),
        ),
    ];
    for (args, (code, expect)) in cases {
        let (got_code, got) = reason(&env, args);
        assert!(
            got_code == *code && got.contains(expect),
            "hooks run {args:?}: exit {got_code}, {got}"
        );
    }
}

#[test]
fn a_broken_run_config_is_reported_at_its_line_and_the_other_files_still_load() {
    let env = fabro_project();
    env.write(
        "repo/bad.toml",
        "_version = 1\n\n[[run.hooks]]\nid = \"a\"\nevent = \"run_complete\"\nscript = \"echo 1\"\n\n[[run.hooks]]\nid = \"a\"\nevent = \"run_complete\"\nscript = \"echo 2\"\n",
    );
    let validate = env.run(&["validate", "--with", "bad.toml"]);
    assert_eq!(validate.code, 1);
    assert!(
        validate.stdout.contains(
            "bad.toml:9:6: error: the hook id `a` is used twice in this file, at lines 4 and 9"
        ),
        "{}",
        validate.stdout
    );
    // The discovered layers still run: the project's `who` blocks.
    assert_eq!(
        reason(&env, &["--with", "bad.toml", "--on-broken-config", "allow"]),
        (2, "project".to_owned())
    );
}

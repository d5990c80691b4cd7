//! The project a command works on: run from a subdirectory, discovery finds the project
//! root (the nearest ancestor with a config, else the git root) as git and lefthook do,
//! never the home directory; `--project DIR` must exist.

use crate::support::Env;
use crate::trust::run_in;

const STOP_HOOK: &str = "hooks:\n  - id: stop-hook\n    event: Stop\n    command: \"true\"\n";

/// The files `hooks list --json` run in `cwd` loaded, relative to the temporary directory.
#[track_caller]
fn listed_files(env: &Env, cwd: &str) -> Vec<String> {
    let run = run_in(env, cwd, &["list", "--json"]);
    assert_eq!(run.code, 0, "{run:?}");
    run.json()["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap().to_owned())
        .collect()
}

/// With `files` written and `dirs` made, `hooks list` run in `cwd` loads `expect`.
#[track_caller]
fn check(files: &[&str], dirs: &[&str], cwd: &str, expect: &[&str]) {
    let env = Env::new();
    for file in files {
        let text = if file.ends_with(".json") {
            r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}"#
        } else {
            STOP_HOOK
        };
        env.write(file, text);
    }
    for dir in dirs {
        std::fs::create_dir_all(env.path().join(dir)).unwrap();
    }
    let found: Vec<String> = listed_files(&env, cwd)
        .into_iter()
        .map(|f| env.normalise(&f))
        .collect();
    assert_eq!(found, expect, "{files:?} {dirs:?}, run in {cwd}");
}

#[test]
fn a_subdirectory_finds_the_project_root() {
    let root = ["[dir]/p/.hooks/hooks.yaml"];
    check(
        &["p/.hooks/hooks.yaml"],
        &["p/src/deep"],
        "p/src/deep",
        &root,
    );
    check(
        &["p/.claude/settings.json"],
        &["p/src"],
        "p/src",
        &["[dir]/p/.claude/settings.json"],
    );
    // The nearest config wins over one further up.
    check(
        &["p/.hooks/hooks.yaml", "p/sub/.hooks/hooks.yaml"],
        &["p/sub/x"],
        "p/sub/x",
        &["[dir]/p/sub/.hooks/hooks.yaml"],
    );
    // A config directory marks the root even before it holds a hooks file.
    check(
        &["p/.hooks/hooks.yaml"],
        &["p/app/.claude", "p/app/src"],
        "p/app/src",
        &[],
    );
    // The search stops at the git root: the repository's parent is not its project.
    check(
        &["p/.hooks/hooks.yaml"],
        &["p/repo/.git", "p/repo/src"],
        "p/repo/src",
        &[],
    );
    // With no config below it, the git root is the project root.
    check(
        &["p/.hooks/hooks.yaml"],
        &["p/.git", "p/a/b"],
        "p/a/b",
        &root,
    );
}

#[test]
fn a_skill_marks_its_project_root_and_an_empty_skills_folder_does_not() {
    let env = Env::new();
    env.write("p/.hooks/hooks.yaml", STOP_HOOK);
    std::fs::create_dir_all(env.path().join("p/.git")).unwrap();
    std::fs::create_dir_all(env.path().join("p/a/skills/none")).unwrap();
    std::fs::create_dir_all(env.path().join("p/a/b")).unwrap();
    let found: Vec<String> = listed_files(&env, "p/a/b")
        .into_iter()
        .map(|f| env.normalise(&f))
        .collect();
    assert_eq!(found, ["[dir]/p/.hooks/hooks.yaml"]);
    env.write(
        "p/a/skills/guard/SKILL.md",
        "---\nname: guard\nhooks:\n  Stop:\n    - hooks:\n        - type: command\n          command: \"true\"\n---\n\n# guard\n",
    );
    let found: Vec<String> = listed_files(&env, "p/a/b")
        .into_iter()
        .map(|f| env.normalise(&f))
        .collect();
    assert_eq!(found, ["[dir]/p/a/skills/guard/SKILL.md"]);
}

#[test]
fn the_home_directory_is_never_the_project() {
    // `~/.claude/settings.json` is the user's file: run in a project under home with no
    // config of its own, it is loaded once, in the user layer, and needs no trust.
    let env = Env::new();
    env.write(
        "home/.claude/settings.json",
        r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}"#,
    );
    std::fs::create_dir_all(env.path().join("home/work/src")).unwrap();
    let run = run_in(&env, "home/work/src", &["list", "--json"]);
    assert_eq!(run.code, 0, "{run:?}");
    let files = run.json()["files"].clone();
    assert_eq!(files.as_array().unwrap().len(), 1, "{files}");
    assert_eq!(files[0]["layer"], "user", "{files}");
    assert_eq!(files[0]["needs_trust"], false, "{files}");
}

#[test]
fn a_project_that_is_not_a_directory_is_an_error() {
    let env = Env::new();
    env.write("file.txt", "");
    for (project, expect) in [
        ("missing", "error: --project missing: no such directory"),
        ("file.txt", "error: --project file.txt is not a directory"),
    ] {
        for args in [
            &["list", "--project", project][..],
            &["run", "Stop", "--project", project],
            &["replay", "s.jsonl", "--project", project],
        ] {
            env.write("s.jsonl", "{\"event\": \"Stop\"}\n");
            let run = env.run(args);
            assert_eq!(run.code, 1, "{args:?}: {run:?}");
            assert!(run.stderr.contains(expect), "{args:?}: {}", run.stderr);
        }
    }
}

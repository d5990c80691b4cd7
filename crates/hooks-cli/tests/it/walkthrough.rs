//! A new user's first hour, scripted: the README's and getting-started's commands in
//! order, in a fresh home and project, then the built-in guard installed and enabled and a
//! project hook trusted, both guarding a command run from a subdirectory of the project.

use crate::markdown;
use crate::support::{Env, Run, workspace_root};

/// The block of `page` marked `<!-- check: config NAME -->` or `<!-- check: file NAME -->`,
/// so the walkthrough writes the files the page shows.
fn page_file(page: &str, name: &str) -> String {
    let text = std::fs::read_to_string(workspace_root().join(page)).unwrap();
    markdown::blocks(&text)
        .into_iter()
        .find(|b| b.file_name() == Some(name))
        .unwrap_or_else(|| panic!("{page} has no block `{name}`"))
        .code
}

#[track_caller]
fn expect(run: &Run, code: i32, wanted: &str) {
    assert_eq!(run.code, code, "{run:#?}");
    assert!(
        run.stdout.contains(wanted) || run.stderr.contains(wanted),
        "`{wanted}` not in {run:#?}"
    );
}

const RM_RF_ROOT: &str = r#"{"tool_name": "Bash", "tool_input": {"command": "rm -rf /"}}"#;

#[test]
fn a_new_user_follows_the_docs_and_is_guarded_from_a_subdirectory() {
    // The README: the main job, from the repository root.
    let repo = Env::in_workspace();
    expect(
        &repo.run(&["replay", "examples/session.jsonl", "-c", "examples/session"]),
        0,
        "Summary",
    );

    // Getting started, in a fresh project.
    let env = Env::new();
    expect(&env.run(&["--version"]), 0, "hooks");
    env.write(
        "hooks.yaml",
        &page_file("docs/getting-started.md", "hooks.yaml"),
    );
    env.write(
        "session.jsonl",
        &page_file("docs/getting-started.md", "session.jsonl"),
    );
    expect(
        &env.run(&["validate", "-c", "hooks.yaml"]),
        0,
        "valid: 1 file, 1 hook, 0 warnings",
    );
    expect(&env.run(&["list", "-c", "hooks.yaml"]), 0, "no-rm-rf");
    expect(
        &env.run(&["run", "PreToolUse", "-c", "hooks.yaml", "-p", RM_RF_ROOT]),
        2,
        "no rm -rf",
    );
    expect(
        &env.run(&[
            "explain",
            "PreToolUse",
            "-c",
            "hooks.yaml",
            "-p",
            r#"{"tool_name": "Read"}"#,
        ]),
        0,
        "0 of 1 hook would run",
    );
    expect(
        &env.run(&["replay", "session.jsonl", "-c", "hooks.yaml"]),
        0,
        "1 block",
    );

    // The built-ins, installed where every command finds them, and the guard enabled.
    expect(&env.run(&["init"]), 0, "");
    expect(&env.run(&["enable", "security-guard"]), 0, "enabled");
    // A project hook of its own, trusted.
    env.write(
        ".hooks/hooks.yaml",
        "hooks:\n  - id: no-force-push\n    event: PreToolUse\n    matcher: Bash\n    \
         command: \"grep -q 'push --force' && { echo 'no force push' >&2; exit 2; } || exit 0\"\n",
    );
    expect(&env.run(&["trust", ".hooks/hooks.yaml"]), 0, "trusted");

    // From a subdirectory of the project: the user's guard blocks `rm -rf /`, the
    // project's hook blocks a force push, and an ordinary command passes.
    let env = env.in_dir("src/deep");
    expect(
        &env.run(&["run", "PreToolUse", "-p", RM_RF_ROOT]),
        2,
        "block",
    );
    expect(
        &env.run(&[
            "run",
            "PreToolUse",
            "-p",
            r#"{"tool_name": "Bash", "tool_input": {"command": "git push --force"}}"#,
        ]),
        2,
        "no force push",
    );
    expect(
        &env.run(&[
            "run",
            "PreToolUse",
            "-p",
            r#"{"tool_name": "Bash", "tool_input": {"command": "ls"}}"#,
        ]),
        0,
        "PreToolUse",
    );
}

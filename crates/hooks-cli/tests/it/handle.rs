//! One way to name a hook: `hooks test`, `trust`, `disable`, `enable` and `remove` accept
//! the same handles (an id, what `hooks list` prints, the description, the action,
//! `FILE:LINE`), an ambiguous handle lists the hooks it names, `hooks list` prints a handle
//! that works, and `hooks add --id` refuses an id that is taken.

use std::os::unix::fs::PermissionsExt;

use crate::support::{Env, Run};

/// A project's native config: an id'd formatter with a description, a guard without an
/// id, and two hooks that run the same script.
const PROJECT: &str = "\
hooks:
  - id: fmt
    event: PostToolUse
    description: Format the file
    command: ./fmt.sh
  - event: PreToolUse
    command: ./guard.sh --strict
  - event: Stop
    command: ./same.sh
  - event: SessionEnd
    command: ./same.sh
";

const FILE: &str = ".hooks/hooks.yaml";

/// The commands that name a hook, in an order each can follow the one before.
const COMMANDS: [&str; 5] = ["trust", "test", "disable", "enable", "remove"];

fn project() -> Env {
    let env = Env::new();
    env.write(FILE, PROJECT);
    for script in ["fmt.sh", "guard.sh", "same.sh"] {
        let path = env.write(script, "#!/bin/sh\nexit 0\n");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    env
}

/// Every command accepts `handle` for the hook whose command is `script`; after `remove`
/// the script is gone from the file.
#[track_caller]
fn check_accepted(handle: &str, script: &str) {
    let env = project();
    for command in COMMANDS {
        let run = env.run(&[command, handle]);
        assert_eq!(run.code, 0, "`hooks {command} {handle}`: {run:?}");
    }
    let text = std::fs::read_to_string(env.path().join(FILE)).unwrap();
    assert!(
        !text.contains(script),
        "`{handle}` removed another hook:\n{text}"
    );
    assert_eq!(text.matches("command:").count(), 3, "{text}");
}

#[test]
fn every_command_accepts_every_kind_of_handle() {
    for (handle, script) in [
        ("fmt", "./fmt.sh"),
        ("Format the file", "./fmt.sh"),
        ("command: ./fmt.sh", "./fmt.sh"),
        ("./fmt.sh", "./fmt.sh"),
        (".hooks/hooks.yaml:2", "./fmt.sh"),
        ("command: ./guard.sh --strict", "./guard.sh"),
        ("./guard.sh --strict", "./guard.sh"),
        (".hooks/hooks.yaml:6", "./guard.sh"),
    ] {
        check_accepted(handle, script);
    }
}

/// `hooks COMMAND HANDLE` fails naming both hooks that run `./same.sh`.
#[track_caller]
fn check_ambiguous(run: &Run, what: &str) {
    assert_eq!(run.code, 1, "{what}: {run:?}");
    assert!(
        run.stderr.contains("`./same.sh` names 2 hooks:")
            && run.stderr.contains("hooks.yaml:8  command: ./same.sh")
            && run.stderr.contains("hooks.yaml:10  command: ./same.sh"),
        "{what}: {}",
        run.stderr
    );
}

#[test]
fn an_ambiguous_handle_lists_the_hooks_instead_of_picking_one() {
    let env = project();
    for command in COMMANDS {
        check_ambiguous(&env.run(&[command, "./same.sh"]), command);
    }
    let text = std::fs::read_to_string(env.path().join(FILE)).unwrap();
    assert_eq!(text, PROJECT, "nothing was edited");
}

/// The word after `handle ` (or `id `) on the listing's line for `hook_line`, as a shell
/// would pass it, with the temporary directory put back.
fn listed_handle(env: &Env, list: &str, hook_line: &str) -> String {
    let mut lines = list.lines();
    lines.find(|l| l.contains(hook_line)).unwrap();
    let facts = lines.find(|l| l.starts_with("     ")).unwrap();
    let at = facts
        .find("handle ")
        .map(|i| i + "handle ".len())
        .or_else(|| facts.find("id ").map(|i| i + "id ".len()))
        .unwrap();
    let rest = &facts[at..];
    let word = match rest.strip_prefix('\'') {
        Some(quoted) => quoted[..quoted.find('\'').unwrap()].to_owned(),
        None => rest.split(' ').next().unwrap().to_owned(),
    };
    word.replace("[dir]", &env.path().display().to_string())
}

#[test]
fn the_handle_list_prints_names_the_hook() {
    let env = project();
    let list = env.run(&["list"]);
    assert_eq!(list.code, 0, "{list:?}");
    for (hook_line, expect) in [
        ("command: ./fmt.sh", "fmt"),
        ("command: ./guard.sh --strict", "./guard.sh --strict"),
        ("Stop (", "[dir]/.hooks/hooks.yaml:8"),
        ("SessionEnd (", "[dir]/.hooks/hooks.yaml:10"),
    ] {
        let handle = listed_handle(&env, &list.stdout, hook_line);
        assert_eq!(
            env.normalise(&handle),
            expect,
            "{hook_line}:\n{}",
            list.stdout
        );
        let trust = env.run(&["trust", &handle]);
        assert_eq!(trust.code, 0, "{handle}: {trust:?}");
        let test = env.run(&["test", &handle, "--json"]);
        assert_eq!(test.code, 0, "{handle}: {test:?}");
    }
}

#[test]
fn add_refuses_an_id_the_merged_set_already_has() {
    let env = project();
    env.write(
        "home/.config/hooks/hooks.yaml",
        "hooks:\n  - id: audit\n    event: Stop\n    command: ./audit.sh\n",
    );
    for (args, taken_at) in [
        // In the target file itself.
        (
            vec!["add", "--id", "fmt", "--event", "Stop", "--command", "true"],
            "[dir]/.hooks/hooks.yaml:2",
        ),
        // In another file of the set the new hook would join.
        (
            vec![
                "add",
                "--id",
                "audit",
                "--event",
                "Stop",
                "--command",
                "true",
            ],
            "[dir]/home/.config/hooks/hooks.yaml:2",
        ),
        // In the file named with -c.
        (
            vec![
                "add",
                "--id",
                "fmt",
                "--event",
                "Stop",
                "--command",
                "true",
                "-c",
                FILE,
            ],
            ".hooks/hooks.yaml:2",
        ),
    ] {
        let run = env.run(&args);
        assert_eq!(run.code, 1, "{args:?}: {run:?}");
        assert!(
            run.stderr.contains("is taken: a hook at ") && run.stderr.contains(taken_at),
            "{args:?}: {}",
            run.stderr
        );
    }
    let text = std::fs::read_to_string(env.path().join(FILE)).unwrap();
    assert_eq!(text, PROJECT, "nothing was added");
    let fresh = env.run(&[
        "add",
        "--id",
        "lint",
        "--event",
        "Stop",
        "--command",
        "true",
    ]);
    assert_eq!(fresh.code, 0, "{fresh:?}");
}

//! What discovery reads: regular files inside the project and the user's directories only.
//! A project's config that links to a secret, a FIFO, a device or `/proc/kmsg`, and a FIFO
//! named with `-c`, are refused unread by every command, which never hangs; a file that is
//! not a config is never quoted.

use crate::support::Env;
#[cfg(unix)]
use crate::support::mkfifo;
use crate::trust::run_in;

const SECRET: &str = "wJalrXUtnFEMI";

/// Every command that reads the discovered configs, run in `p`: each must end within 10 s,
/// say `expect`, and never print the secret.
#[track_caller]
fn check_commands(env: &Env, case: &str, expect: &str) {
    let commands: [&[&str]; 5] = [
        &["list"],
        &["validate"],
        &["run", "PreToolUse", "-p", r#"{"tool_name":"Bash"}"#],
        &["trust", "--list"],
        &["disable", "some-hook"],
    ];
    for args in commands {
        let run = run_in(env, "p", args);
        assert_ne!(
            run.code, -1,
            "{case}: `hooks {args:?}` was killed after 10 s"
        );
        let all = format!("{}{}", run.stdout, run.stderr);
        assert!(
            !all.contains(SECRET),
            "{case}: `hooks {args:?}` printed the secret:\n{all}"
        );
        // `trust --list` reads only the store, so it has no file to refuse.
        if args != ["trust", "--list"] {
            assert!(all.contains(expect), "{case}: `hooks {args:?}`:\n{all}");
        }
    }
}

#[cfg(unix)]
#[test]
fn a_discovered_config_is_read_only_if_it_is_a_regular_file_inside_the_project() {
    let outside = "not read: it leads outside [dir]/p";
    let fifo = "not read: it is a FIFO, not a regular file";
    let mut cases = vec![
        (
            ".claude/settings.json",
            "[dir]/home/.aws/credentials",
            outside,
        ),
        (".hooks/hooks.toml", "[dir]/home/.aws/credentials", outside),
        (".claude/settings.json", "[dir]/outside/fifo", outside),
        (".claude/settings.json", "/dev/zero", outside),
        (".claude/settings.json", "../pipe", fifo),
        (".claude", "[dir]/home/.aws", outside),
    ];
    if std::path::Path::new("/proc/kmsg").exists() {
        cases.push((".claude/settings.json", "/proc/kmsg", outside));
    }
    for (link, target, expect) in cases {
        let env = Env::new();
        env.write(
            "home/.aws/credentials",
            &format!("[default]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = {SECRET}\n"),
        );
        // A symlink named like the credentials, so the `.claude` folder link finds one.
        std::os::unix::fs::symlink("credentials", env.path().join("home/.aws/settings.json"))
            .unwrap();
        mkfifo(&env, "outside/fifo");
        mkfifo(&env, "p/pipe");
        let at = env.path().join("p").join(link);
        std::fs::create_dir_all(at.parent().unwrap()).unwrap();
        let dir = env.path().display().to_string();
        std::os::unix::fs::symlink(target.replace("[dir]", &dir), &at).unwrap();
        check_commands(&env, &format!("{link} -> {target}"), expect);
    }
}

#[test]
fn a_file_that_is_not_a_config_is_never_quoted() {
    // The repository links its settings to a `.env` the README has the user fill in.
    let env = Env::new();
    env.write("p/.env", &format!("AWS_SECRET_ACCESS_KEY={SECRET}\n"));
    std::fs::create_dir_all(env.path().join("p/.claude")).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink("../.env", env.path().join("p/.claude/settings.json")).unwrap();
    #[cfg(not(unix))]
    env.write(
        "p/.claude/settings.json",
        &format!("AWS_SECRET_ACCESS_KEY={SECRET}\n"),
    );
    check_commands(
        &env,
        ".claude/settings.json -> ../.env",
        "this file does not look like a hook config",
    );
}

#[cfg(unix)]
#[test]
fn a_named_fifo_is_refused_not_waited_on() {
    let env = Env::new();
    mkfifo(&env, "fifo");
    let commands: [&[&str]; 4] = [
        &["validate", "-c", "fifo"],
        &["list", "-c", "fifo"],
        &["run", "Stop", "-c", "fifo"],
        &["disable", "x", "-c", "fifo"],
    ];
    for args in commands {
        let run = run_in(&env, ".", args);
        assert_ne!(run.code, -1, "`hooks {args:?}` was killed after 10 s");
        if args[0] == "validate" {
            assert_eq!(run.code, 1, "`hooks {args:?}`: {run:?}");
        }
        let all = format!("{}{}", run.stdout, run.stderr);
        assert!(
            all.contains("not read: it is a FIFO, not a regular file"),
            "`hooks {args:?}`:\n{all}"
        );
    }
}

/// A `-c` path that is not a regular file (a character device, a FIFO) is refused unread by
/// every command that loads configs, which says on stderr which path it refused and why,
/// ends at once, and still runs the hooks of the other `-c` files.
#[cfg(unix)]
#[test]
fn a_named_device_or_fifo_is_refused_with_why_and_the_other_files_still_load() {
    let env = Env::new();
    mkfifo(&env, "fifo");
    env.write(
        "hooks.yaml",
        "hooks:\n  - id: guard\n    event: PreToolUse\n    command: echo 'guarded' >&2; exit 2\n",
    );
    env.write(
        "s.jsonl",
        "{\"event\":\"PreToolUse\",\"payload\":{\"tool_name\":\"Bash\"}}\n",
    );
    let pre_tool = r#"{"tool_name":"Bash"}"#;
    for (path, what) in [("/dev/zero", "a character device"), ("fifo", "a FIFO")] {
        let why = format!("{path}: error: not read: it is {what}, not a regular file");
        let warning = format!(
            "{path}: warning: this named file does not load (not read: it is {what}, not a regular file)"
        );
        let cases: [(&[&str], i32, &str); 5] = [
            (&["validate", "-c", path, "-c", "hooks.yaml"], 1, &why),
            (
                &[
                    "run",
                    "PreToolUse",
                    "-p",
                    pre_tool,
                    "-c",
                    path,
                    "-c",
                    "hooks.yaml",
                ],
                2,
                &warning,
            ),
            (
                &[
                    "explain",
                    "PreToolUse",
                    "-p",
                    pre_tool,
                    "-c",
                    path,
                    "-c",
                    "hooks.yaml",
                ],
                0,
                &warning,
            ),
            (
                &[
                    "test",
                    "guard",
                    "-p",
                    pre_tool,
                    "-c",
                    path,
                    "-c",
                    "hooks.yaml",
                ],
                2,
                &warning,
            ),
            (
                &["replay", "s.jsonl", "-c", path, "-c", "hooks.yaml"],
                0,
                &warning,
            ),
        ];
        for (args, code, expect) in cases {
            let run = run_in(&env, ".", args);
            assert_ne!(run.code, -1, "`hooks {args:?}` was killed after 10 s");
            assert_eq!(run.code, code, "`hooks {args:?}`: {run:?}");
            let all = format!("{}{}", run.stdout, run.stderr);
            assert!(all.contains(expect), "`hooks {args:?}`:\n{all}");
            // The other file loaded: its guard is there, and ran where the command runs it.
            if args[0] != "validate" {
                assert!(all.contains("guard"), "`hooks {args:?}`:\n{all}");
            }
            if ["run", "test", "replay"].contains(&args[0]) {
                assert!(
                    all.contains("exit 2   block guard"),
                    "`hooks {args:?}`:\n{all}"
                );
            }
        }
    }
}

//! What a hook's `CLAUDE_ENV_FILE` sets, and which hooks get one.

use hooks_core::{BuiltinEvent, Dialect, Event, parse_env_file, takes_env_file};

#[track_caller]
fn check(text: &str, expect: &[(&str, &str)]) {
    let got = parse_env_file(text);
    let got: Vec<(&str, &str)> = got.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    assert_eq!(got, expect, "{text:?}");
}

#[test]
fn export_lines_set_variables() {
    check("export FOO=bar\n", &[("FOO", "bar")]);
    // The reference's own examples: quotes removed, nothing expanded.
    check(
        "export NODE_ENV=production\nexport DEBUG_LOG=true\nexport PATH=\"$PATH:./node_modules/.bin\"\n",
        &[
            ("DEBUG_LOG", "true"),
            ("NODE_ENV", "production"),
            ("PATH", "$PATH:./node_modules/.bin"),
        ],
    );
    check("export A='x y' B=2", &[("A", "x y"), ("B", "2")]);
    // What `export -p` prints (the reference's before/after diff).
    check(
        "declare -x NVM_BIN=\"/home/u/.nvm/v20/bin\"\n",
        &[("NVM_BIN", "/home/u/.nvm/v20/bin")],
    );
    // A later assignment wins.
    check("export A=1\nexport A=2\n", &[("A", "2")]);
}

#[test]
fn anything_else_sets_nothing() {
    check("", &[]);
    check("# a comment\necho hi\nexport ONLY_NAME\nA=1\n", &[]);
    check("declare -r X=1\nexport 1BAD=x\n", &[]);
    // A file that does not parse is read as best it can, never a panic.
    check("export A=1\nexport B=\"unterminated\n", &[("A", "1")]);
}

#[test]
fn claude_and_native_hooks_get_an_env_file_on_four_events() {
    for event in [
        BuiltinEvent::SessionStart,
        BuiltinEvent::Setup,
        BuiltinEvent::CwdChanged,
        BuiltinEvent::FileChanged,
    ] {
        let event = Event::from(event);
        assert!(takes_env_file(Dialect::Claude, &event), "{event}");
        assert!(takes_env_file(Dialect::Native, &event), "{event}");
        assert!(!takes_env_file(Dialect::Echo, &event), "{event}");
    }
    for event in [
        BuiltinEvent::PreToolUse,
        BuiltinEvent::Stop,
        BuiltinEvent::SessionEnd,
    ] {
        assert!(
            !takes_env_file(Dialect::Claude, &Event::from(event)),
            "{event}"
        );
    }
}

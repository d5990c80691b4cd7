//! Hostile input: alias bombs, deep nesting, huge files, invalid UTF-8, binary garbage.
//! Each is an error with a position where one exists, never a hang, a crash or a pass.

use std::path::Path;

use hooks_config::{DiagnosticKind, LoadOptions, load_bytes, load_file, load_str};

use crate::support::{Dir, options};

/// Loads `text` as the file `name`; checks the kind of the first error and its text.
#[track_caller]
fn check(name: &str, text: &str, kind: DiagnosticKind, expect: &str) {
    let err = load_str(text, Some(Path::new(name)), &options()).unwrap_err();
    let got = err.to_string();
    if std::env::var("UPDATE_EXPECT").is_ok() {
        let line = std::panic::Location::caller().line();
        println!("@@EXPECT {line} {}", serde_json::to_string(&got).unwrap());
        return;
    }
    assert_eq!(err.kind(), kind, "{got}");
    assert_eq!(got, expect.trim_start_matches('\n'));
}

/// The classic billion-laughs document: nine levels of ten aliases each.
fn alias_bomb() -> String {
    let mut text = String::from(
        "a0: &a0 [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n",
    );
    for i in 1..10 {
        let p = i - 1;
        text.push_str(&format!(
            "a{i}: &a{i} [*a{p},*a{p},*a{p},*a{p},*a{p},*a{p},*a{p},*a{p},*a{p},*a{p}]\n"
        ));
    }
    text.push_str("hooks: *a9\n");
    text
}

#[test]
fn yaml_alias_bomb() {
    check(
        "hooks.yaml",
        &alias_bomb(),
        DiagnosticKind::Budget,
        "
hooks.yaml:5:38: error: invalid YAML: the document expands too many aliases
 5 | a4: &a4 [*a3,*a3,*a3,*a3,*a3,*a3,*a3,*a3,*a3,*a3]
   |                                      ^",
    );
}

/// YAML nested as deep as a config may be is parsed on a caller's small stack too (an
/// async worker's, a test thread's): the parser grows the stack as it goes rather than
/// overflow it, which would abort the process.
#[test]
fn deep_yaml_on_a_small_stack() {
    let block: String = (0..30).map(|i| format!("{}- \n", "  ".repeat(i))).collect();
    let text = format!("x-deep:\n{block}hooks: []\n");
    let loaded = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || {
            load_str(&text, Some(Path::new("hooks.yaml")), &options()).map_err(|e| e.to_string())
        })
        .expect("thread")
        .join()
        .expect("no overflow");
    // Parsed to its end: what is left to say is the schema's (the key is not a hook
    // config's), not a parser's.
    let err = loaded.expect_err("an unknown key");
    assert!(
        err.starts_with("hooks.yaml:1:1: error: unknown key `x-deep`"),
        "{err}"
    );
}

#[test]
fn deep_nesting_in_each_format() {
    let depth = 100_000;
    let flow = format!("hooks: {}{}\n", "[".repeat(depth), "]".repeat(depth));
    check(
        "hooks.yaml",
        &flow,
        DiagnosticKind::Budget,
        "
hooks.yaml:1:263: error: invalid YAML: the document nests more than 32 levels deep",
    );
    let block: String = (0..200)
        .map(|i| format!("{}- \n", "  ".repeat(i)))
        .collect();
    check(
        "hooks.yaml",
        &format!("hooks:\n{block}"),
        DiagnosticKind::Budget,
        "
hooks.yaml:33:63: error: invalid YAML: the document nests more than 32 levels deep
 33 |                                                               - 
    |                                                               ^",
    );
    let json = format!("{{\"hooks\": {}{}}}", "[".repeat(depth), "]".repeat(depth));
    check(
        "hooks.json",
        &json,
        DiagnosticKind::Budget,
        "
hooks.json:1:42: error: invalid JSON: nested more than 32 levels deep",
    );
    // Deeper than our limit but within serde_json's: our own limit answers.
    let json = format!("{{\"hooks\": {}{}}}", "[".repeat(100), "]".repeat(100));
    check(
        "hooks.json",
        &json,
        DiagnosticKind::Budget,
        r#"
hooks.json:1:42: error: invalid JSON: nested more than 32 levels deep
 1 | {"hooks": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}
   |                                          ^"#,
    );
    let toml = format!("hooks = {}{}\n", "[".repeat(depth), "]".repeat(depth));
    check(
        "hooks.toml",
        &toml,
        DiagnosticKind::Budget,
        "
hooks.toml:1:41: error: invalid TOML: nested more than 32 levels deep",
    );
    let inline = format!("hooks = {}{}\n", "{a = ".repeat(depth), "}".repeat(depth));
    check(
        "hooks.toml",
        &inline,
        DiagnosticKind::Budget,
        "
hooks.toml:1:169: error: invalid TOML: nested more than 32 levels deep",
    );
}

#[test]
fn a_100_mb_file_is_refused_before_parsing() {
    let dir = Dir::new();
    let path = dir.write("hooks.yaml", "");
    // A sparse file: 100 MB long without writing 100 MB.
    std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(100 * 1024 * 1024)
        .unwrap();
    let err = load_file(&path, &LoadOptions::new()).unwrap_err();
    assert_eq!(err.kind(), DiagnosticKind::TooLarge);
    assert_eq!(
        err.to_string(),
        format!(
            "{}: error: the file is larger than the 2097152-byte limit (at least 104857600 bytes)\n  hint: config files are small; raise `LoadOptions::max_file_size` if this one is real",
            path.display()
        )
    );
    // Text handed over in memory meets the same limit.
    let big = "#".repeat(3 * 1024 * 1024);
    let err = load_str(&big, None, &LoadOptions::new()).unwrap_err();
    assert_eq!(err.kind(), DiagnosticKind::TooLarge);
}

#[test]
fn a_device_is_refused_unread() {
    let zero = Path::new("/dev/zero");
    if !zero.exists() {
        return;
    }
    let err = load_file(zero, &LoadOptions::new().with_max_file_size(4096)).unwrap_err();
    assert_eq!(err.kind(), DiagnosticKind::Refused);
    assert_eq!(
        err.to_string(),
        "/dev/zero: error: not read: it is a character device, not a regular file\n  hint: a config is a regular file"
    );
}

#[test]
fn a_proc_file_that_reports_no_length_is_cut_at_the_limit() {
    // /proc files are regular files of length 0 whatever they hold: the limit holds on the
    // read itself, not on the length the metadata reports.
    let maps = Path::new("/proc/self/maps");
    if !maps.exists() {
        return;
    }
    assert_eq!(std::fs::metadata(maps).unwrap().len(), 0);
    let err = load_file(maps, &LoadOptions::new().with_max_file_size(64)).unwrap_err();
    assert_eq!(err.kind(), DiagnosticKind::TooLarge);
    assert_eq!(
        err.to_string(),
        "/proc/self/maps: error: the file is larger than the 64-byte limit (at least 65 bytes)\n  hint: config files are small; raise `LoadOptions::max_file_size` if this one is real"
    );
}

#[test]
fn invalid_utf8_is_an_error_at_the_bad_byte() {
    let dir = Dir::new();
    let path = dir.path().join("settings.json");
    std::fs::write(
        &path,
        b"{\n  \"hooks\": {\n    \"Stop\": \"\xff\xfe\"\n  }\n}\n",
    )
    .unwrap();
    let err = load_file(&path, &LoadOptions::new()).unwrap_err();
    assert_eq!(err.kind(), DiagnosticKind::InvalidUtf8);
    assert_eq!(
        err.to_string(),
        format!(
            "{}:3:14: error: the file is not valid UTF-8 (byte 28 is not part of a character)\n 3 |     \"Stop\": \"\n   |              ^\n  hint: config files must be UTF-8 text",
            path.display()
        )
    );
    let err = load_bytes(vec![0xc3, 0x28], None, &LoadOptions::new()).unwrap_err();
    assert_eq!(err.kind(), DiagnosticKind::InvalidUtf8);
}

#[test]
fn syntax_errors_in_each_format() {
    check("hooks.yaml", "hooks:\n  - event: Stop\n   command: [a\n", DiagnosticKind::Syntax, "
hooks.yaml:3:4: error: invalid YAML: while parsing a block collection, did not find expected '-' indicator
 3 |    command: [a
   |    ^");
    check(
        "hooks.json",
        "{\"hooks\": [\n  {\"event\": \"Stop\",}\n]}\n",
        DiagnosticKind::Syntax,
        r#"
hooks.json:2:20: error: invalid JSON: key must be a string
 2 |   {"event": "Stop",}
   |                    ^"#,
    );
    check(
        "hooks.toml",
        "[[hooks]]\nevent = \"Stop\"\ncommand = \n",
        DiagnosticKind::Syntax,
        "
hooks.toml:3:11: error: invalid TOML: string values must be quoted, expected literal string
 3 | command = 
   |           ^",
    );
    check(
        "hooks.json",
        "{\"hooks\": [], \"hooks\": []}",
        DiagnosticKind::Syntax,
        r#"
hooks.json:1:15: error: duplicate key `hooks`
 1 | {"hooks": [], "hooks": []}
   |               ^"#,
    );
    check(
        "hooks.yaml",
        "hooks: []\nhooks: []\n",
        DiagnosticKind::Syntax,
        "
hooks.yaml:2:1: error: invalid YAML: duplicate mapping key: hooks
 2 | hooks: []
   | ^",
    );
    check("hooks.yaml", "hooks: []\n---\nhooks: []\n", DiagnosticKind::Syntax, "
hooks.yaml:3:1: error: invalid YAML: a config file holds one YAML document, but this one has a second `---`
 3 | hooks: []
   | ^");
}

#[test]
fn binary_garbage_is_an_error() {
    let garbage: Vec<u8> = (0..4096u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8 & 0x7f)
        .collect();
    let text = String::from_utf8(garbage).unwrap();
    for name in ["hooks.yaml", "hooks.json", "hooks.toml"] {
        let result = load_str(&text, Some(Path::new(name)), &LoadOptions::new());
        assert!(result.is_err(), "{name} accepted garbage");
    }
}

#[test]
fn floods_of_keys_and_errors_end_quickly_with_a_capped_report() {
    // About 1.8 MB: one hook with 150,000 unknown keys.
    let keys: String = (0..150_000).map(|i| format!(",\"k{i}\":1")).collect();
    let json = format!("{{\"hooks\": [{{\"event\": \"Stop\", \"command\": \"a\"{keys}}}]}}");
    let err = load_str(&json, Some(Path::new("hooks.json")), &LoadOptions::new()).unwrap_err();
    assert_eq!(err.diagnostics().len(), hooks_config::MAX_DIAGNOSTICS + 1);
    assert_eq!(err.diagnostics()[0].kind, DiagnosticKind::UnknownKey);
    assert_eq!(
        err.diagnostics().last().unwrap().to_string(),
        "hooks.json: error: 149900 more problems not shown"
    );
    // 40,000 hooks on unknown events: every one reported, hints only for the first ones.
    let hooks: Vec<String> = (0..40_000)
        .map(|i| format!("{{\"event\":\"E{i}\",\"command\":\"a\"}}"))
        .collect();
    let json = format!("{{\"hooks\": [{}]}}", hooks.join(","));
    let err = load_str(&json, Some(Path::new("hooks.json")), &LoadOptions::new()).unwrap_err();
    assert_eq!(err.kind(), DiagnosticKind::UnknownEvent);
    assert_eq!(
        err.diagnostics().last().unwrap().to_string(),
        "hooks.json: error: 39900 more problems not shown"
    );
    // The same in YAML runs into the parser's event budget.
    let yaml: String = std::iter::once("hooks:\n  - event: Stop\n    command: a\n".to_owned())
        .chain((0..120_000).map(|i| format!("    k{i}: 1\n")))
        .collect();
    let err = load_str(&yaml, Some(Path::new("hooks.yaml")), &LoadOptions::new()).unwrap_err();
    assert_eq!(err.kind(), DiagnosticKind::Budget, "{}", err.first());
}

#[test]
fn the_text_of_a_file_that_is_not_a_config_is_never_shown() {
    // What a symlink or a slip puts in a config's place: it fails to load, at a position,
    // but none of its text is quoted.
    let concealed = "error: this file does not look like a hook config (it writes no `hooks` key or hook setting) and does not load; what it holds is not shown\n  hint: check that the path names a config file";
    let credentials = "[default]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrXUtnFEMI\n";
    let cases = [
        (
            ".hooks/hooks.toml",
            credentials,
            "2:21",
            DiagnosticKind::Syntax,
        ),
        (
            ".claude/settings.json",
            credentials,
            "1:2",
            DiagnosticKind::Syntax,
        ),
        (
            ".hooks/hooks.yaml",
            credentials,
            "2:1",
            DiagnosticKind::Syntax,
        ),
        (
            ".claude/settings.json",
            "API_TOKEN=sk-live-51H8\n",
            "1:1",
            DiagnosticKind::Syntax,
        ),
        (
            ".fabro/project.toml",
            "token = \"sk-live-51H8\"\n",
            "1:1",
            DiagnosticKind::UnknownKey,
        ),
    ];
    for (name, text, at, kind) in cases {
        let err = load_str(text, Some(Path::new(name)), &options()).unwrap_err();
        assert_eq!(
            (err.diagnostics().len(), err.kind()),
            (1, kind),
            "{name}: {err}"
        );
        assert_eq!(err.to_string(), format!("{name}:{at}: {concealed}"));
    }
    // Invalid UTF-8 is not quoted either.
    let err = load_bytes(
        b"API_TOKEN=sk-live-51H8\xff\n".to_vec(),
        Some(Path::new(".claude/settings.json")),
        &options(),
    )
    .unwrap_err();
    assert_eq!(err.kind(), DiagnosticKind::InvalidUtf8);
    assert!(!err.to_string().contains("sk-live"), "{err}");
    // A config's own mistakes are still shown with their line.
    let err = load_str(
        "{\"hooks\": {\"Stop\": [}}",
        Some(Path::new(".claude/settings.json")),
        &options(),
    )
    .unwrap_err();
    assert!(err.to_string().contains(" 1 | {\"hooks\""), "{err}");
}

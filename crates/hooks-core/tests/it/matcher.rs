//! Tests for matchers: Claude Code's `*` / exact-name-list / unanchored-regex rules, and the
//! always-a-regex form other dialects use.

use hooks_core::{ErrorKind, Matcher, MatcherKind};

/// What a matcher compiled to, in a comparable form.
#[derive(Debug, PartialEq)]
enum Kind {
    All,
    Exact(&'static [&'static str]),
    Regex,
}

fn kind_of(matcher: &Matcher) -> String {
    match matcher.kind() {
        MatcherKind::All => "all".to_owned(),
        MatcherKind::Exact(names) => format!("exact {names:?}"),
        MatcherKind::Regex(re) => format!("regex {}", re.as_str()),
    }
}

/// Parses `pattern` with Claude's rules, checks what it compiled to, and that it matches
/// exactly the subjects in `yes` and none in `no`.
#[track_caller]
fn check(pattern: &str, kind: Kind, yes: &[&str], no: &[&str]) {
    let matcher = Matcher::parse(pattern).unwrap();
    let compiled = match (&kind, matcher.kind()) {
        (Kind::All, MatcherKind::All) | (Kind::Regex, MatcherKind::Regex(_)) => true,
        (Kind::Exact(want), MatcherKind::Exact(got)) => got == want,
        _ => false,
    };
    assert!(
        compiled,
        "`{pattern}`: expected {kind:?}, got {}",
        kind_of(&matcher)
    );
    assert_eq!(matcher.as_str(), pattern, "as written");
    for subject in yes {
        assert!(
            matcher.is_match(subject),
            "`{pattern}` should match `{subject}`"
        );
    }
    for subject in no {
        assert!(
            !matcher.is_match(subject),
            "`{pattern}` should not match `{subject}`"
        );
    }
}

/// Checks that `pattern` is rejected by `parse` with a message containing `message`.
#[track_caller]
fn check_invalid(pattern: &str, message: &str) {
    let err = Matcher::parse(pattern).unwrap_err();
    match err.kind() {
        ErrorKind::InvalidMatcher {
            pattern: p,
            message: m,
        } => {
            assert_eq!(p, pattern);
            assert!(m.contains(message), "message `{m}` lacks `{message}`");
        }
        other => panic!("unexpected error {other:?}"),
    }
    let text = err.to_string();
    assert!(
        text.starts_with(&format!("invalid matcher `{pattern}`: ")),
        "{text}"
    );
    assert!(
        text.contains("a list of names like `Bash|Edit`"),
        "hint: {text}"
    );
}

#[test]
fn star_matches_everything() {
    check("*", Kind::All, &["Bash", "", "mcp__x__y"], &[])
}
#[test]
fn empty_matches_everything() {
    check("", Kind::All, &["Bash", ""], &[])
}
#[test]
fn blank_matches_everything() {
    check("  ", Kind::All, &["Edit"], &[])
}
#[test]
fn padded_star_matches_everything() {
    check(" * ", Kind::All, &["Edit"], &[])
}
#[test]
fn default_is_all() {
    assert!(Matcher::default().is_all());
    assert!(Matcher::all().is_match("anything"));
    assert_eq!(Matcher::default(), Matcher::all());
}
#[test]
fn exact_name_matches_only_itself() {
    check(
        "Bash",
        Kind::Exact(&["Bash"]),
        &["Bash"],
        &["bash", "Bash2", "MyBash", ""],
    )
}
#[test]
fn pipe_list_is_exact_names() {
    check(
        "Edit|Write",
        Kind::Exact(&["Edit", "Write"]),
        &["Edit", "Write"],
        &["Edit|Write", "MultiEdit"],
    )
}
#[test]
fn comma_list_is_exact_names() {
    check(
        "Edit,Write",
        Kind::Exact(&["Edit", "Write"]),
        &["Edit", "Write"],
        &["Edit,Write"],
    )
}
#[test]
fn list_names_are_trimmed() {
    check(
        "Edit | Write, Read",
        Kind::Exact(&["Edit", "Write", "Read"]),
        &["Read"],
        &[" Write"],
    )
}
#[test]
fn empty_list_entries_are_dropped() {
    check(
        "Edit||Write|",
        Kind::Exact(&["Edit", "Write"]),
        &["Write"],
        &[""],
    )
}
#[test]
fn hyphenated_names_are_exact() {
    check(
        "run-command",
        Kind::Exact(&["run-command"]),
        &["run-command"],
        &["run"],
    )
}
#[test]
fn mcp_tool_name_is_exact() {
    check(
        "mcp__memory__create_entities",
        Kind::Exact(&["mcp__memory__create_entities"]),
        &["mcp__memory__create_entities"],
        &[
            "mcp__memory__create_entities_v2",
            "mcp__memory__delete_entities",
        ],
    )
}
#[test]
fn mcp_server_regex_matches_its_tools() {
    check(
        "mcp__memory__.*",
        Kind::Regex,
        &["mcp__memory__create_entities", "mcp__memory__read_graph"],
        &["mcp__github__create_issue"],
    )
}
#[test]
fn mcp_regex_is_unanchored() {
    check(
        "mcp__.*__write.*",
        Kind::Regex,
        &["mcp__fs__write_file", "xmcp__a__write"],
        &["mcp__fs__read"],
    )
}
#[test]
fn regex_is_unanchored() {
    check("Ba.", Kind::Regex, &["Bash", "ABat"], &["Edit", "Ba"])
}
#[test]
fn anchored_regex_matches_whole_name() {
    check("^Bash$", Kind::Regex, &["Bash"], &["Bash2", "MyBash"])
}
#[test]
fn start_anchored_regex() {
    check("^Ba", Kind::Regex, &["Bash", "Batch"], &["ABash"])
}
#[test]
fn alternation_with_wildcard_is_regex() {
    check(
        "Edit|Wr.*",
        Kind::Regex,
        &["Edit", "Write", "MultiEdit", "Wrangle"],
        &["Read"],
    )
}
#[test]
fn regex_matches_empty_subject_when_it_can() {
    check("^$", Kind::Regex, &[""], &["Bash"])
}
#[test]
fn dots_make_a_regex() {
    check(
        "notebook.edit",
        Kind::Regex,
        &["notebook_edit", "notebook.edit"],
        &["notebook"],
    )
}
#[test]
fn autohand_anchored_alternation() {
    check(
        "^(run_command|delete_path)$",
        Kind::Regex,
        &["run_command", "delete_path"],
        &["run_commands"],
    )
}

#[test]
fn unclosed_group_is_an_error() {
    check_invalid("Bash(", "unclosed group")
}
#[test]
fn unclosed_class_is_an_error() {
    check_invalid("[Ba", "unclosed character class")
}
#[test]
fn dangling_repetition_is_an_error() {
    check_invalid("+Bash", "repetition operator missing expression")
}
#[test]
fn list_of_only_separators_is_an_error() {
    let err = Matcher::parse("|,|").unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::InvalidMatcher { message, .. } if message == "the name list has no names"),
        "{err:?}"
    );
}

#[test]
fn regex_constructor_treats_identifiers_as_regex() {
    // Autohand and Fabro matchers are always regexes: `Bash` then matches `MyBash` too.
    let m = Matcher::regex("Bash").unwrap();
    assert!(matches!(m.kind(), MatcherKind::Regex(_)), "{}", kind_of(&m));
    assert!(m.is_match("MyBashTool"));
    assert!(!m.is_match("Edit"));
    assert!(!Matcher::parse("Bash").unwrap().is_match("MyBashTool"));
}
#[test]
fn regex_constructor_treats_lists_as_alternation() {
    let m = Matcher::regex("Edit|Write").unwrap();
    assert!(matches!(m.kind(), MatcherKind::Regex(_)));
    assert!(m.is_match("MultiEdit"));
}
#[test]
fn regex_constructor_star_and_empty_are_all() {
    assert!(Matcher::regex("*").unwrap().is_all());
    assert!(Matcher::regex("").unwrap().is_all());
}
#[test]
fn regex_constructor_reports_invalid_regex() {
    let err = Matcher::regex("(run_command").unwrap_err();
    match err.kind() {
        ErrorKind::InvalidMatcher { pattern, message } => {
            assert_eq!(pattern, "(run_command");
            assert_eq!(message, "error: unclosed group");
        }
        other => panic!("unexpected error {other:?}"),
    }
}
#[test]
fn matchers_compare_by_text_and_kind() {
    assert_eq!(
        Matcher::parse("Bash").unwrap(),
        Matcher::parse("Bash").unwrap()
    );
    assert_ne!(
        Matcher::parse("Bash").unwrap(),
        Matcher::regex("Bash").unwrap()
    );
    assert_ne!(
        Matcher::parse("Bash").unwrap(),
        Matcher::parse("Edit").unwrap()
    );
}
#[test]
fn debug_shows_the_source() {
    assert_eq!(
        format!("{:?}", Matcher::parse("Edit|Wr.*").unwrap()),
        r#"Matcher("Edit|Wr.*")"#
    );
}

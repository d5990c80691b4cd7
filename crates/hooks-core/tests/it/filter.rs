//! Tests for filters (Autohand's tool lists and path globs) and Claude's `if` conditions.

use hooks_core::{ErrorKind, EventContext, Filter, IfCondition, Mismatch};
use serde_json::{Value, json};

/// A PreToolUse context for `tool` with `input`, in `cwd` `/repo`.
fn tool_ctx(tool: &str, input: Value) -> EventContext {
    EventContext::pre_tool_use(tool, input).cwd("/repo")
}

/// A `write_file` context about `path`, in `cwd`.
fn path_ctx(path: &str, cwd: Option<&str>) -> EventContext {
    let ctx = EventContext::pre_tool_use("write_file", json!({ "path": path }));
    match cwd {
        Some(cwd) => ctx.cwd(cwd),
        None => ctx,
    }
}

// ---------------------------------------------------------------------------------------
// Filter

/// A filter of `tools` and path `globs` must let `ctx` through (`Ok`) or reject it with
/// exactly `expect`.
#[track_caller]
fn check(tools: &[&str], globs: &[&str], ctx: &EventContext, expect: Result<(), Mismatch>) {
    let filter = Filter::new()
        .with_tools(tools.iter().copied())
        .with_paths(globs)
        .unwrap();
    assert_eq!(
        filter.check(ctx),
        expect,
        "tools {tools:?}, globs {globs:?}, ctx {ctx:?}"
    );
}

fn tool_mismatch(tool: Option<&str>, allowed: &[&str]) -> Result<(), Mismatch> {
    Err(Mismatch::Tool {
        tool: tool.map(str::to_owned),
        allowed: allowed.iter().map(|s| (*s).to_owned()).collect(),
    })
}

fn path_mismatch(
    path: Option<&str>,
    include: &[&str],
    excluded_by: Option<&str>,
) -> Result<(), Mismatch> {
    Err(Mismatch::Path {
        path: path.map(str::to_owned),
        include: include.iter().map(|s| (*s).to_owned()).collect(),
        excluded_by: excluded_by.map(str::to_owned),
    })
}

#[test]
fn empty_filter_passes_everything() {
    check(&[], &[], &EventContext::stop(false), Ok(()))
}
#[test]
fn empty_filter_is_empty() {
    assert!(Filter::new().is_empty());
    assert!(Filter::default().is_empty());
    assert!(!Filter::new().with_tools(["Bash"]).is_empty());
    assert!(!Filter::new().with_paths(["*.rs"]).unwrap().is_empty());
}
#[test]
fn empty_tool_list_is_no_tool_filter() {
    let filter = Filter::new().with_tools(Vec::<String>::new());
    assert!(filter.is_empty());
    assert_eq!(filter.check(&EventContext::stop(false)), Ok(()));
}
#[test]
fn listed_tool_passes() {
    check(
        &["run_command", "write_file"],
        &[],
        &tool_ctx("write_file", json!({})),
        Ok(()),
    )
}
#[test]
fn unlisted_tool_is_rejected() {
    check(
        &["run_command"],
        &[],
        &tool_ctx("write_file", json!({})),
        tool_mismatch(Some("write_file"), &["run_command"]),
    )
}
#[test]
fn tool_names_are_case_sensitive() {
    check(
        &["bash"],
        &[],
        &tool_ctx("Bash", json!({})),
        tool_mismatch(Some("Bash"), &["bash"]),
    )
}
#[test]
fn missing_tool_name_is_rejected() {
    check(
        &["Bash"],
        &[],
        &EventContext::stop(false),
        tool_mismatch(None, &["Bash"]),
    )
}
#[test]
fn with_tools_adds_up() {
    let filter = Filter::new()
        .with_tools(["A"])
        .with_tools(vec![String::from("B")]);
    assert_eq!(filter.tools(), ["A", "B"]);
    assert_eq!(filter.check(&tool_ctx("B", json!({}))), Ok(()));
}
#[test]
fn include_glob_matches_relative_path() {
    check(&[], &["src/**/*.ts"], &path_ctx("src/a/b.ts", None), Ok(()))
}
#[test]
fn include_glob_rejects_other_path() {
    check(
        &[],
        &["src/**/*.ts"],
        &path_ctx("lib/b.ts", None),
        path_mismatch(Some("lib/b.ts"), &["src/**/*.ts"], None),
    )
}
#[test]
fn double_star_matches_zero_directories() {
    check(&[], &["src/**/*.ts"], &path_ctx("src/a.ts", None), Ok(()))
}
#[test]
fn single_star_does_not_cross_slash() {
    check(
        &[],
        &["src/*.ts"],
        &path_ctx("src/a/b.ts", None),
        path_mismatch(Some("src/a/b.ts"), &["src/*.ts"], None),
    )
}
#[test]
fn star_alone_does_not_match_nested_paths() {
    check(
        &[],
        &["*.ts"],
        &path_ctx("src/a.ts", None),
        path_mismatch(Some("src/a.ts"), &["*.ts"], None),
    )
}
#[test]
fn leading_double_star_matches_anywhere() {
    check(
        &[],
        &["**/*.ts"],
        &path_ctx("/elsewhere/deep/a.ts", Some("/repo")),
        Ok(()),
    )
}
#[test]
fn absolute_path_is_matched_relative_to_cwd() {
    check(
        &[],
        &["src/**/*.ts"],
        &path_ctx("/repo/src/a.ts", Some("/repo")),
        Ok(()),
    )
}
#[test]
fn cwd_with_trailing_slash() {
    check(
        &[],
        &["src/**/*.ts"],
        &path_ctx("/repo/src/a.ts", Some("/repo/")),
        Ok(()),
    )
}
#[test]
fn cwd_prefix_must_end_at_a_component() {
    check(
        &[],
        &["src/**"],
        &path_ctx("/repository/src/a.ts", Some("/repo")),
        path_mismatch(Some("/repository/src/a.ts"), &["src/**"], None),
    )
}
#[test]
fn absolute_path_outside_cwd_is_not_relativised() {
    check(
        &[],
        &["src/**"],
        &path_ctx("/other/src/a.ts", Some("/repo")),
        path_mismatch(Some("/other/src/a.ts"), &["src/**"], None),
    )
}
#[test]
fn absolute_path_without_cwd_only_matches_as_given() {
    check(
        &[],
        &["src/**"],
        &path_ctx("/repo/src/a.ts", None),
        path_mismatch(Some("/repo/src/a.ts"), &["src/**"], None),
    )
}
#[test]
fn absolute_glob_matches_absolute_path() {
    check(
        &[],
        &["/repo/src/**"],
        &path_ctx("/repo/src/a.ts", None),
        Ok(()),
    )
}
#[test]
fn absolute_glob_matches_relative_path_joined_to_cwd() {
    check(
        &[],
        &["/repo/src/**"],
        &path_ctx("src/a.ts", Some("/repo")),
        Ok(()),
    )
}
#[test]
fn dot_slash_path_is_normalised() {
    check(&[], &["src/*.ts"], &path_ctx("./src/a.ts", None), Ok(()))
}
#[test]
fn any_include_is_enough() {
    check(
        &[],
        &["src/**/*.ts", "lib/**/*.js"],
        &path_ctx("lib/x/y.js", None),
        Ok(()),
    )
}
#[test]
fn missing_path_fails_include() {
    check(
        &[],
        &["src/**"],
        &tool_ctx("Bash", json!({"command": "ls"})),
        path_mismatch(None, &["src/**"], None),
    )
}
#[test]
fn missing_path_passes_exclude_only_filter() {
    check(
        &[],
        &["!**/*.lock"],
        &tool_ctx("Bash", json!({"command": "ls"})),
        Ok(()),
    )
}
#[test]
fn bang_glob_excludes() {
    check(
        &[],
        &["src/**", "!**/*.test.ts"],
        &path_ctx("src/a.test.ts", None),
        path_mismatch(Some("src/a.test.ts"), &["src/**"], Some("!**/*.test.ts")),
    )
}
#[test]
fn bang_glob_leaves_other_paths() {
    check(
        &[],
        &["src/**", "!**/*.test.ts"],
        &path_ctx("src/a.ts", None),
        Ok(()),
    )
}
#[test]
fn exclude_only_filter_passes_other_paths() {
    check(
        &[],
        &["!node_modules/**"],
        &path_ctx("src/a.ts", None),
        Ok(()),
    )
}
#[test]
fn exclude_only_filter_rejects_excluded_path() {
    check(
        &[],
        &["!node_modules/**"],
        &path_ctx("node_modules/x/i.js", None),
        path_mismatch(Some("node_modules/x/i.js"), &[], Some("!node_modules/**")),
    )
}
#[test]
fn exclude_applies_to_cwd_relative_form() {
    check(
        &[],
        &["!dist/**"],
        &path_ctx("/repo/dist/a.js", Some("/repo")),
        path_mismatch(Some("/repo/dist/a.js"), &[], Some("!dist/**")),
    )
}
#[test]
fn exclude_reports_the_first_matching_glob() {
    check(
        &[],
        &["!*.md", "!docs/**", "!docs/*.md"],
        &path_ctx("docs/a.md", None),
        path_mismatch(Some("docs/a.md"), &[], Some("!docs/**")),
    )
}
#[test]
fn tool_is_checked_before_path() {
    check(
        &["Edit"],
        &["src/**"],
        &path_ctx("lib/a", None),
        tool_mismatch(Some("write_file"), &["Edit"]),
    )
}
#[test]
fn tool_and_path_both_pass() {
    check(
        &["write_file"],
        &["src/**"],
        &path_ctx("src/a", None),
        Ok(()),
    )
}
#[test]
fn top_level_file_path_is_used() {
    check(
        &[],
        &["src/**/*.rs"],
        &EventContext::file_changed("/repo/src/lib.rs", "modified").cwd("/repo"),
        Ok(()),
    )
}
#[test]
fn notebook_path_is_used() {
    check(
        &[],
        &["*.ipynb"],
        &tool_ctx("NotebookEdit", json!({"notebook_path": "nb.ipynb"})),
        Ok(()),
    )
}
#[test]
fn with_excludes_adds_bang_globs() {
    let filter = Filter::new()
        .with_paths(["src/**"])
        .unwrap()
        .with_excludes(["**/gen/**", "!**/*.snap"])
        .unwrap();
    assert_eq!(filter.path_globs(), ["src/**", "!**/gen/**", "!**/*.snap"]);
    assert_eq!(
        filter.check(&path_ctx("src/gen/a.rs", None)),
        path_mismatch(Some("src/gen/a.rs"), &["src/**"], Some("!**/gen/**"))
    );
    assert_eq!(
        filter.check(&path_ctx("src/a.snap", None)),
        path_mismatch(Some("src/a.snap"), &["src/**"], Some("!**/*.snap"))
    );
    assert_eq!(filter.check(&path_ctx("src/a.rs", None)), Ok(()));
}
#[test]
fn with_paths_adds_up() {
    let filter = Filter::new()
        .with_paths(["a/**"])
        .unwrap()
        .with_paths(["b/**"])
        .unwrap();
    assert_eq!(filter.path_globs(), ["a/**", "b/**"]);
    assert_eq!(filter.check(&path_ctx("b/x", None)), Ok(()));
    assert_eq!(filter.check(&path_ctx("a/x", None)), Ok(()));
}

/// What a path filter does with a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Seen {
    Passes,
    Missed,
    Excluded,
}

/// A filter of `globs` must treat `path` (in `cwd`) as `expect` says.
#[track_caller]
fn check_seen(globs: &[&str], path: &str, cwd: Option<&str>, expect: Seen) {
    let filter = Filter::new().with_paths(globs).unwrap();
    let seen = match filter.check(&path_ctx(path, cwd)) {
        Ok(()) => Seen::Passes,
        Err(Mismatch::Path {
            excluded_by: Some(_),
            ..
        }) => Seen::Excluded,
        Err(Mismatch::Path {
            excluded_by: None, ..
        }) => Seen::Missed,
        Err(other) => panic!("unexpected mismatch {other:?}"),
    };
    assert_eq!(seen, expect, "globs {globs:?}, path `{path}`, cwd {cwd:?}");
}

/// Paths are normalised lexically before matching, so another spelling of a guarded path
/// (`.` and `..` segments, doubled slashes, the absolute form, a cwd written with `.`) is
/// the file it names: a guard sees it, and an exclude cannot be escaped.
#[test]
fn paths_are_normalised_before_matching() {
    use Seen::{Excluded, Missed, Passes};
    const REPO: Option<&str> = Some("/repo");
    let secrets: &[&str] = &["secrets/**"];
    let generated: &[&str] = &["src/**", "!src/generated/**"];
    let cases: &[(&[&str], &str, Option<&str>, Seen)] = &[
        (secrets, "./secrets/key", REPO, Passes),
        (secrets, "/repo/./secrets/key", REPO, Passes),
        (secrets, "lib/../secrets/key", REPO, Passes),
        (secrets, "lib/../secrets/key", None, Passes),
        (secrets, "/repo/lib/../secrets/key", REPO, Passes),
        (secrets, "lib/./../secrets/./key", None, Passes),
        (secrets, "secrets//key", None, Passes),
        (secrets, "/repo//secrets/key", REPO, Passes),
        (secrets, "../repo/secrets/key", REPO, Passes),
        (secrets, "/repo/secrets/key", Some("/repo/."), Passes),
        (secrets, "/repo/secrets/key", Some("/tmp/../repo/"), Passes),
        (
            secrets,
            "/home/u/link/./secrets/key",
            Some("/home/u/link"),
            Passes,
        ),
        // What normalises to somewhere else is somewhere else.
        (secrets, "secrets/../lib/key", REPO, Missed),
        (secrets, "/repo/../secrets/key", REPO, Missed),
        (secrets, "../other/secrets/key", REPO, Missed),
        (secrets, "../secrets/key", None, Missed),
        // Absolute globs see the normalised absolute form.
        (&["/repo/secrets/**"], "lib/../secrets/key", REPO, Passes),
        (&["/etc/**"], "/repo/../../etc/passwd", REPO, Passes),
        (&["/etc/**"], "../../etc/passwd", REPO, Passes),
        // An exclude is decided on the file the path names.
        (generated, "src/generated/../a.ts", REPO, Passes),
        (generated, "/repo/src/generated/../a.ts", REPO, Passes),
        (generated, "src/generated//../a.ts", REPO, Passes),
        (generated, "src/./generated/a.ts", REPO, Excluded),
        (generated, "src/x/../generated/a.ts", REPO, Excluded),
        (generated, "/repo/./src/generated/a.ts", REPO, Excluded),
        (generated, "src/generated/a.ts", REPO, Excluded),
        (generated, "src/a.ts", REPO, Passes),
    ];
    for &(globs, path, cwd, expect) in cases {
        check_seen(globs, path, cwd, expect);
    }
}

/// `globs` must be rejected as an invalid glob, naming `glob` with a message containing
/// `message`.
#[track_caller]
fn check_invalid_glob(globs: &[&str], glob: &str, message: &str) {
    let err = Filter::new().with_paths(globs).unwrap_err();
    match err.kind() {
        ErrorKind::InvalidGlob {
            glob: g,
            message: m,
        } => {
            assert_eq!(g, glob);
            assert!(m.contains(message), "message `{m}` lacks `{message}`");
        }
        other => panic!("unexpected error {other:?}"),
    }
    assert!(
        err.to_string()
            .starts_with(&format!("invalid glob `{glob}`: ")),
        "{err}"
    );
}

#[test]
fn unclosed_class_is_an_invalid_glob() {
    check_invalid_glob(&["src/**", "src/[a"], "src/[a", "unclosed character class")
}
#[test]
fn unclosed_alternate_is_an_invalid_glob() {
    check_invalid_glob(&["{a,b"], "{a,b", "unclosed alternate group")
}
#[test]
fn invalid_exclude_names_the_bang() {
    check_invalid_glob(&["![z-a]"], "![z-a]", "invalid range")
}
#[test]
fn empty_glob_is_invalid() {
    check_invalid_glob(&[""], "", "cannot be empty")
}
#[test]
fn bare_bang_is_invalid() {
    check_invalid_glob(&["!"], "!", "cannot be empty")
}
#[test]
fn with_excludes_reports_invalid_glob() {
    let err = Filter::new().with_excludes(["a[b"]).unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::InvalidGlob { glob, .. } if glob == "a[b"),
        "{err:?}"
    );
}

// ---------------------------------------------------------------------------------------
// IfCondition

/// `condition` must hold for `ctx`, or fail with a reason equal to `reason`.
#[track_caller]
fn check_if(condition: &str, ctx: &EventContext, reason: Option<&str>) {
    let parsed = IfCondition::parse(condition).unwrap();
    assert_eq!(parsed.as_str(), condition);
    let expect = match reason {
        None => Ok(()),
        Some(reason) => Err(Mismatch::Condition {
            condition: condition.to_owned(),
            reason: reason.to_owned(),
        }),
    };
    assert_eq!(parsed.check(ctx), expect, "`{condition}` against {ctx:?}");
}

fn bash(command: &str) -> EventContext {
    tool_ctx("Bash", json!({ "command": command, "description": "x" }))
}

fn edit(path: &str) -> EventContext {
    tool_ctx(
        "Edit",
        json!({ "file_path": path, "old_string": "a", "new_string": "b" }),
    )
}

fn fetch(url: &str) -> EventContext {
    tool_ctx("WebFetch", json!({ "url": url, "prompt": "summarise" }))
}

#[test]
fn bare_tool_matches_any_use() {
    check_if("Bash", &bash("rm -rf /"), None)
}
#[test]
fn bare_tool_rejects_other_tool() {
    check_if(
        "Bash",
        &edit("a.ts"),
        Some("tool `Edit` does not match `Bash`"),
    )
}
#[test]
fn tool_star_pattern_is_bare_tool() {
    check_if("Bash(*)", &bash("anything at all"), None)
}
#[test]
fn no_tool_name_never_matches() {
    check_if(
        "Bash",
        &EventContext::stop(false),
        Some("the event has no tool name"),
    )
}
#[test]
fn command_wildcard_matches() {
    check_if("Bash(git *)", &bash("git status"), None)
}
#[test]
fn command_wildcard_is_anchored_at_start() {
    check_if(
        "Bash(git *)",
        &bash("echo git status"),
        Some("command `echo git status` does not match `git *`"),
    )
}
#[test]
fn command_wildcard_is_anchored_at_end() {
    check_if(
        "Bash(git status)",
        &bash("git status --short"),
        Some("command `git status --short` does not match `git status`"),
    )
}
#[test]
fn command_exact_matches() {
    check_if("Bash(npm install)", &bash("npm install"), None)
}
#[test]
fn command_star_crosses_spaces_and_slashes() {
    check_if(
        "Bash(curl * https://*/api)",
        &bash("curl -s -X GET https://a.b/c/api"),
        None,
    )
}
#[test]
fn command_trailing_star_is_optional() {
    check_if("Bash(git *)", &bash("git"), None)
}
#[test]
fn command_trailing_star_needs_the_space() {
    check_if(
        "Bash(git *)",
        &bash("gitk"),
        Some("command `gitk` does not match `git *`"),
    )
}
#[test]
fn command_star_without_space_is_plain() {
    check_if("Bash(ls*)", &bash("lsblk"), None)
}
#[test]
fn command_middle_star() {
    check_if(
        "Bash(npm * --save)",
        &bash("npm install left-pad --save"),
        None,
    )
}
#[test]
fn command_middle_star_needs_the_rest() {
    check_if(
        "Bash(npm * --save)",
        &bash("npm install left-pad"),
        Some("command `npm install left-pad` does not match `npm * --save`"),
    )
}
#[test]
fn command_matches_across_lines() {
    check_if("Bash(cat *)", &bash("cat <<EOF\nhi\nEOF"), None)
}
#[test]
fn escaped_star_is_literal() {
    check_if(
        r"Bash(echo \*)",
        &bash("echo hello"),
        Some(r"command `echo hello` does not match `echo \*`"),
    )
}
#[test]
fn escaped_star_matches_a_star() {
    check_if(r"Bash(echo \*)", &bash("echo *"), None)
}
#[test]
fn regex_characters_are_literal() {
    check_if(
        "Bash(ls (a|b).txt)",
        &bash("ls a.txt"),
        Some("command `ls a.txt` does not match `ls (a|b).txt`"),
    )
}
#[test]
fn legacy_prefix_matches_bare_prefix() {
    check_if("Bash(npm run test:*)", &bash("npm run test"), None)
}
#[test]
fn legacy_prefix_matches_with_arguments() {
    check_if(
        "Bash(npm run test:*)",
        &bash("npm run test -- --watch"),
        None,
    )
}
#[test]
fn legacy_prefix_matches_at_punctuation() {
    check_if("Bash(npm run test:*)", &bash("npm run test:unit"), None)
}
#[test]
fn legacy_prefix_respects_word_boundary() {
    check_if(
        "Bash(npm run test:*)",
        &bash("npm run testing"),
        Some("command `npm run testing` does not match `npm run test:*`"),
    )
}
#[test]
fn legacy_prefix_is_anchored() {
    check_if(
        "Bash(npm:*)",
        &bash("pnpm install"),
        Some("command `pnpm install` does not match `npm:*`"),
    )
}
#[test]
fn legacy_prefix_ending_in_punctuation() {
    check_if(
        "Bash(curl http://site.com/:*)",
        &bash("curl http://site.com/x"),
        None,
    )
}
#[test]
fn long_command_is_shortened_in_reason() {
    let long = format!("echo {}", "x".repeat(200));
    let reason = IfCondition::parse("Bash(git *)")
        .unwrap()
        .check(&bash(&long))
        .unwrap_err();
    let Mismatch::Condition { reason, .. } = reason else {
        panic!("{reason:?}")
    };
    assert!(reason.starts_with("command `echo xxx"), "{reason}");
    assert!(reason.contains("…` does not match `git *`"), "{reason}");
    assert!(reason.len() < 130, "{reason}");
}
#[test]
fn basename_glob_matches_anywhere() {
    check_if("Edit(*.ts)", &edit("src/a/b.ts"), None)
}
#[test]
fn basename_glob_matches_absolute_path() {
    check_if("Edit(*.ts)", &edit("/elsewhere/b.ts"), None)
}
#[test]
fn basename_glob_rejects_other_extension() {
    check_if(
        "Edit(*.ts)",
        &edit("src/a/b.tsx"),
        Some("path `src/a/b.tsx` does not match `*.ts`"),
    )
}
#[test]
fn basename_glob_dotfile() {
    check_if(
        "Read(.env*)",
        &tool_ctx("Read", json!({"file_path": "/repo/app/.env.local"})),
        None,
    )
}
#[test]
fn directory_glob_matches_relative_to_cwd() {
    check_if(
        "Write(src/**)",
        &tool_ctx(
            "Write",
            json!({"file_path": "/repo/src/a/b.ts", "content": ""}),
        ),
        None,
    )
}
#[test]
fn directory_glob_matches_relative_path() {
    check_if(
        "Write(src/**)",
        &tool_ctx("Write", json!({"file_path": "src/a.ts"})),
        None,
    )
}
#[test]
fn directory_glob_rejects_other_directory() {
    check_if(
        "Write(src/**)",
        &tool_ctx("Write", json!({"file_path": "/repo/lib/a.ts"})),
        Some("path `/repo/lib/a.ts` does not match `src/**`"),
    )
}
#[test]
fn directory_glob_star_stays_in_directory() {
    check_if(
        "Edit(src/*.ts)",
        &edit("/repo/src/a/b.ts"),
        Some("path `/repo/src/a/b.ts` does not match `src/*.ts`"),
    )
}
#[test]
fn directory_glob_double_star_crosses() {
    check_if("Edit(src/**/*.ts)", &edit("/repo/src/a/b/c.ts"), None)
}
#[test]
fn slash_glob_is_anchored_at_cwd() {
    check_if("Edit(/src/**/*.ts)", &edit("/repo/src/a.ts"), None)
}
#[test]
fn slash_glob_is_not_an_absolute_path() {
    check_if(
        "Edit(/src/**)",
        &edit("/src/a.ts"),
        Some("path `/src/a.ts` does not match `/src/**`"),
    )
}
#[test]
fn dot_slash_glob_is_anchored_at_cwd() {
    check_if("Edit(./docs/*.md)", &edit("/repo/docs/a.md"), None)
}
#[test]
fn double_slash_glob_is_absolute() {
    check_if(
        "Read(//etc/**)",
        &tool_ctx("Read", json!({"file_path": "/etc/passwd"})),
        None,
    )
}
#[test]
fn double_slash_glob_joins_relative_path_to_cwd() {
    check_if(
        "Read(//repo/secrets/**)",
        &tool_ctx("Read", json!({"file_path": "secrets/key"})),
        None,
    )
}
#[test]
fn double_slash_glob_rejects_other_root() {
    check_if(
        "Read(//etc/**)",
        &tool_ctx("Read", json!({"file_path": "/repo/etc/x"})),
        Some("path `/repo/etc/x` does not match `//etc/**`"),
    )
}
/// Claude's `if` path patterns see the same normalised path as filters do.
#[test]
fn condition_paths_are_normalised_before_matching() {
    let cases: &[(&str, &str, bool)] = &[
        ("Edit(secrets/**)", "./secrets/key", true),
        ("Edit(secrets/**)", "lib/../secrets/key", true),
        ("Edit(secrets/**)", "/repo/./secrets/key", true),
        ("Edit(secrets/**)", "/repo/lib/../secrets/key", true),
        ("Edit(secrets/**)", "../repo/secrets/key", true),
        ("Edit(secrets/**)", "secrets/../lib/key", false),
        ("Edit(/secrets/**)", "lib/../secrets/key", true),
        ("Edit(/secrets/**)", "../repo/secrets/key", true),
        ("Edit(/secrets/**)", "/repo/../secrets/key", false),
        ("Read(//etc/**)", "/repo/../etc/passwd", true),
        ("Read(//etc/**)", "../etc/passwd", true),
        ("Read(//repo/secrets/**)", "lib/../secrets/key", true),
        ("Edit(*.pem)", "keys/id.pem/.", true),
        ("Edit(*.pem)", "id.pem/../notes.txt", false),
    ];
    for &(condition, path, holds) in cases {
        let parsed = IfCondition::parse(condition).unwrap();
        let tool = condition.split('(').next().unwrap();
        let ctx = tool_ctx(tool, json!({ "file_path": path }));
        assert_eq!(
            parsed.check(&ctx).is_ok(),
            holds,
            "`{condition}` against `{path}`"
        );
    }
}
#[test]
fn path_key_is_used() {
    check_if("write_file(*.md)", &path_ctx("docs/a.md", None), None)
}
#[test]
fn command_wins_over_path() {
    // Decided by what the input holds: a command is matched even if a path is there too.
    check_if(
        "Bash(*.ts)",
        &tool_ctx("Bash", json!({"command": "tsc", "path": "a.ts"})),
        Some("command `tsc` does not match `*.ts`"),
    )
}
#[test]
fn path_pattern_that_is_no_glob_is_explained() {
    check_if(
        "Edit(a[b)",
        &edit("a[b"),
        Some(
            "path `a[b` cannot be matched: `a[b` is not a valid glob (unclosed character class; missing ']')",
        ),
    )
}
#[test]
fn command_pattern_that_is_no_glob_still_works() {
    check_if("Bash(echo [)", &bash("echo ["), None)
}
#[test]
fn domain_matches_host() {
    check_if(
        "WebFetch(domain:example.com)",
        &fetch("https://example.com/docs?q=1"),
        None,
    )
}
#[test]
fn domain_ignores_port_user_and_case() {
    check_if(
        "WebFetch(domain:example.com)",
        &fetch("https://me:pw@Example.COM:8443/x"),
        None,
    )
}
#[test]
fn domain_is_exact_host() {
    check_if(
        "WebFetch(domain:example.com)",
        &fetch("https://api.example.com/"),
        Some("host `api.example.com` does not match `domain:example.com`"),
    )
}
#[test]
fn domain_is_not_a_suffix_trick() {
    check_if(
        "WebFetch(domain:example.com)",
        &fetch("https://example.com.evil.io/"),
        Some("host `example.com.evil.io` does not match `domain:example.com`"),
    )
}
#[test]
fn domain_userinfo_trick_uses_real_host() {
    check_if(
        "WebFetch(domain:example.com)",
        &fetch("https://example.com@evil.io/"),
        Some("host `evil.io` does not match `domain:example.com`"),
    )
}
#[test]
fn domain_wildcard_matches_subdomains() {
    check_if(
        "WebFetch(domain:*.example.com)",
        &fetch("http://api.example.com"),
        None,
    )
}
#[test]
fn domain_without_scheme() {
    check_if(
        "WebFetch(domain:example.com)",
        &fetch("example.com/a#b"),
        None,
    )
}
#[test]
fn domain_ipv6_host() {
    check_if("WebFetch(domain:[::1])", &fetch("http://[::1]:8080/"), None)
}
#[test]
fn domain_without_url_falls_back_to_first_string() {
    check_if(
        "WebSearch(domain:example.com)",
        &tool_ctx("WebSearch", json!({"query": "rust"})),
        Some("query = `rust` does not match `domain:example.com`"),
    )
}
#[test]
fn mcp_tool_wildcard_matches_server_tools() {
    check_if(
        "mcp__github__*",
        &tool_ctx("mcp__github__create_issue", json!({})),
        None,
    )
}
#[test]
fn mcp_tool_wildcard_rejects_other_server() {
    check_if(
        "mcp__github__*",
        &tool_ctx("mcp__gitlab__create_issue", json!({})),
        Some("tool `mcp__gitlab__create_issue` does not match `mcp__github__*`"),
    )
}
#[test]
fn mcp_tool_wildcard_is_anchored() {
    check_if(
        "mcp__github__*",
        &tool_ctx("x_mcp__github__a", json!({})),
        Some("tool `x_mcp__github__a` does not match `mcp__github__*`"),
    )
}
#[test]
fn exact_mcp_tool_name() {
    check_if(
        "mcp__memory__create_entities",
        &tool_ctx("mcp__memory__create_entities_v2", json!({})),
        Some(
            "tool `mcp__memory__create_entities_v2` does not match `mcp__memory__create_entities`",
        ),
    )
}
#[test]
fn first_string_value_fallback_matches() {
    check_if(
        "mcp__db__query(SELECT *)",
        &tool_ctx(
            "mcp__db__query",
            json!({"limit": 5, "sql": "SELECT * FROM t"}),
        ),
        None,
    )
}
#[test]
fn first_string_value_fallback_rejects() {
    check_if(
        "mcp__db__query(SELECT *)",
        &tool_ctx("mcp__db__query", json!({"limit": 5, "sql": "DROP TABLE t"})),
        Some("sql = `DROP TABLE t` does not match `SELECT *`"),
    )
}
#[test]
fn fallback_has_no_trailing_star_exception() {
    check_if(
        "Task(review *)",
        &tool_ctx("Task", json!({"prompt": "review"})),
        Some("prompt = `review` does not match `review *`"),
    )
}
#[test]
fn string_tool_input_is_matched() {
    check_if("Echo(hi*)", &tool_ctx("Echo", json!("hiya")), None)
}
#[test]
fn input_without_strings_has_no_subject() {
    check_if(
        "Calc(1*)",
        &tool_ctx("Calc", json!({"a": 1})),
        Some("the tool input has no command, path, url or string value to match `1*` against"),
    )
}
#[test]
fn missing_input_has_no_subject() {
    check_if(
        "Bash(ls)",
        &EventContext::new(hooks_core::BuiltinEvent::PreToolUse).with("tool_name", "Bash"),
        Some("the tool input has no command, path, url or string value to match `ls` against"),
    )
}
#[test]
fn pattern_and_tool_are_trimmed() {
    check_if("  Bash ( git * )  ", &bash("git log"), None)
}

/// `condition` must not parse, with a message equal to `message`.
#[track_caller]
fn check_bad(condition: &str, message: &str) {
    let err = IfCondition::parse(condition).unwrap_err();
    match err.kind() {
        ErrorKind::InvalidCondition {
            condition: c,
            message: m,
        } => {
            assert_eq!(c, condition);
            assert_eq!(m, message);
        }
        other => panic!("unexpected error {other:?}"),
    }
    assert!(
        err.to_string().contains("looks like `Bash(git *)`"),
        "hint: {err}"
    );
}

#[test]
fn empty_condition_is_an_error() {
    check_bad("  ", "the condition is empty")
}
#[test]
fn empty_tool_is_an_error() {
    check_bad("(git *)", "the tool name is empty")
}
#[test]
fn empty_pattern_is_an_error() {
    check_bad(
        "Bash()",
        "the pattern between the parentheses is empty (write the bare tool name to match every use)",
    )
}
#[test]
fn blank_pattern_is_an_error() {
    check_bad(
        "Bash(  )",
        "the pattern between the parentheses is empty (write the bare tool name to match every use)",
    )
}
#[test]
fn missing_close_paren_is_an_error() {
    check_bad("Bash(git *", "it is missing the closing `)`")
}
#[test]
fn stray_close_paren_is_an_error() {
    check_bad("Bash)", "it has a `)` without a matching `(`")
}
#[test]
fn text_after_close_paren_is_an_error() {
    check_bad("Bash(git *) x", "nothing may follow the closing `)`")
}
#[test]
fn unbalanced_inner_parens_are_an_error() {
    check_bad("Bash(echo ((x)", "its parentheses are unbalanced")
}
#[test]
fn extra_close_paren_is_an_error() {
    check_bad("Bash(echo x))", "its parentheses are unbalanced")
}
#[test]
fn spaces_in_tool_name_are_an_error() {
    check_bad("Bash Edit", "a tool name cannot contain spaces")
}
#[test]
fn empty_domain_is_an_error() {
    check_bad(
        "WebFetch(domain:)",
        "`domain:` needs a host, as in `domain:example.com`",
    )
}
#[test]
fn balanced_inner_parens_are_fine() {
    check_if("Bash(echo (x))", &bash("echo (x)"), None)
}

// ---------------------------------------------------------------------------------------
// `if` conditions over compound shell commands

/// Bash commands and whether each condition holds for them: the condition holds when the
/// whole command or any of its simple commands matches.
const COMPOUND: &[(&str, &str, bool)] = &[
    ("Bash(git push*)", "cd repo && git push origin", true),
    ("Bash(git push*)", "FOO=1 git push", true),
    ("Bash(git push*)", "FOO=1 BAR='a b' git push --force", true),
    ("Bash(git push*)", "git status; git push", true),
    ("Bash(git push*)", "make || git push", true),
    ("Bash(git push*)", "git log | head && git push", true),
    ("Bash(git push*)", "cd repo &&\n  git push", true),
    ("Bash(git push*)", "(cd repo; git push)", true),
    ("Bash(git push*)", "if true; then git push; fi", true),
    ("Bash(git push*)", "sudo git push", true),
    ("Bash(git push*)", "bash -c 'git push'", true),
    ("Bash(git push*)", "echo $(git push)", true),
    ("Bash(rm *)", "true && rm -rf build", true),
    ("Bash(rm *)", "ls | xargs rm -f", true),
    ("Bash(git *)", "cd x && git", true),
    ("Bash(npm run test:*)", "cd web && npm run test:unit", true),
    ("Bash(sudo *)", "cd x && sudo make install", true),
    ("Bash(cd *)", "cd repo && git push", true),
    (
        "Bash(git commit -m \"a  b\")",
        "git add . && git commit -m \"a  b\"",
        true,
    ),
    // Text that does not parse: the hook runs, as in Claude Code.
    ("Bash(git push*)", "ls && echo \"unterminated", true),
    ("Bash(git push*)", "cd repo && git status", false),
    ("Bash(git push*)", "echo \"git push\"", false),
    ("Bash(git push*)", "FOO=1 git status", false),
    ("Bash(git push*)", "gitpush && ls", false),
    ("Bash(git push*)", "ls | grep 'git push'", false),
    ("Bash(rm *)", "grep -r 'rm x' . && ls", false),
    ("Bash(git *)", "cd x && gitk", false),
    ("Bash(git *)", "FOO=git ls", false),
];

#[test]
fn conditions_check_every_simple_command() {
    let mut failures = Vec::new();
    for (condition, command, holds) in COMPOUND {
        let parsed = IfCondition::parse(condition).unwrap();
        let got = parsed.check(&bash(command)).is_ok();
        if got != *holds {
            failures.push(format!(
                "`{condition}` on `{command}`: {got}, wanted {holds}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_compound_mismatch_quotes_the_whole_command() {
    check_if(
        "Bash(git push*)",
        &bash("cd repo && git status"),
        Some("command `cd repo && git status` does not match `git push*`"),
    )
}

#[test]
fn compound_conditions_gate_the_index_too() {
    let spec = |cond: &str| {
        hooks_core::HookSpec::new(
            hooks_core::BuiltinEvent::PreToolUse,
            hooks_core::Action::script("./guard.sh"),
        )
        .with_condition(IfCondition::parse(cond).unwrap())
    };
    let index = hooks_core::HookIndex::new(vec![spec("Bash(rm *)")]);
    assert_eq!(index.matching(&bash("true && rm -rf x")).len(), 1);
    assert_eq!(index.matching(&bash("echo 'rm -rf x'")).len(), 0);
}

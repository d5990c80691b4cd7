//! The HTTP hook URL allow-list: the engine's patterns and Claude Code's wildcard form.

use hooks_core::UrlAllowList;

/// Whether the list of `patterns` allows `url`.
#[track_caller]
fn check(patterns: &[&str], url: &str, allowed: bool) {
    let list = UrlAllowList::parse(patterns).unwrap();
    assert_eq!(list.allows_str(url), allowed, "{patterns:?} on {url}");
}

#[test]
fn claude_codes_wildcard_stands_anywhere_the_port_included() {
    // The reference's own example: any http://localhost URL, whatever its port and path.
    let local = &["http://localhost:*"];
    check(local, "http://localhost:8080/hook", true);
    check(local, "http://localhost:3000/", true);
    check(local, "http://LOCALHOST:9/x?y=1", true);
    check(local, "https://localhost:8080/hook", false);
    check(local, "http://localhost.evil.test:80/", false);
    check(local, "http://evil.test/?localhost:1", false);
    // Credentials in the URL are not part of what is matched.
    check(local, "http://localhost:1@evil.test/", false);
    // `*` in the middle of a path or a host.
    check(
        &["https://hooks.example.com/*/run"],
        "https://hooks.example.com/ci/run",
        true,
    );
    check(
        &["https://hooks.example.com/*/run"],
        "https://hooks.example.com/ci/walk",
        false,
    );
    check(
        &["https://ci-*.example.com/"],
        "https://ci-7.example.com/",
        true,
    );
    check(
        &["https://ci-*.example.com/"],
        "https://cd-7.example.com/",
        false,
    );
    // Dot segments are resolved before matching.
    check(
        &["https://hooks.example.com/*/run"],
        "https://hooks.example.com/a/../../run",
        false,
    );
}

#[test]
fn host_names_ignore_case_and_a_trailing_dot() {
    let list = &["https://hooks.example.com/*"];
    check(list, "https://HOOKS.example.com/x", true);
    check(list, "https://hooks.example.com./x", true);
    check(
        &["https://hooks.example.com./"],
        "https://hooks.example.com/x",
        true,
    );
    check(&["http://LocalHost:*"], "http://localhost.:8080/", true);
}

#[test]
fn the_engines_own_patterns_keep_their_rules() {
    check(
        &["https://hooks.example.com/ci"],
        "https://hooks.example.com/ci/run",
        true,
    );
    check(
        &["https://hooks.example.com/ci"],
        "https://hooks.example.com/cider",
        false,
    );
    check(&["https://*.example.com/"], "https://a.example.com/x", true);
    check(&["https://*.example.com/"], "https://example.com/", false);
    check(&["*"], "http://anything.test:1/", true);
    check(&[], "http://anything.test/", false);
}

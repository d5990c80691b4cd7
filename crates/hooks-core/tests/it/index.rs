//! Tests for the hook index: bucketing by event and matcher kind, declaration order,
//! disabled hooks, filters and conditions, `explain`, and a property test that the fast
//! path and `explain` always agree.

use hooks_core::{
    Action, BuiltinEvent, Dialect, Event, EventCatalog, EventContext, EventInfo, Fields, Filter,
    HookIndex, HookPos, HookSpec, IfCondition, MatchReport, Matcher, Mismatch,
};
use proptest::prelude::*;
use serde_json::json;

/// A hook on `event` with a Claude-style `matcher`.
fn hook(event: impl Into<Event>, matcher: &str) -> HookSpec {
    HookSpec::new(event, Action::script("true")).with_matcher(Matcher::parse(matcher).unwrap())
}

/// A hook on `event` with an always-a-regex `matcher` (Autohand, Fabro).
fn regex_hook(event: impl Into<Event>, matcher: &str) -> HookSpec {
    HookSpec::new(event, Action::script("true")).with_matcher(Matcher::regex(matcher).unwrap())
}

fn pre(tool: &str) -> EventContext {
    EventContext::pre_tool_use(tool, json!({"command": "ls"}))
}

/// `specs` indexed must match `ctx` with exactly the hooks `expect`, in that order; and
/// `explain` must agree.
#[track_caller]
fn check(specs: Vec<HookSpec>, ctx: &EventContext, expect: &[usize]) {
    let index = HookIndex::new(specs);
    assert_eq!(index.matching(ctx), expect, "matching {ctx:?}");
    let explained: Vec<HookPos> = index
        .explain(ctx)
        .iter()
        .filter(|r| r.is_match())
        .map(|r| r.index)
        .collect();
    assert_eq!(explained, expect, "explain {ctx:?}");
}

/// `spec` alone must fail to match `ctx` with exactly `mismatch`, displayed as `text`.
#[track_caller]
fn check_explain(spec: HookSpec, ctx: &EventContext, mismatch: Mismatch, text: &str) {
    let index = HookIndex::new(vec![spec]);
    assert_eq!(index.matching(ctx), Vec::<usize>::new());
    assert_eq!(
        index.explain(ctx),
        vec![MatchReport {
            index: HookPos::new(0),
            mismatch: Some(mismatch.clone())
        }]
    );
    assert_eq!(mismatch.to_string(), text);
}

#[test]
fn empty_index_matches_nothing() {
    check(vec![], &pre("Bash"), &[])
}
#[test]
fn empty_index_has_no_hooks() {
    let index = HookIndex::new(vec![]);
    assert!(index.is_empty());
    assert_eq!(index.len(), 0);
    assert!(!index.has_hooks(&BuiltinEvent::PreToolUse.into()));
    assert!(index.explain(&pre("Bash")).is_empty());
    assert!(HookIndex::default().matching(&pre("Bash")).is_empty());
}
#[test]
fn empty_result_does_not_allocate() {
    let index = HookIndex::new(vec![hook(BuiltinEvent::PostToolUse, "*")]);
    assert_eq!(index.matching(&pre("Bash")).capacity(), 0);
    let index = HookIndex::new(vec![hook(BuiltinEvent::PreToolUse, "Edit")]);
    assert_eq!(index.matching(&pre("Bash")).capacity(), 0);
}
#[test]
fn other_event_does_not_match() {
    check(
        vec![hook(BuiltinEvent::PostToolUse, "*")],
        &pre("Bash"),
        &[],
    )
}
#[test]
fn star_matches() {
    check(
        vec![hook(BuiltinEvent::PreToolUse, "*")],
        &pre("Bash"),
        &[0],
    )
}
#[test]
fn exact_matches_its_tool() {
    check(
        vec![hook(BuiltinEvent::PreToolUse, "Bash")],
        &pre("Bash"),
        &[0],
    )
}
#[test]
fn exact_rejects_other_tool() {
    check(
        vec![hook(BuiltinEvent::PreToolUse, "Bash")],
        &pre("Edit"),
        &[],
    )
}
#[test]
fn list_matches_each_name() {
    check(
        vec![hook(BuiltinEvent::PreToolUse, "Edit|Write")],
        &pre("Write"),
        &[0],
    )
}
#[test]
fn repeated_name_matches_once() {
    check(
        vec![hook(BuiltinEvent::PreToolUse, "Bash|Bash,Bash")],
        &pre("Bash"),
        &[0],
    )
}
#[test]
fn regex_matches_unanchored() {
    check(
        vec![hook(BuiltinEvent::PreToolUse, "Ba.h")],
        &pre("MyBash"),
        &[0],
    )
}
#[test]
fn identifier_regex_from_regex_dialect() {
    check(
        vec![regex_hook(BuiltinEvent::PreToolUse, "Bash")],
        &pre("MyBash"),
        &[0],
    )
}
#[test]
fn mcp_exact_and_regex() {
    check(
        vec![
            hook(BuiltinEvent::PreToolUse, "mcp__memory__create_entities"),
            hook(BuiltinEvent::PreToolUse, "mcp__memory__.*"),
            hook(BuiltinEvent::PreToolUse, "mcp__github__.*"),
        ],
        &pre("mcp__memory__read_graph"),
        &[1],
    )
}
#[test]
fn declaration_order_is_kept_across_matcher_kinds() {
    check(
        vec![
            hook(BuiltinEvent::PreToolUse, "^Ba"),
            hook(BuiltinEvent::PostToolUse, "*"),
            hook(BuiltinEvent::PreToolUse, "Bash"),
            hook(BuiltinEvent::PreToolUse, "*"),
            hook(BuiltinEvent::PreToolUse, "Edit|Wr.*"),
            hook(BuiltinEvent::PreToolUse, "Edit|Bash"),
            hook(BuiltinEvent::PreToolUse, "sh$"),
            hook(BuiltinEvent::PreToolUse, ""),
        ],
        &pre("Bash"),
        &[0, 2, 3, 5, 6, 7],
    )
}
#[test]
fn many_hooks_keep_order() {
    let specs: Vec<HookSpec> = (0..300)
        .map(|i| match i % 3 {
            0 => hook(BuiltinEvent::PreToolUse, "*"),
            1 => hook(
                BuiltinEvent::PreToolUse,
                if i % 2 == 0 { "Bash" } else { "Edit" },
            ),
            _ => hook(
                BuiltinEvent::PreToolUse,
                if i % 2 == 0 { "^B.*" } else { "^E.*" },
            ),
        })
        .collect();
    let expect: Vec<usize> = (0..300).filter(|i| i % 3 == 0 || i % 2 == 0).collect();
    check(specs, &pre("Bash"), &expect)
}
#[test]
fn many_hooks_after_other_events_keep_order() {
    // The bucket's ids start at 7, not 0, and interleave with another event's.
    let mut specs: Vec<HookSpec> = (0..7).map(|_| hook(BuiltinEvent::Stop, "*")).collect();
    for i in 0..200 {
        specs.push(hook(
            BuiltinEvent::PreToolUse,
            ["*", "Bash", "^Ba", "Edit|Wr.*", "sh$"][i % 5],
        ));
        specs.push(hook(BuiltinEvent::Stop, "*"));
    }
    let expect: Vec<usize> = (0..200).filter(|i| i % 5 != 3).map(|i| 7 + 2 * i).collect();
    check(specs, &pre("Bash"), &expect)
}
#[test]
fn hooks_sharing_a_regex_all_match() {
    check(
        vec![
            hook(BuiltinEvent::PreToolUse, "^Ba"),
            hook(BuiltinEvent::PreToolUse, "Edit"),
            hook(BuiltinEvent::PreToolUse, "^Ba"),
            regex_hook(BuiltinEvent::PreToolUse, "^Ba"),
        ],
        &pre("Bash"),
        &[0, 2, 3],
    )
}
#[test]
fn disabled_hook_never_matches() {
    check(
        vec![
            hook(BuiltinEvent::PreToolUse, "*").with_enabled(false),
            hook(BuiltinEvent::PreToolUse, "Bash"),
        ],
        &pre("Bash"),
        &[1],
    )
}
#[test]
fn disabled_hooks_do_not_count_for_has_hooks() {
    let index = HookIndex::new(vec![hook(BuiltinEvent::Stop, "*").with_enabled(false)]);
    assert!(!index.has_hooks(&BuiltinEvent::Stop.into()));
    assert_eq!(index.len(), 1);
    assert!(!index.is_empty());
}
#[test]
fn has_hooks_is_per_event() {
    let index = HookIndex::new(vec![
        hook(BuiltinEvent::Stop, "*"),
        hook(BuiltinEvent::PreToolUse, "Nothing"),
    ]);
    assert!(index.has_hooks(&BuiltinEvent::Stop.into()));
    assert!(index.has_hooks(&BuiltinEvent::PreToolUse.into()));
    assert!(!index.has_hooks(&BuiltinEvent::PostToolUse.into()));
}
#[test]
fn event_without_matcher_fields_ignores_matcher() {
    check(
        vec![hook(BuiltinEvent::Stop, "Bash")],
        &EventContext::stop(false),
        &[0],
    )
}
#[test]
fn prompt_event_ignores_matcher() {
    check(
        vec![hook(BuiltinEvent::UserPromptSubmit, "^never$")],
        &EventContext::user_prompt_submit("hi"),
        &[0],
    )
}
#[test]
fn missing_matcher_field_is_the_empty_subject() {
    let ctx = EventContext::new(BuiltinEvent::PreToolUse);
    check(
        vec![
            hook(BuiltinEvent::PreToolUse, "*"),
            hook(BuiltinEvent::PreToolUse, "Bash"),
            hook(BuiltinEvent::PreToolUse, "^$"),
            hook(BuiltinEvent::PreToolUse, "x*"),
        ],
        &ctx,
        &[0, 2, 3],
    )
}
#[test]
fn null_matcher_field_is_missing() {
    let ctx =
        EventContext::new(BuiltinEvent::PreToolUse).with("tool_name", serde_json::Value::Null);
    check(
        vec![
            hook(BuiltinEvent::PreToolUse, "null"),
            hook(BuiltinEvent::PreToolUse, "^$"),
        ],
        &ctx,
        &[1],
    )
}
#[test]
fn session_start_matches_source() {
    check(
        vec![hook(BuiltinEvent::SessionStart, "startup|resume")],
        &EventContext::session_start("resume"),
        &[0],
    )
}
#[test]
fn session_start_matches_second_field() {
    let ctx = EventContext::session_start("startup").with("session_type", "headless");
    check(
        vec![
            hook(BuiltinEvent::SessionStart, "headless"),
            hook(BuiltinEvent::SessionStart, "clear"),
            hook(BuiltinEvent::SessionStart, "^start"),
            hook(BuiltinEvent::SessionStart, "less$"),
        ],
        &ctx,
        &[0, 2, 3],
    )
}
#[test]
fn hook_matching_two_fields_is_listed_once() {
    let ctx = EventContext::session_start("same").with("session_type", "same");
    check(
        vec![
            hook(BuiltinEvent::SessionStart, "same"),
            hook(BuiltinEvent::SessionStart, "^sa"),
        ],
        &ctx,
        &[0, 1],
    )
}
#[test]
fn numeric_subject_is_its_json_text() {
    let ctx = EventContext::new(BuiltinEvent::AutomodeIteration).with("automode_iteration", 3);
    check(
        vec![
            hook(BuiltinEvent::AutomodeIteration, "3"),
            hook(BuiltinEvent::AutomodeIteration, "4"),
        ],
        &ctx,
        &[0],
    )
}
#[test]
fn fabro_stage_matches_node_or_handler() {
    let ctx = EventContext::stage(hooks_core::StageEvent::Start, "deploy", "shell");
    check(
        vec![
            regex_hook(BuiltinEvent::StageStart, "^deploy$"),
            regex_hook(BuiltinEvent::StageStart, "shell"),
            regex_hook(BuiltinEvent::StageStart, "agent"),
        ],
        &ctx,
        &[0, 1],
    )
}
#[test]
fn filter_narrows_matches() {
    let filtered =
        hook(BuiltinEvent::PreToolUse, "*").with_filter(Filter::new().with_tools(["Edit"]));
    check(
        vec![filtered, hook(BuiltinEvent::PreToolUse, "*")],
        &pre("Bash"),
        &[1],
    )
}
#[test]
fn path_filter_narrows_matches() {
    let filtered = hook(BuiltinEvent::PreToolUse, "*")
        .with_filter(Filter::new().with_paths(["src/**"]).unwrap());
    let ctx = EventContext::pre_tool_use("Edit", json!({"file_path": "/r/src/a.rs"})).cwd("/r");
    let other = EventContext::pre_tool_use("Edit", json!({"file_path": "/r/lib/a.rs"})).cwd("/r");
    check(vec![filtered.clone()], &ctx, &[0]);
    check(vec![filtered], &other, &[]);
}
#[test]
fn condition_narrows_matches() {
    let guarded = hook(BuiltinEvent::PreToolUse, "Bash")
        .with_condition(IfCondition::parse("Bash(git *)").unwrap());
    check(
        vec![guarded.clone()],
        &EventContext::pre_tool_use("Bash", json!({"command": "git push"})),
        &[0],
    );
    check(
        vec![guarded],
        &EventContext::pre_tool_use("Bash", json!({"command": "rm -rf /"})),
        &[],
    );
}
#[test]
fn unfiltered_hooks_survive_a_filtered_neighbour() {
    let guarded = hook(BuiltinEvent::PreToolUse, "^B")
        .with_condition(IfCondition::parse("Bash(git *)").unwrap());
    check(
        vec![
            hook(BuiltinEvent::PreToolUse, "Bash"),
            guarded,
            hook(BuiltinEvent::PreToolUse, "B.*"),
        ],
        &pre("Bash"),
        &[0, 2],
    )
}

fn deploy_catalog() -> (EventCatalog, Event) {
    let mut catalog = EventCatalog::new();
    let event = catalog
        .register(
            EventInfo::new("DeployStart")
                .matcher_field("env")
                .honours(Fields::BLOCK),
        )
        .unwrap();
    (catalog, event)
}

#[test]
fn custom_event_matches_its_field() {
    let (_, deploy) = deploy_catalog();
    let ctx = EventContext::new(deploy.clone()).with("env", "prod");
    check(
        vec![
            hook(deploy.clone(), "prod"),
            hook(deploy.clone(), "staging"),
            hook(BuiltinEvent::Stop, "*"),
            hook(deploy, "^pr"),
        ],
        &ctx,
        &[0, 3],
    )
}
#[test]
fn custom_event_resolved_by_name_matches() {
    let (catalog, deploy) = deploy_catalog();
    let resolved = catalog.resolve("deploy-start").unwrap();
    let index = HookIndex::new(vec![hook(deploy, "*")]);
    assert!(index.has_hooks(&resolved));
    assert_eq!(index.matching(&EventContext::new(resolved)), [0]);
}
#[test]
fn custom_event_without_hooks() {
    let (_, deploy) = deploy_catalog();
    let index = HookIndex::new(vec![hook(BuiltinEvent::Stop, "*")]);
    assert!(!index.has_hooks(&deploy));
    check(
        vec![hook(BuiltinEvent::Stop, "*")],
        &EventContext::new(deploy),
        &[],
    );
}
#[test]
fn custom_events_are_separate_buckets() {
    let mut catalog = EventCatalog::new();
    let a = catalog.register(EventInfo::new("DeployStart")).unwrap();
    let b = catalog.register(EventInfo::new("DeployEnd")).unwrap();
    check(
        vec![
            hook(a.clone(), "*"),
            hook(b.clone(), "*"),
            hook(a.clone(), "*"),
        ],
        &EventContext::new(b.clone()),
        &[1],
    );
    check(
        vec![hook(a.clone(), "*"), hook(b, "*"), hook(a.clone(), "*")],
        &EventContext::new(a),
        &[0, 2],
    );
}
#[test]
fn custom_event_without_matcher_fields_ignores_matcher() {
    let mut catalog = EventCatalog::new();
    let ping = catalog.register(EventInfo::new("Ping")).unwrap();
    check(
        vec![hook(ping.clone(), "never")],
        &EventContext::new(ping),
        &[0],
    )
}
#[test]
fn custom_event_with_builtin_name_shares_its_bucket() {
    // Not registrable through a catalog, but `Event` equality is by name: stay consistent.
    let twin = Event::Custom(std::sync::Arc::new(EventInfo::new("Stop")));
    check(
        vec![hook(twin.clone(), "*")],
        &EventContext::stop(false),
        &[0],
    );
    check(
        vec![hook(BuiltinEvent::Stop, "*")],
        &EventContext::new(twin),
        &[0],
    );
}

#[test]
fn spec_accessors() {
    let index = HookIndex::new(vec![
        hook(BuiltinEvent::Stop, "*").with_id("a"),
        hook(BuiltinEvent::Stop, "*").with_id("b"),
    ]);
    assert_eq!(index.spec(HookPos::new(1)).id.as_deref(), Some("b"));
    let ids: Vec<_> = index.specs().iter().map(|s| s.id.as_deref()).collect();
    assert_eq!(ids, [Some("a"), Some("b")]);
}

// ---------------------------------------------------------------------------------------
// explain

#[test]
fn explain_other_event() {
    check_explain(
        hook(BuiltinEvent::PostToolUse, "*"),
        &pre("Bash"),
        Mismatch::OtherEvent {
            hook_event: "PostToolUse".into(),
        },
        "the hook is attached to event `PostToolUse`",
    )
}
#[test]
fn explain_disabled() {
    check_explain(
        hook(BuiltinEvent::PreToolUse, "Bash").with_enabled(false),
        &pre("Bash"),
        Mismatch::Disabled,
        "the hook is disabled",
    )
}
#[test]
fn explain_other_event_before_disabled() {
    check_explain(
        hook(BuiltinEvent::Stop, "*").with_enabled(false),
        &pre("Bash"),
        Mismatch::OtherEvent {
            hook_event: "Stop".into(),
        },
        "the hook is attached to event `Stop`",
    )
}
#[test]
fn explain_matcher() {
    check_explain(
        hook(BuiltinEvent::PreToolUse, "Bash"),
        &pre("Edit"),
        Mismatch::Matcher {
            matcher: "Bash".into(),
            subjects: vec![("tool_name".into(), "Edit".into())],
        },
        "matcher `Bash` did not match tool_name = `Edit`",
    )
}
#[test]
fn explain_matcher_with_two_subjects() {
    check_explain(
        hook(BuiltinEvent::SessionStart, "clear"),
        &EventContext::session_start("startup").with("session_type", "headless"),
        Mismatch::Matcher {
            matcher: "clear".into(),
            subjects: vec![
                ("source".into(), "startup".into()),
                ("session_type".into(), "headless".into()),
            ],
        },
        "matcher `clear` did not match source = `startup` or session_type = `headless`",
    )
}
#[test]
fn explain_matcher_without_subjects() {
    check_explain(
        hook(BuiltinEvent::PreToolUse, "Bash"),
        &EventContext::new(BuiltinEvent::PreToolUse),
        Mismatch::Matcher {
            matcher: "Bash".into(),
            subjects: vec![],
        },
        "matcher `Bash` did not match an empty subject (the event has none of its matcher fields)",
    )
}
#[test]
fn explain_filter_tool() {
    check_explain(
        hook(BuiltinEvent::PreToolUse, "*")
            .with_filter(Filter::new().with_tools(["Edit", "Write"])),
        &pre("Bash"),
        Mismatch::Tool {
            tool: Some("Bash".into()),
            allowed: vec!["Edit".into(), "Write".into()],
        },
        "tool `Bash` is not one of `Edit`, `Write`",
    )
}
#[test]
fn explain_filter_without_tool() {
    check_explain(
        hook(BuiltinEvent::Stop, "*").with_filter(Filter::new().with_tools(["Edit"])),
        &EventContext::stop(false),
        Mismatch::Tool {
            tool: None,
            allowed: vec!["Edit".into()],
        },
        "the event has no tool name; the filter allows `Edit`",
    )
}
#[test]
fn explain_filter_path_not_included() {
    check_explain(
        hook(BuiltinEvent::FileChanged, "*")
            .with_filter(Filter::new().with_paths(["src/**/*.ts", "lib/**"]).unwrap()),
        &EventContext::file_changed("docs/a.md", "modified"),
        Mismatch::Path {
            path: Some("docs/a.md".into()),
            include: vec!["src/**/*.ts".into(), "lib/**".into()],
            excluded_by: None,
        },
        "path `docs/a.md` matches none of `src/**/*.ts`, `lib/**`",
    )
}
#[test]
fn explain_filter_path_excluded() {
    check_explain(
        hook(BuiltinEvent::FileChanged, "*")
            .with_filter(Filter::new().with_paths(["src/**", "!**/*.snap"]).unwrap()),
        &EventContext::file_changed("src/a.snap", "modified"),
        Mismatch::Path {
            path: Some("src/a.snap".into()),
            include: vec!["src/**".into()],
            excluded_by: Some("!**/*.snap".into()),
        },
        "path `src/a.snap` is excluded by `!**/*.snap`",
    )
}
#[test]
fn explain_filter_path_missing() {
    check_explain(
        hook(BuiltinEvent::PreToolUse, "*")
            .with_filter(Filter::new().with_paths(["src/**", "lib/**"]).unwrap()),
        &pre("Bash"),
        Mismatch::Path {
            path: None,
            include: vec!["src/**".into(), "lib/**".into()],
            excluded_by: None,
        },
        "the event has no file path; the filter wants one matching `src/**` or `lib/**`",
    )
}
#[test]
fn explain_condition() {
    check_explain(
        hook(BuiltinEvent::PreToolUse, "*")
            .with_condition(IfCondition::parse("Bash(git *)").unwrap()),
        &pre("Bash"),
        Mismatch::Condition {
            condition: "Bash(git *)".into(),
            reason: "command `ls` does not match `git *`".into(),
        },
        "`if` condition `Bash(git *)` does not hold: command `ls` does not match `git *`",
    )
}
#[test]
fn explain_matcher_before_filter() {
    check_explain(
        hook(BuiltinEvent::PreToolUse, "Edit").with_filter(Filter::new().with_tools(["Write"])),
        &pre("Bash"),
        Mismatch::Matcher {
            matcher: "Edit".into(),
            subjects: vec![("tool_name".into(), "Bash".into())],
        },
        "matcher `Edit` did not match tool_name = `Bash`",
    )
}
#[test]
fn explain_filter_before_condition() {
    check_explain(
        hook(BuiltinEvent::PreToolUse, "*")
            .with_filter(Filter::new().with_tools(["Write"]))
            .with_condition(IfCondition::parse("Edit").unwrap()),
        &pre("Bash"),
        Mismatch::Tool {
            tool: Some("Bash".into()),
            allowed: vec!["Write".into()],
        },
        "tool `Bash` is not one of `Write`",
    )
}
#[test]
fn explain_covers_every_hook_in_order() {
    let index = HookIndex::new(vec![
        hook(BuiltinEvent::Stop, "*"),
        hook(BuiltinEvent::PreToolUse, "Bash"),
        hook(BuiltinEvent::PreToolUse, "Bash").with_enabled(false),
        hook(BuiltinEvent::PreToolUse, "Edit"),
    ]);
    let reports = index.explain(&pre("Bash"));
    let summary: Vec<(usize, Option<String>)> = reports
        .iter()
        .map(|r| (r.index.get(), r.mismatch.as_ref().map(ToString::to_string)))
        .collect();
    assert_eq!(
        summary,
        [
            (0, Some("the hook is attached to event `Stop`".to_owned())),
            (1, None),
            (2, Some("the hook is disabled".to_owned())),
            (
                3,
                Some("matcher `Edit` did not match tool_name = `Bash`".to_owned())
            ),
        ]
    );
    assert!(reports[1].is_match() && !reports[0].is_match());
}

// ---------------------------------------------------------------------------------------
// matching() agrees with explain()

const EVENTS: [BuiltinEvent; 4] = [
    BuiltinEvent::PreToolUse,
    BuiltinEvent::PostToolUse,
    BuiltinEvent::SessionStart,
    BuiltinEvent::Stop,
];

const MATCHERS: [&str; 14] = [
    "*",
    "",
    "Bash",
    "Edit",
    "startup",
    "Bash|Edit",
    "Edit,Write",
    "^Ba",
    "Edit|Wr.*",
    "mcp__.*",
    "mcp__memory__create_entities",
    "^$",
    "sh$",
    "resume|clear",
];

const SUBJECTS: [&str; 8] = [
    "Bash",
    "Edit",
    "Write",
    "mcp__memory__create_entities",
    "mcp__github__x",
    "startup",
    "resume",
    "",
];

#[derive(Clone, Debug)]
struct HookCase {
    event: usize,
    matcher: usize,
    regex_dialect: bool,
    enabled: bool,
    tool_filter: Option<usize>,
    condition: Option<usize>,
}

fn hook_case() -> impl Strategy<Value = HookCase> {
    (
        0..EVENTS.len(),
        0..MATCHERS.len(),
        any::<bool>(),
        prop::bool::weighted(0.8),
        prop::option::weighted(0.15, 0..SUBJECTS.len()),
        prop::option::weighted(0.15, 0..3usize),
    )
        .prop_map(
            |(event, matcher, regex_dialect, enabled, tool_filter, condition)| HookCase {
                event,
                matcher,
                regex_dialect,
                enabled,
                tool_filter,
                condition,
            },
        )
}

fn build(case: &HookCase) -> HookSpec {
    let text = MATCHERS[case.matcher];
    let matcher = if case.regex_dialect {
        Matcher::regex(text)
    } else {
        Matcher::parse(text)
    };
    let mut spec = HookSpec::new(EVENTS[case.event], Action::script("true"))
        .with_matcher(matcher.unwrap())
        .with_enabled(case.enabled);
    if let Some(tool) = case.tool_filter {
        spec = spec.with_filter(Filter::new().with_tools([SUBJECTS[tool]]));
    }
    if let Some(c) = case.condition {
        let condition = ["Bash(git *)", "mcp__*", "Edit(*.ts)"][c];
        spec = spec.with_condition(IfCondition::parse(condition).unwrap());
    }
    spec
}

#[derive(Clone, Debug)]
struct CtxCase {
    event: usize,
    first: Option<usize>,
    second: Option<usize>,
    command: bool,
}

fn ctx_case() -> impl Strategy<Value = CtxCase> {
    (
        0..EVENTS.len(),
        prop::option::weighted(0.85, 0..SUBJECTS.len()),
        prop::option::of(0..SUBJECTS.len()),
        any::<bool>(),
    )
        .prop_map(|(event, first, second, command)| CtxCase {
            event,
            first,
            second,
            command,
        })
}

fn build_ctx(case: &CtxCase) -> EventContext {
    let event = EVENTS[case.event];
    let (field1, field2) = match event {
        BuiltinEvent::SessionStart => ("source", "session_type"),
        _ => ("tool_name", "unrelated"),
    };
    let mut ctx = EventContext::new(event);
    if let Some(s) = case.first {
        ctx.set(field1, SUBJECTS[s]);
    }
    if let Some(s) = case.second {
        ctx.set(field2, SUBJECTS[s]);
    }
    let input = if case.command {
        json!({"command": "git status"})
    } else {
        json!({"file_path": "src/a.ts"})
    };
    ctx.set("tool_input", input);
    ctx
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn matching_agrees_with_explain(
        hooks in prop::collection::vec(hook_case(), 0..24),
        ctxs in prop::collection::vec(ctx_case(), 1..4),
    ) {
        let index = HookIndex::new(hooks.iter().map(build).collect());
        for case in &ctxs {
            let ctx = build_ctx(case);
            let fast = index.matching(&ctx);
            let reports = index.explain(&ctx);
            prop_assert_eq!(reports.len(), hooks.len());
            prop_assert!(reports.iter().enumerate().all(|(i, r)| r.index == i));
            let slow: Vec<HookPos> = reports.iter().filter(|r| r.is_match()).map(|r| r.index).collect();
            prop_assert_eq!(&fast, &slow, "ctx {:?}", ctx);
            let any_enabled = hooks.iter().any(|h| h.enabled && EVENTS[h.event] == EVENTS[case.event]);
            prop_assert_eq!(index.has_hooks(ctx.event()), any_enabled);
        }
    }
}

#[test]
fn matcher_fields_follow_the_hooks_dialect() {
    let tool =
        |tool: &str, node: &str| EventContext::pre_tool_use(tool, json!({})).with("node_id", node);
    let edge = EventContext::new(BuiltinEvent::EdgeSelected)
        .with("edge_from", "review")
        .with("edge_to", "fix");
    // (dialect, event, matcher, context, matches)
    let cases = [
        (
            Dialect::Fabro,
            BuiltinEvent::PreToolUse,
            "^implement$",
            tool("shell", "implement"),
            true,
        ),
        (
            Dialect::Fabro,
            BuiltinEvent::PreToolUse,
            "^shell$",
            tool("shell", "implement"),
            true,
        ),
        (
            Dialect::Fabro,
            BuiltinEvent::PreToolUse,
            "^review$",
            tool("shell", "implement"),
            false,
        ),
        (
            Dialect::Native,
            BuiltinEvent::PreToolUse,
            "^implement$",
            tool("shell", "implement"),
            false,
        ),
        (
            Dialect::Claude,
            BuiltinEvent::PreToolUse,
            "^implement$",
            tool("shell", "implement"),
            false,
        ),
        (
            Dialect::Native,
            BuiltinEvent::PreToolUse,
            "^shell$",
            tool("shell", "implement"),
            true,
        ),
        (
            Dialect::Fabro,
            BuiltinEvent::EdgeSelected,
            "^review$",
            edge.clone(),
            true,
        ),
        (
            Dialect::Native,
            BuiltinEvent::EdgeSelected,
            "^review$",
            edge.clone(),
            true,
        ),
        (
            Dialect::Fabro,
            BuiltinEvent::EdgeSelected,
            "^fix$",
            edge.clone(),
            true,
        ),
        (
            Dialect::Fabro,
            BuiltinEvent::RunStart,
            "^nightly$",
            EventContext::run_start("r", "ci"),
            true,
        ),
        (
            Dialect::Fabro,
            BuiltinEvent::ParallelStart,
            "^x$",
            EventContext::new(BuiltinEvent::ParallelStart).with("node_id", "y"),
            true,
        ),
    ];
    for (dialect, event, matcher, ctx, matches) in cases {
        let hook = regex_hook(event, matcher).with_dialect(dialect);
        let expect: &[usize] = if matches { &[0] } else { &[] };
        check(vec![hook], &ctx, expect);
    }
}

#[test]
fn wider_matchers_keep_declaration_order_with_the_others() {
    let ctx = EventContext::pre_tool_use("shell", json!({})).with("node_id", "implement");
    let specs = vec![
        regex_hook(BuiltinEvent::PreToolUse, "^shell$"),
        regex_hook(BuiltinEvent::PreToolUse, "^implement$").with_dialect(Dialect::Fabro),
        hook(BuiltinEvent::PreToolUse, "*"),
        regex_hook(BuiltinEvent::PreToolUse, "^shell$").with_dialect(Dialect::Fabro),
        regex_hook(BuiltinEvent::PreToolUse, "^implement$"),
    ];
    check(specs, &ctx, &[0, 1, 2, 3]);
}

//! Tests for the event catalog: names, aliases, did-you-mean, custom events.

use std::collections::HashSet;

use hooks_core::{BuiltinEvent, Dialect, ErrorKind, Event, EventCatalog, EventInfo, Fields};

#[track_caller]
fn check(name: &str, expect: BuiltinEvent) {
    let catalog = EventCatalog::new();
    assert_eq!(
        catalog.resolve(name).unwrap(),
        Event::from(expect),
        "{name}"
    );
}

#[track_caller]
fn check_unknown(name: &str, suggestion: Option<&str>) {
    let err = EventCatalog::new().resolve(name).unwrap_err();
    match err.kind() {
        ErrorKind::UnknownEvent {
            name: n,
            suggestion: s,
            ..
        } => {
            assert_eq!(n, name);
            assert_eq!(s.as_deref(), suggestion, "suggestion for {name}");
        }
        other => panic!("unexpected error {other:?}"),
    }
}

#[test]
fn canonical_names_resolve() {
    check("PreToolUse", BuiltinEvent::PreToolUse)
}
#[test]
fn autohand_alias_resolves() {
    check("pre-tool", BuiltinEvent::PreToolUse)
}
#[test]
fn autohand_post_response_is_stop() {
    check("post-response", BuiltinEvent::Stop)
}
#[test]
fn autohand_stop_is_stop() {
    check("stop", BuiltinEvent::Stop)
}
#[test]
fn autohand_file_modified_is_file_changed() {
    check("file-modified", BuiltinEvent::FileChanged)
}
#[test]
fn autohand_pre_prompt_is_user_prompt_submit() {
    check("pre-prompt", BuiltinEvent::UserPromptSubmit)
}
#[test]
fn autohand_family_names_resolve() {
    check("automode:checkpoint", BuiltinEvent::AutomodeCheckpoint)
}
#[test]
fn fabro_alias_resolves() {
    check("stage_start", BuiltinEvent::StageStart)
}
#[test]
fn fabro_tool_alias_resolves() {
    check("pre_tool_use", BuiltinEvent::PreToolUse)
}
#[test]
fn loose_spelling_resolves() {
    check("user-prompt-submit", BuiltinEvent::UserPromptSubmit)
}
#[test]
fn case_is_ignored() {
    check("SESSIONSTART", BuiltinEvent::SessionStart)
}
#[test]
fn typo_gets_a_suggestion() {
    check_unknown("PreToolUs", Some("PreToolUse"))
}
#[test]
fn fabro_typo_gets_a_suggestion() {
    check_unknown("stage_strat", Some("stage_start"))
}
#[test]
fn nonsense_gets_no_suggestion() {
    check_unknown("qqqqqqq", None)
}
#[test]
fn empty_name_is_unknown() {
    check_unknown("", None)
}

#[test]
fn unknown_event_error_reads_well() {
    let err = EventCatalog::new().resolve("PostToolUze").unwrap_err();
    assert_eq!(
        err.to_string(),
        "unknown event `PostToolUze` (did you mean `PostToolUse`?)"
    );
}

/// Every event the three seed systems and Claude Code document resolves.
#[test]
fn every_documented_event_resolves() {
    let echo = [
        "PreToolUse",
        "PostToolUse",
        "PostToolUseFailure",
        "PermissionRequest",
        "PermissionDenied",
        "SessionStart",
        "SessionEnd",
        "Stop",
        "StopFailure",
        "Notification",
        "UserPromptSubmit",
        "PreCompact",
        "PostCompact",
        "ConfigChange",
        "InstructionsLoaded",
        "PostToolBatch",
        "SubagentStart",
        "SubagentStop",
        "TaskCreated",
        "TaskCompleted",
    ];
    let fabro = [
        "run_start",
        "run_complete",
        "run_failed",
        "stage_start",
        "stage_complete",
        "stage_failed",
        "stage_retrying",
        "edge_selected",
        "parallel_start",
        "parallel_complete",
        "sandbox_ready",
        "sandbox_cleanup",
        "checkpoint_saved",
        "pre_tool_use",
        "post_tool_use",
        "post_tool_use_failure",
    ];
    let autohand = [
        "pre-tool",
        "post-tool",
        "file-modified",
        "pre-prompt",
        "stop",
        "post-response",
        "session-start",
        "session-end",
        "pre-clear",
        "session-error",
        "subagent-stop",
        "permission-request",
        "notification",
        "automode:start",
        "automode:iteration",
        "automode:checkpoint",
        "automode:pause",
        "automode:resume",
        "automode:cancel",
        "automode:complete",
        "automode:error",
        "pre-learn",
        "post-learn",
        "goal-written:completed",
        "team-created",
        "teammate-spawned",
        "teammate-idle",
        "task-assigned",
        "task-completed",
        "team-shutdown",
        "review:start",
        "review:end",
        "review:paused",
        "review:failed",
        "review:completed",
        "mode-change",
        "context:compact",
        "context:overflow",
        "context:warning",
        "context:critical",
    ];
    let claude = [
        "Setup",
        "CwdChanged",
        "FileChanged",
        "TeammateIdle",
        "WorktreeCreate",
        "WorktreeRemove",
        "Elicitation",
        "ElicitationResult",
    ];
    let catalog = EventCatalog::new();
    for name in echo.iter().chain(&fabro).chain(&autohand).chain(&claude) {
        assert!(catalog.get(name).is_some(), "{name} does not resolve");
    }
    // Autohand and Fabro names map to distinct events except the documented aliases.
    let distinct: HashSet<String> = autohand
        .iter()
        .map(|n| catalog.get(n).unwrap().name().to_owned())
        .collect();
    assert_eq!(
        distinct.len(),
        autohand.len() - 1,
        "only post-response shares an event (with stop)"
    );
}

#[test]
fn folded_names_are_unambiguous() {
    let mut seen = std::collections::HashMap::new();
    for &e in BuiltinEvent::ALL {
        let info = e.info();
        let names =
            std::iter::once(info.name()).chain(info.aliases().iter().map(|a| a.name.as_str()));
        for name in names {
            let folded: String = name
                .chars()
                .filter(char::is_ascii_alphanumeric)
                .map(|c| c.to_ascii_lowercase())
                .collect();
            if let Some(other) = seen.insert(folded.clone(), e) {
                assert_eq!(
                    other, e,
                    "`{name}` folds to `{folded}`, already used by {other}"
                );
            }
        }
    }
}

#[test]
fn blocking_events_are_the_documented_ones() {
    let blocking: Vec<&str> = BuiltinEvent::ALL
        .iter()
        .filter(|e| e.info().can_block())
        .map(|e| e.name())
        .collect();
    insta::assert_json_snapshot!(blocking);
    for name in [
        "PreToolUse",
        "UserPromptSubmit",
        "Stop",
        "SubagentStop",
        "TaskCreated",
        "TaskCompleted",
        "ConfigChange",
        "PreCompact",
        "PostToolBatch",
        "RunStart",
        "StageStart",
        "EdgeSelected",
        "SandboxReady",
    ] {
        assert!(blocking.contains(&name), "{name} must be able to block");
    }
    for name in [
        "PostToolUse",
        "Notification",
        "SessionEnd",
        "StageComplete",
        "RunComplete",
    ] {
        assert!(!blocking.contains(&name), "{name} must not block");
    }
}

#[test]
fn honoured_fields() {
    let pre = BuiltinEvent::PreToolUse.info().honoured();
    assert!(pre.contains(Fields::PERMISSION | Fields::UPDATED_INPUT | Fields::CONTEXT));
    assert!(
        !BuiltinEvent::Notification
            .info()
            .honoured()
            .contains(Fields::CONTEXT)
    );
    // Claude Code's Stop takes `hookSpecificOutput.additionalContext`.
    assert!(
        BuiltinEvent::Stop
            .info()
            .honoured()
            .contains(Fields::CONTEXT)
    );
    assert!(
        BuiltinEvent::EdgeSelected
            .info()
            .honoured()
            .contains(Fields::OVERRIDE)
    );
    assert!(
        !BuiltinEvent::StageStart
            .info()
            .honoured()
            .contains(Fields::OVERRIDE)
    );
    assert_eq!(
        BuiltinEvent::PermissionDenied.info().honoured().names(),
        ["retry"]
    );
}

#[test]
fn matcher_fields() {
    assert_eq!(
        BuiltinEvent::PreToolUse.info().matcher_fields(),
        ["tool_name"]
    );
    assert_eq!(
        BuiltinEvent::SessionStart.info().matcher_fields(),
        ["source", "session_type"]
    );
    assert!(BuiltinEvent::Stop.info().matcher_fields().is_empty());
    assert_eq!(
        BuiltinEvent::StageStart.info().matcher_fields(),
        ["node_id", "handler_type"]
    );
}

#[test]
fn names_per_dialect() {
    let info = BuiltinEvent::PreToolUse.info();
    assert_eq!(info.name_in(Dialect::Autohand), "pre-tool");
    assert_eq!(info.name_in(Dialect::Fabro), "pre_tool_use");
    assert_eq!(info.name_in(Dialect::Claude), "PreToolUse");
    assert_eq!(BuiltinEvent::Stop.info().name_in(Dialect::Autohand), "stop");
    assert_eq!(BuiltinEvent::Setup.info().name_in(Dialect::Fabro), "Setup");
}

#[test]
fn every_builtin_is_documented() {
    for &e in BuiltinEvent::ALL {
        assert!(!e.info().describe().is_empty(), "{e} has no description");
        assert_eq!(BuiltinEvent::ALL[e.ordinal()], e);
    }
}

#[test]
fn custom_events_register_and_resolve() {
    let mut catalog = EventCatalog::new();
    let deploy = catalog
        .register(
            EventInfo::new("DeployStart")
                .alias(Dialect::Autohand, "deploy-start")
                .matcher_field("env")
                .honours(Fields::BLOCK),
        )
        .unwrap();
    assert_eq!(catalog.resolve("deploy-start").unwrap(), deploy);
    assert_eq!(catalog.resolve("deploy_start").unwrap(), deploy);
    assert!(deploy.can_block());
    assert_eq!(deploy.info().matcher_fields(), ["env"]);
    assert_eq!(catalog.custom_events(), std::slice::from_ref(&deploy));
    // A fresh catalog does not know it; equality is by name.
    assert!(EventCatalog::new().get("DeployStart").is_none());
    assert_eq!(
        deploy,
        Event::Custom(std::sync::Arc::new(EventInfo::new("DeployStart")))
    );
    assert_ne!(deploy, Event::from(BuiltinEvent::Stop));
}

#[test]
fn custom_events_cannot_shadow_known_names() {
    let mut catalog = EventCatalog::new();
    let err = catalog.register(EventInfo::new("pre_tool")).unwrap_err();
    assert!(
        err.to_string()
            .contains("already taken by event `PreToolUse`"),
        "{err}"
    );
    assert!(catalog.register(EventInfo::new(" ")).is_err());
    catalog.register(EventInfo::new("Deploy")).unwrap();
    assert!(catalog.register(EventInfo::new("deploy")).is_err());
}

#[test]
fn unknown_custom_typo_suggests_the_custom_event() {
    let mut catalog = EventCatalog::new();
    catalog
        .register(EventInfo::new("DeploymentFinished"))
        .unwrap();
    let err = catalog.resolve("DeploymentFinishd").unwrap_err();
    assert_eq!(
        err.hint().as_deref(),
        Some("did you mean `DeploymentFinished`?")
    );
}

#[test]
fn a_typo_of_an_event_gets_its_did_you_mean() {
    check_unknown("PreToolUze", Some("PreToolUse"));
}

#[test]
fn gemini_clis_event_names_are_aliases_and_its_own_events_are_in_the_catalog() {
    let catalog = EventCatalog::new();
    for (name, canonical) in [
        ("BeforeTool", "PreToolUse"),
        ("AfterTool", "PostToolUse"),
        ("BeforeAgent", "UserPromptSubmit"),
        ("AfterAgent", "Stop"),
        ("PreCompress", "PreCompact"),
        ("BeforeModel", "BeforeModel"),
        ("AfterModel", "AfterModel"),
        ("BeforeToolSelection", "BeforeToolSelection"),
    ] {
        assert_eq!(catalog.resolve(name).unwrap().name(), canonical, "{name}");
    }
    assert_eq!(
        BuiltinEvent::PreToolUse.info().name_in(Dialect::Gemini),
        "BeforeTool"
    );
    assert_eq!(
        BuiltinEvent::PreToolUse.info().name_in(Dialect::Codex),
        "PreToolUse"
    );
}

#[test]
fn cursors_names_are_aliases_of_the_canonical_events() {
    for (name, event) in [
        ("preToolUse", BuiltinEvent::PreToolUse),
        ("beforeShellExecution", BuiltinEvent::PreToolUse),
        ("beforeMCPExecution", BuiltinEvent::PreToolUse),
        ("beforeReadFile", BuiltinEvent::PreToolUse),
        ("afterShellExecution", BuiltinEvent::PostToolUse),
        ("afterFileEdit", BuiltinEvent::PostToolUse),
        ("beforeSubmitPrompt", BuiltinEvent::UserPromptSubmit),
        ("stop", BuiltinEvent::Stop),
        ("afterAgentResponse", BuiltinEvent::AfterAgentResponse),
        ("afterAgentThought", BuiltinEvent::AfterAgentThought),
    ] {
        let resolved = EventCatalog::new().resolve(name).unwrap();
        assert_eq!(resolved.builtin(), Some(event), "{name}");
    }
    // The generic name is the one a Cursor hook on the canonical event is given.
    assert_eq!(
        BuiltinEvent::PreToolUse.info().name_in(Dialect::Cursor),
        "preToolUse"
    );
    // Cline's task events are events of their own.
    for name in ["TaskStart", "TaskResume", "TaskCancel", "TaskComplete"] {
        let resolved = EventCatalog::new().resolve(name).unwrap();
        assert_eq!(resolved.name(), name);
    }
}

//! The dispatcher with real hooks: concurrency, sequential pipelines, deduplication, failure
//! policies, the async queue, cancellation, the stop-loop cap, prompt and permission hooks.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use async_trait::async_trait;
use hooks_core::CancellationToken;
use hooks_core::{
    Action, BuiltinEvent, CommandAction, CommandLine, Decision, EventContext, FailureKind,
    FailurePolicy, HookIndex, HookOutcome, HookSpec, HookStatus, Matcher, PromptAction, PromptMode,
};
use hooks_exec::{
    BoxError, DEFAULT_STOP_LOOP_CAP, Dispatcher, Error, Executor, HookRun, NotificationSink,
    PromptEvaluator, PromptRequest, PromptVerdict,
};
use serde_json::{Value, json};

use crate::support::{Fixture, read_fifo, wait_gone};

fn hook(id: &str, script: &str) -> HookSpec {
    HookSpec::new(BuiltinEvent::PreToolUse, Action::script(script)).with_id(id)
}

fn dispatcher(specs: Vec<HookSpec>) -> Dispatcher {
    Dispatcher::new(HookIndex::new(specs))
}

#[tokio::test]
async fn parallel_hooks_run_concurrently() {
    let fx = Fixture::new();
    let specs = (0..8)
        .map(|i| {
            hook(
                &format!("h{i}"),
                &format!("sleep 0.2; echo '{{\"decision\":\"allow\",\"reason\":\"{i}\"}}'"),
            )
        })
        .collect();
    let started = Instant::now();
    let result = dispatcher(specs).dispatch(&fx.pre_tool()).await;
    let elapsed = started.elapsed();
    assert_eq!(result.hooks.len(), 8);
    assert!(
        result.hooks.iter().all(|h| h.run.status == HookStatus::Ok),
        "{result:#?}"
    );
    assert_eq!(result.effects.decision, Decision::Allow);
    // Eight 200 ms hooks one after another would take 1.6 s.
    assert!(elapsed < Duration::from_millis(1200), "took {elapsed:?}");
    // Reports come in declaration order, each with its duration.
    let ids: Vec<_> = result.hooks.iter().map(|h| h.id.as_str()).collect();
    assert_eq!(ids, ["h0", "h1", "h2", "h3", "h4", "h5", "h6", "h7"]);
    assert!(
        result
            .hooks
            .iter()
            .all(|h| h.run.duration_ms().unwrap() >= 200)
    );
}

#[tokio::test]
async fn the_concurrency_bound_holds() {
    let fx = Fixture::new();
    let specs = (0..3)
        .map(|i| {
            hook(
                &format!("h{i}"),
                &format!("echo start >> log; sleep 0.1; echo end >> log; : {i}"),
            )
        })
        .collect();
    let d = Dispatcher::builder()
        .index(HookIndex::new(specs))
        .max_concurrency(1)
        .build()
        .unwrap();
    d.dispatch(&fx.pre_tool()).await;
    assert_eq!(fx.read("log"), "start\nend\n".repeat(3));

    let err = Dispatcher::builder()
        .max_concurrency(0)
        .build()
        .unwrap_err();
    assert!(
        matches!(
            err,
            Error::InvalidSetting {
                setting: "max_concurrency",
                ..
            }
        ),
        "{err}"
    );
}

#[tokio::test]
async fn a_sequential_group_is_a_pipeline() {
    let fx = Fixture::new();
    let rewrite = |to: &str| {
        format!(
            r#"cat > seen-{to}.json; echo '{{"hookSpecificOutput":{{"hookEventName":"PreToolUse","updatedInput":{{"command":"{to}"}}}}}}'"#
        )
    };
    let specs = vec![
        hook("first", &rewrite("one")).with_sequential("fmt"),
        hook("bystander", "cat > seen-bystander.json"),
        hook("second", &rewrite("two")).with_sequential("fmt"),
    ];
    let result = dispatcher(specs).dispatch(&fx.pre_tool()).await;
    let seen = |name: &str| -> Value {
        serde_json::from_str(&fx.read(&format!("seen-{name}.json"))).unwrap()
    };
    assert_eq!(seen("one")["tool_input"], json!({"command": "ls"}));
    assert_eq!(
        seen("two")["tool_input"],
        json!({"command": "one"}),
        "the second hook saw the first one's rewrite"
    );
    assert_eq!(seen("bystander")["tool_input"], json!({"command": "ls"}));
    assert_eq!(
        result.effects.updated_input,
        Some(json!({"command": "two"}))
    );
    assert!(result.conflicts.is_empty(), "{:?}", result.conflicts);
}

#[tokio::test]
async fn a_block_ends_its_sequential_group() {
    let fx = Fixture::new();
    let specs = vec![
        hook("guard", "echo 'no' >&2; exit 2").with_sequential("g"),
        hook("after", "touch ran").with_sequential("g"),
    ];
    let result = dispatcher(specs).dispatch(&fx.pre_tool()).await;
    assert_eq!(result.effects.decision, Decision::Block);
    assert_eq!(result.hooks[1].run.status, HookStatus::Skipped);
    assert!(!fx.file("ran").exists());
}

#[tokio::test]
async fn identical_commands_run_once() {
    let fx = Fixture::new();
    let script = "echo x >> count; echo '{\"decision\":\"deny\",\"reason\":\"once\"}'";
    let mut other_env = CommandAction::new(CommandLine::Script(script.to_owned()));
    other_env.env.push(("X".to_owned(), "1".to_owned()));
    let specs = vec![
        hook("a", script),
        hook("b", script),
        HookSpec::new(BuiltinEvent::PreToolUse, Action::Command(other_env)).with_id("c"),
    ];
    let result = dispatcher(specs).dispatch(&fx.pre_tool()).await;
    // `a` and `b` are one run; `c` differs by its environment.
    assert_eq!(fx.read("count"), "x\nx\n");
    assert_eq!(result.hooks.len(), 3);
    assert!(
        result.hooks.iter().all(|h| h.decision == Decision::Deny),
        "{result:#?}"
    );
    assert_eq!(result.effects.reason.as_deref(), Some("once"));
}

/// A "copy" of a guard that differs only in its timeout (and layer) is not the guard: the
/// guard runs with its own timeout, so a copy that times out cannot make it fail open.
#[tokio::test]
async fn a_copy_with_a_shorter_timeout_does_not_stand_in_for_the_guard() {
    let fx = Fixture::new();
    let slow_guard = "sleep 0.5; echo 'no rm -rf' >&2; exit 2";
    let managed = hooks_core::Provenance {
        layer: hooks_core::Layer::Managed,
        ..Default::default()
    };
    let user = hooks_core::Provenance {
        layer: hooks_core::Layer::User,
        ..Default::default()
    };
    let specs = vec![
        hook("copy", slow_guard)
            .with_timeout(Duration::from_millis(100))
            .with_provenance(user),
        hook("guard", slow_guard)
            .with_timeout(Duration::from_secs(10))
            .with_provenance(managed),
    ];
    let result = dispatcher(specs).dispatch(&fx.pre_tool()).await;
    let statuses: Vec<(&str, HookStatus)> = result
        .hooks
        .iter()
        .map(|h| (h.id.as_str(), h.run.status))
        .collect();
    assert_eq!(
        statuses,
        [
            ("copy", HookStatus::TimedOut),
            ("guard", HookStatus::Blocked)
        ]
    );
    assert_eq!(result.effects.decision, Decision::Block);
    assert_eq!(result.effects.reason.as_deref(), Some("no rm -rf"));
}

#[tokio::test]
async fn malformed_output_follows_the_failure_policy() {
    let fx = Fixture::new();
    let bad = "echo '{not json'";
    let open = dispatcher(vec![
        hook("open", bad).with_on_failure(FailurePolicy::Allow),
    ])
    .dispatch(&fx.pre_tool())
    .await;
    assert_eq!(open.effects.decision, Decision::None);
    assert_eq!(open.hooks[0].run.status, HookStatus::Failed);
    assert_eq!(
        open.hooks[0].run.failure.as_ref().unwrap().kind,
        FailureKind::MalformedOutput
    );
    assert!(
        open.effects.messages[0].contains("hook `open` failed and fails open"),
        "{:?}",
        open.effects.messages
    );

    let closed = dispatcher(vec![
        hook("closed", bad).with_on_failure(FailurePolicy::Block),
    ])
    .dispatch(&fx.pre_tool())
    .await;
    assert_eq!(closed.effects.decision, Decision::Block);
    assert!(
        closed
            .effects
            .reason
            .unwrap()
            .contains("hook `closed` failed and fails closed")
    );
}

#[tokio::test]
async fn a_timeout_follows_the_failure_policy() {
    let fx = Fixture::new();
    let slow = hook("slow", "exec sleep 1000")
        .with_timeout(Duration::from_millis(300))
        .with_on_failure(FailurePolicy::Block);
    let result = dispatcher(vec![slow]).dispatch(&fx.pre_tool()).await;
    assert_eq!(result.hooks[0].run.status, HookStatus::TimedOut);
    assert_eq!(result.effects.decision, Decision::Block);
}

/// Collects what a dispatcher reports.
#[derive(Default)]
struct Recorder {
    lines: Mutex<Vec<String>>,
}

impl Recorder {
    fn lines(&self) -> Vec<String> {
        let mut lines = self.lines.lock().unwrap().clone();
        lines.sort();
        lines
    }
}

impl NotificationSink for Recorder {
    fn event(&self, ctx: &EventContext) {
        self.lines
            .lock()
            .unwrap()
            .push(format!("event {}", ctx.event().name()));
    }

    fn async_outcome(&self, _: &EventContext, spec: &HookSpec, outcome: &HookOutcome) {
        let text = outcome
            .effects
            .additional_context
            .join("")
            .trim()
            .to_owned();
        self.lines.lock().unwrap().push(format!(
            "done {} {} {text}",
            spec.display_id(),
            outcome.run.status
        ));
    }

    fn async_dropped(&self, _: &EventContext, spec: &HookSpec, total: u64) {
        self.lines
            .lock()
            .unwrap()
            .push(format!("dropped {} {total}", spec.display_id()));
    }
}

#[tokio::test]
async fn async_hooks_run_in_the_background_and_overflow_is_counted() {
    let fx = Fixture::new();
    let ready = fx.fifo("ready");
    let gate = fx.fifo("gate");
    let on = |tool: &str, spec: HookSpec| {
        spec.with_async(true)
            .with_matcher(Matcher::parse(tool).unwrap())
    };
    let specs = vec![
        on(
            "Slow",
            hook(
                "slow",
                &format!("echo up > '{}'; cat '{}'", ready.display(), gate.display()),
            ),
        ),
        on("Fast", hook("b", "echo b")),
        on("Fast", hook("c", "echo c")),
        on("Fast", hook("d", "echo d")),
    ];
    let recorder = Arc::new(Recorder::default());
    let d = Dispatcher::builder()
        .index(HookIndex::new(specs))
        .async_queue(1, 1)
        .notification_sink(recorder.clone())
        .build()
        .unwrap();
    let ctx = |tool: &str| EventContext::pre_tool_use(tool, json!({})).cwd(fx.dir());

    // The dispatch answers while its async hook still waits on its gate.
    let result = d.dispatch(&ctx("Slow")).await;
    assert!(
        result.hooks.is_empty() && result.effects.messages.is_empty(),
        "{result:#?}"
    );
    assert_eq!(read_fifo(&ready).await.trim(), "up");
    assert_eq!(d.async_pending(), 1);

    // One run slot (taken) and one queue place: `b` waits, `c` and `d` overflow.
    let result = d.dispatch(&ctx("Fast")).await;
    assert_eq!(d.async_dropped(), 2);
    assert_eq!(
        result.effects.messages.len(),
        2,
        "{:?}",
        result.effects.messages
    );
    assert!(
        result.effects.messages[0]
            .contains("async hook `c` was dropped: the background queue is full")
    );

    let gate = gate.clone();
    tokio::task::spawn_blocking(move || std::fs::write(gate, "go\n"))
        .await
        .unwrap()
        .unwrap();
    d.flush_async().await;
    assert_eq!(d.async_pending(), 0);
    assert_eq!(
        recorder.lines(),
        [
            "done b ok b",
            "done slow ok go",
            "dropped c 1",
            "dropped d 2",
            "event PreToolUse",
            "event PreToolUse"
        ]
    );
}

#[tokio::test]
async fn cancelling_a_dispatch_kills_its_hooks_and_skips_the_rest() {
    let fx = Fixture::new();
    let ready = fx.fifo("ready");
    let specs = vec![
        hook(
            "slow",
            &format!("sleep 1000 & echo \"$$ $!\" > '{}'; wait", ready.display()),
        ),
        hook("later", "touch ran"),
    ];
    let d = Dispatcher::builder()
        .index(HookIndex::new(specs))
        .max_concurrency(1)
        .build()
        .unwrap();
    let cancel = CancellationToken::new();
    let ctx = fx.pre_tool();
    let dispatch = d.dispatch_with_cancel(&ctx, &cancel);
    let signal = async {
        let pids = read_fifo(&ready).await;
        cancel.cancel();
        pids
    };
    let (result, pids) = tokio::join!(dispatch, signal);
    assert_eq!(
        result.hooks[0].run.failure.as_ref().unwrap().kind,
        FailureKind::Cancelled,
        "{result:#?}"
    );
    assert_eq!(result.hooks[1].run.status, HookStatus::Skipped);
    assert!(!fx.file("ran").exists());
    for pid in pids.split_whitespace() {
        assert!(
            wait_gone(pid.parse().unwrap()).await,
            "process {pid} survived"
        );
    }
}

/// A dispatcher whose one Stop hook always blocks, with stop-loop cap `cap` (none: the
/// builder's default).
fn always_blocking_stop(cap: Option<u32>) -> Dispatcher {
    let stop = HookSpec::new(
        BuiltinEvent::Stop,
        Action::script("echo 'tests are failing' >&2; exit 2"),
    );
    let mut builder = Dispatcher::builder().index(HookIndex::new(vec![stop]));
    if let Some(cap) = cap {
        builder = builder.stop_loop_cap(cap);
    }
    builder.build().unwrap()
}

/// Dispatches Stop `(session, stop_hook_active, owned by the emitter)` in order and checks
/// each decision: `true` blocked, `false` let through by the cap (with its message).
#[track_caller]
fn check_stop_loop(cap: Option<u32>, stops: &[(&str, bool, bool, bool)]) {
    let d = always_blocking_stop(cap);
    let shown = cap.unwrap_or(DEFAULT_STOP_LOOP_CAP);
    let runtime = tokio::runtime::Runtime::new().unwrap();
    for (n, &(session, active, owned, blocked)) in stops.iter().enumerate() {
        let mut ctx = EventContext::stop(active).session_id(session);
        if owned {
            ctx.set_stop_loop_owned();
        }
        let agg = runtime.block_on(d.dispatch(&ctx));
        assert_eq!(agg.is_blocked(), blocked, "stop #{}: {agg:#?}", n + 1);
        if blocked {
            assert_eq!(agg.effects.reason.as_deref(), Some("tests are failing"));
        } else {
            assert!(
                agg.effects.messages.iter().any(|m| m
                    .starts_with("stop-loop cap: the Stop hooks blocked")
                    && m.contains(&format!("more than the cap of {shown}"))
                    && m.contains("CLAUDE_CODE_STOP_HOOK_BLOCK_CAP")
                    && m.contains("(last reason: tests are failing)")),
                "stop #{}: {:?}",
                n + 1,
                agg.effects.messages
            );
        }
    }
}

#[test]
fn the_stop_loop_cap_overrides_the_block_past_it() {
    // Three blocks keep the agent going; the fourth is overridden; the count starts again.
    check_stop_loop(
        Some(3),
        &[
            ("s1", false, false, true),
            ("s1", true, false, true),
            ("s1", true, false, true),
            ("s1", true, false, false),
            ("s1", true, false, true),
        ],
    );
}

#[test]
fn the_stop_loop_counts_per_session_and_only_continued_stops() {
    check_stop_loop(
        Some(2),
        &[
            ("s1", false, false, true),
            // Another session has its own count.
            ("s2", false, false, true),
            ("s1", true, false, true),
            // stop_hook_active false: a new turn, the count starts again at 1.
            ("s1", false, false, true),
            ("s1", true, false, true),
            ("s1", true, false, false),
            ("s2", true, false, true),
            ("s2", true, false, false),
        ],
    );
}

#[test]
fn stops_whose_emitter_caps_the_loop_are_not_counted() {
    check_stop_loop(
        Some(1),
        &[
            ("s1", false, true, true),
            ("s1", true, true, true),
            ("s1", true, true, true),
        ],
    );
}

#[test]
fn the_stop_loop_cap_defaults_to_claude_codes_eight() {
    let mut stops = vec![("s1", false, false, true)];
    stops.extend([("s1", true, false, true); 7]);
    stops.push(("s1", true, false, false));
    // The builder's default (`CLAUDE_CODE_STOP_HOOK_BLOCK_CAP` is not set in tests).
    check_stop_loop(None, &stops);
    assert_eq!(DEFAULT_STOP_LOOP_CAP, 8);
}

#[test]
fn a_stop_loop_cap_of_zero_is_no_cap() {
    let mut stops = vec![("s1", false, false, true)];
    stops.extend([("s1", true, false, true); 20]);
    check_stop_loop(Some(0), &stops);
}

/// A model that blocks prompts mentioning `rm` and fails on `error`.
#[derive(Default)]
struct TestModel {
    asked: Mutex<Vec<String>>,
}

#[async_trait]
impl PromptEvaluator for TestModel {
    async fn evaluate(&self, request: PromptRequest<'_>) -> Result<PromptVerdict, BoxError> {
        self.asked.lock().unwrap().push(request.prompt.clone());
        if request.prompt.contains("hang") {
            std::future::pending::<()>().await;
        }
        if request.prompt.contains("error") {
            return Err("the model is unavailable".into());
        }
        if request.prompt.contains("rm -rf") {
            return Ok(PromptVerdict::block("destructive command"));
        }
        Ok(PromptVerdict::ok())
    }
}

fn prompt_hook(event: BuiltinEvent, mode: PromptMode, prompt: &str) -> HookSpec {
    HookSpec::new(
        event,
        Action::Prompt(PromptAction {
            prompt: prompt.to_owned(),
            mode,
            model: None,
            max_tool_rounds: None,
            continue_on_block: false,
        }),
    )
}

#[tokio::test(start_paused = true)]
async fn prompt_hooks_inject_or_ask_the_hosts_model() {
    let model = Arc::new(TestModel::default());
    let with_model = |specs: Vec<HookSpec>| {
        Dispatcher::builder()
            .index(HookIndex::new(specs))
            .prompt_evaluator(model.clone())
            .build()
            .unwrap()
    };

    // Inject: the text is context, no model involved.
    let inject = prompt_hook(
        BuiltinEvent::UserPromptSubmit,
        PromptMode::Inject,
        "Follow the style guide.",
    );
    let result = dispatcher(vec![inject])
        .dispatch(&EventContext::user_prompt_submit("hi"))
        .await;
    assert_eq!(
        result.effects.additional_context,
        ["Follow the style guide."]
    );

    // Evaluate: `$ARGUMENTS` is the event JSON; not ok blocks with the reason.
    let judge = prompt_hook(
        BuiltinEvent::PreToolUse,
        PromptMode::Evaluate,
        "Is this safe? $ARGUMENTS",
    );
    let d = with_model(vec![judge.clone()]);
    let result = d
        .dispatch(&EventContext::pre_tool_use(
            "Bash",
            json!({"command": "rm -rf /"}),
        ))
        .await;
    assert_eq!(
        (result.effects.decision, result.effects.reason.as_deref()),
        (Decision::Block, Some("destructive command"))
    );
    let result = d
        .dispatch(&EventContext::pre_tool_use(
            "Bash",
            json!({"command": "ls"}),
        ))
        .await;
    assert_eq!(result.effects.decision, Decision::None);
    assert_eq!(result.hooks[0].run.status, HookStatus::Ok);
    let asked = model.asked.lock().unwrap().clone();
    assert!(
        asked[1].starts_with("Is this safe? {\"hook_event_name\":\"PreToolUse\""),
        "{asked:?}"
    );

    // Without `$ARGUMENTS` the event JSON is appended.
    let plain = prompt_hook(BuiltinEvent::Stop, PromptMode::Agent, "Are all tasks done?");
    with_model(vec![plain])
        .dispatch(&EventContext::stop(false))
        .await;
    assert!(
        model.asked.lock().unwrap()[2]
            .starts_with("Are all tasks done?\n\n{\"hook_event_name\":\"Stop\"")
    );

    // Failures: no evaluator, an evaluator error, a model that never answers.
    let result = dispatcher(vec![judge.clone()])
        .dispatch(&EventContext::pre_tool_use("Bash", json!({})))
        .await;
    let failure = result.hooks[0].run.failure.clone().unwrap();
    assert_eq!(failure.kind, FailureKind::NotConfigured);
    assert_eq!(
        failure.message,
        "this prompt hook asks a model, but the host configured no prompt evaluator"
    );

    let erroring = prompt_hook(BuiltinEvent::PreToolUse, PromptMode::Evaluate, "error")
        .with_on_failure(FailurePolicy::Block);
    let result = with_model(vec![erroring])
        .dispatch(&EventContext::pre_tool_use("Bash", json!({})))
        .await;
    assert_eq!(result.effects.decision, Decision::Block);
    assert!(
        result.hooks[0]
            .run
            .failure
            .as_ref()
            .unwrap()
            .message
            .contains("the model is unavailable")
    );

    let hanging = prompt_hook(BuiltinEvent::PreToolUse, PromptMode::Evaluate, "hang")
        .with_timeout(Duration::from_secs(5));
    let result = with_model(vec![hanging])
        .dispatch(&EventContext::pre_tool_use("Bash", json!({})))
        .await;
    assert_eq!(result.hooks[0].run.status, HookStatus::TimedOut);
}

#[tokio::test]
async fn permission_hooks_answer_a_fixed_decision() {
    let specs = vec![
        HookSpec::new(
            BuiltinEvent::PreToolUse,
            Action::permission(Decision::Allow),
        )
        .with_id("allow"),
        HookSpec::new(BuiltinEvent::PreToolUse, Action::permission(Decision::Ask)).with_id("ask"),
    ];
    let result = dispatcher(specs)
        .dispatch(&EventContext::pre_tool_use("Bash", json!({})))
        .await;
    assert_eq!(result.effects.decision, Decision::Ask);
    let decisions: Vec<_> = result.hooks.iter().map(|h| h.decision).collect();
    assert_eq!(decisions, [Decision::Allow, Decision::Ask]);
}

/// A stand-in for the http executor: answers from the URL, or hangs.
struct FakeHttp;

#[async_trait]
impl Executor for FakeHttp {
    async fn execute(&self, run: HookRun<'_>) -> HookOutcome {
        match &run.spec.action {
            Action::Http(h) if h.url.ends_with("/hang") => std::future::pending().await,
            Action::Http(_) => {
                HookOutcome::decided(Decision::Deny, Some("remote policy".to_owned()))
            }
            _ => HookOutcome::failed(FailureKind::Spawn, "not http"),
        }
    }
}

fn http_hook(url: &str) -> HookSpec {
    HookSpec::new(
        BuiltinEvent::PreToolUse,
        Action::Http(hooks_core::HttpAction {
            url: url.to_owned(),
            headers: Vec::new(),
            allowed_env_vars: Vec::new(),
        }),
    )
}

#[tokio::test(start_paused = true)]
async fn http_and_mcp_hooks_need_a_plugged_executor() {
    let ctx = EventContext::pre_tool_use("Bash", json!({}));
    let result = dispatcher(vec![http_hook("http://127.0.0.1:1/check")])
        .dispatch(&ctx)
        .await;
    let failure = result.hooks[0].run.failure.clone().unwrap();
    assert_eq!(failure.kind, FailureKind::NotConfigured);
    assert_eq!(
        failure.message,
        "no http executor is configured: build the dispatcher with \
         `DispatcherBuilder::http_executor`"
    );

    let mcp = HookSpec::new(
        BuiltinEvent::PreToolUse,
        Action::McpTool(hooks_core::McpToolAction {
            server: "s".to_owned(),
            tool: "t".to_owned(),
            input: json!({}),
        }),
    );
    let result = dispatcher(vec![mcp]).dispatch(&ctx).await;
    let failure = result.hooks[0].run.failure.clone().unwrap();
    assert_eq!(failure.kind, FailureKind::NotConfigured);
    assert!(failure.message.contains("no mcp_tool executor"));

    let d = Dispatcher::builder()
        .index(HookIndex::new(vec![
            http_hook("http://127.0.0.1:1/check"),
            http_hook("http://127.0.0.1:1/hang").with_timeout(Duration::from_secs(2)),
        ]))
        .http_executor(Arc::new(FakeHttp))
        .build()
        .unwrap();
    let result = d.dispatch(&ctx).await;
    assert_eq!(result.effects.decision, Decision::Deny);
    // A plugged executor that never answers is cut off at its timeout.
    assert_eq!(result.hooks[1].run.status, HookStatus::TimedOut);
}

#[tokio::test]
async fn the_index_can_be_swapped() {
    let d = dispatcher(vec![]);
    let ctx = EventContext::pre_tool_use("Bash", json!({}));
    assert_eq!(d.dispatch(&ctx).await.effects.decision, Decision::None);
    d.set_index(HookIndex::new(vec![HookSpec::new(
        BuiltinEvent::PreToolUse,
        Action::permission(Decision::Deny),
    )]));
    assert_eq!(d.dispatch(&ctx).await.effects.decision, Decision::Deny);
    // The dispatcher is the orchestration layer's event sink.
    let sink: &dyn hooks_core::EventSink = &d;
    assert_eq!(sink.dispatch(ctx).await.effects.decision, Decision::Deny);
}

/// What a Claude Code prompt or agent hook's `ok: false` does: `(event, mode,
/// continueOnBlock, decision, continue)`.
#[tokio::test(start_paused = true)]
async fn claude_prompt_not_ok_follows_continue_on_block_per_event() {
    use BuiltinEvent as E;
    let model = Arc::new(TestModel::default());
    let cases = [
        // PreToolUse, PostToolUse and TeammateIdle end the turn unless told to go on.
        (
            E::PreToolUse,
            PromptMode::Evaluate,
            false,
            Decision::Block,
            false,
        ),
        (
            E::PreToolUse,
            PromptMode::Evaluate,
            true,
            Decision::Block,
            true,
        ),
        (
            E::PreToolUse,
            PromptMode::Agent,
            false,
            Decision::Block,
            true,
        ),
        // PostToolUse cannot be blocked: the reason is feedback for the model.
        (
            E::PostToolUse,
            PromptMode::Evaluate,
            false,
            Decision::None,
            false,
        ),
        (
            E::PostToolUse,
            PromptMode::Evaluate,
            true,
            Decision::None,
            true,
        ),
        (
            E::TeammateIdle,
            PromptMode::Evaluate,
            false,
            Decision::Block,
            false,
        ),
        (
            E::TeammateIdle,
            PromptMode::Evaluate,
            true,
            Decision::Block,
            true,
        ),
        // Stop feeds the reason back whatever the flag; PermissionRequest takes nothing.
        (E::Stop, PromptMode::Evaluate, false, Decision::Block, true),
        (
            E::PermissionRequest,
            PromptMode::Evaluate,
            false,
            Decision::None,
            true,
        ),
    ];
    for (event, mode, continue_on_block, decision, continues) in cases {
        let mut spec = prompt_hook(event, mode, "Is this safe? $ARGUMENTS");
        if let Action::Prompt(p) = &mut spec.action {
            p.continue_on_block = continue_on_block;
        }
        let spec = spec.with_dialect(hooks_core::Dialect::Claude);
        let d = Dispatcher::builder()
            .index(HookIndex::new(vec![spec]))
            .prompt_evaluator(model.clone())
            .build()
            .unwrap();
        let mut ctx = EventContext::new(event);
        ctx.set("tool_name", json!("Bash"));
        ctx.set("tool_input", json!({"command": "rm -rf /"}));
        let result = d.dispatch(&ctx).await;
        let case = format!("{event} {mode:?} continueOnBlock={continue_on_block}");
        assert_eq!(result.effects.decision, decision, "{case}: {result:#?}");
        assert_eq!(result.effects.continue_, continues, "{case}: {result:#?}");
        if !continues {
            assert_eq!(
                result.effects.stop_reason.as_deref(),
                Some("destructive command"),
                "{case}"
            );
        }
    }
}

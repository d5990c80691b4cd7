//! The core model at work on a recorded agent session.
//!
//! Replays `examples/sessions/core-demo.jsonl` (one `{"event", "payload"}` per line) through
//! a set of hooks written the way users write them in each dialect, and prints per event
//! which hooks matched, what each answered and the one outcome the engine folded.
//!
//! This example exercises `hooks-core` alone, which does no IO: each hook's reply is the
//! exit code and output its script gives for that input (the security guard exits 2 on
//! `rm -rf /`, the formatter prints Claude JSON, ...), fed to the same parser and
//! aggregation the executors use. Run it with `cargo run -p agentic-hooks --example core_session`.

// An example prints its report.
#![allow(clippy::print_stdout)]

use anyhow::{Context, Result};
use hooks::core::{
    Action, AggregateEntry, Decision, Dialect, EventCatalog, EventContext, Filter, HookIndex,
    HookSpec, IfCondition, Matcher, aggregate, parse_output,
};
use hooks::core::{BuiltinEvent as E, FailurePolicy};
use serde_json::Value;

/// A hook's reply for a context: exit code, stdout, stderr.
type Reply = fn(&EventContext) -> (Option<i32>, String, String);

fn command(ctx: &EventContext) -> &str {
    ctx.tool_input()
        .and_then(|i| i.get("command"))
        .and_then(Value::as_str)
        .unwrap_or("")
}

/// The hooks of this session, each with the reply its script gives.
fn hooks() -> Result<Vec<(HookSpec, Reply)>> {
    Ok(vec![
        (
            // Claude Code settings.json: a guard on Bash that blocks destructive commands.
            HookSpec::new(E::PreToolUse, Action::script("~/.claude/hooks/guard.sh"))
                .with_id("security-guard")
                .with_matcher(Matcher::parse("Bash")?)
                .with_dialect(Dialect::Claude),
            |ctx| {
                if command(ctx).contains("rm -rf /") {
                    (
                        Some(2),
                        String::new(),
                        "Blocked: rm -rf / would erase the machine".into(),
                    )
                } else {
                    (Some(0), String::new(), String::new())
                }
            },
        ),
        (
            // Claude Code: auto-approve read-only git commands through an `if` condition.
            HookSpec::new(E::PreToolUse, Action::script("echo allow"))
                .with_id("approve-git-status")
                .with_matcher(Matcher::parse("Bash")?)
                .with_condition(IfCondition::parse("Bash(git status*)")?)
                .with_dialect(Dialect::Claude),
            |_| {
                let out = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"read-only git"}}"#;
                (Some(0), out.into(), String::new())
            },
        ),
        (
            // A native hook: a fixed allow for every tool (it cannot hide a later deny).
            HookSpec::new(E::PreToolUse, Action::permission(Decision::Allow)).with_id("allow-all"),
            |_| (Some(0), r#"{"decision":"allow"}"#.into(), String::new()),
        ),
        (
            // echo-agent: protect dotenv files, fail closed.
            HookSpec::new(E::PreToolUse, Action::script("${SKILL_DIR}/protect-env.sh"))
                .with_id("protect-env")
                .with_matcher(Matcher::parse("Write|Edit")?)
                .with_filter(Filter::new().with_paths(["**/.env*"])?)
                .with_on_failure(FailurePolicy::Block)
                .with_dialect(Dialect::Echo),
            |_| {
                (
                    Some(0),
                    r#"{"decision":"deny","message":"refusing to write secrets"}"#.into(),
                    String::new(),
                )
            },
        ),
        (
            // Autohand config.json: format TypeScript after writes.
            HookSpec::new(
                E::PostToolUse,
                Action::script("~/.autohand/hooks/auto-format.sh"),
            )
            .with_id("auto-format")
            .with_filter(Filter::new().with_paths(["**/*.ts"])?)
            .with_dialect(Dialect::Autohand),
            |_| {
                (
                    Some(0),
                    r#"{"additionalContext":"formatted src/date.ts with prettier"}"#.into(),
                    String::new(),
                )
            },
        ),
        (
            // Autohand: a regex matcher over its own tool names; its script crashes.
            HookSpec::new(E::PreToolUse, Action::script("./log-dangerous.sh"))
                .with_id("log-dangerous")
                .with_matcher(Matcher::regex("^(run_command|delete_path)$")?)
                .with_dialect(Dialect::Autohand),
            |_| (None, String::new(), "Segmentation fault".into()),
        ),
        (
            // Session start: inject project context as plain text.
            HookSpec::new(E::SessionStart, Action::script("cat .agent/context.md"))
                .with_id("project-context")
                .with_matcher(Matcher::parse("startup|resume")?),
            |_| {
                (
                    Some(0),
                    "This repository uses bun, not npm.".into(),
                    String::new(),
                )
            },
        ),
        (
            // Fabro run config: a blocking pre-check on the deploy stage.
            HookSpec::new(
                E::StageStart,
                Action::argv(["./scripts/pre-check.sh", "--strict"]),
            )
            .with_id("pre-check")
            .with_matcher(Matcher::regex("deploy")?)
            .with_dialect(Dialect::Fabro),
            |_| (Some(0), r#"{"decision":"skip"}"#.into(), String::new()),
        ),
        (
            // A Stop hook that asks for tests, but lets go once it already blocked.
            HookSpec::new(E::Stop, Action::script("./require-tests.sh")).with_id("require-tests"),
            |ctx| {
                if ctx.get("stop_hook_active") == Some(&Value::Bool(true)) {
                    (Some(0), String::new(), String::new())
                } else {
                    (
                        Some(0),
                        r#"{"decision":"block","reason":"run the tests before stopping"}"#.into(),
                        String::new(),
                    )
                }
            },
        ),
    ])
}

fn main() -> Result<()> {
    let catalog = EventCatalog::new();
    let (specs, replies): (Vec<HookSpec>, Vec<Reply>) = hooks()?.into_iter().unzip();
    let index = HookIndex::new(specs);
    let session = include_str!("sessions/core-demo.jsonl");
    let mut blocked = 0;
    let mut events = 0;
    for (n, line) in session
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let record: Value =
            serde_json::from_str(line).with_context(|| format!("line {}", n + 1))?;
        let name = record["event"].as_str().context("an `event` name")?;
        let event = catalog.resolve(name)?;
        let ctx = EventContext::from_value(event, record["payload"].clone())?;
        events += 1;

        let matched = index.matching(&ctx);
        let entries: Vec<AggregateEntry> = matched
            .iter()
            .map(|&i| {
                let (code, stdout, stderr) = replies[i.get()](&ctx);
                let outcome = parse_output(ctx.event(), code, stdout.as_bytes(), stderr.as_bytes());
                AggregateEntry::new(index.spec(i), i, outcome)
            })
            .collect();
        let outcome = aggregate(ctx.event(), entries);
        if outcome.is_blocked() {
            blocked += 1;
        }

        let subject = ctx
            .matcher_subjects()
            .next()
            .map(|(_, v)| format!(" {v}"))
            .unwrap_or_default();
        println!(
            "{:>2}. {}{}  ->  {}",
            n + 1,
            ctx.event(),
            subject,
            outcome.effects.decision
        );
        for hook in &outcome.hooks {
            println!(
                "      {:<20} {:<10} {}",
                hook.id,
                hook.run.status.as_str(),
                hook.decision
            );
        }
        if let Some(reason) = &outcome.effects.reason {
            println!("      reason: {reason}");
        }
        for text in outcome
            .effects
            .additional_context
            .iter()
            .chain(&outcome.effects.messages)
        {
            println!("      note: {text}");
        }
        if outcome.effects.skip {
            println!("      stage skipped");
        }
    }
    println!(
        "\n{events} events replayed, {blocked} blocked or denied, {} hooks configured",
        index.specs().len()
    );
    Ok(())
}

//! `hooks test HOOK_ID [-p PAYLOAD] [--json]`: runs one hook, found by id, on a payload or
//! on a sample context for its event, and prints what it answered.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Result;
use hooks::config::{HookSet, Inactive, MergedHook};
use hooks::core::{
    AggregateEntry, BuiltinEvent as E, Dialect, EventContext, HookPos, HookSpec, HookStatus,
    MatcherKind, aggregate_context,
};
use hooks::exec::CancellationToken;
use serde_json::{Value, json};

use super::render::{self, Style};
use crate::cli::TestArgs;

/// Runs the hook; exit 0 when it ran and let the event proceed, 2 when it blocked or
/// denied, 1 when it failed or timed out (whatever its failure policy), or on a bad id,
/// payload or config.
pub fn run(args: &TestArgs) -> Result<u8> {
    let engine = render::load_engine(&args.config)?;
    render::note_broken_files(&engine)?;
    let loaded = engine.loaded();
    let hook = find(&loaded.hooks, &args.hook_id)?;
    if hook.inactive == Some(Inactive::Untrusted) {
        anyhow::bail!(
            "hook `{}` comes from a project file that is not trusted, so it does not run; \
             review it, then run `hooks trust {}`",
            args.hook_id,
            hook.spec
                .provenance
                .file
                .as_ref()
                .map_or_else(|| args.hook_id.clone(), |f| f.display().to_string())
        );
    }
    let spec = hook.spec.clone().with_enabled(true);
    let project = super::project_dir(&args.config)?;
    let mut ctx = match super::read_payload(args.payload.as_deref())? {
        Some(payload) => render::context(spec.event.clone(), payload)?,
        None => sample_in(&spec, &project),
    };
    super::default_cwd(&mut ctx, &project);
    let outcome = super::runtime()?.block_on(async {
        let outcome = engine
            .dispatcher()
            .run_hook(&spec, &ctx, &CancellationToken::new())
            .await;
        engine.dispatcher().flush_async().await;
        outcome
    });
    let status = outcome.run.status;
    let agg = aggregate_context(
        &ctx,
        vec![AggregateEntry::new(&spec, HookPos::new(0), outcome.clone())],
    );
    let mut out = std::io::stdout().lock();
    if args.json {
        let line = json!({
            "id": spec.display_id(),
            "event": ctx.event().name(),
            "payload": Value::Object(ctx.fields().clone()),
            "outcome": outcome,
            "result": agg,
        });
        writeln!(out, "{}", serde_json::to_string(&line)?)?;
    } else {
        let style = Style::stdout();
        writeln!(
            out,
            "{} {} on {} {}",
            style.bold("testing"),
            spec.display_id(),
            style.cyan(ctx.event().name()),
            render::subject(&ctx)
        )?;
        if !hook.is_active() {
            let why = hook.inactive.as_ref().map(Inactive::describe);
            writeln!(
                out,
                "  {}",
                style.yellow(&format!(
                    "note: the hook does not run in dispatches ({}); tested anyway",
                    why.unwrap_or_default()
                ))
            )?;
        }
        writeln!(
            out,
            "  payload: {}",
            render::shorten(&Value::Object(ctx.fields().clone()).to_string(), 200)
        )?;
        write!(out, "{}", render::outcome(style, &agg, "  "))?;
        for field in &outcome.unknown_fields {
            writeln!(out, "  unrecognised output field: {field}")?;
        }
    }
    Ok(match status {
        HookStatus::Failed | HookStatus::TimedOut => 1,
        _ => super::run::exit_code(&agg),
    })
}

/// The hook `handle` names in the merged set (see [`crate::handle`]: an id, what
/// `hooks list` shows, a description, `FILE:LINE`); none or several is an error saying so.
pub fn find<'a>(set: &'a HookSet, handle: &str) -> Result<&'a MergedHook> {
    let hooks = set.hooks();
    let searched = match hooks.len() {
        0 => "the configuration (it has no hooks)".to_owned(),
        n => format!("the {n} configured hook{}", render::plural(n)),
    };
    let i = crate::handle::resolve(&crate::handle::merged(hooks), handle, &searched)?;
    Ok(&hooks[i])
}

/// A sample context for `spec`'s event that its matcher selects, with values from the
/// hook's dialect (its `Domain`): a `Bash` call of `ls` for PreToolUse (`run_command` for an
/// Autohand hook), a `startup` for SessionStart, and so on, with a session id and the
/// current directory as `cwd`.
pub fn sample(spec: &HookSpec) -> EventContext {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    sample_in(spec, &cwd)
}

/// [`sample`] with `cwd` (the project root, for `hooks test`) as its `cwd`.
pub fn sample_in(spec: &HookSpec, cwd: &Path) -> EventContext {
    let domain = Domain::of(spec.dialect);
    let mut ctx = base_sample(spec, domain).with("session_id", "sample-session");
    (domain.fields)(&mut ctx);
    super::default_cwd(&mut ctx, cwd);
    ctx.set("permission_mode", "default");
    // Make the matcher fields say what the hook's matcher selects.
    if !spec.matcher.is_all() {
        for field in spec.event.info().matcher_fields().to_vec() {
            let current = ctx.get_str(&field).unwrap_or_default().to_owned();
            if spec.matcher.is_match(&current) {
                continue;
            }
            if let Some(value) = matching_name(spec, domain) {
                if field == "tool_name" {
                    ctx.set("tool_input", tool_input(&value));
                }
                ctx.set(field, value);
            }
            break;
        }
    }
    ctx
}

/// The fields Autohand gives a hook on the sample's event, beyond the event's own, so that
/// its variables are set as Autohand sets them: `HOOK_TOKENS`, `HOOK_TOOL_CALLS_COUNT`,
/// `HOOK_TURN_*` and `HOOK_DURATION` on stop; `HOOK_SUCCESS` and `HOOK_DURATION` after a
/// tool; `HOOK_DURATION` at session end; the subagent's on subagent-stop; `HOOK_ERROR` and
/// `HOOK_ERROR_CODE` on session-error.
fn autohand_fields(ctx: &mut EventContext) {
    let fields: &[(&str, Value)] = match ctx.event().builtin() {
        Some(E::Stop) => &[
            ("tokens_used", json!(1520)),
            ("tool_calls_count", json!(3)),
            ("turn_tool_calls", json!(2)),
            ("turn_duration", json!(8200)),
            ("duration", json!(125_000)),
        ],
        Some(E::PostToolUse) => &[("tool_success", json!(true)), ("duration", json!(42))],
        Some(E::PostToolUseFailure) => &[("tool_success", json!(false)), ("duration", json!(42))],
        Some(E::SessionEnd) => &[("duration", json!(125_000))],
        Some(E::SubagentStop) => &[
            ("subagent_name", json!("explorer")),
            ("subagent_success", json!(true)),
            ("subagent_duration", json!(30_500)),
        ],
        Some(E::SessionError) => &[
            ("error", json!("The model provider returned an error")),
            ("error_code", json!("provider_error")),
        ],
        _ => &[],
    };
    for (field, value) in fields {
        if ctx.get(field).is_none() {
            ctx.set(*field, value.clone());
        }
    }
}

/// The values a sample takes from its hook's dialect: Autohand's tool names
/// (`run_command`, `write_file`, ...), change types (`create|modify|delete`) and session
/// end reasons (`quit|clear|exit|error`); Claude Code's for every other dialect.
#[derive(Clone, Copy)]
struct Domain {
    /// The shell tool.
    shell: &'static str,
    /// Tool names a matcher is tried against, the shell tool first.
    tools: &'static [&'static str],
    /// A file change.
    change_type: &'static str,
    /// Why a session ended.
    end_reason: &'static str,
    /// Adds the fields the dialect's agent gives a hook on the sample's event.
    fields: fn(&mut EventContext),
}

impl Domain {
    fn of(dialect: Dialect) -> Domain {
        if dialect == Dialect::Autohand {
            Domain {
                shell: "run_command",
                tools: &[
                    "run_command",
                    "write_file",
                    "read_file",
                    "delete_path",
                    "Bash",
                    "Write",
                    "Edit",
                    "Read",
                ],
                change_type: "modify",
                end_reason: "quit",
                fields: autohand_fields,
            }
        } else {
            Domain {
                shell: "Bash",
                tools: &["Bash", "Write", "Edit", "Read", "run_command", "write_file"],
                change_type: "modified",
                end_reason: "other",
                fields: |_| {},
            }
        }
    }
}

/// A name the hook's matcher selects: its first exact name, else the first word of the
/// pattern that the regex matches, else a tool name of its dialect it matches.
fn matching_name(spec: &HookSpec, domain: Domain) -> Option<String> {
    let matcher = &spec.matcher;
    match matcher.kind() {
        MatcherKind::Exact(names) => names.first().cloned(),
        _ => matcher
            .as_str()
            .split(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | ':')))
            .filter(|w| !w.is_empty())
            .map(str::to_owned)
            .chain(domain.tools.iter().map(|t| (*t).to_owned()))
            .find(|w| matcher.is_match(w)),
    }
}

/// A plausible input for `tool`.
fn tool_input(tool: &str) -> Value {
    match tool {
        "Bash" | "run_command" | "shell" => json!({"command": "ls", "description": "List files"}),
        "Write" | "write_file" => {
            json!({"file_path": "src/example.ts", "content": "export const answer = 42;\n"})
        }
        "Edit" | "MultiEdit" | "edit_file" => json!({
            "file_path": "src/example.ts",
            "old_string": "answer = 41",
            "new_string": "answer = 42",
        }),
        "Read" | "read_file" => json!({"file_path": "src/example.ts"}),
        "delete_path" => json!({"path": "build"}),
        "WebFetch" => json!({"url": "https://example.com/", "prompt": "Summarise the page"}),
        "Glob" => json!({"pattern": "**/*.ts"}),
        "Grep" => json!({"pattern": "TODO", "path": "src"}),
        _ => json!({}),
    }
}

/// The event's own fields.
fn base_sample(spec: &HookSpec, domain: Domain) -> EventContext {
    let shell = domain.shell;
    let bash = || tool_input(shell);
    let Some(event) = spec.event.builtin() else {
        return EventContext::new(spec.event.clone());
    };
    match event {
        E::PreToolUse => {
            EventContext::pre_tool_use(shell, bash()).with("tool_use_id", "toolu_sample")
        }
        E::PostToolUse => EventContext::post_tool_use(
            shell,
            bash(),
            json!({"stdout": "Cargo.toml\nsrc\n", "stderr": "", "exit_code": 0}),
        )
        .with("tool_use_id", "toolu_sample"),
        E::PostToolUseFailure => {
            EventContext::post_tool_use_failure(shell, bash(), "ls: cannot access 'missing'")
                .with("tool_use_id", "toolu_sample")
        }
        E::PermissionRequest => EventContext::permission_request(shell, bash()),
        E::SessionStart => EventContext::session_start("startup"),
        E::SessionEnd => EventContext::session_end(domain.end_reason),
        E::UserPromptSubmit => EventContext::user_prompt_submit("Explain what this project does."),
        E::Stop => {
            EventContext::stop(false).with("last_assistant_message", "I have finished the task.")
        }
        E::SubagentStart => EventContext::subagent_start("agent-sample", "Explore"),
        E::SubagentStop => EventContext::subagent_stop("agent-sample", "Explore", false).with(
            "last_assistant_message",
            "Found the function in src/lib.rs.",
        ),
        E::Notification => EventContext::notification(
            "permission_prompt",
            format!("The agent needs your permission to use {shell}"),
        ),
        E::TaskCreated => EventContext::task_created("task-1", "Write the tests"),
        E::TaskCompleted => EventContext::task_completed("task-1", "Write the tests"),
        E::FileChanged => EventContext::file_changed("src/example.ts", domain.change_type),
        E::RunStart => EventContext::run_start("run-sample", "ci"),
        E::RunComplete => EventContext::run_complete("run-sample", "ci"),
        E::RunFailed => EventContext::run_failed("run-sample", "ci", "stage `test` failed"),
        E::StageStart => EventContext::stage(hooks::core::StageEvent::Start, "test", "agent"),
        E::StageComplete => EventContext::stage(hooks::core::StageEvent::Complete, "test", "agent"),
        E::StageFailed => EventContext::stage(hooks::core::StageEvent::Failed, "test", "agent"),
        E::StageRetrying => EventContext::stage(hooks::core::StageEvent::Retrying, "test", "agent"),
        E::EdgeSelected => EventContext::edge_selected("review", "deploy"),
        E::PreCompact | E::PostCompact => EventContext::new(event)
            .with("trigger", "manual")
            .with("custom_instructions", ""),
        _ => EventContext::new(event),
    }
}

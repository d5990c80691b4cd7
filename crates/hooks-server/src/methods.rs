//! The server's methods: `initialize`, `hooks/dispatch`, `hooks/list`, `hooks/explain`,
//! `hooks/reload`. Each takes its params and answers a result or a JSON-RPC error.

use std::path::Path;

use hooks::config::Diagnostic;
use hooks::core::{EventCatalog, EventContext};
use hooks::exec::CancellationToken;
use hooks::{Engine, Reload};
use serde_json::{Map, Value, json};

use crate::report;
use crate::rpc::{CONFIG_ERROR, INTERNAL_ERROR, Params, REQUEST_CANCELLED, RpcError};

/// Every request method, for `initialize` and did-you-mean hints.
pub(crate) const METHODS: &[&str] = &[
    "initialize",
    "hooks/dispatch",
    "hooks/list",
    "hooks/explain",
    "hooks/reload",
    "shutdown",
];

/// The notifications this server sends.
pub(crate) const NOTIFICATIONS: &[&str] = &[
    "autohand.hook.preTool",
    "autohand.hook.postTool",
    "autohand.hook.fileModified",
    "autohand.hook.prePrompt",
    "autohand.hook.stop",
    "autohand.hook.postResponse",
    "autohand.hook.sessionStart",
    "autohand.hook.sessionEnd",
    "autohand.hook.sessionError",
    "autohand.hook.subagentStop",
    "autohand.hook.permissionRequest",
    "autohand.hook.notification",
    "hooks.asyncHook.completed",
    "hooks.asyncHook.dropped",
    "hooks/didReload",
];

/// `initialize`: who the server is and what it speaks. Optional: every other method works
/// without it.
pub(crate) fn initialize(params: Option<Value>) -> Result<Value, RpcError> {
    // LSP clients send their own capabilities; they are accepted and not needed.
    let _ = params;
    Ok(json!({
        "serverInfo": {"name": "hooks", "version": env!("CARGO_PKG_VERSION")},
        "capabilities": {
            "methods": METHODS,
            "notifications": NOTIFICATIONS,
            "cancellation": "$/cancelRequest",
        },
    }))
}

/// `hooks/dispatch {event, payload}`: runs the event's hooks; the result is the aggregate,
/// the JSON of `hooks run --json`. A cancelled dispatch answers `REQUEST_CANCELLED` with
/// the aggregate of what ran as its data.
pub(crate) async fn dispatch(
    engine: &Engine,
    catalog: &EventCatalog,
    project: &Path,
    params: Option<Value>,
    cancel: &CancellationToken,
) -> Result<Value, RpcError> {
    let ctx = event_context(catalog, project, "hooks/dispatch", params)?;
    let aggregate = engine.dispatch_with_cancel(&ctx, cancel).await;
    let value = serde_json::to_value(&aggregate)
        .map_err(|e| RpcError::new(INTERNAL_ERROR, format!("cannot encode the outcome: {e}")))?;
    if cancel.is_cancelled() {
        return Err(RpcError::new(REQUEST_CANCELLED, "the request was cancelled").with_data(value));
    }
    Ok(value)
}

/// `hooks/list`: every configured hook, active or not, grouped by event, with the files
/// and warnings: the JSON of `hooks list --json`.
pub(crate) fn list(engine: &Engine, params: Option<Value>) -> Result<Value, RpcError> {
    Params::parse("hooks/list", params, &[])?;
    Ok(report::list(
        &engine.loaded(),
        engine.dispatcher().timeouts(),
    ))
}

/// `hooks/explain {event, payload}`: for each hook attached to the event, whether it would
/// run for this payload and, if not, why: the JSON of `hooks explain --json`. Runs nothing.
pub(crate) fn explain(
    engine: &Engine,
    catalog: &EventCatalog,
    project: &Path,
    params: Option<Value>,
) -> Result<Value, RpcError> {
    let ctx = event_context(catalog, project, "hooks/explain", params)?;
    Ok(report::explain(&engine.loaded().hooks, &ctx))
}

/// `hooks/reload`: loads the config again. A config that does not load is a
/// `CONFIG_ERROR` with its diagnostics, and the hooks in force stay.
pub(crate) async fn reload(engine: &Engine, params: Option<Value>) -> Result<Value, RpcError> {
    Params::parse("hooks/reload", params, &[])?;
    reload_result(engine, engine.reload().await)
}

/// A reload's result as the JSON of `hooks/reload` (and of the `hooks/didReload`
/// notification's params). An applied reload that left hooks waiting for trust (a
/// discovered file edited since it was trusted, or never trusted) lists their files under
/// `untrusted`, each with the command that trusts it.
pub(crate) fn reload_result(
    engine: &Engine,
    result: Result<Reload, hooks::Error>,
) -> Result<Value, RpcError> {
    match result {
        Ok(Reload::Applied { active }) => {
            let mut value = json!({"status": "applied", "active": active});
            let untrusted = waiting_for_trust(engine);
            if !untrusted.is_empty() {
                value["untrusted"] = Value::Array(untrusted);
            }
            Ok(value)
        }
        Ok(Reload::Rejected { reason }) => Ok(json!({"status": "rejected", "reason": reason})),
        Ok(other) => Ok(json!({"status": format!("{other:?}")})),
        Err(e) => {
            // One line per problem in the message; the details (hints) are in the data.
            let summary = match e.diagnostics() {
                [] => e.to_string(),
                all => all
                    .iter()
                    .map(|d| format!("{}: {}", d.location(), d.message))
                    .collect::<Vec<_>>()
                    .join("; "),
            };
            let diagnostics: Vec<Value> = e.diagnostics().iter().map(diagnostic).collect();
            Err(RpcError::new(
                CONFIG_ERROR,
                format!("the config did not load; the hooks in force are unchanged: {summary}"),
            )
            .with_data(json!({"diagnostics": diagnostics})))
        }
    }
}

/// The files whose hooks wait for trust, in load order, as `{file, hooks, command}`: the
/// file as the user would type it (relative to the current directory when inside it), how
/// many of its hooks wait, and the `hooks trust` command that lets them run.
fn waiting_for_trust(engine: &Engine) -> Vec<Value> {
    let loaded = engine.loaded();
    let mut files: Vec<(&std::path::Path, usize)> = Vec::new();
    for hook in loaded.hooks.hooks() {
        let Some(file) = hook.spec.provenance.file.as_deref() else {
            continue;
        };
        if !hook.needs_trust || hook.trusted {
            continue;
        }
        match files.iter_mut().find(|(f, _)| *f == file) {
            Some((_, n)) => *n += 1,
            None => files.push((file, 1)),
        }
    }
    files
        .into_iter()
        .map(|(file, hooks)| {
            let shown = report::shown_path(file);
            let command = report::trust_command(&shown);
            json!({"file": shown, "hooks": hooks, "command": command})
        })
        .collect()
}

/// The event context of `{event, payload}`, with the project root as its `cwd` when the
/// payload has none (as `hooks run` does): an unknown event is an invalid-params error
/// naming the closest event.
fn event_context(
    catalog: &EventCatalog,
    project: &Path,
    method: &'static str,
    params: Option<Value>,
) -> Result<EventContext, RpcError> {
    let mut params = Params::parse(method, params, &["event", "payload"])?;
    let name = params.required_str("event")?;
    let event = catalog.resolve(&name).map_err(|e| {
        let suggestion = catalog.suggest(&name);
        RpcError::invalid_params(e.to_string())
            .with_data(json!({"event": name, "suggestion": suggestion}))
    })?;
    let payload = params
        .take("payload")
        .unwrap_or_else(|| Value::Object(Map::new()));
    let mut ctx = EventContext::from_value(event, payload)
        .map_err(|e| RpcError::invalid_params(e.to_string()))?;
    if ctx.get("cwd").is_none() {
        ctx.set("cwd", project.display().to_string());
    }
    Ok(ctx)
}

/// A diagnostic as JSON.
fn diagnostic(d: &Diagnostic) -> Value {
    json!({
        "severity": d.severity.as_str(),
        "file": d.file.as_ref().map(|f| f.display().to_string()),
        "line": d.line,
        "column": d.column,
        "message": d.message,
        "hint": d.hint,
    })
}

//! Notifications: the [`NotificationSink`] trait the dispatcher reports to, and a JSON-RPC
//! 2.0 sink writing Autohand's `autohand.hook.*` notifications to any writer.

use std::fmt;
use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use hooks_core::{BuiltinEvent, EventContext, HookOutcome, HookSpec};
use serde_json::{Map, Value, json};
use tokio::io::{AsyncWrite, AsyncWriteExt};
use tokio::sync::mpsc;

use crate::clock::now_rfc3339;
use crate::error::Error;

/// Where the dispatcher reports what happens outside an event's answer: each dispatched
/// event (for IDEs that follow the agent), what background (async) hooks returned, and
/// background hooks dropped because the queue was full.
///
/// Every method has a no-op default; implement the ones you need. Methods are called on
/// the dispatching task and must not block for long.
pub trait NotificationSink: Send + Sync {
    /// An event is being dispatched, before its hooks run.
    fn event(&self, ctx: &EventContext) {
        let _ = ctx;
    }

    /// A background hook of the event `ctx` finished with `outcome`.
    fn async_outcome(&self, ctx: &EventContext, spec: &HookSpec, outcome: &HookOutcome) {
        let _ = (ctx, spec, outcome);
    }

    /// A background hook of the event `ctx` with Claude Code's `asyncRewake` exited 2: the
    /// agent should be woken now, even when idle, with `message` (the hook's stderr, or its
    /// stdout when stderr was empty) as a reminder. Called after
    /// [`NotificationSink::async_outcome`].
    fn rewake(&self, ctx: &EventContext, spec: &HookSpec, message: &str) {
        let _ = (ctx, spec, message);
    }

    /// A background hook of the event `ctx` was dropped: the queue was full.
    /// `dropped_total` counts every drop since the dispatcher was built.
    fn async_dropped(&self, ctx: &EventContext, spec: &HookSpec, dropped_total: u64) {
        let _ = (ctx, spec, dropped_total);
    }
}

/// How many lines an async writer may have queued before new ones are dropped (counted).
const ASYNC_WRITER_QUEUE: usize = 1024;

/// A [`NotificationSink`] writing JSON-RPC 2.0 notifications, one per line.
///
/// Events become Autohand's notifications (see [`autohand_notifications`]); background hook
/// results become `hooks.asyncHook.completed` (`{event, hookId, source, status, decision,
/// reason?, exitCode?, durationMs?, failure?, timestamp}`), an `asyncRewake` hook's exit 2
/// also `hooks.asyncHook.rewake` (`{event, hookId, source, message, timestamp}`), and drops
/// `hooks.asyncHook.dropped` (`{event, hookId, source, droppedTotal, timestamp}`).
/// Events Autohand has no notification for are not written.
///
/// Write errors and lines dropped because an async writer fell behind are counted, never
/// raised: a slow or gone IDE must not stall the agent.
pub struct JsonRpcSink {
    out: Output,
    dropped: Arc<AtomicU64>,
    errors: Arc<AtomicU64>,
}

enum Output {
    Sync(Mutex<Box<dyn Write + Send>>),
    Async(mpsc::Sender<Vec<u8>>),
}

impl fmt::Debug for JsonRpcSink {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("JsonRpcSink")
            .field("dropped", &self.dropped())
            .field("write_errors", &self.write_errors())
            .finish_non_exhaustive()
    }
}

impl JsonRpcSink {
    /// Writes to `writer`, flushing after each line.
    pub fn new(writer: impl Write + Send + 'static) -> JsonRpcSink {
        JsonRpcSink {
            out: Output::Sync(Mutex::new(Box::new(writer))),
            dropped: Arc::new(AtomicU64::new(0)),
            errors: Arc::new(AtomicU64::new(0)),
        }
    }

    /// Writes to an async `writer` (a socket, a child's stdin) from a background task, which
    /// ends when the sink is dropped. Must be called inside a Tokio runtime.
    pub fn from_async_writer<W>(writer: W) -> Result<JsonRpcSink, Error>
    where
        W: AsyncWrite + Unpin + Send + 'static,
    {
        let handle = tokio::runtime::Handle::try_current().map_err(|_| Error::NoRuntime {
            what: "a JSON-RPC sink over an async writer",
        })?;
        let (tx, mut rx) = mpsc::channel::<Vec<u8>>(ASYNC_WRITER_QUEUE);
        let errors = Arc::new(AtomicU64::new(0));
        let task_errors = Arc::clone(&errors);
        handle.spawn(async move {
            let mut writer = writer;
            while let Some(line) = rx.recv().await {
                let written = async {
                    writer.write_all(&line).await?;
                    writer.flush().await
                };
                if let Err(err) = written.await {
                    task_errors.fetch_add(1, Ordering::Relaxed);
                    tracing::debug!(%err, "cannot write a notification");
                }
            }
        });
        Ok(JsonRpcSink {
            out: Output::Async(tx),
            dropped: Arc::new(AtomicU64::new(0)),
            errors,
        })
    }

    /// Notifications dropped because an async writer fell behind.
    pub fn dropped(&self) -> u64 {
        self.dropped.load(Ordering::Relaxed)
    }

    /// Notifications that could not be written.
    pub fn write_errors(&self) -> u64 {
        self.errors.load(Ordering::Relaxed)
    }

    fn send(&self, message: &Value) {
        let mut line = message.to_string().into_bytes();
        line.push(b'\n');
        match &self.out {
            Output::Sync(writer) => {
                let mut writer = writer
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                if let Err(err) = writer.write_all(&line).and_then(|()| writer.flush()) {
                    self.errors.fetch_add(1, Ordering::Relaxed);
                    tracing::debug!(%err, "cannot write a notification");
                }
            }
            Output::Async(tx) => {
                if tx.try_send(line).is_err() {
                    self.dropped.fetch_add(1, Ordering::Relaxed);
                }
            }
        }
    }
}

impl NotificationSink for JsonRpcSink {
    fn event(&self, ctx: &EventContext) {
        for message in autohand_notifications(ctx) {
            self.send(&message);
        }
    }

    fn async_outcome(&self, ctx: &EventContext, spec: &HookSpec, outcome: &HookOutcome) {
        let mut params = Map::new();
        params.insert("event".into(), ctx.event().name().into());
        params.insert("hookId".into(), spec.display_id().into());
        params.insert("source".into(), spec.provenance.to_string().into());
        params.insert("status".into(), outcome.run.status.as_str().into());
        params.insert("decision".into(), outcome.effects.decision.as_str().into());
        if let Some(reason) = &outcome.effects.reason {
            params.insert("reason".into(), reason.clone().into());
        }
        if let Some(code) = outcome.run.exit_code {
            params.insert("exitCode".into(), code.into());
        }
        if let Some(d) = outcome.run.duration {
            params.insert(
                "durationMs".into(),
                u64::try_from(d.as_millis()).unwrap_or(u64::MAX).into(),
            );
        }
        if let Some(failure) = &outcome.run.failure {
            params.insert(
                "failure".into(),
                json!({"kind": failure.kind.as_str(), "message": failure.message}),
            );
        }
        params.insert("timestamp".into(), now_rfc3339().into());
        self.send(&notification("hooks.asyncHook.completed", params));
    }

    fn rewake(&self, ctx: &EventContext, spec: &HookSpec, message: &str) {
        let mut params = Map::new();
        params.insert("event".into(), ctx.event().name().into());
        params.insert("hookId".into(), spec.display_id().into());
        params.insert("source".into(), spec.provenance.to_string().into());
        params.insert("message".into(), message.into());
        params.insert("timestamp".into(), now_rfc3339().into());
        self.send(&notification("hooks.asyncHook.rewake", params));
    }

    fn async_dropped(&self, ctx: &EventContext, spec: &HookSpec, dropped_total: u64) {
        let mut params = Map::new();
        params.insert("event".into(), ctx.event().name().into());
        params.insert("hookId".into(), spec.display_id().into());
        params.insert("source".into(), spec.provenance.to_string().into());
        params.insert("droppedTotal".into(), dropped_total.into());
        params.insert("timestamp".into(), now_rfc3339().into());
        self.send(&notification("hooks.asyncHook.dropped", params));
    }
}

fn notification(method: &str, params: Map<String, Value>) -> Value {
    json!({"jsonrpc": "2.0", "method": method, "params": params})
}

/// The JSON-RPC 2.0 notification Autohand emits for the event `ctx`, or `None` for events
/// it has none for.
///
/// | event | method | params (from the context) |
/// |---|---|---|
/// | PreToolUse | `autohand.hook.preTool` | `toolId` (`tool_use_id`), `toolName`, `args` (`tool_input`) |
/// | PostToolUse, PostToolUseFailure | `autohand.hook.postTool` | `toolId`, `toolName`, `success` (`tool_success`, else true / false by event), `duration`, `output?` (`tool_response`, or `error`) |
/// | FileChanged | `autohand.hook.fileModified` | `filePath`, `changeType`, `toolId` |
/// | UserPromptSubmit | `autohand.hook.prePrompt` | `instruction` (`instruction`, `prompt`), `mentionedFiles` |
/// | Stop | `autohand.hook.stop` | `tokensUsed`, `tokensUsageStatus?` (`"unavailable"` without `tokens_used`), `toolCallsCount`, `duration` |
/// | SessionStart | `autohand.hook.sessionStart` | `sessionType` (`session_type`, `source`) |
/// | SessionEnd | `autohand.hook.sessionEnd` | `reason` (`session_end_reason`, `reason`), `duration` |
/// | SessionError | `autohand.hook.sessionError` | `error`, `code?` (`error_code`), `context?` (`error_context`) |
/// | SubagentStop | `autohand.hook.subagentStop` | `subagentId`, `subagentName`, `subagentType`, `success`, `duration`, `error?` |
/// | PermissionRequest | `autohand.hook.permissionRequest` | `tool`, `path?`, `command?`, `args?` |
/// | Notification | `autohand.hook.notification` | `notificationType`, `message` |
///
/// Every notification also has `timestamp`: the context's `timestamp`, else now. Required
/// params missing from the context get an empty value (`""`, `0`, `[]`, `{}`); optional
/// ones (`?`) are left out. Autohand's alias notifications (`autohand.hook.postResponse`
/// for `stop`) are added by [`autohand_notifications`].
pub fn autohand_notification(ctx: &EventContext) -> Option<Value> {
    let p = Params { ctx };
    let (method, mut params) = match ctx.event().builtin()? {
        BuiltinEvent::PreToolUse => (
            "preTool",
            p.build(|m| {
                m.insert("toolId".into(), p.text(&["tool_use_id", "tool_call_id"]));
                m.insert("toolName".into(), p.text(&["tool_name"]));
                m.insert("args".into(), p.object(&["tool_input"]));
            }),
        ),
        event @ (BuiltinEvent::PostToolUse | BuiltinEvent::PostToolUseFailure) => (
            "postTool",
            p.build(|m| {
                m.insert("toolId".into(), p.text(&["tool_use_id", "tool_call_id"]));
                m.insert("toolName".into(), p.text(&["tool_name"]));
                let success = p.get(&["tool_success"]).and_then(Value::as_bool);
                let success = success.unwrap_or(event == BuiltinEvent::PostToolUse);
                m.insert("success".into(), success.into());
                m.insert("duration".into(), p.number(&["duration", "duration_ms"]));
                if let Some(output) = p.get(&["tool_response", "error"]) {
                    m.insert("output".into(), as_text(output).into());
                }
            }),
        ),
        BuiltinEvent::FileChanged => (
            "fileModified",
            p.build(|m| {
                m.insert(
                    "filePath".into(),
                    ctx.file_path().unwrap_or_default().into(),
                );
                m.insert("changeType".into(), p.text(&["change_type"]));
                m.insert("toolId".into(), p.text(&["tool_use_id", "tool_call_id"]));
            }),
        ),
        BuiltinEvent::UserPromptSubmit => (
            "prePrompt",
            p.build(|m| {
                m.insert("instruction".into(), p.text(&["instruction", "prompt"]));
                m.insert(
                    "mentionedFiles".into(),
                    p.get(&["mentioned_files"])
                        .filter(|v| v.is_array())
                        .cloned()
                        .unwrap_or_else(|| json!([])),
                );
            }),
        ),
        BuiltinEvent::Stop => (
            "stop",
            p.build(|m| {
                m.insert("tokensUsed".into(), p.number(&["tokens_used"]));
                match p.get(&["tokens_usage_status"]) {
                    Some(status) => {
                        m.insert("tokensUsageStatus".into(), status.clone());
                    }
                    None if p.get(&["tokens_used"]).is_none() => {
                        m.insert("tokensUsageStatus".into(), "unavailable".into());
                    }
                    None => {}
                }
                m.insert("toolCallsCount".into(), p.number(&["tool_calls_count"]));
                m.insert("duration".into(), p.number(&["duration", "turn_duration"]));
            }),
        ),
        BuiltinEvent::SessionStart => (
            "sessionStart",
            p.build(|m| {
                m.insert("sessionType".into(), p.text(&["session_type", "source"]));
            }),
        ),
        BuiltinEvent::SessionEnd => (
            "sessionEnd",
            p.build(|m| {
                m.insert("reason".into(), p.text(&["session_end_reason", "reason"]));
                m.insert(
                    "duration".into(),
                    p.number(&["duration", "session_duration"]),
                );
            }),
        ),
        BuiltinEvent::SessionError => (
            "sessionError",
            p.build(|m| {
                m.insert("error".into(), p.text(&["error", "message"]));
                if let Some(code) = p.get(&["error_code", "code"]) {
                    m.insert("code".into(), as_text(code).into());
                }
                if let Some(context) = p.get(&["error_context", "context"]) {
                    m.insert("context".into(), context.clone());
                }
            }),
        ),
        BuiltinEvent::SubagentStop => (
            "subagentStop",
            p.build(|m| {
                m.insert("subagentId".into(), p.text(&["subagent_id", "agent_id"]));
                m.insert(
                    "subagentName".into(),
                    p.text(&["subagent_name", "agent_name", "agent_type"]),
                );
                m.insert(
                    "subagentType".into(),
                    p.text(&["subagent_type", "agent_type"]),
                );
                let success = p
                    .get(&["subagent_success", "success"])
                    .and_then(Value::as_bool);
                m.insert("success".into(), success.unwrap_or(true).into());
                m.insert(
                    "duration".into(),
                    p.number(&["subagent_duration", "duration"]),
                );
                if let Some(error) = p.get(&["subagent_error", "error"]) {
                    m.insert("error".into(), as_text(error).into());
                }
            }),
        ),
        BuiltinEvent::PermissionRequest => (
            "permissionRequest",
            p.build(|m| {
                m.insert("tool".into(), p.text(&["tool_name", "tool"]));
                if let Some(path) = ctx.file_path() {
                    m.insert("path".into(), path.into());
                }
                let input = ctx.tool_input();
                if let Some(command) = input.and_then(|i| i.get("command")).and_then(Value::as_str)
                {
                    m.insert("command".into(), command.into());
                }
                if let Some(args) = input.filter(|i| i.is_object()) {
                    m.insert("args".into(), args.clone());
                }
            }),
        ),
        BuiltinEvent::Notification => (
            "notification",
            p.build(|m| {
                m.insert("notificationType".into(), p.text(&["notification_type"]));
                m.insert(
                    "message".into(),
                    p.text(&["notification_message", "message"]),
                );
            }),
        ),
        _ => return None,
    };
    let timestamp = ctx
        .get_str("timestamp")
        .map_or_else(now_rfc3339, str::to_owned);
    params.insert("timestamp".into(), timestamp.into());
    Some(notification(&format!("autohand.hook.{method}"), params))
}

/// Autohand's alias notifications: after the method on the left, Autohand also sends the
/// one on the right, with the same params (`postResponse` is its alias of `stop`, kept for
/// extensions written against older versions).
const ALIASES: &[(&str, &str)] = &[("autohand.hook.stop", "autohand.hook.postResponse")];

/// Every notification Autohand sends for the event `ctx`, in order: the one of
/// [`autohand_notification`], then its aliases with the same params (a completed turn,
/// `Stop`, is `autohand.hook.stop` and then `autohand.hook.postResponse`). Empty for events
/// Autohand has no notification for.
pub fn autohand_notifications(ctx: &EventContext) -> Vec<Value> {
    let Some(message) = autohand_notification(ctx) else {
        return Vec::new();
    };
    let aliases: Vec<Value> = ALIASES
        .iter()
        .filter(|(method, _)| message["method"] == *method)
        .map(|(_, alias)| {
            let mut copy = message.clone();
            copy["method"] = (*alias).into();
            copy
        })
        .collect();
    std::iter::once(message).chain(aliases).collect()
}

/// Reads notification params from a context.
struct Params<'a> {
    ctx: &'a EventContext,
}

impl Params<'_> {
    fn build(&self, fill: impl FnOnce(&mut Map<String, Value>)) -> Map<String, Value> {
        let mut map = Map::new();
        fill(&mut map);
        map
    }

    /// The first of `keys` present and not null.
    fn get(&self, keys: &[&str]) -> Option<&Value> {
        keys.iter()
            .find_map(|k| self.ctx.get(k).filter(|v| !v.is_null()))
    }

    fn text(&self, keys: &[&str]) -> Value {
        self.get(keys)
            .map_or_else(|| "".into(), |v| as_text(v).into())
    }

    fn number(&self, keys: &[&str]) -> Value {
        self.get(keys)
            .filter(|v| v.is_number())
            .cloned()
            .unwrap_or_else(|| 0.into())
    }

    fn object(&self, keys: &[&str]) -> Value {
        self.get(keys)
            .filter(|v| v.is_object())
            .cloned()
            .unwrap_or_else(|| json!({}))
    }
}

/// A value as text: strings as they are, anything else as compact JSON.
fn as_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

//! Observability: one `hook` tracing span per hook run, with its event, id, dialect, type
//! and, at the end, its status, decision and duration.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use hooks_core::{Action, BuiltinEvent, Decision, Dialect, EventContext, HookIndex, HookSpec};
use hooks_exec::Dispatcher;
use serde_json::json;
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

/// A subscriber keeping the fields of every `hook` span (shared with the test).
#[derive(Clone, Default)]
struct Collector(Arc<HookSpans>);

#[derive(Default)]
struct HookSpans {
    next: AtomicU64,
    spans: Mutex<BTreeMap<u64, BTreeMap<String, String>>>,
}

struct Fields<'a>(&'a mut BTreeMap<String, String>);

impl Visit for Fields<'_> {
    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().to_owned(), value.to_owned());
    }

    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        self.0.insert(field.name().to_owned(), format!("{value:?}"));
    }
}

impl Subscriber for Collector {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }

    fn new_span(&self, attrs: &Attributes<'_>) -> Id {
        let id = self.0.next.fetch_add(1, Ordering::Relaxed) + 1;
        if attrs.metadata().name() == "hook" {
            let mut fields = BTreeMap::new();
            attrs.record(&mut Fields(&mut fields));
            self.0.spans.lock().unwrap().insert(id, fields);
        }
        Id::from_u64(id)
    }

    fn record(&self, span: &Id, values: &Record<'_>) {
        if let Some(fields) = self.0.spans.lock().unwrap().get_mut(&span.into_u64()) {
            values.record(&mut Fields(fields));
        }
    }

    fn record_follows_from(&self, _: &Id, _: &Id) {}

    fn event(&self, _: &Event<'_>) {}

    fn enter(&self, _: &Id) {}

    fn exit(&self, _: &Id) {}
}

#[tokio::test]
async fn every_hook_run_is_a_span() {
    let collector = Collector::default();
    let _guard = tracing::subscriber::set_default(collector.clone());
    let specs = vec![
        HookSpec::new(
            BuiltinEvent::PreToolUse,
            Action::script("echo no >&2; exit 2"),
        )
        .with_id("guard")
        .with_dialect(Dialect::Claude),
        HookSpec::new(
            BuiltinEvent::PreToolUse,
            Action::permission(Decision::Allow),
        )
        .with_id("allow")
        .with_dialect(Dialect::Autohand),
    ];
    Dispatcher::new(HookIndex::new(specs))
        .dispatch(&EventContext::pre_tool_use("Bash", json!({})))
        .await;
    let mut spans: Vec<_> = collector
        .0
        .spans
        .lock()
        .unwrap()
        .values()
        .cloned()
        .collect();
    spans.sort_by(|a, b| a["hook"].cmp(&b["hook"]));
    assert_eq!(spans.len(), 2, "{spans:#?}");
    let view = |s: &BTreeMap<String, String>| {
        [
            "event",
            "hook",
            "dialect",
            "kind",
            "timeout_ms",
            "status",
            "decision",
        ]
        .map(|k| s.get(k).cloned().unwrap_or_default())
    };
    assert_eq!(
        view(&spans[0]),
        [
            "PreToolUse",
            "allow",
            "autohand",
            "permission",
            "5000",
            "ok",
            "allow"
        ]
    );
    assert_eq!(
        view(&spans[1]),
        [
            "PreToolUse",
            "guard",
            "claude",
            "command",
            "300000",
            "blocked",
            "block"
        ]
    );
    assert!(spans.iter().all(|s| s.contains_key("duration_ms")));
}

//! Secrets never leave the hook they were given to: an engine loads a config with
//! `{{ secrets.TOKEN }}` in commands, argv, working directories, environments and URLs,
//! its hooks echo the value every way they can, and the aggregate, the audit log file, the
//! notification sink and every tracing span and event hold `[secret TOKEN]` instead.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use hooks::Engine;
use hooks::config::{Interpolation, MapSecrets};
use hooks_core::EventContext;
use hooks_exec::{AuditLog, JsonRpcSink};
use serde_json::json;
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

use crate::support::{Fixture, SharedBuf};

const VALUE: &str = "tok-7Qz9xK2mP4wL";
const MASK: &str = "[secret TOKEN]";

/// A subscriber writing every field of every span and event, at every level, as text.
#[derive(Clone, Default)]
struct Everything {
    text: Arc<Mutex<String>>,
    next: Arc<AtomicU64>,
}

struct Text<'a>(&'a mut String);

impl Visit for Text<'_> {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        let _ = writeln!(self.0, "{}={value:?}", field.name());
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        let _ = writeln!(self.0, "{}={value}", field.name());
    }
}

impl Subscriber for Everything {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }

    fn new_span(&self, attrs: &Attributes<'_>) -> Id {
        attrs.record(&mut Text(&mut self.text.lock().unwrap()));
        Id::from_u64(self.next.fetch_add(1, Ordering::Relaxed) + 1)
    }

    fn record(&self, _: &Id, values: &Record<'_>) {
        values.record(&mut Text(&mut self.text.lock().unwrap()));
    }

    fn record_follows_from(&self, _: &Id, _: &Id) {}

    fn event(&self, event: &Event<'_>) {
        event.record(&mut Text(&mut self.text.lock().unwrap()));
    }

    fn enter(&self, _: &Id) {}

    fn exit(&self, _: &Id) {}
}

/// Hooks that each try to get the secret written out another way; `closed` is a loopback
/// port nothing listens on.
fn config(closed: u16) -> String {
    let s = "{{ secrets.TOKEN }}";
    format!(
        r#"allowed_http_hook_urls: ["http://127.0.0.1:{closed}/*"]
hooks:
  - id: stderr-block
    event: PreToolUse
    command: 'echo "denied {s}" >&2; exit 2'
  - id: json-fields
    event: PreToolUse
    env: {{ T: "{s}" }}
    command: |
      printf '{{"systemMessage":"m %s","hookSpecificOutput":{{"hookEventName":"PreToolUse","additionalContext":"c %s"}}}}' "$T" "$T"
  - id: exit-1
    event: PreToolUse
    command: 'echo "oops {s}" >&2; exit 1'
  - id: argv-path
    event: PreToolUse
    args: ["/nonexistent/{s}/bin"]
  - id: cwd-path
    event: PreToolUse
    command: "true"
    cwd: "/nonexistent/{s}"
  - id: http-closed
    event: PreToolUse
    url: "http://127.0.0.1:{closed}/hook/{s}"
  - id: async-echo
    event: PreToolUse
    async: true
    command: 'echo "async {s}" >&2; exit 2'
"#
    )
}

#[tokio::test]
async fn no_output_of_the_engine_holds_a_secret_its_hooks_were_given() {
    let fx = Fixture::new();
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let file = fx.file("hooks.yaml");
    std::fs::write(&file, config(closed)).unwrap();
    let audit = fx.file("audit.jsonl");
    let sink = SharedBuf::default();
    let traced = Everything::default();
    let _guard = tracing::subscriber::set_default(traced.clone());

    let engine = Engine::builder()
        .config_file(&file)
        .interpolation(Interpolation {
            secrets: Arc::new(MapSecrets::new().with("TOKEN", VALUE)),
            vars: BTreeMap::new(),
            ..Interpolation::default()
        })
        .audit_log(AuditLog::open(&audit).unwrap())
        .notification_sink(Arc::new(JsonRpcSink::new(sink.clone())))
        .build()
        .unwrap();
    let ctx = EventContext::pre_tool_use("Bash", json!({"command": "ls"}));
    let outcome = engine.dispatch(&ctx).await;
    engine.dispatcher().flush_async().await;

    let outputs = [
        ("the aggregate", serde_json::to_string(&outcome).unwrap()),
        ("the audit log", std::fs::read_to_string(&audit).unwrap()),
        ("the notifications", sink.text()),
        ("tracing", traced.text.lock().unwrap().clone()),
    ];
    for (what, text) in &outputs {
        assert!(!text.contains(VALUE), "{what} holds the secret:\n{text}");
    }
    // Reason, system message, context, and the failures of exit-1, argv-path, cwd-path and
    // http-closed, twice each (a message and the hook's report).
    assert_eq!(outputs[0].1.matches(MASK).count(), 11, "{}", outputs[0].1);
    // The failures are in the audit log and in tracing too; the async answer is a
    // notification.
    assert_eq!(outputs[1].1.matches(MASK).count(), 4, "{}", outputs[1].1);
    assert!(
        outputs[2].1.contains(&format!("async {MASK}")),
        "{}",
        outputs[2].1
    );
    assert!(outputs[3].1.matches(MASK).count() >= 4, "{}", outputs[3].1);
}

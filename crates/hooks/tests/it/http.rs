//! The engine's http executor and its URL allow-list: built from the config, rebuilt on
//! reload, against a real HTTP server on loopback; and the config merge and the executor
//! reading one list the same way.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use hooks::config::{Format, LoadOptions, TrustPolicy};
use hooks::core::{Action, BuiltinEvent, Decision, EventContext, HookSpec, HttpAction};
use hooks::exec::{HttpConfig, HttpExecutor};
use hooks::{Engine, Reload};

/// A loopback HTTP server answering every request with a Stop block, counting requests.
struct Server {
    port: u16,
    requests: Arc<AtomicUsize>,
}

impl Server {
    fn start() -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let requests = Arc::new(AtomicUsize::new(0));
        let counter = Arc::clone(&requests);
        // The thread ends with the test process; every read on a connection is bounded.
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { continue };
                stream
                    .set_read_timeout(Some(Duration::from_secs(10)))
                    .unwrap();
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                let mut length = 0usize;
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                        break;
                    }
                    if let Some(value) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                        length = value.trim().parse().unwrap_or(0);
                    }
                }
                let mut body = vec![0; length];
                let _ = reader.read_exact(&mut body);
                counter.fetch_add(1, Ordering::SeqCst);
                let answer = r#"{"decision": "block", "reason": "sent"}"#;
                let _ = write!(
                    stream,
                    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{answer}",
                    answer.len()
                );
            }
        });
        Server { port, requests }
    }

    fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    fn requests(&self) -> usize {
        self.requests.load(Ordering::SeqCst)
    }
}

fn write(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap();
}

/// A host hook (which the merge never filters) posting Stop to `url`.
fn host_hook(url: &str) -> HookSpec {
    HookSpec::new(
        BuiltinEvent::Stop,
        Action::Http(HttpAction {
            url: url.to_owned(),
            headers: Vec::new(),
            allowed_env_vars: Vec::new(),
        }),
    )
    .with_id("post")
    .with_timeout(Duration::from_secs(10))
}

/// Each reload rebuilds the executor's list from the reloaded config: a list that leaves
/// the server out refuses the host's hook, one that holds it lets it through, no list
/// leaves the hook's own URL allowed, and an empty list allows nothing.
#[tokio::test]
async fn a_reload_that_changes_the_allow_list_changes_what_is_sent() {
    let server = Server::start();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("hooks.yaml");
    // (the config's list; requests the server has seen after the event).
    let steps: [(Option<String>, usize); 5] = [
        (Some("['http://127.0.0.1:1/']".to_owned()), 0),
        (Some(format!("['{}']", server.url("/"))), 1),
        (None, 2),
        (Some("[]".to_owned()), 2),
        (Some(format!("['{}']", server.url("/hook"))), 3),
    ];
    let text = |list: &Option<String>| match list {
        Some(list) => format!("allowed_http_hook_urls: {list}\nhooks: []\n"),
        None => "hooks: []\n".to_owned(),
    };
    write(&file, &text(&steps[0].0));
    let engine = Engine::builder()
        .config_file(&file)
        .hook(host_hook(&server.url("/hook")))
        .build()
        .unwrap();
    for (i, (list, seen)) in steps.iter().enumerate() {
        if i > 0 {
            write(&file, &text(list));
            assert_eq!(
                engine.reload().await.unwrap(),
                Reload::Applied { active: 1 },
                "{list:?}"
            );
        }
        let outcome = engine.dispatch(&EventContext::stop(false)).await;
        assert_eq!(server.requests(), *seen, "after {list:?}: {outcome:#?}");
        let before = if i == 0 { 0 } else { steps[i - 1].1 };
        let expected = if *seen > before {
            Decision::Block
        } else {
            Decision::None
        };
        assert_eq!(
            outcome.effects.decision, expected,
            "after {list:?}: {outcome:#?}"
        );
    }
}

/// One list, two readers: the merge (which leaves an http hook outside the list inactive)
/// and the executor (which refuses to send it) agree on every URL, and on what no list and
/// an empty list mean.
#[test]
fn the_merge_and_the_executor_read_a_list_alike() {
    let cases: &[(Option<&[&str]>, &str, bool)] = &[
        (None, "https://hooks.example.com/any", true),
        (Some(&[]), "https://hooks.example.com/any", false),
        (Some(&["*"]), "http://127.0.0.1:9/x", true),
        (
            Some(&["https://hooks.example.com/ci"]),
            "https://hooks.example.com/ci/run",
            true,
        ),
        (
            Some(&["https://hooks.example.com/ci"]),
            "https://hooks.example.com/cider",
            false,
        ),
        (
            Some(&["https://hooks.example.com/ci"]),
            "https://hooks.example.com/ci/../admin",
            false,
        ),
        (
            Some(&["https://*.example.com/"]),
            "https://example.com/",
            false,
        ),
        (
            Some(&["https://*.example.com/"]),
            "https://a.example.com/x",
            true,
        ),
        (
            Some(&["http://127.0.0.1:8080/hook*"]),
            "http://127.0.0.1:8080/hooks",
            true,
        ),
    ];
    for (list, url, allowed) in cases {
        let list_line = match list {
            Some(list) => format!(
                "allowed_http_hook_urls: [{}]\n",
                list.iter()
                    .map(|p| format!("'{p}'"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            None => String::new(),
        };
        let text = format!("{list_line}hooks:\n  - event: Stop\n    url: '{url}'\n");
        let options = LoadOptions::new().with_format(Format::Yaml);
        let merged = match hooks::config::load_str(&text, None, &options) {
            Ok(file) => hooks::config::merge(&[file], &TrustPolicy::Deny).hooks()[0].is_active(),
            // A pattern the loader refuses is refused by the executor too.
            Err(_) => false,
        };
        let executor = HttpExecutor::new(HttpConfig {
            allowed_urls: list.map(|l| l.iter().map(|p| (*p).to_owned()).collect()),
            ..HttpConfig::default()
        });
        let sent = executor.is_ok_and(|e| e.allows(url));
        assert_eq!((merged, sent), (*allowed, *allowed), "{list:?} vs {url}");
    }
}

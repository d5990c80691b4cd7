//! The built-in smart commit asks the host's model for its message: an engine with a
//! prompt evaluator runs the real script (installed by `hooks init --autohand`, with this
//! `hooks` binary on PATH) on Autohand's `stop` in a git repository with a staged change.

// The tests run git themselves, to set up and read the repositories.
#![allow(clippy::disallowed_methods)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use hooks::Engine;
use hooks::core::{BuiltinEvent, EventContext, HookStatus, PromptMode};
use hooks::exec::{BoxError, PROMPT_SOCKET_ENV, PromptEvaluator, PromptRequest, PromptVerdict};
use hooks::orchestration::async_trait;

use crate::support::git;

/// A model that answers every question with `answer` (an `Err` fails), and records each
/// question (mode, the asking hook's description, the prompt).
struct Model {
    answer: Result<&'static str, &'static str>,
    asked: Mutex<Vec<(PromptMode, Option<String>, String)>>,
}

#[async_trait]
impl PromptEvaluator for Model {
    async fn evaluate(&self, request: PromptRequest<'_>) -> Result<PromptVerdict, BoxError> {
        self.asked.lock().unwrap().push((
            request.mode,
            request.spec.description.clone(),
            request.prompt.clone(),
        ));
        match self.answer {
            Ok(text) => Ok(PromptVerdict {
                ok: true,
                reason: Some(text.to_owned()),
            }),
            Err(message) => Err(message.into()),
        }
    }
}

/// A directory for PATH holding this `hooks` binary.
fn bin_dir(root: &Path) -> PathBuf {
    let bin = root.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_hooks"), bin.join("hooks")).unwrap();
    bin
}

/// Installs the built-ins the Autohand way into `root/autohand`; returns the smart commit
/// script.
fn installed_smart_commit(root: &Path) -> PathBuf {
    let dir = root.join("autohand");
    let out = Command::new(env!("CARGO_BIN_EXE_hooks"))
        .args(["init", "--autohand", "--dir"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    dir.join("hooks").join("smart-commit.sh")
}

/// Writes an Autohand `config.json` with `hooks` (JSON objects) into `root/config` and
/// returns it.
fn config(root: &Path, hooks: &[serde_json::Value]) -> PathBuf {
    let dir = root.join("config");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("config.json");
    let text = serde_json::json!({"hooks": {"enabled": true, "hooks": hooks}});
    std::fs::write(&path, text.to_string()).unwrap();
    path
}

/// `COMMAND` with `BIN` first in PATH, as a shell line.
fn with_path(bin: &Path, command: &str) -> String {
    format!("export PATH='{}':\"$PATH\"; {command}", bin.display())
}

fn engine(config: &Path, model: Option<Arc<Model>>) -> Engine {
    let mut builder = Engine::builder().config_file(config);
    if let Some(model) = model {
        builder = builder.prompt_evaluator(model);
    }
    builder.build().unwrap()
}

/// A row of the smart commit's table: the model's answer (an `Err` fails; `None`: no
/// model), the commit's subject, a line its body has.
type Case = (
    Option<Result<&'static str, &'static str>>,
    &'static str,
    Option<&'static str>,
);

#[tokio::test]
async fn smart_commit_asks_the_hosts_model_for_its_message() {
    const FALLBACK: &str = "Update notes.md";
    // (the model's answer, or none configured; the subject; a line of the body)
    let cases: &[Case] = &[
        (
            Some(Ok(
                "Add a note about the staged line\n\nThe note says hello to the reviewer.",
            )),
            "Add a note about the staged line",
            Some("The note says hello to the reviewer."),
        ),
        // Fences, quotes and control characters go; the first line left is the subject.
        (
            Some(Ok("```\n\n  \"Record the\u{7} hello note\"  \n```\n")),
            "Record the hello note",
            None,
        ),
        (Some(Ok(" \n\n")), FALLBACK, None),
        (Some(Err("the model is down")), FALLBACK, None),
        (None, FALLBACK, None),
    ];
    for (answer, subject, body) in cases {
        let root = tempfile::tempdir().unwrap();
        let repo = root.path().join("repo");
        std::fs::create_dir_all(&repo).unwrap();
        git(&repo, &["init", "-q"]);
        git(&repo, &["config", "user.email", "hooks@example.invalid"]);
        git(&repo, &["config", "user.name", "hooks test"]);
        std::fs::write(repo.join("notes.md"), "hello from the staged line\n").unwrap();
        git(&repo, &["add", "notes.md"]);

        let bin = bin_dir(root.path());
        let script = installed_smart_commit(root.path());
        let socket_seen = root.path().join("socket");
        // The seed's entry (enabled, and with room for a slow machine), and a hook that
        // records whether hooks of this engine are given a channel.
        let config = config(
            root.path(),
            &[
                serde_json::json!({
                    "event": "stop",
                    "command": with_path(&bin, &format!("'{}'", script.display())),
                    "description": "Auto lint, test, and commit with LLM message",
                    "enabled": true,
                    "async": true,
                    "timeout": 60000,
                }),
                serde_json::json!({
                    "event": "stop",
                    "command": format!(
                        "printf '%s' \"${{{PROMPT_SOCKET_ENV}-unset}}\" > '{}'",
                        socket_seen.display()
                    ),
                }),
            ],
        );
        let model = answer.map(|answer| {
            Arc::new(Model {
                answer,
                asked: Mutex::default(),
            })
        });
        let engine = engine(&config, model.clone());
        let ctx = EventContext::new(BuiltinEvent::Stop).cwd(repo.to_str().unwrap());
        let outcome = tokio::time::timeout(Duration::from_secs(90), async {
            let outcome = engine.dispatch(&ctx).await;
            engine.dispatcher().flush_async().await;
            outcome
        })
        .await
        .expect("the hooks did not finish");
        assert!(
            outcome.hooks.iter().all(|h| h.run.status == HookStatus::Ok),
            "{outcome:#?}"
        );

        let label = format!("{answer:?}");
        assert_eq!(
            git(&repo, &["log", "-1", "--format=%s"]).trim(),
            *subject,
            "{label}"
        );
        let message = git(&repo, &["log", "-1", "--format=%b"]);
        assert!(message.contains("1 file changed"), "{label}: {message}");
        if let Some(body) = body {
            assert!(message.contains(body), "{label}: {message}");
        }
        let seen = std::fs::read_to_string(&socket_seen).unwrap();
        assert_eq!(seen == "unset", model.is_none(), "{label}: {seen}");
        let Some(model) = model else { continue };
        let asked = model.asked.lock().unwrap();
        assert_eq!(asked.len(), 1, "{label}");
        let (mode, hook, prompt) = &asked[0];
        assert_eq!(*mode, PromptMode::Answer);
        assert_eq!(
            hook.as_deref(),
            Some("Auto lint, test, and commit with LLM message")
        );
        // The model saw the staged change: its --stat and its diff.
        assert!(prompt.contains("notes.md | 1 +"), "{prompt}");
        assert!(prompt.contains("+hello from the staged line"), "{prompt}");
    }
}

#[tokio::test]
async fn the_channel_refuses_a_hook_once_its_run_ended() {
    let root = tempfile::tempdir().unwrap();
    let bin = bin_dir(root.path());
    let go = root.path().join("go");
    let result = root.path().join("result");
    for fifo in [&go, &result] {
        rustix::fs::mkfifoat(
            rustix::fs::CWD,
            fifo,
            rustix::fs::Mode::from_raw_mode(0o600),
        )
        .unwrap();
    }
    // The hook leaves a process behind (its output closed, so the run ends) that asks once
    // the test says the run is over.
    let late = format!(
        "( read _ < '{go}'; answer=$(hooks builtin ask 'too late?' 2>&1); echo \"$? $answer\" > '{result}' ) \
         </dev/null >/dev/null 2>&1 &",
        go = go.display(),
        result = result.display()
    );
    let config = config(
        root.path(),
        &[serde_json::json!({"event": "stop", "command": with_path(&bin, &late)})],
    );
    let model = Arc::new(Model {
        answer: Ok("never asked"),
        asked: Mutex::default(),
    });
    let engine = engine(&config, Some(model.clone()));
    let outcome = tokio::time::timeout(
        Duration::from_secs(30),
        engine.dispatch(&EventContext::new(BuiltinEvent::Stop).cwd(root.path().to_str().unwrap())),
    )
    .await
    .unwrap();
    assert_eq!(outcome.hooks[0].run.status, HookStatus::Ok, "{outcome:#?}");

    let said = tokio::task::spawn_blocking(move || {
        std::fs::write(&go, "go\n").unwrap();
        std::fs::read_to_string(&result).unwrap()
    });
    let said = tokio::time::timeout(Duration::from_secs(30), said)
        .await
        .expect("the late asker never answered")
        .unwrap();
    // (what the asker got: exit code, message)
    let expect = (
        "1",
        "error: cannot ask the host's model: the prompt channel",
        "is closed: it is served only while the hook run that was given it lasts",
    );
    let (code, message) = said.trim().split_once(' ').unwrap();
    assert_eq!(code, expect.0, "{said}");
    assert!(
        message.starts_with(expect.1) && message.ends_with(expect.2),
        "{said}"
    );
    assert!(model.asked.lock().unwrap().is_empty());
}

#[test]
fn ask_outside_a_hook_says_there_is_no_channel() {
    // (how it is asked, what it says)
    let cases: [(&[&str], Option<&str>, &str); 3] = [
        (
            &["builtin", "ask", "hello?"],
            None,
            "error: no prompt channel: `hooks builtin ask` works inside a command hook run by \
             an engine that has a prompt evaluator (HOOKS_PROMPT_SOCKET is not set)\n",
        ),
        (
            &["builtin", "ask", "hello?"],
            Some("/nonexistent/hooks-prompt/socket"),
            "error: cannot ask the host's model: the prompt channel \
             `/nonexistent/hooks-prompt/socket` is closed: it is served only while the hook \
             run that was given it lasts\n",
        ),
        (
            &["builtin", "security-guard", "extra"],
            None,
            "error: `hooks builtin security-guard` takes no argument: it reads the event JSON \
             on stdin\n",
        ),
    ];
    for (args, socket, stderr) in cases {
        let mut cmd = assert_cmd::Command::new(env!("CARGO_BIN_EXE_hooks"));
        cmd.args(args).env_remove(PROMPT_SOCKET_ENV).write_stdin("");
        if let Some(socket) = socket {
            cmd.env(PROMPT_SOCKET_ENV, socket);
        }
        let out = cmd.timeout(Duration::from_secs(30)).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&out.stderr), stderr, "{args:?}");
    }
}

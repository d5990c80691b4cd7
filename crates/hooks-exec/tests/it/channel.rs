//! The prompt channel: a command hook run by a dispatcher with a prompt evaluator asks the
//! host's model through a socket of its own, for its run only, bounded, with its secrets
//! masked; without an evaluator (or in a sandbox) there is no channel.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_trait::async_trait;
use hooks_core::{
    Action, BuiltinEvent, CommandAction, CommandLine, EventContext, FailureKind, HookIndex,
    HookSpec, HookStatus, PromptAction, PromptMode, Redactor,
};
use hooks_exec::{
    BoxError, CommandExecutor, Dispatcher, Error, MAX_QUESTION_BYTES, MAX_QUESTIONS_PER_RUN,
    Prepare, Prepared, PromptEvaluator, PromptRequest, PromptVerdict, Sandbox, SandboxCommand,
    ask_prompt_channel,
};

use crate::support::{Fixture, read_fifo};

/// A model that answers `answer to: QUESTION`, declines questions saying `decline`, fails
/// on `fail`, and records what it was asked (prompt, mode, asking hook).
#[derive(Default)]
struct Model {
    asked: Mutex<Vec<(String, PromptMode, String)>>,
}

#[async_trait]
impl PromptEvaluator for Model {
    async fn evaluate(&self, request: PromptRequest<'_>) -> Result<PromptVerdict, BoxError> {
        self.asked.lock().unwrap().push((
            request.prompt.clone(),
            request.mode,
            request.spec.display_id().to_string(),
        ));
        if request.prompt.contains("fail") {
            return Err("the model is unavailable".into());
        }
        if request.prompt.contains("decline") {
            return Ok(PromptVerdict::block("not for hooks"));
        }
        Ok(PromptVerdict {
            ok: true,
            reason: Some(format!("answer to: {}", request.prompt)),
        })
    }
}

/// Gives every hook the secret `s3cr3t` (named `TOKEN`) to mask.
struct WithSecret;

impl Prepare for WithSecret {
    fn prepare(&self, spec: &HookSpec) -> Result<Option<Prepared>, String> {
        Ok(Some(
            Prepared::new(spec.clone()).with_redactor(Redactor::new().with("TOKEN", "s3cr3t")),
        ))
    }
}

fn dispatcher(specs: Vec<HookSpec>, model: Option<Arc<Model>>) -> Dispatcher {
    let mut builder = Dispatcher::builder()
        .index(HookIndex::new(specs))
        .prepare(Arc::new(WithSecret));
    if let Some(model) = model {
        builder = builder.prompt_evaluator(model);
    }
    builder.build().unwrap()
}

/// A hook that tells the test its socket and the mode of the socket's directory through
/// the FIFO `ready`, then waits for the test to write `go`.
fn waiting_hook(id: &str) -> HookSpec {
    HookSpec::new(
        BuiltinEvent::PreToolUse,
        Action::script(
            "printf '%s %s\\n' \"$HOOKS_PROMPT_SOCKET\" \
             \"$(stat -c %a \"$(dirname \"$HOOKS_PROMPT_SOCKET\")\")\" > ready; read _ < go",
        ),
    )
    .with_id(id)
}

/// Asks through `socket` off the runtime (the client blocks), within 30 s.
async fn ask(socket: &Path, question: &str) -> Result<String, String> {
    let (socket, question) = (socket.to_owned(), question.to_owned());
    let asked = tokio::task::spawn_blocking(move || ask_prompt_channel(&socket, &question));
    let answer = tokio::time::timeout(Duration::from_secs(30), asked)
        .await
        .expect("the channel never answered")
        .unwrap();
    answer.map_err(|e| match e {
        Error::PromptChannel { message } => message,
        other => panic!("not a prompt channel error: {other}"),
    })
}

/// Lets a [`waiting_hook`] finish.
async fn release(fx: &Fixture) {
    let go = fx.file("go");
    let write = tokio::task::spawn_blocking(move || std::fs::write(go, "go\n"));
    tokio::time::timeout(Duration::from_secs(30), write)
        .await
        .expect("the hook never waited")
        .unwrap()
        .unwrap();
}

/// Waits for a [`waiting_hook`]'s socket and directory mode.
async fn ready(fx: &Fixture) -> (PathBuf, String) {
    let line = read_fifo(&fx.file("ready")).await;
    let (path, mode) = line.trim().rsplit_once(' ').unwrap();
    (PathBuf::from(path), mode.to_owned())
}

const CLOSED: &str = "is closed: it is served only while the hook run that was given it lasts";

#[tokio::test]
async fn a_hook_asks_the_hosts_model_through_a_channel_of_its_own() {
    let fx = Fixture::new();
    fx.fifo("ready");
    fx.fifo("go");
    let model = Arc::new(Model::default());
    let dispatcher = dispatcher(vec![waiting_hook("asker")], Some(model.clone()));
    let ctx = fx.pre_tool();
    let too_large = "x".repeat(MAX_QUESTION_BYTES);
    // (question, the hook's reply). The secret never reaches the model and comes back
    // masked; a question too large is refused before anything is asked.
    let cases: &[(&str, Result<&str, &str>)] = &[
        (
            "name a colour, s3cr3t",
            Ok("answer to: name a colour, [secret TOKEN]"),
        ),
        (
            "please decline",
            Err("the host's prompt evaluator declined to answer: not for hooks"),
        ),
        (
            "fail now",
            Err("the prompt evaluator failed: the model is unavailable"),
        ),
        (
            &too_large,
            Err("the question is larger than the channel takes"),
        ),
    ];

    let (outcome, socket) = tokio::join!(dispatcher.dispatch(&ctx), async {
        let (socket, mode) = ready(&fx).await;
        assert_eq!(
            mode, "700",
            "the channel's directory is the engine user's only"
        );
        for (question, expect) in cases {
            let got = ask(&socket, question).await;
            match (expect, &got) {
                (Ok(want), Ok(got)) => assert_eq!(got, want),
                (Err(want), Err(got)) => assert!(got.contains(want), "{got}"),
                _ => panic!("{question:.40}: expected {expect:?}, got {got:?}"),
            }
        }
        // The engine bounds what it reads itself, whatever the client.
        let raw = {
            let socket = socket.clone();
            tokio::task::spawn_blocking(move || {
                use std::io::{Read, Write};
                let mut stream = std::os::unix::net::UnixStream::connect(socket).unwrap();
                stream
                    .write_all(&vec![b' '; MAX_QUESTION_BYTES + 1])
                    .unwrap();
                stream.shutdown(std::net::Shutdown::Write).unwrap();
                let mut reply = String::new();
                stream.read_to_string(&mut reply).unwrap();
                reply
            })
        };
        let raw = tokio::time::timeout(Duration::from_secs(30), raw)
            .await
            .unwrap()
            .unwrap();
        assert!(raw.contains("the question is larger"), "{raw}");
        // Three questions were put to the model; the run may ask five more, then no more.
        for n in 3..MAX_QUESTIONS_PER_RUN {
            assert_eq!(
                ask(&socket, &format!("question {n}")).await.unwrap(),
                format!("answer to: question {n}")
            );
        }
        let refused = ask(&socket, "one more").await.unwrap_err();
        assert!(refused.contains("asked its 8 questions"), "{refused}");
        release(&fx).await;
        socket
    });
    assert_eq!(outcome.hooks[0].run.status, HookStatus::Ok, "{outcome:#?}");

    // The run is over: its socket is gone, and asking is refused; the directory goes with
    // the dispatcher.
    assert!(!socket.exists());
    let after = ask(&socket, "still there?").await.unwrap_err();
    assert!(after.contains(CLOSED), "{after}");
    drop(dispatcher);
    assert!(!socket.parent().unwrap().exists());

    let asked = model.asked.lock().unwrap().clone();
    assert_eq!(asked.len(), MAX_QUESTIONS_PER_RUN);
    assert_eq!(asked[0].0, "name a colour, [secret TOKEN]");
    assert!(
        asked
            .iter()
            .all(|(_, mode, hook)| *mode == PromptMode::Answer && hook == "asker")
    );
}

#[tokio::test]
async fn another_run_gets_another_channel_and_an_ended_one_is_unreachable() {
    let fx = Fixture::new();
    fx.fifo("ready");
    fx.fifo("go");
    let dispatcher = dispatcher(vec![waiting_hook("asker")], Some(Arc::default()));
    let ctx = fx.pre_tool();
    let mut sockets: Vec<PathBuf> = Vec::new();
    for _ in 0..2 {
        let ((), socket) = tokio::join!(
            async {
                dispatcher.dispatch(&ctx).await;
            },
            async {
                let (socket, _) = ready(&fx).await;
                for earlier in &sockets {
                    assert_ne!(earlier, &socket);
                    assert!(!earlier.exists());
                    let err = ask(earlier, "hello").await.unwrap_err();
                    assert!(err.contains(CLOSED), "{err}");
                }
                assert_eq!(ask(&socket, "hello").await.unwrap(), "answer to: hello");
                release(&fx).await;
                socket
            }
        );
        assert!(!socket.exists());
        sockets.push(socket);
    }
    // One directory holds a dispatcher's channels; it goes with the dispatcher.
    assert_eq!(sockets[0].parent(), sockets[1].parent());
    drop(dispatcher);
    assert!(!sockets[0].parent().unwrap().exists());
}

/// Runs hooks as they are, marking nothing: a sandbox as far as the executor knows.
#[derive(Debug)]
struct PassThrough;

impl Sandbox for PassThrough {
    fn wrap(&self, command: &SandboxCommand<'_>) -> Result<Vec<String>, Error> {
        Ok(command.argv.to_vec())
    }
}

#[tokio::test]
async fn without_an_evaluator_or_in_a_sandbox_there_is_no_channel() {
    // (evaluator, sandboxed, whether the hook is given a channel)
    let cases = [
        (true, false, true),
        (false, false, false),
        (true, true, false),
        (false, true, false),
    ];
    for (evaluator, sandboxed, offered) in cases {
        let fx = Fixture::new();
        let spec = HookSpec::new(
            BuiltinEvent::PreToolUse,
            Action::Command(CommandAction {
                sandbox: Some(sandboxed),
                ..CommandAction::new(CommandLine::Script(
                    "printf '%s' \"${HOOKS_PROMPT_SOCKET-unset}\" > socket".to_owned(),
                ))
            }),
        );
        let mut builder = Dispatcher::builder()
            .index(HookIndex::new(vec![spec]))
            .command_executor(
                CommandExecutor::builder()
                    .sandbox(Arc::new(PassThrough))
                    .build(),
            );
        if evaluator {
            builder = builder.prompt_evaluator(Arc::new(Model::default()));
        }
        let ctx = fx.pre_tool();
        let outcome = builder.build().unwrap().dispatch(&ctx).await;
        assert_eq!(outcome.hooks[0].run.status, HookStatus::Ok, "{outcome:#?}");
        let socket = fx.read("socket");
        assert_eq!(
            socket != "unset",
            offered,
            "evaluator {evaluator}, sandboxed {sandboxed}: {socket}"
        );
    }
}

#[tokio::test]
async fn a_prompt_hook_in_answer_mode_gives_the_answer_as_context() {
    // (prompt, context, failure)
    let cases: &[(&str, &[&str], Option<FailureKind>)] = &[
        ("summarise", &["answer to: summarise\n\n"], None),
        ("decline this", &[], Some(FailureKind::Refused)),
        ("fail this", &[], Some(FailureKind::Transport)),
    ];
    for (prompt, context, failure) in cases {
        let spec = HookSpec::new(
            BuiltinEvent::UserPromptSubmit,
            Action::Prompt(PromptAction {
                prompt: (*prompt).to_owned(),
                mode: PromptMode::Answer,
                model: None,
                max_tool_rounds: None,
                continue_on_block: false,
            }),
        );
        let ctx = EventContext::new(BuiltinEvent::UserPromptSubmit);
        let outcome = dispatcher(vec![spec], Some(Arc::default()))
            .dispatch(&ctx)
            .await;
        let report = &outcome.hooks[0];
        let got: Vec<&str> = outcome
            .effects
            .additional_context
            .iter()
            .map(|c| c.split_once('{').map_or(c.as_str(), |(head, _)| head))
            .collect();
        assert_eq!(&got, context, "{prompt}: {outcome:#?}");
        assert_eq!(
            report.run.failure.as_ref().map(|f| f.kind),
            *failure,
            "{prompt}: {outcome:#?}"
        );
    }
}

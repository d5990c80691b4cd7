//! Fabro run configs through the engine: agent hooks asking the host's evaluator, `{{ vars }}`
//! from the host, and the run environment's variables reaching the hooks.

use std::sync::{Arc, Mutex};

use hooks::Engine;
use hooks::config::Format;
use hooks::core::{Decision, EventContext, PromptMode, StageEvent};
use hooks::exec::{BoxError, PromptEvaluator, PromptRequest, PromptVerdict};
use hooks::orchestration::async_trait;

/// One question put to the evaluator: mode, model, tool rounds, the prompt's first line.
type Asked = (PromptMode, Option<String>, Option<u32>, String);

/// What the evaluator was asked; it always answers with a block.
#[derive(Default)]
struct Recorder {
    asked: Mutex<Vec<Asked>>,
}

#[async_trait]
impl PromptEvaluator for Recorder {
    async fn evaluate(&self, request: PromptRequest<'_>) -> Result<PromptVerdict, BoxError> {
        self.asked.lock().unwrap().push((
            request.mode,
            request.model.map(str::to_owned),
            request.max_tool_rounds,
            request.prompt.lines().next().unwrap_or_default().to_owned(),
        ));
        Ok(PromptVerdict::block("marker says stop"))
    }
}

#[tokio::test]
async fn agent_hooks_ask_the_hosts_evaluator_with_their_model_and_rounds() {
    // (hook, what the evaluator is asked)
    let asked = |mode, model: &str, rounds, prompt: &str| -> Asked {
        (mode, Some(model.to_owned()), rounds, prompt.to_owned())
    };
    let cases: [(&str, Asked); 2] = [
        (
            "agent = \"enabled\"\nprompt = \"Read marker.txt and decide.\"\nmodel = \"test/model\"\nmax_tool_rounds = 3\n",
            asked(
                PromptMode::Agent,
                "test/model",
                Some(3),
                "Read marker.txt and decide.",
            ),
        ),
        (
            "prompt = \"Should this stage proceed?\"\nmodel = \"haiku\"\n",
            asked(
                PromptMode::Evaluate,
                "haiku",
                None,
                "Should this stage proceed?",
            ),
        ),
    ];
    for (hook, expect) in cases {
        let text = format!("[[run.hooks]]\nevent = \"stage_start\"\nmatcher = \"^b$\"\n{hook}");
        let recorder = Arc::new(Recorder::default());
        let engine = Engine::builder()
            .config_text("run.toml", text, Format::Toml, None)
            .prompt_evaluator(recorder.clone())
            .build()
            .unwrap();
        let outcome = engine
            .dispatch(&EventContext::stage(StageEvent::Start, "b", "agent"))
            .await;
        assert_eq!(outcome.effects.decision, Decision::Block, "{hook}");
        assert_eq!(outcome.effects.reason.as_deref(), Some("marker says stop"));
        assert_eq!(*recorder.asked.lock().unwrap(), [expect], "{hook}");
    }
}

#[tokio::test]
async fn host_vars_and_the_run_environment_reach_a_fabro_hook() {
    let run = r#"_version = 1

[run.environment]
id = "ci"

[environments.ci]
provider = "local"

[environments.ci.env]
RELEASE_CHANNEL = "{{ vars.RELEASE_CHANNEL }}"

[environments.other]
provider = "local"

[environments.other.env]
RELEASE_CHANNEL = "not this one"

[[run.hooks]]
event = "run_start"
script = "echo \"$RELEASE_CHANNEL {{ vars.STAGE }}\" >&2; exit 2"
sandbox = false
"#;
    // (vars the host sets, the hook's answer)
    let cases: [(&[(&str, &str)], &str); 2] = [
        (&[("RELEASE_CHANNEL", "beta"), ("STAGE", "one")], "beta one"),
        (
            &[
                ("RELEASE_CHANNEL", "stable"),
                ("STAGE", "two"),
                ("STAGE", "three"),
            ],
            "stable three",
        ),
    ];
    for (vars, expect) in cases {
        let mut builder = Engine::builder().config_text("run.toml", run, Format::Toml, None);
        for (name, value) in vars {
            builder = builder.var(*name, *value);
        }
        let engine = builder.build().unwrap();
        let outcome = engine
            .dispatch(&EventContext::new(hooks::core::BuiltinEvent::RunStart))
            .await;
        assert_eq!(outcome.effects.decision, Decision::Block, "{vars:?}");
        assert_eq!(outcome.effects.reason.as_deref(), Some(expect), "{vars:?}");
    }
}

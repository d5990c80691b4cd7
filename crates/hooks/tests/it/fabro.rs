//! Fabro run configs through the engine: agent hooks asking the host's evaluator, `{{ vars }}`
//! from the host, and the run environment's variables reaching the hooks.

use std::sync::{Arc, Mutex};

use hooks::Engine;
use hooks::config::Format;
use hooks::core::{Decision, EventContext, PromptMode, StageEvent};
use hooks::exec::{BoxError, PromptEvaluator, PromptRequest, PromptVerdict};
use hooks::orchestration::async_trait;

/// What the evaluator was asked, and its fixed answer.
#[derive(Default)]
struct Recorder {
    asked: Mutex<Vec<(PromptMode, Option<String>, Option<u32>, String)>>,
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
    let cases: [(&str, (PromptMode, Option<&str>, Option<u32>, &str)); 2] = [
        (
            "agent = \"enabled\"\nprompt = \"Read marker.txt and decide.\"\nmodel = \"test/model\"\nmax_tool_rounds = 3\n",
            (
                PromptMode::Agent,
                Some("test/model"),
                Some(3),
                "Read marker.txt and decide.",
            ),
        ),
        (
            "prompt = \"Should this stage proceed?\"\nmodel = \"haiku\"\n",
            (
                PromptMode::Evaluate,
                Some("haiku"),
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
        assert_eq!(outcome.decision, Decision::Block, "{hook}");
        assert_eq!(outcome.reason.as_deref(), Some("marker says stop"));
        let asked = recorder.asked.lock().unwrap().clone();
        let (mode, model, rounds, prompt) = expect;
        assert_eq!(
            asked,
            [(mode, model.map(str::to_owned), rounds, prompt.to_owned())],
            "{hook}"
        );
    }
}

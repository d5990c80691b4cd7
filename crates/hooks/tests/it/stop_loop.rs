//! One stop-loop cap per loop: a subagent kept going by a real `SubagentStop` command hook
//! that always blocks is capped by the subagent dispatcher alone, at the number it was
//! given, not also by the engine's dispatcher it emits through.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use hooks::Engine;
use hooks::orchestration::{
    BoxError, CancellationToken, ExecutionMode, SubagentDispatcher, SubagentRequest,
    SubagentResult, SubagentRun, SubagentRunner, TokioTimer, async_trait,
};

/// Every dispatch here is bounded: the hook is a short shell command.
const BOUND: Duration = Duration::from_secs(60);

/// A Claude Code settings file whose `SubagentStop` hook always blocks.
const ALWAYS_BLOCKS: &str = r#"{"hooks": {"SubagentStop": [{"hooks": [
  {"type": "command", "command": "echo 'tests still fail' >&2; exit 2"}
]}]}}"#;

fn engine(dir: &Path, cap: Option<u32>) -> Engine {
    let path = dir.join("settings.json");
    std::fs::write(&path, ALWAYS_BLOCKS).unwrap();
    let mut builder = Engine::builder().config_file(&path);
    if let Some(cap) = cap {
        builder = builder.stop_loop_cap(cap);
    }
    builder.build().unwrap()
}

/// Counts its runs.
#[derive(Default)]
struct Runs(AtomicU32);

#[async_trait]
impl SubagentRunner for Runs {
    async fn run(
        &self,
        _run: &SubagentRun,
        _cancel: &CancellationToken,
    ) -> Result<String, BoxError> {
        self.0.fetch_add(1, Ordering::Relaxed);
        Ok("done".to_owned())
    }
}

async fn dispatch(d: SubagentDispatcher) -> SubagentResult {
    let request = SubagentRequest::new("main", "reviewer", ExecutionMode::Sync, "review");
    tokio::time::timeout(BOUND, d.dispatch(request, &CancellationToken::new()))
        .await
        .unwrap()
        .unwrap()
}

/// `(cap the engine is built with, with_max_stop_blocks, continuations expected)`.
#[track_caller]
fn check(engine_cap: Option<u32>, max_stop_blocks: Option<u32>, expect: u32) {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let engine = engine(dir.path(), engine_cap);
    let runs = Arc::new(Runs::default());
    let mut d = engine.subagent_dispatcher(runs.clone(), Arc::new(TokioTimer));
    if let Some(n) = max_stop_blocks {
        d = d.with_max_stop_blocks(n);
    }
    let result = runtime.block_on(dispatch(d));
    assert_eq!(result.continuations, expect, "{result:#?}");
    assert_eq!(runs.0.load(Ordering::Relaxed), expect + 1);
    let reason = result.stop_cap_reason.unwrap();
    assert!(
        reason.contains(&format!(
            "SubagentStop hooks blocked {} consecutive times, more than the cap of {expect}",
            expect + 1
        )) && reason.contains("tests still fail"),
        "{reason}"
    );
}

#[test]
fn with_max_stop_blocks_five_allows_five() {
    check(None, Some(5), 5);
}

#[test]
fn a_cap_above_the_engines_is_not_cut_to_the_engines() {
    // The engine's own cap (8) would override the ninth block if it counted these stops.
    check(None, Some(10), 10);
}

#[test]
fn the_engines_cap_is_the_subagent_dispatchers_default() {
    check(None, None, 8);
    check(Some(2), None, 2);
}

//! The reliability suite's hot reload: a config changed while events are dispatching,
//! through the facade (`hooks::Engine::reload`). Every dispatch must run under the old
//! hook set or the new one, never a mix, and a dispatch in flight when the set changes
//! finishes under the set it started with.

use std::path::Path;

use hooks::Engine;
use hooks_core::EventContext;

use crate::reliability::Leftovers;
use crate::support::{Fixture, read_fifo};

/// A native config of hooks on UserPromptSubmit: each command hook echoes its name as
/// context, each prompt hook injects its name. `gate` runs first in the command hooks'
/// script (a readiness signal and a wait, for the in-flight test).
fn config(guard: &Leftovers, gate: &str, commands: &[&str], prompts: &[&str]) -> String {
    let (mark, value) = guard.env();
    let mut out = String::from("hooks:\n");
    for name in commands {
        out.push_str(&format!(
            "  - event: UserPromptSubmit\n    command: \"{gate}echo {name}\"\n    env: {{ {mark}: \"{value}\" }}\n"
        ));
    }
    for name in prompts {
        out.push_str(&format!(
            "  - event: UserPromptSubmit\n    prompt: {name}\n    mode: inject\n"
        ));
    }
    out
}

fn write(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap();
}

fn prompt() -> EventContext {
    EventContext::user_prompt_submit("hi")
}

const OLD: [&str; 2] = ["A1", "A2"];
const NEW: [&str; 3] = ["B1", "B2", "B3"];

#[tokio::test]
async fn a_dispatch_in_flight_finishes_under_the_set_it_started_with() {
    let (guard, fx) = (Leftovers::new(), Fixture::new());
    let ready = fx.fifo("ready");
    let go = fx.fifo("go");
    let file = fx.file("hooks.yaml");
    // The old set's command hook says it runs (opening `ready` blocks until the test reads
    // it), then waits for `go`.
    let gate = format!(
        "echo started > {}; cat {} > /dev/null; ",
        ready.display(),
        go.display()
    );
    write(&file, &config(&guard, &gate, &["A1"], &["A2"]));
    let engine = Engine::builder().config_file(&file).build().unwrap();

    let in_flight = {
        let engine = engine.clone();
        tokio::spawn(async move { engine.dispatch(&prompt()).await })
    };
    assert_eq!(read_fifo(&ready).await, "started\n");

    write(&file, &config(&guard, "", &["B1"], &["B2", "B3"]));
    assert_eq!(
        engine.reload().await.unwrap(),
        hooks::Reload::Applied { active: 3 }
    );
    assert_eq!(
        engine.dispatch(&prompt()).await.effects.additional_context,
        NEW
    );

    // Release the old set's hook: its dispatch ends under the old set.
    let release = tokio::task::spawn_blocking(move || std::fs::write(go, b""));
    let old = in_flight.await.unwrap();
    release.await.unwrap().unwrap();
    assert_eq!(old.effects.additional_context, OLD, "{old:#?}");
    guard.assert_none_left().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dispatches_racing_reloads_see_one_whole_set() {
    let (guard, fx) = (Leftovers::new(), Fixture::new());
    let file = fx.file("hooks.yaml");
    let old = config(&guard, "", &["A1"], &["A2"]);
    let new = config(&guard, "", &["B1"], &["B2", "B3"]);
    write(&file, &old);
    let engine = Engine::builder().config_file(&file).build().unwrap();

    // 8 dispatchers of 12 events each, while the main task swaps the set until they are
    // done (at most 5,000 times).
    let dispatchers: Vec<_> = (0..8)
        .map(|_| {
            let engine = engine.clone();
            tokio::spawn(async move {
                let mut seen = Vec::new();
                for _ in 0..12 {
                    seen.push(engine.dispatch(&prompt()).await.effects.additional_context);
                }
                seen
            })
        })
        .collect();
    let mut reloads = 0;
    while reloads < 5_000 && !dispatchers.iter().all(tokio::task::JoinHandle::is_finished) {
        write(&file, if reloads % 2 == 0 { &new } else { &old });
        engine.reload().await.unwrap();
        reloads += 1;
    }
    assert!(reloads > 1, "the dispatches ended before the reloads began");
    let mut counts = [0usize; 2];
    for handle in dispatchers {
        for context in handle.await.unwrap() {
            if context == OLD {
                counts[0] += 1;
            } else if context == NEW {
                counts[1] += 1;
            } else {
                panic!("a dispatch saw a mix of hook sets: {context:?}");
            }
        }
    }
    assert_eq!(counts[0] + counts[1], 96);
    guard.assert_none_left().await;
}

//! Fabro run configs as Fabro reads them: agent hooks in their current form, the rest of a
//! run config checked by Fabro's rules, and the run's environment.

use std::path::Path;

use hooks_config::load_str;

use crate::support::{options, summary};

/// Loads `text` as `run.toml`: every hook's summary (action, event, async) one per line,
/// or the whole error text.
fn load(text: &str) -> String {
    match load_str(text, Some(Path::new("run.toml")), &options()) {
        Ok(file) => file
            .hooks()
            .map(|h| {
                let s = summary(h);
                format!("{} {} async={}", s["event"], s["action"], s["async"])
            })
            .collect::<Vec<_>>()
            .join("\n"),
        Err(e) => e.to_string(),
    }
}

/// Checks each `(run config, expected)` case; `UPDATE_EXPECT=1` prints what it got.
#[track_caller]
fn check(cases: &[(&str, &str)]) {
    for (text, expect) in cases {
        let got = load(text);
        if std::env::var("UPDATE_EXPECT").is_ok() {
            println!("@@EXPECT {}", serde_json::to_string(&got).unwrap());
        } else {
            assert_eq!(got, expect.trim_start_matches('\n'), "for:\n{text}");
        }
    }
}

#[test]
fn agent_hooks_in_fabros_current_form() {
    check(&[
        // Fabro's own test of an agent hook.
        (
            r#"
[[run.hooks]]
name = "verify"
event = "stage_start"
matcher = "^b$"
agent = "enabled"
prompt = "Read marker.txt and decide."
model = "test/model"
max_tool_rounds = 3
"#,
            r#"
"StageStart" {"prompt":"Read marker.txt and decide.","mode":"agent","model":"test/model","max_tool_rounds":3} async=false"#,
        ),
        // Without `max_tool_rounds` the evaluator's own limit applies; `run_complete` does
        // not block by default.
        (
            "[[run.hooks]]\nevent = \"run_complete\"\nagent = \"enabled\"\nprompt = \"Verify the tests pass.\"\n",
            r#"
"RunComplete" {"prompt":"Verify the tests pass.","mode":"agent","model":null} async=true"#,
        ),
        // A prompt hook is a `prompt` without `agent`.
        (
            "[[run.hooks]]\nevent = \"stage_start\"\nprompt = \"Proceed?\"\nmodel = \"haiku\"\n",
            r#"
"StageStart" {"prompt":"Proceed?","mode":"evaluate","model":"haiku"} async=false"#,
        ),
        (
            "[[run.hooks]]\nevent = \"stage_start\"\nagent = \"enabled\"\nmodel = \"sonnet\"\n",
            r#"
run.toml:1:1: error: an agent hook needs a `prompt`: the task the agent carries out
 1 | [[run.hooks]]
   | ^
  hint: add `prompt = "..."` beside `agent = "enabled"`"#,
        ),
        (
            "[[run.hooks]]\nevent = \"run_complete\"\nagent = \"Run the test suite.\"\n",
            r#"
run.toml:3:9: error: `agent` is the marker `"enabled"`; an agent hook's task goes in `prompt`
 3 | agent = "Run the test suite."
   |         ^
  hint: write `agent = "enabled"` and `prompt = "..."`"#,
        ),
        (
            "[[run.hooks]]\nevent = \"stage_start\"\nprompt = \"Proceed?\"\nmax_tool_rounds = 2\n",
            r#"
run.toml:4:1: error: `max_tool_rounds` applies to agent hooks only
 4 | max_tool_rounds = 2
   | ^
  hint: make it an agent hook with `agent = "enabled"`, or remove `max_tool_rounds`"#,
        ),
        (
            "[[run.hooks]]\nevent = \"stage_start\"\nagent = \"enabled\"\nprompt = \"p\"\nscript = \"./a.sh\"\n",
            r#"
run.toml:3:1: error: a hook has exactly one of `script`, `command`, `url`, `prompt` or `agent`, not `script` and `agent`
 3 | agent = "enabled"
   | ^"#,
        ),
    ]);
}

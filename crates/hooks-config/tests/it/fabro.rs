//! Fabro run configs as Fabro reads them: agent hooks in their current form, the rest of a
//! run config checked by Fabro's rules, and the run's environment.

use std::path::Path;

use hooks_config::core::{Action, Layer};
use hooks_config::{Origin, TrustPolicy, load_str, merge};

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

#[test]
fn the_rest_of_a_run_config_is_checked_as_fabro_checks_it() {
    check(&[
        // The seed's own sections load.
        (
            r#"
_version = 1

[[run.prepare.steps]]
script = "pip install -r requirements.txt"

[[run.prepare.steps]]
command = ["npm", "install"]
env = { NPM_TOKEN = "{{ secrets.NPM_TOKEN }}" }

[run.artifacts]
include = ["test-results/**", "playwright-report/**", "**/*.trace.zip", ".ai/plans/????-??-??-*.md"]

[run.agent.mcps.playwright]
type = "sandbox"
command = ["npx", "@playwright/mcp@latest", "--port", "3100", "--headless"]
port = 3100

[run.agent.mcps.sentry]
id = "sentry"
enabled = false

[environments.ci]
provider = "docker"

[environments.ci.network]
mode = "cidr_allow_list"
allow = ["10.0.0.0/8", "192.168.1.7/32", "2001:db8::/32"]
"#,
            "",
        ),
        (
            "_version = 1
[environments.ci]\nprovider = \"docker\"\n\n[environments.ci.network]\nmode = \"cidr_allow_list\"\nallow = [\"10.0.0.0/33\", \"example.com\", \"10.1.2.3\"]\n\n[run.environment.network]\nallow = [\"fe80::/200\"]\n",
            r#"
run.toml:7:10: error: `10.0.0.0/33` is not a CIDR: the prefix length `33` is not a number from 0 to 32
 7 | allow = ["10.0.0.0/33", "example.com", "10.1.2.3"]
   |          ^
  hint: write an address and a prefix length, such as `10.0.0.0/8` or `2001:db8::/32`
run.toml:7:25: error: `example.com` is not a CIDR: it has no `/prefix`
 7 | allow = ["10.0.0.0/33", "example.com", "10.1.2.3"]
   |                         ^
  hint: write an address and a prefix length, such as `10.0.0.0/8` or `2001:db8::/32`
run.toml:7:40: error: `10.1.2.3` is not a CIDR: it has no `/prefix`
 7 | allow = ["10.0.0.0/33", "example.com", "10.1.2.3"]
   |                                        ^
  hint: write an address and a prefix length, such as `10.0.0.0/8` or `2001:db8::/32`
run.toml:10:10: error: `fe80::/200` is not a CIDR: the prefix length `200` is not a number from 0 to 128
 10 | allow = ["fe80::/200"]
    |          ^
  hint: write an address and a prefix length, such as `10.0.0.0/8` or `2001:db8::/32`"#,
        ),
        (
            "_version = 1
[run.artifacts]\ninclude = [\"/etc/**\", \"reports/../../secrets/*\", \"a\\\\b.txt\", \"ok/**\"]\n",
            r#"
run.toml:3:12: error: the artifact pattern `/etc/**` is invalid: it is absolute
 3 | include = ["/etc/**", "reports/../../secrets/*", "a\\b.txt", "ok/**"]
   |            ^
  hint: artifact patterns are relative to the sandbox working directory, such as `test-results/**`
run.toml:3:23: error: the artifact pattern `reports/../../secrets/*` is invalid: it has a `..` segment
 3 | include = ["/etc/**", "reports/../../secrets/*", "a\\b.txt", "ok/**"]
   |                       ^
  hint: artifact patterns are relative to the sandbox working directory, such as `test-results/**`
run.toml:3:50: error: the artifact pattern `a\b.txt` is invalid: it has a backslash (patterns use `/`)
 3 | include = ["/etc/**", "reports/../../secrets/*", "a\\b.txt", "ok/**"]
   |                                                  ^
  hint: artifact patterns are relative to the sandbox working directory, such as `test-results/**`"#,
        ),
        (
            "_version = 1
[[run.prepare.steps]]\nscript = \"make\"\ncommand = [\"make\"]\n\n[[run.prepare.steps]]\nenv = { A = \"1\" }\n",
            r#"
run.toml:4:1: error: a prepare step has both `script` and `command`
 4 | command = ["make"]
   | ^
  hint: keep one: `script` is Bash source, `command` an argv list
run.toml:6:1: error: a prepare step has neither `script` nor `command`
 6 | [[run.prepare.steps]]
   | ^
  hint: give it `script = "..."` (Bash) or `command = ["prog", "arg"]`"#,
        ),
        (
            "_version = 1
[run.agent.mcps.sentry]\nid = \"sentry\"\ncommand = [\"sentry-mcp\"]\n\n[run.agent.mcps.docs]\ntype = \"http\"\nscript = \"docs-mcp\"\n\n[run.agent.mcps.local]\ntype = \"stdio\"\n\n[run.agent.mcps.browser]\ntype = \"sandbox\"\nscript = \"npx @playwright/mcp\"\ncommand = [\"npx\"]\n",
            r#"
run.toml:2:1: warning: MCP server `sentry` refers to Fabro's server-managed catalog, so mcp_tool hooks cannot call it here
 2 | [run.agent.mcps.sentry]
   | ^
  hint: define it inline with `type = "stdio"` or `type = "http"`
run.toml:4:1: error: MCP server `sentry` references the catalog entry `id`, so it cannot also set the inline field `command`
 4 | command = ["sentry-mcp"]
   | ^
  hint: remove `id` to define the server inline, or remove the inline fields to use the catalog's definition
run.toml:6:1: error: the http MCP server `docs` has no `url`
 6 | [run.agent.mcps.docs]
   | ^
run.toml:8:1: error: `script` does not apply to the http MCP server `docs`
 8 | script = "docs-mcp"
   | ^
  hint: an http server is reached at its `url`, with `headers`
run.toml:10:1: error: MCP server `local` has neither `script` nor `command`
 10 | [run.agent.mcps.local]
    | ^
  hint: give it `script = "..."` (Bash) or `command = ["prog", "arg"]`
run.toml:13:1: warning: MCP server `browser` runs inside Fabro's sandbox, so mcp_tool hooks cannot call it here
 13 | [run.agent.mcps.browser]
    | ^
  hint: define it inline with `type = "stdio"` or `type = "http"`
run.toml:13:1: error: the sandbox MCP server `browser` has no `port`
 13 | [run.agent.mcps.browser]
    | ^
  hint: give the port it listens on inside the sandbox, such as `port = 3100`
run.toml:16:1: error: MCP server `browser` has both `script` and `command`
 16 | command = ["npx"]
    | ^
  hint: keep one: `script` is Bash source, `command` an argv list"#,
        ),
        (
            "_version = 1
[environments.cloud.env]\nNODE_ENV = \"production\"\n",
            r#"
run.toml:2:15: error: environment `cloud` has no `provider`
 2 | [environments.cloud.env]
   |               ^
  hint: add `provider = "local"`, `"docker"` or `"daytona"` under `[environments.cloud]`; to change the selected environment of another layer, write the change under `[run.environment]`"#,
        ),
        (
            "_version = 1
[[run.hooks]]\nid = \"pre-check\"\nevent = \"stage_start\"\nscript = \"./a.sh\"\n\n[[run.hooks]]\nevent = \"run_complete\"\nscript = \"echo done\"\n\n[[run.hooks]]\nid = \"pre-check\"\nevent = \"stage_start\"\nscript = \"./b.sh\"\n",
            r#"
run.toml:12:6: error: the hook id `pre-check` is used twice in this file, at lines 3 and 12
 12 | id = "pre-check"
    |      ^
  hint: an id names one hook (a higher layer replaces it by that id); give each hook of the file its own id"#,
        ),
    ]);
}

/// A file to merge: its layer, how it was loaded, its text.
type File<'a> = (Layer, Origin, &'a str);

/// Merges `(layer, origin, text)` files (Fabro, unless the text says otherwise) with
/// trust denied, and gives the run environment and each hook's env, one line each.
fn environment_of(files: &[File<'_>]) -> String {
    let loaded: Vec<_> = files
        .iter()
        .enumerate()
        .map(|(i, (layer, origin, text))| {
            let name = if text.contains("hooks:") {
                format!("f{i}.yaml")
            } else {
                format!("f{i}.toml")
            };
            let opts = options().with_layer(*layer).with_origin(*origin);
            load_str(text, Some(Path::new(&name)), &opts).unwrap_or_else(|e| panic!("{e}"))
        })
        .collect();
    let set = merge(&loaded, &TrustPolicy::Deny);
    let mut out = vec![format!("{:?}", set.run_environment())];
    for hook in set.hooks() {
        if let Action::Command(c) = &hook.spec.action {
            out.push(format!("{} {:?}", hook.spec.display_id(), c.env));
        }
    }
    out.join("\n")
}

#[test]
fn the_run_environment_is_chosen_and_joined_as_fabro_layers_it() {
    use Layer::{Project, Run, User};
    use Origin::{Discovered, Explicit};
    let hook = |id: &str| {
        format!("\n[[run.hooks]]\nid = \"{id}\"\nevent = \"run_start\"\nscript = \"true\"\n")
    };
    let user = format!(
        "_version = 1\n[environments.default]\nprovider = \"local\"\n[environments.default.env]\nA = \"user\"\nB = \"user\"\n[environments.ci]\nprovider = \"docker\"\n[environments.ci.env]\nA = \"user-ci\"\nB = \"user-ci\"\n{}",
        hook("u")
    );
    let project = "_version = 1\n[run.environment]\nid = \"ci\"\n[environments.ci]\nprovider = \"docker\"\n[environments.ci.env]\nB = \"project-ci\"\nPATH = \"/evil\"\n";
    let run = format!(
        "_version = 1\n[run.environment.env]\nC = \"run override\"\n{}",
        hook("r")
    );
    let native = "hooks:\n  - id: n\n    event: RunStart\n    command: \"true\"\n";
    let cases: Vec<(Vec<File<'_>>, &str)> = vec![
        // No `[run.environment].id`: the `default` environment.
        (
            vec![(User, Explicit, &user)],
            r#"
Some(("default", [("A", "user"), ("B", "user")]))
u [("A", "user"), ("B", "user")]"#,
        ),
        // The project selects `ci`; its B is over the user's, and the run config's
        // `[run.environment.env]` adds to whichever environment is selected.
        (
            vec![
                (User, Explicit, &user),
                (Project, Explicit, project),
                (Run, Explicit, &run),
            ],
            r#"
Some(("ci", [("A", "user-ci"), ("B", "project-ci"), ("PATH", "/evil"), ("C", "run override")]))
u [("A", "user-ci"), ("B", "project-ci"), ("PATH", "/evil"), ("C", "run override")]
r [("A", "user-ci"), ("B", "project-ci"), ("PATH", "/evil"), ("C", "run override")]"#,
        ),
        // An untrusted (discovered) project cannot choose the environment or set its
        // variables for the user's hooks.
        (
            vec![
                (User, Explicit, &user),
                (Project, Discovered, project),
                (Run, Explicit, &run),
            ],
            r#"
Some(("default", [("A", "user"), ("B", "user"), ("C", "run override")]))
u [("A", "user"), ("B", "user"), ("C", "run override")]
r [("A", "user"), ("B", "user"), ("C", "run override")]"#,
        ),
        // Only Fabro hooks run in Fabro's environment.
        (
            vec![(User, Explicit, &user), (Run, Explicit, native)],
            r#"
Some(("default", [("A", "user"), ("B", "user")]))
u [("A", "user"), ("B", "user")]
n []"#,
        ),
        (
            vec![(User, Explicit, native)],
            r#"
None
n []"#,
        ),
    ];
    for (files, expect) in cases {
        assert_eq!(environment_of(&files), expect.trim_start_matches('\n'));
    }
}

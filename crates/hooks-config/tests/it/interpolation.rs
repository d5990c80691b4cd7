//! Interpolation: vars, env, secrets and `${SKILL_DIR}`; missing values fail closed with the
//! hook and token named; secret values never reach specs, Debug output, diagnostics,
//! hashes or converted files.

use std::path::Path;
use std::sync::Arc;

use hooks_config::core::{Action, CommandLine};
use hooks_config::{
    DiagnosticKind, EnvSecrets, EnvSource, Interpolation, LoadOptions, MapSecrets, hook_hash,
    load_str, resolve_secrets,
};

use crate::support::{interpolation, options};

const SECRET: &str = "s3cr3t-value-123";

fn with_secret() -> LoadOptions {
    options().with_interpolation(Interpolation {
        secrets: Arc::new(MapSecrets::new().with("API_TOKEN", SECRET)),
        ..interpolation()
    })
}

const HOOK: &str = "vars:\n  REGION: eu\nhooks:\n  - id: notify\n    event: Stop\n    url: \"https://{{ vars.REGION }}.example.com/{{ env.HOME }}\"\n    allowed_env_vars: [HOME]\n    headers:\n      Authorization: \"Bearer {{ secrets.API_TOKEN }}\"\n  - id: shell\n    event: Stop\n    command: \"curl -H 'X-Token: {{secrets.API_TOKEN}}' https://x && docker inspect --format '{{ .State }}' c\"\n";

#[test]
fn vars_and_env_are_substituted_at_load_and_secrets_are_not() {
    let file = load_str(HOOK, Some(Path::new("hooks.yaml")), &with_secret()).unwrap();
    let hooks: Vec<_> = file.hooks().collect();
    match &hooks[0].action {
        Action::Http(h) => {
            assert_eq!(h.url, "https://eu.example.com//home/test");
            assert_eq!(
                h.headers,
                [(
                    "Authorization".to_owned(),
                    "Bearer {{ secrets.API_TOKEN }}".to_owned()
                )]
            );
        }
        other => panic!("{other:?}"),
    }
    // Other uses of braces pass through untouched.
    assert_eq!(
        hooks[1].action,
        Action::script(
            "curl -H 'X-Token: {{secrets.API_TOKEN}}' https://x && docker inspect --format '{{ .State }}' c"
        )
    );
}

#[test]
fn host_vars_take_precedence_over_the_files() {
    let mut interp = interpolation();
    interp.vars.insert("REGION".to_owned(), "us".to_owned());
    let file = load_str(
        HOOK,
        Some(Path::new("hooks.yaml")),
        &with_secret().with_interpolation(Interpolation {
            secrets: Arc::new(MapSecrets::new().with("API_TOKEN", SECRET)),
            ..interp
        }),
    )
    .unwrap();
    assert!(
        matches!(&file.hooks().next().unwrap().action, Action::Http(h) if h.url.starts_with("https://us."))
    );
}

#[track_caller]
fn check(text: &str, options: &LoadOptions, expect: &str) {
    let err = load_str(text, Some(Path::new("hooks.yaml")), options).unwrap_err();
    assert_eq!(err.kind(), DiagnosticKind::Interpolation);
    assert_eq!(err.to_string(), expect);
}

#[test]
fn missing_values_fail_closed_naming_hook_and_token() {
    check(
        "hooks:\n  - id: deploy\n    event: Stop\n    command: \"deploy --token {{ secrets.DEPLOY_TOKEN }}\"\n",
        &with_secret(),
        "hooks.yaml:4:14: error: hook `deploy`: secret `DEPLOY_TOKEN` (`{{ secrets.DEPLOY_TOKEN }}`) is not available\n 4 |     command: \"deploy --token {{ secrets.DEPLOY_TOKEN }}\"\n   |              ^\n  hint: the hook fails closed; provide the secret to the engine's secret provider",
    );
    check(
        "hooks:\n  - id: up\n    event: Stop\n    args: [\"up\", \"{{ vars.STAGE }}\"]\n",
        &options(),
        "hooks.yaml:4:18: error: hook `up`: `{{ vars.STAGE }}` has no value\n 4 |     args: [\"up\", \"{{ vars.STAGE }}\"]\n   |                  ^\n  hint: define `STAGE` under `vars`, or have the host pass it",
    );
    check(
        "hooks:\n  - id: up\n    event: Stop\n    command: \"echo {{ env.NOPE_NOT_SET }}\"\n",
        &options(),
        "hooks.yaml:4:14: error: hook `up`: `{{ env.NOPE_NOT_SET }}`: the environment variable `NOPE_NOT_SET` is not set\n 4 |     command: \"echo {{ env.NOPE_NOT_SET }}\"\n   |              ^",
    );
    check(
        "hooks:\n  - id: up\n    event: Stop\n    command: \"echo {{ secret.TOKEN }}\"\n",
        &options(),
        "hooks.yaml:4:14: error: hook `up`: unknown interpolation namespace `secret`\n 4 |     command: \"echo {{ secret.TOKEN }}\"\n   |              ^\n  hint: did you mean `secrets`?",
    );
}

#[test]
fn skill_dir_is_bound_for_echo_agent_only() {
    let echo = "hooks:\n  Stop:\n    - hooks:\n        - type: command\n          command: ${SKILL_DIR}/done.sh\n";
    let file = load_str(
        echo,
        Some(Path::new("/skills/done/SKILL.md")),
        &options().with_format(hooks_config::Format::Yaml),
    );
    // A SKILL.md needs its frontmatter; as text named `echo-agent.yaml` it binds the folder.
    assert!(file.is_err());
    let file = load_str(
        echo,
        Some(Path::new("/opt/agent/echo-agent.yaml")),
        &options(),
    )
    .unwrap();
    assert_eq!(
        file.hooks().next().unwrap().action,
        Action::script("/opt/agent/done.sh")
    );
    let native = "hooks:\n  - event: Stop\n    command: ${SKILL_DIR}/done.sh\n";
    let file = load_str(native, Some(Path::new("/opt/agent/hooks.yaml")), &options()).unwrap();
    assert_eq!(
        file.hooks().next().unwrap().action,
        Action::script("${SKILL_DIR}/done.sh")
    );
}

/// A Claude Code plugin's `hooks/hooks.json`: `(where the file is, command, the command
/// loaded, the `CLAUDE_PLUGIN_ROOT` its hook gets)`.
#[track_caller]
fn check_plugin(path: &str, command: &str, expect: &str, root: Option<&str>) {
    let text = format!(
        r#"{{"description": "Automatic code formatting", "hooks": {{"PostToolUse": [{{"matcher": "Write|Edit", "hooks": [{{"type": "command", "command": "{command}", "timeout": 30}}]}}]}}}}"#
    );
    let file = load_str(&text, Some(Path::new(path)), &options()).unwrap();
    assert_eq!(file.dialect, hooks_config::core::Dialect::Claude, "{path}");
    let Action::Command(c) = &file.hooks().next().unwrap().action else {
        panic!("not a command hook")
    };
    assert_eq!(c.command, CommandLine::Script(expect.to_owned()), "{path}");
    let given = c
        .env
        .iter()
        .find(|(k, _)| k == "CLAUDE_PLUGIN_ROOT")
        .map(|(_, v)| v.as_str());
    assert_eq!(given, root, "{path}");
}

#[test]
fn a_plugins_hooks_file_binds_claude_plugin_root() {
    check_plugin(
        "/opt/plugins/fmt/hooks/hooks.json",
        "${CLAUDE_PLUGIN_ROOT}/scripts/format.sh",
        "/opt/plugins/fmt/scripts/format.sh",
        Some("/opt/plugins/fmt"),
    );
    // Quoted, as the reference advises for shell form.
    check_plugin(
        "/opt/plugins/fmt/hooks/hooks.json",
        r#"node \"${CLAUDE_PLUGIN_ROOT}\"/scripts/format.js --fix"#,
        r#"node "/opt/plugins/fmt"/scripts/format.js --fix"#,
        Some("/opt/plugins/fmt"),
    );
    // Any other Claude Code file is no plugin's: the placeholder stays for the shell.
    check_plugin(
        "/repo/.claude/settings.json",
        "${CLAUDE_PLUGIN_ROOT}/x.sh",
        "${CLAUDE_PLUGIN_ROOT}/x.sh",
        None,
    );
    assert_eq!(
        hooks_config::plugin_root(Path::new("/opt/plugins/fmt/hooks/hooks.json")),
        Some(Path::new("/opt/plugins/fmt").to_path_buf())
    );
    assert_eq!(
        hooks_config::plugin_root(Path::new("/opt/hooks.json")),
        None
    );
}

#[test]
fn secrets_are_resolved_right_before_running_and_never_shown() {
    let file = load_str(HOOK, Some(Path::new("hooks.yaml")), &with_secret()).unwrap();
    let hooks: Vec<_> = file.hooks().cloned().collect();
    let provider = MapSecrets::new().with("API_TOKEN", SECRET);
    let resolved = resolve_secrets(&hooks[1], &provider).unwrap();
    assert!(resolved.has_secrets());
    match &resolved.spec().action {
        Action::Command(c) => assert_eq!(
            c.command,
            CommandLine::Script(format!(
                "curl -H 'X-Token: {SECRET}' https://x && docker inspect --format '{{{{ .State }}}}' c"
            ))
        ),
        other => panic!("{other:?}"),
    }
    // Not in Debug output of the resolved hook, the loaded spec, the file, the provider.
    for shown in [
        format!("{resolved:?}"),
        format!("{:?}", hooks[1]),
        format!("{file:?}"),
        format!("{provider:?}"),
        format!("{:?}", with_secret()),
        format!("{:?}", hooks_config::Secret::new(SECRET)),
        hooks_config::Secret::new(SECRET).to_string(),
    ] {
        assert!(!shown.contains(SECRET), "{shown}");
    }
    // Text the hook printed can be redacted before it is logged.
    assert_eq!(
        resolved.redact(&format!("sent {SECRET}")),
        "sent [secret API_TOKEN]"
    );
    // The trust hash is of the template, so it does not change with the secret.
    assert_eq!(hook_hash(resolved.template()), hook_hash(&hooks[1]));
}

#[test]
fn a_secret_missing_at_run_time_fails_closed() {
    let lenient = options().with_interpolation(Interpolation {
        check_secrets: false,
        ..interpolation()
    });
    let file = load_str(HOOK, Some(Path::new("hooks.yaml")), &lenient).unwrap();
    let spec = file.hooks().next().unwrap();
    let err = resolve_secrets(spec, &MapSecrets::new().with("OTHER", SECRET)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "hooks.yaml:4:5: error: hook `notify` needs secret `API_TOKEN` (`{{ secrets.API_TOKEN }}`), which is not available\n  hint: the hook does not run (fail closed); provide the secret to the secret provider"
    );
    assert!(!err.to_string().contains(SECRET));
}

#[test]
fn env_backed_secrets_by_default() {
    // The test process has PATH; read it as a secret through the default provider.
    let path = std::env::var("PATH").unwrap();
    let text = "hooks:\n  - event: Stop\n    command: \"echo {{ secrets.PATH }}\"\n";
    let opts = LoadOptions::new().with_interpolation(Interpolation {
        env: EnvSource::Map(Default::default()),
        ..Interpolation::default()
    });
    let file = load_str(text, Some(Path::new("hooks.yaml")), &opts).unwrap();
    let resolved = resolve_secrets(file.hooks().next().unwrap(), &EnvSecrets::new()).unwrap();
    assert_eq!(
        resolved.spec().action,
        Action::script(format!("echo {path}"))
    );
    let prefixed = resolve_secrets(
        file.hooks().next().unwrap(),
        &EnvSecrets::with_prefix("NO_SUCH_PREFIX_"),
    );
    assert!(prefixed.is_err());
}

/// An http hook's URL and headers read only the environment its `allowed_env_vars` lists:
/// `{{ env.X }}` for another variable is empty, with a warning naming the hook and the
/// variable; a listed one is substituted in the URL and left for the executor, as `${X}`, in
/// a header, so its value is never part of the loaded hook.
#[test]
fn http_hooks_read_only_the_environment_they_allow() {
    #[track_caller]
    fn check(file: &str, text: &str, url: &str, header: &str, warnings: &[&str]) {
        let options = options().with_interpolation(Interpolation {
            env: EnvSource::Map(
                [
                    ("AWS_SECRET".to_owned(), "aws-secret-value".to_owned()),
                    ("REGION".to_owned(), "eu".to_owned()),
                ]
                .into(),
            ),
            ..interpolation()
        });
        let loaded = load_str(text, Some(Path::new(file)), &options).unwrap();
        let hook = loaded.hooks().next().unwrap();
        let Action::Http(h) = &hook.action else {
            panic!("{hook:?}")
        };
        assert_eq!(
            (h.url.as_str(), h.headers[0].1.as_str()),
            (url, header),
            "{file}"
        );
        let shown: Vec<String> = loaded.warnings.iter().map(|w| w.message.clone()).collect();
        assert_eq!(shown, warnings, "{file}");
    }
    let claude = |allowed: &str| {
        format!(
            r#"{{"hooks":{{"Stop":[{{"hooks":[{{"type":"http","url":"https://{{{{ env.REGION }}}}.example.com/{{{{ env.AWS_SECRET }}}}","headers":{{"X-Key":"k={{{{ env.AWS_SECRET }}}}"}},"allowedEnvVars":{allowed}}}]}}]}}}}"#
        )
    };
    let not_listed =
        "`{{ env.AWS_SECRET }}` is not in the http hook's allowed env vars, so it is left empty";
    let region =
        "`{{ env.REGION }}` is not in the http hook's allowed env vars, so it is left empty";
    check(
        "settings.json",
        &claude("[]"),
        "https://.example.com/",
        "k=",
        &[
            // A Claude hook is named by the head of its URL.
            &format!("hook `https://{{{{ env.REGION }}}}.example.com/{{{{ `: {region}"),
            &format!("hook `https://{{{{ env.REGION }}}}.example.com/{{{{ `: {not_listed}"),
            &format!("hook `https://{{{{ env.REGION }}}}.example.com/{{{{ `: {not_listed}"),
        ],
    );
    check(
        "settings.json",
        &claude(r#"["REGION", "AWS_SECRET"]"#),
        "https://eu.example.com/aws-secret-value",
        "k=${AWS_SECRET}",
        &[],
    );
    check(
        "hooks.yaml",
        "hooks:\n  - id: audit\n    event: Stop\n    url: \"https://x.example.com/\"\n    headers: { X-Key: \"{{ env.AWS_SECRET }}\" }\n",
        "https://x.example.com/",
        "",
        &[&format!("hook `audit`: {not_listed}")],
    );
    check(
        "run.toml",
        "[[run.hooks]]\nname = \"audit\"\nevent = \"run_start\"\nurl = \"https://x.example.com/\"\nheaders = { X-Key = \"{{ env.AWS_SECRET }}\" }\nallowed_env_vars = [\"AWS_SECRET\"]\n",
        "https://x.example.com/",
        "${AWS_SECRET}",
        &[],
    );
}

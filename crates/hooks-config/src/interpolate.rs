//! Interpolation: `{{ vars.NAME }}`, `{{ env.NAME }}`, `{{ secrets.NAME }}`, `${SKILL_DIR}`
//! and `${CLAUDE_PLUGIN_ROOT}` in the strings of a hook's action.
//!
//! # When each token is resolved
//!
//! - `{{ vars.NAME }}`, `{{ env.NAME }}` and the file's path placeholder (echo-agent's
//!   `${SKILL_DIR}`, a Claude Code plugin hooks file's `${CLAUDE_PLUGIN_ROOT}`) are
//!   substituted when the file is loaded. A missing variable is an error at the token's
//!   file:line:col.
//! - In an http hook's URL and headers, `{{ env.NAME }}` obeys the hook's
//!   `allowed_env_vars`: a variable it does not list is left empty, with a warning naming
//!   the hook and the variable. A listed one is substituted in the URL; in a header it is
//!   written `${NAME}`, which the http executor reads when it sends the request (under the
//!   same list), so a header's value is never part of the loaded hook.
//! - `{{ secrets.NAME }}` stays in the loaded [`HookSpec`] as written, so that a secret's
//!   value is never part of a spec, a listing, a diagnostic, a trust hash or a converted
//!   file. Loading checks that the [`SecretProvider`] has every secret a hook names (a
//!   missing one fails closed, naming the hook and the token); [`resolve_secrets`] puts
//!   the values in right before the hook runs and returns a [`ResolvedHook`] whose `Debug`
//!   shows the template, never the values.
//!
//! Tokens are recognised only with the namespaces `vars`, `env` and `secrets`, so other
//! uses of braces (`docker inspect --format '{{ .State }}'`) pass through untouched; a
//! namespace one typo away from those (`{{ secret.X }}`) is an error with a did-you-mean.
//! Interpolated strings are the command (script or argv), its working directory and
//! environment values, an http hook's URL and header values, an mcp_tool hook's string
//! arguments, a prompt, and a permission reason.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use hooks_core::{
    Action, CommandAction, CommandLine, HookSpec, HttpAction, McpToolAction, PermissionAction,
    PromptAction, Redactor,
};
use serde_json::Value;

use crate::error::{Diagnostic, DiagnosticKind, Error};

/// A secret's value. Its `Debug` and `Display` print `***`; only [`Secret::expose`] gives
/// the value.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    /// Wraps a value.
    pub fn new(value: impl Into<String>) -> Secret {
        Secret(value.into())
    }

    /// The value itself. Do not log it.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(***)")
    }
}

impl fmt::Display for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("***")
    }
}

/// Where `{{ secrets.NAME }}` values come from: a vault, a keychain, the environment.
pub trait SecretProvider: Send + Sync {
    /// The secret called `name`, if there is one.
    fn secret(&self, name: &str) -> Option<Secret>;
}

/// The default provider: secrets are environment variables, optionally with a prefix
/// (`EnvSecrets::with_prefix("HOOKS_SECRET_")` reads `{{ secrets.TOKEN }}` from
/// `HOOKS_SECRET_TOKEN`).
#[derive(Clone, Debug, Default)]
pub struct EnvSecrets {
    prefix: String,
}

impl EnvSecrets {
    /// Reads `{{ secrets.NAME }}` from the environment variable `NAME`.
    pub fn new() -> EnvSecrets {
        EnvSecrets::default()
    }

    /// Reads `{{ secrets.NAME }}` from the environment variable `PREFIX` + `NAME`.
    pub fn with_prefix(prefix: impl Into<String>) -> EnvSecrets {
        EnvSecrets {
            prefix: prefix.into(),
        }
    }
}

impl SecretProvider for EnvSecrets {
    fn secret(&self, name: &str) -> Option<Secret> {
        std::env::var(format!("{}{name}", self.prefix))
            .ok()
            .map(Secret)
    }
}

/// Secrets from a map, for hosts that hold them already and for tests.
#[derive(Clone, Default)]
pub struct MapSecrets(BTreeMap<String, Secret>);

impl MapSecrets {
    /// An empty map.
    pub fn new() -> MapSecrets {
        MapSecrets::default()
    }

    /// Adds a secret.
    #[must_use]
    pub fn with(mut self, name: impl Into<String>, value: impl Into<String>) -> MapSecrets {
        self.0.insert(name.into(), Secret::new(value));
        self
    }
}

impl fmt::Debug for MapSecrets {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.0.keys()).finish()
    }
}

impl SecretProvider for MapSecrets {
    fn secret(&self, name: &str) -> Option<Secret> {
        self.0.get(name).cloned()
    }
}

/// Where `{{ env.NAME }}` values come from.
#[derive(Clone, Debug, Default)]
pub enum EnvSource {
    /// The process environment.
    #[default]
    Process,
    /// A fixed map (tests, or a host that builds the environment itself).
    Map(BTreeMap<String, String>),
}

impl EnvSource {
    /// The value of the variable `name`, if it is set.
    pub fn get(&self, name: &str) -> Option<String> {
        match self {
            EnvSource::Process => std::env::var(name).ok(),
            EnvSource::Map(map) => map.get(name).cloned(),
        }
    }
}

/// The values interpolation uses while loading: variables, the environment and the
/// secret provider (checked for presence only).
#[derive(Clone)]
pub struct Interpolation {
    /// Values of `{{ vars.NAME }}`. They take precedence over a file's own `vars`; a host
    /// adds them with [`Interpolation::with_var`] (the `hooks` command line with `--var`).
    pub vars: BTreeMap<String, String>,
    /// Values of `{{ env.NAME }}`.
    pub env: EnvSource,
    /// The provider of `{{ secrets.NAME }}`.
    pub secrets: Arc<dyn SecretProvider>,
    /// Whether loading fails when a named secret is missing (default true: fail closed
    /// early). Resolution before running always fails on a missing secret.
    pub check_secrets: bool,
}

impl Default for Interpolation {
    fn default() -> Interpolation {
        Interpolation {
            vars: BTreeMap::new(),
            env: EnvSource::Process,
            secrets: Arc::new(EnvSecrets::new()),
            check_secrets: true,
        }
    }
}

impl Interpolation {
    /// Sets the value of `{{ vars.NAME }}` (replacing an earlier one of the same name).
    #[must_use]
    pub fn with_var(mut self, name: impl Into<String>, value: impl Into<String>) -> Interpolation {
        self.vars.insert(name.into(), value.into());
        self
    }
}

impl fmt::Debug for Interpolation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Interpolation")
            .field("vars", &self.vars.keys().collect::<Vec<_>>())
            .field("env", &self.env)
            .field("check_secrets", &self.check_secrets)
            .finish_non_exhaustive()
    }
}

/// The namespaces of `{{ ns.NAME }}`.
const NAMESPACES: [&str; 3] = ["vars", "env", "secrets"];

/// One `{{ ns.NAME }}` token in a string.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Token<'a> {
    /// Byte range of the whole token, braces included.
    pub(crate) range: std::ops::Range<usize>,
    pub(crate) namespace: &'a str,
    pub(crate) name: &'a str,
}

/// Every `{{ ns.NAME }}` token in `s` whose namespace looks like an identifier.
pub(crate) fn tokens(s: &str) -> Vec<Token<'_>> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(open) = s[from..].find("{{").map(|i| i + from) {
        let Some(close) = s[open + 2..].find("}}").map(|i| i + open + 2) else {
            break;
        };
        let inner = s[open + 2..close].trim();
        from = open + 2;
        let Some((namespace, name)) = inner.split_once('.') else {
            continue;
        };
        let ident = |t: &str| {
            !t.is_empty()
                && t.chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-'))
        };
        if ident(namespace)
            && ident(name)
            && namespace
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic())
        {
            out.push(Token {
                range: open..close + 2,
                namespace,
                name,
            });
            from = close + 2;
        }
    }
    out
}

/// Why a string could not be interpolated.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct TokenError {
    pub(crate) message: String,
    pub(crate) hint: Option<String>,
}

/// Which `{{ env.NAME }}` a string may read.
#[derive(Clone, Copy, Debug)]
pub(crate) enum EnvScope<'a> {
    /// Any variable, substituted at load.
    All,
    /// An http hook's URL: only the variables in its `allowed_env_vars`, substituted at load.
    HttpUrl(&'a [String]),
    /// An http hook's header value: only the variables in its `allowed_env_vars`, written
    /// as `${NAME}` for the http executor to read when it sends the request, so that the
    /// value is never part of the loaded hook (its listing, hash or `Debug` output).
    HttpHeader(&'a [String]),
    /// A Fabro environment's variable (`[environments.<id>.env]`): any variable, and one
    /// that is not set stays as written (`{{ env.NAME }}`), with a warning, as Fabro passes
    /// such a value through in source form.
    PassMissing,
}

/// Substitutes what can be substituted at load time (see the module docs). A token that
/// `env` does not allow becomes the empty string, with a warning pushed to `warnings`.
pub(crate) fn load_time(
    s: &str,
    interp: &Interpolation,
    file_vars: &BTreeMap<String, String>,
    path_var: Option<(&str, &str)>,
    env: EnvScope<'_>,
    warnings: &mut Vec<TokenError>,
) -> Result<String, TokenError> {
    let s = match path_var {
        Some((placeholder, dir)) => s.replace(placeholder, dir),
        None => s.to_owned(),
    };
    let mut out = String::with_capacity(s.len());
    let mut last = 0;
    for token in tokens(&s) {
        let value = match token.namespace {
            "vars" => interp
                .vars
                .get(token.name)
                .or_else(|| file_vars.get(token.name))
                .cloned()
                .ok_or_else(|| TokenError {
                    message: format!("`{{{{ vars.{} }}}}` has no value", token.name),
                    hint: Some(format!(
                        "define `{}` under `vars`, or have the host pass it",
                        token.name
                    )),
                })?,
            "env" => {
                let allowed = match env {
                    EnvScope::All | EnvScope::PassMissing => None,
                    EnvScope::HttpUrl(list) | EnvScope::HttpHeader(list) => {
                        Some(list.iter().any(|a| a == token.name))
                    }
                };
                match (allowed, env) {
                    (Some(false), _) => {
                        warnings.push(TokenError {
                            message: format!(
                                "`{{{{ env.{} }}}}` is not in the http hook's allowed env vars, so it is left empty",
                                token.name
                            ),
                            hint: Some(format!(
                                "list `{}` in `allowed_env_vars` (`allowedEnvVars`) to send it",
                                token.name
                            )),
                        });
                        String::new()
                    }
                    (_, EnvScope::HttpHeader(_)) => format!("${{{}}}", token.name),
                    (_, EnvScope::PassMissing) => match interp.env.get(token.name) {
                        Some(value) => value,
                        None => {
                            warnings.push(TokenError {
                                message: format!(
                                    "`{{{{ env.{} }}}}`: the environment variable `{}` is not set, so the value is passed through as written",
                                    token.name, token.name
                                ),
                                hint: Some(format!("set `{}` in the environment the hooks run from", token.name)),
                            });
                            s[token.range.clone()].to_owned()
                        }
                    },
                    (_, EnvScope::All | EnvScope::HttpUrl(_)) => {
                        interp.env.get(token.name).ok_or_else(|| TokenError {
                            message: format!(
                                "`{{{{ env.{} }}}}`: the environment variable `{}` is not set",
                                token.name, token.name
                            ),
                            hint: None,
                        })?
                    }
                }
            }
            "secrets" => {
                if interp.check_secrets && interp.secrets.secret(token.name).is_none() {
                    return Err(TokenError {
                        message: format!(
                            "secret `{}` (`{{{{ secrets.{} }}}}`) is not available",
                            token.name, token.name
                        ),
                        hint: Some("the hook fails closed; provide the secret to the engine's secret provider".to_owned()),
                    });
                }
                // Secrets stay as written until the hook runs.
                continue;
            }
            other => match hooks_core::did_you_mean(other, NAMESPACES) {
                Some(suggestion) => {
                    return Err(TokenError {
                        message: format!("unknown interpolation namespace `{other}`"),
                        hint: Some(format!("did you mean `{suggestion}`?")),
                    });
                }
                None => continue,
            },
        };
        out.push_str(&s[last..token.range.start]);
        out.push_str(&value);
        last = token.range.end;
    }
    out.push_str(&s[last..]);
    Ok(out)
}

/// Rewrites every interpolated string of an action with `f`.
pub(crate) fn map_action<E>(
    action: &Action,
    f: &mut dyn FnMut(&str) -> Result<String, E>,
) -> Result<Action, E> {
    Ok(match action {
        Action::Command(c) => {
            let command = match &c.command {
                CommandLine::Script(s) => CommandLine::Script(f(s)?),
                CommandLine::Argv(v) => {
                    CommandLine::Argv(v.iter().map(|a| f(a)).collect::<Result<_, E>>()?)
                }
            };
            let cwd = match &c.cwd {
                Some(p) => Some(f(&p.to_string_lossy())?.into()),
                None => None,
            };
            let env = c
                .env
                .iter()
                .map(|(k, v)| Ok((k.clone(), f(v)?)))
                .collect::<Result<_, E>>()?;
            let mut out = CommandAction::new(command);
            out.cwd = cwd;
            out.env = env;
            out.sandbox = c.sandbox;
            Action::Command(out)
        }
        Action::Http(h) => Action::Http(HttpAction {
            url: f(&h.url)?,
            headers: h
                .headers
                .iter()
                .map(|(k, v)| Ok((k.clone(), f(v)?)))
                .collect::<Result<_, E>>()?,
            allowed_env_vars: h.allowed_env_vars.clone(),
        }),
        Action::McpTool(m) => Action::McpTool(McpToolAction {
            server: m.server.clone(),
            tool: m.tool.clone(),
            input: map_json(&m.input, f)?,
        }),
        Action::Prompt(p) => Action::Prompt(PromptAction {
            prompt: f(&p.prompt)?,
            mode: p.mode,
            model: p.model.clone(),
            max_tool_rounds: p.max_tool_rounds,
            continue_on_block: p.continue_on_block,
        }),
        Action::Permission(p) => Action::Permission(PermissionAction {
            decision: p.decision,
            reason: match &p.reason {
                Some(r) => Some(f(r)?),
                None => None,
            },
        }),
        // A kind of action added to the core later has no strings known to us.
        other => other.clone(),
    })
}

fn map_json<E>(value: &Value, f: &mut dyn FnMut(&str) -> Result<String, E>) -> Result<Value, E> {
    Ok(match value {
        Value::String(s) => Value::String(f(s)?),
        Value::Array(items) => Value::Array(
            items
                .iter()
                .map(|v| map_json(v, f))
                .collect::<Result<_, E>>()?,
        ),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| Ok((k.clone(), map_json(v, f)?)))
                .collect::<Result<_, E>>()?,
        ),
        other => other.clone(),
    })
}

/// A hook with its secrets filled in, ready to run.
///
/// Its `Debug` shows the hook as written (with `{{ secrets.NAME }}`), never the values;
/// [`ResolvedHook::redactor`] masks the values (as `[secret NAME]`) in what the hook
/// produced. The `hooks` facade hands that redactor to the runner with the resolved spec,
/// so every outcome leaves the runner masked.
#[derive(Clone)]
pub struct ResolvedHook {
    template: HookSpec,
    resolved: HookSpec,
    redactor: Redactor,
    uses_secrets: bool,
}

impl ResolvedHook {
    /// The hook with secret values in it: hand it to the executor, do not log it.
    pub fn spec(&self) -> &HookSpec {
        &self.resolved
    }

    /// The hook as written, with the secret tokens.
    pub fn template(&self) -> &HookSpec {
        &self.template
    }

    /// The hook with secret values in it.
    pub fn into_spec(self) -> HookSpec {
        self.resolved
    }

    /// Whether the hook used any secret.
    pub fn has_secrets(&self) -> bool {
        self.uses_secrets
    }

    /// The masks of the secret values this hook used.
    pub fn redactor(&self) -> &Redactor {
        &self.redactor
    }

    /// The hook with secret values in it, and the masks of those values.
    pub fn into_parts(self) -> (HookSpec, Redactor) {
        (self.resolved, self.redactor)
    }

    /// `text` with every secret value this hook used replaced by `[secret NAME]`.
    pub fn redact(&self, text: &str) -> String {
        self.redactor.redact(text).into_owned()
    }
}

impl fmt::Debug for ResolvedHook {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ResolvedHook")
            .field("spec", &self.template)
            .field("secrets", &self.redactor)
            .finish()
    }
}

/// Whether `spec`'s action names a secret (`{{ secrets.NAME }}`) anywhere; no value is
/// looked up. A host's run-time step can skip [`resolve_secrets`] (and its copies of the
/// hook) for the hooks that need none.
pub fn uses_secrets(spec: &HookSpec) -> bool {
    map_action::<()>(&spec.action, &mut |s: &str| {
        if tokens(s).iter().any(|t| t.namespace == "secrets") {
            Err(())
        } else {
            Ok(String::new())
        }
    })
    .is_err()
}

/// `text` as written in a loaded hook (its secrets not filled in) with each
/// `{{ secrets.NAME }}` token shown as `[secret NAME]`, the mask the hook's [`Redactor`]
/// gives the value once filled in: what may be shown of a hook's command outside its run
/// (telemetry's `export_commands`). No value is looked up.
pub fn mask_secret_tokens(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for token in tokens(text)
        .into_iter()
        .filter(|t| t.namespace == "secrets")
    {
        out.push_str(&text[last..token.range.start]);
        out.push_str(&format!("[secret {}]", token.name));
        last = token.range.end;
    }
    out.push_str(&text[last..]);
    out
}

/// Fills in a hook's `{{ secrets.NAME }}` tokens from `provider`, right before it runs.
///
/// A missing secret fails closed: the error names the hook, the token and where the hook
/// was defined, and never contains a secret's value.
pub fn resolve_secrets(
    spec: &HookSpec,
    provider: &dyn SecretProvider,
) -> Result<ResolvedHook, Error> {
    let mut redactor = Redactor::new();
    let mut uses_secrets = false;
    let mut missing: Option<String> = None;
    let action = map_action::<()>(&spec.action, &mut |s: &str| {
        let mut out = String::with_capacity(s.len());
        let mut last = 0;
        for token in tokens(s).into_iter().filter(|t| t.namespace == "secrets") {
            let Some(secret) = provider.secret(token.name) else {
                missing = Some(token.name.to_owned());
                return Err(());
            };
            out.push_str(&s[last..token.range.start]);
            out.push_str(secret.expose());
            last = token.range.end;
            redactor.add(token.name, secret.expose());
            uses_secrets = true;
        }
        out.push_str(&s[last..]);
        Ok(out)
    });
    match action {
        Ok(action) => {
            let mut resolved = spec.clone();
            resolved.action = action;
            Ok(ResolvedHook {
                template: spec.clone(),
                resolved,
                redactor,
                uses_secrets,
            })
        }
        Err(()) => {
            let name = missing.unwrap_or_default();
            let mut d = Diagnostic::error(
                DiagnosticKind::Interpolation,
                format!(
                    "hook `{}` needs secret `{name}` (`{{{{ secrets.{name} }}}}`), which is not available",
                    spec.display_id()
                ),
            )
            .with_hint("the hook does not run (fail closed); provide the secret to the secret provider");
            if let Some(file) = &spec.provenance.file {
                d = d.with_file(file.clone());
            }
            if let (Some(line), Some(col)) = (spec.provenance.line, spec.provenance.column) {
                d = d.at(line, col);
            }
            Err(d.into())
        }
    }
}

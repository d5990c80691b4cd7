//! The http executor: POSTs the event JSON to an allowed URL and reads the answer like a
//! command hook's stdout.
//!
//! One [`reqwest::Client`] is built with the executor and reused for every hook run, so
//! connections stay in its keep-alive pool (building a client costs milliseconds, a pooled
//! request on loopback a fraction of one). A hook's own URL is allowed by the trust that let
//! the hook load; an allow-list, when one is set, restricts that and every redirect; the
//! rules are on [`HttpConfig`].

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, PoisonError, RwLock};
use std::time::{Duration, Instant};

use async_trait::async_trait;
use hooks_core::{
    Action, ErrorKind, Event, FailureKind, HookOutcome, HttpAction, UrlAllowList,
    parse_response_body,
};
use reqwest::Url;
use reqwest::header::{CONTENT_TYPE, HeaderMap, HeaderName, HeaderValue};
use reqwest::redirect::{Attempt, Policy};

use crate::error::Error;
use crate::executor::{Executor, HookRun};

/// The default cap on a response body read: 1 MiB, the same as a command's stdout cap.
pub const DEFAULT_MAX_RESPONSE_BYTES: usize = 1 << 20;

/// How many redirects one hook run follows before it gives up.
const MAX_REDIRECTS: usize = 10;

/// How much of a non-2xx response body a failure message quotes, in characters.
const ERROR_BODY_CHARS: usize = 500;

/// Where header interpolation reads environment variables from.
///
/// The default reads the process environment at request time; a host that runs hooks for
/// several users, or a test, can supply its own lookup.
#[derive(Clone)]
pub struct EnvLookup(Arc<LookupFn>);

/// The function behind an [`EnvLookup`].
type LookupFn = dyn Fn(&str) -> Option<String> + Send + Sync;

impl EnvLookup {
    /// Reads the process environment (`std::env::var`) when a request is made.
    pub fn process() -> EnvLookup {
        EnvLookup::new(|name| std::env::var(name).ok())
    }

    /// Reads a fixed map of variables.
    pub fn from_map(vars: HashMap<String, String>) -> EnvLookup {
        EnvLookup::new(move |name| vars.get(name).cloned())
    }

    /// Reads variables through a function of the host's.
    pub fn new(lookup: impl Fn(&str) -> Option<String> + Send + Sync + 'static) -> EnvLookup {
        EnvLookup(Arc::new(lookup))
    }

    /// The value of `name`, if it is set.
    pub fn get(&self, name: &str) -> Option<String> {
        (self.0)(name)
    }
}

impl Default for EnvLookup {
    fn default() -> EnvLookup {
        EnvLookup::process()
    }
}

impl fmt::Debug for EnvLookup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("EnvLookup(..)")
    }
}

/// The host's settings for HTTP hooks.
///
/// # The URL allow-list
///
/// A hook's URL is part of the hook, so the trust that let the hook load (a file the user
/// trusts or names, the host's own code) allows it: with no list set (`allowed_urls:
/// None`, the default) every hook is sent to its own URL, as in Claude Code, and a redirect
/// is followed only while it stays on the hook's origin (scheme, host and port). A list
/// (`Some`, set by the user, managed policy or the host) restricts further: the hook's URL
/// and every redirect target must match one of its entries; a URL outside it is a failure
/// and no request is made to it. An empty list allows nothing, as an empty
/// `allowed_http_hook_urls` in a config file does. The list can be replaced while the
/// executor runs ([`HttpExecutor::set_allowed_urls`]), which is how an engine's reload
/// applies a changed config. Each entry is one of:
///
/// - `*`: any `http` or `https` URL.
/// - A URL, `scheme://host[:port][/path]`: the scheme, host and port (the scheme's default
///   when absent) must be equal, and the path must be the entry's path or lie under it at a
///   segment boundary: `https://hooks.example.com/ci` allows `/ci` and `/ci/run` but not
///   `/cider`; a path ending in `/` allows everything below it.
/// - A host starting with `*.` allows every subdomain, not the domain itself:
///   `https://*.example.com/` allows `https://a.example.com/x` but not `https://example.com/`.
/// - A path ending in `*` is a raw prefix: `http://127.0.0.1:8080/hook*` allows
///   `/hook`, `/hooks` and `/hook-2`.
///
/// Hook URLs are normalised before matching (`/ci/../admin` is `/admin`), so dot segments
/// cannot walk out of an allowed path. Entries take no query or fragment. The syntax and
/// the matching are [`UrlAllowList`]'s, the same the config merge uses.
///
/// # Headers
///
/// A hook's header values may reference environment variables as `$VAR` or `${VAR}`. Only
/// variables the hook lists in its `allowed_env_vars` are read; a reference to any other
/// variable, or to an allowed one that is unset, becomes the empty string (as in Claude
/// Code), so a header never carries a value the hook was not allowed to read, and never
/// the literal `$NAME` that would tell a server which variable it tried. A `$` that does
/// not start a reference (`$1`, `$-`, a `${` with no `}`) stays as it is.
#[derive(Clone, Debug)]
pub struct HttpConfig {
    /// The URL patterns hooks may POST to and be redirected to; `None`: no list, each
    /// hook's own URL (and redirects on its origin) allowed.
    pub allowed_urls: Option<Vec<String>>,
    /// How much of a response body is read; a longer body is a failure flagged as
    /// truncated. Defaults to [`DEFAULT_MAX_RESPONSE_BYTES`].
    pub max_response_bytes: usize,
    /// Where header interpolation reads environment variables.
    pub env: EnvLookup,
}

impl Default for HttpConfig {
    fn default() -> HttpConfig {
        HttpConfig {
            allowed_urls: None,
            max_response_bytes: DEFAULT_MAX_RESPONSE_BYTES,
            env: EnvLookup::default(),
        }
    }
}

/// Runs `http` hooks: POSTs the event JSON and parses the answer.
///
/// The request carries the event as the hook's dialect sees it
/// ([`EventContext::to_json`](hooks_core::EventContext::to_json)) with
/// `Content-Type: application/json` and the hook's headers. The answer is read as
/// PROTOCOLS.md says for Claude Code's HTTP hooks:
///
/// - 2xx with an empty body: success with no decision;
/// - 2xx with a JSON object: the same schema as a command's stdout
///   ([`parse_response_body`]);
/// - 2xx with any other body (plain text, an array, invalid JSON), or a body longer than
///   the cap: [`FailureKind::MalformedOutput`];
/// - any other status: [`FailureKind::NonZeroExit`], the message naming the status and
///   quoting the start of the body;
/// - no connection, a reset, a redirect the allow-list (or, with none, the hook's origin)
///   does not allow, or too many redirects: [`FailureKind::Transport`];
/// - no complete answer (headers and body) within the hook's timeout:
///   [`FailureKind::Timeout`]; the dispatch cancelled: [`FailureKind::Cancelled`];
/// - a URL outside the allow-list: a [`FailureKind::Refused`] failure; an unparsable URL
///   or an invalid header: a [`FailureKind::Spawn`] failure; either way no request is
///   made.
///
/// Redirects follow HTTP's rules: 307 and 308 repeat the POST with its body, while 301, 302
/// and 303 turn it into a GET without one; credentials (`Authorization`, cookies) are
/// dropped when a redirect leaves the host. Messages name URLs without their credentials
/// or query, which may hold secrets.
#[derive(Clone, Debug)]
pub struct HttpExecutor {
    /// Built at the first request: building one costs milliseconds, which a process that
    /// answers one event and sends nothing (the bridge, on most events) must not pay.
    /// Shared by every clone of the executor, so that all its requests use one client and
    /// its pool of kept-alive connections.
    client: std::sync::Arc<std::sync::OnceLock<Result<reqwest::Client, String>>>,
    allowed: SharedList,
    max_response_bytes: usize,
    env: EnvLookup,
}

impl HttpExecutor {
    /// Builds the executor, checking the allow-list's patterns. Its HTTP client is built at
    /// the first request (a client that cannot be built fails that hook, and every later
    /// one, with the reason).
    ///
    /// # Errors
    ///
    /// [`Error::UrlPattern`] for an entry of `allowed_urls` that is not a valid pattern.
    pub fn new(config: HttpConfig) -> Result<HttpExecutor, Error> {
        let allowed = SharedList::default();
        allowed.set(compile(config.allowed_urls.as_deref())?);
        Ok(HttpExecutor {
            client: std::sync::Arc::default(),
            allowed,
            max_response_bytes: config.max_response_bytes,
            env: config.env,
        })
    }

    /// Whether a hook whose URL is `url` would be sent: it parses as an http(s) URL and the
    /// allow-list, if one is set, allows it. Hosts can use it to warn about a hook at load
    /// time rather than at its first run.
    pub fn allows(&self, url: &str) -> bool {
        Url::parse(url).is_ok_and(|url| permits(self.allowed.get().as_deref(), &url))
    }

    /// Replaces the allow-list (`None`: no list, see [`HttpConfig`]) for the runs and
    /// redirects that start from now on; runs under way keep the list they started with.
    ///
    /// # Errors
    ///
    /// [`Error::UrlPattern`] for an entry that is not a valid pattern; the list in force
    /// is then unchanged.
    pub fn set_allowed_urls(&self, patterns: Option<&[String]>) -> Result<(), Error> {
        self.allowed.set(compile(patterns)?);
        Ok(())
    }

    /// Builds the request, or says why the hook cannot be sent at all.
    fn request(
        &self,
        action: &HttpAction,
        body: Vec<u8>,
    ) -> Result<(reqwest::Request, Url), (FailureKind, String)> {
        let spawn = |message: String| (FailureKind::Spawn, message);
        let url = Url::parse(&action.url)
            .map_err(|e| spawn(format!("invalid URL `{}`: {e}", action.url)))?;
        if !matches!(url.scheme(), "http" | "https") {
            return Err(spawn(format!(
                "unsupported URL scheme `{}` (http hooks use http or https)",
                url.scheme()
            )));
        }
        if url.scheme() == "https" && !cfg!(feature = "tls") {
            return Err(spawn(format!(
                "{} needs TLS: build hooks-exec with the `tls` feature",
                redacted(&url)
            )));
        }
        if !permits(self.allowed.get().as_deref(), &url) {
            return Err((
                FailureKind::Refused,
                format!(
                    "{} is outside the allowed URLs, so no request was made",
                    redacted(&url)
                ),
            ));
        }
        let headers = self.headers(action).map_err(spawn)?;
        let request = self
            .client()
            .map_err(spawn)?
            .post(url.clone())
            .headers(headers)
            .body(body)
            .build()
            .map_err(|e| spawn(format!("could not build the request: {}", describe(e))))?;
        Ok((request, url))
    }

    /// The HTTP client, built on first use with the redirect policy of the allow-list.
    fn client(&self) -> Result<&reqwest::Client, String> {
        self.client
            .get_or_init(|| {
                let allowed = self.allowed.clone();
                let policy = Policy::custom(move |attempt| {
                    check_redirect(allowed.get().as_deref(), attempt)
                });
                reqwest::Client::builder()
                    .redirect(policy)
                    .user_agent(concat!("hooks/", env!("CARGO_PKG_VERSION")))
                    .build()
                    .map_err(|e| format!("the HTTP client cannot be built: {e}"))
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    /// The hook's headers, interpolated, plus `Content-Type: application/json` unless the
    /// hook sets its own.
    fn headers(&self, action: &HttpAction) -> Result<HeaderMap, String> {
        let mut headers = HeaderMap::with_capacity(action.headers.len() + 1);
        for (name, value) in &action.headers {
            let header = HeaderName::from_bytes(name.as_bytes())
                .map_err(|_| format!("invalid header name `{name}`"))?;
            let interpolated = interpolate(value, &action.allowed_env_vars, &self.env);
            let is_interpolated = interpolated != *value;
            // The value is never quoted: it may hold a secret read from the environment.
            let mut value = HeaderValue::from_str(&interpolated).map_err(|_| {
                format!("invalid value for header `{name}` (control characters or non-ASCII)")
            })?;
            value.set_sensitive(is_interpolated);
            headers.append(header, value);
        }
        if !headers.contains_key(CONTENT_TYPE) {
            headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        }
        Ok(headers)
    }

    /// Sends the request and reads the answer.
    async fn send(&self, event: &Event, request: reqwest::Request, url: &Url) -> HookOutcome {
        let client = match self.client() {
            Ok(client) => client,
            Err(e) => return HookOutcome::failed(FailureKind::Spawn, e),
        };
        let response = match client.execute(request).await {
            Ok(response) => response,
            Err(e) => {
                return HookOutcome::failed(
                    FailureKind::Transport,
                    format!("POST {}: {}", redacted(url), describe(e)),
                );
            }
        };
        let status = response.status();
        let (body, truncated) = match read_capped(response, self.max_response_bytes).await {
            Ok(read) => read,
            Err(e) => {
                return HookOutcome::failed(
                    FailureKind::Transport,
                    format!("reading the response of {}: {}", redacted(url), describe(e)),
                );
            }
        };
        let mut outcome = if !status.is_success() {
            let text = String::from_utf8_lossy(&body);
            let quoted = quote(text.trim(), ERROR_BODY_CHARS);
            HookOutcome::failed(
                FailureKind::NonZeroExit,
                if quoted.is_empty() {
                    format!("{} answered HTTP {status}", redacted(url))
                } else {
                    format!("{} answered HTTP {status}: {quoted}", redacted(url))
                },
            )
        } else if truncated {
            HookOutcome::failed(
                FailureKind::MalformedOutput,
                format!(
                    "the response body of {} is longer than the {}-byte cap",
                    redacted(url),
                    self.max_response_bytes
                ),
            )
        } else {
            parse_response_body(event, &body)
        };
        outcome.run.stdout_truncated = truncated;
        outcome
    }
}

#[async_trait]
impl Executor for HttpExecutor {
    async fn execute(&self, run: HookRun<'_>) -> HookOutcome {
        let started = Instant::now();
        let mut outcome = match &run.spec.action {
            Action::Http(action) => self.run(action, run).await,
            other => HookOutcome::failed(
                FailureKind::Spawn,
                format!("the http executor cannot run a {} hook", other.type_name()),
            ),
        };
        outcome.run.duration = Some(started.elapsed());
        outcome
    }
}

impl HttpExecutor {
    /// One run of an http hook, bounded by its timeout and the dispatch's cancellation.
    async fn run(&self, action: &HttpAction, run: HookRun<'_>) -> HookOutcome {
        let body = match serde_json::to_vec(&run.ctx.input_for(run.spec)) {
            Ok(body) => body,
            Err(e) => {
                return HookOutcome::failed(
                    FailureKind::Spawn,
                    format!("could not serialise the event: {e}"),
                );
            }
        };
        let (request, url) = match self.request(action, body) {
            Ok(built) => built,
            Err((kind, message)) => return HookOutcome::failed(kind, message),
        };
        let event = run.ctx.event();
        // Dropping the request future on timeout or cancellation closes its connection, so
        // nothing keeps talking to the server after the run has ended.
        tokio::select! {
            biased;
            () = run.cancel.cancelled() => HookOutcome::failed(
                FailureKind::Cancelled,
                format!("cancelled while waiting for {}", redacted(&url)),
            ),
            answer = tokio::time::timeout(run.timeout, self.send(event, request, &url)) => {
                answer.unwrap_or_else(|_| HookOutcome::failed(
                    FailureKind::Timeout,
                    format!(
                        "no complete answer from {} within {}",
                        redacted(&url),
                        humanize(run.timeout)
                    ),
                ))
            }
        }
    }
}

/// The redirect policy: follow redirects the allow-list allows (with no list, those that
/// stay on the hook's origin), up to [`MAX_REDIRECTS`].
fn check_redirect(
    allowed: Option<&UrlAllowList>,
    attempt: Attempt<'_>,
) -> reqwest::redirect::Action {
    // `previous` starts with the original URL, so it holds one entry per hop so far.
    let hops = attempt.previous();
    if hops.len() > MAX_REDIRECTS {
        let message = format!("more than {MAX_REDIRECTS} redirects");
        return attempt.error(message);
    }
    let target = attempt.url();
    let allowed_here = match allowed {
        Some(list) => list.allows(target),
        None => hops
            .first()
            .is_some_and(|hook| hook.origin() == target.origin()),
    };
    if allowed_here {
        attempt.follow()
    } else {
        let message = match allowed {
            Some(_) => format!(
                "redirect to {} is outside the allowed URLs, so it was not followed",
                redacted(target)
            ),
            None => format!(
                "redirect to {} leaves the hook's origin and no allowed URL list covers it, so it was not followed",
                redacted(target)
            ),
        };
        attempt.error(message)
    }
}

/// Whether a hook may be sent to `url`: with a list, when the list allows it; without one,
/// when it is an http(s) URL (the hook's own URL, allowed by the trust that loaded it).
fn permits(allowed: Option<&UrlAllowList>, url: &Url) -> bool {
    match allowed {
        Some(list) => list.allows(url),
        None => matches!(url.scheme(), "http" | "https"),
    }
}

/// The allow-list in force, shared by the executor and its client's redirect policy and
/// replaced whole, so a run reads one consistent list.
#[derive(Clone, Debug, Default)]
struct SharedList(Arc<RwLock<Option<Arc<UrlAllowList>>>>);

impl SharedList {
    fn get(&self) -> Option<Arc<UrlAllowList>> {
        self.0
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    fn set(&self, list: Option<UrlAllowList>) {
        *self.0.write().unwrap_or_else(PoisonError::into_inner) = list.map(Arc::new);
    }
}

/// Reads at most `cap` bytes of the body; `true` when more was there.
async fn read_capped(
    mut response: reqwest::Response,
    cap: usize,
) -> Result<(Vec<u8>, bool), reqwest::Error> {
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await? {
        let room = cap.saturating_sub(body.len());
        if chunk.len() > room {
            body.extend_from_slice(&chunk[..room]);
            return Ok((body, true));
        }
        body.extend_from_slice(&chunk);
    }
    Ok((body, false))
}

/// Replaces `$VAR` and `${VAR}` references: allowed variables by their value (empty when
/// unset), other variables by the empty string; see [`HttpConfig`].
fn interpolate(value: &str, allowed: &[String], env: &EnvLookup) -> String {
    let resolve = |name: &str| {
        if allowed.iter().any(|a| a == name) {
            env.get(name).unwrap_or_default()
        } else {
            String::new()
        }
    };
    let mut out = String::with_capacity(value.len());
    let mut rest = value;
    while let Some(dollar) = rest.find('$') {
        out.push_str(&rest[..dollar]);
        let after = &rest[dollar + 1..];
        if let Some(braced) = after.strip_prefix('{') {
            let name_len = name_len(braced);
            if name_len > 0 && braced[name_len..].starts_with('}') {
                out.push_str(&resolve(&braced[..name_len]));
                rest = &braced[name_len + 1..];
                continue;
            }
        } else {
            let name_len = name_len(after);
            if name_len > 0 {
                out.push_str(&resolve(&after[..name_len]));
                rest = &after[name_len..];
                continue;
            }
        }
        out.push('$');
        rest = after;
    }
    out.push_str(rest);
    out
}

/// The length of the variable name at the start of `s` (`[A-Za-z_][A-Za-z0-9_]*`), 0 if none.
fn name_len(s: &str) -> usize {
    let bytes = s.as_bytes();
    match bytes.first() {
        Some(b) if b.is_ascii_alphabetic() || *b == b'_' => bytes
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
            .count(),
        _ => 0,
    }
}

/// Compiles the host's allow-list with the one parser the config loader also checks
/// patterns with; `None` stays no list.
fn compile(patterns: Option<&[String]>) -> Result<Option<UrlAllowList>, Error> {
    let Some(patterns) = patterns else {
        return Ok(None);
    };
    UrlAllowList::parse(patterns)
        .map(Some)
        .map_err(|e| match e.kind() {
            ErrorKind::InvalidUrlPattern { pattern, reason } => Error::UrlPattern {
                pattern: pattern.clone(),
                reason: reason.clone(),
            },
            _ => Error::UrlPattern {
                pattern: String::new(),
                reason: e.to_string(),
            },
        })
}

/// A URL for messages: without credentials or query, which may hold secrets.
fn redacted(url: &Url) -> String {
    let mut shown = url.clone();
    // Setting these fails only for URLs that cannot have them, which then have none.
    let _ = shown.set_username("");
    let _ = shown.set_password(None);
    shown.set_query(None);
    shown.set_fragment(None);
    shown.to_string()
}

/// A reqwest error and its causes on one line, without the URL reqwest adds (which may
/// carry a query with secrets; callers name the URL themselves).
fn describe(error: reqwest::Error) -> String {
    let error = error.without_url();
    let mut message = error.to_string();
    let mut source = std::error::Error::source(&error);
    while let Some(cause) = source {
        let text = cause.to_string();
        // hyper and reqwest often repeat their cause's text in their own.
        if !message.contains(&text) {
            message.push_str(": ");
            message.push_str(&text);
        }
        source = cause.source();
    }
    message
}

/// The first `max` characters of `text`, with an ellipsis when cut.
pub(crate) fn quote(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    }
}

/// A timeout for messages: `300ms`, `5s`, `2.5s`.
pub(crate) fn humanize(duration: Duration) -> String {
    if duration.subsec_nanos() == 0 {
        format!("{}s", duration.as_secs())
    } else if duration < Duration::from_secs(1) {
        format!("{}ms", duration.as_millis())
    } else {
        format!("{:.1}s", duration.as_secs_f64())
    }
}

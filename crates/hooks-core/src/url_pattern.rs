//! The HTTP hook URL allow-list: parsing its patterns and matching URLs against them.
//!
//! One owner for the syntax: config loaders check each pattern where it is written (so a
//! bad one is reported at its line and column), the merge decides which http hooks the
//! list leaves active, and the HTTP executor checks every request and redirect, all with
//! these types.

use url::Url;

use crate::error::{Error, ErrorKind};

/// A compiled allow-list: a URL is allowed when any entry allows it. An empty list allows
/// nothing.
///
/// Each entry is one of:
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
/// - Any other entry with `*` is Claude Code's own form, a wildcard anywhere, the port
///   included: `http://localhost:*` allows every `http://localhost` URL, whatever its port
///   and path. `*` then stands for any run of characters of the URL written as
///   `scheme://host[:port]/path[?query]`.
///
/// URLs are normalised before matching (`/ci/../admin` is `/admin`), so dot segments cannot
/// walk out of an allowed path; host names match case-insensitively, and a trailing dot
/// (`hooks.example.com.`) is the name without it, as DNS treats them. Entries take no
/// query, fragment or credentials.
///
/// ```
/// use hooks_core::UrlAllowList;
///
/// let list = UrlAllowList::parse(["https://*.example.com/hooks/"]).unwrap();
/// assert!(list.allows_str("https://ci.example.com/hooks/run"));
/// assert!(!list.allows_str("https://ci.example.com/hooks/../admin"));
/// assert!(UrlAllowList::parse(["ftp://example.com/"]).is_err());
/// ```
#[derive(Clone, Debug, Default)]
pub struct UrlAllowList(Vec<UrlPattern>);

/// One compiled allow-list entry (see [`UrlAllowList`] for the syntax).
#[derive(Clone, Debug)]
pub struct UrlPattern(PatternKind);

#[derive(Clone, Debug)]
enum PatternKind {
    /// `*`: every http(s) URL.
    Any,
    /// A scheme, host, port and path rule.
    Url {
        scheme: String,
        host: HostPattern,
        port: Option<u16>,
        path: PathPattern,
    },
    /// Claude Code's wildcard form: `*` is any run of characters of the URL (see
    /// [`wildcard_subject`]); scheme and host already lower-cased, the host's trailing dot
    /// dropped.
    Wildcard(String),
}

/// How an entry's host matches.
#[derive(Clone, Debug)]
enum HostPattern {
    /// This host exactly (already lower-cased by the URL parser).
    Exact(String),
    /// Any strict subdomain: holds `.example.com` for `*.example.com`.
    Subdomains(String),
}

/// How an entry's path matches.
#[derive(Clone, Debug)]
enum PathPattern {
    /// The path itself or anything under it at a segment boundary.
    Segments(String),
    /// Any path starting with this string (an entry path ending in `*`).
    Raw(String),
}

impl UrlAllowList {
    /// Compiles every pattern, failing on the first invalid one.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidUrlPattern`] naming the pattern and what is wrong with it.
    pub fn parse<I, S>(patterns: I) -> Result<UrlAllowList, Error>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        patterns
            .into_iter()
            .map(|p| UrlPattern::parse(p.as_ref()))
            .collect::<Result<_, _>>()
            .map(UrlAllowList)
    }

    /// Whether any entry allows `url`.
    pub fn allows(&self, url: &Url) -> bool {
        self.0.iter().any(|p| p.allows(url))
    }

    /// Whether any entry allows `url`; a URL that does not parse is not allowed.
    pub fn allows_str(&self, url: &str) -> bool {
        Url::parse(url).is_ok_and(|url| self.allows(&url))
    }
}

impl From<Vec<UrlPattern>> for UrlAllowList {
    /// The list of these entries.
    fn from(patterns: Vec<UrlPattern>) -> UrlAllowList {
        UrlAllowList(patterns)
    }
}

impl UrlPattern {
    /// Compiles one entry; see [`UrlAllowList`] for the syntax.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidUrlPattern`] naming the pattern and what is wrong with it, with
    /// how to write it instead.
    pub fn parse(pattern: &str) -> Result<UrlPattern, Error> {
        let error = |reason: &str| {
            Error::new(ErrorKind::InvalidUrlPattern {
                pattern: pattern.to_owned(),
                reason: reason.to_owned(),
            })
        };
        let trimmed = pattern.trim();
        if trimmed == "*" {
            return Ok(UrlPattern(PatternKind::Any));
        }
        let url = match Url::parse(trimmed) {
            Ok(url) => url,
            Err(_) if trimmed.contains('*') => return wildcard(trimmed).map_err(&error),
            Err(e) => {
                return Err(error(&format!(
                    "{e}; write a full URL such as `https://hooks.example.com/` or `*` for any URL"
                )));
            }
        };
        if !matches!(url.scheme(), "http" | "https") {
            return Err(error("only http and https URLs can be allowed"));
        }
        if url.query().is_some() || url.fragment().is_some() {
            return Err(error("a pattern takes no query or fragment"));
        }
        if !url.username().is_empty() || url.password().is_some() {
            return Err(error("a pattern takes no user name or password"));
        }
        let host = match url.host_str() {
            Some(host) => match host.strip_prefix("*.") {
                Some(domain) if !domain.is_empty() && !domain.contains('*') => {
                    HostPattern::Subdomains(format!(".{domain}"))
                }
                Some(_) => return wildcard(trimmed).map_err(&error),
                None if host.contains('*') => {
                    return wildcard(trimmed).map_err(&error);
                }
                None => HostPattern::Exact(host.trim_end_matches('.').to_owned()),
            },
            None => return Err(error("the URL has no host")),
        };
        let path = url.path();
        let path = match path.strip_suffix('*') {
            Some(prefix) if !prefix.contains('*') => PathPattern::Raw(prefix.to_owned()),
            Some(_) => return wildcard(trimmed).map_err(&error),
            None if path.contains('*') => return wildcard(trimmed).map_err(&error),
            None => PathPattern::Segments(path.to_owned()),
        };
        Ok(UrlPattern(PatternKind::Url {
            scheme: url.scheme().to_owned(),
            host,
            port: url.port_or_known_default(),
            path,
        }))
    }

    /// Whether this entry allows `url`.
    pub fn allows(&self, url: &Url) -> bool {
        match &self.0 {
            PatternKind::Any => matches!(url.scheme(), "http" | "https"),
            PatternKind::Url {
                scheme,
                host,
                port,
                path,
            } => {
                url.scheme() == scheme
                    && url.port_or_known_default() == *port
                    && url
                        .host_str()
                        .is_some_and(|h| host.matches(h.trim_end_matches('.')))
                    && path.matches(url.path())
            }
            PatternKind::Wildcard(pattern) => {
                wildcard_subject(url).is_some_and(|subject| glob_matches(pattern, &subject))
            }
        }
    }
}

/// Compiles Claude Code's wildcard form: an http(s) URL where `*` may stand anywhere.
fn wildcard(pattern: &str) -> Result<UrlPattern, &'static str> {
    let Some((scheme, rest)) = pattern.split_once("://") else {
        return Err("write a full URL such as `https://hooks.example.com/*` or `*` for any URL");
    };
    let scheme = scheme.to_ascii_lowercase();
    if !matches!(scheme.as_str(), "http" | "https") {
        return Err("only http and https URLs can be allowed");
    }
    let (authority, path) = rest.find('/').map_or((rest, ""), |at| rest.split_at(at));
    if authority.contains('@') {
        return Err("a pattern takes no user name or password");
    }
    if path.contains('#') {
        return Err("a pattern takes no fragment");
    }
    // The host's trailing dot goes, as it does from the URLs matched.
    let authority = authority.to_ascii_lowercase();
    let authority = match authority.rsplit_once(':') {
        Some((host, port)) => format!("{}:{port}", host.trim_end_matches('.')),
        None => authority.trim_end_matches('.').to_owned(),
    };
    if authority.is_empty() {
        return Err("the URL has no host");
    }
    Ok(UrlPattern(PatternKind::Wildcard(format!(
        "{scheme}://{authority}{path}"
    ))))
}

/// The text a wildcard entry is matched against: `scheme://host[:port]/path[?query]` of
/// the normalised URL (never its credentials or fragment), the host without a trailing
/// dot; `None` for a URL that is not http(s) or has no host.
fn wildcard_subject(url: &Url) -> Option<String> {
    if !matches!(url.scheme(), "http" | "https") {
        return None;
    }
    let host = url.host_str()?.trim_end_matches('.');
    let port = url.port().map(|p| format!(":{p}")).unwrap_or_default();
    let query = url.query().map(|q| format!("?{q}")).unwrap_or_default();
    Some(format!(
        "{}://{host}{port}{}{query}",
        url.scheme(),
        url.path()
    ))
}

/// Whether `text` matches `pattern`, where `*` is any run of characters (none included)
/// and every other character stands for itself. Linear in practice: one backtrack point.
fn glob_matches(pattern: &str, text: &str) -> bool {
    let (p, t) = (pattern.as_bytes(), text.as_bytes());
    let (mut pi, mut ti) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        if pi < p.len() && p[pi] == b'*' {
            star = Some((pi, ti));
            pi += 1;
        } else if pi < p.len() && p[pi] == t[ti] {
            pi += 1;
            ti += 1;
        } else if let Some((sp, st)) = star {
            pi = sp + 1;
            ti = st + 1;
            star = Some((sp, st + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&c| c == b'*')
}

impl HostPattern {
    fn matches(&self, host: &str) -> bool {
        match self {
            HostPattern::Exact(exact) => host == exact,
            HostPattern::Subdomains(suffix) => host.len() > suffix.len() && host.ends_with(suffix),
        }
    }
}

impl PathPattern {
    fn matches(&self, path: &str) -> bool {
        match self {
            PathPattern::Raw(prefix) => path.starts_with(prefix.as_str()),
            PathPattern::Segments(base) => match path.strip_prefix(base.as_str()) {
                Some(rest) => rest.is_empty() || base.ends_with('/') || rest.starts_with('/'),
                None => false,
            },
        }
    }
}

//! The native format's `telemetry:` section: where OpenTelemetry export goes and what it
//! includes. Types and keys are checked against the schema; the values here, each problem
//! an error at its own file:line:col.

use hooks_core::TelemetrySettings;

use crate::error::DiagnosticKind;
use crate::file::TelemetrySection;
use crate::interpolate::{EnvScope, tokens};
use crate::reader::{Reader, field};
use crate::tree::{Node, Value};

/// The section's settings, `None` when the file has none.
pub(super) fn read(reader: &mut Reader<'_>, root: &Node) -> Option<TelemetrySection> {
    let entry = root.get("telemetry").filter(|e| e.value.value != Value::Null)?;
    let (pos, section) = (entry.key_pos, &entry.value);
    let mut settings = TelemetrySettings {
        enabled: reader.boolean(field(section, "enabled")),
        export_commands: reader.boolean(field(section, "export_commands")),
        ..TelemetrySettings::default()
    };
    if let Some(node) = field(section, "endpoint")
        && let Some(url) = node.as_str()
    {
        let url = reader.interp_in(url, node.pos, EnvScope::All);
        match endpoint_problem(&url) {
            None => settings.endpoint = Some(url.trim().to_owned()),
            Some(problem) => reader.error(
                DiagnosticKind::InvalidValue,
                node.pos,
                format!("telemetry `endpoint` {problem}"),
                Some("write the collector's base URL, as in `http://127.0.0.1:4318`; `/v1/traces` and `/v1/metrics` are appended".to_owned()),
            ),
        }
    }
    if let Some(node) = field(section, "service_name")
        && let Some(name) = node.as_str()
    {
        if name.trim().is_empty() {
            reader.error(
                DiagnosticKind::InvalidValue,
                node.pos,
                "telemetry `service_name` is empty",
                Some("name the service, or leave the key out for `agentic-hooks`".to_owned()),
            );
        } else {
            settings.service_name = Some(name.trim().to_owned());
        }
    }
    settings.headers = pairs(
        reader,
        field(section, "headers"),
        "headers",
        [header_name_problem, header_value_problem],
    );
    settings.resource_attributes = pairs(
        reader,
        field(section, "resource_attributes"),
        "resource_attributes",
        [|key| key.trim().is_empty().then(|| "is empty".to_owned()), |_| None],
    );
    Some(TelemetrySection {
        settings,
        line: pos.line,
        column: pos.col,
    })
}

/// The string table `node` (`{{ vars }}` and `{{ env }}` filled in), each key and value
/// checked by `[key_problem, value_problem]`: a bad entry is an error at the key or the
/// value, and left out.
fn pairs(
    reader: &mut Reader<'_>,
    node: Option<&Node>,
    name: &str,
    [key_problem, value_problem]: [fn(&str) -> Option<String>; 2],
) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for entry in node.and_then(Node::as_map).unwrap_or_default() {
        let Some(raw) = entry.value.as_str() else {
            continue;
        };
        let label = format!("telemetry `{name}.{}`", entry.key);
        if let Some(why) = key_problem(&entry.key) {
            reader.error(
                DiagnosticKind::InvalidValue,
                entry.key_pos,
                format!("{label}: the key {why}"),
                None,
            );
            continue;
        }
        if tokens(raw).iter().any(|t| t.namespace == "secrets") {
            reader.error(
                DiagnosticKind::InvalidValue,
                entry.value.pos,
                format!("{label}: `{{{{ secrets.NAME }}}}` is filled in only for hooks"),
                Some("read the value from the environment with `{{ env.NAME }}`".to_owned()),
            );
            continue;
        }
        let value = reader.interp_in(raw, entry.value.pos, EnvScope::All);
        match value_problem(&value) {
            None => out.push((entry.key.clone(), value)),
            Some(why) => reader.error(
                DiagnosticKind::InvalidValue,
                entry.value.pos,
                format!("{label}: the value {why}"),
                None,
            ),
        }
    }
    out
}

/// Why `url` is not a collector's endpoint, if it is not one.
fn endpoint_problem(url: &str) -> Option<String> {
    let url = url.trim();
    let rest = url
        .strip_prefix("http://")
        .or_else(|| url.strip_prefix("https://"));
    match rest {
        None => Some(format!("`{url}` is not an http:// or https:// URL")),
        Some(rest) if rest.split(['/', '?', '#']).next().is_none_or(str::is_empty) => {
            Some(format!("`{url}` names no host"))
        }
        Some(_) if url.chars().any(|c| c.is_whitespace() || c.is_control()) => {
            Some(format!("`{url}` holds a space or a control character"))
        }
        Some(_) => None,
    }
}

/// Why `name` cannot be an HTTP header's name, if it cannot.
fn header_name_problem(name: &str) -> Option<String> {
    let token = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c);
    (name.is_empty() || !name.chars().all(token))
        .then(|| "is not a valid HTTP header name".to_owned())
}

/// Why `value` cannot be an HTTP header's value, if it cannot.
fn header_value_problem(value: &str) -> Option<String> {
    value
        .chars()
        .any(|c| c.is_control() && c != '\t')
        .then(|| "holds a control character (a line break?)".to_owned())
}

//! Templating of an `mcp_tool` hook's arguments from the event: `{{ tool_input.command }}`
//! references in string values, replaced by values of the event's JSON.

use serde_json::Value;

/// Renders `input` against `event` (the event's JSON, as the hook's dialect sees it).
///
/// Every string value, at any depth, may hold `{{ path }}` references, where `path` is a
/// dotted path into `event` (`tool_name`, `tool_input.command`, `tool_input.args.0`;
/// numeric segments index arrays). Object keys and non-string values are kept as they are.
///
/// - A string that is exactly one reference (spaces inside the braces allowed) takes the
///   referenced JSON value as it is: `"{{ tool_input }}"` becomes the input object.
/// - Elsewhere a reference is replaced by its text: a string as it is, any other value as
///   compact JSON.
/// - A reference to a missing field is `null` as a whole value and empty text inside a
///   string, since most fields exist only for some events (`file_path`, `prompt`).
/// - Braces that do not hold a path (`{{ }}`, `{{ a b }}`, an unclosed `{{`) stay as written.
pub(crate) fn render(input: &Value, event: &Value) -> Value {
    match input {
        Value::String(text) => render_string(text, event),
        Value::Array(items) => Value::Array(items.iter().map(|v| render(v, event)).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), render(v, event)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Renders one string value.
fn render_string(text: &str, event: &Value) -> Value {
    if let Some(path) = whole_reference(text) {
        return lookup(event, path).cloned().unwrap_or(Value::Null);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find("{{") {
        let inner_start = open + 2;
        let Some(close) = rest[inner_start..].find("}}") else {
            break;
        };
        let inner = rest[inner_start..inner_start + close].trim();
        if is_path(inner) {
            out.push_str(&rest[..open]);
            push_text(&mut out, lookup(event, inner));
            rest = &rest[inner_start + close + 2..];
        } else {
            // Not a reference: keep the opening braces and look again after them.
            out.push_str(&rest[..inner_start]);
            rest = &rest[inner_start..];
        }
    }
    out.push_str(rest);
    Value::String(out)
}

/// The path of a string that is exactly one `{{ path }}` reference.
fn whole_reference(text: &str) -> Option<&str> {
    let inner = text.strip_prefix("{{")?.strip_suffix("}}")?.trim();
    is_path(inner).then_some(inner)
}

/// Whether `text` is a dotted path of non-empty `[A-Za-z0-9_-]` segments.
fn is_path(text: &str) -> bool {
    !text.is_empty()
        && text.split('.').all(|segment| {
            !segment.is_empty()
                && segment
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
        })
}

/// The value at `path` in `value`, if there is one.
fn lookup<'a>(value: &'a Value, path: &str) -> Option<&'a Value> {
    path.split('.')
        .try_fold(value, |current, segment| match current {
            Value::Object(map) => map.get(segment),
            Value::Array(items) => segment.parse::<usize>().ok().and_then(|i| items.get(i)),
            _ => None,
        })
}

/// Appends a referenced value as text: strings as they are, null and missing as nothing,
/// anything else as compact JSON.
fn push_text(out: &mut String, value: Option<&Value>) {
    match value {
        None | Some(Value::Null) => {}
        Some(Value::String(s)) => out.push_str(s),
        Some(other) => out.push_str(&other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::render;

    #[track_caller]
    fn check(input: Value, expected: Value) {
        let event = json!({
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": "rm -rf /", "args": ["-r", "-f"], "timeout": 30},
            "stop_hook_active": false,
            "nothing": null,
        });
        assert_eq!(render(&input, &event), expected);
    }

    #[test]
    fn whole_references_keep_their_json_type() {
        check(json!("{{ tool_name }}"), json!("Bash"));
        check(
            json!("{{tool_input}}"),
            json!({"command": "rm -rf /", "args": ["-r", "-f"], "timeout": 30}),
        );
        check(json!("{{ tool_input.timeout }}"), json!(30));
        check(json!("{{ tool_input.args.1 }}"), json!("-f"));
        check(json!("{{ stop_hook_active }}"), json!(false));
        check(json!("{{ missing.field }}"), Value::Null);
        check(json!("{{ tool_input.args.9 }}"), Value::Null);
    }

    #[test]
    fn references_inside_text_become_text() {
        check(
            json!("run {{ tool_input.command }} now"),
            json!("run rm -rf / now"),
        );
        check(
            json!("{{ tool_name }}: {{ tool_input.timeout }}s"),
            json!("Bash: 30s"),
        );
        check(
            json!("args={{ tool_input.args }}"),
            json!(r#"args=["-r","-f"]"#),
        );
        check(json!("[{{ missing }}][{{ nothing }}]"), json!("[][]"));
    }

    #[test]
    fn non_references_stay_as_written() {
        check(json!("{{ }}"), json!("{{ }}"));
        check(json!("{{ a b }} {{ tool_name }}"), json!("{{ a b }} Bash"));
        check(json!("open {{ tool_name"), json!("open {{ tool_name"));
        check(json!("{{{ tool_name }}}"), json!("{{{ tool_name }}}"));
        check(json!("plain"), json!("plain"));
    }

    #[test]
    fn nested_values_are_rendered_and_keys_are_not() {
        check(
            json!({"{{ tool_name }}": ["{{ tool_name }}", 1, {"cmd": "{{ tool_input.command }}"}], "n": null}),
            json!({"{{ tool_name }}": ["Bash", 1, {"cmd": "rm -rf /"}], "n": null}),
        );
    }
}

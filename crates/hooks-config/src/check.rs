//! Structural validation: a parsed file checked against its dialect's JSON Schema (from
//! [`crate::schema`]), reporting every unknown key (with a did-you-mean or rename hint),
//! missing key, wrong type and value outside its set, each at its line and column.
//!
//! Only the parts of JSON Schema that the generated schemas use are understood: `$ref`,
//! `type`, `enum`, `const`, `properties`, `required`, `additionalProperties`, `items`,
//! `anyOf`, `oneOf` and `minimum`.

use serde_json::Value as Json;

use crate::error::{Diagnostic, DiagnosticKind};
use crate::reader::Reader;
use crate::schema::FileSchema;
use crate::source::Source;
use crate::tree::{Node, Value};

/// Gives a targeted hint for an unknown key: the path of the table it is in (keys, with
/// `[]` for list items) and the key. `None` falls back to a did-you-mean.
pub(crate) type RenameHint = fn(&[String], &str) -> Option<String>;

/// Whether a parsed file is a table to read: its top must be one (else an error says so);
/// an empty document is none, with nothing to check or read.
pub(crate) fn top_table(reader: &mut Reader<'_>, root: &Node) -> bool {
    if root.as_map().is_none() && root.value != Value::Null {
        reader.error(
            DiagnosticKind::WrongType,
            root.pos,
            format!(
                "expected a table at the top of the file, found {}",
                root.type_name()
            ),
            None,
        );
        return false;
    }
    root.as_map().is_some()
}

/// Checks a parsed file against its dialect's schema, into the reader's structural
/// diagnostics.
pub(crate) fn file(reader: &mut Reader<'_>, schema: FileSchema, root: &Node, renames: RenameHint) {
    check(
        reader.src,
        schema.schema(),
        root,
        renames,
        &mut reader.structural,
    );
}

/// Checks `node` against `schema`, appending diagnostics.
pub(crate) fn check(
    src: &Source,
    schema: &Json,
    node: &Node,
    renames: RenameHint,
    diags: &mut Vec<Diagnostic>,
) {
    let checker = Checker {
        src,
        root: schema,
        renames,
        hints_left: std::cell::Cell::new(HINT_BUDGET),
    };
    let mut path = Vec::new();
    checker.node(schema, node, &mut path, diags);
}

/// How many did-you-mean hints one check computes. Past that (a file with thousands of
/// unknown keys is not a typo), errors come without one, so a hostile file costs little.
const HINT_BUDGET: usize = 200;

struct Checker<'a> {
    src: &'a Source,
    root: &'a Json,
    renames: RenameHint,
    hints_left: std::cell::Cell<usize>,
}

fn type_matches(ty: &str, node: &Node) -> bool {
    match (&node.value, ty) {
        (Value::Null, "null")
        | (Value::Bool(_), "boolean")
        | (Value::Int(_), "integer" | "number")
        | (Value::Float(_), "number")
        | (Value::Str(_), "string")
        | (Value::Seq(_), "array")
        | (Value::Map(_), "object") => true,
        (Value::Float(f), "integer") => f.fract() == 0.0,
        _ => false,
    }
}

fn type_word(ty: &str) -> &'static str {
    hooks_core::ValueType::from_schema(ty).map_or("a value of another type", |t| t.word())
}

fn types_of(schema: &Json) -> Vec<&str> {
    match schema.get("type") {
        Some(Json::String(t)) => vec![t.as_str()],
        Some(Json::Array(ts)) => ts.iter().filter_map(Json::as_str).collect(),
        _ => Vec::new(),
    }
}

fn describe_path(path: &[String]) -> String {
    let mut out = String::new();
    for part in path {
        if part.starts_with('[') {
            out.push_str(part);
        } else {
            if !out.is_empty() {
                out.push('.');
            }
            out.push_str(part);
        }
    }
    out
}

impl<'a> Checker<'a> {
    fn resolve(&self, schema: &'a Json) -> &'a Json {
        let mut schema = schema;
        // References only point into `$defs`; a bounded loop guards against cycles.
        for _ in 0..16 {
            let Some(reference) = schema.get("$ref").and_then(Json::as_str) else {
                break;
            };
            let Some(target) = reference
                .strip_prefix('#')
                .and_then(|p| self.root.pointer(p))
            else {
                break;
            };
            schema = target;
        }
        schema
    }

    fn error(
        &self,
        diags: &mut Vec<Diagnostic>,
        kind: DiagnosticKind,
        node_pos: crate::tree::Pos,
        message: String,
        hint: Option<String>,
    ) {
        let d = Diagnostic::error(kind, message).with_hint_opt(hint);
        diags.push(self.src.diag(d, node_pos));
    }

    /// A value of the wrong JSON type: says which types would do, with what the key is for
    /// (its schema's description) as the hint.
    fn wrong_type(
        &self,
        diags: &mut Vec<Diagnostic>,
        node: &Node,
        expected: &[&str],
        about: Option<&str>,
    ) {
        let message = format!(
            "expected {}, found {}",
            expected.join(" or "),
            node.type_name()
        );
        let hint = about.map(|d| d.split_whitespace().collect::<Vec<_>>().join(" "));
        self.error(diags, DiagnosticKind::WrongType, node.pos, message, hint);
    }

    fn node(
        &self,
        schema: &'a Json,
        node: &Node,
        path: &mut Vec<String>,
        diags: &mut Vec<Diagnostic>,
    ) {
        self.value(schema, node, path, None, diags);
    }

    /// Checks `node` against `schema`; `outer` is the description of the alternative
    /// `schema` is a branch of, if any.
    fn value(
        &self,
        schema: &'a Json,
        node: &Node,
        path: &mut Vec<String>,
        outer: Option<&'a str>,
        diags: &mut Vec<Diagnostic>,
    ) {
        let raw = schema;
        let schema = self.resolve(schema);
        let Json::Object(_) = schema else {
            // `true` (anything) or `false` (nothing; not generated).
            return;
        };
        // A key's own description says more than its type's.
        let about = raw
            .get("description")
            .and_then(Json::as_str)
            .or(outer)
            .or_else(|| schema.get("description").and_then(Json::as_str));
        if let Some(branches) = schema
            .get("anyOf")
            .or_else(|| schema.get("oneOf"))
            .and_then(Json::as_array)
        {
            self.alternatives(branches, node, path, about, diags);
            return;
        }
        let types = types_of(schema);
        if !types.is_empty() && !types.iter().any(|t| type_matches(t, node)) {
            let expected: Vec<&str> = types
                .iter()
                .filter(|t| **t != "null")
                .map(|t| type_word(t))
                .collect();
            self.wrong_type(diags, node, &expected, about);
            return;
        }
        if let Some(allowed) = schema.get("enum").and_then(Json::as_array) {
            self.one_of_values(allowed, node, diags);
        }
        if let Some(constant) = schema.get("const") {
            self.one_of_values(std::slice::from_ref(constant), node, diags);
        }
        if let (Some(min), Value::Int(i)) =
            (schema.get("minimum").and_then(Json::as_f64), &node.value)
            && (*i as f64) < min
        {
            self.error(
                diags,
                DiagnosticKind::InvalidValue,
                node.pos,
                format!("{i} is less than the minimum, {min}"),
                None,
            );
        }
        match &node.value {
            Value::Map(entries) => self.object(schema, node, entries, path, diags),
            Value::Seq(items) => {
                if let Some(item_schema) = schema.get("items") {
                    for (i, item) in items.iter().enumerate() {
                        path.push(format!("[{i}]"));
                        self.node(item_schema, item, path, diags);
                        path.pop();
                    }
                }
            }
            _ => {}
        }
    }

    fn one_of_values(&self, allowed: &[Json], node: &Node, diags: &mut Vec<Diagnostic>) {
        let json = node.to_json();
        if allowed.contains(&json) {
            return;
        }
        let names: Vec<&str> = allowed.iter().filter_map(Json::as_str).collect();
        let shown = match &json {
            Json::String(s) => format!("`{s}`"),
            other => other.to_string(),
        };
        let hint = json
            .as_str()
            .and_then(|s| hooks_core::did_you_mean(s, names.iter().copied()))
            .map(|s| format!("did you mean `{s}`?"));
        self.error(
            diags,
            DiagnosticKind::InvalidValue,
            node.pos,
            format!("{shown} is not one of: {}", names.join(", ")),
            hint,
        );
    }

    fn alternatives(
        &self,
        branches: &'a [Json],
        node: &Node,
        path: &mut Vec<String>,
        about: Option<&'a str>,
        diags: &mut Vec<Diagnostic>,
    ) {
        // An enum whose variants are documented is generated as `oneOf` constants: one
        // list of allowed values, not alternatives to choose between.
        let constants: Option<Vec<Json>> = branches
            .iter()
            .map(|b| self.resolve(b).get("const").cloned())
            .collect();
        if let Some(constants) = constants {
            if !matches!(node.value, Value::Str(_)) && constants.iter().all(Json::is_string) {
                self.wrong_type(diags, node, &["a string"], about);
            } else {
                self.one_of_values(&constants, node, diags);
            }
            return;
        }
        // Branches that could take this kind of value (those that say nothing about the
        // type, like a nested `anyOf`, might); the one with the fewest errors speaks.
        let mut fitting: Option<Vec<Diagnostic>> = None;
        for branch in branches {
            let resolved = self.resolve(branch);
            let types = types_of(resolved);
            let fits = types.is_empty() || types.iter().any(|t| type_matches(t, node));
            if !fits {
                continue;
            }
            let mut scratch = Vec::new();
            self.value(branch, node, path, about, &mut scratch);
            if scratch.is_empty() {
                return;
            }
            if fitting.as_ref().is_none_or(|f| scratch.len() < f.len()) {
                fitting = Some(scratch);
            }
        }
        if let Some(errors) = fitting {
            diags.extend(errors);
            return;
        }
        // No branch takes this type of value: say which types would do.
        let mut expected: Vec<&str> = Vec::new();
        self.expected_types(branches, &mut expected);
        self.wrong_type(diags, node, &expected, about);
    }

    /// The types the branches accept (null left out), nested alternatives included.
    fn expected_types(&self, branches: &'a [Json], out: &mut Vec<&'static str>) {
        for branch in branches {
            let resolved = self.resolve(branch);
            if let Some(inner) = resolved
                .get("anyOf")
                .or_else(|| resolved.get("oneOf"))
                .and_then(Json::as_array)
            {
                self.expected_types(inner, out);
            }
            for t in types_of(resolved) {
                let word = type_word(t);
                if t != "null" && !out.contains(&word) {
                    out.push(word);
                }
            }
        }
    }

    fn object(
        &self,
        schema: &'a Json,
        node: &Node,
        entries: &[crate::tree::Entry],
        path: &mut Vec<String>,
        diags: &mut Vec<Diagnostic>,
    ) {
        let properties = schema.get("properties").and_then(Json::as_object);
        let additional = schema.get("additionalProperties");
        for entry in entries {
            let sub = properties.and_then(|p| p.get(&entry.key));
            match (sub, additional) {
                (Some(sub), _) => {
                    path.push(entry.key.clone());
                    self.node(sub, &entry.value, path, diags);
                    path.pop();
                }
                (None, Some(Json::Bool(false))) => {
                    let budget = self.hints_left.get();
                    self.hints_left.set(budget.saturating_sub(1));
                    let hint = (self.renames)(path, &entry.key)
                        .filter(|_| budget > 0)
                        .or_else(|| {
                            if budget == 0 {
                                return None;
                            }
                            let names = properties
                                .into_iter()
                                .flat_map(|p| p.keys().map(String::as_str));
                            hooks_core::did_you_mean(&entry.key, names)
                                .map(|s| format!("did you mean `{s}`?"))
                        });
                    let place = describe_path(path);
                    let message = if place.is_empty() {
                        format!("unknown key `{}`", entry.key)
                    } else {
                        format!("unknown key `{}` in `{place}`", entry.key)
                    };
                    self.error(
                        diags,
                        DiagnosticKind::UnknownKey,
                        entry.key_pos,
                        message,
                        hint,
                    );
                }
                (None, Some(sub @ Json::Object(_))) => {
                    path.push(entry.key.clone());
                    self.node(sub, &entry.value, path, diags);
                    path.pop();
                }
                (None, _) => {}
            }
        }
        if let Some(required) = schema.get("required").and_then(Json::as_array) {
            for key in required.iter().filter_map(Json::as_str) {
                if !entries.iter().any(|e| e.key == key) {
                    let place = describe_path(path);
                    let message = if place.is_empty() {
                        format!("missing key `{key}`")
                    } else {
                        format!("missing key `{key}` in `{place}`")
                    };
                    self.error(diags, DiagnosticKind::MissingKey, node.pos, message, None);
                }
            }
        }
    }
}

//! JSON-RPC 2.0 messages: classifying what arrives, building what leaves, error codes,
//! and reading a request's params.

use serde_json::{Map, Value, json};

/// The message is not JSON.
pub(crate) const PARSE_ERROR: i64 = -32700;
/// The JSON is not a valid request (or the server is shutting down).
pub(crate) const INVALID_REQUEST: i64 = -32600;
/// No such method.
pub(crate) const METHOD_NOT_FOUND: i64 = -32601;
/// The params are wrong: a missing or unknown parameter, an unknown event.
pub(crate) const INVALID_PARAMS: i64 = -32602;
/// The server failed (a response that could not be encoded).
pub(crate) const INTERNAL_ERROR: i64 = -32603;
/// The config did not load (implementation-defined server error range).
pub(crate) const CONFIG_ERROR: i64 = -32001;
/// The client cancelled the request with `$/cancelRequest` (LSP's code).
pub(crate) const REQUEST_CANCELLED: i64 = -32800;

/// A JSON-RPC error object.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct RpcError {
    pub(crate) code: i64,
    pub(crate) message: String,
    pub(crate) data: Option<Value>,
}

impl RpcError {
    pub(crate) fn new(code: i64, message: impl Into<String>) -> RpcError {
        RpcError {
            code,
            message: message.into(),
            data: None,
        }
    }

    pub(crate) fn with_data(mut self, data: Value) -> RpcError {
        self.data = Some(data);
        self
    }

    pub(crate) fn invalid_params(message: impl Into<String>) -> RpcError {
        RpcError::new(INVALID_PARAMS, message)
    }

    fn to_value(&self) -> Value {
        let mut error = Map::new();
        error.insert("code".into(), self.code.into());
        error.insert("message".into(), self.message.clone().into());
        if let Some(data) = &self.data {
            error.insert("data".into(), data.clone());
        }
        Value::Object(error)
    }
}

/// A message from the client, checked against JSON-RPC 2.0.
#[derive(Debug, PartialEq)]
pub(crate) enum Incoming {
    /// A request: it gets exactly one response.
    Request {
        id: Value,
        method: String,
        params: Option<Value>,
    },
    /// A notification (no `id`): it gets no response.
    Notification {
        method: String,
        params: Option<Value>,
    },
    /// A response; this server sends no requests, so there is nothing to match it to.
    Response,
}

/// Checks one message. An invalid one comes back as the error response to send, with the
/// request's id where it could be read (else `null`).
pub(crate) fn classify(message: Value) -> Result<Incoming, Value> {
    let Value::Object(mut object) = message else {
        let error = RpcError::new(
            INVALID_REQUEST,
            format!("a message must be a JSON object, not {}", kind(&message)),
        );
        return Err(failure(Value::Null, &error));
    };
    let id = object.remove("id");
    if let Some(id) = &id
        && !(id.is_string() || id.is_number() || id.is_null())
    {
        let error = RpcError::new(
            INVALID_REQUEST,
            format!("`id` must be a string, a number or null, not {}", kind(id)),
        );
        return Err(failure(Value::Null, &error));
    }
    let reply_to = id.clone().unwrap_or(Value::Null);
    let invalid = |message: String| {
        Err(failure(
            reply_to.clone(),
            &RpcError::new(INVALID_REQUEST, message),
        ))
    };
    match object.get("jsonrpc") {
        Some(Value::String(v)) if v == "2.0" => {}
        Some(other) => return invalid(format!("`jsonrpc` must be \"2.0\", not {other}")),
        None => return invalid("`jsonrpc` is missing; it must be \"2.0\"".to_owned()),
    }
    let method = match object.remove("method") {
        Some(Value::String(m)) => m,
        Some(other) => return invalid(format!("`method` must be a string, not {}", kind(&other))),
        None if id.is_some() && (object.contains_key("result") || object.contains_key("error")) => {
            return Ok(Incoming::Response);
        }
        None => return invalid("`method` is missing".to_owned()),
    };
    let params = match object.remove("params") {
        // JSON-RPC says to omit absent params; some clients send null instead.
        None | Some(Value::Null) => None,
        Some(p @ (Value::Object(_) | Value::Array(_))) => Some(p),
        Some(other) => {
            return invalid(format!(
                "`params` must be an object or an array, not {}",
                kind(&other)
            ));
        }
    };
    Ok(match id {
        Some(id) => Incoming::Request { id, method, params },
        None => Incoming::Notification { method, params },
    })
}

/// A success response.
pub(crate) fn success(id: Value, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

/// An error response.
pub(crate) fn failure(id: Value, error: &RpcError) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": error.to_value()})
}

/// A notification from the server.
pub(crate) fn notification(method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "method": method, "params": params})
}

/// The response to a request: its result or its error.
pub(crate) fn response(id: Value, outcome: Result<Value, RpcError>) -> Value {
    match outcome {
        Ok(result) => success(id, result),
        Err(error) => failure(id, &error),
    }
}

/// A request's params, by name (an object) or by position (an array, in the order the
/// method declares).
#[derive(Debug)]
pub(crate) struct Params {
    method: &'static str,
    values: Map<String, Value>,
}

impl Params {
    /// Reads `params` for `method`, whose parameters are `names`; an unknown name or a
    /// surplus position is an error naming it.
    pub(crate) fn parse(
        method: &'static str,
        params: Option<Value>,
        names: &[&str],
    ) -> Result<Params, RpcError> {
        let values = match params {
            None => Map::new(),
            Some(Value::Object(map)) => {
                if let Some(unknown) = map.keys().find(|k| !names.contains(&k.as_str())) {
                    let hint = hooks::core::did_you_mean(unknown, names.iter().copied())
                        .map(|s| format!(" (did you mean `{s}`?)"))
                        .unwrap_or_default();
                    return Err(RpcError::invalid_params(format!(
                        "`{method}` has no parameter `{unknown}`{hint}; it takes {}",
                        list(names)
                    )));
                }
                map
            }
            Some(Value::Array(items)) => {
                if items.len() > names.len() {
                    return Err(RpcError::invalid_params(format!(
                        "`{method}` takes at most {} positional parameters ({}), not {}",
                        names.len(),
                        list(names),
                        items.len()
                    )));
                }
                names.iter().map(|n| (*n).to_owned()).zip(items).collect()
            }
            Some(other) => {
                return Err(RpcError::invalid_params(format!(
                    "params must be an object or an array, not {}",
                    kind(&other)
                )));
            }
        };
        Ok(Params { method, values })
    }

    /// The parameter `name`, if given and not null.
    pub(crate) fn take(&mut self, name: &str) -> Option<Value> {
        self.values.remove(name).filter(|v| !v.is_null())
    }

    /// The string parameter `name`, which must be given.
    pub(crate) fn required_str(&mut self, name: &str) -> Result<String, RpcError> {
        match self.take(name) {
            Some(Value::String(s)) => Ok(s),
            Some(other) => Err(RpcError::invalid_params(format!(
                "`{name}` of `{}` must be a string, not {}",
                self.method,
                kind(&other)
            ))),
            None => Err(RpcError::invalid_params(format!(
                "`{}` needs the parameter `{name}`",
                self.method
            ))),
        }
    }
}

fn list(names: &[&str]) -> String {
    if names.is_empty() {
        return "none".to_owned();
    }
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The JSON type of `value`, for messages.
pub(crate) use hooks::core::json_kind as kind;

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[track_caller]
    fn check(message: Value, expect: Result<Incoming, (Value, i64)>) {
        let got =
            classify(message).map_err(|r| (r["id"].clone(), r["error"]["code"].as_i64().unwrap()));
        assert_eq!(got, expect);
    }

    #[test]
    fn requests_notifications_and_responses() {
        check(
            json!({"jsonrpc": "2.0", "id": 1, "method": "hooks/list"}),
            Ok(Incoming::Request {
                id: json!(1),
                method: "hooks/list".into(),
                params: None,
            }),
        );
        check(
            json!({"jsonrpc": "2.0", "method": "exit"}),
            Ok(Incoming::Notification {
                method: "exit".into(),
                params: None,
            }),
        );
        check(
            json!({"jsonrpc": "2.0", "id": "a", "result": null}),
            Ok(Incoming::Response),
        );
    }

    #[test]
    fn invalid_requests_keep_the_id_they_could_read() {
        check(json!([1]), Err((Value::Null, INVALID_REQUEST)));
        check(
            json!({"jsonrpc": "2.0", "id": [1], "method": "x"}),
            Err((Value::Null, INVALID_REQUEST)),
        );
        check(
            json!({"id": 7, "method": "x"}),
            Err((json!(7), INVALID_REQUEST)),
        );
        check(
            json!({"jsonrpc": "1.0", "id": 7, "method": "x"}),
            Err((json!(7), INVALID_REQUEST)),
        );
        check(
            json!({"jsonrpc": "2.0", "id": 7, "method": 3}),
            Err((json!(7), INVALID_REQUEST)),
        );
        check(
            json!({"jsonrpc": "2.0", "id": 7}),
            Err((json!(7), INVALID_REQUEST)),
        );
        check(
            json!({"jsonrpc": "2.0", "id": 7, "method": "x", "params": "p"}),
            Err((json!(7), INVALID_REQUEST)),
        );
    }

    #[test]
    fn params_by_name_and_by_position() {
        let mut p = Params::parse(
            "hooks/dispatch",
            Some(json!(["PreToolUse", {"a": 1}])),
            &["event", "payload"],
        )
        .unwrap();
        assert_eq!(p.required_str("event").unwrap(), "PreToolUse");
        assert_eq!(p.take("payload"), Some(json!({"a": 1})));

        let err = Params::parse(
            "hooks/dispatch",
            Some(json!({"evnt": "x"})),
            &["event", "payload"],
        )
        .unwrap_err();
        assert_eq!(err.code, INVALID_PARAMS);
        assert_eq!(
            err.message,
            "`hooks/dispatch` has no parameter `evnt` (did you mean `event`?); it takes `event`, `payload`"
        );
        let mut p = Params::parse("hooks/dispatch", None, &["event"]).unwrap();
        assert_eq!(
            p.required_str("event").unwrap_err().message,
            "`hooks/dispatch` needs the parameter `event`"
        );
    }
}

//! A scripted model server on 127.0.0.1 that speaks the four model APIs the real agents
//! call: Anthropic's Messages API (Claude Code), Google's Gemini API (Gemini CLI),
//! OpenAI's Responses API (Codex CLI) and OpenAI's Chat Completions (Cline's
//! OpenAI-compatible provider), streaming as each agent asks. It follows a script
//! (for example one shell tool call, then a final text) and keeps every request it gets,
//! so a test can assert what reached the model: the tool result carrying a hook's reason,
//! the context a hook added.
//!
//! Which step of the script answers a request is read from the request itself: the number
//! of tool results in the conversation so far. So a retried request, or a side request
//! the agent makes between turns, never moves the script on.

use std::io::Write;
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use serde_json::{Value, json};

use crate::support::{HttpRequest, read_http};

/// The most requests the server answers; past that it answers 500, so an agent that
/// loops cannot make a test run forever (the harness's timeout ends it).
const MAX_REQUESTS: usize = 200;

/// The model API a server speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Api {
    /// Anthropic's Messages API: `POST /v1/messages`, SSE or JSON; `HEAD /`.
    Anthropic,
    /// OpenAI's Chat Completions: `POST /v1/chat/completions`, SSE `chat.completion.chunk`s.
    ChatCompletions,
    /// Google's Gemini API: `:generateContent` (JSON) and `:streamGenerateContent?alt=sse`.
    Gemini,
    /// OpenAI's Responses API: `POST /v1/responses`, SSE.
    OpenAi,
}

/// One answer of the model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Step {
    /// A call of the agent's shell tool with this command line.
    Shell(String),
    /// A call of the agent's tool of this name with these arguments, as its model writes
    /// them (Gemini CLI's `replace` with `file_path`, `old_string`, ...).
    Tool(String, Value),
    /// A final text, which ends the agent's turn.
    Text(String),
}

/// The text the model answers once the script is used up.
const DONE: &str = "Done.";

/// What one request to the server was.
#[derive(Debug, Clone)]
pub(crate) struct Recorded {
    /// The request as received.
    pub(crate) request: HttpRequest,
    /// The body as JSON (`Value::Null` when empty or not JSON).
    pub(crate) body: Value,
    /// Whether this was a conversation turn (answered from the script), not a side
    /// request (a routing call, a token count, a probe).
    pub(crate) turn: bool,
}

/// A running server. It stops when dropped.
pub(crate) struct ModelServer {
    api: Api,
    port: u16,
    requests: Arc<Mutex<Vec<Recorded>>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl ModelServer {
    /// Binds 127.0.0.1 on a free port and serves `api` by `script` until dropped.
    pub(crate) fn start(api: Api, script: Vec<Step>) -> ModelServer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("binding the model server");
        let port = listener
            .local_addr()
            .expect("the model server's port")
            .port();
        let requests = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let script = Arc::new(script);
        let thread = {
            let requests = Arc::clone(&requests);
            let stop = Arc::clone(&stop);
            std::thread::spawn(move || {
                for conn in listener.incoming() {
                    if stop.load(Ordering::SeqCst) {
                        return;
                    }
                    let Ok(conn) = conn else { continue };
                    let requests = Arc::clone(&requests);
                    let script = Arc::clone(&script);
                    std::thread::spawn(move || serve(api, &script, conn, &requests));
                }
            })
        };
        ModelServer {
            api,
            port,
            requests,
            stop,
            thread: Some(thread),
        }
    }

    /// The base URL an agent is given: `http://127.0.0.1:PORT`, plus `/v1` for OpenAI.
    pub(crate) fn base_url(&self) -> String {
        match self.api {
            Api::Anthropic | Api::Gemini => format!("http://127.0.0.1:{}", self.port),
            Api::ChatCompletions | Api::OpenAi => format!("http://127.0.0.1:{}/v1", self.port),
        }
    }

    /// Every request received so far, in order.
    pub(crate) fn requests(&self) -> Vec<Recorded> {
        self.requests.lock().expect("requests lock").clone()
    }
}

impl Drop for ModelServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wakes the accept loop so that it sees the flag.
        let _ = TcpStream::connect(("127.0.0.1", self.port));
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Serves one connection: one request, one answer, then close.
fn serve(api: Api, script: &[Step], mut conn: TcpStream, requests: &Mutex<Vec<Recorded>>) {
    let _ = conn.set_write_timeout(Some(Duration::from_secs(30)));
    let Some(request) = read_http(&mut conn) else {
        return;
    };
    let body: Value = serde_json::from_slice(&request.body).unwrap_or(Value::Null);
    let answer = answer(api, script, &request, &body);
    let count = {
        let mut kept = requests.lock().expect("requests lock");
        kept.push(Recorded {
            request: request.clone(),
            body,
            turn: answer.turn,
        });
        kept.len()
    };
    let (status, content_type, text) = if count > MAX_REQUESTS {
        (
            "500 Internal Server Error",
            "text/plain",
            "too many requests".to_owned(),
        )
    } else {
        (answer.status, answer.content_type, answer.body)
    };
    let length = if request.method == "HEAD" {
        0
    } else {
        text.len()
    };
    let mut out = format!(
        "HTTP/1.1 {status}\r\ncontent-type: {content_type}\r\ncache-control: no-cache\r\n\
         content-length: {length}\r\nconnection: close\r\n\r\n"
    );
    if request.method != "HEAD" {
        out.push_str(&text);
    }
    let _ = conn.write_all(out.as_bytes());
    let _ = conn.flush();
}

/// An answer to one request.
struct Answer {
    status: &'static str,
    content_type: &'static str,
    body: String,
    turn: bool,
}

impl Answer {
    fn json(value: &Value) -> Answer {
        Answer {
            status: "200 OK",
            content_type: "application/json",
            body: value.to_string(),
            turn: false,
        }
    }

    fn sse(body: String) -> Answer {
        Answer {
            status: "200 OK",
            content_type: "text/event-stream",
            body,
            turn: true,
        }
    }

    fn not_found() -> Answer {
        Answer {
            status: "404 Not Found",
            content_type: "application/json",
            body: r#"{"error":{"message":"not found"}}"#.to_owned(),
            turn: false,
        }
    }
}

/// The step that answers a conversation: the one after as many steps as the conversation
/// holds tool results.
fn step(script: &[Step], tool_results: usize) -> Step {
    script
        .get(tool_results)
        .cloned()
        .unwrap_or_else(|| Step::Text(DONE.to_owned()))
}

fn answer(api: Api, script: &[Step], request: &HttpRequest, body: &Value) -> Answer {
    let path = request.target.split('?').next().unwrap_or_default();
    match api {
        Api::Anthropic => anthropic(script, request, path, body),
        Api::ChatCompletions => chat_completions(script, path, body),
        Api::Gemini => gemini(script, path, body),
        Api::OpenAi => openai(script, path, body),
    }
}

/// One server-sent event.
fn event(name: Option<&str>, data: &Value) -> String {
    match name {
        Some(name) => format!("event: {name}\ndata: {data}\n\n"),
        None => format!("data: {data}\n\n"),
    }
}

/// Counts the JSON objects under `value` (at any depth) for which `is_result` holds.
fn count(value: &Value, is_result: &dyn Fn(&serde_json::Map<String, Value>) -> bool) -> usize {
    match value {
        Value::Object(map) => {
            usize::from(is_result(map)) + map.values().map(|v| count(v, is_result)).sum::<usize>()
        }
        Value::Array(items) => items.iter().map(|v| count(v, is_result)).sum(),
        Value::Null | Value::Bool(_) | Value::Number(_) | Value::String(_) => 0,
    }
}

fn anthropic(script: &[Step], request: &HttpRequest, path: &str, body: &Value) -> Answer {
    if request.method == "HEAD" || (request.method == "GET" && path == "/") {
        return Answer::json(&json!({}));
    }
    if path.ends_with("/count_tokens") {
        return Answer::json(&json!({"input_tokens": 10}));
    }
    if path != "/v1/messages" {
        return Answer::not_found();
    }
    let results = count(&body["messages"], &|m| {
        m.get("type").and_then(Value::as_str) == Some("tool_result")
    });
    let n = results + 1;
    let model = body["model"].as_str().unwrap_or("claude-test");
    let (block, delta, stop_reason) = match step(script, results) {
        Step::Shell(command) => (
            json!({"type": "tool_use", "id": format!("toolu_hooks_{n}"), "name": "Bash", "input": {}}),
            json!({"type": "input_json_delta", "partial_json": json!({"command": command}).to_string()}),
            "tool_use",
        ),
        Step::Tool(name, args) => (
            json!({"type": "tool_use", "id": format!("toolu_hooks_{n}"), "name": name, "input": {}}),
            json!({"type": "input_json_delta", "partial_json": args.to_string()}),
            "tool_use",
        ),
        Step::Text(text) => (
            json!({"type": "text", "text": ""}),
            json!({"type": "text_delta", "text": text}),
            "end_turn",
        ),
    };
    if body["stream"] != Value::Bool(true) {
        let mut content = block.clone();
        match delta["type"].as_str() {
            Some("input_json_delta") => {
                content["input"] =
                    serde_json::from_str(delta["partial_json"].as_str().unwrap_or("{}"))
                        .unwrap_or(Value::Null);
            }
            _ => content["text"] = delta["text"].clone(),
        }
        let mut answer = Answer::json(&json!({
            "id": format!("msg_hooks_{n}"), "type": "message", "role": "assistant",
            "model": model, "content": [content], "stop_reason": stop_reason,
            "stop_sequence": null, "usage": {"input_tokens": 10, "output_tokens": 5},
        }));
        answer.turn = true;
        return answer;
    }
    let events = [
        event(
            Some("message_start"),
            &json!({"type": "message_start", "message": {
                "id": format!("msg_hooks_{n}"), "type": "message", "role": "assistant",
                "model": model, "content": [], "stop_reason": null, "stop_sequence": null,
                "usage": {"input_tokens": 10, "output_tokens": 1}}}),
        ),
        event(
            Some("content_block_start"),
            &json!({"type": "content_block_start", "index": 0, "content_block": block}),
        ),
        event(
            Some("content_block_delta"),
            &json!({"type": "content_block_delta", "index": 0, "delta": delta}),
        ),
        event(
            Some("content_block_stop"),
            &json!({"type": "content_block_stop", "index": 0}),
        ),
        event(
            Some("message_delta"),
            &json!({"type": "message_delta",
                "delta": {"stop_reason": stop_reason, "stop_sequence": null},
                "usage": {"output_tokens": 5}}),
        ),
        event(Some("message_stop"), &json!({"type": "message_stop"})),
    ];
    Answer::sse(events.concat())
}

fn gemini(script: &[Step], path: &str, body: &Value) -> Answer {
    let usage = json!({"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15});
    if path.ends_with(":countTokens") {
        return Answer::json(&json!({"totalTokens": 10}));
    }
    if path.ends_with(":generateContent") {
        // Side calls (model routing, next-speaker checks) ask for JSON; one text that
        // answers each of them.
        let text = json!({"reasoning": "scripted", "model_choice": "flash", "next_speaker": "user",
            "complexity_reasoning": "scripted", "complexity_score": 1});
        return Answer::json(&json!({
            "candidates": [{"content": {"role": "model", "parts": [{"text": text.to_string()}]},
                "finishReason": "STOP", "index": 0}],
            "usageMetadata": usage,
        }));
    }
    if !path.ends_with(":streamGenerateContent") {
        return Answer::not_found();
    }
    let results = count(&body["contents"], &|m| m.contains_key("functionResponse"));
    let part = match step(script, results) {
        Step::Shell(command) => {
            json!({"functionCall": {"name": "run_shell_command", "args": {"command": command}}})
        }
        Step::Tool(name, args) => json!({"functionCall": {"name": name, "args": args}}),
        Step::Text(text) => json!({"text": text}),
    };
    Answer::sse(event(
        None,
        &json!({
            "candidates": [{"content": {"role": "model", "parts": [part]},
                "finishReason": "STOP", "index": 0}],
            "usageMetadata": usage,
        }),
    ))
}

fn openai(script: &[Step], path: &str, body: &Value) -> Answer {
    if path == "/v1/models" {
        return Answer::json(&json!({"object": "list", "data": []}));
    }
    if path != "/v1/responses" {
        return Answer::not_found();
    }
    let results = count(&body["input"], &|m| {
        m.get("type")
            .and_then(Value::as_str)
            .is_some_and(|t| t.ends_with("call_output"))
    });
    let n = results + 1;
    let id = format!("resp_hooks_{n}");
    let item = match step(script, results) {
        Step::Shell(command) => {
            let (name, arguments) = openai_shell_call(body, &command);
            json!({"type": "function_call", "id": format!("fc_hooks_{n}"),
                "call_id": format!("call_hooks_{n}"), "name": name,
                "arguments": arguments.to_string()})
        }
        Step::Tool(name, args) => json!({"type": "function_call", "id": format!("fc_hooks_{n}"),
            "call_id": format!("call_hooks_{n}"), "name": name, "arguments": args.to_string()}),
        Step::Text(text) => json!({"type": "message", "id": format!("msg_hooks_{n}"),
            "role": "assistant", "status": "completed",
            "content": [{"type": "output_text", "text": text, "annotations": []}]}),
    };
    let events = [
        event(
            Some("response.created"),
            &json!({"type": "response.created", "response": {"id": id}}),
        ),
        event(
            Some("response.output_item.done"),
            &json!({"type": "response.output_item.done", "output_index": 0, "item": item}),
        ),
        event(
            Some("response.completed"),
            &json!({"type": "response.completed", "response": {"id": id, "usage": {
                "input_tokens": 10, "input_tokens_details": null, "output_tokens": 5,
                "output_tokens_details": null, "total_tokens": 15}}}),
        ),
    ];
    Answer::sse(events.concat())
}

/// Chat Completions as Cline's OpenAI-compatible provider, Qwen Code and Droid call it: the
/// conversation's tool results are its `role: "tool"` messages; a shell step is a streamed
/// `tool_calls` delta (the name and then the arguments) of the shell tool the request offers
/// (Cline's SDK's `run_commands {commands: [..]}`, Qwen Code's `run_shell_command
/// {command, description}`, Droid's `Execute {command, summary}`, else Cline's extension's
/// `execute_command {command}`),
/// with `finish_reason: "tool_calls"`; a text is a `content` delta. Usage comes in the
/// last chunk, and `[DONE]` ends the stream. OpenCode's shell tool is `bash {command,
/// description}`; a request that offers no tool (OpenCode's title of the session) is a
/// side request, answered with a text and not moving the script on.
fn chat_completions(script: &[Step], path: &str, body: &Value) -> Answer {
    if path == "/v1/models" {
        return Answer::json(
            &json!({"object": "list", "data": [{"id": "scripted", "object": "model"}]}),
        );
    }
    if path != "/v1/chat/completions" {
        return Answer::not_found();
    }
    let results = body["messages"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|m| m["role"] == "tool")
        .count();
    let n = results + 1;
    let model = body["model"].as_str().unwrap_or("scripted");
    let chunk = |delta: Value, finish: Value| {
        json!({"id": format!("chatcmpl-hooks-{n}"), "object": "chat.completion.chunk",
            "created": 1, "model": model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
    };
    let mut chunks = Vec::new();
    let side = body["tools"].as_array().is_none_or(Vec::is_empty);
    let this = if side {
        Step::Text("Scripted title".to_owned())
    } else {
        step(script, results)
    };
    let call = match this {
        Step::Shell(command) if offered_chat_tool(body, "bash") => Ok((
            "bash".to_owned(),
            json!({"command": command, "description": "run command"}),
        )),
        Step::Shell(command) => {
            let offered = |name: &str| {
                body["tools"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .any(|t| t["function"]["name"] == name)
            };
            Ok(if offered("run_commands") {
                ("run_commands".to_owned(), json!({"commands": [command]}))
            } else if offered("run_shell_command") {
                let args = json!({"command": command, "description": "run the command"});
                ("run_shell_command".to_owned(), args)
            } else if offered("Execute") {
                let args = json!({"command": command, "summary": "run the command"});
                ("Execute".to_owned(), args)
            } else {
                ("execute_command".to_owned(), json!({"command": command}))
            })
        }
        Step::Tool(name, args) => Ok((name, args)),
        Step::Text(text) => Err(text),
    };
    let finish = match call {
        Ok((name, arguments)) => {
            chunks.push(chunk(
                json!({"role": "assistant", "content": null, "tool_calls": [{"index": 0,
                    "id": format!("call_hooks_{n}"), "type": "function",
                    "function": {"name": name, "arguments": ""}}]}),
                Value::Null,
            ));
            chunks.push(chunk(
                json!({"tool_calls": [{"index": 0, "function": {"arguments": arguments.to_string()}}]}),
                Value::Null,
            ));
            "tool_calls"
        }
        Err(text) => {
            chunks.push(chunk(
                json!({"role": "assistant", "content": text}),
                Value::Null,
            ));
            "stop"
        }
    };
    let mut last = chunk(json!({}), json!(finish));
    last["usage"] = json!({"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15});
    chunks.push(last);
    let mut text: String = chunks.iter().map(|c| event(None, c)).collect();
    text.push_str("data: [DONE]\n\n");
    let mut answer = Answer::sse(text);
    answer.turn = !side;
    answer
}

/// Whether a Chat Completions request offers the tool `name`.
fn offered_chat_tool(body: &Value, name: &str) -> bool {
    body["tools"]
        .as_array()
        .into_iter()
        .flatten()
        .any(|t| t["function"]["name"] == name)
}

/// The shell tool the request offers and the arguments that run `command` with it.
fn openai_shell_call(body: &Value, command: &str) -> (String, Value) {
    let offered: Vec<&str> = body["tools"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| t["name"].as_str())
        .collect();
    if offered.contains(&"exec_command") {
        ("exec_command".to_owned(), json!({"cmd": command}))
    } else if offered.contains(&"shell_command") {
        ("shell_command".to_owned(), json!({"command": command}))
    } else {
        (
            "shell".to_owned(),
            json!({"command": ["bash", "-lc", command]}),
        )
    }
}

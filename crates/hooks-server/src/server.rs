//! The session: reads frames, answers requests concurrently (each in its own task,
//! matched by id), handles cancellation and the LSP-like lifecycle (`shutdown`, `exit`,
//! end of input).

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use hooks::Engine;
use hooks::core::EventCatalog;
use hooks::exec::CancellationToken;
use serde_json::Value;
use tokio::io::AsyncRead;
use tokio::sync::Semaphore;
use tokio::task::JoinSet;

use crate::framing::{Frame, FrameReader, Framing};
use crate::methods;
use crate::outbox::Outbox;
use crate::rpc::{
    self, INVALID_REQUEST, Incoming, METHOD_NOT_FOUND, PARSE_ERROR, Params, RpcError,
};

/// How many requests may run at once (each request of a batch counts); past this, reading
/// waits (backpressure).
const MAX_IN_FLIGHT: u32 = 64;

/// How a session ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Ending {
    /// The input ended.
    Eof,
    /// `exit` after `shutdown`.
    Exit,
    /// `exit` without `shutdown` (LSP: exit code 1).
    ExitWithoutShutdown,
}

impl Ending {
    /// The exit code of a process that served one session: 0, or 1 when `exit` came
    /// without `shutdown` first (as LSP says).
    pub fn code(self) -> u8 {
        match self {
            Ending::Eof | Ending::Exit => 0,
            Ending::ExitWithoutShutdown => 1,
        }
    }
}

/// What the request tasks share.
pub(crate) struct Server {
    engine: Engine,
    catalog: EventCatalog,
    /// The project root: the `cwd` of a dispatched event whose payload has none.
    project: PathBuf,
    outbox: Outbox,
    /// Requests in flight, by their id's JSON text, for `$/cancelRequest`.
    in_flight: Mutex<HashMap<String, CancellationToken>>,
    permits: Arc<Semaphore>,
    shutting_down: AtomicBool,
    /// Where log lines go.
    log: fn(&str),
}

impl Server {
    pub(crate) fn new(
        engine: Engine,
        outbox: Outbox,
        project: PathBuf,
        log: fn(&str),
    ) -> Arc<Server> {
        Arc::new(Server {
            engine,
            catalog: EventCatalog::new(),
            project,
            outbox,
            in_flight: Mutex::new(HashMap::new()),
            permits: Arc::new(Semaphore::new(MAX_IN_FLIGHT as usize)),
            shutting_down: AtomicBool::new(false),
            log,
        })
    }

    /// Serves until the input ends or `exit` arrives; every request read gets its answer
    /// before this returns.
    pub(crate) async fn run<R>(self: &Arc<Server>, input: R, framing: &OnceLock<Framing>) -> Ending
    where
        R: AsyncRead + Unpin,
    {
        let mut reader = FrameReader::new(input);
        let mut tasks = JoinSet::new();
        let ending = loop {
            // Reap finished tasks so the set does not grow with the session.
            while tasks.try_join_next().is_some() {}
            let frame = match reader.next().await {
                Ok(Some(frame)) => frame,
                Ok(None) => break Ending::Eof,
                Err(e) => {
                    (self.log)(&format!("cannot read the input: {e}"));
                    break Ending::Eof;
                }
            };
            if let Some(f) = reader.framing() {
                let _ = framing.set(f);
            }
            let body = match frame {
                Frame::Message(body) => body,
                Frame::Malformed(why) => {
                    let error = RpcError::new(PARSE_ERROR, format!("malformed frame: {why}"));
                    self.outbox.send(&rpc::failure(Value::Null, &error)).await;
                    continue;
                }
            };
            let message = match serde_json::from_slice::<Value>(&body) {
                Ok(m) => m,
                Err(e) => {
                    let error = RpcError::new(PARSE_ERROR, format!("parse error: {e}"));
                    self.outbox.send(&rpc::failure(Value::Null, &error)).await;
                    continue;
                }
            };
            if let Some(ending) = self.on_message(message, &mut tasks).await {
                break ending;
            }
        };
        if ending != Ending::Eof {
            // `exit`: stop what is still running; each request answers as cancelled.
            self.cancel_all();
        }
        while tasks.join_next().await.is_some() {}
        if ending == Ending::Eof {
            // The client is done sending; let background hooks finish and report.
            self.engine.dispatcher().flush_async().await;
        }
        ending
    }

    /// Handles one parsed message (a single message or a batch); `Some` ends the session.
    async fn on_message(
        self: &Arc<Server>,
        message: Value,
        tasks: &mut JoinSet<()>,
    ) -> Option<Ending> {
        match message {
            Value::Array(batch) if batch.is_empty() => {
                let error = RpcError::new(INVALID_REQUEST, "an empty batch");
                self.outbox.send(&rpc::failure(Value::Null, &error)).await;
                None
            }
            Value::Array(batch) => {
                // A batch is answered by one array, once all its requests are done. Each
                // request counts against the in-flight limit on its own (a batch of 130 is
                // 130 requests): reading waits for a permit for each, and the request that
                // completes the batch sends its answer before giving its permit back.
                let mut items = Vec::with_capacity(batch.len());
                let mut ending = None;
                for item in batch {
                    match self.prepare(item) {
                        Prepared::Run(run) => items.push(run),
                        Prepared::Answer(answer) => items.push(Box::pin(async move { answer })),
                        Prepared::End(e) => ending = Some(e),
                        Prepared::Nothing => {}
                    }
                }
                let answers = Arc::new(BatchAnswers::new(items.len()));
                for (i, run) in items.into_iter().enumerate() {
                    let permit = self.permit().await;
                    let server = Arc::clone(self);
                    let answers = Arc::clone(&answers);
                    tasks.spawn(async move {
                        let _permit = permit;
                        let answer = run.await;
                        if let Some(array) = answers.put(i, answer) {
                            server.outbox.send(&array).await;
                        }
                    });
                }
                ending
            }
            single => match self.prepare(single) {
                Prepared::Run(run) => {
                    let permit = self.permit().await;
                    let server = Arc::clone(self);
                    tasks.spawn(async move {
                        let _permit = permit;
                        if let Some(answer) = run.await {
                            server.outbox.send(&answer).await;
                        }
                    });
                    None
                }
                Prepared::Answer(Some(answer)) => {
                    self.outbox.send(&answer).await;
                    None
                }
                Prepared::Answer(None) | Prepared::Nothing => None,
                Prepared::End(ending) => Some(ending),
            },
        }
    }

    /// Waits for room to run one more request. The semaphore is never closed; were it
    /// closed, the request would run unbounded rather than be lost.
    async fn permit(&self) -> Option<tokio::sync::OwnedSemaphorePermit> {
        Arc::clone(&self.permits).acquire_owned().await.ok()
    }

    /// Sorts out one message in arrival order: notifications and invalid messages are
    /// dealt with here and now; requests become a future that answers them.
    fn prepare(self: &Arc<Server>, message: Value) -> Prepared {
        let incoming = match rpc::classify(message) {
            Ok(incoming) => incoming,
            Err(answer) => return Prepared::Answer(Some(answer)),
        };
        match incoming {
            Incoming::Response => {
                (self.log)("ignored a response: this server sends no requests");
                Prepared::Nothing
            }
            Incoming::Notification { method, params } => self.notification(&method, params),
            Incoming::Request { id, method, params } => self.request(id, method, params),
        }
    }

    fn notification(&self, method: &str, params: Option<Value>) -> Prepared {
        match method {
            "exit" => Prepared::End(if self.shutting_down.load(Ordering::SeqCst) {
                Ending::Exit
            } else {
                Ending::ExitWithoutShutdown
            }),
            "$/cancelRequest" => {
                match Params::parse("$/cancelRequest", params, &["id"]).map(|mut p| p.take("id")) {
                    Ok(Some(id)) => {
                        let token = self.lock_in_flight().get(&id_key(&id)).cloned();
                        // A request that already finished cannot be cancelled: no-op.
                        if let Some(token) = token {
                            token.cancel();
                        }
                    }
                    Ok(None) => (self.log)("`$/cancelRequest` without an `id`"),
                    Err(e) => (self.log)(&e.message),
                }
                Prepared::Nothing
            }
            // LSP: notifications starting with `$/` may be ignored.
            m if m.starts_with("$/") => Prepared::Nothing,
            other => {
                (self.log)(&format!("ignored the unknown notification `{other}`"));
                Prepared::Nothing
            }
        }
    }

    fn request(self: &Arc<Server>, id: Value, method: String, params: Option<Value>) -> Prepared {
        if self.shutting_down.load(Ordering::SeqCst) {
            let error = RpcError::new(INVALID_REQUEST, "the server is shutting down");
            return Prepared::Answer(Some(rpc::failure(id, &error)));
        }
        if !methods::METHODS.contains(&method.as_str()) {
            let hint = hooks::core::did_you_mean(&method, methods::METHODS.iter().copied())
                .map(|m| format!(" (did you mean `{m}`?)"))
                .unwrap_or_default();
            let error = RpcError::new(METHOD_NOT_FOUND, format!("no method `{method}`{hint}"));
            return Prepared::Answer(Some(rpc::failure(id, &error)));
        }
        let key = id_key(&id);
        let cancel = CancellationToken::new();
        {
            let mut in_flight = self.lock_in_flight();
            if in_flight.contains_key(&key) {
                let error = RpcError::new(
                    INVALID_REQUEST,
                    format!("a request with id {key} is already in flight"),
                );
                return Prepared::Answer(Some(rpc::failure(id, &error)));
            }
            in_flight.insert(key.clone(), cancel.clone());
        }
        if method == "shutdown" {
            self.shutting_down.store(true, Ordering::SeqCst);
        }
        let server = Arc::clone(self);
        Prepared::Run(Box::pin(async move {
            let outcome = server.call(&method, params, &cancel).await;
            server.lock_in_flight().remove(&key);
            Some(rpc::response(id, outcome))
        }))
    }

    async fn call(
        &self,
        method: &str,
        params: Option<Value>,
        cancel: &CancellationToken,
    ) -> Result<Value, RpcError> {
        match method {
            "initialize" => methods::initialize(params),
            "hooks/dispatch" => {
                methods::dispatch(&self.engine, &self.catalog, &self.project, params, cancel).await
            }
            "hooks/list" => methods::list(&self.engine, params),
            "hooks/explain" => methods::explain(&self.engine, &self.catalog, &self.project, params),
            "hooks/reload" => methods::reload(&self.engine, params).await,
            "shutdown" => {
                Params::parse("shutdown", params, &[])?;
                self.drain().await;
                Ok(Value::Null)
            }
            other => Err(RpcError::new(
                METHOD_NOT_FOUND,
                format!("no method `{other}`"),
            )),
        }
    }

    /// Waits until every other request has answered and background hooks have finished.
    async fn drain(&self) {
        // Requests hold a permit while they run; `shutdown` itself runs inside one.
        let others = MAX_IN_FLIGHT - 1;
        if let Ok(all) = Arc::clone(&self.permits).acquire_many_owned(others).await {
            drop(all);
        }
        self.engine.dispatcher().flush_async().await;
    }

    fn cancel_all(&self) {
        for token in self.lock_in_flight().values() {
            token.cancel();
        }
    }

    fn lock_in_flight(&self) -> std::sync::MutexGuard<'_, HashMap<String, CancellationToken>> {
        self.in_flight
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// The answers of one batch as its requests finish, in the batch's order.
struct BatchAnswers {
    slots: Mutex<(Vec<Option<Value>>, usize)>,
}

impl BatchAnswers {
    fn new(requests: usize) -> BatchAnswers {
        BatchAnswers {
            slots: Mutex::new((vec![None; requests], requests)),
        }
    }

    /// Records the answer of request `i` (`None`: it has none); the last one gets the
    /// batch's array to send, if any request has an answer.
    fn put(&self, i: usize, answer: Option<Value>) -> Option<Value> {
        let mut slots = self
            .slots
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let (answers, left) = &mut *slots;
        if let Some(slot) = answers.get_mut(i) {
            *slot = answer;
        }
        *left = left.saturating_sub(1);
        if *left > 0 {
            return None;
        }
        let array: Vec<Value> = answers.iter_mut().filter_map(Option::take).collect();
        (!array.is_empty()).then_some(Value::Array(array))
    }
}

type Answer = std::pin::Pin<Box<dyn std::future::Future<Output = Option<Value>> + Send>>;

/// What to do with one message.
enum Prepared {
    /// Run this to get the answer.
    Run(Answer),
    /// The answer is ready (an error), or there is none.
    Answer(Option<Value>),
    /// End the session.
    End(Ending),
    /// Nothing to answer.
    Nothing,
}

/// A request id as a map key: its JSON text, so `1` and `"1"` differ as JSON-RPC says.
fn id_key(id: &Value) -> String {
    id.to_string()
}

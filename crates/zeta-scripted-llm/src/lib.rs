//! A scripted LLM server for tests. It listens on 127.0.0.1 and speaks the OpenAI
//! (`/v1/chat/completions`), Anthropic (`/v1/messages`) and Ollama (`/api/chat`) formats,
//! streamed or not, as each request asks. Each request takes the next scripted `Step`: a
//! reply (text and/or tool calls) or a failure (500, 429 with Retry-After, a hang,
//! malformed JSON, a stream cut mid-way, a stream that never ends). Every request is recorded. A request carrying a
//! tool result whose call is missing is refused with 400 and counted as a violation.

mod check;
mod respond;

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard};

use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use serde_json::{json, Value};

/// Which wire format a request used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wire {
    OpenAi,
    Anthropic,
    Ollama,
}

/// What the model "says" for one request.
#[derive(Debug, Clone, PartialEq)]
pub struct Reply {
    pub text: String,
    /// (tool name, arguments)
    pub tool_calls: Vec<(String, Value)>,
}

/// One request's fate.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    Reply(Reply),
    /// HTTP 500.
    ServerError,
    /// HTTP 429 with `Retry-After: secs`.
    RateLimited {
        retry_after_secs: f32,
    },
    /// Accept and never answer.
    Hang,
    /// HTTP 200 whose body (or first stream event) is not JSON.
    MalformedJson,
    /// Start the answer, then drop the connection mid-body.
    CutStream,
    /// Reply, streamed with a pause before each chunk (to watch text arrive in a UI).
    Slow {
        reply: Reply,
        pause_ms: u64,
    },
    /// `text` streamed as a model writes it: `piece_chars` characters per delta, one delta
    /// every `pause_ms` (to measure a UI while a long reply arrives).
    Paced {
        text: String,
        piece_chars: usize,
        pause_ms: u64,
    },
    /// Refuse the request with this status and error message (e.g. an unsupported option).
    Refuse {
        status: u16,
        message: String,
    },
    /// Stream text that never ends (a runaway or hostile server), one delta every
    /// `pause_ms` (0: as fast as the client reads), until the client hangs up.
    Endless {
        pause_ms: u64,
    },
}

impl Step {
    pub fn text(text: impl Into<String>) -> Self {
        Step::Reply(Reply {
            text: text.into(),
            tool_calls: Vec::new(),
        })
    }

    pub fn call(name: impl Into<String>, arguments: Value) -> Self {
        Step::Reply(Reply {
            text: String::new(),
            tool_calls: vec![(name.into(), arguments)],
        })
    }
}

/// One request as received.
#[derive(Debug, Clone)]
pub struct Recorded {
    pub wire: Wire,
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: Value,
}

#[derive(Default)]
struct Shared {
    script: VecDeque<Step>,
    requests: Vec<Recorded>,
    violations: Vec<String>,
    served: usize,
    /// What `GET /props` reports as `n_ctx` (as llama-server does); 404 when unset.
    n_ctx: Option<u32>,
}

/// A running server; it stops when dropped.
pub struct ScriptedServer {
    addr: SocketAddr,
    shared: Arc<Mutex<Shared>>,
    task: tokio::task::JoinHandle<()>,
}

impl ScriptedServer {
    /// Binds a free port on 127.0.0.1 and starts serving `script`.
    pub async fn start(script: Vec<Step>) -> std::io::Result<Self> {
        let shared = Arc::new(Mutex::new(Shared {
            script: script.into(),
            ..Shared::default()
        }));
        let app = Router::new()
            .route("/v1/chat/completions", post(handle))
            .route("/v1/messages", post(handle))
            .route("/api/chat", post(handle))
            .route("/v1/models", get(models))
            .route("/api/tags", get(tags))
            .route("/props", get(props))
            .with_state(Arc::clone(&shared));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        let task = tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Ok(Self { addr, shared, task })
    }

    /// `http://127.0.0.1:PORT` (Anthropic and Ollama base URL).
    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// `http://127.0.0.1:PORT/v1` (OpenAI-compatible base URL).
    pub fn openai_base_url(&self) -> String {
        format!("http://{}/v1", self.addr)
    }

    fn shared(&self) -> MutexGuard<'_, Shared> {
        self.shared.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub fn requests(&self) -> Vec<Recorded> {
        self.shared().requests.clone()
    }

    /// Requests refused because a tool result had no matching call.
    pub fn violations(&self) -> Vec<String> {
        self.shared().violations.clone()
    }

    /// Steps not used yet.
    pub fn remaining(&self) -> usize {
        self.shared().script.len()
    }

    pub fn push(&self, step: Step) {
        self.shared().script.push_back(step);
    }

    /// Makes `GET /props` answer like llama-server, with this context size.
    pub fn report_context_window(&self, n_ctx: u32) {
        self.shared().n_ctx = Some(n_ctx);
    }
}

impl Drop for ScriptedServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn models() -> axum::Json<Value> {
    axum::Json(json!({"object": "list", "data": [{"id": "scripted", "object": "model"}]}))
}

/// llama-server's `/props`, when the test asked for it.
async fn props(State(shared): State<Arc<Mutex<Shared>>>) -> Response {
    let n_ctx = shared.lock().unwrap_or_else(|p| p.into_inner()).n_ctx;
    match n_ctx {
        Some(n) => axum::Json(json!({"default_generation_settings": {"n_ctx": n}})).into_response(),
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

/// Ollama's model list, so the server can be detected as a local Ollama.
async fn tags() -> axum::Json<Value> {
    axum::Json(json!({"models": [{"name": "scripted", "model": "scripted"}]}))
}

async fn handle(
    State(shared): State<Arc<Mutex<Shared>>>,
    uri: Uri,
    headers: HeaderMap,
    body: bytes::Bytes,
) -> Response {
    let wire = match uri.path() {
        "/v1/messages" => Wire::Anthropic,
        "/api/chat" => Wire::Ollama,
        _ => Wire::OpenAi,
    };
    let body: Value = match serde_json::from_slice(&body) {
        Ok(v) => v,
        Err(e) => {
            return plain(
                StatusCode::BAD_REQUEST,
                format!("request body is not JSON: {e}"),
            )
        }
    };
    let stream = body
        .get("stream")
        .and_then(Value::as_bool)
        .unwrap_or(wire == Wire::Ollama);
    let (step, n) = {
        let mut s = shared.lock().unwrap_or_else(|p| p.into_inner());
        s.requests.push(Recorded {
            wire,
            path: uri.path().to_string(),
            headers: headers
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_str().unwrap_or("").to_string()))
                .collect(),
            body: body.clone(),
        });
        if let Err(problem) = check::tool_results_have_calls(wire, &body) {
            s.violations.push(problem.clone());
            return plain(StatusCode::BAD_REQUEST, problem);
        }
        s.served += 1;
        (s.script.pop_front(), s.served)
    };
    let Some(step) = step else {
        return plain(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the script has no step left".into(),
        );
    };
    respond::respond(wire, stream, step, n).await
}

fn plain(status: StatusCode, text: String) -> Response {
    Response::builder()
        .status(status)
        .header("content-type", "application/json")
        .body(Body::from(json!({"error": {"message": text}}).to_string()))
        .unwrap_or_default()
}

/// A long task that fills the context: `steps` distinct commands that each print about
/// 4 KB of random text, then the answer. The agent tests and the compaction benchmark
/// run it.
pub fn noisy_script(steps: usize) -> Vec<Step> {
    (0..steps)
        .map(|i| {
            Step::call(
                "shell",
                json!({"command": format!("head -c 3000 /dev/urandom | base64 # step {i}")}),
            )
        })
        .chain([Step::text(format!("Zeta: {steps} samples taken."))])
        .collect()
}

//! `LlmClient`: core's `Model` over HTTP. It tries each configured provider in order. For
//! each it retries transient failures with backoff and then moves to the next. Text
//! streams out as it arrives.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use eventsource_stream::Eventsource;
use futures_util::StreamExt;
use reqwest::header::{HeaderMap, HeaderValue, RETRY_AFTER};
use serde_json::Value;
use zeta_core::model::{
    Capabilities, Model, ModelError, ModelFailure, ModelReply, ModelRequest, ResponseFormat,
    RetryListener, Retrying,
};
use zeta_core::settings::{ProviderKind, Settings};

use crate::config::{providers_from_settings, ProviderConfig, WireFormat};
use crate::error::LlmError;
use crate::local::LocalServer;
use crate::secrets::SecretStore;
use crate::wire::{self, Framing, StreamState};

/// Longest reply from Zeta's own model server, in tokens.
const LOCAL_MAX_TOKENS: u32 = 768;

struct Provider {
    config: ProviderConfig,
    http: reqwest::Client,
    /// Set once the server refused `json_schema`; then `json_object` + `schema` is sent.
    json_object_schema: AtomicBool,
}

pub struct LlmClient {
    providers: Vec<Provider>,
    capabilities: Capabilities,
    /// Told of each retry (the chat shows "trying again in 2 s").
    on_retry: std::sync::Mutex<Option<RetryListener>>,
}

impl LlmClient {
    pub fn new(configs: Vec<ProviderConfig>, capabilities: Capabilities) -> Result<Self, LlmError> {
        if configs.is_empty() {
            return Err(LlmError::Config("no provider to call".into()));
        }
        let providers = configs
            .into_iter()
            .map(|config| {
                let http = reqwest::Client::builder()
                    .connect_timeout(Duration::from_secs(10))
                    .read_timeout(config.idle_timeout)
                    .build()
                    .map_err(|e| LlmError::Config(format!("HTTP client: {e}")))?;
                let json_object = config
                    .local
                    .as_ref()
                    .is_some_and(|l| l.program.wants_json_object_schema());
                Ok(Provider {
                    config,
                    http,
                    json_object_schema: AtomicBool::new(json_object),
                })
            })
            .collect::<Result<Vec<_>, LlmError>>()?;
        Ok(Self {
            providers,
            capabilities,
            on_retry: std::sync::Mutex::new(None),
        })
    }

    /// The providers from settings (with `ZETA_LLM_*` applied), primary first. Zeta's own
    /// local model is a small one: the JSON planner under `protocol: auto`, the shell only,
    /// answers checked; the others take native tools.
    pub fn from_settings(
        settings: &Settings,
        secrets: Option<&SecretStore>,
        local: Option<&Arc<LocalServer>>,
    ) -> Result<Self, LlmError> {
        let small = settings.provider.kind == ProviderKind::Local;
        let capabilities = Capabilities {
            native_tools: !small,
            images: true,
            small,
        };
        Self::new(
            providers_from_settings(settings, secrets, local)?,
            capabilities,
        )
    }

    async fn call_with_retries(
        &self,
        p: &Provider,
        req: &ModelRequest,
        on_delta: &mut (dyn FnMut(&str) + Send),
    ) -> Result<ModelReply, LlmError> {
        let mut attempt = 1;
        let deadline = p.config.reply_deadline;
        loop {
            let result = tokio::time::timeout(deadline, self.attempt(p, req, on_delta))
                .await
                .unwrap_or_else(|_| {
                    Err(LlmError::Deadline {
                        endpoint: p.config.base_url.clone(),
                        deadline,
                    })
                });
            let error = match result {
                Ok(reply) => return Ok(reply),
                // A server may echo the key back; it leaves here without it.
                Err(e) => e.redacted(p.config.api_key.as_ref()),
            };
            if refused_json_schema(&error, req)
                && !p.json_object_schema.swap(true, Ordering::Relaxed)
            {
                tracing::info!(
                    "{} refused json_schema; sending json_object with schema",
                    p.config.base_url
                );
                continue;
            }
            match p.config.retry.delay_after(attempt, &error) {
                Some(wait) => {
                    tracing::warn!("{error}; attempt {attempt} failed, retrying in {wait:?}");
                    let listener = self.on_retry.lock().ok().and_then(|l| l.clone());
                    if let Some(listener) = listener {
                        listener(Retrying {
                            attempt,
                            wait_ms: wait.as_millis() as u64,
                            said: error.said(),
                        });
                    }
                    tokio::time::sleep(wait).await;
                    attempt += 1;
                }
                None => return Err(error),
            }
        }
    }

    async fn attempt(
        &self,
        p: &Provider,
        req: &ModelRequest,
        on_delta: &mut (dyn FnMut(&str) + Send),
    ) -> Result<ModelReply, LlmError> {
        let c = &p.config;
        let endpoint = match &c.local {
            // Starts the server, or waits while it restarts.
            Some(local) => c.endpoint_at(&local.base_url().await?),
            None => c.endpoint(),
        };
        let stream = c.stream;
        let json_object_schema = p.json_object_schema.load(Ordering::Relaxed);
        let mut body = c.wire.body(req, &c.model, stream, json_object_schema);
        if c.is_managed_local() {
            // A small local model drifts at the server's default temperature; greedy
            // decoding makes a task repeatable.
            body["temperature"] = serde_json::json!(0);
            // A step is a short JSON object; grammar-constrained decoding can run on
            // (seen: ten minutes of whitespace inside a string) and would hold the one
            // slot. The cap ends such a reply within a minute on two cores.
            body["max_tokens"] = serde_json::json!(LOCAL_MAX_TOKENS);
        }
        if c.local.as_ref().is_some_and(|l| l.program.caches_prompts()) {
            // Keep the evaluated prompt in the server's slot: the next step (and the next
            // task, whose prompt starts with the same bytes) evaluates only what is new.
            body["cache_prompt"] = serde_json::json!(true);
        }
        let mut request = p.http.post(&endpoint).json(&body);
        match (c.wire, &c.api_key) {
            (WireFormat::Anthropic, key) => {
                request = request.header("anthropic-version", wire::anthropic::API_VERSION);
                if let Some(key) = key {
                    request = request.header("x-api-key", key.expose());
                }
            }
            (_, Some(key)) => request = request.bearer_auth(key.expose()),
            (_, None) => {}
        }
        let response = request
            .send()
            .await
            .map_err(|e| from_reqwest(&endpoint, c, e))?;
        if let Some(local) = &c.local {
            // The reply has begun: the request kept the shared server busy until now.
            local.server.touch();
        }
        let status = response.status();
        let limit = c.max_reply_bytes;
        let too_large = || LlmError::TooLarge {
            endpoint: endpoint.clone(),
            limit,
        };
        if !status.is_success() {
            let retry_after = retry_after(response.headers());
            // An error page is read only as far as it is shown.
            let text = read_capped(response, 64 * 1024).await.unwrap_or_default();
            let body = String::from_utf8_lossy(&text)
                .chars()
                .take(500)
                .collect::<String>();
            return Err(match status.as_u16() {
                429 => LlmError::RateLimited {
                    endpoint,
                    retry_after,
                },
                s @ 500..=599 => LlmError::Server {
                    endpoint,
                    status: s,
                    body,
                },
                s => LlmError::Client {
                    endpoint,
                    status: s,
                    body,
                },
            });
        }
        if !stream {
            let bytes = read_capped(response, limit).await.map_err(|e| match e {
                BodyError::TooLarge => too_large(),
                BodyError::Http(e) => from_reqwest(&endpoint, c, e),
            })?;
            let text = String::from_utf8_lossy(&bytes);
            let value: Value = serde_json::from_str(&text).map_err(|e| LlmError::Malformed {
                endpoint: endpoint.clone(),
                message: format!("{e}: {}", text.chars().take(200).collect::<String>()),
            })?;
            let reply = c
                .wire
                .parse(&value)
                .map_err(|message| LlmError::Malformed { endpoint, message })?;
            on_delta(&reply.text);
            return Ok(reply);
        }
        let mut state: Box<dyn StreamState> = c.wire.stream_state();
        // The cap is on what the reply says (its text), not on the stream's framing: a
        // cloud model sends a token per event, each in ~200 bytes of JSON and SSE. The
        // framing has a cap of its own, far larger, so a stream of empty events still
        // ends.
        let framing_limit = limit.saturating_mul(FRAMING_FACTOR);
        let too_large_framing = || LlmError::TooLarge {
            endpoint: endpoint.clone(),
            limit: framing_limit,
        };
        let said = std::sync::atomic::AtomicU64::new(0);
        let mut counted = |text: &str| {
            said.fetch_add(text.len() as u64, std::sync::atomic::Ordering::Relaxed);
            on_delta(text);
        };
        let past_limit = || said.load(std::sync::atomic::Ordering::Relaxed) > limit;
        let malformed = |message| LlmError::Malformed {
            endpoint: endpoint.clone(),
            message,
        };
        let cut = |message: String| LlmError::StreamCut {
            endpoint: endpoint.clone(),
            message,
        };
        let body_error = |e: BodyError| match e {
            BodyError::TooLarge => too_large_framing(),
            BodyError::Http(e) => cut(e.to_string()),
        };
        match c.wire.framing() {
            Framing::ServerSentEvents => {
                let mut events = capped(response, framing_limit).eventsource();
                while let Some(event) = events.next().await {
                    let event = event.map_err(|e| match e {
                        eventsource_stream::EventStreamError::Transport(e) => body_error(e),
                        other => cut(other.to_string()),
                    })?;
                    let done = state.feed(&event.data, &mut counted).map_err(malformed)?;
                    if past_limit() {
                        return Err(too_large());
                    }
                    if done {
                        break;
                    }
                }
            }
            Framing::JsonLines => {
                let mut bytes = std::pin::pin!(capped(response, framing_limit));
                let mut pending = Vec::new();
                'read: while let Some(chunk) = bytes.next().await {
                    pending.extend_from_slice(&chunk.map_err(body_error)?);
                    while let Some(end) = pending.iter().position(|b| *b == b'\n') {
                        let line: Vec<u8> = pending.drain(..=end).collect();
                        let line = String::from_utf8_lossy(&line);
                        if line.trim().is_empty() {
                            continue;
                        }
                        let done = state.feed(line.trim(), &mut counted).map_err(malformed)?;
                        if past_limit() {
                            return Err(too_large());
                        }
                        if done {
                            break 'read;
                        }
                    }
                }
            }
        }
        if !state.complete() {
            return Err(cut("the body ended before the response was complete".into()));
        }
        Ok(state.finish())
    }
}

/// How many times `provider.maxReplyBytes` a streamed reply's framing (JSON, SSE) may
/// take: per-token events carry ~50 bytes of framing for each byte of text.
const FRAMING_FACTOR: u64 = 64;

impl Model for LlmClient {
    async fn complete(
        &self,
        request: &ModelRequest,
        on_delta: &mut (dyn FnMut(&str) + Send),
    ) -> Result<ModelReply, ModelError> {
        let mut failures: Vec<(String, LlmError)> = Vec::new();
        for p in &self.providers {
            match self.call_with_retries(p, request, on_delta).await {
                Ok(reply) => return Ok(reply),
                Err(e) => {
                    tracing::warn!("provider {} failed: {e}", p.config.model);
                    failures.push((p.config.model.clone(), e));
                }
            }
        }
        // The first provider's failure is the one the user set up; fallbacks are details.
        let details: Vec<String> = failures
            .iter()
            .map(|(model, e)| format!("{model}: {e}"))
            .collect();
        Err(match failures.first() {
            Some((_, first)) => ModelError::new(
                first.failure(),
                first.said(),
                details.join("\nthen "),
                first.fix(),
            ),
            None => ModelError::new(
                ModelFailure::Unconfigured,
                "No language model is set up yet.",
                "",
                None,
            ),
        })
    }

    fn capabilities(&self) -> Capabilities {
        self.capabilities
    }

    fn watch_retries(&self, listener: RetryListener) {
        if let Ok(mut slot) = self.on_retry.lock() {
            *slot = Some(listener);
        }
    }

    async fn context_window(&self) -> Option<u32> {
        let p = self.providers.first()?;
        if let Some(local) = &p.config.local {
            // Zeta started it with this size.
            return Some(local.spec.context);
        }
        crate::window::context_window(&p.http, &p.config).await
    }
}

/// Builds each task's client from that task's settings (core's `ModelSource`), with keys
/// from the environment and the home's secret store.
pub struct SettingsModels {
    secrets: Option<SecretStore>,
    /// Serves the `local` provider (a model in `$ZETA_HOME/models`).
    local: Option<Arc<LocalServer>>,
}

impl SettingsModels {
    pub fn new(secrets: SecretStore) -> Self {
        Self {
            secrets: Some(secrets),
            local: None,
        }
    }

    /// Keys from the environment only (benchmarks).
    pub fn env_only() -> Self {
        Self {
            secrets: None,
            local: None,
        }
    }

    /// Runs the `local` provider's server with `server`.
    pub fn with_local_server(mut self, server: Arc<LocalServer>) -> Self {
        self.local = Some(server);
        self
    }
}

impl zeta_core::agent_loop::ModelSource for SettingsModels {
    type Model = LlmClient;
    fn model_for(&self, settings: &Settings) -> Result<LlmClient, ModelError> {
        LlmClient::from_settings(settings, self.secrets.as_ref(), self.local.as_ref())
            .map_err(|e| e.to_model_error())
    }
}

/// Why a response body stopped being read.
#[derive(Debug)]
enum BodyError {
    Http(reqwest::Error),
    /// It passed the byte limit.
    TooLarge,
}

impl std::fmt::Display for BodyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BodyError::Http(e) => write!(f, "{e}"),
            BodyError::TooLarge => f.write_str("the body passed its size limit"),
        }
    }
}

/// The body's chunks, ending in `TooLarge` once more than `limit` bytes came.
fn capped(
    response: reqwest::Response,
    limit: u64,
) -> impl futures_util::Stream<Item = Result<bytes::Bytes, BodyError>> {
    let mut total = 0u64;
    response.bytes_stream().map(move |chunk| {
        let chunk = chunk.map_err(BodyError::Http)?;
        total = total.saturating_add(chunk.len() as u64);
        if total > limit {
            Err(BodyError::TooLarge)
        } else {
            Ok(chunk)
        }
    })
}

/// The whole body, or `TooLarge` past `limit` bytes.
async fn read_capped(response: reqwest::Response, limit: u64) -> Result<Vec<u8>, BodyError> {
    let mut body = Vec::new();
    let mut chunks = std::pin::pin!(capped(response, limit));
    while let Some(chunk) = chunks.next().await {
        body.extend_from_slice(&chunk?);
    }
    Ok(body)
}

fn refused_json_schema(error: &LlmError, req: &ModelRequest) -> bool {
    let body = match error {
        LlmError::Client { body, .. } | LlmError::Server { body, .. } => body,
        _ => return false,
    };
    matches!(req.format, ResponseFormat::JsonSchema(_))
        && (body.contains("json_schema") || body.contains("response_format"))
}

/// `Retry-After` in seconds (the HTTP-date form is not used by LLM APIs).
fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    headers
        .get(RETRY_AFTER)
        .and_then(|v: &HeaderValue| v.to_str().ok())
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s >= 0.0)
        .map(Duration::from_secs_f64)
}

fn from_reqwest(endpoint: &str, c: &ProviderConfig, e: reqwest::Error) -> LlmError {
    let endpoint = endpoint.to_string();
    if e.is_timeout() {
        LlmError::Timeout {
            endpoint,
            timeout: c.idle_timeout,
        }
    } else if e.is_body() || e.is_decode() {
        LlmError::StreamCut {
            endpoint,
            message: e.to_string(),
        }
    } else {
        LlmError::Connect {
            endpoint,
            message: e.to_string(),
        }
    }
}

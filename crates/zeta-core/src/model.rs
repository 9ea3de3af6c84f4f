//! What the agent loop needs from a language model, in provider-neutral terms: the
//! conversation (`Message`, `ToolCall`, `ToolSpec`), one request (`ModelRequest`), and the
//! `Model` trait that zeta-llm implements for each wire format.

pub use zeta_protocol::task::Fix;

use std::future::Future;

use serde::{Deserialize, Serialize};
use serde_json::Value;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    System,
    User,
    Assistant,
    /// The result of one tool call (native tool protocol).
    Tool,
}

/// An image in a user turn (e.g. a screenshot), base64-encoded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImageData {
    pub media_type: String,
    pub base64: String,
}

/// A call the model asked for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    /// The provider's id, or one Zeta made up when the protocol has none.
    pub id: String,
    pub name: String,
    pub arguments: Value,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Message {
    pub role: Role,
    pub content: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub images: Vec<ImageData>,
    /// Assistant turns: the calls it made.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<ToolCall>,
    /// Tool turns: which call this answers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
}

impl Message {
    fn plain(role: Role, content: impl Into<String>) -> Self {
        Self {
            role,
            content: content.into(),
            images: Vec::new(),
            tool_calls: Vec::new(),
            tool_call_id: None,
        }
    }
    pub fn system(content: impl Into<String>) -> Self {
        Self::plain(Role::System, content)
    }
    pub fn user(content: impl Into<String>) -> Self {
        Self::plain(Role::User, content)
    }
    pub fn assistant(content: impl Into<String>) -> Self {
        Self::plain(Role::Assistant, content)
    }
    pub fn assistant_calls(content: impl Into<String>, calls: Vec<ToolCall>) -> Self {
        Self {
            tool_calls: calls,
            ..Self::plain(Role::Assistant, content)
        }
    }
    pub fn tool_result(call_id: impl Into<String>, content: impl Into<String>) -> Self {
        Self {
            tool_call_id: Some(call_id.into()),
            ..Self::plain(Role::Tool, content)
        }
    }
}

/// A tool as the model sees it: name, description and JSON Schema of its arguments.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolSpec {
    pub name: String,
    pub description: String,
    pub parameters: Value,
}

/// How the model is asked to answer.
#[derive(Debug, Clone, PartialEq)]
pub enum ResponseFormat {
    /// Free text plus native tool calls (`tools` in the request).
    Native,
    /// A JSON object constrained by this schema (the JSON planner protocol); no tools.
    JsonSchema(Value),
    /// Free text, no tools (the final summary at the iteration cap).
    Text,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ModelRequest {
    /// The whole conversation, system prompt first.
    pub messages: Vec<Message>,
    /// Offered only with `ResponseFormat::Native`.
    pub tools: Vec<ToolSpec>,
    pub format: ResponseFormat,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    pub input_tokens: u64,
    pub output_tokens: u64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ModelReply {
    pub text: String,
    pub tool_calls: Vec<ToolCall>,
    pub usage: Usage,
}

/// What kind of failure a model call ended in, so the loop can treat each as it needs:
/// a request too large for the window is shrunk and sent again; the others end the task
/// with their sentence and fix. The provider maps its own errors into these.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModelFailure {
    /// No provider, or settings that do not make one.
    Unconfigured,
    /// The provider refused the API key, or needs one.
    Auth,
    /// The request did not fit the model's context window.
    ContextOverflow,
    /// Too many requests (the provider's retries are spent).
    RateLimited,
    /// The server could not be reached or did not answer in time (retries spent).
    Unreachable,
    /// The server failed, or its reply could not be read (retries spent).
    Server,
    /// The reply ran too long or grew too large, and was stopped.
    Runaway,
    /// The provider refused the request for another reason (a model name, an address).
    Refused,
}

impl ModelFailure {
    /// Whether the same request may work a moment later, unchanged.
    pub fn is_retryable(self) -> bool {
        matches!(
            self,
            ModelFailure::RateLimited | ModelFailure::Unreachable | ModelFailure::Server
        )
    }
}

/// A model call that failed after the provider's own retries and fallbacks: what kind of
/// failure, one plain sentence for the user, the details for whoever asks, and what fixes
/// it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{said}")]
pub struct ModelError {
    pub failure: ModelFailure,
    pub said: String,
    pub details: String,
    pub fix: Option<Fix>,
}

impl ModelError {
    pub fn new(
        failure: ModelFailure,
        said: impl Into<String>,
        details: impl Into<String>,
        fix: Option<Fix>,
    ) -> Self {
        Self {
            failure,
            said: said.into(),
            details: details.into(),
            fix,
        }
    }

    /// The sentence, then the details as a paragraph of their own.
    pub fn full(&self) -> String {
        if self.details.is_empty() {
            self.said.clone()
        } else {
            format!("{}\n\n{}", self.said, self.details)
        }
    }
}

/// What a model can do, as its provider knows it: the loop asks the model instead of
/// guessing from the settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Capabilities {
    /// Native tool calls (decides `protocol: auto`).
    pub native_tools: bool,
    /// User turns may carry images.
    pub images: bool,
    /// A small model that fumbles tool arguments and answers before looking: the planner
    /// offers it the shell only, and `verify: auto` checks its answers.
    pub small: bool,
}

/// The provider is about to try again after a failed request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Retrying {
    /// The attempt that failed (1 for the first).
    pub attempt: u32,
    pub wait_ms: u64,
    /// Why, in one plain sentence.
    pub said: String,
}

/// Told of each retry while a task waits for the model.
pub type RetryListener = std::sync::Arc<dyn Fn(Retrying) + Send + Sync>;

/// One language model behind some provider.
pub trait Model: Send + Sync + 'static {
    /// Sends the request; `on_delta` sees streamed text as it arrives.
    fn complete(
        &self,
        request: &ModelRequest,
        on_delta: &mut (dyn FnMut(&str) + Send),
    ) -> impl Future<Output = Result<ModelReply, ModelError>> + Send;

    /// What the model can do (native tools, images, whether it is small).
    fn capabilities(&self) -> Capabilities;

    /// Tells `listener` of each retry from now on (the chat shows them). Models that do
    /// not retry ignore it.
    fn watch_retries(&self, _listener: RetryListener) {}

    /// The context window the server reports for this model, when it says (asked once
    /// per task; the smaller of this and `provider.contextWindow` is used).
    fn context_window(&self) -> impl Future<Output = Option<u32>> + Send {
        std::future::ready(None)
    }
}

//! The one error type of zeta-llm, split into what a retry can fix and what it cannot.

use std::time::Duration;

#[derive(Debug, Clone, thiserror::Error)]
pub enum LlmError {
    #[error("{endpoint}: rate limited (HTTP 429){}", retry_after.map(|d| format!(", retry after {} s", d.as_secs_f32())).unwrap_or_default())]
    RateLimited {
        endpoint: String,
        retry_after: Option<Duration>,
    },
    #[error("{endpoint}: server error HTTP {status}: {body}")]
    Server {
        endpoint: String,
        status: u16,
        body: String,
    },
    #[error("{endpoint}: request refused HTTP {status}: {body}")]
    Client {
        endpoint: String,
        status: u16,
        body: String,
    },
    #[error("{endpoint}: no answer within {0:?}", timeout)]
    Timeout { endpoint: String, timeout: Duration },
    #[error("{endpoint}: could not connect: {message}")]
    Connect { endpoint: String, message: String },
    #[error("{endpoint}: malformed response: {message}")]
    Malformed { endpoint: String, message: String },
    #[error("{endpoint}: the response stream ended early: {message}")]
    StreamCut { endpoint: String, message: String },
    /// The reply did not end within `provider.replyTimeoutSecs` (a server that keeps
    /// streaming). Not retried: the same server would do it again.
    #[error("{endpoint}: the reply did not end within {} s (provider.replyTimeoutSecs); it was stopped", deadline.as_secs())]
    Deadline {
        endpoint: String,
        deadline: Duration,
    },
    /// The reply grew past `provider.maxReplyBytes`. Not retried.
    #[error("{endpoint}: the reply passed {limit} bytes (provider.maxReplyBytes); it was stopped")]
    TooLarge { endpoint: String, limit: u64 },
    #[error("provider settings: {0}")]
    Config(String),
    /// Zeta's own model server could not be started (after its own restarts).
    #[error(transparent)]
    Local(#[from] crate::local::LocalError),
}

impl LlmError {
    /// True when the same request may succeed if sent again.
    pub fn is_retryable(&self) -> bool {
        match self {
            LlmError::RateLimited { .. }
            | LlmError::Server { .. }
            | LlmError::Timeout { .. }
            | LlmError::Connect { .. }
            | LlmError::Malformed { .. }
            | LlmError::StreamCut { .. } => true,
            LlmError::Client { .. }
            | LlmError::Deadline { .. }
            | LlmError::TooLarge { .. }
            | LlmError::Config(_)
            | LlmError::Local(_) => false,
        }
    }

    /// The same error with `secret` removed from every text in it.
    pub fn redacted(self, secret: Option<&crate::secrets::Secret>) -> Self {
        let Some(secret) = secret else { return self };
        let r = |text: String| crate::secrets::redact(&text, &[secret]);
        match self {
            LlmError::Server {
                endpoint,
                status,
                body,
            } => LlmError::Server {
                endpoint: r(endpoint),
                status,
                body: r(body),
            },
            LlmError::Client {
                endpoint,
                status,
                body,
            } => LlmError::Client {
                endpoint: r(endpoint),
                status,
                body: r(body),
            },
            LlmError::Connect { endpoint, message } => LlmError::Connect {
                endpoint: r(endpoint),
                message: r(message),
            },
            LlmError::Malformed { endpoint, message } => LlmError::Malformed {
                endpoint: r(endpoint),
                message: r(message),
            },
            LlmError::StreamCut { endpoint, message } => LlmError::StreamCut {
                endpoint: r(endpoint),
                message: r(message),
            },
            LlmError::Config(message) => LlmError::Config(r(message)),
            other => other,
        }
    }

    /// The server's own wait, when it gave one.
    pub fn retry_after(&self) -> Option<Duration> {
        match self {
            LlmError::RateLimited { retry_after, .. } => *retry_after,
            _ => None,
        }
    }
}

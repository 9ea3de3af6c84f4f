//! Provider errors as a person reads them: one sentence that says what went wrong in
//! words (never a URL twice, a JSON body or a variable name) and what fixes it
//! (`zeta_core::model::Fix`). The full error stays available as the details.

use zeta_core::model::{Fix, ModelError, ModelFailure};

use crate::error::LlmError;
use crate::local::LocalError;

/// The server's host and port from an endpoint URL, for a sentence ("127.0.0.1:8080").
fn host(endpoint: &str) -> &str {
    let rest = endpoint.split_once("://").map_or(endpoint, |(_, r)| r);
    rest.split('/').next().unwrap_or(rest)
}

/// What servers say when a request does not fit the model's context window: llama.cpp
/// ("exceeds the available context size"), OpenAI ("maximum context length",
/// "context_length_exceeded"), Anthropic ("prompt is too long"), Ollama and vLLM
/// ("context length", "too many tokens").
const OVERFLOW_WORDS: &[&str] = &[
    "context size",
    "context length",
    "context_length",
    "context window",
    "prompt is too long",
    "too many tokens",
    "maximum context",
];

impl LlmError {
    /// The request did not fit the model's window (a refusal that says so).
    pub fn is_context_overflow(&self) -> bool {
        match self {
            LlmError::Client {
                status: 400 | 413 | 422,
                body,
                ..
            } => {
                let body = body.to_lowercase();
                OVERFLOW_WORDS.iter().any(|w| body.contains(w))
            }
            _ => false,
        }
    }

    /// The kind of failure, as the core treats it.
    pub fn failure(&self) -> ModelFailure {
        match self {
            LlmError::Client { status: 401, .. } | LlmError::Client { status: 403, .. } => {
                ModelFailure::Auth
            }
            e if e.is_context_overflow() => ModelFailure::ContextOverflow,
            LlmError::Client { .. } => ModelFailure::Refused,
            LlmError::RateLimited { .. } => ModelFailure::RateLimited,
            LlmError::Timeout { .. } | LlmError::Connect { .. } => ModelFailure::Unreachable,
            LlmError::Server { .. } | LlmError::Malformed { .. } | LlmError::StreamCut { .. } => {
                ModelFailure::Server
            }
            LlmError::Deadline { .. } | LlmError::TooLarge { .. } => ModelFailure::Runaway,
            LlmError::Config(message) if message.contains("key") => ModelFailure::Auth,
            LlmError::Config(_) => ModelFailure::Unconfigured,
            LlmError::Local(LocalError::Failed(_) | LocalError::Stopped) => ModelFailure::Server,
            LlmError::Local(_) => ModelFailure::Unconfigured,
        }
    }

    /// One plain sentence for the user.
    pub fn said(&self) -> String {
        match self {
            e if e.is_context_overflow() => {
                "The conversation grew past what the model can read at once.".into()
            }
            LlmError::Client { status: 401, .. } | LlmError::Client { status: 403, .. } => {
                "The provider rejected the API key.".into()
            }
            LlmError::Client {
                status: 404,
                endpoint,
                ..
            } => format!(
                "The model server at {} does not know this model or address.",
                host(endpoint)
            ),
            LlmError::Client { status, .. } => {
                format!("The provider refused the request (HTTP {status}).")
            }
            LlmError::RateLimited { .. } => {
                "The provider is limiting requests right now; try again in a minute.".into()
            }
            LlmError::Server {
                status, endpoint, ..
            } => format!(
                "The model server at {} had an error (HTTP {status}).",
                host(endpoint)
            ),
            LlmError::Timeout { endpoint, .. } => {
                format!(
                    "The model server at {} did not answer in time.",
                    host(endpoint)
                )
            }
            LlmError::Connect { endpoint, .. } => format!(
                "Zeta could not reach the model server at {}. Is it running?",
                host(endpoint)
            ),
            LlmError::Malformed { .. } | LlmError::StreamCut { .. } => {
                "The model server's reply could not be read.".into()
            }
            LlmError::Deadline { .. } => {
                "The model's reply went on too long and was stopped.".into()
            }
            LlmError::TooLarge { .. } => "The model's reply was too large and was stopped.".into(),
            LlmError::Config(message) if message.starts_with("no provider configured") => {
                "No language model is set up yet.".into()
            }
            LlmError::Config(message) if message.contains("API key") || message.contains("key") => {
                "The provider needs an API key.".into()
            }
            LlmError::Config(_) => "The model settings are incomplete.".into(),
            LlmError::Local(LocalError::NoServer { .. }) => {
                "Zeta's own model server is not installed yet.".into()
            }
            LlmError::Local(LocalError::NoModel { .. } | LocalError::NoModelNamed { .. }) => {
                "Zeta's local model is not downloaded yet.".into()
            }
            LlmError::Local(LocalError::Failed(_) | LocalError::Stopped) => {
                "Zeta's own model server stopped working.".into()
            }
        }
    }

    /// What the user can do about it.
    pub fn fix(&self) -> Option<Fix> {
        match self {
            LlmError::Client { status: 401, .. } | LlmError::Client { status: 403, .. } => {
                Some(Fix::SetKey)
            }
            LlmError::Config(message) if message.contains("key") => Some(Fix::SetKey),
            LlmError::Client { .. } | LlmError::Config(_) => Some(Fix::OpenSettings),
            LlmError::Local(LocalError::Failed(_) | LocalError::Stopped) => Some(Fix::Retry),
            LlmError::Local(_) => Some(Fix::OpenSettings),
            LlmError::RateLimited { .. }
            | LlmError::Server { .. }
            | LlmError::Timeout { .. }
            | LlmError::Connect { .. }
            | LlmError::Malformed { .. }
            | LlmError::StreamCut { .. }
            | LlmError::Deadline { .. }
            | LlmError::TooLarge { .. } => Some(Fix::Retry),
        }
    }

    /// As the core takes it: the sentence, this error as the details, and the fix.
    pub fn to_model_error(&self) -> ModelError {
        ModelError::new(self.failure(), self.said(), self.to_string(), self.fix())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn client(status: u16) -> LlmError {
        LlmError::Client {
            endpoint: "https://api.example.com/v1/chat/completions".into(),
            status,
            body: r#"{"error":{"message":"Incorrect API key provided"}}"#.into(),
        }
    }

    #[test]
    fn a_rejected_key_says_so_and_offers_to_set_it() {
        for status in [401, 403] {
            let e = client(status);
            assert_eq!(e.said(), "The provider rejected the API key.");
            assert_eq!(e.fix(), Some(Fix::SetKey));
            let m = e.to_model_error();
            assert!(
                m.details.contains("Incorrect API key"),
                "the details keep the body"
            );
        }
    }

    #[test]
    fn sentences_name_the_server_once_and_hold_no_json() {
        let errors = [
            client(404),
            client(400),
            LlmError::Connect {
                endpoint: "http://127.0.0.1:8080/v1/chat/completions".into(),
                message: "connection refused".into(),
            },
            LlmError::Server {
                endpoint: "http://127.0.0.1:11434/api/chat".into(),
                status: 503,
                body: "{\"error\":\"loading\"}".into(),
            },
            LlmError::Timeout {
                endpoint: "http://h:1/x".into(),
                timeout: std::time::Duration::from_secs(3),
            },
            LlmError::RateLimited {
                endpoint: "http://h:1/x".into(),
                retry_after: None,
            },
            LlmError::Config("no provider configured: set provider.kind, baseUrl and model in settings.json, or ZETA_LLM_PROVIDER".into()),
            LlmError::Local(LocalError::NoModelNamed { models_dir: "/m".into() }),
        ];
        for e in errors {
            let said = e.said();
            assert!(!said.contains('{') && !said.contains("://"), "{said}");
            assert!(
                !said.contains("ZETA_") && !said.contains("settings.json"),
                "{said}"
            );
            assert!(said.ends_with('.') || said.ends_with('?'), "{said}");
            assert!(e.fix().is_some(), "{said} offers a fix");
            assert!(said.matches("127.0.0.1").count() <= 1, "{said}");
        }
        assert_eq!(
            LlmError::Config("no provider configured: …".into()).fix(),
            Some(Fix::OpenSettings)
        );
    }

    /// Refusals for a request too large for the window, as each server words them, are a
    /// context overflow; other refusals are not.
    #[test]
    fn context_overflows_are_told_apart_from_other_refusals() {
        let refusal = |status: u16, body: &str| LlmError::Client {
            endpoint: "http://127.0.0.1:8080/v1/chat/completions".into(),
            status,
            body: body.into(),
        };
        let overflows = [
            (
                400,
                r#"{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error"}}"#,
            ),
            (
                400,
                r#"{"error":{"message":"This model's maximum context length is 8192 tokens. However, your messages resulted in 9001 tokens.","code":"context_length_exceeded"}}"#,
            ),
            (
                400,
                r#"{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"}}"#,
            ),
            (
                400,
                r#"{"object":"error","message":"This model's maximum context length is 4096 tokens.","type":"BadRequestError"}"#,
            ),
            (413, "Request too large: too many tokens"),
            (
                422,
                r#"{"detail":"Input validation error: inputs tokens + max_new_tokens must be <= 4096. Context length exceeded"}"#,
            ),
        ];
        for (status, body) in overflows {
            let e = refusal(status, body);
            assert_eq!(e.failure(), ModelFailure::ContextOverflow, "{body}");
            assert!(e.said().contains("can read at once"), "{}", e.said());
        }
        let others = [
            (400, r#"{"error":{"message":"model 'qwen9' not found"}}"#),
            (
                400,
                r#"{"error":{"message":"Invalid 'messages[1].content': expected a string"}}"#,
            ),
            (404, "context length exceeded"),
            (401, "maximum context length"),
            (422, r#"{"detail":"temperature must be between 0 and 2"}"#),
        ];
        for (status, body) in others {
            let failure = refusal(status, body).failure();
            assert_ne!(failure, ModelFailure::ContextOverflow, "{status} {body}");
        }
        assert_eq!(client(401).failure(), ModelFailure::Auth);
        let limited = LlmError::RateLimited {
            endpoint: "http://h:1/x".into(),
            retry_after: None,
        };
        assert_eq!(limited.failure(), ModelFailure::RateLimited);
        assert!(limited.failure().is_retryable());
        assert!(!ModelFailure::ContextOverflow.is_retryable());
    }
}

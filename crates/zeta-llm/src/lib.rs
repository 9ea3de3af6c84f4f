//! zeta-llm: language models over HTTP for the agent loop.
//!
//! - [`client`]: `LlmClient`, core's `Model`: retries, fallback, streaming.
//! - [`wire`]: the OpenAI, Anthropic and Ollama request and response formats.
//! - [`config`]: which endpoints, from settings and `ZETA_LLM_*`.
//! - [`retry`]: backoff with jitter, honouring Retry-After.
//! - [`error`]: `LlmError`, split into retryable and permanent.
//! - [`detect`]: local servers on localhost, and a one-request connection test.
//! - [`window`]: the context window a server reports (llama-server, vLLM, Ollama).
//! - [`local`]: the `local` provider's own llama.cpp server, started and supervised by Zeta.
//! - [`secrets`]: API keys in the OS keyring, or an owner-only file when there is none.

pub mod client;
pub mod config;
pub mod detect;
pub mod error;
pub mod local;
mod plain;
pub mod retry;
pub mod secrets;
pub mod window;
pub mod wire;

pub use client::{LlmClient, SettingsModels};
pub use config::{ProviderConfig, WireFormat};
pub use error::LlmError;
pub use local::{LocalServer, LocalServerState};
pub use retry::RetryPolicy;
pub use secrets::{Backend, Secret, SecretError, SecretStore};

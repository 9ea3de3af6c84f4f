//! Which endpoints to call, in order: the primary provider from settings (environment
//! variables `ZETA_LLM_*` override it) and then the fallbacks.

use std::time::Duration;

use zeta_core::settings::{ProviderKind, ProviderSettings, Settings};

use crate::error::LlmError;
use crate::retry::RetryPolicy;

/// The wire format an endpoint speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WireFormat {
    /// `POST {base}/chat/completions` (OpenAI, OpenRouter, llama.cpp, vLLM, LM Studio, Ollama /v1).
    OpenAi,
    /// `POST {base}/v1/messages`.
    Anthropic,
    /// `POST {base}/api/chat` (Ollama's native API).
    Ollama,
}

#[derive(Clone)]
pub struct ProviderConfig {
    pub wire: WireFormat,
    pub base_url: String,
    pub model: String,
    pub api_key: Option<String>,
    pub stream: bool,
    /// Longest silence while waiting for (more of) a response.
    pub idle_timeout: Duration,
    pub retry: RetryPolicy,
}

impl std::fmt::Debug for ProviderConfig {
    // Never print the key.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProviderConfig")
            .field("wire", &self.wire)
            .field("base_url", &self.base_url)
            .field("model", &self.model)
            .field("api_key", &self.api_key.as_ref().map(|_| "<set>"))
            .field("stream", &self.stream)
            .finish()
    }
}

impl ProviderConfig {
    /// From one provider section; the key comes from the environment.
    pub fn from_settings(p: &ProviderSettings, api_key: Option<String>) -> Result<Self, LlmError> {
        let wire = match p.kind {
            ProviderKind::None => {
                return Err(LlmError::Config(
                    "no provider configured: set provider.kind, baseUrl and model in settings.json, or ZETA_LLM_PROVIDER/ZETA_LLM_BASE_URL/ZETA_LLM_MODEL".into(),
                ))
            }
            ProviderKind::Openai | ProviderKind::Local => WireFormat::OpenAi,
            ProviderKind::Anthropic => WireFormat::Anthropic,
            ProviderKind::Ollama => WireFormat::Ollama,
        };
        let base_url = match (p.base_url.trim(), wire) {
            ("", WireFormat::OpenAi) if p.kind == ProviderKind::Openai => {
                "https://api.openai.com/v1".to_string()
            }
            ("", WireFormat::Anthropic) => "https://api.anthropic.com".to_string(),
            ("", WireFormat::Ollama) => "http://127.0.0.1:11434".to_string(),
            ("", _) => {
                return Err(LlmError::Config(format!(
                    "provider {:?} needs a baseUrl",
                    p.kind
                )))
            }
            (url, _) => url.trim_end_matches('/').to_string(),
        };
        if p.model.trim().is_empty() {
            return Err(LlmError::Config(format!(
                "provider {:?} at {base_url} needs a model name",
                p.kind
            )));
        }
        Ok(Self {
            wire,
            base_url,
            model: p.model.trim().to_string(),
            api_key: api_key.filter(|k| !k.is_empty()),
            stream: p.stream,
            idle_timeout: Duration::from_millis(p.idle_timeout_ms.max(100)),
            retry: RetryPolicy {
                max_attempts: p.max_attempts.clamp(1, 10),
                ..RetryPolicy::default()
            },
        })
    }

    pub fn endpoint(&self) -> String {
        match self.wire {
            WireFormat::OpenAi => format!("{}/chat/completions", self.base_url),
            WireFormat::Anthropic => format!("{}/v1/messages", self.base_url),
            WireFormat::Ollama => format!("{}/api/chat", self.base_url),
        }
    }
}

/// The key for a provider kind: `ZETA_LLM_API_KEY` for the primary, else the kind's usual
/// variable.
pub fn api_key_from_env(kind: ProviderKind, primary: bool) -> Option<String> {
    let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    if primary {
        if let Some(key) = var("ZETA_LLM_API_KEY") {
            return Some(key);
        }
    }
    match kind {
        ProviderKind::Openai => var("OPENAI_API_KEY"),
        ProviderKind::Anthropic => var("ANTHROPIC_API_KEY"),
        _ => None,
    }
}

/// Every provider to try, primary first. Settings must already carry the environment
/// overrides (`Settings::load_or_create` applies them).
pub fn providers_from_settings(settings: &Settings) -> Result<Vec<ProviderConfig>, LlmError> {
    let mut list = vec![ProviderConfig::from_settings(
        &settings.provider,
        api_key_from_env(settings.provider.kind, true),
    )?];
    for fallback in &settings.fallback_providers {
        match ProviderConfig::from_settings(fallback, api_key_from_env(fallback.kind, false)) {
            Ok(config) => list.push(config),
            Err(e) => tracing::warn!("fallback provider skipped: {e}"),
        }
    }
    Ok(list)
}

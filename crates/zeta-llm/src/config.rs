//! Which endpoints to call, in order: the primary provider from settings (environment
//! variables `ZETA_LLM_*` override it) and then the fallbacks, each with its API key.
//!
//! A provider's key comes from, first to last: `ZETA_LLM_API_KEY` (primary only), the
//! secret store under `<kind>@<baseUrl>`, then under `<kind>`, then `OPENAI_API_KEY` /
//! `ANTHROPIC_API_KEY`.

use std::time::Duration;

use zeta_core::settings::{ProviderKind, ProviderSettings, Settings};

use crate::error::LlmError;
use crate::retry::RetryPolicy;
use crate::secrets::{Secret, SecretStore};

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
    pub api_key: Option<Secret>,
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
    /// From one provider section and its key.
    pub fn from_settings(p: &ProviderSettings, api_key: Option<Secret>) -> Result<Self, LlmError> {
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
            api_key: api_key.filter(|k| !k.expose().is_empty()),
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

/// The name a provider's key is stored under when it is for that endpoint only.
pub fn key_name(p: &ProviderSettings) -> String {
    format!(
        "{}@{}",
        kind_name(p.kind),
        p.base_url.trim().trim_end_matches('/')
    )
}

pub fn kind_name(kind: ProviderKind) -> &'static str {
    match kind {
        ProviderKind::None => "none",
        ProviderKind::Openai => "openai",
        ProviderKind::Anthropic => "anthropic",
        ProviderKind::Ollama => "ollama",
        ProviderKind::Local => "local",
    }
}

/// The names a provider's key may be stored under, the most specific first.
pub fn key_names(p: &ProviderSettings) -> [String; 2] {
    [key_name(p), kind_name(p.kind).to_string()]
}

/// The key for one provider section (see the module doc for the order).
pub fn api_key_for(
    p: &ProviderSettings,
    primary: bool,
    secrets: Option<&SecretStore>,
) -> Option<Secret> {
    let var = |name: &str| {
        std::env::var(name)
            .ok()
            .filter(|v| !v.is_empty())
            .map(Secret::new)
    };
    if primary {
        if let Some(key) = var("ZETA_LLM_API_KEY") {
            return Some(key);
        }
    }
    if let Some(store) = secrets {
        for name in key_names(p) {
            match store.get(&name) {
                Ok(Some(key)) => return Some(key),
                Ok(None) => {}
                Err(e) => tracing::warn!("could not read the API key {name:?}: {e}"),
            }
        }
    }
    match p.kind {
        ProviderKind::Openai => var("OPENAI_API_KEY"),
        ProviderKind::Anthropic => var("ANTHROPIC_API_KEY"),
        _ => None,
    }
}

/// Every provider to try, primary first. Settings must already carry the environment
/// overrides (`Settings::load_or_create` applies them).
pub fn providers_from_settings(
    settings: &Settings,
    secrets: Option<&SecretStore>,
) -> Result<Vec<ProviderConfig>, LlmError> {
    let mut list = vec![ProviderConfig::from_settings(
        &settings.provider,
        api_key_for(&settings.provider, true, secrets),
    )?];
    for fallback in &settings.fallback_providers {
        match ProviderConfig::from_settings(fallback, api_key_for(fallback, false, secrets)) {
            Ok(config) => list.push(config),
            Err(e) => tracing::warn!("fallback provider skipped: {e}"),
        }
    }
    Ok(list)
}

//! Which endpoints to call, in order: the primary provider from settings (environment
//! variables `ZETA_LLM_*` override it) and then the fallbacks, each with its API key.
//!
//! A provider's key comes from, first to last: `ZETA_LLM_API_KEY` (primary only), the
//! secret store under `<kind>@<baseUrl>`, then under `<kind>`, then `OPENAI_API_KEY` /
//! `ANTHROPIC_API_KEY`.

use std::sync::Arc;
use std::time::Duration;

use zeta_core::settings::{ProviderKind, ProviderSettings, Settings};

use crate::error::LlmError;
use crate::local::{LocalHandle, LocalServer, LocalSpec, ServerProgram};
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
    /// Longest one reply may take in all, and most bytes its body may have.
    pub reply_deadline: Duration,
    pub max_reply_bytes: u64,
    pub retry: RetryPolicy,
    /// A server Zeta runs itself (`local` without a baseUrl): the URL comes from it.
    pub local: Option<LocalHandle>,
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
            .field("local", &self.local.as_ref().map(|l| &l.spec))
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
            // Zeta runs the server; its URL is known once it runs.
            ("", _) if p.kind == ProviderKind::Local => String::new(),
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
            reply_deadline: Duration::from_secs(u64::from(p.reply_timeout_secs.max(1))),
            max_reply_bytes: p.max_reply_bytes.max(1024),
            retry: RetryPolicy {
                max_attempts: p.max_attempts.clamp(1, 10),
                ..RetryPolicy::default()
            },
            local: None,
        })
    }

    pub fn endpoint(&self) -> String {
        self.endpoint_at(&self.base_url)
    }

    /// The request URL under `base` (a local server's URL is known only once it runs).
    pub fn endpoint_at(&self, base: &str) -> String {
        match self.wire {
            WireFormat::OpenAi => format!("{base}/chat/completions"),
            WireFormat::Anthropic => format!("{base}/v1/messages"),
            WireFormat::Ollama => format!("{base}/api/chat"),
        }
    }

    /// Whether Zeta runs this provider's server.
    pub fn is_managed_local(&self) -> bool {
        self.local.is_some()
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
/// overrides (`zeta_core::settings::load_or_create` applies them). A `local` provider without a
/// baseUrl is served by `local` (Zeta's own server); without one it cannot be used.
pub fn providers_from_settings(
    settings: &Settings,
    secrets: Option<&SecretStore>,
    local: Option<&Arc<LocalServer>>,
) -> Result<Vec<ProviderConfig>, LlmError> {
    let one = |p: &ProviderSettings, primary: bool| {
        let mut config = ProviderConfig::from_settings(p, api_key_for(p, primary, secrets))?;
        if p.kind == ProviderKind::Local && config.base_url.is_empty() {
            let Some(server) = local else {
                return Err(LlmError::Config(
                    "the local provider without a baseUrl needs Zeta's own model server, which this command does not run".into(),
                ));
            };
            let spec = LocalSpec::from_settings(p, &server.home().join("models"))?;
            let program = ServerProgram::find()?;
            config.local = Some(LocalHandle {
                server: Arc::clone(server),
                spec,
                program,
            });
        }
        Ok::<_, LlmError>(config)
    };
    let mut list = vec![one(&settings.provider, true)?];
    for fallback in &settings.fallback_providers {
        match one(fallback, false) {
            Ok(config) => list.push(config),
            Err(e) => tracing::warn!("fallback provider skipped: {e}"),
        }
    }
    Ok(list)
}

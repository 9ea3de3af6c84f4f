//! Finding a model the user already runs: local Ollama and OpenAI-compatible servers
//! (llama-server, LM Studio, vLLM) on localhost, with the models they offer; and a
//! one-request connection test for a provider section, for the settings and onboarding.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use zeta_core::model::{Message, Model, ModelRequest, ResponseFormat};
use zeta_core::settings::{ProviderKind, ProviderSettings, Settings};

use crate::client::LlmClient;
use crate::secrets::SecretStore;

/// A local server that answered.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct LocalEndpoint {
    pub kind: ProviderKind,
    pub base_url: String,
    pub models: Vec<String>,
}

/// Where to look by default: Ollama's and llama-server's usual ports. `ZETA_LOCAL_ENDPOINTS`
/// (`ollama=URL,openai=URL`) replaces the list.
pub fn candidates() -> Vec<(ProviderKind, String)> {
    if let Ok(list) = std::env::var("ZETA_LOCAL_ENDPOINTS") {
        return list
            .split(',')
            .filter_map(|item| {
                let (kind, url) = item.split_once('=')?;
                let kind = match kind.trim() {
                    "ollama" => ProviderKind::Ollama,
                    "openai" => ProviderKind::Openai,
                    _ => return None,
                };
                Some((kind, url.trim().trim_end_matches('/').to_string()))
            })
            .collect();
    }
    vec![
        (ProviderKind::Ollama, "http://127.0.0.1:11434".into()),
        (ProviderKind::Openai, "http://127.0.0.1:8080/v1".into()),
    ]
}

/// Asks each candidate for its models; returns those that answered.
pub async fn local_endpoints(candidates: &[(ProviderKind, String)]) -> Vec<LocalEndpoint> {
    let Ok(http) = reqwest::Client::builder()
        .timeout(Duration::from_millis(1500))
        .build()
    else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for (kind, base) in candidates {
        let (url, list, field) = models_endpoint(*kind, base);
        let Ok(response) = http.get(&url).send().await else {
            continue;
        };
        if !response.status().is_success() {
            continue;
        }
        let Ok(body) = response.json::<Value>().await else {
            continue;
        };
        let models = model_names(&body, list, field);
        found.push(LocalEndpoint {
            kind: *kind,
            base_url: base.clone(),
            models,
        });
    }
    found
}

/// Where a server of `kind` at `base` lists its models: the URL, the list's key and each
/// model's name key (Ollama `/api/tags`, Anthropic `/v1/models`, OpenAI-compatible
/// `/models`).
fn models_endpoint(kind: ProviderKind, base: &str) -> (String, &'static str, &'static str) {
    match kind {
        ProviderKind::Ollama => (format!("{base}/api/tags"), "models", "name"),
        ProviderKind::Anthropic => (format!("{base}/v1/models"), "data", "id"),
        _ => (format!("{base}/models"), "data", "id"),
    }
}

/// The model names in a models listing (empty when it holds none).
fn model_names(body: &Value, list: &str, field: &str) -> Vec<String> {
    body.get(list)
        .and_then(Value::as_array)
        .map(|items| {
            items
                .iter()
                .filter_map(|m| m.get(field).and_then(Value::as_str).map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// The models `provider`'s server offers, read from it with its stored key: OpenAI-
/// compatible `/models`, Anthropic `/v1/models`, Ollama `/api/tags`. A refusal or an
/// unreachable server is one plain sentence.
pub async fn list_models(
    provider: &ProviderSettings,
    secrets: &SecretStore,
) -> Result<Vec<String>, String> {
    // Listing needs no model yet; the section is checked as it would be for a request.
    let named = ProviderSettings {
        model: Some(provider.model.trim())
            .filter(|m| !m.is_empty())
            .unwrap_or("(listing)")
            .to_string(),
        ..provider.clone()
    };
    let config = crate::config::ProviderConfig::from_settings(
        &named,
        crate::config::api_key_for(provider, true, Some(secrets)),
    )
    .map_err(|e| e.said())?;
    let base = config.base_url.trim_end_matches('/').to_string();
    if base.is_empty() {
        return Err("Enter the server's address first.".into());
    }
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(10))
        .build()
        .map_err(|e| e.to_string())?;
    let (url, list, field) = models_endpoint(provider.kind, &base);
    let mut request = http.get(&url);
    if let Some(key) = &config.api_key {
        request = match provider.kind {
            ProviderKind::Anthropic => request
                .header("x-api-key", key.expose())
                .header("anthropic-version", "2023-06-01"),
            _ => request.bearer_auth(key.expose()),
        };
    }
    let host = base.split_once("://").map_or(base.as_str(), |(_, h)| h);
    let response = request
        .send()
        .await
        .map_err(|_| format!("Zeta could not reach {host}. Check the address."))?;
    match response.status().as_u16() {
        200..=299 => {}
        401 | 403 => return Err("The server rejected the API key.".into()),
        404 => return Err(format!("{host} does not list models at this address.")),
        status => return Err(format!("{host} refused the request (HTTP {status}).")),
    }
    let body: Value = response
        .json()
        .await
        .map_err(|_| format!("{host} answered, but not with a list of models."))?;
    let mut models = model_names(&body, list, field);
    models.sort();
    Ok(models)
}

/// Sends one short request to `provider` (keys from the environment and `secrets`) and
/// returns the start of its answer, or why it failed. A `local` provider is served by
/// `local` (started when needed; a first start loads the model, so allow for it).
pub async fn test_connection(
    provider: &ProviderSettings,
    secrets: &SecretStore,
    local: Option<&std::sync::Arc<crate::local::LocalServer>>,
) -> Result<String, String> {
    let settings = Settings {
        provider: ProviderSettings {
            max_attempts: 1,
            ..provider.clone()
        },
        fallback_providers: Vec::new(),
        ..Settings::default()
    };
    let client =
        LlmClient::from_settings(&settings, Some(secrets), local).map_err(|e| e.to_string())?;
    let request = ModelRequest {
        messages: vec![
            Message::system("This is a connection test. Reply with the single word OK."),
            Message::user("Connection test: reply OK."),
        ],
        tools: Vec::new(),
        format: ResponseFormat::Text,
    };
    let mut ignore = |_: &str| {};
    let call = client.complete(&request, &mut ignore);
    let limit = if local.is_some() && provider.kind == zeta_core::settings::ProviderKind::Local {
        Duration::from_secs(180)
    } else {
        Duration::from_secs(30)
    };
    match tokio::time::timeout(limit, call).await {
        Ok(Ok(reply)) => {
            let text: String = reply.text.trim().chars().take(80).collect();
            Ok(if text.is_empty() {
                "(an empty reply)".into()
            } else {
                text
            })
        }
        Ok(Err(e)) => Err(e.to_string()),
        Err(_) => Err(format!("no answer within {} s", limit.as_secs())),
    }
}

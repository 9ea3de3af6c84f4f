//! Finding a model the user already runs: local Ollama and OpenAI-compatible servers
//! (llama-server, LM Studio, vLLM) on localhost, with the models they offer; and a
//! one-request connection test for a provider section, for the settings and onboarding.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;
use zeta_core::model::{Message, Model, ModelRequest, ResponseFormat};
use zeta_core::settings::{ProviderKind, ProviderSettings, Settings};

use crate::client::LlmClient;
use crate::secrets::SecretStore;

/// A local server that answered.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
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
        let (url, list, field) = match kind {
            ProviderKind::Ollama => (format!("{base}/api/tags"), "models", "name"),
            _ => (format!("{base}/models"), "data", "id"),
        };
        let Ok(response) = http.get(&url).send().await else {
            continue;
        };
        if !response.status().is_success() {
            continue;
        }
        let Ok(body) = response.json::<Value>().await else {
            continue;
        };
        let models = body
            .get(list)
            .and_then(Value::as_array)
            .map(|items| {
                items
                    .iter()
                    .filter_map(|m| m.get(field).and_then(Value::as_str).map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        found.push(LocalEndpoint {
            kind: *kind,
            base_url: base.clone(),
            models,
        });
    }
    found
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

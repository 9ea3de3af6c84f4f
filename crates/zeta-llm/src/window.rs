//! Asking a server how large its context window is, where it says: llama-server's
//! `/props` (`n_ctx`), vLLM's `/models` (`max_model_len`), and Ollama's `/api/show`
//! (`num_ctx` when set, else the model's `context_length`). Asked once per endpoint and
//! model in a process; a server that does not say is asked no more.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use serde_json::{json, Value};

use crate::config::{ProviderConfig, WireFormat};

/// (base URL, model) → the window the server reported, or `None` when it did not say.
type Known = HashMap<(String, String), Option<u32>>;

static KNOWN: Mutex<Option<Known>> = Mutex::new(None);

pub async fn context_window(http: &reqwest::Client, c: &ProviderConfig) -> Option<u32> {
    let key = (c.base_url.clone(), c.model.clone());
    if let Some(known) = KNOWN
        .lock()
        .ok()?
        .as_ref()
        .and_then(|m| m.get(&key).copied())
    {
        return known;
    }
    let found = tokio::time::timeout(Duration::from_secs(3), ask(http, c))
        .await
        .ok()
        .flatten();
    if let Some(n) = found {
        tracing::info!(base = %c.base_url, model = %c.model, n_ctx = n, "the server reports its context window");
    }
    if let Ok(mut known) = KNOWN.lock() {
        known.get_or_insert_with(HashMap::new).insert(key, found);
    }
    found
}

async fn ask(http: &reqwest::Client, c: &ProviderConfig) -> Option<u32> {
    let number = |v: &Value| {
        v.as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .filter(|n| *n > 0)
    };
    match c.wire {
        WireFormat::OpenAi => {
            let root = c.base_url.trim_end_matches("/v1");
            if let Some(props) = get_json(http, &format!("{root}/props")).await {
                let n = props
                    .pointer("/default_generation_settings/n_ctx")
                    .or_else(|| props.get("n_ctx"));
                if let Some(n) = n.and_then(number) {
                    return Some(n);
                }
            }
            let models = get_json(http, &format!("{}/models", c.base_url)).await?;
            models
                .get("data")?
                .as_array()?
                .iter()
                .find(|m| m.get("id").and_then(Value::as_str) == Some(c.model.as_str()))
                .and_then(|m| m.get("max_model_len"))
                .and_then(number)
        }
        WireFormat::Ollama => {
            let show: Value = http
                .post(format!("{}/api/show", c.base_url))
                .json(&json!({"model": c.model}))
                .send()
                .await
                .ok()?
                .json()
                .await
                .ok()?;
            let num_ctx = show
                .get("parameters")
                .and_then(Value::as_str)
                .and_then(|p| {
                    p.lines()
                        .find_map(|l| l.trim().strip_prefix("num_ctx")?.trim().parse().ok())
                });
            num_ctx.or_else(|| {
                show.get("model_info")?
                    .as_object()?
                    .iter()
                    .find(|(k, _)| k.ends_with(".context_length"))
                    .and_then(|(_, v)| number(v))
            })
        }
        WireFormat::Anthropic => None,
    }
}

async fn get_json(http: &reqwest::Client, url: &str) -> Option<Value> {
    let response = http.get(url).send().await.ok()?;
    if !response.status().is_success() {
        return None;
    }
    response.json().await.ok()
}

//! The three wire formats. Each module turns a `ModelRequest` into a request body and a
//! response (whole, or streamed event by event) back into a `ModelReply`.

pub mod anthropic;
pub mod ollama;
pub mod openai;

use serde_json::Value;
use zeta_core::model::{ModelReply, ToolCall, Usage};

/// Accumulates a streamed response.
pub trait StreamState: Send {
    /// Takes one event's data. Returns true on the format's explicit end marker.
    fn feed(&mut self, data: &str, on_delta: &mut (dyn FnMut(&str) + Send))
        -> Result<bool, String>;
    /// Whether what was received is a whole response (checked when the body ends).
    fn complete(&self) -> bool;
    fn finish(self: Box<Self>) -> ModelReply;
}

/// Arguments sent as a JSON string: parsed, or kept as the raw string when they are not
/// JSON (the loop then asks the model to send valid arguments).
pub(crate) fn parse_arguments(raw: &str) -> Value {
    if raw.trim().is_empty() {
        return Value::Object(Default::default());
    }
    serde_json::from_str(raw).unwrap_or_else(|_| Value::String(raw.to_string()))
}

/// Text and tool calls as collected from a stream.
#[derive(Default)]
pub(crate) struct Collected {
    pub text: String,
    /// (id, name, raw arguments)
    pub calls: Vec<(String, String, String)>,
    pub usage: Usage,
}

impl Collected {
    pub fn into_reply(self) -> ModelReply {
        ModelReply {
            text: self.text,
            tool_calls: self
                .calls
                .into_iter()
                .enumerate()
                .map(|(i, (id, name, raw))| ToolCall {
                    id: if id.is_empty() {
                        format!("call_{i}")
                    } else {
                        id
                    },
                    name,
                    arguments: parse_arguments(&raw),
                })
                .collect(),
            usage: self.usage,
        }
    }
}

pub(crate) fn u64_at(v: &Value, pointer: &str) -> u64 {
    v.pointer(pointer).and_then(Value::as_u64).unwrap_or(0)
}

//! The three wire formats. Each module turns a `ModelRequest` into a request body and a
//! response (whole, or streamed event by event) back into a `ModelReply`.

pub mod anthropic;
pub mod ollama;
pub mod openai;

use serde_json::{json, Value};
use zeta_core::model::{ModelReply, ModelRequest, ToolCall, ToolSpec, Usage};

use crate::config::WireFormat;

/// How a streamed response is cut into events.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Framing {
    /// Server-sent events (`data: …`).
    ServerSentEvents,
    /// One JSON object a line.
    JsonLines,
}

impl WireFormat {
    /// The request body for `req`; `json_object_schema`: the OpenAI-compatible server
    /// takes a schema only as `json_object` (see `openai::body`).
    pub fn body(
        self,
        req: &ModelRequest,
        model: &str,
        stream: bool,
        json_object_schema: bool,
    ) -> Value {
        match self {
            WireFormat::OpenAi => openai::body(req, model, stream, json_object_schema),
            WireFormat::Anthropic => anthropic::body(req, model, stream),
            WireFormat::Ollama => ollama::body(req, model, stream),
        }
    }

    /// A whole (not streamed) response.
    pub fn parse(self, value: &Value) -> Result<ModelReply, String> {
        match self {
            WireFormat::OpenAi => openai::parse(value),
            WireFormat::Anthropic => anthropic::parse(value),
            WireFormat::Ollama => ollama::parse(value),
        }
    }

    /// A fresh accumulator for a streamed response.
    pub fn stream_state(self) -> Box<dyn StreamState> {
        match self {
            WireFormat::OpenAi => Box::<openai::Stream>::default(),
            WireFormat::Anthropic => Box::<anthropic::Stream>::default(),
            WireFormat::Ollama => Box::<ollama::Stream>::default(),
        }
    }

    pub fn framing(self) -> Framing {
        match self {
            WireFormat::OpenAi | WireFormat::Anthropic => Framing::ServerSentEvents,
            WireFormat::Ollama => Framing::JsonLines,
        }
    }
}

/// Accumulates a streamed response.
pub trait StreamState: Send {
    /// Takes one event's data. Returns true on the format's explicit end marker.
    fn feed(&mut self, data: &str, on_delta: &mut (dyn FnMut(&str) + Send))
        -> Result<bool, String>;
    /// Whether what was received is a whole response (checked when the body ends).
    fn complete(&self) -> bool;
    fn finish(self: Box<Self>) -> ModelReply;
}

/// Tools in the `{"type": "function", "function": {...}}` form (OpenAI and Ollama).
pub(crate) fn function_tools(tools: &[ToolSpec]) -> Value {
    tools
        .iter()
        .map(|t| json!({"type": "function", "function": {"name": t.name, "description": t.description, "parameters": t.parameters}}))
        .collect()
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

#[cfg(test)]
mod tests {
    use serde_json::json;
    use zeta_core::model::{ImageData, Message, ModelRequest, ResponseFormat};

    fn request_with_image() -> ModelRequest {
        let mut user = Message::user("what is on screen?");
        user.images.push(ImageData {
            media_type: "image/png".into(),
            base64: "iVBORw0K".into(),
        });
        ModelRequest {
            messages: vec![Message::system("sys"), user],
            tools: Vec::new(),
            format: ResponseFormat::Native,
        }
    }

    #[test]
    fn images_travel_in_each_wire_format() {
        let req = request_with_image();
        let openai = super::openai::body(&req, "m", false, false);
        assert_eq!(
            openai["messages"][1]["content"][1]["image_url"]["url"],
            json!("data:image/png;base64,iVBORw0K")
        );
        let anthropic = super::anthropic::body(&req, "m", false);
        assert_eq!(anthropic["system"], json!("sys"));
        assert_eq!(
            anthropic["messages"][0]["content"][1]["source"]["data"],
            json!("iVBORw0K")
        );
        let ollama = super::ollama::body(&req, "m", false);
        assert_eq!(ollama["messages"][1]["images"][0], json!("iVBORw0K"));
    }

    #[test]
    fn a_screenshot_from_a_tool_reaches_the_model_in_each_format() {
        let mut result = Message::tool_result("call_1", "Screenshot of the whole screen");
        result.images.push(ImageData {
            media_type: "image/jpeg".into(),
            base64: "/9j/4A".into(),
        });
        let call = zeta_core::model::ToolCall {
            id: "call_1".into(),
            name: "screenshot".into(),
            arguments: json!({}),
        };
        let req = ModelRequest {
            messages: vec![
                Message::system("s"),
                Message::user("look"),
                Message::assistant_calls("", vec![call]),
                result,
            ],
            tools: Vec::new(),
            format: ResponseFormat::Native,
        };
        let openai = super::openai::body(&req, "m", false, false);
        assert_eq!(openai["messages"][3]["role"], json!("tool"));
        assert_eq!(
            openai["messages"][4]["role"],
            json!("user"),
            "images follow in a user turn"
        );
        assert_eq!(
            openai["messages"][4]["content"][1]["image_url"]["url"],
            json!("data:image/jpeg;base64,/9j/4A")
        );
        let anthropic = super::anthropic::body(&req, "m", false);
        assert_eq!(
            anthropic["messages"][2]["content"][0]["content"][1]["source"]["data"],
            json!("/9j/4A")
        );
        let ollama = super::ollama::body(&req, "m", false);
        assert_eq!(ollama["messages"][3]["images"][0], json!("/9j/4A"));
    }

    #[test]
    fn json_schema_falls_back_to_json_object_with_schema() {
        let mut req = request_with_image();
        req.format = ResponseFormat::JsonSchema(json!({"type": "object"}));
        let strict = super::openai::body(&req, "m", false, false);
        assert_eq!(strict["response_format"]["type"], json!("json_schema"));
        let fallback = super::openai::body(&req, "m", false, true);
        assert_eq!(
            fallback["response_format"],
            json!({"type": "json_object", "schema": {"type": "object"}})
        );
        assert_eq!(
            super::ollama::body(&req, "m", false)["format"],
            json!({"type": "object"})
        );
    }

    #[test]
    fn unparseable_arguments_are_kept_raw_for_the_loop_to_reject() {
        assert_eq!(super::parse_arguments("{\"a\": 1}"), json!({"a": 1}));
        assert_eq!(super::parse_arguments("{oops"), json!("{oops"));
        assert_eq!(super::parse_arguments(""), json!({}));
    }
}

//! OpenAI chat completions (`/chat/completions`), the format most servers speak.

use serde_json::{json, Value};
use zeta_core::model::{Message, ModelReply, ModelRequest, ResponseFormat, Role, ToolCall, Usage};

use super::{parse_arguments, u64_at, Collected, StreamState};

/// `json_object_schema`: send `{"type":"json_object","schema":…}` instead of
/// `json_schema` (llama-cpp-python rejects the latter).
pub fn body(req: &ModelRequest, model: &str, stream: bool, json_object_schema: bool) -> Value {
    let mut body = json!({
        "model": model,
        "messages": req.messages.iter().flat_map(messages).collect::<Vec<_>>(),
        "stream": stream,
    });
    if stream {
        body["stream_options"] = json!({"include_usage": true});
    }
    match &req.format {
        ResponseFormat::Native if !req.tools.is_empty() => {
            body["tools"] = super::function_tools(&req.tools);
        }
        ResponseFormat::JsonSchema(schema) if json_object_schema => {
            body["response_format"] = json!({"type": "json_object", "schema": schema});
        }
        ResponseFormat::JsonSchema(schema) => {
            body["response_format"] =
                json!({"type": "json_schema", "json_schema": {"name": "plan", "schema": schema}});
        }
        _ => {}
    }
    body
}

/// One message, or two for a tool result with images: tool messages take only text, so
/// the images follow in a user message.
fn messages(m: &Message) -> Vec<Value> {
    if m.role == Role::Tool && !m.images.is_empty() {
        let mut parts = vec![
            json!({"type": "text", "text": format!("(Images from tool call {}:)", m.tool_call_id.clone().unwrap_or_default())}),
        ];
        parts.extend(image_parts(m));
        return vec![message(m), json!({"role": "user", "content": parts})];
    }
    vec![message(m)]
}

fn image_parts(m: &Message) -> impl Iterator<Item = Value> + '_ {
    m.images
        .iter()
        .map(|i| json!({"type": "image_url", "image_url": {"url": format!("data:{};base64,{}", i.media_type, i.base64)}}))
}

fn message(m: &Message) -> Value {
    match m.role {
        Role::System => json!({"role": "system", "content": m.content}),
        Role::User if m.images.is_empty() => json!({"role": "user", "content": m.content}),
        Role::User => {
            let mut parts = vec![json!({"type": "text", "text": m.content})];
            parts.extend(image_parts(m));
            json!({"role": "user", "content": parts})
        }
        Role::Assistant if m.tool_calls.is_empty() => {
            json!({"role": "assistant", "content": m.content})
        }
        Role::Assistant => json!({
            "role": "assistant",
            "content": if m.content.is_empty() { Value::Null } else { Value::String(m.content.clone()) },
            "tool_calls": m.tool_calls.iter().map(tool_call).collect::<Vec<_>>(),
        }),
        Role::Tool => json!({
            "role": "tool",
            "tool_call_id": m.tool_call_id.clone().unwrap_or_default(),
            "content": m.content,
        }),
    }
}

fn tool_call(c: &ToolCall) -> Value {
    json!({"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments.to_string()}})
}

pub fn parse(body: &Value) -> Result<ModelReply, String> {
    let message = body
        .pointer("/choices/0/message")
        .ok_or("no choices[0].message in the response")?;
    let text = message
        .get("content")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    let tool_calls = message
        .get("tool_calls")
        .and_then(Value::as_array)
        .map(|calls| {
            calls
                .iter()
                .enumerate()
                .map(|(i, c)| ToolCall {
                    id: c
                        .get("id")
                        .and_then(Value::as_str)
                        .map_or_else(|| format!("call_{i}"), str::to_string),
                    name: c
                        .pointer("/function/name")
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                        .to_string(),
                    arguments: parse_arguments(
                        c.pointer("/function/arguments")
                            .and_then(Value::as_str)
                            .unwrap_or(""),
                    ),
                })
                .collect()
        })
        .unwrap_or_default();
    Ok(ModelReply {
        text,
        tool_calls,
        usage: Usage {
            input_tokens: u64_at(body, "/usage/prompt_tokens"),
            output_tokens: u64_at(body, "/usage/completion_tokens"),
        },
    })
}

/// Server-sent events: `data: {chunk}` lines, ending with `data: [DONE]`.
#[derive(Default)]
pub struct Stream {
    collected: Collected,
    /// A finish_reason or [DONE] was seen.
    finished: bool,
}

impl StreamState for Stream {
    fn feed(
        &mut self,
        data: &str,
        on_delta: &mut (dyn FnMut(&str) + Send),
    ) -> Result<bool, String> {
        if data.trim() == "[DONE]" {
            self.finished = true;
            return Ok(true);
        }
        let chunk: Value =
            serde_json::from_str(data).map_err(|e| format!("bad stream chunk ({e}): {data}"))?;
        if let Some(usage) = chunk.get("usage").filter(|u| !u.is_null()) {
            self.collected.usage = Usage {
                input_tokens: u64_at(usage, "/prompt_tokens"),
                output_tokens: u64_at(usage, "/completion_tokens"),
            };
        }
        let Some(choice) = chunk.pointer("/choices/0") else {
            return Ok(self.finished);
        };
        if let Some(text) = choice.pointer("/delta/content").and_then(Value::as_str) {
            self.collected.text.push_str(text);
            on_delta(text);
        }
        for call in choice
            .pointer("/delta/tool_calls")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let index = call.get("index").and_then(Value::as_u64).unwrap_or(0) as usize;
            while self.collected.calls.len() <= index {
                self.collected.calls.push(Default::default());
            }
            let slot = &mut self.collected.calls[index];
            if let Some(id) = call.get("id").and_then(Value::as_str) {
                slot.0 = id.to_string();
            }
            if let Some(name) = call.pointer("/function/name").and_then(Value::as_str) {
                slot.1.push_str(name);
            }
            if let Some(args) = call.pointer("/function/arguments").and_then(Value::as_str) {
                slot.2.push_str(args);
            }
        }
        // Some servers end the body after finish_reason without [DONE]; a usage chunk may follow.
        if choice.get("finish_reason").is_some_and(|r| !r.is_null()) {
            self.finished = true;
        }
        Ok(false)
    }

    fn complete(&self) -> bool {
        self.finished
    }

    fn finish(self: Box<Self>) -> ModelReply {
        self.collected.into_reply()
    }
}

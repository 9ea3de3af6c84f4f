//! Anthropic messages (`/v1/messages`): system prompt apart, tool_use and tool_result
//! content blocks, strictly alternating user and assistant turns.

use serde_json::{json, Value};
use zeta_core::model::{Message, ModelReply, ModelRequest, ResponseFormat, Role, ToolCall, Usage};

use super::{u64_at, Collected, StreamState};

pub const API_VERSION: &str = "2023-06-01";
const MAX_TOKENS: u32 = 4096;

pub fn body(req: &ModelRequest, model: &str, stream: bool) -> Value {
    let system: Vec<&str> = req
        .messages
        .iter()
        .filter(|m| m.role == Role::System)
        .map(|m| m.content.as_str())
        .collect();
    let mut turns: Vec<(&'static str, Vec<Value>)> = Vec::new();
    for m in req.messages.iter().filter(|m| m.role != Role::System) {
        let (role, blocks) = blocks(m);
        // Merge same-role neighbours (e.g. several tool results) into one turn.
        match turns.last_mut() {
            Some((last, existing)) if *last == role => existing.extend(blocks),
            _ => turns.push((role, blocks)),
        }
    }
    let mut body = json!({
        "model": model,
        "max_tokens": MAX_TOKENS,
        "system": system.join("\n\n"),
        "messages": turns.into_iter().map(|(role, content)| json!({"role": role, "content": content})).collect::<Vec<_>>(),
        "stream": stream,
    });
    if matches!(req.format, ResponseFormat::Native) && !req.tools.is_empty() {
        body["tools"] = req
            .tools
            .iter()
            .map(|t| json!({"name": t.name, "description": t.description, "input_schema": t.parameters}))
            .collect();
    }
    body
}

fn blocks(m: &Message) -> (&'static str, Vec<Value>) {
    match m.role {
        Role::User | Role::System => {
            let mut b = vec![json!({"type": "text", "text": m.content})];
            b.extend(m.images.iter().map(|i| {
                json!({"type": "image", "source": {"type": "base64", "media_type": i.media_type, "data": i.base64}})
            }));
            ("user", b)
        }
        Role::Assistant => {
            let mut b = Vec::new();
            if !m.content.is_empty() {
                b.push(json!({"type": "text", "text": m.content}));
            }
            b.extend(m.tool_calls.iter().map(
                |c| json!({"type": "tool_use", "id": c.id, "name": c.name, "input": c.arguments}),
            ));
            ("assistant", b)
        }
        Role::Tool => {
            let mut content = vec![json!({"type": "text", "text": m.content})];
            content.extend(m.images.iter().map(|i| {
                json!({"type": "image", "source": {"type": "base64", "media_type": i.media_type, "data": i.base64}})
            }));
            (
                "user",
                vec![
                    json!({"type": "tool_result", "tool_use_id": m.tool_call_id.clone().unwrap_or_default(), "content": content}),
                ],
            )
        }
    }
}

pub fn parse(body: &Value) -> Result<ModelReply, String> {
    let content = body
        .get("content")
        .and_then(Value::as_array)
        .ok_or("no content array in the response")?;
    let mut text = String::new();
    let mut tool_calls = Vec::new();
    for block in content {
        match block.get("type").and_then(Value::as_str) {
            Some("text") => text.push_str(
                block
                    .get("text")
                    .and_then(Value::as_str)
                    .unwrap_or_default(),
            ),
            Some("tool_use") => tool_calls.push(ToolCall {
                id: block
                    .get("id")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string(),
                name: block
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string(),
                arguments: block.get("input").cloned().unwrap_or(json!({})),
            }),
            _ => {}
        }
    }
    Ok(ModelReply {
        text,
        tool_calls,
        usage: Usage {
            input_tokens: u64_at(body, "/usage/input_tokens"),
            output_tokens: u64_at(body, "/usage/output_tokens"),
        },
    })
}

/// Server-sent events typed by their `type` field, ending with `message_stop`.
#[derive(Default)]
pub struct Stream {
    collected: Collected,
    /// Content block index → position in `collected.calls`.
    block_to_call: Vec<(u64, usize)>,
    stopped: bool,
}

impl StreamState for Stream {
    fn feed(
        &mut self,
        data: &str,
        on_delta: &mut (dyn FnMut(&str) + Send),
    ) -> Result<bool, String> {
        let event: Value =
            serde_json::from_str(data).map_err(|e| format!("bad stream event ({e}): {data}"))?;
        let index = event.get("index").and_then(Value::as_u64).unwrap_or(0);
        match event.get("type").and_then(Value::as_str) {
            Some("message_start") => {
                self.collected.usage.input_tokens = u64_at(&event, "/message/usage/input_tokens");
            }
            Some("content_block_start") => {
                let block = event.get("content_block").cloned().unwrap_or_default();
                if block.get("type").and_then(Value::as_str) == Some("tool_use") {
                    self.block_to_call.push((index, self.collected.calls.len()));
                    self.collected.calls.push((
                        block
                            .get("id")
                            .and_then(Value::as_str)
                            .unwrap_or_default()
                            .to_string(),
                        block
                            .get("name")
                            .and_then(Value::as_str)
                            .unwrap_or_default()
                            .to_string(),
                        String::new(),
                    ));
                }
            }
            Some("content_block_delta") => {
                let delta = event.get("delta").cloned().unwrap_or_default();
                match delta.get("type").and_then(Value::as_str) {
                    Some("text_delta") => {
                        let text = delta
                            .get("text")
                            .and_then(Value::as_str)
                            .unwrap_or_default();
                        self.collected.text.push_str(text);
                        on_delta(text);
                    }
                    Some("input_json_delta") => {
                        let part = delta
                            .get("partial_json")
                            .and_then(Value::as_str)
                            .unwrap_or_default();
                        if let Some((_, call)) =
                            self.block_to_call.iter().find(|(b, _)| *b == index)
                        {
                            self.collected.calls[*call].2.push_str(part);
                        }
                    }
                    _ => {}
                }
            }
            Some("message_delta") => {
                self.collected.usage.output_tokens = u64_at(&event, "/usage/output_tokens");
            }
            Some("message_stop") => {
                self.stopped = true;
                return Ok(true);
            }
            Some("error") => {
                return Err(format!(
                    "the server reported an error mid-stream: {}",
                    event["error"]
                ))
            }
            _ => {}
        }
        Ok(false)
    }

    fn complete(&self) -> bool {
        self.stopped
    }

    fn finish(self: Box<Self>) -> ModelReply {
        self.collected.into_reply()
    }
}

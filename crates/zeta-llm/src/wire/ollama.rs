//! Ollama's native chat API (`/api/chat`): newline-delimited JSON when streaming, tool
//! call arguments as objects, `format` for structured output.

use serde_json::{json, Value};
use zeta_core::model::{Message, ModelReply, ModelRequest, ResponseFormat, Role, ToolCall, Usage};

use super::{u64_at, StreamState};

pub fn body(req: &ModelRequest, model: &str, stream: bool) -> Value {
    let mut body = json!({
        "model": model,
        "messages": req.messages.iter().map(message).collect::<Vec<_>>(),
        "stream": stream,
    });
    match &req.format {
        ResponseFormat::Native if !req.tools.is_empty() => {
            body["tools"] = super::function_tools(&req.tools);
        }
        ResponseFormat::JsonSchema(schema) => body["format"] = schema.clone(),
        _ => {}
    }
    body
}

fn message(m: &Message) -> Value {
    let role = match m.role {
        Role::System => "system",
        Role::User => "user",
        Role::Assistant => "assistant",
        Role::Tool => "tool",
    };
    let mut v = json!({"role": role, "content": m.content});
    if !m.images.is_empty() {
        v["images"] = m
            .images
            .iter()
            .map(|i| Value::String(i.base64.clone()))
            .collect();
    }
    if !m.tool_calls.is_empty() {
        v["tool_calls"] = m
            .tool_calls
            .iter()
            .map(|c| json!({"id": c.id, "function": {"name": c.name, "arguments": c.arguments}}))
            .collect();
    }
    if let Some(id) = &m.tool_call_id {
        v["tool_call_id"] = Value::String(id.clone());
    }
    v
}

fn tool_calls(message: &Value, first_index: usize) -> Vec<ToolCall> {
    message
        .get("tool_calls")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
        .map(|(i, c)| ToolCall {
            id: c
                .get("id")
                .and_then(Value::as_str)
                .map_or_else(|| format!("call_{}", first_index + i), str::to_string),
            name: c
                .pointer("/function/name")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string(),
            arguments: match c.pointer("/function/arguments") {
                Some(Value::String(raw)) => super::parse_arguments(raw),
                Some(other) => other.clone(),
                None => json!({}),
            },
        })
        .collect()
}

fn usage(v: &Value) -> Usage {
    Usage {
        input_tokens: u64_at(v, "/prompt_eval_count"),
        output_tokens: u64_at(v, "/eval_count"),
    }
}

pub fn parse(body: &Value) -> Result<ModelReply, String> {
    let message = body.get("message").ok_or("no message in the response")?;
    Ok(ModelReply {
        text: message
            .get("content")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string(),
        tool_calls: tool_calls(message, 0),
        usage: usage(body),
    })
}

/// One JSON object per line; the last has `"done": true`.
#[derive(Default)]
pub struct Stream {
    reply: Option<ModelReply>,
    done: bool,
}

impl StreamState for Stream {
    fn feed(
        &mut self,
        data: &str,
        on_delta: &mut (dyn FnMut(&str) + Send),
    ) -> Result<bool, String> {
        let line: Value =
            serde_json::from_str(data).map_err(|e| format!("bad stream line ({e}): {data}"))?;
        if let Some(error) = line.get("error") {
            return Err(format!("the server reported an error mid-stream: {error}"));
        }
        let reply = self.reply.get_or_insert_with(|| ModelReply {
            text: String::new(),
            tool_calls: Vec::new(),
            usage: Usage::default(),
        });
        if let Some(message) = line.get("message") {
            if let Some(text) = message.get("content").and_then(Value::as_str) {
                reply.text.push_str(text);
                on_delta(text);
            }
            let first = reply.tool_calls.len();
            reply.tool_calls.extend(tool_calls(message, first));
        }
        if line.get("done").and_then(Value::as_bool) == Some(true) {
            reply.usage = usage(&line);
            self.done = true;
            return Ok(true);
        }
        Ok(false)
    }

    fn complete(&self) -> bool {
        self.done
    }

    fn finish(self: Box<Self>) -> ModelReply {
        self.reply.unwrap_or(ModelReply {
            text: String::new(),
            tool_calls: Vec::new(),
            usage: Usage::default(),
        })
    }
}

//! Turns a scripted step into an HTTP response in the request's wire format, whole or
//! streamed, or into the failure it names.

use std::time::Duration;

use axum::body::Body;
use axum::http::StatusCode;
use axum::response::Response;
use bytes::Bytes;
use serde_json::{json, Value};

use crate::{Reply, Step, Wire};

type Chunk = Result<Bytes, std::io::Error>;

pub async fn respond(wire: Wire, stream: bool, step: Step, n: usize) -> Response {
    let reply = match step {
        Step::Reply(reply) => reply,
        Step::Slow { reply, pause_ms } => {
            return paced(wire, stream, &reply, n, None, pause_ms);
        }
        Step::ServerError => {
            return status(
                StatusCode::INTERNAL_SERVER_ERROR,
                None,
                "scripted server error",
            )
        }
        Step::RateLimited { retry_after_secs } => {
            return status(
                StatusCode::TOO_MANY_REQUESTS,
                Some(retry_after_secs),
                "scripted rate limit",
            )
        }
        Step::Refuse {
            status: code,
            message,
        } => {
            let code = StatusCode::from_u16(code).unwrap_or(StatusCode::BAD_REQUEST);
            return status(code, None, &message);
        }
        Step::Hang => {
            // Dropped when the client gives up and closes the connection.
            tokio::time::sleep(Duration::from_secs(3600)).await;
            return status(StatusCode::GATEWAY_TIMEOUT, None, "hung");
        }
        Step::MalformedJson => {
            let body = if stream {
                "data: {this is not json\n\n"
            } else {
                "{this is not json"
            };
            return ok(stream, wire, vec![Ok(Bytes::from(body))]);
        }
        Step::Paced {
            text,
            piece_chars,
            pause_ms,
        } => {
            let reply = Reply {
                text,
                tool_calls: Vec::new(),
            };
            return paced(wire, stream, &reply, n, Some(piece_chars), pause_ms);
        }
        Step::Endless { pause_ms } => {
            use futures_util::StreamExt;
            let head = endless_head(wire, n);
            let delta = endless_delta(wire, n);
            let forever = futures_util::stream::repeat(()).then(move |()| {
                let delta = delta.clone();
                async move {
                    if pause_ms > 0 {
                        tokio::time::sleep(Duration::from_millis(pause_ms)).await;
                    } else {
                        tokio::task::yield_now().await;
                    }
                    Ok::<Bytes, std::io::Error>(delta)
                }
            });
            let body = futures_util::stream::iter(head).chain(forever);
            return body_response(true, wire, Body::from_stream(body));
        }
        Step::CutStream => {
            let partial = Reply {
                text: "This answer is cut off mid-way and never fin".into(),
                tool_calls: Vec::new(),
            };
            let mut chunks = if stream {
                chunks(wire, &partial, n)
            } else {
                vec![Ok(Bytes::from(whole(wire, &partial, n).to_string()))]
            };
            // Keep the first part only, then fail the body: the connection is dropped.
            let keep = (chunks.len() / 2).max(1);
            chunks.truncate(keep);
            if !stream {
                if let Some(Ok(body)) = chunks.pop() {
                    chunks.push(Ok(body.slice(..body.len() / 2)));
                }
            }
            chunks.push(Err(std::io::Error::other("scripted cut")));
            return ok(stream, wire, chunks);
        }
    };
    if stream {
        ok(true, wire, chunks(wire, &reply, n))
    } else {
        ok(
            false,
            wire,
            vec![Ok(Bytes::from(whole(wire, &reply, n).to_string()))],
        )
    }
}

fn status(code: StatusCode, retry_after: Option<f32>, message: &str) -> Response {
    let mut builder = Response::builder()
        .status(code)
        .header("content-type", "application/json");
    if let Some(secs) = retry_after {
        builder = builder.header("retry-after", format!("{secs}"));
    }
    builder
        .body(Body::from(
            json!({"error": {"message": message}}).to_string(),
        ))
        .unwrap_or_default()
}

fn ok(stream: bool, wire: Wire, chunks: Vec<Chunk>) -> Response {
    body_response(
        stream,
        wire,
        Body::from_stream(futures_util::stream::iter(chunks)),
    )
}

fn body_response(stream: bool, wire: Wire, body: Body) -> Response {
    let content_type = match (stream, wire) {
        (true, Wire::Ollama) => "application/x-ndjson",
        (true, _) => "text/event-stream",
        (false, _) => "application/json",
    };
    Response::builder()
        .status(StatusCode::OK)
        .header("content-type", content_type)
        .body(body)
        .unwrap_or_default()
}

/// What an endless stream sends before its first delta.
fn endless_head(wire: Wire, n: usize) -> Vec<Chunk> {
    match wire {
        Wire::OpenAi => vec![sse(
            None,
            &json!({"id": format!("chatcmpl-{n}"), "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {"role": "assistant"}, "finish_reason": null}]}),
        )],
        Wire::Anthropic => vec![
            sse(
                Some("message_start"),
                &json!({"type": "message_start", "message": {"id": format!("msg_{n}"), "role": "assistant", "content": [], "usage": {"input_tokens": 10, "output_tokens": 0}}}),
            ),
            sse(
                Some("content_block_start"),
                &json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
            ),
        ],
        Wire::Ollama => Vec::new(),
    }
}

/// One delta of an endless stream, about 1 KB of text.
fn endless_delta(wire: Wire, n: usize) -> Bytes {
    let text = "and on and on it goes ".repeat(46);
    let chunk = match wire {
        Wire::OpenAi => sse(
            None,
            &json!({"id": format!("chatcmpl-{n}"), "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {"content": text}, "finish_reason": null}]}),
        ),
        Wire::Anthropic => sse(
            Some("content_block_delta"),
            &json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": text}}),
        ),
        Wire::Ollama => {
            let line = json!({"model": "scripted", "message": {"role": "assistant", "content": text}, "done": false});
            Ok(Bytes::from(format!("{line}\n")))
        }
    };
    chunk.unwrap_or_default()
}

fn call_id(wire: Wire, n: usize, i: usize) -> String {
    match wire {
        Wire::Anthropic => format!("toolu_{n}_{i}"),
        _ => format!("call_{n}_{i}"),
    }
}

/// A non-streamed response body.
fn whole(wire: Wire, r: &Reply, n: usize) -> Value {
    match wire {
        Wire::OpenAi => {
            let calls: Vec<Value> = r
                .tool_calls
                .iter()
                .enumerate()
                .map(|(i, (name, args))| {
                    json!({"id": call_id(wire, n, i), "type": "function", "function": {"name": name, "arguments": args.to_string()}})
                })
                .collect();
            let mut message = json!({"role": "assistant", "content": if r.text.is_empty() { Value::Null } else { Value::String(r.text.clone()) }});
            if !calls.is_empty() {
                message["tool_calls"] = Value::Array(calls);
            }
            json!({
                "id": format!("chatcmpl-{n}"), "object": "chat.completion", "model": "scripted",
                "choices": [{"index": 0, "message": message, "finish_reason": if r.tool_calls.is_empty() { "stop" } else { "tool_calls" }}],
                "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
            })
        }
        Wire::Anthropic => {
            let mut content = Vec::new();
            if !r.text.is_empty() {
                content.push(json!({"type": "text", "text": r.text}));
            }
            content.extend(r.tool_calls.iter().enumerate().map(|(i, (name, args))| {
                json!({"type": "tool_use", "id": call_id(wire, n, i), "name": name, "input": args})
            }));
            json!({
                "id": format!("msg_{n}"), "type": "message", "role": "assistant", "model": "scripted",
                "content": content, "stop_reason": if r.tool_calls.is_empty() { "end_turn" } else { "tool_use" },
                "usage": {"input_tokens": 10, "output_tokens": 5}
            })
        }
        Wire::Ollama => json!({
            "model": "scripted", "done": true,
            "message": ollama_message(r, &r.text, true),
            "prompt_eval_count": 10, "eval_count": 5
        }),
    }
}

fn ollama_message(r: &Reply, text: &str, with_calls: bool) -> Value {
    let mut m = json!({"role": "assistant", "content": text});
    if with_calls && !r.tool_calls.is_empty() {
        m["tool_calls"] = r
            .tool_calls
            .iter()
            .map(|(name, args)| json!({"function": {"name": name, "arguments": args}}))
            .collect();
    }
    m
}

/// The text in three pieces, so that streaming is really exercised.
/// `reply` with a pause of `pause_ms` before each chunk (of `size` characters when
/// streamed; default three pieces), or whole after one pause.
fn paced(
    wire: Wire,
    stream: bool,
    reply: &Reply,
    n: usize,
    size: Option<usize>,
    pause_ms: u64,
) -> Response {
    use futures_util::StreamExt;
    let parts = if stream {
        chunks_sized(wire, reply, n, size)
    } else {
        vec![Ok(Bytes::from(whole(wire, reply, n).to_string()))]
    };
    let paced = futures_util::stream::iter(parts).then(move |chunk| async move {
        tokio::time::sleep(Duration::from_millis(pause_ms)).await;
        chunk
    });
    body_response(stream, wire, Body::from_stream(paced))
}

/// `text` in pieces of `size` characters (default: three pieces).
fn pieces(text: &str, size: Option<usize>) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let size = size.unwrap_or(chars.len().div_ceil(3)).max(1);
    chars.chunks(size).map(|c| c.iter().collect()).collect()
}

fn sse(event: Option<&str>, data: &Value) -> Chunk {
    let head = event.map(|e| format!("event: {e}\n")).unwrap_or_default();
    Ok(Bytes::from(format!("{head}data: {data}\n\n")))
}

/// A streamed response, one chunk per event or line.
fn chunks(wire: Wire, r: &Reply, n: usize) -> Vec<Chunk> {
    chunks_sized(wire, r, n, None)
}

/// `chunks`, the text in deltas of `size` characters.
fn chunks_sized(wire: Wire, r: &Reply, n: usize, size: Option<usize>) -> Vec<Chunk> {
    let mut out = Vec::new();
    match wire {
        Wire::OpenAi => {
            let frame = |delta: Value, finish: Value| json!({"id": format!("chatcmpl-{n}"), "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]});
            out.push(sse(None, &frame(json!({"role": "assistant"}), Value::Null)));
            for piece in pieces(&r.text, size) {
                out.push(sse(None, &frame(json!({"content": piece}), Value::Null)));
            }
            for (i, (name, args)) in r.tool_calls.iter().enumerate() {
                let head = json!({"tool_calls": [{"index": i, "id": call_id(wire, n, i), "type": "function", "function": {"name": name, "arguments": ""}}]});
                out.push(sse(None, &frame(head, Value::Null)));
                for part in pieces(&args.to_string(), None) {
                    let more =
                        json!({"tool_calls": [{"index": i, "function": {"arguments": part}}]});
                    out.push(sse(None, &frame(more, Value::Null)));
                }
            }
            let finish = if r.tool_calls.is_empty() {
                "stop"
            } else {
                "tool_calls"
            };
            out.push(sse(None, &frame(json!({}), json!(finish))));
            out.push(sse(None, &json!({"id": format!("chatcmpl-{n}"), "choices": [], "usage": {"prompt_tokens": 10, "completion_tokens": 5}})));
            out.push(Ok(Bytes::from("data: [DONE]\n\n")));
        }
        Wire::Anthropic => {
            out.push(sse(Some("message_start"), &json!({"type": "message_start", "message": {"id": format!("msg_{n}"), "role": "assistant", "content": [], "usage": {"input_tokens": 10, "output_tokens": 0}}})));
            let mut index = 0;
            if !r.text.is_empty() {
                out.push(sse(Some("content_block_start"), &json!({"type": "content_block_start", "index": index, "content_block": {"type": "text", "text": ""}})));
                for piece in pieces(&r.text, size) {
                    out.push(sse(Some("content_block_delta"), &json!({"type": "content_block_delta", "index": index, "delta": {"type": "text_delta", "text": piece}})));
                }
                out.push(sse(
                    Some("content_block_stop"),
                    &json!({"type": "content_block_stop", "index": index}),
                ));
                index += 1;
            }
            for (i, (name, args)) in r.tool_calls.iter().enumerate() {
                out.push(sse(Some("content_block_start"), &json!({"type": "content_block_start", "index": index, "content_block": {"type": "tool_use", "id": call_id(wire, n, i), "name": name, "input": {}}})));
                for part in pieces(&args.to_string(), None) {
                    out.push(sse(Some("content_block_delta"), &json!({"type": "content_block_delta", "index": index, "delta": {"type": "input_json_delta", "partial_json": part}})));
                }
                out.push(sse(
                    Some("content_block_stop"),
                    &json!({"type": "content_block_stop", "index": index}),
                ));
                index += 1;
            }
            out.push(sse(Some("message_delta"), &json!({"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 5}})));
            out.push(sse(Some("message_stop"), &json!({"type": "message_stop"})));
        }
        Wire::Ollama => {
            for piece in pieces(&r.text, size) {
                let line = json!({"model": "scripted", "message": {"role": "assistant", "content": piece}, "done": false});
                out.push(Ok(Bytes::from(format!("{line}\n"))));
            }
            if !r.tool_calls.is_empty() {
                let line = json!({"model": "scripted", "message": ollama_message(r, "", true), "done": false});
                out.push(Ok(Bytes::from(format!("{line}\n"))));
            }
            let last = json!({"model": "scripted", "message": {"role": "assistant", "content": ""}, "done": true, "prompt_eval_count": 10, "eval_count": 5});
            out.push(Ok(Bytes::from(format!("{last}\n"))));
        }
    }
    out
}

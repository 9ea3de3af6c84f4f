//! The `http_request` tool: one HTTP request (method, URL, headers, body). The response's
//! status, main headers and body come back, with the body capped and binary summarised.

use std::collections::BTreeMap;
use std::time::Duration;

use serde::Deserialize;
use serde_json::{json, Value};
use zeta_core::model::ToolSpec;
use zeta_core::tool::{Risk, Tool, ToolContext, ToolFuture, ToolOutput};

use crate::capture::Capture;

pub struct HttpRequest;

#[derive(Deserialize)]
struct Args {
    #[serde(default = "get")]
    method: String,
    url: String,
    #[serde(default)]
    headers: BTreeMap<String, String>,
    body: Option<String>,
}
fn get() -> String {
    "GET".into()
}

const SHOWN_HEADERS: [&str; 5] = [
    "content-type",
    "content-length",
    "location",
    "retry-after",
    "www-authenticate",
];

impl Tool for HttpRequest {
    fn target(&self, arguments: &Value) -> String {
        let method = match crate::describe::text(arguments, "method") {
            "" => "GET",
            m => m,
        };
        format!("{method} {}", crate::describe::text(arguments, "url"))
    }
    fn risk(&self, arguments: &Value, _workdir: &std::path::Path) -> Risk {
        match crate::describe::text(arguments, "method") {
            "" | "GET" | "HEAD" | "OPTIONS" => Risk::Low,
            "DELETE" => Risk::High,
            _ => Risk::Medium,
        }
    }
    fn spec(&self) -> ToolSpec {
        ToolSpec {
            name: "http_request".into(),
            description: "Make an HTTP request and get the status, main headers and (capped) body."
                .into(),
            parameters: json!({"type": "object", "properties": {
                "method": {"type": "string", "enum": ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]},
                "url": {"type": "string", "pattern": "^https?://"},
                "headers": {"type": "object", "additionalProperties": {"type": "string"}},
                "body": {"type": "string"}
            }, "required": ["url"], "additionalProperties": false}),
        }
    }
    fn has_side_effects(&self) -> bool {
        // A POST or DELETE changes things elsewhere.
        true
    }
    fn run<'a>(&'a self, arguments: Value, ctx: &'a ToolContext) -> ToolFuture<'a> {
        Box::pin(async move {
            let args: Args = match serde_json::from_value(arguments) {
                Ok(a) => a,
                Err(e) => return ToolOutput::error(format!("http_request: bad arguments: {e}")),
            };
            let method = match reqwest::Method::from_bytes(args.method.to_uppercase().as_bytes()) {
                Ok(m) => m,
                Err(_) => {
                    return ToolOutput::error(format!(
                        "http_request: unknown method {:?}",
                        args.method
                    ))
                }
            };
            let client = match reqwest::Client::builder()
                .timeout(Duration::from_millis(ctx.command_timeout_ms))
                .build()
            {
                Ok(c) => c,
                Err(e) => return ToolOutput::error(format!("http_request: {e}")),
            };
            let mut request = client.request(method.clone(), &args.url);
            for (k, v) in &args.headers {
                request = request.header(k, v);
            }
            if let Some(body) = args.body {
                request = request.body(body);
            }
            let mut cancel = ctx.cancel.clone();
            let response = tokio::select! {
                r = request.send() => r,
                _ = cancel.cancelled() => return ToolOutput::error("http_request: cancelled"),
            };
            let mut response = match response {
                Ok(r) => r,
                Err(e) => {
                    return ToolOutput::error(format!(
                        "http_request: {method} {} failed: {e}",
                        args.url
                    ))
                }
            };
            let status = response.status();
            let headers: Vec<String> = SHOWN_HEADERS
                .iter()
                .filter_map(|h| {
                    response
                        .headers()
                        .get(*h)
                        .map(|v| format!("{h}: {}", v.to_str().unwrap_or("?")))
                })
                .collect();
            let mut body = Capture::new(ctx.max_output_length);
            loop {
                match response.chunk().await {
                    Ok(Some(chunk)) => body.push(&chunk),
                    Ok(None) => break,
                    Err(e) => {
                        body.push(format!("\n[body cut: {e}]").as_bytes());
                        break;
                    }
                }
            }
            let content = format!(
                "{method} {}\nstatus: {status}\n{}\n\n{}",
                args.url,
                headers.join("\n"),
                body.render(ctx.max_output_length)
            );
            let summary = format!("HTTP {} · {} bytes", status.as_u16(), body.total_bytes());
            ToolOutput {
                ok: status.is_success() || status.is_redirection(),
                content,
                summary,
                images: Vec::new(),
                read_back: None,
                shows: None,
            }
        })
    }
}

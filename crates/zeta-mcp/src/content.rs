//! A tool result as the protocol writes it (`content` blocks, `structuredContent`,
//! `isError`) turned into Zeta's `ToolOutput`: text blocks joined, images passed to the
//! model as images, resources as their text (or a line naming a binary one), and an
//! `isError` result a failure the model reads. The loop wraps it all as untrusted data.

use serde_json::Value;
use zeta_core::model::ImageData;
use zeta_core::tool::ToolOutput;

/// The most characters of one result kept (the loop compresses further for the model).
const MAX_TEXT: usize = 200_000;

pub fn to_output(server: &str, tool: &str, result: &Value) -> ToolOutput {
    let failed = result
        .get("isError")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let mut parts: Vec<String> = Vec::new();
    let mut images = Vec::new();
    for block in result
        .get("content")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default()
    {
        let text = |k: &str| block.get(k).and_then(Value::as_str).unwrap_or_default();
        match text("type") {
            "text" => parts.push(text("text").to_string()),
            "image" => {
                let media_type = text("mimeType");
                let data = text("data");
                if media_type.starts_with("image/") && !data.is_empty() {
                    images.push(ImageData {
                        media_type: media_type.to_string(),
                        base64: data.to_string(),
                    });
                    parts.push(format!(
                        "[image {} attached, {} bytes of base64]",
                        media_type,
                        data.len()
                    ));
                } else {
                    parts.push("[an image the server sent without data or type]".into());
                }
            }
            "audio" => parts.push(format!(
                "[audio ({}) the model cannot hear]",
                text("mimeType")
            )),
            "resource" => {
                let r = block.get("resource").cloned().unwrap_or_default();
                let uri = r.get("uri").and_then(Value::as_str).unwrap_or("?");
                match r.get("text").and_then(Value::as_str) {
                    Some(t) => parts.push(format!("[resource {uri}]\n{t}")),
                    None => parts.push(format!(
                        "[resource {uri}: {} binary data not shown]",
                        r.get("mimeType")
                            .and_then(Value::as_str)
                            .unwrap_or("unknown type")
                    )),
                }
            }
            "resource_link" => parts.push(format!(
                "[link to resource {} ({})]",
                text("uri"),
                text("name")
            )),
            other => parts.push(format!("[a `{other}` block Zeta does not read]")),
        }
    }
    if let Some(structured) = result.get("structuredContent").filter(|v| !v.is_null()) {
        // Servers send it beside a text copy; shown only when the text says nothing.
        if parts.iter().all(|p| p.trim().is_empty()) {
            parts.push(structured.to_string());
        }
    }
    let mut content = parts.join("\n");
    if content.len() > MAX_TEXT {
        let cut = (0..=MAX_TEXT)
            .rev()
            .find(|i| content.is_char_boundary(*i))
            .unwrap_or(0);
        content.truncate(cut);
        content.push_str("\n[cut: the result was longer]");
    }
    if failed {
        let mut out = ToolOutput::error(format!(
            "MCP server `{server}`: `{tool}` reported an error: {}",
            if content.trim().is_empty() {
                "(no message)"
            } else {
                content.trim()
            }
        ));
        out.images = images;
        return out;
    }
    if content.trim().is_empty() {
        content = "(the tool returned nothing)".into();
    }
    let summary = format!(
        "{server}: {tool} → {}",
        content
            .lines()
            .next()
            .unwrap_or_default()
            .chars()
            .take(80)
            .collect::<String>()
    );
    ToolOutput {
        ok: true,
        content,
        summary,
        images,
        read_back: None,
        shows: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_kind_of_block_is_read() {
        let out = to_output(
            "s",
            "t",
            &json!({"content": [
                {"type": "text", "text": "hello"},
                {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"},
                {"type": "resource", "resource": {"uri": "file:///a.txt", "text": "inside"}},
                {"type": "resource", "resource": {"uri": "file:///b.bin", "blob": "AAAA", "mimeType": "application/zip"}},
                {"type": "resource_link", "uri": "file:///c", "name": "c"},
                {"type": "audio", "data": "x", "mimeType": "audio/wav"},
                {"type": "hologram"},
            ]}),
        );
        assert!(out.ok);
        assert_eq!(out.images.len(), 1);
        assert_eq!(out.images[0].media_type, "image/png");
        for want in [
            "hello",
            "[image image/png attached",
            "[resource file:///a.txt]\ninside",
            "application/zip binary data not shown",
            "link to resource file:///c",
            "cannot hear",
            "`hologram`",
        ] {
            assert!(out.content.contains(want), "{want}: {}", out.content);
        }
    }

    #[test]
    fn is_error_is_a_failure_the_model_reads() {
        let out = to_output(
            "s",
            "t",
            &json!({"content": [{"type": "text", "text": "disk full"}], "isError": true}),
        );
        assert!(!out.ok);
        assert!(
            out.content.contains("`t` reported an error: disk full"),
            "{}",
            out.content
        );
        let out = to_output("s", "t", &json!({"isError": true}));
        assert!(!out.ok && out.content.contains("(no message)"));
    }

    #[test]
    fn odd_results_say_something() {
        for result in [
            json!({}),
            json!({"content": []}),
            json!({"content": "text"}),
            json!(null),
            json!({"content": [{"type": "text", "text": "   "}]}),
        ] {
            let out = to_output("s", "t", &result);
            assert!(out.ok, "{result}");
            assert!(!out.content.is_empty(), "{result}");
        }
        let out = to_output(
            "s",
            "t",
            &json!({"content": [], "structuredContent": {"n": 3}}),
        );
        assert_eq!(out.content, "{\"n\":3}");
        let big = "é".repeat(MAX_TEXT);
        let out = to_output(
            "s",
            "t",
            &json!({"content": [{"type": "text", "text": big}]}),
        );
        assert!(out.content.ends_with("[cut: the result was longer]"));
    }
}

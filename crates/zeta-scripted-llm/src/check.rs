//! The invariant checked on every request: no tool result is sent whose call is missing
//! from an earlier assistant turn (seed 003's orphan rule; the real APIs refuse these).

use std::collections::HashSet;

use serde_json::Value;

use crate::Wire;

pub fn tool_results_have_calls(wire: Wire, body: &Value) -> Result<(), String> {
    let messages = body
        .get("messages")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let mut calls: HashSet<String> = HashSet::new();
    let mut open_unnamed = 0usize;
    for (i, m) in messages.iter().enumerate() {
        let role = m.get("role").and_then(Value::as_str).unwrap_or_default();
        match wire {
            Wire::OpenAi => {
                for c in m
                    .get("tool_calls")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    calls.insert(
                        c.get("id")
                            .and_then(Value::as_str)
                            .unwrap_or_default()
                            .to_string(),
                    );
                }
                if role == "tool" {
                    let id = m
                        .get("tool_call_id")
                        .and_then(Value::as_str)
                        .unwrap_or_default();
                    if !calls.contains(id) {
                        return Err(format!("messages[{i}]: tool result for call {id:?}, which no earlier assistant message made"));
                    }
                }
            }
            Wire::Anthropic => {
                for block in m
                    .get("content")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    match block.get("type").and_then(Value::as_str) {
                        Some("tool_use") => {
                            calls.insert(
                                block
                                    .get("id")
                                    .and_then(Value::as_str)
                                    .unwrap_or_default()
                                    .to_string(),
                            );
                        }
                        Some("tool_result") => {
                            let id = block
                                .get("tool_use_id")
                                .and_then(Value::as_str)
                                .unwrap_or_default();
                            if !calls.contains(id) {
                                return Err(format!("messages[{i}]: tool_result for {id:?}, which no earlier tool_use made"));
                            }
                        }
                        _ => {}
                    }
                }
            }
            Wire::Ollama => {
                let made = m
                    .get("tool_calls")
                    .and_then(Value::as_array)
                    .map_or(0, Vec::len);
                if role == "assistant" {
                    open_unnamed = made;
                } else if role == "tool" {
                    if open_unnamed == 0 {
                        return Err(format!(
                            "messages[{i}]: tool result with no preceding tool call"
                        ));
                    }
                    open_unnamed -= 1;
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn orphaned_results_are_caught_in_each_format() {
        let ok = json!({"messages": [
            {"role": "assistant", "tool_calls": [{"id": "a", "function": {}}]},
            {"role": "tool", "tool_call_id": "a", "content": "x"}]});
        assert!(tool_results_have_calls(Wire::OpenAi, &ok).is_ok());
        let orphan = json!({"messages": [{"role": "tool", "tool_call_id": "a", "content": "x"}]});
        assert!(tool_results_have_calls(Wire::OpenAi, &orphan).is_err());
        let orphan = json!({"messages": [{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t"}]}]});
        assert!(tool_results_have_calls(Wire::Anthropic, &orphan).is_err());
        let orphan = json!({"messages": [{"role": "assistant", "content": "hi"}, {"role": "tool", "content": "x"}]});
        assert!(tool_results_have_calls(Wire::Ollama, &orphan).is_err());
    }
}

//! A tool's short question put to the task's model on its own (`tool::Chooser`): a
//! system line, the question, and an answer held by a schema to one of its options.
//! Nothing of it enters the task's conversation.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use serde_json::{json, Value};

use crate::model::{Message, Model, ModelRequest, ResponseFormat};
use crate::tool::Chooser;

/// The task's model, as a `Chooser`.
pub(super) struct ModelChooser<M>(pub Arc<M>);

/// The answer's text as JSON, inside a fence or not.
fn choice(text: &str) -> Option<String> {
    let text = text.trim();
    let body = text
        .strip_prefix("```json")
        .or_else(|| text.strip_prefix("```"))
        .map_or(text, |t| t.trim_end_matches('`'))
        .trim();
    let value: Value = serde_json::from_str(body).ok()?;
    value.get("choice")?.as_str().map(str::to_string)
}

impl<M: Model> Chooser for ModelChooser<M> {
    fn choose<'a>(
        &'a self,
        question: &'a str,
        options: &'a [String],
    ) -> Pin<Box<dyn Future<Output = Option<String>> + Send + 'a>> {
        Box::pin(async move {
            let request = ModelRequest {
                messages: vec![
                    Message::system("Answer the question with one of the options it lists."),
                    Message::user(question),
                ],
                tools: Vec::new(),
                format: ResponseFormat::JsonSchema(json!({
                    "type": "object",
                    "properties": {"choice": {"type": "string", "enum": options}},
                    "required": ["choice"],
                })),
            };
            match self.0.complete(&request, &mut |_: &str| {}).await {
                Ok(reply) => choice(&reply.text),
                Err(e) => {
                    tracing::warn!("a tool's question to the model failed: {}", e.full());
                    None
                }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::choice;

    #[test]
    fn the_choice_is_read_from_json_fenced_or_not() {
        assert_eq!(choice(r#"{"choice": "×"}"#).as_deref(), Some("×"));
        assert_eq!(
            choice("```json\n{\"choice\": \"add\"}\n```").as_deref(),
            Some("add")
        );
        assert_eq!(choice("multiply"), None);
        assert_eq!(choice(r#"{"key": "×"}"#), None);
    }
}

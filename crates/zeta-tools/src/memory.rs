//! The memory tools: `memory_save` keeps a fact for later tasks, `memory_search` finds
//! saved facts (the store is zeta-core's `store::memory`).

use serde::Deserialize;
use serde_json::{json, Value};
use zeta_core::model::ToolSpec;
use zeta_core::store::memory::MemoryStore;
use zeta_core::tool::{Tool, ToolContext, ToolFuture, ToolOutput};

use crate::args::parse;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SaveArgs {
    text: String,
    #[serde(default)]
    tags: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SearchArgs {
    query: String,
    #[serde(default = "ten")]
    limit: u32,
}

fn ten() -> u32 {
    10
}

/// `memory_save`: keep a fact for later tasks.
pub struct MemorySave(pub MemoryStore);

/// `memory_search`: find saved facts.
pub struct MemorySearch(pub MemoryStore);

impl Tool for MemorySave {
    fn spec(&self) -> ToolSpec {
        ToolSpec {
            name: "memory_save".into(),
            description: "Remember a fact for later tasks (the user's preferences, names, paths, \
decisions). Keep it short and self-contained."
                .into(),
            parameters: json!({"type": "object", "properties": {
                "text": {"type": "string", "minLength": 1, "maxLength": 2000},
                "tags": {"type": "string", "description": "a few words to find it by"}
            }, "required": ["text"], "additionalProperties": false}),
        }
    }
    fn has_side_effects(&self) -> bool {
        // It changes only Zeta's own memory, which the user can see and clear.
        false
    }
    fn keeps_state(&self) -> bool {
        // What it saves reaches later tasks: after untrusted input, it asks.
        true
    }
    fn taints(&self, _arguments: &Value, _output: &ToolOutput) -> bool {
        false
    }
    fn run<'a>(&'a self, arguments: Value, ctx: &'a ToolContext) -> ToolFuture<'a> {
        Box::pin(async move {
            let args: SaveArgs = match parse("memory_save", arguments) {
                Ok(args) => args,
                Err(e) => return e,
            };
            match self.0.save(
                args.text.trim(),
                args.tags.trim(),
                None,
                ctx.untrusted_input,
            ) {
                Ok(fact) => ToolOutput::ok(
                    format!("Saved as fact {}.", fact.id),
                    format!("remembered fact {}", fact.id),
                ),
                Err(e) => ToolOutput::error(format!("memory_save: {e}")),
            }
        })
    }
}

impl Tool for MemorySearch {
    fn spec(&self) -> ToolSpec {
        ToolSpec {
            name: "memory_search".into(),
            description: "Search the facts saved in earlier tasks (full-text, best match first)."
                .into(),
            parameters: json!({"type": "object", "properties": {
                "query": {"type": "string", "minLength": 1},
                "limit": {"type": "integer", "minimum": 1, "maximum": 50}
            }, "required": ["query"], "additionalProperties": false}),
        }
    }
    fn has_side_effects(&self) -> bool {
        false
    }
    fn taints(&self, _arguments: &Value, output: &ToolOutput) -> bool {
        // Facts saved after untrusted input come back wrapped, and count as such input.
        output.content.contains("<untrusted_data")
    }
    fn run<'a>(&'a self, arguments: Value, _ctx: &'a ToolContext) -> ToolFuture<'a> {
        Box::pin(async move {
            let args: SearchArgs = match parse("memory_search", arguments) {
                Ok(args) => args,
                Err(e) => return e,
            };
            let query = args.query.as_str();
            match self.0.search(query, args.limit) {
                Ok(found) if found.is_empty() => {
                    ToolOutput::ok(format!("No saved fact matches {query:?}."), "no match")
                }
                Ok(found) => {
                    let lines: Vec<String> = found
                        .iter()
                        .map(|f| {
                            let text = format!("[{}] {}", f.id, f.text);
                            if f.untrusted {
                                zeta_core::policy::wrap_untrusted(
                                    "memory (saved after untrusted input)",
                                    &text,
                                )
                            } else {
                                text
                            }
                        })
                        .collect();
                    ToolOutput::ok(lines.join("\n"), format!("{} facts", found.len()))
                }
                Err(e) => ToolOutput::error(format!("memory_search: {e}")),
            }
        })
    }
}

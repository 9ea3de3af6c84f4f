//! `update_settings`: the agent changes Zeta's own settings when the user asks ("make the
//! command timeout 60 seconds"). The change passes the settings window's checks as a whole
//! or nothing is written; the user is always asked first, whatever the permission mode.

use std::path::PathBuf;

use serde::Deserialize;
use serde_json::{json, Map, Value};
use zeta_core::model::ToolSpec;
use zeta_core::tool::{Tool, ToolContext, ToolFuture, ToolOutput};

use crate::args::parse;

pub struct UpdateSettings {
    /// The settings file (`$ZETA_HOME/settings.json`).
    pub file: PathBuf,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Args {
    changes: Map<String, Value>,
}

impl Tool for UpdateSettings {
    fn spec(&self) -> ToolSpec {
        ToolSpec {
            name: "update_settings".into(),
            description: "Change Zeta's own settings when the user asks, e.g. \"make the \
command timeout 60 seconds\" -> {\"changes\": {\"commandTimeoutMs\": 60000}}. Fields: \
commandTimeoutMs, maxIterations, maxOutputLength, verify (auto|always|never), \
permissions.mode (ask|auto|readOnly), permissions.approvalTimeoutSecs, \
provider.contextWindow, provider.keepWarmSecs, screenshot.maxWidth. The user confirms \
first; an invalid value is refused and nothing changes."
                .into(),
            parameters: json!({
                "type": "object",
                "properties": {
                    "changes": {
                        "type": "object",
                        "description": "field path (dotted for nested fields) -> new value",
                        "minProperties": 1,
                    }
                },
                "required": ["changes"],
            }),
        }
    }

    fn has_side_effects(&self) -> bool {
        true
    }

    fn keeps_state(&self) -> bool {
        true
    }

    fn asks_always(&self) -> bool {
        true
    }

    fn target(&self, arguments: &Value) -> String {
        let changes = arguments
            .get("changes")
            .and_then(Value::as_object)
            .map(|c| {
                c.iter()
                    .map(|(k, v)| format!("{k} → {v}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            })
            .unwrap_or_default();
        zeta_core::text::clip(&format!("settings: {changes}"), 160)
    }

    fn run<'a>(&'a self, arguments: Value, _ctx: &'a ToolContext) -> ToolFuture<'a> {
        Box::pin(async move {
            let args: Args = match parse::<Args>("update_settings", arguments) {
                Ok(args) => args,
                Err(output) => return output,
            };
            match zeta_core::settings::change_fields(&self.file, &args.changes) {
                Ok(_) => {
                    let said: Vec<String> = args
                        .changes
                        .iter()
                        .map(|(k, v)| format!("{k} is now {v}"))
                        .collect();
                    ToolOutput::ok(
                        format!("Saved: {}. It applies from the next task.", said.join(", ")),
                        format!("settings changed: {}", said.join(", ")),
                    )
                }
                Err(problems) => {
                    let why: Vec<String> = problems
                        .iter()
                        .map(|p| format!("{}: {}", p.field, p.message))
                        .collect();
                    ToolOutput::error(format!(
                        "Not saved, nothing changed: {}. Tell the user.",
                        why.join("; ")
                    ))
                }
            }
        })
    }
}

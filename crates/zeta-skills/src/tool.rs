//! The `skill` tool: a model reads a skill's instructions, or a file beside them, when
//! it needs them. It changes nothing; a skill's scripts are run with the shell tool like
//! any command (the same gate judges them). Reading a skill the person neither wrote nor
//! accepted marks the task as having read input it did not type.

use std::path::{Component, Path};
use std::sync::Arc;

use serde::Deserialize;
use serde_json::{json, Value};
use zeta_core::model::ToolSpec;
use zeta_core::store::skill_uses::SKILL_TOOL;
use zeta_core::tool::{Tool, ToolContext, ToolFuture, ToolOutput};

use crate::format::MOST_BYTES;
use crate::shelf::{Entry, Skills};

pub struct SkillTool {
    skills: Arc<Skills>,
}

impl SkillTool {
    pub fn new(skills: Arc<Skills>) -> Self {
        Self { skills }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Args {
    name: String,
    #[serde(default)]
    file: Option<String>,
}

/// The mark on a skill's text the person did not write or accept.
const UNTRUSTED_MARK: &str = "<untrusted_data source=\"skill";

impl Tool for SkillTool {
    fn spec(&self) -> ToolSpec {
        ToolSpec {
            name: SKILL_TOOL.into(),
            description: "Read a skill: the instructions of a procedure that worked before, \
                          or one of the files beside them (`file`). Read the one whose \
                          description fits the request before acting on it."
                .into(),
            parameters: json!({"type": "object", "properties": {
                "name": {"type": "string", "minLength": 1},
                "file": {"type": "string", "description": "a file beside the skill's SKILL.md, by its relative path"}
            }, "required": ["name"], "additionalProperties": false}),
        }
    }
    fn has_side_effects(&self) -> bool {
        false
    }
    fn taints(&self, _arguments: &Value, output: &ToolOutput) -> bool {
        output.content.contains(UNTRUSTED_MARK)
    }
    fn run<'a>(&'a self, arguments: Value, _ctx: &'a ToolContext) -> ToolFuture<'a> {
        Box::pin(async move {
            let args: Args = match serde_json::from_value(arguments) {
                Ok(args) => args,
                Err(e) => {
                    return ToolOutput::error(format!(
                    "skill: bad arguments ({e}); give {{\"name\": SKILL}} and optionally \"file\""
                ))
                }
            };
            let catalog = self.skills.current();
            let Some(entry) = catalog.get(&args.name).filter(|e| e.enabled) else {
                let names: Vec<&str> = catalog.enabled().map(|e| e.skill.name.as_str()).collect();
                return ToolOutput::error(format!(
                    "No skill is named {:?}. The skills: {}.",
                    args.name,
                    names.join(", ")
                ));
            };
            match args.file {
                None => shown(entry, &instructions(entry), "instructions"),
                Some(file) => match read_file(entry, &file) {
                    Ok(text) => shown(entry, &text, &file),
                    Err(why) => ToolOutput::error(format!("skill {}: {why}", entry.skill.name)),
                },
            }
        })
    }
}

/// A skill's instructions, with where its files are for the shell.
fn instructions(entry: &Entry) -> String {
    let skill = &entry.skill;
    let mut text = format!(
        "Skill {}: {}\n\n{}",
        skill.name, skill.description, skill.body
    );
    if !skill.files.is_empty() {
        text.push_str(&format!(
            "\n\nFiles beside it (read one with {{\"name\": {:?}, \"file\": PATH}}): {}",
            skill.name,
            skill.files.join(", ")
        ));
        if let Some(dir) = skill.folder() {
            text.push_str(&format!(
                "\nIts folder, for running its scripts with the shell: {}",
                dir.display()
            ));
        }
    }
    text
}

fn shown(entry: &Entry, text: &str, what: &str) -> ToolOutput {
    let summary = format!("skill {} ({what})", entry.skill.name);
    if entry.trusted {
        ToolOutput::ok(text, summary)
    } else {
        ToolOutput::ok(
            zeta_core::policy::wrap_untrusted(
                &format!(
                    "skill {} (from a folder you did not write or accept)",
                    entry.skill.name
                ),
                text,
            ),
            summary,
        )
    }
}

/// A file beside the skill: a relative path inside its folder, text, not too large.
fn read_file(entry: &Entry, file: &str) -> Result<String, String> {
    let rel = Path::new(file);
    if !rel
        .components()
        .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
    {
        return Err(format!("{file:?} is not a path inside the skill's folder"));
    }
    if !entry.skill.files.iter().any(|f| Path::new(f) == rel) {
        return Err(format!(
            "it has no file {file:?}; its files: {}",
            entry.skill.files.join(", ")
        ));
    }
    match entry.skill.folder() {
        None => crate::library::built_in_file(&entry.skill.name, file)
            .map(str::to_string)
            .ok_or_else(|| format!("{file:?} is not text")),
        Some(dir) => {
            let path = dir.join(rel);
            let meta = std::fs::symlink_metadata(&path).map_err(|e| format!("{file}: {e}"))?;
            if !meta.is_file() {
                return Err(format!("{file:?} is not a plain file"));
            }
            if meta.len() > MOST_BYTES as u64 {
                return Err(format!(
                    "{file:?} is {} bytes, more than {MOST_BYTES} shown",
                    meta.len()
                ));
            }
            let bytes = std::fs::read(&path).map_err(|e| format!("{file}: {e}"))?;
            String::from_utf8(bytes).map_err(|_| format!("{file:?} is not text"))
        }
    }
}

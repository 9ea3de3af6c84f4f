//! The `run_code` tool (seed 002's programmatic tool calling): a Python, bash or Node
//! program written to a file in a fresh temporary folder and run there, with the same
//! process group, timeout, cancel and output limits as `shell`.

use serde::Deserialize;
use serde_json::{json, Value};
use zeta_core::model::ToolSpec;
use zeta_core::tool::{Risk, Tool, ToolContext, ToolFuture, ToolOutput};

use crate::shell::run_process;

pub struct RunCode;

#[derive(Debug, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Language {
    Python,
    Bash,
    Node,
}

#[derive(Debug, Deserialize)]
struct Args {
    language: Language,
    code: String,
}

impl Tool for RunCode {
    fn target(&self, arguments: &Value) -> String {
        let code = crate::describe::text(arguments, "code");
        format!(
            "{}: {}",
            crate::describe::text(arguments, "language"),
            crate::describe::clip(code, 400)
        )
    }
    fn risk(&self, arguments: &Value) -> Risk {
        let worst = self
            .commands(arguments)
            .iter()
            .map(|c| zeta_core::policy::command_risk(c))
            .max()
            .unwrap_or(Risk::Medium);
        // Code can do anything a command can; a script that touches files is high.
        let code = crate::describe::text(arguments, "code");
        let touches = [
            "remove(",
            "unlink",
            "rmtree",
            "rmdir",
            "open(",
            "writeFile",
            "rename",
        ]
        .iter()
        .any(|w| code.contains(w));
        if touches {
            Risk::High
        } else {
            worst
        }
    }
    fn spec(&self) -> ToolSpec {
        ToolSpec {
            name: "run_code".into(),
            description: "Run a short Python, bash or Node program (loops, variables, libraries) \
                          and get its exit code, stdout and stderr. It runs in a fresh temporary folder."
                .into(),
            parameters: json!({
                "type": "object",
                "properties": {
                    "language": {"type": "string", "enum": ["python", "bash", "node"]},
                    "code": {"type": "string", "minLength": 1}
                },
                "required": ["language", "code"],
                "additionalProperties": false
            }),
        }
    }

    fn has_side_effects(&self) -> bool {
        true
    }

    /// A bash program is checked whole; for Python and Node, each string literal is
    /// checked, since that is where commands for `os.system`, `subprocess` or
    /// `child_process` are written.
    fn commands(&self, arguments: &Value) -> Vec<String> {
        let code = arguments
            .get("code")
            .and_then(Value::as_str)
            .unwrap_or_default();
        match arguments.get("language").and_then(Value::as_str) {
            Some("bash") => vec![code.to_string()],
            _ => string_literals(code),
        }
    }

    fn run<'a>(&'a self, arguments: Value, ctx: &'a ToolContext) -> ToolFuture<'a> {
        Box::pin(async move {
            let args: Args = match serde_json::from_value(arguments) {
                Ok(a) => a,
                Err(e) => return ToolOutput::error(format!("run_code: bad arguments: {e}")),
            };
            let (program, file) = match args.language {
                Language::Python => ("python3", "main.py"),
                Language::Bash => ("bash", "main.sh"),
                Language::Node => ("node", "main.js"),
            };
            let dir = match tempfile::Builder::new().prefix("zeta-code-").tempdir() {
                Ok(d) => d,
                Err(e) => {
                    return ToolOutput::error(format!(
                        "run_code: could not make a temporary folder: {e}"
                    ))
                }
            };
            let path = dir.path().join(file);
            if let Err(e) = std::fs::write(&path, &args.code) {
                return ToolOutput::error(format!(
                    "run_code: could not write {}: {e}",
                    path.display()
                ));
            }
            let shown = format!("{program} {file}  # {} lines", args.code.lines().count());
            let argv = [path.display().to_string()];
            run_process(program, &argv, &shown, dir.path(), ctx).await
        })
    }
}

/// The contents of '…', "…" and `…` literals (escapes kept as written).
fn string_literals(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = code.chars().peekable();
    while let Some(c) = chars.next() {
        if matches!(c, '\'' | '"' | '`') {
            let mut lit = String::new();
            while let Some(d) = chars.next() {
                if d == '\\' {
                    if let Some(e) = chars.next() {
                        lit.push(e);
                    }
                    continue;
                }
                if d == c {
                    break;
                }
                lit.push(d);
            }
            if !lit.trim().is_empty() {
                out.push(lit);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_inside_python_strings_are_found() {
        let found = string_literals("import os\nos.system('rm -rf ~')\nprint(\"it's fine\")");
        assert_eq!(found, vec!["rm -rf ~".to_string(), "it's fine".to_string()]);
        let code = RunCode.commands(&json!({"language": "python", "code": "import subprocess\nsubprocess.run(\"mkfs.ext4 /dev/sda\", shell=True)"}));
        assert!(code
            .iter()
            .any(|c| zeta_core::policy::check_command(c).is_err()));
    }
}

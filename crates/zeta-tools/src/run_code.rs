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
    fn risk(&self, arguments: &Value, _workdir: &std::path::Path) -> Risk {
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

    /// The program as the command line that would run it, so the shell judge sees it
    /// whole: a bash program as itself, Python and Node as `python3 -c` / `node -e`
    /// one-liners (their own calls and the commands in their strings are judged).
    fn commands(&self, arguments: &Value) -> Vec<String> {
        let code = arguments
            .get("code")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let quoted = zeta_core::policy::shell::quote(code);
        match arguments.get("language").and_then(Value::as_str) {
            Some("bash") => vec![code.to_string()],
            Some("node") => vec![format!("node -e {quoted}")],
            _ => vec![format!("python3 -c {quoted}")],
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn programs_are_judged_as_the_command_lines_that_run_them() {
        use zeta_core::policy::{judge, ShellEnv, Verdict};
        let env = ShellEnv::current(std::path::Path::new("/tmp"));
        let judged = |language: &str, code: &str| {
            let lines = RunCode.commands(&json!({"language": language, "code": code}));
            lines
                .iter()
                .map(|l| judge(l, &env))
                .find(|v| *v != Verdict::Allow)
                .unwrap_or(Verdict::Allow)
        };
        assert!(matches!(
            judged(
                "python",
                "import subprocess\nsubprocess.run(\"mkfs.ext4 /dev/sda\", shell=True)"
            ),
            Verdict::Block(_)
        ));
        assert!(matches!(
            judged(
                "node",
                "require('fs').rmSync(require('os').homedir(), {recursive: true})"
            ),
            Verdict::Block(_)
        ));
        assert!(matches!(judged("bash", "rm -rf ~"), Verdict::Block(_)));
        assert_eq!(judged("python", "print(\"it's fine\")"), Verdict::Allow);
    }
}

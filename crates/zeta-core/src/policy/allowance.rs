//! Standing approvals: "Allow for this task" and "Always allow" (issue 15). An allowance
//! names a tool and, for the shell, the one program a command runs; a later call with the
//! same tool and program runs without asking. It stands in for the user's yes where the
//! permission mode would ask, and nowhere else: blocked commands, calls only a person may
//! approve, writes outside the writable set and changes after untrusted input still ask.
//!
//! A command that runs several programs, or a program that runs other programs (a shell,
//! an interpreter, `sudo`, `xargs`…), or one whose name is computed, gets no allowance:
//! "always allow `bash`" would allow everything.

pub use zeta_protocol::settings::Allowance;

use super::shell::catalogue::RUNS_OTHERS;
use super::shell::{is_interpreter, programs};

/// The allowance a call would need, or `None` when it can have none (see the module doc).
/// `commands` are the shell commands in the call (empty for tools that run none).
pub fn allowance_for(tool: &str, commands: &[String]) -> Option<Allowance> {
    match tool {
        "run_code" => return None,
        // Other tools' commands (write_file's `: > path`) only describe their writes.
        "shell" => {}
        _ => {
            return Some(Allowance {
                tool: tool.to_string(),
                program: None,
            })
        }
    }
    let [command] = commands else {
        return None;
    };
    let (names, _) = programs(command);
    let first = names.first()?;
    let program = first.rsplit('/').next().unwrap_or(first);
    let one_program = names.iter().all(|n| n == first);
    let runs_others = RUNS_OTHERS.contains(&program)
        || is_interpreter(program)
        || program == "?"
        || program.is_empty();
    (one_program && !runs_others).then(|| Allowance {
        tool: tool.to_string(),
        program: Some(program.to_string()),
    })
}

/// True when one of `granted` covers a call of `tool` running `commands`.
pub fn covered(granted: &[Allowance], tool: &str, commands: &[String]) -> bool {
    allowance_for(tool, commands).is_some_and(|needed| granted.contains(&needed))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shell(command: &str) -> Option<Allowance> {
        allowance_for("shell", &[command.to_string()])
    }

    #[test]
    fn one_plain_program_gets_an_allowance_by_its_name() {
        for (command, program) in [
            ("git status", "git"),
            ("git commit -m 'x' && git push", "git"),
            ("/usr/bin/mkdir -p ~/x", "mkdir"),
            ("cp a b", "cp"),
            ("convert in.png -resize 50% out.png", "convert"),
        ] {
            assert_eq!(
                shell(command),
                Some(Allowance {
                    tool: "shell".into(),
                    program: Some(program.into())
                }),
                "{command}"
            );
        }
    }

    #[test]
    fn several_programs_or_programs_that_run_others_get_none() {
        for command in [
            "ls | sort",
            "git pull && make",
            "bash -c 'rm -rf ~'",
            "sudo apt install x",
            "python3 -c 'print(1)'",
            "xargs rm < list",
            "find . -delete",
            "env X=1 ls",
            "$(echo rm) -rf x",
            "awk '{print}' f",
            "busybox rm -rf x",
            "",
        ] {
            assert_eq!(shell(command), None, "{command:?}");
        }
        assert_eq!(allowance_for("run_code", &[]), None);
    }

    #[test]
    fn other_tools_are_allowed_by_name_and_cover_only_their_own_calls() {
        let write = allowance_for("write_file", &[": > /home/u/a.txt".into()]).expect("write_file");
        assert_eq!(write.program, None, "its commands only describe its writes");
        assert_eq!(write.describe(), "write_file");
        let git = shell("git status").expect("git");
        assert_eq!(git.describe(), "shell: git");
        let granted = [write, git];
        assert!(covered(&granted, "write_file", &[": > /tmp/b".into()]));
        assert!(covered(&granted, "shell", &["git log".into()]));
        assert!(!covered(&granted, "shell", &["git log | sh".into()]));
        assert!(!covered(&granted, "shell", &["rm -rf x".into()]));
        assert!(!covered(&granted, "mouse", &[]));
    }
}

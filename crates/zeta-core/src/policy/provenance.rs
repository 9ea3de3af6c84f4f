//! Untrusted input by provenance, not phrasing. Once a task has read anything the user did
//! not type (a file, a page, an HTTP response, a screenshot, command output that relays
//! such text), every later side-effecting call of the task asks, even in `auto` mode, unless
//! the user approved that exact call earlier in the task; only the user's own message
//! clears it. Each tool says whether its output is such input (`Tool::taints`, true unless
//! it knows better). For the shell, only commands made of programs that describe the
//! computer (names, sizes, counts, times, ids) are not.

use super::shell::programs;

/// Programs whose output describes the computer rather than relaying what files, pages or
/// other people wrote. Anything else, a program this list does not name included, counts
/// as untrusted output.
const METADATA_PROGRAMS: &[&str] = &[
    "ls", "df", "du", "free", "uptime", "whoami", "id", "date", "uname", "hostname", "pwd",
    "nproc", "wc", "stat", "which", "type", "true", "false", "test", "[", "mkdir", "touch", "cp",
    "mv", "rm", "rmdir", "ln", "chmod", "chown", "sleep", "cd", "lscpu", "lsblk", "echo", "printf",
];

/// True when every program in `command` (nested ones included) only describes the
/// computer, so its output is not untrusted input. An empty or unparseable command is
/// untrusted.
pub fn reports_metadata_only(command: &str) -> bool {
    let (names, _) = programs(command);
    !names.is_empty()
        && names
            .iter()
            .all(|name| METADATA_PROGRAMS.contains(&name.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_commands_that_describe_the_computer_are_trusted_output() {
        for trusted in [
            "df -h",
            "ls -la ~/Downloads",
            "du -sh ~/* | wc -l",
            "whoami && id -u",
            "mkdir -p ~/x && touch ~/x/a",
        ] {
            assert!(reports_metadata_only(trusted), "{trusted}");
        }
        for untrusted in [
            "cat notes.txt",
            "curl -s http://127.0.0.1:8000/page",
            "ls $(cat list.txt)",
            "tail -20 /var/log/syslog",
            "grep -r password ~",
            "sudo ls",
            "python3 -c 'print(open(\"x\").read())'",
            "ls; head README.md",
            "",
            "   ",
        ] {
            assert!(!reports_metadata_only(untrusted), "{untrusted:?}");
        }
    }
}

//! grep given one file at a time (`find ~/reports -type f -exec grep -i Kilimanjaro {}
//! \;`) prints the lines it matched and not the file each is in, so its output cannot
//! say which file holds the word (seen on the tune half: "The file ~/reports contains
//! the text 'we met in Kilimanjaro last year'", twice in six tasks). Read from the
//! command's syntax tree (find's `-exec` of grep, with one `{}` and `;`), never from the
//! request: the command is run with `-H`, which names the file before each line, and the
//! model is told so. It changes no match: only what each printed line says.
//!
//! Not read: grep that already names files or prints none (`-l`, `-L`, `-c`, `-H`,
//! `-h`, `-q`), `-exec … +` (several files at once: grep names them itself), and a find
//! in a nested shell's text.

use crate::policy::ShellEnv;

/// grep's letters after which its output already says the files, or says no lines.
const NAMES_OR_NO_LINES: &str = "lLcHhqZ";

/// A find that runs grep on one file at a time, and the command with `-H`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unnamed {
    run_as: String,
}

impl Unnamed {
    /// The command run in its place, and how it was read.
    pub fn read_as(&self) -> (String, String) {
        let note = crate::prompts::fill(
            crate::prompts::UNNAMED_MATCHES,
            &[("command", &self.run_as)],
        );
        (self.run_as.clone(), note)
    }
}

/// The first find in `command` whose `-exec` runs grep on one file at a time, printing
/// lines without their file's name; else `None`.
pub fn find(command: &str, env: &ShellEnv) -> Option<Unnamed> {
    zeta_judge::commands(command, env)
        .into_iter()
        .find_map(|simple| {
            let (program, args) = simple.words.split_first()?;
            if program != "find" {
                return None;
            }
            let at = args.iter().position(|a| a == "-exec" || a == "-execdir")?;
            let rest = &args[at + 1..];
            let grep = rest.first()?;
            if !matches!(grep.as_str(), "grep" | "egrep" | "fgrep") {
                return None;
            }
            let end = rest.iter().position(|a| a == ";" || a == "+")?;
            if rest[end] != ";" {
                return None;
            }
            let grep_args = &rest[1..end];
            if grep_args.iter().filter(|a| *a == "{}").count() != 1 {
                return None;
            }
            let names_or_nothing = grep_args.iter().any(|a| {
                a.strip_prefix('-').is_some_and(|letters| {
                    !letters.starts_with('-')
                        && letters.chars().any(|c| NAMES_OR_NO_LINES.contains(c))
                }) || matches!(
                    a.as_str(),
                    "--files-with-matches"
                        | "--files-without-match"
                        | "--count"
                        | "--with-filename"
                        | "--no-filename"
                        | "--quiet"
                        | "--silent"
                )
            });
            if names_or_nothing {
                return None;
            }
            // Where the line wrote `-exec grep`: `-H` goes right after grep's name.
            let (start, stop) = simple.span?;
            let text = command.get(start..stop)?;
            let exec = text.find("-exec")?;
            let after = &text[exec..];
            let name_at = exec + after.find(grep.as_str())?;
            let between = &text[exec + "-exec".len()..name_at];
            let between = between.strip_prefix("dir").unwrap_or(between);
            if !between.chars().all(char::is_whitespace) {
                return None;
            }
            let insert = start + name_at + grep.len();
            let run_as = format!("{} -H{}", command.get(..insert)?, command.get(insert..)?);
            Some(Unnamed { run_as })
        })
}

#[cfg(test)]
mod tests;

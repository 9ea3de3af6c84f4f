//! A program fed files' names where the files were meant: `ls ~/q3.csv | cut -d, -f2`
//! prints the name `~/q3.csv`, so `cut` cut that name, and `ls ~/invoice.txt | wc -l`
//! counts one line whatever the file holds. Read from the command's syntax tree (a pipe
//! from `ls` into another program) and the disk (every name `ls` was given is a file
//! that is there, not a folder), never from the request's words. The note goes with the
//! command's output, so the next step can read the file; it names only what the command
//! itself wrote. Where the listing is in the line itself, the command is run with `cat`
//! of the same files in its place (`cat ~/q3.csv | cut -d, -f2 | …`) and the model is
//! told it was read so: the names alone never answer what the pipe computes.
//!
//! Two readers' flags say what they were meant for, and names cannot give it them
//! (`readers`): `sort -h` (or `-n`) orders sizes and numbers, and a listing's names hold
//! none (`ls ~/notes | sort -rh | head -n 1`, for the largest file): run as `ls -S`,
//! which orders the files by size; `grep -l` names the files whose contents match, and
//! fed names on its input it can only print "(standard input)": run with the files
//! given to grep itself. Names `find` printed, sorted as numbers, are read the same
//! way (`found`): run with each file's size before its name.
//!
//! Not noted: `ls` with a flag that prints more than names (`ls -l FILE | awk '{print
//! $5}'` reads the size rightly), a folder listed (its names may be what is asked), a
//! name made when the line runs, and a pipe into a program that takes names as
//! arguments (`xargs`).

use std::path::Path;

use crate::policy::ShellEnv;

/// Flags of `ls` that still print names only.
const NAMES_ONLY: &[&str] = &["-1", "-d", "--"];

/// Programs that take the names they read as arguments, which is what names are for, and
/// programs that do not read their input at all.
const TAKES_NAMES: &[&str] = &[
    "xargs", "parallel", "ls", "echo", "printf", "true", "false", "date", "sleep", "touch", "mkdir",
];

/// What the names were piped where something else was meant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Meant {
    /// What the files hold (`ls FILE | wc -l`): run with `cat FILE` in the listing's place.
    Contents,
    /// The files' sizes (`ls DIR | sort -rh`): run as `ls -S DIR`.
    Sizes,
    /// The files' sizes, from names `find` printed (`find DIR -printf '%f\n' | sort
    /// -rn`): run with each file's size before its name.
    FoundSizes,
    /// The files themselves, searched by grep (`ls DIR | grep -l WORD`): run as `grep -l
    /// WORD DIR/*`.
    Files,
    /// Names searched for a word none of them holds (`ls ~/inbox | grep Zanzibar`): run
    /// as written, and said with its empty output how grep searches what the files hold.
    Searched,
}

/// A pipe from `ls` of files into a program that reads them, as the command wrote it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Piped {
    /// `ls` and its words as written (`ls ~/q3.csv`).
    listing: String,
    /// The files' names as written.
    names: Vec<String>,
    /// The program that read the names.
    program: String,
    /// What was meant instead of the names.
    meant: Meant,
    /// The command as it is run instead (`cat` of the same files in the listing's place;
    /// `ls -S`; grep given the files), where the pipe is in the line itself (not in a
    /// nested shell's text).
    run_as: Option<String>,
    /// What is said with the output where it runs as written, when it is not the note of
    /// contents (`Searched`).
    said: Option<String>,
}

impl Piped {
    /// What was meant instead of the names.
    pub fn meant(&self) -> Meant {
        self.meant
    }

    /// The note that goes with the command's output where it runs as written: for
    /// contents, and for names searched in vain (a reader's flags are said where it is run
    /// another way).
    pub fn note(&self) -> Option<String> {
        if self.said.is_some() {
            return self.said.clone();
        }
        (self.meant == Meant::Contents).then(|| {
            crate::prompts::fill(
                crate::prompts::NAMES_PIPED,
                &[
                    ("listing", &self.listing),
                    ("names", &self.names.join(", ")),
                    ("program", &self.program),
                    ("file", &self.names[0]),
                ],
            )
        })
    }

    /// The command run in its place, with what the files hold piped where the model
    /// piped their names, and how it was read; `None` where it cannot be written so.
    pub fn read_as(&self) -> Option<(String, String)> {
        let command = self.run_as.clone()?;
        let template = match self.meant {
            Meant::Contents => crate::prompts::NAMES_PIPED_READ_AS,
            Meant::Sizes => crate::prompts::NAMES_PIPED_SIZES,
            Meant::FoundSizes => crate::prompts::NAMES_PIPED_FOUND_SIZES,
            Meant::Files => crate::prompts::NAMES_PIPED_FILES,
            Meant::Searched => return None,
        };
        let note = crate::prompts::fill(
            template,
            &[
                ("command", &command),
                ("listing", &self.listing),
                ("names", &self.names.join(", ")),
                ("program", &self.program),
            ],
        );
        Some((command, note))
    }
}

/// The first pipe in `command` from `ls` of files into a program that reads them, or
/// into a reader whose flags say the files were meant (`readers`), else `None`.
pub fn find(command: &str, env: &ShellEnv) -> Option<Piped> {
    zeta_judge::pipes(command, env)
        .into_iter()
        .find_map(|pipe| {
            readers::files(command, &pipe, env)
                .or_else(|| contents(command, &pipe, env))
                .or_else(|| readers::sizes(command, &pipe, env))
                .or_else(|| found::sizes(command, &pipe, env))
                .or_else(|| searched::searched(&pipe, env))
        })
        .or_else(|| searched::found_none(command, env))
}

/// `ls` of files piped into a program that reads what comes in.
fn contents(command: &str, pipe: &zeta_judge::Pipe, env: &ShellEnv) -> Option<Piped> {
    let (program, args) = pipe.from.split_first()?;
    if program != "ls" || TAKES_NAMES.contains(&pipe.into.as_str()) {
        return None;
    }
    if args
        .iter()
        .any(|a| a.starts_with('-') && !NAMES_ONLY.contains(&a.as_str()))
    {
        return None;
    }
    let expanded: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
    let cwd = pipe.cwd.as_deref().unwrap_or(&env.cwd);
    if expanded.is_empty() || !expanded.iter().all(|n| is_file(n, cwd)) {
        return None;
    }
    let names = operands(pipe);
    if names.is_empty() {
        return None;
    }
    let run_as = replaced(command, pipe.span, &format!("cat {}", names.join(" ")));
    Some(Piped {
        listing: listing(pipe),
        names,
        program: pipe.into.clone(),
        meant: Meant::Contents,
        run_as,
        said: None,
    })
}

/// The names `ls` was given, as written.
fn operands(pipe: &zeta_judge::Pipe) -> Vec<String> {
    pipe.written
        .iter()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .cloned()
        .collect()
}

/// The listing as written (`ls ~/q3.csv`).
fn listing(pipe: &zeta_judge::Pipe) -> String {
    std::iter::once("ls".to_string())
        .chain(pipe.written.iter().skip(1).cloned())
        .collect::<Vec<_>>()
        .join(" ")
}

/// `command` with the bytes of `span` replaced by `with`; `None` where the span is not in
/// the line itself.
fn replaced(command: &str, span: Option<(usize, usize)>, with: &str) -> Option<String> {
    let (start, end) = span?;
    Some(format!(
        "{}{with}{}",
        command.get(..start)?,
        command.get(end..)?
    ))
}

/// The note for `command` when it piped `ls` of files into a program, else `None`.
pub fn note(command: &str, env: &ShellEnv) -> Option<String> {
    find(command, env).and_then(|p| p.note())
}

/// Whether `name` (expanded; relative to `cwd`) is a file that is there, not a folder. A
/// name with a glob or a variable still in it is not one the line knew.
fn is_file(name: &str, cwd: &Path) -> bool {
    if name.contains(['*', '?', '[', '$', '`']) {
        return false;
    }
    std::fs::metadata(crate::assist::in_folder(name, cwd)).is_ok_and(|m| m.is_file())
}

mod found;
mod readers;
mod searched;

#[cfg(test)]
mod tests;

//! Names `find` printed, sorted as numbers: `find ~/inbox -type f -printf '%f\n' | sort
//! -k1,1nr | head -n 1` (seen on the tune half, answered as the largest file) orders
//! names as text, because no name begins with a number, where `sort -n`'s flags say
//! sizes were meant. Read from the pipe's syntax and the disk, never from the request:
//! the same `find` runs with each file's size in bytes before the name it printed
//! (`-printf '%s %f\n'`), files only, and the rest of the line as written, so the same
//! `sort` orders the files by size.
//!
//! Left as written: any action but printing a name (`-exec`, `-delete`, `-ls`), an
//! expression past tests joined by "and" (`-o`, `!`, parentheses), folders asked for
//! (`-type d`), and names that begin with a digit (sorting them as numbers may be what
//! was meant).

use std::path::Path;

use super::readers::{reader, sort_by_number};
use super::{replaced, Meant, Piped};
use crate::policy::ShellEnv;

/// `find`'s tests that take a value and keep to files it prints.
const TESTS_WITH_VALUE: &[&str] = &[
    "-name",
    "-iname",
    "-path",
    "-ipath",
    "-wholename",
    "-regex",
    "-iregex",
    "-size",
    "-mtime",
    "-mmin",
    "-atime",
    "-amin",
    "-ctime",
    "-cmin",
    "-newer",
    "-maxdepth",
    "-mindepth",
    "-user",
    "-group",
    "-perm",
];

/// `find`'s tests and options that take no value.
const TESTS_ALONE: &[&str] = &[
    "-empty",
    "-readable",
    "-writable",
    "-executable",
    "-xdev",
    "-mount",
    "-nowarn",
    "-daystart",
];

/// How many entries are looked at for a name that begins with a digit.
const LOOKED_AT: usize = 10_000;

/// `find` of folders piped into `sort -n` (or `-h`, `-g`, a key on the first field),
/// run with each file's size before its name.
pub(super) fn sizes(command: &str, pipe: &zeta_judge::Pipe, env: &ShellEnv) -> Option<Piped> {
    let (program, args) = pipe.from.split_first()?;
    if program != "find" || pipe.into != "sort" || pipe.written.len() != pipe.from.len() {
        return None;
    }
    sort_by_number(&pipe.into_args)?;
    let written = &pipe.written[1..];
    let starts = args.iter().take_while(|a| !a.starts_with('-')).count();
    let cwd = pipe.cwd.as_deref().unwrap_or(&env.cwd);
    let folders: Vec<std::path::PathBuf> = args[..starts]
        .iter()
        .map(|a| crate::assist::in_folder(a, cwd))
        .collect();
    if folders.iter().any(|f| !f.is_dir()) {
        return None;
    }
    // The folders as written (`~/inbox`); a test's value as the shell passes it, quoted
    // again (the written word of `'*'` has lost its quotes).
    let mut kept: Vec<String> = written[..starts].to_vec();
    let mut printed = "%p";
    let mut files_only = false;
    let mut i = starts;
    while i < args.len() {
        let arg = args[i].as_str();
        match arg {
            "-print" => {}
            "-printf" => {
                printed = match args.get(i + 1)?.as_str() {
                    "%f\\n" => "%f",
                    "%p\\n" => "%p",
                    "%P\\n" => "%P",
                    _ => return None,
                };
                i += 1;
            }
            "-type" => {
                if args.get(i + 1)? != "f" {
                    return None;
                }
                files_only = true;
                kept.extend([arg.to_string(), "f".to_string()]);
                i += 1;
            }
            test if TESTS_WITH_VALUE.contains(&test) => {
                kept.extend([test.to_string(), zeta_judge::quote(args.get(i + 1)?)]);
                i += 1;
            }
            test if TESTS_ALONE.contains(&test) => kept.push(test.to_string()),
            _ => return None,
        }
        i += 1;
    }
    let named: Vec<&Path> = if folders.is_empty() {
        vec![cwd]
    } else {
        folders.iter().map(|f| f.as_path()).collect()
    };
    let begins_with_digit = match printed {
        // A path begins with the folder as given ("." where none is).
        "%p" => args[..starts]
            .iter()
            .any(|a| a.starts_with(|c: char| c.is_ascii_digit())),
        _ => named.iter().any(|f| digit_named_within(f)),
    };
    if begins_with_digit {
        return None;
    }
    if !files_only {
        kept.extend(["-type".to_string(), "f".to_string()]);
    }
    kept.extend(["-printf".to_string(), format!("'%s {printed}\\n'")]);
    let run = std::iter::once("find".to_string())
        .chain(kept)
        .collect::<Vec<_>>();
    Some(Piped {
        listing: pipe.written.join(" "),
        names: written[..starts].to_vec(),
        program: reader(command, pipe),
        meant: Meant::FoundSizes,
        run_as: replaced(command, pipe.span, &run.join(" ")),
        said: None,
    })
}

/// Whether a folder holds, at any depth, an entry whose name begins with a digit (or
/// more entries than are looked at).
fn digit_named_within(folder: &Path) -> bool {
    let mut waiting = vec![folder.to_path_buf()];
    let mut seen = 0usize;
    while let Some(dir) = waiting.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            seen += 1;
            if seen > LOOKED_AT
                || entry
                    .file_name()
                    .to_string_lossy()
                    .starts_with(|c: char| c.is_ascii_digit())
            {
                return true;
            }
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                waiting.push(entry.path());
            }
        }
    }
    false
}

#[cfg(test)]
mod tests;

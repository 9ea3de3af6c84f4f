//! Readers whose own flags say the files were meant, not their names: `sort -h` or `-n`
//! orders sizes and numbers, which a listing's names do not hold when none begins with a
//! digit (`ls ~/notes | sort -rh | head -n 1`, read as the largest file: the names
//! sorted as text), and `grep -l`/`-L` names the files whose contents match (or do not),
//! which fed names on its input can only print "(standard input)". Each is read from the
//! pipe's syntax and the disk, never from the request, and run the way the flags mean:
//! `ls -S` (largest first; `-Sr` smallest first), and grep given the files.

use std::path::Path;

use super::{listing, operands, replaced, Meant, Piped};
use crate::policy::ShellEnv;

/// Letters of `ls` flags after which its lines still begin with a name (`-1`, `-a`,
/// `-A`) or with the same mode letters for every file (`-l`, `-h`).
const LS_LETTERS: &str = "1aAlh";

/// Letters of `sort` flags that leave the order to its key: reverse, unique, fold case,
/// ignore leading blanks.
const SORT_PLAIN: &str = "rufb";

/// `ls` of folders or files piped into `sort -h` (or `-n`, `-g`), run as `ls -S`.
pub(super) fn sizes(command: &str, pipe: &zeta_judge::Pipe, env: &ShellEnv) -> Option<Piped> {
    let (program, args) = pipe.from.split_first()?;
    if program != "ls" || pipe.into != "sort" {
        return None;
    }
    let by = sort_by_number(&pipe.into_args)?;
    let letters = ls_letters(args)?;
    if by.keyed && letters.contains('l') {
        return None;
    }
    let cwd = pipe.cwd.as_deref().unwrap_or(&env.cwd);
    let named: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
    let long = letters.contains('l');
    let cwd_listed = [cwd.display().to_string()];
    let listed: Vec<&String> = if named.is_empty() {
        cwd_listed.iter().collect()
    } else {
        named
    };
    if !listed.iter().all(|n| holds_no_number(n, cwd, long)) {
        return None;
    }
    let order = if by.largest_first { "S" } else { "Sr" };
    let mut words = vec![format!("ls -{letters}{order}")];
    words.extend(operands(pipe));
    let span = pipe.span.zip(pipe.into_span).map(|((s, _), (_, e))| (s, e));
    Some(Piped {
        listing: listing(pipe),
        names: operands(pipe),
        program: reader(command, pipe),
        meant: Meant::Sizes,
        run_as: replaced(command, span, &words.join(" ")),
        said: None,
    })
}

/// `ls` of folders or files piped into `grep -l` or `-L`, run as grep of those files (a
/// folder's files by `DIR/*`, its folders skipped).
pub(super) fn files(command: &str, pipe: &zeta_judge::Pipe, env: &ShellEnv) -> Option<Piped> {
    let program = pipe.from.first()?;
    if program != "ls" || !matches!(pipe.into.as_str(), "grep" | "egrep" | "fgrep") {
        return None;
    }
    if !grep_lists_files(&pipe.into_args)? {
        return None;
    }
    let (given, folders_inside) = given_to_grep(pipe, env, false)?;
    let (start, end) = pipe.into_span?;
    let grep = command.get(start..end)?;
    let skip = if folders_inside { " -d skip" } else { "" };
    let run = format!("{grep}{skip} {}", given.join(" "));
    let span = pipe.span.map(|(s, _)| (s, end));
    Some(Piped {
        listing: listing(pipe),
        names: operands(pipe),
        program: grep.to_string(),
        meant: Meant::Files,
        run_as: replaced(command, span, &run),
        said: None,
    })
}

/// The files `ls`'s names stand for, as grep would be given them (a folder as `DIR/*`),
/// and whether a folder may be among them; `None` where `ls` has flags past names, or a
/// name is not there. `standalone`: for a command of its own, which runs in the working
/// folder, not where a `cd` before the listing went.
pub(super) fn given_to_grep(
    pipe: &zeta_judge::Pipe,
    env: &ShellEnv,
    standalone: bool,
) -> Option<(Vec<String>, bool)> {
    let (_, args) = pipe.from.split_first()?;
    if args
        .iter()
        .any(|a| a.starts_with('-') && !matches!(a.as_str(), "-1" | "--"))
    {
        return None;
    }
    let cwd = pipe.cwd.as_deref().unwrap_or(&env.cwd);
    let written = operands(pipe);
    let named: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
    if named.len() != written.len() {
        return None;
    }
    let mut folders_inside = false;
    let mut given = Vec::new();
    if named.is_empty() {
        folders_inside |= has_folder(cwd);
        if standalone && cwd != env.cwd {
            given.push(format!(
                "{}/*",
                zeta_judge::quote_path(&cwd.to_string_lossy())
            ));
        } else {
            given.push("*".to_string());
        }
    }
    for (name, as_written) in named.iter().zip(&written) {
        let path = crate::assist::in_folder(name, cwd);
        if is_glob(name) {
            given.push(as_written.clone());
            folders_inside = true;
        } else if path.is_dir() {
            folders_inside |= has_folder(&path);
            given.push(format!("{}/*", as_written.trim_end_matches('/')));
        } else if path.is_file() {
            given.push(as_written.clone());
        } else {
            return None;
        }
    }
    Some((given, folders_inside))
}

/// The reading command as written (`sort -rh`), else its program's name.
pub(super) fn reader(command: &str, pipe: &zeta_judge::Pipe) -> String {
    pipe.into_span
        .and_then(|(s, e)| command.get(s..e))
        .map(str::to_string)
        .unwrap_or_else(|| pipe.into.clone())
}

/// How `sort`'s words order by number (`-h`, `-n`, `-g`, their long forms), on the whole
/// line or on its first field (`-k1,1nr`: a name's only field): `None` for any other
/// word (another key, a separator, a file) or where nothing orders by number.
pub(super) fn sort_by_number(args: &[String]) -> Option<ByNumber> {
    let mut by = ByNumber::default();
    let mut number = false;
    let mut words = args.iter();
    while let Some(arg) = words.next() {
        match arg.as_str() {
            "--human-numeric-sort" | "--numeric-sort" | "--general-numeric-sort" => number = true,
            "--reverse" => by.largest_first = true,
            "--unique" | "--ignore-case" | "--ignore-leading-blanks" => {}
            "-k" | "--key" => {
                number |= first_field(words.next()?, &mut by)?;
            }
            long if long.starts_with("--key=") => {
                number |= first_field(&long["--key=".len()..], &mut by)?;
            }
            short if short.starts_with('-') && !short.starts_with("--") && short.len() > 1 => {
                for (i, c) in short.char_indices().skip(1) {
                    match c {
                        'h' | 'n' | 'g' => number = true,
                        'r' => by.largest_first = true,
                        'k' => {
                            let rest = &short[i + 1..];
                            let key = if rest.is_empty() { words.next()? } else { rest };
                            number |= first_field(key, &mut by)?;
                            break;
                        }
                        c if SORT_PLAIN.contains(c) => {}
                        _ => return None,
                    }
                }
            }
            _ => return None,
        }
    }
    number.then_some(by)
}

/// How `sort` orders the listing's lines.
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct ByNumber {
    largest_first: bool,
    /// By a key, the first field: only a listing of names has nothing else there.
    keyed: bool,
}

/// Reads a key that is the first field alone (`1`, `1,1`, `1,1nr`, `1nr`): whether its
/// own letters order by number; `None` for any other key.
fn first_field(key: &str, by: &mut ByNumber) -> Option<bool> {
    let (fields, letters) = key.split_at(
        key.find(|c: char| c.is_ascii_alphabetic())
            .unwrap_or(key.len()),
    );
    if !matches!(fields, "1" | "1,1") {
        return None;
    }
    by.keyed = true;
    let mut number = false;
    for c in letters.chars() {
        match c {
            'h' | 'n' | 'g' => number = true,
            'r' => by.largest_first = true,
            c if SORT_PLAIN.contains(c) => {}
            _ => return None,
        }
    }
    Some(number)
}

/// The letters of `ls`'s flags, where all are among `LS_LETTERS`; `None` otherwise.
fn ls_letters(args: &[String]) -> Option<String> {
    let mut letters = String::new();
    for arg in args.iter().filter(|a| a.starts_with('-')) {
        let rest = arg.strip_prefix('-')?;
        if rest.starts_with('-') || rest.is_empty() || !rest.chars().all(|c| LS_LETTERS.contains(c))
        {
            return None;
        }
        for c in rest.chars() {
            if !letters.contains(c) {
                letters.push(c);
            }
        }
    }
    Some(letters)
}

/// Whether grep's words list files (`-l`, `-L`, their long forms) read from its input:
/// `Some(false)` where they do not list files, `None` where grep would not read its
/// input at all (a file or `-r` given) or a word is past knowing.
fn grep_lists_files(args: &[String]) -> Option<bool> {
    let mut lists = false;
    let mut operands: usize = 0;
    let mut pattern_given = false;
    let mut takes_value = false;
    for arg in args {
        if takes_value {
            takes_value = false;
            continue;
        }
        match arg.as_str() {
            "--files-with-matches" | "--files-without-match" => lists = true,
            "--recursive" | "--dereference-recursive" => return None,
            "-e" | "-f" | "--regexp" | "--file" => {
                pattern_given = true;
                takes_value = true;
            }
            long if long.starts_with("--") => {
                pattern_given |= long.starts_with("--regexp=") || long.starts_with("--file=");
            }
            short if short.starts_with('-') && short.len() > 1 => {
                for (i, c) in short.char_indices().skip(1) {
                    match c {
                        'l' | 'L' => lists = true,
                        'r' | 'R' => return None,
                        'e' | 'f' | 'm' | 'A' | 'B' | 'C' | 'd' | 'D' => {
                            pattern_given |= matches!(c, 'e' | 'f');
                            // The value is the flag's rest, or the next word.
                            takes_value = i + c.len_utf8() == short.len();
                            break;
                        }
                        _ => {}
                    }
                }
            }
            _ => operands += 1,
        }
    }
    let files_given = if pattern_given {
        operands
    } else {
        operands.saturating_sub(1)
    };
    (files_given == 0).then_some(lists)
}

/// Whether the lines `ls` prints for `name` begin with something other than a digit: a
/// folder's entries' names, a path as given, or (long) the mode letters.
fn holds_no_number(name: &str, cwd: &Path, long: bool) -> bool {
    if name.contains(['$', '`']) {
        return false;
    }
    if is_glob(name) {
        // Its folder (before the first wildcard) must be there.
        let fixed = &name[..name.find(['*', '?', '[']).unwrap_or(name.len())];
        let folder = fixed.rfind('/').map_or(".", |i| &fixed[..i.max(1)]);
        return crate::assist::in_folder(folder, cwd).is_dir() && (name.starts_with('/') || long);
    }
    let path = crate::assist::in_folder(name, cwd);
    if path.is_dir() {
        return long
            || std::fs::read_dir(&path).is_ok_and(|entries| {
                entries.flatten().all(|e| {
                    !e.file_name()
                        .to_string_lossy()
                        .starts_with(|c: char| c.is_ascii_digit())
                })
            });
    }
    path.is_file() && (long || !name.starts_with(|c: char| c.is_ascii_digit()))
}

/// Whether a folder holds a folder.
fn has_folder(path: &Path) -> bool {
    std::fs::read_dir(path).is_ok_and(|entries| {
        entries
            .flatten()
            .any(|e| e.file_type().is_ok_and(|t| t.is_dir()))
    })
}

/// Whether a word still holds a wildcard.
pub(super) fn is_glob(name: &str) -> bool {
    name.contains(['*', '?', '['])
}

#[cfg(test)]
mod tests;

//! Names searched for a plain word none of them holds (`ls ~/inbox | grep Zanzibar`,
//! seen on the tune half for "which file talks about Zanzibar", the same call three
//! times in a row; `find ~/reports -name '*Kilimanjaro*'`, seen in later tune runs,
//! answered "no file mentions it" and borne out by a program that searched the names
//! too): the command runs as written and prints nothing; its empty output comes with
//! how grep searches what the files hold. Read from the syntax (the pipe, find's
//! words) and the names on the disk (a glob's through the `glob` crate), never from the
//! request. The pipe's families are tested with the readers' (`readers/tests.rs`),
//! find's in `searched/tests.rs`.

use std::path::Path;

use super::readers::{given_to_grep, is_glob};
use super::{listing, operands, Meant, Piped};
use crate::policy::ShellEnv;

/// `ls` of folders or files piped into grep of a plain word that no name there holds
/// (`ls ~/inbox | grep Zanzibar`, seen on the tune half for the file that mentions it,
/// three calls in a row): run as written, which prints nothing; said with that output,
/// how grep searches what the files hold. Names that hold the word, a pattern past a
/// plain word, and grep that counts, inverts or lists files are left alone.
pub(super) fn searched(pipe: &zeta_judge::Pipe, env: &ShellEnv) -> Option<Piped> {
    let (program, args) = pipe.from.split_first()?;
    if program != "ls" || pipe.into != "grep" {
        return None;
    }
    let mut flags = String::new();
    let mut patterns = Vec::new();
    for arg in &pipe.into_args {
        match arg.strip_prefix('-') {
            Some(letters) if !letters.is_empty() && !letters.starts_with('-') => {
                if !letters.chars().all(|c| "iwFx".contains(c)) {
                    return None;
                }
                flags.push_str(letters);
            }
            Some(_) => return None,
            None => patterns.push(arg.clone()),
        }
    }
    let [pattern] = patterns.as_slice() else {
        return None;
    };
    let plain = !pattern.is_empty()
        && pattern
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'));
    if !plain {
        return None;
    }
    let (given, folders_inside) = given_to_grep(pipe, env, true)?;
    let cwd = pipe.cwd.as_deref().unwrap_or(&env.cwd);
    let ignore_case = flags.contains('i');
    let holds = |name: &str| {
        if ignore_case {
            name.to_lowercase().contains(&pattern.to_lowercase())
        } else {
            name.contains(pattern.as_str())
        }
    };
    let named: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
    // What `ls` prints: a folder's names, a file's path as given, a glob's paths.
    let listed = if named.is_empty() {
        names_in(cwd)?
    } else {
        let mut all = Vec::new();
        for name in &named {
            let path = crate::assist::in_folder(name, cwd);
            if is_glob(name) {
                let paths = glob::glob(&path.to_string_lossy()).ok()?;
                let matched: Vec<String> = paths
                    .flatten()
                    .map(|p| p.to_string_lossy().to_string())
                    .collect();
                if matched.is_empty() {
                    return None;
                }
                all.extend(matched);
            } else if path.is_dir() {
                all.extend(names_in(&path)?);
            } else {
                all.push(name.to_string());
            }
        }
        all
    };
    if listed.is_empty() || listed.iter().any(|n| holds(n)) {
        return None;
    }
    let mut letters: String = flags.chars().filter(|c| *c != 'x').collect();
    letters.insert(0, 'l');
    let skip = if folders_inside { " -d skip" } else { "" };
    let search = format!(
        "grep -{letters}{skip} {} {}",
        zeta_judge::quote(pattern),
        given.join(" ")
    );
    let said = crate::prompts::fill(
        crate::prompts::NAMES_PIPED_SEARCHED,
        &[
            ("listing", &listing(pipe)),
            ("pattern", pattern),
            ("search", &search),
        ],
    );
    Some(Piped {
        listing: listing(pipe),
        names: operands(pipe),
        program: "grep".to_string(),
        meant: Meant::Searched,
        run_as: None,
        said: Some(said),
    })
}

/// The most entries looked at under find's folders: a larger tree is left as written.
const MOST_FOUND: usize = 5000;

/// `find DIR… -name '*WORD*'` (or `-iname`, with `-type`, `-maxdepth`, `-mindepth` and
/// a last `-print` besides, nothing else) where no name under its folders holds the plain word:
/// run as written, which prints nothing; said with that output, how grep searches what
/// the files hold. A pattern past a plain word between stars, other tests or actions,
/// folders not there and trees over `MOST_FOUND` entries are left alone.
pub(super) fn found_none(command: &str, env: &ShellEnv) -> Option<Piped> {
    zeta_judge::commands(command, env)
        .into_iter()
        .filter(|simple| simple.span.is_some())
        .find_map(|simple| {
            let (program, args) = simple.words.split_first()?;
            if program != "find" {
                return None;
            }
            let starts = args
                .iter()
                .position(|a| a.starts_with('-') || a == "(" || a == "!")
                .unwrap_or(args.len());
            let (folders, expression) = args.split_at(starts);
            let (mut pattern, mut ignore_case) = (None, false);
            // `-print` before the test prints every name: only at the end is it find's own.
            let expression = match expression.split_last() {
                Some((last, before)) if last == "-print" => before,
                _ => expression,
            };
            let mut words = expression.iter();
            while let Some(word) = words.next() {
                match word.as_str() {
                    "-name" | "-iname" => {
                        if pattern.is_some() {
                            return None;
                        }
                        ignore_case = word == "-iname";
                        pattern = Some(words.next()?.clone());
                    }
                    "-type" | "-maxdepth" | "-mindepth" => {
                        words.next()?;
                    }
                    _ => return None,
                }
            }
            let pattern = pattern?;
            let word = pattern.trim_matches('*');
            let plain = !word.trim().is_empty()
                && word
                    .chars()
                    .all(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'));
            if !plain || pattern.trim_start_matches('*').trim_end_matches('*') != word {
                return None;
            }
            let cwd = simple.cwd.as_deref().unwrap_or(&env.cwd);
            let folders: Vec<&String> = folders.iter().collect();
            let written: Vec<String> = simple
                .written
                .iter()
                .skip(1)
                .take(folders.len().max(1))
                .cloned()
                .collect();
            let roots: Vec<std::path::PathBuf> = if folders.is_empty() {
                vec![cwd.to_path_buf()]
            } else {
                folders
                    .iter()
                    .map(|f| crate::assist::in_folder(f, cwd))
                    .collect()
            };
            if roots.iter().any(|r| !r.is_dir()) {
                return None;
            }
            let holds = |name: &str| {
                if ignore_case {
                    name.to_lowercase().contains(&word.to_lowercase())
                } else {
                    name.contains(word)
                }
            };
            // Every name under the folders (links not followed), as find would see them.
            let mut seen = 0usize;
            let mut left: Vec<std::path::PathBuf> = roots.clone();
            while let Some(folder) = left.pop() {
                for entry in std::fs::read_dir(&folder).ok()? {
                    let entry = entry.ok()?;
                    seen += 1;
                    if seen > MOST_FOUND || holds(&entry.file_name().to_string_lossy()) {
                        return None;
                    }
                    if entry.file_type().ok()?.is_dir() {
                        left.push(entry.path());
                    }
                }
            }
            let shown = if folders.is_empty() {
                ".".to_string()
            } else {
                written.join(" ")
            };
            // The word searched for in the files, without the blanks around it that the
            // pattern had (`'* Tasmania*'`).
            let word = word.trim();
            let letters = if ignore_case { "-ril" } else { "-rl" };
            let search = format!("grep {letters} {} {shown}", zeta_judge::quote(word));
            let said = crate::prompts::fill(
                crate::prompts::NAMES_PIPED_FOUND_NONE,
                &[("folders", &shown), ("pattern", word), ("search", &search)],
            );
            Some(Piped {
                listing: simple.written.join(" "),
                names: Vec::new(),
                program: "find".to_string(),
                meant: Meant::Searched,
                run_as: None,
                said: Some(said),
            })
        })
}

/// The names of a folder's entries, as `ls` prints them (hidden ones left out).
fn names_in(folder: &Path) -> Option<Vec<String>> {
    let entries = std::fs::read_dir(folder).ok()?;
    Some(
        entries
            .flatten()
            .map(|e| e.file_name().to_string_lossy().to_string())
            .filter(|n| !n.starts_with('.'))
            .collect(),
    )
}

#[cfg(test)]
mod tests;

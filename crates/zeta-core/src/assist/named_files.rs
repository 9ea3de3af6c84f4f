//! A file the request names, read where it is not: "how often does WARN appear in my
//! server.log" answered with `grep -i WARN /var/log/server.log | wc -l` (seen on the tune
//! half, two tasks in three: a place guessed for a log, then "There are no ERROR entries
//! in /var/log/server.log"). Read from the command's syntax tree, the request's paths and
//! the disk: where a request that only asks names a file that is there (`server.log`, in
//! the working folder or, a bare name, the home), and a program that only reads gets a
//! path that is not there with the same file name, the file the request names is the
//! one it means: the command runs with it in that path's place, and the model is told
//! so.
//!
//! Not read: a request that asks for a change (a path not there may be one to make), a
//! path that is there, one that also stands where something is written (a redirection,
//! `sort -o`), programs that change files, and names the request does not write.

use std::path::{Path, PathBuf};

use crate::assist::request::Request;
use crate::policy::ShellEnv;

/// Programs that only read the files they are given.
const READERS: &[&str] = &[
    "cat",
    "grep",
    "egrep",
    "fgrep",
    "zgrep",
    "wc",
    "head",
    "tail",
    "awk",
    "gawk",
    "mawk",
    "cut",
    "uniq",
    "tac",
    "nl",
    "less",
    "more",
    "stat",
    "du",
    "ls",
    "file",
    "md5sum",
    "sha256sum",
    "strings",
    "column",
    "jq",
];

/// A command with the files the request names in the place of paths that are not there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamedFiles {
    /// The command as it runs.
    pub run_as: String,
    /// Each path written, and the file the request names read in its place.
    pub read: Vec<(String, String)>,
}

impl NamedFiles {
    /// The command run in its place, and how it was read.
    pub fn read_as(&self) -> (String, String) {
        let read = self
            .read
            .iter()
            .map(|(written, named)| format!("{written} is not on this computer; {named}, the file the request names, was read in its place"))
            .collect::<Vec<_>>()
            .join("; ");
        let note = crate::prompts::fill(
            crate::prompts::NAMED_FILES,
            &[("command", &self.run_as), ("read", &read)],
        );
        (self.run_as.clone(), note)
    }
}

/// `command` with each path a reader was given that is not there read as the file of
/// the same name that `request` names and that is there; `None` where there is none.
pub fn find(command: &str, request: &Request, env: &ShellEnv) -> Option<NamedFiles> {
    if !request.only_asks() {
        return None;
    }
    let named: Vec<PathBuf> = request
        .paths
        .iter()
        .filter_map(|p| there(&p.text, &p.path, env))
        .collect();
    if named.is_empty() {
        return None;
    }
    let simples = zeta_judge::commands(command, env);
    let mut swaps: Vec<(String, PathBuf)> = Vec::new();
    for simple in &simples {
        let Some((program, args)) = simple.words.split_first() else {
            continue;
        };
        if !READERS.contains(&program.as_str()) || simple.words.len() != simple.written.len() {
            continue;
        }
        for (i, word) in args.iter().enumerate() {
            let written = &simple.written[i + 1];
            if !word.starts_with('/') || Path::new(word).exists() {
                continue;
            }
            let Some(name) = Path::new(word).file_name() else {
                continue;
            };
            let mut same: Vec<&PathBuf> = named
                .iter()
                .filter(|n| n.file_name() == Some(name))
                .collect();
            same.dedup();
            if let [one] = same.as_slice() {
                if !swaps.iter().any(|(w, _)| w == written) {
                    swaps.push((written.clone(), (*one).clone()));
                }
            }
        }
    }
    if swaps.is_empty() {
        return None;
    }
    // Each path swapped must stand in the line only where a reader was given it.
    for (written, _) in &swaps {
        let given = simples
            .iter()
            .filter(|s| {
                s.words
                    .first()
                    .is_some_and(|p| READERS.contains(&p.as_str()))
            })
            .flat_map(|s| s.written.iter().skip(1))
            .filter(|w| *w == written)
            .count();
        if command.matches(written.as_str()).count() != given {
            return None;
        }
    }
    let mut run_as = command.to_string();
    let mut read = Vec::new();
    for (written, path) in swaps {
        let shown = zeta_judge::quote_path(&path.to_string_lossy());
        run_as = run_as.replace(&written, &shown);
        read.push((written, shown));
    }
    Some(NamedFiles { run_as, read })
}

/// Where a path the request wrote is a file that is there: where it points, or, for a
/// bare name ("my server.log"), in the home.
fn there(text: &str, path: &Path, env: &ShellEnv) -> Option<PathBuf> {
    if path.is_file() {
        return Some(path.to_path_buf());
    }
    let in_home = env.home.join(text);
    (!text.contains('/') && in_home.is_file()).then_some(in_home)
}

#[cfg(test)]
mod tests;

//! Paths written in a home that is not the person's: `/home/user/projects`, written by a
//! model that knows the person's home only as the usual placeholder (seen on the tune
//! half, in every run: `ls /home/user/projects/*` for "my projects folder", then "There
//! are no files in /home/user/projects", told as not so). Read from the disk, never from
//! the request: where a path begins with `/home/NAME` or `/Users/NAME` and is not on
//! this computer, the person's home is the one it means where that home is not here at
//! all, or where the person's home holds what the path names (`~/projects` for
//! `/home/user/projects`, while another `/home/user` is here), or the folder a path to
//! be made goes in. The call runs with the person's home in the written one's place, and
//! the model is told so. A path that is there (in another person's home) is left alone,
//! and so is one in another person's home that the person's does not hold either:
//! nothing says where it was meant.
//!
//! Read in a shell command, a program's code and a file tool's path: the words that
//! name places, not text to type or send.

use std::path::Path;

use crate::policy::ShellEnv;

/// Where homes are kept, on Linux and macOS.
const HOMES: &[&str] = &["/home/", "/Users/"];

/// The arguments that name places on the computer.
const PLACES: &[&str] = &["command", "code", "path", "root"];

/// Characters a path can follow in a command or a program (a word's start, a quote, an
/// assignment, a redirection).
const BEFORE: &str = " \t\n\"'=(:><,[{`;|&";

/// Characters a home's name can be followed by where the name ends.
const AFTER: &str = "/ \t\n\"')]};|&,`>";

/// A call's arguments with this computer's home where a home it does not have was
/// written.
#[derive(Debug, Clone, PartialEq)]
pub struct OtherHomes {
    /// The arguments as they run.
    pub arguments: serde_json::Value,
    /// The homes written that are not here, as written (`/home/user`).
    pub written: Vec<String>,
}

impl OtherHomes {
    /// How the call was read, for the model.
    pub fn note(&self, env: &ShellEnv) -> String {
        crate::prompts::fill(
            crate::prompts::OTHER_HOMES,
            &[
                ("written", &self.written.join(", ")),
                ("home", &env.home.display().to_string()),
            ],
        )
    }
}

/// `arguments` read with this computer's home in place of each home written that it
/// does not have; `None` where no such home was written.
pub fn find(arguments: &serde_json::Value, env: &ShellEnv) -> Option<OtherHomes> {
    let home = env.home.to_str()?;
    // Put in unquoted, so only a home a shell reads as one word.
    if !home
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "/._-".contains(c))
    {
        return None;
    }
    let mut arguments = arguments.clone();
    let mut written: Vec<String> = Vec::new();
    for place in PLACES {
        let Some(text) = arguments.get(*place).and_then(|v| v.as_str()) else {
            continue;
        };
        if let Some((read, homes)) = read(text, home, Path::new("/")) {
            arguments[*place] = serde_json::Value::String(read);
            for h in homes {
                if !written.contains(&h) {
                    written.push(h);
                }
            }
        }
    }
    (!written.is_empty()).then_some(OtherHomes { arguments, written })
}

/// `text` with `home` in place of each home it names where the path is not on this
/// computer (its file system at `root`) and the home the person has holds it, and those
/// homes as written; `None` where it names none.
fn read(text: &str, home: &str, root: &Path) -> Option<(String, Vec<String>)> {
    let mut out = String::with_capacity(text.len());
    let mut homes = Vec::new();
    let mut rest = 0;
    let mut at = 0;
    while at < text.len() {
        let Some(prefix) = HOMES.iter().find(|h| text[at..].starts_with(**h)) else {
            at += text[at..].chars().next().map_or(1, char::len_utf8);
            continue;
        };
        let starts_word = text[..at]
            .chars()
            .next_back()
            .is_none_or(|c| BEFORE.contains(c));
        let name_start = at + prefix.len();
        let end = name_start
            + text[name_start..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || "._-".contains(c)))
                .unwrap_or(text.len() - name_start);
        let name = &text[name_start..end];
        let ends_word = text[end..].chars().next().is_none_or(|c| AFTER.contains(c));
        let path_end = end
            + text[end..]
                .find(|c: char| AFTER[1..].contains(c))
                .unwrap_or(text.len() - end);
        let written = &text[at..end];
        if starts_word
            && ends_word
            && !matches!(name, "" | "." | "..")
            && meant_here(written, &text[end..path_end], home, root)
        {
            out.push_str(&text[rest..at]);
            out.push_str(home);
            if !homes.iter().any(|h| h == written) {
                homes.push(written.to_string());
            }
            rest = end;
        }
        at = end.max(at + 1);
    }
    if homes.is_empty() {
        return None;
    }
    out.push_str(&text[rest..]);
    Some((out, homes))
}

/// Whether `written` (`/home/user`) followed by `tail` (`/projects/*`) means the
/// person's `home`, on the file system at `root`: the path (up to a brace or a variable;
/// a wildcard matched as the shell would) is not there, and either the written home is
/// not there at all, or the person's home holds what the path names, or, for a path to
/// be made, the folder it goes in, which the written home does not have.
fn meant_here(written: &str, tail: &str, home: &str, root: &Path) -> bool {
    let pattern = match tail.find(['{', '$']) {
        Some(cut) => &tail[..tail[..cut].rfind('/').unwrap_or(0)],
        None => tail,
    };
    let pattern = pattern.trim_end_matches('/');
    let root = root.to_string_lossy();
    let root = root.trim_end_matches('/');
    let on_root = |rel: &str| exists(&format!("{root}{written}{rel}"));
    if on_root(pattern) {
        return false;
    }
    if !on_root("") {
        return true;
    }
    let folder = &pattern[..pattern.rfind('/').unwrap_or(0)];
    exists(&format!("{home}{pattern}"))
        || (!folder.is_empty() && exists(&format!("{home}{folder}")) && !on_root(folder))
}

/// Whether anything is at `path`, or matches it where it holds a wildcard.
fn exists(path: &str) -> bool {
    if path.contains("**") {
        // A walk of a whole tree is not looked at.
        return false;
    }
    if path.contains(['*', '?', '[']) {
        glob::glob(path).is_ok_and(|mut found| found.any(|p| p.is_ok()))
    } else {
        std::fs::symlink_metadata(path).is_ok()
    }
}

#[cfg(test)]
mod tests;

//! The writes a request asks for ("Write the number into ~/answer.txt", "copy it into the
//! folder ~/backup", "Rename ~/a.csv to ~/b.csv", "Create a file ~/hello.txt") and
//! whether this computer's files show them done. A 1.5B model asked "How many .log files
//! are in ~/logs? Write the number into ~/answer.txt" answered the count and stopped; its
//! answer claimed no write, so no claim check caught it, and the check turn let it stand.
//! Only imperative sentences count (not a question, nothing negated), and only a path
//! right after "into", "to", "inside" or "as" with a verb of writing before it, or right
//! after "create"/"make": "in" is left out ("save the list of files in ~/docs to …").

use std::time::{Duration, SystemTime};

use super::claims::{bare, path_words, resolve};
use crate::policy::ShellEnv;

/// Verbs that ask for something to be written somewhere.
const WRITE_VERBS: [&str; 13] = [
    "write", "save", "copy", "move", "put", "append", "add", "store", "rename", "export", "output",
    "send", "redirect",
];
/// Verbs that ask for text in a file: an empty file is not it (seen: told the file did
/// not exist, the model ran `touch`).
const TEXT_VERBS: [&str; 8] = [
    "write", "save", "put", "append", "add", "store", "export", "output",
];
/// Verbs whose target keeps its source's time (`mv`): it need only exist.
const KEEPS_TIME: [&str; 2] = ["move", "rename"];
/// Verbs that ask for a path to be made: it need only exist (`mkdir -p` of an existing
/// folder changes nothing).
const MAKE_VERBS: [&str; 2] = ["create", "make"];
/// Words before a path that make it where something goes.
const INTO: [&str; 4] = ["into", "to", "inside", "as"];
/// Words that negate a sentence's request.
const NOT: [&str; 5] = ["not", "don't", "dont", "never", "nothing"];

/// One path the request asks to be written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct AskedWrite {
    /// The path as the request wrote it.
    pub path: String,
    /// Made, moved or renamed there: it need only exist; else it must have changed since
    /// the task began.
    pub exists_only: bool,
    /// Text is asked to be written there: a file there must not be empty.
    pub text: bool,
}

/// The request's sentences, each with whether it asks a question.
fn sentences(request: &str) -> Vec<(&str, bool)> {
    let mut out = Vec::new();
    let mut start = 0;
    let chars: Vec<(usize, char)> = request.char_indices().collect();
    for (k, &(i, c)) in chars.iter().enumerate() {
        let next_blank = chars.get(k + 1).is_none_or(|(_, n)| n.is_whitespace());
        if matches!(c, '?' | '!' | '.' | ';' | '\n') && next_blank {
            out.push((&request[start..i], c == '?'));
            start = i + c.len_utf8();
        }
    }
    if start < request.len() {
        out.push((&request[start..], false));
    }
    out
}

/// The paths `request` asks to be written, made, moved or copied into.
pub(super) fn asked_writes(request: &str) -> Vec<AskedWrite> {
    let mut asked: Vec<AskedWrite> = Vec::new();
    for (sentence, question) in sentences(request) {
        let words: Vec<&str> = sentence.split_whitespace().collect();
        let word = |i: usize| bare(words[i]).to_lowercase();
        if question || (0..words.len()).any(|i| NOT.contains(&word(i).as_str())) {
            continue;
        }
        for (at, path) in path_words(sentence) {
            let near = at.saturating_sub(3)..at;
            let made = near.clone().any(|i| MAKE_VERBS.contains(&word(i).as_str()));
            let into = near.rev().find(|&i| INTO.contains(&word(i).as_str()));
            let verb = into.and_then(|into| {
                (0..into)
                    .rev()
                    .map(word)
                    .find(|w| WRITE_VERBS.contains(&w.as_str()))
            });
            let (exists_only, text) = match (made, verb) {
                (true, _) => (true, false),
                (false, Some(v)) => (
                    KEEPS_TIME.contains(&v.as_str()),
                    TEXT_VERBS.contains(&v.as_str()),
                ),
                (false, None) => continue,
            };
            if !asked.iter().any(|a| a.path == path) {
                asked.push(AskedWrite {
                    path,
                    exists_only,
                    text,
                });
            }
        }
    }
    asked
}

/// What the files say against the writes `request` asks for ("~/answer.txt does not
/// exist", "~/count.txt has not changed during this task", "~/answer.txt is empty"), and
/// the commands that would do them where the answer gives the one value to write
/// ("echo 4 > ~/answer.txt" after "There are 4 .log files").
pub(super) fn unmet_asked_writes(
    request: &str,
    answer: &str,
    env: &ShellEnv,
    since: SystemTime,
) -> (Vec<String>, Vec<String>) {
    // Filesystems that keep times in whole seconds (or two) must not make a fresh change
    // look old.
    let since = since.checked_sub(Duration::from_secs(2)).unwrap_or(since);
    let numbers: Vec<&str> = answer
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_ascii_digit()))
        .filter(|w| !w.is_empty() && w.parse::<f64>().is_ok())
        .collect();
    let mut unmet = Vec::new();
    let mut fixes = Vec::new();
    for asked in asked_writes(request) {
        let fact = match std::fs::metadata(resolve(&asked.path, env)) {
            Err(_) => Some(format!("{} does not exist", asked.path)),
            Ok(meta) if asked.text && meta.is_file() && meta.len() == 0 => {
                Some(format!("{} is empty", asked.path))
            }
            Ok(meta) => {
                let changed = meta.modified().is_ok_and(|m| m >= since);
                (!asked.exists_only && !changed)
                    .then(|| format!("{} has not changed during this task", asked.path))
            }
        };
        if let Some(fact) = fact {
            if let ([number], true) = (numbers.as_slice(), asked.text) {
                fixes.push(format!("echo {number} > {}", asked.path));
            }
            unmet.push(fact);
        }
    }
    (unmet, fixes)
}

#[cfg(test)]
mod tests;

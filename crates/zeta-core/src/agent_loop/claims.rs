//! What an answer says was changed, and whether the files agree. `claims_change` tells a
//! claimed change ("I wrote 4 into ~/answer.txt", "has been moved") from a reported fact
//! ("report.txt was created in 2024"). `check_file_claims` checks the paths the request
//! named and the answer claims were written, copied or moved into (they must exist, and
//! hold the value the answer says was written) or deleted (they must be gone) against
//! this computer's files, so a small model that ran `touch ~/answer.txt` and then said "I
//! wrote 4 into it" is told what the file really holds.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use crate::policy::ShellEnv;

const CHANGE_VERBS: [&str; 16] = [
    "wrote", "written", "saved", "created", "moved", "copied", "renamed", "deleted", "removed",
    "appended", "added", "made", "put", "stored", "updated", "changed",
];

/// Verbs after which a named path must be gone.
const GONE_VERBS: [&str; 4] = ["deleted", "removed", "erased", "trashed"];

/// Verbs after which a named path must exist ("created the folder ~/archive").
const MADE_VERBS: [&str; 3] = ["created", "made", "saved"];

/// Words before a path that make it where something went ("into ~/answer.txt").
const INTO: [&str; 6] = ["into", "to", "in", "inside", "as", "at"];

/// Words between a verb and the value it wrote ("wrote the number 4").
const VALUE_WORDS: [&str; 7] = [
    "the", "number", "count", "value", "result", "total", "answer",
];

/// The most of a file read to check a claimed value.
const READ_AT_MOST: u64 = 64 * 1024;

/// The answer says that something was changed, in the first person or the passive ("I
/// wrote", "I've saved", "has been created", "now contains"); a change described as a
/// fact of the files ("report.txt was created in 2024") is not a claim.
pub(super) fn claims_change(answer: &str) -> bool {
    let words = crate::text::words(answer);
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    let verb = |w: &str| CHANGE_VERBS.contains(&w);
    words.windows(2).any(|pair| match pair {
        [subject, v] => {
            (matches!(*subject, "i" | "i've" | "i'd" | "we" | "we've") && verb(v))
                || (*subject == "been" && verb(v))
                || (*subject == "now" && matches!(*v, "contains" | "holds" | "has" | "reads"))
        }
        _ => false,
    }) || words.windows(3).any(|w| {
        (matches!(w[0], "i" | "we") && matches!(w[1], "have" | "had" | "just" | "also") && verb(w[2]))
            // "The file was copied into ~/backup": a change with where it went. (Without
            // the destination, "was created in 2024" is a fact about the file.)
            || (matches!(w[0], "was" | "were") && verb(w[1]) && matches!(w[2], "into" | "to"))
    })
}

/// What the answer claims about one path the request named.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Claim {
    /// Something was written, copied or moved into it; `value` is what was written, when
    /// the answer says ("I wrote 4 into …").
    Into { value: Option<String> },
    /// It was deleted.
    Gone,
}

/// What the files say of an answer's claims about the paths the request named.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(super) struct FileClaims {
    /// Claims checked against the files.
    pub checked: usize,
    /// Those the files contradict, each as a sentence ("~/answer.txt does not exist").
    pub unmet: Vec<String>,
    /// Commands that would make them true, where the answer says what was written
    /// ("echo 4 > ~/answer.txt").
    pub fixes: Vec<String>,
}

/// The claims of `answer` about paths `request` named, checked against this computer's
/// files; none when the answer claims no change, or names no path of the request.
///
/// With `since` (when the task began), a claimed write into a path whose value the answer
/// does not name (a folder something was copied into, "the rows into ~/paris.csv") also
/// needs the path changed since then: a folder that was there before proves nothing.
pub(super) fn check_file_claims(
    request: &str,
    answer: &str,
    env: &ShellEnv,
    since: Option<SystemTime>,
) -> FileClaims {
    let mut found = FileClaims::default();
    if !claims_change(answer) {
        return found;
    }
    let named: Vec<String> = path_words(request).into_iter().map(|(_, p)| p).collect();
    // The named path an "it" points at: the last one the answer named, not as where
    // something came from ("moved the files from ~/logs into it").
    let mut referent: Option<&String> = None;
    for sentence in sentences(answer) {
        let words: Vec<&str> = sentence.split_whitespace().collect();
        let mentions = path_words(sentence);
        let not_from = |at: usize| at == 0 || !bare(words[at - 1]).eq_ignore_ascii_case("from");
        if let Some(it) = into_it(&words) {
            let pointed = mentions
                .iter()
                .filter(|(at, _)| *at < it && not_from(*at))
                .filter_map(|(_, m)| named.iter().find(|n| same_file(n, m)))
                .next_back()
                .or(referent);
            if let Some(path_text) = pointed {
                found.checked += 1;
                if let Some(fact) = filled_fact(path_text, &resolve(path_text, env), since) {
                    if !found.unmet.contains(&fact) {
                        found.unmet.push(fact);
                    }
                }
            }
        }
        for (at, mentioned) in mentions {
            let Some(path_text) = named.iter().find(|n| same_file(n, &mentioned)) else {
                continue;
            };
            if not_from(at) {
                referent = Some(path_text);
            }
            let Some(claim) = claim_at(&words, at) else {
                continue;
            };
            let path = resolve(path_text, env);
            found.checked += 1;
            let fact = match claim {
                Claim::Gone => path
                    .symlink_metadata()
                    .is_ok()
                    .then(|| (format!("{path_text} still exists"), None)),
                Claim::Into { value } => into_fact(path_text, &path, value.as_deref(), since),
            };
            if let Some((fact, fix)) = fact {
                if !found.unmet.contains(&fact) {
                    found.unmet.push(fact);
                    found.fixes.extend(fix);
                }
            }
        }
    }
    found
}

/// The claims the files contradict (see `check_file_claims`).
#[cfg(test)]
fn unmet_file_claims(request: &str, answer: &str, env: &ShellEnv) -> Vec<String> {
    check_file_claims(request, answer, env, None).unmet
}

/// `path` should exist and, when the answer says what was written, hold it: the fact
/// that says otherwise, and, when the value is known, the command that writes it (seen:
/// told only that the file did not exist, a 1.5B model ran `touch` and claimed the write
/// again).
fn into_fact(
    text: &str,
    path: &Path,
    value: Option<&str>,
    since: Option<SystemTime>,
) -> Option<(String, Option<String>)> {
    let fix = |v: &str| {
        let quoted = if v.chars().all(|c| c.is_ascii_digit() || c == '.') {
            v.to_string()
        } else {
            format!("'{}'", v.replace('\'', "'\\''"))
        };
        format!("echo {quoted} > {text}")
    };
    let Ok(meta) = std::fs::metadata(path) else {
        return Some((format!("{text} does not exist"), value.map(fix)));
    };
    let Some(value) = value else {
        // Filesystems that keep times in whole seconds (or two) must not make a fresh
        // change look old.
        let since = since?.checked_sub(Duration::from_secs(2))?;
        let changed = meta.modified().is_ok_and(|m| m >= since);
        return (!changed).then(|| (format!("{text} has not changed during this task"), None));
    };
    if !meta.is_file() {
        return None;
    }
    let held = read_start(path)?;
    if held.contains(value) {
        return None;
    }
    let shown = crate::text::clip(held.trim(), 60);
    let fact = if shown.is_empty() {
        format!("{text} is empty, it does not hold {value}")
    } else {
        format!("{text} holds \"{shown}\", not {value}")
    };
    Some((fact, Some(fix(value))))
}

/// Where a change verb put something "into it" ("moved app.log and db.log into it"): the
/// position of that "it".
fn into_it(words: &[&str]) -> Option<usize> {
    let word = |i: usize| bare(words[i]).to_lowercase();
    (1..words.len()).find(|&i| {
        word(i) == "it"
            && INTO.contains(&word(i - 1).as_str())
            && (0..i - 1).any(|j| {
                let w = word(j);
                CHANGE_VERBS.contains(&w.as_str()) && !GONE_VERBS.contains(&w.as_str())
            })
    })
}

/// Something was put into `path`: a folder must hold something and have changed since
/// the task began; a file is checked as a write with no value (`into_fact`).
fn filled_fact(text: &str, path: &Path, since: Option<SystemTime>) -> Option<String> {
    let Ok(meta) = std::fs::metadata(path) else {
        return Some(format!("{text} does not exist"));
    };
    if meta.is_dir() {
        let empty = std::fs::read_dir(path).map_or(true, |mut d| d.next().is_none());
        if empty {
            return Some(format!("{text} is empty"));
        }
    }
    into_fact(text, path, None, since).map(|(fact, _)| fact)
}

fn read_start(path: &Path) -> Option<String> {
    use std::io::Read;
    let file = std::fs::File::open(path).ok()?;
    let mut bytes = Vec::new();
    file.take(READ_AT_MOST).read_to_end(&mut bytes).ok()?;
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

/// The claim the words before `words[at]` make about it: a delete verb just before it
/// ("deleted ~/x"), or a change verb earlier in the sentence with "into"/"to"/"in" just
/// before it ("wrote 4 into ~/answer.txt", "copied big.bin to the folder ~/backup").
fn claim_at(words: &[&str], at: usize) -> Option<Claim> {
    let word = |i: usize| bare(words[i]).to_lowercase();
    let before: Vec<String> = (at.saturating_sub(3)..at).map(word).collect();
    if before.iter().any(|w| GONE_VERBS.contains(&w.as_str())) {
        return Some(Claim::Gone);
    }
    // "created a file ~/hello.txt", "made the folder ~/archive", and the passive "the
    // folder ~/archive was created", "~/hello.txt has been created".
    let after: Vec<String> = (at + 1..words.len().min(at + 4)).map(word).collect();
    // Not "~/report.txt was created on 2025-01-02": a date is a fact about the file.
    let dated =
        (at + 1..words.len().min(at + 6)).any(|i| words[i].chars().any(|c| c.is_ascii_digit()));
    let made_after = !dated
        && after
            .first()
            .is_some_and(|w| ["was", "were", "is", "has", "have"].contains(&w.as_str()))
        && after.iter().any(|w| MADE_VERBS.contains(&w.as_str()));
    let made = made_after || before.iter().any(|w| MADE_VERBS.contains(&w.as_str()));
    // "into ~/x", "into the file ~/x", "to the folder ~/x".
    let Some(near) = (at.saturating_sub(3)..at)
        .rev()
        .find(|&i| INTO.contains(&word(i).as_str()))
    else {
        return made.then_some(Claim::Into { value: None });
    };
    let verb = (0..near).rev().find(|&i| {
        let w = word(i);
        CHANGE_VERBS.contains(&w.as_str()) && !GONE_VERBS.contains(&w.as_str())
    });
    let Some(verb) = verb else {
        return made.then_some(Claim::Into { value: None });
    };
    // What was written: a number or a quoted text right after the verb, or after "the
    // number" ("wrote the number 4 into"); "copied big.bin (50 kB) into" says no value.
    let value = (verb + 1..near)
        .find(|&i| !VALUE_WORDS.contains(&word(i).as_str()))
        .and_then(|i| written_value(&words[i..near]));
    Some(Claim::Into { value })
}

/// The written value the words start with: a number, or a quoted text (which may span
/// words: "I wrote 'Hello, Zeta' into …").
fn written_value(words: &[&str]) -> Option<String> {
    let first = *words.first()?;
    if let Some(quote) = first
        .chars()
        .next()
        .filter(|c| ['"', '\'', '`'].contains(c))
    {
        let joined = words.join(" ");
        let rest = joined[quote.len_utf8()..].trim_end_matches([',', ';', ':', '.']);
        let end = rest.rfind(quote)?;
        let quoted = &rest[..end];
        return (!quoted.is_empty()).then(|| quoted.to_string());
    }
    let number = bare(first.trim_end_matches([',', ';', ':']));
    (!number.is_empty() && number.chars().all(|c| c.is_ascii_digit() || c == '.'))
        .then(|| number.to_string())
}

/// The answer's sentences: a path's own dots ("~/answer.txt") do not end one.
fn sentences(text: &str) -> Vec<&str> {
    text.split(['\n', ';'])
        .flat_map(|part| part.split(". "))
        .filter(|s| !s.trim().is_empty())
        .collect()
}

/// A word without the punctuation around it ("~/answer.txt." → "~/answer.txt").
pub(super) fn bare(word: &str) -> &str {
    word.trim_start_matches(['(', '"', '\'', '`', '[', '*'])
        .trim_end_matches(['.', ',', ';', ':', '!', '?', ')', '"', '\'', '`', ']', '*'])
}

/// The words of `text` that are paths, with their positions among its words: `~/…`,
/// `/…`, `./…`, anything with a slash, or a file name with an extension (`total.txt`).
pub(super) fn path_words(text: &str) -> Vec<(usize, String)> {
    text.split_whitespace()
        .enumerate()
        .filter_map(|(i, w)| {
            let w = bare(w);
            let slashed = w.contains('/') && w.len() > 1 && !w.contains("://");
            let named = w.rsplit_once('.').is_some_and(|(name, ext)| {
                !name.is_empty()
                    && !name.chars().all(|c| c.is_ascii_digit())
                    && (1..=5).contains(&ext.len())
                    && ext.chars().all(|c| c.is_ascii_alphanumeric())
                    && ext.chars().any(|c| c.is_ascii_alphabetic())
            });
            (slashed || named).then(|| (i, w.to_string()))
        })
        .collect()
}

/// Two mentions of one file: the same text, or the same last part (`~/answer.txt` and
/// `answer.txt`, `/home/me/backup/` and `~/backup`).
fn same_file(a: &str, b: &str) -> bool {
    let last = |p: &str| {
        p.trim_end_matches('/')
            .rsplit('/')
            .next()
            .map(str::to_string)
    };
    a == b || (last(a).is_some_and(|l| !l.is_empty() && !l.starts_with('~')) && last(a) == last(b))
}

/// Where a path the request wrote points: `~` and `$HOME` are the home, a relative path
/// is in the working folder.
pub(super) fn resolve(text: &str, env: &ShellEnv) -> PathBuf {
    let home_relative = text.strip_prefix("$HOME/").map(|rest| env.home.join(rest));
    let expanded = home_relative
        .or_else(|| crate::policy::shell::words::expand_tilde(text, &env.home).map(PathBuf::from));
    let path = expanded.unwrap_or_else(|| PathBuf::from(text));
    if path.is_absolute() {
        path
    } else {
        env.cwd.join(path)
    }
}

#[cfg(test)]
mod tests;

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
    for sentence in sentences(answer) {
        let words: Vec<&str> = sentence.split_whitespace().collect();
        for (at, mentioned) in path_words(sentence) {
            let Some(path_text) = named.iter().find(|n| same_file(n, &mentioned)) else {
                continue;
            };
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
    // "created a file ~/hello.txt", "made the folder ~/archive".
    let made = before.iter().any(|w| MADE_VERBS.contains(&w.as_str()));
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
fn bare(word: &str) -> &str {
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
mod tests {
    use super::*;

    /// Families of answers that claim a change and of answers that report facts: every
    /// claim is caught, no fact is taken for one.
    #[test]
    fn claimed_changes_are_told_from_reported_facts() {
        let mut claims = Vec::new();
        let subjects = [
            "I",
            "I've",
            "I have",
            "We",
            "I just",
            "we have",
            "I\u{2019}ve",
            "Done: I",
        ];
        let verbs = [
            "wrote", "written", "saved", "created", "moved", "copied", "renamed", "deleted",
            "removed", "appended", "added", "stored", "updated", "changed", "made", "put",
        ];
        let objects = [
            "4 into ~/answer.txt.",
            "the file ~/count.txt",
            "it",
            "the folder for you.",
        ];
        for subject in subjects {
            for verb in verbs {
                for object in objects {
                    claims.push(format!("There are 4 .log files. {subject} {verb} {object}"));
                }
            }
        }
        for verb in verbs {
            claims.push(format!("The number has been {verb} to ~/answer.txt."));
            claims.push(format!("All .log files have been {verb}."));
        }
        for v in ["contains", "holds", "reads"] {
            claims.push(format!("~/count.txt now {v} 3."));
        }
        for verb in verbs {
            for (subject, to) in [("The file was", "into"), ("The rows were", "to")] {
                claims.push(format!("{subject} {verb} {to} ~/backup."));
            }
        }
        let facts = [
            "There are 4 .log files in ~/logs.",
            "You have 60 GB free of 100 GB on /.",
            "The largest file in ~/data is big.bin (3.1 MB).",
            "report-2025.txt was created on 2025-01-02 and changed last week.",
            "The Gadget costs 19.99.",
            "Your user name is root.",
            "new.rs was modified most recently.",
            "5 lines in ~/app.log contain ERROR.",
            "Linux kernel 6.1.0-28-amd64 is running.",
            "I found 4 files and counted 12 lines.",
            "I checked ~/logs: it holds 3 files.",
            "I see 4 .txt files in ~/docs.",
            "The folder has 3 files; the newest was written yesterday.",
            "The cheapest item is the Widget at 2.50.",
            "25 December 2026 is a Friday.",
            "1234 times 5678 is 7006652.",
            "Which file do you mean: report-2025.txt or report-2026.txt?",
            "The file was saved by another program at 09:14.",
            "I could not find a file named report.txt.",
            "It is not done: the folder ~/backup does not exist.",
            "Files added to ~/inbox today: scan-0001.pdf.",
            "report.txt was created in 2024 and moved in 2025.",
            "The backup was made at 09:00.",
        ];
        let missed: Vec<&String> = claims.iter().filter(|c| !claims_change(c)).collect();
        let false_alarms: Vec<&&str> = facts.iter().filter(|f| claims_change(f)).collect();
        println!(
            "claims: {} ({} missed); facts: {} ({} false alarms)",
            claims.len(),
            missed.len(),
            facts.len(),
            false_alarms.len()
        );
        assert!(missed.is_empty(), "missed: {missed:?}");
        assert!(false_alarms.is_empty(), "false alarms: {false_alarms:?}");
    }

    fn env_in(dir: &Path) -> ShellEnv {
        ShellEnv {
            home: dir.to_path_buf(),
            cwd: dir.join("work"),
            user: "me".into(),
        }
    }

    /// Families of claims about files the request named, each checked against a folder
    /// where it is true and one where it is false: every false one is told with what the
    /// files hold, no true one is.
    #[test]
    fn claimed_writes_and_deletes_are_checked_against_the_files() {
        let dir = tempfile::tempdir().expect("temp");
        let env = env_in(dir.path());
        std::fs::create_dir_all(env.cwd.join("out")).expect("work");
        let subjects = ["I", "I have", "I've", "Done: I", "I just"];
        let mut missed = Vec::new();
        let mut false_alarms = Vec::new();
        let mut cases = 0;
        // (request's path, how the answer names it, where it is on disk)
        let absolute = dir.path().join("abs.txt");
        let places: Vec<(String, &str, PathBuf)> = vec![
            (
                "~/answer.txt".into(),
                "~/answer.txt",
                dir.path().join("answer.txt"),
            ),
            (
                "~/answer.txt".into(),
                "answer.txt",
                dir.path().join("answer.txt"),
            ),
            (
                "$HOME/total.txt".into(),
                "$HOME/total.txt",
                dir.path().join("total.txt"),
            ),
            ("out/n.txt".into(), "out/n.txt", env.cwd.join("out/n.txt")),
            (absolute.display().to_string(), "abs.txt", absolute.clone()),
        ];
        for (named, said, on_disk) in &places {
            let request =
                format!("Count the .log files in ~/logs and write the number into {named}");
            for subject in subjects {
                for (verb, prep) in [
                    ("wrote", "into"),
                    ("saved", "in"),
                    ("wrote", "to"),
                    ("put", "into the file"),
                    ("stored", "in"),
                ] {
                    let answer =
                        format!("There are 4 .log files. {subject} {verb} 4 {prep} {said}.");
                    for (holds, true_claim) in [
                        (None, false),
                        (Some(""), false),
                        (Some("7\n"), false),
                        (Some("4\n"), true),
                    ] {
                        let _ = std::fs::remove_file(on_disk);
                        if let Some(text) = holds {
                            std::fs::write(on_disk, text).expect("write");
                        }
                        cases += 1;
                        let unmet = unmet_file_claims(&request, &answer, &env);
                        match (true_claim, unmet.is_empty()) {
                            (false, true) => missed.push(format!("{answer} / {holds:?}")),
                            (true, false) => false_alarms.push(format!("{answer}: {unmet:?}")),
                            _ => {}
                        }
                    }
                }
            }
        }
        // Deletes: the file must be gone.
        let gone = dir.path().join("old.txt");
        for answer in [
            "I deleted ~/old.txt.",
            "I have removed ~/old.txt as asked.",
            "Done: I deleted old.txt",
        ] {
            for exists in [true, false] {
                let _ = std::fs::remove_file(&gone);
                if exists {
                    std::fs::write(&gone, "x").expect("write");
                }
                cases += 1;
                let unmet = unmet_file_claims("Delete ~/old.txt", answer, &env);
                match (exists, unmet.is_empty()) {
                    (true, true) => missed.push(format!("{answer} / exists")),
                    (false, false) => false_alarms.push(format!("{answer}: {unmet:?}")),
                    _ => {}
                }
            }
        }
        // Moves into a folder: the folder must exist.
        let folder = dir.path().join("old-logs");
        for exists in [true, false] {
            let _ = std::fs::remove_dir_all(&folder);
            if exists {
                std::fs::create_dir_all(&folder).expect("folder");
            }
            cases += 1;
            let unmet = unmet_file_claims(
                "Make a folder ~/old-logs and move the .log files from ~/var into it",
                "I created ~/old-logs and moved app.log and db.log into it.",
                &env,
            );
            // "into it" names no path: the creation is checked.
            match (exists, unmet.is_empty()) {
                (false, true) => missed.push("old-logs created".into()),
                (true, false) => false_alarms.push(format!("old-logs: {unmet:?}")),
                _ => {}
            }
        }
        // Made or saved right before the path, with no "into".
        for answer in [
            "I have created a file ~/hello.txt with the line 'Hello, Zeta'.",
            "I created the ~/hello.txt file.",
            "Done: I made ~/hello.txt for you",
        ] {
            let file = dir.path().join("hello.txt");
            for exists in [true, false] {
                let _ = std::fs::remove_file(&file);
                if exists {
                    std::fs::write(&file, "Hello, Zeta\n").expect("write");
                }
                cases += 1;
                let unmet = unmet_file_claims(
                    "Create a file ~/hello.txt that contains the line Hello, Zeta",
                    answer,
                    &env,
                );
                match (exists, unmet.is_empty()) {
                    (false, true) => missed.push(format!("{answer} / missing")),
                    (true, false) => false_alarms.push(format!("{answer}: {unmet:?}")),
                    _ => {}
                }
            }
        }
        println!(
            "file claims: {cases} cases, {} missed, {} false alarms",
            missed.len(),
            false_alarms.len()
        );
        assert!(missed.is_empty(), "missed: {missed:#?}");
        assert!(false_alarms.is_empty(), "false alarms: {false_alarms:#?}");
    }

    /// A folder (or a file with no value named) that was there before the task proves
    /// nothing: a claimed copy into it needs it changed since the task began.
    #[test]
    fn a_claimed_copy_into_an_old_folder_needs_the_folder_changed() {
        let dir = tempfile::tempdir().expect("temp");
        let env = env_in(dir.path());
        std::fs::create_dir(dir.path().join("backup")).expect("backup");
        std::fs::write(dir.path().join("paris.csv"), "old").expect("write");
        let request = "Copy the largest file into ~/backup and the Paris rows into ~/paris.csv";
        let answer = "I copied big.bin into ~/backup and wrote the rows into ~/paris.csv.";
        let later = SystemTime::now() + Duration::from_secs(60);
        let found = check_file_claims(request, answer, &env, Some(later));
        assert_eq!(
            found.unmet,
            [
                "~/backup has not changed during this task",
                "~/paris.csv has not changed during this task"
            ]
        );
        // Changed since the task began: borne out.
        let before = SystemTime::now() - Duration::from_secs(60);
        let found = check_file_claims(request, answer, &env, Some(before));
        assert_eq!((found.checked, found.unmet.len()), (2, 0));
    }

    /// Facts and answers about paths the request did not name, or with no claim of a
    /// change, are never checked.
    #[test]
    fn reports_and_unnamed_paths_are_not_checked() {
        let dir = tempfile::tempdir().expect("temp");
        let env = env_in(dir.path());
        for (request, answer) in [
            (
                "How many .log files are in ~/logs?",
                "There are 4 .log files in ~/logs.",
            ),
            (
                "Where is my report?",
                "report.txt was created in 2024 in ~/docs.",
            ),
            (
                "Write the number into ~/answer.txt",
                "I could not find ~/answer.txt's folder; nothing was written.",
            ),
            (
                "Rename the file in ~/inbox",
                "I renamed scan-0001.pdf to invoice.pdf.",
            ),
            (
                "Copy the largest file to ~/backup",
                "I checked https://example.com/a.txt for you.",
            ),
            ("Free disk space?", "You have 60 GB free on /."),
        ] {
            assert_eq!(
                check_file_claims(request, answer, &env, None),
                FileClaims::default(),
                "{answer}"
            );
        }
    }

    /// What the answer says was written comes back as the command that writes it.
    #[test]
    fn an_unmet_write_of_a_known_value_comes_with_its_command() {
        let dir = tempfile::tempdir().expect("temp");
        let env = env_in(dir.path());
        let request = "Count the files and write the number into ~/answer.txt";
        let found = check_file_claims(request, "I wrote 4 into ~/answer.txt.", &env, None);
        assert_eq!(found.unmet, ["~/answer.txt does not exist"]);
        assert_eq!(found.fixes, ["echo 4 > ~/answer.txt"]);
        let found = check_file_claims(request, "I wrote \"it's 4\" into ~/answer.txt", &env, None);
        assert_eq!(found.fixes, ["echo 'it'\\''s 4' > ~/answer.txt"]);
        // No value said: a fact, no command.
        let found = check_file_claims(request, "I saved the count in ~/answer.txt", &env, None);
        assert_eq!(found.unmet.len(), 1);
        assert!(found.fixes.is_empty());
    }

    /// The words around paths: punctuation is not part of a path, version numbers and
    /// prices are not paths.
    #[test]
    fn paths_are_read_out_of_prose() {
        let found: Vec<String> = path_words(
            "I wrote 4 into ~/answer.txt. Prices: 4.50 and 12.00; see (notes.md), /etc/hosts, https://x.org/a and v1.2",
        )
        .into_iter()
        .map(|(_, p)| p)
        .collect();
        assert_eq!(found, vec!["~/answer.txt", "notes.md", "/etc/hosts"]);
    }
}

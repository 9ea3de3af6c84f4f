//! The request, parsed once: its sentences (each a question or not), the paths it names
//! (as written and where they point), the places of the home it names by a bare word
//! (`places`), whether it asks for a change, whether it asks to be told something, how
//! many parts it has, and the paths it asks to be written, made, moved or copied into
//! (its targets). Everything the finisher and the first-turn notes need to know of the
//! request's words lives here, and only here.
//!
//! Word lists are kept to the few places where a list is the meaning: the verbs that ask
//! for a change (`CHANGE_VERBS`), the words that introduce where something goes (`INTO`),
//! and the joints between parts.

use std::path::PathBuf;

use crate::policy::ShellEnv;

/// Verbs that, in an order (not a question), ask for something on the computer to change.
/// The second row are a window's changes (a value typed, a box ticked, a button
/// pressed); "check" is not among them ("check the disk" asks to be told).
const CHANGE_VERBS: [&str; 43] = [
    "press",
    "click",
    "tick",
    "untick",
    "uncheck",
    "toggle",
    "select",
    "choose",
    "pick",
    "type",
    "fill",
    "enable",
    "disable",
    "switch",
    "write",
    "save",
    "create",
    "make",
    "copy",
    "move",
    "rename",
    "delete",
    "remove",
    "replace",
    "change",
    "set",
    "add",
    "append",
    "put",
    "archive",
    "compress",
    "pack",
    "extract",
    "unpack",
    "edit",
    "chmod",
    "install",
    "uninstall",
    "kill",
    "mkdir",
    "touch",
    "swap",
    "store",
];
/// Verbs that ask for something to be written somewhere ("write … into ~/a.txt").
const WRITE_VERBS: [&str; 16] = [
    "write", "save", "copy", "move", "put", "append", "add", "store", "rename", "export", "output",
    "send", "redirect", "pack", "compress", "archive",
];
/// Of those, the ones that ask for text in a file: an empty file is not it.
const TEXT_VERBS: [&str; 8] = [
    "write", "save", "put", "append", "add", "store", "export", "output",
];
/// Verbs whose target must be reached by a move (`Target::moved_in`).
const KEEPS_TIME: [&str; 2] = ["move", "rename"];
/// Verbs that ask for a path to be made.
const MAKE_VERBS: [&str; 2] = ["create", "make"];
/// Words before a path that make it where something goes.
const INTO: [&str; 5] = ["into", "to", "inside", "as", "called"];
/// Words that negate an order.
const NOT: [&str; 5] = ["not", "don't", "dont", "never", "nothing"];
/// Openings that make a question an order ("Can you rename …?").
const POLITE: [&str; 6] = [
    "can you",
    "could you",
    "would you",
    "will you",
    "please",
    "can i ask you to",
];
/// Words that ask to be told something.
const TELL: [&str; 15] = [
    "tell", "show", "list", "print", "display", "what", "which", "how", "where", "who", "when",
    "whether", "name", "give", "sum",
];

/// One sentence of the request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sentence {
    pub text: String,
    /// Asks a question (ends with `?` and is not a polite order).
    pub question: bool,
}

/// A path the request names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamedPath {
    /// As the request wrote it (`~/docs/a.txt`).
    pub text: String,
    /// Where it points (`~` and `$HOME` the home, a relative path in the working folder).
    pub path: PathBuf,
}

/// A path the request asks to be written, made, moved or copied into.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// As the request wrote it.
    pub text: String,
    /// Where it may point: a bare name (`b.txt` in "rename ~/docs/a.txt to b.txt") in the
    /// working folder or in the folder of another path the sentence names.
    pub paths: Vec<PathBuf>,
    /// Made, moved or renamed there: it need only exist afterwards.
    pub exists_only: bool,
    /// Text is asked to be written there: an empty file is not it.
    pub wants_text: bool,
    /// Something is asked to be moved or renamed there: it must have arrived by a move.
    pub moved_in: bool,
}

/// The request, parsed once per task.
#[derive(Debug, Clone, Default)]
pub struct Request {
    pub text: String,
    pub sentences: Vec<Sentence>,
    pub paths: Vec<NamedPath>,
    /// Entries of the home or the working folder the request names by a bare word ("my
    /// reports folder"), not among `paths` (`places`).
    pub places: Vec<NamedPath>,
    pub targets: Vec<Target>,
    /// An order asks for a change on the computer.
    pub asks_change: bool,
    /// It asks to be told something (a question, "tell me", "list"…).
    pub asks_to_be_told: bool,
    /// How many things it asks, at least.
    pub parts: usize,
    /// A question asks for a count ("how many", "count the …", "the number of").
    pub asks_count: bool,
    /// Paths an order asks things to be moved out of ("move … from ~/logs", "rename
    /// ~/a.txt to …") or deleted in ("delete the .tmp files in ~/work"), with the kind.
    pub sources: Vec<Source>,
}

/// What an order asks to leave a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Leaves {
    /// Moved or renamed away.
    Moved,
    /// Deleted.
    Deleted,
}

/// A path things must leave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    pub named: NamedPath,
    pub leaves: Leaves,
}

impl Request {
    pub fn parse(text: &str, env: &ShellEnv) -> Self {
        let sentences = sentences(text);
        let paths: Vec<NamedPath> = path_words(text)
            .into_iter()
            .map(|(_, t)| NamedPath {
                path: resolve(&t, env),
                text: t,
            })
            .collect();
        let places: Vec<NamedPath> = places::named_by_word(text, env)
            .into_iter()
            .filter(|p| !paths.iter().any(|q| q.path == p.path))
            .collect();
        let mut targets: Vec<Target> = Vec::new();
        let mut sources: Vec<Source> = Vec::new();
        let mut asks_change = false;
        for sentence in sentences.iter().filter(|s| !s.question) {
            let words: Vec<String> = sentence
                .text
                .split_whitespace()
                .map(|w| bare(w).to_lowercase())
                .collect();
            if words.iter().any(|w| NOT.contains(&w.as_str())) {
                continue;
            }
            // "Add up the amounts", "sum up": a verb with "up" after it computes.
            asks_change |= words.iter().enumerate().any(|(i, w)| {
                CHANGE_VERBS.contains(&w.as_str())
                    && !(w == "add" && words.get(i + 1).is_some_and(|n| n == "up"))
            });
            for target in sentence_targets(&sentence.text, &words, env) {
                if !targets.iter().any(|t| t.text == target.text) {
                    targets.push(target);
                }
            }
            for source in sentence_sources(&sentence.text, &words, env) {
                if !sources.contains(&source) {
                    sources.push(source);
                }
            }
        }
        let words: Vec<String> = crate::text::words(text)
            .into_iter()
            .map(|w| w.trim_end_matches("'s").to_string())
            .collect();
        let lower = format!(" {} ", words.join(" "));
        let asks_count = [" how many ", " count ", " number of ", " how much "]
            .iter()
            .any(|w| lower.contains(w));
        // A count asked for, with no change to put it in, is a value to be told ("Count
        // the distinct cities in ~/orders.csv.", judged as an order to change nothing and
        // checked no further).
        let adds_up = lower.contains(" add up ");
        let asks_to_be_told = sentences.iter().any(|s| s.question)
            || words.iter().any(|w| TELL.contains(&w.as_str()))
            || adds_up
            || asks_count && !asks_change;
        Self {
            text: text.to_string(),
            asks_count,
            parts: parts(
                text,
                sentences
                    .iter()
                    .filter(|s| s.text.split_whitespace().count() >= 2)
                    .count(),
            ),
            sentences,
            paths,
            places,
            targets,
            asks_change,
            sources,
            asks_to_be_told,
        }
    }

    /// Asks several things.
    pub fn several(&self) -> bool {
        self.parts > 1
    }

    /// It names a path that is an existing file (not a folder): it is about that file.
    /// Names a place: a path, or an entry of the home by a bare word.
    pub fn names_a_place(&self) -> bool {
        !self.paths.is_empty() || !self.places.is_empty()
    }

    pub fn names_existing_file(&self) -> bool {
        self.paths.iter().any(|p| p.path.is_file())
    }

    /// Only asks to be told: no change.
    pub fn only_asks(&self) -> bool {
        !self.asks_change && self.asks_to_be_told
    }
}

/// The request tells the assistant to ask the user something first: "ask me which…",
/// "check with me before…", "let me choose…", "ask the user for the name".
pub fn asks_to_be_asked(message: &str) -> bool {
    let words = crate::text::words(message);
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    words.windows(2).any(|w| {
        matches!(
            (w[0], w[1]),
            (
                "ask" | "asking",
                "me" | "us" | "the" | "which" | "what" | "first" | "before"
            ) | ("check" | "confirm", "with")
                | ("let" | "lets", "me" | "us")
        )
    }) && !words
        .windows(2)
        .any(|w| matches!((w[0], w[1]), ("don't" | "dont" | "never" | "not", "ask")))
}

/// The paths one order asks to be written, made, moved or copied into.
fn sentence_targets(sentence: &str, words: &[String], env: &ShellEnv) -> Vec<Target> {
    let mut out = Vec::new();
    let named = path_words(sentence);
    // The folders of the sentence's paths that name one.
    let folders: Vec<PathBuf> = named
        .iter()
        .filter(|(_, p)| p.contains('/'))
        .filter_map(|(_, p)| resolve(p, env).parent().map(PathBuf::from))
        .collect();
    for (at, path) in named.iter().cloned() {
        let near = at.saturating_sub(5)..at;
        let made = near
            .clone()
            .any(|i| MAKE_VERBS.contains(&words[i].as_str()));
        let into = near.rev().find(|&i| INTO.contains(&words[i].as_str()));
        let verb = into.and_then(|into| {
            words[..into]
                .iter()
                .rev()
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
        // A bare new name ("rename ~/docs/a.txt to b.txt") is beside the file renamed; a
        // bare name elsewhere may be in the working folder too.
        let renamed = verb.is_some_and(|v| v.as_str() == "rename");
        let mut paths = if renamed && !path.contains('/') && !folders.is_empty() {
            Vec::new()
        } else {
            vec![resolve(&path, env)]
        };
        if !path.contains('/') {
            paths.extend(folders.iter().map(|f| f.join(&path)));
        }
        paths.dedup();
        // Shown as where it points when the request gave a bare name.
        let path = match paths.as_slice() {
            [only] if !path.contains('/') => tilde(only, env),
            _ => path,
        };
        out.push(Target {
            text: path,
            paths,
            exists_only,
            wants_text: text,
            moved_in: !made && verb.is_some_and(|v| KEEPS_TIME.contains(&v.as_str())),
        });
    }
    out
}

/// Verbs that ask things to leave a path, and how.
const MOVE_VERBS: [&str; 2] = ["move", "rename"];
const DELETE_VERBS: [&str; 4] = ["delete", "remove", "erase", "rm"];

/// The paths one order asks things to be moved out of or deleted in: after "from" with
/// a verb of moving, the first path a renaming or moving order names (when it names
/// another after "to"/"into"), and every path a deleting order names.
fn sentence_sources(sentence: &str, words: &[String], env: &ShellEnv) -> Vec<Source> {
    let moves = words.iter().any(|w| MOVE_VERBS.contains(&w.as_str()));
    let deletes = words.iter().any(|w| DELETE_VERBS.contains(&w.as_str()));
    let named = path_words(sentence);
    let from = |at: usize| at.checked_sub(1).is_some_and(|b| words[b] == "from");
    let any_from = named.iter().any(|(at, _)| from(*at));
    // Without "from": the first path after the verb of moving, when another follows.
    let verb_at = words.iter().position(|w| MOVE_VERBS.contains(&w.as_str()));
    let first_after_verb = named
        .iter()
        .position(|(at, _)| verb_at.is_some_and(|v| *at > v));
    let mut out = Vec::new();
    for (i, (at, path)) in named.iter().enumerate() {
        let leaves = if deletes && !moves {
            Some(Leaves::Deleted)
        } else if moves
            && (from(*at) || !any_from && Some(i) == first_after_verb && i + 1 < named.len())
        {
            Some(Leaves::Moved)
        } else {
            None
        };
        if let Some(leaves) = leaves {
            out.push(Source {
                named: NamedPath {
                    path: resolve(path, env),
                    text: path.clone(),
                },
                leaves,
            });
        }
    }
    out
}

/// `path` with the home as `~`.
pub(crate) fn tilde(path: &std::path::Path, env: &ShellEnv) -> String {
    match path.strip_prefix(&env.home) {
        Ok(rest) => format!("~/{}", rest.display()),
        Err(_) => path.display().to_string(),
    }
}

/// The request's sentences: a `.`, `?`, `!` or `;` ends one only when a space or the end
/// follows, so the dots of `~/data/mid.csv` or `2.5` do not. A question that opens as a
/// polite order ("Can you copy …?") is an order.
pub fn sentences(text: &str) -> Vec<Sentence> {
    let mut out = Vec::new();
    let mut start = 0;
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut push = |piece: &str, mark: char| {
        let piece = piece.trim();
        if piece.is_empty() {
            return;
        }
        let lower = piece.to_lowercase();
        let polite = POLITE.iter().any(|p| lower.starts_with(p));
        out.push(Sentence {
            text: piece.to_string(),
            question: mark == '?' && !polite,
        });
    };
    for (k, &(i, c)) in chars.iter().enumerate() {
        let next_blank = chars.get(k + 1).is_none_or(|(_, n)| n.is_whitespace());
        if matches!(c, '?' | '!' | '.' | ';' | '\n') && next_blank {
            push(&text[start..i], c);
            start = i + c.len_utf8();
        }
    }
    if start < text.len() {
        push(&text[start..], '.');
    }
    out
}

/// How many parts a request has, at least: its sentences of two words or more, plus one
/// for each joint ("and", "then", "also", a semicolon, a comma before three words or more
/// that do not start with a joint). "plus" is arithmetic, not a joint.
fn parts(request: &str, sentences: usize) -> usize {
    let text = format!(" {} ", request.to_lowercase());
    let after_commas = text
        .split(", ")
        .skip(1)
        .filter(|after| {
            let part = after
                .split([',', ';', '.', '?', '!'])
                .next()
                .unwrap_or_default();
            let joined = ["and ", "then ", "also "]
                .iter()
                .any(|j| part.starts_with(j));
            part.split_whitespace().count() >= 3 && !joined
        })
        .count();
    let joints: usize = [" and ", " then ", " also ", "; "]
        .iter()
        .map(|joint| text.matches(joint).count())
        .sum();
    let long = sentences.max(1);
    long + after_commas + joints
}

/// A word without the punctuation around it ("~/answer.txt." → "~/answer.txt").
pub fn bare(word: &str) -> &str {
    word.trim_start_matches(['(', '"', '\'', '`', '[', '*'])
        .trim_end_matches(['.', ',', ';', ':', '!', '?', ')', '"', '\'', '`', ']', '*'])
}

/// The words of `text` that are paths, with their positions among its words: `~/…`,
/// `/…`, `./…`, anything with a slash, or a file name with an extension (`total.txt`).
pub fn path_words(text: &str) -> Vec<(usize, String)> {
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

/// Where a path the request wrote points: `~` and `$HOME` are the home, a relative path
/// is in the working folder.
pub fn resolve(text: &str, env: &ShellEnv) -> PathBuf {
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

mod places;
#[cfg(test)]
mod tests;

//! Command recipes for a small model: a curated catalogue (`catalogue.rs`) of everyday
//! requests and the command idiom that answers each, retrieved by the request's words
//! and handed to the model in the task's first turn, where it needs them. A 1.5B model
//! knows few idioms (it sorts `ls` by name to find the largest file and runs awk on a CSV
//! without `-F,`); a line naming the right one costs ~25 tokens.
//!
//! Only recipes whose program is on this machine's PATH are offered; the tests check
//! every recipe's flags against the program's `--help` and man page here.

mod catalogue;

use std::collections::HashSet;
use std::sync::OnceLock;

pub use catalogue::CATALOGUE;

/// One request kind and its command.
#[derive(Debug, Clone, Copy)]
pub struct Recipe {
    /// What the command gives, in words.
    pub task: &'static str,
    /// The command; capitals (DIR, FILE, N, TEXT) are for the model to fill in.
    pub command: &'static str,
    /// Words that count two when the request has them.
    pub strong: &'static [&'static str],
    /// Words (or phrases) that count one.
    pub words: &'static [&'static str],
    /// The program the command runs first.
    pub program: &'static str,
    /// The flags it uses, checked against this machine's documentation in the tests.
    pub flags: &'static [&'static str],
}

/// Recipes offered at most per request.
const MOST: usize = 2;
/// The score a recipe needs: a strong word, or two words.
const ENOUGH: u32 = 2;

/// A word with a plural or verb "s" taken off, lower case.
pub(crate) fn stem(word: &str) -> String {
    let w = word.to_lowercase();
    if w.len() > 4 && w.ends_with("ies") {
        format!("{}y", &w[..w.len() - 3])
    } else if w.len() > 3 && w.ends_with('s') && !w.ends_with("ss") {
        w[..w.len() - 1].to_string()
    } else {
        w
    }
}

/// How well `recipe` fits a request with these stemmed `words` and lower-case `text`.
fn score(recipe: &Recipe, words: &HashSet<String>, text: &str) -> u32 {
    let has = |k: &str| {
        if k.contains(' ') {
            text.contains(k)
        } else {
            words.contains(&stem(k))
        }
    };
    let mut seen = HashSet::new();
    let mut total = 0;
    for (list, weight) in [(recipe.strong, 2), (recipe.words, 1)] {
        for k in list {
            if seen.insert(stem(k)) && has(k) {
                total += weight;
            }
        }
    }
    total
}

/// The recipes that fit `request`, best first, at most `MOST`, among `available`.
pub fn matching<'a>(request: &str, available: &'a [Recipe]) -> Vec<&'a Recipe> {
    // The words of the paths it names are not the request's (seen: "~/shop/prices.txt"
    // made "What does the Gadget cost?" a request for the lowest price); a file's kind
    // (`.csv`) is.
    let text = request
        .split_whitespace()
        .map(|w| match path_kind(w) {
            Some(kind) => kind,
            None => w,
        })
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase();
    let words: HashSet<String> = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(stem)
        .collect();
    let mut scored: Vec<(u32, usize, &Recipe)> = available
        .iter()
        .enumerate()
        .map(|(i, r)| (score(r, &words, &text), i, r))
        .filter(|(s, _, _)| *s >= ENOUGH)
        .collect();
    scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    scored.into_iter().take(MOST).map(|(_, _, r)| r).collect()
}

/// For a path or a file name (`~/shop/prices.txt`, `notes.csv,`), what counts of it as
/// the request's words: its extension, or nothing; `None` for a word.
fn path_kind(word: &str) -> Option<&str> {
    let w = word.trim_matches(|c: char| !(c.is_alphanumeric() || "~/._-".contains(c)));
    let w = w.trim_end_matches('.');
    let ext = w.rsplit_once('.').and_then(|(name, ext)| {
        (!name.is_empty()
            && !name.ends_with('/')
            && (1..=5).contains(&ext.len())
            && ext.chars().all(|c| c.is_ascii_alphanumeric())
            && ext.chars().any(|c| c.is_ascii_alphabetic()))
        .then_some(ext)
    });
    match ext {
        Some(ext) => Some(ext),
        None => w.contains('/').then_some(""),
    }
}

/// The catalogue's recipes whose program is on this machine's PATH (looked up once).
pub fn available() -> &'static [Recipe] {
    static AVAILABLE: OnceLock<Vec<Recipe>> = OnceLock::new();
    AVAILABLE.get_or_init(|| {
        let path = std::env::var_os("PATH").unwrap_or_default();
        let dirs: Vec<_> = std::env::split_paths(&path).collect();
        CATALOGUE
            .iter()
            .filter(|r| dirs.iter().any(|d| d.join(r.program).is_file()))
            .copied()
            .collect()
    })
}

/// The lines the first turn gets for `request`, or `None` when no recipe fits. They are
/// examples, shown as they are in the catalogue: no value of the request is guessed into
/// them (a column, a file, a count filled in from the request's words handed the model a
/// confident wrong command it then ran).
pub fn hint(request: &str) -> Option<String> {
    let found = matching(request, available());
    if found.is_empty() {
        return None;
    }
    let lines: Vec<String> = found
        .iter()
        .map(|r| format!("- {}: {}", r.task, r.command))
        .collect();
    Some(format!(
        "Examples of commands for requests of this kind. They are examples, not the answer: \
         use one only if it does what this request asks, with its capitals replaced by what \
         the request names:\n{}",
        lines.join("\n")
    ))
}

#[cfg(test)]
mod tests;

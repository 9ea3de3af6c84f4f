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
    /// The capitals that name where the command writes (`> FILE`, `mkdir -p DIR`): the
    /// model fills them in; never an existing path the request names, which is what a
    /// command reads (filled, `COMMAND > FILE` would have pointed at the input).
    pub writes: &'static [&'static str],
    /// Its N is a column's number (`$N`, `sort -k N`), filled in from the column the
    /// request means; elsewhere N is a count (`tail -n N`, `-mtime +N`) for the model.
    pub column: bool,
}

impl Recipe {
    /// The capitals the paths and columns a request names must not fill.
    fn kept(&self) -> Vec<&'static str> {
        let mut kept = self.writes.to_vec();
        if !self.column {
            kept.push("N");
        }
        kept
    }
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

/// What a recipe's capitals stand for in this request, where the request and the files
/// it names leave no doubt: a 1.5B model shown `sort -k N -n FILE | head -n 1` for a
/// price list wrote an awk program of its own that printed nothing; shown the command
/// filled in, it has nothing left to get wrong. A capital with no value stays for the
/// model to fill in.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Slots {
    /// FILE: the one existing file the request names, as it wrote it.
    pub file: Option<String>,
    /// DIR: the one existing folder the request names, as it wrote it.
    pub dir: Option<String>,
    /// N: the column the request means (counted from 1).
    pub column: Option<usize>,
    /// VALUE: the cell value the request names, as the file spells it.
    pub value: Option<String>,
}

impl Slots {
    /// `text` with each capital that has a value replaced, where it stands as a word of
    /// its own (`$N`, `-k N`, `FILE`; never the N of `NR`).
    pub fn fill(&self, text: &str) -> String {
        self.fill_except(text, &[])
    }

    /// `fill`, leaving the capitals in `kept` as they are.
    pub fn fill_except(&self, text: &str, kept: &[&str]) -> String {
        let column = self.column.map(|c| c.to_string());
        let values: [(&str, Option<&str>); 4] = [
            ("FILE", self.file.as_deref()),
            ("DIR", self.dir.as_deref()),
            ("N", column.as_deref()),
            ("VALUE", self.value.as_deref()),
        ];
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(start) = rest.find(|c: char| c.is_ascii_uppercase()) {
            let word_end = rest[start..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .map_or(rest.len(), |e| start + e);
            let word = &rest[start..word_end];
            let before = match start {
                0 => out.chars().next_back(),
                _ => rest[..start].chars().next_back(),
            };
            let stands_alone = !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
            out.push_str(&rest[..start]);
            match values.iter().find(|(name, _)| *name == word) {
                Some((_, Some(value))) if stands_alone && !kept.contains(&word) => {
                    out.push_str(value)
                }
                _ => out.push_str(word),
            }
            rest = &rest[word_end..];
        }
        out.push_str(rest);
        out
    }
}

/// The lines the first turn gets for `request`, with the capitals `slots` knows filled
/// in, or `None` when no recipe fits.
pub fn hint(request: &str, slots: &Slots) -> Option<String> {
    let found = matching(request, available());
    if found.is_empty() {
        return None;
    }
    let lines: Vec<String> = found
        .iter()
        .map(|r| {
            format!(
                "- {}: {}",
                slots.fill_except(r.task, &r.kept()),
                slots.fill_except(r.command, &r.kept())
            )
        })
        .collect();
    Some(format!(
        "Commands that often answer requests like this one (fill in the capitals; use one \
         only if it fits):\n{}",
        lines.join("\n")
    ))
}

#[cfg(test)]
mod tests;

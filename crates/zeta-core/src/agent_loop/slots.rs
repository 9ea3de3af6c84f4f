//! What a recipe's capitals stand for in one request (`recipes::Slots`), read from the
//! request and the files it names: the one file and the one folder it names, the column
//! it means (a CSV column whose header it names, the column holding a value it names, or
//! the one numeric field of a list) and that value. Where anything is in doubt (two
//! files, two candidate columns) the capital stays for the model to fill in.

use std::collections::HashSet;

use super::peek::{read_start, separator_of};
use crate::assist::request::{path_words, resolve};
use crate::policy::ShellEnv;
use crate::recipes::{stem, Slots};

/// Lines of a list read for its numeric field at most.
const MOST_LIST_LINES: usize = 50;
/// Fields a list's line may have at most.
const MOST_FIELDS: usize = 8;

/// The slots `request` fills, reading the files it names in `env`.
pub(super) fn slots(request: &str, env: &ShellEnv) -> Slots {
    let mut files: Vec<String> = Vec::new();
    let mut dirs: Vec<String> = Vec::new();
    for (_, named) in path_words(request) {
        let Ok(meta) = std::fs::metadata(resolve(&named, env)) else {
            continue;
        };
        let list = if meta.is_file() {
            &mut files
        } else if meta.is_dir() {
            &mut dirs
        } else {
            continue;
        };
        if !list.contains(&named) {
            list.push(named);
        }
    }
    let mut slots = Slots {
        dir: only(&dirs),
        file: only(&files),
        ..Slots::default()
    };
    let Some(file) = slots.file.clone() else {
        return slots;
    };
    let Some((text, _)) = read_start(&resolve(&file, env)) else {
        return slots;
    };
    match separator_of(&file) {
        Some(separator) => {
            let words = request_words(request);
            let (column, value) = column_and_value(&text, separator, &words);
            slots.column = column;
            slots.value = value;
        }
        None => slots.column = numeric_field(&text),
    }
    slots
}

/// The one path in `paths`, when it is a plain one a command can hold unquoted.
fn only(paths: &[String]) -> Option<String> {
    let [path] = paths else { return None };
    path.chars()
        .all(|c| c.is_ascii_alphanumeric() || "~/._-+@,:".contains(c))
        .then(|| path.clone())
}

/// The request's words, stemmed and in lower case, without the paths it names (so that
/// `~/sales.csv` does not name a column "sales").
fn request_words(request: &str) -> HashSet<String> {
    let paths: HashSet<String> = path_words(request).into_iter().map(|(_, p)| p).collect();
    request
        .split_whitespace()
        .filter(|w| {
            !paths.contains(w.trim_matches(|c: char| !(c.is_alphanumeric() || "~/._-".contains(c))))
        })
        .flat_map(|w| w.split(|c: char| !c.is_alphanumeric()))
        .filter(|w| !w.is_empty())
        .map(stem)
        .collect()
}

/// A cell without its blanks and quotes.
fn cell(text: &str) -> &str {
    text.trim().trim_matches('"').trim()
}

/// The column the request means in a CSV or TSV, and the value it names there: a column
/// whose header the request names, else the column holding the cell value the request
/// names. Two columns, or a header and a value in different columns, fill neither.
fn column_and_value(
    text: &str,
    separator: char,
    words: &HashSet<String>,
) -> (Option<usize>, Option<String>) {
    let mut lines = text.lines().map(|l| l.trim_end_matches('\r'));
    let Some(header) = lines.next() else {
        return (None, None);
    };
    let names = |c: &str| {
        let parts: Vec<String> = c
            .split(|ch: char| !ch.is_alphanumeric())
            .filter(|p| !p.is_empty())
            .map(stem)
            .collect();
        !parts.is_empty() && parts.iter().all(|p| words.contains(p))
    };
    let headed: Vec<usize> = header
        .split(separator)
        .enumerate()
        .filter(|(_, c)| names(cell(c)))
        .map(|(i, _)| i + 1)
        .collect();
    let mut found: Vec<(usize, String)> = Vec::new();
    for line in lines {
        for (i, c) in line.split(separator).enumerate() {
            let c = cell(c);
            let plain = c.len() >= 2
                && c.chars()
                    .all(|ch| ch.is_ascii_alphanumeric() || " ._-".contains(ch))
                && c.chars().any(|ch| ch.is_ascii_alphabetic());
            if plain
                && words.contains(&stem(c))
                && !found
                    .iter()
                    .any(|(j, v)| *j == i + 1 && v.eq_ignore_ascii_case(c))
            {
                found.push((i + 1, c.to_string()));
            }
        }
    }
    let value = match found.as_slice() {
        [(column, value)] => Some((*column, value.clone())),
        _ => None,
    };
    match (headed.as_slice(), value) {
        ([column], None) => (Some(*column), None),
        ([column], Some((at, value))) if at == *column => (Some(*column), Some(value)),
        ([_], Some((_, value))) => (None, Some(value)),
        ([], Some((at, value))) => (Some(at), Some(value)),
        _ => (None, None),
    }
}

/// A number as a list writes it: `4.50`, `-3`, `$12`, `7.25€`, `15%`.
fn is_number(field: &str) -> bool {
    let bare = field.trim_matches(|c: char| "$€£%".contains(c));
    !bare.is_empty() && bare.parse::<f64>().is_ok_and(f64::is_finite)
}

/// The one field that holds a number on every line of a list of blank-separated fields
/// (two to `MOST_FIELDS` a line, as many on each), counted from 1 as `sort -k` counts.
fn numeric_field(text: &str) -> Option<usize> {
    let rows: Vec<Vec<&str>> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .take(MOST_LIST_LINES)
        .map(|l| l.split_whitespace().collect())
        .collect();
    let n = rows.first()?.len();
    if !(2..=MOST_FIELDS).contains(&n) || rows.len() < 2 || rows.iter().any(|r| r.len() != n) {
        return None;
    }
    let numeric: Vec<usize> = (0..n)
        .filter(|i| rows.iter().all(|r| is_number(r[*i])))
        .collect();
    match numeric.as_slice() {
        [i] => Some(i + 1),
        _ => None,
    }
}

#[cfg(test)]
mod tests;

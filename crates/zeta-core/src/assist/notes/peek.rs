//! The start of the text files a request names, for a small model's first turn: the
//! first lines of each, and a CSV's or TSV's columns numbered. A 1.5B model asked for "the
//! total of the amount column" wrote `$2` without reading the header (it was column 3)
//! and answered 0; asked for the cheapest item of a price list it sorted the output of
//! `ls` (the file's name). Shown how the file begins, it picks the command for its form.
//! The lines come from the file, so they are wrapped as untrusted data and the task
//! counts as having read input the user did not type.

use std::io::{BufReader, Read};
use std::path::Path;

use crate::assist::request::{path_words, resolve};
use crate::policy::injection::wrap_untrusted;
use crate::policy::ShellEnv;
use crate::text::clip;

/// Files shown per request at most.
const MOST_FILES: usize = 2;
/// Lines shown per file at most.
const MOST_LINES: usize = 3;
/// Columns listed per file at most.
const MOST_COLUMNS: usize = 24;
/// The most of a file read.
const READ_AT_MOST: u64 = 4096;

/// How each existing text file `request` names begins (its first lines, and a CSV's or
/// TSV's numbered columns), wrapped as untrusted data, or `None` when it names none.
pub fn peek_note(request: &str, env: &ShellEnv) -> Option<String> {
    let mut shown = Vec::new();
    let mut tables = 0;
    for (_, named) in path_words(request) {
        let Some(lines) = first_lines(&resolve(&named, env)) else {
            continue;
        };
        let separator = separator_of(&named);
        let mut text = format!("{named} begins:\n{}", lines.join("\n"));
        match separator {
            Some(sep) => {
                tables += 1;
                if let Some(columns) = numbered_columns(&lines[0], sep) {
                    text.push_str(&format!("\nIts columns: {columns}"));
                }
            }
            None => {
                if let Some(fields) = numbered_fields(&lines) {
                    text.push_str(&format!(
                        "\nIts fields (split at blanks, as sort -k N and awk $N count them): {fields}"
                    ));
                }
            }
        }
        shown.push(text);
        if shown.len() == MOST_FILES {
            break;
        }
    }
    if shown.is_empty() {
        return None;
    }
    // Said only of a table: over a price list it drew a 1.5B model to an awk program
    // of its own when the recipe shown was a plain sort.
    let columns = if tables > 0 {
        " (for awk -F, a column is $ and its number)"
    } else {
        ""
    };
    Some(format!(
        "How the files you named begin{columns}:\n{}",
        wrap_untrusted("file", &shown.join("\n"))
    ))
}

/// "1 city, 2 item, 3 amount" for a header of two columns or more.
fn numbered_columns(header: &str, separator: char) -> Option<String> {
    let columns: Vec<String> = header
        .split(separator)
        .take(MOST_COLUMNS)
        .enumerate()
        .map(|(i, c)| format!("{} {}", i + 1, clip(c.trim().trim_matches('"'), 30)))
        .collect();
    (columns.len() >= 2).then(|| columns.join(", "))
}

/// Most blank-separated fields for a line to count as a row of fields.
const MOST_FIELDS: usize = 8;

/// "1 Widget:, 2 4.50, 3 EUR": the first line's blank-separated fields, when every line
/// shown has as many (two to `MOST_FIELDS`): a list or a table, not prose. A 1.5B model
/// shown "Widget: 4.50 EUR" sorted on the wrong field.
fn numbered_fields(lines: &[String]) -> Option<String> {
    let rows: Vec<Vec<&str>> = lines
        .iter()
        .filter(|l| !l.starts_with("(the first "))
        .map(|l| l.split_whitespace().collect())
        .collect();
    let first = rows.first()?;
    let n = first.len();
    if !(2..=MOST_FIELDS).contains(&n) || rows.len() < 2 || rows.iter().any(|r| r.len() != n) {
        return None;
    }
    Some(
        first
            .iter()
            .enumerate()
            .map(|(i, f)| format!("{} {}", i + 1, clip(f, 30)))
            .collect::<Vec<_>>()
            .join(", "),
    )
}

/// The start of a regular text file (no NUL byte, valid UTF-8 in what was read, at most
/// `READ_AT_MOST` bytes) and whether the file goes on past it; `None` for anything else.
pub fn read_start(path: &Path) -> Option<(String, bool)> {
    if !std::fs::metadata(path).ok()?.is_file() {
        return None;
    }
    let file = std::fs::File::open(path).ok()?;
    let mut bytes = Vec::new();
    BufReader::new(file.take(READ_AT_MOST))
        .read_to_end(&mut bytes)
        .ok()?;
    if bytes.contains(&0) {
        return None;
    }
    let cut = bytes.len() as u64 == READ_AT_MOST;
    let text = match std::str::from_utf8(&bytes) {
        Ok(text) => text,
        // A read cut inside a character is still text.
        Err(e) if e.error_len().is_none() => std::str::from_utf8(&bytes[..e.valid_up_to()]).ok()?,
        Err(_) => return None,
    };
    Some((text.to_string(), cut))
}

/// The separator of a file named `named`: `,` for a CSV, a tab for a TSV.
pub fn separator_of(named: &str) -> Option<char> {
    let lower = named.to_lowercase();
    if lower.ends_with(".csv") {
        Some(',')
    } else if lower.ends_with(".tsv") {
        Some('\t')
    } else {
        None
    }
}

/// The first lines of a regular text file, each clipped; `None` for anything else or an
/// empty file.
fn first_lines(path: &Path) -> Option<Vec<String>> {
    let (text, cut) = read_start(path)?;
    let mut lines: Vec<String> = text
        .lines()
        .take(MOST_LINES)
        .map(|l| clip(l.trim_end_matches('\r'), 100))
        .collect();
    if lines.iter().all(|l| l.trim().is_empty()) {
        return None;
    }
    // Said, so the model does not count or sum what it was shown as the whole file.
    if text.lines().nth(MOST_LINES).is_some() || cut {
        lines.push(format!(
            "(the first {} lines only; the file goes on)",
            lines.len()
        ));
    }
    Some(lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(dir: &std::path::Path) -> ShellEnv {
        ShellEnv {
            home: dir.to_path_buf(),
            cwd: dir.to_path_buf(),
            user: "me".into(),
        }
    }

    #[test]
    fn a_list_of_fields_is_numbered_and_prose_is_not() {
        let dir = tempfile::tempdir().expect("temp");
        let files = [
            (
                "prices.txt",
                "Widget: 4.50 EUR\nGadget: 12.00 EUR\nGizmo: 7.25 EUR\n",
                Some("1 Widget:, 2 4.50, 3 EUR"),
            ),
            ("du.txt", "4.0K\t./a\n12K\t./b\n", Some("1 4.0K, 2 ./a")),
            (
                "prose.txt",
                "It was a dark and stormy night;\nthe rain fell in torrents.\n",
                None,
            ),
            ("one.txt", "just one line here\n", None),
            ("ragged.txt", "a b\nc d e\n", None),
            ("wide.txt", "1 2 3 4 5 6 7 8 9\n1 2 3 4 5 6 7 8 9\n", None),
        ];
        for (name, text, want) in files {
            std::fs::write(dir.path().join(name), text).expect("write");
            let note = peek_note(&format!("Sort ~/{name}"), &env(dir.path())).expect("a note");
            match want {
                Some(fields) => assert!(
                    note.contains(&format!("as sort -k N and awk $N count them): {fields}")),
                    "{note}"
                ),
                None => assert!(!note.contains("Its fields"), "{note}"),
            }
        }
    }

    #[test]
    fn a_named_file_shows_its_first_lines_and_a_csv_its_numbered_columns() {
        let dir = tempfile::tempdir().expect("temp");
        std::fs::write(
            dir.path().join("sales.csv"),
            "city,item,\"amount\"\nParis,pen,12\n",
        )
        .expect("write");
        std::fs::write(dir.path().join("t.tsv"), "a\tb\n1\t2\n").expect("write");
        let note = peek_note(
            "What is the total of the amount column in ~/sales.csv and t.tsv?",
            &env(dir.path()),
        )
        .expect("a note");
        assert!(note.contains("~/sales.csv begins:\ncity,item,\"amount\"\nParis,pen,12\nIts columns: 1 city, 2 item, 3 amount"), "{note}");
        assert!(
            note.contains("t.tsv begins:\na\tb\n1\t2\nIts columns: 1 a, 2 b"),
            "{note}"
        );
        assert!(note.contains("<untrusted_data source=\"file\">"), "{note}");
    }

    #[test]
    fn a_text_file_shows_three_lines_and_nothing_shows_for_other_files() {
        let dir = tempfile::tempdir().expect("temp");
        std::fs::write(
            dir.path().join("prices.txt"),
            "Widget: 4.50\nGadget: 12\nGizmo: 7\nMore: 1\n",
        )
        .expect("write");
        let note =
            peek_note("Which item in ~/prices.txt is cheapest?", &env(dir.path())).expect("a note");
        assert!(note.contains("~/prices.txt begins:\nWidget: 4.50\nGadget: 12\nGizmo: 7\n(the first 3 lines only; the file goes on)\nIts fields (split at blanks, as sort -k N and awk $N count them): 1 Widget:, 2 4.50\n</untrusted_data>"), "{note}");
        assert!(
            !note.contains("More") && !note.contains("Its columns"),
            "{note}"
        );
        std::fs::write(dir.path().join("empty.csv"), "").expect("write");
        std::fs::write(dir.path().join("bin.dat"), [0u8, 1, 2, b'\n']).expect("write");
        std::fs::write(dir.path().join("latin.txt"), [0xe9u8, b'a', b'\n']).expect("write");
        std::fs::create_dir(dir.path().join("dir.csv")).expect("dir");
        for request in [
            "Sum ~/missing.csv",
            "Sum ~/empty.csv",
            "Sum ~/dir.csv",
            "Read bin.dat",
            "Read ~/latin.txt",
            "What is the weather?",
        ] {
            assert_eq!(peek_note(request, &env(dir.path())), None, "{request}");
        }
    }

    /// Whatever the file holds (binary, huge lines, many separators), the note is
    /// bounded and wrapped, and nothing panics.
    #[test]
    fn any_file_start_gives_a_bounded_wrapped_note() {
        let dir = tempfile::tempdir().expect("temp");
        let path = dir.path().join("x.csv");
        let mut seed = 7u64;
        for round in 0..300 {
            let mut bytes = Vec::new();
            let len = (round * 37) % 9000;
            for _ in 0..len {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let b = (seed >> 33) as u8;
                bytes.push(match b % 5 {
                    0 => b',',
                    1 => b'\n',
                    _ => b,
                });
            }
            std::fs::write(&path, &bytes).expect("write");
            if let Some(note) = peek_note("Sum the x.csv file", &env(dir.path())) {
                assert!(note.len() < 3000, "{}", note.len());
                assert!(note.contains("</untrusted_data>"));
            }
        }
    }
}

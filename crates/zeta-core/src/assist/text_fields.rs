//! Arithmetic on a field that holds no number: `awk -F, '{sum += $2} END {print sum}'
//! ~/sales.csv` where the second field of every row is a word (seen on the tune half,
//! three tasks in three: "city,item,amount", the sum of the items printed as 0 and
//! answered). awk reads a word as 0, so what it prints is no sum of anything. Read from
//! the command's syntax tree (awk's delimiter, its program's fields used in arithmetic or
//! a comparison, the file it reads or the `cat` of it piped in) and the file's rows,
//! never from the request's words: where none of the rows below the first holds a number
//! at that field, and exactly one field holds a number in every one of them, the command
//! is run with that field in its place, and the model is told so. Which column the
//! request meant is not guessed beyond that: a file with two columns of numbers, or
//! none, is left as written.
//!
//! awk without `-F` splits at blanks: on a file whose rows hold none and split at one
//! character (`cat ~/q3.csv | awk '{sum += $1} END {print sum}'`, seen twice in six tune
//! tasks), every field it read was a whole row, read as 0. It is run split at that
//! character, and on the field of numbers where the field it named holds none.
//!
//! Not read: a program from a file (`awk -f`), a delimiter that is a pattern, rows with
//! blanks read without `-F`, a field printed or compared as text (`$2 == "Oslo"`), a file
//! fed through a filter that drops lines, and files over 1 MiB.

use std::path::Path;

use crate::policy::ShellEnv;

/// The largest file read, in bytes.
const MOST_BYTES: u64 = 1 << 20;

/// Operators that make a field a number when they stand next to it.
const ARITHMETIC: &[&str] = &[
    "+=", "-=", "*=", "/=", "<=", ">=", "+", "-", "*", "/", "<", ">",
];

/// A field used as a number that holds none, and the one field that holds numbers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextField {
    /// The file, as the command named it.
    file: String,
    /// The field the program used, and what the first line holds there.
    used: (usize, String),
    /// The field of numbers, and what the first line holds there.
    numbers: (usize, String),
    /// The delimiter the rows are split at, where awk split them at blanks instead
    /// (no `-F`): every field it read was a whole row.
    unsplit: Option<char>,
    /// The command with the field of numbers in the program's place.
    run_as: String,
}

impl TextField {
    /// The command run in its place, and how it was read.
    pub fn read_as(&self) -> (String, String) {
        let used = format!("${}", self.used.0);
        let numbers = format!("${}", self.numbers.0);
        let swapped = crate::prompts::fill(
            crate::prompts::TEXT_FIELD_SWAP,
            &[
                ("file", &self.file),
                ("used", &used),
                ("used_head", &self.used.1),
                ("numbers", &numbers),
                ("numbers_head", &self.numbers.1),
            ],
        );
        let note = match self.unsplit {
            None => crate::prompts::fill(
                crate::prompts::TEXT_FIELD,
                &[("command", &self.run_as), ("swapped", &swapped)],
            ),
            Some(d) => {
                let at = if d == '\t' {
                    "tabs".to_string()
                } else {
                    format!("`{d}`")
                };
                let swap = if self.used.0 == self.numbers.0 {
                    String::new()
                } else {
                    format!(" {swapped}")
                };
                crate::prompts::fill(
                    crate::prompts::TEXT_FIELD_UNSPLIT,
                    &[
                        ("command", &self.run_as),
                        ("file", &self.file),
                        ("at", &at),
                        ("used", &used),
                        ("swapped", &swap),
                    ],
                )
            }
        };
        (self.run_as.clone(), note)
    }
}

/// The first awk command in `command` that does arithmetic on a field holding no number
/// in the file it reads, where one other field holds numbers in every row; else `None`.
pub fn find(command: &str, env: &ShellEnv) -> Option<TextField> {
    let pipes = zeta_judge::pipes(command, env);
    zeta_judge::commands(command, env)
        .into_iter()
        .find_map(|simple| {
            let (program, args) = simple.words.split_first()?;
            if !matches!(program.as_str(), "awk" | "gawk" | "mawk" | "nawk") {
                return None;
            }
            let awk = Awk::read(args)?;
            let (start, end) = simple.span?;
            let (file, shown) = file_read(&simple, &awk.files, &pipes)?;
            let cwd = simple.cwd.as_deref().unwrap_or(&env.cwd);
            let path = crate::assist::in_folder(&file, cwd);
            let fields = awk.numeric_fields();
            // awk's own split at blanks, on rows that hold none but split at one
            // character: every field it read was a whole row.
            let (rows, unsplit) = match awk.delimiter {
                Some(d) => (Rows::read(&path, d)?, None),
                None => {
                    let d = Rows::split_at(&path)?;
                    (Rows::read(&path, d)?, Some(d))
                }
            };
            let used = fields
                .into_iter()
                .find(|n| unsplit.is_some() || rows.none_numeric(*n))?;
            let numbers = if rows.none_numeric(used) {
                rows.only_numeric()?
            } else {
                used
            };
            let mut text = swap_field(command.get(start..end)?, used, numbers);
            if let Some(d) = unsplit {
                // After the program's name, where the command starts with it.
                let name = text
                    .split_whitespace()
                    .next()
                    .filter(|w| w.ends_with("awk"))?
                    .len();
                text.insert_str(name, &format!(" -F{}", quoted(d)));
            }
            let run_as = format!("{}{text}{}", command.get(..start)?, command.get(end..)?);
            Some(TextField {
                file: shown,
                used: (used, rows.head(used)),
                numbers: (numbers, rows.head(numbers)),
                unsplit,
                run_as,
            })
        })
}

/// A delimiter as a shell word for `-F`.
fn quoted(d: char) -> String {
    match d {
        ',' => ",".to_string(),
        '\t' => "'\\t'".to_string(),
        other => format!("'{other}'"),
    }
}

/// awk's words: its delimiter (`-F,`, `-F ','`, `-v FS=,`, `BEGIN { FS = "," }`), its
/// program, its files.
struct Awk {
    /// `None`: awk's own split, at blanks.
    delimiter: Option<char>,
    program: String,
    files: Vec<String>,
}

impl Awk {
    fn read(args: &[String]) -> Option<Self> {
        let mut delimiter = None;
        let mut program: Option<String> = None;
        let mut files = Vec::new();
        let mut words = args.iter();
        while let Some(word) = words.next() {
            let a = word.as_str();
            if program.is_some() {
                // `var=value` operands set variables; `-` is the input.
                if a != "-" && !a.split_once('=').is_some_and(|(n, _)| is_name(n)) {
                    files.push(a.to_string());
                }
                continue;
            }
            match a {
                "-f" | "--file" => return None,
                "-F" | "--field-separator" => delimiter = Some(one_char(words.next()?)?),
                "-v" | "--assign" => {
                    if let Some(fs) = words.next()?.strip_prefix("FS=") {
                        delimiter = Some(one_char(fs)?);
                    }
                }
                "--" => program = Some(words.next()?.clone()),
                _ if a.starts_with("-F") => delimiter = Some(one_char(&a[2..])?),
                _ if a.starts_with("-vFS=") => delimiter = Some(one_char(&a[5..])?),
                _ if a.starts_with('-') => {}
                _ => program = Some(a.to_string()),
            }
        }
        let program = program?;
        let delimiter = match (delimiter, begin_fs(&program)) {
            (Some(d), _) => Some(d),
            (None, Some(fs)) => Some(one_char(&fs)?),
            (None, None) => None,
        };
        Some(Self {
            delimiter,
            program,
            files,
        })
    }

    /// Every field the program uses (`$N`, N from 1), in the order it first uses them.
    fn fields(&self) -> Vec<usize> {
        let mut out = Vec::new();
        for (_, n, _) in field_uses(&self.program) {
            if !out.contains(&n) {
                out.push(n);
            }
        }
        out
    }

    /// The fields the program uses as numbers: an arithmetic or comparison operator right
    /// before or after `$N`, outside a `print` of it.
    fn numeric_fields(&self) -> Vec<usize> {
        let text = &self.program;
        let mut out = Vec::new();
        for (at, n, len) in field_uses(text) {
            if out.contains(&n) {
                continue;
            }
            let before = text[..at].trim_end();
            let after = text[at + len..].trim_start();
            let printed = before.ends_with("print") || before.ends_with("printf");
            let by_op = ARITHMETIC.iter().any(|op| before.ends_with(op))
                || !printed
                    && ARITHMETIC
                        .iter()
                        .any(|op| after.starts_with(op) && !after.starts_with("++"));
            if by_op && !before.ends_with("==") && !before.ends_with("!=") {
                out.push(n);
            }
        }
        out
    }
}

/// Each `$N` (N from 1) in an awk program: where it stands, N, and its length.
fn field_uses(text: &str) -> Vec<(usize, usize, usize)> {
    text.match_indices('$')
        .filter_map(|(at, _)| {
            let digits: String = text[at + 1..]
                .chars()
                .take_while(|c| c.is_ascii_digit())
                .collect();
            let n = digits.parse::<usize>().ok().filter(|n| *n > 0)?;
            Some((at, n, 1 + digits.len()))
        })
        .collect()
}

/// The rows of a delimited file, split at one character.
struct Rows {
    first: Vec<String>,
    below: Vec<Vec<String>>,
}

impl Rows {
    /// A text file of at most `MOST_BYTES`, with at least two rows below its first line.
    fn read(path: &Path, delimiter: char) -> Option<Self> {
        if std::fs::metadata(path).ok()?.len() > MOST_BYTES {
            return None;
        }
        let text = std::fs::read_to_string(path).ok()?;
        let mut lines = text.lines().filter(|l| !l.trim().is_empty());
        let split = |l: &str| -> Vec<String> {
            l.trim_end_matches('\r')
                .split(delimiter)
                .map(|f| f.trim().trim_matches('"').to_string())
                .collect()
        };
        let first = split(lines.next()?);
        let below: Vec<Vec<String>> = lines.map(split).collect();
        (below.len() >= 2 && first.len() >= 2).then_some(Self { first, below })
    }

    /// The one character every line of a file (at most `MOST_BYTES`) splits at into the
    /// same two or more fields, where no line holds a blank: awk's own split would read
    /// each line as one field.
    fn split_at(path: &Path) -> Option<char> {
        if std::fs::metadata(path).ok()?.len() > MOST_BYTES {
            return None;
        }
        let text = std::fs::read_to_string(path).ok()?;
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        if lines.len() < 3 || lines.iter().any(|l| l.trim().contains([' ', '\t'])) {
            return None;
        }
        [',', ';', '|'].into_iter().find(|d| {
            let count = lines[0].split(*d).count();
            count >= 2 && lines.iter().all(|l| l.split(*d).count() == count)
        })
    }

    fn number_at(row: &[String], n: usize) -> bool {
        row.get(n - 1)
            .is_some_and(|f| f.parse::<f64>().is_ok_and(f64::is_finite))
    }

    /// Whether no row below the first holds a number at field `n`.
    fn none_numeric(&self, n: usize) -> bool {
        !self.below.iter().any(|row| Self::number_at(row, n))
    }

    /// The one field that holds a number in every row below the first, if there is one.
    fn only_numeric(&self) -> Option<usize> {
        let widest = self.below.iter().map(Vec::len).max()?;
        let mut numeric =
            (1..=widest).filter(|n| self.below.iter().all(|row| Self::number_at(row, *n)));
        let one = numeric.next()?;
        numeric.next().is_none().then_some(one)
    }

    /// The first line is a header: none of its fields is a number, and some column
    /// below it holds one in every row.
    fn headed(&self) -> bool {
        let widest = self.below.iter().map(Vec::len).max().unwrap_or(0);
        (1..=self.first.len()).all(|n| !Self::number_at(&self.first, n))
            && (1..=widest).any(|n| self.below.iter().all(|row| Self::number_at(row, n)))
    }

    /// What the first line holds at field `n`, clipped.
    fn head(&self, n: usize) -> String {
        self.first
            .get(n - 1)
            .map(|f| crate::text::clip(f, 40))
            .unwrap_or_default()
    }
}

/// The one file `simple` reads, given as `files` or fed by a piped-in `cat FILE`, with
/// how the command wrote it.
fn file_read(
    simple: &zeta_judge::Simple,
    files: &[String],
    pipes: &[zeta_judge::Pipe],
) -> Option<(String, String)> {
    match files {
        [file] => Some((file.clone(), as_written(simple, file))),
        [] => fed(pipes, simple.span),
        _ => None,
    }
}

/// The file a piped-in `cat FILE` (or `tail -n +2 FILE`) feeds the awk at `span`, with
/// how the command wrote it.
fn fed(pipes: &[zeta_judge::Pipe], span: Option<(usize, usize)>) -> Option<(String, String)> {
    let pipe = pipes
        .iter()
        .find(|p| p.into_span == span && span.is_some())?;
    let (program, args) = pipe.from.split_first()?;
    let plain = |a: &str| !a.starts_with('-') && !a.starts_with('+');
    let fits = match program.as_str() {
        "cat" => args.iter().all(|a| plain(a)),
        // `tail -n +2 FILE`: every row but the first, which arithmetic reads as 0 anyway.
        "tail" => args
            .iter()
            .all(|a| plain(a) || a == "-n" || a.starts_with('+')),
        _ => false,
    };
    let files: Vec<&String> = args.iter().filter(|a| plain(a)).collect();
    let shown: Vec<&String> = pipe.written.iter().skip(1).filter(|a| plain(a)).collect();
    match (fits, files.as_slice(), shown.as_slice()) {
        (true, [file], [as_written]) => Some(((*file).clone(), (*as_written).clone())),
        _ => None,
    }
}

/// How the command wrote the word `word` expands to, else `word` itself.
fn as_written(simple: &zeta_judge::Simple, word: &str) -> String {
    let aligned = simple.words.len() == simple.written.len();
    simple
        .words
        .iter()
        .rposition(|w| w == word)
        .filter(|_| aligned)
        .and_then(|i| simple.written.get(i))
        .cloned()
        .unwrap_or_else(|| word.to_string())
}

/// The awk command's text with each `$used` (not `$used` followed by more digits) as
/// `$numbers`.
fn swap_field(text: &str, used: usize, numbers: usize) -> String {
    let field = format!("${used}");
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(&field) {
        let after = &rest[at + field.len()..];
        out.push_str(&rest[..at]);
        if after.starts_with(|c: char| c.is_ascii_digit()) {
            out.push_str(&field);
        } else {
            out.push_str(&format!("${numbers}"));
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

/// `FS = "X"` set in the program, not `OFS`.
fn begin_fs(text: &str) -> Option<String> {
    let mut rest = text;
    while let Some(at) = rest.find("FS") {
        let before = rest[..at].chars().next_back();
        let after = rest[at + 2..].trim_start();
        rest = &rest[at + 2..];
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        let Some(value) = after.strip_prefix('=').filter(|v| !v.starts_with('=')) else {
            continue;
        };
        let value = value.trim_start().strip_prefix('"')?;
        return value.find('"').map(|end| value[..end].to_string());
    }
    None
}

/// A delimiter of one character (`\t` for a tab); `None` for a pattern or blanks.
fn one_char(text: &str) -> Option<char> {
    if text == "\\t" {
        return Some('\t');
    }
    let mut chars = text.chars();
    let c = chars.next()?;
    (chars.next().is_none() && c != ' ').then_some(c)
}

fn is_name(text: &str) -> bool {
    text.chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && text.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

pub mod columns;
#[cfg(test)]
mod tests;

//! A column's values counted with its header: `cat ~/q3.csv | cut -d, -f2 | sort | uniq
//! | wc -l` for the distinct cities of `date,city,amount` counts `city` as one of them
//! (seen on the tune half, in each of one run's three csv-distinct tasks: "6 different
//! cities" for 5, and `awk -F, '{print $3}' ~/orders.csv | sort | uniq | wc -l` the
//! same). Read from the command's
//! syntax tree (one field cut or printed from a file, by `cut -d D -f N` or awk's
//! `{print $N}`, into `uniq` or `sort -u`, which make values of the lines) and the
//! file's rows, never from the request: where the file's first line is a header, shown
//! by a field that holds a number in every row below it and none in the first, the
//! header is no value of the column, and the command runs on the rows below it (`tail
//! -n +2 FILE` in the file's place), the model told so.
//!
//! Not read: a file whose first line is a row like the others (no field of numbers
//! below a word), awk that reads `NR` itself, several fields, a file fed by a program
//! that already drops lines, and lines not made values (no `uniq`, no `sort -u`).

use super::{as_written, Awk, Rows};
use crate::policy::ShellEnv;

/// A field of a headed file made values with its header among them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Headed {
    /// The file, as the command named it.
    file: String,
    /// What the first line holds at the field that was cut.
    head: String,
    /// What the first line holds at a field of numbers, which shows it is a header.
    shown_by: String,
    /// The command that cut the field (`cut`, `awk`).
    program: String,
    /// The command with the rows below the header in the file's place.
    run_as: String,
}

impl Headed {
    /// The command run in its place, and how it was read.
    pub fn read_as(&self) -> (String, String) {
        let note = crate::prompts::fill(
            crate::prompts::HEADED_VALUES,
            &[
                ("command", &self.run_as),
                ("file", &self.file),
                ("shown_by", &self.shown_by),
                ("program", &self.program),
                ("head", &self.head),
            ],
        );
        (self.run_as.clone(), note)
    }
}

/// The first field in `command` cut from a headed file and made values with its header
/// among them; else `None`.
pub fn find(command: &str, env: &ShellEnv) -> Option<Headed> {
    let pipes = zeta_judge::pipes(command, env);
    zeta_judge::commands(command, env)
        .into_iter()
        .find_map(|simple| {
            let (program, args) = simple.words.split_first()?;
            let (delimiter, field, files) = match program.as_str() {
                "cut" => cut(args)?,
                "awk" | "gawk" | "mawk" | "nawk" => {
                    let awk = Awk::read(args)?;
                    (awk.delimiter?, printed_field(&awk.program)?, awk.files)
                }
                _ => return None,
            };
            let span = simple.span?;
            if !made_values(&pipes, span) {
                return None;
            }
            // The file: given to the command, or by a `cat` of it piped in.
            let (file, shown, replace) = match files.as_slice() {
                [file] => {
                    let shown = as_written(&simple, file);
                    let text = command.get(span.0..span.1)?;
                    let mut at = text.rfind(&shown)?;
                    let mut end = at + shown.len();
                    // With the quotes around it, where the word was quoted.
                    let (before, after) =
                        (text[..at].chars().next_back(), text[end..].chars().next());
                    if let (Some(q @ ('\'' | '"')), Some(a)) = (before, after) {
                        if a == q {
                            at -= 1;
                            end += 1;
                        }
                    }
                    let quoted = &text[at..end];
                    let without = format!("{}{}", &text[..at], &text[end..]);
                    let run = format!("tail -n +2 {quoted} | {}", without.trim_end());
                    (file.clone(), shown, (span, run))
                }
                [] => {
                    let pipe = pipes.iter().find(|p| p.into_span == Some(span))?;
                    let (feeder, fed) = pipe.from.split_first()?;
                    if feeder != "cat" {
                        return None;
                    }
                    let ([file], [shown]) = (fed, &pipe.written[1..]) else {
                        return None;
                    };
                    if file.starts_with('-') {
                        return None;
                    }
                    (
                        file.clone(),
                        shown.clone(),
                        (pipe.span?, format!("tail -n +2 {shown}")),
                    )
                }
                _ => return None,
            };
            let cwd = simple.cwd.as_deref().unwrap_or(&env.cwd);
            let rows = Rows::read(&crate::assist::in_folder(&file, cwd), delimiter)?;
            let numbers = rows.header_shown_by()?;
            let ((start, end), with) = replace;
            let run_as = format!("{}{with}{}", command.get(..start)?, command.get(end..)?);
            Some(Headed {
                file: shown,
                head: rows.head(field),
                shown_by: rows.head(numbers),
                program: program.clone(),
                run_as,
            })
        })
}

/// `cut`'s delimiter, its one field, and its files; `None` for other flags, a range or a
/// list of fields.
fn cut(args: &[String]) -> Option<(char, usize, Vec<String>)> {
    let (mut delimiter, mut field, mut files) = (None, None, Vec::new());
    let mut words = args.iter();
    while let Some(word) = words.next() {
        let a = word.as_str();
        if let Some(d) = a.strip_prefix("--delimiter=") {
            delimiter = Some(super::one_char(d)?);
        } else if let Some(f) = a.strip_prefix("--fields=") {
            field = Some(f.parse::<usize>().ok()?);
        } else if a == "-d" {
            delimiter = Some(super::one_char(words.next()?)?);
        } else if a == "-f" {
            field = Some(words.next()?.parse::<usize>().ok()?);
        } else if let Some(d) = a.strip_prefix("-d") {
            delimiter = Some(super::one_char(d)?);
        } else if let Some(f) = a.strip_prefix("-f") {
            field = Some(f.parse::<usize>().ok()?);
        } else if a.starts_with('-') {
            return None;
        } else {
            files.push(a.to_string());
        }
    }
    Some((delimiter?, field.filter(|f| *f > 0)?, files))
}

/// The one field an awk program prints for every line (`{print $3}`, `{ print $3; }`,
/// after a `BEGIN` block); `None` for a pattern, `NR`, or anything else.
fn printed_field(program: &str) -> Option<usize> {
    let mut program = program.trim();
    // A `BEGIN { FS = "," }` block first sets the delimiter (read by `Awk::read`).
    if let Some(rest) = program.strip_prefix("BEGIN") {
        let end = rest.find('}')?;
        program = rest[end + 1..].trim();
    }
    let body = program.strip_prefix('{')?.strip_suffix('}')?.trim();
    let body = body.strip_suffix(';').unwrap_or(body).trim();
    let field = body.strip_prefix("print")?.trim().strip_prefix('$')?;
    field.parse::<usize>().ok().filter(|f| *f > 0)
}

/// Whether the lines of the command at `span` go, through the pipes after it, into
/// `uniq` or `sort -u`: made values, each counted once or with its count.
fn made_values(pipes: &[zeta_judge::Pipe], span: (usize, usize)) -> bool {
    let mut at = Some(span);
    let mut seen = 0;
    while let Some(pipe) = pipes.iter().find(|p| p.span == at && at.is_some()) {
        let unique = pipe.into == "uniq"
            || pipe.into == "sort"
                && pipe.into_args.iter().any(|a| {
                    a == "--unique"
                        || a.strip_prefix('-')
                            .is_some_and(|l| !l.starts_with('-') && l.contains('u'))
                });
        if unique {
            return true;
        }
        at = pipe.into_span;
        seen += 1;
        if seen > pipes.len() {
            return false;
        }
    }
    false
}

#[cfg(test)]
mod tests;

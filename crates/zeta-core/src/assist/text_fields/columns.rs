//! The columns a command reads by number, named by the file's first line: `awk -F,
//! '{print $3}' ~/stock.csv | sort -nr | head -1` for the highest price, where the third
//! column is `qty` (seen on requests written after the benchmark: a small model numbers
//! the columns without looking at the header, and its second way reads the same wrong
//! column). Said with the output, never run another way: which column the request
//! means is the model's to judge, from the names the file gives its columns.
//!
//! Read from the command's syntax tree (awk's delimiter and the `$N` its program uses,
//! cut's `-d` and `-f`, the file each reads or the `cat` of it piped in) and the file:
//! only a file whose first line is a header (none of its fields a number, and some
//! column below a number in every row) is named.

use super::{file_read, Awk, Rows};
use crate::policy::ShellEnv;

/// What the fields a command reads are called, by the first line of the file it reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Columns {
    /// The file, as the command wrote it.
    file: String,
    /// Its first line, clipped.
    first: String,
    /// Each field read, with its column's name (`None`: past the last column).
    fields: Vec<(usize, Option<String>)>,
    /// Numbered as awk does (`$3`), or as cut does (field 3).
    awk: bool,
}

impl Columns {
    /// The note said with the command's output.
    pub fn note(&self) -> String {
        let fields = self
            .fields
            .iter()
            .map(|(n, name)| {
                let field = if self.awk {
                    format!("${n}")
                } else {
                    format!("field {n}")
                };
                match name {
                    Some(name) => format!("{field} is the column \"{name}\""),
                    None => format!("{field} is past its last column"),
                }
            })
            .collect::<Vec<_>>()
            .join("; ");
        crate::prompts::fill(
            crate::prompts::COLUMN_NAMES,
            &[
                ("file", &self.file),
                ("first", &self.first),
                ("fields", &fields),
            ],
        )
    }
}

/// The columns the first awk or cut in `command` reads by number from a file with a
/// header line; `None` where there is none.
pub fn find(command: &str, env: &ShellEnv) -> Option<Columns> {
    let pipes = zeta_judge::pipes(command, env);
    zeta_judge::commands(command, env)
        .into_iter()
        .find_map(|simple| {
            let (program, args) = simple.words.split_first()?;
            let (delimiter, fields, files, awk) = match program.as_str() {
                "awk" | "gawk" | "mawk" | "nawk" => {
                    let awk = Awk::read(args)?;
                    (awk.delimiter?, awk.fields(), awk.files, true)
                }
                "cut" => {
                    let cut = Cut::read(args)?;
                    (cut.delimiter, cut.fields, cut.files, false)
                }
                _ => return None,
            };
            if fields.is_empty() {
                return None;
            }
            let (file, shown) = file_read(&simple, &files, &pipes)?;
            let cwd = simple.cwd.as_deref().unwrap_or(&env.cwd);
            let rows = Rows::read(&crate::assist::in_folder(&file, cwd), delimiter)?;
            if !rows.headed() {
                return None;
            }
            let fields = fields
                .into_iter()
                .map(|n| (n, (n <= rows.first.len()).then(|| rows.head(n))))
                .collect();
            Some(Columns {
                file: shown,
                first: crate::text::clip(&rows.first.join(&delimiter.to_string()), 120),
                fields,
                awk,
            })
        })
}

/// cut's words: its delimiter (`-d,`, `-d ','`, `--delimiter=,`), the fields it cuts
/// (`-f2`, `-f 1,3`, `--fields=2`; ranges are left alone), its files.
struct Cut {
    delimiter: char,
    fields: Vec<usize>,
    files: Vec<String>,
}

impl Cut {
    fn read(args: &[String]) -> Option<Self> {
        let (mut delimiter, mut fields, mut files) = (None, None, Vec::new());
        let mut words = args.iter();
        while let Some(word) = words.next() {
            let a = word.as_str();
            let (option, value) = match a {
                "-d" | "--delimiter" => ('d', words.next()?.clone()),
                "-f" | "--fields" => ('f', words.next()?.clone()),
                _ if a.starts_with("--delimiter=") => ('d', a["--delimiter=".len()..].into()),
                _ if a.starts_with("--fields=") => ('f', a["--fields=".len()..].into()),
                _ if a.starts_with("-d") => ('d', a[2..].into()),
                _ if a.starts_with("-f") => ('f', a[2..].into()),
                // Bytes or characters cut, not fields.
                _ if a.starts_with("-b") || a.starts_with("-c") => return None,
                _ if a.starts_with('-') && a != "-" => continue,
                _ => {
                    files.push(a.to_string());
                    continue;
                }
            };
            match option {
                'd' => delimiter = Some(super::one_char(&value)?),
                _ => {
                    fields = Some(
                        value
                            .split(',')
                            .map(|n| n.parse::<usize>().ok().filter(|n| *n > 0))
                            .collect::<Option<Vec<usize>>>()?,
                    )
                }
            }
        }
        Some(Self {
            // cut's own delimiter is the tab.
            delimiter: delimiter.unwrap_or('\t'),
            fields: fields?,
            files,
        })
    }
}

#[cfg(test)]
mod tests;

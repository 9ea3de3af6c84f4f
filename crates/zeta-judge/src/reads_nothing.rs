//! Programs that read nothing: `wc -w` with no file, given nothing on its input. A
//! program that reads its standard input when it is given no file reads, in Zeta's
//! shell (whose input is empty), nothing at all, and prints a count or a sort of
//! nothing: "0", then "There are 0 words in your essay.txt" (seen on requests written
//! after the benchmark, twice in a row for one wording). Read from the syntax tree: a
//! simple command of the line whose program is one of these readers, whose input no
//! pipe, here-document, here-string or `<` feeds (`Simple::fed`), and whose words, read
//! with the program's options (those that take a value, those that name the pattern or
//! program in an operand's place, those that read elsewhere: `grep -r`, `--files0-from`),
//! hold no file.

use crate::{commands_parsed, ShellEnv};

/// How one reader takes its words.
struct Reader {
    names: &'static [&'static str],
    /// Short options that take a value (`-n 5`, `-n5`).
    valued: &'static str,
    /// Long options that take a value (`--key 2`, `--key=2`).
    long_valued: &'static [&'static str],
    /// Operands before its files (grep's pattern, awk's program); `usize::MAX`: it takes
    /// no files at all (`tr`).
    leading: usize,
    /// Options whose value stands in the place of those operands (`grep -e`, `awk -f`).
    gives_leading: &'static str,
    /// Short options and long ones that make it read something else than its input
    /// (`grep -r` reads the working folder).
    elsewhere: (&'static str, &'static [&'static str]),
}

const READERS: &[Reader] = &[
    Reader {
        names: &["wc"],
        valued: "",
        long_valued: &[],
        leading: 0,
        gives_leading: "",
        elsewhere: ("", &["--files0-from"]),
    },
    Reader {
        names: &["cat", "tac", "md5sum", "sha1sum", "sha256sum", "sha512sum"],
        valued: "",
        long_valued: &[],
        leading: 0,
        gives_leading: "",
        elsewhere: ("", &[]),
    },
    Reader {
        names: &["sort"],
        valued: "ktoST",
        long_valued: &[
            "--key",
            "--field-separator",
            "--output",
            "--buffer-size",
            "--temporary-directory",
        ],
        leading: 0,
        gives_leading: "",
        elsewhere: ("", &["--files0-from"]),
    },
    Reader {
        names: &["uniq"],
        valued: "fsw",
        long_valued: &["--skip-fields", "--skip-chars", "--check-chars"],
        leading: 0,
        gives_leading: "",
        elsewhere: ("", &[]),
    },
    Reader {
        names: &["head", "tail"],
        valued: "nc",
        long_valued: &["--lines", "--bytes"],
        leading: 0,
        gives_leading: "",
        elsewhere: ("", &[]),
    },
    Reader {
        names: &["cut"],
        valued: "dfcb",
        long_valued: &["--delimiter", "--fields", "--characters", "--bytes"],
        leading: 0,
        gives_leading: "",
        elsewhere: ("", &[]),
    },
    Reader {
        names: &["grep", "egrep", "fgrep"],
        valued: "efmABCdD",
        long_valued: &[
            "--regexp",
            "--file",
            "--max-count",
            "--after-context",
            "--before-context",
            "--context",
        ],
        leading: 1,
        gives_leading: "ef",
        elsewhere: ("rR", &["--recursive", "--dereference-recursive"]),
    },
    Reader {
        names: &["awk", "gawk", "mawk", "nawk"],
        valued: "Fvf",
        long_valued: &["--field-separator", "--assign", "--file"],
        leading: 1,
        gives_leading: "f",
        elsewhere: ("", &[]),
    },
    Reader {
        names: &["sed"],
        valued: "efl",
        long_valued: &["--expression", "--file", "--line-length"],
        leading: 1,
        gives_leading: "ef",
        elsewhere: ("", &[]),
    },
    Reader {
        names: &["tr"],
        valued: "",
        long_valued: &[],
        leading: usize::MAX,
        gives_leading: "",
        elsewhere: ("", &[]),
    },
];

/// The first program in `line` that reads nothing: a reader given no file and nothing
/// on its input (see the module doc). `None` where every reader has something to read,
/// or the line cannot be read whole.
pub fn reads_nothing(line: &str, env: &ShellEnv) -> Option<String> {
    commands_parsed(line, env)
        .into_iter()
        .filter(|simple| simple.span.is_some() && !simple.fed)
        .find_map(|simple| {
            let (program, args) = simple.words.split_first()?;
            let reader = READERS
                .iter()
                .find(|r| r.names.contains(&program.as_str()))?;
            (!has_file(reader, args)).then(|| program.clone())
        })
}

/// Whether `args` give `reader` a file to read (or something else than its input).
fn has_file(reader: &Reader, args: &[String]) -> bool {
    let mut leading = reader.leading;
    let mut operands: Vec<&str> = Vec::new();
    let mut options_end = false;
    let mut words = args.iter();
    while let Some(word) = words.next() {
        let w = word.as_str();
        // `-` is the input itself.
        if w == "-" && !options_end {
            continue;
        }
        if options_end || !w.starts_with('-') {
            operands.push(w);
            continue;
        }
        if w == "--" {
            options_end = true;
            continue;
        }
        if let Some(long) = w.strip_prefix("--") {
            let (name, attached) = match long.split_once('=') {
                Some((name, _)) => (format!("--{name}"), true),
                None => (w.to_string(), false),
            };
            if reader.elsewhere.1.contains(&name.as_str()) {
                return true;
            }
            if reader.long_valued.contains(&name.as_str()) {
                if !attached {
                    words.next();
                }
                if matches!(name.as_str(), "--regexp" | "--file") {
                    leading = 0;
                }
            }
            continue;
        }
        // A cluster of short options (`-rn`, `-n5`, `-F,`): a valued one takes the rest of
        // the word, or the next word.
        for (i, c) in w[1..].char_indices() {
            if reader.elsewhere.0.contains(c) {
                return true;
            }
            if reader.gives_leading.contains(c) {
                leading = 0;
            }
            if reader.valued.contains(c) {
                if i + c.len_utf8() == w.len() - 1 {
                    words.next();
                }
                break;
            }
        }
    }
    // An awk program of `BEGIN` blocks alone reads no input at all.
    let program_only = leading == 1
        && reader.names.contains(&"awk")
        && operands.first().is_some_and(|p| begin_only(p));
    program_only || leading != usize::MAX && operands.len() > leading
}

/// An awk program that is `BEGIN { … }` blocks and nothing else.
fn begin_only(program: &str) -> bool {
    let mut rest = program.trim();
    if rest.is_empty() {
        return false;
    }
    while !rest.is_empty() {
        let Some(after) = rest.strip_prefix("BEGIN") else {
            return false;
        };
        let after = after.trim_start();
        if !after.starts_with('{') {
            return false;
        }
        // The block's end: its braces matched, those in strings left out.
        let (mut depth, mut quoted, mut end) = (0i32, false, None);
        let mut escaped = false;
        for (i, c) in after.char_indices() {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => quoted = !quoted,
                '{' if !quoted => depth += 1,
                '}' if !quoted => {
                    depth -= 1;
                    if depth == 0 {
                        end = Some(i + 1);
                        break;
                    }
                }
                _ => {}
            }
        }
        let Some(end) = end else {
            return false;
        };
        rest = after[end..]
            .trim_start()
            .trim_start_matches(';')
            .trim_start();
    }
    true
}

#[cfg(test)]
mod tests;

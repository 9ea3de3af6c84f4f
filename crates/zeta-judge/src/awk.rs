//! awk programs, which read and print but can also write files (`print > "f"`), run
//! commands (`system(…)`, `print | "cmd"`, `"cmd" | getline`) and, in gawk, load code
//! (`@load`, `-f`, `-i`). Two questions are answered here, each failing closed:
//!
//! - `reads_only`: the invocation provably only reads its input and prints. Its options
//!   are `-F` and `-v` only, its program text is known before it runs, and the text has
//!   no `system`, no `getline`, no `@`, no lone `|`, and no `>` inside an action outside
//!   parentheses (there it may be a redirection; in a pattern, `$3 > 10`, and in a
//!   condition, `if ($3 > 10)`, it compares). Strings, regular expressions (bracket
//!   expressions included) and comments are read as awk reads them; anything the scan
//!   cannot be sure of (unbalanced braces, a newline inside a string, braces or `/`
//!   inside a bracket expression) counts as writing.
//! - `program_text`: the program's text, whose string literals the judge reads as the
//!   shell commands `system()` and pipes would run.

use crate::interp::string_literals;
use crate::rules::block;
use crate::walk::Walker;
use crate::words::Word;

/// The program text of an awk command line (`args` without the program's name): the
/// first operand after the options, `None` with `-f` (a program file) or no operand.
pub fn program_text(args: &[Word]) -> Option<&Word> {
    let mut i = 0;
    while let Some(w) = args.get(i) {
        let Some(a) = w.single() else {
            return Some(w);
        };
        match a {
            "--" => return args.get(i + 1),
            "-F" | "-v" => i += 2,
            _ if a.starts_with("-f") || a.starts_with("--file") => return None,
            _ if a.starts_with('-') && a.len() > 1 => i += 1,
            _ => return Some(w),
        }
    }
    None
}

/// Walks an awk command line: the shell commands its string literals would run (through
/// `system`, `print | …`, `… | getline`) are judged as shell commands, leniently; a
/// program fetched from the network is blocked and one known only when it runs asks.
/// Collecting programs, an invocation that may write counts as writing.
pub fn judge(walker: &mut Walker, program: &str, args: &[Word]) {
    if walker.findings.collect_only {
        // Its string literals are data to a program that only reads ("Gadget" is no
        // program), and one that may not counts as writing.
        walker.seen.writes |= !reads_only(args);
        return;
    }
    let Some(text) = program_text(args) else {
        return;
    };
    match text.values.clone() {
        Some(texts) => {
            walker.lenient += 1;
            for text in texts {
                for literal in string_literals(&text) {
                    walker.nested(&literal, &[]);
                }
            }
            walker.lenient -= 1;
        }
        None if text.fetched => walker.find(block(
            "awk-runs-download",
            format!("{program} running a program fetched from the network"),
        )),
        None => walker.ask(
            "awk-program-unknown",
            format!("{program} runs a program that is only known when it runs"),
        ),
    }
}

/// True when this awk invocation only reads and prints (see the module doc).
pub fn reads_only(args: &[Word]) -> bool {
    let mut i = 0;
    while let Some(w) = args.get(i) {
        let Some(a) = w.single() else {
            return false;
        };
        match a {
            "--" => {
                return args
                    .get(i + 1)
                    .and_then(Word::single)
                    .is_some_and(program_reads_only)
            }
            // `-F SEP`, `-v NAME=VALUE`: the separator and the value are data.
            "-F" | "-v" => {
                if args.get(i + 1).is_none() {
                    return false;
                }
                i += 2;
            }
            _ if a.starts_with("-F") || (a.starts_with("-v") && a.contains('=')) => i += 1,
            // Any other option may load code, write a profile or dump variables.
            _ if a.starts_with('-') && a.len() > 1 => return false,
            program => return program_reads_only(program),
        }
    }
    false
}

/// The longest program text judged as reading; a longer one counts as writing.
const MAX_PROGRAM_BYTES: usize = 4096;

/// Where the scanner is in the program text.
#[derive(Clone, Copy, PartialEq, Eq)]
enum At {
    Code,
    Str,
    Regex,
    /// Inside a regular expression's bracket expression (`[^/]`).
    Bracket,
}

/// The text of an awk program only reads and prints (see the module doc).
pub fn program_reads_only(text: &str) -> bool {
    // Longer programs are not one-liners; the look-around below stays cheap.
    if text.len() > MAX_PROGRAM_BYTES {
        return false;
    }
    let lower = text.to_ascii_lowercase();
    if lower.contains("system") || lower.contains("getline") || text.contains('@') {
        return false;
    }
    let chars: Vec<char> = text.chars().collect();
    let mut at = At::Code;
    let (mut braces, mut parens) = (0usize, 0usize);
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        let next = chars.get(i + 1).copied();
        match at {
            At::Str => match c {
                '\\' => i += 1,
                '"' => at = At::Code,
                '\n' => return false,
                _ => {}
            },
            At::Regex => match c {
                '\\' => i += 1,
                '[' => {
                    at = At::Bracket;
                    // `[]…]` and `[^]…]`: the first `]` is a member.
                    if next == Some('^') {
                        i += 1;
                    }
                    if chars.get(i + 1) == Some(&']') {
                        i += 1;
                    }
                }
                '/' => at = At::Code,
                '\n' => return false,
                _ => {}
            },
            At::Bracket => match c {
                // `[:alpha:]`, `[.x.]`, `[=e=]` inside a bracket expression.
                '[' if matches!(next, Some(':' | '.' | '=')) => {
                    let Some(close) = next else { return false };
                    let end = (i + 2..chars.len().saturating_sub(1))
                        .find(|&j| chars[j] == close && chars[j + 1] == ']');
                    match end {
                        Some(j) => i = j + 1,
                        None => return false,
                    }
                }
                ']' => at = At::Regex,
                // Where implementations disagree on the regex's end: not sure.
                '/' | '{' | '}' | '\n' => return false,
                _ => {}
            },
            At::Code => {
                match c {
                    '"' => at = At::Str,
                    '#' => {
                        // A comment runs to the end of the line.
                        while chars.get(i).is_some_and(|&d| d != '\n') {
                            i += 1;
                        }
                        continue;
                    }
                    '/' if regex_may_start(&chars[..i]) => at = At::Regex,
                    // A division; were it a regular expression, the text up to the
                    // next `/` must hide nothing from this scan.
                    '/' if !division_hides_nothing(&chars[i + 1..]) => return false,
                    '{' => braces += 1,
                    '}' => match braces.checked_sub(1) {
                        Some(b) => braces = b,
                        None => return false,
                    },
                    '(' => parens += 1,
                    ')' => match parens.checked_sub(1) {
                        Some(p) => parens = p,
                        None => return false,
                    },
                    '|' if next == Some('|') => i += 1,
                    '|' => return false,
                    '>' if braces > 0 && parens == 0 => return false,
                    _ => {}
                }
            }
        }
        i += 1;
    }
    at == At::Code && braces == 0 && parens == 0
}

/// Words after which awk expects an operand, so a `/` there opens a regular expression.
const OPERAND_KEYWORDS: &[&str] = &[
    "print", "printf", "return", "in", "case", "do", "else", "delete", "exit",
];

/// A `/` after `before` opens a regular expression: awk reads it as a division only after
/// an operand (a name, a number, a string, `)`, `]`, a regular expression, `x++`).
fn regex_may_start(before: &[char]) -> bool {
    // A keyword is short: the last few characters decide.
    let before = &before[before.len().saturating_sub(32)..];
    let code: Vec<char> = before
        .iter()
        .rev()
        .skip_while(|c| c.is_whitespace() && **c != '\n')
        .copied()
        .collect();
    let Some(&last) = code.first() else {
        return true;
    };
    if last.is_alphanumeric() || last == '_' || last == '.' {
        let word: String = code
            .iter()
            .take_while(|c| c.is_alphanumeric() || **c == '_')
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        return OPERAND_KEYWORDS.contains(&word.as_str());
    }
    match last {
        ')' | ']' | '"' | '/' | '$' => false,
        '+' | '-' => code.get(1) != Some(&last),
        _ => true,
    }
}

/// The text after a `/` read as a division: up to the next `/` on its line (where awk
/// could instead have read a regular expression) it holds nothing that this scan treats
/// differently in a regular expression: braces, quotes, comments, `>`, `|`.
fn division_hides_nothing(after: &[char]) -> bool {
    let line: Vec<char> = after.iter().take_while(|c| **c != '\n').copied().collect();
    match line.iter().position(|c| *c == '/') {
        None => true,
        Some(end) => !line[..end].iter().any(|c| "{}\"#>|[\\".contains(*c)),
    }
}

#[cfg(test)]
mod tests;

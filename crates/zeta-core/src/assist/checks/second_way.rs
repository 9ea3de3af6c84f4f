//! `second-way`: a question's answer that rests on one way of computing it is computed
//! again another way before it stands.
//!
//! The wrong values a small model gives are mostly not made up: an output printed them,
//! from a command that computed something else (`ls | sort` for the biggest file, a
//! `grep` of the names for the file that mentions a word, `wc -l` counting a header). No
//! check of the answer against the outputs can see that. A second computation can: a
//! short Python program that reads the files itself, judged by what it prints.
//!
//! It judges answers to requests that only ask (nothing to change), that name a path or
//! give a number (a computation over files or values, not a look-up like the user name),
//! whatever the calls changed on the way (the request asked for none), where the answer
//! found something: its values, and its words that an output printed and the request
//! does not hold. The answer holds when a program (`run_code`, or a shell line running
//! Python) printed one of them, or listed as many things, a line each, as the count it
//! gives. Where it printed several things, one it singles out counts, not one among
//! others of its kind: a program that lists every file bears out no pick among them. Once, it goes back asking for the program. Where the program printed something
//! that does not bear the answer out (`program_says`), the model is asked once, with no
//! tools, which of the two ways is right (`Finishing::two_ways_differ`), and its new
//! answer is taken only where the program bears it out; otherwise the person reads the
//! answer that was checked, doubted, with what the program printed
//! (`Finishing::second_way_kept`). The program's output itself never becomes the answer
//! (measured: a 1.5B model's program is no better than its command, and taking its
//! output turned right answers wrong). A program that did not run, failed or printed
//! nothing proves nothing either way: the answer is said to be unconfirmed. An answer
//! about files that found nothing ("no file mentions it") is judged too: a program that
//! prints a name or a value the request and the answer do not hold puts it in doubt.
//!
//! A change is judged the same way where it rests on something the task chose
//! (`chosen`): a file it acted on, found by a look the request did not make for it (the
//! largest file, copied), or a value it computed and wrote (a count, written into a
//! file). Its program must change nothing, and where it does not bear the change out the
//! person reads that with the answer; the model is not asked which way is right (the
//! files hold what the first way wrote). Changes that moved or deleted anything are left
//! alone: a program run after them no longer finds what was chosen.
//!
//! The program gets one step of its own, which may only be a command (`only_commands`),
//! and the task ends after it (`Run::second_way_turn`): the model is not asked again for
//! a step, only, where the two ways differ, for an answer.

use super::answers::tokens;
use super::{Case, Check, Finding, Honest};
use crate::assist::evidence::Effect;
use crate::assist::values::{grounded, values, Value};

pub struct SecondWay;

/// One thing an answer found.
enum Fact {
    Value(Value),
    Name(String),
}

/// What the answer found: its values, and its words that an output printed and the
/// request does not hold.
fn found(case: &Case) -> Vec<Fact> {
    let asked = tokens(&case.request.text);
    let printed: Vec<String> = case
        .evidence
        .ran()
        .filter(|c| c.ok)
        .flat_map(|c| tokens(&c.printed()))
        .collect();
    let answer_values = values(case.answer);
    let asked_values = values(&case.request.text);
    let mut out: Vec<Fact> = answer_values
        .iter()
        .filter(|v| !asked_values.contains(v))
        .cloned()
        .map(Fact::Value)
        .collect();
    let written: Vec<&str> = answer_values.iter().map(Value::as_written).collect();
    let mut names: Vec<String> = Vec::new();
    for t in tokens(case.answer) {
        if !asked.contains(&t)
            && !written.contains(&t.as_str())
            && printed.contains(&t)
            && !names.contains(&t)
        {
            names.push(t);
        }
    }
    out.extend(names.into_iter().map(Fact::Name));
    out
}

/// What a change rests on that the task chose, as the answer gives it: a file it acted on
/// by a name an output printed and the request does not hold (the largest file, copied),
/// or a value it wrote into a file that the request does not give (a count, written).
/// None where something was moved or deleted: a program run after it no longer finds
/// what was chosen, and would put a right change in doubt.
fn chosen(case: &Case) -> Vec<Fact> {
    let effects: Vec<&Effect> = case.evidence.effects().collect();
    if effects
        .iter()
        .any(|e| matches!(e, Effect::Deleted(_) | Effect::Moved { .. }))
    {
        return Vec::new();
    }
    let landed: Vec<&std::path::Path> = effects.iter().filter_map(|e| e.lands_at()).collect();
    let named: Vec<String> = landed
        .iter()
        .filter_map(|p| p.file_name())
        .map(|n| n.to_string_lossy().to_lowercase())
        .collect();
    let held: Vec<String> = landed.iter().filter_map(|p| small_text(p)).collect();
    found(case)
        .into_iter()
        .filter(|fact| match fact {
            Fact::Name(n) => named.contains(n),
            Fact::Value(v) => held.iter().any(|h| grounded(v, &[h], &values(h))),
        })
        .collect()
}

/// A file's text, where it is text and small enough to be a value written (64 KiB).
fn small_text(path: &std::path::Path) -> Option<String> {
    let meta = std::fs::metadata(path).ok()?;
    if !meta.is_file() || meta.len() > 64 * 1024 {
        return None;
    }
    std::fs::read_to_string(path).ok()
}

/// What the second way judges: what a question's answer found, or what a change rests
/// on that the task chose (`chosen`).
fn facts(case: &Case) -> Vec<Fact> {
    if case.request.only_asks() {
        found(case)
    } else {
        chosen(case)
    }
}

/// `printed` bears out what the answer found: one of its facts, or a count the answer
/// gives as the number of things the program listed, a line each (seen: "6 .log
/// files" against a program that printed the six names). Where the program printed
/// several lines, only what it singles out counts (`singled_out`): a program that
/// printed every file holds the one the answer picked, whichever it picked (seen on the
/// tune half: "the largest file is alpha.json", borne out by a program that printed
/// the folder's four paths).
fn bears(printed: &str, found: &[Fact]) -> bool {
    let counted = listed(printed).is_some_and(|n| {
        found
            .iter()
            .any(|f| matches!(f, Fact::Value(v) if v.as_written() == n.to_string()))
    });
    let lines = items(printed);
    counted
        || match lines.as_slice() {
            [] => false,
            [item] => holds(item.text, found) && names_all(&lines, found),
            _ => singled_out(&lines, found),
        }
}

/// Every file name the answer gives (a name with a dot: `memo.txt`) is among the things
/// printed: a program that printed some of the files an answer lists does not bear the
/// list out (seen on the tune half: five files answered as empty, borne out by a program
/// that printed the four that are).
fn names_all(items: &[Item], found: &[Fact]) -> bool {
    found.iter().all(|fact| match fact {
        Fact::Name(n) if n.contains('.') => items.iter().any(|i| tokens(i.text).contains(n)),
        _ => true,
    })
}

/// One thing a program printed: a line, or an element of a line that is a Python list,
/// tuple, set or dict.
struct Item<'a> {
    text: &'a str,
    /// An element of such a line.
    in_list: bool,
}

/// The things `printed` gives: its non-empty lines, a line that is a Python list, set
/// or dict (`['/x/a.txt', '/x/b.txt']`) read as its elements (a tuple is one thing: a
/// name and its size).
fn items(printed: &str) -> Vec<Item<'_>> {
    let mut out = Vec::new();
    for line in printed.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let inside = [('[', ']'), ('{', '}')]
            .iter()
            .find_map(|(open, close)| line.strip_prefix(*open)?.strip_suffix(*close));
        let elements = inside.map(elements).unwrap_or_default();
        if elements.len() >= 2 {
            out.extend(elements.into_iter().map(|text| Item {
                text,
                in_list: true,
            }));
        } else {
            out.push(Item {
                text: line,
                in_list: false,
            });
        }
    }
    out
}

/// The elements of a Python list's inside, split at its own commas, not those within
/// an element's brackets or quotes.
fn elements(inside: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut quote, mut start) = (0i32, None::<char>, 0);
    for (i, c) in inside.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, '(' | '[' | '{') => depth += 1,
            (None, ')' | ']' | '}') => depth -= 1,
            (None, ',') if depth == 0 => {
                out.push(&inside[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&inside[start..]);
    out.into_iter()
        .map(str::trim)
        .filter(|e| !e.is_empty())
        .collect()
}

/// `line` holds one of the answer's facts.
fn holds(line: &str, found: &[Fact]) -> bool {
    let words = tokens(line);
    let line_values = values(line);
    found.iter().any(|fact| match fact {
        Fact::Value(v) => grounded(v, &[line], &line_values),
        Fact::Name(n) => words.contains(n),
    })
}

/// Things a program printed single out one of the answer's facts: every one holds one
/// and every file name the answer gives is among them (the program printed what the
/// answer says, a line a thing; `names_all`), or the last holds one
/// and stands apart from the thing before it, a result after the things it was
/// computed from: a line of its own after a list ("[100, 200]", then "300"), of another
/// form ("a.log 120", "b.log 90", then "largest: a.log"), or under a label where the
/// line before has none ("Paris 100", "Rome 200", then "Total: 300"). A listing of
/// every file, or every figure, singles out none of them, in whatever place the
/// answer's pick is.
fn singled_out(items: &[Item], found: &[Fact]) -> bool {
    let all = items.iter().all(|i| holds(i.text, found)) && names_all(items, found);
    let result = match items {
        [.., before, last] => {
            holds(last.text, found)
                && ((before.in_list && !last.in_list)
                    || form(last.text) != form(before.text)
                    || (label(last.text).is_some() && label(before.text).is_none()))
        }
        _ => false,
    };
    all || result
}

/// The words a line begins with before a `:` or `=` ("Total: 300" → "total"), where
/// they hold a letter and are not a name (`a.log: 120` is a thing listed, not a label).
fn label(line: &str) -> Option<String> {
    let (head, _) = line.split_once([':', '='])?;
    let head = head.trim().to_lowercase();
    head.chars()
        .any(char::is_alphabetic)
        .then_some(head)
        .filter(|h| !h.contains(['/', '\\', '.']))
}

/// What a line is made of, word by word, runs of one kind as one: numbers, names
/// (words with a dot or a slash: files, paths) and other words.
fn form(line: &str) -> Vec<char> {
    let mut out: Vec<char> = Vec::new();
    for word in line.split_whitespace() {
        let bare = word.trim_matches(|c: char| !c.is_alphanumeric());
        let kind = if !bare.is_empty()
            && bare
                .chars()
                .all(|c| c.is_ascii_digit() || matches!(c, '.' | ',' | '-' | '%'))
        {
            'n'
        } else if bare.contains(['.', '/']) || word.starts_with(['/', '~']) {
            'p'
        } else {
            'w'
        };
        if out.last() != Some(&kind) {
            out.push(kind);
        }
    }
    out
}

/// How many things `printed` lists, a line each: two or more non-empty lines, none of
/// them a lone number (a column of figures is values, not things counted).
fn listed(printed: &str) -> Option<usize> {
    let lines: Vec<&str> = printed
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let numbers = lines.iter().any(|l| {
        l.replace([',', '.', '-'], "")
            .chars()
            .all(|c| c.is_ascii_digit())
    });
    (lines.len() >= 2 && !numbers).then_some(lines.len())
}

/// What the task's programs say of an answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProgramSays {
    /// No program ran and printed anything (none came, it failed, it printed nothing).
    Nothing,
    /// A program's output bears the answer out.
    BearsOut,
    /// The programs printed something, and none bears the answer out: the last one's
    /// output.
    Differs(String),
}

/// What the programs the task ran say of `case`'s answer (`SecondWay`'s evidence).
pub fn program_says(case: &Case) -> ProgramSays {
    says(case, &facts(case))
}

/// What the task's programs say of `found`, the facts of `case` (`facts`).
fn says(case: &Case, found: &[Fact]) -> ProgramSays {
    let nothing = found.is_empty();
    let printed: Vec<String> = case
        .evidence
        .ran()
        .filter(|c| c.ok && c.program.is_some())
        .map(|c| c.printed())
        .collect();
    // A program that printed nothing proves nothing, unless nothing is the answer.
    let programs: Vec<&String> = printed.iter().filter(|p| !p.trim().is_empty()).collect();
    let borne = if nothing {
        !printed.is_empty() && printed.iter().all(|p| bears_nothing(p, case))
    } else {
        programs.iter().any(|p| bears(p, found))
    };
    match programs.last() {
        _ if borne => ProgramSays::BearsOut,
        Some(last) => ProgramSays::Differs(last.trim().to_string()),
        None => ProgramSays::Nothing,
    }
}

/// Said after an answer no program bore out, when none printed anything.
pub const UNCONFIRMED: &str = "(I could not confirm this a second way.)";

/// What Python prints for nothing found (`print(None)`, `print([])` is no word, `0`).
const NOTHING_PRINTED: &[&str] = &["none", "false", "set", "0", "0.0"];

/// `printed` bears out an answer that found nothing ("There are no empty files"): it
/// names nothing the request and the answer do not (a file, a value), beyond Python's
/// ways of printing nothing.
fn bears_nothing(printed: &str, case: &Case) -> bool {
    let known: Vec<String> = tokens(&case.request.text)
        .into_iter()
        .chain(tokens(case.answer))
        .collect();
    tokens(printed)
        .iter()
        .all(|t| known.contains(t) || NOTHING_PRINTED.contains(&t.as_str()))
}

/// The message that asks for the program: one that reads the files the request names,
/// or one that computes from the values it gives; for a change, one that changes
/// nothing and prints what `facts` (`chosen`) says the change rests on.
fn asked_for(case: &Case, facts: &[Fact]) -> String {
    let (wrong, program) = way(case);
    let wrote_value = facts.iter().any(|f| matches!(f, Fact::Value(_)));
    let (program, prints) = if case.request.only_asks() {
        (program.to_string(), "the answer")
    } else if wrote_value {
        (
            format!("changes nothing, {program}"),
            "the value you wrote, computed again from the files",
        )
    } else {
        (
            format!("changes nothing, {program}"),
            "the file your change is about, found again from the files",
        )
    };
    crate::prompts::fill(
        crate::prompts::CHECK_SECOND_WAY,
        &[("wrong", wrong), ("program", &program), ("prints", prints)],
    )
}

/// What may go wrong in the first way, and what the program does instead: compute from
/// the values the request gives, or read the files itself.
fn way(case: &Case) -> (&'static str, &'static str) {
    if !case.request.names_a_place() {
        (
            "a wrong formula, a wrong unit",
            "computes it itself from the values the request gives, reading no file",
        )
    } else {
        (
            "the wrong file, a header row, names instead of contents",
            "reads the files itself (each path written as os.path.expanduser('~/…'): Python does not read ~ by itself)",
        )
    }
}

/// The message that asks for a question's program apart from the task's conversation:
/// the request and what the program is to do, with nothing of the first way (its
/// commands, what they printed, the answer). A program written beside the first way
/// reads the request as it did (seen: words counted as lines by the command and by the
/// program, the two agreeing on a wrong number, in a fresh probe); one written apart is
/// a second reading.
pub fn asked_apart(case: &Case) -> String {
    let (_, program) = way(case);
    crate::prompts::fill(
        crate::prompts::CHECK_SECOND_WAY_APART,
        &[("program", program), ("request", &case.request.text)],
    )
}

impl Check for SecondWay {
    fn name(&self) -> &'static str {
        "second-way"
    }
    fn cap(&self) -> u32 {
        1
    }
    fn judge(&self, case: &Case) -> Option<Finding> {
        // A place named by a bare word counts ("the newest file in my reports folder").
        let about_files = case.request.names_a_place();
        let computed = about_files || !values(&case.request.text).is_empty();
        // A task that asked the person something: sent back, the small model asks them
        // again (seen in the real-model test: "Which folder?" twice, then a wrong count).
        let asked_person = case.evidence.calls.iter().any(|c| c.tool == "ask_user");
        if !computed || asked_person {
            return None;
        }
        // A change: judged where it rests on something the task chose (a file found, a
        // value computed and written), as a question's answer is. Seen on the tune half:
        // "Count the lines in ~/invoice.txt and write the number into ~/count.txt", the
        // lines counted as `ls ~/invoice.txt | wc -l` (1), written and claimed.
        // What is judged, read once (a change's reads the files it wrote).
        let facts = facts(case);
        if !case.request.only_asks() && (!case.request.asks_change || facts.is_empty()) {
            return None;
        }
        // An answer about files that found nothing an output printed ("There are no
        // empty files", from a `grep` that printed "(standard input)"; "no file mentions
        // it", from a search of the names): nothing is borne out either.
        if facts.is_empty() && !about_files {
            return None;
        }
        // At the cap: what the last program printed, if one ran and printed anything;
        // otherwise (no program, one that failed or printed nothing) that it was not
        // confirmed: the answer rests on the one command the check doubts.
        let honest = Honest::After(match says(case, &facts) {
            ProgramSays::BearsOut => return None,
            ProgramSays::Differs(printed) => format!(
                "(I could not confirm this a second way: a Python program printed:\n{})",
                crate::text::shown(&printed, 400)
            ),
            ProgramSays::Nothing => UNCONFIRMED.to_string(),
        });
        Some(Finding {
            message: asked_for(case, &facts),
            honest,
        })
    }
}

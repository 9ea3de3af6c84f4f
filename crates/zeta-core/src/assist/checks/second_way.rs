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
//! Python) printed one of them. Once, it goes back asking for the program; an answer the
//! program's output does not bear out is then told with what the program printed. The
//! program never replaces the answer it was to check: where it does not bear it out, the
//! person reads that answer, doubted, whatever the model answered after it
//! (`Finishing::second_way_kept`; measured: a 1.5B model's program is no better than its
//! command, and taking its output turned right answers wrong). A program that did not
//! run, failed or printed nothing proves nothing either way: the answer is said to be
//! unconfirmed. An answer about files that
//! found nothing ("no file mentions it") is judged too: a program that prints a name or a
//! value the request and the answer do not hold puts it in doubt.
//!
//! The program gets one step of its own, which may only be a command (`only_commands`),
//! and the task ends after it (`Run::second_way_turn`): the model is not asked again.

use super::answers::tokens;
use super::{Case, Check, Finding, Honest};
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

/// `printed` bears out what the answer found: one of its facts.
fn bears(printed: &str, found: &[Fact]) -> bool {
    let words = tokens(printed);
    let printed_values = values(printed);
    found.iter().any(|fact| match fact {
        Fact::Value(v) => grounded(v, &[printed], &printed_values),
        Fact::Name(n) => words.contains(n),
    })
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
/// or one that computes from the values it gives.
fn asked_for(case: &Case) -> String {
    let (wrong, program) = if case.request.paths.is_empty() {
        (
            "a wrong formula, a wrong unit",
            "computes it itself from the values the request gives, reading no file",
        )
    } else {
        (
            "the wrong file, a header row, names instead of contents",
            "reads the files itself (each path written as os.path.expanduser('~/…'): Python does not read ~ by itself)",
        )
    };
    crate::prompts::fill(
        crate::prompts::CHECK_SECOND_WAY,
        &[("wrong", wrong), ("program", program)],
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
        let about_files = !case.request.paths.is_empty();
        let computed = about_files || !values(&case.request.text).is_empty();
        // A task that asked the person something: sent back, the small model asks them
        // again (seen in the real-model test: "Which folder?" twice, then a wrong count).
        let asked_person = case.evidence.calls.iter().any(|c| c.tool == "ask_user");
        if !case.request.only_asks() || !computed || asked_person {
            return None;
        }
        let found = found(case);
        // An answer about files that found nothing an output printed ("There are no
        // empty files", from a `grep` that printed "(standard input)"; "no file mentions
        // it", from a search of the names): nothing is borne out either.
        let nothing = found.is_empty();
        if nothing && !about_files {
            return None;
        }
        let printed: Vec<String> = case
            .evidence
            .ran()
            .filter(|c| c.ok && c.program)
            .map(|c| c.printed())
            .collect();
        // A program that printed nothing proves nothing, unless nothing is the answer.
        let programs: Vec<&String> = printed.iter().filter(|p| !p.trim().is_empty()).collect();
        let borne = if nothing {
            !printed.is_empty() && printed.iter().all(|p| bears_nothing(p, case))
        } else {
            programs.iter().any(|p| bears(p, &found))
        };
        if borne {
            return None;
        }
        // At the cap: what the last program printed, if one ran and printed anything;
        // otherwise (no program, one that failed or printed nothing) that it was not
        // confirmed: the answer rests on the one command the check doubts.
        let honest = Honest::After(match programs.last() {
            Some(printed) => format!(
                "(I could not confirm this a second way: a Python program printed:\n{})",
                crate::text::clip(printed.trim(), 400)
            ),
            None => UNCONFIRMED.to_string(),
        });
        Some(Finding {
            message: asked_for(case),
            honest,
        })
    }
}

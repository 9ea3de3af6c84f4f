//! Finishing what was asked (`verify`): whether an answer stands or goes back for a
//! check, what the next reply answers, and what the final answer is. The state lives in
//! one type, `Finishing`, changed only through its methods.
//!
//! An answer given before anything ran goes back once ("you have seen nothing"). An answer
//! that names the assistant where nothing it saw does (whoami printed `root`, the answer
//! said "zeta") goes back once, free of a model turn. After calls ran, one check per
//! stretch of new calls (two at most) quotes the request and what each call printed, but
//! only where it pays: when something was changed or the request asks for more than one
//! thing. A one-part question answered from read-only output stands (the check cost a
//! request per task and, in the benchmark, corrected none of those). In the planner
//! protocol the check is answered with a verdict; with native tools the model's next
//! answer stands. An empty final answer falls back to the answer under check, or the last
//! one the model wrote.

use super::planner::{Step, Verdict};
use super::prompt;

/// Verification turns per task at most.
const MAX_CHECKS: u32 = 2;

/// Which answers get the verification turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Checks {
    /// None (`verify: never`, or a model that needs none).
    Never,
    /// Those where it pays (a small model under `verify: auto`): after a change, or for a
    /// request that asks several things.
    WherePays,
    /// Every answer after new calls (`verify: always`).
    Always,
}

/// The answer being checked, if any, and how the check is answered.
#[derive(Debug, Clone, PartialEq, Eq)]
enum UnderCheck {
    /// No answer is being checked.
    Nothing,
    /// `answer` went back to the model; its next answer replaces it, unless empty.
    Sent { answer: String },
    /// Planner protocol: the next reply is a verdict on `answer`.
    AwaitingVerdict { answer: String },
}

/// A task's verification state.
#[derive(Debug)]
pub(super) struct Finishing {
    /// Which answers are checked in this task.
    checks_wanted: Checks,
    /// The planner (JSON) protocol: checks are answered with a verdict.
    planner: bool,
    /// An answer was sent back because nothing had run (once per task).
    pushed_back: bool,
    /// Checks so far, and how many calls had run at the last one.
    checks: u32,
    checked_at: Option<usize>,
    under_check: UnderCheck,
    /// The last non-empty answer the model wrote (planner protocol).
    last_written: Option<String>,
    /// Each call with the start of what it printed, for the check.
    seen: Vec<String>,
    /// A call that changes things ran.
    changed: bool,
    /// An answer went back for naming the assistant (once per task).
    named_self: bool,
    /// An answer went back for claiming a change no call made (once per task).
    claimed_change: bool,
}

impl Finishing {
    pub fn new(checks_wanted: Checks, planner: bool) -> Self {
        Self {
            checks_wanted,
            planner,
            pushed_back: false,
            checks: 0,
            checked_at: None,
            under_check: UnderCheck::Nothing,
            last_written: None,
            seen: Vec::new(),
            changed: false,
            named_self: false,
            claimed_change: false,
        }
    }

    /// A call ran: `line` is the call and the start of what it printed; `changed`: the
    /// call changes things (a write, a command that is not read-only).
    pub fn saw(&mut self, line: String, changed: bool) {
        self.seen.push(line);
        self.changed |= changed;
    }

    /// The model wrote `answer` (the planner's `reply`), kept for an empty final answer.
    pub fn wrote(&mut self, answer: String) {
        self.last_written = Some(answer);
    }

    /// `answer` says something was changed, but no call of the task changed anything.
    pub fn claims_unmade_change(&self, answer: &str) -> bool {
        !self.changed && claims_change(answer)
    }

    /// The next reply is a verdict (planner protocol), not a step.
    pub fn expects_verdict(&self) -> bool {
        matches!(self.under_check, UnderCheck::AwaitingVerdict { .. })
    }

    /// The model answered `answer` after `calls_run` calls of the task `request`: the
    /// message that sends it back for a check, or `None` when it stands.
    pub fn check(&mut self, request: &str, answer: &str, calls_run: usize) -> Option<String> {
        if self.checks_wanted == Checks::Never {
            return None;
        }
        let answer = answer.to_string();
        if calls_run == 0 {
            if self.pushed_back {
                return None;
            }
            self.pushed_back = true;
            self.under_check = UnderCheck::Sent { answer };
            return Some(prompt::nothing_run_prompt(self.planner));
        }
        if !self.named_self && names_self(request, &answer, &self.seen) {
            self.named_self = true;
            self.under_check = UnderCheck::Sent { answer };
            return Some(prompt::NAMED_SELF_PROMPT.to_string());
        }
        if !self.changed && !self.claimed_change && claims_change(&answer) {
            self.claimed_change = true;
            self.under_check = UnderCheck::Sent { answer };
            return Some(prompt::CLAIMED_CHANGE_PROMPT.to_string());
        }
        let pays = self.changed || asks_several_things(request);
        if self.checks_wanted == Checks::WherePays && !pays {
            return None;
        }
        if self.checked_at == Some(calls_run) || self.checks >= MAX_CHECKS {
            return None;
        }
        self.checks += 1;
        self.checked_at = Some(calls_run);
        if self.planner {
            let message = prompt::verdict_prompt(request, &self.seen, &answer);
            self.under_check = UnderCheck::AwaitingVerdict { answer };
            Some(message)
        } else {
            self.under_check = UnderCheck::Sent { answer };
            Some(prompt::verify_prompt(request, &self.seen))
        }
    }

    /// What the verdict on the answer under check means: a call to run (the answer is
    /// kept in case nothing better comes), the checked answer as the final one, or `Err`
    /// with the message that sends the model back to planning.
    pub fn verdict(&mut self, verdict: Verdict) -> Result<Step, String> {
        let answer = match std::mem::replace(&mut self.under_check, UnderCheck::Nothing) {
            UnderCheck::AwaitingVerdict { answer } | UnderCheck::Sent { answer } => answer,
            UnderCheck::Nothing => String::new(),
        };
        match verdict {
            Verdict::Continue(call) => {
                self.under_check = UnderCheck::Sent { answer };
                Ok(Step::Calls(vec![call]))
            }
            Verdict::Unfinished => {
                if !answer.is_empty() {
                    self.last_written = Some(answer);
                }
                Err(prompt::UNFINISHED_PROMPT.to_string())
            }
            Verdict::Finished { unable } => Ok(Step::Final(match unable {
                Some(unable) => format!("{answer}\n\nNot done: {unable}"),
                None => answer,
            })),
        }
    }

    /// The final answer when the model ends with `text`: `text`, or, when it is empty,
    /// the answer under check or the last one the model wrote.
    pub fn final_answer(&mut self, text: String) -> String {
        let earlier = match std::mem::replace(&mut self.under_check, UnderCheck::Nothing) {
            UnderCheck::Sent { answer } | UnderCheck::AwaitingVerdict { answer } => Some(answer),
            UnderCheck::Nothing => None,
        }
        .or_else(|| self.last_written.take());
        match earlier {
            Some(earlier) if text.trim().is_empty() => earlier,
            _ => text,
        }
    }
}

/// The assistant's name, which a small model mixes up with the user's.
const OWN_NAME: &str = "zeta";

/// The answer says "Zeta" though neither the request nor anything a call printed does,
/// and the request is not about the assistant ("who are you?").
fn names_self(request: &str, answer: &str, seen: &[String]) -> bool {
    let has = |text: &str, words: &[&str]| {
        text.to_lowercase()
            .split(|c: char| !c.is_alphanumeric())
            .any(|w| words.contains(&w))
    };
    let own = [OWN_NAME];
    has(answer, &own)
        && !has(request, &[OWN_NAME, "you", "your", "yourself"])
        && !seen.iter().any(|s| has(s, &own))
}

/// The request asks for more than one thing: several sentences (questions or orders:
/// "How many …? Write the number into …"), or parts joined by "and", "then", "also", a
/// comma or a semicolon.
fn asks_several_things(request: &str) -> bool {
    let text = format!(" {} ", request.to_lowercase());
    sentences(request) > 1
        || [" and ", " then ", " also ", ", ", "; ", " plus "]
            .iter()
            .any(|joint| text.contains(joint))
}

/// Sentences of two words or more: a `.`, `?` or `!` ends one only when a space or the
/// end follows, so the dots of `~/data/mid.csv` or `2.5` do not.
fn sentences(text: &str) -> usize {
    let mut count = 0;
    let mut words = 0;
    let mut chars = text.chars().peekable();
    let mut in_word = false;
    while let Some(c) = chars.next() {
        let ends = matches!(c, '.' | '?' | '!') && chars.peek().is_none_or(|n| n.is_whitespace());
        if c.is_alphanumeric() {
            if !in_word {
                words += 1;
            }
            in_word = true;
        } else if !matches!(c, '\'' | '-' | '_' | '/' | '~' | '.') {
            in_word = false;
        }
        if ends {
            in_word = false;
            if words >= 2 {
                count += 1;
            }
            words = 0;
        }
    }
    if words >= 2 {
        count += 1;
    }
    count
}

/// Words that say a change was made: "I wrote 4 into ~/answer.txt", "The folder has been
/// created", "~/count.txt now contains 3".
const CHANGE_VERBS: [&str; 16] = [
    "wrote", "written", "saved", "created", "moved", "copied", "renamed", "deleted", "removed",
    "appended", "added", "made", "put", "stored", "updated", "changed",
];

/// The answer says that something was changed, in the first person or the passive ("I
/// wrote", "I've saved", "has been created", "now contains"); a change described as a
/// fact of the files ("report.txt was created in 2024") is not a claim.
fn claims_change(answer: &str) -> bool {
    let words = crate::text::words(answer);
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    let verb = |w: &str| CHANGE_VERBS.contains(&w);
    words.windows(2).any(|pair| match pair {
        [subject, v] => {
            (matches!(*subject, "i" | "i've" | "i'd" | "we" | "we've") && verb(v))
                || (*subject == "been" && verb(v))
                || (*subject == "now" && matches!(*v, "contains" | "holds" | "has" | "reads"))
        }
        _ => false,
    }) || words.windows(3).any(|w| {
        matches!(w[0], "i" | "we") && matches!(w[1], "have" | "had" | "just" | "also") && verb(w[2])
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ToolCall;
    use serde_json::json;

    const REQUEST: &str = "How much free disk space do I have?";

    fn call() -> ToolCall {
        ToolCall {
            id: "call_1".into(),
            name: "shell".into(),
            arguments: json!({"command": "df -h /"}),
        }
    }

    #[test]
    fn without_verify_every_answer_stands() {
        for planner in [false, true] {
            let mut f = Finishing::new(Checks::Never, planner);
            for calls in [0, 1, 5] {
                assert_eq!(f.check(REQUEST, "42 GB", calls), None);
            }
            assert!(!f.expects_verdict());
            assert_eq!(f.final_answer("42 GB".into()), "42 GB");
        }
    }

    #[test]
    fn an_answer_before_anything_ran_goes_back_once() {
        for planner in [false, true] {
            let mut f = Finishing::new(Checks::WherePays, planner);
            let back = f.check(REQUEST, "You have 42 GB free.", 0);
            assert!(
                back.is_some_and(|m| m.contains("seen nothing")),
                "{planner}"
            );
            assert!(!f.expects_verdict(), "a push back is not a verdict turn");
            assert_eq!(f.check(REQUEST, "You have 42 GB free.", 0), None);
            // An empty confirmation keeps the answer that went back.
            assert_eq!(f.final_answer(String::new()), "You have 42 GB free.");
        }
    }

    #[test]
    fn a_check_per_stretch_of_calls_and_two_at_most() {
        for planner in [false, true] {
            let mut f = Finishing::new(Checks::WherePays, planner);
            f.saw("✓ shell df -h /\n   printed: 42G".into(), true);
            let first = f.check(REQUEST, "42 GB", 1);
            assert!(
                first.as_deref().is_some_and(|m| m.contains("df -h")),
                "{first:?}"
            );
            assert_eq!(f.expects_verdict(), planner);
            if planner {
                let _ = f.verdict(Verdict::Continue(call()));
            }
            assert_eq!(
                f.check(REQUEST, "42 GB", 1),
                None,
                "no new call: no new check"
            );
            assert!(
                f.check(REQUEST, "42 GB", 2).is_some(),
                "new calls: a second check"
            );
            if planner {
                let _ = f.verdict(Verdict::Continue(call()));
            }
            assert_eq!(f.check(REQUEST, "42 GB", 3), None, "two checks at most");
        }
    }

    #[test]
    fn verdicts_run_a_call_end_with_the_checked_answer_or_go_back_to_planning() {
        let checked = |f: &mut Finishing| {
            f.saw("✓ shell df -h /\n   printed: 42G".into(), true);
            assert!(f.check(REQUEST, "42 GB free", 1).is_some());
            assert!(f.expects_verdict());
        };
        let mut f = Finishing::new(Checks::WherePays, true);
        checked(&mut f);
        assert_eq!(
            f.verdict(Verdict::Continue(call())),
            Ok(Step::Calls(vec![call()]))
        );
        assert!(!f.expects_verdict());
        assert_eq!(f.final_answer(" ".into()), "42 GB free", "kept in case");

        let mut f = Finishing::new(Checks::WherePays, true);
        checked(&mut f);
        let done = f.verdict(Verdict::Finished { unable: None });
        assert_eq!(done, Ok(Step::Final("42 GB free".into())));
        let mut f = Finishing::new(Checks::WherePays, true);
        checked(&mut f);
        let unable = Some("the home folder's share".to_string());
        let done = f.verdict(Verdict::Finished { unable });
        assert_eq!(
            done,
            Ok(Step::Final(
                "42 GB free\n\nNot done: the home folder's share".into()
            ))
        );

        let mut f = Finishing::new(Checks::WherePays, true);
        checked(&mut f);
        assert_eq!(
            f.verdict(Verdict::Unfinished),
            Err(prompt::UNFINISHED_PROMPT.to_string())
        );
        assert!(!f.expects_verdict());
        assert_eq!(f.final_answer(String::new()), "42 GB free");
    }

    #[test]
    fn a_one_part_question_answered_from_read_only_output_stands() {
        for planner in [false, true] {
            let mut f = Finishing::new(Checks::WherePays, planner);
            f.saw("✓ shell df -h /\n   printed: 42G".into(), false);
            assert_eq!(f.check(REQUEST, "42 GB", 1), None, "{planner}");
            // Two things asked: checked, though nothing changed.
            let mut f = Finishing::new(Checks::WherePays, planner);
            f.saw("✓ shell df -h /\n   printed: 42G".into(), false);
            let two = "How much disk space is free, and which folder is largest?";
            assert!(f.check(two, "42 GB", 1).is_some(), "{planner}");
            // `verify: always` checks it all the same.
            let mut f = Finishing::new(Checks::Always, planner);
            f.saw("✓ shell df -h /\n   printed: 42G".into(), false);
            assert!(f.check(REQUEST, "42 GB", 1).is_some(), "{planner}");
        }
        for (request, several) in [
            ("How much free disk space do I have?", false),
            ("What is my user name?", false),
            ("Find the largest file and copy it to backup", true),
            (
                "Count the lines in a.txt, then write the count to b.txt",
                true,
            ),
            ("What time is it? What day?", true),
            ("List the files in ~/data", false),
            (
                "How many .log files are in ~/logs? Write the number into ~/answer.txt",
                true,
            ),
            ("Count the files. Save the count in n.txt.", true),
            ("Rename ~/data/mid.csv to ~/data/table.csv.", false),
            ("Is version 2.5 installed?", false),
            ("What is 1234 times 5678?", false),
            ("Hi!", false),
        ] {
            assert_eq!(asks_several_things(request), several, "{request}");
        }
    }

    /// Families of answers that claim a change and of answers that report facts: every
    /// claim is caught, no fact is taken for one.
    #[test]
    fn claimed_changes_are_told_from_reported_facts() {
        let mut claims = Vec::new();
        let subjects = [
            "I",
            "I've",
            "I have",
            "We",
            "I just",
            "we have",
            "I\u{2019}ve",
            "Done: I",
        ];
        let verbs = [
            "wrote", "written", "saved", "created", "moved", "copied", "renamed", "deleted",
            "removed", "appended", "added", "stored", "updated", "changed", "made", "put",
        ];
        let objects = [
            "4 into ~/answer.txt.",
            "the file ~/count.txt",
            "it",
            "the folder for you.",
        ];
        for subject in subjects {
            for verb in verbs {
                for object in objects {
                    claims.push(format!("There are 4 .log files. {subject} {verb} {object}"));
                }
            }
        }
        for verb in verbs {
            claims.push(format!("The number has been {verb} to ~/answer.txt."));
            claims.push(format!("All .log files have been {verb}."));
        }
        for v in ["contains", "holds", "reads"] {
            claims.push(format!("~/count.txt now {v} 3."));
        }
        let facts = [
            "There are 4 .log files in ~/logs.",
            "You have 60 GB free of 100 GB on /.",
            "The largest file in ~/data is big.bin (3.1 MB).",
            "report-2025.txt was created on 2025-01-02 and changed last week.",
            "The Gadget costs 19.99.",
            "Your user name is root.",
            "new.rs was modified most recently.",
            "5 lines in ~/app.log contain ERROR.",
            "Linux kernel 6.1.0-28-amd64 is running.",
            "I found 4 files and counted 12 lines.",
            "I checked ~/logs: it holds 3 files.",
            "I see 4 .txt files in ~/docs.",
            "The folder has 3 files; the newest was written yesterday.",
            "The cheapest item is the Widget at 2.50.",
            "25 December 2026 is a Friday.",
            "1234 times 5678 is 7006652.",
            "Which file do you mean: report-2025.txt or report-2026.txt?",
            "The file was saved by another program at 09:14.",
            "I could not find a file named report.txt.",
            "It is not done: the folder ~/backup does not exist.",
            "Files added to ~/inbox today: scan-0001.pdf.",
        ];
        let missed: Vec<&String> = claims.iter().filter(|c| !claims_change(c)).collect();
        let false_alarms: Vec<&&str> = facts.iter().filter(|f| claims_change(f)).collect();
        println!(
            "claims: {} ({} missed); facts: {} ({} false alarms)",
            claims.len(),
            missed.len(),
            facts.len(),
            false_alarms.len()
        );
        assert!(missed.is_empty(), "missed: {missed:?}");
        assert!(false_alarms.is_empty(), "false alarms: {false_alarms:?}");
    }

    #[test]
    fn a_claimed_change_with_no_change_goes_back_once_and_a_real_one_stands() {
        let request = "How many .log files are in ~/logs? Write the number into ~/answer.txt";
        let claim = "There are 4 .log files in ~/logs; I wrote 4 into ~/answer.txt.";
        for planner in [false, true] {
            let mut f = Finishing::new(Checks::WherePays, planner);
            f.saw(
                "✓ shell ls ~/logs/*.log | wc -l\n   printed: 4".into(),
                false,
            );
            let back = f.check(request, claim, 1).expect("sent back");
            assert!(
                back.contains("no command you ran changed anything"),
                "{back}"
            );
            // Once: the next answer after the same calls goes to the usual check.
            let again = f.check(request, claim, 1);
            assert!(again.is_none_or(|m| !m.contains("no command you ran")));
            // A task whose call wrote the file is not told it did not.
            let mut f = Finishing::new(Checks::WherePays, planner);
            f.saw("✓ shell echo 4 > ~/answer.txt".into(), true);
            let m = f.check(request, claim, 1);
            assert!(m.is_none_or(|m| !m.contains("no command you ran")));
            // verify: never keeps its word.
            let mut f = Finishing::new(Checks::Never, planner);
            assert_eq!(f.check(request, claim, 1), None);
        }
    }

    #[test]
    fn naming_the_assistant_instead_of_the_data_goes_back_once() {
        let mut f = Finishing::new(Checks::WherePays, true);
        f.saw("✓ shell whoami\n   printed: root".into(), false);
        let back = f.check("What is my user name?", "Your user name is Zeta.", 1);
        assert_eq!(back.as_deref(), Some(prompt::NAMED_SELF_PROMPT));
        assert!(!f.expects_verdict(), "no model verdict is needed");
        assert_eq!(f.check("What is my user name?", "It is zeta", 1), None);
        // Where the name is in the data, it stands.
        let mut f = Finishing::new(Checks::WherePays, true);
        f.saw("✓ shell whoami\n   printed: zeta".into(), false);
        assert_eq!(f.check("What is my user name?", "zeta", 1), None);
        let mut f = Finishing::new(Checks::WherePays, true);
        f.saw("✓ shell ls\n   printed: a b".into(), false);
        assert_eq!(f.check("Who are you?", "I am Zeta.", 1), None);
        assert_eq!(
            Finishing::new(Checks::WherePays, true).check("Hi", "Zetas are letters", 1),
            None
        );
    }

    #[test]
    fn a_non_empty_final_answer_always_wins() {
        let mut f = Finishing::new(Checks::WherePays, false);
        f.wrote("earlier".into());
        assert!(f.check(REQUEST, "first", 0).is_some());
        assert_eq!(f.final_answer("second".into()), "second");
        // What the model last wrote is still there for a later empty answer.
        assert_eq!(f.final_answer(String::new()), "earlier");
        let mut f = Finishing::new(Checks::Never, true);
        f.wrote("the planner's reply".into());
        assert_eq!(f.final_answer("\n".into()), "the planner's reply");
    }
}

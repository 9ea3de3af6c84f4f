//! Finishing what was asked: whether an answer stands, goes back to the model, or stands
//! with what the person must be told; what the next reply answers; and what the final
//! answer is. The state lives in one type, `Finishing`, changed only through its methods.
//!
//! Two kinds of check, in this order:
//! - the finisher's named checks (`assist::checks`), judged against the task's evidence
//!   (what its calls did to the files and printed) and the request parsed once: an
//!   answer before anything ran, the assistant's own name as data, a change the request
//!   orders that nothing made, a path it asks to be written that was not, a value no
//!   output printed, a question answered with nothing any output printed, a question
//!   about files or values answered from one way of computing it. Each sends an
//!   answer back at most its cap; past it, the answer stands with the facts said to the
//!   person (or, for a change nothing made, the facts instead of it). Each judgement is
//!   recorded by the check's name (`Finishing::take_record`).
//! - the verification turn (`self-check`), where it pays: after a change, or for a
//!   request of several parts the answer does not carry whole, one per stretch of new
//!   calls and two at most; not when the evidence bears out every change and nothing is
//!   asked to be told. In the planner protocol it is answered with a verdict; with native
//!   tools the model's next answer stands.
//!
//! Whatever ends the task, the final answer never carries Zeta's own messages to the
//! model (`own::OwnWords`: its rules, hints and checks, copied or said again), and an empty one falls back to the answer under check or the
//! last one the model wrote.

use zeta_protocol::CheckResult;

mod own;

pub(super) use own::{examples_of, rules_of};

use super::planner::{Step, Verdict};
use super::prompt;
use crate::assist::checks::{
    self, program_says, Case, Check, Finisher, Honest, Judged, ProgramSays,
};
use crate::assist::evidence::{CallEvidence, Evidence, Watch};
use crate::assist::request::Request;
use crate::policy::ShellEnv;

/// Verification turns per task at most.
const MAX_CHECKS: u32 = 2;

/// Which answers get the verification turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Checks {
    /// None (`verify: never`, or a model that needs none).
    Never,
    /// Those where it pays (a small model under `verify: auto`).
    WherePays,
    /// Every answer after new calls (`verify: always`).
    Always,
}

/// The answer being checked, if any, and how the check is answered.
#[derive(Debug, Clone, PartialEq, Eq)]
enum UnderCheck {
    Nothing,
    /// `answer` went back to the model; its next answer replaces it, unless empty.
    Sent {
        answer: String,
    },
    /// Planner protocol: the next reply is a verdict on `answer`.
    AwaitingVerdict {
        answer: String,
    },
}

/// One judgement of a named check, for the audit and the events.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct CheckRecord {
    pub check: &'static str,
    pub result: CheckResult,
    pub detail: String,
}

/// A task's finishing state.
pub(super) struct Finishing {
    checks_wanted: Checks,
    /// The planner (JSON) protocol: checks are answered with a verdict.
    planner: bool,
    request: Request,
    env: ShellEnv,
    evidence: Evidence,
    finisher: Finisher,
    /// Verification turns so far, and how many calls had run at the last one.
    checks: u32,
    checked_at: Option<usize>,
    under_check: UnderCheck,
    /// The last non-empty answer the model wrote (planner protocol).
    last_written: Option<String>,
    /// A call was held back (denied, refused, not approved).
    held_back: bool,
    /// Why the loop stopped the task while the model was still acting (`stopped`).
    stopped: Option<String>,
    /// The window on screen the task is about, read for the model (`on_screen`).
    window: Option<String>,
    /// A question the model asked that nobody answered, said with the answer.
    unanswered: Option<String>,
    nobody_answers: bool,
    /// Zeta's own words to the model (its rules, hints and checks): never part of an
    /// answer.
    own: own::OwnWords,
    /// Judgements not yet taken by the run.
    record: Vec<CheckRecord>,
    /// Checks turned off by name (`without`).
    off: Vec<String>,
    /// The answer `second-way` sent back for a program: the one the person reads, with
    /// what the program printed when that does not bear it out (a small model's program
    /// is no better than its command: it may not replace an answer, only put it in doubt;
    /// and sent back, it lost right answers: "Thursday" for a date became "The file does
    /// not exist" after a program that read a file nobody named).
    checked_second_way: Option<String>,
    /// The answer the first way gave, where two ways disagreed and the model took the
    /// program's side: the person reads that the answer was not confirmed, with it (one
    /// way against the other is no confirmation; seen: a count of 1 from a listing, 4
    /// from the program, the truth 5).
    disagreed: Option<String>,
    /// `second-way` sent the answer back: the next step is the program (a call, never an
    /// answer), and the task ends after it (`second_way_turn`).
    program_next: bool,
    /// The message that asks for a question's program in a conversation of its own
    /// (`take_apart`), where `second-way` sent its answer back; none where the program
    /// is asked for in the task's conversation (a change's, or with `second-way-apart`
    /// off).
    apart: Option<String>,
    /// The program was asked for apart: the model that judges two ways is shown it.
    written_apart: bool,
    /// The answer went back for a check that an act answers: the next step calls a tool.
    act_next: bool,
    /// Zeta's own folder: what changes there is no effect of a call (`own_home`).
    own_home: Option<std::path::PathBuf>,
}

impl Finishing {
    pub fn new(checks_wanted: Checks, planner: bool, request: Request, env: ShellEnv) -> Self {
        let own = own::OwnWords::quoting(&request.text);
        Self {
            checks_wanted,
            planner,
            request,
            env,
            evidence: Evidence::default(),
            finisher: Finisher::new(checks::standard()),
            checks: 0,
            checked_at: None,
            under_check: UnderCheck::Nothing,
            last_written: None,
            held_back: false,
            stopped: None,
            window: None,
            unanswered: None,
            nobody_answers: false,
            own,
            record: Vec::new(),
            off: Vec::new(),
            checked_second_way: None,
            disagreed: None,
            program_next: false,
            apart: None,
            written_apart: false,
            act_next: false,
            own_home: None,
        }
    }

    /// Zeta's own folder is `folder`: its database and logs, written while a call runs,
    /// are not the call's effects.
    pub fn own_home(mut self, folder: Option<&std::path::Path>) -> Self {
        self.own_home = folder.map(std::path::Path::to_path_buf);
        self
    }

    /// The same, without the checks named in `off` (a measuring aid); `self-check` names
    /// the verification turn.
    pub fn without(mut self, off: &[String]) -> Self {
        self.finisher = Finisher::new(checks::standard_without(off));
        self.off = off.to_vec();
        if off.iter().any(|o| o == "self-check") {
            self.checks_wanted = Checks::Never;
        }
        self
    }

    /// A look at what a call that can change things could touch, before it runs.
    pub fn watch(&self, arguments: &serde_json::Value) -> Watch {
        let named: Vec<std::path::PathBuf> = self
            .request
            .paths
            .iter()
            .map(|p| p.path.clone())
            .chain(
                self.request
                    .targets
                    .iter()
                    .flat_map(|t| t.paths.iter().cloned()),
            )
            .collect();
        let watch = Watch::before(arguments, &named, &self.env);
        match &self.own_home {
            Some(own) => watch.leaving_out(own),
            None => watch,
        }
    }

    /// The loop stopped the task for `why` (its calls kept failing, the step limit)
    /// while the model was still acting: the answer it writes now is judged knowing it.
    pub fn stopped(&mut self, why: &str) {
        self.stopped = Some(why.to_string());
    }

    /// A worked example's answer in the model's prompt (`OwnWords::example`).
    pub fn example(&mut self, reply: &str) {
        self.own.example(reply);
    }

    /// The task is about the window titled `title` ("" for the active one), read for the
    /// model: it is on screen.
    pub fn on_screen(&mut self, title: &str) {
        self.window = Some(title.to_string());
    }

    /// The request was met in a window by an act that closed it (a dialog answered),
    /// and an act aimed at that window since failed: the window. Seen: OK pressed after
    /// both boxes the request names were ticked, the dialog closed, then four presses at
    /// numbers of the window that was gone. A window still open is never said done
    /// (seen: the password typed, then a press of Cancel refused, and "confirm it" is
    /// no element the request names).
    pub fn met_then_failed(&self) -> Option<String> {
        let calls = &self.evidence.calls;
        let (last, earlier) = calls.split_last()?;
        let failed = last.ran && !last.ok && super::screen::UI_TOOLS.contains(&last.tool.as_str());
        if !failed {
            return None;
        }
        Evidence::last_act_of(earlier)
            .filter(|rb| rb.met() && rb.closed)
            .filter(|rb| {
                last.read_back
                    .as_ref()
                    .is_some_and(|l| l.window == rb.window)
            })
            .filter(|_| self.values_unentered().is_empty())
            .map(|rb| rb.window.clone())
    }

    /// The values the request gives (by their shape, `checks::ValueNotEntered`) that no
    /// act of the task entered or chose. A window closed with every element the request
    /// names acted on is not done while one is left (seen: "Type Lisbon into the City
    /// dialog and press OK" — its field is "Your city", which the request does not name
    /// — OK pressed first, the dialog closed empty, and "Done in the window "City"").
    fn values_unentered(&self) -> Vec<String> {
        let case = Case {
            request: &self.request,
            answer: "",
            evidence: &self.evidence,
            held_back: self.held_back,
            stopped: self.stopped.as_deref(),
            window: self.window.as_deref(),
            env: &self.env,
        };
        checks::ValueNotEntered::unentered(&case)
    }

    /// What was done in `window`, which closed: its acts that went through, one a line.
    pub fn done_in(&self, window: &str) -> String {
        self.said_done(window, true)
    }

    /// What was done in `window`: its acts, after which it closed (`closed`), its file
    /// was saved, or it showed the result of what was keyed in.
    fn said_done(&self, window: &str, closed: bool) -> String {
        let keyed = self.evidence.last_act().is_some_and(|rb| rb.keyed);
        let how = if closed {
            "which closed after"
        } else if keyed {
            "which shows the result of"
        } else {
            "its file saved by"
        };
        format!(
            "Done in the window \"{window}\", {how} the last of these:\n{}",
            self.acts_in(window).join("\n")
        )
    }

    /// What the task did, for the person, when the model's answer cannot be shown: where
    /// the last act on a window met the request and closed it, what was done there (seen:
    /// "I could not give a complete answer" after Large was chosen and OK pressed); else
    /// the calls and the last output (`checks::account`).
    fn account(&self) -> String {
        match self.evidence.last_act() {
            Some(rb) if rb.met() && rb.closed && self.values_unentered().is_empty() => {
                self.done_in(&rb.window)
            }
            // Done in a window still open, its file written by the last act (seen: a
            // worked example's answer as the whole answer after FeatherPad's line was
            // added and saved, and "I could not give a complete answer").
            Some(rb) if self.done_in_window() && self.values_unentered().is_empty() => {
                self.said_done(&rb.window, false)
            }
            _ => checks::account(&self.evidence),
        }
    }

    /// The acts in `window` that went through and that it did not contradict, one a
    /// line ("- table cell "Large" in "Size": press it").
    pub fn acts_in(&self, window: &str) -> Vec<String> {
        self.evidence
            .calls
            .iter()
            .filter(|c| c.ran && c.ok)
            .filter_map(|c| c.read_back.as_ref())
            .filter(|rb| rb.window == window && !matches!(rb.shown, crate::tool::Shown::No(_)))
            .map(|rb| format!("- {}: {}", rb.element, rb.intended))
            .collect()
    }

    /// An act on a window went through in this task (a call with a read-back ran).
    pub fn acted_in_window(&self) -> bool {
        self.evidence
            .calls
            .iter()
            .any(|c| c.ran && c.read_back.is_some())
    }

    /// The last call observed was an act that did what the request asks in its window,
    /// as far as the evidence tells: every element the request names there acted on, the
    /// window not contradicting it, no step of the request left there (`ReadBack::met`,
    /// `left`), and the window closed (a dialog answered) or the file its title names
    /// written by this very act (an editor's Save). What is left is the answer.
    pub fn done_in_window(&self) -> bool {
        crate::assist::checks::done_in_window(&self.evidence.calls, &self.env.home, &self.env.cwd)
    }

    /// A call of the task went as `call` says.
    pub fn observed(&mut self, call: CallEvidence) {
        if call.held && call.changes {
            self.held_back = true;
        }
        // The shell's hints come back inside the output, but they are Zeta's words.
        let hints: Vec<String> = own::hints(&call.output)
            .into_iter()
            .map(str::to_string)
            .collect();
        for hint in &hints {
            self.said(hint);
        }
        // A call that did not run printed nothing: what came back is the gate's message,
        // Zeta's own words (seen: a denial's "Do not retry it as it is; ask the user or
        // take another way." given back as the whole answer).
        // A window's texts came from it; the words around them are the window tool's
        // own (its read-back, what the request names and which was acted on: seen as a
        // whole answer, "The request names: [2] button 'OK' (acted on). Every element it
        // names has been acted on: …").
        if let Some(shows) = call.shows.as_deref().filter(|_| call.ran) {
            self.own.elsewhere(shows);
            self.said(&call.output);
        } else if call.ran {
            self.own.elsewhere(&own::without_hints(&call.output));
        } else {
            self.said(&call.output);
        }
        self.evidence.push(call);
    }

    /// Zeta sent the model `text` of its own (its rules, a hint, a check): never part of
    /// an answer. What the message quotes (the request, the outputs, the model's own
    /// words) is not Zeta's.
    pub fn said(&mut self, text: &str) {
        self.own.add(text);
    }

    /// A shell command that pipes files' names into a program where their contents were
    /// meant (`assist::names_piped`), for a model whose answers are checked, unless
    /// `names-piped` is turned off: run with the contents instead where it can be written
    /// so, else said with its output. Seen on the tune half: `ls ~/invoice.txt | wc -l`
    /// (1) written as the file's line count, and `ls ~/q3.csv | cut -d, -f2 | sort | uniq
    /// | wc -l` as its distinct cities; told after the output, the model wrote the 1.
    pub fn names_piped(
        &self,
        tool: &str,
        arguments: &serde_json::Value,
    ) -> Option<crate::assist::names_piped::Piped> {
        if self.checks_wanted == Checks::Never
            || tool != "shell"
            || self.off.iter().any(|o| o == "names-piped")
        {
            return None;
        }
        let command = arguments.get("command")?.as_str()?;
        crate::assist::names_piped::find(command, &self.env)
    }

    /// A call's places read where they are, for a model whose answers are checked, each
    /// reading unless turned off by its name: a command's, a program's or a file tool's
    /// paths written in a home that is not the person's, read in theirs where theirs
    /// holds them (`other-homes`, `assist::other_homes`; seen on the tune half: `ls
    /// /home/user/projects/*` for "my projects folder", every run), then a file the
    /// request names given to a reader where it is not (`named-files`,
    /// `assist::named_files`; seen: `grep -i WARN /var/log/server.log | wc -l` for "my
    /// server.log", two tasks in three). The arguments as they run, and how they were
    /// read.
    pub fn places(
        &self,
        tool: &str,
        arguments: &serde_json::Value,
    ) -> Option<(serde_json::Value, String)> {
        if self.checks_wanted == Checks::Never {
            return None;
        }
        let on = |name: &str| !self.off.iter().any(|o| o == name);
        let homes = on("other-homes")
            .then(|| crate::assist::other_homes::find(arguments, &self.env))
            .flatten()
            .map(|read| {
                let note = read.note(&self.env);
                (read.arguments, note)
            });
        let (arguments, mut notes) = match homes {
            Some((read, note)) => (read, vec![note]),
            None => (arguments.clone(), Vec::new()),
        };
        let named = (on("named-files") && tool == "shell")
            .then(|| {
                let command = arguments.get("command")?.as_str()?;
                crate::assist::named_files::find(command, &self.request, &self.env)
            })
            .flatten();
        let arguments = match named {
            Some(named) => {
                let (command, note) = named.read_as();
                notes.push(note);
                let mut read = arguments;
                read["command"] = serde_json::Value::String(command);
                read
            }
            None => arguments,
        };
        (!notes.is_empty()).then(|| (arguments, notes.join("\n")))
    }

    /// A shell command another reading runs in the model's place, for a model whose
    /// answers are checked, each unless turned off by its name: awk's arithmetic on a
    /// field that holds no number, run on the file's one field of numbers
    /// (`text-fields`, `assist::text_fields`; seen on the tune half: `awk -F, '{sum +=
    /// $2}' ~/sales.csv`, the items summed as 0, three tasks in three), and grep run by
    /// find on one file at a time, run with `-H` (`unnamed-matches`,
    /// `assist::unnamed_matches`; seen: "The file ~/reports contains the text …"). The
    /// command to run, and how it was read.
    pub fn read_as(&self, tool: &str, arguments: &serde_json::Value) -> Option<(String, String)> {
        if self.checks_wanted == Checks::Never || tool != "shell" {
            return None;
        }
        let command = arguments.get("command")?.as_str()?;
        let on = |name: &str| !self.off.iter().any(|o| o == name);
        on("text-fields")
            .then(|| crate::assist::text_fields::find(command, &self.env).map(|t| t.read_as()))
            .flatten()
            .or_else(|| {
                on("unnamed-matches")
                    .then(|| crate::assist::unnamed_matches::find(command, &self.env))
                    .flatten()
                    .map(|u| u.read_as())
            })
    }

    /// The columns a shell command reads by number, named by the first line of the file
    /// it reads, for a model whose answers are checked, unless `column-names` is turned
    /// off (`assist::text_fields::columns`): said with the output, the command run as
    /// written.
    pub fn columns(&self, tool: &str, arguments: &serde_json::Value) -> Option<String> {
        if self.checks_wanted == Checks::Never
            || tool != "shell"
            || self.off.iter().any(|o| o == "column-names")
        {
            return None;
        }
        let command = arguments.get("command")?.as_str()?;
        crate::assist::text_fields::columns::find(command, &self.env).map(|c| c.note())
    }

    /// What the files the request asks text to be written into hold now, after a call
    /// created or changed them (`effects`): the read-back the model sees with the call's
    /// output, so "I wrote 35 into ~/count.txt" can be held against `35 /home/me/a.txt`.
    /// Short text files only, their first lines.
    pub fn written_now(&self, effects: &[crate::assist::evidence::Effect]) -> Option<String> {
        use crate::assist::evidence::Effect;
        const MOST_BYTES: u64 = 64 * 1024;
        const SHOWN_CHARS: usize = 300;
        let wanted: Vec<&std::path::PathBuf> = self
            .request
            .targets
            .iter()
            .filter(|t| t.wants_text)
            .flat_map(|t| t.paths.iter())
            .collect();
        let lines: Vec<String> = effects
            .iter()
            .filter_map(|e| match e {
                Effect::Created(p) | Effect::Changed(p) if wanted.contains(&p) => Some(p),
                _ => None,
            })
            .filter_map(|path| {
                let meta = std::fs::metadata(path).ok()?;
                if !meta.is_file() || meta.len() > MOST_BYTES {
                    return None;
                }
                let text = String::from_utf8(std::fs::read(path).ok()?).ok()?;
                let shown = if text.is_empty() {
                    " nothing (it is empty)".to_string()
                } else {
                    format!(
                        "\n{}",
                        crate::text::clip(text.trim_end_matches('\n'), SHOWN_CHARS)
                    )
                };
                let name = crate::assist::request::tilde(path, &self.env);
                Some(format!("After this call, {name} holds:{shown}"))
            })
            .collect();
        (!lines.is_empty()).then(|| lines.join("\n"))
    }

    /// The model wrote `text` (a reply, whatever it was read as).
    pub fn heard(&mut self, text: &str) {
        self.own.elsewhere(text);
    }

    /// The model asked `question` and no answer came: the final answer ends with it.
    pub fn went_unanswered(&mut self, question: String) {
        self.unanswered = Some(question);
        self.nobody_answers = true;
    }

    /// A question of this task already went unanswered: asking again is pointless.
    pub fn nobody_answers(&self) -> bool {
        self.nobody_answers
    }

    /// The model wrote `answer` (the planner's `reply`), kept for an empty final answer.
    pub fn wrote(&mut self, answer: String) {
        self.last_written = Some(answer);
    }

    /// The next reply is a verdict (planner protocol), not a step.
    /// Whether the next step must call a tool (an act answers the check that sent the
    /// answer back: `Check::answered_by_acting`); asked once, then false.
    pub fn take_act_next(&mut self) -> bool {
        std::mem::take(&mut self.act_next)
    }

    /// The next step is the program `second-way` asked for: it may only be a shell
    /// command (`grammar::only_commands`).
    pub fn take_program_next(&mut self) -> bool {
        std::mem::take(&mut self.program_next)
    }

    /// `second-way` sent the answer back for a program: the step that follows is that
    /// program's turn, the only one it gets. The task ends after it with the answer that
    /// was checked (`final_answer`), whatever the model would say next.
    pub fn second_way_turn(&self) -> bool {
        self.checked_second_way.is_some()
    }

    /// Where `second-way` sent a question's answer back: the message that asks for its
    /// program in a conversation of its own, with nothing of the first way in it
    /// (`checks::asked_apart`). Taken once.
    pub fn take_apart(&mut self) -> Option<String> {
        let apart = self.apart.take()?;
        self.said(&apart);
        self.written_apart = true;
        Some(apart)
    }

    /// After the second way's program: the message that asks the model, once and with
    /// no tools, which of two ways that disagree is right, when a program printed
    /// something that does not bear out the answer it was to check.
    pub fn two_ways_differ(&mut self) -> Option<String> {
        // A change's files hold what its first way wrote: no answer may say otherwise.
        if !self.request.only_asks() {
            return None;
        }
        let checked = self.checked_second_way.as_deref()?;
        let ProgramSays::Differs(printed) = program_says(&self.case(checked)) else {
            return None;
        };
        // Written apart, the program is not in the conversation the model answers in:
        // it is shown.
        let program = self
            .written_apart
            .then(|| {
                self.evidence
                    .ran()
                    .filter_map(|c| c.program.as_deref())
                    .last()
            })
            .flatten()
            .map(|program| crate::text::clip(program, 1200));
        let template = match program {
            Some(_) => crate::prompts::CHECK_SECOND_WAY_DIFFERS_APART,
            None => crate::prompts::CHECK_SECOND_WAY_DIFFERS,
        };
        let message = crate::prompts::fill(
            template,
            &[
                ("answer", checked),
                ("program", program.as_deref().unwrap_or_default()),
                ("printed", &crate::text::clip(&printed, 400)),
                ("request", &self.request.text),
            ],
        );
        self.record.push(CheckRecord {
            check: checks::SecondWay.name(),
            result: CheckResult::SentBack,
            detail: crate::text::clip(&message, 300),
        });
        Some(message)
    }

    /// The model answered `again` when asked which of two ways is right: it becomes the
    /// answer only where a program's output bears it out (seen: "5 distinct cities" from
    /// a count of a header too, the program's 4 beside it), and the person reads what the
    /// other way gave beside it (`disagreed`); otherwise the answer that was checked
    /// stands, with what the program printed.
    pub fn second_way_again(&mut self, again: &str) {
        self.heard(again);
        let again = again.trim();
        let borne = !again.is_empty()
            && program_says(&self.case(again)) == ProgramSays::BearsOut
            && self.own.strip(again).is_none();
        if borne {
            self.record.push(CheckRecord {
                check: checks::SecondWay.name(),
                result: CheckResult::Told,
                detail: "two ways disagreed; the answer the program bears out is the one shown"
                    .into(),
            });
            self.disagreed = self.checked_second_way.take();
            self.checked_second_way = Some(again.to_string());
        }
    }

    pub fn expects_verdict(&self) -> bool {
        matches!(self.under_check, UnderCheck::AwaitingVerdict { .. })
    }

    /// The judgements made since the last call, oldest first.
    pub fn take_record(&mut self) -> Vec<CheckRecord> {
        std::mem::take(&mut self.record)
    }

    fn case<'a>(&'a self, answer: &'a str) -> Case<'a> {
        Case {
            request: &self.request,
            answer,
            evidence: &self.evidence,
            held_back: self.held_back,
            stopped: self.stopped.as_deref(),
            window: self.window.as_deref(),
            env: &self.env,
        }
    }

    /// The model answered `answer` after `calls_run` calls: the message that sends it
    /// back, or `None` when it stands.
    pub fn check(&mut self, answer: &str, calls_run: usize) -> Option<String> {
        self.heard(answer);
        // A question went unanswered: the answer cannot be complete, and a check would
        // only push the model to guess (seen: it renamed a file to a name it made up).
        if self.nobody_answers && calls_run > 0 {
            return None;
        }
        let case = Case {
            request: &self.request,
            answer,
            evidence: &self.evidence,
            held_back: self.held_back,
            stopped: self.stopped.as_deref(),
            window: self.window.as_deref(),
            env: &self.env,
        };
        // Where a model gets no checks, only those that are part of doing its kind of
        // task (`Check::part_of_the_task`).
        let judged = if self.checks_wanted == Checks::Never {
            match self.finisher.judge_where(&case, |c| c.part_of_the_task()) {
                Judged::Back { check, message } => Judged::Back { check, message },
                _ => return None,
            }
        } else {
            self.finisher.judge(&case)
        };
        match judged {
            Judged::Back { check, message } => {
                if check == checks::SecondWay.name() {
                    self.checked_second_way = Some(answer.to_string());
                    self.program_next = true;
                    let apart = self.request.only_asks()
                        && !self.off.iter().any(|o| o == "second-way-apart");
                    if apart {
                        let case = self.case(answer);
                        self.apart = Some(checks::asked_apart(&case));
                    }
                }
                self.act_next = self.finisher.answered_by_acting(check);
                let message = if check == "nothing-ran" {
                    prompt::nothing_run_prompt(self.planner)
                } else if let Some(apart) = &self.apart {
                    // What the model is asked, in a conversation of its own.
                    apart.clone()
                } else {
                    message
                };
                self.record.push(CheckRecord {
                    check,
                    result: CheckResult::SentBack,
                    detail: crate::text::clip(&message, 300),
                });
                self.said(&message);
                self.under_check = UnderCheck::Sent {
                    answer: answer.to_string(),
                };
                return Some(message);
            }
            // Told to the person with the final answer (`final_answer` judges again).
            Judged::Honest(_) => return None,
            Judged::Stands => {}
        }
        self.verification(answer, calls_run)
    }

    /// The verification turn, where it pays.
    fn verification(&mut self, answer: &str, calls_run: usize) -> Option<String> {
        // Nothing to verify by asking: no call ran, or the last act did what the request
        // asks in its window as the window and the files show it (seen: FeatherPad's
        // line added and saved, the answer verified, and `echo 2 > list.txt` run as the
        // part "not done").
        if calls_run == 0 || self.done_in_window() {
            return None;
        }
        // A request that only asks: a call that could change things (a Python program
        // that reads files, say) changed nothing the evidence shows, and nothing was asked
        // to change.
        let changed = self.evidence.effects().next().is_some()
            || self.evidence.changed_ok() && !self.request.only_asks();
        // Every change the request orders is borne out by the files (the finisher's
        // checks passed and something changed): checked where it matters, unless the
        // request also asks to be told something, which no file shows.
        let borne_out = self.request.asks_change
            && self.evidence.effects().next().is_some()
            && !self.request.targets.is_empty();
        let last_output = self
            .evidence
            .calls
            .last()
            .filter(|c| c.ran && c.ok)
            .map(|c| c.output.as_str())
            .unwrap_or("");
        let pays = if borne_out {
            self.request.several() && self.request.asks_to_be_told
        } else {
            changed || (self.request.several() && !carries(answer, last_output, self.request.parts))
        };
        if self.checks_wanted == Checks::WherePays && !pays {
            return None;
        }
        if self.checked_at == Some(calls_run) || self.checks >= MAX_CHECKS {
            return None;
        }
        self.checks += 1;
        self.checked_at = Some(calls_run);
        let steps: Vec<String> = self
            .evidence
            .calls
            .iter()
            .map(|c| {
                format!(
                    "{}\n   printed: {}",
                    c.line,
                    crate::text::clip(&c.output.replace('\n', " | "), 300)
                )
            })
            .collect();
        let message = if self.planner {
            let message = prompt::verdict_prompt(&self.request.text, &steps, answer);
            self.under_check = UnderCheck::AwaitingVerdict {
                answer: answer.to_string(),
            };
            message
        } else {
            self.under_check = UnderCheck::Sent {
                answer: answer.to_string(),
            };
            prompt::verify_prompt(&self.request.text, &steps)
        };
        self.record.push(CheckRecord {
            check: "self-check",
            result: CheckResult::SentBack,
            detail: String::new(),
        });
        self.said(&message);
        Some(message)
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

    /// The final answer when the model ends with `text`: `text` (or, when it is empty,
    /// the answer under check or the last one the model wrote), without Zeta's own
    /// messages, with what the checks that still fail must tell the person, and with a
    /// question nobody answered.
    pub fn final_answer(&mut self, text: String) -> String {
        let earlier = match std::mem::replace(&mut self.under_check, UnderCheck::Nothing) {
            UnderCheck::Sent { answer } | UnderCheck::AwaitingVerdict { answer } => Some(answer),
            UnderCheck::Nothing => None,
        }
        .or_else(|| self.last_written.take());
        let text = match earlier {
            Some(earlier) if text.trim().is_empty() => earlier,
            _ => text,
        };
        let text = self.second_way_kept(text);
        // Zeta's marks around data are its own text too (what they held stays).
        let text = match crate::policy::injection::without_untrusted_marks(&text) {
            Some(unmarked) => {
                self.record.push(CheckRecord {
                    check: "internal-text",
                    result: CheckResult::Told,
                    detail: "Zeta's marks around data were taken out".into(),
                });
                unmarked
            }
            None => text,
        };
        // A worked example's answer said again, in a task that gave none of it.
        let text = {
            let mut sources: Vec<String> = self.evidence.printed_not_echoed();
            sources.push(self.request.text.clone());
            let sources: Vec<&str> = sources.iter().map(String::as_str).collect();
            match self.own.strip_examples(&text, &sources) {
                Some(kept) => {
                    self.record.push(CheckRecord {
                        check: "internal-text",
                        result: CheckResult::Told,
                        detail: "a worked example's answer from Zeta's prompt was left out".into(),
                    });
                    if kept.trim().is_empty() {
                        self.account()
                    } else {
                        kept
                    }
                }
                None => text,
            }
        };
        let mut text = match self.own.strip(&text) {
            Some(kept) => {
                self.record.push(CheckRecord {
                    check: "internal-text",
                    result: CheckResult::Told,
                    detail: "a copy of Zeta's own message to the model was left out".into(),
                });
                // What is left gives no value: what the task found says more.
                if crate::assist::values::values(&kept).is_empty() {
                    self.account()
                } else {
                    kept
                }
            }
            None => text,
        };
        text = self.told(text);
        if let Some(first) = self.disagreed.take() {
            let first = crate::policy::injection::without_untrusted_marks(&first).unwrap_or(first);
            text = format!(
                "{text}\n\n(I could not confirm this: computed another way, the answer was: {})",
                crate::text::clip(first.trim(), 300)
            );
        }
        if let Some(question) = self.unanswered.take() {
            if !text.contains(question.trim()) {
                text = format!("{text}\n\nI needed to ask you: {question} (no answer came)");
            }
        }
        text
    }

    /// The answer `second-way` checked, instead of `text`: the person reads it, with what
    /// the program printed when that does not bear it out (`told`), whatever the model
    /// answered after the program.
    fn second_way_kept(&mut self, text: String) -> String {
        let Some(checked) = self.checked_second_way.take() else {
            return text;
        };
        if checked != text {
            self.record.push(CheckRecord {
                check: checks::SecondWay.name(),
                result: CheckResult::Told,
                detail: "the answer the program was to check is the one shown".into(),
            });
            return checked;
        }
        text
    }

    /// `text` with what every check that still fails must tell the person.
    fn told(&mut self, text: String) -> String {
        // After an unanswered question the answer cannot be complete: it says so itself.
        if self.nobody_answers {
            return text;
        }
        // Without checks (`verify: never`, a model that needs none) the person is still
        // told of a change the evidence does not show; values are left to the model.
        let all = self.checks_wanted != Checks::Never;
        let findings: Vec<(&'static str, Honest)> = checks::standard_without(&self.off)
            .iter()
            .filter(|c| all || c.of_effects())
            .filter_map(|c| c.judge(&self.case(&text)).map(|f| (c.name(), f.honest)))
            .collect();
        let mut text = text;
        // What is said before the answer, in the checks' order.
        let mut before: Vec<String> = Vec::new();
        for (check, honest) in findings {
            let detail = match honest {
                Honest::Stands => continue,
                Honest::Before(t) => {
                    before.push(t.clone());
                    t
                }
                Honest::After(t) => {
                    text = format!("{text}\n\n{t}");
                    t
                }
                // Said instead of the answer (and of what was to be said before it): the
                // other checks judged an answer that is gone.
                Honest::Instead(t) => {
                    before.clear();
                    text = t.clone();
                    self.record.push(CheckRecord {
                        check,
                        result: CheckResult::Told,
                        detail: crate::text::clip(&t, 300),
                    });
                    break;
                }
            };
            self.record.push(CheckRecord {
                check,
                result: CheckResult::Told,
                detail: crate::text::clip(&detail, 300),
            });
        }
        if before.is_empty() {
            text
        } else {
            format!("{}\n\n{text}", before.join("\n\n"))
        }
    }
}

/// Lines and words of an output `carries` judges at most.
const CARRIED_LINES: usize = 3;
const CARRIED_WORDS: usize = 12;

/// The answer repeats every word and number of the last command's short output, which
/// has a word for each of the request's `parts` ("Widget: 4.50 EUR" for "Which item is
/// the cheapest, and what does it cost?", answered "The cheapest is Widget, at 4.50
/// EUR"): nothing that command found is left out, and it found enough for each part, so
/// the question needs no check turn (it cost ~7 s). An answer that leaves a part out
/// ("It costs 4.50 EUR"), or one from a command that printed one word for a request of
/// two parts ("root" for "my user name and the free disk space"), still gets one. The
/// shell's own lines (`exit code 0`, `stdout:`, a hint in parentheses) are not the
/// output; one with `stderr:`, or longer than three lines or twelve words, is not judged.
fn carries(answer: &str, output: &str, parts: usize) -> bool {
    let answer = answer.to_lowercase();
    let lines: Vec<&str> = output
        .lines()
        .map(str::trim)
        .filter(|l| {
            !l.is_empty() && *l != "stdout:" && !l.starts_with("exit code ") && !l.starts_with('(')
        })
        .collect();
    let words: Vec<String> = lines
        .iter()
        .flat_map(|l| l.split(|c: char| c.is_whitespace() || ",;:=|".contains(c)))
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .filter(|w| !w.is_empty())
        .collect();
    !output.lines().any(|l| l.trim() == "stderr:")
        && (1..=CARRIED_LINES).contains(&lines.len())
        && (parts.max(1)..=CARRIED_WORDS).contains(&words.len())
        && words.iter().all(|w| answer.contains(w.as_str()))
}

#[cfg(test)]
mod tests;

//! Zeta's own words to the model — its rules, hints and checks — kept so that no answer
//! carries them, whether copied whole or said again in the model's words ("The command
//! failed. Read the error and adapt it. Do not repeat a failing step unchanged." for the
//! rule "When a step fails, read the error and adapt; do not repeat a failing step
//! unchanged"). Remembered as runs of `COPIED_WORDS` words (letters and digits, whatever
//! case and punctuation lie between); what a message quotes from elsewhere (the request,
//! what the calls printed, what the model wrote: any three words in a row found there)
//! is not Zeta's, and no run reaches across it. An answer's sentence that shares a run
//! is Zeta's, not the answer's.

use std::collections::HashSet;

/// The shortest run of words shared with Zeta's words that marks a sentence as said
/// again.
const COPIED_WORDS: usize = 6;
/// Three words in a row found elsewhere mark a quote.
const QUOTED_WORDS: usize = 3;

/// Zeta's own words, as their runs, and the runs of three words found elsewhere so far
/// (what a message of Zeta's may quote).
#[derive(Default)]
pub(in crate::agent_loop) struct OwnWords {
    runs: HashSet<String>,
    other: HashSet<String>,
    /// The worked examples' answers (`example`), each with its runs.
    examples: Vec<(String, HashSet<String>)>,
    /// Zeta's sentences of `SHORTENED_WORDS` words or more, as words, less those that
    /// mostly quote: an answer's sentence made of one's words in its order, with some
    /// left out, is that sentence shortened (`shortened`).
    sentences: Vec<Vec<String>>,
}

/// The fewest words of an answer's sentence that can be one of Zeta's shortened.
const SHORTENED_WORDS: usize = 5;

impl OwnWords {
    /// For a task whose request is `request` (words from elsewhere from the start).
    pub fn quoting(request: &str) -> Self {
        let mut own = Self::default();
        own.elsewhere(request);
        own
    }

    /// `text` came from elsewhere (what a call printed, what the model wrote): a message
    /// of Zeta's that quotes it later is not Zeta's there.
    pub fn elsewhere(&mut self, text: &str) {
        let w = words(text);
        self.other
            .extend(w.windows(QUOTED_WORDS).map(|r| r.join(" ")));
    }

    /// Zeta said `text`, quoting what it quotes from elsewhere.
    pub fn add(&mut self, text: &str) {
        let w = words(text);
        let quoted = self.quoted(&w);
        for line in text.lines() {
            for sentence in split_sentences(line) {
                let w = words(sentence);
                let quoted = self.quoted(&w).iter().filter(|q| **q).count();
                if w.len() >= SHORTENED_WORDS && quoted * 2 < w.len() {
                    self.sentences.push(w);
                }
            }
        }
        // Runs within each stretch of Zeta's own words, never across a quote.
        let mut start = 0;
        for end in 0..=w.len() {
            if end == w.len() || quoted[end] {
                let stretch = &w[start..end];
                self.runs
                    .extend(stretch.windows(COPIED_WORDS).map(|r| r.join(" ")));
                start = end + 1;
            }
        }
    }

    /// Which of `w` lie in a run of `QUOTED_WORDS` found elsewhere.
    fn quoted(&self, w: &[String]) -> Vec<bool> {
        let mut quoted = vec![false; w.len()];
        for (i, run) in w.windows(QUOTED_WORDS).enumerate() {
            if self.other.contains(&run.join(" ")) {
                quoted[i..i + QUOTED_WORDS]
                    .iter_mut()
                    .for_each(|q| *q = true);
            }
        }
        quoted
    }

    /// A worked example's answer in Zeta's prompt ("There are 3 .mp3 songs in ~/Music; I
    /// wrote 3 into ~/songs.txt."): said again with values and paths the task did not
    /// give, Zeta's words (`strip_examples`).
    pub fn example(&mut self, reply: &str) {
        let runs = words(reply)
            .windows(COPIED_WORDS)
            .map(|r| r.join(" "))
            .collect();
        self.examples.push((reply.to_string(), runs));
    }

    /// `answer` without the sentences it took from a worked example's answer that give
    /// a value or path none of `sources` (the request, what the calls printed) gives:
    /// the example said again, not the task's answer (seen in a window task: "There are
    /// 3 large files in ~/docs; I wrote 3 into ~/count.txt." for "Choose Large in the
    /// Size dialog"). In the task of the example, a right answer that reads like it
    /// stays. `None` when it took none.
    pub fn strip_examples(&self, answer: &str, sources: &[&str]) -> Option<String> {
        let runs: HashSet<&String> = self.examples.iter().flat_map(|(_, r)| r.iter()).collect();
        if runs.is_empty() {
            return None;
        }
        self.strip_where(answer, |sentence| {
            words(sentence)
                .windows(COPIED_WORDS)
                .any(|r| runs.contains(&r.join(" ")))
                && !given(sentence, sources)
        })
    }

    /// The sentence shares a run with Zeta's words, is one of Zeta's sentences
    /// shortened, or is a shell hint (`(next: …)`).
    fn copied(&self, sentence: &str) -> bool {
        sentence.trim_start().starts_with("(next:")
            || words(sentence)
                .windows(COPIED_WORDS)
                .any(|r| self.runs.contains(&r.join(" ")))
            || self.shortened(&words(sentence))
    }

    /// `w` (an answer's sentence) is one of Zeta's sentences with words left out: all
    /// its words in that sentence's order, that sentence at most about twice as long
    /// (seen: "The request names: [2] button 'OK' (acted on)." of the element tool's
    /// "The request names: [1] text "Name" (acted on), [2] button "OK" (acted on).").
    fn shortened(&self, w: &[String]) -> bool {
        w.len() >= SHORTENED_WORDS
            && self.sentences.iter().any(|s| {
                s.len() <= 2 * w.len() + 4 && {
                    let mut rest = s.iter();
                    w.iter().all(|word| rest.any(|x| x == word))
                }
            })
    }

    /// `answer` without the sentences it took from Zeta's words, or `None` when it took
    /// none.
    pub fn strip(&self, answer: &str) -> Option<String> {
        self.strip_where(answer, |sentence| self.copied(sentence))
    }

    /// `answer` without its sentences that are `copied` (and the shell's hints), or
    /// `None` when none is.
    fn strip_where(&self, answer: &str, copied: impl Fn(&str) -> bool) -> Option<String> {
        let mut changed = false;
        let mut kept: Vec<String> = Vec::new();
        for line in answer.lines() {
            if line.trim_start().starts_with("(next:") {
                changed = true;
                continue;
            }
            let pieces = split_sentences(line);
            let left: Vec<&str> = pieces.iter().copied().filter(|p| !copied(p)).collect();
            if left.len() != pieces.len() {
                changed = true;
            }
            kept.push(left.join(" ").trim().to_string());
        }
        changed.then(|| kept.join("\n").trim().to_string())
    }
}

/// Every value and path `sentence` gives is in `sources`.
fn given(sentence: &str, sources: &[&str]) -> bool {
    let paths = crate::assist::request::path_words(sentence);
    crate::assist::values::ungrounded(sentence, sources).is_empty()
        && paths
            .iter()
            .all(|(_, p)| sources.iter().any(|s| s.contains(p.as_str())))
}

/// The worked examples' answers in a system prompt: the `"reply"` of each `You:` line
/// that has one.
pub(in crate::agent_loop) fn examples_of(system: &str) -> Vec<String> {
    system
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("You:"))
        .filter_map(|step| serde_json::from_str::<serde_json::Value>(step.trim()).ok())
        .filter_map(|v| v.get("reply").and_then(|r| r.as_str()).map(str::to_string))
        .filter(|r| !r.trim().is_empty())
        .collect()
}

/// The words of `text`, lower case: its runs of letters and digits.
fn words(text: &str) -> Vec<String> {
    text.to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

/// The rules of a system prompt, as Zeta's words: its worked examples' dialogue lines
/// (`Example N. User: …`, `User: …`, `You: …`) left out, for a right answer may read
/// like an example's ("There are 3 .mp3 songs in ~/Music; I wrote 3 into ~/songs.txt.").
pub(in crate::agent_loop) fn rules_of(system: &str) -> String {
    system
        .lines()
        .filter(|l| {
            let l = l.trim_start();
            !(l.starts_with("You:") || l.starts_with("User:") || l.starts_with("Example "))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The shell's hints in a call's output (`(next: the command failed. Read what it
/// printed, …)`): Zeta's words, though they come back with what the command printed.
pub(in crate::agent_loop) fn hints(output: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = output;
    while let Some(at) = rest.find("(next:") {
        let hint = &rest[at..];
        let end = hint
            .find(")\n")
            .map(|e| e + 1)
            .unwrap_or_else(|| hint.trim_end().len());
        out.push(&hint[..end]);
        rest = &hint[end..];
    }
    out
}

/// `output` without the shell's hints.
pub(in crate::agent_loop) fn without_hints(output: &str) -> String {
    let mut text = output.to_string();
    for hint in hints(output) {
        text = text.replacen(hint, "", 1);
    }
    text
}

/// A line's sentences: each ends at `.`, `?` or `!` followed by a space.
fn split_sentences(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let bytes: Vec<(usize, char)> = line.char_indices().collect();
    for (k, &(i, c)) in bytes.iter().enumerate() {
        let next_blank = bytes.get(k + 1).is_some_and(|(_, n)| *n == ' ');
        if matches!(c, '.' | '?' | '!') && next_blank {
            out.push(line[start..=i].trim());
            start = i + 1;
        }
    }
    if start < line.len() {
        out.push(line[start..].trim());
    }
    out.retain(|s| !s.is_empty());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Everything Zeta says to a model: the rules and prompts as files, and the system
    /// prompts as the loop builds them (the prompt tests' snapshots).
    fn zeta_words() -> OwnWords {
        let mut own = OwnWords::default();
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/prompts");
        let snapshots = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/src/agent_loop/tests/snapshots"
        );
        for dir in [dir, snapshots] {
            for entry in std::fs::read_dir(dir).expect("prompts").flatten() {
                let text = std::fs::read_to_string(entry.path()).expect("a prompt");
                own.add(&text);
            }
        }
        own
    }

    /// Zeta's sentences of eight words or more (its rules, prompts and the shell's
    /// hints), the texts a model may say again.
    fn zeta_sentences() -> Vec<String> {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/prompts");
        let mut texts: Vec<String> = std::fs::read_dir(dir)
            .expect("prompts")
            .flatten()
            .map(|e| std::fs::read_to_string(e.path()).expect("a prompt"))
            .collect();
        texts.extend(SHELL_HINTS.iter().map(|h| h.to_string()));
        texts
            .iter()
            .flat_map(|t| {
                t.lines()
                    .flat_map(split_sentences)
                    .map(str::to_string)
                    .collect::<Vec<_>>()
            })
            .filter(|s| !s.contains('{') && s.split_whitespace().count() >= 8)
            .collect()
    }

    /// The shell tool's hints, as it writes them (zeta-tools sits above this crate).
    const SHELL_HINTS: &[&str] = &[
        "(next: the command failed. Read what it printed, then fix the command or take another way; do not report a result it did not give.)",
        "(next: that program is missing or cannot run here. Use another program that does the same; do not install software, and do not report a result this command could not give.)",
        "(next: if the request needs a value, this gave none: take another step that prints it, for example one that shows the input itself. Do not ask the user for what a command can print.)",
    ];

    fn hinted_words() -> OwnWords {
        let mut own = zeta_words();
        for hint in SHELL_HINTS {
            own.add(hint);
        }
        own
    }

    /// A sentence of Zeta's said again by a model, in families of changes: how many of
    /// each family are caught. Whole copies and changes of case and punctuation are
    /// always caught; a sentence with a word changed or added every few words is not
    /// (printed, so the figure is seen).
    #[test]
    fn sentences_said_again_are_caught() {
        let own = hinted_words();
        let sentences = zeta_sentences();
        assert!(sentences.len() > 60, "{}", sentences.len());
        let middle = |s: &str, f: &dyn Fn(&mut Vec<String>, usize)| {
            let mut w: Vec<String> = s.split_whitespace().map(str::to_string).collect();
            let at = w.len() / 2;
            f(&mut w, at);
            w.join(" ")
        };
        type Variant = Box<dyn Fn(&str) -> String>;
        let families: Vec<(&str, Variant, bool)> = vec![
            ("as written", Box::new(|s: &str| s.to_string()), true),
            (
                "upper case, other punctuation",
                Box::new(|s: &str| s.to_uppercase().replace([';', ',', ':'], " -")),
                true,
            ),
            (
                "cut into short sentences",
                Box::new(|s: &str| s.replace([';', ','], ".")),
                false,
            ),
            (
                "after a sentence of the model's",
                Box::new(|s: &str| format!("The command failed. {s}")),
                true,
            ),
            (
                "a word changed in the middle",
                Box::new(move |s: &str| middle(s, &|w, at| w[at] = "it".into())),
                false,
            ),
            (
                "a word added in the middle",
                Box::new(move |s: &str| middle(s, &|w, at| w.insert(at, "then".into()))),
                false,
            ),
            (
                "its first eight words",
                Box::new(|s: &str| s.split_whitespace().take(8).collect::<Vec<_>>().join(" ")),
                false,
            ),
            (
                "every third word left out",
                Box::new(|s: &str| {
                    s.split_whitespace()
                        .enumerate()
                        .filter(|(i, _)| i % 3 != 2)
                        .map(|(_, w)| w)
                        .collect::<Vec<_>>()
                        .join(" ")
                }),
                true,
            ),
            (
                "a word added every fourth",
                Box::new(|s: &str| {
                    s.split_whitespace()
                        .enumerate()
                        .map(|(i, w)| {
                            if i % 4 == 3 {
                                format!("{w} just")
                            } else {
                                w.to_string()
                            }
                        })
                        .collect::<Vec<_>>()
                        .join(" ")
                }),
                false,
            ),
        ];
        for (name, variant, always) in &families {
            let missed: Vec<String> = sentences
                .iter()
                .map(|s| variant(s))
                .filter(|v| own.strip(v).is_none())
                .collect();
            println!(
                "{name}: {} of {} caught",
                sentences.len() - missed.len(),
                sentences.len()
            );
            if *always {
                assert!(missed.is_empty(), "{name}: missed {missed:?}");
            }
        }
        // The two seen on the benches, said again in the model's words.
        for seen in [
            "The command failed. Read the error and adapt it. Do not repeat a failing step unchanged.",
            "The command failed. Read what it printed, then fix the command or take another way; do not report a result it did not give.",
        ] {
            assert!(own.strip(seen).is_some(), "{seen}");
        }
    }

    /// Answers the local model gave on the benches (`tests/data/answers.txt`, 146 of
    /// them, 29 from the GUI bench; Zeta's own notes taken off) and answers a person
    /// would expect: none is taken for Zeta's words, nor, in a window task, for the
    /// window tools' (`window_tool_words`).
    #[test]
    fn answers_are_not_taken_for_zeta_words() {
        let own = hinted_words();
        let mut in_window = hinted_words();
        window_tool_words(&mut in_window);
        let answers = include_str!("../../../tests/data/answers.txt");
        let mut alarms = Vec::new();
        let mut count = 0;
        for answer in answers.lines().filter(|l| !l.trim().is_empty()) {
            count += 1;
            for own in [&own, &in_window] {
                if let Some(kept) = own.strip(answer) {
                    alarms.push(format!("{answer}\n  -> {kept}"));
                }
            }
        }
        println!("{} of {count} answers taken for Zeta's words", alarms.len());
        assert!(count > 100, "{count}");
        assert!(alarms.is_empty(), "false alarms:\n{}", alarms.join("\n"));
    }

    /// What the window tools print around a window's texts, as they write it (zeta-elements
    /// sits above this crate), with the windows' texts from elsewhere: the GUI bench's
    /// dialogs.
    fn window_tool_words(own: &mut OwnWords) {
        for shows in [
            "Pet\nName\nThe name of your pet\nOK\nCancel",
            "Print\nCopies\n3\nDuplex\nOK",
            "Size\nSmall\nMedium\nLarge\nOK",
            "Calculator\n9955\nDEC\nDEG",
        ] {
            own.elsewhere(shows);
        }
        for output in WINDOW_TOOL_SAYS {
            own.add(output);
        }
    }

    const WINDOW_TOOL_SAYS: &[&str] = &[
        "Window \"Pet\" (kdialog) at 400,300 300x120:\n[1] text \"Name\" = \"\" (editable) @410,340 200x20\n[2] push button \"OK\" (default) [press] @420,380 60x24\n",
        "Did: press [2] push button \"OK\": pressed through its action.\nThe window \"Pet\" closed.\nThe request names: [1] text \"Name\" (acted on), [2] push button \"OK\" (acted on). Every element it names has been acted on: if the window now shows what the request asks for, answer the user; if not, act on what is left.\n",
        "Did: set text [1] spin button \"Copies\": set through its editable text.\nShown: its text is \"3\".\nThe request names: [1] spin button \"Copies\" (acted on), [4] check box \"Duplex\" (not acted on yet), [6] push button \"OK\" (not acted on yet).\n",
        "Not run: [6] push button \"OK\" is not pressed yet: the request names [4] check box \"Duplex\" before it, and no act went through on it. Act on [4] first.\n",
        "Did: press [3] table cell \"Large\": clicked at its place.\nNOT SHOWN: you meant to toggle it, but nothing in the window changed.\nA new window opened: \"Save As\"; read it with ui_outline and window \"Save As\".\nIts application has not answered since: it may be showing a dialog that waits for an answer.\n",
        "Text on screen read by OCR (\"Calculator\" shares no accessibility tree; read at 3x and 2x, the frames drawn around words taken out, in 1.2 s). Each element is text at a place; ui_act press clicks it, type clicks it and types:\n[1] text \"9955\" @572,240 22x10\n",
    ];

    /// The window tools' sentences said again, shortened, in other quotes, or whole,
    /// are Zeta's; a sentence that only shares a few of their words is not.
    #[test]
    fn the_window_tools_sentences_said_again_are_caught() {
        let mut own = OwnWords::default();
        window_tool_words(&mut own);
        for said_again in [
            "The request names: [2] push button 'OK' (acted on).",
            "Every element it names has been acted on.",
            "The request names: spin button Copies (acted on), check box Duplex (not acted on yet).",
            "Every element it names has been acted on: if the window now shows what the request asks",
            "It may be showing a dialog that waits for an answer.",
            "Each element is text at a place; ui_act press clicks it.",
        ] {
            assert!(own.strip(said_again).is_some(), "{said_again}");
        }
        for answer in [
            "I pressed OK in the Pet dialog.",
            "The Pet dialog closed after I pressed OK.",
            "Copies is now 3 and Duplex is ticked.",
            "The display shows 9955.",
        ] {
            assert_eq!(own.strip(answer), None, "{answer}");
        }
    }

    /// What the request or the outputs say is not Zeta's, even where Zeta's words quote it.
    #[test]
    fn words_from_elsewhere_are_not_zeta_words() {
        let output = "the quick brown fox jumps over the lazy dog";
        let mut own = OwnWords::quoting("What did it print?");
        own.elsewhere(output);
        own.add(&format!(
            "Your answer says nothing of what the command printed: {output}."
        ));
        assert_eq!(
            own.strip("It printed: the quick brown fox jumps over the lazy dog."),
            None
        );
        assert!(own
            .strip("Your answer says nothing of what the command printed.")
            .is_some());
    }

    /// A right answer that reads like a worked example's is not taken for Zeta's words;
    /// the rules around the examples still are.
    #[test]
    fn the_worked_examples_are_not_rules() {
        let snapshots = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/src/agent_loop/tests/snapshots"
        );
        for name in ["planner-small.txt", "planner-large.txt"] {
            let system = std::fs::read_to_string(format!("{snapshots}/{name}")).expect("prompt");
            let mut own = OwnWords::default();
            own.add(&rules_of(&system));
            let like = "There are 3 .mp3 songs in ~/Music; I wrote 3 into ~/songs.txt.";
            assert_eq!(own.strip(like), None, "{name}");
            assert!(
                own.strip("Do not repeat a failing step unchanged.")
                    .is_some(),
                "{name}"
            );
        }
    }

    /// A worked example's answer said again in a task that gave none of its values and
    /// paths is the example's, and left out; in the example's own task (its paths in
    /// the request, its count printed), a right answer that reads like it stays.
    #[test]
    fn a_worked_examples_answer_is_left_out_only_where_the_task_did_not_give_it() {
        let snapshots = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/src/agent_loop/tests/snapshots"
        );
        let like = "There are 3 .mp3 songs in ~/Music; I wrote 3 into ~/songs.txt.";
        for name in [
            "planner-small.txt",
            "planner-large.txt",
            "planner-small-window.txt",
        ] {
            let system = std::fs::read_to_string(format!("{snapshots}/{name}")).expect("prompt");
            let mut own = OwnWords::default();
            for reply in examples_of(&system) {
                own.example(&reply);
            }
            assert!(!own.examples.is_empty(), "{name}");
            for request in [
                "Count the .mp3 songs in ~/Music and write the number into ~/songs.txt",
                "how many .mp3 songs are in ~/Music? put the count into ~/songs.txt",
            ] {
                let sources = [request, "3\n", "3\n"];
                assert_eq!(
                    own.strip_examples(like, &sources),
                    None,
                    "{name}: {request}"
                );
                // The same style, the task's own count.
                let five = "There are 5 .mp3 songs in ~/Music; I wrote 5 into ~/songs.txt.";
                assert_eq!(own.strip_examples(five, &[request, "5\n"]), None);
            }
            for (request, printed) in [
                (
                    "Choose Large in the Size dialog and press OK",
                    "[3] radio button \"Large\"",
                ),
                (
                    "Press Dismiss in the Reminder message",
                    "read \"Reminder\": 2 words",
                ),
            ] {
                let sources = [request, printed];
                assert_eq!(
                    own.strip_examples(&format!("{like} The window closed."), &sources)
                        .as_deref(),
                    Some("The window closed."),
                    "{name}: {request}"
                );
                assert_eq!(
                    own.strip_examples(
                        "There are 3 large .mp3 songs in ~/Music; I wrote 3 into ~/songs.txt.",
                        &sources
                    ),
                    Some(String::new()),
                    "{name}: {request}"
                );
                assert_eq!(own.strip_examples("I pressed Large.", &sources), None);
            }
        }
    }

    #[test]
    fn hints_are_found_in_an_output() {
        let out =
            "exit code 1\nstderr:\nno\n(next: the command failed. Read it.)\nmore\n(next: again.)";
        assert_eq!(
            hints(out),
            vec!["(next: the command failed. Read it.)", "(next: again.)"]
        );
        assert_eq!(without_hints(out), "exit code 1\nstderr:\nno\n\nmore\n");
    }
}

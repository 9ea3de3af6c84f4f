//! The system prompt: the soul's own text (a file under `$ZETA_HOME/souls/` the user can
//! edit, created from a default), then the protocol's rules. The prompt is kept
//! byte-identical across the calls of a task so that servers can cache it.

use std::path::Path;

use super::planner::PlanForm;
use crate::model::ToolSpec;
use crate::policy::injection::UNTRUSTED_RULE;
use crate::settings::Soul;

pub fn soul_file_name(soul: Soul) -> &'static str {
    match soul {
        Soul::SafeAssistant => "safe_assistant.md",
        Soul::SystemAdmin => "system_admin.md",
        Soul::AutomationAgent => "automation_agent.md",
        Soul::ResearchAgent => "research_agent.md",
    }
}

fn default_soul_text(soul: Soul) -> &'static str {
    match soul {
        Soul::SafeAssistant => "You are Zeta, a careful assistant on the user's computer. Prefer reading to changing; change things only when the user clearly asked.",
        Soul::SystemAdmin => "You are Zeta, a system administrator on the user's computer. You inspect and fix the system with shell commands, checking state before you change it.",
        Soul::AutomationAgent => "You are Zeta, an agent that carries out tasks on the user's computer step by step, observing the result of each step before choosing the next.",
        Soul::ResearchAgent => "You are Zeta, a research assistant on the user's computer. You gather facts from files, commands and the web and answer with what you found.",
    }
}

/// The largest soul file read (it opens every request: a real one is a paragraph).
pub const MAX_SOUL_BYTES: u64 = 64 * 1024;

/// The soul's text: `souls_dir/<soul>.md`, created from the default when missing.
/// An unreadable, oversized or non-UTF-8 file falls back to the default (and says so in
/// the log).
pub fn soul_text(souls_dir: &Path, soul: Soul) -> String {
    use crate::bounded::{read_text, BoundedReadError};
    let path = souls_dir.join(soul_file_name(soul));
    match read_text(&path, MAX_SOUL_BYTES) {
        Ok(text) if !text.trim().is_empty() => text.trim().to_string(),
        Ok(_) => default_soul_text(soul).to_string(),
        Err(BoundedReadError::NotFound) => {
            let text = default_soul_text(soul);
            if let Err(e) = zeta_protocol::home::create_private_dir(souls_dir).and_then(|_| {
                zeta_protocol::home::write_private(&path, format!("{text}\n").as_bytes())
            }) {
                tracing::warn!("could not write {}: {e}", path.display());
            }
            text.to_string()
        }
        Err(e) => {
            tracing::warn!(
                "could not read {}: {e}; using the default soul text",
                path.display()
            );
            default_soul_text(soul).to_string()
        }
    }
}

const COMMON_RULES: &str = include_str!("../../prompts/rules.md");

/// Only where `propose_plan` is offered (not to a small model with the shell alone).
const PLAN_RULE: &str = include_str!("../../prompts/plan_rule.md");

/// The prompt for native tool calling.
pub fn native_prompt(soul: &str) -> String {
    crate::prompts::fill(
        crate::prompts::NATIVE,
        &[
            ("soul", soul),
            ("rules", COMMON_RULES),
            ("plan_rule", PLAN_RULE),
            ("untrusted", UNTRUSTED_RULE),
        ],
    )
}

/// The prompt for the JSON planner protocol: explicit rules and two worked examples (one
/// request in two parts), which small local models need. Other tools are listed one line
/// each, by their argument names, to keep the prompt short. `form`: with "reasoning" or
/// without (a small model: each key it writes costs generation time, and the bare loop
/// without one was as accurate), or a small model's short forms.
/// The first sentence of a tool's description, without its full stop; "e.g." and "i.e."
/// do not end one.
fn first_sentence(text: &str) -> &str {
    let mut from = 0;
    while let Some(at) = text[from..].find(". ").map(|i| i + from) {
        let before = text[..at].to_ascii_lowercase();
        if !(before.ends_with("e.g") || before.ends_with("i.e")) {
            return &text[..at];
        }
        from = at + 2;
    }
    text.trim_end_matches('.')
}

pub fn planner_prompt(soul: &str, tools: &[ToolSpec], form: PlanForm) -> String {
    let short = form == PlanForm::Short;
    let mut other_tools = String::new();
    for t in tools.iter().filter(|t| t.name != "shell") {
        let args: Vec<&str> = t.parameters["properties"]
            .as_object()
            .map(|p| p.keys().map(String::as_str).collect())
            .unwrap_or_default();
        other_tools.push_str(&format!(
            "- {}({}): {}\n",
            t.name,
            args.join(", "),
            first_sentence(&t.description)
        ));
    }
    // Without other tools (small local models, which fumble their arguments) the
    // planner is seed 000's: shell commands only.
    let tools_rule = if other_tools.is_empty() {
        "7. Use shell commands for everything: files, folders, disks, processes and the web (curl).\n".to_string()
    } else if short {
        format!("7. Use shell commands for files, folders, disks, processes and the web (curl). Use another tool only for what the shell cannot do: {{\"args\": {{...}}, \"tool\": \"its name\"}}.\nOther tools:\n{other_tools}")
    } else {
        format!("7. Use shell commands for files, folders, disks, processes and the web (curl). Use another tool only for what the shell cannot do: leave \"command\" empty and add \"tool\" (its name) and \"args\" (an object).\nOther tools:\n{other_tools}")
    };
    // Asking has its own line: a small model does not pick it from the tool list.
    let ask_rule = match (tools.iter().any(|t| t.name == "ask_user"), short) {
        (false, _) => "",
        (true, true) => "When the request needs something only the user knows (it says to ask you, or leaves out a name or a choice), ask first: {\"command\": \"ask_user('your question')\"}. Never invent it.\n",
        (true, false) => "When the request needs something only the user knows (it says to ask you, or leaves out a name or a choice), ask first: {\"command\": \"\", \"tool\": \"ask_user\", \"args\": {\"question\": \"...\"}, ...}. Never invent it.\n",
    };
    // Code actions (a small model offered run_code): when a program is the simpler step.
    let code_rule = if short && tools.iter().any(|t| t.name == "run_code") {
        crate::prompts::CODE_RULE
    } else {
        ""
    };
    let plan_rule = if tools.iter().any(|t| t.name == crate::tool::PROPOSE_PLAN) {
        PLAN_RULE
    } else {
        ""
    };
    // One step of an example in the plan's form: a small model's short form is the
    // command alone, or the reply after an empty command (`short_plan_schema`).
    let plan = |head: &str, why: &str, reply: &str, done: bool| match form {
        PlanForm::Short if done => format!("{{\"command\": \"\", \"reply\": \"{reply}\"}}"),
        PlanForm::Short => format!("{{{head}}}"),
        PlanForm::Plain => format!("{{{head}, \"reply\": \"{reply}\", \"done\": {done}}}"),
        PlanForm::Reasoned => format!(
            "{{{head}, \"reasoning\": \"{why}\", \"reply\": \"{reply}\", \"done\": {done}}}"
        ),
    };
    let step = |command: &str, why: &str, reply: &str, done: bool| {
        plan(&format!("\"command\": \"{command}\""), why, reply, done)
    };
    // A small model asks only when it has seen it done: one short example, with the
    // answer coming back as the tool's result.
    let ask_example = if tools.iter().any(|t| t.name == "ask_user") {
        format!(
            "\nExample 3. User: Show me the notes of my meeting.\nYou: {}\nUser: ✓ ask_user\\nThe user answered: the budget meeting\nYou: {}",
            plan(
                if short {
                    "\"command\": \"ask_user('Which meeting do you mean?')\""
                } else {
                    "\"command\": \"\", \"tool\": \"ask_user\", \"args\": {\"question\": \"Which meeting do you mean?\"}"
                },
                "Only the user knows which meeting.",
                "",
                false
            ),
            step("grep -ril budget ~/notes", "Now look for it.", "", false)
        )
    } else {
        String::new()
    };
    // The reply's form and the rules that name its keys.
    let (shape, ending) = if short {
        (
            "{\"command\": string} to run a shell command, or {\"command\": \"\", \"reply\": string} to answer".to_string(),
            crate::prompts::PLANNER_RULES_SHORT,
        )
    } else {
        (
            step("string", "string", "string", false)
                .replace("\"string\"", "string")
                .replace("false", "boolean"),
            crate::prompts::PLANNER_RULES_JSON,
        )
    };
    let examples = [
        step("df -h /", "Check the root filesystem.", "", false),
        step(
            "",
            "The output shows the numbers.",
            "You have 60 GB free of 100 GB on /.",
            true,
        ),
        step(
            "ls ~/Music/*.mp3 | wc -l",
            "First count the songs.",
            "",
            false,
        ),
        step(
            "echo 3 > ~/songs.txt && cat ~/songs.txt",
            "Now write the number, the second part.",
            "",
            false,
        ),
        step(
            "",
            "Both parts are done.",
            "There are 3 .mp3 songs in ~/Music; I wrote 3 into ~/songs.txt.",
            true,
        ),
    ];
    crate::prompts::fill(
        crate::prompts::PLANNER,
        &[
            ("soul", soul),
            ("rules", COMMON_RULES),
            ("plan_rule", plan_rule),
            ("untrusted", UNTRUSTED_RULE),
            ("shape", &shape),
            ("ending", ending),
            ("tools_rule", &tools_rule),
            ("ask_rule", ask_rule),
            ("code_rule", code_rule),
            ("example_1a", &examples[0]),
            ("example_1b", &examples[1]),
            ("example_2a", &examples[2]),
            ("example_2b", &examples[3]),
            ("example_2c", &examples[4]),
            ("ask_example", &ask_example),
        ],
    )
}

/// Sent back once when the model answers without having run anything.
pub fn nothing_run_prompt(json: bool) -> String {
    // Worded for both plan forms (a small model's short one has no "done").
    let next = if json {
        "put the command in \"command\" now"
    } else {
        "call the tool now"
    };
    crate::prompts::fill(crate::prompts::NOTHING_RUN, &[("next", next)])
}

/// The verification turn in the planner protocol, answered with `planner::verdict_schema`.
pub fn verdict_prompt(request: &str, steps: &[String], answer: &str) -> String {
    let steps = if steps.is_empty() {
        "(nothing)".to_string()
    } else {
        steps.join("\n")
    };
    crate::prompts::fill(
        crate::prompts::VERDICT,
        &[("request", request), ("steps", &steps), ("answer", answer)],
    )
}

/// Sent when an answer names the assistant where no output did: the output is about the
/// user and their computer.
pub use crate::prompts::NAMED_SELF as NAMED_SELF_PROMPT;

/// Sent when the model's replies could not be read after a corrective hint, once calls ran.
pub const ANSWER_AFTER_STALLING: &str = include_str!("../../prompts/answer_after_stalling.md");

/// Sent when the planner protocol's check says the request is not done but names nothing.
pub const UNFINISHED_PROMPT: &str = include_str!("../../prompts/unfinished.md");

/// The verification turn with native tools: the request against what was actually done.
pub fn verify_prompt(request: &str, steps: &[String]) -> String {
    format!(
        "Check your work before you finish. The request was: \"{request}\"\n\
         What you ran (✓ worked, ✗ failed) and what it printed:\n{}\n\
         Compare the request with what was actually done and seen. If a part of the request \
         is not done yet, call the next tool. If every part is done, give the final answer \
         without calling a tool; state only what the outputs showed. If a part cannot be \
         done, say plainly which part and why.",
        if steps.is_empty() {
            "(nothing)".to_string()
        } else {
            steps.join("\n")
        }
    )
}

/// The request points back to the previous task: a follow-up ("and /home?", "what about
/// the other one", "do it again", "delete them"). "this" and "there" do not count: "this
/// computer" and "is there a file" point at the machine, not back.
pub fn refers_back(message: &str) -> bool {
    let text = message.trim().to_lowercase();
    let words: Vec<&str> = text
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| !w.is_empty())
        .collect();
    let opens_follow_up = match words.as_slice() {
        [first, second, ..] if ["what", "how"].contains(first) && *second == "about" => true,
        [first, ..] => ["and", "also", "then", "now", "same", "but"].contains(first),
        [] => false,
    };
    let pointing = [
        "it", "its", "it's", "that", "those", "them", "these", "again", "previous", "same", "too",
        "instead", "other", "ones",
    ];
    // "the last one", "this one": a thing named before.
    let one_of_them = words
        .windows(2)
        .any(|w| w[1] == "one" && ["last", "first", "this", "that", "next"].contains(&w[0]));
    // A pointing word after a path the request names points at it, not back ("Which item
    // in ~/shop/prices.txt is the cheapest, and what does it cost?"; "copy it to ~/x"
    // still points back).
    let before_any_path = message
        .split_whitespace()
        .take_while(|w| !(w.contains('/') || w.starts_with('~')))
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase();
    let points = before_any_path
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .any(|w| pointing.contains(&w));
    opens_follow_up || one_of_them || points
}

/// Added to a small model's first turn when the request tells it to ask the user: a 1.5B
/// model given a recipe runs the recipe on its own guess instead (measured).
pub use crate::prompts::ASK_FIRST as ASK_FIRST_NOTE;

/// The first user turn: the request, with the previous task's result as a hint. A result
/// from a task that had read untrusted input comes wrapped as untrusted data.
pub fn first_user_turn(
    message: &str,
    previous_context: Option<&str>,
    previous_untrusted: bool,
) -> String {
    match previous_context.map(str::trim).filter(|c| !c.is_empty()) {
        Some(context) if previous_untrusted => format!(
            "{message}\n\n(For context only, in case the request refers to it: the previous task, which had read input the user did not type.)\n{}",
            crate::policy::wrap_untrusted("the previous task", context)
        ),
        Some(context) => format!(
            "{message}\n\n(For context only, in case the request refers to it: the previous task. {context})"
        ),
        None => message.to_string(),
    }
}

/// For a task Zeta stopped during before (a crash, a signal): what was running, and
/// what ran in the earlier starts, so the model checks before it repeats a change.
/// `None` on a first start.
pub fn resumed_note(
    task: &crate::store::queue::Task,
    earlier: &[crate::store::audit::AuditEntry],
) -> Option<String> {
    if task.attempts <= 1 && task.interrupted.is_none() {
        return None;
    }
    let stopped = task
        .interrupted
        .as_deref()
        .unwrap_or("while it was working on it");
    let mut note = format!(
        "(Note from Zeta, not from the user: Zeta stopped during an earlier start of this task, {stopped}. \
         This is start {} of at most {}.",
        task.attempts,
        crate::recovery::MAX_ATTEMPTS
    );
    if !earlier.is_empty() {
        note.push_str(" Calls that ran in the earlier starts, oldest first:");
        for e in earlier {
            let mark = match (e.state.as_str(), e.ok) {
                ("interrupted", _) => "cut short, may have partly run:",
                (_, true) => "✓",
                (_, false) => "✗",
            };
            let args: String = e.arguments.chars().take(200).collect();
            note.push_str(&format!("\n{mark} {} {args}", e.tool));
        }
        note.push('\n');
    }
    note.push_str(
        " Do not repeat a change that may already have happened: first check its effect (read the \
         file, list the folder), then do only what is still missing. Repeating one of those calls \
         exactly asks the user.)",
    );
    Some(note)
}

/// Sent, with no tools, when the iteration cap is reached.
/// The result a repeated call gets when it is the third in a row: it was not run, and the
/// next reply can only be the answer.
/// Sent when calls failed too many times in a row: no more calls, an honest answer.
pub const ANSWER_AFTER_FAILURES: &str = include_str!("../../prompts/answer_after_failures.md");

/// Sent instead of running a question asked after one went unanswered.
pub const ANSWER_NOBODY_ANSWERS: &str = include_str!("../../prompts/answer_nobody_answers.md");

pub const ANSWER_AFTER_REPEATS: &str = include_str!("../../prompts/answer_after_repeats.md");

pub const MAX_ITERATIONS_PROMPT: &str = include_str!("../../prompts/max_iterations.md");

/// The memory part of a task's first turn.
pub struct Recalled {
    pub text: String,
}

/// What the agent remembers for this request: the long-term summary and matching facts,
/// marked as its own notes (not the user's words). Lines and facts left by tasks that had
/// read untrusted input are not recalled on their own: a task that does not ask for them
/// does not inherit their mark (issue: "Always allow stops working for good");
/// `memory_search` finds them, wrapped, and marks the task that reads them. `None` when
/// there is nothing.
pub fn recall(summary: &str, facts: &[crate::store::memory::Fact]) -> Option<Recalled> {
    use crate::store::memory::UNTRUSTED_LINE;
    let mut parts = Vec::new();
    let plain: Vec<&str> = summary
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with(UNTRUSTED_LINE))
        .collect();
    if !plain.is_empty() {
        parts.push(format!(
            "Recent tasks (your long-term notes):\n{}",
            plain.join("\n")
        ));
    }
    let plain_facts: Vec<String> = facts
        .iter()
        .filter(|f| !f.untrusted)
        .map(|f| format!("- [{}] {}", f.id, f.text))
        .collect();
    if !plain_facts.is_empty() {
        parts.push(format!(
            "Saved facts that may help:\n{}",
            plain_facts.join("\n")
        ));
    }
    (!parts.is_empty()).then(|| Recalled {
        text: format!("(From memory; use it if relevant.)\n{}", parts.join("\n")),
    })
}

#[cfg(test)]
mod refers_back_tests {
    use super::refers_back;

    /// Follow-ups must all point back (a miss loses the context a follow-up needs); a
    /// fresh request that points back only costs the earlier answer's tokens, as before.
    #[test]
    fn follow_ups_point_back_and_fresh_questions_do_not() {
        let follow_ups = [
            "and /home?",
            "What about the other disk?",
            "how about yesterday's logs",
            "Delete them.",
            "Do it again",
            "Copy that file to ~/backup",
            "How big is the last one?",
            "now show the biggest ones",
            "same for ~/Downloads",
            "Also count the lines",
            "Put those into a zip",
            "use the previous folder instead",
            "But only the .log files",
            "then open it",
            "Sort these by size",
            "what's in it?",
        ];
        let misses: Vec<_> = follow_ups.iter().filter(|m| !refers_back(m)).collect();
        assert!(misses.is_empty(), "follow-ups not seen: {misses:?}");
        let fresh = [
            "What is my user name?",
            "How much free disk space do I have?",
            "How many CPU cores does this computer have?",
            "Rename ~/data/mid.csv to ~/data/table.csv",
            "What is 1234 times 5678?",
            "Is there a file called notes.txt in my home?",
            "Which process uses the most memory on this machine?",
            "Show me the last 20 lines of /var/log/syslog",
            "Find the largest log file",
            "Android phones connected over USB?",
            "Thenardier.txt: how many lines?",
            "What time is it in Tokyo?",
            "Make a folder called projects in my home",
            "List the files in ~/Documents",
            "Which item in ~/shop/prices.txt is the cheapest, and what does it cost?",
            "How many lines are in ~/poem.txt? Save the number in ~/lines.txt, then show it",
            "Which file in ~/data is the largest, and how big is it?",
        ];
        let alarms: Vec<_> = fresh.iter().filter(|m| refers_back(m)).collect();
        // Known: "is it" in a question about time reads as pointing back.
        assert_eq!(alarms, [&"What time is it in Tokyo?"], "false alarms");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assist::request::asks_to_be_asked;

    #[test]
    fn a_tool_is_described_by_its_first_whole_sentence() {
        for (text, want) in [
            (
                "Change Zeta's own settings when the user asks, e.g. \"make it 60 s\". Validated.",
                "Change Zeta's own settings when the user asks, e.g. \"make it 60 s\"",
            ),
            ("Read a file. Large files are cut.", "Read a file"),
            (
                "Ask one question, i.e. a short one.",
                "Ask one question, i.e. a short one",
            ),
            ("No full stop", "No full stop"),
            ("", ""),
        ] {
            assert_eq!(first_sentence(text), want);
        }
    }

    /// Families of requests that tell the assistant to ask, and of requests that do not.
    #[test]
    fn requests_that_say_ask_me_are_told_from_those_that_do_not() {
        let mut asks = Vec::new();
        for opening in [
            "Ask me",
            "ask me",
            "First ask me",
            "Please ask me",
            "Ask the user",
        ] {
            for what in [
                "which folder I mean",
                "what name to use",
                "for the file name",
            ] {
                for then in ["", ", then count its files", " and then delete it"] {
                    asks.push(format!("{opening} {what}{then}."));
                }
            }
        }
        for text in [
            "Check with me before you delete anything in ~/old",
            "Rename the photos, but let me choose the names",
            "Confirm with me which report to send",
            "Before moving them, ask which folder",
            "Let us pick the backup folder together",
        ] {
            asks.push(text.to_string());
        }
        let plain = [
            "How much free disk space do I have?",
            "Delete my report file.",
            "Which file in ~/data is the largest?",
            "Count the .log files in ~/logs and write the number into ~/count.txt",
            "Don't ask me anything, just clean ~/tmp",
            "Never ask before moving files into ~/archive",
            "What did the user ask for in ~/requests.txt?",
            "Show me the tasks I was asked to do",
            "Let it run for a minute",
        ];
        let missed: Vec<&String> = asks.iter().filter(|a| !asks_to_be_asked(a)).collect();
        let false_alarms: Vec<&&str> = plain.iter().filter(|p| asks_to_be_asked(p)).collect();
        println!(
            "asks: {} ({} missed); plain: {} ({} false alarms)",
            asks.len(),
            missed.len(),
            plain.len(),
            false_alarms.len()
        );
        assert!(missed.is_empty(), "{missed:?}");
        assert!(false_alarms.is_empty(), "{false_alarms:?}");
    }

    #[test]
    fn the_planner_shows_a_question_asked_only_where_it_may_ask() {
        let ask = ToolSpec {
            name: "ask_user".into(),
            description: "Ask the user a question.".into(),
            parameters: serde_json::json!({"type": "object", "properties": {"question": {}}}),
        };
        let soul = default_soul_text(Soul::AutomationAgent);
        for form in [PlanForm::Short, PlanForm::Plain, PlanForm::Reasoned] {
            let with = planner_prompt(soul, std::slice::from_ref(&ask), form);
            assert!(with.contains("Example 3."), "{with}");
            let asked = if form == PlanForm::Short {
                r#"{"command": "ask_user('Which meeting do you mean?')"}"#
            } else {
                r#""tool": "ask_user", "args": {"question": "Which meeting do you mean?"}"#
            };
            assert!(with.contains(asked), "{with}");
            assert_eq!(with.contains("reasoning"), form == PlanForm::Reasoned);
            assert!(!planner_prompt(soul, &[], form).contains("Example 3."));
        }
    }

    #[test]
    fn both_protocols_say_whose_facts_are_whose_and_to_answer_every_part() {
        let soul = default_soul_text(Soul::AutomationAgent);
        for prompt in [
            native_prompt(soul),
            planner_prompt(soul, &[], PlanForm::Reasoned),
        ] {
            assert!(
                prompt.contains("Zeta is your name, not the user's"),
                "{prompt}"
            );
            assert!(prompt.contains("come only from what the tools printed"));
            assert!(prompt.contains("naming each thing the request asked"));
        }
    }
}

//! Reply repair for weak models, at the protocol seam: the planner's parser reads a reply
//! as it is written (`planner::parse_plan`), and the planner protocol then mends the step
//! with the repairs below, each named, each for a form a small model was seen to write:
//!
//! - `ask-user-as-command`: `ask_user('Which file?')` written as a shell command is the
//!   question.
//! - `element-calls-as-command`: `ui_act(1, 'press') && ui_act(4, 'type', 'hi')` (or the
//!   shell's way, `ui_act press 1`) written as a shell command are the element calls
//!   (`screen::calls_written_as_command`).
//! - `cut-exec`: `find … -exec mv {} dir/ \` (a `\;` no JSON string can hold) gets its
//!   `;` back (`terminate_exec`).
//! - `offer-of-help`: an `ask_user` that only offers help ("How can I assist you
//!   today?") is the model's answer, not a question.
//! - `untrusted-marks`: the `<untrusted_data …>` marks Zeta puts around data, copied into
//!   a command, are taken out (what they held stays).
//!
//! A step none of them fits is left as it was read.

use serde_json::{json, Value};

use super::planner::{parse_plan, question_in, Step, ASK_USER, SHELL_TOOL};
use crate::model::ToolCall;

/// The reply read (`parse_plan`) and mended; `Err` is the hint for the model.
pub fn read(text: &str, id: &str) -> Result<Step, String> {
    parse_plan(text, id).map(|step| mend(step, id))
}

/// `step` with the repairs applied.
pub fn mend(step: Step, id: &str) -> Step {
    let Step::Calls(mut calls) = step else {
        return step;
    };
    if let [call] = calls.as_slice() {
        if let Some(command) = shell_command(call) {
            if let Some(question) = question_in(command) {
                tracing::debug!(repair = "ask-user-as-command");
                calls = vec![ToolCall {
                    id: id.to_string(),
                    name: ASK_USER.to_string(),
                    arguments: json!({ "question": question }),
                }];
            } else if let Some(element_calls) = super::screen::calls_written_as_command(command, id)
            {
                tracing::debug!(repair = "element-calls-as-command");
                calls = element_calls;
            }
        }
    }
    if let [call] = calls.as_slice() {
        if let Some(Value::String(q)) = call.arguments.get("question") {
            if call.name == ASK_USER && offers_help(q) {
                tracing::debug!(repair = "offer-of-help");
                return Step::Final(q.clone());
            }
        }
    }
    for call in &mut calls {
        let unmarked =
            shell_command(call).and_then(crate::policy::injection::without_untrusted_marks);
        if let Some(unmarked) = unmarked {
            tracing::debug!(repair = "untrusted-marks");
            call.arguments["command"] = json!(unmarked);
        }
        let mended = shell_command(call).map(terminate_exec);
        if let Some(mended) = mended.filter(|m| Some(m.as_str()) != shell_command(call)) {
            tracing::debug!(repair = "cut-exec");
            call.arguments["command"] = json!(mended);
        }
    }
    Step::Calls(calls)
}

/// `find`'s `-exec … \;` as a small model writes it inside JSON, where `\;` is no valid
/// escape: the output grammar lets it write only `\\`, and the `;` is lost (seen: `find
/// ~/logs -name '*.log' -exec mv {} ~/archive/ \`, which no parser reads, again and
/// again). A word of backslashes alone (or with its `;`: `\\`, `\\;`) that ends an
/// unterminated `-exec`, `-execdir`, `-ok` or `-okdir` clause becomes `\;`; every other
/// command is left as written.
pub fn terminate_exec(command: &str) -> String {
    let mut out = String::with_capacity(command.len() + 2);
    let mut open = false;
    let words: Vec<&str> = command.split(' ').collect();
    for (i, word) in words.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        match *word {
            "-exec" | "-execdir" | "-ok" | "-okdir" => open = true,
            ";" | "\\;" | "';'" | "+" if open => open = false,
            // One backslash or more, and maybe the `;` (seen in the real-model test:
            // `… -exec mv {} ~/archive/ \\`, two of them, three times in a row).
            w if open
                && !w.is_empty()
                && w.trim_end_matches(';').chars().all(|c| c == '\\')
                && !w.trim_end_matches(';').is_empty()
                && w != "\\;" =>
            {
                out.push_str("\\;");
                open = false;
                continue;
            }
            w if open && w.ends_with("\\;") => open = false,
            _ => {}
        }
        out.push_str(word);
    }
    out
}

/// The command of a shell call.
fn shell_command(call: &ToolCall) -> Option<&str> {
    (call.name == SHELL_TOOL)
        .then(|| call.arguments.get("command").and_then(Value::as_str))
        .flatten()
}

/// `text` offers help instead of asking about the request ("Hello! How can I assist you
/// today?"): seen as a 1.5B model's "question" for "Say hello.", left unanswered in a run
/// nobody answers, where it was the answer itself.
pub fn offers_help(text: &str) -> bool {
    let lower = text.to_lowercase();
    [
        "how can i help",
        "how can i assist",
        "how may i help",
        "how may i assist",
        "what can i do for you",
        "what can i help",
        "is there anything else",
        "anything else i can",
        "need help with anything",
    ]
    .iter()
    .any(|offer| lower.contains(offer))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shell(command: &str) -> Step {
        Step::Calls(vec![ToolCall {
            id: "c".into(),
            name: SHELL_TOOL.into(),
            arguments: json!({ "command": command, "workdir": "/tmp" }),
        }])
    }

    /// Each repair on the form it is for, and a step none fits left as it was.
    #[test]
    fn each_repair_mends_its_own_form_and_nothing_else() {
        let asked = mend(shell("ask_user('Which file?')"), "c");
        assert!(
            matches!(&asked, Step::Calls(c) if c[0].name == ASK_USER && c[0].arguments["question"] == "Which file?")
        );
        let offered = mend(shell("ask_user('How can I assist you today?')"), "c");
        assert_eq!(offered, Step::Final("How can I assist you today?".into()));
        let elements = mend(shell("ui_act(1, 'press')"), "c");
        assert!(matches!(&elements, Step::Calls(c) if c[0].name == "ui_act"));
        let Step::Calls(cut) = mend(shell("find ~ -name '*.log' -exec rm {} \\"), "c") else {
            panic!("calls")
        };
        assert_eq!(
            cut[0].arguments["command"],
            "find ~ -name '*.log' -exec rm {} \\;"
        );
        assert_eq!(cut[0].arguments["workdir"], "/tmp", "other arguments stay");
        let Step::Calls(unmarked) = mend(
            shell("wc -l <untrusted_data source=\"file\">a.txt</untrusted_data> > n"),
            "c",
        ) else {
            panic!("calls")
        };
        assert_eq!(unmarked[0].arguments["command"], "wc -l a.txt > n");
        for untouched in [shell("ls -l"), Step::Final("done".into())] {
            assert_eq!(mend(untouched.clone(), "c"), untouched);
        }
    }
}

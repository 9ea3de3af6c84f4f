//! The loop's own tools that speak with the user mid-task: `ask_user`, a question the
//! task waits on (answered by `Op::Answer`; a run nobody can answer says so at once), and
//! `report_progress`, a status line shown while the agent works. They live in the loop,
//! not in zeta-tools, because they speak through the loop's events and ops. Neither
//! touches the computer: both run without asking, and the answer, being the user's own
//! words, is not wrapped as untrusted data.

use serde_json::json;

use super::run::Executed;
use super::run::Run;
use super::ModelSource;
use crate::agent::ApprovalMessage;
use crate::model::{Model, ToolCall, ToolSpec};
use crate::store::audit::{CallDecision, Decider};
use crate::tool::ToolOutput;
use zeta_protocol::Event;

pub use super::planner::ASK_USER;
pub const REPORT_PROGRESS: &str = "report_progress";

/// Longest question and status line, in characters.
const MAX_TEXT: usize = 500;

pub fn ask_spec() -> ToolSpec {
    ToolSpec {
        name: ASK_USER.into(),
        description: "Ask the user one short question when the request leaves out something \
only they know (which file, which name, which of two options). The task waits for the answer. \
Never ask what a command can find out."
            .into(),
        parameters: json!({
            "type": "object",
            "properties": {"question": {"type": "string", "minLength": 1}},
            "required": ["question"],
        }),
    }
}

pub fn progress_spec() -> ToolSpec {
    ToolSpec {
        name: REPORT_PROGRESS.into(),
        description: "Show the user a short status line while a long task runs (what you \
are doing now). It changes nothing and needs no answer."
            .into(),
        parameters: json!({
            "type": "object",
            "properties": {"text": {"type": "string", "minLength": 1}},
            "required": ["text"],
        }),
    }
}

/// One of the loop's own tools.
pub fn is_own(name: &str) -> bool {
    name == ASK_USER || name == REPORT_PROGRESS
}

/// How a question ended.
enum Reply {
    Text(String),
    NoneComing,
    TimedOut,
    Cancelled,
}

fn said(output: ToolOutput) -> Executed {
    Executed {
        output,
        decision: CallDecision::Allowed,
        decided_by: Decider::Policy,
        ran: false,
        audited: false,
    }
}

/// Words a question may open with when it has no question mark.
const QUESTION_WORDS: &[&str] = &[
    "which", "what", "where", "who", "whom", "whose", "when", "why", "how", "do", "does", "did",
    "is", "are", "was", "should", "shall", "can", "could", "would", "will", "may",
];

/// `text` asks something: a question mark, or a question word first.
fn is_question(text: &str) -> bool {
    let first = text
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .trim_matches(|c: char| !c.is_alphanumeric())
        .to_lowercase();
    text.contains(['?', '？']) || QUESTION_WORDS.contains(&first.as_str())
}

fn text_argument(call: &ToolCall, key: &str) -> Option<String> {
    let text = call.arguments.get(key)?.as_str()?.trim();
    (!text.is_empty()).then(|| crate::text::clip(text, MAX_TEXT))
}

impl<S: ModelSource, M: Model> Run<'_, S, M> {
    /// Runs `ask_user` or `report_progress`.
    pub(super) async fn own_tool(&mut self, call: &ToolCall) -> Executed {
        if call.name == REPORT_PROGRESS {
            let Some(text) = text_argument(call, "text") else {
                return said(ToolOutput::error(
                    "report_progress needs a non-empty `text`.",
                ));
            };
            self.emit(Event::Progress {
                task_id: self.task_id(),
                text: text.clone(),
            });
            return said(ToolOutput::ok("Shown to the user.", text));
        }
        let Some(question) = text_argument(call, "question") else {
            return said(ToolOutput::error("ask_user needs a non-empty `question`."));
        };
        if !is_question(&question) || super::repair::offers_help(&question) {
            // Seen: a 1.5B model "asking" "The cheapest item is:" to say its answer, and
            // "Hello! How can I assist you today?" to greet.
            return said(ToolOutput::error(
                "ask_user is only for a question about the request that only the user can \
answer (ending with ?). To tell the user something (an answer, a greeting), answer with it.",
            ));
        }
        let timeout_secs = self.ctx.settings.permissions.approval_timeout_secs;
        self.emit(Event::QuestionAsked {
            task_id: self.task_id(),
            call_id: call.id.clone(),
            question: question.clone(),
            timeout_secs,
        });
        let reply = self.wait_for_reply(&call.id, timeout_secs).await;
        self.emit(Event::QuestionAnswered {
            task_id: self.task_id(),
            call_id: call.id.clone(),
            answered: matches!(reply, Reply::Text(_)),
        });
        if matches!(reply, Reply::NoneComing | Reply::TimedOut) {
            self.finishing.went_unanswered(question.clone());
        }
        let mut executed = said(match reply {
            Reply::Text(text) => ToolOutput::ok(
                format!("The user answered: {text}"),
                crate::text::one_line(&text, 80),
            ),
            Reply::NoneComing => ToolOutput::error(
                "No answer is coming: nobody can answer questions in this run. Do not guess \
it: nothing that changes things will run now. You may still look (list, read); then answer \
with what you found and what you would need to know.",
            ),
            Reply::TimedOut => ToolOutput::error(format!(
                "The user did not answer within {timeout_secs} s. Do not guess it: nothing \
that changes things will run now. You may still look (list, read); then answer with what \
you found and what you would need to know."
            )),
            Reply::Cancelled => ToolOutput::error("The task was cancelled while asking."),
        });
        executed.decided_by = Decider::User;
        executed
    }

    async fn wait_for_reply(&mut self, call_id: &str, timeout_secs: u32) -> Reply {
        let limit = tokio::time::sleep(std::time::Duration::from_secs(u64::from(timeout_secs)));
        tokio::pin!(limit);
        let mut cancel = self.ctx.cancel.clone();
        loop {
            tokio::select! {
                message = self.ctx.approvals.recv() => match message {
                    Some(ApprovalMessage::Reply { call_id: id, text }) if id == call_id => {
                        return match text.map(|t| t.trim().to_string()).filter(|t| !t.is_empty()) {
                            Some(text) => Reply::Text(text),
                            None => Reply::NoneComing,
                        };
                    }
                    Some(_) => continue,
                    None => return Reply::NoneComing,
                },
                _ = &mut limit => return Reply::TimedOut,
                _ = cancel.cancelled() => return Reply::Cancelled,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::is_question;
    use crate::agent_loop::repair::offers_help;

    #[test]
    fn only_questions_are_asked() {
        for q in [
            "Which file do you mean?",
            "What name should the file get",
            "Quel fichier ?",
            "Do you want the old or the new one",
            "The file?",
        ] {
            assert!(is_question(q), "{q}");
        }
        for not in [
            "The cheapest item is:",
            "Done.",
            "I will now delete the file",
            "",
        ] {
            assert!(!is_question(not), "{not}");
        }
    }

    #[test]
    fn an_offer_of_help_is_not_a_question_about_the_request() {
        for offer in [
            "Hello! How can I assist you today?",
            "Hi there, how can I help you?",
            "How may I help you today?",
            "What can I do for you?",
            "Is there anything else you need?",
            "Done. Anything else I can do?",
        ] {
            assert!(offers_help(offer), "{offer}");
        }
        for question in [
            "Which report file do you mean?",
            "What name should the file get?",
            "Can I delete both files?",
            "How many lines should I keep?",
            "Should I help myself to the backup folder?",
        ] {
            assert!(!offers_help(question), "{question}");
        }
    }
}

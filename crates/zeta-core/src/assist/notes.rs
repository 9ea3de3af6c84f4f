//! First-turn notes: what a model is told beside the request before its first step, each
//! a named `Note` a profile chooses (see `assist::Profile`). Each says what it adds and
//! whether it carries text the user did not type (then the task counts as having read
//! it).
//!
//! - `ask-first`: the request tells the assistant to ask something first.
//!
//! Knowledge from outside the core — the skills (zeta-skills), where the everyday command
//! idioms a small model is shown now live as data — comes through `Knowledge`,
//! which also knows the model's size: a large model is shown every skill's name and
//! description and picks, a small one the few that fit its request.

use super::request::Request;
use crate::policy::ShellEnv;

/// What a note adds to the first turn.
pub struct Added {
    pub text: String,
    /// Why the task now counts as having read input the user did not type, if it does.
    pub untrusted: Option<String>,
    /// The named pieces of knowledge it showed (skills), recorded for the task.
    pub used: Vec<String>,
}

/// Knowledge the composition root hands the loop (the skills): what a task's first turn
/// is told, by the model's size. Read between tasks, never in the middle of one.
pub trait Knowledge: Send + Sync {
    fn note(&self, request: &Request, room: Room) -> Option<Added>;
}

/// What the model can take of a knowledge note: whether it is the small one (shown
/// examples, not a list to pick from) and the most tokens the note may hold (a part of
/// the context window, so a small window is not filled before the task starts).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Room {
    pub small: bool,
    pub tokens: usize,
}

impl Room {
    /// The part of a context window of `window` tokens a knowledge note may hold.
    pub fn of_window(small: bool, window: u32) -> Self {
        Self {
            small,
            tokens: window as usize / 8,
        }
    }
}

/// One kind of first-turn note.
pub trait Note: Send + Sync {
    fn name(&self) -> &'static str;
    fn note(&self, request: &Request, env: &ShellEnv) -> Option<Added>;
}

/// The request tells the assistant to ask the user first ("ask me which…"): a 1.5B model
/// given a recipe runs it on its own guess instead (measured).
pub struct AskFirst;

impl Note for AskFirst {
    fn name(&self) -> &'static str {
        "ask-first"
    }
    fn note(&self, request: &Request, _env: &ShellEnv) -> Option<Added> {
        super::request::asks_to_be_asked(&request.text).then(|| Added {
            text: crate::prompts::ASK_FIRST.to_string(),
            untrusted: None,
            used: Vec::new(),
        })
    }
}

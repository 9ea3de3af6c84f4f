//! Which help a model gets: its first-turn notes, whether its answers are checked, and
//! how much of earlier tasks it is shown. A model that needs no help gets none of it
//! but the knowledge (skills) it may pick from; the small local model gets what measured
//! as a gain (see `benches/everyday`).

use std::sync::Arc;

use super::notes::{AskFirst, Knowledge, Note, Room};

/// The help one task's model gets.
pub struct Profile {
    pub name: &'static str,
    /// First-turn notes, in the order they are added.
    pub notes: Vec<Box<dyn Note>>,
    /// The previous task's answer only when the request points back to it (a small
    /// model answers the previous question again when it sees it).
    pub previous_only_when_referred: bool,
    /// The long-term summary in the first turn.
    pub memory_summary: bool,
}

impl Profile {
    /// The profile for a model: `small` (the local one), with `knowledge` (the skills)
    /// or without.
    pub fn for_model(small: bool, knowledge: Option<Box<dyn Note>>) -> Self {
        if !small {
            return Self {
                name: "none",
                notes: knowledge.into_iter().collect(),
                previous_only_when_referred: false,
                memory_summary: true,
            };
        }
        let mut notes: Vec<Box<dyn Note>> = vec![Box::new(AskFirst)];
        notes.extend(knowledge);
        Self {
            name: "small",
            notes,
            previous_only_when_referred: true,
            memory_summary: false,
        }
    }

    /// This profile without the notes named in `off` (a measuring aid: `ZETA_HELP_OFF`).
    pub fn without(mut self, off: &[String]) -> Self {
        self.notes.retain(|n| !off.iter().any(|o| o == n.name()));
        self
    }

    /// The skills as a first-turn note for a model of this size and window.
    pub fn skills(knowledge: Arc<dyn Knowledge>, room: Room) -> Box<dyn Note> {
        Box::new(Skills { knowledge, room })
    }

    /// The names of its notes.
    pub fn note_names(&self) -> Vec<&'static str> {
        self.notes.iter().map(|n| n.name()).collect()
    }
}

/// `Knowledge` for a model of one size, as a note.
struct Skills {
    knowledge: Arc<dyn Knowledge>,
    room: Room,
}

impl Note for Skills {
    fn name(&self) -> &'static str {
        "skills"
    }
    fn note(
        &self,
        request: &super::request::Request,
        _env: &crate::policy::ShellEnv,
    ) -> Option<super::notes::Added> {
        self.knowledge.note(request, self.room)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A note that is always there.
    struct Known;
    impl Note for Known {
        fn name(&self) -> &'static str {
            "skills"
        }
        fn note(
            &self,
            _request: &super::super::request::Request,
            _env: &crate::policy::ShellEnv,
        ) -> Option<super::super::notes::Added> {
            None
        }
    }

    #[test]
    fn a_model_that_needs_no_help_gets_none_but_the_knowledge() {
        let large = Profile::for_model(false, None);
        assert!(large.notes.is_empty());
        assert!(!large.previous_only_when_referred);
        assert_eq!(
            Profile::for_model(false, Some(Box::new(Known))).note_names(),
            ["skills"]
        );
        let small = Profile::for_model(true, Some(Box::new(Known)));
        assert_eq!(small.note_names(), ["ask-first", "skills"]);
        assert_eq!(Profile::for_model(true, None).note_names(), ["ask-first"]);
        assert!(Profile::for_model(true, None)
            .without(&["ask-first".to_string(), "second-way".to_string()])
            .note_names()
            .is_empty());
    }
}

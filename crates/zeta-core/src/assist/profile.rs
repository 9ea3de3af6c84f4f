//! Which help a model gets: its first-turn notes, whether its answers are checked, and
//! how much of earlier tasks it is shown. A model that needs no help gets none of it;
//! the small local model gets what measured as a gain (see `benches/everyday`).

use super::notes::{AskFirst, Note, Peek, Recipes};

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
    /// The profile for a model: `small` (the local one), with the command recipes or not.
    pub fn for_model(small: bool, recipes: bool) -> Self {
        if !small {
            return Self {
                name: "none",
                notes: Vec::new(),
                previous_only_when_referred: false,
                memory_summary: true,
            };
        }
        let mut notes: Vec<Box<dyn Note>> = vec![Box::new(AskFirst)];
        if recipes {
            notes.push(Box::new(Recipes));
        }
        notes.push(Box::new(Peek));
        Self {
            name: "small",
            notes,
            previous_only_when_referred: true,
            memory_summary: false,
        }
    }

    /// The names of its notes.
    pub fn note_names(&self) -> Vec<&'static str> {
        self.notes.iter().map(|n| n.name()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_model_that_needs_no_help_gets_none() {
        let large = Profile::for_model(false, true);
        assert!(large.notes.is_empty());
        assert!(!large.previous_only_when_referred);
        let small = Profile::for_model(true, true);
        assert_eq!(small.note_names(), ["ask-first", "recipes", "peek"]);
        assert_eq!(
            Profile::for_model(true, false).note_names(),
            ["ask-first", "peek"]
        );
    }
}

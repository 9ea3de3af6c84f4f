//! The skills in a task's first turn (core's `Knowledge` seam). A large model is shown
//! every skill that is on and can run here, by name and description (as much of the
//! list as its window's room takes), and reads the one it picks with the `skill` tool.
//! A small model is shown the one whose description is clearly nearest the request in
//! meaning, or none (`choose`), as an example with its command — never with a value of
//! the request put into it — among the skills `SmallOffer` lets it have: by default all,
//! Zeta's own and the person's. A template skill (a learned one: it declares parameters)
//! is a candidate only for a request of its shape (`choose::Tuning::template_floor`).
//!
//! Measured on the 1.5B model, on the everyday bench's held-out half (families nobody
//! tuned on): Zeta's own skills, offered as a short list by shared nearness, did worse
//! than none in four interleaved runs (22/38 against 26/38, 20 against 24, 20 against
//! 23, 21 against 26); offered one clearly nearest or none, no worse (32/38 both, then
//! the figures in `docs/architecture.md`), so they are offered by default.

use std::sync::Arc;

use zeta_core::assist::notes::{Added, Knowledge, Room};
use zeta_core::assist::request::Request;
use zeta_core::context::count_text;

use crate::choose::{Chooser, Query};
use crate::shelf::{Entry, Skills};

/// A skill's steps shown to a small model at most (longer ones are cut at a line).
const MOST_STEPS: usize = 700;

/// Which skills a small model may be offered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SmallOffer {
    /// Zeta's own and the person's (the default).
    All,
    /// The person's only.
    Yours,
    /// None.
    Off,
}

impl SmallOffer {
    /// From `ZETA_SKILLS_SMALL` (`all`, `yours`, `off`; anything else is the default,
    /// `all`).
    pub fn from_env() -> Self {
        match std::env::var("ZETA_SKILLS_SMALL").as_deref() {
            Ok("yours") => Self::Yours,
            Ok("off") => Self::Off,
            _ => Self::All,
        }
    }

    fn allows(self, entry: &Entry) -> bool {
        match self {
            Self::All => true,
            Self::Yours => !entry.skill.is_built_in(),
            Self::Off => false,
        }
    }
}

/// One skill as `explain` ranks it.
#[derive(Debug, Clone, PartialEq)]
pub struct Explained {
    pub similarity: f32,
    pub name: String,
    pub shown: bool,
    /// It declares parameters: compared with the request's shape, and a candidate only
    /// from `Tuning::template_floor`.
    pub template: bool,
}

pub struct SkillsNote {
    skills: Arc<Skills>,
    chooser: Arc<Chooser>,
    small: SmallOffer,
}

impl SkillsNote {
    pub fn new(skills: Arc<Skills>, chooser: Arc<Chooser>, small: SmallOffer) -> Self {
        Self {
            skills,
            chooser,
            small,
        }
    }
}

impl SkillsNote {
    /// Why a small model is shown what it is shown for `request` (`zeta skills match`):
    /// the skills it may be offered, nearest in meaning first, each with its similarity
    /// and whether it would be shown.
    pub fn explain(&self, request: &Request) -> Vec<Explained> {
        let catalog = self.skills.current();
        let offered: Vec<&Entry> = catalog
            .enabled()
            .filter(|e| crate::choose::runs_here(&e.skill) && self.small.allows(e))
            .collect();
        let query = Query::of(request, &home(), &offered);
        let shown: Vec<String> = self
            .chooser
            .choose(query.clone(), &offered)
            .iter()
            .map(|e| e.skill.name.clone())
            .collect();
        self.chooser
            .ranked(query.clone(), &offered)
            .into_iter()
            .map(|(similarity, e)| Explained {
                similarity,
                name: e.skill.name.clone(),
                shown: shown.contains(&e.skill.name),
                template: crate::choose::is_template(e),
            })
            .collect()
    }

    /// Whether a small model can be offered any skill: the choosing model is there.
    pub fn can_choose(&self) -> bool {
        self.chooser.can_choose()
    }
}

impl Knowledge for SkillsNote {
    fn note(&self, request: &Request, room: Room) -> Option<Added> {
        let catalog = self.skills.current();
        let usable: Vec<&Entry> = catalog
            .enabled()
            .filter(|e| crate::choose::runs_here(&e.skill))
            .collect();
        if usable.is_empty() {
            return None;
        }
        if room.small {
            let offered: Vec<&Entry> = usable
                .into_iter()
                .filter(|e| self.small.allows(e))
                .collect();
            if offered.is_empty() {
                return None;
            }
            let query = Query::of(request, &home(), &offered);
            let chosen = self.chooser.choose(query, &offered);
            small_note(&chosen)
        } else {
            large_note(&usable, room.tokens)
        }
    }
}

/// The home `~` stands for in requests: this process's, as the loop's parse of the
/// request reads it (`ShellEnv::current`).
fn home() -> std::path::PathBuf {
    zeta_core::policy::ShellEnv::current(std::path::Path::new(".")).home
}

/// Every usable skill, for a model that picks: names and descriptions (a skill the
/// person did not write or accept by name only: its description is its author's text).
/// Where that would take more than `room` tokens, names only; where even those would,
/// as many names as fit and how many more there are (none when not one fits).
fn large_note(usable: &[&Entry], room: usize) -> Option<Added> {
    let lines: Vec<String> = usable
        .iter()
        .map(|e| {
            if e.trusted {
                format!("- {}: {}", e.skill.name, e.skill.description)
            } else {
                format!(
                    "- {} (from a folder the person did not write; read it to see what it does)",
                    e.skill.name
                )
            }
        })
        .collect();
    let whole = format!(
        "Skills: procedures that worked before. When one fits this request, read it with \
         the `skill` tool before acting, and follow it where it fits:\n{}",
        lines.join("\n")
    );
    let text = if count_text(&whole) <= room {
        whole
    } else {
        let head = "Skills (procedures that worked before), by name: when a name suggests one \
                    fits this request, read it with the `skill` tool before acting";
        let names: Vec<&str> = usable.iter().map(|e| e.skill.name.as_str()).collect();
        let listed = |shown: usize| {
            let more = names.len() - shown;
            let tail = if more > 0 {
                format!(" (and {more} more, not listed: the context window is small)")
            } else {
                String::new()
            };
            format!("{head}: {}{tail}.", names[..shown].join(", "))
        };
        // The most names that fit, counted on the text itself.
        let fits = (1..=names.len())
            .take_while(|&n| count_text(&listed(n)) <= room)
            .last()?;
        listed(fits)
    };
    Some(Added {
        text,
        untrusted: None,
        used: Vec::new(),
    })
}

/// The chosen skills as examples for a small model.
fn small_note(chosen: &[&Entry]) -> Option<Added> {
    if chosen.is_empty() {
        return None;
    }
    let lines: Vec<String> = chosen
        .iter()
        .map(|e| match e.skill.first_command() {
            Some(command) if !command.contains('\n') => {
                format!("- {}: {}", e.skill.title(), command)
            }
            _ => format!("- {}:\n{}", e.skill.title(), steps(&e.skill.body)),
        })
        .collect();
    let untrusted = chosen.iter().find(|e| !e.trusted).map(|e| {
        format!(
            "this task was shown the skill `{}`, which came from a folder you did not write or accept",
            e.skill.name
        )
    });
    Some(Added {
        text: format!(
            "Examples of commands for requests of this kind. They are examples, not the answer: \
             use one only if it does what this request asks, with its capitals replaced by what \
             the request names:\n{}",
            lines.join("\n")
        ),
        untrusted,
        used: chosen.iter().map(|e| e.skill.name.clone()).collect(),
    })
}

/// A skill's body, cut at a line end near `MOST_STEPS`.
fn steps(body: &str) -> String {
    if body.len() <= MOST_STEPS {
        return body.to_string();
    }
    let mut cut = MOST_STEPS;
    while !body.is_char_boundary(cut) {
        cut -= 1;
    }
    let head = &body[..cut];
    let head = head.rfind('\n').map_or(head, |i| &head[..i]);
    format!("{head}\n…")
}

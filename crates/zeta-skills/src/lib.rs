//! Skills: procedures as folders with a `SKILL.md` (the format Claude's and Codex's
//! agents read), Zeta's own compiled in as data and the person's under
//! `$ZETA_HOME/skills`.
//!
//! - [`format`]: a `SKILL.md` parsed into a typed `Skill`, or an error saying where.
//! - [`library`]: loading Zeta's own and a folder's; a malformed skill is a problem by
//!   name, the others load.
//! - [`state`]: the person's switches and trust (`skills.json`).
//! - [`shelf`]: `Skills`, the shared handle: read again when the folder changed (between
//!   tasks and turns), and the person's changes (add, write, remove, on/off, trust).
//! - [`embed`] and [`choose`]: choosing skills for a request by meaning; [`vectors`]:
//!   the descriptions' vectors kept between runs.
//! - [`note`]: the skills in a task's first turn (all for a large model, the chosen few
//!   for a small one); [`tool`]: the `skill` tool that reads one on demand.
//! - [`learn`]: a skill drafted from a task that worked, values made parameters.

pub mod choose;
pub mod embed;
pub mod error;
pub mod format;
pub mod learn;
pub mod library;
pub mod note;
pub mod shelf;
pub mod state;
pub mod tool;
pub mod vectors;

pub use error::SkillError;
pub use shelf::{Catalog, Entry, Skills};

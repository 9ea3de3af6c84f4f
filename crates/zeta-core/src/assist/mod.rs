//! What the loop knows of a task beyond its conversation, behind one seam:
//!
//! - [`request`]: the request parsed once (sentences, paths, what it orders and asks).
//! - [`evidence`]: what each call did: ran or not, worked or not, what it printed, and the
//!   files it created, changed, moved or deleted (a look before and after).
//! - [`values`]: the values a text gives (numbers, dates, versions) and whether outputs
//!   gave them.
//! - [`checks`]: the answer checks, as named and capped types, and the finisher that runs
//!   them; `agent_loop::finish` holds a task's finishing state around it.
//! - [`notes`]: first-turn notes behind one trait (ask first; the skills come through
//!   its `Knowledge`).
//! - [`names_piped`]: the note shown with a command's output where a program read files'
//!   names (`ls FILE | wc -l`) where their contents were meant.
//! - [`profile`]: which help a model gets (none for a model that needs none).
//! - [`windows`]: which window on screen the request names (the evidence that it is
//!   about a window).
//!
//! Nothing here reads the answer's phrasing to decide what it claims: the checks hold the
//! request's asks and the answer's values against the evidence.

pub mod checks;
pub mod evidence;
pub mod names_piped;
pub mod notes;
pub mod profile;
pub mod request;
pub mod values;
pub mod windows;

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
//! - [`names_piped`]: a command that fed files' names where the files were meant (`ls
//!   FILE | wc -l`, `ls DIR | sort -rh`), run with the files instead, the model told so.
//! - [`text_fields`]: awk's arithmetic on a field that holds no number in the file it
//!   reads, run with the file's one field of numbers, the model told so.
//! - [`unnamed_matches`]: grep run by find on one file at a time, which prints lines but
//!   not their files, run with `-H`, the model told so.
//! - [`named_files`]: a file the request names, given to a reader where it is not
//!   (`/var/log/server.log` for "my server.log"), read where it is, the model told so.
//! - [`other_homes`]: places written in a home that is not the person's
//!   (`/home/user/projects`), read in theirs where theirs holds them, the model told so.
//! - [`profile`]: which help a model gets (none for a model that needs none).
//! - [`windows`]: which window on screen the request names (the evidence that it is
//!   about a window).
//!
//! Nothing here reads the answer's phrasing to decide what it claims: the checks hold the
//! request's asks and the answer's values against the evidence.

pub mod checks;
pub mod evidence;
pub mod named_files;
pub mod names_piped;
pub mod notes;
pub mod other_homes;
pub mod profile;
pub mod request;
pub mod text_fields;
pub mod unnamed_matches;
pub mod values;
pub mod windows;

#[cfg(test)]
pub(crate) mod test_home;

/// `name` (a path a command gave, expanded) as a path: relative to `cwd` where it is not
/// absolute.
pub(crate) fn in_folder(name: &str, cwd: &std::path::Path) -> std::path::PathBuf {
    let path = std::path::PathBuf::from(name);
    if path.is_absolute() {
        path
    } else {
        cwd.join(path)
    }
}

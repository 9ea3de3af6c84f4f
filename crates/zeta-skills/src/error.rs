//! What can go wrong with skills, said with the skill or folder it concerns.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum SkillError {
    #[error("{place}: could not read it: {source}")]
    Read {
        place: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{place}: {bytes} bytes; a SKILL.md may hold at most {most}")]
    TooLarge {
        place: String,
        bytes: usize,
        most: usize,
    },
    #[error(
        "{place}: no front matter; a SKILL.md starts with a line `---`, then `name:` and \
         `description:`, then a line `---`"
    )]
    NoFrontMatter { place: String },
    #[error("{place}: its front matter is not valid YAML: {message}")]
    Yaml { place: String, message: String },
    #[error("{place}: its front matter has no `{field}`")]
    MissingField { place: String, field: &'static str },
    #[error("{place}: `{name}` cannot be a skill's name: {why}")]
    BadName {
        place: String,
        name: String,
        why: &'static str,
    },
    #[error("{place}: its description is longer than {most} characters")]
    LongDescription { place: String, most: usize },
    #[error("{place}: another skill is already named `{name}` ({first})")]
    Duplicate {
        place: String,
        name: String,
        first: String,
    },
    #[error("{place}: not a text file (UTF-8)")]
    NotText { place: String },
    #[error("no skill is named `{0}`")]
    Unknown(String),
    #[error("`{0}` is one of Zeta's own skills; turn it off instead")]
    BuiltIn(String),
    #[error("{path}: no SKILL.md there")]
    NoSkillFile { path: PathBuf },
    #[error("a skill named `{0}` already exists")]
    Exists(String),
    #[error("{what} {path}: {source}")]
    Io {
        what: &'static str,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("the skills' state ({path}): {message}")]
    State { path: PathBuf, message: String },
    #[error("the skills' record in the database: {0}")]
    Store(#[from] rusqlite::Error),
}

//! What the person decided about skills, in `$ZETA_HOME/skills.json`: the ones turned
//! off, and the ones they trust (each by the digest of the text they trusted, so an
//! edit by anyone else makes it untrusted again). A file that does not parse is
//! reported and kept aside (`skills.json.broken`) before the next write; nothing in it
//! is silently lost.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::SkillError;

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    #[serde(default)]
    pub disabled: BTreeSet<String>,
    /// Skill name → digest of the `SKILL.md` the person wrote, accepted or trusted.
    #[serde(default)]
    pub trusted: BTreeMap<String, String>,
}

impl State {
    /// Reads the state; a missing file is the default; a malformed one is an error (the
    /// caller reports it and goes on with the default).
    pub fn read(path: &Path) -> Result<Self, SkillError> {
        match std::fs::read_to_string(path) {
            Ok(text) => serde_json::from_str(&text).map_err(|e| SkillError::State {
                path: path.to_path_buf(),
                message: format!(
                    "not valid: {e}; it is kept as skills.json.broken at the next change"
                ),
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Self::default()),
            Err(e) => Err(SkillError::State {
                path: path.to_path_buf(),
                message: e.to_string(),
            }),
        }
    }

    /// Changes the state on disk with `change` (read again first, so two writers do not
    /// undo each other's change); a malformed file is moved aside, not overwritten.
    pub fn update(path: &Path, change: impl FnOnce(&mut State)) -> Result<State, SkillError> {
        let mut state = match Self::read(path) {
            Ok(state) => state,
            Err(SkillError::State { .. }) if path.exists() => {
                let aside = broken_path(path);
                std::fs::rename(path, &aside).map_err(|source| SkillError::Io {
                    what: "could not move aside",
                    path: path.to_path_buf(),
                    source,
                })?;
                Self::default()
            }
            Err(e) => return Err(e),
        };
        change(&mut state);
        let text = serde_json::to_string_pretty(&state).map_err(|e| SkillError::State {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?;
        zeta_protocol::home::write_private(path, text.as_bytes()).map_err(|source| {
            SkillError::Io {
                what: "could not write",
                path: path.to_path_buf(),
                source,
            }
        })?;
        Ok(state)
    }
}

fn broken_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".broken");
    PathBuf::from(name)
}

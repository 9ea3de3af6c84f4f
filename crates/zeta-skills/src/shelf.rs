//! `Skills`: the skills a running Zeta knows, shared by the agent, the app and the CLI.
//! Each look (`current`) checks the folder's fingerprint and reads the skills again only
//! when it changed — so a skill added, edited or removed is seen by the next task and the
//! next turn, never in the middle of one (a look hands out one whole `Catalog`).
//! It also makes the person's changes: add a folder, write a new skill, remove, turn on
//! or off, trust.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::error::SkillError;
use crate::format::{self, Origin, Skill};
use crate::library::{read_folder, Fingerprint, Library, Problem};
use crate::state::State;

/// One skill as the person sees it.
#[derive(Debug, Clone)]
pub struct Entry {
    pub skill: Skill,
    pub enabled: bool,
    /// Built in, or written or accepted by the person (its text unchanged since).
    pub trusted: bool,
}

/// The skills at one moment: every one that loaded with its switches, and the problems.
#[derive(Debug, Clone, Default)]
pub struct Catalog {
    pub entries: Vec<Entry>,
    pub problems: Vec<Problem>,
}

impl Catalog {
    pub fn get(&self, name: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.skill.name == name)
    }
    /// The ones turned on.
    pub fn enabled(&self) -> impl Iterator<Item = &Entry> {
        self.entries.iter().filter(|e| e.enabled)
    }
}

/// The skills of one home (or Zeta's own only).
pub struct Skills {
    dir: Option<PathBuf>,
    state: Option<PathBuf>,
    loaded: Mutex<Option<(Fingerprint, Arc<Catalog>)>>,
}

impl Skills {
    /// Zeta's own and those in `dir`, with the person's choices in `state`.
    pub fn new(dir: PathBuf, state: PathBuf) -> Self {
        Self {
            dir: Some(dir),
            state: Some(state),
            loaded: Mutex::new(None),
        }
    }

    /// The skills of a Zeta home.
    pub fn for_home(home: &zeta_protocol::home::ZetaHome) -> Self {
        Self::new(home.skills_dir(), home.skills_state_file())
    }

    /// Zeta's own skills only, all on (for a run without a home).
    pub fn built_in_only() -> Self {
        Self {
            dir: None,
            state: None,
            loaded: Mutex::new(None),
        }
    }

    /// The person's skills folder.
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// The skills now: read again when the folder or the state changed since last look.
    pub fn current(&self) -> Arc<Catalog> {
        let print = Fingerprint::of(self.dir.as_deref(), self.state.as_deref());
        let mut loaded = self.loaded.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((seen, catalog)) = loaded.as_ref() {
            if *seen == print {
                return catalog.clone();
            }
        }
        let catalog = Arc::new(self.read());
        tracing::debug!(
            skills = catalog.entries.len(),
            problems = catalog.problems.len(),
            "skills read"
        );
        *loaded = Some((print, catalog.clone()));
        catalog
    }

    fn read(&self) -> Catalog {
        let library = Library::load(self.dir.as_deref());
        let mut problems = library.problems;
        let state = match &self.state {
            Some(path) => State::read(path).unwrap_or_else(|e| {
                problems.push(Problem {
                    name: "skills.json".into(),
                    message: e.to_string(),
                });
                State::default()
            }),
            None => State::default(),
        };
        let entries = library
            .skills
            .into_iter()
            .map(|skill| Entry {
                enabled: !state.disabled.contains(&skill.name),
                trusted: skill.is_built_in()
                    || state.trusted.get(&skill.name) == Some(&skill.digest),
                skill,
            })
            .collect();
        Catalog { entries, problems }
    }

    fn dir_or_err(&self) -> Result<&Path, SkillError> {
        self.dir.as_deref().ok_or_else(|| SkillError::State {
            path: PathBuf::new(),
            message: "this Zeta has no skills folder".into(),
        })
    }

    fn state_or_err(&self) -> Result<&Path, SkillError> {
        self.state.as_deref().ok_or_else(|| SkillError::State {
            path: PathBuf::new(),
            message: "this Zeta has no skills state".into(),
        })
    }

    /// Copies the skill folder `from` into the skills folder as it is (named by its
    /// `name`); `trust`: the person vouches for it. Returns its name.
    pub fn add(&self, from: &Path, trust: bool) -> Result<String, SkillError> {
        let skill = read_folder(from)?;
        let target = self.dir_or_err()?.join(&skill.name);
        if target.exists()
            || self
                .current()
                .get(&skill.name)
                .is_some_and(|e| !e.skill.is_built_in())
        {
            return Err(SkillError::Exists(skill.name));
        }
        copy_dir(from, &target)?;
        if trust {
            self.trust(&skill.name, &skill.digest)?;
        }
        Ok(skill.name)
    }

    /// Writes a skill the person wrote (or accepted): trusted.
    pub fn write(
        &self,
        name: &str,
        description: &str,
        body: &str,
        replace: bool,
    ) -> Result<Skill, SkillError> {
        format::check_name(name).map_err(|why| SkillError::BadName {
            place: "the new skill".into(),
            name: name.to_string(),
            why,
        })?;
        let folder = self.dir_or_err()?.join(name);
        if folder.join("SKILL.md").exists() && !replace {
            return Err(SkillError::Exists(name.to_string()));
        }
        let text = format::render(name, description, body);
        let place = folder.join("SKILL.md").display().to_string();
        // Parsed before it is written: what is saved loads.
        let skill = format::parse(&text, &place, Origin::Folder(folder.clone()))?;
        zeta_protocol::home::create_private_dir(&folder).map_err(|source| SkillError::Io {
            what: "could not create",
            path: folder.clone(),
            source,
        })?;
        zeta_protocol::home::write_private(&folder.join("SKILL.md"), text.as_bytes()).map_err(
            |source| SkillError::Io {
                what: "could not write",
                path: folder.join("SKILL.md"),
                source,
            },
        )?;
        self.trust(name, &skill.digest)?;
        Ok(skill)
    }

    /// Deletes one of the person's skills (its folder).
    pub fn remove(&self, name: &str) -> Result<(), SkillError> {
        let catalog = self.current();
        let entry = catalog
            .get(name)
            .ok_or_else(|| SkillError::Unknown(name.to_string()))?;
        let Some(folder) = entry.skill.folder() else {
            return Err(SkillError::BuiltIn(name.to_string()));
        };
        std::fs::remove_dir_all(folder).map_err(|source| SkillError::Io {
            what: "could not delete",
            path: folder.to_path_buf(),
            source,
        })?;
        State::update(self.state_or_err()?, |s| {
            s.trusted.remove(name);
            s.disabled.remove(name);
        })?;
        Ok(())
    }

    /// Turns a skill on or off.
    pub fn set_enabled(&self, name: &str, on: bool) -> Result<(), SkillError> {
        if self.current().get(name).is_none() {
            return Err(SkillError::Unknown(name.to_string()));
        }
        State::update(self.state_or_err()?, |s| {
            if on {
                s.disabled.remove(name);
            } else {
                s.disabled.insert(name.to_string());
            }
        })?;
        Ok(())
    }

    /// The person trusts this text of the skill (a later edit by anyone else undoes it).
    pub fn trust(&self, name: &str, digest: &str) -> Result<(), SkillError> {
        State::update(self.state_or_err()?, |s| {
            s.trusted.insert(name.to_string(), digest.to_string());
        })?;
        Ok(())
    }
}

/// Copies a folder's files and folders (links are not followed; owner-only).
fn copy_dir(from: &Path, to: &Path) -> Result<(), SkillError> {
    let io = |what, path: &Path| {
        let path = path.to_path_buf();
        move |source| SkillError::Io { what, path, source }
    };
    zeta_protocol::home::create_private_dir(to).map_err(io("could not create", to))?;
    for entry in std::fs::read_dir(from).map_err(io("could not read", from))? {
        let entry = entry.map_err(io("could not read", from))?;
        let kind = entry
            .file_type()
            .map_err(io("could not read", &entry.path()))?;
        let target = to.join(entry.file_name());
        if kind.is_dir() {
            copy_dir(&entry.path(), &target)?;
        } else if kind.is_file() {
            std::fs::copy(entry.path(), &target).map_err(io("could not copy", &entry.path()))?;
        }
    }
    Ok(())
}

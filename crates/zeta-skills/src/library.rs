//! Loading skills: Zeta's own (the `builtin/` folder of this crate, compiled in as data)
//! and the person's (a folder per skill under `$ZETA_HOME/skills`). A malformed skill is
//! a `Problem` named by its folder or name; the others still load. A folder's
//! `Fingerprint` tells when it changed, so the skills are read again only then.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};

use include_dir::{include_dir, Dir};

use crate::error::SkillError;
use crate::format::{self, Origin, Skill, MOST_BYTES};

static BUILT_IN: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/builtin");

/// Files beside a `SKILL.md` listed at most (deeper or further ones are not offered).
const MOST_FILES: usize = 100;
/// How deep under a skill's folder its files are listed.
const MOST_DEPTH: usize = 4;

/// A skill that did not load, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The skill's name when it could be read, else its folder's.
    pub name: String,
    pub message: String,
}

/// The skills that loaded and the problems of those that did not.
#[derive(Debug, Clone, Default)]
pub struct Library {
    pub skills: Vec<Skill>,
    pub problems: Vec<Problem>,
}

impl Library {
    /// Zeta's own skills and, when `dir` is given, the person's: one of theirs with a
    /// built-in's name takes its place.
    pub fn load(dir: Option<&Path>) -> Self {
        let mut library = Self::built_in();
        if let Some(dir) = dir {
            let yours = Self::folder(dir);
            library
                .skills
                .retain(|b| !yours.skills.iter().any(|y| y.name == b.name));
            library.skills.extend(yours.skills);
            library.problems.extend(yours.problems);
        }
        library.skills.sort_by(|a, b| a.name.cmp(&b.name));
        library
    }

    /// The skills compiled into Zeta.
    pub fn built_in() -> Self {
        let mut library = Self::default();
        for dir in BUILT_IN.dirs() {
            let folder = dir.path().display().to_string();
            let Some(file) = dir.get_file(dir.path().join("SKILL.md")) else {
                library.problems.push(Problem {
                    name: folder,
                    message: "built-in skill without a SKILL.md".into(),
                });
                continue;
            };
            let place = format!("built-in skill {folder}");
            let parsed = file
                .contents_utf8()
                .ok_or(SkillError::NotText {
                    place: place.clone(),
                })
                .and_then(|text| format::parse(text, &place, Origin::BuiltIn));
            match parsed {
                Ok(mut skill) => {
                    skill.files = built_in_files(dir);
                    library.add(skill, &place);
                }
                Err(e) => library.problems.push(Problem {
                    name: folder,
                    message: e.to_string(),
                }),
            }
        }
        library
    }

    /// The skills in the folders under `dir` (sorted by folder name; hidden folders and
    /// plain files are passed over). A missing `dir` holds none.
    pub fn folder(dir: &Path) -> Self {
        let mut library = Self::default();
        let Ok(entries) = std::fs::read_dir(dir) else {
            return library;
        };
        let mut folders: Vec<PathBuf> = entries
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| p.is_dir() && !hidden(p))
            .collect();
        folders.sort();
        for folder in folders {
            let folder_name = folder
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            match read_folder(&folder) {
                Ok(skill) => {
                    let place = folder.display().to_string();
                    library.add(skill, &place);
                }
                Err(e) => library.problems.push(Problem {
                    name: folder_name,
                    message: e.to_string(),
                }),
            }
        }
        library
    }

    /// Adds `skill` unless one of the same name is in already (then a problem).
    fn add(&mut self, skill: Skill, place: &str) {
        if let Some(first) = self.skills.iter().find(|s| s.name == skill.name) {
            let first = match &first.origin {
                Origin::BuiltIn => "built in".to_string(),
                Origin::Folder(dir) => dir.display().to_string(),
            };
            self.problems.push(Problem {
                name: skill.name.clone(),
                message: SkillError::Duplicate {
                    place: place.to_string(),
                    name: skill.name,
                    first,
                }
                .to_string(),
            });
            return;
        }
        self.skills.push(skill);
    }

    pub fn get(&self, name: &str) -> Option<&Skill> {
        self.skills.iter().find(|s| s.name == name)
    }
}

/// Reads one skill folder: its `SKILL.md` (refused above `MOST_BYTES` before reading)
/// and the list of its other files.
pub fn read_folder(folder: &Path) -> Result<Skill, SkillError> {
    let file = folder.join("SKILL.md");
    let place = file.display().to_string();
    let meta = std::fs::metadata(&file).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => SkillError::NoSkillFile {
            path: folder.to_path_buf(),
        },
        _ => SkillError::Read {
            place: place.clone(),
            source: e,
        },
    })?;
    if meta.len() > MOST_BYTES as u64 {
        return Err(SkillError::TooLarge {
            place,
            bytes: meta.len() as usize,
            most: MOST_BYTES,
        });
    }
    let bytes = std::fs::read(&file).map_err(|source| SkillError::Read {
        place: place.clone(),
        source,
    })?;
    let text = String::from_utf8(bytes).map_err(|_| SkillError::NotText {
        place: place.clone(),
    })?;
    let mut skill = format::parse(&text, &place, Origin::Folder(folder.to_path_buf()))?;
    skill.files = folder_files(folder);
    Ok(skill)
}

fn hidden(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|n| n.to_string_lossy().starts_with('.'))
}

/// The files under `folder` but its `SKILL.md`, relative, sorted, at most `MOST_FILES`;
/// links are not followed out of it.
fn folder_files(folder: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut stack = vec![(folder.to_path_buf(), 0)];
    while let Some((dir, depth)) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.filter_map(|e| e.ok()) {
            let path = entry.path();
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if hidden(&path) || kind.is_symlink() {
                continue;
            }
            if kind.is_dir() && depth + 1 < MOST_DEPTH {
                stack.push((path, depth + 1));
            } else if kind.is_file() {
                if let Ok(rel) = path.strip_prefix(folder) {
                    if rel != Path::new("SKILL.md") {
                        found.push(rel.display().to_string());
                    }
                }
            }
        }
    }
    found.sort();
    found.truncate(MOST_FILES);
    found
}

fn built_in_files(dir: &Dir<'_>) -> Vec<String> {
    let mut found = Vec::new();
    let mut stack = vec![dir];
    while let Some(d) = stack.pop() {
        for file in d.files() {
            if let Ok(rel) = file.path().strip_prefix(dir.path()) {
                if rel != Path::new("SKILL.md") {
                    found.push(rel.display().to_string());
                }
            }
        }
        stack.extend(d.dirs());
    }
    found.sort();
    found
}

/// A built-in skill's file beside its `SKILL.md`, as text.
pub fn built_in_file(skill: &str, file: &str) -> Option<&'static str> {
    BUILT_IN
        .get_file(Path::new(skill).join(file))
        .and_then(|f| f.contents_utf8())
}

/// What a skills folder looks like now: its folders and their `SKILL.md` files' sizes and
/// times, and the state file's. Equal fingerprints: nothing to read again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fingerprint(u64);

impl Fingerprint {
    pub fn of(dir: Option<&Path>, state: Option<&Path>) -> Self {
        let mut hasher = DefaultHasher::new();
        let stamp = |path: &Path, hasher: &mut DefaultHasher| {
            if let Ok(meta) = std::fs::metadata(path) {
                meta.len().hash(hasher);
                meta.modified().ok().hash(hasher);
            }
        };
        if let Some(dir) = dir {
            if let Ok(entries) = std::fs::read_dir(dir) {
                let mut paths: Vec<PathBuf> =
                    entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
                paths.sort();
                for path in paths {
                    path.hash(&mut hasher);
                    stamp(&path, &mut hasher);
                    stamp(&path.join("SKILL.md"), &mut hasher);
                }
            }
        }
        if let Some(state) = state {
            stamp(state, &mut hasher);
        }
        Self(hasher.finish())
    }
}

#[cfg(test)]
mod tests;

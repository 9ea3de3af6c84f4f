//! Places a request names by a bare word: "the newest file in my reports folder", "how
//! many words does my journal have? it's in docs". No slash, no extension, so no path
//! word (`path_words`); yet the home holds a `reports` folder, and the request is about
//! the files in it. Read from the disk, not from the words around it: a word of the
//! request is a place where the home or the working folder holds an entry of that name
//! (letter case aside, hidden entries left out), and the word is not part of a path the
//! request wrote.

use std::path::{Path, PathBuf};

use super::{bare, NamedPath};
use crate::policy::ShellEnv;

/// The most entries of a folder looked at (a home with more is read in part).
const MOST_ENTRIES: usize = 2000;

/// The entries of the home and the working folder that a bare word of `text` names, in
/// the order the request names them, each once.
pub fn named_by_word(text: &str, env: &ShellEnv) -> Vec<NamedPath> {
    let mut folders = vec![env.home.as_path()];
    if env.cwd != env.home {
        folders.push(env.cwd.as_path());
    }
    let entries: Vec<(String, PathBuf)> = folders.into_iter().flat_map(entries).collect();
    let mut out: Vec<NamedPath> = Vec::new();
    for word in text.split_whitespace() {
        let word = bare(word);
        let word = word
            .strip_suffix("'s")
            .or_else(|| word.strip_suffix("\u{2019}s"))
            .unwrap_or(word);
        if word.is_empty() || word.contains('/') || word.starts_with('.') {
            continue;
        }
        let lower = word.to_lowercase();
        // Two entries whose names differ only in letter case: the one written so.
        let matching: Vec<&(String, PathBuf)> = entries
            .iter()
            .filter(|(name, _)| name.to_lowercase() == lower)
            .collect();
        let exact = matching.iter().find(|(name, _)| name == word);
        let found = match (exact, matching.as_slice()) {
            (Some(e), _) => Some(*e),
            (None, [one]) => Some(*one),
            _ => None,
        };
        if let Some((_, path)) = found {
            if !out.iter().any(|p| &p.path == path) {
                out.push(NamedPath {
                    text: word.to_string(),
                    path: path.clone(),
                });
            }
        }
    }
    out
}

/// The names and paths of `folder`'s entries that are not hidden.
fn entries(folder: &Path) -> Vec<(String, PathBuf)> {
    let Ok(read) = std::fs::read_dir(folder) else {
        return Vec::new();
    };
    read.flatten()
        .take(MOST_ENTRIES)
        .filter_map(|e| {
            let name = e.file_name().to_str()?.to_string();
            (!name.starts_with('.')).then(|| (name, e.path()))
        })
        .collect()
}

//! What the folders a request names hold, for a small model's first turn: each entry's
//! name, size and last change, read by Zeta before the first step (`look`). A 1.5B model
//! asked for the largest file in a folder sorted the names (`ls | sort -rh`), and asked
//! for the empty ones grepped the listing; shown the entries with their sizes, it reads
//! the answer off the machine's own figures. The look is a call Zeta made for the task:
//! it is recorded as evidence (what it printed grounds an answer like any output), and
//! the names come from disk, so they are wrapped as untrusted data and the task counts
//! as having read input the user did not type.
//!
//! A folder is named by its path (`~/notes`, `/srv/logs`) or by its name alone, as people
//! say "my notes folder": a plain word of the request that is the name of a folder in the
//! home (`~/notes` there, found on disk, not guessed). Asked for the largest file in "my
//! projects folder", a 1.5B model wrote `/home/user/projects`, a home it made up.

use std::path::Path;
use std::time::SystemTime;

use crate::assist::request::{bare, path_words, resolve};
use crate::policy::injection::wrap_untrusted;
use crate::policy::ShellEnv;
use crate::text::clip;

/// Folders looked at per request at most.
const MOST_FOLDERS: usize = 2;
/// Entries listed per folder at most.
const MOST_ENTRIES: usize = 40;
/// Entries read per folder at most (the rest are only counted as more).
const READ_AT_MOST: usize = 4096;
/// Characters a word must have to be taken for a folder's name ("go", a verb, is also
/// Go's folder in many homes).
const SHORTEST_NAME: usize = 3;
/// Characters a word may have to be taken for a folder's name.
const LONGEST_NAME: usize = 40;

/// One folder looked at: how the request wrote it and what it holds, a line an entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Looked {
    pub named: String,
    pub listing: String,
}

/// Each existing folder `request` names (two at most), listed: the paths it writes
/// first, then the folders of the home it names by name.
pub fn look(request: &str, env: &ShellEnv) -> Vec<Looked> {
    let mut looked: Vec<Looked> = Vec::new();
    let written = path_words(request).into_iter().map(|(_, w)| w);
    for named in written.chain(home_folders_named(request, env)) {
        let named = named.trim_end_matches('/').to_string();
        if named.is_empty() || looked.iter().any(|l| l.named == named) {
            continue;
        }
        let Some(listing) = listing(&resolve(&named, env)) else {
            continue;
        };
        looked.push(Looked { named, listing });
        if looked.len() == MOST_FOLDERS {
            break;
        }
    }
    looked
}

/// The folders of the home `request` names by their name alone, as `~/NAME`: each plain
/// word (letters, digits, `-`, `_`) that is the name of a folder there, or, where none is,
/// of the one folder there whose name differs from it only in case ("my documents
/// folder": `~/Documents`).
fn home_folders_named(request: &str, env: &ShellEnv) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(&env.home) else {
        return Vec::new();
    };
    let folders: Vec<String> = entries
        .filter_map(Result::ok)
        .take(READ_AT_MOST)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| !n.starts_with('.'))
        .collect();
    let mut named = Vec::new();
    for word in request.split_whitespace().map(bare) {
        let plain = (SHORTEST_NAME..=LONGEST_NAME).contains(&word.chars().count())
            && word
                .chars()
                .all(|c| c.is_alphanumeric() || c == '-' || c == '_')
            && !word.chars().all(|c| c.is_ascii_digit());
        if !plain {
            continue;
        }
        let found = if folders.iter().any(|f| f == word) {
            Some(word.to_string())
        } else {
            let alike: Vec<&String> = folders
                .iter()
                .filter(|f| f.to_lowercase() == word.to_lowercase())
                .collect();
            match alike.as_slice() {
                [one] => Some((*one).clone()),
                _ => None,
            }
        };
        if let Some(name) = found {
            let path = format!("~/{name}");
            if !named.contains(&path) {
                named.push(path);
            }
        }
    }
    named
}

/// The note for the first turn: every folder looked at, wrapped as untrusted data.
pub fn look_note(looked: &[Looked]) -> Option<String> {
    if looked.is_empty() {
        return None;
    }
    let shown: Vec<String> = looked
        .iter()
        .map(|l| format!("{}:\n{}", l.named, l.listing))
        .collect();
    Some(format!(
        "What the folders you named hold, looked at just now (each entry: name, size in bytes, last changed):\n{}",
        wrap_untrusted("folder", &shown.join("\n"))
    ))
}

/// A folder's entries by name (hidden ones counted, not listed): a file as
/// `name  SIZE bytes  YYYY-MM-DD HH:MM:SS`, a folder as `name/  folder`, a link as
/// `name -> target`. `None` when `path` is no folder or cannot be read.
fn listing(path: &Path) -> Option<String> {
    if !std::fs::metadata(path).ok()?.is_dir() {
        return None;
    }
    let mut names: Vec<(String, std::fs::DirEntry)> = std::fs::read_dir(path)
        .ok()?
        .filter_map(Result::ok)
        .take(READ_AT_MOST)
        .map(|e| (e.file_name().to_string_lossy().into_owned(), e))
        .collect();
    names.sort_by(|a, b| a.0.cmp(&b.0));
    let hidden = names.iter().filter(|(n, _)| n.starts_with('.')).count();
    let visible: Vec<&(String, std::fs::DirEntry)> =
        names.iter().filter(|(n, _)| !n.starts_with('.')).collect();
    let mut lines: Vec<String> = visible
        .iter()
        .take(MOST_ENTRIES)
        .map(|(name, entry)| line(name, entry))
        .collect();
    let files = visible
        .iter()
        .filter(|(_, e)| e.file_type().is_ok_and(|t| t.is_file()))
        .count();
    let folders = visible
        .iter()
        .filter(|(_, e)| e.file_type().is_ok_and(|t| t.is_dir()))
        .count();
    if visible.len() > MOST_ENTRIES {
        lines.push(format!(
            "(and {} more entries not listed)",
            visible.len() - MOST_ENTRIES
        ));
    }
    let mut summary = format!("{files} files, {folders} folders");
    if visible.is_empty() {
        summary = "empty".to_string();
    }
    if hidden > 0 {
        summary.push_str(&format!(
            "; {hidden} hidden entries (names starting with a dot) not listed"
        ));
    }
    if names.len() == READ_AT_MOST {
        summary.push_str("; more entries than were read");
    }
    lines.push(format!("({summary})"));
    Some(lines.join("\n"))
}

/// A name as one line: one holding a line break or another control character is shown
/// quoted with it escaped (`"a\nb.txt"`), so no name can add a line of its own to the
/// listing (a made-up entry with a size).
fn shown_name(name: &str) -> String {
    if name.chars().any(char::is_control) {
        format!("{name:?}")
    } else {
        name.to_string()
    }
}

/// One entry in a line.
fn line(name: &str, entry: &std::fs::DirEntry) -> String {
    let name = clip(&shown_name(name), 80);
    let Ok(kind) = entry.file_type() else {
        return name;
    };
    if kind.is_symlink() {
        let target = std::fs::read_link(entry.path())
            .map(|t| clip(&t.display().to_string(), 80))
            .unwrap_or_default();
        return format!("{name} -> {}", shown_name(&target));
    }
    if kind.is_dir() {
        return format!("{name}/  folder");
    }
    let Ok(meta) = entry.metadata() else {
        return name;
    };
    match meta.modified().ok().map(shown_time) {
        Some(time) => format!("{name}  {} bytes  {time}", meta.len()),
        None => format!("{name}  {} bytes", meta.len()),
    }
}

/// A time as the person's clock shows it.
fn shown_time(time: SystemTime) -> String {
    let local: chrono::DateTime<chrono::Local> = time.into();
    local.format("%Y-%m-%d %H:%M:%S").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(dir: &Path) -> ShellEnv {
        ShellEnv {
            home: dir.to_path_buf(),
            cwd: dir.to_path_buf(),
            user: "me".into(),
        }
    }

    #[test]
    fn a_named_folder_is_listed_with_sizes_and_a_file_is_not() {
        let dir = tempfile::tempdir().expect("temp");
        let notes = dir.path().join("notes");
        std::fs::create_dir_all(notes.join("old")).expect("mkdir");
        std::fs::write(notes.join("alpha.log"), "x".repeat(5210)).expect("write");
        std::fs::write(notes.join("empty.txt"), "").expect("write");
        std::fs::write(notes.join(".hidden"), "h").expect("write");
        std::fs::write(dir.path().join("a.txt"), "text").expect("write");
        let looked = look(
            "Which file in ~/notes is the largest? Also ~/notes/ again and a.txt",
            &env(dir.path()),
        );
        assert_eq!(looked.len(), 1, "{looked:?}");
        assert_eq!(looked[0].named, "~/notes");
        let lines: Vec<&str> = looked[0].listing.lines().collect();
        assert!(
            lines[0].starts_with("alpha.log  5210 bytes  20"),
            "{lines:?}"
        );
        assert!(lines[1].starts_with("empty.txt  0 bytes  20"), "{lines:?}");
        assert_eq!(lines[2], "old/  folder");
        assert_eq!(
            lines[3],
            "(2 files, 1 folders; 1 hidden entries (names starting with a dot) not listed)"
        );
        let note = look_note(&looked).expect("a note");
        assert!(note.contains("<untrusted_data source=\"folder\">\n~/notes:\nalpha.log"));
    }

    #[test]
    fn nothing_is_looked_at_where_no_folder_is_named_or_it_is_not_there() {
        let dir = tempfile::tempdir().expect("temp");
        std::fs::write(dir.path().join("a.txt"), "text").expect("write");
        for request in [
            "What is my user name?",
            "How many lines are in a.txt?",
            "List ~/missing please",
            "What is 12/4?",
        ] {
            assert!(look(request, &env(dir.path())).is_empty(), "{request}");
        }
        assert_eq!(look_note(&[]), None);
    }

    /// A folder of the home named by its name alone is looked at as `~/NAME`; a word
    /// that names no folder there, a file, a hidden folder, a folder elsewhere or one of
    /// two letters is not.
    #[test]
    fn a_home_folder_named_by_its_name_alone_is_looked_at() {
        let dir = tempfile::tempdir().expect("temp");
        for folder in ["projects", "Documents", "bin", ".cache", "deep/inner", "go"] {
            std::fs::create_dir_all(dir.path().join(folder)).expect("mkdir");
        }
        std::fs::write(dir.path().join("projects/plan.txt"), "12345").expect("write");
        std::fs::write(dir.path().join("notes"), "a file").expect("write");
        let named = |request: &str| -> Vec<String> {
            look(request, &env(dir.path()))
                .into_iter()
                .map(|l| l.named)
                .collect()
        };
        assert_eq!(
            named("What's the biggest file in my projects folder?"),
            ["~/projects"]
        );
        let looked = look("the projects directory, please", &env(dir.path()));
        assert!(looked[0].listing.starts_with("plan.txt  5 bytes  20"));
        // Case differs: the one folder whose name it is.
        assert_eq!(
            named("count what my documents folder holds"),
            ["~/Documents"]
        );
        // A path written comes first, and a folder is looked at once.
        assert_eq!(
            named("copy ~/bin/run.sh into projects, then list bin and ~/projects/"),
            ["~/projects", "~/bin"]
        );
        for request in [
            "what is in my notes file",
            "show me my cache folder",
            "what is in inner",
            "go and count my files",
            "How many lines are in plan.txt?",
            "What is 12/4?",
        ] {
            assert!(named(request).is_empty(), "{request}: {:?}", named(request));
        }
    }

    /// 30 folders of names made of line breaks, control and right-to-left characters,
    /// sizes written in words and Zeta's own marks: each name stays one line.
    #[test]
    fn every_name_is_one_line_whatever_it_holds() {
        let alphabet = "a\u{e9}\u{65e5} \n\r\t\u{7}-.5 bytes\u{202e}\u{1f600}<>_x";
        for round in 0..30u64 {
            let dir = tempfile::tempdir().expect("temp");
            let folder = dir.path().join("f");
            std::fs::create_dir(&folder).expect("mkdir");
            let mut made = std::collections::BTreeSet::new();
            for name in crate::text::random_texts(alphabet, 11, 14, round * 7919 + 5) {
                if name.is_empty() || name.starts_with('.') {
                    continue;
                }
                if std::fs::write(folder.join(&name), "1").is_ok() {
                    made.insert(name);
                }
            }
            let looked = look("what is in ~/f", &env(dir.path()));
            let listing = &looked[0].listing;
            let lines: Vec<&str> = listing.lines().collect();
            let summary = if made.is_empty() {
                "(empty)".to_string()
            } else {
                format!("({} files, 0 folders)", made.len())
            };
            assert_eq!(lines.len(), made.len() + 1, "round {round}: {listing:?}");
            assert_eq!(
                lines.last().copied(),
                Some(summary.as_str()),
                "round {round}"
            );
        }
    }

    #[test]
    fn a_big_folder_is_cut_and_an_empty_one_said_empty() {
        let dir = tempfile::tempdir().expect("temp");
        let big = dir.path().join("big");
        let empty = dir.path().join("empty");
        std::fs::create_dir_all(&big).expect("mkdir");
        std::fs::create_dir_all(&empty).expect("mkdir");
        for i in 0..55 {
            std::fs::write(big.join(format!("f{i:02}.txt")), "1").expect("write");
        }
        let looked = look("compare ~/big with ~/empty", &env(dir.path()));
        assert_eq!(looked.len(), 2);
        let big_lines: Vec<&str> = looked[0].listing.lines().collect();
        assert_eq!(big_lines.len(), MOST_ENTRIES + 2);
        assert_eq!(big_lines[MOST_ENTRIES], "(and 15 more entries not listed)");
        assert_eq!(big_lines[MOST_ENTRIES + 1], "(55 files, 0 folders)");
        assert_eq!(looked[1].listing, "(empty)");
    }
}

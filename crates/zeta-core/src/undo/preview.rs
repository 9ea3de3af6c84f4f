//! What a write would change, shown before it runs (an approval, a plan's step), in the
//! words a task's changes are shown in afterwards (`view`): a new file's whole text, or a
//! unified diff against what the file holds now; a note in words when it cannot be shown
//! as text (too large, not text, not a regular file).

use zeta_protocol::changes::{ChangeKind, FileChange};

use super::view::{bytes_note, unified, DIFF_LIMIT};
use crate::tool::TextWrite;

/// What `write` would do to its file, as it stands now.
pub fn preview_write(write: &TextWrite) -> FileChange {
    let path = &write.path;
    let change = |kind, diff, note| FileChange {
        path: path.display().to_string(),
        kind,
        from: None,
        diff,
        note,
    };
    let meta = match std::fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return change(
                ChangeKind::Created,
                Some(unified("", &write.text, path)),
                None,
            );
        }
        Err(e) => {
            return change(
                ChangeKind::Changed,
                None,
                Some(format!("what it holds now could not be read: {e}")),
            )
        }
    };
    if meta.file_type().is_symlink() {
        return change(
            ChangeKind::Changed,
            None,
            Some("a symbolic link: the write refuses to go through it".into()),
        );
    }
    if !meta.is_file() {
        return change(ChangeKind::Changed, None, Some("not a regular file".into()));
    }
    let size = meta.len();
    let new_size = write.text.len() as u64 + if write.append { size } else { 0 };
    let sizes = format!("{} → {}", bytes_note(size), bytes_note(new_size));
    if size > DIFF_LIMIT || new_size > DIFF_LIMIT {
        return change(
            ChangeKind::Changed,
            None,
            Some(format!("too large to compare, {sizes}")),
        );
    }
    let old = match std::fs::read(path).map(String::from_utf8) {
        Ok(Ok(old)) if !old.contains('\0') => old,
        Ok(_) => {
            return change(
                ChangeKind::Changed,
                None,
                Some(format!("not text, {sizes}")),
            )
        }
        Err(e) => {
            return change(
                ChangeKind::Changed,
                None,
                Some(format!("what it holds now could not be read: {e}")),
            )
        }
    };
    let new = if write.append {
        format!("{old}{}", write.text)
    } else {
        write.text.clone()
    };
    let note = (old == new).then(|| "it already holds exactly this text".to_string());
    change(ChangeKind::Changed, Some(unified(&old, &new, path)), note)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn write(path: &Path, text: &str, append: bool) -> FileChange {
        preview_write(&TextWrite {
            path: path.to_path_buf(),
            text: text.into(),
            append,
        })
    }

    #[test]
    fn a_new_file_shows_its_whole_text() {
        let dir = tempfile::tempdir().unwrap();
        let shown = write(&dir.path().join("new.txt"), "one\ntwo\n", false);
        assert_eq!(shown.kind, ChangeKind::Created);
        let diff = shown.diff.unwrap();
        assert!(diff.contains("+one\n") && diff.contains("+two\n"), "{diff}");
    }

    #[test]
    fn an_existing_file_shows_a_diff_and_an_append_adds_at_the_end() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("notes.txt");
        std::fs::write(&path, "keep\nold line\n").unwrap();
        let replaced = write(&path, "keep\nnew line\n", false);
        assert_eq!(replaced.kind, ChangeKind::Changed);
        let diff = replaced.diff.unwrap();
        assert!(
            diff.contains("-old line\n")
                && diff.contains("+new line\n")
                && diff.contains(" keep\n"),
            "{diff}"
        );
        let appended = write(&path, "more\n", true).diff.unwrap();
        assert!(
            appended.contains("+more\n") && !appended.contains("-old line"),
            "{appended}"
        );
        let same = write(&path, "keep\nold line\n", false);
        assert!(same.note.unwrap().contains("already holds"));
    }

    #[test]
    fn what_cannot_be_shown_as_text_is_said_in_words() {
        let dir = tempfile::tempdir().unwrap();
        let binary = dir.path().join("b.bin");
        std::fs::write(&binary, b"\0\x01\x02").unwrap();
        assert!(write(&binary, "x", false)
            .note
            .unwrap()
            .starts_with("not text"));
        assert!(write(dir.path(), "x", false)
            .note
            .unwrap()
            .contains("not a regular file"));
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&binary, &link).unwrap();
        assert!(write(&link, "x", false)
            .note
            .unwrap()
            .contains("symbolic link"));
        // A FIFO is not opened (it would block): it is not a regular file.
        let fifo = dir.path().join("fifo");
        let name = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
        assert!(write(&fifo, "x", false)
            .note
            .unwrap()
            .contains("not a regular file"));
    }
}

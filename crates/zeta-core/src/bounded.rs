//! Reading the small text files Zeta takes from outside (settings, soul files, the secret
//! file) with a size limit, so that a file pointing at /dev/zero, a FIFO or a huge file
//! cannot hang Zeta or fill its memory.

use std::io::Read;
use std::path::Path;

/// Why a bounded read gave no text.
#[derive(Debug, thiserror::Error)]
pub enum BoundedReadError {
    #[error("it does not exist")]
    NotFound,
    #[error("it is not a regular file")]
    NotAFile,
    #[error("it is larger than {limit} bytes")]
    TooLarge { limit: u64 },
    #[error("it is not UTF-8 text (byte {at} is not)")]
    NotUtf8 { at: usize },
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// The text of `path`, at most `limit` bytes. Only a regular file is read (a device, a
/// FIFO or a folder is refused without reading), through its symlinks.
pub fn read_text(path: &Path, limit: u64) -> Result<String, BoundedReadError> {
    let meta = match std::fs::metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(BoundedReadError::NotFound)
        }
        Err(e) => return Err(e.into()),
    };
    if !meta.is_file() {
        return Err(BoundedReadError::NotAFile);
    }
    let file = std::fs::File::open(path)?;
    let mut bytes = Vec::new();
    // One byte past the limit tells a file that grew past it since the metadata was read.
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(BoundedReadError::TooLarge { limit });
    }
    String::from_utf8(bytes).map_err(|e| BoundedReadError::NotUtf8 {
        at: e.utf8_error().valid_up_to(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_file_is_read_and_the_rest_is_refused_with_the_reason() {
        let dir = tempfile::tempdir().expect("dir");
        let ok = dir.path().join("ok.json");
        std::fs::write(&ok, "{}").expect("write");
        assert_eq!(read_text(&ok, 10).expect("read"), "{}");
        let big = dir.path().join("big");
        std::fs::write(&big, "x".repeat(11)).expect("write");
        assert!(matches!(
            read_text(&big, 10),
            Err(BoundedReadError::TooLarge { limit: 10 })
        ));
        let latin1 = dir.path().join("latin1");
        std::fs::write(&latin1, b"{\"a\": \"caf\xe9\"}").expect("write");
        assert!(matches!(
            read_text(&latin1, 100),
            Err(BoundedReadError::NotUtf8 { at: 10 })
        ));
        assert!(matches!(
            read_text(&dir.path().join("none"), 10),
            Err(BoundedReadError::NotFound)
        ));
        assert!(matches!(
            read_text(dir.path(), 10),
            Err(BoundedReadError::NotAFile)
        ));
        let zero = dir.path().join("zero");
        std::os::unix::fs::symlink("/dev/zero", &zero).expect("link");
        assert!(matches!(
            read_text(&zero, 10),
            Err(BoundedReadError::NotAFile)
        ));
    }
}

//! Opening the file `write_file` writes, so that what is written is what was judged: a
//! symbolic link swapped in after the check (the parent folder or the file itself) is
//! not followed unseen. The parent is resolved now and opened as a folder descriptor, and
//! the descriptor's own path is compared with the resolution (a component swapped in
//! between fails); the file is opened in that folder with `O_NOFOLLOW`. A link at the
//! last step is followed one hop at a time, each new path judged again by the caller
//! (`same_meaning`), which refuses a path whose judgement is stricter than the one the
//! call was given. A FIFO or device is refused without blocking.

use std::ffi::CString;
use std::fs::File;
use std::os::fd::{AsRawFd, FromRawFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

/// How many links at the last step are followed.
const MAX_HOPS: usize = 8;

/// Why the file was not opened.
#[derive(Debug, thiserror::Error)]
pub enum WriteAtError {
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("{path} leads to {real}: {why}")]
    Leads {
        path: PathBuf,
        real: PathBuf,
        why: String,
    },
    #[error(
        "{0} changed while it was being opened (a folder on the way was replaced); not written"
    )]
    Raced(PathBuf),
    #[error("{0} is {1}, not a regular file; not written")]
    NotAFile(PathBuf, &'static str),
    #[error("{0}: more than {MAX_HOPS} symbolic links in a row")]
    Loop(PathBuf),
}

/// Opens `path` for writing (created when missing; `append`, else truncated), returning
/// the file and the path it really is. `same_meaning(real)` is asked of every path the
/// write would really reach that differs from `path`.
pub fn open_for_write(
    path: &Path,
    append: bool,
    same_meaning: &dyn Fn(&Path) -> Result<(), String>,
) -> Result<(File, PathBuf), WriteAtError> {
    let mut wanted = path.to_path_buf();
    for _ in 0..MAX_HOPS {
        let name = wanted
            .file_name()
            .ok_or_else(|| std::io::Error::other(format!("{} names no file", wanted.display())))?
            .to_os_string();
        let parent = wanted.parent().unwrap_or(Path::new("/"));
        let parent_real = std::fs::canonicalize(parent)?;
        let real = parent_real.join(&name);
        if real != path {
            same_meaning(&real).map_err(|why| WriteAtError::Leads {
                path: path.to_path_buf(),
                real: real.clone(),
                why,
            })?;
        }
        let folder = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_PATH | libc::O_DIRECTORY | libc::O_CLOEXEC)
            .open(&parent_real)?;
        let held = std::fs::read_link(format!("/proc/self/fd/{}", folder.as_raw_fd()))?;
        if held != parent_real {
            return Err(WriteAtError::Raced(path.to_path_buf()));
        }
        let c_name = CString::new(name.as_bytes())
            .map_err(|_| std::io::Error::other("a NUL byte in the file name"))?;
        let mode = if append {
            libc::O_APPEND
        } else {
            libc::O_TRUNC
        };
        let flags = libc::O_WRONLY
            | libc::O_CREAT
            | libc::O_NOFOLLOW
            | libc::O_NONBLOCK
            | libc::O_CLOEXEC
            | mode;
        // SAFETY: openat on a descriptor held above and a NUL-terminated name; the
        // result is checked before use.
        let fd = unsafe { libc::openat(folder.as_raw_fd(), c_name.as_ptr(), flags, 0o644) };
        if fd < 0 {
            let err = std::io::Error::last_os_error();
            if err.raw_os_error() == Some(libc::ELOOP) {
                let target = std::fs::read_link(&real)?;
                wanted = parent_real.join(target);
                continue;
            }
            return Err(err.into());
        }
        // SAFETY: `fd` was just opened and is owned here alone.
        let file = unsafe { File::from_raw_fd(fd) };
        let kind = file.metadata()?.file_type();
        if let Some(what) = crate::files::not_a_file(&kind) {
            return Err(WriteAtError::NotAFile(real, what));
        }
        // Back to blocking writes (append kept).
        let keep = if append { libc::O_APPEND } else { 0 };
        // SAFETY: fcntl on the descriptor `file` owns.
        unsafe { libc::fcntl(fd, libc::F_SETFL, keep) };
        return Ok((file, real));
    }
    Err(WriteAtError::Loop(path.to_path_buf()))
}

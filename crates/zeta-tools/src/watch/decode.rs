//! A stopped system call read back into a `Touch`: its number and arguments, the paths
//! read from the process's memory and resolved against its working folder or the folder
//! its descriptor names.

use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;
use std::path::{Path, PathBuf};

use zeta_core::undo::Touch;

/// One stopped call: who made it and with what.
pub struct Call {
    pub pid: u32,
    pub nr: i64,
    pub args: [u64; 6],
}

impl Call {
    /// Reads a NUL-terminated string at `addr` in the process (at most PATH_MAX).
    fn string(&self, addr: u64) -> Option<Vec<u8>> {
        const MAX: usize = 4096;
        let mut out = Vec::new();
        let mut addr = addr as usize;
        while out.len() < MAX {
            // To the end of the page: the next one may not be mapped.
            let chunk = 4096 - (addr % 4096);
            let mut buf = vec![0u8; chunk];
            let local = libc::iovec {
                iov_base: buf.as_mut_ptr().cast(),
                iov_len: chunk,
            };
            let remote = libc::iovec {
                iov_base: addr as *mut libc::c_void,
                iov_len: chunk,
            };
            // SAFETY: reads into our own buffer of `chunk` bytes; the remote side is only
            // read by the kernel, which checks it.
            let n = unsafe { libc::process_vm_readv(self.pid as i32, &local, 1, &remote, 1, 0) };
            if n <= 0 {
                return None;
            }
            let n = n as usize;
            if let Some(end) = buf[..n].iter().position(|b| *b == 0) {
                out.extend_from_slice(&buf[..end]);
                return Some(out);
            }
            out.extend_from_slice(&buf[..n]);
            addr += n;
        }
        None
    }

    /// Reads a u64 at `addr` in the process.
    fn word(&self, addr: u64) -> Option<u64> {
        let mut value = [0u8; 8];
        let local = libc::iovec {
            iov_base: value.as_mut_ptr().cast(),
            iov_len: 8,
        };
        let remote = libc::iovec {
            iov_base: addr as *mut libc::c_void,
            iov_len: 8,
        };
        // SAFETY: as in `string`, into an 8-byte buffer.
        let n = unsafe { libc::process_vm_readv(self.pid as i32, &local, 1, &remote, 1, 0) };
        (n == 8).then(|| u64::from_ne_bytes(value))
    }

    /// The folder a relative path starts from: the working folder, or a descriptor's.
    fn base(&self, dirfd: u64) -> Option<PathBuf> {
        let fd = dirfd as i32;
        let link = if fd == libc::AT_FDCWD {
            format!("/proc/{}/cwd", self.pid)
        } else {
            format!("/proc/{}/fd/{fd}", self.pid)
        };
        std::fs::read_link(link).ok()
    }

    /// The path an argument names, relative to `dirfd`; the last component is not
    /// followed (a link removed is the link), the folders before it are.
    fn path_at(&self, dirfd: u64, arg: u64) -> Option<PathBuf> {
        let raw = PathBuf::from(OsString::from_vec(self.string(arg)?));
        let joined = if raw.is_absolute() {
            raw
        } else {
            self.base(dirfd)?.join(raw)
        };
        Some(tidy(&joined))
    }

    fn path(&self, arg: u64) -> Option<PathBuf> {
        self.path_at(libc::AT_FDCWD as u64, arg)
    }

    fn fd_path(&self, fd: u64) -> Option<PathBuf> {
        std::fs::read_link(format!("/proc/{}/fd/{}", self.pid, fd as i32)).ok()
    }

    /// What the call is about to do, or `None` when it changes nothing that is kept.
    pub fn touch(&self) -> Option<Touch> {
        let a = self.args;
        let write = |path: PathBuf, flags: u64| -> Option<Touch> {
            let flags = flags as i32;
            if flags & libc::O_TMPFILE == libc::O_TMPFILE {
                return None; // a file with no name yet
            }
            let create = flags & libc::O_CREAT != 0;
            let writes = flags & (libc::O_WRONLY | libc::O_RDWR | libc::O_TRUNC) != 0;
            if !create && !writes {
                return None;
            }
            // What is written is what a link points to.
            let path = std::fs::canonicalize(&path).unwrap_or(path);
            let appends = flags & libc::O_APPEND != 0
                && flags & libc::O_TRUNC == 0
                && flags & libc::O_ACCMODE == libc::O_WRONLY;
            if appends && std::fs::metadata(&path).is_ok_and(|m| m.is_file()) {
                return Some(Touch::Append(path));
            }
            Some(Touch::Write { path, create })
        };
        let nr = self.nr;
        #[cfg(target_arch = "x86_64")]
        {
            let legacy = match nr {
                libc::SYS_open => write(self.path(a[0])?, a[1]),
                libc::SYS_creat => write(self.path(a[0])?, (libc::O_CREAT | libc::O_WRONLY) as u64),
                libc::SYS_unlink => Some(Touch::Remove(self.path(a[0])?)),
                libc::SYS_rmdir => Some(Touch::RemoveDir(self.path(a[0])?)),
                libc::SYS_rename => Some(Touch::Rename {
                    from: self.path(a[0])?,
                    to: self.path(a[1])?,
                    exchange: false,
                }),
                libc::SYS_chmod => Some(Touch::Mode(followed(self.path(a[0])?))),
                libc::SYS_mkdir => Some(Touch::Make(self.path(a[0])?)),
                libc::SYS_symlink => Some(Touch::Make(self.path(a[1])?)),
                libc::SYS_link => Some(Touch::Make(self.path(a[1])?)),
                libc::SYS_mknod => Some(Touch::Make(self.path(a[0])?)),
                _ => None,
            };
            if legacy.is_some() {
                return legacy;
            }
        }
        match nr {
            libc::SYS_openat => write(self.path_at(a[0], a[1])?, a[2]),
            libc::SYS_openat2 => write(self.path_at(a[0], a[1])?, self.word(a[2])?),
            libc::SYS_truncate => write(self.path(a[0])?, libc::O_WRONLY as u64),
            libc::SYS_ftruncate => write(self.fd_path(a[0])?, libc::O_WRONLY as u64),
            libc::SYS_unlinkat if a[2] as i32 & libc::AT_REMOVEDIR != 0 => {
                Some(Touch::RemoveDir(self.path_at(a[0], a[1])?))
            }
            libc::SYS_unlinkat => Some(Touch::Remove(self.path_at(a[0], a[1])?)),
            libc::SYS_renameat | libc::SYS_renameat2 => Some(Touch::Rename {
                from: self.path_at(a[0], a[1])?,
                to: self.path_at(a[2], a[3])?,
                exchange: nr == libc::SYS_renameat2 && a[4] as u32 & libc::RENAME_EXCHANGE != 0,
            }),
            libc::SYS_fchmod => Some(Touch::Mode(self.fd_path(a[0])?)),
            libc::SYS_fchmodat | 452 => Some(Touch::Mode(followed(self.path_at(a[0], a[1])?))),
            libc::SYS_mkdirat | libc::SYS_mknodat => Some(Touch::Make(self.path_at(a[0], a[1])?)),
            libc::SYS_symlinkat => Some(Touch::Make(self.path_at(a[1], a[2])?)),
            libc::SYS_linkat => Some(Touch::Make(self.path_at(a[2], a[3])?)),
            _ => None,
        }
    }
}

fn followed(path: PathBuf) -> PathBuf {
    std::fs::canonicalize(&path).unwrap_or(path)
}

/// `path` with `.` and `..` taken out and its folder's links resolved where it exists.
fn tidy(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    match (out.parent(), out.file_name()) {
        (Some(dir), Some(name)) => std::fs::canonicalize(dir)
            .map(|dir| dir.join(name))
            .unwrap_or(out),
        _ => out,
    }
}

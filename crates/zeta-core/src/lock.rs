//! The worker lock: an OS file lock on `$ZETA_HOME/worker.lock` that makes one process
//! the queue's only worker. The OS drops it when that process dies, even by SIGKILL, so
//! whoever takes it next knows any `running` row was left by a dead worker.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::os::unix::fs::OpenOptionsExt;

use crate::error::CoreError;
use zeta_protocol::home::ZetaHome;

/// Held while this process is the worker; released on drop or process exit.
#[derive(Debug)]
pub struct WorkerLock {
    _file: File,
}

impl WorkerLock {
    /// Takes the lock without waiting. `CoreError::WorkerBusy` names the holder's pid.
    pub fn try_acquire(home: &ZetaHome) -> Result<Self, CoreError> {
        let path = home.worker_lock_file();
        let io_err = |what, source| CoreError::Io {
            what,
            path: path.clone(),
            source,
        };
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .mode(0o600)
            .open(&path)
            .map_err(|e| io_err("open worker lock", e))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                let mut pid = String::new();
                let _ = file.read_to_string(&mut pid);
                return Err(CoreError::WorkerBusy {
                    pid: pid.trim().to_string(),
                    home: home.root().to_path_buf(),
                });
            }
            Err(TryLockError::Error(e)) => return Err(io_err("lock worker lock", e)),
        }
        file.set_len(0)
            .and_then(|_| file.seek(SeekFrom::Start(0)))
            .and_then(|_| write!(file, "{}", std::process::id()))
            .map_err(|e| io_err("write worker lock", e))?;
        Ok(Self { _file: file })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn second_holder_is_refused_with_the_first_pid() {
        let dir = tempfile::tempdir().expect("temp dir");
        let home = ZetaHome::at(dir.path()).expect("home");
        let first = WorkerLock::try_acquire(&home).expect("first");
        match WorkerLock::try_acquire(&home) {
            Err(CoreError::WorkerBusy { pid, .. }) => {
                assert_eq!(pid, std::process::id().to_string())
            }
            other => panic!("expected WorkerBusy, got {other:?}"),
        }
        drop(first);
        WorkerLock::try_acquire(&home).expect("free again after drop");
    }
}

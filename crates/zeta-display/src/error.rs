//! What can fail when reaching the display server, said with where.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum DisplayError {
    #[error("cannot connect to the Wayland display at {socket}: {reason}")]
    Connect { socket: PathBuf, reason: String },
    #[error("the Wayland compositor has no {interface} ({what})")]
    Missing {
        interface: &'static str,
        what: &'static str,
    },
    #[error("the Wayland compositor did not answer ({doing}): {reason}")]
    Protocol { doing: &'static str, reason: String },
    #[error("the compositor could not copy output {output}: {reason}")]
    Copy { output: String, reason: String },
    #[error("shared memory for a screen copy: {0}")]
    Memory(String),
    #[error("sway's IPC at {socket}: {reason}")]
    Ipc { socket: PathBuf, reason: String },
}

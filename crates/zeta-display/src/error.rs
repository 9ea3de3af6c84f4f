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
    #[error("the desktop has no {portal} portal{}", .why.as_deref().map(|w| format!(" ({w})")).unwrap_or_default())]
    NotOffered {
        portal: &'static str,
        why: Option<String>,
    },
    #[error("the {portal} portal was asked ({doing}) and the person said no")]
    Refused {
        portal: &'static str,
        doing: &'static str,
    },
    #[error("the {portal} portal gave no answer ({doing}) within {} s", .after.as_secs())]
    NoAnswer {
        portal: &'static str,
        doing: &'static str,
        after: std::time::Duration,
    },
    #[error("the {portal} portal failed ({doing}): {reason}")]
    Portal {
        portal: &'static str,
        doing: &'static str,
        reason: String,
    },
}

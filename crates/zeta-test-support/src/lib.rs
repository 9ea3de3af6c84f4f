//! What Zeta's test suites share (a dev-dependency only): the process table read from
//! /proc ([`procs`]), a microphone recording's format ([`sound`]), the real MCP servers
//! the tests start ([`mcp`]), a folder tree as a comparable value ([`tree`]), and how a test that
//! needs what this machine lacks says so ([`cannot_run`]), and a headless Wayland session
//! ([`wayland`]): it prints why and passes,
//! unless the suite requires it.

pub mod apps;
pub mod mcp;
pub mod portal;
pub mod procs;
pub mod skills;
pub mod sound;
pub mod tree;
pub mod wayland;

use std::fmt::Display;

/// What a test may need that a machine can lack, each with the variable that makes the
/// lack a failure (`scripts/test.sh` sets them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Needs {
    /// A display, the WebDriver, xdotool, a keyring…: `ZETA_E2E_REQUIRED`.
    Desktop,
    /// The cached Whisper models and espeak-ng: `ZETA_WHISPER_REQUIRED`.
    Whisper,
    /// The cached local model and its server: `ZETA_LOCAL_MODEL_REQUIRED`.
    LocalModel,
    /// A kernel that confines processes (Landlock): `ZETA_LANDLOCK_REQUIRED`.
    Landlock,
    /// A Python with the MCP SDK for the test servers: `ZETA_MCP_REQUIRED`.
    Mcp,
    /// The sentence-embedding model that chooses skills: `ZETA_SKILLS_MODEL_REQUIRED`.
    SkillsModel,
}

impl Needs {
    pub fn variable(self) -> &'static str {
        match self {
            Needs::Desktop => "ZETA_E2E_REQUIRED",
            Needs::Whisper => "ZETA_WHISPER_REQUIRED",
            Needs::LocalModel => "ZETA_LOCAL_MODEL_REQUIRED",
            Needs::Landlock => "ZETA_LANDLOCK_REQUIRED",
            Needs::Mcp => "ZETA_MCP_REQUIRED",
            Needs::SkillsModel => "ZETA_SKILLS_MODEL_REQUIRED",
        }
    }

    /// Whether the suite requires it: its variable is set to anything but "" or "0".
    pub fn required(self) -> bool {
        std::env::var(self.variable()).is_ok_and(|v| !v.is_empty() && v != "0")
    }
}

/// `test` cannot run here because of `why`: a failure when the suite requires `needs`,
/// else a printed `SKIPPED` line (the caller then returns).
#[track_caller]
pub fn cannot_run(needs: Needs, test: &str, why: impl Display) {
    if needs.required() {
        panic!("{test} cannot run: {why} ({} is set)", needs.variable());
    }
    eprintln!("SKIPPED {test}: {why}");
}

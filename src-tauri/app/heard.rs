//! What the managers tell the router (`router.rs`): a voice event, or a click in the
//! tray's menu. The managers send these into an `Inbox` and know nothing of who listens.

use tokio::sync::mpsc;
use zeta_voice::listener::VoiceEvent;

/// What the user clicked in the tray's menu.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TrayItem {
    OpenChat,
    Listen,
    PauseOrResume,
    StartWithSession,
    Quit,
}

/// What reaches the router besides the core's events.
#[derive(Debug)]
pub enum Heard {
    Voice(VoiceEvent),
    Menu(TrayItem),
}

/// Where the managers send what happens to them.
pub type Inbox = mpsc::UnboundedSender<Heard>;

//! The running app's control socket, `$ZETA_HOME/control.sock`: one request line in
//! (`listen start|stop|toggle|status`), one JSON reply line out. `zeta listen` is the
//! client; the app serves it.

use serde::{Deserialize, Serialize};

use crate::voice::{HotkeyStatus, VoiceState};

/// What `zeta listen` asks of the voice session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListenAction {
    Start,
    Stop,
    Toggle,
    Status,
}

impl ListenAction {
    const ALL: [ListenAction; 4] = [
        ListenAction::Start,
        ListenAction::Stop,
        ListenAction::Toggle,
        ListenAction::Status,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ListenAction::Start => "start",
            ListenAction::Stop => "stop",
            ListenAction::Toggle => "toggle",
            ListenAction::Status => "status",
        }
    }
}

/// One request on the socket.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ControlRequest {
    Listen(ListenAction),
}

impl ControlRequest {
    /// The request as its line (without the newline).
    pub fn line(self) -> String {
        match self {
            ControlRequest::Listen(action) => format!("listen {}", action.as_str()),
        }
    }

    /// The request a line stands for; `Err` says what was not understood.
    pub fn parse(line: &str) -> Result<Self, String> {
        let line = line.trim();
        let action = line.strip_prefix("listen ").and_then(|word| {
            ListenAction::ALL
                .into_iter()
                .find(|a| a.as_str() == word.trim())
        });
        action
            .map(ControlRequest::Listen)
            .ok_or_else(|| format!("unknown request {line:?}"))
    }
}

/// The one reply line: the voice session's state and hotkey, or why the request failed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ControlReply {
    Voice {
        state: VoiceState,
        hotkey: Option<HotkeyStatus>,
    },
    Error {
        error: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_round_trip_and_others_are_refused() {
        for action in ListenAction::ALL {
            let request = ControlRequest::Listen(action);
            assert_eq!(ControlRequest::parse(&request.line()), Ok(request));
        }
        assert_eq!(
            ControlRequest::parse(" listen toggle\n"),
            Ok(ControlRequest::Listen(ListenAction::Toggle))
        );
        for bad in ["", "listen", "listen louder", "LISTEN START", "speak start"] {
            assert!(ControlRequest::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn replies_keep_their_wire_shape() {
        let reply = ControlReply::Voice {
            state: VoiceState::Listening,
            hotkey: None,
        };
        let text = serde_json::to_string(&reply).unwrap_or_default();
        assert_eq!(text, r#"{"state":"listening","hotkey":null}"#);
        let back: Result<ControlReply, _> = serde_json::from_str(&text);
        assert_eq!(back.ok(), Some(reply));
        let error: Result<ControlReply, _> = serde_json::from_str(r#"{"error":"no voice"}"#);
        assert_eq!(
            error.ok(),
            Some(ControlReply::Error {
                error: "no voice".into()
            })
        );
    }
}

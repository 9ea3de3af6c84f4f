//! The running app's control socket, `$ZETA_HOME/control.sock` (owner-only): how
//! `zeta listen` starts and stops a recording from a terminal when the hotkey is not
//! available. The requests and replies are zeta-protocol's `control` types.

use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::{UnixListener, UnixStream};
use zeta_core::ZetaHome;
use zeta_protocol::control::{ControlReply, ControlRequest, ListenAction};

use super::voice_manager::VoiceManager;

/// Serves the socket until the app exits. A stale socket from a crashed run is replaced
/// (single-instance makes sure no other app for this home is running).
pub async fn serve(voice: Arc<VoiceManager>, home: ZetaHome) {
    let path = home.control_socket();
    let _ = std::fs::remove_file(&path);
    let listener = match UnixListener::bind(&path) {
        Ok(l) => l,
        Err(e) => {
            tracing::warn!(
                "no control socket at {} ({e}): `zeta listen` will not reach this app",
                path.display()
            );
            return;
        }
    };
    {
        use std::os::unix::fs::PermissionsExt;
        if let Err(e) = std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)) {
            tracing::warn!("could not make {} owner-only: {e}", path.display());
        }
    }
    tracing::info!(socket = %path.display(), "control socket ready");
    loop {
        match listener.accept().await {
            Ok((stream, _)) => {
                let voice = Arc::clone(&voice);
                tauri::async_runtime::spawn(async move {
                    if let Err(e) = answer(&voice, stream).await {
                        tracing::debug!("control socket: {e}");
                    }
                });
            }
            Err(e) => {
                tracing::warn!("control socket: {e}");
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        }
    }
}

async fn answer(voice: &VoiceManager, stream: UnixStream) -> std::io::Result<()> {
    let (read, mut write) = stream.into_split();
    let mut line = String::new();
    BufReader::new(read).read_line(&mut line).await?;
    let reply = match ControlRequest::parse(&line) {
        Err(error) => ControlReply::Error { error },
        Ok(ControlRequest::Listen(action)) => {
            if action != ListenAction::Status {
                // What a compositor's key binding runs on Wayland: worth a line in the log.
                tracing::info!("`zeta listen {}` from the control socket", action.as_str());
            }
            listen(voice, action).await
        }
    };
    let text = serde_json::to_string(&reply).map_err(std::io::Error::other)?;
    write.write_all(format!("{text}\n").as_bytes()).await?;
    write.shutdown().await
}

async fn listen(voice: &VoiceManager, action: ListenAction) -> ControlReply {
    let listener = voice.listener();
    let before = listener.state();
    let starts = matches!(action, ListenAction::Start)
        || (matches!(action, ListenAction::Toggle)
            && before == zeta_voice::listener::VoiceState::Idle);
    if let (true, Some(model)) = (starts, voice.missing_model()) {
        // Said to `zeta listen` as well as shown in the chat (which offers the download).
        listener.start();
        return ControlReply::Error {
            error: format!(
                "no speech model is installed ({}), so nothing was recorded: the chat offers to download it, or run `zeta models download ggml-base.bin`",
                model.display()
            ),
        };
    }
    match action {
        ListenAction::Start => listener.start(),
        ListenAction::Stop => listener.stop(),
        ListenAction::Toggle => listener.toggle(),
        ListenAction::Status => return status(voice),
    }
    // The session acts on its own thread: give it a moment to change state.
    for _ in 0..40 {
        if listener.state() != before {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    status(voice)
}

fn status(voice: &VoiceManager) -> ControlReply {
    ControlReply::Voice {
        state: voice.listener().state(),
        hotkey: voice.hotkey_status(),
    }
}

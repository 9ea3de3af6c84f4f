//! The running app's control socket, `$ZETA_HOME/control.sock` (owner-only): how
//! `zeta listen` starts and stops a recording from a terminal when the hotkey is not
//! available. One request line (`listen start|stop|toggle|status`), one JSON reply line.

use std::path::PathBuf;
use std::time::Duration;

use tauri::{AppHandle, Manager};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::{UnixListener, UnixStream};
use zeta_core::ZetaHome;

use super::voice_manager::VoiceManager;

pub const SOCKET: &str = "control.sock";

pub fn socket_path(home: &ZetaHome) -> PathBuf {
    home.root().join(SOCKET)
}

/// Serves the socket until the app exits. A stale socket from a crashed run is replaced
/// (single-instance makes sure no other app for this home is running).
pub async fn serve(app: AppHandle, home: ZetaHome) {
    let path = socket_path(&home);
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
                let app = app.clone();
                tauri::async_runtime::spawn(async move {
                    if let Err(e) = answer(&app, stream).await {
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

async fn answer(app: &AppHandle, stream: UnixStream) -> std::io::Result<()> {
    let (read, mut write) = stream.into_split();
    let mut line = String::new();
    BufReader::new(read).read_line(&mut line).await?;
    let reply = match app.try_state::<VoiceManager>() {
        None => serde_json::json!({"error": "voice is not available in this app"}),
        Some(voice) => request(&voice, line.trim()).await,
    };
    write.write_all(format!("{reply}\n").as_bytes()).await?;
    write.shutdown().await
}

async fn request(voice: &VoiceManager, line: &str) -> serde_json::Value {
    let listener = voice.listener();
    let before = listener.state();
    match line {
        "listen start" => listener.start(),
        "listen stop" => listener.stop(),
        "listen toggle" => listener.toggle(),
        "listen status" => {}
        other => return serde_json::json!({"error": format!("unknown request {other:?}")}),
    }
    // The session acts on its own thread: give it a moment to change state.
    if line != "listen status" {
        for _ in 0..40 {
            if listener.state() != before {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
    serde_json::json!({
        "state": listener.state(),
        "hotkey": voice.hotkey_status(),
    })
}

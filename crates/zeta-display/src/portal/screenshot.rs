//! The screen on GNOME and KDE through the desktop's Screenshot portal: a picture of the
//! whole screen, taken without a dialog once the person has allowed it (the desktop asks
//! the first time). The portal writes a PNG and says where; it is read and then removed
//! (it is Zeta's own request, and a file a screenshot would otherwise leave behind).

use std::time::Duration;

use ashpd::desktop::screenshot::Screenshot;

use super::within;
use crate::DisplayError;

const PORTAL: &str = "Screenshot";

/// A screenshot's pixels: RGBA, `width` x `height`.
#[derive(Debug, Clone)]
pub struct Picture {
    pub rgba: Vec<u8>,
    pub width: u32,
    pub height: u32,
}

/// Takes a screenshot on the portal at `conn`, waiting `ask_limit` for the person the
/// first time.
pub async fn take(
    conn: ashpd::zbus::Connection,
    ask_limit: Duration,
) -> Result<Picture, DisplayError> {
    let shot = within(PORTAL, "taking a screenshot", ask_limit, async {
        Screenshot::request()
            .connection(Some(conn))
            .interactive(false)
            .modal(false)
            .send()
            .await?
            .response()
    })
    .await?;
    let uri = shot.uri().to_string();
    let failed = |reason: String| DisplayError::Portal {
        portal: PORTAL,
        doing: "reading its picture",
        reason,
    };
    let path = uri
        .strip_prefix("file://")
        .map(percent_decoded)
        .ok_or_else(|| failed(format!("it gave {uri}, not a file")))?;
    let bytes = tokio::fs::read(&path)
        .await
        .map_err(|e| failed(format!("{path}: {e}")))?;
    let _ = tokio::fs::remove_file(&path).await;
    let img = image::load_from_memory(&bytes)
        .map_err(|e| failed(format!("{path}: {e}")))?
        .to_rgba8();
    Ok(Picture {
        width: img.width(),
        height: img.height(),
        rgba: img.into_raw(),
    })
}

/// A file URI's path with its %XX escapes undone.
fn percent_decoded(path: &str) -> String {
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let Ok(b) = u8::from_str_radix(&path[i + 1..i + 3], 16) {
                out.push(b);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_uris_are_decoded() {
        assert_eq!(
            percent_decoded("/home/a/Screenshot%20from%201.png"),
            "/home/a/Screenshot from 1.png"
        );
        assert_eq!(percent_decoded("/tmp/%C3%A9.png"), "/tmp/é.png");
        assert_eq!(percent_decoded("/tmp/100%"), "/tmp/100%");
        assert_eq!(percent_decoded("/tmp/%zz"), "/tmp/%zz");
    }
}

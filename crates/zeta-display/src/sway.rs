//! sway's windows, through its IPC socket: which windows show, their titles and where
//! their contents are in the layout (Wayland itself tells a client nothing of other
//! windows or of where they are), and sway commands (focusing a window). The i3 IPC
//! framing is six magic bytes, a length and a type; the tree is JSON.

use std::io::{Read, Write};
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::time::Duration;

use serde::Deserialize;

use crate::DisplayError;

const MAGIC: &[u8; 6] = b"i3-ipc";
const RUN_COMMAND: u32 = 0;
const GET_TREE: u32 = 4;

/// A window sway shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Window {
    /// sway's id of it: the same while the window lives, whatever its title.
    pub id: u64,
    pub title: String,
    /// Its Wayland app id, or X11 class under XWayland.
    pub app: String,
    pub pid: Option<u32>,
    /// Its contents (without decorations) in the layout.
    pub x: i32,
    pub y: i32,
    pub width: i32,
    pub height: i32,
    pub focused: bool,
}

#[derive(Debug, Deserialize)]
struct Node {
    #[serde(default)]
    id: u64,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    app_id: Option<String>,
    #[serde(default)]
    window_properties: Option<Properties>,
    #[serde(default)]
    pid: Option<u32>,
    rect: Rect,
    #[serde(default)]
    window_rect: Option<Rect>,
    #[serde(default)]
    visible: Option<bool>,
    #[serde(default)]
    focused: bool,
    #[serde(default)]
    nodes: Vec<Node>,
    #[serde(default)]
    floating_nodes: Vec<Node>,
}

#[derive(Debug, Deserialize)]
struct Properties {
    #[serde(default)]
    class: Option<String>,
}

#[derive(Debug, Clone, Copy, Deserialize)]
struct Rect {
    x: i32,
    y: i32,
    width: i32,
    height: i32,
}

/// The windows that show, bottom to top as far as sway tells (tiled, then floating, the
/// focused one last).
pub fn windows(socket: &Path) -> Result<Vec<Window>, DisplayError> {
    let tree = request(socket, GET_TREE, "")?;
    let root: Node = serde_json::from_slice(&tree).map_err(|e| DisplayError::Ipc {
        socket: socket.to_path_buf(),
        reason: format!("its tree is not understood: {e}"),
    })?;
    Ok(from_tree(&root))
}

/// Runs a sway command (`[title="^Notes$"] focus`); its error when sway refuses it.
pub fn command(socket: &Path, command: &str) -> Result<(), DisplayError> {
    let reply = request(socket, RUN_COMMAND, command)?;
    #[derive(Deserialize)]
    struct Outcome {
        success: bool,
        #[serde(default)]
        error: Option<String>,
    }
    let outcomes: Vec<Outcome> = serde_json::from_slice(&reply).unwrap_or_default();
    match outcomes.into_iter().find(|o| !o.success) {
        Some(o) => Err(DisplayError::Ipc {
            socket: socket.to_path_buf(),
            reason: format!(
                "`{command}` refused: {}",
                o.error.unwrap_or_else(|| "no reason given".into())
            ),
        }),
        None => Ok(()),
    }
}

fn from_tree(root: &Node) -> Vec<Window> {
    let mut out = Vec::new();
    walk(root, &mut out);
    // The focused window is on top.
    out.sort_by_key(|w| w.focused);
    out
}

fn walk(node: &Node, out: &mut Vec<Window>) {
    if node.pid.is_some() && node.visible.unwrap_or(true) {
        let inner = node.window_rect.unwrap_or(Rect {
            x: 0,
            y: 0,
            width: node.rect.width,
            height: node.rect.height,
        });
        out.push(Window {
            id: node.id,
            title: node.name.clone().unwrap_or_default(),
            app: node
                .app_id
                .clone()
                .or_else(|| node.window_properties.as_ref()?.class.clone())
                .unwrap_or_default(),
            pid: node.pid,
            x: node.rect.x + inner.x,
            y: node.rect.y + inner.y,
            width: inner.width,
            height: inner.height,
            focused: node.focused,
        });
    }
    for child in node.nodes.iter().chain(&node.floating_nodes) {
        walk(child, out);
    }
}

fn request(socket: &Path, kind: u32, payload: &str) -> Result<Vec<u8>, DisplayError> {
    let err = |reason: String| DisplayError::Ipc {
        socket: socket.to_path_buf(),
        reason,
    };
    let mut stream = UnixStream::connect(socket).map_err(|e| err(e.to_string()))?;
    let timeout = Some(Duration::from_secs(3));
    stream
        .set_read_timeout(timeout)
        .and_then(|()| stream.set_write_timeout(timeout))
        .map_err(|e| err(e.to_string()))?;
    let mut message = Vec::with_capacity(14 + payload.len());
    message.extend_from_slice(MAGIC);
    message.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    message.extend_from_slice(&kind.to_le_bytes());
    message.extend_from_slice(payload.as_bytes());
    stream
        .write_all(&message)
        .map_err(|e| err(format!("sending: {e}")))?;
    let mut header = [0u8; 14];
    stream
        .read_exact(&mut header)
        .map_err(|e| err(format!("reading the reply: {e}")))?;
    if &header[..6] != MAGIC {
        return Err(err("the reply is not i3 IPC".into()));
    }
    let len = u32::from_le_bytes([header[6], header[7], header[8], header[9]]) as usize;
    if len > 64 << 20 {
        return Err(err(format!("a reply of {len} bytes is too long")));
    }
    let mut body = vec![0u8; len];
    stream
        .read_exact(&mut body)
        .map_err(|e| err(format!("reading the reply: {e}")))?;
    Ok(body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_are_read_from_the_tree_with_their_contents_place() {
        let tree = serde_json::json!({
            "name": "root", "rect": {"x": 0, "y": 0, "width": 1280, "height": 800},
            "nodes": [{
                "name": "HEADLESS-1", "rect": {"x": 0, "y": 0, "width": 1280, "height": 800},
                "nodes": [{
                    "name": "1", "rect": {"x": 0, "y": 0, "width": 1280, "height": 800},
                    "nodes": [
                        {"name": "Notes", "app_id": "mousepad", "pid": 40, "focused": true,
                         "visible": true,
                         "rect": {"x": 0, "y": 0, "width": 640, "height": 800},
                         "window_rect": {"x": 2, "y": 24, "width": 636, "height": 774}},
                        {"name": "Old", "window_properties": {"class": "XCalc"}, "pid": 41,
                         "visible": true,
                         "rect": {"x": 640, "y": 0, "width": 640, "height": 800},
                         "window_rect": {"x": 2, "y": 24, "width": 636, "height": 774}},
                        {"name": "Hidden", "pid": 42, "visible": false,
                         "rect": {"x": 0, "y": 0, "width": 1, "height": 1}}
                    ],
                    "floating_nodes": [
                        {"name": "Dialog", "app_id": "zenity", "pid": 43, "visible": true,
                         "rect": {"x": 500, "y": 300, "width": 300, "height": 200}}
                    ]
                }]
            }]
        });
        let root: Node = serde_json::from_value(tree).unwrap_or_else(|e| panic!("{e}"));
        let w = from_tree(&root);
        let titles: Vec<&str> = w.iter().map(|w| w.title.as_str()).collect();
        assert_eq!(titles, ["Old", "Dialog", "Notes"]);
        assert_eq!((w[2].x, w[2].y, w[2].width, w[2].height), (2, 24, 636, 774));
        assert_eq!(w[0].app, "XCalc");
        assert_eq!((w[1].x, w[1].y, w[1].width), (500, 300, 300));
    }
}

//! Top-level windows as the display server knows them (title, place): which windows a call
//! opened or closed, which window shows on top at a point, and where a window that shares
//! no accessibility tree is (to read it by OCR). On X11 under a window manager the titled
//! window is the child of a frame; both levels are looked at. On Wayland only the
//! compositor knows: sway tells through its IPC; elsewhere no window is known.

use x11rb::connection::Connection;
use x11rb::protocol::xproto::{AtomEnum, ConnectionExt, MapState, Window};

/// A rectangle in screen pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rect {
    pub x: i32,
    pub y: i32,
    pub width: i32,
    pub height: i32,
}

impl Rect {
    pub fn contains(&self, x: i32, y: i32) -> bool {
        x >= self.x && y >= self.y && x < self.x + self.width && y < self.y + self.height
    }
}

/// A mapped top-level window with a title (an X11 window, or one sway shows).
#[derive(Debug, Clone, PartialEq)]
pub struct XWindow {
    /// The display server's id of it (X11's window, sway's container): the same while
    /// the window lives, whatever its title; 0 when unknown.
    pub id: u64,
    pub title: String,
    /// Its program as the display server knows it: X11's `WM_CLASS` (instance and class,
    /// "mousepad Mousepad"), or the Wayland app id; empty when unknown.
    pub app: String,
    pub bounds: Rect,
}

/// Whether this session tells which windows show: an X server (not XWayland under a
/// Wayland compositor, which knows only X11 windows), or sway.
pub fn known() -> bool {
    let session = crate::session::current();
    match &session.wayland {
        Some(wayland) => wayland.sway_socket.is_some(),
        None => session.x11.is_some(),
    }
}

/// The titled, mapped top-level windows, bottom to top in stacking order. Empty when
/// there is no display, or on a Wayland compositor that does not tell.
pub fn windows() -> Vec<XWindow> {
    if let Some(wayland) = &crate::session::current().wayland {
        let Some(ipc) = &wayland.sway_socket else {
            return Vec::new();
        };
        return match zeta_display::sway::windows(ipc) {
            Ok(shown) => shown
                .into_iter()
                .filter(|w| !w.title.is_empty())
                .map(|w| XWindow {
                    id: w.id,
                    title: w.title,
                    app: w.app,
                    bounds: Rect {
                        x: w.x,
                        y: w.y,
                        width: w.width,
                        height: w.height,
                    },
                })
                .collect(),
            Err(e) => {
                tracing::debug!("no windows from sway: {e}");
                Vec::new()
            }
        };
    }
    let Ok((conn, screen)) = x11rb::connect(None) else {
        return Vec::new();
    };
    let Some(root) = conn.setup().roots.get(screen).map(|s| s.root) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for top in children(&conn, root) {
        if !viewable(&conn, top) {
            continue;
        }
        let titled = std::iter::once(top)
            .chain(children(&conn, top))
            .find_map(|w| title(&conn, w).map(|t| (w, t)));
        if let Some((w, title)) = titled {
            if let Some(bounds) = place(&conn, w, root) {
                let app = class(&conn, w).unwrap_or_default();
                out.push(XWindow {
                    id: u64::from(w),
                    title,
                    app,
                    bounds,
                });
            }
        }
    }
    out
}

/// The topmost window whose title contains `want` (any window when `want` is empty,
/// leaving out Zeta's own).
pub fn find(want: &str) -> Option<XWindow> {
    let want = want.trim().to_lowercase();
    windows().into_iter().rev().find(|w| {
        let t = w.title.to_lowercase();
        if want.is_empty() {
            !t.starts_with("zeta")
        } else {
            t.contains(&want)
        }
    })
}

/// The topmost titled window that holds the point (x, y) of the screen.
pub fn top_at(x: i32, y: i32) -> Option<XWindow> {
    windows()
        .into_iter()
        .rev()
        .find(|w| w.bounds.contains(x, y))
}

impl Rect {
    /// The two share most of their area (over half of the two together): one window as
    /// two sources see it (a frame's edges, a shadow).
    pub fn alike(&self, other: &Rect) -> bool {
        let w = (self.x + self.width).min(other.x + other.width) - self.x.max(other.x);
        let h = (self.y + self.height).min(other.y + other.height) - self.y.max(other.y);
        if w <= 0 || h <= 0 {
            return false;
        }
        let shared = (w as i64) * (h as i64);
        let union = (self.width as i64) * (self.height as i64)
            + (other.width as i64) * (other.height as i64)
            - shared;
        shared * 2 > union
    }
}

fn children(conn: &impl Connection, w: Window) -> Vec<Window> {
    conn.query_tree(w)
        .ok()
        .and_then(|c| c.reply().ok())
        .map(|r| r.children)
        .unwrap_or_default()
}

fn viewable(conn: &impl Connection, w: Window) -> bool {
    conn.get_window_attributes(w)
        .ok()
        .and_then(|c| c.reply().ok())
        .is_some_and(|a| a.map_state == MapState::VIEWABLE)
}

fn title(conn: &impl Connection, w: Window) -> Option<String> {
    let utf8 = conn
        .intern_atom(true, b"UTF8_STRING")
        .ok()?
        .reply()
        .ok()?
        .atom;
    let net_name = conn
        .intern_atom(true, b"_NET_WM_NAME")
        .ok()?
        .reply()
        .ok()?
        .atom;
    for (prop, kind) in [
        (net_name, utf8),
        (AtomEnum::WM_NAME.into(), AtomEnum::STRING.into()),
    ] {
        if prop == 0 || kind == 0 {
            continue;
        }
        let Ok(cookie) = conn.get_property(false, w, prop, kind, 0, 1024) else {
            continue;
        };
        if let Ok(reply) = cookie.reply() {
            let text = String::from_utf8_lossy(&reply.value).trim().to_string();
            if !text.is_empty() {
                return Some(text);
            }
        }
    }
    None
}

/// `WM_CLASS`'s two names (instance, class) joined by a space, the same one once.
fn class(conn: &impl Connection, w: Window) -> Option<String> {
    let reply = conn
        .get_property(false, w, AtomEnum::WM_CLASS, AtomEnum::STRING, 0, 256)
        .ok()?
        .reply()
        .ok()?;
    let mut names: Vec<String> = Vec::new();
    for part in reply.value.split(|b| *b == 0) {
        let name = String::from_utf8_lossy(part).trim().to_string();
        // Both forms stay ("featherpad FeatherPad"): the class's capitals name it.
        if !name.is_empty() && !names.contains(&name) {
            names.push(name);
        }
    }
    (!names.is_empty()).then(|| names.join(" "))
}

fn place(conn: &impl Connection, w: Window, root: Window) -> Option<Rect> {
    let g = conn.get_geometry(w).ok()?.reply().ok()?;
    let t = conn
        .translate_coordinates(w, root, 0, 0)
        .ok()?
        .reply()
        .ok()?;
    Some(Rect {
        x: t.dst_x as i32,
        y: t.dst_y as i32,
        width: g.width as i32,
        height: g.height as i32,
    })
}

/// The titles of the windows, bottom to top (none without an X server).
pub fn titles() -> Vec<String> {
    windows().into_iter().map(|w| w.title).collect()
}

/// What became of the window titled `title` in `before`, seen in `after`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fate {
    /// It is there, with the same title.
    Kept,
    /// It is there with another title (an editor's "*notes.txt" once edited).
    Retitled(String),
    Closed,
    /// It was not in `before`.
    Unknown,
}

/// What became of the window titled `title`: followed by its id where the display
/// server gives one (a title that changed is the same window), else by its title.
pub fn fate(before: &[XWindow], after: &[XWindow], title: &str) -> Fate {
    let Some(was) = before.iter().find(|w| w.title == title) else {
        return Fate::Unknown;
    };
    let now = if was.id != 0 {
        after.iter().find(|w| w.id == was.id)
    } else {
        after.iter().find(|w| w.title == title)
    };
    match now {
        Some(w) if w.title == title => Fate::Kept,
        Some(w) => Fate::Retitled(w.title.clone()),
        None => Fate::Closed,
    }
}

/// The titles of the windows in `after` that were not in `before`: by id where the
/// display server gives one (a window retitled did not open), else by title (as many
/// times).
pub fn opened_windows(before: &[XWindow], after: &[XWindow]) -> Vec<String> {
    let known: Vec<&XWindow> = after.iter().filter(|w| w.id != 0).collect();
    let unknown_ids: Vec<String> = after
        .iter()
        .filter(|w| w.id == 0)
        .map(|w| w.title.clone())
        .collect();
    let mut out: Vec<String> = known
        .into_iter()
        .filter(|w| !before.iter().any(|b| b.id == w.id))
        .map(|w| w.title.clone())
        .collect();
    let before_unknown: Vec<String> = before
        .iter()
        .filter(|w| w.id == 0)
        .map(|w| w.title.clone())
        .collect();
    out.extend(opened(&before_unknown, &unknown_ids));
    out
}

/// Titles in `after` that `before` did not hold (as many times).
pub fn opened(before: &[String], after: &[String]) -> Vec<String> {
    let mut left: Vec<&String> = before.iter().collect();
    let mut out = Vec::new();
    for t in after {
        match left.iter().position(|b| *b == t) {
            Some(i) => {
                left.remove(i);
            }
            None => out.push(t.clone()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Followed by id where there is one, by title where there is none.
    #[test]
    fn a_window_is_followed_by_its_id_else_its_title() {
        let w = |id: u64, title: &str| XWindow {
            id,
            title: title.into(),
            app: String::new(),
            bounds: Rect {
                x: 0,
                y: 0,
                width: 10,
                height: 10,
            },
        };
        let before = [w(7, "notes.txt"), w(0, "Reminder"), w(9, "Code")];
        let after = [w(7, "*notes.txt"), w(0, "Reminder"), w(11, "Code")];
        assert_eq!(
            fate(&before, &after, "notes.txt"),
            Fate::Retitled("*notes.txt".into())
        );
        assert_eq!(fate(&before, &after, "Reminder"), Fate::Kept);
        assert_eq!(
            fate(&before, &after, "Code"),
            Fate::Closed,
            "another window, same title"
        );
        assert_eq!(fate(&before, &after, "Nowhere"), Fate::Unknown);
        assert_eq!(fate(&before, &after[..1], "Reminder"), Fate::Closed);
        assert_eq!(opened_windows(&before, &after), ["Code"]);
        let popup = [w(0, "Reminder"), w(0, "Reminder")];
        assert_eq!(opened_windows(&before, &popup), ["Reminder"]);
    }

    #[test]
    fn one_window_seen_twice_is_alike_two_windows_are_not() {
        let r = |x, y, width, height| Rect {
            x,
            y,
            width,
            height,
        };
        let window = r(60, 60, 520, 380);
        assert!(window.alike(&r(60, 60, 520, 380)));
        assert!(window.alike(&r(50, 40, 540, 410)), "a frame's edges");
        assert!(
            !window.alike(&r(300, 200, 520, 380)),
            "another window over it"
        );
        assert!(!window.alike(&r(60, 60, 200, 100)), "a small one on top");
        assert!(!window.alike(&r(900, 600, 100, 100)));
    }

    #[test]
    fn opened_counts_titles_as_many_times_as_they_show() {
        let s = |v: &[&str]| v.iter().map(|t| t.to_string()).collect::<Vec<_>>();
        assert_eq!(opened(&s(&["A", "B"]), &s(&["A", "B", "C"])), s(&["C"]));
        assert_eq!(opened(&s(&["A"]), &s(&["A", "A"])), s(&["A"]));
        assert!(opened(&s(&["A", "B"]), &s(&["B"])).is_empty());
    }
}

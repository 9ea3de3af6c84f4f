//! Where a window's elements are on the screen. On X11 the bus gives screen positions as
//! they are, but for toolkits that cannot (GTK 4: "Screen coordinates not supported"),
//! which give positions inside the window, its own element at 0,0. On Wayland a client
//! knows nothing of where its window is, so toolkits give positions inside the window.
//! Those are moved by the window's place where the display server tells it (the X
//! server, or sway: the window of that title and size, less the margin around it it
//! draws itself — GTK 4's resize border), and left as they are where nothing tells
//! (then no element is clicked by position: see `act::on_top`).

use atspi::proxy::component::ComponentProxy;
use atspi::CoordType;

use super::{proxy, within, Desktop};
use crate::node::{Key, Node};

/// Puts `node` (read from the window of `title` whose own element is `root`) in the
/// screen's space.
pub async fn place(desktop: &Desktop, node: &mut Node, root: Option<&Key>, title: &str) {
    // The window's own element, read just now with its place: no second call for it
    // (a window is read again every 30 ms while it settles after an act).
    if root == Some(&node.key) {
        if let Some(b) = node.bounds {
            let by = offset_of((b.x, b.y, b.width, b.height), title).await;
            shift(node, by);
            return;
        }
    }
    if let Ok(conn) = desktop.connection().await {
        shift(node, offset(&conn, root, title).await);
    }
}

/// How far a window's elements must move to be in the screen's space.
pub async fn offset(conn: &atspi::zbus::Connection, root: Option<&Key>, title: &str) -> (i32, i32) {
    let Some(Key::Tree { bus, path }) = root else {
        return (0, 0);
    };
    let Ok(c) = proxy::<ComponentProxy>(conn, bus, path).await else {
        return (0, 0);
    };
    let Ok(extents) = within(
        title,
        "its window's place",
        c.get_extents(CoordType::Screen),
    )
    .await
    else {
        return (0, 0);
    };
    offset_of(extents, title).await
}

/// The move for a window of `title` whose own element the toolkit places at `extents`.
async fn offset_of((x, y, width, height): (i32, i32, i32, i32), title: &str) -> (i32, i32) {
    // On X11 a window's own element elsewhere than 0,0 is where it is.
    if !zeta_tools::session::current().is_wayland() && (x, y) != (0, 0) {
        return (0, 0);
    }
    let title = title.to_string();
    let shown = tokio::task::spawn_blocking(zeta_tools::windows::windows)
        .await
        .unwrap_or_default();
    placed(&shown, &title, (x, y, width, height)).unwrap_or((0, 0))
}

/// Most a display server's window may be larger than the toolkit's own (the resize
/// border GTK 4 draws around its windows: 5 px each side).
const MARGIN: i32 = 64;

/// The move that puts a window of `title` and `local` extents where the display server
/// shows a window of that title and about that size; where it is larger on both sides
/// by more than a few pixels, the toolkit's window is taken to sit in its middle.
fn placed(
    shown: &[zeta_tools::windows::XWindow],
    title: &str,
    (x, y, width, height): (i32, i32, i32, i32),
) -> Option<(i32, i32)> {
    shown
        .iter()
        .rev()
        .find(|w| {
            let (dw, dh) = (w.bounds.width - width, w.bounds.height - height);
            w.title == title && (-8..=MARGIN).contains(&dw) && (-8..=MARGIN).contains(&dh)
        })
        .map(|w| {
            let (dw, dh) = (w.bounds.width - width, w.bounds.height - height);
            let (mx, my) = if dw > 8 && dh > 8 {
                (dw / 2, dh / 2)
            } else {
                (0, 0)
            };
            (w.bounds.x + mx - x, w.bounds.y + my - y)
        })
}

/// Moves `node` and everything under it by `by`.
pub fn shift(node: &mut Node, by: (i32, i32)) {
    if by == (0, 0) {
        return;
    }
    if let Some(b) = node.bounds.as_mut() {
        b.x += by.0;
        b.y += by.1;
    }
    for child in &mut node.children {
        shift(child, by);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::node::Bounds;
    use zeta_tools::windows::{Rect, XWindow};

    fn shown(title: &str, x: i32, y: i32, width: i32, height: i32) -> XWindow {
        XWindow {
            id: 0,
            title: title.into(),
            app: String::new(),
            bounds: Rect {
                x,
                y,
                width,
                height,
            },
        }
    }

    #[test]
    fn a_window_is_placed_by_its_title_and_size_and_its_elements_follow() {
        let list = [
            shown("Form", 2, 27, 1276, 771),
            shown("Form", 700, 300, 300, 200),
            shown("Other", 0, 0, 1276, 771),
        ];
        assert_eq!(placed(&list, "Form", (0, 0, 1276, 771)), Some((2, 27)));
        assert_eq!(placed(&list, "Form", (0, 0, 302, 198)), Some((700, 300)));
        assert_eq!(
            placed(&list, "Form", (0, 0, 640, 480)),
            None,
            "no such size"
        );
        assert_eq!(placed(&list, "Gone", (0, 0, 1276, 771)), None);
        // GTK 4 on X11: its window 5 px inside the X window on every side.
        let gtk4 = [shown("Calculator", 457, 164, 365, 496)];
        assert_eq!(
            placed(&gtk4, "Calculator", (0, 0, 355, 486)),
            Some((462, 169))
        );
        assert_eq!(
            placed(&gtk4, "Calculator", (0, 0, 200, 486)),
            None,
            "too far off"
        );

        let mut root = Node::new(Key::Word { run: 0, index: 0 }, "frame", "Form");
        root.bounds = Some(Bounds {
            x: 0,
            y: 0,
            width: 100,
            height: 100,
        });
        let mut child = Node::new(Key::Word { run: 0, index: 1 }, "push button", "Save");
        child.bounds = Some(Bounds {
            x: 10,
            y: 20,
            width: 30,
            height: 10,
        });
        root.children.push(child);
        shift(&mut root, (2, 27));
        assert_eq!(root.children[0].bounds.map(|b| (b.x, b.y)), Some((12, 47)));
    }
}

//! Where a window's elements are on the screen. On X11 the bus gives screen positions as
//! they are. On Wayland a client knows nothing of where its window is, so toolkits give
//! positions inside the window: they are moved by the window's place where the compositor
//! tells it (sway: the window of that title and size), and left as they are where nothing
//! tells (then no element is clicked by position: see `act::on_top`).

use atspi::proxy::component::ComponentProxy;
use atspi::CoordType;

use super::{proxy, within, Desktop};
use crate::node::{Key, Node};

/// Puts `node` (read from the window of `title` whose own element is `root`) in the
/// screen's space.
pub async fn place(desktop: &Desktop, node: &mut Node, root: Option<&Key>, title: &str) {
    if !zeta_tools::session::current().is_wayland() {
        return;
    }
    if let Ok(conn) = desktop.connection().await {
        shift(node, offset(&conn, root, title).await);
    }
}

/// How far a window's elements must move to be in the screen's space.
pub async fn offset(conn: &atspi::zbus::Connection, root: Option<&Key>, title: &str) -> (i32, i32) {
    if !zeta_tools::session::current().is_wayland() {
        return (0, 0);
    }
    let Some(Key::Tree { bus, path }) = root else {
        return (0, 0);
    };
    let Ok(c) = proxy::<ComponentProxy>(conn, bus, path).await else {
        return (0, 0);
    };
    let Ok((x, y, width, height)) = within(
        title,
        "its window's place",
        c.get_extents(CoordType::Screen),
    )
    .await
    else {
        return (0, 0);
    };
    let title = title.to_string();
    let shown = tokio::task::spawn_blocking(zeta_tools::windows::windows)
        .await
        .unwrap_or_default();
    placed(&shown, &title, (x, y, width, height)).unwrap_or((0, 0))
}

/// The move that puts a window of `title` and `local` extents where the compositor shows
/// a window of that title and size.
fn placed(
    shown: &[zeta_tools::windows::XWindow],
    title: &str,
    (x, y, width, height): (i32, i32, i32, i32),
) -> Option<(i32, i32)> {
    shown
        .iter()
        .rev()
        .find(|w| {
            w.title == title
                && (w.bounds.width - width).abs() <= 8
                && (w.bounds.height - height).abs() <= 8
        })
        .map(|w| (w.bounds.x - x, w.bounds.y - y))
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

//! The confirmation dialog window (`confirm` in tauri.conf.json): small, always on top,
//! shown while a plan waits for the user, or a single call while the chat window (which
//! asks about single calls inline, beside the request) is hidden; hidden again once
//! nothing it should show waits. Closing it denies what it showed.
//!
//! It is made only when a request needs it (`create: false` keeps it from being made at
//! start), and destroyed once it has not been needed for `KEEP_HIDDEN` (`window_life`), so
//! a Zeta nobody is asked anything by holds no web process for it (~75 MiB). The wait
//! keeps a dialog that is needed again soon (the next step of a plan) from being destroyed
//! and made again between two refreshes.

use std::time::Duration;

use tauri::{AppHandle, Manager};
use zeta_core::{Event, Op};

use super::queue_manager::QueueManager;
use super::window_life::{get_or_make, Release};

/// The dialog's window label.
pub const CONFIRM_WINDOW: &str = "confirm";

/// Shows the dialog when a request waits that the chat cannot show (a plan, or anything
/// while the chat is hidden or minimized), and hides it otherwise.
pub fn refresh(app: &AppHandle, queue: &QueueManager) {
    let pending = queue.pending();
    let chat_shown = app
        .get_webview_window(super::CHAT_WINDOW)
        .is_some_and(|w| w.is_visible().unwrap_or(false) && !w.is_minimized().unwrap_or(false));
    let waiting = pending.iter().any(|event| match event {
        Event::PlanProposed { .. } => true,
        Event::ApprovalRequested { .. } => !chat_shown,
        _ => false,
    });
    show_or_hide(app, waiting);
}

/// How long the hidden dialog is kept before it is destroyed.
const KEEP_HIDDEN: Duration = Duration::from_secs(15);

/// The dialog's show/hide decisions.
static RELEASE: Release = Release::new(CONFIRM_WINDOW);

fn show_or_hide(app: &AppHandle, waiting: bool) {
    let existing = app.get_webview_window(CONFIRM_WINDOW);
    if !waiting {
        let Some(window) = existing else { return };
        if let Err(e) = window.hide() {
            tracing::warn!("could not hide the confirmation window: {e}");
        }
        RELEASE.hidden(app, KEEP_HIDDEN, |_| true);
        return;
    }
    RELEASE.shown();
    // Placed when it appears, not at every refresh: where the person moves it, it stays.
    let appearing = !existing
        .as_ref()
        .is_some_and(|w| w.is_visible().unwrap_or(false));
    let window = match existing {
        Some(window) => window,
        None => match get_or_make(app, CONFIRM_WINDOW) {
            Ok(window) => window,
            Err(e) => {
                tracing::warn!("{e}; approvals still show in the chat");
                return;
            }
        },
    };
    if appearing {
        place_beside_chat(app, &window);
    }
    let result = window
        .set_always_on_top(true)
        .and_then(|_| window.unminimize())
        .and_then(|_| window.show())
        .and_then(|_| window.set_focus());
    if let Err(e) = result {
        tracing::warn!("could not show the confirmation window: {e}");
    }
}

/// Space kept between the chat and the dialog, in physical pixels.
const GAP: i32 = 8;

/// Puts the dialog beside the chat window while the chat shows, so the request and the
/// conversation stay readable: to the right, else to the left, else against the screen
/// edge on the side with more room (covering as little of the chat as the screen
/// allows). With the chat hidden it stays where it is (centred when made).
fn place_beside_chat(app: &AppHandle, dialog: &tauri::WebviewWindow) {
    let Some(chat) = app
        .get_webview_window(super::CHAT_WINDOW)
        .filter(|w| w.is_visible().unwrap_or(false) && !w.is_minimized().unwrap_or(false))
    else {
        return;
    };
    let (Ok(at), Ok(size), Ok(Some(monitor)), Ok(own)) = (
        chat.outer_position(),
        chat.outer_size(),
        chat.current_monitor(),
        dialog.outer_size(),
    ) else {
        return;
    };
    // A window just made may not know its size yet: at least the size it is made with.
    let made = app
        .config()
        .app
        .windows
        .iter()
        .find(|w| w.label == CONFIRM_WINDOW)
        .map(|w| {
            tauri::LogicalSize::new(w.width, w.height).to_physical::<u32>(monitor.scale_factor())
        });
    let own = tauri::PhysicalSize::new(
        own.width.max(made.map_or(0, |m| m.width)),
        own.height.max(made.map_or(0, |m| m.height)),
    );
    let screen = Span {
        start: monitor.position().x,
        len: monitor.size().width as i32,
    };
    let chat_x = Span {
        start: at.x,
        len: size.width as i32,
    };
    let x = beside(chat_x, own.width as i32, screen);
    let top = monitor.position().y;
    let bottom = top + monitor.size().height as i32;
    let y = at.y.clamp(top, (bottom - own.height as i32).max(top));
    if let Err(e) = dialog.set_position(tauri::PhysicalPosition::new(x, y)) {
        tracing::warn!("could not place the confirmation window beside the chat: {e}");
    }
}

/// A stretch of one screen axis.
#[derive(Debug, Clone, Copy)]
struct Span {
    start: i32,
    len: i32,
}

impl Span {
    fn end(self) -> i32 {
        self.start + self.len
    }
}

/// Where a window `width` wide goes beside `chat` on `screen`: right of it, else left of
/// it, else against the edge on the side with more room.
fn beside(chat: Span, width: i32, screen: Span) -> i32 {
    let right = chat.end() + GAP;
    if right + width <= screen.end() {
        return right;
    }
    let left = chat.start - GAP - width;
    if left >= screen.start {
        return left;
    }
    if screen.end() - chat.end() >= chat.start - screen.start {
        (screen.end() - width).max(screen.start)
    } else {
        screen.start
    }
}

/// The user closed the dialog: everything it showed counts as denied.
pub fn closed(queue: &QueueManager) {
    for event in queue.pending() {
        let call_id = match event {
            Event::ApprovalRequested { call_id, .. } | Event::PlanProposed { call_id, .. } => {
                call_id
            }
            _ => continue,
        };
        let op = Op::Deny {
            call_id,
            reason: Some("the user closed the confirmation dialog".into()),
        };
        if let Err(e) = queue.core().submit(op) {
            tracing::warn!("could not deny after the dialog closed: {e}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{beside, Span, GAP};

    const SCREEN: Span = Span {
        start: 0,
        len: 1280,
    };

    #[test]
    fn the_dialog_goes_beside_the_chat_where_it_fits_and_against_the_far_edge_where_not() {
        // Room on the right.
        let chat = Span {
            start: 100,
            len: 480,
        };
        assert_eq!(beside(chat, 480, SCREEN), 580 + GAP);
        // Room only on the left.
        let chat = Span {
            start: 700,
            len: 480,
        };
        assert_eq!(beside(chat, 480, SCREEN), 700 - GAP - 480);
        // Centred with no room either side: against the right edge, over the least.
        let chat = Span {
            start: 400,
            len: 480,
        };
        assert_eq!(beside(chat, 480, SCREEN), 800);
        // Nearer the right: against the left edge.
        let chat = Span {
            start: 500,
            len: 480,
        };
        assert_eq!(beside(chat, 600, SCREEN), 0);
        // Wider than the screen: at its start.
        assert_eq!(beside(chat, 2000, SCREEN), 0);
    }
}

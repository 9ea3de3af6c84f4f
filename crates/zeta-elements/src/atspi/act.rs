//! Acting on one element by its number: press, focus, set or type text, select an option,
//! toggle, scroll into view. The element's own means first (its AT-SPI action, editable
//! text, selection); the mouse or keyboard where it has none. Before acting, the element is
//! read again: gone, or now something else, and its number is refused as stale.

use atspi::proxy::accessible::AccessibleProxy;
use atspi::proxy::action::ActionProxy;
use atspi::proxy::component::ComponentProxy;
use atspi::proxy::editable_text::EditableTextProxy;
use atspi::proxy::selection::SelectionProxy;
use atspi::proxy::text::TextProxy;
use atspi::proxy::value::ValueProxy;
use atspi::zbus;
use atspi::ScrollType;
use zeta_tools::input::InputState;

use super::read::element;
use super::{proxy, within, Desktop};
use crate::error::ElementsError;
use crate::node::{Key, Node};
use crate::numbers::Entry;

/// What to do to an element.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    Press,
    Focus,
    /// Replace its text.
    SetText(String),
    /// Add text at the end of what it holds (through the tree, else focused and typed
    /// with the keys after its caret is put at the end).
    Type(String),
    /// Choose an option by its name (a combo box, a list).
    Select(String),
    Toggle,
    ScrollIntoView,
}

/// The element `entry` names, read again, or why its number is stale.
pub async fn live(desktop: &Desktop, number: u32, entry: &Entry) -> Result<Node, ElementsError> {
    let node = match read_again(desktop, entry).await {
        Ok(n) => n,
        Err(ElementsError::Bus { reason, .. }) => {
            return Err(ElementsError::Stale(format!(
                "element {number} ({}) in \"{}\" is gone (its window closed or changed: {reason}); read the window again with ui_outline",
                entry.label(),
                entry.place.window
            )))
        }
        Err(e) => return Err(e),
    };
    if node.role != entry.role
        || node.role == "invalid"
        || !node.states.showing
            && node.role != "combo box"
            && !node.states.editable
            && node.bounds.is_none_or(|b| !b.is_visible())
    {
        return Err(ElementsError::Stale(format!(
            "element {number} was {} and is now {}; read the window again with ui_outline",
            entry.label(),
            if node.role == entry.role {
                "hidden".to_string()
            } else {
                node.role.clone()
            }
        )));
    }
    Ok(node)
}

/// The element `entry` names read again after an act, or `None` (gone, or its
/// application does not answer).
pub async fn again(desktop: &Desktop, entry: &Entry) -> Option<Node> {
    read_again(desktop, entry).await.ok()
}

/// The element `entry` names, read afresh and placed in the screen's space.
async fn read_again(desktop: &Desktop, entry: &Entry) -> Result<Node, ElementsError> {
    let Key::Tree { bus, path } = &entry.key else {
        return Err(ElementsError::Unsupported(
            "not an accessibility element".into(),
        ));
    };
    let conn = desktop.connection().await?;
    let mut node = element(&conn, bus, path, &entry.place.window).await?;
    let window = &entry.place;
    super::origin::place(desktop, &mut node, window.root.as_ref(), &window.window).await;
    Ok(node)
}

/// The preferred own action of an element for a press (or a toggle).
fn own_action(node: &Node, toggle: bool) -> Option<usize> {
    let wanted: &[&str] = if toggle {
        &["toggle", "click", "press", "activate"]
    } else {
        &["click", "press", "activate", "jump", "open", "toggle"]
    };
    wanted
        .iter()
        .find_map(|w| node.actions.iter().position(|a| a.eq_ignore_ascii_case(w)))
}

async fn run_blocking(
    work: impl FnOnce() -> Result<(), String> + Send + 'static,
) -> Result<(), ElementsError> {
    match tokio::task::spawn_blocking(work).await {
        Ok(r) => r.map_err(ElementsError::Input),
        Err(e) => Err(ElementsError::Input(format!(
            "the input thread failed: {e}"
        ))),
    }
}

/// A combo box that takes no choice through Selection (a Qt one: seen on kdialog's
/// "Pick a fruit", "would not choose Cherry" twice) chosen with the keys, as a person
/// would: focused through the bus, Home for its first option and Down to option `i`,
/// its list never opened; where it takes no focus that way, clicked open, and the
/// option taken with Return in its list. What it shows after is the read-back's to say.
async fn choose_by_keys(
    conn: &zbus::Connection,
    bus: &str,
    path: &str,
    node: &Node,
    i: i32,
    input: &InputState,
    who: &str,
) -> Result<String, ElementsError> {
    let c: ComponentProxy = proxy(conn, bus, path).await?;
    let focused = node.abilities.component
        && matches!(within(who, "focusing", c.grab_focus()).await, Ok(true));
    let how = if focused {
        "focused it and pressed Home and Down with the keys".to_string()
    } else {
        format!(
            "{}, then Home, Down and Return with the keys",
            click_centre(node, input).await?
        )
    };
    let input = input.clone();
    let downs = i.max(0);
    run_blocking(move || {
        std::thread::sleep(std::time::Duration::from_millis(150));
        input.press("home")?;
        for _ in 0..downs {
            input.press("down")?;
        }
        if !focused {
            input.press("return")?;
        }
        Ok(())
    })
    .await?;
    Ok(how)
}

/// Whether the element's text, read back through its Text interface, is `text` (true
/// where it cannot be read: nothing says otherwise).
async fn holds_text(conn: &zbus::Connection, bus: &str, path: &str, text: &str, who: &str) -> bool {
    let Ok(t) = proxy::<TextProxy>(conn, bus, path).await else {
        return true;
    };
    let Ok(count) = within(who, "its text's length", t.character_count()).await else {
        return true;
    };
    match within(who, "its text", t.get_text(0, count)).await {
        Ok(now) => now.trim() == text.trim(),
        Err(_) => true,
    }
}

/// `text` added at the end of the element's text through its EditableText, and read
/// back there: what was done, or `None` where it did not take it (the keys are next).
async fn add_at_end(
    conn: &zbus::Connection,
    bus: &str,
    path: &str,
    text: &str,
    who: &str,
) -> Option<String> {
    let t: TextProxy = proxy(conn, bus, path).await.ok()?;
    let e: EditableTextProxy = proxy(conn, bus, path).await.ok()?;
    let count = within(who, "its text's length", t.character_count())
        .await
        .ok()?;
    let length = i32::try_from(text.chars().count()).ok()?;
    if !within(
        who,
        "adding to its text",
        e.insert_text(count, text, length),
    )
    .await
    .ok()?
    {
        return None;
    }
    // Taken: the text grew by it (a password field reads back only its dots, so its
    // length is what tells; seen: "hunter2" inserted, read back as dots, typed again).
    // Said taken and not grown: the keys type it.
    let now_count = within(who, "its text's length", t.character_count())
        .await
        .ok()?;
    (now_count >= count + length).then(|| {
        format!(
            "added \"{}\" at the end of its text",
            crate::outline::clip(text, 80)
        )
    })
}

/// The caret put at the end of the element's text, where it has one (best effort: the
/// keys type at the caret wherever it is).
async fn caret_to_end(conn: &zbus::Connection, bus: &str, path: &str, who: &str) {
    let Ok(t) = proxy::<TextProxy>(conn, bus, path).await else {
        return;
    };
    if let Ok(count) = within(who, "its text's length", t.character_count()).await {
        let _ = within(who, "its caret", t.set_caret_offset(count)).await;
    }
}

async fn click_centre(node: &Node, input: &InputState) -> Result<String, ElementsError> {
    let Some(b) = node.bounds.filter(|b| b.is_visible()) else {
        return Err(ElementsError::Unsupported(format!(
            "{} has no action of its own and no place on screen to click",
            node.role
        )));
    };
    let (x, y) = b.centre();
    let input = input.clone();
    run_blocking(move || input.click(x, y)).await?;
    Ok(format!("clicked its centre at ({x}, {y}) with the mouse"))
}

async fn focus(
    conn: &zbus::Connection,
    bus: &str,
    path: &str,
    node: &Node,
    input: &InputState,
    who: &str,
) -> Result<String, ElementsError> {
    if node.abilities.component {
        let c: ComponentProxy = proxy(conn, bus, path).await?;
        // An application may not take focus through the bus (GTK 4's text views answer
        // NotSupported: seen on gnome-calculator, "12" never typed): a click focuses it
        // as a person would.
        match within(who, "focusing", c.grab_focus()).await {
            Ok(true) => return Ok("focused it".into()),
            Ok(false) | Err(ElementsError::Bus { .. }) => {}
            Err(e) => return Err(e),
        }
    }
    click_centre(node, input).await
}

/// Whether the element's centre shows on top: the topmost window there is its own, by
/// title and by place (`window` as the display server knows it, against its window's
/// extents on the bus: two windows may share a title). Unknown (no X server, a Wayland
/// compositor that does not say where windows are) is no.
async fn on_top(conn: &zbus::Connection, node: &Node, entry: &Entry) -> bool {
    let Some((x, y)) = node.bounds.filter(|b| b.is_visible()).map(|b| b.centre()) else {
        return false;
    };
    let Some(Key::Tree { bus, path }) = entry.place.root.as_ref() else {
        return false;
    };
    let who = entry.place.window.as_str();
    let Ok(c) = proxy::<ComponentProxy>(conn, bus, path).await else {
        return false;
    };
    let Ok((wx, wy, ww, wh)) = within(
        who,
        "its window's place",
        c.get_extents(atspi::CoordType::Screen),
    )
    .await
    else {
        return false;
    };
    let (dx, dy) = super::origin::offset(conn, entry.place.root.as_ref(), who).await;
    let own = zeta_tools::windows::Rect {
        x: wx + dx,
        y: wy + dy,
        width: ww,
        height: wh,
    };
    let title = who.to_string();
    tokio::task::spawn_blocking(move || {
        zeta_tools::windows::top_at(x, y)
            .is_some_and(|top| top.title == title && top.bounds.alike(&own))
    })
    .await
    .unwrap_or(false)
}

/// A number typed into an element that holds a value (a spin button, a slider) counts
/// only once committed (Enter, Tab, leaving the field): it is committed through its Value
/// interface, so pressing OK through its action next does not keep the old value. Says
/// how, or `None` when there is nothing to commit.
async fn commit(
    conn: &zbus::Connection,
    bus: &str,
    path: &str,
    node: &Node,
    text: &str,
    who: &str,
) -> Result<Option<String>, ElementsError> {
    let Ok(number) = text.trim().parse::<f64>() else {
        return Ok(None);
    };
    if !node.abilities.value {
        return Ok(None);
    }
    let v: ValueProxy = proxy(conn, bus, path).await?;
    within(who, "setting its value", v.set_current_value(number)).await?;
    let now = within(who, "its value", v.current_value()).await?;
    Ok(Some(if (now - number).abs() < 1e-9 {
        format!("committed it as its value {now}")
    } else {
        format!("tried to commit it as its value, which is {now}")
    }))
}

/// The index among a combo box's or list's options of the one named `want`, and the
/// object that holds them (the combo box's popup menu, or the list itself); or, when none
/// is named so, the options there are.
async fn option_index(
    conn: &zbus::Connection,
    bus: &str,
    path: &str,
    want: &str,
    who: &str,
) -> Result<Result<(String, String, i32), Vec<String>>, ElementsError> {
    let want = want.trim().to_lowercase();
    let a: AccessibleProxy = proxy(conn, bus, path).await?;
    let mut holders = vec![(bus.to_string(), path.to_string())];
    for r in within(who, "the options", a.get_children()).await? {
        if let (Some(b), p) = (r.name_as_str(), r.path_as_str()) {
            holders.push((b.to_string(), p.to_string()));
        }
    }
    let mut all = Vec::new();
    for (hb, hp) in holders {
        let h: AccessibleProxy = proxy(conn, &hb, &hp).await?;
        let items = within(who, "the options", h.get_children()).await?;
        let mut names = Vec::new();
        for r in &items {
            let (Some(ib), ip) = (r.name_as_str(), r.path_as_str()) else {
                continue;
            };
            let item: AccessibleProxy = proxy(conn, ib, ip).await?;
            let name = within(who, "an option's name", item.name()).await?;
            names.push(name.trim().to_lowercase());
            if !name.trim().is_empty() {
                all.push(name);
            }
        }
        let found = names
            .iter()
            .position(|n| *n == want)
            .or_else(|| names.iter().position(|n| n.starts_with(&want)));
        if let Some(i) = found {
            return Ok(Ok((hb, hp, i as i32)));
        }
    }
    Ok(Err(all))
}

/// Does `action` to the element (already checked live: `node`), saying how.
pub async fn act(
    desktop: &Desktop,
    entry: &Entry,
    node: &Node,
    action: &Action,
    input: &InputState,
) -> Result<String, ElementsError> {
    let Key::Tree { bus, path } = &entry.key else {
        return Err(ElementsError::Unsupported(
            "not an accessibility element".into(),
        ));
    };
    let conn = desktop.connection().await?;
    let who = entry.place.window.as_str();
    let label = entry.label();
    if !node.states.enabled && !matches!(action, Action::ScrollIntoView | Action::Focus) {
        return Err(ElementsError::Unsupported(format!(
            "{label} is disabled: it cannot be used now. A window enables such an element once what it needs is there (a change to save, a field filled in): do the request's earlier steps first"
        )));
    }
    match action {
        Action::Press | Action::Toggle => {
            let toggle = matches!(action, Action::Toggle);
            if toggle && !node.states.checkable {
                return Err(ElementsError::Unsupported(format!(
                    "{label} is not something that can be checked or unchecked; use press"
                )));
            }
            // A press or toggle is a real click where the element shows on top: a
            // button's own action can run a modal dialog inside the bus call (GTK's
            // gtk_dialog_run), and the application then answers nothing until the dialog
            // closes; some own actions do nothing (GTK's toggle cells); and a click moves
            // the focus, which commits a field's typed value as a person's click would.
            if on_top(&conn, node, entry).await {
                return click_centre(node, input).await;
            }
            if let Some(i) = own_action(node, toggle) {
                let a: ActionProxy = proxy(&conn, bus, path).await?;
                match within(who, "its action", a.do_action(node.action_index(i))).await {
                    Ok(true) => return Ok(format!("did its own action \"{}\"", node.actions[i])),
                    Ok(false) => {}
                    // The action started and the application is still in it.
                    Err(ElementsError::Timeout { .. }) => {
                        return Ok(format!(
                            "did its own action \"{}\"; the application has not answered since",
                            node.actions[i]
                        ))
                    }
                    Err(e) => return Err(e),
                }
            }
            click_centre(node, input).await
        }
        Action::Focus => focus(&conn, bus, path, node, input, who).await,
        Action::SetText(text) => {
            if node.abilities.editable_text {
                let e: EditableTextProxy = proxy(&conn, bus, path).await?;
                let set_ok = within(who, "setting its text", e.set_text_contents(text)).await?;
                // Said done and not done: some applications take text only from the
                // keyboard (seen: mate-calc's display left "" after "23" was set), so
                // the keys below type it.
                if set_ok && holds_text(&conn, bus, path, text, who).await {
                    let set = format!("set its text to \"{}\"", crate::outline::clip(text, 80));
                    return Ok(match commit(&conn, bus, path, node, text, who).await? {
                        Some(how) => format!("{set} and {how}"),
                        None => set,
                    });
                }
            }
            if !node.states.editable && !node.abilities.editable_text {
                // A number for what holds a value and takes no text (a slider, a
                // progress-like scale): set through its Value (seen: "set the Volume
                // slider to 65" refused as text, then the slider pressed).
                if let Some(how) = commit(&conn, bus, path, node, text, who).await? {
                    return Ok(how.replacen("committed it as", "set it to", 1));
                }
                return Err(ElementsError::Unsupported(format!(
                    "{label} does not take text"
                )));
            }
            let how = focus(&conn, bus, path, node, input, who).await?;
            let (input, text) = (input.clone(), text.clone());
            run_blocking(move || {
                input.press("ctrl+a")?;
                input.type_text(&text)
            })
            .await?;
            Ok(format!("{how}, selected all and typed the new text"))
        }
        Action::Type(text) => {
            // Typing goes to whatever has the keyboard: into an element that takes no
            // text (a label, a button) it would land somewhere else, unseen.
            if !node.states.editable && !node.abilities.editable_text && node.role != "terminal" {
                return Err(ElementsError::Unsupported(format!(
                    "{label} does not take text; type into a text field's number"
                )));
            }
            // Added at the end of what it holds, through the tree where it takes it (a
            // line break kept as one); else typed there with the keys. The caret of a
            // window the model cannot see is no place to type at (seen: "eggs" typed
            // before Mousepad's "milk" for "add a line with the word eggs after milk").
            if node.abilities.editable_text && node.role != "terminal" {
                if let Some(how) = add_at_end(&conn, bus, path, text, who).await {
                    return Ok(how);
                }
            }
            let how = focus(&conn, bus, path, node, input, who).await?;
            if node.role != "terminal" {
                caret_to_end(&conn, bus, path, who).await;
            }
            let count = text.chars().count();
            let (input, text) = (input.clone(), text.clone());
            run_blocking(move || input.type_text(&text)).await?;
            Ok(format!(
                "{how} and typed {count} characters at the end of its text"
            ))
        }
        Action::Select(option) => {
            match option_index(&conn, bus, path, option, who).await? {
                // A menu's item is activated by its own action, the menu closed or
                // open (choosing it through Selection only highlights it).
                Ok((hb, hp, i)) if node.role == "menu" => {
                    let holder: AccessibleProxy = proxy(&conn, &hb, &hp).await?;
                    let items = within(who, "the menu's items", holder.get_children()).await?;
                    let item = items.get(i as usize).and_then(|r| {
                        r.name_as_str()
                            .map(|b| (b.to_string(), r.path_as_str().to_string()))
                    });
                    let Some((ib, ip)) = item else {
                        return Err(ElementsError::Stale(format!("{label}'s item \"{option}\"")));
                    };
                    let a: ActionProxy = proxy(&conn, &ib, &ip).await?;
                    match within(who, "the item's action", a.do_action(0)).await {
                        Ok(true) => Ok(format!("chose its item \"{option}\"")),
                        Ok(false) => Err(ElementsError::Unsupported(format!(
                            "{label} would not choose \"{option}\""
                        ))),
                        // The item started something that waits (a dialog).
                        Err(ElementsError::Timeout { .. }) => Ok(format!(
                            "chose its item \"{option}\"; the application has not answered since"
                        )),
                        Err(e) => Err(e),
                    }
                }
                Ok((hb, hp, i)) => {
                    // The holder with Selection: the combo box itself for GTK, or the list.
                    for (sb, sp) in [(bus.as_str(), path.as_str()), (hb.as_str(), hp.as_str())] {
                        let s: SelectionProxy = proxy(&conn, sb, sp).await?;
                        if let Ok(true) = within(who, "choosing an option", s.select_child(i)).await
                        {
                            return Ok(format!("chose the option \"{option}\""));
                        }
                    }
                    if node.role == "combo box" {
                        return choose_by_keys(&conn, bus, path, node, i, input, who)
                            .await
                            .map(|how| format!("chose the option \"{option}\": {how}"));
                    }
                    Err(ElementsError::Unsupported(format!(
                        "{label} would not choose \"{option}\""
                    )))
                }
                Err(options) => Err(ElementsError::Unsupported(format!(
                    "{label} has no option named \"{option}\"{}",
                    if options.is_empty() {
                        String::new()
                    } else {
                        format!("; its options are: {}", options.join(", "))
                    }
                ))),
            }
        }
        Action::ScrollIntoView => {
            let c: ComponentProxy = proxy(&conn, bus, path).await?;
            if within(who, "scrolling", c.scroll_to(ScrollType::Anywhere)).await? {
                Ok("scrolled it into view".into())
            } else {
                Err(ElementsError::Unsupported(format!(
                    "{label} could not be scrolled into view"
                )))
            }
        }
    }
}

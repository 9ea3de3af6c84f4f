//! Reading the desktop: which applications share their tree and which windows they have,
//! and one window's elements as a `Node` tree (only what is showing; a closed combo box's
//! options are read too, and a closed menu's items, as its options). Every call has a time limit; a walk also stops at a number of
//! nodes, so a huge document cannot stall the agent.

use atspi::proxy::accessible::AccessibleProxy;
use atspi::proxy::action::ActionProxy;
use atspi::proxy::component::ComponentProxy;
use atspi::proxy::selection::SelectionProxy;
use atspi::proxy::text::TextProxy;
use atspi::proxy::value::ValueProxy;
use atspi::zbus;
use atspi::{CoordType, Interface, State};

use super::{proxy, within, Desktop};
use crate::error::{ElementsError, ENABLE_HINT};
use crate::node::{Abilities, Bounds, Key, Node, States};

const REGISTRY: &str = "org.a11y.atspi.Registry";
const ROOT: &str = "/org/a11y/atspi/accessible/root";
/// A walk stops after this many nodes.
const MAX_NODES: usize = 3000;
const MAX_DEPTH: usize = 48;
/// Text read of an element with much text (a document).
const MAX_TEXT: i32 = 400;

/// One top-level window.
#[derive(Debug, Clone, PartialEq)]
pub struct Window {
    pub key: Key,
    pub title: String,
    pub role: String,
    pub app: String,
    pub active: bool,
    pub bounds: Option<Bounds>,
}

/// The applications on the bus and their windows, and those that did not answer.
#[derive(Debug, Default)]
pub struct Windows {
    pub windows: Vec<Window>,
    /// Applications that did not answer in time or failed (their bus names and why).
    pub silent: Vec<String>,
    /// How many applications share a tree.
    pub apps: usize,
}

impl Windows {
    /// The window a request means: one whose title or application contains `want`, or
    /// else the active window, or else the newest application's first window. Zeta's own
    /// windows are chosen only by name.
    pub fn choose(&self, want: Option<&str>) -> Result<&Window, ElementsError> {
        if let Some(want) = want.map(str::trim).filter(|w| !w.is_empty()) {
            let w = want.to_lowercase();
            return self
                .windows
                .iter()
                .find(|x| x.title.to_lowercase() == w)
                .or_else(|| {
                    self.windows
                        .iter()
                        .find(|x| x.title.to_lowercase().contains(&w))
                })
                .or_else(|| {
                    self.windows
                        .iter()
                        .find(|x| x.app.to_lowercase().contains(&w))
                })
                .or_else(|| self.windows.iter().find(|x| has_words(x, &w)))
                .ok_or_else(|| {
                    ElementsError::NoWindow(format!(
                        "no window's title or application contains \"{want}\"; the windows are: {}",
                        self.list()
                    ))
                });
        }
        let others: Vec<&Window> = self.windows.iter().filter(|w| !is_zeta(w)).collect();
        others
            .iter()
            .find(|w| w.active)
            .or_else(|| others.last())
            .copied()
            .ok_or_else(|| {
                ElementsError::NoWindow(if self.apps == 0 {
                    format!("no application shares its accessibility tree. {ENABLE_HINT}")
                } else {
                    "no window is open that shares its accessibility tree (only Zeta's own)".into()
                })
            })
    }

    /// "\"Zeta test form\" (form_app.py), \"Untitled - Mousepad\" (mousepad)".
    pub fn list(&self) -> String {
        if self.windows.is_empty() {
            return "none".into();
        }
        self.windows
            .iter()
            .map(|w| format!("\"{}\" ({})", w.title, w.app))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Every word of `want` (lowercase) is a word of the window's title or application, in
/// any order: "settings print" names "Print Settings".
fn has_words(w: &Window, want: &str) -> bool {
    let words = |s: &str| -> Vec<String> {
        s.to_lowercase()
            .split(|c: char| !c.is_alphanumeric())
            .filter(|x| !x.is_empty())
            .map(str::to_string)
            .collect()
    };
    let have: Vec<String> = words(&w.title).into_iter().chain(words(&w.app)).collect();
    let want = words(want);
    !want.is_empty() && want.iter().all(|x| have.contains(x))
}

fn is_zeta(w: &Window) -> bool {
    w.app.eq_ignore_ascii_case("zeta")
        || w.app.starts_with("WebKitWebProcess") && w.title.starts_with("Zeta")
}

fn tree_key(bus: &str, path: &str) -> Key {
    Key::Tree {
        bus: bus.to_string(),
        path: path.to_string(),
    }
}

/// The parts of a child reference: its application's bus name and its path.
fn parts(r: &atspi::ObjectRefOwned) -> Option<(String, String)> {
    if r.is_null() {
        return None;
    }
    Some((r.name_as_str()?.to_string(), r.path_as_str().to_string()))
}

/// Every application's top-level windows.
pub async fn windows(desktop: &Desktop) -> Result<Windows, ElementsError> {
    let conn = desktop.connection().await?;
    let root: AccessibleProxy = proxy(&conn, REGISTRY, ROOT).await?;
    let apps = match within(
        "the accessibility registry",
        "listing applications",
        root.get_children(),
    )
    .await
    {
        Ok(a) => a,
        Err(e) => {
            // The bus may have gone (the session ended): connect again next time.
            desktop.reset().await;
            return Err(e);
        }
    };
    let mut out = Windows::default();
    let reads = apps.iter().filter_map(parts).map(|(bus, path)| {
        let conn = conn.clone();
        async move {
            let r = app_windows(&conn, &bus, &path).await;
            (bus, r)
        }
    });
    for (bus, r) in futures::future::join_all(reads).await {
        match r {
            Ok(ws) => {
                out.apps += 1;
                out.windows.extend(ws);
            }
            Err(e) => out.silent.push(format!("{bus}: {e}")),
        }
    }
    Ok(out)
}

async fn app_windows(
    conn: &zbus::Connection,
    bus: &str,
    path: &str,
) -> Result<Vec<Window>, ElementsError> {
    let app: AccessibleProxy = proxy(conn, bus, path).await?;
    let name = within(bus, "the application's name", app.name()).await?;
    let who = if name.is_empty() {
        bus.to_string()
    } else {
        format!("{name} ({bus})")
    };
    let children = within(&who, "the application's windows", app.get_children()).await?;
    let mut out = Vec::new();
    for (wbus, wpath) in children.iter().filter_map(parts) {
        let w: AccessibleProxy = proxy(conn, &wbus, &wpath).await?;
        let role = within(&who, "a window's role", w.get_role()).await?;
        let states = within(&who, "a window's states", w.get_state()).await?;
        if !states.contains(State::Showing) && !states.contains(State::Visible) {
            continue;
        }
        let title = within(&who, "a window's title", w.name()).await?;
        let bounds = extents(conn, &wbus, &wpath, &who).await.ok().flatten();
        out.push(Window {
            key: tree_key(&wbus, &wpath),
            title,
            role: role.name().to_string(),
            app: name.clone(),
            active: states.contains(State::Active),
            bounds,
        });
    }
    Ok(out)
}

async fn extents(
    conn: &zbus::Connection,
    bus: &str,
    path: &str,
    who: &str,
) -> Result<Option<Bounds>, ElementsError> {
    let c: ComponentProxy = proxy(conn, bus, path).await?;
    let (x, y, width, height) =
        within(who, "an element's place", c.get_extents(CoordType::Screen)).await?;
    Ok(Some(Bounds {
        x,
        y,
        width,
        height,
    }))
}

/// An element's name as a person reads it. GTK 4 names an element it has no name for by
/// its widget's class ("GtkButton", "AdwGizmo"): no name. GTK 4.8 names a button by its
/// label twice ("7 7", "mod mod"): once.
fn plain_name(name: &str) -> String {
    let name = name.trim();
    let class = |w: &str| {
        ["Gtk", "Adw"].iter().any(|p| {
            w.strip_prefix(p).is_some_and(|rest| {
                rest.starts_with(|c: char| c.is_ascii_uppercase())
                    && rest.chars().all(|c| c.is_ascii_alphanumeric())
            })
        })
    };
    if class(name) {
        return String::new();
    }
    let words: Vec<&str> = name.split_whitespace().collect();
    let half = words.len() / 2;
    if half > 0 && words.len().is_multiple_of(2) && words[..half] == words[half..] {
        return words[..half].join(" ");
    }
    name.to_string()
}

/// One element read afresh: its role, name, states, value, actions and place (not its
/// children). `who` names its application for errors.
pub async fn element(
    conn: &zbus::Connection,
    bus: &str,
    path: &str,
    who: &str,
) -> Result<Node, ElementsError> {
    let a: AccessibleProxy = proxy(conn, bus, path).await?;
    let role = within(who, "an element's role", a.get_role()).await?;
    let name = within(who, "an element's name", a.name()).await?;
    let st = within(who, "an element's states", a.get_state()).await?;
    let ifaces = within(who, "an element's interfaces", a.get_interfaces()).await?;
    let mut node = Node::new(tree_key(bus, path), role.name(), plain_name(&name));
    node.states = States {
        focused: st.contains(State::Focused),
        focusable: st.contains(State::Focusable),
        enabled: st.contains(State::Enabled) || st.contains(State::Sensitive),
        checkable: st.contains(State::Checkable)
            || matches!(
                node.role.as_str(),
                "check box"
                    | "radio button"
                    | "check menu item"
                    | "radio menu item"
                    | "toggle button"
                    | "switch"
            ),
        checked: st.contains(State::Checked) || st.contains(State::Pressed),
        selected: st.contains(State::Selected),
        editable: st.contains(State::Editable),
        expandable: st.contains(State::Expandable),
        expanded: st.contains(State::Expanded),
        showing: st.contains(State::Showing),
        visible: st.contains(State::Visible),
        active: st.contains(State::Active),
        default: st.contains(State::IsDefault),
    };
    node.abilities = Abilities {
        action: ifaces.contains(Interface::Action),
        editable_text: ifaces.contains(Interface::EditableText),
        text: ifaces.contains(Interface::Text),
        value: ifaces.contains(Interface::Value),
        selection: ifaces.contains(Interface::Selection),
        component: ifaces.contains(Interface::Component),
    };
    if node.abilities.component {
        node.bounds = extents(conn, bus, path, who).await?;
    }
    if node.abilities.action {
        let act: ActionProxy = proxy(conn, bus, path).await?;
        let actions = within(who, "an element's actions", act.get_actions()).await?;
        // Some toolkits give a sentence for a name (GTK's table cells: "expands or
        // contracts the row…"): a name is a few words. GTK 4 gives every label its
        // context menu's actions and a panel its application's, named "group.action"
        // ("clipboard.copy", "cal.solve"): none is the element's own act (seen: each of
        // gnome-calculator's keys beside a label with eight of them).
        let (at, names): (Vec<usize>, Vec<String>) = actions
            .into_iter()
            .map(|a| a.name.to_lowercase())
            .enumerate()
            .filter(|(_, n)| !n.is_empty() && n.split_whitespace().count() <= 3 && !n.contains('.'))
            .unzip();
        node.actions = names;
        node.action_at = at;
        // A cell that toggles is a check box in all but role (GTK's toggle cells).
        if node.actions.iter().any(|a| a == "toggle") {
            node.states.checkable = true;
        }
    }
    if node.abilities.text {
        let t: TextProxy = proxy(conn, bus, path).await?;
        let count = within(who, "an element's text length", t.character_count()).await?;
        if count > 0 {
            let text = within(who, "an element's text", t.get_text(0, count.min(MAX_TEXT))).await?;
            let more = if count > MAX_TEXT {
                format!(" … ({count} characters)")
            } else {
                String::new()
            };
            node.value = Some(format!("{text}{more}"));
        } else if node.states.editable {
            node.value = Some(String::new());
        }
    } else if node.abilities.value {
        let v: ValueProxy = proxy(conn, bus, path).await?;
        let current = within(who, "an element's value", v.current_value()).await?;
        node.value = Some(format!("{current}"));
    }
    if node.abilities.selection && node.role == "combo box" {
        let s: SelectionProxy = proxy(conn, bus, path).await?;
        if within(who, "the chosen option", s.n_selected_children()).await? > 0 {
            let chosen = within(who, "the chosen option", s.get_selected_child(0)).await?;
            if let Some((cb, cp)) = parts(&chosen) {
                let c: AccessibleProxy = proxy(conn, &cb, &cp).await?;
                node.value = Some(within(who, "the chosen option's name", c.name()).await?);
            }
        }
    }
    Ok(node)
}

/// What a walk has left.
struct Walk<'c> {
    conn: &'c zbus::Connection,
    who: String,
    visited: usize,
    /// The window's toolkit says "showing" of the window alone (GTK 4.8: its widgets
    /// are "visible", never "showing"; seen: gnome-calculator read as no element at
    /// all): "visible" stands for it below the window.
    visible_counts: bool,
}

/// Whether `node`, `depth` below the window (which is showing), is on screen as far as
/// its toolkit says. An element that is visible and not showing, right under the window,
/// tells that the toolkit says "showing" of windows alone (`visible_counts`, set here).
fn shown(visible_counts: &mut bool, node: &Node, depth: usize) -> bool {
    if depth == 1 && !node.states.showing && node.states.visible {
        *visible_counts = true;
    }
    node.states.showing || *visible_counts && node.states.visible
}

impl Walk<'_> {
    async fn children(
        &self,
        bus: &str,
        path: &str,
    ) -> Result<Vec<(String, String)>, ElementsError> {
        let a: AccessibleProxy = proxy(self.conn, bus, path).await?;
        let refs = within(&self.who, "an element's children", a.get_children()).await?;
        Ok(refs.iter().filter_map(parts).collect())
    }

    /// The names of a closed popup's items (a combo box's menu).
    async fn options(&mut self, bus: &str, path: &str) -> Result<Vec<String>, ElementsError> {
        let mut out = Vec::new();
        for (cb, cp) in self.children(bus, path).await? {
            for (ib, ip) in self.children(&cb, &cp).await? {
                self.visited += 1;
                let item: AccessibleProxy = proxy(self.conn, &ib, &ip).await?;
                let name = within(&self.who, "an option's name", item.name()).await?;
                if !name.trim().is_empty() {
                    out.push(name);
                }
            }
        }
        Ok(out)
    }

    fn node<'a>(
        &'a mut self,
        bus: String,
        path: String,
        depth: usize,
    ) -> futures::future::BoxFuture<'a, Result<Node, ElementsError>> {
        Box::pin(async move {
            self.visited += 1;
            let mut node = element(self.conn, &bus, &path, &self.who).await?;
            if node.role == "combo box" {
                node.options = self.options(&bus, &path).await?;
                return Ok(node);
            }
            if !shown(&mut self.visible_counts, &node, depth) || depth >= MAX_DEPTH {
                return Ok(node);
            }
            // A closed menu's items: its options (seen: Mousepad's Save, inside a File
            // menu nothing showed, never found for "… and save the file").
            let mut items: Vec<String> = Vec::new();
            for (cb, cp) in self.children(&bus, &path).await? {
                if self.visited >= MAX_NODES {
                    break;
                }
                let child = self.node(cb, cp, depth + 1).await?;
                if shown(&mut self.visible_counts, &child, depth + 1)
                    || child.bounds.is_some_and(|b| b.is_visible())
                {
                    node.children.push(child);
                } else if node.role == "menu"
                    && child.role.contains("menu")
                    && !child.name.trim().is_empty()
                {
                    items.push(child.name.trim().to_string());
                }
            }
            if node.children.is_empty() {
                node.options = items;
            }
            if matches!(node.role.as_str(), "table" | "tree table" | "tree") {
                crate::node::place_cells(&mut node);
            }
            Ok(node)
        })
    }
}

/// The tree under the element `key` (a window, or any element to expand), only what is
/// showing. `app` names the application for errors.
pub async fn tree(desktop: &Desktop, key: &Key, app: &str) -> Result<Node, ElementsError> {
    let Key::Tree { bus, path } = key else {
        return Err(ElementsError::Unsupported(
            "an OCR word has no elements under it".into(),
        ));
    };
    let conn = desktop.connection().await?;
    let mut walk = Walk {
        conn: &conn,
        who: if app.is_empty() {
            bus.clone()
        } else {
            format!("{app} ({bus})")
        },
        visited: 0,
        visible_counts: false,
    };
    walk.node(bus.clone(), path.clone(), 0).await
}

#[cfg(test)]
mod tests {
    use super::*;

    /// GTK 4's class names are no names, and its doubled button names are said once;
    /// other names stay as they are.
    #[test]
    fn a_gtk4_name_is_read_as_a_person_reads_it() {
        for (given, plain) in [
            ("GtkButton", ""),
            ("AdwGizmo", ""),
            (" GtkMenuButton ", ""),
            ("7 7", "7"),
            ("mod mod", "mod"),
            ("( (", "("),
            ("Save as Save as", "Save as"),
            ("Gtk", "Gtk"),
            ("Gtkfoo", "Gtkfoo"),
            ("GtkButton clicked", "GtkButton clicked"),
            ("Save", "Save"),
            ("Bye bye", "Bye bye"),
            ("", ""),
        ] {
            assert_eq!(plain_name(given), plain, "{given:?}");
        }
    }

    /// GTK 3 says "showing" of every element on screen, and not of a hidden page's; GTK
    /// 4.8 of its window alone, its widgets "visible": right under a showing window, a
    /// visible element not showing makes "visible" count from there on.
    #[test]
    fn visible_counts_for_showing_where_the_toolkit_says_showing_of_windows_alone() {
        let node = |showing: bool, visible: bool| {
            let mut n = Node::new(tree_key(":1.1", "/x"), "panel", "");
            n.states.showing = showing;
            n.states.visible = visible;
            n
        };
        // GTK 3: a hidden page is visible, not showing, below elements that show.
        let mut gtk3 = false;
        assert!(shown(&mut gtk3, &node(true, true), 1));
        assert!(shown(&mut gtk3, &node(true, true), 2));
        assert!(!shown(&mut gtk3, &node(false, true), 3), "a hidden page");
        assert!(!gtk3);
        // GTK 4: nothing under the window shows.
        let mut gtk4 = false;
        assert!(shown(&mut gtk4, &node(false, true), 1));
        assert!(gtk4);
        assert!(shown(&mut gtk4, &node(false, true), 5));
        assert!(
            !shown(&mut gtk4, &node(false, false), 5),
            "not visible at all"
        );
    }

    fn window(title: &str, app: &str) -> Window {
        Window {
            key: tree_key(":1.1", &format!("/{title}")),
            title: title.into(),
            role: "frame".into(),
            app: app.into(),
            active: false,
            bounds: None,
        }
    }

    #[test]
    fn a_window_is_named_by_its_title_its_application_or_its_title_words() {
        let ws = Windows {
            windows: vec![
                window("Print Settings", "gedit"),
                window("notes.txt - Mousepad", "mousepad"),
                window("Set label", "settings_app.py"),
            ],
            silent: vec![],
            apps: 3,
        };
        let named = |want: &str| ws.choose(Some(want)).map(|w| w.title.clone()).ok();
        assert_eq!(named("print settings").as_deref(), Some("Print Settings"));
        assert_eq!(named("Settings").as_deref(), Some("Print Settings"));
        assert_eq!(named("mousepad").as_deref(), Some("notes.txt - Mousepad"));
        assert_eq!(named("settings print").as_deref(), Some("Print Settings"));
        assert_eq!(
            named("mousepad notes").as_deref(),
            Some("notes.txt - Mousepad")
        );
        assert_eq!(named("label set").as_deref(), Some("Set label"));
        assert_eq!(named("print dialog"), None);
        assert_eq!(named("  "), ws.choose(None).map(|w| w.title.clone()).ok());
    }
}

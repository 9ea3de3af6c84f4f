//! One element on screen, as the outline sees it, whichever source found it: the
//! accessibility tree (an object on the AT-SPI bus) or OCR (a word in a screenshot).

/// A rectangle in screen pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    pub x: i32,
    pub y: i32,
    pub width: i32,
    pub height: i32,
}

impl Bounds {
    pub fn centre(&self) -> (i32, i32) {
        (self.x + self.width / 2, self.y + self.height / 2)
    }
    /// A real, visible size (toolkits report -1 or 0 for elements off screen).
    pub fn is_visible(&self) -> bool {
        self.width > 0 && self.height > 0 && self.x > -10_000 && self.y > -10_000
    }
}

/// Where an element lives, so an action can find it again.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Key {
    /// An object on the accessibility bus: its application's bus name and object path.
    Tree { bus: String, path: String },
    /// A word OCR found in the screenshot of run `run`, the `index`th.
    Word { run: u64, index: usize },
}

/// The states the outline shows and the actions read.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct States {
    pub focused: bool,
    pub focusable: bool,
    pub enabled: bool,
    pub checkable: bool,
    pub checked: bool,
    pub selected: bool,
    pub editable: bool,
    pub expandable: bool,
    pub expanded: bool,
    pub showing: bool,
    /// Visible, whether or not it is on screen now (GTK 4 says "showing" of its windows
    /// alone: see `atspi::read`).
    pub visible: bool,
    pub active: bool,
    /// The window's default button: the one Enter presses (a dialog's OK or Yes).
    pub default: bool,
}

/// The AT-SPI interfaces an element has that acting uses.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Abilities {
    pub action: bool,
    pub editable_text: bool,
    pub text: bool,
    pub value: bool,
    pub selection: bool,
    pub component: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub key: Key,
    /// The toolkit's role name: "push button", "text", "check box", "word" for OCR.
    pub role: String,
    pub name: String,
    /// What it holds: a text field's text, a label's text, a slider's value, a combo box's
    /// chosen option.
    pub value: Option<String>,
    pub states: States,
    pub abilities: Abilities,
    /// The names of its own actions ("click", "press", "activate", "toggle").
    pub actions: Vec<String>,
    /// Each of `actions`' index among all the actions the element gives (some are left
    /// out: `atspi::read`); empty where they are all of them.
    pub action_at: Vec<usize>,
    pub bounds: Option<Bounds>,
    /// A combo box's or list's options when they are not on screen (a closed popup).
    pub options: Vec<String>,
    /// Where a nameless element sits, when that is what tells it apart: a table cell's
    /// row and column (`row "Alpha", column "Enabled"`).
    pub context: Option<String>,
    pub children: Vec<Node>,
}

impl Node {
    /// The index to run `actions[i]` by, among all the element's actions.
    pub fn action_index(&self, i: usize) -> i32 {
        self.action_at.get(i).copied().unwrap_or(i) as i32
    }

    pub fn new(key: Key, role: impl Into<String>, name: impl Into<String>) -> Self {
        Self {
            key,
            role: role.into(),
            name: name.into(),
            value: None,
            states: States {
                enabled: true,
                showing: true,
                visible: true,
                ..States::default()
            },
            abilities: Abilities::default(),
            actions: Vec::new(),
            action_at: Vec::new(),
            bounds: None,
            options: Vec::new(),
            context: None,
            children: Vec::new(),
        }
    }

    /// An element of the accessibility tree at `path` of a test's application.
    #[cfg(test)]
    pub fn at(path: &str, role: &str, name: &str) -> Self {
        Self::new(
            Key::Tree {
                bus: ":1.1".into(),
                path: path.into(),
            },
            role,
            name,
        )
    }

    /// Something a person can act on: it has an action, takes text, or takes focus.
    pub fn is_interactive(&self) -> bool {
        !self.actions.is_empty()
            || self.states.editable
            || self.states.checkable
            || (self.states.focusable && !is_container(&self.role))
            || self.abilities.selection && !is_container(&self.role)
    }

    /// Every node below this one (itself included), depth first.
    pub fn walk(&self) -> Vec<&Node> {
        let mut out = vec![self];
        for c in &self.children {
            out.extend(c.walk());
        }
        out
    }
}

/// Roles that only group others: left out of the outline unless named.
pub fn is_container(role: &str) -> bool {
    matches!(
        role,
        "panel"
            | "filler"
            | "scroll pane"
            | "viewport"
            | "layered pane"
            | "split pane"
            | "unknown"
            | "redundant object"
            | "section"
            | "grouping"
            | "invalid"
            | "root pane"
            | "glass pane"
            | "option pane"
            | "internal frame"
            | "desktop frame"
            | "form"
            | "block quote"
            | "static"
    )
}

/// Roles that hold many alike children (rows, items): summarised when long.
pub fn is_list(role: &str) -> bool {
    matches!(
        role,
        "list"
            | "list box"
            | "table"
            | "tree"
            | "tree table"
            | "menu"
            | "page tab list"
            | "tool bar"
    )
}

/// Names the nameless cells of a table by where they sit: the text of the other cells of
/// their row, and their column's header (by place on screen: cells whose rows share a
/// line, headers whose span holds the cell's centre).
pub fn place_cells(table: &mut Node) {
    let headers: Vec<(Bounds, String)> = table
        .children
        .iter()
        .filter(|c| c.role.contains("column header") && !c.name.trim().is_empty())
        .filter_map(|c| Some((c.bounds?, c.name.trim().to_string())))
        .collect();
    let cells: Vec<(Bounds, String)> = table
        .children
        .iter()
        .filter(|c| c.role.contains("cell"))
        .filter_map(|c| {
            let text = if c.name.trim().is_empty() {
                c.value.clone().unwrap_or_default()
            } else {
                c.name.clone()
            };
            Some((c.bounds?, text.trim().to_string()))
        })
        .filter(|(_, t)| !t.is_empty())
        .collect();
    for cell in table.children.iter_mut() {
        if !cell.role.contains("cell") || !cell.name.trim().is_empty() {
            continue;
        }
        let Some(b) = cell.bounds.filter(|b| b.is_visible()) else {
            continue;
        };
        let (cx, cy) = b.centre();
        let row: Vec<&str> = cells
            .iter()
            .filter(|(o, _)| cy >= o.y && cy < o.y + o.height && *o != b)
            .map(|(_, t)| t.as_str())
            .collect();
        let column = headers
            .iter()
            .find(|(h, _)| cx >= h.x && cx < h.x + h.width)
            .map(|(_, n)| n.as_str());
        let mut parts = Vec::new();
        if !row.is_empty() {
            parts.push(format!("row \"{}\"", row.join(" | ")));
        }
        if let Some(c) = column {
            parts.push(format!("column \"{c}\""));
        }
        if !parts.is_empty() {
            cell.context = Some(parts.join(", "));
        }
    }
}

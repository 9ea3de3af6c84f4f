//! Nameless fields (text, a slider, a combo box) named by the label a person reads beside
//! them. A form built as a grid
//! of labels and entries (zenity's `--forms`, many dialogs) gives its entries no name in
//! the tree: the outline showed `text (editable)` three times under "Name", "Email" and
//! "Age", and a small model typed into the wrong one or none. By place on screen, a
//! field's label is the nearest one that ends to its left on the same line, else the
//! nearest one just above it; the field takes that label's text as its name (a trailing
//! colon dropped), and the outline's rule that drops a label repeating a field's name
//! then shows the pair as one line. A text area (taller than one line) and a message (a
//! long label) take no part: the GUI bench's Mousepad page was named by the warning bar
//! above it.

use crate::node::{Bounds, Node};

/// How far above a field its label may end, in pixels.
const ABOVE: i32 = 40;
/// How far a label may reach past a field's left edge and still be to its left.
const OVERLAP: i32 = 4;
/// A field of one line is at most this tall; a taller one is a text area (an editor's
/// page), which a message above it does not name.
const ONE_LINE: i32 = 60;
/// A label longer than this is a message ("Warning: you are using the root account…"),
/// not a field's name.
const LABEL_CHARS: usize = 40;

/// A button's own label, given as a label inside it (GTK 4: every button holds one,
/// and one with an icon or a symbol has no name of its own, "π"): the button takes a
/// single label's text where it has no name, and a label repeating its button's name
/// goes (gnome-calculator's keys were read as a nameless button over a label each).
fn fold_own_labels(node: &mut Node) {
    for child in &mut node.children {
        fold_own_labels(child);
    }
    if node.role == "label" || node.actions.is_empty() {
        return;
    }
    let text = |n: &Node| {
        n.value
            .clone()
            .unwrap_or_else(|| n.name.clone())
            .trim()
            .to_string()
    };
    let labels: Vec<String> = node
        .children
        .iter()
        .filter(|c| c.role == "label" && c.children.is_empty())
        .map(text)
        .collect();
    if node.name.trim().is_empty() {
        if let [only] = labels.as_slice() {
            node.name = only.clone();
        }
    }
    let name = node.name.trim().to_string();
    if !name.is_empty() {
        node.children
            .retain(|c| !(c.role == "label" && c.children.is_empty() && text(c) == name));
    }
}

/// Names the nameless editable fields under `root` by their labels (and buttons by
/// their own, `fold_own_labels`).
pub fn name_fields(root: &mut Node) {
    fold_own_labels(root);
    let labels: Vec<(Bounds, String)> = root
        .walk()
        .into_iter()
        .filter(|n| n.role == "label" && !n.is_interactive())
        .filter_map(|n| {
            let text = n.value.as_deref().unwrap_or(&n.name).trim();
            let text = text.trim_end_matches(':').trim();
            let b = n.bounds.filter(|b| b.is_visible())?;
            let short = text.chars().count() <= LABEL_CHARS;
            (!text.is_empty() && short && !text.contains('\n')).then(|| (b, text.to_string()))
        })
        .collect();
    if labels.is_empty() {
        return;
    }
    name_below(root, &labels);
}

fn name_below(node: &mut Node, labels: &[(Bounds, String)]) {
    // What takes a value: text, a number on a slider or spin button, a combo box's
    // choice (a scroll bar's value is where a view is scrolled to, no field's).
    let field = node.states.editable
        || node.abilities.editable_text
        || node.abilities.value && node.role != "scroll bar"
        || node.role == "combo box";
    if field && node.name.trim().is_empty() {
        if let Some(b) = node
            .bounds
            .filter(|b| b.is_visible() && b.height <= ONE_LINE)
        {
            if let Some(label) = label_of(&b, labels) {
                node.name = label;
            }
        }
    }
    for child in &mut node.children {
        name_below(child, labels);
    }
}

/// The label of a field at `f`: the nearest that ends to its left on its line, else the
/// nearest that ends just above it and overlaps it across.
fn label_of(f: &Bounds, labels: &[(Bounds, String)]) -> Option<String> {
    let (_, fy) = f.centre();
    let left = labels
        .iter()
        .filter(|(l, _)| {
            let (_, ly) = l.centre();
            l.x + l.width <= f.x + OVERLAP && ly >= f.y && ly < f.y + f.height
        })
        .min_by_key(|(l, _)| f.x - (l.x + l.width));
    if let Some((_, text)) = left {
        return Some(text.clone());
    }
    labels
        .iter()
        .filter(|(l, _)| {
            let gap = f.y - (l.y + l.height);
            (0..=ABOVE).contains(&gap) && l.x < f.x + f.width && l.x + l.width > f.x
        })
        .min_by_key(|(l, _)| (f.y - (l.y + l.height), (l.centre().1 - fy).abs()))
        .map(|(_, text)| text.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(id: &str, role: &str, name: &str, (x, y, width, height): (i32, i32, i32, i32)) -> Node {
        let mut n = Node::at(&format!("/{id}"), role, name);
        n.bounds = Some(Bounds {
            x,
            y,
            width,
            height,
        });
        n.states.editable = role == "text";
        n
    }

    fn names(root: &Node) -> Vec<String> {
        root.walk()
            .into_iter()
            .filter(|n| n.role == "text")
            .map(|n| n.name.clone())
            .collect()
    }

    #[test]
    fn a_grid_of_labels_and_entries_names_each_entry_by_the_label_on_its_line() {
        let mut form = node("form", "panel", "", (0, 0, 400, 300));
        form.children = vec![
            node("l1", "label", "Sign up", (10, 10, 300, 20)),
            node("l2", "label", "Name:", (10, 50, 60, 20)),
            node("e1", "text", "", (80, 45, 200, 30)),
            node("l3", "label", "Email", (10, 90, 60, 20)),
            node("e2", "text", "", (80, 85, 200, 30)),
            node("e3", "text", "Already named", (80, 125, 200, 30)),
            node("l4", "label", "Age", (10, 130, 60, 20)),
            // A field under its label, and one with no label near it.
            node("l5", "label", "Comment", (10, 180, 100, 20)),
            node("e4", "text", "", (10, 205, 300, 30)),
            node("e5", "text", "", (300, 270, 80, 20)),
        ];
        let mut slider = node("s1", "slider", "", (80, 240, 200, 20));
        slider.abilities.value = true;
        let mut scroll = node("s2", "scroll bar", "", (80, 240, 200, 20));
        scroll.abilities.value = true;
        form.children
            .push(node("l6", "label", "Volume", (10, 240, 60, 20)));
        form.children.push(slider);
        form.children.push(scroll);
        name_fields(&mut form);
        assert_eq!(
            names(&form),
            ["Name", "Email", "Already named", "Comment", ""]
        );
        let named: Vec<(&str, &str)> = form
            .walk()
            .into_iter()
            .filter(|n| n.role == "slider" || n.role == "scroll bar")
            .map(|n| (n.role.as_str(), n.name.as_str()))
            .collect();
        assert_eq!(named, [("slider", "Volume"), ("scroll bar", "")]);
    }

    #[test]
    fn an_editors_page_under_a_message_is_not_named_by_it() {
        let mut window = node("w", "frame", "", (0, 0, 600, 500));
        window.children = vec![
            node(
                "bar",
                "label",
                "Warning: you are using the root account. You may harm your system.",
                (10, 60, 500, 20),
            ),
            node("page", "text", "", (10, 90, 580, 400)),
            node("l", "label", "Find", (10, 30, 40, 20)),
            node("find", "text", "", (60, 25, 200, 30)),
        ];
        name_fields(&mut window);
        assert_eq!(names(&window), ["", "Find"]);
    }

    #[test]
    fn a_label_to_the_right_or_far_above_names_nothing() {
        let mut form = node("form", "panel", "", (0, 0, 400, 300));
        form.children = vec![
            node("e1", "text", "", (10, 100, 200, 30)),
            node("l1", "label", "units", (220, 105, 60, 20)),
            node("l2", "label", "Title", (10, 0, 60, 20)),
        ];
        name_fields(&mut form);
        assert_eq!(names(&form), [""]);
    }

    /// A nameless button takes its one label's text; a label repeating its button's name
    /// goes; a button with two labels, or a label with its own parts, is left alone.
    #[test]
    fn a_button_is_named_by_its_own_label_and_the_label_goes() {
        let button = |name: &str, labels: &[&str]| {
            let mut b = Node::at("/b", "push button", name);
            b.actions = vec!["click".into()];
            for l in labels {
                b.children.push(Node::at(&format!("/{l}"), "label", l));
            }
            b
        };
        let mut root = Node::at("/w", "frame", "Calculator");
        root.children = vec![
            button("", &["π"]),
            button("7", &["7"]),
            button("", &["x", "2"]),
            button("Undo", &["Undo ", "Ctrl+Z"]),
        ];
        name_fields(&mut root);
        let seen: Vec<(String, usize)> = root
            .children
            .iter()
            .map(|b| (b.name.clone(), b.children.len()))
            .collect();
        assert_eq!(
            seen,
            [
                ("π".to_string(), 0),
                ("7".to_string(), 0),
                (String::new(), 2),
                ("Undo".to_string(), 1)
            ]
        );
    }
}

//! Element numbers: each element an outline shows gets a number that stays the same for as
//! long as the element exists, across outlines, expansions and actions, so a model can read
//! an outline and act on "element 4" several calls later. An action looks its number up
//! here and checks the element is still there (see `atspi::act`); a number never given, or
//! given before the table was reset, is refused with a clear message.

use std::collections::{BTreeMap, HashMap};

use crate::node::{Bounds, Key, Node};

/// What an action needs to know of a numbered element, as last seen.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub key: Key,
    pub role: String,
    pub name: String,
    /// What acting on it takes, from its states and actions as read.
    pub takes: Takes,
    pub bounds: Option<Bounds>,
    pub place: Place,
    /// A combo box's or list's options, as last read (none when not read).
    pub options: Vec<String>,
    /// The window's default button (the one Enter presses).
    pub default: bool,
    /// It holds a number set through its Value (a slider, a spin button).
    pub value: bool,
    /// A person can act on it (`Node::is_interactive`): not text alone.
    pub interactive: bool,
}

/// Where an element was seen: its window's title (for the approval's wording), its
/// application, and the window's own key (to read it again after an action; none for
/// OCR).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Place {
    pub window: String,
    pub app: String,
    pub root: Option<Key>,
    /// The rectangle OCR read (none for the whole screen), to read it again.
    pub region: Option<Bounds>,
}

/// What acting on an element takes, from what the tree said of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Takes {
    /// It holds text a person can change (editable).
    Text,
    /// It can be checked (a check box, a toggle, a radio button).
    Toggle,
    /// It has actions of its own (a button, a link, a menu item).
    Press,
    /// Nothing the tree says.
    Unknown,
}

impl Takes {
    pub fn of(node: &crate::node::Node) -> Self {
        if node.states.editable || node.abilities.editable_text {
            Self::Text
        } else if node.states.checkable {
            Self::Toggle
        } else if !node.actions.is_empty() {
            Self::Press
        } else {
            Self::Unknown
        }
    }
}

impl Entry {
    /// `push button "Save"` — how the user and the model are told which element.
    pub fn label(&self) -> String {
        if self.name.is_empty() {
            self.role.clone()
        } else {
            format!("{} \"{}\"", self.role, crate::outline::clip(&self.name, 60))
        }
    }
}

/// The table is reset when it grows past this: numbers given before are then stale.
const MAX_ENTRIES: usize = 20_000;

#[derive(Debug, Default)]
pub struct Numbers {
    by_key: HashMap<Key, u32>,
    entries: BTreeMap<u32, Entry>,
    next: u32,
    /// Numbers below this were given before a reset.
    first_valid: u32,
}

impl Numbers {
    /// The number of `node` seen in `place`, given now if it has none.
    pub fn number(&mut self, node: &Node, place: &Place) -> u32 {
        if self.entries.len() >= MAX_ENTRIES {
            self.by_key.clear();
            self.entries.clear();
            self.first_valid = self.next + 1;
        }
        let n = match self.by_key.get(&node.key) {
            Some(n) => *n,
            None => {
                self.next += 1;
                self.by_key.insert(node.key.clone(), self.next);
                self.next
            }
        };
        self.entries.insert(
            n,
            Entry {
                key: node.key.clone(),
                role: node.role.clone(),
                name: node.name.clone(),
                takes: Takes::of(node),
                bounds: node.bounds,
                place: place.clone(),
                options: node.options.clone(),
                default: node.states.default,
                value: node.abilities.value,
                interactive: node.is_interactive(),
            },
        );
        n
    }

    /// Every numbered element, by number.
    pub fn all(&self) -> impl Iterator<Item = (u32, &Entry)> {
        self.entries.iter().map(|(n, e)| (*n, e))
    }

    /// The number an element already has, if any.
    pub fn find(&self, key: &Key) -> Option<u32> {
        self.by_key.get(key).copied()
    }

    /// Whether an element of the same window as `entry` is named `name` (any case).
    pub fn names_in_window(&self, entry: &Entry, name: &str) -> bool {
        let name = name.trim();
        self.entries.values().any(|e| {
            e.place.window == entry.place.window && e.name.trim().eq_ignore_ascii_case(name)
        })
    }

    /// The one element of `entry`'s window that is pressed and named `name` (any case),
    /// with its number; `None` when there is none or more than one.
    pub fn the_button_named(&self, entry: &Entry, name: &str) -> Option<(u32, &Entry)> {
        let name = name.trim();
        let mut found = self.entries.iter().filter(|(_, e)| {
            e.place.window == entry.place.window
                && e.takes == Takes::Press
                && e.name.trim().eq_ignore_ascii_case(name)
        });
        let one = found.next()?;
        found.next().is_none().then_some((*one.0, one.1))
    }

    pub fn get(&self, number: u32) -> Result<&Entry, String> {
        match self.entries.get(&number) {
            Some(e) => Ok(e),
            None if number == 0 || number > self.next => Err(format!(
                "there is no element {number}: read the window with ui_outline first and use a number it shows"
            )),
            None if number < self.first_valid => Err(format!(
                "element {number} is from an outline too old to use: read the window again with ui_outline"
            )),
            None => Err(format!(
                "element {number} is no longer on screen: read the window again with ui_outline"
            )),
        }
    }

    /// Forgets an element found gone, so its number is refused from now on.
    pub fn forget(&mut self, number: u32) {
        if let Some(e) = self.entries.remove(&number) {
            self.by_key.remove(&e.key);
        }
    }

    /// Forgets the words of earlier OCR runs: a word's number means the run it came from.
    pub fn forget_words_before(&mut self, run: u64) {
        let old: Vec<u32> = self
            .entries
            .iter()
            .filter(|(_, e)| matches!(e.key, Key::Word { run: r, .. } if r < run))
            .map(|(n, _)| *n)
            .collect();
        for n in old {
            self.forget(n);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(path: &str) -> Node {
        Node::new(
            Key::Tree {
                bus: ":1.2".into(),
                path: path.into(),
            },
            "push button",
            path,
        )
    }

    #[test]
    fn an_element_keeps_its_number_and_a_forgotten_one_is_refused() {
        let mut numbers = Numbers::default();
        let w = Place::default();
        let a = numbers.number(&node("/a"), &w);
        let b = numbers.number(&node("/b"), &w);
        assert_eq!((a, b), (1, 2));
        assert_eq!(
            numbers.number(&node("/a"), &w),
            1,
            "same element, same number"
        );
        assert_eq!(
            numbers.get(2).map(|e| e.label()),
            Ok("push button \"/b\"".into())
        );
        numbers.forget(2);
        let gone = numbers.get(2).unwrap_err();
        assert!(gone.contains("no longer on screen"), "{gone}");
        let never = numbers.get(99).unwrap_err();
        assert!(never.contains("there is no element 99"), "{never}");
        assert_eq!(
            numbers.number(&node("/b"), &w),
            3,
            "a new sighting is a new number"
        );
    }

    #[test]
    fn words_of_an_earlier_ocr_run_go_stale() {
        let mut numbers = Numbers::default();
        let w = Node::new(Key::Word { run: 1, index: 0 }, "word", "Save");
        let n = numbers.number(&w, &Place::default());
        numbers.forget_words_before(2);
        assert!(numbers.get(n).is_err());
    }
}

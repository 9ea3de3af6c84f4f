//! A step of the request that names nothing in its window, and the window's default
//! button, which does it. "Type the password hunter2 into the Unlock dialog and confirm
//! it": the field is named, the confirming is not; the window itself says which button
//! confirms it (the default one, that Enter presses). Seen on the GUI bench: the
//! password typed, the dialog left open, and "Done" claimed.
//!
//! A step is what follows "and" or "then" in the request (a further act, not a list
//! after a comma, where "please" may stand). It names something of the window when it
//! holds an element's name or one of its options, the window's title, or a value by its
//! shape (a word with a digit or an `@`, a quoted word); a step that names none of
//! those is only done in the window by its default button, or by the window closing
//! under it. No list of verbs is kept: the words of the step are the window's own or not.

use crate::asked::names;
use crate::numbers::{Entry, Numbers, Takes};

/// The steps of `request` after its first: what follows each "and" or "then".
fn later_steps(request: &str) -> Vec<String> {
    let mut steps = Vec::new();
    let mut current: Vec<&str> = Vec::new();
    for word in request.split_whitespace() {
        let bare = word
            .trim_matches(|c: char| !c.is_alphanumeric())
            .to_lowercase();
        if bare == "and" || bare == "then" {
            steps.push(current.join(" "));
            current.clear();
            continue;
        }
        current.push(word);
    }
    steps.push(current.join(" "));
    steps
        .into_iter()
        .skip(1)
        .map(|s| {
            s.trim_matches(|c: char| c == ',' || c == ';' || c.is_whitespace())
                .to_string()
        })
        .filter(|s| s.chars().any(char::is_alphanumeric))
        .collect()
}

/// Whether `step` holds a value by its shape: a word with a digit or an `@`, or a
/// quoted word.
fn holds_value(step: &str) -> bool {
    step.split_whitespace().any(|w| {
        w.chars().any(|c| c.is_ascii_digit() || c == '@') || w.starts_with(['\'', '"', '“', '‘'])
    })
}

/// Whether `step` names something of `window`: an element's name or option, the
/// window's title, or a value.
fn names_something(numbers: &Numbers, window: &str, step: &str) -> bool {
    holds_value(step)
        || names(step, window)
        || numbers
            .all()
            .filter(|(_, e)| e.place.window == window)
            .any(|(_, e)| {
                (!e.name.trim().is_empty() && names(step, &e.name))
                    || e.options.iter().any(|o| names(step, o))
            })
}

/// The window's default button: its number and entry.
pub fn default_of<'a>(numbers: &'a Numbers, window: &str) -> Option<(u32, &'a Entry)> {
    numbers
        .all()
        .find(|(_, e)| e.place.window == window && e.default && e.takes == Takes::Press)
}

/// The first later step of `request` that names nothing in `window`, when the window
/// has a default button to do it: the step's words, and the button.
pub fn unnamed_step<'a>(
    numbers: &'a Numbers,
    window: &str,
    request: &str,
) -> Option<(String, u32, &'a Entry)> {
    let (m, default) = default_of(numbers, window)?;
    let step = later_steps(request)
        .into_iter()
        .find(|s| !names_something(numbers, window, s))?;
    Some((step, m, default))
}

/// The first step of `request` that ends before word `at` (`asked::named_at`'s count)
/// and names no element of `window` (by a name or an option; the title and values are
/// not elements): "add the line pears after apples" before "save the file" in an
/// editor, whose only element that takes it is its text. `None` where every step
/// before `at` names one, or there is none.
pub fn unnamed_before(numbers: &Numbers, window: &str, request: &str, at: usize) -> Option<String> {
    let words = crate::asked::words(request);
    let mut steps: Vec<Vec<&str>> = vec![Vec::new()];
    for word in words.iter().take(at) {
        if word == "and" || word == "then" {
            steps.push(Vec::new());
        } else if let Some(step) = steps.last_mut() {
            step.push(word);
        }
    }
    // The step `at` is in is not before it.
    steps.pop();
    steps.into_iter().map(|s| s.join(" ")).find(|step| {
        !step.is_empty()
            && !numbers
                .all()
                .filter(|(_, e)| e.place.window == window)
                .any(|(_, e)| {
                    (!e.name.trim().is_empty() && names(step, &e.name))
                        || e.options.iter().any(|o| names(step, o))
                })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::node::{Key, Node};
    use crate::numbers::Place;

    fn dialog(numbers: &mut Numbers, title: &str, elements: &[(&str, &str, bool)]) {
        let place = Place {
            window: title.into(),
            ..Place::default()
        };
        for (i, (role, name, default)) in elements.iter().enumerate() {
            let mut node = Node::new(
                Key::Tree {
                    bus: ":1.1".into(),
                    path: format!("/{title}/{i}"),
                },
                *role,
                *name,
            );
            if role.ends_with("button") {
                node.actions = vec!["click".into()];
            }
            node.states.default = *default;
            if *role == "combo box" {
                node.options = vec!["Red".into(), "Blue".into()];
            }
            numbers.number(&node, &place);
        }
    }

    const UNLOCK: &[(&str, &str, bool)] = &[
        ("password text", "Password", false),
        ("push button", "Cancel", false),
        ("push button", "OK", true),
    ];

    #[test]
    fn a_later_step_that_names_nothing_in_the_window_is_the_default_s() {
        let mut numbers = Numbers::default();
        dialog(&mut numbers, "Unlock", UNLOCK);
        // Families of phrasing of a step that names nothing here.
        for (request, step) in [
            (
                "Type the password hunter2 into the Unlock dialog and confirm it",
                "confirm it",
            ),
            ("Enter hunter2 as the password, then submit", "submit"),
            (
                "Put hunter2 in the password box and accept the dialog",
                "accept the dialog",
            ),
            ("Fill in hunter2 and then finish", "finish"),
            ("Type hunter2, and apply it.", "apply it."),
        ] {
            let found = unnamed_step(&numbers, "Unlock", request);
            let (said, m, default) = found.unwrap_or_else(|| panic!("none in {request:?}"));
            assert_eq!(said, step, "{request}");
            assert_eq!((m, default.name.as_str()), (3, "OK"), "{request}");
        }
    }

    #[test]
    fn steps_that_name_the_window_s_elements_values_or_title_are_no_unnamed_step() {
        let mut numbers = Numbers::default();
        dialog(&mut numbers, "Unlock", UNLOCK);
        dialog(
            &mut numbers,
            "Theme",
            &[("combo box", "Colour", false), ("push button", "OK", true)],
        );
        for (window, request) in [
            (
                "Unlock",
                "Type the password hunter2 into the Unlock dialog and press OK",
            ),
            ("Unlock", "Type the password hunter2 into the Unlock dialog"),
            ("Unlock", "Type hunter2, please"),
            (
                "Unlock",
                "Type hunter2 and 'swordfish' into the password field",
            ),
            ("Unlock", "Open the settings and then the Unlock dialog"),
            ("Unlock", "Type abc and then press Cancel"),
            ("Unlock", "Enter the code and 4217"),
            ("Theme", "Open the Theme dialog and pick Blue"),
            ("Theme", "Set the colour and press OK"),
        ] {
            assert_eq!(
                unnamed_step(&numbers, window, request).map(|(s, ..)| s),
                None,
                "{request}"
            );
        }
    }

    #[test]
    fn a_window_without_a_default_button_has_no_step_to_give_it() {
        let mut numbers = Numbers::default();
        dialog(
            &mut numbers,
            "notes.txt",
            &[("text", "", false), ("push button", "Save", false)],
        );
        let request = "Change red to green in the notes.txt window and save the file";
        assert_eq!(
            unnamed_step(&numbers, "notes.txt", request).map(|(s, ..)| s),
            None
        );
    }
}

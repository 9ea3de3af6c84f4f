//! Which elements of a window the person's request names, and the act that goes to
//! another: a press or a toggle of an element the request does not name, while it names
//! one of the same kind in the same window, is refused before anything is done, with the
//! elements it names. Seen on windows nobody rehearsed: a model walking the numbers in
//! order pressed "Cancel" when the request said "press OK", and the dialog closed with
//! what had been typed into it lost.
//!
//! A press of a button the request does not name, beside the window's default while the
//! request names none of them, is said first with the default (`not_the_default`): a
//! call that names the button in its text presses it all the same.
//!
//! A press of a label the tree gives no action is refused too (`text_only`), naming
//! what the window has to press or tick instead (seen: a dialog's question pressed, then
//! "I answered No").
//!
//! Only alternatives are held against each other: elements of one role in one row or
//! column (a dialog's buttons, radio buttons, a column of check boxes).
//!
//! The names are the window's own (read from it at run time) and are matched as whole
//! words of the request, in any case: no list of words is kept here. Where the request
//! names no element of that kind ("confirm it"), every act goes through as before.

use crate::numbers::{Entry, Numbers, Takes};

/// A name as words: lower case, a mnemonic's underscore, a trailing colon or ellipsis and
/// other punctuation dropped (`"_Save As…"` → `["save", "as"]`).
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '@' || c == '.'))
        .map(|w| {
            w.trim_matches(|c: char| c == '.' || c == '\'')
                .to_lowercase()
        })
        .filter(|w| !w.is_empty())
        .collect()
}

/// Whether `request` holds `name`'s words in a row.
pub fn names(request: &str, name: &str) -> bool {
    let name = words(&name.replace('_', ""));
    if name.is_empty() {
        return false;
    }
    let request = words(request);
    request.windows(name.len()).any(|w| w == name.as_slice())
}

/// Whether two elements are alternatives of one group: in a row (a dialog's buttons, a
/// tab strip) or a column (radio buttons, a list of check boxes), by where they show.
/// A button elsewhere in the window (one that opens the dialog a named button is in)
/// is not one of them. Without a place on screen, they count as one group.
fn together(a: &Entry, b: &Entry) -> bool {
    let (Some(a), Some(b)) = (a.bounds, b.bounds) else {
        return true;
    };
    let row = (a.y + a.height / 2 - (b.y + b.height / 2)).abs() <= a.height.max(b.height) / 2;
    let column = (a.x - b.x).abs() <= 8;
    row || column
}

/// The alternatives of `entry` (number `n`): the other elements of its window that take
/// the same act, have its role, and stand with it in a row or column (`together`).
fn alternatives<'a>(
    numbers: &'a Numbers,
    n: u32,
    entry: &'a Entry,
) -> impl Iterator<Item = (u32, &'a Entry)> + 'a {
    numbers.all().filter(move |(m, e)| {
        *m != n
            && e.takes == entry.takes
            && e.role == entry.role
            && e.place.window == entry.place.window
            && together(e, entry)
    })
}

/// Why acting on `entry` (number `n`) is not what `request` asks, when it names other
/// elements of the same kind in the same window: `None` when the act may go ahead.
pub fn refusal(numbers: &Numbers, n: u32, entry: &Entry, request: &str) -> Option<String> {
    if !matches!(entry.takes, Takes::Press | Takes::Toggle)
        || entry.name.trim().is_empty()
        || request.trim().is_empty()
        || names(request, &entry.name)
    {
        return None;
    }
    let named: Vec<String> = alternatives(numbers, n, entry)
        .filter(|(_, e)| !e.name.trim().is_empty() && names(request, &e.name))
        .map(|(m, e)| format!("{} (element {m})", e.label()))
        .collect();
    if named.is_empty() {
        return None;
    }
    Some(format!(
        "the request does not ask for {} (element {n}); it names {}. Act on what it names, and leave the rest of the window as it is.",
        entry.label(),
        named.join(", ")
    ))
}

/// Why pressing `entry` (number `n`), a button the request does not name, is said before
/// it is done: the request names none of its alternatives, and one of them is the
/// window's default, the one Enter presses (a dialog's OK: what "confirm it" means
/// there). Seen: "type the password and confirm it" answered by a press of Cancel,
/// the next number after the field. The call that names the button in its `text` is
/// pressed all the same (a person who asked to close the dialog without saving).
pub fn not_the_default(numbers: &Numbers, n: u32, entry: &Entry, request: &str) -> Option<String> {
    if entry.takes != Takes::Press
        || entry.default
        || entry.name.trim().is_empty()
        || request.trim().is_empty()
    {
        return None;
    }
    let group: Vec<(u32, &Entry)> = alternatives(numbers, n, entry).collect();
    if names(request, &entry.name) || group.iter().any(|(_, e)| names(request, &e.name)) {
        return None;
    }
    let (m, default) = group.iter().find(|(_, e)| e.default)?;
    let quoted = serde_json::to_string(entry.name.trim()).ok()?;
    Some(format!(
        "not pressed yet: the request names neither {} (element {n}) nor the window's default, {} (element {m}), the one that confirms it. Press {m} to confirm; to press {n} all the same, call {{\"element\": {n}, \"action\": \"press\", \"text\": {quoted}}}.",
        entry.label(),
        default.label()
    ))
}

/// Why pressing `entry` (number `n`) does nothing: a label of the tree with no action of
/// its own is text. Said with the window's elements that are pressed or ticked.
pub fn text_only(numbers: &Numbers, n: u32, entry: &Entry) -> Option<String> {
    if entry.takes != Takes::Unknown
        || entry.role != "label"
        || !matches!(entry.key, crate::node::Key::Tree { .. })
    {
        return None;
    }
    let acts: Vec<String> = numbers
        .all()
        .filter(|(_, e)| {
            e.place.window == entry.place.window && matches!(e.takes, Takes::Press | Takes::Toggle)
        })
        .take(12)
        .map(|(m, e)| format!("[{m}] {}", e.label()))
        .collect();
    let choices = if acts.is_empty() {
        "nothing in this window is pressed".to_string()
    } else {
        format!("what is pressed or ticked here: {}", acts.join(", "))
    };
    Some(format!(
        "[{n}] is {}: text, which a press does nothing to; {choices}",
        entry.label()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::node::{Bounds, Key, Node};
    use crate::numbers::Place;

    /// A window's elements, numbered as an outline numbers them: (role, name, checkable,
    /// x, y) each, 80×30.
    fn window(
        title: &str,
        numbers: &mut Numbers,
        elements: &[(&str, &str, bool, i32, i32)],
    ) -> Vec<u32> {
        let place = Place {
            window: title.into(),
            ..Place::default()
        };
        elements
            .iter()
            .map(|(role, name, checkable, x, y)| {
                let mut node = Node::new(
                    Key::Tree {
                        bus: ":1.1".into(),
                        path: format!("/{title}/{name}/{x}/{y}"),
                    },
                    *role,
                    *name,
                );
                node.states.checkable = *checkable;
                node.actions = vec!["click".into()];
                node.bounds = Some(Bounds {
                    x: *x,
                    y: *y,
                    width: 80,
                    height: 30,
                });
                numbers.number(&node, &place)
            })
            .collect()
    }

    fn refused(numbers: &Numbers, n: u32, request: &str) -> Option<String> {
        let entry = numbers.get(n).expect("numbered").clone();
        refusal(numbers, n, &entry, request)
    }

    #[test]
    fn an_act_on_an_alternative_the_request_does_not_name_is_refused() {
        let mut numbers = Numbers::default();
        // A dialog: a field, Cancel and OK in a row; a button above that opens another.
        let d = window(
            "Sign up",
            &mut numbers,
            &[
                ("text", "", false, 10, 10),
                ("push button", "Choose…", false, 10, 60),
                ("push button", "Cancel", false, 200, 120),
                ("push button", "OK", false, 300, 120),
            ],
        );
        // Another window with its own OK.
        let other = window(
            "Other",
            &mut numbers,
            &[("push button", "Close", false, 300, 120)],
        );
        // Radio buttons in a column, and a tab strip in a row.
        let r = window(
            "Size",
            &mut numbers,
            &[
                ("radio button", "Small", true, 10, 10),
                ("radio button", "Large", true, 10, 50),
                ("page tab", "General", false, 10, 200),
                ("page tab", "Advanced", false, 100, 200),
                ("push button", "OK", false, 300, 300),
            ],
        );
        let press_ok = "Fill in the name Ada, then press OK";
        let why = refused(&numbers, d[2], press_ok).expect("Cancel refused");
        assert!(
            why.contains(&format!("push button \"OK\" (element {})", d[3])),
            "{why}"
        );
        assert_eq!(refused(&numbers, d[3], press_ok), None, "OK itself");
        assert_eq!(refused(&numbers, d[1], press_ok), None, "not in the OK row");
        assert_eq!(
            refused(&numbers, d[2], "Type the password and confirm it"),
            None
        );
        assert_eq!(refused(&numbers, d[2], "Cancel the sign up"), None);
        assert_eq!(
            refused(&numbers, other[0], press_ok),
            None,
            "another window"
        );
        let large = "Choose Large in the Size dialog and press OK";
        assert!(refused(&numbers, r[0], large).is_some(), "Small");
        assert_eq!(refused(&numbers, r[1], large), None);
        // A tab is no alternative of a button or a radio button.
        assert_eq!(refused(&numbers, r[3], large), None);
        assert!(refused(&numbers, r[2], "On the Advanced page, tick Duplex").is_some());
        // Nameless elements are not held: nothing to match.
        assert_eq!(refused(&numbers, d[0], press_ok), None);
    }

    #[test]
    fn a_press_beside_the_default_the_request_does_not_name_is_said_first() {
        let mut numbers = Numbers::default();
        let place = Place {
            window: "Unlock".into(),
            ..Place::default()
        };
        let mut number = |name: &str, default: bool, x: i32| {
            let mut node = Node::new(
                Key::Tree {
                    bus: ":1.1".into(),
                    path: format!("/{name}"),
                },
                "push button",
                name,
            );
            node.actions = vec!["click".into()];
            node.states.default = default;
            node.bounds = Some(Bounds {
                x,
                y: 200,
                width: 80,
                height: 30,
            });
            numbers.number(&node, &place)
        };
        let cancel = number("Cancel", false, 100);
        let ok = number("OK", true, 200);
        let entry = |n: u32| numbers.get(n).unwrap().clone();
        let confirm = "Type the password hunter2 into the Unlock dialog and confirm it";
        let why = not_the_default(&numbers, cancel, &entry(cancel), confirm).expect("said");
        assert!(
            why.contains(&format!("(element {ok})")) && why.contains(r#""text": "Cancel""#),
            "{why}"
        );
        assert!(not_the_default(&numbers, ok, &entry(ok), confirm).is_none());
        // Outside a task (no request): nothing to hold a press against.
        assert!(not_the_default(&numbers, cancel, &entry(cancel), " ").is_none());
        // Named by the request, either of them: the request decides.
        for request in ["Cancel the unlock", "press OK in the Unlock dialog"] {
            assert!(not_the_default(&numbers, cancel, &entry(cancel), request).is_none());
        }
        // No default in the group: nothing to say.
        let mut other = Numbers::default();
        let place = Place {
            window: "Plain".into(),
            ..Place::default()
        };
        let mut node = Node::new(
            Key::Tree {
                bus: ":1.1".into(),
                path: "/a".into(),
            },
            "push button",
            "Close",
        );
        node.actions = vec!["click".into()];
        let close = other.number(&node, &place);
        let e = other.get(close).unwrap().clone();
        assert!(not_the_default(&other, close, &e, confirm).is_none());
    }

    #[test]
    fn a_press_of_a_label_names_what_can_be_pressed() {
        let mut numbers = Numbers::default();
        let place = Place {
            window: "Draft".into(),
            ..Place::default()
        };
        let mut number = |role: &str, name: &str, actions: &[&str]| {
            let mut node = Node::new(
                Key::Tree {
                    bus: ":1.1".into(),
                    path: format!("/{name}"),
                },
                role,
                name,
            );
            node.actions = actions.iter().map(|a| a.to_string()).collect();
            numbers.number(&node, &place)
        };
        let question = number("label", "Delete the draft?", &[]);
        let no = number("push button", "No", &["click"]);
        let link = number("label", "Help", &["activate"]);
        let why = text_only(&numbers, question, numbers.get(question).unwrap()).expect("refused");
        assert!(why.contains(&format!("[{no}] push button \"No\"")), "{why}");
        assert!(text_only(&numbers, no, numbers.get(no).unwrap()).is_none());
        // A label with an action of its own (a link) is pressed.
        assert!(text_only(&numbers, link, numbers.get(link).unwrap()).is_none());
    }

    #[test]
    fn a_name_is_named_by_its_whole_words_in_any_case() {
        for (request, name, yes) in [
            ("Fill in the form and press OK", "OK", true),
            ("fill in the form and press ok.", "_OK", true),
            ("Type the password and confirm it", "OK", false),
            ("The Draft dialog asks: answer No", "No", true),
            ("The Draft dialog asks: answer No", "Yes", false),
            ("Tick Olives and Ham, then press OK", "Ham", true),
            ("Tick Olives and Ham, then press OK", "Hamburger", false),
            ("Save it as report.txt with Save As…", "Save As…", true),
            ("Press the Save button", "Save As", false),
            ("Choose Large in the Size dialog", "Large", true),
            ("Cancel the download", "Cancel", true),
            ("anything", "", false),
            ("anything", "…", false),
        ] {
            assert_eq!(names(request, name), yes, "{request:?} names {name:?}");
        }
    }
}

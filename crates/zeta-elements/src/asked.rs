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
//! A press of an element with no action that holds others (a tab list, a panel) is
//! refused too (`holds_others`), naming what it holds: a press would click its centre.
//!
//! Only alternatives are held against each other: elements of one role in one row or
//! column (a dialog's buttons, radio buttons, a column of check boxes).
//!
//! The names are the window's own (read from it at run time) and are matched as whole
//! words of the request, in any case: no list of words is kept here. Where the request
//! names no element of that kind ("confirm it"), every act goes through as before.

use crate::node::{Bounds, Key};
use crate::numbers::{Entry, Numbers, Takes};

/// A name as words: lower case, a mnemonic's underscore, a trailing colon or ellipsis and
/// other punctuation dropped (`"_Save As…"` → `["save", "as"]`).
pub(crate) fn words(text: &str) -> Vec<String> {
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
    named_at(request, name).is_some()
}

/// Where `request` first holds `name`'s words in a row: the index of the first word.
pub fn named_at(request: &str, name: &str) -> Option<usize> {
    let name = words(&name.replace('_', ""));
    if name.is_empty() {
        return None;
    }
    let request = words(request);
    request
        .windows(name.len())
        .position(|w| w == name.as_slice())
}

/// Where `request` names element `e` (`named_at`). An element named as its window is
/// titled is named only where the request tells it from the window: the name said twice,
/// or once beside the last word of the element's role, as the tree gives it ("the Volume
/// slider" names the slider "Volume" of the window "Volume"; "the Size dialog" names the
/// window, not its column header "Size" — seen: OK held until that header was pressed,
/// sorting the list).
pub fn names_element(request: &str, e: &Entry) -> Option<usize> {
    let at = named_at(request, &e.name)?;
    if !e.name.trim().eq_ignore_ascii_case(e.place.window.trim()) || mentions(request, &e.name) > 1
    {
        return Some(at);
    }
    let role = e.role.split_whitespace().last()?.to_lowercase();
    let said = words(request);
    let after = at + words(&e.name.replace('_', "")).len();
    let beside = said.get(after) == Some(&role) || at > 0 && said.get(at - 1) == Some(&role);
    beside.then_some(at)
}

/// How many times `request` holds `name`'s words in a row.
pub fn mentions(request: &str, name: &str) -> usize {
    let name = words(&name.replace('_', ""));
    if name.is_empty() {
        return 0;
    }
    words(request)
        .windows(name.len())
        .filter(|w| *w == name.as_slice())
        .count()
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
    // A keypad's keys are pressed in turn to key in what the request gives ("23 times
    // 4": 2, 3, multiply, 4, result), whatever it names (seen: mate-calc's "multiply"
    // would be refused for the "4" the request names).
    if crate::keyed::Keypad::of(numbers, &entry.place.window).is_some_and(|pad| pad.holds(n)) {
        return None;
    }
    if matches!(entry.key, Key::Word { .. }) {
        return word_refusal(numbers, n, entry, request);
    }
    // What the tree gives no action is pressed by a click (a GTK page tab, a list
    // row): held the same way. Words read off the screen (OCR) are not: a calculator's
    // keys are pressed whatever the request names.
    let clicked = entry.takes == Takes::Unknown && matches!(entry.key, Key::Tree { .. });
    if !(matches!(entry.takes, Takes::Press | Takes::Toggle) || clicked)
        || entry.name.trim().is_empty()
        || is_key(&entry.name)
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

/// A keypad's key: a name of at most three marks, none a Latin letter ("2", "×", "=",
/// "+/-"). Keys are pressed in turn to spell what the request gives ("23 times 4": 2, 3,
/// ×, 4, =), so pressing one it does not name is no alternative to one it does (seen:
/// mate-calc's "1" refused for "4").
fn is_key(name: &str) -> bool {
    let name = name.trim();
    name.chars().count() <= 3 && !name.chars().any(|c| c.is_ascii_alphabetic())
}

/// A word of letters, three or more, read by OCR: a button's or a menu's name, not a
/// calculator's key.
fn lettered(name: &str) -> bool {
    let name = name.trim_matches(|c: char| !c.is_alphanumeric());
    name.chars().count() >= 3 && name.chars().all(char::is_alphabetic)
}

/// Why pressing `entry` (number `n`), a word read by OCR, is not what `request` asks: a
/// word of letters it does not name, while it names another in the same window (seen:
/// xedit's Quit pressed for "… and press Save", the window closed, the text lost). A
/// calculator's keys and anything else the request cannot name by letters are pressed.
fn word_refusal(numbers: &Numbers, n: u32, entry: &Entry, request: &str) -> Option<String> {
    // A word the request names, or one misread by a letter or two ("Disniss").
    let said = |name: &str| {
        names(request, name)
            || words(request)
                .iter()
                .any(|w| zeta_core::assist::checks::misread(name.trim(), w))
    };
    if !lettered(&entry.name) || request.trim().is_empty() || said(&entry.name) {
        return None;
    }
    let mut named: Vec<String> = Vec::new();
    for (m, e) in numbers.all() {
        let word = format!("\"{}\" (element {m})", e.name.trim());
        if m != n
            && matches!(e.key, Key::Word { .. })
            && e.place.window == entry.place.window
            && lettered(&e.name)
            && names(request, &e.name)
            && !named.contains(&word)
        {
            named.push(word);
        }
    }
    if named.is_empty() {
        return None;
    }
    Some(format!(
        "the request does not ask for \"{}\" (element {n}); it names {}. Act on what it names, and leave the rest of the window as it is.",
        entry.name.trim(),
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

/// The one element of `entry`'s row that is ticked, for a toggle of `entry`, which is
/// not (seen: a list's row named by its text cell, "Olives", toggled, while its box is
/// the nameless cell beside it): the box's number and entry. `None` where the row holds
/// no box or more than one, or `entry` has no place on screen.
pub fn box_of_row<'a>(numbers: &'a Numbers, n: u32, entry: &Entry) -> Option<(u32, &'a Entry)> {
    let b = entry.bounds?;
    let centre = b.y + b.height / 2;
    let mut boxes = numbers.all().filter(|(m, e)| {
        *m != n
            && e.takes == Takes::Toggle
            && e.place.window == entry.place.window
            && e.bounds
                .is_some_and(|o| centre >= o.y && centre < o.y + o.height)
    });
    let one = boxes.next()?;
    boxes.next().is_none().then_some(one)
}

/// Whether `inner` lies within `outer` and is smaller.
fn within(inner: &Bounds, outer: &Bounds) -> bool {
    inner.x >= outer.x
        && inner.y >= outer.y
        && inner.x + inner.width <= outer.x + outer.width
        && inner.y + inner.height <= outer.y + outer.height
        && inner.width * inner.height < outer.width * outer.height
}

/// Elements listed at most where a refusal names what a window holds.
const LISTED: usize = 12;

/// Why pressing `entry` (number `n`) is refused: the tree gives it no action, and other
/// numbered elements of its window lie within it (a page tab list, a panel, a table).
/// A press would click its centre, which is whatever element or gap lies there (seen: a
/// model walking the numbers from 1 clicked the tab list first). Said with what it
/// holds, to act on by their own numbers: those `shown` in the window's last outline
/// (a page behind another tab holds its elements still, out of sight).
pub fn holds_others(
    numbers: &Numbers,
    n: u32,
    entry: &Entry,
    shown: &dyn Fn(u32) -> bool,
) -> Option<String> {
    if entry.takes != Takes::Unknown || !matches!(entry.key, Key::Tree { .. }) {
        return None;
    }
    let outer = entry.bounds?;
    let inside: Vec<String> = numbers
        .all()
        .filter(|(m, e)| {
            *m != n
                && e.place.window == entry.place.window
                && !e.name.trim().is_empty()
                && shown(*m)
                && e.bounds.is_some_and(|b| within(&b, &outer))
        })
        .take(LISTED)
        .map(|(m, e)| format!("[{m}] {}", e.label()))
        .collect();
    if inside.is_empty() {
        return None;
    }
    Some(format!(
        "not pressed: [{n}] is {}, which holds other elements and has no action of its own (a press would click whatever lies at its centre); it holds {}. Act on the one the request means, by its own number.",
        entry.label(),
        inside.join(", ")
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
        .take(LISTED)
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

/// Why pressing `entry` (number `n`) is not how it is set: it holds a number through
/// its Value (a slider, a scale) and has no action of its own, so a press clicks its
/// middle and moves it there (seen: zenity's Volume slider pressed for "set it to 65",
/// left at 55, and "set to 65" claimed).
pub fn value_only(n: u32, entry: &Entry) -> Option<String> {
    if entry.takes != Takes::Unknown || !entry.value {
        return None;
    }
    Some(format!(
        "[{n}] is {}: it holds a number, and a press would only move it to where it is clicked. Set its number instead: {{\"element\": {n}, \"action\": \"set_text\", \"text\": the number}}",
        entry.label()
    ))
}

/// Why a text or number set into element `n` (`entry`) is held: the element holds it
/// already (`now`), so the act would change nothing, and the request does not give it
/// (seen on the GUI bench: zenity's Volume slider "set" to the 20 it showed for "Set the
/// Volume slider to 65", then OK pressed).
pub fn holds_already(
    n: u32,
    entry: &Entry,
    now: &str,
    text: &str,
    request: &str,
) -> Option<String> {
    let (now, text) = (now.trim(), text.trim());
    let same = now == text
        || matches!((now.parse::<f64>(), text.parse::<f64>()), (Ok(a), Ok(b)) if a == b);
    if text.is_empty() || !same || names(request, text) {
        return None;
    }
    let quoted = serde_json::to_string(text).unwrap_or_default();
    Some(format!(
        "not set: [{n}] {} holds {quoted} already, so this would change nothing. Set in it what the request gives for it",
        entry.label(),
    ))
}

/// The elements an outline's `lines` show, of the same role as element `n` (`entry`)
/// and not disabled, in their order (at most 6), each as its line without its number
/// and place: what an act refused on a disabled one may be meant for (seen on the GUI
/// bench: gtk3-widget-factory's disabled entry typed into twice for "the first text
/// field").
pub fn enabled_alike(
    numbers: &Numbers,
    lines: &std::collections::BTreeMap<u32, String>,
    n: u32,
    entry: &Entry,
) -> Vec<(u32, String)> {
    lines
        .iter()
        .filter(|(m, line)| {
            **m != n
                && !line.contains("(disabled")
                && !line.contains(", disabled")
                && numbers.get(**m).is_ok_and(|e| e.role == entry.role)
        })
        .take(6)
        .map(|(m, line)| {
            let line = line.trim_start();
            let line = line.strip_prefix(&format!("[{m}] ")).unwrap_or(line);
            let line = line.split(" @").next().unwrap_or(line);
            (*m, line.to_string())
        })
        .collect()
}

/// Why a press of element `n` (`entry`), which lists options, is held: a press only opens
/// its list, and the request names one of its options, chosen with `select` (seen on the
/// GUI bench: kdialog's combo box "Pick a fruit" pressed twice for "Pick Cherry", its
/// popup left open, Cherry never chosen). A menu is left to be opened: its items are
/// pressed where they show.
pub fn option_to_choose(n: u32, entry: &Entry, request: &str) -> Option<String> {
    if entry.options.is_empty() || entry.role.starts_with("menu") {
        return None;
    }
    let named: Vec<&String> = entry.options.iter().filter(|o| names(request, o)).collect();
    // "Extra large" names "Large" too: the longer one is what the request names.
    let named: Vec<&String> = named
        .iter()
        .filter(|o| !named.iter().any(|p| p != *o && names(p, o)))
        .copied()
        .collect();
    let [option] = named.as_slice() else {
        return None;
    };
    let quoted = serde_json::to_string(option).unwrap_or_default();
    Some(format!(
        "not pressed: [{n}] {} lists {}, and a press only opens its list. The request names {quoted}: choose it with {{\"element\": {n}, \"action\": \"select\", \"option\": {quoted}}}",
        entry.label(),
        entry.options.join(" | "),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::node::Node;
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
            let mut node = Node::at(&format!("/{name}"), role, name);
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

    /// A GTK settings window as its tree reads: a tab list holding two tabs that have no
    /// action of their own, a field on the page, and Apply and OK in a row below.
    fn settings(numbers: &mut Numbers) -> Vec<u32> {
        let place = Place {
            window: "Options".into(),
            ..Place::default()
        };
        [
            ("page tab list", "", 74, 74, 492, 281, false),
            ("page tab", "General", 95, 78, 51, 30, false),
            ("text", "Title", 143, 170, 168, 34, false),
            ("page tab", "Advanced", 178, 78, 64, 30, false),
            ("push button", "Set label…", 74, 392, 104, 34, true),
            ("push button", "Apply", 434, 392, 71, 34, true),
            ("push button", "OK", 513, 392, 53, 34, true),
        ]
        .into_iter()
        .map(|(role, name, x, y, width, height, acts)| {
            let mut node = Node::new(
                Key::Tree {
                    bus: ":1.1".into(),
                    path: format!("/{role}/{name}"),
                },
                role,
                name,
            );
            if acts {
                node.actions = vec!["click".into()];
            }
            node.states.editable = role == "text";
            node.bounds = Some(Bounds {
                x,
                y,
                width,
                height,
            });
            numbers.number(&node, &place)
        })
        .collect()
    }

    #[test]
    fn a_model_walking_the_numbers_of_a_settings_window_presses_only_what_the_request_names() {
        let mut numbers = Numbers::default();
        let w = settings(&mut numbers);
        let request =
            "In the Options window, open the Advanced tab, tick Verbose, then press Apply";
        let entry = |n: u32| numbers.get(n).expect("numbered").clone();
        // Element by element, as a 1.5B model called them (CI, 2026-11-28): the tab
        // list's centre, the other tab, the button that opens a dialog, OK.
        let every = |_: u32| true;
        let list = holds_others(&numbers, w[0], &entry(w[0]), &every).expect("the tab list");
        assert!(
            list.contains(&format!("[{}] page tab \"Advanced\"", w[3])),
            "{list}"
        );
        let general = refusal(&numbers, w[1], &entry(w[1]), request).expect("General");
        assert!(
            general.contains(&format!("(element {})", w[3])),
            "{general}"
        );
        assert!(
            refusal(&numbers, w[4], &entry(w[4]), request).is_some(),
            "Set label"
        );
        assert!(
            refusal(&numbers, w[6], &entry(w[6]), request).is_some(),
            "OK"
        );
        // What it names goes through; a tab holds nothing, a field is no alternative.
        for n in [w[3], w[5], w[2]] {
            assert_eq!(refusal(&numbers, n, &entry(n), request), None, "{n}");
            assert_eq!(holds_others(&numbers, n, &entry(n), &every), None, "{n}");
        }
        // Outside a task the tab list is still no place to click; the tabs are pressed.
        assert_eq!(refusal(&numbers, w[1], &entry(w[1]), ""), None);
    }

    #[test]
    fn words_read_off_the_screen_are_pressed_whatever_the_request_names() {
        let mut numbers = Numbers::default();
        let place = Place {
            window: "Calculator".into(),
            ..Place::default()
        };
        let keys: Vec<u32> = ["3", "4", "x"]
            .iter()
            .enumerate()
            .map(|(i, word)| {
                let mut node = Node::new(Key::Word { run: 1, index: i }, "word", *word);
                node.bounds = Some(Bounds {
                    x: 10 + 40 * i as i32,
                    y: 100,
                    width: 30,
                    height: 30,
                });
                numbers.number(&node, &place)
            })
            .collect();
        let entry = numbers.get(keys[2]).expect("numbered").clone();
        assert_eq!(
            refusal(
                &numbers,
                keys[2],
                &entry,
                "compute 3 times 4 in the calculator"
            ),
            None
        );
        assert_eq!(holds_others(&numbers, keys[2], &entry, &|_| true), None);
    }

    /// An element named as its window is titled, against requests that name the window
    /// and requests that name the element (twice, or beside its role's last word).
    #[test]
    fn an_element_titled_as_its_window_is_named_only_apart_from_the_window() {
        let cases = [
            (
                "Size",
                "table column header",
                "Choose Large in the Size dialog and press OK",
                false,
            ),
            (
                "Size",
                "table column header",
                "In the Size dialog, sort by the Size header",
                true,
            ),
            (
                "Volume",
                "slider",
                "Set the Volume slider to 65 and press OK",
                true,
            ),
            (
                "Volume",
                "slider",
                "In the Volume window, set it to 65",
                false,
            ),
            (
                "Print",
                "push button",
                "In the Print dialog, press the Print button",
                true,
            ),
            (
                "Print",
                "push button",
                "Press Print in the Print dialog",
                true,
            ),
            ("Theme", "combo box", "Pick Blue in the Theme dialog", false),
            ("Theme", "combo box", "Set the Theme box to Blue", true),
            (
                "Reminder",
                "push button",
                "Press Dismiss in the Reminder message",
                false,
            ),
        ];
        let mut wrong = Vec::new();
        for (title, role, request, named) in cases {
            let mut numbers = Numbers::default();
            let place = Place {
                window: title.into(),
                ..Place::default()
            };
            let n = numbers.number(&Node::at("/e", role, title), &place);
            let entry = numbers.get(n).expect("numbered");
            if names_element(request, entry).is_some() != named {
                wrong.push(format!("{request:?} ({role} {title:?}): named {}", !named));
            }
        }
        // Named otherwise than as its window: as before.
        let mut numbers = Numbers::default();
        let n = numbers.number(&Node::at("/ok", "push button", "OK"), &Place::default());
        let ok = numbers.get(n).expect("numbered");
        assert_eq!(names_element("press OK", ok), Some(1));
        assert!(wrong.is_empty(), "{wrong:#?}");
    }

    /// A slider (a number through its Value, no action) is set, not pressed; a spin
    /// button (text too) and a button are pressed as before.
    #[test]
    fn what_holds_a_number_with_no_action_is_not_pressed() {
        let mut numbers = Numbers::default();
        let place = Place {
            window: "Volume".into(),
            ..Place::default()
        };
        let node = |role: &str, path: &str, value: bool, action: bool, editable: bool| {
            let mut n = Node::new(
                Key::Tree {
                    bus: ":1.1".into(),
                    path: path.into(),
                },
                role,
                "Volume",
            );
            n.abilities.value = value;
            n.states.focusable = true;
            n.states.editable = editable;
            n.abilities.editable_text = editable;
            if action {
                n.actions = vec!["click".into()];
            }
            n
        };
        let slider = numbers.number(&node("slider", "/s", true, false, false), &place);
        let spin = numbers.number(&node("spin button", "/p", true, false, true), &place);
        let button = numbers.number(&node("push button", "/b", false, true, false), &place);
        let why = value_only(slider, numbers.get(slider).expect("numbered"))
            .expect("a slider is set, not pressed");
        assert!(
            why.contains("\"action\": \"set_text\"") && why.contains(&format!("[{slider}]")),
            "{why}"
        );
        for n in [spin, button] {
            assert_eq!(value_only(n, numbers.get(n).expect("numbered")), None);
        }
    }

    /// Words read by OCR: a word of letters the request does not name is not pressed
    /// while it names another of the window's; a calculator's keys, a word it names, a
    /// misread of one it names, or a window where it names none are.
    #[test]
    fn a_word_read_by_ocr_the_request_does_not_name_is_not_pressed_for_one_it_does() {
        let mut numbers = Numbers::default();
        let place = Place {
            window: "xedit".into(),
            ..Place::default()
        };
        let words: Vec<u32> = ["Quit", "Save", "Load", "7", "*", "Disniss"]
            .iter()
            .enumerate()
            .map(|(index, w)| {
                let node = Node::new(Key::Word { run: 1, index }, "text", *w);
                numbers.number(&node, &place)
            })
            .collect();
        let (quit, save, load, seven, times, misread) =
            (words[0], words[1], words[2], words[3], words[4], words[5]);
        let request = "In the xedit window, type call Bob into the text and press its Save button";
        let why = refused(&numbers, quit, request).expect("Quit is not what it asks");
        assert!(why.contains(&format!("\"Save\" (element {save})")), "{why}");
        assert!(refused(&numbers, load, request).is_some());
        for n in [save, seven, times] {
            assert_eq!(refused(&numbers, n, request), None);
        }
        // A misread of what it names is what it names, whatever else it names.
        assert_eq!(refused(&numbers, misread, "Press Dismiss, not Quit"), None);
        // It names no word of the window: anything is pressed.
        assert_eq!(refused(&numbers, quit, "Multiply 9 by 5 in xcalc"), None);
        assert_eq!(
            refused(&numbers, misread, "Press Dismiss in the Reminder message"),
            None
        );
    }

    /// A keypad's keys are pressed whatever the request names of them: "2" and "×" for
    /// "23 times 4", which names the key "4"; a dialog's buttons are still held.
    #[test]
    fn a_keypads_keys_are_no_alternatives() {
        let mut numbers = Numbers::default();
        let keys = window(
            "Calculator",
            &mut numbers,
            &[
                ("push button", "2", false, 0, 0),
                ("push button", "3", false, 80, 0),
                ("push button", "4", false, 160, 0),
                ("push button", "×", false, 240, 0),
                ("push button", "Clear", false, 320, 0),
            ],
        );
        let request = "Use the MATE calculator to work out 23 times 4";
        for n in &keys[..4] {
            assert_eq!(refused(&numbers, *n, request), None);
        }
        // A named key beside a word-named button: the word is still held.
        assert!(refused(&numbers, keys[4], request).is_some());
    }

    /// An element with options of its own (`role`), its options `options`.
    fn listing(role: &str, options: &[&str]) -> Entry {
        let mut node = Node::new(
            Key::Tree {
                bus: ":1.1".into(),
                path: format!("/{role}"),
            },
            role,
            "Pick one",
        );
        node.actions = vec!["press".into()];
        node.options = options.iter().map(|o| o.to_string()).collect();
        let mut numbers = Numbers::default();
        let n = numbers.number(&node, &crate::numbers::Place::default());
        numbers.get(n).expect("numbered").clone()
    }

    /// A press of what lists options, where the request names exactly one of them, is
    /// held with the `select` call for it; families of option lists × phrasings. Not
    /// held: a menu, a request naming none or two of them.
    #[test]
    fn a_press_of_a_list_whose_option_the_request_names_is_told_to_choose_it() {
        let lists: [&[&str]; 4] = [
            &["Apple", "Banana", "Cherry"],
            &["Red", "Green", "Blue"],
            &["Small", "Medium", "Large", "Extra large"],
            &["Light theme", "Dark theme"],
        ];
        let mut missed = Vec::new();
        for options in lists {
            for role in ["combo box", "list", "list box"] {
                let entry = listing(role, options);
                for option in options {
                    for request in [
                        format!("Pick {option} in the dialog and press OK"),
                        format!("Choose {} from the list", option.to_lowercase()),
                        format!("Set it to {option}, then confirm"),
                    ] {
                        let quoted = serde_json::to_string(option).expect("json");
                        let call = format!("\"action\": \"select\", \"option\": {quoted}");
                        match option_to_choose(4, &entry, &request) {
                            Some(why) if why.contains(&call) => {}
                            other => missed.push(format!("{role} {request:?}: {other:?}")),
                        }
                    }
                }
                let two = format!("Pick {} or {}", options[0], options[1]);
                for request in [two.as_str(), "Press OK in the dialog"] {
                    if let Some(why) = option_to_choose(4, &entry, request) {
                        missed.push(format!("false alarm {request:?}: {why}"));
                    }
                }
            }
            let menu = listing("menu", options);
            if let Some(why) = option_to_choose(4, &menu, &format!("Pick {}", options[0])) {
                missed.push(format!("a menu held: {why}"));
            }
        }
        assert!(missed.is_empty(), "{}", missed.join("\n"));
    }

    /// A value set into what holds it already is held when the request does not give
    /// it; families of values (text, whole and decimal numbers); not held where the
    /// request gives it, or where it differs.
    #[test]
    fn setting_what_an_element_holds_already_is_held_unless_the_request_gives_it() {
        let entry = listing("slider", &[]);
        let mut missed = Vec::new();
        for (now, same, other, asked) in [
            ("20", "20", "65", "Set the Volume slider to 65 and press OK"),
            ("20.0", "20", "65", "Move the slider to 65"),
            ("draft", "draft", "final", "Change the status to final"),
            ("apples\n", "apples", "pears", "Put pears in the text"),
            ("0", " 0 ", "3", "Set Copies to 3"),
        ] {
            match holds_already(2, &entry, now, same, asked) {
                Some(why) if why.contains("already") => {}
                other => missed.push(format!("{now:?} ← {same:?}: {other:?}")),
            }
            if let Some(why) = holds_already(2, &entry, now, other, asked) {
                missed.push(format!("false alarm, differs: {why}"));
            }
            let gives = format!("Make sure it says {same}");
            if let Some(why) = holds_already(2, &entry, now, same, &gives) {
                missed.push(format!("false alarm, the request gives it: {why}"));
            }
        }
        if let Some(why) = holds_already(2, &entry, "", "", "Clear the field") {
            missed.push(format!("false alarm, empty: {why}"));
        }
        assert!(missed.is_empty(), "{}", missed.join("\n"));
    }

    /// The enabled elements of a disabled one's role, as the outline shows them: other
    /// roles, disabled ones and the element itself are left out, in order, at most 6.
    #[test]
    fn the_enabled_elements_of_a_disabled_ones_role_are_found() {
        let mut numbers = Numbers::default();
        let ns = window(
            "Factory",
            &mut numbers,
            &[
                ("text", "a", false, 0, 0),
                ("text", "b", false, 0, 40),
                ("button", "c", false, 0, 80),
                ("text", "d", false, 0, 120),
                ("text", "e", false, 0, 160),
            ],
        );
        let states = [
            "(disabled)",
            "(focused, editable)",
            "[press]",
            "(editable, disabled)",
            "(editable)",
        ];
        let lines: std::collections::BTreeMap<u32, String> = ns
            .iter()
            .zip(states)
            .map(|(m, st)| (*m, format!("[{m}] text \"x{m}\" {st} @0,0 80x30")))
            .collect();
        let entry = numbers.get(ns[0]).expect("numbered").clone();
        let alike = enabled_alike(&numbers, &lines, ns[0], &entry);
        assert_eq!(
            alike,
            vec![
                (ns[1], format!("text \"x{}\" (focused, editable)", ns[1])),
                (ns[4], format!("text \"x{}\" (editable)", ns[4])),
            ]
        );
    }
}

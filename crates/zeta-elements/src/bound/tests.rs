//! The bound arguments against the calls a model writes: each family of elements, and
//! each way a call can be wrong, checked with a real JSON-schema validator.

use serde_json::{json, Value};

use super::{arguments, arguments_for};
use crate::node::{Bounds, Key, Node};
use crate::numbers::{Numbers, Place};

/// An element of the window "Form": its role and name, what the tree says it is.
fn element(role: &str, name: &str, at_y: i32) -> Node {
    let mut node = Node::at(&format!("/{role}/{name}"), role, name);
    node.bounds = Some(Bounds {
        x: 10,
        y: at_y,
        width: 120,
        height: 24,
    });
    match role {
        "push button" | "page tab" | "menu item" | "link" => node.actions = vec!["click".into()],
        "text" | "password text" | "spin button" => {
            node.states.editable = true;
            node.states.focusable = true;
            node.abilities.editable_text = true;
        }
        "check box" | "radio button" | "toggle button" => {
            node.states.checkable = true;
            node.actions = vec!["toggle".into()];
        }
        "slider" => {
            node.states.focusable = true;
            node.abilities.value = true;
        }
        "combo box" => {
            node.actions = vec!["press".into()];
            node.options = vec!["Red".into(), "Green".into(), "Blue".into()];
        }
        "table cell" | "list item" => node.states.focusable = true,
        _ => {}
    }
    node
}

/// The window's elements numbered in order (1, 2, …), all shown.
fn window(elements: &[Node]) -> (Numbers, Vec<u32>) {
    let mut numbers = Numbers::default();
    let place = Place {
        window: "Form".into(),
        ..Place::default()
    };
    let shown = elements.iter().map(|e| numbers.number(e, &place)).collect();
    (numbers, shown)
}

fn allows(schema: &Value, call: Value) -> bool {
    match jsonschema::validator_for(schema) {
        Ok(v) => v.is_valid(&call),
        Err(e) => panic!("the bound schema does not compile: {e}\n{schema:#}"),
    }
}

/// Every role family, with what a person could do to it and what they could not.
#[test]
fn each_kind_of_element_takes_the_acts_it_allows_and_no_other() {
    // (role, calls it takes, calls it does not)
    let cases: &[(&str, &[Value], &[Value])] = &[
        (
            "push button",
            &[json!({"action": "press"}), json!({"action": "click"})],
            &[
                json!({"action": "set_text", "text": "ada"}),
                json!({"action": "toggle"}),
                json!({"action": "ada"}),
            ],
        ),
        (
            "text",
            &[
                json!({"action": "set_text", "text": "ada"}),
                json!({"action": "fill", "text": "ada"}),
                json!({"action": "type", "text": "x"}),
                json!({"action": "set_text", "text": ""}),
            ],
            &[
                json!({"action": "press"}),
                json!({"action": "set_text"}),
                json!({"action": "toggle"}),
            ],
        ),
        (
            "password text",
            &[json!({"action": "set_text", "text": "hunter2"})],
            &[json!({"action": "hunter2", "text": "type"})],
        ),
        (
            "spin button",
            &[json!({"action": "set_text", "text": "3"})],
            &[json!({"action": "press"})],
        ),
        (
            "slider",
            &[json!({"action": "set_text", "text": "65"})],
            &[
                json!({"action": "type", "text": "65"}),
                json!({"action": "toggle"}),
                // A press clicks its middle (`asked::value_only`).
                json!({"action": "press"}),
            ],
        ),
        (
            "check box",
            &[
                json!({"action": "toggle"}),
                json!({"action": "check"}),
                json!({"action": "press"}),
            ],
            &[json!({"action": "set_text", "text": "on"})],
        ),
        (
            "radio button",
            &[json!({"action": "toggle"}), json!({"action": "press"})],
            &[json!({"action": "select", "option": "on"})],
        ),
        (
            "combo box",
            &[
                json!({"action": "select", "option": "Green"}),
                json!({"action": "choose", "option": "Green"}),
                json!({"action": "press"}),
            ],
            &[
                json!({"action": "select", "option": "Purple"}),
                json!({"action": "149"}),
                json!({"action": "set_text", "text": "Green"}),
            ],
        ),
        (
            "page tab",
            &[json!({"action": "press"})],
            &[json!({"action": "page tab"})],
        ),
        (
            "list item",
            &[json!({"action": "press"})],
            &[json!({"action": "toggle"})],
        ),
    ];
    let mut misses = Vec::new();
    for (role, takes, refuses) in cases {
        // Beside a label and a button, so the schema has other alternatives to confuse.
        let (numbers, shown) = window(&[
            element("label", "Your name:", 10),
            element(role, "It", 40),
            element("push button", "Cancel", 70),
        ]);
        let Some(schema) = arguments(&numbers, &shown) else {
            panic!("{role}: no schema");
        };
        for call in *takes {
            let mut call = call.clone();
            call["element"] = json!(shown[1]);
            if !allows(&schema, call.clone()) {
                misses.push(format!("{role}: refused {call}"));
            }
        }
        for call in *refuses {
            let mut call = call.clone();
            call["element"] = json!(shown[1]);
            if allows(&schema, call.clone()) {
                misses.push(format!("{role}: allowed {call}"));
            }
        }
        // The label is text: nothing acts on it.
        for act in ["press", "toggle"] {
            if allows(&schema, json!({"action": act, "element": shown[0]})) {
                misses.push(format!("{role}: the label allowed {act}"));
            }
        }
    }
    assert!(misses.is_empty(), "{}", misses.join("\n"));
}

/// A number the model was not shown, or one forgotten since, is no call; neither is a
/// key the tool does not take.
#[test]
fn only_the_numbers_shown_and_still_there_are_offered() {
    let (mut numbers, shown) = window(&[
        element("text", "Name", 10),
        element("push button", "OK", 40),
        element("push button", "Cancel", 70),
    ]);
    let Some(schema) = arguments(&numbers, &shown[..2]) else {
        panic!("no schema");
    };
    assert!(allows(
        &schema,
        json!({"action": "press", "element": shown[1]})
    ));
    assert!(
        !allows(&schema, json!({"action": "press", "element": shown[2]})),
        "not shown"
    );
    assert!(!allows(&schema, json!({"action": "press", "element": 99})));
    assert!(!allows(
        &schema,
        json!({"action": "press", "element": shown[1], "text": "OK"})
    ));
    numbers.forget(shown[1]);
    let Some(schema) = arguments(&numbers, &shown[..2]) else {
        panic!("no schema");
    };
    assert!(
        !allows(&schema, json!({"action": "press", "element": shown[1]})),
        "forgotten"
    );
    assert!(allows(
        &schema,
        json!({"action": "set_text", "element": shown[0], "text": "Ada"})
    ));
}

/// Nothing to act on (text alone, what only holds others, or nothing shown): no schema,
/// and the tool's own arguments stand.
#[test]
fn a_window_of_text_alone_binds_nothing() {
    let (numbers, shown) = window(&[
        element("label", "Done.", 10),
        element("heading", "Hi", 40),
        element("page tab list", "", 70),
        element("menu bar", "", 100),
        element("table", "", 130),
        element("filler", "", 160),
    ]);
    assert_eq!(arguments(&numbers, &shown), None);
    assert_eq!(arguments(&numbers, &[]), None);
}

/// What the tree gives no action and no focus, yet a click opens or picks (a GTK3
/// notebook's tab, a table's cell), is pressed.
#[test]
fn a_tab_or_cell_without_an_action_is_pressed() {
    let (numbers, shown) = window(&[
        Node::at("/tab", "page tab", "Advanced"),
        Node::at("/cell", "table cell", "Beta"),
    ]);
    let Some(schema) = arguments(&numbers, &shown) else {
        panic!("no schema");
    };
    for n in &shown {
        assert!(allows(&schema, json!({"action": "press", "element": n})));
        assert!(!allows(&schema, json!({"action": "toggle", "element": n})));
    }
}

/// A combo box whose options were not read chooses any option by name; one whose
/// options were read, only those.
#[test]
fn a_combo_box_without_options_read_chooses_by_name() {
    let mut closed = element("combo box", "Pick a fruit", 10);
    closed.options.clear();
    let (numbers, shown) = window(&[closed, element("combo box", "Colour", 40)]);
    let Some(schema) = arguments(&numbers, &shown) else {
        panic!("no schema");
    };
    let select = |n: u32, option: &str| json!({"action": "select", "element": n, "option": option});
    assert!(allows(&schema, select(shown[0], "Cherry")));
    assert!(allows(&schema, select(shown[1], "Green")));
    assert!(!allows(&schema, select(shown[1], "Cherry")));
}

/// A row's text cell toggles the one box of its row; a cell in a row without one does
/// not.
#[test]
fn a_rows_text_toggles_where_its_row_holds_one_box() {
    let (numbers, shown) = window(&[
        element("check box", "", 40),
        element("table cell", "Olives", 40),
        element("table cell", "Ham", 80),
    ]);
    let Some(schema) = arguments(&numbers, &shown) else {
        panic!("no schema");
    };
    assert!(allows(
        &schema,
        json!({"action": "toggle", "element": shown[1]})
    ));
    assert!(!allows(
        &schema,
        json!({"action": "toggle", "element": shown[2]})
    ));
}

/// OCR words are clicked and typed into; a list of options too long to spell out
/// leaves the option free.
#[test]
fn words_are_pressed_or_typed_and_long_option_lists_stay_free() {
    let mut numbers = Numbers::default();
    let word = Node::new(Key::Word { run: 1, index: 0 }, "word", "Save");
    let mut fonts = element("combo box", "Font", 40);
    fonts.options = (0..200).map(|i| format!("Font {i}")).collect();
    let shown = vec![
        numbers.number(&word, &Place::default()),
        numbers.number(&fonts, &Place::default()),
    ];
    let Some(schema) = arguments(&numbers, &shown) else {
        panic!("no schema");
    };
    for call in [
        json!({"action": "press", "element": shown[0]}),
        json!({"action": "type", "element": shown[0], "text": "x"}),
        json!({"action": "select", "element": shown[1], "option": "Font 150"}),
        json!({"action": "select", "element": shown[1], "option": "anything"}),
    ] {
        assert!(allows(&schema, call.clone()), "{call}");
    }
    assert!(!allows(
        &schema,
        json!({"action": "toggle", "element": shown[0]})
    ));
}

/// Narrowed to what a request names, a menu or combo box chooses only the options it
/// names; where it names none of them, or the call is not narrowed, all of them.
#[test]
fn narrowed_to_a_request_an_element_chooses_only_the_options_it_names() {
    let mut file = element("menu", "File", 10);
    file.options = ["New", "Open…", "Revert", "Save", "Save As…", "Quit"]
        .map(String::from)
        .to_vec();
    let (numbers, shown) = window(&[file, element("combo box", "Colour", 40)]);
    let request = "Change the text from draft to final, then save it";
    let Some(narrowed) = arguments_for(&numbers, &shown, Some(request)) else {
        panic!("no schema");
    };
    let choose = |n: u32, o: &str| json!({"action": "select", "element": n, "option": o});
    assert!(allows(&narrowed, choose(shown[0], "Save")));
    for other in ["Revert", "Save As…", "Quit"] {
        assert!(!allows(&narrowed, choose(shown[0], other)), "{other}");
    }
    // The combo box's options (Red, Green, Blue) are not named: all of them.
    assert!(allows(&narrowed, choose(shown[1], "Blue")));
    let Some(whole) = arguments(&numbers, &shown) else {
        panic!("no schema");
    };
    assert!(allows(&whole, choose(shown[0], "Revert")));
}

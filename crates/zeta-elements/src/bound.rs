//! What `ui_act` may be given now: the calls the elements last shown to the model take,
//! as a JSON schema a constrained model's grammar is built from (`Tool::arguments_now`).
//!
//! The schema is read from the elements themselves (what the tree said each one is and
//! holds), never from the request: a button is pressed, a field takes text, a box is
//! toggled, a combo box chooses one of the options it lists. The action comes first, so
//! a model says what it means to do before it picks the number, and the numbers it may
//! pick are those of elements that take that act. Seen without it, on windows the model
//! had never seen: a name typed as the action on the OK button (`{"action": "ada",
//! "element": 9}` for "type ada into Name"), a password written as the action, a place's
//! coordinate as the action of a combo box.
//!
//! The elements are those last shown, or, for the one call after an act held for going
//! past what the request names (Cancel pressed where it names OK, OK before its fields),
//! the elements the request names that no act went through on yet (`Walk::left_named`):
//! the window's own elements and the request's own names, no value filled in.

use serde_json::{json, Value};

use crate::node::Key;
use crate::numbers::{Entry, Numbers, Takes};

/// Options listed in the schema at most; a longer list leaves the option free text
/// (the tool still says which options there are when one is not found).
const MAX_OPTIONS: usize = 60;

/// The acts a bound call can be, in the order the schema lists them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Act {
    Press,
    SetText,
    Type,
    Toggle,
}

impl Act {
    const ALL: [Act; 4] = [Act::Press, Act::SetText, Act::Type, Act::Toggle];

    /// Its name, and the other names the tool takes for it (`tools::parse_action`): a
    /// model's "click" is a press (seen: `ui_act(3, 'click')` in a command, refused as
    /// no call the element takes when the schema had "press" alone).
    fn names(self) -> &'static [&'static str] {
        match self {
            Act::Press => &["press", "click", "activate"],
            Act::SetText => &["set_text", "fill"],
            Act::Type => &["type"],
            Act::Toggle => &["toggle", "check", "uncheck"],
        }
    }

    /// Whether element `n` (`e`) takes this act, as the tree described it.
    fn taken_by(self, numbers: &Numbers, n: u32, e: &Entry) -> bool {
        let word = matches!(e.key, Key::Word { .. });
        match self {
            // A text field is focused by set_text itself; text alone, or what only holds
            // others, has nothing to press (the tool refuses both: `asked::text_only`,
            // `asked::holds_others`). A page tab or a list's row without an action of its
            // own is pressed by a click.
            // What holds a number with no action of its own (a slider) is set, not
            // pressed (`asked::value_only`).
            Act::Press => {
                word || matches!(e.takes, Takes::Press | Takes::Toggle)
                    || (e.takes == Takes::Unknown
                        && !e.value
                        && (e.interactive || !text_or_group(&e.role)))
            }
            Act::SetText => word || e.takes == Takes::Text || e.value,
            Act::Type => word || e.takes == Takes::Text || e.role == "terminal",
            // A row's text cell toggles the one box of its row (`asked::box_of_row`).
            Act::Toggle => {
                e.takes == Takes::Toggle
                    || (!word && crate::asked::box_of_row(numbers, n, e).is_some())
            }
        }
    }
}

/// Roles that are text alone or only hold others.
fn text_or_group(role: &str) -> bool {
    crate::node::is_container(role)
        || crate::node::is_list(role)
        || matches!(
            role,
            "label" | "heading" | "paragraph" | "caption" | "menu bar" | "status bar"
        )
}

/// The arguments `ui_act` takes for the elements `shown` (those still numbered): one
/// alternative per act with the numbers of the elements that take it, and one per
/// element with options, its options listed. `None` when no shown element takes any.
pub fn arguments(numbers: &Numbers, shown: &[u32]) -> Option<Value> {
    arguments_for(numbers, shown, None)
}

/// `arguments`, for a call narrowed to what `request` names (`Walk::left_named`): an
/// element with options the request names some of (a menu named by its item "Save", a
/// combo box by "Blue") chooses only those. Seen: Mousepad's File menu offered whole
/// for "… then save it", and Revert chosen, the change lost.
pub fn arguments_for(numbers: &Numbers, shown: &[u32], request: Option<&str>) -> Option<Value> {
    let live: Vec<(u32, &Entry)> = shown
        .iter()
        .filter_map(|n| numbers.get(*n).ok().map(|e| (*n, e)))
        .collect();
    let mut any = Vec::new();
    for act in Act::ALL {
        let takers: Vec<u32> = live
            .iter()
            .filter(|(n, e)| act.taken_by(numbers, *n, e))
            .map(|(n, _)| *n)
            .collect();
        if takers.is_empty() {
            continue;
        }
        let mut properties = json!({"action": {"enum": act.names()}, "element": {"enum": takers}});
        let mut required = vec!["action", "element"];
        if matches!(act, Act::SetText | Act::Type) {
            properties["text"] = json!({"type": "string"});
            required.push("text");
        }
        any.push(object(properties, &required));
    }
    for (n, e) in &live {
        // A combo box whose options were not read (a Qt one, closed) still chooses one:
        // the tool looks its options up when it acts.
        if e.options.is_empty() && e.role != "combo box" {
            continue;
        }
        let named: Vec<&String> = request
            .map(|r| {
                e.options
                    .iter()
                    .filter(|o| crate::asked::names(r, o))
                    .collect()
            })
            .unwrap_or_default();
        let option = if !named.is_empty() {
            json!({"enum": named})
        } else if !e.options.is_empty() && e.options.len() <= MAX_OPTIONS {
            json!({"enum": e.options})
        } else {
            json!({"type": "string"})
        };
        let properties = json!({"action": {"enum": ["select", "choose"]}, "element": {"const": n}, "option": option});
        any.push(object(properties, &["action", "element", "option"]));
    }
    match any.len() {
        0 => None,
        1 => any.pop(),
        _ => Some(json!({"anyOf": any})),
    }
}

fn object(properties: Value, required: &[&str]) -> Value {
    json!({"type": "object", "properties": properties, "required": required,
           "additionalProperties": false})
}

#[cfg(test)]
mod tests;

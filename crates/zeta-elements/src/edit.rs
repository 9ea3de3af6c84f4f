//! What a request does to the text an element holds, when a set text would leave out
//! words of it that the request names: adds to it (before or after what it holds), or
//! changes what it says. The model answers, asked on its own (`tool::Choose`): in the
//! middle of a task a 1.5B model made "set_text pears" again when told it left out
//! "apples" for "add the line pears after apples" (FeatherPad), and copies whichever
//! call a message offers; asked alone, "add or change?" it answers from the words (19
//! of 20 phrasings nobody tuned on, in either order of the options; "before or after?"
//! 17 of 18).
//!
//! The answer only chooses what the held call is told; no text is written for the model.

use zeta_core::tool::Choose;

/// Where the request puts the new text against what the element holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Before,
    After,
}

/// What the request does to the text an element holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edit {
    /// Adds to it: what it holds stays.
    Adds(Side),
    /// Changes what it says: what it holds may go.
    Changes,
}

/// The question whether `request` adds to a text or changes it.
pub fn kind_question(request: &str) -> String {
    format!(
        "Request: \"{request}\"\nIs this request asking to add something to the text, or to change what the text says?"
    )
}

/// The question where `request` puts `text` against `now`, what the element holds.
pub fn side_question(request: &str, now: &str, text: &str) -> String {
    format!(
        "Request: \"{request}\"\nThe text holds \"{}\" now. Does the request put \"{}\" before what the text holds, or after it?",
        crate::outline::clip(now, 200),
        crate::outline::clip(text, 200),
    )
}

/// What `request` does to `now`, as the model answers asked on its own; `None` without
/// a model or an answer.
pub async fn ask(choose: &Choose, request: &str, now: &str, text: &str) -> Option<Edit> {
    let kind = choose
        .one_of(&kind_question(request), &["add".into(), "change".into()])
        .await;
    tracing::info!(
        ?kind,
        "what the request does to a text, as the model answers"
    );
    match kind.as_deref()? {
        "change" => Some(Edit::Changes),
        _ => {
            let side = choose
                .one_of(
                    &side_question(request, now, text),
                    &["before".into(), "after".into()],
                )
                .await;
            tracing::info!(?side, "where the request adds to a text");
            Some(Edit::Adds(match side.as_deref() {
                Some("before") => Side::Before,
                _ => Side::After,
            }))
        }
    }
}

/// Why a set text that leaves out `dropped` of what element `n` holds (`now`) is held
/// when the request adds to the text: how to add `text` instead. Never "make the same
/// call again": the request keeps what is there.
pub fn adds_instead(
    n: u32,
    label: &str,
    now: &str,
    text: &str,
    dropped: &str,
    side: Side,
) -> String {
    let quote = |s: &str| serde_json::to_string(&crate::outline::clip(s, 200)).unwrap_or_default();
    let head = format!(
        "not set yet: [{n}] {label} holds {} now, and set_text puts {} in place of all of it, leaving out {dropped}, which the request keeps: it adds to the text",
        quote(now),
        quote(text),
    );
    match side {
        Side::After => format!(
            "{head}. To add {} at the end of what [{n}] holds, the call is {{\"action\": \"type\", \"element\": {n}, \"text\": {}}} (type adds at the end of its text); to put it elsewhere, write in set_text the whole text [{n}] is to hold, {dropped} kept",
            quote(text),
            quote(text),
        ),
        Side::Before => format!(
            "{head}, before what it holds. Write in set_text the whole text [{n}] is to hold: {} first, then all it holds now",
            quote(text),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_questions_carry_the_request_and_both_texts() {
        let q = kind_question("add the line pears after apples");
        assert!(q.contains("\"add the line pears after apples\"") && q.contains("add something"));
        let q = side_question("r", "apples\nfigs", "pears");
        assert!(
            q.contains("\"apples figs\"") && q.contains("\"pears\""),
            "{q}"
        );
    }

    #[test]
    fn adding_is_told_as_a_type_call_after_and_a_whole_text_before() {
        let after = adds_instead(18, "text", "apples\n", "pears", "apples", Side::After);
        assert!(
            after.contains(r#"{"action": "type", "element": 18, "text": "pears"}"#)
                && !after.contains("same call again"),
            "{after}"
        );
        let before = adds_instead(18, "text", "apples\n", "pears", "apples", Side::Before);
        assert!(
            before.contains("\"pears\" first") && !before.contains("\"type\""),
            "{before}"
        );
    }
}

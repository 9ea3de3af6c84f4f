//! What the keyboard typed, read back: the `keyboard` tool wrapped so that, when it types
//! text, the element with the keyboard's focus (in the active window, on the accessibility
//! bus) is read before and after, and the call says whether the field shows the text, as
//! `ui_act`'s calls do (`ReadBack`, action "type"). Only a field whose text did not change
//! at all is "not shown"; a field that changed some other way (formatting, completion), a
//! focus that moved, or no readable focus is "unclear": a read-back holds an answer back
//! only when the window contradicts it. Key combinations are not read back.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;
use zeta_core::model::ToolSpec;
use zeta_core::tool::{
    ReadBack, Risk, Shown, TextWrite, Tool, ToolContext, ToolFuture, ToolOutput,
};

use crate::atspi::read::{tree, windows};
use crate::atspi::Desktop;
use crate::node::Node;
use crate::outline::clip;

/// The keyboard tool, its typing read back.
pub struct TypedReadBack {
    inner: Arc<dyn Tool>,
    desktop: Desktop,
}

impl TypedReadBack {
    pub fn new(inner: Arc<dyn Tool>, desktop: Desktop) -> Self {
        Self { inner, desktop }
    }
}

/// The element with the keyboard's focus, and its window's title.
#[derive(Debug, Clone)]
pub struct Focus {
    pub node: Node,
    pub window: String,
}

/// The focused element of the active window, if the bus tells.
async fn focused(desktop: &Desktop) -> Option<Focus> {
    let listed = windows(desktop).await.ok()?;
    let window = listed.windows.iter().find(|w| w.active)?;
    let root = tree(desktop, &window.key, &window.app).await.ok()?;
    find_focused(&root).map(|node| Focus {
        node: node.clone(),
        window: window.title.clone(),
    })
}

fn find_focused(n: &Node) -> Option<&Node> {
    if n.states.focused {
        return Some(n);
    }
    n.children.iter().find_map(find_focused)
}

fn label(n: &Node) -> String {
    if n.name.is_empty() {
        n.role.clone()
    } else {
        format!("{} \"{}\"", n.role, n.name)
    }
}

/// Letters and digits only, lower case: a field that formats what it takes ("555-1234")
/// still holds what was typed ("5551234").
fn bare(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// Whether the field after typing shows `typed`, given the focus before (pure).
pub fn judge(before: Option<&Focus>, after: Option<&Focus>, typed: &str) -> ReadBack {
    let intended = format!("type \"{}\"", clip(typed, 60));
    let Some(after) = after else {
        return ReadBack {
            element: "the keyboard's focus".into(),
            window: String::new(),
            action: "type".into(),
            intended,
            shown: Shown::Unclear("no element with the keyboard's focus could be read".into()),
            request_met: false,
            closed: false,
            left: None,
            app: String::new(),
            ocr: false,
            keyed: false,
            dropped: Vec::new(),
        };
    };
    let now = after.node.value.clone().unwrap_or_default();
    let element = format!("{} in \"{}\"", label(&after.node), after.window);
    let same_element = before.is_some_and(|b| b.node.key == after.node.key);
    let was = before
        .filter(|_| same_element)
        .and_then(|b| b.node.value.clone())
        .unwrap_or_default();
    let marks = after.node.role == "password text"
        && now.chars().count() >= was.chars().count() + typed.chars().count()
        && now.chars().count() > was.chars().count();
    let wanted = bare(typed);
    let shown = if marks || (!wanted.is_empty() && bare(&now).contains(&wanted)) {
        Shown::Yes(format!(
            "{} now holds \"{}\"",
            label(&after.node),
            clip(&now, 80)
        ))
    } else if same_element && now == was && !typed.trim().is_empty() {
        let holds = if now.is_empty() {
            "shows no text".to_string()
        } else {
            format!("still shows \"{}\"", clip(&now, 80))
        };
        Shown::No(format!(
            "{} {holds}: the text did not land there",
            label(&after.node)
        ))
    } else if !after.node.states.editable && now.is_empty() {
        Shown::Unclear(format!(
            "the focus is on {}, which shows no text",
            label(&after.node)
        ))
    } else {
        Shown::Unclear(format!(
            "{} shows \"{}\"",
            label(&after.node),
            clip(&now, 80)
        ))
    };
    ReadBack {
        element,
        window: after.window.clone(),
        action: "type".into(),
        intended,
        shown,
        request_met: false,
        closed: false,
        left: None,
        app: String::new(),
        ocr: false,
        keyed: false,
        dropped: Vec::new(),
    }
}

/// The sentence the call adds for the model.
fn said(rb: &ReadBack) -> String {
    match &rb.shown {
        Shown::Yes(s) => format!("Shown: {s}."),
        Shown::No(s) => format!("NOT SHOWN: you meant to {}, but {s}.", rb.intended),
        Shown::Unclear(s) => format!("Not confirmed on screen: {s}."),
    }
}

impl Tool for TypedReadBack {
    fn spec(&self) -> ToolSpec {
        self.inner.spec()
    }
    fn has_side_effects(&self) -> bool {
        self.inner.has_side_effects()
    }
    fn changes_things(&self, arguments: &Value) -> bool {
        self.inner.changes_things(arguments)
    }
    fn keeps_state(&self) -> bool {
        self.inner.keeps_state()
    }
    fn sends_out(&self, arguments: &Value) -> bool {
        self.inner.sends_out(arguments)
    }
    fn asks_always(&self) -> bool {
        self.inner.asks_always()
    }
    fn taints(&self, arguments: &Value, output: &ToolOutput) -> bool {
        self.inner.taints(arguments, output)
    }
    fn commands(&self, arguments: &Value) -> Vec<String> {
        self.inner.commands(arguments)
    }
    fn named_writes(&self, arguments: &Value, base: &Path) -> Vec<PathBuf> {
        self.inner.named_writes(arguments, base)
    }
    fn writes_text(&self, arguments: &Value, base: &Path) -> Option<TextWrite> {
        self.inner.writes_text(arguments, base)
    }
    fn target(&self, arguments: &Value) -> String {
        self.inner.target(arguments)
    }
    fn workdir(&self, arguments: &Value, base: &Path) -> PathBuf {
        self.inner.workdir(arguments, base)
    }
    fn risk(&self, arguments: &Value, workdir: &Path) -> Risk {
        self.inner.risk(arguments, workdir)
    }
    fn run<'a>(&'a self, arguments: Value, ctx: &'a ToolContext) -> ToolFuture<'a> {
        Box::pin(async move {
            let typed = arguments
                .get("text")
                .and_then(Value::as_str)
                .filter(|t| !t.is_empty())
                .map(str::to_string);
            let Some(typed) = typed else {
                return self.inner.run(arguments, ctx).await;
            };
            let before = focused(&self.desktop).await;
            let mut out = self.inner.run(arguments, ctx).await;
            if !out.ok {
                return out;
            }
            // The application draws what it was sent a moment later.
            tokio::time::sleep(Duration::from_millis(150)).await;
            let after = focused(&self.desktop).await;
            let rb = judge(before.as_ref(), after.as_ref(), &typed);
            out.content = format!("{}\n{}", out.content, said(&rb));
            out.read_back = Some(Box::new(rb));
            out
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::node::Key;

    fn field(key: usize, role: &str, name: &str, value: &str) -> Focus {
        let mut node = Node::new(Key::Word { run: 0, index: key }, role, name);
        node.value = Some(value.into());
        node.states.focused = true;
        node.states.editable = role.contains("text");
        Focus {
            node,
            window: "Form".into(),
        }
    }

    fn shown(rb: &ReadBack) -> &str {
        match &rb.shown {
            Shown::Yes(_) => "yes",
            Shown::No(_) => "no",
            Shown::Unclear(_) => "unclear",
        }
    }

    #[test]
    fn typing_shows_only_where_the_field_holds_it_and_fails_only_where_nothing_changed() {
        let empty = field(1, "text", "Name", "");
        let cases: Vec<(Option<Focus>, Option<Focus>, &str, &str)> = vec![
            (
                Some(empty.clone()),
                Some(field(1, "text", "Name", "Ada")),
                "Ada",
                "yes",
            ),
            (
                Some(empty.clone()),
                Some(field(1, "text", "Phone", "555-1234")),
                "5551234",
                "yes",
            ),
            (
                Some(field(1, "text", "Name", "Ada ")),
                Some(field(1, "text", "Name", "Ada Lovelace")),
                "Lovelace",
                "yes",
            ),
            (
                Some(field(1, "spin button", "Copies", "1")),
                Some(field(1, "spin button", "Copies", "1")),
                "abc",
                "no",
            ),
            (
                Some(empty.clone()),
                Some(field(1, "text", "Name", "")),
                "Ada",
                "no",
            ),
            (
                Some(empty.clone()),
                Some(field(1, "text", "City", "Lisbo")),
                "Lisbon",
                "unclear",
            ),
            (
                Some(empty.clone()),
                Some(field(2, "text", "Other", "")),
                "Ada",
                "unclear",
            ),
            (None, None, "Ada", "unclear"),
            (
                Some(empty.clone()),
                Some(field(1, "push button", "Save", "")),
                "Ada",
                "no",
            ),
            (
                Some(field(3, "push button", "Save", "")),
                Some(field(3, "push button", "Save", "")),
                "   ",
                "unclear",
            ),
            (
                Some(field(4, "password text", "Password", "")),
                Some(field(4, "password text", "Password", "●●●")),
                "abc",
                "yes",
            ),
        ];
        for (before, after, typed, want) in cases {
            let rb = judge(before.as_ref(), after.as_ref(), typed);
            assert_eq!(shown(&rb), want, "{typed:?} {after:?}: {rb:?}");
            assert_eq!(rb.action, "type");
        }
    }
}

//! The outline a model reads: a window's elements, numbered, one line each, with only what
//! a model needs. Pure: it takes a tree of `Node`s (from the accessibility bus or OCR) and
//! the number table, and gives text.
//!
//! What is left out: containers with no name (their children move up), labels that only
//! repeat the name of the field beside them, and nodes with no name, value or action.
//! Siblings are read top to bottom, left to right. A long list shows its first items and
//! how many more there are; the whole outline stops at a budget of elements and says how
//! to see the rest (expand an element, or find by name or role).

use std::collections::BTreeMap;

use crate::node::{is_container, is_list, Node};
use crate::numbers::{Numbers, Place};

/// How much to show.
#[derive(Debug, Clone)]
pub struct Options {
    /// At most this many elements (a 1.5B model reads ~60 tokens/s).
    pub budget: usize,
    /// Items shown of a long list before it is summarised.
    pub list_items: usize,
    /// Show only elements whose role, name or value contains this (case-insensitive),
    /// with no budget on how deep they are.
    pub find: Option<String>,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            budget: 40,
            list_items: 8,
            find: None,
        }
    }
}

/// A rendered outline, with each line by element number so two can be compared.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Outline {
    pub text: String,
    pub lines: BTreeMap<u32, String>,
    /// Elements shown, and elements found in all.
    pub shown: usize,
    pub total: usize,
    /// What the shown elements show, in the application's own words: their names,
    /// values, options and the text beside them, one a line, without the numbers and
    /// places the outline adds (`shows`).
    pub shows: String,
}

/// Cuts `s` to `max` characters, marking the cut.
pub fn clip(s: &str, max: usize) -> String {
    let s = s.trim();
    if s.chars().count() <= max {
        return s.replace('\n', " ");
    }
    let cut: String = s.chars().take(max).collect();
    format!("{}…", cut.replace('\n', " "))
}

/// `clip` for a value that may hold lines (an editor's text): a line break kept as `\n`,
/// so the lines show as lines in the call that sets them (seen: FeatherPad's
/// "apples\npears" read as "apples pears", set again as "apples pears\npears").
pub fn clip_lines(s: &str, max: usize) -> String {
    let s = s.trim();
    let cut: String = s.chars().take(max).collect();
    let more = if s.chars().count() > max { "…" } else { "" };
    format!("{}{more}", cut.replace('\n', "\\n"))
}

/// An element worth a line of its own.
fn worth_a_line(n: &Node) -> bool {
    if n.is_interactive() {
        return true;
    }
    if is_container(&n.role) {
        return false;
    }
    let has_words =
        !n.name.trim().is_empty() || n.value.as_deref().is_some_and(|v| !v.trim().is_empty());
    has_words || is_list(&n.role)
}

/// A kept element and the kept elements under it.
struct Kept<'a> {
    node: &'a Node,
    children: Vec<Kept<'a>>,
}

/// Keeps the nodes worth a line; the children of the others move up to their place.
fn keep(node: &Node) -> Vec<Kept<'_>> {
    let mut children: Vec<&Node> = node.children.iter().collect();
    // Top to bottom, then left to right; elements with no place keep their order; a
    // blank area read by OCR after the words, which keep their numbers.
    children.sort_by_key(|c| match c.bounds {
        Some(_) if c.role == crate::ocr::BLANK_ROLE => (i32::MAX - 1, 0),
        Some(b) => (b.y / 8, b.x),
        None => (i32::MAX, 0),
    });
    let mut kept: Vec<Kept> = children.into_iter().flat_map(keep_one).collect();
    drop_repeated_labels(&mut kept);
    kept
}

fn keep_one(node: &Node) -> Vec<Kept<'_>> {
    if worth_a_line(node) {
        vec![Kept {
            node,
            children: keep(node),
        }]
    } else {
        keep(node)
    }
}

/// A label that says only what the field beside it is named is left out.
fn drop_repeated_labels(kept: &mut Vec<Kept>) {
    let names: Vec<String> = kept
        .iter()
        .filter(|k| k.node.is_interactive())
        .map(|k| k.node.name.trim().to_lowercase())
        .filter(|n| !n.is_empty())
        .collect();
    kept.retain(|k| {
        let n = k.node;
        let label = n.role == "label" && !n.is_interactive();
        let text = n.value.as_deref().unwrap_or(&n.name).trim().to_lowercase();
        !(label
            && names
                .iter()
                .any(|name| *name == text || *name == text.trim_end_matches(':')))
    });
}

/// One element's line (without its number).
pub fn describe(n: &Node) -> String {
    let mut s = n.role.clone();
    if !n.name.trim().is_empty() {
        s.push_str(&format!(" \"{}\"", clip(&n.name, 80)));
    }
    if let Some(c) = n.context.as_deref().filter(|_| n.name.trim().is_empty()) {
        s.push_str(&format!(" ({})", clip(c, 100)));
    }
    if let Some(v) = n.value.as_deref() {
        if v.trim() != n.name.trim() || n.states.editable {
            s.push_str(&format!(" = \"{}\"", clip_lines(v, 120)));
        }
    }
    if !n.options.is_empty() {
        let shown: Vec<String> = n.options.iter().take(12).map(|o| clip(o, 30)).collect();
        let more = n.options.len().saturating_sub(shown.len());
        s.push_str(&format!(" options: {}", shown.join(" | ")));
        if more > 0 {
            s.push_str(&format!(" (+{more} more)"));
        }
    }
    let st = &n.states;
    let mut flags = Vec::new();
    if st.focused {
        flags.push("focused");
    }
    if st.checkable {
        flags.push(if st.checked { "checked" } else { "unchecked" });
    } else if st.checked {
        flags.push("pressed");
    }
    if st.selected {
        flags.push("selected");
    }
    if st.default {
        flags.push("default");
    }
    if st.expandable {
        flags.push(if st.expanded { "expanded" } else { "collapsed" });
    }
    if !st.enabled {
        flags.push("disabled");
    }
    if st.editable {
        flags.push("editable");
    }
    if !flags.is_empty() {
        s.push_str(&format!(" ({})", flags.join(", ")));
    }
    if !n.actions.is_empty() {
        s.push_str(&format!(" [{}]", n.actions.join(", ")));
    }
    if let Some(b) = n.bounds.filter(|b| b.is_visible()) {
        s.push_str(&format!(" @{},{} {}x{}", b.x, b.y, b.width, b.height));
    }
    s
}

/// An element's own texts: its name, value, the text beside it and its options.
fn own_texts(n: &Node) -> impl Iterator<Item = &str> {
    [
        Some(n.name.as_str()),
        n.value.as_deref(),
        n.context.as_deref(),
    ]
    .into_iter()
    .flatten()
    .chain(n.options.iter().map(String::as_str))
    .map(str::trim)
    .filter(|t| !t.is_empty())
}

struct Renderer<'a> {
    numbers: &'a mut Numbers,
    place: &'a Place,
    options: &'a Options,
    out: Outline,
    /// Elements left out for the budget.
    over: usize,
}

impl Renderer<'_> {
    fn line(&mut self, depth: usize, n: &Node) -> u32 {
        let number = self.numbers.number(n, self.place);
        let text = describe(n);
        self.out
            .text
            .push_str(&format!("{}[{number}] {text}\n", "  ".repeat(depth)));
        self.out.lines.insert(number, text);
        for own in own_texts(n) {
            self.out.shows.push_str(own);
            self.out.shows.push('\n');
        }
        self.out.shown += 1;
        number
    }

    fn render(&mut self, kept: &[Kept], depth: usize, in_list: bool) {
        let limit = if in_list {
            self.options.list_items
        } else {
            usize::MAX
        };
        for (i, k) in kept.iter().enumerate() {
            if i == limit {
                let rest = kept.len() - i;
                let more: usize = kept[i..].iter().map(count).sum();
                self.out.total += more;
                self.out.text.push_str(&format!(
                    "{}… {rest} more items (expand the list's number to see them)\n",
                    "  ".repeat(depth)
                ));
                return;
            }
            self.out.total += 1;
            if self.out.shown >= self.options.budget {
                self.over += 1;
                self.out.total += k.children.iter().map(count).sum::<usize>();
                self.over += k.children.iter().map(count).sum::<usize>();
                continue;
            }
            self.line(depth, k.node);
            self.render(&k.children, depth + 1, is_list(&k.node.role));
        }
    }
}

fn count(k: &Kept) -> usize {
    1 + k.children.iter().map(count).sum::<usize>()
}

fn matches(n: &Node, query: &str) -> bool {
    let q = query.to_lowercase();
    n.role.to_lowercase().contains(&q)
        || n.name.to_lowercase().contains(&q)
        || n.value
            .as_deref()
            .is_some_and(|v| v.to_lowercase().contains(&q))
}

/// The outline of `root`'s elements (not `root` itself), headed by `title`.
pub fn outline(
    root: &Node,
    title: &str,
    place: &Place,
    options: &Options,
    numbers: &mut Numbers,
) -> Outline {
    let kept = keep(root);
    let mut r = Renderer {
        numbers,
        place,
        options,
        out: Outline::default(),
        over: 0,
    };
    if let Some(query) = options.find.as_deref().filter(|q| !q.trim().is_empty()) {
        let mut found: Vec<&Node> = Vec::new();
        fn collect<'a>(kept: &[Kept<'a>], query: &str, found: &mut Vec<&'a Node>) {
            for k in kept {
                if matches(k.node, query) {
                    found.push(k.node);
                }
                collect(&k.children, query, found);
            }
        }
        collect(&kept, query.trim(), &mut found);
        r.out.total = found.len();
        for n in found.iter().take(options.budget) {
            r.line(0, n);
        }
        r.over = found.len().saturating_sub(options.budget);
        let mut text = format!("{title}\n");
        if found.is_empty() {
            text.push_str(&format!(
                "No element's role, name or value contains \"{}\".\n",
                query.trim()
            ));
        }
        text.push_str(&r.out.text);
        if r.over > 0 {
            text.push_str(&format!("… {} more matches not shown\n", r.over));
        }
        r.out.text = text;
        return r.out;
    }
    r.render(&kept, 0, is_list(&root.role));
    let mut text = format!("{title}\n");
    if r.out.shown == 0 {
        text.push_str("(no elements with a name, a value or an action)\n");
    }
    text.push_str(&r.out.text);
    if r.over > 0 {
        text.push_str(&format!(
            "… {} more elements not shown: expand a numbered element, or find by name or role\n",
            r.over
        ));
    }
    r.out.text = text;
    r.out
}

/// What an action changed: the lines of `after` that differ from `before`, by number.
pub fn changes(before: &Outline, after: &Outline) -> Vec<String> {
    let mut out = Vec::new();
    for (n, line) in &after.lines {
        match before.lines.get(n) {
            Some(old) if old == line => {}
            Some(old) => out.push(format!("[{n}] {old}  →  {line}")),
            None => out.push(format!("new [{n}] {line}")),
        }
    }
    for (n, line) in &before.lines {
        if !after.lines.contains_key(n) {
            out.push(format!("gone [{n}] {line}"));
        }
    }
    out
}

/// About four characters a token: what the outline costs the model to read.
pub fn tokens(text: &str) -> usize {
    text.chars().count().div_ceil(4)
}

/// The element numbers of an outline's text (its `[N] …` lines), in order.
pub fn numbers_in(text: &str) -> Vec<u32> {
    text.lines().filter_map(line_number).collect()
}

/// The number of the first element line of an outline's text that contains `needle`.
pub fn number_of(text: &str, needle: &str) -> Option<u32> {
    text.lines()
        .filter(|l| l.contains(needle))
        .find_map(line_number)
}

fn line_number(line: &str) -> Option<u32> {
    line.trim_start()
        .strip_prefix('[')?
        .split(']')
        .next()?
        .parse()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::node::{Bounds, Key};

    /// An editor's lines show as lines in its value (`\n`), cut where long; a name's
    /// line breaks stay spaces.
    #[test]
    fn a_texts_lines_show_as_lines() {
        let mut text = el("/t", "text", "", 10);
        text.states.editable = true;
        text.value = Some("apples\npears\n".into());
        let line = describe(&text);
        assert!(
            line.contains(r#"text = "apples\npears" (editable)"#),
            "{line}"
        );
        assert_eq!(clip_lines(&"ab\n".repeat(100), 5), "ab\\nab…");
        assert_eq!(clip("a\nb", 10), "a b");
    }

    fn el(id: &str, role: &str, name: &str, y: i32) -> Node {
        let mut n = Node::new(
            Key::Tree {
                bus: ":1.1".into(),
                path: id.into(),
            },
            role,
            name,
        );
        n.bounds = Some(Bounds {
            x: 10,
            y,
            width: 50,
            height: 20,
        });
        n
    }

    fn button(id: &str, name: &str, y: i32) -> Node {
        let mut n = el(id, "button", name, y);
        n.actions = vec!["click".into()];
        n
    }

    fn render(root: &Node, options: &Options) -> (Outline, Numbers) {
        let mut numbers = Numbers::default();
        let out = outline(root, "W:", &Place::default(), options, &mut numbers);
        (out, numbers)
    }

    #[test]
    fn containers_go_labels_repeating_a_field_go_and_reading_is_top_to_bottom() {
        let mut panel = el("/panel", "panel", "", 0);
        let mut field = el("/field", "text", "Name", 50);
        field.states.editable = true;
        field.value = Some(String::new());
        panel.children = vec![
            button("/save", "Save", 90),
            el("/label", "label", "Name:", 50),
            field,
        ];
        let mut root = el("/w", "frame", "W", 0);
        root.children = vec![panel];
        let (out, _) = render(&root, &Options::default());
        assert_eq!(
            out.text,
            "W:\n[1] text \"Name\" = \"\" (editable) @10,50 50x20\n[2] button \"Save\" [click] @10,90 50x20\n"
        );
    }

    #[test]
    fn what_an_outline_shows_is_the_windows_own_texts_without_its_numbers() {
        let mut field = el("/field", "text", "Copies", 50);
        field.states.editable = true;
        field.value = Some("3".into());
        let mut combo = el("/combo", "combo box", "Red", 70);
        combo.options = vec!["Red".into(), "Blue".into()];
        let mut root = el("/w", "frame", "W", 0);
        root.children = vec![field, combo, button("/ok", "OK", 90)];
        let (out, _) = render(&root, &Options::default());
        assert!(out.text.contains("[3] button \"OK\""), "{}", out.text);
        assert_eq!(out.shows, "Copies\n3\nRed\nRed\nBlue\nOK\n");
    }

    #[test]
    fn a_long_list_is_summarised_and_the_budget_holds() {
        let mut list = el("/list", "list", "Files", 0);
        list.children = (0..100)
            .map(|i| {
                let mut n = el(&format!("/i{i}"), "list item", &format!("file {i}"), 10 + i);
                n.actions = vec!["activate".into()];
                n
            })
            .collect();
        let mut root = el("/w", "frame", "W", 0);
        root.children = vec![list, button("/ok", "OK", 500)];
        let (out, _) = render(&root, &Options::default());
        assert_eq!(out.shown, 10, "the list, 8 items, OK:\n{}", out.text);
        assert!(out.text.contains("… 92 more items"), "{}", out.text);
        let (tight, _) = render(
            &root,
            &Options {
                budget: 5,
                ..Options::default()
            },
        );
        assert_eq!(tight.shown, 5);
        assert!(
            tight.text.contains("more elements not shown"),
            "{}",
            tight.text
        );
        let (found, _) = render(
            &root,
            &Options {
                find: Some("FILE 42".into()),
                ..Options::default()
            },
        );
        assert_eq!(found.shown, 1, "{}", found.text);
        assert!(
            found.text.contains("list item \"file 42\""),
            "{}",
            found.text
        );
    }

    #[test]
    fn changes_name_what_differs_appears_and_goes() {
        let mut a = Outline::default();
        a.lines.insert(1, "label \"Not saved\"".into());
        a.lines.insert(2, "button \"Save\"".into());
        let mut b = Outline::default();
        b.lines.insert(1, "label \"Saved\"".into());
        b.lines.insert(3, "dialog \"Done\"".into());
        assert_eq!(
            changes(&a, &b),
            vec![
                "[1] label \"Not saved\"  →  label \"Saved\"".to_string(),
                "new [3] dialog \"Done\"".into(),
                "gone [2] button \"Save\"".into()
            ]
        );
    }

    /// A small deterministic generator (xorshift), so failures reproduce.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n.max(1)
        }
    }

    const ROLES: [&str; 12] = [
        "panel",
        "filler",
        "button",
        "label",
        "text",
        "list",
        "list item",
        "menu",
        "check box",
        "combo box",
        "table cell",
        "unknown",
    ];
    const NAMES: [&str; 8] = [
        "",
        "Save",
        "Name",
        "x\ny",
        "🙂 emoji",
        "a very long name that goes on and on and on and on and on and on and on and on and on",
        "Name:",
        "  ",
    ];

    fn random_tree(rng: &mut Rng, depth: u32, next_id: &mut u32) -> Node {
        *next_id += 1;
        let role = ROLES[rng.below(ROLES.len() as u64) as usize];
        let name = NAMES[rng.below(NAMES.len() as u64) as usize];
        let mut n = el(
            &format!("/{next_id}"),
            role,
            name,
            rng.below(2000) as i32 - 500,
        );
        if rng.below(3) == 0 {
            n.bounds = None;
        }
        if rng.below(4) == 0 {
            n.actions = vec!["click".into()];
        }
        n.states.editable = rng.below(6) == 0;
        n.states.checkable = rng.below(8) == 0;
        if rng.below(5) == 0 {
            n.value = Some(NAMES[rng.below(NAMES.len() as u64) as usize].into());
        }
        if depth < 5 {
            let kids = rng.below(if depth < 2 { 14 } else { 4 });
            n.children = (0..kids)
                .map(|_| random_tree(rng, depth + 1, next_id))
                .collect();
        }
        n
    }

    /// Thousands of random trees: the outline never panics, never passes its budget,
    /// numbers each element once, and every number it shows resolves to that element.
    #[test]
    fn random_trees_keep_the_outline_within_its_promises() {
        let mut rng = Rng(0x5eed_1234_abcd_0001);
        for round in 0..1500 {
            let mut ids = 0;
            let root = random_tree(&mut rng, 0, &mut ids);
            let budget = 5 + rng.below(60) as usize;
            let find = (rng.below(4) == 0)
                .then(|| NAMES[rng.below(NAMES.len() as u64) as usize].to_string());
            let (out, numbers) = render(
                &root,
                &Options {
                    budget,
                    find,
                    ..Options::default()
                },
            );
            assert!(
                out.shown <= budget,
                "round {round}: {} > {budget}",
                out.shown
            );
            let shown = numbers_in(&out.text);
            let mut unique = shown.clone();
            unique.sort_unstable();
            unique.dedup();
            assert_eq!(
                unique.len(),
                shown.len(),
                "round {round}: a number twice:\n{}",
                out.text
            );
            assert_eq!(shown.len(), out.shown, "round {round}");
            for n in shown {
                assert!(
                    numbers.get(n).is_ok(),
                    "round {round}: {n} does not resolve"
                );
            }
            assert!(out.text.lines().all(|l| !l.contains('\n')));
        }
    }
}

//! A model walking a window's numbers: presses on element after element in the order of
//! their numbers (1, 2, 3, …), whatever each one is. Seen on a settings window nobody
//! rehearsed (CI, 2026-11-28): a 1.5B model pressed elements 1 to 23 in turn, the tab
//! list, the fields, a button that opens a dialog, every plug-in's toggle, and then said
//! what it had meant to do. A person does not act that way; a request names what it
//! wants. After three presses in a row on numbers that follow one another, across
//! elements of different kinds, the next press of an element the request does not name
//! is refused, with the elements it does name in the request's own order.
//!
//! Presses over one kind of element (ticking every box of a list) are no walk: a request
//! may ask for all of them. Text set into fields is not held either.
//!
//! A press of a button the request names, while it names before it elements that take
//! an act of their own and none went through on them yet, or, for the window's default
//! button, gives before it a value (by its shape) that nothing typed or chosen holds
//! yet, is said first (`ahead`): a button ends what is before it.
//!
//! After each act the model reads which elements the request names and which of them an
//! act went through on (`named`): facts of the window and the task, not advice. A step
//! of the request that names nothing in the window ("confirm it") is left until the
//! window's default button had an act go through (`step_left`, `steps`): until then the
//! request is not met there.

use crate::asked::{named_at, names_element};
use crate::atspi::act::Action;
use crate::edit::Edit;
use crate::keyed::{Keypad, Plan};
use crate::numbers::{Entry, Numbers, Takes};

/// Presses in a row on following numbers before the next is held.
const STEPS: usize = 3;
/// The greatest gap between two numbers of a walk (an element without an act between).
const STRIDE: u32 = 2;
/// Presses kept.
const KEPT: usize = 8;

/// The presses of the current request, as numbers and roles, and the elements acts
/// went through on.
#[derive(Debug, Default)]
pub struct Walk {
    request: String,
    presses: Vec<(u32, String)>,
    done: Vec<u32>,
    /// Texts held once for starting with their field's name (`named_text`).
    held: Vec<(u32, String)>,
    /// The texts typed or set and the options chosen for the request, lowercased.
    entered: Vec<String>,
    /// The elements pressed for the request that went through, in order (a keypad's
    /// keys, `keyed`).
    pressed: Vec<u32>,
    /// The keys the model chose, asked on its own, for a keypad plan's steps between
    /// numbers (step index, the key's name; none when it gave no answer).
    chosen: Vec<(usize, Option<String>)>,
    /// What the request does to a text, as the model answered for what an element held
    /// and the text set in its place (`edit::ask`): asked once for each.
    edits: Vec<((String, String), Edit)>,
}

/// Whether `action` does to `entry` what its kind is for, so that the element counts as
/// acted on: text or a value into what takes them, a choice into what lists options, a
/// press or a toggle of anything else (an OCR word: any act). Read from the element's
/// kind, not the request. Seen: the slider "Volume" pressed, then OK, and "Set the
/// Volume slider to 65 and press OK" counted as met with 55 still set; kdialog's combo
/// box pressed, then OK, and "Pick Cherry" said done with nothing chosen.
pub fn fulfils(entry: &Entry, action: &Action) -> bool {
    if matches!(entry.key, crate::node::Key::Word { .. }) {
        return true;
    }
    let enters = matches!(
        action,
        Action::SetText(_) | Action::Type(_) | Action::Select(_)
    );
    if entry.takes == Takes::Text || entry.value {
        enters
    } else if !entry.options.is_empty() || entry.role == "combo box" {
        // A press only opens it (its options may not be read yet: a Qt combo box).
        matches!(action, Action::Select(_))
    } else {
        matches!(action, Action::Press | Action::Toggle | Action::Select(_))
    }
}

/// Where `request` names `e`: by its name (`names_element`), or a combo box by one of
/// its options, since its name is only the option showing ("Pick Blue as the colour"
/// names yad's combo box "Red" of Red, Green and Blue; seen: OK pressed first and the
/// dialog closed on Red, as nothing before OK was named).
fn naming(request: &str, e: &Entry) -> Option<usize> {
    names_element(request, e)
        .or_else(|| e.options.iter().filter_map(|o| named_at(request, o)).min())
}

/// The elements of `window` that `request` names, each once, in the request's order,
/// with their numbers; a label is text, not one of them (a dialog's question is not
/// acted on), even where the toolkit gives it actions of its own (Qt's labels have
/// "ShowMenu" and "SetFocus"); nor one named as its window is titled where the request
/// only names the window (`asked::names_element`).
fn named_in(numbers: &Numbers, window: &str, request: &str) -> Vec<(u32, String)> {
    let mut named: Vec<(usize, u32, String)> = numbers
        .all()
        .filter(|(_, e)| e.place.window == window && !e.name.trim().is_empty())
        .filter(|(_, e)| e.role != "label")
        .filter_map(|(m, e)| naming(request, e).map(|at| (at, m, e.label())))
        .collect();
    named.sort();
    let mut seen = std::collections::HashSet::new();
    named
        .into_iter()
        .filter(|(_, _, label)| seen.insert(label.clone()))
        .map(|(_, m, label)| (m, label))
        .collect()
}

impl Walk {
    /// A press of `entry` (number `n`) for `request`: noted, and the reason it is held
    /// when it carries on a walk over elements the request does not name.
    pub fn press(
        &mut self,
        numbers: &Numbers,
        n: u32,
        entry: &Entry,
        request: &str,
    ) -> Option<String> {
        if request.trim().is_empty() {
            return None;
        }
        self.for_request(request);
        let walking = self.walking(n, &entry.role);
        self.presses.push((n, entry.role.clone()));
        if self.presses.len() > KEPT {
            self.presses.remove(0);
        }
        if !walking || named_at(request, &entry.name).is_some() {
            return None;
        }
        let named = named_in(numbers, &entry.place.window, request);
        let walked: Vec<String> = self.presses.iter().map(|(m, _)| m.to_string()).collect();
        let instead = if named.is_empty() {
            "act only on what the request asks for".to_string()
        } else {
            let named: Vec<String> = named
                .into_iter()
                .map(|(m, label)| format!("[{m}] {label}"))
                .collect();
            format!(
                "the request names, in its order: {}; act on those",
                named.join(", ")
            )
        };
        Some(format!(
            "not pressed: [{n}] is {}, which the request does not name, and the presses so far go through the elements one after another by number ({}). Do not press elements in turn; {instead}.",
            entry.label(),
            walked.join(", ")
        ))
    }

    /// The request the walk is for.
    pub fn request(&self) -> &str {
        &self.request
    }

    /// Starts again for another request.
    pub fn for_request(&mut self, request: &str) {
        if self.request != request {
            self.request = request.to_string();
            self.presses.clear();
            self.done.clear();
            self.held.clear();
            self.entered.clear();
            self.pressed.clear();
            self.chosen.clear();
            self.edits.clear();
        }
    }

    /// What the model answered the request does to `now` when `text` was set in its
    /// place, if it was asked.
    pub fn edit_of(&self, now: &str, text: &str) -> Option<Edit> {
        self.edits
            .iter()
            .find(|((n, t), _)| n == now && t == text)
            .map(|(_, e)| *e)
    }

    /// Keeps what the model answered (`edit_of`).
    pub fn edit_answered(&mut self, now: &str, text: &str, edit: Edit) {
        if self.edit_of(now, text).is_none() {
            self.edits.push(((now.to_string(), text.to_string()), edit));
        }
    }

    /// The keypad of `window` and the presses that key in what `request` gives there,
    /// while some are left (`keyed`).
    fn keying(&self, numbers: &Numbers, window: &str, request: &str) -> Option<(Keypad, Plan)> {
        let (pad, plan) = self.keypad_plan(numbers, window, request)?;
        (pad.progress(&plan, &self.pressed) < plan.steps.len()).then_some((pad, plan))
    }

    /// The keypad of `window` and its plan for `request`, with the keys chosen so far.
    fn keypad_plan(
        &self,
        numbers: &Numbers,
        window: &str,
        request: &str,
    ) -> Option<(Keypad, Plan)> {
        if request.trim().is_empty() || self.request != request {
            return None;
        }
        let pad = Keypad::of(numbers, window)?;
        let chosen: Vec<(usize, String)> = self
            .chosen
            .iter()
            .filter_map(|(at, name)| name.clone().map(|n| (*at, n)))
            .collect();
        let plan = pad.resolve(pad.plan(request)?, &chosen);
        Some((pad, plan))
    }

    /// The question to ask the model on its own for the next step between numbers of
    /// the keypad plan in `window` not asked yet (`Keypad::question`).
    pub fn keyed_question(
        &self,
        numbers: &Numbers,
        window: &str,
        request: &str,
    ) -> Option<(usize, String, Vec<String>)> {
        let (pad, plan) = self.keying(numbers, window, request)?;
        pad.question(&plan, window)
            .filter(|(at, _, _)| !self.chosen.iter().any(|(a, _)| a == at))
    }

    /// How far the keypad plan of element `n`'s window is keyed in, when `n` is one of
    /// its keys and some of it is left: a press of "0" after "1" and one after "10" are
    /// two steps of "100", not the same call made again.
    pub fn keyed_at(&self, numbers: &Numbers, n: u32, request: &str) -> Option<usize> {
        let window = &numbers.get(n).ok()?.place.window;
        let (pad, plan) = self.keying(numbers, window, request)?;
        pad.holds(n).then(|| pad.progress(&plan, &self.pressed))
    }

    /// Whether the last press, on element `n`, was the result key that ends the keypad
    /// plan of `window` for `request`, all of it keyed in order.
    pub fn keyed_result(&self, numbers: &Numbers, window: &str, request: &str, n: u32) -> bool {
        let Some((pad, plan)) = self.keypad_plan(numbers, window, request) else {
            return false;
        };
        matches!(plan.steps.last(), Some(crate::keyed::Step::Result(_)))
            && self.pressed.last() == Some(&n)
            && pad.progress(&plan, &self.pressed) == plan.steps.len()
    }

    /// The model's answer to `keyed_question` for step `at` (`None`: it gave none).
    pub fn chose(&mut self, at: usize, name: Option<String>) {
        self.chosen.push((at, name));
    }

    /// The keys the next press may be while the request's numbers are keyed in on the
    /// keypad of `window` (the next digit's, or those that are no digit), for the call
    /// after reading it; `None` when nothing is keyed there.
    pub fn keyed_next(&self, numbers: &Numbers, window: &str, request: &str) -> Option<Vec<u32>> {
        let (pad, plan) = self.keying(numbers, window, request)?;
        Some(pad.next(&plan, &self.pressed)).filter(|next| !next.is_empty())
    }

    /// The values `request` gives (by their shape, `values_given`) before word `at` that
    /// no text typed or set and no option chosen holds yet, leaving out those that name
    /// `window` or an element of any window read (its name or option: "OK", "City",
    /// "Apply" of the window a dialog came from).
    fn values_ahead(
        &self,
        numbers: &Numbers,
        window: &str,
        request: &str,
        at: usize,
    ) -> Vec<String> {
        // The window's application is no value either ("In FeatherPad, …"; seen: the
        // next call narrowed to FeatherPad's text again and again, "FeatherPad" never
        // typed, its Save never offered).
        let app = numbers
            .all()
            .find(|(_, e)| e.place.window == window)
            .map(|(_, e)| e.place.app.clone())
            .unwrap_or_default();
        let own = |v: &str| {
            crate::asked::names(window, v)
                || (!app.is_empty() && crate::asked::names(&app, v))
                || numbers.all().any(|(_, e)| {
                    crate::asked::names(&e.name, v)
                        || e.options.iter().any(|o| crate::asked::names(o, v))
                })
        };
        zeta_core::assist::checks::values_given(request)
            .into_iter()
            .filter(|v| named_at(request, v).is_some_and(|w| w < at))
            .filter(|v| !own(v))
            .filter(|v| {
                let v = v.to_lowercase();
                !self.entered.iter().any(|e| e.contains(&v))
            })
            .collect()
    }

    /// Why a press of button `n` (`entry`, at word `at` of the request, said `what`) waits
    /// for an earlier step: a step of the request before it names no element of its
    /// window ("add the line pears after apples" before "save the file" in an editor),
    /// and no act in that window went through yet. Seen on the GUI bench: Save pressed
    /// first in four editors out of four, disabled there, the text never changed. A
    /// button whose name ends in an ellipsis opens the window that step may be done in.
    fn step_first(
        &self,
        numbers: &Numbers,
        n: u32,
        entry: &Entry,
        request: &str,
        at: usize,
        what: &str,
    ) -> Option<String> {
        let window = &entry.place.window;
        let name = entry.name.trim();
        if name.ends_with('…') || name.ends_with("...") {
            return None;
        }
        if self.acted_in(numbers, window) {
            return None;
        }
        let step = crate::steps::unnamed_before(numbers, window, request, at)?;
        let takers: Vec<String> = Self::takers(numbers, window)
            .iter()
            .map(|(m, l)| format!("[{m}] {l}"))
            .collect();
        let where_ = if takers.is_empty() {
            String::new()
        } else {
            format!(" (it may be done in {})", takers.join(" or "))
        };
        let quoted = serde_json::to_string(name).ok()?;
        Some(format!(
            "not pressed yet: the request's step \"{step}\" comes before {what}, and no act in \"{window}\" went through yet. Do that step first{where_}; to press [{n}] all the same, call {{\"element\": {n}, \"action\": \"press\", \"text\": {quoted}}}."
        ))
    }

    /// `e` is a word read by OCR that shows text an act typed or set (seen: "call Bob"
    /// typed into a blank area, read back as a word the request names, and Save held
    /// for it).
    fn typed_there(&self, e: &Entry) -> bool {
        let name = e.name.trim().to_lowercase();
        matches!(e.key, crate::node::Key::Word { .. })
            && !name.is_empty()
            && self.entered.iter().any(|t| t.contains(&name))
    }

    /// An act went through on an element of `window`.
    fn acted_in(&self, numbers: &Numbers, window: &str) -> bool {
        self.done
            .iter()
            .any(|m| numbers.get(*m).is_ok_and(|e| e.place.window == window))
    }

    /// The elements of `window` a value goes in: those that take text, and combo boxes
    /// (a menu lists its items as options, and takes no value).
    fn takers(numbers: &Numbers, window: &str) -> Vec<(u32, String)> {
        numbers
            .all()
            .filter(|(_, e)| e.place.window == window && !e.role.contains("menu"))
            .filter(|(_, e)| e.takes == Takes::Text || !e.options.is_empty())
            .map(|(m, e)| (m, e.label()))
            .collect()
    }

    /// Why a press of `entry` (number `n`), a button the request names, is said before
    /// it is done: the request names, before it, elements of its window that take an
    /// act of their own (a field, a box to tick, a tab, a list's row: not another
    /// button) and no act went through on them yet. A button ends what is before it (a
    /// dialog's OK, Apply); seen: OK pressed on an empty form, Apply before Verbose was
    /// ticked. The window's default button stands where the request's step that names
    /// nothing there is ("… and confirm it", `steps::unnamed_step`; seen: OK pressed
    /// first on a password dialog, which closed empty). A call that names the button in
    /// its `text` is pressed all the same (the box was ticked already).
    pub fn ahead(&self, numbers: &Numbers, n: u32, entry: &Entry, request: &str) -> Option<String> {
        // A disabled button may have no action to read (Qt: FeatherPad's Save before
        // any change), and is held all the same.
        // A word read by OCR may be a button; it is held as one where the window has a
        // place a step before it may be done (its blank area: seen, xedit's Save pressed
        // three times for "type call Bob into the text and press its Save button").
        let read_word = matches!(entry.key, crate::node::Key::Word { .. })
            && !Self::takers(numbers, &entry.place.window).is_empty();
        let button = entry.takes == Takes::Press
            || entry.takes == Takes::Unknown && entry.role.ends_with("button")
            || read_word;
        if !button || request.trim().is_empty() || self.request != request {
            return None;
        }
        // Where the request has the button, and in what words.
        let (at, what) = match named_at(request, &entry.name) {
            Some(at) => (at, entry.label()),
            None => {
                let (step, m, _) =
                    crate::steps::unnamed_step(numbers, &entry.place.window, request)?;
                let at = named_at(request, &step).filter(|_| m == n)?;
                (at, format!("\"{step}\", which {} does", entry.label()))
            }
        };
        let mut before: Vec<(usize, String)> = numbers
            .all()
            .filter(|(m, e)| {
                *m != n
                    && e.place.window == entry.place.window
                    && !self.done.contains(m)
                    && !self.typed_there(e)
                    && e.role != "label"
                    && match e.takes {
                        Takes::Text | Takes::Toggle | Takes::Unknown => true,
                        // Another kind of element that is pressed (a list's row, a
                        // tab); buttons beside it are alternatives ("Yes or No"), and a
                        // button ends what is before it (FeatherPad's menu File held
                        // for its toolbar's Save, named before it in "save the file").
                        Takes::Press => e.role != entry.role && !e.role.ends_with("button"),
                    }
            })
            .filter_map(|(m, e)| {
                naming(request, e)
                    .filter(|w| *w < at)
                    .map(|w| (w, format!("[{m}] {}", e.label())))
            })
            .collect();
        let quoted = serde_json::to_string(entry.name.trim()).ok()?;
        if before.is_empty() {
            // A value the request gives before the window's default button, the one
            // that commits it, in a field it does not name (seen: "Type Lisbon into the
            // City dialog and press OK", the field "Your city", OK pressed first and the
            // dialog closed empty). Another button may open the window the value goes
            // in ("Type Kitchen as the label in the Set label dialog": "Set label…").
            let step_first = || self.step_first(numbers, n, entry, request, at, &what);
            if !entry.default {
                return step_first();
            }
            let window = &entry.place.window;
            let values = self.values_ahead(numbers, window, request, at);
            let takers = Self::takers(numbers, window);
            if values.is_empty() || takers.is_empty() {
                return step_first();
            }
            let values: Vec<String> = values.iter().map(|v| format!("\"{v}\"")).collect();
            let takers: Vec<String> = takers.iter().map(|(m, l)| format!("[{m}] {l}")).collect();
            return Some(format!(
                "not pressed yet: the request gives {} before {what}, and nothing typed or chosen in \"{window}\" holds it yet. Put it in {} first; to press [{n}] all the same, call {{\"element\": {n}, \"action\": \"press\", \"text\": {quoted}}}.",
                values.join(", "),
                takers.join(" or ")
            ));
        }
        before.sort();
        let before: Vec<String> = before.into_iter().map(|(_, label)| label).collect();
        Some(format!(
            "not pressed yet: the request names {} before {}, and no act went through on {} yet. Act on {} first; to press [{n}] all the same, call {{\"element\": {n}, \"action\": \"press\", \"text\": {quoted}}}.",
            before.join(", "),
            what,
            if before.len() == 1 { "it" } else { "them" },
            if before.len() == 1 { "it" } else { "them" },
        ))
    }

    /// An act on element `n` went through for `request`.
    pub fn done(&mut self, n: u32, request: &str) {
        self.for_request(request);
        if !self.done.contains(&n) {
            self.done.push(n);
        }
    }

    /// Element `n` (`entry`) acted on with `action` for `request`: noted as done when
    /// the act is what its kind is for (`fulfils`).
    pub fn acted(&mut self, n: u32, entry: &Entry, action: &Action, request: &str) {
        self.for_request(request);
        if let Action::SetText(t) | Action::Type(t) | Action::Select(t) = action {
            self.entered.push(t.to_lowercase());
        }
        if matches!(action, Action::Press | Action::Toggle) {
            self.pressed.push(n);
        }
        if fulfils(entry, action) {
            self.done(n, request);
        }
    }

    /// Element `n` (`entry`) acted on with `action`: the elements of its window that
    /// stand for the same command are done by it too. An item pressed in an open menu
    /// chose it from that menu (seen: Mousepad's File pressed, then its item Save, and
    /// the menu File that "the file" names left not acted on); a press of "Save", or
    /// "Save" chosen in a menu, did what the window's other "Save" does (seen:
    /// FeatherPad's menu item Save pressed, its toolbar's Save then pressed, disabled;
    /// read while disabled, it has no action the tree gives, `Takes::Unknown`).
    pub fn done_alike(
        &mut self,
        numbers: &Numbers,
        n: u32,
        entry: &Entry,
        action: &Action,
        request: &str,
    ) {
        if !fulfils(entry, action) {
            return;
        }
        let chosen = match action {
            Action::Select(option) => crate::asked::words(&option.replace('_', "")),
            Action::Press => crate::asked::words(&entry.name.replace('_', "")),
            _ => return,
        };
        if chosen.is_empty() {
            return;
        }
        let same = |name: &str| crate::asked::words(&name.replace('_', "")) == chosen;
        let item = entry.role.contains("menu item");
        let alike: Vec<u32> = numbers
            .all()
            .filter(|(m, e)| {
                *m != n
                    && e.place.window == entry.place.window
                    && (item && e.role == "menu" && e.options.iter().any(|o| same(o))
                        || matches!(e.takes, Takes::Press | Takes::Unknown)
                            && e.role != "menu"
                            && same(&e.name))
            })
            .map(|(m, _)| m)
            .collect();
        for m in alike {
            self.done(m, request);
        }
    }

    /// Why text for field `n` (`entry`) is held once: it is the field's own name, or
    /// begins with it and then more (seen: "password hunter2" typed into the field "Password" for
    /// "Type the password hunter2 into the Unlock dialog"). A field's name is not part of
    /// its text; the same call made again goes through, for a text that does begin so.
    pub fn named_text(
        &mut self,
        n: u32,
        entry: &Entry,
        text: &str,
        request: &str,
    ) -> Option<String> {
        self.for_request(request);
        let name = entry.name.trim();
        let text = text.trim();
        if name.chars().count() < 3 || !text.is_char_boundary(name.len().min(text.len())) {
            return None;
        }
        let (head, rest) = text.split_at(name.len().min(text.len()));
        let rest_starts = rest.starts_with(|c: char| c.is_whitespace() || c == ':' || c == '=');
        let rest = rest.trim_start_matches(|c: char| c.is_whitespace() || c == ':' || c == '=');
        let alone = text.eq_ignore_ascii_case(name);
        if !head.eq_ignore_ascii_case(name) || !alone && (!rest_starts || rest.is_empty()) {
            return None;
        }
        let call = (n, text.to_string());
        if self.held.contains(&call) {
            return None;
        }
        self.held.push(call);
        // The field's name alone as its text (seen: "Email" into the field "Email",
        // then OK, and "the email ada@example.com" claimed).
        if alone {
            return Some(format!(
                "not typed: {:?} is the name of [{n}] {} itself, not text for it: put in it the value the request gives for it; to type {:?} all the same, make the same call again",
                text,
                entry.label(),
                text
            ));
        }
        let meant = serde_json::to_string(rest).unwrap_or_default();
        Some(format!(
            "not typed: {:?} begins with the name of [{n}] {} itself, which is not part of its text. If the text to put in it is {meant}, the call is {{\"action\": \"set_text\", \"element\": {n}, \"text\": {meant}}}; to type {:?} as written, make the same call again",
            text,
            entry.label(),
            text
        ))
    }

    /// The words of `now`, what `entry` holds, that `request` names and `text`, put in
    /// place of all of it, leaves out; the window's own title and application are none.
    pub fn left_out_named(entry: &Entry, now: &str, text: &str, request: &str) -> Vec<String> {
        let kept = crate::asked::words(text);
        let place = crate::asked::words(&format!("{} {}", entry.place.window, entry.place.app));
        let mut dropped: Vec<String> = Vec::new();
        for w in crate::asked::words(now) {
            if !kept.contains(&w)
                && !place.contains(&w)
                && !dropped.contains(&w)
                && crate::asked::names(request, &w)
            {
                dropped.push(w);
            }
        }
        dropped
    }

    /// Why a set text for element `n` (`entry`) is held once: the element holds `now`,
    /// and `text`, which takes the place of all of it, leaves out words of it that the
    /// request names (seen: Mousepad's "milk" set to "eggs" for "add a line with the
    /// word eggs after milk", saved, and "added" answered). Whether such a word is to go
    /// ("change red to green") or stay is the request's meaning, so the model is shown
    /// what the text holds and what would be left out; the same call made again goes
    /// through. The window's own title and application are no such words.
    ///
    /// Where the model, asked on its own, said what the request does to the text
    /// (`edit`): a change goes through; an addition is held every time, told how to add
    /// instead (seen: "set_text pears" made again for "add the line pears after apples",
    /// FeatherPad saved holding "pears" alone).
    pub fn drops_named(
        &mut self,
        n: u32,
        entry: &Entry,
        now: &str,
        text: &str,
        request: &str,
        edit: Option<Edit>,
    ) -> Option<String> {
        self.for_request(request);
        let dropped = Self::left_out_named(entry, now, text, request);
        if dropped.is_empty() || edit == Some(Edit::Changes) {
            return None;
        }
        let dropped = dropped.join(", ");
        if let Some(Edit::Adds(side)) = edit {
            return Some(crate::edit::adds_instead(
                n,
                &entry.label(),
                now,
                text,
                &dropped,
                side,
            ));
        }
        let call = (n, format!("replace:{text}"));
        if self.held.contains(&call) {
            return None;
        }
        self.held.push(call);
        let quote =
            |s: &str| serde_json::to_string(&crate::outline::clip(s, 200)).unwrap_or_default();
        Some(format!(
            "not set yet: [{n}] {} holds {} now, and set_text puts {} in place of all of it, leaving out {dropped}, which the request names. Write in the call the whole text [{n}] is to hold once the request is done; if the request asks that {dropped} go, make the same call again",
            entry.label(),
            quote(now),
            quote(text),
        ))
    }

    /// The elements of `window` the request names, with whether an act went through on
    /// each, in the request's order: said after each act, so a model that lost its
    /// place reads what the request still names, and a step of it that names nothing
    /// there and is left (`step_left`). `None` outside a task, or when the request names
    /// nothing in the window and leaves no such step.
    pub fn named(&self, numbers: &Numbers, window: &str, request: &str) -> Option<String> {
        if let Some((pad, plan)) = self.keypad_plan(numbers, window, request) {
            // Once keyed in, a plan without a result to show (a PIN) leaves the rest to
            // what the request names (its OK).
            let result = matches!(plan.steps.last(), Some(crate::keyed::Step::Result(_)));
            if self.keying(numbers, window, request).is_some() || result {
                return Some(pad.said(&plan, &self.pressed));
            }
        }
        let Some(named) = self.named_now(numbers, window, request) else {
            return self
                .step_left_said(numbers, window, request)
                .map(|step| format!("{step}."));
        };
        let all_done = named.iter().all(|(m, _)| self.done.contains(m));
        let each: Vec<String> = named
            .into_iter()
            .map(|(m, label)| {
                let state = if self.done.contains(&m) {
                    "acted on"
                } else {
                    "not acted on yet"
                };
                format!("[{m}] {label} ({state})")
            })
            .collect();
        let mut said = format!("The request names: {}.", each.join(", "));
        match self.step_left_said(numbers, window, request) {
            Some(step) if all_done => {
                said.push_str(&format!(" Every element it names has been acted on. {step}."));
            }
            _ if all_done => said.push_str(
                " Every element it names has been acted on: if the window now shows what the request asks for, answer the user; if not, act on what is left.",
            ),
            _ => {}
        }
        Some(said)
    }

    /// The elements of `window` the current `request` names that no act went through on
    /// yet, in its order; where any of them takes an act of its own (a field, a box, a
    /// row), those alone: a button ends what is before it. With a step left that names
    /// nothing there (`step_left`), its default button when nothing else is left.
    pub fn left_named(&self, numbers: &Numbers, window: &str, request: &str) -> Vec<u32> {
        // A keypad the request's numbers are keyed in on: its plan is what is left
        // (seen: mate-calc's result shown, then the call narrowed to its display, for
        // the values no text held, and "92" typed into it).
        if self.keypad_plan(numbers, window, request).is_some() {
            return self
                .keyed_next(numbers, window, request)
                .unwrap_or_default();
        }
        // A step that names nothing there comes first, and nothing was done there yet
        // (`step_first`): where it may be done, not the button it comes before (seen:
        // l3afpad's and Mousepad's File menu held, then offered alone, as a menu the request
        // names, and pressed twice more).
        let takers: Vec<u32> = Self::takers(numbers, window)
            .into_iter()
            .map(|(m, _)| m)
            .collect();
        let step_first = !self.acted_in(numbers, window)
            && crate::steps::unnamed_before(numbers, window, request, usize::MAX).is_some();
        if step_first && !takers.is_empty() {
            return takers;
        }
        let own: Vec<u32> = self
            .unacted(numbers, window, request)
            .into_iter()
            .map(|(m, _)| m)
            .collect();
        if !own.is_empty() {
            return own;
        }
        // Values the request gives that nothing holds yet: where they go.
        let values_left = !self
            .values_ahead(numbers, window, request, usize::MAX)
            .is_empty();
        if values_left && !takers.is_empty() {
            return takers;
        }
        let left: Vec<u32> = self
            .named_now(numbers, window, request)
            .unwrap_or_default()
            .into_iter()
            .map(|(m, _)| m)
            .filter(|m| !self.done.contains(m))
            .collect();
        if left.is_empty() {
            return self
                .step_left(numbers, window, request)
                .map(|(_, m, _)| vec![m])
                .unwrap_or_default();
        }
        left
    }

    /// The elements of `window` the current `request` names that take an act of their
    /// own (a field, a box, a row, a combo box: not a button) and no act went through
    /// on, in its order, with their labels. Said when the window closes with them left
    /// (seen: a password dialog's OK pressed first, and "The password has been set").
    pub fn unacted(&self, numbers: &Numbers, window: &str, request: &str) -> Vec<(u32, String)> {
        self.named_now(numbers, window, request)
            .unwrap_or_default()
            .into_iter()
            .filter(|(m, _)| !self.done.contains(m))
            .filter(|(m, _)| {
                numbers.get(*m).is_ok_and(|e| {
                    e.takes != Takes::Press || !matches!(e.role.as_str(), "push button" | "button")
                })
            })
            .collect()
    }

    /// Whether the request names elements of `window`, an act went through on each, and
    /// no step of it that names nothing there is left (`step_left`).
    pub fn all_named_done(&self, numbers: &Numbers, window: &str, request: &str) -> bool {
        self.keying(numbers, window, request).is_none()
            && self
                .named_now(numbers, window, request)
                .is_some_and(|named| named.iter().all(|(m, _)| self.done.contains(m)))
            && self.step_left(numbers, window, request).is_none()
    }

    /// A step of the current `request` that names nothing in `window` ("confirm it"),
    /// while the window's default button, which does it, has had no act go through
    /// (`steps::unnamed_step`): the step's words, the button's number and label.
    pub fn step_left(
        &self,
        numbers: &Numbers,
        window: &str,
        request: &str,
    ) -> Option<(String, u32, String)> {
        if request.trim().is_empty() || self.request != request {
            return None;
        }
        let (step, m, default) = crate::steps::unnamed_step(numbers, window, request)?;
        (!self.done.contains(&m)).then(|| (step, m, default.label()))
    }

    /// `step_left` as the model reads it after an act.
    fn step_left_said(&self, numbers: &Numbers, window: &str, request: &str) -> Option<String> {
        let (step, m, label) = self.step_left(numbers, window, request)?;
        Some(format!(
            "The request also says \"{step}\", which names no element of \"{window}\"; its default button, [{m}] {label} (the one Enter presses), does that, and it has not been pressed"
        ))
    }

    /// The elements of `window` the current `request` names; `None` outside a task, for
    /// another request, or when it names none.
    fn named_now(
        &self,
        numbers: &Numbers,
        window: &str,
        request: &str,
    ) -> Option<Vec<(u32, String)>> {
        if request.trim().is_empty() || self.request != request {
            return None;
        }
        let named: Vec<(u32, String)> = named_in(numbers, window, request)
            .into_iter()
            .filter(|(m, _)| numbers.get(*m).is_ok_and(|e| !self.typed_there(e)))
            .collect();
        Some(named).filter(|named| !named.is_empty())
    }

    /// The last `STEPS` presses follow one another up to `n`, over elements of more than
    /// one kind (with `role`'s).
    fn walking(&self, n: u32, role: &str) -> bool {
        let Some(last) = self.presses.len().checked_sub(STEPS) else {
            return false;
        };
        let run = &self.presses[last..];
        let numbers: Vec<u32> = run.iter().map(|(m, _)| *m).chain([n]).collect();
        let follow = numbers
            .windows(2)
            .all(|w| w[1] > w[0] && w[1] - w[0] <= STRIDE);
        let kinds = run.iter().any(|(_, r)| r != role);
        follow && kinds
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::node::{Key, Node};
    use crate::numbers::Place;

    /// A window's elements, numbered in order: (role, name) each.
    fn window(numbers: &mut Numbers, elements: &[(&str, &str)]) -> Vec<u32> {
        let place = Place {
            window: "Options".into(),
            ..Place::default()
        };
        elements
            .iter()
            .enumerate()
            .map(|(i, (role, name))| {
                let mut node = Node::new(
                    Key::Tree {
                        bus: ":1.1".into(),
                        path: format!("/{i}"),
                    },
                    *role,
                    *name,
                );
                node.actions = vec!["click".into()];
                numbers.number(&node, &place)
            })
            .collect()
    }

    /// Presses `ns` in turn: the numbers that were held.
    fn held(walk: &mut Walk, numbers: &Numbers, ns: &[u32], request: &str) -> Vec<u32> {
        ns.iter()
            .copied()
            .filter(|n| {
                let entry = numbers.get(*n).expect("numbered").clone();
                walk.press(numbers, *n, &entry, request).is_some()
            })
            .collect()
    }

    const SETTINGS: &[(&str, &str)] = &[
        ("page tab list", ""),
        ("page tab", "General"),
        ("spin button", "Copies"),
        ("text", "Title"),
        ("page tab", "Advanced"),
        ("label", "Label: (none)"),
        ("push button", "Set label…"),
        ("push button", "Apply"),
        ("push button", "OK"),
        ("check box", "Verbose"),
    ];
    const REQUEST: &str =
        "In the Options window, open the Advanced tab, tick Verbose, then press Apply";

    #[test]
    fn a_walk_over_the_numbers_is_held_at_the_first_element_the_request_does_not_name() {
        let mut numbers = Numbers::default();
        let w = window(&mut numbers, SETTINGS);
        let mut walk = Walk::default();
        // The walk the model took: every element from 1. What the request names goes
        // through (Advanced, Apply, Verbose); the rest is held from the fourth press.
        let all: Vec<u32> = w.clone();
        assert_eq!(
            held(&mut walk, &numbers, &all, REQUEST),
            vec![w[3], w[5], w[6], w[8]]
        );
        let mut walk = Walk::default();
        for n in &w[..3] {
            let entry = numbers.get(*n).expect("numbered").clone();
            assert_eq!(walk.press(&numbers, *n, &entry, REQUEST), None);
        }
        let entry = numbers.get(w[3]).expect("numbered").clone();
        let why = walk.press(&numbers, w[3], &entry, REQUEST).expect("held");
        assert!(
            why.contains(&format!(
                "in its order: [{}] page tab \"Advanced\", [{}] check box \"Verbose\", [{}] push button \"Apply\"",
                w[4], w[9], w[7]
            )),
            "{why}"
        );
    }

    #[test]
    fn presses_that_skip_about_ticks_down_a_list_or_no_request_are_no_walk() {
        let mut numbers = Numbers::default();
        let w = window(&mut numbers, SETTINGS);
        // What the request names, in any order, with the odd other element between.
        let mut walk = Walk::default();
        let named = [w[4], w[9], w[7], w[2], w[1]];
        assert_eq!(
            held(&mut walk, &numbers, &named, REQUEST),
            Vec::<u32>::new()
        );
        // Every box of a list, in turn: one kind of element.
        let mut list = Numbers::default();
        let boxes = window(
            &mut list,
            &[
                ("check box", "Olives"),
                ("check box", "Ham"),
                ("check box", "Cheese"),
                ("check box", "Onion"),
                ("check box", "Basil"),
                ("push button", "OK"),
            ],
        );
        let mut walk = Walk::default();
        assert_eq!(
            held(
                &mut walk,
                &list,
                &boxes,
                "tick every topping, then press OK"
            ),
            Vec::<u32>::new()
        );
        // Outside a task nothing is held.
        let mut walk = Walk::default();
        assert_eq!(held(&mut walk, &numbers, &w, ""), Vec::<u32>::new());
        // A new request starts again.
        let mut walk = Walk::default();
        held(&mut walk, &numbers, &w[..3], "something else");
        assert_eq!(
            held(&mut walk, &numbers, &w[3..4], REQUEST),
            Vec::<u32>::new()
        );
    }

    #[test]
    fn after_each_act_the_model_reads_what_the_request_names_and_what_was_acted_on() {
        let mut numbers = Numbers::default();
        let w = window(&mut numbers, SETTINGS);
        let mut walk = Walk::default();
        walk.done(w[4], REQUEST);
        walk.done(w[2], REQUEST);
        assert_eq!(
            walk.named(&numbers, "Options", REQUEST).as_deref(),
            Some(
                format!(
                    "The request names: [{}] page tab \"Advanced\" (acted on), [{}] check box \"Verbose\" (not acted on yet), [{}] push button \"Apply\" (not acted on yet).",
                    w[4], w[9], w[7]
                )
                .as_str()
            )
        );
        // Another window, another request, or none: nothing to say.
        // Once every one has been: the model is told so.
        walk.done(w[9], REQUEST);
        walk.done(w[7], REQUEST);
        let all = walk.named(&numbers, "Options", REQUEST).expect("said");
        assert!(
            all.contains("Every element it names has been acted on"),
            "{all}"
        );
        assert_eq!(walk.named(&numbers, "Other", REQUEST), None);
        assert_eq!(walk.named(&numbers, "Options", "press OK"), None);
        assert_eq!(walk.named(&numbers, "Options", ""), None);
    }

    /// The settings window with roles as GTK gives them: tabs take no action, the check
    /// box toggles, the field takes text.
    fn gtk(numbers: &mut Numbers) -> Vec<u32> {
        let place = Place {
            window: "Options".into(),
            ..Place::default()
        };
        [
            ("page tab", "Advanced", false, false, false),
            ("text", "Title", false, true, false),
            ("check box", "Verbose", true, false, true),
            ("push button", "Apply", false, false, true),
            ("label", "Apply changes now", false, false, false),
        ]
        .into_iter()
        .enumerate()
        .map(|(i, (role, name, checkable, editable, acts))| {
            let mut node = Node::at(&format!("/gtk/{i}"), role, name);
            node.states.checkable = checkable;
            node.states.editable = editable;
            if acts {
                node.actions = vec!["click".into()];
            }
            numbers.number(&node, &place)
        })
        .collect()
    }

    #[test]
    fn a_button_the_request_names_after_what_is_not_done_yet_is_said_first() {
        let mut numbers = Numbers::default();
        let w = gtk(&mut numbers);
        let entry = |n: u32| numbers.get(n).expect("numbered").clone();
        let mut walk = Walk::default();
        // A press noted for the request (as `press` does first).
        walk.press(&numbers, w[3], &entry(w[3]), REQUEST);
        let why = walk
            .ahead(&numbers, w[3], &entry(w[3]), REQUEST)
            .expect("Apply before the tab and Verbose");
        assert!(
            why.contains(&format!(
                "names [{}] page tab \"Advanced\", [{}] check box \"Verbose\" before push button \"Apply\"",
                w[0], w[2]
            )) && why.contains(r#""text": "Apply""#),
            "{why}"
        );
        walk.done(w[0], REQUEST);
        assert!(walk.ahead(&numbers, w[3], &entry(w[3]), REQUEST).is_some());
        walk.done(w[2], REQUEST);
        assert_eq!(walk.ahead(&numbers, w[3], &entry(w[3]), REQUEST), None);
        // What is not a named button is not held; nor is anything outside a task, or a
        // request that names the button first.
        let mut fresh = Walk::default();
        fresh.done(w[1], REQUEST);
        assert_eq!(fresh.ahead(&numbers, w[2], &entry(w[2]), REQUEST), None);
        // Another button named first is an alternative, not a step before.
        let either = "Press Apply or Verbose";
        let mut other = Numbers::default();
        let place = Place {
            window: "Options".into(),
            ..Place::default()
        };
        let buttons: Vec<u32> = ["Verbose", "Apply"]
            .iter()
            .map(|name| {
                let mut node = Node::new(
                    Key::Tree {
                        bus: ":1.1".into(),
                        path: format!("/b/{name}"),
                    },
                    "push button",
                    *name,
                );
                node.actions = vec!["click".into()];
                other.number(&node, &place)
            })
            .collect();
        let apply = other.get(buttons[1]).expect("numbered").clone();
        fresh.done(buttons[0] + 100, either);
        assert_eq!(fresh.ahead(&other, buttons[1], &apply, either), None);
        let first = "Press Apply, then tick Verbose";
        fresh.done(w[1], first);
        assert_eq!(fresh.ahead(&numbers, w[3], &entry(w[3]), first), None);
        assert_eq!(
            Walk::default().ahead(&numbers, w[3], &entry(w[3]), ""),
            None
        );
    }

    #[test]
    fn a_lists_rows_the_request_names_before_ok_hold_ok_until_acted_on() {
        // zenity's checklist: rows whose cells are pressed, then Cancel and OK.
        let mut numbers = Numbers::default();
        let w = window(
            &mut numbers,
            &[
                ("table cell", "Olives"),
                ("table cell", "Ham"),
                ("table cell", "Onion"),
                ("push button", "Cancel"),
                ("push button", "OK"),
            ],
        );
        let request = "In the Toppings dialog, tick Olives and Ham, then press OK";
        let ok = numbers.get(w[4]).expect("numbered").clone();
        let mut walk = Walk::default();
        walk.press(&numbers, w[4], &ok, request);
        let why = walk.ahead(&numbers, w[4], &ok, request).expect("held");
        assert!(
            why.contains("\"Olives\"") && why.contains("\"Ham\"") && !why.contains("Onion"),
            "{why}"
        );
        walk.done(w[0], request);
        walk.done(w[1], request);
        assert_eq!(walk.ahead(&numbers, w[4], &ok, request), None);
    }

    /// An element named as its window is titled is not named by the request's naming
    /// of the window; said twice, it is.
    #[test]
    fn the_windows_own_title_names_the_window_not_an_element_of_it() {
        let mut numbers = Numbers::default();
        let place = Place {
            window: "Size".into(),
            ..Place::default()
        };
        let mut number = |role: &str, name: &str| {
            let mut node = Node::at(&format!("/{name}"), role, name);
            node.actions = vec!["click".into()];
            numbers.number(&node, &place)
        };
        let (header, large, ok) = (
            number("table column header", "Size"),
            number("table cell", "Large"),
            number("push button", "OK"),
        );
        let request = "Choose Large in the Size dialog and press OK";
        let mut walk = Walk::default();
        walk.done(large, request);
        let entry = numbers.get(ok).expect("numbered").clone();
        assert_eq!(walk.ahead(&numbers, ok, &entry, request), None);
        let twice = "In the Size dialog, sort by Size and press OK";
        walk.done(large, twice);
        let why = walk.ahead(&numbers, ok, &entry, twice).expect("held");
        assert!(why.contains(&format!("[{header}]")), "{why}");
    }

    #[test]
    fn a_dialogs_question_is_text_not_an_element_to_act_on() {
        let mut numbers = Numbers::default();
        let place = Place {
            window: "Draft".into(),
            ..Place::default()
        };
        let mut number = |role: &str, name: &str, acts: bool| {
            let mut node = Node::new(
                Key::Tree {
                    bus: ":1.1".into(),
                    path: format!("/q/{name}"),
                },
                role,
                name,
            );
            if acts {
                node.actions = vec!["click".into()];
            }
            numbers.number(&node, &place)
        };
        number("label", "Delete the draft?", false);
        // Qt's question label has actions of its own.
        number("label", "Start the backup now?", true);
        let no = number("push button", "No", true);
        number("push button", "Yes", true);
        let request = "The Draft dialog asks whether to delete the draft: answer No";
        let mut walk = Walk::default();
        walk.done(no, request);
        assert!(walk.all_named_done(&numbers, "Draft", request));
        let qt = "The Backup dialog asks: Start the backup now? Answer No";
        let entry = numbers.get(no).expect("numbered").clone();
        let mut walk = Walk::default();
        walk.press(&numbers, no, &entry, qt);
        assert_eq!(walk.ahead(&numbers, no, &entry, qt), None);
        walk.done(no, qt);
        assert!(walk.all_named_done(&numbers, "Draft", qt));
    }

    /// An element of `role` ("text" takes text, "slider" a value, "combo box" lists
    /// options, "check box" ticks, the rest are pressed).
    fn one(role: &str, name: &str) -> Entry {
        let mut node = Node::at(&format!("/{role}"), role, name);
        match role {
            "text" => node.states.editable = true,
            "slider" => node.abilities.value = true,
            "check box" => node.states.checkable = true,
            "combo box" => {
                node.actions = vec!["press".into()];
                node.options = vec!["Red".into(), "Blue".into()];
            }
            // Its options not read: a press action alone.
            "qt combo box" => {
                node.role = "combo box".into();
                node.actions = vec!["showmenu".into(), "press".into()];
            }
            _ => node.actions = vec!["click".into()],
        }
        let mut numbers = Numbers::default();
        let n = numbers.number(&node, &Place::default());
        numbers.get(n).expect("numbered").clone()
    }

    /// Only the act an element's kind is for counts as done on it: a press of a slider
    /// or a field, or of a combo box (which opens it), is not; every kind × every act.
    #[test]
    fn an_element_is_acted_on_only_by_the_act_its_kind_is_for() {
        let text = || "x".to_string();
        let acts = [
            ("press", Action::Press),
            ("toggle", Action::Toggle),
            ("focus", Action::Focus),
            ("scroll", Action::ScrollIntoView),
            ("set_text", Action::SetText(text())),
            ("type", Action::Type(text())),
            ("select", Action::Select("Blue".into())),
        ];
        // (role, the acts that fulfil it)
        let kinds: &[(&str, &[&str])] = &[
            ("text", &["set_text", "type", "select"]),
            ("slider", &["set_text", "type", "select"]),
            ("combo box", &["select"]),
            ("qt combo box", &["select"]),
            ("check box", &["press", "toggle", "select"]),
            ("push button", &["press", "toggle", "select"]),
        ];
        let mut wrong = Vec::new();
        for (role, fit) in kinds {
            let entry = one(role, "It");
            for (name, action) in &acts {
                if fulfils(&entry, action) != fit.contains(name) {
                    wrong.push(format!("{role} × {name}"));
                }
            }
        }
        assert!(wrong.is_empty(), "{wrong:?}");
        // Through the walk: the slider pressed is still "not acted on yet".
        let mut numbers = Numbers::default();
        let place = Place {
            window: "Volume".into(),
            ..Place::default()
        };
        let mut slider = Node::at("/s", "slider", "Volume");
        slider.abilities.value = true;
        let mut ok = Node::at("/ok", "push button", "OK");
        ok.actions = vec!["click".into()];
        let (s, o) = (numbers.number(&slider, &place), numbers.number(&ok, &place));
        let request = "Set the Volume slider to 65 and press OK";
        let mut walk = Walk::default();
        for (n, action) in [(s, Action::Press), (o, Action::Press)] {
            let entry = numbers.get(n).expect("numbered").clone();
            walk.acted(n, &entry, &action, request);
        }
        assert!(!walk.all_named_done(&numbers, "Volume", request));
        let entry = numbers.get(s).expect("numbered").clone();
        walk.acted(s, &entry, &Action::SetText("65".into()), request);
        assert!(walk.all_named_done(&numbers, "Volume", request));
    }

    /// Text that begins with its field's own name and then more is held once, with the
    /// call without the name; the same call again goes through. Families of names,
    /// separators and values; and texts that only share a start are not held.
    #[test]
    fn text_beginning_with_its_field_s_name_is_held_once() {
        let mut missed = Vec::new();
        for name in ["Password", "Name", "Email", "Room code", "City"] {
            let field = one("text", name);
            for sep in [" ", ": ", ":", " = ", "  "] {
                for value in ["hunter2", "Ada Lovelace", "4217", "x"] {
                    let text = format!("{}{sep}{value}", name.to_lowercase());
                    let mut walk = Walk::default();
                    match walk.named_text(3, &field, &text, "the request") {
                        Some(why) if why.contains(&format!("\"text\": \"{value}\"")) => {}
                        other => missed.push(format!("{text:?}: {other:?}")),
                    }
                    if walk.named_text(3, &field, &text, "the request").is_some() {
                        missed.push(format!("{text:?}: held twice"));
                    }
                }
            }
            // The name alone: held once, then typed.
            let mut walk = Walk::default();
            for alone in [name.to_string(), name.to_uppercase()] {
                match walk.named_text(3, &field, &alone, "the request") {
                    Some(why) if why.contains("is the name of [3]") => {}
                    other => missed.push(format!("{alone:?} alone: {other:?}")),
                }
                if walk.named_text(3, &field, &alone, "the request").is_some() {
                    missed.push(format!("{alone:?}: held twice"));
                }
            }
            // Not held: the value alone, a word that only starts alike.
            for text in [
                "hunter2".to_string(),
                format!("{}s", name.to_lowercase()),
                format!("{}ville", name),
            ] {
                if let Some(why) = Walk::default().named_text(3, &field, &text, "r") {
                    missed.push(format!("false alarm {text:?}: {why}"));
                }
            }
        }
        assert!(missed.is_empty(), "{}", missed.join("\n"));
    }

    /// An act on one element does what its like in the same window does: a menu's item
    /// pressed, the menu holding it; "Save" pressed or chosen, the toolbar's "Save"; not
    /// an element of another name, nor of another window.
    #[test]
    fn an_act_does_what_its_like_in_the_window_does() {
        let place = Place {
            window: "list.txt - FeatherPad".into(),
            ..Place::default()
        };
        let mut numbers = Numbers::default();
        let mut node = |path: &str, role: &str, name: &str, options: &[&str], window: &Place| {
            let mut n = Node::at(path, role, name);
            n.actions = vec!["click".into()];
            n.options = options.iter().map(|o| o.to_string()).collect();
            numbers.number(&n, window)
        };
        let file = node("/file", "menu", "File", &["New", "_Save", "Quit"], &place);
        let item = node("/item", "menu item", "Save", &[], &place);
        let button = node("/button", "push button", "Save", &[], &place);
        let quit = node("/quit", "push button", "Quit", &[], &place);
        let elsewhere = Place {
            window: "other.txt - FeatherPad".into(),
            ..Place::default()
        };
        let other = node("/other", "push button", "Save", &[], &elsewhere);
        let request = "In FeatherPad, add the line pears after apples and save the file";
        let mut walk = Walk::default();
        let entry = numbers.get(item).expect("numbered").clone();
        walk.acted(item, &entry, &Action::Press, request);
        walk.done_alike(&numbers, item, &entry, &Action::Press, request);
        assert_eq!(walk.done, vec![item, file, button]);
        assert!(!walk.done.contains(&quit) && !walk.done.contains(&other));
        // Chosen in the menu: the item and the toolbar's button, not the menu's others.
        let mut walk = Walk::default();
        let entry = numbers.get(file).expect("numbered").clone();
        let save = Action::Select("Save".into());
        walk.acted(file, &entry, &save, request);
        walk.done_alike(&numbers, file, &entry, &save, request);
        assert_eq!(walk.done, vec![file, item, button]);
        // A press that does not do what the element is for does nothing for its like.
        let mut walk = Walk::default();
        walk.done_alike(&numbers, file, &entry, &Action::Press, request);
        assert!(walk.done.is_empty());
    }

    /// Text set in place of a text that holds a word the request names, leaving it out,
    /// is held once with both texts; the same call again goes through. Families of
    /// values, of what the element holds and of the new text; not held where the new text
    /// keeps the word, where the request names only the new value, or where the word is
    /// the window's own title.
    #[test]
    fn set_text_leaving_out_a_word_the_request_names_is_held_once() {
        let mut field = one("text", "");
        field.place.window = "/home/ada/notes.txt - Mousepad".into();
        field.place.app = "mousepad".into();
        let mut missed = Vec::new();
        let mut held = 0;
        let mut passed = 0;
        for (old, new) in [
            ("milk", "eggs"),
            ("apples", "pears"),
            ("draft", "final"),
            ("red", "green"),
            ("Monday", "Friday"),
        ] {
            let requests = [
                format!("In the Mousepad window, add a line with the word {new} after {old}, and save the file"),
                format!("Add {new} under {old} in the editor and save it"),
                format!("Change the text from {old} to {new}, then save it"),
                format!("Make the document say {new} instead of {old}"),
            ];
            let befores = [
                old.to_string(),
                format!("{old}\n"),
                format!("colour: {old}\n"),
                format!("- {old}\n- bread\n"),
            ];
            for request in &requests {
                for before in &befores {
                    let leaving = [new.to_string(), before.replace(old, new)];
                    let keeping = [
                        format!("{}\n{new}", before.trim_end()),
                        format!("{new}\n{before}"),
                        format!("{}, {new}", before.trim_end()),
                    ];
                    for text in &leaving {
                        let mut walk = Walk::default();
                        match walk.drops_named(3, &field, before, text, request, None) {
                            Some(why)
                                if why.contains(&format!("leaving out {}", old.to_lowercase()))
                                    && why.contains("make the same call again") =>
                            {
                                held += 1
                            }
                            other => {
                                missed.push(format!("{request:?} {before:?} → {text:?}: {other:?}"))
                            }
                        }
                        if walk
                            .drops_named(3, &field, before, text, request, None)
                            .is_some()
                        {
                            missed.push(format!("{request:?} {text:?}: held twice"));
                        }
                    }
                    for text in &keeping {
                        match Walk::default().drops_named(3, &field, before, text, request, None) {
                            None => passed += 1,
                            Some(why) => missed.push(format!("false alarm {text:?}: {why}")),
                        }
                    }
                }
            }
            // The request names only the new value: what was there is not its concern.
            let only_new = format!("Type {new} into the text field");
            for before in &befores {
                if let Some(why) =
                    Walk::default().drops_named(3, &field, before, new, &only_new, None)
                {
                    missed.push(format!("false alarm, {old} not named: {why}"));
                }
            }
        }
        // The window's title words are no value of the request's.
        let request = "In the notes.txt window, type hello";
        if let Some(why) = Walk::default().drops_named(3, &field, "notes", "hello", request, None) {
            missed.push(format!("false alarm on the title: {why}"));
        }
        assert!(missed.is_empty(), "{}", missed.join("\n"));
        assert_eq!((held, passed), (160, 240));
    }

    /// With the model's answer of what the request does to the text: a change goes
    /// through at once; an addition is held every time, told how to add (a `type` call
    /// after, the whole text before), never to make the same call again.
    #[test]
    fn set_text_leaving_out_a_named_word_follows_what_the_request_does_to_the_text() {
        use crate::edit::Side;
        let field = one("text", "");
        let mut missed = Vec::new();
        for (old, new) in [("milk", "eggs"), ("apples", "pears"), ("draft", "final")] {
            let request = format!("Put {new} next to {old} in the editor");
            let mut walk = Walk::default();
            let changes = Some(Edit::Changes);
            if let Some(why) = walk.drops_named(3, &field, old, new, &request, changes) {
                missed.push(format!("a change held: {why}"));
            }
            for side in [Side::After, Side::Before] {
                let mut walk = Walk::default();
                for _ in 0..3 {
                    match walk.drops_named(3, &field, old, new, &request, Some(Edit::Adds(side))) {
                        Some(why)
                            if !why.contains("same call again")
                                && why.contains(&format!("leaving out {old}"))
                                && why.contains("\"type\"") == (side == Side::After) => {}
                        other => missed.push(format!("{side:?} {old} → {new}: {other:?}")),
                    }
                }
                // The whole text, kept: through.
                let whole = format!("{old}\n{new}");
                if let Some(why) =
                    walk.drops_named(3, &field, old, &whole, &request, Some(Edit::Adds(side)))
                {
                    missed.push(format!("whole text held: {why}"));
                }
            }
        }
        assert!(missed.is_empty(), "{}", missed.join("\n"));
    }

    /// What the next call is narrowed to after a held press: the named elements not done
    /// yet, those that take an act of their own first, the buttons after them.
    #[test]
    fn the_named_elements_left_put_what_takes_an_act_of_its_own_before_buttons() {
        let mut numbers = Numbers::default();
        let ns = window(&mut numbers, SETTINGS);
        let mut walk = Walk::default();
        walk.for_request(REQUEST);
        let (advanced, verbose, apply) = (ns[4], ns[9], ns[7]);
        assert_eq!(
            walk.left_named(&numbers, "Options", REQUEST),
            [advanced, verbose]
        );
        walk.done(advanced, REQUEST);
        assert_eq!(walk.left_named(&numbers, "Options", REQUEST), [verbose]);
        walk.done(verbose, REQUEST);
        assert_eq!(walk.left_named(&numbers, "Options", REQUEST), [apply]);
        walk.done(apply, REQUEST);
        assert!(walk.left_named(&numbers, "Options", REQUEST).is_empty());
        assert!(walk
            .left_named(&numbers, "Options", "another request")
            .is_empty());
    }

    /// "Confirm it" names nothing in the Unlock dialog: after the password was typed the
    /// request is not met, and the model reads which button does the step left; once
    /// the default was pressed, it is met.
    /// Numbers an element of `role` in `window`: a button clicked (the default one when
    /// `default`), text editable, a combo box with `options`.
    fn number_in(
        numbers: &mut Numbers,
        window: &str,
        (role, name, default): (&str, &str, bool),
        options: &[&str],
    ) -> u32 {
        let place = Place {
            window: window.into(),
            ..Place::default()
        };
        let mut node = Node::new(
            Key::Tree {
                bus: ":1.1".into(),
                path: format!("/{window}/{name}"),
            },
            role,
            name,
        );
        match role {
            "push button" | "menu" => node.actions = vec!["click".into()],
            "combo box" => node.actions = vec!["press".into()],
            _ => node.states.editable = role.ends_with("text"),
        }
        node.options = options.iter().map(|o| o.to_string()).collect();
        node.states.default = default;
        numbers.number(&node, &place)
    }

    /// `ahead` for a first press of `n` in a walk of its own.
    fn fresh_ahead(numbers: &Numbers, n: u32, entry: &Entry, request: &str) -> Option<String> {
        let mut walk = Walk::default();
        walk.press(numbers, n, entry, request);
        walk.ahead(numbers, n, entry, request)
    }

    /// The Unlock dialog: its password field, Cancel, and OK (the default).
    fn unlock(numbers: &mut Numbers) -> (u32, u32) {
        let field = number_in(numbers, "Unlock", ("password text", "Password", false), &[]);
        number_in(numbers, "Unlock", ("push button", "Cancel", false), &[]);
        let ok = number_in(numbers, "Unlock", ("push button", "OK", true), &[]);
        (field, ok)
    }

    /// The default button stands where the step that names nothing is ("… and confirm
    /// it"): pressed before the field the request names first, it is held, whatever the
    /// phrasing; after the field, or for a request without such a step, it is not. A
    /// window closed by it is closed without the field (`unacted`).
    #[test]
    fn the_default_standing_for_an_unnamed_step_is_held_until_what_comes_before_is_done() {
        let mut numbers = Numbers::default();
        let (field, ok) = unlock(&mut numbers);
        let field_entry = numbers.get(field).expect("numbered").clone();
        let ok_entry = numbers.get(ok).expect("numbered").clone();
        for request in [
            "Enter the password hunter2 in the Unlock dialog and confirm it",
            "Put hunter2 in the password box and accept the dialog",
            "Fill in the password hunter2, then submit",
            "In the Unlock dialog type the password hunter2 and then finish it",
        ] {
            let mut walk = Walk::default();
            walk.press(&numbers, ok, &ok_entry, request);
            let why = walk.ahead(&numbers, ok, &ok_entry, request);
            let why = why.unwrap_or_else(|| panic!("not held for {request:?}"));
            assert!(
                why.contains(&format!("[{field}] password text \"Password\"")),
                "{why}"
            );
            assert_eq!(
                walk.unacted(&numbers, "Unlock", request),
                [(field, "password text \"Password\"".to_string())],
                "{request}"
            );
            walk.acted(
                field,
                &field_entry,
                &Action::SetText("hunter2".into()),
                request,
            );
            assert_eq!(
                walk.ahead(&numbers, ok, &ok_entry, request),
                None,
                "{request}"
            );
            assert!(walk.unacted(&numbers, "Unlock", request).is_empty());
        }
        // No step naming nothing: OK stands for nothing the request says.
        for request in [
            "Type the password hunter2 into the Unlock dialog",
            "Confirm the Unlock dialog after the password hunter2",
        ] {
            assert_eq!(
                fresh_ahead(&numbers, ok, &ok_entry, request),
                None,
                "{request}"
            );
        }
    }

    /// A value the request gives before the button it names ("Type Lisbon … and press
    /// OK"), in a field it does not name: OK is held until text holding it was typed,
    /// and the next call is narrowed to where it goes. Values after the button, or that
    /// name the window or its elements, hold nothing.
    #[test]
    fn a_value_the_request_gives_before_the_button_holds_it_until_typed() {
        let mut numbers = Numbers::default();
        let field = number_in(&mut numbers, "City", ("text", "Your city", false), &[]);
        number_in(&mut numbers, "City", ("push button", "Cancel", false), &[]);
        let ok = number_in(&mut numbers, "City", ("push button", "OK", true), &[]);
        let field_entry = numbers.get(field).expect("numbered").clone();
        let ok_entry = numbers.get(ok).expect("numbered").clone();
        for (request, value) in [
            ("Type Lisbon into the City dialog and press OK", "Lisbon"),
            ("Enter 4217 in the City dialog, then press OK", "4217"),
            ("Put 'Porto Alegre' in the box and click OK", "Porto Alegre"),
        ] {
            let mut walk = Walk::default();
            walk.press(&numbers, ok, &ok_entry, request);
            let why = walk.ahead(&numbers, ok, &ok_entry, request);
            let why = why.unwrap_or_else(|| panic!("not held: {request}"));
            assert!(
                why.contains(&format!("\"{value}\""))
                    && why.contains(&format!("[{field}] text \"Your city\"")),
                "{why}"
            );
            assert_eq!(
                walk.left_named(&numbers, "City", request),
                [field],
                "{request}"
            );
            walk.acted(field, &field_entry, &Action::SetText(value.into()), request);
            assert_eq!(
                walk.ahead(&numbers, ok, &ok_entry, request),
                None,
                "{request}"
            );
        }
        // A button that is not the default may open the window the value goes in: no
        // value holds it (only the step before it, while nothing was done there).
        let cancel = numbers
            .all()
            .find(|(_, e)| e.name == "Cancel")
            .map(|(m, e)| (m, e.clone()));
        let (cancel, cancel_entry) = cancel.expect("numbered");
        let request = "Type Lisbon into the City dialog and press Cancel";
        let mut walk = Walk::default();
        walk.press(&numbers, cancel, &cancel_entry, request);
        let why = walk.ahead(&numbers, cancel, &cancel_entry, request);
        assert!(
            why.as_deref()
                .is_some_and(|w| w.contains("the request's step") && !w.contains("\"Lisbon\"")),
            "{why:?}"
        );
        for request in [
            "Press OK in the City dialog",
            "Press OK, then type Lisbon",
            "In the City dialog, press OK",
        ] {
            assert_eq!(
                fresh_ahead(&numbers, ok, &ok_entry, request),
                None,
                "{request}"
            );
        }
    }

    /// A combo box's name is the option showing: the request names it by any of its
    /// options, so OK is held until one is chosen, and the model reads it as named.
    #[test]
    fn a_combo_box_is_named_by_its_options() {
        let mut numbers = Numbers::default();
        number_in(&mut numbers, "Theme", ("label", "Colour", false), &[]);
        let combo = number_in(
            &mut numbers,
            "Theme",
            ("combo box", "Red", false),
            &["Red", "Green", "Blue"],
        );
        number_in(&mut numbers, "Theme", ("push button", "Cancel", false), &[]);
        let ok = number_in(&mut numbers, "Theme", ("push button", "OK", true), &[]);
        let combo_entry = numbers.get(combo).expect("numbered").clone();
        let ok_entry = numbers.get(ok).expect("numbered").clone();
        let request = "Pick Blue as the colour in the Theme dialog, then press OK";
        let mut walk = Walk::default();
        walk.press(&numbers, ok, &ok_entry, request);
        let why = walk.ahead(&numbers, ok, &ok_entry, request).expect("held");
        assert!(
            why.contains(&format!("[{combo}] combo box \"Red\"")),
            "{why}"
        );
        let said = walk.named(&numbers, "Theme", request).expect("said");
        assert!(said.contains("(not acted on yet)"), "{said}");
        // A press only opens it; a choice is the act.
        walk.acted(combo, &combo_entry, &Action::Press, request);
        assert!(walk.ahead(&numbers, ok, &ok_entry, request).is_some());
        walk.acted(combo, &combo_entry, &Action::Select("Blue".into()), request);
        assert_eq!(walk.ahead(&numbers, ok, &ok_entry, request), None);
        // Named by none of its options: not named.
        let other = "Press OK in the Theme dialog";
        let mut walk = Walk::default();
        walk.press(&numbers, ok, &ok_entry, other);
        assert_eq!(walk.ahead(&numbers, ok, &ok_entry, other), None);
        assert!(walk.unacted(&numbers, "Theme", other).is_empty());
    }

    #[test]
    fn a_step_naming_nothing_is_left_until_the_window_s_default_is_pressed() {
        let mut numbers = Numbers::default();
        let (field, ok) = unlock(&mut numbers);
        let request = "Type the password hunter2 into the Unlock dialog and confirm it";
        let mut walk = Walk::default();
        let entry = numbers.get(field).expect("numbered").clone();
        walk.acted(field, &entry, &Action::SetText("hunter2".into()), request);
        assert!(!walk.all_named_done(&numbers, "Unlock", request));
        let said = walk.named(&numbers, "Unlock", request).expect("said");
        assert!(
            said.contains("(acted on)")
                && said.contains("\"confirm it\"")
                && said.contains(&format!("[{ok}] push button \"OK\"")),
            "{said}"
        );
        let ok_entry = numbers.get(ok).expect("numbered").clone();
        walk.acted(ok, &ok_entry, &Action::Press, request);
        assert!(walk.all_named_done(&numbers, "Unlock", request));
        assert_eq!(walk.step_left(&numbers, "Unlock", request), None);
        // The same request with the button named: nothing left once the field is done.
        let named = "Type the password hunter2 into the Unlock dialog and press OK";
        let mut walk = Walk::default();
        walk.acted(field, &entry, &Action::SetText("hunter2".into()), named);
        assert_eq!(walk.step_left(&numbers, "Unlock", named), None);
    }

    /// An editor: its menu File, its text (unnamed), Save and "Save As…". Save is held
    /// while a step before it names nothing there and no act in the window went through,
    /// whatever the phrasing; after an act on the text, or where every step before it
    /// names an element, it is not; a button that opens a window never is.
    #[test]
    fn a_button_after_a_step_naming_nothing_waits_for_an_act_in_its_window() {
        let mut numbers = Numbers::default();
        let win = "list.txt";
        let file = number_in(&mut numbers, win, ("menu", "File", false), &[]);
        let text = number_in(&mut numbers, win, ("text", "", false), &[]);
        let save = number_in(&mut numbers, win, ("push button", "Save", false), &[]);
        let save_as = number_in(&mut numbers, win, ("push button", "Save As…", false), &[]);
        let e = |m: u32| numbers.get(m).expect("numbered").clone();
        let mut held = 0;
        let requests = [
            "In FeatherPad, add the line pears after apples and save the file",
            "In the list.txt window, change red to green and save it",
            "Replace draft with final in the editor, then press Save",
            "Append a line saying eggs and then save",
            "Delete the first line and save the document",
        ];
        for request in requests {
            let why = fresh_ahead(&numbers, save, &e(save), request);
            if let Some(why) = &why {
                held += 1;
                assert!(why.contains(&format!("[{text}]")), "{why}");
                assert!(why.contains("\"text\": \"Save\""), "{why}");
            }
            // The next call is offered the text, not Save nor File.
            if why.is_some() {
                let mut walk = Walk::default();
                walk.press(&numbers, save, &e(save), request);
                assert_eq!(walk.left_named(&numbers, win, request), [text], "{request}");
            }
            // After an act on the text, Save goes.
            let mut walk = Walk::default();
            walk.acted(text, &e(text), &Action::Type("pears".into()), request);
            assert_eq!(
                walk.ahead(&numbers, save, &e(save), request),
                None,
                "{request}"
            );
            // A button that opens a window is never held so.
            assert_eq!(fresh_ahead(&numbers, save_as, &e(save_as), request), None);
        }
        println!(
            "{held} of {} editor requests hold Save first",
            requests.len()
        );
        assert_eq!(held, requests.len());
        // The File menu named after such a step waits too.
        assert!(fresh_ahead(&numbers, file, &e(file), requests[0]).is_some());
        // A disabled Save with no action to read (Qt) too.
        let mut qt = Numbers::default();
        number_in(&mut qt, "mode.txt", ("text", "", false), &[]);
        let disabled = number_in(&mut qt, "mode.txt", ("button", "Save", false), &[]);
        let disabled_entry = qt.get(disabled).expect("numbered").clone();
        assert_eq!(disabled_entry.takes, Takes::Unknown);
        assert!(fresh_ahead(&qt, disabled, &disabled_entry, requests[0]).is_some());
        // Every step before Save names an element (held, if at all, for that element),
        // or there is none before it.
        for request in [
            "Open File and then press Save",
            "Save the file",
            "Press Save",
        ] {
            let why = fresh_ahead(&numbers, save, &e(save), request);
            assert!(
                why.as_deref()
                    .is_none_or(|w| !w.contains("the request's step")),
                "{request}: {why:?}"
            );
        }
    }

    /// The window's application named in the request ("Make the FeatherPad document say
    /// on …") is no value: once the text had an act, the next call is Save, not the text
    /// again.
    #[test]
    fn the_windows_application_is_no_value_the_request_gives() {
        let mut numbers = Numbers::default();
        let place = Place {
            window: "/tmp/mode.txt".into(),
            app: "featherpad".into(),
            ..Place::default()
        };
        let mut text = Node::new(
            Key::Tree {
                bus: ":1.1".into(),
                path: "/t".into(),
            },
            "text",
            "",
        );
        text.states.editable = true;
        let mut save = Node::new(
            Key::Tree {
                bus: ":1.1".into(),
                path: "/s".into(),
            },
            "push button",
            "Save",
        );
        save.actions = vec!["click".into()];
        let t = numbers.number(&text, &place);
        let s = numbers.number(&save, &place);
        let request = "Make the FeatherPad document say on instead of off, and save it";
        let mut walk = Walk::default();
        let entry = numbers.get(t).expect("numbered").clone();
        walk.acted(t, &entry, &Action::SetText("on".into()), request);
        assert_eq!(walk.left_named(&numbers, "/tmp/mode.txt", request), [s]);
    }
}

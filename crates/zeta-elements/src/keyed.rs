//! Numbers keyed in on a keypad. A window whose keys are the digits (a calculator, a PIN
//! pad, a dial) takes a number the request gives by pressing its digits in turn, and
//! what the request says between two numbers ("23 times 4") by a key that is no digit.
//! Seen on calculators nobody rehearsed (GUI bench, 2026-11-29): the request named only
//! the key "4" by its name, so "The request names: [14] button "4"" was all the model
//! read; it pressed "1", then typed "1" into the display, and never keyed 23 at all.
//!
//! Read from the window (which keys it has, where) and the request (its numbers, in
//! order, and its own words around them), not from a list of operation words: which key
//! "times" is, the model says, from the keys that are no digit; what is left to press,
//! and in which order, the window and the presses say. The one name read is the key
//! that shows the result, by what a keypad calls it on its face or to the tree.

use crate::node::{Bounds, Key};
use crate::numbers::{Entry, Numbers, Takes};

/// Distinct digit keys a window needs to count as a keypad (OCR may miss one or two).
const DIGITS: usize = 8;

/// What a keypad's key that shows the result is called: its face ("=") or its name to
/// the tree (mate-calc's "result").
const RESULT: &[&str] = &["=", "result", "equals"];

/// A window's keypad: its digit keys and the other keys among them.
#[derive(Debug, Clone, PartialEq)]
pub struct Keypad {
    /// Each digit's key, the first of that name.
    digits: Vec<(char, u32)>,
    /// The keys that are no digit (operations, the result, clear), by number and name.
    others: Vec<(u32, String)>,
}

/// One press of a plan.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// A digit of a number the request gives, on its key.
    Digit(char, u32),
    /// What the request says between two numbers: a key that is no digit, the one the
    /// model chose for it when asked on its own (`question`), else any of them.
    Between(Option<u32>),
    /// The key that shows the result, when the keypad has one by name.
    Result(Option<u32>),
}

/// The presses that key in what the request gives, in order.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// The request's words from the one before its first number to its last number.
    pub phrase: String,
    pub steps: Vec<Step>,
    /// The numbers the request gives, in order.
    pub values: Vec<String>,
}

/// A key of a keypad: a button the tree gives an action (galculator's keys are toggle
/// buttons), or a word read by OCR.
fn key_like(e: &Entry) -> bool {
    matches!(e.key, Key::Word { .. })
        || (matches!(e.takes, Takes::Press | Takes::Toggle) && e.role.contains("button"))
}

fn digit(e: &Entry) -> Option<char> {
    let mut chars = e.name.trim().chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii_digit() => Some(c),
        _ => None,
    }
}

/// The middle of a list of sizes.
fn median(mut v: Vec<i32>) -> i32 {
    v.sort_unstable();
    v.get(v.len() / 2).copied().unwrap_or(0)
}

impl Keypad {
    /// The keypad of `window`, when its keys hold at least `DIGITS` of the ten digits.
    /// Its other keys are those of about a digit key's size that lie among or beside the
    /// digits (an operation's, the result's; not the title bar's Close).
    pub fn of(numbers: &Numbers, window: &str) -> Option<Self> {
        let keys: Vec<(u32, &Entry)> = numbers
            .all()
            .filter(|(_, e)| e.place.window == window && key_like(e))
            .collect();
        let mut digits: Vec<(char, u32)> = Vec::new();
        let mut digit_bounds: Vec<Bounds> = Vec::new();
        for (m, e) in &keys {
            if let Some(d) = digit(e) {
                if !digits.iter().any(|(c, _)| *c == d) {
                    digits.push((d, *m));
                    digit_bounds.extend(e.bounds);
                }
            }
        }
        if digits.len() < DIGITS {
            return None;
        }
        let near = near_digits(&digit_bounds);
        let others = keys
            .iter()
            .filter(|(_, e)| digit(e).is_none() && !e.name.trim().is_empty())
            .filter(|(_, e)| match (&near, e.bounds) {
                (Some(near), Some(b)) => near(&b),
                _ => true,
            })
            .map(|(m, e)| (*m, e.name.trim().to_string()))
            .collect();
        Some(Self { digits, others })
    }

    /// Whether element `n` is one of its keys.
    pub fn holds(&self, n: u32) -> bool {
        self.digits.iter().any(|(_, m)| *m == n) || self.others.iter().any(|(m, _)| *m == n)
    }

    fn key_of(&self, d: char) -> Option<u32> {
        self.digits.iter().find(|(c, _)| *c == d).map(|(_, m)| *m)
    }

    fn other(&self, n: u32) -> bool {
        self.others.iter().any(|(m, _)| *m == n)
    }

    /// The other keys, by number.
    pub fn others(&self) -> Vec<u32> {
        self.others.iter().map(|(m, _)| *m).collect()
    }

    /// Key `n` as the model reads it: `[21] "2"`.
    fn label(&self, n: u32) -> String {
        let digit = self
            .digits
            .iter()
            .find(|(_, m)| *m == n)
            .map(|(c, _)| c.to_string());
        let other = || {
            self.others
                .iter()
                .find(|(m, _)| *m == n)
                .map(|(_, name)| name.clone())
        };
        digit
            .or_else(other)
            .map(|name| format!("[{n}] \"{name}\""))
            .unwrap_or_default()
    }

    /// The presses that key in the numbers `request` gives, each digit on its key and a
    /// key that is no digit between two numbers, then the result's key; `None` when the
    /// request gives no number or one with a mark that has no key here.
    pub fn plan(&self, request: &str) -> Option<Plan> {
        let words: Vec<&str> = request.split_whitespace().collect();
        let bare = |w: &str| {
            w.trim_matches(|c: char| !c.is_ascii_digit())
                .chars()
                .filter(|c| *c != ',')
                .collect::<String>()
        };
        let given: Vec<(usize, String)> = words
            .iter()
            .enumerate()
            .filter(|(_, w)| {
                let core = w.trim_matches(|c: char| !c.is_alphanumeric());
                !core.is_empty() && core.chars().all(|c| c.is_ascii_digit() || ".,".contains(c))
            })
            .map(|(i, w)| (i, bare(w)))
            .filter(|(_, v)| !v.is_empty())
            .collect();
        // One short number is no keying (a setting's "2 decimal places"); a PIN is.
        if given.len() == 1 && given.first().is_some_and(|(_, v)| v.chars().count() < 3) {
            return None;
        }
        let (first, last) = (given.first()?.0, given.last()?.0);
        let mut steps = Vec::new();
        for (k, (_, value)) in given.iter().enumerate() {
            if k > 0 {
                steps.push(Step::Between(None));
            }
            for d in value.chars() {
                let key = self.key_of(d).or_else(|| {
                    self.others
                        .iter()
                        .find(|(_, name)| name.chars().eq([d]))
                        .map(|(m, _)| *m)
                })?;
                steps.push(Step::Digit(d, key));
            }
        }
        if given.len() > 1 {
            let result = self
                .others
                .iter()
                .find(|(_, name)| RESULT.iter().any(|r| name.eq_ignore_ascii_case(r)))
                .map(|(m, _)| *m);
            steps.push(Step::Result(result));
        }
        let phrase = words[first.saturating_sub(1)..=last]
            .join(" ")
            .trim_end_matches(|c: char| !c.is_alphanumeric())
            .to_string();
        let values = given.into_iter().map(|(_, v)| v).collect();
        Some(Plan {
            phrase,
            steps,
            values,
        })
    }

    /// How many steps of `plan` the presses (`pressed`, in order) did: a press off the
    /// plan starts it again (the display then holds more than the request gives).
    pub fn progress(&self, plan: &Plan, pressed: &[u32]) -> usize {
        let mut at = 0;
        for &p in pressed {
            if at < plan.steps.len() && self.fits(&plan.steps[at], p) {
                at += 1;
            } else if self.holds(p) {
                at = usize::from(plan.steps.first().is_some_and(|s| self.fits(s, p)));
            }
        }
        at
    }

    fn fits(&self, step: &Step, p: u32) -> bool {
        match step {
            Step::Digit(_, n) | Step::Between(Some(n)) | Step::Result(Some(n)) => *n == p,
            Step::Between(None) | Step::Result(None) => self.other(p),
        }
    }

    /// The elements the next press may be: the next digit's key, or the keys that are
    /// no digit; none when the plan is done.
    pub fn next(&self, plan: &Plan, pressed: &[u32]) -> Vec<u32> {
        match plan.steps.get(self.progress(plan, pressed)) {
            Some(Step::Digit(_, n) | Step::Between(Some(n)) | Step::Result(Some(n))) => vec![*n],
            Some(Step::Between(None) | Step::Result(None)) => self.others(),
            None => Vec::new(),
        }
    }

    /// The question that chooses the key of the first step between two numbers not
    /// chosen yet (its index, the question, the keys that are no digit by name), asked of
    /// the model on its own: which key stands for what the request asks between them.
    pub fn question(&self, plan: &Plan, window: &str) -> Option<(usize, String, Vec<String>)> {
        let (at, _) = plan
            .steps
            .iter()
            .enumerate()
            .find(|(_, s)| matches!(s, Step::Between(None)))?;
        let before = plan.steps[..at]
            .iter()
            .filter(|s| matches!(s, Step::Between(_)))
            .count();
        let (a, b) = (plan.values.get(before)?, plan.values.get(before + 1)?);
        let mut names: Vec<String> = Vec::new();
        for (_, name) in &self.others {
            if !names.contains(name) {
                names.push(name.clone());
            }
        }
        let question = format!(
            "The request says \"{}\". Which of these keys of the window \"{window}\" stands for what it asks between {a} and {b}? Keys: {}. Answer with the key alone.",
            plan.phrase,
            names.join(", ")
        );
        Some((at, question, names))
    }

    /// `plan` with the keys chosen for its steps between numbers (`chosen`: step index
    /// and the key's name).
    pub fn resolve(&self, mut plan: Plan, chosen: &[(usize, String)]) -> Plan {
        for (at, name) in chosen {
            if let Some(step @ Step::Between(None)) = plan.steps.get_mut(*at) {
                if let Some((m, _)) = self.others.iter().find(|(_, o)| o == name) {
                    *step = Step::Between(Some(*m));
                }
            }
        }
        plan
    }

    /// The plan as the model reads it after each act, each press with whether it is
    /// done: `The request gives numbers keyed in on this keypad: [21] "2" (pressed), …`.
    pub fn said(&self, plan: &Plan, pressed: &[u32]) -> String {
        let done = self.progress(plan, pressed);
        let each: Vec<String> = plan
            .steps
            .iter()
            .enumerate()
            .map(|(i, step)| {
                let state = if i < done {
                    "pressed"
                } else {
                    "not pressed yet"
                };
                let what = match step {
                    Step::Digit(_, n) => self.label(*n),
                    Step::Between(Some(n)) => {
                        format!(
                            "{}, for the operation of \"{}\"",
                            self.label(*n),
                            plan.phrase
                        )
                    }
                    Step::Between(None) => {
                        format!("a key for the operation of \"{}\"", plan.phrase)
                    }
                    Step::Result(Some(n)) => format!("{}, for the result", self.label(*n)),
                    Step::Result(None) => "the key that shows the result".to_string(),
                };
                format!("{what} ({state})")
            })
            .collect();
        let mut said = format!(
            "The request gives numbers keyed in on this keypad, in this order: {}.",
            each.join(", ")
        );
        if done >= plan.steps.len() {
            said.push_str(" All of it is keyed in: answer with what the window shows.");
        }
        said
    }
}

/// Whether a key's bounds lie among the digit keys or beside them, at about their size:
/// within three keys' widths and two keys' heights of the digits' rectangle.
fn near_digits(digits: &[Bounds]) -> Option<impl Fn(&Bounds) -> bool> {
    if digits.is_empty() {
        return None;
    }
    let w = median(digits.iter().map(|b| b.width).collect()).max(1);
    let h = median(digits.iter().map(|b| b.height).collect()).max(1);
    let left = digits.iter().map(|b| b.x).min()? - 3 * w;
    let right = digits.iter().map(|b| b.x + b.width).max()? + 3 * w;
    let top = digits.iter().map(|b| b.y).min()? - 2 * h;
    let bottom = digits.iter().map(|b| b.y + b.height).max()? + 2 * h;
    Some(move |b: &Bounds| {
        let (cx, cy) = b.centre();
        let sized = b.width * 2 >= w && b.width <= 3 * w && b.height * 2 >= h && b.height <= 3 * h;
        sized && (left..=right).contains(&cx) && (top..=bottom).contains(&cy)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::node::Node;
    use crate::numbers::Place;

    /// Buttons at (x, y), each `w`×`h`, numbered in order.
    fn window(numbers: &mut Numbers, title: &str, keys: &[(&str, i32, i32, i32, i32)]) -> Vec<u32> {
        let place = Place {
            window: title.into(),
            ..Place::default()
        };
        keys.iter()
            .enumerate()
            .map(|(i, (name, x, y, w, h))| {
                let key = Key::Tree {
                    bus: ":1.1".into(),
                    path: format!("/{title}/{i}"),
                };
                let mut node = Node::new(key, "push button", *name);
                node.actions = vec!["click".into()];
                node.bounds = Some(Bounds {
                    x: *x,
                    y: *y,
                    width: *w,
                    height: *h,
                });
                numbers.number(&node, &place)
            })
            .collect()
    }

    /// mate-calc's basic mode: names as its tree gives them, keys 68×34.
    fn mate(numbers: &mut Numbers) -> Vec<u32> {
        let rows = [
            ["7", "8", "9", "divide", "undo", "clear"],
            ["4", "5", "6", "multiply", "start_group", "end_group"],
            ["1", "2", "3", "subtract", "x_squared", "square_root"],
            ["0", "numeric_point", "percentage", "add", "result", ""],
        ];
        let mut keys = vec![("Close", 800, 0, 24, 24), ("Help", 612, 20, 46, 25)];
        for (r, row) in rows.iter().enumerate() {
            for (c, name) in row.iter().enumerate() {
                if !name.is_empty() {
                    keys.push((*name, 436 + 68 * c as i32, 390 + 34 * r as i32, 68, 34));
                }
            }
        }
        window(numbers, "Calculator", &keys)
    }

    fn name_of(numbers: &Numbers, n: u32) -> String {
        numbers.get(n).map(|e| e.name.clone()).unwrap_or_default()
    }

    /// Presses the keypad's next keys as the plan asks, the model choosing `between` for
    /// each key that is no digit; returns the names pressed.
    fn key_in(numbers: &Numbers, pad: &Keypad, request: &str, between: &str) -> Vec<String> {
        let plan = pad.plan(request).expect("a plan");
        let mut pressed = Vec::new();
        while let [first, ..] = pad.next(&plan, &pressed)[..] {
            let next = pad.next(&plan, &pressed);
            let pick = if next.len() == 1 {
                first
            } else {
                *next
                    .iter()
                    .find(|m| name_of(numbers, **m) == between)
                    .expect("the model's key is offered")
            };
            pressed.push(pick);
            assert!(pressed.len() < 20, "{request}: no end");
        }
        pressed.iter().map(|m| name_of(numbers, *m)).collect()
    }

    #[test]
    fn a_request_s_numbers_are_keyed_digit_by_digit_with_a_key_between_and_the_result() {
        let mut numbers = Numbers::default();
        mate(&mut numbers);
        let pad = Keypad::of(&numbers, "Calculator").expect("a keypad");
        let others: Vec<String> = pad.others().iter().map(|m| name_of(&numbers, *m)).collect();
        assert!(others.contains(&"multiply".to_string()), "{others:?}");
        assert!(
            !others.contains(&"Close".to_string()),
            "the title bar is no key: {others:?}"
        );
        assert!(!others.contains(&"Help".to_string()), "{others:?}");
        // Requests of every shape, the numbers anywhere in them.
        let cases = [
            (
                "Use the MATE calculator to work out 23 times 4",
                "multiply",
                "23multiply4result",
            ),
            (
                "With the Calculator app, compute 100 minus 58.",
                "subtract",
                "100subtract58result",
            ),
            (
                "Multiply 9 by 5 using the calculator",
                "multiply",
                "9multiply5result",
            ),
            ("Add 6 and 7 on the calculator", "add", "6add7result"),
            (
                "what is 1,250 divided by 25?",
                "divide",
                "1250divide25result",
            ),
            ("Type the code 4217 on the keypad", "", "4217"),
            ("3 plus 4 plus 5", "add", "3add4add5result"),
        ];
        for (request, between, want) in cases {
            let got = key_in(&numbers, &pad, request, between).concat();
            assert_eq!(got, want, "{request}");
        }
    }

    #[test]
    fn the_model_reads_each_press_in_order_and_a_press_off_the_plan_starts_it_again() {
        let mut numbers = Numbers::default();
        mate(&mut numbers);
        let pad = Keypad::of(&numbers, "Calculator").expect("a keypad");
        let request = "Use the MATE calculator to work out 23 times 4";
        let plan = pad.plan(request).expect("a plan");
        let key = |name: &str| {
            numbers
                .all()
                .find(|(_, e)| e.name == name)
                .map(|(m, _)| m)
                .expect("key")
        };
        let said = pad.said(&plan, &[]);
        assert!(
            said.contains(&format!("[{}] \"2\" (not pressed yet), [{}] \"3\" (not pressed yet), a key for the operation of \"out 23 times 4\" (not pressed yet), [{}] \"4\" (not pressed yet), [{}] \"result\", for the result (not pressed yet)", key("2"), key("3"), key("4"), key("result"))),
            "{said}"
        );
        let pressed = [key("2"), key("3")];
        assert!(pad
            .said(&plan, &pressed)
            .contains("\"3\" (pressed), a key for"));
        assert_eq!(pad.next(&plan, &pressed), pad.others());
        // "1" pressed where "2" was next: the plan starts again, at "2".
        let wrong = [key("1"), key("3")];
        assert_eq!(pad.progress(&plan, &wrong), 0);
        assert_eq!(pad.next(&plan, &wrong), [key("2")]);
        let all = [key("2"), key("3"), key("multiply"), key("4"), key("result")];
        assert_eq!(pad.progress(&plan, &all), plan.steps.len());
        assert!(pad.next(&plan, &all).is_empty());
        assert!(pad.said(&plan, &all).contains("All of it is keyed in"));
    }

    #[test]
    fn the_key_between_two_numbers_is_asked_by_the_words_between_them_and_then_pressed() {
        let mut numbers = Numbers::default();
        mate(&mut numbers);
        let pad = Keypad::of(&numbers, "Calculator").expect("a keypad");
        let plan = pad.plan("what is 3 plus 4 times 5").expect("a plan");
        let (at, question, names) = pad.question(&plan, "Calculator").expect("a question");
        assert!(matches!(plan.steps[at], Step::Between(None)));
        assert!(question.contains("between 3 and 4"), "{question}");
        assert!(question.contains("\"is 3 plus 4 times 5\""), "{question}");
        assert!(names.contains(&"add".to_string()) && !names.contains(&"4".to_string()));
        // The model said "add": that step is its key alone; the next is asked next.
        let plan = pad.resolve(plan, &[(at, "add".into())]);
        let add = numbers.all().find(|(_, e)| e.name == "add").map(|(m, _)| m);
        assert_eq!(plan.steps[at], Step::Between(add));
        let (next, question, _) = pad.question(&plan, "Calculator").expect("the second");
        assert!(
            next > at && question.contains("between 4 and 5"),
            "{question}"
        );
        let three = pad.next(&plan, &[]);
        assert_eq!(pad.next(&plan, &three), add.into_iter().collect::<Vec<_>>());
        assert!(pad
            .said(&plan, &three)
            .contains("\"add\", for the operation of"));
        // An answer that is no key of the pad leaves the step open to any of them.
        let plan = pad.plan("what is 3 plus 4").expect("a plan");
        let open = pad.resolve(plan.clone(), &[(1, "π".into())]);
        assert_eq!(open, plan);
    }

    #[test]
    fn windows_without_a_keypad_and_requests_without_numbers_to_key_have_no_plan() {
        let mut numbers = Numbers::default();
        // A dialog with a few numbered buttons is no keypad.
        window(
            &mut numbers,
            "Pages",
            &[
                ("1", 0, 0, 30, 30),
                ("2", 30, 0, 30, 30),
                ("3", 60, 0, 30, 30),
                ("OK", 90, 0, 60, 30),
            ],
        );
        assert!(Keypad::of(&numbers, "Pages").is_none());
        mate(&mut numbers);
        let pad = Keypad::of(&numbers, "Calculator").expect("a keypad");
        for request in [
            "Clear the calculator",
            "Switch the calculator to Advanced mode",
            "Set 2 decimal places",
            "What does the calculator show?",
            "",
        ] {
            assert!(pad.plan(request).is_none(), "{request}");
        }
        // A mark with no key: no plan rather than a wrong one.
        let mut numbers = Numbers::default();
        let keys: Vec<(String, i32, i32, i32, i32)> = (0..10)
            .map(|d| (d.to_string(), 40 * (d % 3), 40 * (d / 3), 40, 40))
            .collect();
        let keys: Vec<(&str, i32, i32, i32, i32)> = keys
            .iter()
            .map(|(n, x, y, w, h)| (n.as_str(), *x, *y, *w, *h))
            .collect();
        window(&mut numbers, "PIN", &keys);
        let pad = Keypad::of(&numbers, "PIN").expect("a keypad of digits alone");
        assert!(pad.plan("work out 2.5 times 4").is_none());
        let plan = pad.plan("Enter the PIN 9031").expect("digits alone");
        assert_eq!(plan.steps.len(), 4);
    }
}

//! Tests of the values a request gives and what was entered, of steps left and
//! windows closed short (`entered.rs`, `left.rs`).

use super::*;

/// The values a request gives, by shape: digits, `@`, quotes, a capital mid-sentence;
/// never a sentence's first word, an apostrophe inside a word, or a lower-case word.
#[test]
fn the_values_a_request_gives_are_found_by_their_shape() {
    use super::entered::values_given;
    for (request, want) in [
        ("Type Lisbon into the City dialog and press OK", vec!["Lisbon", "City", "OK"]),
        (
            "In the Sign up form, fill in the name Ada and the email ada@example.com, then press OK",
            vec!["Sign", "Ada", "ada@example.com", "OK"],
        ),
        ("Type the password hunter2 into the Unlock dialog and confirm it", vec!["hunter2", "Unlock"]),
        ("Set the Volume slider to 65 and press OK", vec!["Volume", "65", "OK"]),
        ("Change the text from 'draft' to \"final\", then save it", vec!["draft", "final"]),
        ("Type Rex into the Pet dialog. Then press OK", vec!["Rex", "Pet", "OK"]),
        ("the dialog asks: answer No", vec!["No"]),
        ("Enter your pet's name", vec![]),
        ("use the calculator to add 6 and 7", vec!["6", "7"]),
    ] {
        assert_eq!(values_given(request), want, "{request}");
    }
}

/// `value-not-entered`, in families: a window task's answer that gives a value the
/// request gave is held when no act entered or chose it, and passes when one did (typed,
/// set, chosen, toggled by name, pressed by name, its window's title, a calculator's
/// buttons spelling a number), or when the task never acted on a window.
#[test]
fn a_value_the_answer_gives_must_have_been_entered_in_the_window() {
    use crate::tool::Shown;
    let f = fixture();
    let in_window = |element: &str, window: &str, action: &str, intended: &str, shown: Shown| {
        let mut c = act(element, shown);
        let rb = c.read_back.as_mut().unwrap();
        rb.window = window.into();
        rb.action = action.into();
        rb.intended = intended.into();
        c.line = format!("✓ ui_act {element}");
        c
    };
    let yes = || Shown::Yes("it shows it".into());
    let closed = || Shown::Yes("its window closed".into());
    let ok_pressed = || {
        let mut c = in_window(
            "button \"OK\" in \"Sign up\"",
            "Sign up",
            "press",
            "press it",
            closed(),
        );
        if let Some(rb) = c.read_back.as_mut() {
            rb.closed = true;
        }
        c
    };
    let form =
        "In the Sign up form, fill in the name Ada and the email ada@example.com, then press OK";
    let claim = "The Sign up form was filled in with Ada and ada@example.com, and the OK button was pressed.";
    // Held: only OK was pressed.
    let found = judge(&ValueNotEntered, &f, form, claim, vec![ok_pressed()]).expect("held");
    assert!(found.message.contains("\"Ada\"") && found.message.contains("ada@example.com"));
    assert!(!found.message.contains("\"OK\""), "{}", found.message);
    assert!(matches!(&found.honest, Honest::Before(t) if t.starts_with("Not done:")));
    // One typed, the other not: the other is held.
    let typed_ada = in_window(
        "text in \"Sign up\"",
        "Sign up",
        "set_text",
        "set its text to \"Ada\"",
        yes(),
    );
    let found = judge(
        &ValueNotEntered,
        &f,
        form,
        claim,
        vec![typed_ada.clone(), ok_pressed()],
    )
    .expect("the email is held");
    assert!(!found.message.contains("\"Ada\"") && found.message.contains("ada@example.com"));
    // Both typed: it passes.
    let typed_email = in_window(
        "text in \"Sign up\"",
        "Sign up",
        "type",
        "type \"ada@example.com\" into it",
        yes(),
    );
    assert!(judge(
        &ValueNotEntered,
        &f,
        form,
        claim,
        vec![typed_ada.clone(), typed_email, ok_pressed()]
    )
    .is_none());
    // Typed, but the window showed otherwise: not entered, and left to act-not-shown,
    // which says so (one failure is not sent back twice).
    let refused = in_window(
        "text in \"Sign up\"",
        "Sign up",
        "set_text",
        "set its text to \"ada@example.com\"",
        Shown::No("it shows \"\"".into()),
    );
    let calls = vec![typed_ada, refused, ok_pressed()];
    assert!(judge(&ValueNotEntered, &f, form, claim, calls.clone()).is_none());
    assert!(judge(&ActNotShown, &f, form, claim, calls).is_some());
    // Chosen and toggled by name, pressed by name.
    let large = in_window(
        "radio button \"Large\" in \"Size\"",
        "Size",
        "toggle",
        "toggle it",
        yes(),
    );
    assert!(judge(
        &ValueNotEntered,
        &f,
        "Choose Large in the Size dialog",
        "Large is chosen.",
        vec![large]
    )
    .is_none());
    let blue = in_window(
        "combo box \"Red\" in \"Theme\"",
        "Theme",
        "select",
        "choose \"Blue\"",
        yes(),
    );
    assert!(judge(
        &ValueNotEntered,
        &f,
        "Pick Blue in the Theme dialog",
        "Blue is set.",
        vec![blue]
    )
    .is_none());
    let pressed_combo = in_window(
        "combo box \"Red\" in \"Theme\"",
        "Theme",
        "press",
        "press it",
        yes(),
    );
    assert!(judge(
        &ValueNotEntered,
        &f,
        "Pick Blue in the Theme dialog",
        "The colour has been set to Blue.",
        vec![pressed_combo]
    )
    .is_some());
    let no = in_window(
        "button \"No\" in \"Draft\"",
        "Draft",
        "press",
        "press it",
        closed(),
    );
    assert!(judge(
        &ValueNotEntered,
        &f,
        "The Draft dialog asks: answer No",
        "No was pressed in the Draft dialog.",
        vec![no]
    )
    .is_none());
    // A calculator's buttons spell the numbers.
    let keys: Vec<CallEvidence> = ["1", "2", "×", "7", "="]
        .iter()
        .map(|k| {
            in_window(
                &format!("button \"{k}\" in \"Calculator\""),
                "Calculator",
                "press",
                "press it",
                Shown::Unclear("x".into()),
            )
        })
        .collect();
    assert!(judge(
        &ValueNotEntered,
        &f,
        "Use the Calculator window to work out 12 times 7",
        "12 times 7 is 84.",
        keys
    )
    .is_none());
    let only_seven = vec![in_window(
        "button \"7\" in \"Calculator\"",
        "Calculator",
        "press",
        "press it",
        Shown::Unclear("x".into()),
    )];
    assert!(judge(
        &ValueNotEntered,
        &f,
        "Use the Calculator window to work out 12 times 7",
        "12 times 7 is 84.",
        only_seven.clone()
    )
    .is_some());
    // The window still open: a value the request gave that no act used is held,
    // whatever the answer gives (seen: "The button '7' was clicked").
    let found = judge(
        &ValueNotEntered,
        &f,
        "Use the Calculator window to work out 12 times 7",
        "The button '7' was clicked and the text field now shows '7'.",
        only_seven,
    )
    .expect("12 never entered");
    assert!(found.message.contains("\"12\"") && !found.message.contains("\"7\""));
    // An application's name is no value ("In FeatherPad, …").
    let mut typed = in_window(
        "text in \"list.txt\"",
        "list.txt",
        "set_text",
        "set its text to \"apples pears\"",
        yes(),
    );
    if let Some(rb) = typed.read_back.as_mut() {
        rb.app = "featherpad".into();
    }
    assert!(judge(
        &ValueNotEntered,
        &f,
        "In FeatherPad, add the line pears after apples",
        "FeatherPad shows apples and pears.",
        vec![typed]
    )
    .is_none());
    // The name of a window acted in is no value, even when every act there failed.
    let mut failed = in_window(
        "menu \"Edit\" in \"todo.txt - Mousepad\"",
        "todo.txt - Mousepad",
        "press",
        "press it",
        Shown::No("it is gone".into()),
    );
    failed.ok = false;
    let found = judge(
        &ValueNotEntered,
        &f,
        "In the Mousepad window, add the line eggs",
        "Added eggs in Mousepad.",
        vec![failed],
    );
    assert!(found.is_none_or(|f| !f.message.contains("Mousepad")));
    // No act on a window: not this check's task.
    let shell = call("✓ shell echo", false, true, "Ada", vec![]);
    assert!(judge(&ValueNotEntered, &f, form, claim, vec![shell]).is_none());
    // A window read and nothing done in it: an order's values are held, a question's
    // answer is not.
    let mut read = call("✓ ui_outline", false, true, "Window \"Calculator\"", vec![]);
    read.tool = "ui_outline".into();
    assert!(judge(
        &ValueNotEntered,
        &f,
        "Use the Calculator window to work out 12 times 7",
        "12 times 7 is 84.",
        vec![read.clone()]
    )
    .is_some());
    assert!(judge(
        &ValueNotEntered,
        &f,
        "What does the Sign up form hold?",
        "The Sign up form holds Ada.",
        vec![read]
    )
    .is_none());
    // An answer that gives none of the values, or says it was not done with them... still
    // names them: only values the answer gives are held.
    assert!(judge(
        &ValueNotEntered,
        &f,
        form,
        "I pressed the button.",
        vec![ok_pressed()]
    )
    .is_none());
}

/// An answer while the last act read back a step of the request left in its open
/// window goes back once with the step; a later act that closed the window, input after
/// the act, or no step left let it stand.
#[test]
fn a_step_left_in_an_open_window_holds_the_answer() {
    use crate::tool::{ReadBack, Shown};
    let f = fixture();
    let request = "Type the password hunter2 into the Unlock dialog and confirm it";
    let left = "the request's step \"confirm it\" is left: in \"Unlock\" the default push button \"OK\" does it, and it was not pressed";
    let typed = || {
        CallEvidence::act_read_back(ReadBack {
            request_met: false,
            left: Some(left.into()),
            ..ReadBack::of(
                "password text \"Password\" in \"Unlock\"",
                "Unlock",
                "set_text",
                "set its text to \"hunter2\"",
                Shown::Yes("it shows 7 characters".into()),
            )
        })
    };
    let found = judge(&StepLeft, &f, request, "Done.", vec![typed()])
        .expect("the step left holds the answer");
    assert!(found.message.contains(left), "{}", found.message);
    assert!(
        matches!(&found.honest, Honest::Before(t) if t == &format!("Not done: {left}.")),
        "{:?}",
        found.honest
    );
    let ok_pressed = CallEvidence::act_read_back(ReadBack {
        request_met: true,
        closed: true,
        ..ReadBack::of(
            "push button \"OK\" in \"Unlock\"",
            "Unlock",
            "press",
            "press it",
            Shown::Yes("the window closed".into()),
        )
    });
    let enter = CallEvidence {
        tool: "keyboard".into(),
        ..call("✓ keyboard enter", true, true, "", vec![])
    };
    let failed_after = CallEvidence {
        ok: false,
        ..ok_pressed.clone()
    };
    for (calls, holds) in [
        (vec![typed(), ok_pressed], false),
        (vec![typed(), enter], false),
        (vec![typed(), failed_after], true),
        (
            vec![CallEvidence::act_read_back(ReadBack {
                left: None,
                ..ReadBack::of("x", "Unlock", "set_text", "y", Shown::Yes("z".into()))
            })],
            false,
        ),
    ] {
        let lines: Vec<String> = calls.iter().map(|c| c.line.clone()).collect();
        assert_eq!(
            judge(&StepLeft, &f, request, "Done.", calls).is_some(),
            holds,
            "{lines:?}"
        );
    }
}

/// An act in `window` on `element` (`action`, meant as `intended`), shown; `closed` when
/// it closed the window, with what it closed without (`left`).
fn act_in(
    window: &str,
    element: &str,
    action: &str,
    intended: &str,
    closed: bool,
    left: Option<&str>,
) -> CallEvidence {
    use crate::tool::{ReadBack, Shown};
    CallEvidence::act_read_back(ReadBack {
        closed,
        left: left.map(str::to_string),
        ..ReadBack::of(
            &format!("{element} in \"{window}\""),
            window,
            action,
            intended,
            Shown::Yes(
                if closed {
                    "its window closed"
                } else {
                    "it shows"
                }
                .into(),
            ),
        )
    })
}

/// A window closed by the task's last act, without an act on what the request names
/// there or without a value it gives, is told before the answer, whatever the answer
/// says; input by keyboard or mouse, a window still open, or nothing left let it stand.
#[test]
fn a_window_closed_short_of_the_request_is_told_before_the_answer() {
    let f = fixture();
    let vault =
        "\"Vault\" closed with no act on password text \"Password\", which the request names";
    let request = "Enter the password opensesame in the Vault dialog and confirm it";
    let ok = || {
        act_in(
            "Vault",
            "push button \"OK\"",
            "press",
            "press it",
            true,
            Some(vault),
        )
    };
    let found = judge(
        &ClosedShort,
        &f,
        request,
        "The password has been set.",
        vec![ok()],
    )
    .expect("closed short");
    assert_eq!(found.honest, Honest::Before(format!("Not done: {vault}.")));
    assert_eq!(
        ClosedShort.cap(),
        0,
        "the window is gone: nothing goes back"
    );
    // A value the request gives, never chosen, that the answer does not name.
    let theme = "Pick Blue as the colour in the Theme dialog, then press OK";
    let theme_ok = || {
        act_in(
            "Theme",
            "push button \"OK\"",
            "press",
            "press it",
            true,
            None,
        )
    };
    let found = judge(
        &ClosedShort,
        &f,
        theme,
        "The user clicked the OK button in the Theme dialog.",
        vec![theme_ok()],
    )
    .expect("closed without Blue");
    assert_eq!(
        found.honest,
        Honest::Before(
            "Not done: \"Theme\" closed, and no act entered or chose \"Blue\", which the request gives."
                .into()
        )
    );
    // The answer names it: `value-not-entered` says so, not this check a second time.
    assert!(judge(
        &ClosedShort,
        &f,
        theme,
        "Blue was picked.",
        vec![theme_ok()]
    )
    .is_none());
    let enter = CallEvidence {
        tool: "keyboard".into(),
        ..call("✓ keyboard enter", true, true, "", vec![])
    };
    let typed = act_in(
        "Vault",
        "password text \"Password\"",
        "set_text",
        "set its text to \"opensesame\"",
        false,
        None,
    );
    let open = act_in(
        "Vault",
        "push button \"OK\"",
        "press",
        "press it",
        false,
        None,
    );
    for calls in [vec![enter, ok()], vec![open], vec![typed, ok()]] {
        let lines: Vec<String> = calls.iter().map(|c| c.line.clone()).collect();
        // The last of these: an OK that closed with the field left is told whatever
        // came before, but for keyboard input.
        let told = judge(&ClosedShort, &f, request, "Done.", calls).is_some();
        let expected = lines.len() == 2 && !lines[0].contains("keyboard");
        assert_eq!(told, expected, "{lines:?}");
    }
}

/// Dialogs answered in full, in many phrasings, are not told short: every value the
/// request gives was entered, chosen or pressed, and nothing it names was left.
#[test]
fn windows_closed_after_the_whole_request_are_not_told_short() {
    let f = fixture();
    let ok = |w: &str| act_in(w, "push button \"OK\"", "press", "press it", true, None);
    let cases: Vec<(&str, Vec<CallEvidence>)> = vec![
        (
            "Type Lisbon into the City dialog and press OK",
            vec![
                act_in(
                    "City",
                    "text \"Your city\"",
                    "set_text",
                    "set its text to \"Lisbon\"",
                    false,
                    None,
                ),
                ok("City"),
            ],
        ),
        (
            "Choose Large in the Size dialog and confirm",
            vec![
                act_in(
                    "Size",
                    "table cell \"Large\"",
                    "press",
                    "press it",
                    false,
                    None,
                ),
                ok("Size"),
            ],
        ),
        (
            "Answer No in the Draft dialog",
            vec![act_in(
                "Draft",
                "push button \"No\"",
                "press",
                "press it",
                true,
                None,
            )],
        ),
        (
            "Set Copies to 3 in the Print dialog, tick Duplex, then press OK",
            vec![
                act_in(
                    "Print",
                    "spin button \"Copies\"",
                    "set_text",
                    "set its value to \"3\"",
                    false,
                    None,
                ),
                act_in(
                    "Print",
                    "check box \"Duplex\"",
                    "toggle",
                    "tick it",
                    false,
                    None,
                ),
                ok("Print"),
            ],
        ),
        (
            "Enter ada@example.com as the email in the Sign up form and press OK",
            vec![
                act_in(
                    "Sign up",
                    "text \"Email\"",
                    "set_text",
                    "set its text to \"ada@example.com\"",
                    false,
                    None,
                ),
                ok("Sign up"),
            ],
        ),
        (
            "Pick Cherry in the Fruit dialog and press OK",
            vec![
                act_in(
                    "Fruit",
                    "combo box \"Apple\"",
                    "select",
                    "choose \"Cherry\"",
                    false,
                    None,
                ),
                ok("Fruit"),
            ],
        ),
        (
            "In the Backup dialog, press Start Now",
            vec![act_in(
                "Backup",
                "push button \"Start Now\"",
                "press",
                "press it",
                true,
                None,
            )],
        ),
        (
            "Press Install in the Update window",
            vec![act_in(
                "Update",
                "push button \"Install\"",
                "press",
                "press it",
                true,
                None,
            )],
        ),
        ("Dismiss the Reminder message", vec![ok("Reminder")]),
        (
            "Type the code 4217 in the Code dialog, then confirm it",
            vec![
                act_in(
                    "Code",
                    "text \"Room code\"",
                    "set_text",
                    "set its text to \"4217\"",
                    false,
                    None,
                ),
                ok("Code"),
            ],
        ),
    ];
    let alarms: Vec<String> = cases
        .into_iter()
        .filter_map(|(request, calls)| {
            judge(&ClosedShort, &f, request, "Done.", calls)
                .map(|found| format!("{request}: {:?}", found.honest))
        })
        .collect();
    assert!(
        alarms.is_empty(),
        "{} false alarms:\n{}",
        alarms.len(),
        alarms.join("\n")
    );
}

/// A window read and an act in it as the element tools give them: Zeta's numbers and
/// places in the output, the window's own texts in `shows`.
fn window_calls(display: &str, closed: bool) -> Vec<CallEvidence> {
    use crate::tool::{ReadBack, Shown};
    let read = CallEvidence {
        tool: "ui_outline".into(),
        line: "✓ ui_outline {\"window\":\"Calculator\"}".into(),
        output: format!(
            "Text on screen read by OCR (in 1.2 s):\n[1] text \"{display}\" @572,240 22x10\n[45] text \"9\" @681,491 7x10\n[46] text \"5\" @681,521 7x10\n-- 40 elements, ~371 tokens"
        ),
        shows: Some(format!("Calculator\n{display}\n9\n5\n")),
        ..call("", false, true, "", vec![])
    };
    let mut back = ReadBack::of(
        "text \"5\" in \"Calculator\"",
        "Calculator",
        "press",
        "press it",
        Shown::Unclear("the screen changed".into()),
    );
    back.closed = closed;
    let press = CallEvidence {
        line: "✓ ui_act {\"action\":\"press\",\"element\":46}".into(),
        output: format!("Did: press [46] \"5\".\nThe screen now (new numbers):\n[47] text \"{display}\" @572,240 22x10\n"),
        shows: Some(format!("Calculator\n{display}\n")),
        ..CallEvidence::act_read_back(back)
    };
    vec![read, press]
}

#[test]
fn a_value_no_window_showed_is_not_grounded_by_the_outlines_numbers() {
    let f = fixture();
    let request = "Multiply 9 by 5 using the xcalc calculator";
    // Evidence that makes it fail: "45" is only an element's number and a token count.
    let found = judge(
        &UngroundedValue,
        &f,
        request,
        "The product of 9 and 5 is 45. The screen now shows the number 45.",
        window_calls("9955", false),
    )
    .expect("a value the window never showed");
    assert!(
        found.message.contains("\"Calculator\"") && found.message.contains("45"),
        "{}",
        found.message
    );
    assert!(
        matches!(&found.honest, Honest::Before(t) if t.starts_with("Not done in the window") && t.contains("45")),
        "{:?}",
        found.honest
    );
    // Shown by the window: it stands.
    assert!(judge(
        &UngroundedValue,
        &f,
        request,
        "The display shows 45.",
        window_calls("45", false)
    )
    .is_none());
    // The window closed: no result was to show there; the usual note.
    let closed = judge(
        &UngroundedValue,
        &f,
        request,
        "There are 2 toppings.",
        window_calls("9955", true),
    )
    .expect("still a value nothing showed");
    assert!(
        matches!(closed.honest, Honest::After(_)),
        "{:?}",
        closed.honest
    );
    // A command's output does not ground the result of a request done in a window
    // still open; for a question, or once the window closed, it does.
    let bc = || {
        call(
            "✓ shell echo 9*5 | bc",
            false,
            true,
            "exit code 0\nstdout:\n45\n",
            vec![],
        )
    };
    let with_bc = |closed: bool| {
        let mut calls = vec![bc()];
        calls.extend(window_calls("9955", closed));
        calls
    };
    assert!(judge(
        &UngroundedValue,
        &f,
        request,
        "9 times 5 is 45.",
        with_bc(false)
    )
    .is_some());
    assert!(judge(
        &UngroundedValue,
        &f,
        request,
        "9 times 5 is 45.",
        with_bc(true)
    )
    .is_none());
    assert!(judge(
        &UngroundedValue,
        &f,
        "What is 9 times 5?",
        "9 times 5 is 45.",
        with_bc(false)
    )
    .is_none());
    // Neither the place nor the count of a window's lines grounds a value.
    assert!(judge(
        &UngroundedValue,
        &f,
        request,
        "It shows 572.",
        window_calls("9955", false)
    )
    .is_some());
}

/// A word read by OCR and pressed is the value it stands for when it is that value
/// misread by a letter or two ("Disniss" for "Dismiss", seen on xmessage); a word read
/// from the tree is as named, and another word is another value. Families of misreads
/// of the bench's buttons, counted.
#[test]
fn a_word_read_by_ocr_and_pressed_counts_as_the_value_it_misreads() {
    let f = fixture();
    let press = |word: &str, ocr: bool| {
        let mut c = act_in(
            "Reminder",
            &format!("text \"{word}\""),
            "press",
            "press it",
            true,
            None,
        );
        if let Some(rb) = c.read_back.as_mut() {
            rb.ocr = ocr;
        }
        c
    };
    let request = "Press Dismiss in the Reminder message";
    let told = |word: &str, ocr: bool| {
        judge(
            &ClosedShort,
            &f,
            request,
            "The Reminder message was dismissed.",
            vec![press(word, ocr)],
        )
        .is_some()
    };
    assert!(!told("Dismiss", false));
    assert!(!told("Disniss", true));
    // Evidence that makes it fail: the same misread, from the tree.
    assert!(told("Disniss", false));
    assert!(told("Dismay", true));
    // Families: each button's name with a letter changed, left out or added (caught),
    // and other words of the same length (never taken for it).
    let names = [
        "Dismiss", "Install", "Cancel", "Apply", "Close", "Print", "Save",
    ];
    let mut caught = 0;
    let mut variants = 0;
    for name in names {
        let chars: Vec<char> = name.chars().collect();
        for at in 1..chars.len() {
            let mut changed = chars.clone();
            changed[at] = if changed[at] == 'n' { 'm' } else { 'n' };
            let mut left_out = chars.clone();
            left_out.remove(at);
            let mut added = chars.clone();
            added.insert(at, 'i');
            for v in [changed, left_out, added] {
                let v: String = v.into_iter().collect();
                variants += 1;
                if judge(
                    &ClosedShort,
                    &f,
                    &format!("Press {name} in the Reminder message"),
                    "Done.",
                    vec![press(&v, true)],
                )
                .is_none()
                {
                    caught += 1;
                }
            }
        }
    }
    println!("{caught} of {variants} one-letter misreads taken for the button's name");
    assert_eq!(caught, variants);
    let mut alarms = Vec::new();
    for (name, other) in [
        ("Dismiss", "Dismay"),
        ("Install", "Uninstall"),
        ("Cancel", "Chapel"),
        ("Apply", "Reply"),
        ("Close", "Clone2"),
        ("Save", "Safe"),
        ("Print", "Paint"),
        ("Yes", "Yet"),
        ("OK", "On"),
    ] {
        let judged = judge(
            &ClosedShort,
            &f,
            &format!("Press {name} in the Reminder message"),
            "Done.",
            vec![press(other, true)],
        );
        if judged.is_none() {
            alarms.push(format!("{other} for {name}"));
        }
    }
    println!(
        "{} of 9 other words taken for a name: {alarms:?}",
        alarms.len()
    );
    // A letter off a short name is a word of its own at times ("Safe", "Paint"): what
    // OCR reads cannot tell them apart.
    assert!(alarms.len() <= 2, "{alarms:?}");
}

/// An editor's Save that wrote the file its window's title names, with every element the
/// request names acted on: done in the window. A value the answer gives that the window
/// never showed is then said unchecked after the answer, not "Not done" before it; the
/// same act with nothing saved, with the request not met, or a step left, is no such
/// evidence.
#[test]
fn a_request_done_in_an_editor_and_saved_makes_a_stray_value_unchecked_not_undone() {
    use crate::tool::{ReadBack, Shown};
    let f = fixture();
    let file = f.dir.path().join("todo.txt");
    std::fs::write(&file, "milk\neggs\n").expect("todo.txt");
    let title = format!("{} - Mousepad", file.display());
    let save = |met: bool, saved: bool, left: Option<&str>| {
        let mut back = ReadBack::of(
            "menu \"File\"",
            &title,
            "select",
            "choose \"Save\"",
            Shown::Yes("chose it".into()),
        );
        back.request_met = met;
        back.left = left.map(str::to_string);
        CallEvidence {
            effects: if saved {
                vec![Effect::Changed(file.clone())]
            } else {
                vec![]
            },
            shows: Some(format!("{title}\nmilk\neggs\n")),
            ..CallEvidence::act_read_back(back)
        }
    };
    let (home, cwd) = (f.env.home.as_path(), f.env.cwd.as_path());
    assert!(super::done_in_window(&[save(true, true, None)], home, cwd));
    for (met, saved, left) in [
        (false, true, None),
        (true, false, None),
        (true, true, Some("the request's step \"x\" is left")),
    ] {
        assert!(
            !super::done_in_window(&[save(met, saved, left)], home, cwd),
            "{met} {saved} {left:?}"
        );
    }
    let request =
        "In the Mousepad window, add a line with the word eggs after milk, and save the file";
    let answer = "There are 2 lines in the file todo.txt; I saved it.";
    let found = judge(
        &UngroundedValue,
        &f,
        request,
        answer,
        vec![save(true, true, None)],
    )
    .expect("2 is shown nowhere");
    assert!(
        matches!(&found.honest, Honest::After(t) if t.contains("Not checked") && t.contains('2')),
        "{:?}",
        found.honest
    );
    assert!(found.message.contains("is done there"), "{}", found.message);
    // Not saved: the window's result is what counts, and it never showed 2.
    let found = judge(
        &UngroundedValue,
        &f,
        request,
        answer,
        vec![save(true, false, None)],
    )
    .expect("2 is shown nowhere");
    assert!(
        matches!(&found.honest, Honest::Before(t) if t.starts_with("Not done in the window")),
        "{:?}",
        found.honest
    );
}

/// A word of the request the answer quotes as done, that no act entered and no window
/// showed, is held like a value by its shape: FeatherPad's text set to "apples" alone,
/// saved, and "I added 'pears' after 'apples'" answered. Not held: a quoted word a window
/// showed ('apples'), one an act entered, one the request does not hold, or one quoted
/// nowhere in the answer.
#[test]
fn a_word_of_the_request_the_answer_quotes_as_done_must_have_been_entered() {
    use crate::tool::{ReadBack, Shown};
    let f = fixture();
    let request = "In FeatherPad, add the line pears after apples and save the file";
    let set = |text: &str| {
        let mut back = ReadBack::of(
            "text in \"list.txt\"",
            "list.txt",
            "set_text",
            &format!("set its text to \"{text}\""),
            Shown::Yes("it shows it".into()),
        );
        back.app = "featherpad".into();
        CallEvidence {
            shows: Some(format!("list.txt\n{text}\n")),
            ..CallEvidence::act_read_back(back)
        }
    };
    let claim = "There are 2 lines in the file 'list.txt'; I added 'pears' after 'apples'.";
    let found = judge(&ValueNotEntered, &f, request, claim, vec![set("apples")])
        .expect("pears was never entered");
    assert!(
        found.message.contains("\"pears\"") && !found.message.contains("\"apples\""),
        "{}",
        found.message
    );
    for (text, answer) in [
        ("apples\npears", claim),
        ("apples", "I saved the file; it says 'apples'."),
        ("apples", "I added pears after apples."),
        ("apples", "I added 'plums' after 'apples'."),
    ] {
        let found = judge(&ValueNotEntered, &f, request, answer, vec![set(text)]);
        assert!(
            found.is_none(),
            "{text:?} {answer:?}: {:?}",
            found.map(|f| f.message)
        );
    }
}

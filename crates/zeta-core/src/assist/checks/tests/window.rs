//! Tests of the checks of what a window shows after the acts (`window.rs`).

use super::*;

#[test]
fn an_act_the_window_does_not_show_holds_the_answer_until_settled() {
    use crate::tool::Shown;
    let f = fixture();
    let request = "Set Copies to 7 in the print window";
    let copies = "spin button \"Copies\" in \"Print\"";
    let not_shown = || act(copies, Shown::No("it shows \"1\"".into()));
    // Evidence that makes it fail: the only act on Copies did not show.
    let found = judge(&ActNotShown, &f, request, "Done.", vec![not_shown()])
        .expect("an act that did not show holds the answer");
    assert!(found.message.contains(copies) && found.message.contains("it shows \"1\""));
    assert!(
        matches!(&found.honest, Honest::Before(t) if t.starts_with("Not done:") && t.contains(copies))
    );
    // Evidence that makes it pass: a later act on the same element showed; the act
    // showed at once; a keyboard step came after (done another way, unseen); an act
    // on another element showing does not settle this one.
    let shown = act(copies, Shown::Yes("it shows \"7\"".into()));
    assert!(judge(
        &ActNotShown,
        &f,
        request,
        "Done.",
        vec![not_shown(), shown.clone()]
    )
    .is_none());
    assert!(judge(&ActNotShown, &f, request, "Done.", vec![shown.clone()]).is_none());
    let mut keys = call("✓ keyboard 7", true, true, "", vec![]);
    keys.tool = "keyboard".into();
    assert!(judge(&ActNotShown, &f, request, "Done.", vec![not_shown(), keys]).is_none());
    let other = act(
        "text \"Title\" in \"Print\"",
        Shown::Yes("it shows \"x\"".into()),
    );
    assert!(judge(&ActNotShown, &f, request, "Done.", vec![not_shown(), other]).is_some());
    // Unclear (a press whose effect is elsewhere) holds nothing.
    let unclear = act(
        copies,
        Shown::Unclear("nothing in the window changed".into()),
    );
    assert!(judge(&ActNotShown, &f, request, "Done.", vec![unclear]).is_none());
    // A later act that did not show either stands with the first.
    let both = ActNotShown::unsettled(&[not_shown(), not_shown()]).len();
    assert_eq!(both, 2);
    // An act that failed (typing into a label) holds the answer, unless an act of the
    // same kind in the same window worked after it (typed into the field instead).
    let mut failed = act(
        "label \"City\" in \"Print\"",
        Shown::No("it does not take text".into()),
    );
    failed.ok = false;
    assert!(judge(&ActNotShown, &f, request, "Typed it.", vec![failed.clone()]).is_some());
    let mut field = act(
        "text \"City\" in \"Print\"",
        Shown::Yes("it shows \"7\"".into()),
    );
    // Typed, where the failed act set text: one kind of act.
    field.read_back.as_mut().unwrap().action = "type".into();
    assert!(judge(
        &ActNotShown,
        &f,
        request,
        "Typed it.",
        vec![failed.clone(), field]
    )
    .is_none());
    // A press of OK that failed (its window gone) after Cancel closed it stands.
    let mut cancel = act(
        "button \"Cancel\" in \"Print\"",
        Shown::Yes("its window closed".into()),
    );
    cancel.read_back.as_mut().unwrap().action = "press".into();
    let mut ok = act("button \"OK\" in \"Print\"", Shown::No("it is gone".into()));
    ok.ok = false;
    ok.read_back.as_mut().unwrap().action = "press".into();
    assert!(judge(
        &ActNotShown,
        &f,
        request,
        "Pressed OK.",
        vec![cancel.clone(), ok.clone()]
    )
    .is_some());
    // The same failed press after an act that met the request in the window (every
    // element it names acted on, the window not contradicting it) did nothing: it
    // stands out of the way (seen: "answer No" pressed, then Yes refused).
    let mut met = cancel;
    met.read_back.as_mut().unwrap().request_met = true;
    assert!(judge(
        &ActNotShown,
        &f,
        request,
        "Pressed Cancel.",
        vec![met.clone(), ok.clone()]
    )
    .is_none());
    // Not an act that failed: an act after it that does not show still holds.
    let mut shown_not = ok;
    shown_not.ok = true;
    assert!(judge(&ActNotShown, &f, request, "Done.", vec![met, shown_not]).is_some());
}

#[test]
fn a_change_asked_of_a_window_is_left_to_what_the_window_shows() {
    use crate::tool::Shown;
    let f = fixture();
    let request = "type Kitchen as the label in the settings window";
    let failed = || {
        let mut a = act(
            "label \"Label: (none)\"",
            Shown::No("it does not take text".into()),
        );
        a.ok = false;
        a.line = "✗ ui_act label".into();
        a
    };
    // No file changes when a window is acted on: `asked-change` says nothing,
    // `act-not-shown` says what the window shows.
    assert!(judge(
        &AskedChange,
        &f,
        request,
        "I typed Kitchen.",
        vec![failed()]
    )
    .is_none());
    assert!(judge(
        &ActNotShown,
        &f,
        request,
        "I typed Kitchen.",
        vec![failed()]
    )
    .is_some());
    // The same failed call with no read-back (a command): `asked-change` holds it.
    let mut command = failed();
    command.read_back = None;
    command.tool = "shell".into();
    assert!(judge(&AskedChange, &f, request, "I typed Kitchen.", vec![command]).is_some());
}

/// `window-not-saved`, over titles editors give their windows and the calls after the
/// typing: text landed in a window whose title names a file, and no later call changed
/// that file, holds the answer; a save (the file changed after), a title naming no file
/// that exists, text that did not land, or typing into a dialog hold nothing.
#[test]
fn text_typed_into_a_files_window_holds_the_answer_until_the_file_changes() {
    use crate::tool::Shown;
    let f = fixture();
    std::fs::write(p(&f, "todo.txt"), "milk\n").expect("write");
    std::fs::create_dir_all(p(&f, "docs")).expect("dir");
    std::fs::write(p(&f, "docs/plan.md"), "x\n").expect("write");
    let typed = |window: &str, shown: Shown| {
        let mut c = act("text in the window", shown);
        c.read_back.as_mut().unwrap().window = window.into();
        c.read_back.as_mut().unwrap().action = "type".into();
        c
    };
    let landed = || Shown::Yes("it shows \"milk eggs\"".into());
    let request = "Add eggs to the list in the editor and save it";
    let todo = p(&f, "todo.txt");
    let absolute = format!("{} - Mousepad", todo.display());
    let plan = p(&f, "docs/plan.md");
    for title in [
        "todo.txt - Mousepad".to_string(),
        "*todo.txt - FeatherPad".to_string(),
        "todo.txt".to_string(),
        absolute.clone(),
        format!("*{} (~/docs) - gedit", plan.display()),
    ] {
        let found = judge(
            &WindowNotSaved,
            &f,
            request,
            "Done.",
            vec![typed(&title, landed())],
        )
        .unwrap_or_else(|| panic!("{title}: not held"));
        assert!(
            found.message.contains("~/todo.txt") || found.message.contains("~/docs/plan.md"),
            "{title}: {}",
            found.message
        );
        assert!(matches!(&found.honest, Honest::After(t) if t.starts_with("Not saved:")));
    }
    // Saved after the typing (a press of Save, keys): the file changed.
    let mut save = act("button \"Save\"", Shown::Unclear("nothing changed".into()));
    save.effects = vec![Effect::Changed(todo.clone())];
    assert!(judge(
        &WindowNotSaved,
        &f,
        request,
        "Done.",
        vec![typed(&absolute, landed()), save.clone()]
    )
    .is_none());
    // A save before the typing does not save what was typed after it.
    assert!(judge(
        &WindowNotSaved,
        &f,
        request,
        "Done.",
        vec![save, typed(&absolute, landed())]
    )
    .is_some());
    // No file by that name; a dialog's title; text that did not land; a press.
    for (title, shown) in [
        ("missing.txt - Mousepad", landed()),
        ("Save As", landed()),
        ("Print", landed()),
        ("todo.txt - Mousepad", Shown::No("it shows \"milk\"".into())),
    ] {
        assert!(
            judge(
                &WindowNotSaved,
                &f,
                request,
                "Done.",
                vec![typed(title, shown)]
            )
            .is_none(),
            "{title}"
        );
    }
    let mut press = typed("todo.txt - Mousepad", landed());
    press.read_back.as_mut().unwrap().action = "press".into();
    assert!(judge(&WindowNotSaved, &f, request, "Done.", vec![press]).is_none());
}

/// `window-untouched` for `request`, answered with a claim after `calls`, in a task about
/// the window titled `window` (read for the model), or about none.
fn untouched(
    f: &Fixture,
    request: &str,
    window: Option<&str>,
    calls: Vec<CallEvidence>,
) -> Option<Finding> {
    let claim = "Done: the button was pressed and the value is set.";
    judge_in(&WindowUntouched, f, request, claim, calls, window)
}

fn read_window() -> CallEvidence {
    CallEvidence {
        tool: "ui_outline".into(),
        changes: false,
        ..call(
            "✓ ui_outline {}",
            false,
            true,
            "[1] push button \"OK\"",
            vec![],
        )
    }
}

/// Orders for a window, of several shapes (none of them the words it was built from).
const WINDOW_ORDERS: &[&str] = &[
    "Press Dismiss in the Reminder message",
    "With the Calculator app, compute 100 minus 58",
    "Use the MATE calculator to work out 23 times 4",
    "In FeatherPad, add the line pears after apples and save the file",
    "Pick Cherry in the Fruit dialog and press OK",
    "Can you set Copies to 3 in the Print window?",
    "Make the FeatherPad document say on instead of off",
    "Enter 4217 as the room code in the Code dialog",
    "please turn on Dark mode in Settings",
];

#[test]
fn an_order_for_a_window_answered_with_nothing_done_in_it_goes_back_then_is_said_not_done() {
    let f = fixture();
    // What a model did instead of acting: read only; worked it out with a command; a
    // command that changed no file; a command that failed.
    let instead: Vec<Vec<CallEvidence>> = vec![
        vec![read_window()],
        vec![
            read_window(),
            call("✓ shell echo '100-58' | bc", false, true, "42", vec![]),
        ],
        vec![
            read_window(),
            call("✓ shell rm -f ~/reminder", true, true, "", vec![]),
        ],
        vec![
            read_window(),
            call("✗ shell xcalc 6 + 7", true, false, "Usage: xcalc", vec![]),
        ],
        vec![
            read_window(),
            CallEvidence {
                tool: "ui_act".into(),
                ..call(
                    "✗ ui_act press [9]",
                    true,
                    false,
                    "there is no element 9",
                    vec![],
                )
            },
        ],
    ];
    let mut misses = Vec::new();
    for request in WINDOW_ORDERS {
        for calls in &instead {
            match untouched(&f, request, Some("Reminder"), calls.clone()) {
                Some(found) => assert_eq!(
                    found.honest,
                    Honest::Before(
                        "Not done: nothing was done in the window \"Reminder\"; no act on it went through."
                            .into()
                    )
                ),
                None => misses.push(format!("{request:?} after {:?}", calls.last().map(|c| &c.line))),
            }
        }
    }
    assert!(
        misses.is_empty(),
        "{} misses:\n{}",
        misses.len(),
        misses.join("\n")
    );
    // A known miss: an order whose only verb is no change verb, beside words that ask to
    // be told ("asks whether"), reads as a question (`Request::only_asks`).
    assert!(untouched(
        &f,
        "The Backup dialog asks whether to start the backup now: answer No",
        Some("Backup"),
        vec![read_window()]
    )
    .is_none());
}

#[test]
fn an_act_that_went_through_a_file_changed_a_question_or_no_window_leave_the_answer() {
    let f = fixture();
    let pressed = act(
        "button \"Dismiss\" in \"Reminder\"",
        crate::tool::Shown::Yes("gone".into()),
    );
    let typed = CallEvidence {
        tool: "keyboard".into(),
        ..call("✓ keyboard type 42", true, true, "typed", vec![])
    };
    let edited = call(
        "✓ shell sed -i s/off/on/ ~/mode.txt",
        true,
        true,
        "",
        vec![Effect::Changed(p(&f, "mode.txt"))],
    );
    let mut alarms = Vec::new();
    for request in WINDOW_ORDERS {
        for done in [&pressed, &typed, &edited] {
            if untouched(
                &f,
                request,
                Some("Reminder"),
                vec![read_window(), done.clone()],
            )
            .is_some()
            {
                alarms.push(format!("{request:?} after {}", done.line));
            }
        }
        // Not a task about a window on screen (it was not read for the model).
        if untouched(&f, request, None, vec![read_window()]).is_some() {
            alarms.push(format!("{request:?} with no window"));
        }
    }
    for question in [
        "What does the Reminder message say?",
        "which buttons does the Print dialog have?",
        "Tell me what the Calculator shows",
    ] {
        if untouched(&f, question, Some("Reminder"), vec![read_window()]).is_some() {
            alarms.push(format!("{question:?}"));
        }
    }
    assert!(
        alarms.is_empty(),
        "{} false alarms:\n{}",
        alarms.len(),
        alarms.join("\n")
    );
}

/// A failed act whose like (its name, its kind, its window) went through before it is
/// settled: what it meant was done already (FeatherPad's menu item Save pressed, then
/// its toolbar's Save refused, disabled once the file was saved). One whose like came
/// only in another window, or was another kind of act, is not.
#[test]
fn a_failed_act_done_before_by_its_like_is_settled() {
    use crate::tool::{ReadBack, Shown};
    let f = fixture();
    let request = "In FeatherPad, add the line pears after apples and save the file";
    let act = |element: &str, window: &str, action: &str, shown: Shown, ok: bool| CallEvidence {
        ok,
        ..CallEvidence::act_read_back(ReadBack::of(
            &format!("{element} in \"{window}\""),
            window,
            action,
            "press it",
            shown,
        ))
    };
    let refused = || {
        act(
            "button \"Save\"",
            "list.txt",
            "press",
            Shown::No("it was not done: button \"Save\" is disabled".into()),
            false,
        )
    };
    let menu = |window: &str, action: &str| {
        act(
            "menu item \"Save\"",
            window,
            action,
            Shown::Unclear("".into()),
            true,
        )
    };
    assert!(judge(
        &ActNotShown,
        &f,
        request,
        "Saved.",
        vec![menu("list.txt", "press"), refused()]
    )
    .is_none());
    // Evidence that makes it fail: the like in another window, of another kind, or after.
    for calls in [
        vec![menu("other.txt", "press"), refused()],
        vec![menu("list.txt", "set_text"), refused()],
        vec![refused()],
    ] {
        assert!(judge(&ActNotShown, &f, request, "Saved.", calls).is_some());
    }
}

/// A change held back, then done in the window after all (a dialog answered, its
/// request met): no "Not done: a change was not allowed"; with nothing done there, it
/// stands.
#[test]
fn a_change_held_back_then_done_in_the_window_is_not_said_undone() {
    use crate::tool::{ReadBack, Shown};
    let f = fixture();
    let request = Request::parse("Type Rex into the Pet dialog and press OK", &f.env);
    let refused = CallEvidence {
        ran: false,
        changes: true,
        ..call(
            "✗ shell echo Rex | some-tool",
            true,
            false,
            "denied",
            vec![],
        )
    };
    let press = |met: bool| {
        CallEvidence::act_read_back(ReadBack {
            request_met: met,
            closed: true,
            ..ReadBack::of(
                "button \"OK\" in \"Pet\"",
                "Pet",
                "press",
                "press it",
                Shown::Yes("its window closed".into()),
            )
        })
    };
    for (met, held) in [(true, false), (false, true)] {
        let mut evidence = Evidence::default();
        evidence.push(refused.clone());
        evidence.push(press(met));
        let found = HeldBack.judge(&Case {
            request: &request,
            answer: "I typed Rex and pressed OK.",
            evidence: &evidence,
            held_back: true,
            stopped: None,
            window: Some("Pet"),
            env: &f.env,
        });
        assert_eq!(
            found.is_some(),
            held,
            "met {met}: {:?}",
            found.map(|f| f.honest)
        );
    }
}

/// `text-dropped`: a text set in place of all an element held, made again after it was
/// held for leaving out words the request names, is told after an answer that does not
/// name them; an answer that names them, an act the window did not show, and acts that
/// dropped nothing leave the answer as it is.
#[test]
fn text_dropped_tells_words_the_request_names_that_a_confirmed_text_left_out() {
    use crate::tool::{ReadBack, Shown};
    let f = fixture();
    let set = |dropped: &[&str], shown: Shown| {
        let mut rb = ReadBack::of(
            "text in \"list.txt\"",
            "list.txt",
            "set_text",
            "set its text to \"pears\"",
            shown,
        );
        rb.dropped = dropped.iter().map(|w| w.to_string()).collect();
        CallEvidence::act_read_back(rb)
    };
    let request = "In FeatherPad, add the line pears after apples and save the file";
    let yes = || Shown::Yes("it shows \"pears\"".into());
    // (answer, acts, told)
    let cases: Vec<(&str, Vec<CallEvidence>, bool)> = vec![
        (
            "I saved the file 'list.txt'.",
            vec![set(&["apples"], yes())],
            true,
        ),
        (
            "Done: pears is in the file.",
            vec![set(&["apples", "milk"], yes())],
            true,
        ),
        (
            "I replaced Apples with pears and saved it.",
            vec![set(&["apples"], yes())],
            false,
        ),
        ("I saved the file.", vec![set(&[], yes())], false),
        (
            "I saved the file.",
            vec![set(&["apples"], Shown::No("it shows \"apples\"".into()))],
            false,
        ),
    ];
    for (answer, calls, told) in cases {
        let found = judge(&TextDropped, &f, request, answer, calls);
        assert_eq!(found.is_some(), told, "{answer}: {found:?}");
        if let Some(found) = found {
            let Honest::After(text) = &found.honest else {
                panic!("{found:?}");
            };
            assert!(
                text.contains("no longer holds apples")
                    && text.contains("which the request names")
                    && text.contains("set its text to \"pears\""),
                "{text}"
            );
        }
    }
}

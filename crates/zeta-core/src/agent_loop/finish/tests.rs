use super::*;
use crate::assist::evidence::Effect;
use crate::model::ToolCall;
use serde_json::json;

const REQUEST: &str = "How much free disk space do I have?";

fn call() -> ToolCall {
    ToolCall {
        id: "call_1".into(),
        name: "shell".into(),
        arguments: json!({"command": "df -h /"}),
    }
}

/// A home of its own, so the checks read no real files.
struct Home(tempfile::TempDir);

impl Home {
    fn new() -> Self {
        Self(tempfile::tempdir().expect("temp"))
    }
    fn env(&self) -> ShellEnv {
        ShellEnv {
            home: self.0.path().to_path_buf(),
            cwd: self.0.path().to_path_buf(),
            user: "me".into(),
        }
    }
    fn finishing(&self, checks: Checks, planner: bool, request: &str) -> Finishing {
        Finishing::new(
            checks,
            planner,
            Request::parse(request, &self.env()),
            self.env(),
        )
    }
}

fn saw(f: &mut Finishing, line: &str, changes: bool, output: &str) {
    saw_with(f, line, changes, output, Vec::new());
}

fn saw_with(f: &mut Finishing, line: &str, changes: bool, output: &str, effects: Vec<Effect>) {
    let ok = !line.starts_with('✗');
    f.observed(CallEvidence::shell(line, changes, ok, output, effects));
}

fn shell(stdout: &str) -> String {
    format!("exit code 0\nstdout:\n{stdout}\n")
}

#[test]
fn without_verify_every_answer_stands() {
    let home = Home::new();
    for planner in [false, true] {
        let mut f = home.finishing(Checks::Never, planner, REQUEST);
        for calls in [0, 1, 5] {
            assert_eq!(f.check("42 GB", calls), None);
        }
        assert!(!f.expects_verdict());
        assert_eq!(f.final_answer("42 GB".into()), "42 GB");
    }
}

/// `self-check` off by name (a measuring aid): a change no file shows (a process
/// stopped), which gets the verification turn, stands without it.
#[test]
fn the_verification_turn_is_turned_off_by_its_name() {
    let home = Home::new();
    let request = "Kill the process named sleeper";
    for planner in [false, true] {
        for (off, verified) in [(vec![], true), (vec!["self-check".to_string()], false)] {
            let mut f = home
                .finishing(Checks::WherePays, planner, request)
                .without(&off);
            saw(&mut f, "✓ shell pkill sleeper", true, &shell(""));
            let back = f.check("I stopped sleeper.", 1);
            assert_eq!(back.is_some(), verified, "{planner} {off:?}: {back:?}");
        }
    }
}

#[test]
fn an_answer_before_anything_ran_goes_back_once() {
    let home = Home::new();
    for planner in [false, true] {
        let mut f = home.finishing(Checks::WherePays, planner, REQUEST);
        let back = f.check("You have 42 GB free.", 0);
        assert!(
            back.is_some_and(|m| m.contains("seen nothing")),
            "{planner}"
        );
        assert!(!f.expects_verdict(), "a push back is not a verdict turn");
        let record = f.take_record();
        assert_eq!(record.len(), 1);
        assert_eq!(
            (record[0].check, record[0].result),
            ("nothing-ran", CheckResult::SentBack)
        );
        assert_eq!(f.check("You have 42 GB free.", 0), None);
        // An empty confirmation keeps the answer that went back.
        assert_eq!(f.final_answer(String::new()), "You have 42 GB free.");
    }
}

#[test]
fn a_check_per_stretch_of_calls_and_two_at_most() {
    let home = Home::new();
    for planner in [false, true] {
        let mut f = home.finishing(Checks::WherePays, planner, "Free some disk space");
        saw(&mut f, "✓ shell rm -rf ~/.cache/thumbnails", true, "");
        let first = f.check("Done", 1);
        assert!(
            first.as_deref().is_some_and(|m| m.contains("rm -rf")),
            "{first:?}"
        );
        assert_eq!(f.expects_verdict(), planner);
        if planner {
            let _ = f.verdict(Verdict::Continue(call()));
        }
        assert_eq!(f.check("Done", 1), None, "no new call: no new check");
        saw(&mut f, "✓ shell df -h", false, &shell("42G"));
        assert!(f.check("Done", 2).is_some(), "new calls: a second check");
        if planner {
            let _ = f.verdict(Verdict::Continue(call()));
        }
        saw(&mut f, "✓ shell df -h", false, &shell("42G"));
        assert_eq!(f.check("Done", 3), None, "two checks at most");
    }
}

#[test]
fn verdicts_run_a_call_end_with_the_checked_answer_or_go_back_to_planning() {
    let home = Home::new();
    let request = "How much disk is free, and which folder is largest?";
    let checked = |f: &mut Finishing| {
        saw(f, "✓ shell df -h /", false, &shell("42G"));
        assert!(f.check("42 GB free", 1).is_some());
        assert!(f.expects_verdict());
    };
    let mut f = home.finishing(Checks::WherePays, true, request);
    checked(&mut f);
    assert_eq!(
        f.verdict(Verdict::Continue(call())),
        Ok(Step::Calls(vec![call()]))
    );
    assert!(!f.expects_verdict());
    assert_eq!(f.final_answer(" ".into()), "42 GB free", "kept in case");

    let mut f = home.finishing(Checks::WherePays, true, request);
    checked(&mut f);
    assert_eq!(
        f.verdict(Verdict::Finished { unable: None }),
        Ok(Step::Final("42 GB free".into()))
    );
    let mut f = home.finishing(Checks::WherePays, true, request);
    checked(&mut f);
    let unable = Some("the home folder's share".to_string());
    assert_eq!(
        f.verdict(Verdict::Finished { unable }),
        Ok(Step::Final(
            "42 GB free\n\nNot done: the home folder's share".into()
        ))
    );
    let mut f = home.finishing(Checks::WherePays, true, request);
    checked(&mut f);
    assert_eq!(
        f.verdict(Verdict::Unfinished),
        Err(prompt::UNFINISHED_PROMPT.to_string())
    );
    assert!(!f.expects_verdict());
    assert_eq!(f.final_answer(String::new()), "42 GB free");
}

#[test]
fn a_one_part_question_answered_from_read_only_output_stands() {
    let home = Home::new();
    for planner in [false, true] {
        let mut f = home.finishing(Checks::WherePays, planner, REQUEST);
        saw(&mut f, "✓ shell df -h /", false, &shell("42G"));
        assert_eq!(f.check("42 GB", 1), None, "{planner}");
        let two = "How much disk space is free, and which folder is largest?";
        let mut f = home.finishing(Checks::WherePays, planner, two);
        saw(&mut f, "✓ shell df -h /", false, &shell("42G"));
        assert!(f.check("42 GB", 1).is_some(), "{planner}");
        let mut f = home.finishing(Checks::Always, planner, REQUEST);
        saw(&mut f, "✓ shell df -h /", false, &shell("42G"));
        assert!(f.check("42 GB", 1).is_some(), "{planner}");
    }
}

/// An order nothing carried out goes back with the evidence (twice at most); then the
/// person is told what ran and that nothing changed, instead of the claim.
#[test]
fn a_change_nothing_made_goes_back_then_the_person_is_told() {
    let home = Home::new();
    for (request, check, sent, told) in [
        (
            "Delete the .tmp files in ~/docs",
            "asked-change",
            "no file changed",
            "I did not do this",
        ),
        (
            "Rename ~/docs/a.txt to b.txt",
            "asked-target",
            "b.txt does not exist",
            "I did not finish this",
        ),
    ] {
        for planner in [false, true] {
            let mut f = home.finishing(Checks::WherePays, planner, request);
            saw(&mut f, "✓ shell ls ~/docs", false, &shell("a.txt"));
            let claim = "Done: I took care of ~/docs.";
            for _ in 0..2 {
                let back = f.check(claim, 1).expect("sent back");
                assert!(back.contains(sent), "{back}");
            }
            assert_eq!(f.check(claim, 1), None, "past its cap");
            let answer = f.final_answer(claim.into());
            assert!(answer.starts_with(told), "{answer}");
            assert!(!answer.contains("took care"), "{answer}");
            let record = f.take_record();
            let told: Vec<&str> = record
                .iter()
                .filter(|r| r.result == CheckResult::Told)
                .map(|r| r.check)
                .collect();
            assert_eq!(told, [check]);
        }
    }
}

/// A change the evidence bears out stands without a check, unless the request also asks
/// to be told something.
#[test]
fn a_change_the_evidence_bears_out_needs_no_check() {
    let home = Home::new();
    let path = home.0.path().join("table.csv");
    std::fs::write(&path, "a,b\n").expect("write");
    let moved = || {
        vec![Effect::Moved {
            from: home.0.path().join("mid.csv"),
            to: path.clone(),
        }]
    };
    let run = |request: &str| {
        let mut f = home.finishing(Checks::WherePays, true, request);
        saw_with(
            &mut f,
            "✓ shell mv ~/mid.csv ~/table.csv",
            true,
            "",
            moved(),
        );
        f.check("I renamed ~/mid.csv to ~/table.csv.", 1)
    };
    assert_eq!(run("Rename ~/mid.csv to ~/table.csv"), None);
    assert!(run("Rename ~/mid.csv to ~/table.csv and tell me its size").is_some());
}

#[test]
fn a_value_no_output_printed_goes_back_once_then_is_marked() {
    let home = Home::new();
    let request = "How many lines are in ~/poem.txt?";
    // `second-way` would ask for a program next: this is about `ungrounded-value`.
    let mut f = home
        .finishing(Checks::WherePays, true, request)
        .without(&["second-way".to_string()]);
    saw(
        &mut f,
        "✓ shell wc -l ~/poem.txt",
        false,
        &shell("137 /home/me/poem.txt"),
    );
    let back = f.check("The file has 1 line.", 1).expect("sent back");
    assert!(back.contains("no output shows 1"), "{back}");
    assert_eq!(f.check("The file has 1 line.", 1), None);
    let answer = f.final_answer("The file has 1 line.".into());
    assert_eq!(
        answer,
        "The file has 1 line.\n\n(Not checked: no command printed 1.)"
    );
}

/// Zeta's own messages never reach the person: a sentence copied from one is left out,
/// and an answer that was all copy becomes what the task did.
#[test]
fn an_internal_message_never_becomes_the_answer() {
    let home = Home::new();
    let request = "Which files are in ~/docs?";
    let mut f = home.finishing(Checks::Never, true, request);
    let message = "Checked on this computer: ~/docs/b.txt has not changed during this task. Your answer says it is done, but it is not. Run the command that does it now.";
    f.said(message);
    saw(&mut f, "✓ shell ls ~/docs", false, &shell("a.txt"));
    let copied = "~/docs/b.txt has not changed during this task. Your answer says it is done, but it is not.";
    let answer = f.final_answer(copied.into());
    assert!(!answer.contains("Your answer says"), "{answer}");
    assert!(answer.contains("What ran"), "{answer}");
    let mut f = home.finishing(Checks::Never, true, request);
    f.said(message);
    let mixed = format!("There are 3 files. {copied}");
    assert_eq!(f.final_answer(mixed), "There are 3 files.");
    // The shell's own hints too.
    let mut f = home.finishing(Checks::Never, true, request);
    assert_eq!(
        f.final_answer("Found 3 files.\n(next: the command failed. Read what it printed.)".into()),
        "Found 3 files."
    );
    // An answer that copies nothing is left whole.
    let mut f = home.finishing(Checks::Never, true, request);
    f.said(message);
    assert_eq!(f.final_answer("All 3 renamed.".into()), "All 3 renamed.");
    // The rules the model works by, said again in its own words (seen on the bench),
    // and a shell hint that came back inside an output, said without its mark.
    let mut f = home.finishing(Checks::Never, true, request);
    f.said(&crate::agent_loop::prompt::native_prompt(""));
    saw(
        &mut f,
        "✗ shell ls ~/docs -y",
        false,
        "exit code 2\nstderr:\nls: invalid option -- 'y'\n(next: the command failed. Read what it printed, then fix the command or take another way; do not report a result it did not give.)",
    );
    for said_again in [
        "The command failed. Read the error and adapt it. Do not repeat a failing step unchanged.",
        "The command failed. Read what it printed, then fix the command or take another way; do not report a result it did not give.",
    ] {
        let answer = f.final_answer(said_again.into());
        assert!(answer.starts_with("I could not give a complete answer."), "{answer}");
        assert!(!answer.contains("adapt") && !answer.contains("another way"), "{answer}");
    }
}

/// A question of several parts answered from a short output stands when the answer
/// carries every word and number of it; one that leaves a part out, or rests on a long
/// or failed output, still gets its check. Families of outputs and answers.
#[test]
fn an_answer_that_carries_the_whole_short_output_needs_no_check() {
    let home = Home::new();
    let request = "Which item in ~/shop/prices.txt is the cheapest, and what does it cost?";
    let outputs = [
        ("Widget: 4.50 EUR", "Widget", "4.50 EUR"),
        ("widget 4.5", "Widget", "4.5"),
        ("4.50 Widget", "widget", "4.50"),
        ("Gizmo,7.25", "Gizmo", "7.25"),
        ("big.bin 50000", "big.bin", "50000 bytes"),
    ];
    let (mut misses, mut false_alarms, mut cases) = (0, 0, 0);
    for (stdout, name, value) in outputs {
        let whole = [
            format!("The cheapest item is {name}; it costs {value}."),
            format!("{name} is the cheapest, at {value}."),
            format!("It is {name} ({value})."),
        ];
        let partial = [
            format!("It costs {value}."),
            format!("The cheapest item is {name}."),
            "It is the first one.".to_string(),
        ];
        for (answers, should_stand) in [(&whole, true), (&partial, false)] {
            for answer in answers.iter() {
                for ok in [true, false] {
                    cases += 1;
                    // The verification turn only (`second-way` asks for a program).
                    let mut f = home
                        .finishing(Checks::WherePays, true, request)
                        .without(&["second-way".to_string()]);
                    let mark = if ok { "✓" } else { "✗" };
                    saw(&mut f, &format!("{mark} shell x"), false, &shell(stdout));
                    let stands = f.check(answer, 1).is_none();
                    let want = should_stand && ok;
                    if stands && !want {
                        misses += 1;
                    } else if !stands && want {
                        false_alarms += 1;
                    }
                }
            }
        }
    }
    for (request, stdout, answer) in [
        (
            "What is my user name and how much disk space is free?",
            "root",
            "Your user name is root.",
        ),
        (
            "How many .log files are in ~/logs, and which one is the newest?",
            "3",
            "There are 3 .log files.",
        ),
        (
            "Which kernel runs; what is its version?",
            "Linux",
            "It runs Linux.",
        ),
    ] {
        cases += 1;
        let mut f = home
            .finishing(Checks::WherePays, true, request)
            .without(&["second-way".to_string()]);
        saw(&mut f, "✓ shell x", false, &shell(stdout));
        if f.check(answer, 1).is_none() {
            misses += 1;
        }
    }
    println!(
        "{cases} cases: {misses} answers let through unchecked, {false_alarms} checked for nothing"
    );
    assert_eq!((misses, false_alarms), (0, 0));
}

#[test]
fn naming_the_assistant_instead_of_the_data_goes_back_once() {
    let home = Home::new();
    let mut f = home.finishing(Checks::WherePays, true, "What is my user name?");
    saw(&mut f, "✓ shell whoami", false, &shell("root"));
    let back = f.check("Your user name is Zeta.", 1);
    assert_eq!(back.as_deref(), Some(prompt::NAMED_SELF_PROMPT));
    assert!(!f.expects_verdict(), "no model verdict is needed");
    let mut f = home.finishing(Checks::WherePays, true, "What is my user name?");
    saw(&mut f, "✓ shell whoami", false, &shell("zeta"));
    assert_eq!(f.check("zeta", 1), None);
}

#[test]
fn a_question_nobody_answered_is_said_with_the_answer() {
    let home = Home::new();
    let mut f = home.finishing(Checks::WherePays, true, "Rename the file");
    f.went_unanswered("Which name should the file get?".into());
    assert_eq!(
        f.final_answer("I did not rename it.".into()),
        "I did not rename it.\n\nI needed to ask you: Which name should the file get? (no answer came)"
    );
    assert_eq!(f.final_answer("Done.".into()), "Done.");
    f.went_unanswered("Which one?".into());
    assert_eq!(
        f.final_answer("Which one? There are two.".into()),
        "Which one? There are two."
    );
}

#[test]
fn a_non_empty_final_answer_always_wins() {
    let home = Home::new();
    let mut f = home.finishing(Checks::WherePays, false, REQUEST);
    f.wrote("earlier".into());
    assert!(f.check("first", 0).is_some());
    assert_eq!(f.final_answer("second".into()), "second");
    assert_eq!(f.final_answer(String::new()), "earlier");
    let mut f = home.finishing(Checks::Never, true, REQUEST);
    f.wrote("the planner's reply".into());
    assert_eq!(f.final_answer("\n".into()), "the planner's reply");
}

/// The verification turn quotes the answer and the outputs: an answer that stands after
/// it is the model's own words, not a copy of Zeta's message.
#[test]
fn what_a_check_quotes_is_not_zetas_own_text() {
    let home = Home::new();
    let request = "How much disk is free, and which folder is largest?";
    let answer = "There are 42G free and the largest folder is /usr with its many programs.";
    for planner in [false, true] {
        let mut f = home.finishing(Checks::Always, planner, request);
        saw(
            &mut f,
            "✓ shell df -h /",
            false,
            &shell("42G free, /usr is the largest folder of them all"),
        );
        let check = f.check(answer, 1).expect("the verification turn");
        assert!(check.contains("df -h"), "{check}");
        if planner {
            let _ = f.verdict(Verdict::Finished { unable: None });
        }
        assert_eq!(f.final_answer(answer.into()), answer, "{planner}");
    }
}

/// A file the request asks text to be written into is read back after a call wrote it:
/// what it holds now, for the model to hold its answer against. Files the request does
/// not ask to be written, binary or large ones, are not shown.
#[test]
fn a_file_the_request_asks_to_be_written_is_read_back() {
    let home = Home::new();
    let f = home.finishing(
        Checks::WherePays,
        true,
        "Count the lines in ~/invoice.txt and write the number into ~/count.txt",
    );
    let count = home.0.path().join("count.txt");
    let invoice = home.0.path().join("invoice.txt");
    std::fs::write(&invoice, "a\nb\n").expect("write");
    std::fs::write(&count, format!("35 {}\n", invoice.display())).expect("write");
    let shown = f
        .written_now(&[Effect::Created(count.clone())])
        .expect("read back");
    assert_eq!(
        shown,
        format!(
            "After this call, ~/count.txt holds:\n35 {}",
            invoice.display()
        )
    );
    std::fs::write(&count, "").expect("write");
    assert_eq!(
        f.written_now(&[Effect::Changed(count.clone())]).as_deref(),
        Some("After this call, ~/count.txt holds: nothing (it is empty)")
    );
    // Not a file the request asks to be written.
    assert_eq!(f.written_now(&[Effect::Changed(invoice)]), None);
    // Not text.
    std::fs::write(&count, [0xff, 0xfe, 0x00]).expect("write");
    assert_eq!(f.written_now(&[Effect::Changed(count.clone())]), None);
    // Too large to show.
    std::fs::write(&count, "x".repeat(100_000)).expect("write");
    assert_eq!(f.written_now(&[Effect::Changed(count)]), None);
}

/// An answer that is only Zeta's own words, after the last act on a window met the
/// request and closed it: the person reads what was done there, not "I could not give a
/// complete answer"; with the window still open, the account of the calls as before.
#[test]
fn an_unshowable_answer_after_a_window_was_done_says_what_was_done_there() {
    use crate::tool::{ReadBack, Shown};
    let home = Home::new();
    let request = "Choose Large in the Size dialog and press OK";
    let act = |element: &str, intended: &str, met: bool, closed: bool| {
        CallEvidence::act_read_back(ReadBack {
            request_met: met,
            closed,
            ..ReadBack::of(
                &format!("{element} in \"Size\""),
                "Size",
                "press",
                intended,
                Shown::Yes("done".into()),
            )
        })
    };
    let message = "Nothing has been done in the window \"Size\" yet, so the request is not done.";
    for (closed, done) in [(true, true), (false, false)] {
        let mut f = home.finishing(Checks::Never, true, request);
        f.said(message);
        f.observed(act("table cell \"Large\"", "press it", false, false));
        f.observed(act("button \"OK\"", "press it", true, closed));
        let answer = f.final_answer(message.into());
        assert_eq!(
            answer.starts_with("Done in the window \"Size\", which closed"),
            done,
            "{answer}"
        );
        if done {
            assert!(
                answer.contains("- table cell \"Large\" in \"Size\": press it")
                    && answer.contains("- button \"OK\" in \"Size\": press it"),
                "{answer}"
            );
        } else {
            assert!(
                answer.starts_with("I could not give a complete answer."),
                "{answer}"
            );
        }
    }
}

/// The same in an editor still open whose last act wrote the file its title names: what
/// was done there, not "I could not give a complete answer"; nothing saved, the account
/// of the calls.
#[test]
fn an_unshowable_answer_after_an_editor_saved_says_what_was_done_there() {
    use crate::tool::{ReadBack, Shown};
    let home = Home::new();
    let file = home.0.path().join("list.txt");
    std::fs::write(&file, "apples\npears\n").expect("list.txt");
    let title = format!("{}", file.display());
    let request = "In FeatherPad, add the line pears after apples and save the file";
    let example = "There are 3 .txt files in ~/docs; I wrote 3 into ~/count.txt.";
    for saved in [true, false] {
        let mut f = home.finishing(Checks::Never, true, request);
        // The worked example is Zeta's own text.
        f.said(example);
        f.observed(CallEvidence::act_read_back(ReadBack {
            app: "featherpad".into(),
            ..ReadBack::of(
                &format!("text in \"{title}\""),
                &title,
                "set_text",
                "set its text to \"apples\npears\"",
                Shown::Yes("its text is it".into()),
            )
        }));
        f.observed(CallEvidence {
            effects: if saved {
                vec![Effect::Changed(file.clone())]
            } else {
                vec![]
            },
            ..CallEvidence::act_read_back(ReadBack {
                request_met: true,
                app: "featherpad".into(),
                ..ReadBack::of(
                    &format!("menu item \"Save\" in \"{title}\""),
                    &title,
                    "press",
                    "press it",
                    Shown::Unclear("nothing else changed".into()),
                )
            })
        });
        let answer = f.final_answer(example.into());
        assert_eq!(
            answer.starts_with(&format!("Done in the window \"{title}\", its file saved")),
            saved,
            "{answer}"
        );
        assert!(!answer.contains("count.txt"), "{answer}");
    }
}

/// The window tools' words around what a window shows are Zeta's: an answer that says
/// them again (with other quotes) loses them; what the window showed stays the answer's.
#[test]
fn a_window_tools_own_sentences_never_become_the_answer() {
    use crate::tool::{ReadBack, Shown};
    let home = Home::new();
    let request = "Type Rex as the pet's name in the Pet dialog and press OK";
    let said = "Did: press [2] button \"OK\": pressed through its action.\nThe window \"Pet\" closed.\nThe request names: [1] text \"Name\" (acted on), [2] button \"OK\" (acted on). Every element it names has been acted on: if the window now shows what the request asks for, answer the user; if not, act on what is left.\n";
    let press = CallEvidence {
        output: said.into(),
        shows: Some("Pet\nName\nRex\nOK\nThe name of your pet\n".into()),
        ..CallEvidence::act_read_back(ReadBack {
            request_met: true,
            closed: true,
            ..ReadBack::of(
                "button \"OK\" in \"Pet\"",
                "Pet",
                "press",
                "press it",
                Shown::Yes("done".into()),
            )
        })
    };
    let typed = CallEvidence {
        output: "Did: set text [1] text \"Name\": set through its editable text.\nShown: its text is \"Rex\".\n".into(),
        shows: Some("Pet\nName\nRex\nOK\n".into()),
        ..CallEvidence::act_read_back(ReadBack::of("text \"Name\" in \"Pet\"", "Pet", "set_text", "set its text to \"Rex\"", Shown::Yes("its text is \"Rex\"".into())))
    };
    let mut f = home.finishing(Checks::Never, true, request);
    f.observed(typed.clone());
    f.observed(press.clone());
    let answer = f.final_answer(
        "The window 'Pet' closed. The request names: [2] button 'OK' (acted on). Every element it names has been acted on: if the window now shows what the request asks".into(),
    );
    // What is left says nothing the task found: what was done in the window does.
    assert!(!answer.contains("request names"), "{answer}");
    assert!(answer.starts_with("Done in the window \"Pet\""), "{answer}");
    assert!(answer.contains("set its text to \"Rex\""), "{answer}");
    // The window's own words, said in an answer, stay.
    let mut f = home.finishing(Checks::Never, true, request);
    f.observed(typed);
    f.observed(press);
    let answer = f.final_answer("I typed Rex as the name of your pet and pressed OK.".into());
    assert_eq!(
        answer,
        "I typed Rex as the name of your pet and pressed OK."
    );
}

/// A worked example's answer, echoed by a command and then given as the answer, is
/// still the example's: what a call prints of its own line bears nothing out. An
/// output that is not an echo still does.
#[test]
fn a_worked_example_echoed_by_a_command_is_no_source_for_it() {
    let home = Home::new();
    let request = "What does the City dialog ask for?";
    let example = "There are 3 .txt files in ~/docs; I wrote 3 into ~/count.txt.";
    let said =
        "There are 3 .txt files in ~/notes; I wrote 3 into ~/notes/budget_meeting_notes.txt.";
    let mut f = home.finishing(Checks::Never, true, request);
    f.example(example);
    saw(
        &mut f,
        &format!("✓ shell echo '{said}'"),
        false,
        &shell(said),
    );
    let answer = f.final_answer(said.into());
    assert!(
        answer.contains("I could not give a complete answer.") && !answer.starts_with(said),
        "{answer}"
    );
    // The same words printed by a program that is not an echo of them stand.
    let mut f = home.finishing(Checks::Never, true, request);
    f.example(example);
    saw(
        &mut f,
        "✓ shell cat ~/notes/summary.txt",
        false,
        &shell(said),
    );
    let answer = f.final_answer(said.into());
    assert!(answer.contains(said), "{answer}");
}

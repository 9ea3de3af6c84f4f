//! Tests of `second-way` and what a program says of an answer (`second_way.rs`).

use super::*;

/// `ls | sort`: names, not sizes.
fn sorted_names() -> CallEvidence {
    call(
        "✓ shell ls ~/docs | sort | tail -1",
        false,
        true,
        "zeta.txt\n",
        vec![],
    )
}

/// A Python program run in the shell, as the loop records it.
fn program(ok: bool, output: &str) -> CallEvidence {
    CallEvidence {
        program: true,
        ..call("✓ shell python3 - <<'EOF' …", true, ok, output, vec![])
    }
}

#[test]
fn second_way_asks_a_question_about_files_answered_one_way_for_a_program() {
    let f = fixture();
    std::fs::create_dir(p(&f, "docs")).expect("docs");
    let ls = sorted_names;
    let wc = || {
        call(
            "✓ shell wc -l ~/docs/a.csv",
            false,
            true,
            "13 /x/docs/a.csv\n",
            vec![],
        )
    };
    let cases: [(&str, &str, Vec<CallEvidence>); 4] = [
        (
            "Which file in ~/docs is the biggest?",
            "The biggest is zeta.txt.",
            vec![ls()],
        ),
        (
            "How many rows does ~/docs/a.csv have?",
            "It has 13 rows.",
            vec![wc()],
        ),
        (
            "what's the largest file under ~/docs",
            "zeta.txt",
            vec![ls()],
        ),
        (
            "What is 15% of 240?",
            "36",
            vec![call(
                "✓ shell echo $((240*15/100))",
                false,
                true,
                "36\n",
                vec![],
            )],
        ),
    ];
    for (request, answer, calls) in cases {
        let finding = judge(&SecondWay, &f, request, answer, calls)
            .unwrap_or_else(|| panic!("{request} / {answer}: not sent back"));
        assert!(finding.message.contains("python3"), "{}", finding.message);
        // Nothing ran that could confirm it: at the cap it is said to be unconfirmed.
        assert_eq!(
            finding.honest,
            Honest::After(UNCONFIRMED.into()),
            "{request}"
        );
    }
}

#[test]
fn second_way_holds_when_a_program_printed_what_the_answer_found() {
    let f = fixture();
    std::fs::create_dir(p(&f, "docs")).expect("docs");
    let ls = sorted_names;
    let cases: [(&str, &str, Vec<CallEvidence>); 4] = [
        (
            "Which file in ~/docs is the biggest?",
            "The biggest is zeta.txt.",
            vec![ls(), program(true, "zeta.txt 4301\n")],
        ),
        // The same number, written another way (36.0 for 36; 33.333 for 33.3 %).
        ("What is 15% of 240?", "36", vec![program(true, "36.0\n")]),
        (
            "What is 1 divided by 3, in percent?",
            "33.3 %",
            vec![program(true, "33.33333333\n")],
        ),
        // A program alone, as code actions do.
        (
            "How many rows does ~/docs/a.csv have?",
            "12 rows.",
            vec![program(true, "12\n")],
        ),
    ];
    for (request, answer, calls) in cases {
        assert!(
            judge(&SecondWay, &f, request, answer, calls).is_none(),
            "{request} / {answer}"
        );
    }
}

#[test]
fn second_way_tells_what_a_program_printed_that_the_answer_does_not_bear_out() {
    let f = fixture();
    std::fs::create_dir(p(&f, "docs")).expect("docs");
    let ls = call(
        "✓ shell ls ~/docs | sort | tail -1",
        false,
        true,
        "zeta.txt\n",
        vec![],
    );
    let finding = judge(
        &SecondWay,
        &f,
        "Which file in ~/docs is the biggest?",
        "The biggest is zeta.txt.",
        vec![ls, program(true, "big.log 90000\n")],
    )
    .expect("sent back");
    match finding.honest {
        Honest::After(text) => {
            assert!(text.contains("could not confirm"), "{text}");
            assert!(text.contains("big.log 90000"), "{text}");
        }
        other => panic!("{other:?}"),
    }
    // A program that failed says nothing either way: at the cap the answer is said to be
    // unconfirmed.
    let finding = judge(
        &SecondWay,
        &f,
        "How many rows does ~/docs/a.csv have?",
        "It has 13 rows.",
        vec![
            call(
                "✓ shell wc -l ~/docs/a.csv",
                false,
                true,
                "13 /x/docs/a.csv\n",
                vec![],
            ),
            program(false, "Traceback …\nFileNotFoundError: a.csv\n"),
        ],
    )
    .expect("sent back");
    assert_eq!(finding.honest, Honest::After(UNCONFIRMED.into()));
}

#[test]
fn second_way_leaves_look_ups_changes_and_values_never_found() {
    let f = fixture();
    std::fs::create_dir(p(&f, "docs")).expect("docs");
    let cases = [
        // A look-up: the request names no path and gives no value.
        ("What is my user name?", "root", "whoami", false, "root\n"),
        // A change asked.
        (
            "Rename ~/docs/a to b",
            "Renamed to b.",
            "mv ~/docs/a ~/docs/b",
            true,
            "",
        ),
        // Nothing found, in a question about values alone.
        (
            "What is 2 to the power of 10?",
            "I could not say.",
            "echo",
            false,
            "\n",
        ),
    ];
    for (request, answer, line, changes, output) in cases {
        let ran = call(&format!("✓ shell {line}"), changes, true, output, vec![]);
        assert!(
            judge(&SecondWay, &f, request, answer, vec![ran]).is_none(),
            "{request}"
        );
    }
}

/// An answer about files that found nothing an output printed goes the second way too:
/// a program that prints nothing new (nothing at all, Python's `None`, `[]`, `0`, or only
/// words of the request and the answer) bears it out; one that prints a name puts it in
/// doubt, with that name.
#[test]
fn second_way_checks_an_answer_that_found_nothing_in_files() {
    let f = fixture();
    std::fs::create_dir(p(&f, "work")).expect("work");
    let cases = [
        (
            "Are there any empty files in ~/work? Name them.",
            "There are no empty files in ~/work.",
            "ls ~/work | grep -l ''",
            "(standard input)\n",
        ),
        (
            "Which file in ~/work mentions Tasmania?",
            "No file in ~/work mentions Tasmania.",
            "ls ~/work | grep -i Tasmania",
            "",
        ),
        (
            "list the files with no content in my ~/work folder",
            "I looked at the folder.",
            "ls ~/work",
            "a.txt\n",
        ),
    ];
    for (request, answer, line, output) in cases {
        let ran = || call(&format!("✓ shell {line}"), false, true, output, vec![]);
        let finding = judge(&SecondWay, &f, request, answer, vec![ran()])
            .unwrap_or_else(|| panic!("{request}: not sent back"));
        assert!(
            finding.message.contains("expanduser"),
            "{}",
            finding.message
        );
        // No program bore it out: at the cap the person is told it was not confirmed.
        assert_eq!(
            finding.honest,
            Honest::After(UNCONFIRMED.into()),
            "{request}"
        );
        let said = format!("{answer}\n");
        for nothing in ["", "None\n", "[]\n", "0\n", said.as_str()] {
            assert!(
                judge(
                    &SecondWay,
                    &f,
                    request,
                    answer,
                    vec![ran(), program(true, nothing)]
                )
                .is_none(),
                "{request} / {nothing:?}"
            );
        }
        let finding = judge(
            &SecondWay,
            &f,
            request,
            answer,
            vec![ran(), program(true, "['draft.txt']\n")],
        )
        .expect("doubted");
        match finding.honest {
            Honest::After(text) => assert!(text.contains("draft.txt"), "{text}"),
            other => panic!("{request}: {other:?}"),
        }
    }
}

/// The program asked for reads the files a request names, or computes from the values
/// it gives and reads no file.
#[test]
fn second_way_asks_for_the_program_the_request_needs() {
    let f = fixture();
    std::fs::create_dir(p(&f, "docs")).expect("docs");
    let date = call(
        "✓ shell date -d 2023-01-12 +%A",
        false,
        true,
        "Thursday\n",
        vec![],
    );
    let finding = judge(
        &SecondWay,
        &f,
        "on what day of the week does 2023-01-12 fall",
        "2023-01-12 falls on a Thursday.",
        vec![date],
    )
    .expect("sent back");
    assert!(
        finding.message.contains("reading no file"),
        "{}",
        finding.message
    );
    assert!(
        !finding.message.contains("expanduser"),
        "{}",
        finding.message
    );
    let finding = judge(
        &SecondWay,
        &f,
        "Which file in ~/docs is the biggest?",
        "The biggest is zeta.txt.",
        vec![sorted_names()],
    )
    .expect("sent back");
    assert!(
        finding.message.contains("os.path.expanduser('~/"),
        "{}",
        finding.message
    );
}

#[test]
fn second_way_counts_the_things_a_program_listed_a_line_each() {
    let f = fixture();
    std::fs::create_dir(p(&f, "docs")).expect("docs");
    let request = "how many files ending in .log do I have in ~/docs";
    let names = "a.log\nb.log\nc.log\n";
    let ls = || {
        call(
            "✓ shell ls ~/docs/*.log | wc -l",
            false,
            true,
            "3\n",
            vec![],
        )
    };
    // Three names, a line each, bear out a count of 3; not of 2 or 4.
    assert!(judge(
        &SecondWay,
        &f,
        request,
        "You have 3 .log files.",
        vec![ls(), program(true, names)]
    )
    .is_none());
    for wrong in ["You have 2 .log files.", "You have 4 .log files."] {
        assert!(
            judge(
                &SecondWay,
                &f,
                request,
                wrong,
                vec![ls(), program(true, names)]
            )
            .is_some(),
            "{wrong}"
        );
    }
    // A column of figures is values, not things counted.
    for printed in ["10\n20\n30\n", "12.5\n1,000\n-7\n"] {
        let doubted = judge(
            &SecondWay,
            &f,
            request,
            "You have 3 .log files.",
            vec![ls(), program(true, printed)],
        );
        assert!(doubted.is_some(), "{printed:?}");
    }
    // One line is one thing, not a list.
    assert_eq!(
        program_says(&Case {
            request: &Request::parse(request, &f.env),
            answer: "You have 1 .log file.",
            evidence: &{
                let mut e = Evidence::default();
                e.push(program(true, "a.log\n"));
                e
            },
            held_back: false,
            stopped: None,
            window: None,
            env: &f.env,
        }),
        ProgramSays::Differs("a.log".into()),
        "one line lists nothing: 1 is not borne out by a name"
    );
}

#[test]
fn program_says_nothing_bears_out_or_differs() {
    let f = fixture();
    std::fs::create_dir(p(&f, "docs")).expect("docs");
    let request = Request::parse("Which file in ~/docs is the biggest?", &f.env);
    let ls = call(
        "✓ shell ls -S ~/docs | head -1",
        false,
        true,
        "zeta.txt\n",
        vec![],
    );
    let says = |calls: Vec<CallEvidence>| {
        let mut evidence = Evidence::default();
        calls.into_iter().for_each(|c| evidence.push(c));
        program_says(&Case {
            request: &request,
            answer: "The biggest is zeta.txt.",
            evidence: &evidence,
            held_back: false,
            stopped: None,
            window: None,
            env: &f.env,
        })
    };
    assert_eq!(says(vec![ls.clone()]), ProgramSays::Nothing);
    assert_eq!(
        says(vec![ls.clone(), program(false, "Traceback\n")]),
        ProgramSays::Nothing
    );
    assert_eq!(
        says(vec![ls.clone(), program(true, "  \n")]),
        ProgramSays::Nothing
    );
    assert_eq!(
        says(vec![ls.clone(), program(true, "zeta.txt\n")]),
        ProgramSays::BearsOut
    );
    assert_eq!(
        says(vec![ls.clone(), program(true, "big.log\n")]),
        ProgramSays::Differs("big.log".into())
    );
}

/// A change that rests on something the task chose (a value it computed and wrote, a file
/// it found and copied) is judged as a question's answer is, by a program that changes
/// nothing; one that moved or deleted what it chose, or chose nothing, is not.
#[test]
fn second_way_judges_a_change_that_rests_on_what_the_task_chose() {
    let f = fixture();
    std::fs::create_dir(p(&f, "docs")).expect("docs");
    std::fs::create_dir(p(&f, "backup")).expect("backup");
    std::fs::write(p(&f, "count.txt"), "1\n").expect("count");
    std::fs::write(p(&f, "backup/big.log"), "x").expect("copy");
    let written = || {
        vec![
            call(
                "✓ shell ls ~/invoice.txt | wc -l",
                false,
                true,
                "1\n",
                vec![],
            ),
            call(
                "✓ shell echo 1 > ~/count.txt && cat ~/count.txt",
                true,
                true,
                "1\n",
                vec![Effect::Created(p(&f, "count.txt"))],
            ),
        ]
    };
    let count = "Count the lines in ~/invoice.txt and write the number into ~/count.txt";
    let claimed = "There are 1 lines in ~/invoice.txt; I wrote 1 into ~/count.txt.";
    let found = judge(&SecondWay, &f, count, claimed, written()).expect("a value written");
    assert!(
        found.message.contains("changes nothing")
            && found
                .message
                .contains("the value you wrote, computed again"),
        "{}",
        found.message
    );
    assert!(
        matches!(&found.honest, Honest::After(t) if t == UNCONFIRMED),
        "{:?}",
        found.honest
    );
    // The program's count differs: the person reads it; the same count bears it out.
    let mut differs = written();
    differs.push(program(true, "12\n"));
    let found = judge(&SecondWay, &f, count, claimed, differs).expect("differs");
    assert!(
        matches!(&found.honest, Honest::After(t) if t.contains("a Python program printed:\n12")),
        "{:?}",
        found.honest
    );
    let mut same = written();
    same.push(program(true, "1\n"));
    assert!(judge(&SecondWay, &f, count, claimed, same).is_none());

    // A file found by a look and copied: the program that finds another puts it in doubt.
    let copied = || {
        vec![
            call(
                "✓ shell ls -S ~/docs | head -1",
                false,
                true,
                "big.log\n",
                vec![],
            ),
            call(
                "✓ shell cp ~/docs/big.log ~/backup/",
                true,
                true,
                "",
                vec![Effect::Created(p(&f, "backup/big.log"))],
            ),
        ]
    };
    let copy = "Copy the largest file in ~/docs to ~/backup";
    let answer = "I copied big.log to ~/backup.";
    let found = judge(&SecondWay, &f, copy, answer, copied()).expect("a file chosen");
    assert!(
        found.message.contains("the file your change is about"),
        "{}",
        found.message
    );
    let mut other = copied();
    other.push(program(true, "/x/docs/huge.iso\n"));
    assert!(judge(&SecondWay, &f, copy, answer, other).is_some());
    let mut same = copied();
    same.push(program(true, "/x/docs/big.log\n"));
    assert!(judge(&SecondWay, &f, copy, answer, same).is_none());

    // Not judged: what was chosen was moved or deleted; nothing was chosen (the request
    // gives the value, the request names the file; a mode printed is no file chosen).
    let moved = vec![
        call(
            "✓ shell ls -t ~/docs | head -1",
            false,
            true,
            "new.txt\n",
            vec![],
        ),
        call(
            "✓ shell mv ~/docs/new.txt ~/backup/",
            true,
            true,
            "",
            vec![Effect::Moved {
                from: p(&f, "docs/new.txt"),
                to: p(&f, "backup/new.txt"),
            }],
        ),
    ];
    let deleted = vec![
        call("✓ shell ls ~/docs", false, true, "a.tmp\nb.tmp\n", vec![]),
        call(
            "✓ shell rm ~/docs/a.tmp ~/docs/b.tmp",
            true,
            true,
            "",
            vec![
                Effect::Deleted(p(&f, "docs/a.tmp")),
                Effect::Deleted(p(&f, "docs/b.tmp")),
            ],
        ),
    ];
    std::fs::write(p(&f, "note.txt"), "hello 42\n").expect("note");
    std::fs::write(p(&f, "run.sh"), "echo hi\n").expect("run");
    let created = vec![call(
        "✓ shell echo 'hello 42' > ~/note.txt && cat ~/note.txt",
        true,
        true,
        "hello 42\n",
        vec![Effect::Created(p(&f, "note.txt"))],
    )];
    let mode = vec![call(
        "✓ shell chmod +x ~/run.sh && ls -l ~/run.sh",
        true,
        true,
        "-rwxr-xr-x 1 me me 8 Nov 30 09:00 /x/run.sh\n",
        vec![Effect::Changed(p(&f, "run.sh"))],
    )];
    let left: [(&str, &str, Vec<CallEvidence>); 4] = [
        (
            "Move the newest file in ~/docs to ~/backup",
            "I moved new.txt to ~/backup.",
            moved,
        ),
        (
            "Delete the .tmp files in ~/docs",
            "I deleted a.tmp and b.tmp.",
            deleted,
        ),
        (
            "Create ~/note.txt with the text hello 42",
            "I created ~/note.txt with hello 42.",
            created,
        ),
        (
            "Make ~/run.sh executable",
            "~/run.sh is now executable (-rwxr-xr-x).",
            mode,
        ),
    ];
    for (request, answer, calls) in left {
        assert!(
            judge(&SecondWay, &f, request, answer, calls).is_none(),
            "{request}"
        );
    }
}

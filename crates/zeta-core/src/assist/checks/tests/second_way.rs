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
        program: Some("python3 -".into()),
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

/// A program that prints every file (or every figure) holds whichever one the answer
/// picked: it bears out only what it singles out. Families of listings, the answer's
/// pick in every place among them, must not bear it out; single results, and results
/// printed after the things they were computed from, must.
#[test]
fn second_way_bears_out_only_what_a_program_singles_out() {
    let f = fixture();
    std::fs::create_dir(p(&f, "docs")).expect("docs");
    let request = "Which file in ~/docs is the biggest?";
    let ls = || {
        call(
            "✓ shell ls ~/docs | sort | tail -1",
            false,
            true,
            "a.log\nbig.log\nc.log\nnotes.txt\n",
            vec![],
        )
    };
    let names = ["a.log", "big.log", "c.log", "notes.txt"];
    let sizes = [120, 4301, 77, 9];
    let home = f.dir.path().display().to_string();
    let ways: [(&str, String); 3] = [
        ("bare", String::new()),
        ("tilde", "~/docs/".into()),
        ("absolute", format!("{home}/docs/")),
    ];
    let mut listings: Vec<String> = Vec::new();
    for (_, prefix) in &ways {
        let paths: Vec<String> = names.iter().map(|n| format!("{prefix}{n}")).collect();
        listings.push(paths.join("\n"));
        listings.push(format!("['{}']", paths.join("', '")));
        listings.push(
            paths
                .iter()
                .zip(sizes)
                .map(|(p, s)| format!("{p} {s}"))
                .collect::<Vec<_>>()
                .join("\n"),
        );
        listings.push(
            paths
                .iter()
                .zip(sizes)
                .map(|(p, s)| format!("{p}: {s}"))
                .collect::<Vec<_>>()
                .join("\n"),
        );
        listings.push(format!(
            "[{}]",
            paths
                .iter()
                .zip(sizes)
                .map(|(p, s)| format!("('{p}', {s})"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
        listings.push(format!(
            "{{{}}}",
            paths
                .iter()
                .zip(sizes)
                .map(|(p, s)| format!("'{p}': {s}"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let mut misses = Vec::new();
    for listing in &listings {
        // The pick in every place: first, among, last.
        for pick in names {
            let answer = format!("The biggest file is {pick}.");
            if judge(
                &SecondWay,
                &f,
                request,
                &answer,
                vec![ls(), program(true, &format!("{listing}\n"))],
            )
            .is_none()
            {
                misses.push(format!("{answer} / {listing:?}"));
            }
        }
    }
    assert!(misses.is_empty(), "borne out by a listing: {misses:#?}");
    assert_eq!(listings.len() * names.len(), 72);

    let answer = "The biggest file is big.log.";
    let singled: Vec<String> = ways
        .iter()
        .flat_map(|(_, prefix)| {
            let listed: Vec<String> = names
                .iter()
                .zip(sizes)
                .map(|(n, s)| format!("{prefix}{n} {s}"))
                .collect();
            [
                format!("{prefix}big.log"),
                format!("{prefix}big.log 4301"),
                format!("Largest: {prefix}big.log"),
                format!("('{prefix}big.log', 4301)"),
                format!("{}\nLargest: {prefix}big.log", listed.join("\n")),
                format!("{}\n{prefix}big.log", listed.join("\n")),
                format!("4\n{prefix}big.log"),
            ]
        })
        .collect();
    let mut alarms = Vec::new();
    for printed in &singled {
        if judge(
            &SecondWay,
            &f,
            request,
            answer,
            vec![ls(), program(true, &format!("{printed}\n"))],
        )
        .is_some()
        {
            alarms.push(printed.clone());
        }
    }
    assert!(alarms.is_empty(), "not borne out: {alarms:#?}");

    // Figures: a column (or a list) of them singles out none; a total printed after
    // them, a line of its own or under a label of its own, does.
    let sum = "What is the sum of the amounts in ~/docs/sales.csv?";
    let figures = ["100", "200", "300"];
    let mut figure_misses = Vec::new();
    for listing in [
        figures.join("\n"),
        format!("[{}]", figures.join(", ")),
        "Paris 100\nRome 200\nOslo 300".to_string(),
        "Paris: 100\nRome: 200\nOslo: 300".to_string(),
    ] {
        for pick in figures {
            let answer = format!("The sum is {pick}.");
            if judge(
                &SecondWay,
                &f,
                sum,
                &answer,
                vec![program(true, &format!("{listing}\n"))],
            )
            .is_none()
            {
                figure_misses.push(format!("{answer} / {listing:?}"));
            }
        }
    }
    assert!(figure_misses.is_empty(), "{figure_misses:#?}");
    for printed in [
        "600",
        "600.0",
        "100\n200\n300\nTotal: 600",
        "[100, 200, 300]\n600",
        "Paris 100\nRome 200\nOslo 300\nTotal: 600",
        "100\n200\n300\nsum 600",
    ] {
        assert!(
            judge(
                &SecondWay,
                &f,
                sum,
                "The sum is 600.",
                vec![program(true, &format!("{printed}\n"))],
            )
            .is_none(),
            "{printed:?}"
        );
    }
}

/// An answer that lists files is borne out only by a program that printed every file it
/// lists: a program that printed some of them (seen on the tune half: five files
/// answered as empty, the program printing the four that are) leaves it in doubt,
/// whichever are left out and however the program printed them.
#[test]
fn second_way_bears_out_a_list_only_where_the_program_printed_all_of_it() {
    let f = fixture();
    std::fs::create_dir(p(&f, "docs")).expect("docs");
    let request = "Which files in ~/docs are empty?";
    let names = [
        "agenda.txt",
        "index.txt",
        "invoice.txt",
        "memo.txt",
        "notes.md",
    ];
    let ls = || {
        call(
            "✓ shell ls ~/docs",
            false,
            true,
            &format!("{}\n", names.join("\n")),
            vec![],
        )
    };
    let home = f.dir.path().display().to_string();
    let prefixes = [String::new(), "~/docs/".into(), format!("{home}/docs/")];
    let forms = |shown: &[String]| {
        vec![
            shown.join("\n"),
            format!("['{}']", shown.join("', '")),
            shown
                .iter()
                .map(|s| format!("{s} 0"))
                .collect::<Vec<_>>()
                .join("\n"),
        ]
    };
    let answer_of = |listed: &[&str]| format!("The empty files are {}.", listed.join(", "));
    let (mut misses, mut alarms, mut total) = (Vec::new(), Vec::new(), 0);
    for prefix in &prefixes {
        let with = |n: &&str| format!("{prefix}{n}");
        // The answer lists all five; the program printed four of them, or one.
        for left_out in 0..names.len() {
            let printed: Vec<String> = names
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != left_out)
                .map(|(_, n)| with(n))
                .collect();
            let one = vec![with(&names[left_out])];
            for shown in forms(&printed).into_iter().chain(forms(&one)) {
                total += 1;
                let ev = vec![ls(), program(true, &format!("{shown}\n"))];
                if judge(&SecondWay, &f, request, &answer_of(&names), ev).is_none() {
                    misses.push(shown);
                }
            }
            // The answer lists the four the program printed, in another order: borne.
            let four: Vec<&str> = names
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != left_out)
                .map(|(_, n)| *n)
                .rev()
                .collect();
            for shown in forms(&printed) {
                let ev = vec![ls(), program(true, &format!("{shown}\n"))];
                if judge(&SecondWay, &f, request, &answer_of(&four), ev).is_some() {
                    alarms.push(shown);
                }
            }
            // One file answered, that one printed.
            for shown in forms(&one) {
                let ev = vec![ls(), program(true, &format!("{shown}\n"))];
                let answer = format!("The empty file is {}.", names[left_out]);
                if judge(&SecondWay, &f, request, &answer, ev).is_some() {
                    alarms.push(shown);
                }
            }
        }
    }
    assert_eq!(total, 90);
    assert!(
        misses.is_empty(),
        "a part borne out as the whole list: {misses:#?}"
    );
    assert!(
        alarms.is_empty(),
        "the list printed, yet doubted: {alarms:#?}"
    );
}

/// What a program printed, cut at every place and joined at random from brackets,
/// quotes, commas, labels and names: judging it never panics.
#[test]
fn second_way_reads_any_printed_text_without_panicking() {
    let f = fixture();
    std::fs::create_dir(p(&f, "docs")).expect("docs");
    let request = "Which file in ~/docs is the biggest?";
    let pieces = [
        "[", "]", "(", ")", "{", "}", ",", "'", "\"", ": ", "=", "\n", "big.log", " 4301", "Total",
        "é", "\\", "/x/", "~/", "1,000", "-7", " ", "%", "ü.txt",
    ];
    let whole = "[('big.log', 4301), ('é.txt', 1,000)]\nTotal: {'a': [1, (2, 3)]}\n";
    let run = |printed: &str| {
        let _ = judge(
            &SecondWay,
            &f,
            request,
            "The biggest file is big.log.",
            vec![program(true, printed)],
        );
    };
    for end in (0..=whole.len()).filter(|e| whole.is_char_boundary(*e)) {
        run(&whole[..end]);
    }
    for printed in crate::text::random_joins(&pieces, 3000, 8, 11) {
        run(&printed);
    }
}

/// A question's program asked for apart holds the request and what the program is to
/// do, and nothing of the first way: its commands, what they printed, its answer.
#[test]
fn a_program_asked_for_apart_is_told_the_request_only() {
    let f = fixture();
    std::fs::write(p(&f, "orders.csv"), "city,amount\nOslo,2\nLima,3\nOslo,4\n").expect("csv");
    let cases = [
        (
            "How many distinct cities are in ~/orders.csv?",
            "✓ shell cut -d, -f2 ~/orders.csv | sort -u | wc -l",
            "There are 4 distinct cities.",
            "os.path.expanduser",
        ),
        (
            "What is 15% of 240?",
            "✓ shell echo $((240*15/100))",
            "It is 36.",
            "reading no file",
        ),
    ];
    for (request, line, answer, program) in cases {
        let request = Request::parse(request, &f.env);
        let mut evidence = Evidence::default();
        evidence.push(call(line, false, true, "4\n", vec![]));
        let case = Case {
            request: &request,
            answer,
            evidence: &evidence,
            held_back: false,
            stopped: None,
            window: None,
            env: &f.env,
        };
        let asked = asked_apart(&case);
        assert!(
            asked.contains(&format!("Request: {}\n", request.text)),
            "{asked}"
        );
        assert!(asked.contains(program), "{asked}");
        let first_way = line.trim_start_matches("✓ shell ");
        assert!(
            !asked.contains(first_way) && !asked.contains(answer),
            "nothing of the first way: {asked}"
        );
    }
}

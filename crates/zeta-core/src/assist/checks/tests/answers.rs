//! Tests of the checks of what an answer says and gives (`answers.rs`, `missing.rs`).

use super::*;

#[test]
fn nothing_ran_holds_an_answer_before_any_call() {
    let f = fixture();
    assert!(judge(&NothingRan, &f, "How much disk is free?", "42 GB", vec![]).is_some());
    let df = call("✓ shell df -h", false, true, "42G", vec![]);
    assert!(judge(&NothingRan, &f, "How much disk is free?", "42 GB", vec![df]).is_none());
}

#[test]
fn named_self_holds_the_assistants_name_no_output_gave() {
    let f = fixture();
    let whoami = |out: &str| vec![call("✓ shell whoami", false, true, out, vec![])];
    assert!(judge(
        &NamedSelf,
        &f,
        "What is my user name?",
        "It is Zeta.",
        whoami("root")
    )
    .is_some());
    assert!(judge(
        &NamedSelf,
        &f,
        "What is my user name?",
        "It is zeta.",
        whoami("zeta")
    )
    .is_none());
    assert!(judge(&NamedSelf, &f, "Who are you?", "I am Zeta.", whoami("root")).is_none());
}

/// A shell expansion given as the answer's value is held unless an output printed it as
/// written: the command that expands it grounds nothing.
#[test]
fn ungrounded_value_holds_a_shell_expansion_no_output_printed() {
    let f = fixture();
    let echo = |printed: &str| {
        vec![call(
            "✓ shell echo $USER",
            false,
            true,
            &format!("exit code 0\nstdout:\n{printed}"),
            vec![],
        )]
    };
    for (answer, printed) in [
        ("Your username on this machine is $USER.", "\n"),
        ("You are ${USER}.", "\n"),
        ("You are $(whoami).", "root\n"),
    ] {
        let found = judge(
            &UngroundedValue,
            &f,
            "what's my username",
            answer,
            echo(printed),
        )
        .unwrap_or_else(|| panic!("{answer}: not held"));
        assert!(
            found.message.contains("no output shows $"),
            "{}",
            found.message
        );
        assert!(
            matches!(&found.honest, Honest::After(t) if t.contains("I could not find the value")),
            "{:?}",
            found.honest
        );
    }
    // Printed as written (a literal `echo '$USER'`), or a value: it stands.
    let literal = echo("$USER\n");
    assert!(judge(
        &UngroundedValue,
        &f,
        "what's my username",
        "It printed $USER.",
        literal
    )
    .is_none());
    assert!(judge(
        &UngroundedValue,
        &f,
        "what's my username",
        "You are root.",
        echo("root\n")
    )
    .is_none());
}

#[test]
fn ungrounded_value_holds_a_value_no_output_printed() {
    let f = fixture();
    let wc = || {
        vec![call(
            "✓ shell wc -l ~/poem.txt",
            false,
            true,
            "exit code 0\nstdout:\n137 /home/me/poem.txt\n",
            vec![],
        )]
    };
    let found = judge(
        &UngroundedValue,
        &f,
        "How many lines are in ~/poem.txt?",
        "The file has 1 line.",
        wc(),
    )
    .expect("held");
    assert!(
        found.message.contains("no output shows 1"),
        "{}",
        found.message
    );
    assert!(judge(
        &UngroundedValue,
        &f,
        "How many lines are in ~/poem.txt?",
        "It has 137 lines.",
        wc()
    )
    .is_none());
    // Nothing ran: another check's business.
    assert!(judge(&UngroundedValue, &f, "What is 2 + 2?", "4", vec![]).is_none());
    // A count read off a listing stands: the output's lines are what was counted.
    let cities = || {
        vec![call(
            "✓ shell awk -F, 'NR>1 {print $2}' ~/q3.csv | sort | uniq -c",
            false,
            true,
            "exit code 0\nstdout:\n      2 Lima\n      1 Oslo\n      3 Pune\n      1 Riga\n      2 Turin\n",
            vec![],
        )]
    };
    let asked = "How many different cities appear in ~/q3.csv?";
    let five = "There are 5 different cities in ~/q3.csv.";
    assert!(judge(&UngroundedValue, &f, asked, five, cities()).is_none());
    assert!(judge(&UngroundedValue, &f, asked, "There are 6 cities.", cities()).is_some());
}

#[test]
fn no_value_holds_a_question_answered_with_nothing_printed() {
    let f = fixture();
    let wc = || {
        vec![call(
            "✓ shell wc -l ~/poem.txt",
            false,
            true,
            "exit code 0\nstdout:\n137 /home/me/poem.txt\n",
            vec![],
        )]
    };
    let request = "How many lines are in ~/poem.txt?";
    let found = judge(
        &NoValue,
        &f,
        request,
        "The command completed successfully and did not produce any output.",
        wc(),
    )
    .expect("held");
    assert!(
        found.message.contains("137"),
        "the evidence goes with it: {}",
        found.message
    );
    assert!(judge(&NoValue, &f, request, "137 lines.", wc()).is_none());
    // A call that failed after it (a second way's program with a syntax error): its
    // error is not what the person is shown.
    let mut then_failed = wc();
    then_failed.push(call(
        "✗ shell python3 - <<'EOF'",
        false,
        false,
        "exit code 1\nstderr:\n  File \"<stdin>\", line 2\nSyntaxError: unterminated string literal\n",
        vec![],
    ));
    let found = judge(&NoValue, &f, request, "It ran fine.", then_failed).expect("held");
    assert!(
        matches!(&found.honest, Honest::After(t) if t.contains("137") && !t.contains("SyntaxError")),
        "{:?}",
        found.honest
    );
    // Outputs that printed nothing cannot be carried.
    let empty = vec![call(
        "✓ shell find ~ -empty",
        false,
        true,
        "exit code 0\n(no output: the command printed nothing)",
        vec![],
    )];
    assert!(judge(
        &NoValue,
        &f,
        "Which files are empty?",
        "None are empty.",
        empty
    )
    .is_none());
    // An order is not a question.
    assert!(judge(&NoValue, &f, "Delete ~/a.tmp", "Gone.", wc()).is_none());
}

#[test]
fn asked_count_holds_a_count_answered_without_a_number() {
    let f = fixture();
    let ls = || {
        vec![call(
            "✓ shell ls -S ~/work",
            false,
            true,
            "report.md\nb.txt",
            vec![],
        )]
    };
    let request = "Count the files in ~/work and tell me which is biggest.";
    let found = judge(
        &AskedCount,
        &f,
        request,
        "The biggest file is report.md.",
        ls(),
    )
    .expect("held");
    assert!(found.message.contains("how many"), "{}", found.message);
    assert!(judge(
        &AskedCount,
        &f,
        request,
        "There are 2 files; report.md is biggest.",
        ls()
    )
    .is_none());
    assert!(judge(&AskedCount, &f, "Which file is biggest?", "report.md", ls()).is_none());
}

/// `ungrounded-path`: a family of answers naming paths, against tasks that did or did
/// not touch them. Misses and false alarms are counted over the whole family.
#[test]
fn ungrounded_path_holds_a_path_nothing_of_the_task_named_and_not_on_disk() {
    let f = fixture();
    std::fs::create_dir_all(p(&f, "notes")).expect("notes");
    std::fs::write(p(&f, "notes/todo.txt"), "milk\n").expect("todo");
    let calc = |display: &str| {
        let mut c = call("✓ ui_act press [31] \"=\"", false, true, "", vec![]);
        c.tool = "ui_act".into();
        c.shows = Some(format!("Calculator\n{display}"));
        c
    };
    let home = f.env.home.display().to_string();
    // (request, answer, calls, should hold it back)
    let cases: Vec<(&str, String, Vec<CallEvidence>, bool)> = vec![
        // The worked example copied with the result put in.
        (
            "With the Calculator app, compute 100 minus 58",
            "There are 42 .txt files in ~/docs; I wrote 42 into ~/count.txt.".into(),
            vec![calc("42")],
            true,
        ),
        (
            "Use the calculator to work out 12 times 7",
            "I saved 84 to /srv/results/out.txt".into(),
            vec![calc("84")],
            true,
        ),
        (
            "What is in my notes?",
            "Your notes are in ~/Documents/notes.md.".into(),
            vec![call(
                "✓ shell cat ~/notes/todo.txt",
                false,
                true,
                "milk",
                vec![],
            )],
            true,
        ),
        // On disk, named by a call, by the request, or by an output: it stands.
        (
            "What is in my notes?",
            "~/notes/todo.txt holds milk.".into(),
            vec![call(
                "✓ shell cat ~/notes/todo.txt",
                false,
                true,
                "milk",
                vec![],
            )],
            false,
        ),
        (
            "Delete ~/old.log",
            "I deleted ~/old.log.".into(),
            vec![call("✓ shell rm ~/old.log", true, true, "", vec![])],
            false,
        ),
        (
            "Where is the biggest log?",
            "The biggest is /var/log/syslog.9 (gone since).".into(),
            vec![call(
                "✓ shell ls -S /var/log",
                false,
                true,
                "/var/log/syslog.9\n",
                vec![],
            )],
            false,
        ),
        (
            "Write hi into ~/greeting.txt",
            "I could not write ~/greeting.txt.".into(),
            vec![call(
                "✗ shell echo hi > ~/greeting.txt",
                true,
                false,
                "denied",
                vec![],
            )],
            false,
        ),
        (
            "How big is my home?",
            format!("{home} takes 12 KB."),
            vec![call("✓ shell du -sh ~", false, true, "12K\t.", vec![])],
            false,
        ),
        (
            "Use the calculator to work out 12 times 7",
            "The calculator shows 84.".into(),
            vec![calc("84")],
            false,
        ),
        // Not paths: a fraction, a date, a URL, "and/or".
        (
            "What is 3/4 as a decimal?",
            "3/4 is 0.75, and/or 75% (see https://example.com/x).".into(),
            vec![call(
                "✓ shell python3 -c 'print(3/4)'",
                false,
                true,
                "0.75",
                vec![],
            )],
            false,
        ),
        (
            "When did it change?",
            "On 2026/11/29.".into(),
            vec![call("✓ shell stat x", false, true, "2026-11-29", vec![])],
            false,
        ),
        (
            "Which folder holds the notes?",
            "The folder ~/notes/ holds them.".into(),
            vec![call("✓ shell ls", false, true, "notes\n", vec![])],
            false,
        ),
    ];
    let (mut misses, mut false_alarms) = (0, 0);
    for (request, answer, calls, holds) in cases {
        let found = judge(&UngroundedPath, &f, request, &answer, calls);
        if holds && found.is_none() {
            misses += 1;
            eprintln!("missed: {answer}");
        }
        if !holds && found.is_some() {
            false_alarms += 1;
            eprintln!("false alarm: {answer}: {found:?}");
        }
        if let (true, Some(found)) = (holds, &found) {
            assert!(found.message.contains("is not there"), "{}", found.message);
            assert!(
                matches!(found.honest, Honest::After(ref t) if t.contains("does not exist on this computer"))
            );
        }
    }
    assert_eq!((misses, false_alarms), (0, 0));
}

#[test]
fn missing_path_holds_an_answer_about_a_guessed_place_that_is_not_there() {
    let f = fixture();
    std::fs::create_dir_all(p(&f, "projects")).expect("dir");
    let request = "list the files with no content in my projects folder";
    let guessed = || {
        vec![call(
            "✗ shell ls /home/nobody-here/projects/*",
            false,
            false,
            "exit code 2\nstderr:\nls: cannot access '/home/nobody-here/projects/*': No such file or directory\n",
            vec![],
        )]
    };
    let answer = "There are no files with no content in the /home/nobody-here/projects directory.";
    let found = judge(&MissingPath, &f, request, answer, guessed()).expect("held");
    assert!(
        found
            .message
            .contains("/home/nobody-here/projects does not exist"),
        "{}",
        found.message
    );
    assert!(
        found.message.contains(&format!(
            "The home folder here is {} (~)",
            f.env.home.display()
        )),
        "{}",
        found.message
    );
    assert!(
        matches!(&found.honest, Honest::After(t) if t.contains("does not exist on this computer")),
        "{:?}",
        found.honest
    );
    // The same place, there: the answer stands.
    let there = format!(
        "There are no files with no content in {}.",
        p(&f, "projects").display()
    );
    assert!(judge(&MissingPath, &f, request, &there, guessed()).is_none());
    assert!(judge(
        &MissingPath,
        &f,
        request,
        "There are none in ~/projects.",
        guessed()
    )
    .is_none());
    // Named by nothing of the task: `ungrounded-path`'s, not this one's.
    assert!(judge(
        &MissingPath,
        &f,
        request,
        "None in /srv/elsewhere.",
        guessed()
    )
    .is_none());
    assert!(judge(
        &UngroundedPath,
        &f,
        request,
        "None in /srv/elsewhere.",
        guessed()
    )
    .is_some());
    // The request's own path: its premise, the answer may say it is not there.
    let asked = "Are there empty files in ~/old-projects?";
    let tried = vec![call(
        "✗ shell ls ~/old-projects",
        false,
        false,
        "exit code 2\nstderr:\nls: cannot access: No such file or directory\n",
        vec![],
    )];
    assert!(judge(
        &MissingPath,
        &f,
        asked,
        "~/old-projects does not exist.",
        tried
    )
    .is_none());
    // A file made up in the folder the request named, which a later call of the task
    // wrote into its program: held. One the request names by its own name: its premise.
    std::fs::create_dir_all(p(&f, "docs")).expect("dir");
    let made_up = || {
        vec![
            call(
                "✓ shell find ~/docs -type f -exec grep -i Tasmania {} \\;",
                false,
                true,
                "we met in Tasmania last year\n",
                vec![],
            ),
            call(
                "✓ shell python3 - <<'EOF' … os.path.expanduser('~/docs/last_year_tasmania.txt') … EOF",
                false,
                true,
                "",
                vec![],
            ),
        ]
    };
    let found = judge(
        &MissingPath,
        &f,
        "Which file in ~/docs mentions Tasmania?",
        "The file ~/docs/last_year_tasmania.txt mentions Tasmania.",
        made_up(),
    )
    .expect("a file made up in the asked folder is held");
    assert!(
        found
            .message
            .contains("~/docs/last_year_tasmania.txt does not exist"),
        "{}",
        found.message
    );
    assert!(judge(
        &MissingPath,
        &f,
        "Is there a report.txt in ~/docs?",
        "~/docs/report.txt does not exist.",
        vec![call(
            "✗ shell ls ~/docs/report.txt",
            false,
            false,
            "exit code 2\nstderr:\nls: cannot access: No such file or directory\n",
            vec![],
        )],
    )
    .is_none());
    // Gone by the task's own doing: deleted, or moved away.
    let deleted = vec![call(
        "✓ shell rm ~/projects/a.tmp",
        true,
        true,
        "",
        vec![Effect::Deleted(p(&f, "projects/a.tmp"))],
    )];
    assert!(judge(
        &MissingPath,
        &f,
        "delete the tmp files in my projects folder",
        "I deleted ~/projects/a.tmp.",
        deleted
    )
    .is_none());
    // Nothing ran: not judged.
    assert!(judge(&MissingPath, &f, request, answer, vec![]).is_none());
}

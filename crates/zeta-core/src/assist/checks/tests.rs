use super::*;
use crate::assist::evidence::{CallEvidence, Effect};
use std::path::PathBuf;

struct Fixture {
    dir: tempfile::TempDir,
    env: ShellEnv,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().expect("temp");
    let env = ShellEnv {
        home: dir.path().to_path_buf(),
        cwd: dir.path().to_path_buf(),
        user: "me".into(),
    };
    Fixture { dir, env }
}

fn call(line: &str, changes: bool, ok: bool, output: &str, effects: Vec<Effect>) -> CallEvidence {
    CallEvidence {
        tool: "shell".into(),
        line: line.into(),
        ran: true,
        held: false,
        ok,
        changes,
        output: output.into(),
        effects,
        read_back: None,
        shows: None,
        program: false,
    }
}

fn judge(
    check: &dyn Check,
    f: &Fixture,
    request: &str,
    answer: &str,
    calls: Vec<CallEvidence>,
) -> Option<Finding> {
    judge_in(check, f, request, answer, calls, None)
}

/// `judge`, in a task about the window titled `window` (read for the model), or none.
fn judge_in(
    check: &dyn Check,
    f: &Fixture,
    request: &str,
    answer: &str,
    calls: Vec<CallEvidence>,
    window: Option<&str>,
) -> Option<Finding> {
    let request = Request::parse(request, &f.env);
    let mut evidence = Evidence::default();
    calls.into_iter().for_each(|c| evidence.push(c));
    check.judge(&Case {
        request: &request,
        answer,
        evidence: &evidence,
        held_back: false,
        stopped: None,
        window,
        env: &f.env,
    })
}

fn p(f: &Fixture, rel: &str) -> PathBuf {
    f.dir.path().join(rel)
}

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

#[test]
fn asked_change_holds_an_order_nothing_carried_out() {
    let f = fixture();
    let request = "Delete ~/docs/a.txt";
    // Only a listing ran: nothing changed.
    let ls = call("✓ shell ls ~/docs", false, true, "a.txt", vec![]);
    let found = judge(&AskedChange, &f, request, "I renamed it.", vec![ls.clone()]).expect("held");
    assert!(
        found.message.contains("no file changed"),
        "{}",
        found.message
    );
    assert!(matches!(found.honest, Honest::Instead(ref t) if t.contains("I did not do this")));
    // A failed mv: the failure is named.
    let failed = call(
        "✗ shell rm ~/docs/a.txt",
        true,
        false,
        "exit code 1\nstderr:\nrm: cannot remove 'a.txt': No such file",
        vec![],
    );
    let found = judge(&AskedChange, &f, request, "Done.", vec![ls.clone(), failed]).expect("held");
    assert!(found.message.contains("cannot remove"), "{}", found.message);
    // The deletion happened: it stands, whatever the answer says.
    let moved = call(
        "✓ shell rm ~/docs/a.txt",
        true,
        true,
        "",
        vec![Effect::Deleted(p(&f, "docs/a.txt"))],
    );
    assert!(judge(&AskedChange, &f, request, "anything", vec![ls, moved]).is_none());
    // A question asks no change.
    let ls = call("✓ shell ls", false, true, "a.txt", vec![]);
    assert!(judge(
        &AskedChange,
        &f,
        "Which files are in ~/docs?",
        "a.txt",
        vec![ls]
    )
    .is_none());
    // A target that holds already ("make it executable": it exists) shows nothing done.
    std::fs::create_dir_all(p(&f, "bin")).expect("dir");
    std::fs::write(p(&f, "bin/run.sh"), "echo").expect("write");
    let ls = call("✓ shell ls -l ~/bin", false, true, "run.sh", vec![]);
    assert!(judge(
        &AskedChange,
        &f,
        "Make ~/bin/run.sh executable.",
        "Done.",
        vec![ls.clone()]
    )
    .is_some());
    let chmod = call(
        "✓ shell chmod +x ~/bin/run.sh",
        true,
        true,
        "",
        vec![Effect::Changed(p(&f, "bin/run.sh"))],
    );
    assert!(judge(
        &AskedChange,
        &f,
        "Make ~/bin/run.sh executable.",
        "Done.",
        vec![ls, chmod]
    )
    .is_none());
    // An order about no file (a process), carried out by a call that worked: it stands.
    let kill = call("✓ shell pkill sleep", true, true, "", vec![]);
    assert!(judge(
        &AskedChange,
        &f,
        "Stop the sleep process",
        "Stopped.",
        vec![kill]
    )
    .is_none());
}

#[test]
fn asked_target_holds_a_path_the_request_wants_written() {
    let f = fixture();
    let request = "How many .log files are in ~/logs? Write the number into ~/answer.txt";
    let count = call(
        "✓ shell ls ~/logs/*.log | wc -l",
        false,
        true,
        "exit code 0\nstdout:\n4\n",
        vec![],
    );
    let found = judge(
        &AskedTarget,
        &f,
        request,
        "There are 4 .log files.",
        vec![count.clone()],
    )
    .expect("held");
    assert!(
        found.message.contains("~/answer.txt does not exist"),
        "{}",
        found.message
    );
    assert!(
        found.message.contains("echo 4 > ~/answer.txt"),
        "the grounded number's fix: {}",
        found.message
    );
    assert!(
        found.message.contains("Your commands changed no file."),
        "{}",
        found.message
    );
    // The person is told of changes only where there were some.
    assert!(
        matches!(found.honest, Honest::Before(ref t) if t.starts_with("Not done") && !t.contains("change")),
        "{:?}",
        found.honest
    );
    // A number no output printed is never written into a fix.
    let found = judge(
        &AskedTarget,
        &f,
        request,
        "There are 5 .log files.",
        vec![count.clone()],
    )
    .expect("held");
    assert!(!found.message.contains("echo 5"), "{}", found.message);
    // Written during the task: it stands.
    std::fs::write(p(&f, "answer.txt"), "4\n").expect("write");
    let wrote = call(
        "✓ shell echo 4 > ~/answer.txt",
        true,
        true,
        "",
        vec![Effect::Created(p(&f, "answer.txt"))],
    );
    assert!(judge(&AskedTarget, &f, request, "4", vec![count.clone(), wrote]).is_none());
    // There before, and untouched: not written.
    let found = judge(&AskedTarget, &f, request, "4", vec![count.clone()]).expect("held");
    assert!(
        found.message.contains("was not written during this task"),
        "{}",
        found.message
    );
    // Empty, where text was asked for.
    std::fs::write(p(&f, "answer.txt"), "").expect("write");
    let touched = call(
        "✓ shell touch ~/answer.txt",
        true,
        true,
        "",
        vec![Effect::Changed(p(&f, "answer.txt"))],
    );
    let found = judge(&AskedTarget, &f, request, "4", vec![count, touched]).expect("held");
    assert!(found.message.contains("is empty"), "{}", found.message);
    // A renamed file's new bare name beside the old one.
    std::fs::create_dir_all(p(&f, "docs")).expect("dir");
    std::fs::write(p(&f, "docs/b.txt"), "x").expect("write");
    let mv = call(
        "✓ shell mv",
        true,
        true,
        "",
        vec![Effect::Moved {
            from: p(&f, "docs/a.txt"),
            to: p(&f, "docs/b.txt"),
        }],
    );
    assert!(judge(
        &AskedTarget,
        &f,
        "Rename ~/docs/a.txt to b.txt",
        "Done",
        vec![mv]
    )
    .is_none());
}

#[test]
fn asked_source_holds_files_that_should_have_left() {
    let f = fixture();
    std::fs::create_dir_all(p(&f, "projects")).expect("dir");
    let request = "Create a folder ~/notes and move every .csv file from ~/projects into it";
    // Copied, not moved: the folder was made and filled, nothing left ~/projects.
    let copied = call(
        "✓ shell mkdir -p ~/notes && cp ~/projects/*.csv ~/notes/",
        true,
        true,
        "",
        vec![
            Effect::Created(p(&f, "notes")),
            Effect::Created(p(&f, "notes/a.csv")),
        ],
    );
    let found = judge(&AskedSource, &f, request, "Moved.", vec![copied]).expect("held");
    assert!(
        found
            .message
            .contains("nothing was moved out of ~/projects"),
        "{}",
        found.message
    );
    let moved = call(
        "✓ shell mkdir -p ~/notes && mv ~/projects/*.csv ~/notes/",
        true,
        true,
        "",
        vec![
            Effect::Created(p(&f, "notes")),
            Effect::Moved {
                from: p(&f, "projects/a.csv"),
                to: p(&f, "notes/a.csv"),
            },
        ],
    );
    assert!(judge(&AskedSource, &f, request, "Moved.", vec![moved]).is_none());
    // Deleted in the folder named: it stands; nothing deleted: held.
    let request = "Delete every .tmp file in ~/projects";
    let rm = call(
        "✓ shell rm ~/projects/a.tmp",
        true,
        true,
        "",
        vec![Effect::Deleted(p(&f, "projects/a.tmp"))],
    );
    assert!(judge(&AskedSource, &f, request, "Done.", vec![rm]).is_none());
    let other = call(
        "✓ shell rm ~/a.tmp",
        true,
        true,
        "",
        vec![Effect::Deleted(p(&f, "a.tmp"))],
    );
    let found = judge(&AskedSource, &f, request, "Done.", vec![other]).expect("held");
    assert!(
        found.message.contains("nothing was deleted in ~/projects"),
        "{}",
        found.message
    );
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

#[test]
fn a_renamed_file_must_arrive_by_a_move() {
    let f = fixture();
    std::fs::create_dir_all(p(&f, "inbox")).expect("dir");
    std::fs::write(p(&f, "inbox/memo.txt"), "").expect("write");
    let request = "Rename ~/inbox/list.txt to memo.txt";
    // Moved elsewhere, then an empty file made where it should be: not a rename.
    let calls = vec![
        call(
            "✓ shell mv ~/inbox/list.txt memo.txt",
            true,
            true,
            "",
            vec![Effect::Moved {
                from: p(&f, "inbox/list.txt"),
                to: p(&f, "memo.txt"),
            }],
        ),
        call(
            "✓ shell touch ~/inbox/memo.txt",
            true,
            true,
            "",
            vec![Effect::Created(p(&f, "inbox/memo.txt"))],
        ),
    ];
    let found = judge(&AskedTarget, &f, request, "Renamed.", calls).expect("held");
    assert!(
        found
            .message
            .contains("nothing was moved to ~/inbox/memo.txt"),
        "{}",
        found.message
    );
    // The stray is not at the wrong place any more: nothing to move from there.
    assert!(
        !found.message.contains("mv ~/memo.txt"),
        "{}",
        found.message
    );
    // Where it went instead, from the effects, to the model and to the person.
    assert!(
        found.message.contains(
            "Your commands changed this instead: moved ~/inbox/list.txt to ~/memo.txt; created ~/inbox/memo.txt."
        ),
        "{}",
        found.message
    );
    assert!(
        matches!(&found.honest, Honest::Before(t) | Honest::Instead(t) if t.contains("What changed: moved ~/inbox/list.txt to ~/memo.txt")),
        "{:?}",
        found.honest
    );
    let moved = vec![call(
        "✓ shell mv ~/inbox/list.txt ~/inbox/memo.txt",
        true,
        true,
        "",
        vec![Effect::Moved {
            from: p(&f, "inbox/list.txt"),
            to: p(&f, "inbox/memo.txt"),
        }],
    )];
    assert!(judge(&AskedTarget, &f, request, "Renamed.", moved).is_none());
}

#[test]
fn a_target_landed_elsewhere_under_its_name_gets_the_move_that_puts_it_there() {
    let f = fixture();
    std::fs::create_dir_all(p(&f, "inbox")).expect("dir");
    std::fs::write(p(&f, "memo.txt"), "the list").expect("write");
    let request = "Rename ~/inbox/list.txt to memo.txt";
    let stray = || {
        vec![call(
            "✓ shell mv ~/inbox/list.txt memo.txt",
            true,
            true,
            "",
            vec![Effect::Moved {
                from: p(&f, "inbox/list.txt"),
                to: p(&f, "memo.txt"),
            }],
        )]
    };
    let found = judge(&AskedTarget, &f, request, "Renamed.", stray()).expect("held");
    assert!(
        found
            .message
            .contains("Run this command now:\nmv ~/memo.txt ~/inbox/memo.txt\nThen give"),
        "{}",
        found.message
    );
    // A file the person had at the target is never overwritten by the fix.
    std::fs::write(p(&f, "inbox/memo.txt"), "theirs").expect("write");
    let found = judge(&AskedTarget, &f, request, "Renamed.", stray()).expect("held");
    assert!(
        !found.message.contains("mv ~/memo.txt"),
        "{}",
        found.message
    );
    std::fs::remove_file(p(&f, "inbox/memo.txt")).expect("rm");
    // A different name elsewhere is not the target's.
    let other = vec![call(
        "✓ shell mv ~/inbox/list.txt notes.txt",
        true,
        true,
        "",
        vec![Effect::Moved {
            from: p(&f, "inbox/list.txt"),
            to: p(&f, "memo.txt.bak"),
        }],
    )];
    std::fs::write(p(&f, "memo.txt.bak"), "the list").expect("write");
    let found = judge(&AskedTarget, &f, request, "Renamed.", other).expect("held");
    assert!(!found.message.contains("mv ~/memo"), "{}", found.message);
    // A path a shell line would need quoted gets no fix (no quoting guessed).
    std::fs::create_dir_all(p(&f, "my docs")).expect("dir");
    std::fs::write(p(&f, "my docs/memo.txt"), "the list").expect("write");
    let spaced = vec![call(
        "✓ shell mv ~/inbox/list.txt ~/my\\ docs/memo.txt",
        true,
        true,
        "",
        vec![Effect::Moved {
            from: p(&f, "inbox/list.txt"),
            to: p(&f, "my docs/memo.txt"),
        }],
    )];
    std::fs::remove_file(p(&f, "memo.txt")).expect("rm");
    let found = judge(&AskedTarget, &f, request, "Renamed.", spaced).expect("held");
    assert!(!found.message.contains("mv ~/my"), "{}", found.message);
}

#[test]
fn the_finisher_sends_back_up_to_each_cap_then_tells_the_person() {
    let f = fixture();
    let request = Request::parse("How many lines are in ~/poem.txt?", &f.env);
    let mut evidence = Evidence::default();
    evidence.push(call(
        "✓ shell wc -l ~/poem.txt",
        false,
        true,
        "137 /home/me/poem.txt",
        vec![],
    ));
    let case = Case {
        request: &request,
        answer: "It has 1 line.",
        evidence: &evidence,
        held_back: false,
        stopped: None,
        window: None,
        env: &f.env,
    };
    // The caps of one check (`second-way` would ask for a program after it).
    let mut finisher = Finisher::new(standard_without(&["second-way".to_string()]));
    assert!(matches!(
        finisher.judge(&case),
        Judged::Back {
            check: "ungrounded-value",
            ..
        }
    ));
    assert!(finisher.has_sent("ungrounded-value"));
    match finisher.judge(&case) {
        Judged::Honest(told) => {
            assert_eq!(told.len(), 1, "{told:?}");
            assert_eq!(told[0].0, "ungrounded-value");
        }
        other => panic!("{other:?}"),
    }
    let good = Case {
        answer: "137 lines",
        ..case
    };
    assert_eq!(finisher.judge(&good), Judged::Stands);
}

#[test]
fn every_check_has_a_unique_name_and_a_cap() {
    let checks = standard();
    let mut names: Vec<&str> = checks.iter().map(|c| c.name()).collect();
    // Only a check that tells and never sends back has no cap: one that sends back has one.
    assert!(checks.iter().all(|c| c.cap() >= 1
        || [
            "changes-unsaid",
            "stopped-short",
            "window-closed-short",
            "text-dropped"
        ]
        .contains(&c.name())));
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), checks.len());
}

fn act(element: &str, shown: crate::tool::Shown) -> CallEvidence {
    CallEvidence {
        output: String::new(),
        ..CallEvidence::act_read_back(crate::tool::ReadBack::of(
            element,
            "Print",
            "set_text",
            "set its text to \"7\"",
            shown,
        ))
    }
}

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

/// `written-differs`, in families: what commands leave in a file the request asks a
/// value to be written into (a count with its file's name, a size with its path, a
/// value alone, a line of text), against answers worded several ways. It holds only the
/// answers that give a value the file carries among other words, and never a file whose
/// line the answer says, or a text of several lines.
#[test]
fn written_differs_holds_an_answer_the_file_does_not_bear_out() {
    let f = fixture();
    let file = p(&f, "count.txt");
    let written = |line: &str| {
        std::fs::write(&file, line).expect("write");
        vec![call(
            "✓ shell wc -l ~/invoice.txt > ~/count.txt",
            true,
            true,
            "exit code 0\n",
            vec![Effect::Created(file.clone())],
        )]
    };
    let requests = [
        "Count the lines in ~/invoice.txt and write the number into ~/count.txt",
        "put the line count of my summary.txt into a file ~/count.txt",
        "Write the size of ~/a.log to ~/count.txt",
    ];
    let differing = [
        "35 /home/me/invoice.txt\n",
        "35\t/home/me/invoice.txt\n",
        "  35 invoice.txt\n",
        "total 35\n",
    ];
    let answers = [
        "There are 35 lines; I wrote 35 into ~/count.txt.",
        "Done: ~/count.txt now holds 35.",
        "The count is 35, written to count.txt.",
    ];
    let mut held = 0;
    for request in requests {
        for line in differing {
            for answer in answers {
                let found = judge(&WrittenDiffers, &f, request, answer, written(line));
                let found = found.unwrap_or_else(|| panic!("{request} / {line:?} / {answer}"));
                assert!(found.message.contains("holds \""), "{}", found.message);
                // The command that writes it, from the answer's value and the request's path.
                assert!(
                    found.message.contains("printf '%s\\n' '35' > ~/count.txt"),
                    "{}",
                    found.message
                );
                assert!(
                    matches!(found.honest, Honest::After(ref t) if t.contains("did not write 35 alone")),
                    "{:?}",
                    found.honest
                );
                held += 1;
            }
        }
    }
    assert_eq!(held, 36);
    // The file holds the value alone, or the answer says what it holds: it stands.
    let fine = [
        ("35\n", "I wrote 35 into ~/count.txt."),
        (
            "35 /home/me/invoice.txt\n",
            "~/count.txt holds 35 /home/me/invoice.txt.",
        ),
        (
            "35 /home/me/invoice.txt\n",
            "It holds \"35 /home/me/invoice.txt\".",
        ),
    ];
    for (line, answer) in fine {
        assert!(
            judge(&WrittenDiffers, &f, requests[0], answer, written(line)).is_none(),
            "{line:?} / {answer}"
        );
    }
    // A line of text the answer says, in any case or quoting: it stands.
    let text = "make a file called ~/count.txt with the line Send harbor 21";
    for answer in [
        "I created ~/count.txt with the line 'Send harbor 21'.",
        "I created ~/count.txt with the line Send harbor 21.",
        "Created count.txt containing \"send harbor 21\".",
    ] {
        assert!(
            judge(
                &WrittenDiffers,
                &f,
                text,
                answer,
                written("Send harbor 21\n")
            )
            .is_none(),
            "{answer}"
        );
    }
    // A text of several lines, or a file nothing wrote this task: not judged.
    assert!(judge(
        &WrittenDiffers,
        &f,
        requests[0],
        answers[0],
        written("35\nand more\n")
    )
    .is_none());
    std::fs::write(&file, "35 x\n").expect("write");
    let untouched = vec![call(
        "✓ shell wc -l ~/invoice.txt",
        false,
        true,
        "exit code 0\nstdout:\n35 x\n",
        vec![],
    )];
    assert!(judge(&WrittenDiffers, &f, requests[0], answers[0], untouched).is_none());
    // An answer with no value: other checks'.
    assert!(judge(&WrittenDiffers, &f, requests[0], "Done.", written("35 x\n")).is_none());
}

/// `changes-unsaid`: a change's answer that names none of the paths the calls touched is
/// told what changed, never sent back; one that names a path, a question, or a task that
/// changed nothing is left alone.
#[test]
fn changes_unsaid_tells_what_changed() {
    let f = fixture();
    let request = "Replace every window with harbor in ~/budget.txt";
    let sed = || {
        vec![call(
            "✓ shell sed -i 's/window/harbor/g' ~/budget.txt",
            true,
            true,
            "exit code 0\n",
            vec![Effect::Changed(p(&f, "budget.txt"))],
        )]
    };
    let found = judge(
        &ChangesUnsaid,
        &f,
        request,
        "The command completed successfully.",
        sed(),
    )
    .expect("told");
    assert_eq!(
        found.honest,
        Honest::After("(What changed: changed ~/budget.txt.)".into())
    );
    assert_eq!(ChangesUnsaid.cap(), 0);
    for answer in [
        "I replaced every window with harbor in ~/budget.txt.",
        "Done: BUDGET.TXT now says harbor.",
    ] {
        assert!(
            judge(&ChangesUnsaid, &f, request, answer, sed()).is_none(),
            "{answer}"
        );
    }
    assert!(judge(&ChangesUnsaid, &f, request, "Done.", vec![]).is_none());
    assert!(judge(
        &ChangesUnsaid,
        &f,
        "What is in ~/budget.txt?",
        "Done.",
        sed()
    )
    .is_none());
    let many: Vec<Effect> = (0..7)
        .map(|i| Effect::Created(p(&f, &format!("n{i}.txt"))))
        .collect();
    let made = vec![call("✓ shell touch n{0..6}.txt", true, true, "", many)];
    let found = judge(&ChangesUnsaid, &f, "Make seven notes", "Done.", made).expect("told");
    assert!(
        matches!(found.honest, Honest::After(ref t) if t.ends_with("and 2 more.)")),
        "{:?}",
        found.honest
    );
}

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

//! Tests of the checks of what the request asks to change (`effects.rs`).

use super::*;

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

//! Claims against families of answers: what is a claim, and what the files bear out.

use super::*;

/// Families of answers that claim a change and of answers that report facts: every
/// claim is caught, no fact is taken for one.
#[test]
fn claimed_changes_are_told_from_reported_facts() {
    let mut claims = Vec::new();
    let subjects = [
        "I",
        "I've",
        "I have",
        "We",
        "I just",
        "we have",
        "I\u{2019}ve",
        "Done: I",
    ];
    let verbs = [
        "wrote", "written", "saved", "created", "moved", "copied", "renamed", "deleted", "removed",
        "appended", "added", "stored", "updated", "changed", "made", "put",
    ];
    let objects = [
        "4 into ~/answer.txt.",
        "the file ~/count.txt",
        "it",
        "the folder for you.",
    ];
    for subject in subjects {
        for verb in verbs {
            for object in objects {
                claims.push(format!("There are 4 .log files. {subject} {verb} {object}"));
            }
        }
    }
    for verb in verbs {
        claims.push(format!("The number has been {verb} to ~/answer.txt."));
        claims.push(format!("All .log files have been {verb}."));
    }
    for v in ["contains", "holds", "reads"] {
        claims.push(format!("~/count.txt now {v} 3."));
    }
    for verb in verbs {
        for (subject, to) in [("The file was", "into"), ("The rows were", "to")] {
            claims.push(format!("{subject} {verb} {to} ~/backup."));
        }
    }
    let facts = [
        "There are 4 .log files in ~/logs.",
        "You have 60 GB free of 100 GB on /.",
        "The largest file in ~/data is big.bin (3.1 MB).",
        "report-2025.txt was created on 2025-01-02 and changed last week.",
        "The Gadget costs 19.99.",
        "Your user name is root.",
        "new.rs was modified most recently.",
        "5 lines in ~/app.log contain ERROR.",
        "Linux kernel 6.1.0-28-amd64 is running.",
        "I found 4 files and counted 12 lines.",
        "I checked ~/logs: it holds 3 files.",
        "I see 4 .txt files in ~/docs.",
        "The folder has 3 files; the newest was written yesterday.",
        "The cheapest item is the Widget at 2.50.",
        "25 December 2026 is a Friday.",
        "1234 times 5678 is 7006652.",
        "Which file do you mean: report-2025.txt or report-2026.txt?",
        "The file was saved by another program at 09:14.",
        "I could not find a file named report.txt.",
        "It is not done: the folder ~/backup does not exist.",
        "Files added to ~/inbox today: scan-0001.pdf.",
        "report.txt was created in 2024 and moved in 2025.",
        "The backup was made at 09:00.",
    ];
    let missed: Vec<&String> = claims.iter().filter(|c| !claims_change(c)).collect();
    let false_alarms: Vec<&&str> = facts.iter().filter(|f| claims_change(f)).collect();
    println!(
        "claims: {} ({} missed); facts: {} ({} false alarms)",
        claims.len(),
        missed.len(),
        facts.len(),
        false_alarms.len()
    );
    assert!(missed.is_empty(), "missed: {missed:?}");
    assert!(false_alarms.is_empty(), "false alarms: {false_alarms:?}");
}

fn env_in(dir: &Path) -> ShellEnv {
    ShellEnv {
        home: dir.to_path_buf(),
        cwd: dir.join("work"),
        user: "me".into(),
    }
}

/// Families of claims about files the request named, each checked against a folder
/// where it is true and one where it is false: every false one is told with what the
/// files hold, no true one is.
#[test]
fn claimed_writes_and_deletes_are_checked_against_the_files() {
    let dir = tempfile::tempdir().expect("temp");
    let env = env_in(dir.path());
    std::fs::create_dir_all(env.cwd.join("out")).expect("work");
    let subjects = ["I", "I have", "I've", "Done: I", "I just"];
    let mut missed = Vec::new();
    let mut false_alarms = Vec::new();
    let mut cases = 0;
    // (request's path, how the answer names it, where it is on disk)
    let absolute = dir.path().join("abs.txt");
    let places: Vec<(String, &str, PathBuf)> = vec![
        (
            "~/answer.txt".into(),
            "~/answer.txt",
            dir.path().join("answer.txt"),
        ),
        (
            "~/answer.txt".into(),
            "answer.txt",
            dir.path().join("answer.txt"),
        ),
        (
            "$HOME/total.txt".into(),
            "$HOME/total.txt",
            dir.path().join("total.txt"),
        ),
        ("out/n.txt".into(), "out/n.txt", env.cwd.join("out/n.txt")),
        (absolute.display().to_string(), "abs.txt", absolute.clone()),
    ];
    for (named, said, on_disk) in &places {
        let request = format!("Count the .log files in ~/logs and write the number into {named}");
        for subject in subjects {
            for (verb, prep) in [
                ("wrote", "into"),
                ("saved", "in"),
                ("wrote", "to"),
                ("put", "into the file"),
                ("stored", "in"),
            ] {
                let answer = format!("There are 4 .log files. {subject} {verb} 4 {prep} {said}.");
                for (holds, true_claim) in [
                    (None, false),
                    (Some(""), false),
                    (Some("7\n"), false),
                    (Some("4\n"), true),
                ] {
                    let _ = std::fs::remove_file(on_disk);
                    if let Some(text) = holds {
                        std::fs::write(on_disk, text).expect("write");
                    }
                    cases += 1;
                    let unmet = unmet_file_claims(&request, &answer, &env);
                    match (true_claim, unmet.is_empty()) {
                        (false, true) => missed.push(format!("{answer} / {holds:?}")),
                        (true, false) => false_alarms.push(format!("{answer}: {unmet:?}")),
                        _ => {}
                    }
                }
            }
        }
    }
    // Deletes: the file must be gone.
    let gone = dir.path().join("old.txt");
    for answer in [
        "I deleted ~/old.txt.",
        "I have removed ~/old.txt as asked.",
        "Done: I deleted old.txt",
    ] {
        for exists in [true, false] {
            let _ = std::fs::remove_file(&gone);
            if exists {
                std::fs::write(&gone, "x").expect("write");
            }
            cases += 1;
            let unmet = unmet_file_claims("Delete ~/old.txt", answer, &env);
            match (exists, unmet.is_empty()) {
                (true, true) => missed.push(format!("{answer} / exists")),
                (false, false) => false_alarms.push(format!("{answer}: {unmet:?}")),
                _ => {}
            }
        }
    }
    // Moves into a folder: the folder must exist.
    let folder = dir.path().join("old-logs");
    for exists in [true, false] {
        let _ = std::fs::remove_dir_all(&folder);
        if exists {
            std::fs::create_dir_all(&folder).expect("folder");
            std::fs::write(folder.join("app.log"), "x").expect("log");
        }
        cases += 1;
        let unmet = unmet_file_claims(
            "Make a folder ~/old-logs and move the .log files from ~/var into it",
            "I created ~/old-logs and moved app.log and db.log into it.",
            &env,
        );
        match (exists, unmet.is_empty()) {
            (false, true) => missed.push("old-logs created".into()),
            (true, false) => false_alarms.push(format!("old-logs: {unmet:?}")),
            _ => {}
        }
    }
    // "… into it": the folder the answer named before, not the one things came from,
    // must hold something.
    for answer in [
        "I created ~/old-logs and moved app.log and db.log into it.",
        "The folder ~/old-logs was created and all .log files from ~/var were moved into it.",
        "I made ~/old-logs. Then I moved the .log files from ~/var into it.",
    ] {
        for filled in [true, false] {
            let _ = std::fs::remove_dir_all(&folder);
            std::fs::create_dir_all(dir.path().join("var")).expect("var");
            std::fs::write(dir.path().join("var/keep.txt"), "x").expect("var");
            std::fs::create_dir_all(&folder).expect("folder");
            if filled {
                std::fs::write(folder.join("app.log"), "x").expect("log");
            }
            cases += 1;
            let unmet = unmet_file_claims(
                "Make a folder ~/old-logs and move the .log files from ~/var into it",
                answer,
                &env,
            );
            match (filled, unmet.is_empty()) {
                (false, true) => missed.push(format!("{answer} / empty")),
                (true, false) => false_alarms.push(format!("{answer}: {unmet:?}")),
                _ => {}
            }
        }
    }
    // Made or saved right before the path, with no "into".
    for answer in [
        "I have created a file ~/hello.txt with the line 'Hello, Zeta'.",
        "I created the ~/hello.txt file.",
        "Done: I made ~/hello.txt for you",
        // Passive: the path, then "was created".
        "The file ~/hello.txt was created and the line was written into it.",
        "~/hello.txt has been created.",
        "Done: ~/hello.txt has been created with the line.",
    ] {
        let file = dir.path().join("hello.txt");
        for exists in [true, false] {
            let _ = std::fs::remove_file(&file);
            if exists {
                std::fs::write(&file, "Hello, Zeta\n").expect("write");
            }
            cases += 1;
            let unmet = unmet_file_claims(
                "Create a file ~/hello.txt that contains the line Hello, Zeta",
                answer,
                &env,
            );
            match (exists, unmet.is_empty()) {
                (false, true) => missed.push(format!("{answer} / missing")),
                (true, false) => false_alarms.push(format!("{answer}: {unmet:?}")),
                _ => {}
            }
        }
    }
    println!(
        "file claims: {cases} cases, {} missed, {} false alarms",
        missed.len(),
        false_alarms.len()
    );
    assert!(missed.is_empty(), "missed: {missed:#?}");
    assert!(false_alarms.is_empty(), "false alarms: {false_alarms:#?}");
}

/// A folder (or a file with no value named) that was there before the task proves
/// nothing: a claimed copy into it needs it changed since the task began.
#[test]
fn a_claimed_copy_into_an_old_folder_needs_the_folder_changed() {
    let dir = tempfile::tempdir().expect("temp");
    let env = env_in(dir.path());
    std::fs::create_dir(dir.path().join("backup")).expect("backup");
    std::fs::write(dir.path().join("paris.csv"), "old").expect("write");
    let request = "Copy the largest file into ~/backup and the Paris rows into ~/paris.csv";
    let answer = "I copied big.bin into ~/backup and wrote the rows into ~/paris.csv.";
    let later = SystemTime::now() + Duration::from_secs(60);
    let found = check_file_claims(request, answer, &env, Some(later));
    assert_eq!(
        found.unmet,
        [
            "~/backup has not changed during this task",
            "~/paris.csv has not changed during this task"
        ]
    );
    // Changed since the task began: borne out.
    let before = SystemTime::now() - Duration::from_secs(60);
    let found = check_file_claims(request, answer, &env, Some(before));
    assert_eq!((found.checked, found.unmet.len()), (2, 0));
}

/// Facts and answers about paths the request did not name, or with no claim of a
/// change, are never checked.
#[test]
fn reports_and_unnamed_paths_are_not_checked() {
    let dir = tempfile::tempdir().expect("temp");
    let env = env_in(dir.path());
    for (request, answer) in [
        (
            "How many .log files are in ~/logs?",
            "There are 4 .log files in ~/logs.",
        ),
        (
            "Where is my report?",
            "report.txt was created in 2024 in ~/docs.",
        ),
        (
            "Write the number into ~/answer.txt",
            "I could not find ~/answer.txt's folder; nothing was written.",
        ),
        (
            "Rename the file in ~/inbox",
            "I renamed scan-0001.pdf to invoice.pdf.",
        ),
        (
            "Copy the largest file to ~/backup",
            "I checked https://example.com/a.txt for you.",
        ),
        ("Free disk space?", "You have 60 GB free on /."),
        (
            "When was ~/report.txt made? Then copy it to ~/backup",
            "~/report.txt was created on 2025-01-02; I copied it to the backup.",
        ),
    ] {
        assert_eq!(
            check_file_claims(request, answer, &env, None),
            FileClaims::default(),
            "{answer}"
        );
    }
}

/// What the answer says was written comes back as the command that writes it.
#[test]
fn an_unmet_write_of_a_known_value_comes_with_its_command() {
    let dir = tempfile::tempdir().expect("temp");
    let env = env_in(dir.path());
    let request = "Count the files and write the number into ~/answer.txt";
    let found = check_file_claims(request, "I wrote 4 into ~/answer.txt.", &env, None);
    assert_eq!(found.unmet, ["~/answer.txt does not exist"]);
    assert_eq!(found.fixes, ["echo 4 > ~/answer.txt"]);
    let found = check_file_claims(request, "I wrote \"it's 4\" into ~/answer.txt", &env, None);
    assert_eq!(found.fixes, ["echo 'it'\\''s 4' > ~/answer.txt"]);
    // No value said: a fact, no command.
    let found = check_file_claims(request, "I saved the count in ~/answer.txt", &env, None);
    assert_eq!(found.unmet.len(), 1);
    assert!(found.fixes.is_empty());
}

/// The words around paths: punctuation is not part of a path, version numbers and
/// prices are not paths.
#[test]
fn paths_are_read_out_of_prose() {
    let found: Vec<String> = path_words(
        "I wrote 4 into ~/answer.txt. Prices: 4.50 and 12.00; see (notes.md), /etc/hosts, https://x.org/a and v1.2",
    )
    .into_iter()
    .map(|(_, p)| p)
    .collect();
    assert_eq!(found, vec!["~/answer.txt", "notes.md", "/etc/hosts"]);
}

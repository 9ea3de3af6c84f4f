//! Drafting a skill from a task: its steps kept, its values made parameters everywhere
//! they appear, nothing of the task's values left in the draft.

use super::*;

fn call(tool: &str, args: serde_json::Value, ok: bool, decision: &str) -> AuditEntry {
    AuditEntry {
        id: 0,
        task_id: 1,
        call_id: "c".into(),
        tool: tool.into(),
        arguments: args.to_string(),
        decision: decision.into(),
        decided_by: "policy".into(),
        ok,
        summary: String::new(),
        created_at: 0,
        state: "finished".into(),
    }
}

fn shell(command: &str) -> AuditEntry {
    call(
        "shell",
        serde_json::json!({ "command": command }),
        true,
        "allowed",
    )
}

struct Home {
    _dir: tempfile::TempDir,
    env: ShellEnv,
}

fn home() -> Home {
    let dir = tempfile::tempdir().expect("dir");
    std::fs::create_dir_all(dir.path().join("logs")).expect("logs");
    std::fs::write(dir.path().join("report.txt"), "x").expect("file");
    let env = ShellEnv {
        home: dir.path().to_path_buf(),
        cwd: dir.path().to_path_buf(),
        user: "someone".into(),
    };
    Home { _dir: dir, env }
}

#[test]
fn paths_and_numbers_become_parameters_in_the_request_and_the_steps() {
    let h = home();
    let request = "Find the largest file in ~/logs and show me its last 20 lines";
    let home_logs = format!("{}/logs", h.env.home.display());
    let calls = vec![
        shell(&format!(
            "find {home_logs} -type f -printf '%s %p\\n' | sort -n | tail -n 1"
        )),
        call(
            "shell",
            serde_json::json!({"command": "tail -n 20 /nope"}),
            false,
            "allowed",
        ),
        shell(&format!("tail -n 20 {home_logs}/big.log")),
        call(
            "ask_user",
            serde_json::json!({"question": "which?"}),
            true,
            "allowed",
        ),
    ];
    let draft = draft(request, &calls, &h.env).expect("draft");
    assert_eq!(
        draft.description,
        "Find the largest file in DIR and show me its last N lines"
    );
    assert_eq!(
        draft.parameters,
        [
            ("DIR".to_string(), "a folder".to_string()),
            ("N".to_string(), "a number the request gives".to_string())
        ]
    );
    assert!(draft.body.contains("find DIR -type f"), "{}", draft.body);
    assert!(
        draft.body.contains("tail -n N DIR/big.log"),
        "{}",
        draft.body
    );
    // The failed call and the question are not steps.
    assert!(!draft.body.contains("/nope") && !draft.body.contains("which?"));
    // No value of the task is left.
    assert!(!draft.body.contains("20") && !draft.body.contains(&home_logs));
    assert_eq!(draft.name, "find-the-largest-file-in-and");
    // What is drafted is a skill that loads.
    let text = crate::format::render(&draft.name, &draft.description, &draft.body);
    assert!(crate::format::parse(&text, "draft", crate::format::Origin::BuiltIn).is_ok());
}

#[test]
fn quoted_texts_several_files_and_words_with_digits() {
    let h = home();
    let request = "Replace 'teh' with \"the\" in report.txt and notes2.txt, keep 3 copies";
    let calls = vec![
        shell("sed -i 's/teh/the/g' report.txt notes2.txt"),
        shell("for i in 1 2 3; do cp report.txt report.$i.bak; done"),
    ];
    let draft = draft(request, &calls, &h.env).expect("draft");
    assert_eq!(
        draft.description,
        "Replace 'TEXT1' with \"TEXT2\" in FILE1 and FILE2, keep N copies"
    );
    assert!(
        draft.body.contains("sed -i 's/TEXT1/TEXT2/g' FILE1 FILE2"),
        "{}",
        draft.body
    );
    // `3` stands alone in the loop; `notes2` keeps its digit.
    assert!(draft.body.contains("for i in 1 2 N;"), "{}", draft.body);
}

#[test]
fn a_task_with_no_step_that_worked_cannot_be_learned() {
    let h = home();
    let calls = vec![
        call(
            "shell",
            serde_json::json!({"command": "rm -rf ~/x"}),
            false,
            "asked-denied",
        ),
        call(
            "shell",
            serde_json::json!({"command": "ls"}),
            false,
            "allowed",
        ),
        call(
            "propose_plan",
            serde_json::json!({"steps": []}),
            true,
            "allowed",
        ),
    ];
    assert_eq!(
        draft("Delete x", &calls, &h.env),
        Err(NotLearnable::NoSteps)
    );
}

#[test]
fn a_value_inside_a_longer_number_or_word_stays() {
    assert_eq!(
        replace_value("tail -n 20 f20.log 2.5 20", "20", "N"),
        "tail -n N f20.log 2.5 N"
    );
    assert_eq!(replace_value("2 2.5 1.2 x2", "2", "N"), "N 2.5 1.2 x2");
    assert_eq!(replace_value("~/a/b ~/a/bc", "~/a/b", "DIR"), "DIR ~/a/bc");
}

#[test]
fn other_tools_are_steps_written_with_their_arguments() {
    let h = home();
    let calls = vec![call(
        "write_file",
        serde_json::json!({"path": "report.txt", "content": "hello"}),
        true,
        "asked-approved",
    )];
    let draft = draft("Write hello into report.txt", &calls, &h.env).expect("draft");
    assert!(
        draft
            .body
            .contains("write_file {\"content\":\"hello\",\"path\":\"FILE\"}"),
        "{}",
        draft.body
    );
}

#[test]
fn an_ending_the_commands_selected_files_by_becomes_a_parameter() {
    let h = home();
    let logs = format!("{}/logs", h.env.home.display());
    // Written with its dot, and as a bare word the command's glob shows is an ending.
    for (request, described) in [
        (
            "How many .txt files are in ~/logs?",
            "How many .EXT files are in DIR?",
        ),
        (
            "Count the txt files in ~/logs",
            "Count the EXT files in DIR",
        ),
    ] {
        let calls = vec![shell(&format!("find {logs} -name '*.txt' | wc -l"))];
        let draft = draft(request, &calls, &h.env).expect("draft");
        assert_eq!(draft.description, described);
        assert!(
            draft.body.contains("find DIR -name '*.EXT' | wc -l"),
            "{}",
            draft.body
        );
        assert!(
            draft.body.contains("- EXT: a kind of file"),
            "{}",
            draft.body
        );
    }
    // Asked in capitals, globbed in small letters: both are the parameter.
    let calls = vec![shell(&format!("find {logs} -iname '*.pdf' | wc -l"))];
    let pdf = draft("How many PDF files are in ~/logs?", &calls, &h.env).expect("draft");
    assert_eq!(pdf.description, "How many EXT files are in DIR?");
    assert!(pdf.body.contains("-iname '*.EXT'"), "{}", pdf.body);
    // A hidden folder the command lists is no ending, and a file the command writes
    // keeps its name.
    let calls = vec![shell(&format!("ls -a {logs}/.ssh > /tmp/out.txt"))];
    let ssh = draft("list the ssh keys in ~/logs as txt", &calls, &h.env).expect("draft");
    assert!(ssh.body.contains("DIR/.ssh > /tmp/out.txt"), "{}", ssh.body);
    // A word of the request that no command selected files by stays a word.
    let calls = vec![shell(&format!("ls {logs} | wc -l"))];
    let draft = draft("How many txt files are in ~/logs?", &calls, &h.env).expect("draft");
    assert_eq!(draft.description, "How many txt files are in DIR?");
}

#[test]
fn a_request_reads_as_its_shape_with_its_values_as_parameters() {
    let h = home();
    for log in ["app.log", "db.log"] {
        std::fs::write(h.env.home.join("logs").join(log), "x").expect("log");
    }
    let shape = |text: &str| shape(&Request::parse(text, &h.env), &h.env.home);
    assert_eq!(
        shape("How many .jpg files are in ~/logs?"),
        "How many .EXT files are in DIR?"
    );
    // A bare word is an ending where the folder named holds files that end so.
    assert_eq!(
        shape("Count the log files in ~/logs"),
        "Count the EXT files in DIR"
    );
    assert_eq!(shape("Count the files in ~/logs"), "Count the files in DIR");
    assert_eq!(
        shape("What is the total of column 3 in ~/report.txt?"),
        "What is the total of column N in FILE?"
    );
    assert_eq!(
        shape("Which lines of ~/report.txt say 'late'?"),
        "Which lines of FILE say 'TEXT'?"
    );
    assert_eq!(shape("What is my user name?"), "What is my user name?");
    // A date is one value, not numbers; a number glued into it stays.
    assert_eq!(
        shape("Show 12 lines of ~/report.txt from 2026-12-25"),
        "Show N lines of FILE from DATE"
    );
    // A path inside another stays whole; a hidden folder is no ending.
    assert_eq!(
        shape("Copy ~/logs/app.log and ~/logs to ~/.config"),
        "Copy FILE and DIR1 to DIR2"
    );
}

#[test]
fn a_drafted_skill_declares_its_parameters() {
    let h = home();
    let calls = vec![shell("tail -n 5 report.txt")];
    let draft = draft("Show the last 5 lines of report.txt", &calls, &h.env).expect("draft");
    let text = crate::format::render(&draft.name, &draft.description, &draft.body);
    let skill =
        crate::format::parse(&text, "draft", crate::format::Origin::BuiltIn).expect("parses");
    assert_eq!(skill.parameters(), ["FILE", "N"]);
    // A skill without that list declares none.
    let plain = crate::format::parse(
        "---\nname: a\ndescription: b\n---\nParameters are fine.\n\n```sh\nls\n```\n",
        "plain",
        crate::format::Origin::BuiltIn,
    )
    .expect("parses");
    assert!(plain.parameters().is_empty());
}

#[test]
fn texts_the_commands_were_given_from_the_request_become_parameters() {
    let h = home();
    let home = h.env.home.display().to_string();
    let cases = [
        (
            "How many lines in ~/report.txt contain ERROR?",
            format!("grep -i 'ERROR' {home}/report.txt | wc -l"),
            "How many lines in FILE contain TEXT?",
            "grep -i 'TEXT' FILE | wc -l",
        ),
        // A number inside the text is the text's: no N is left over.
        (
            "Create a file ~/todo.txt containing the text: Fix cloud 4",
            format!("echo 'Fix cloud 4' > {home}/todo.txt"),
            "Create a file FILE containing the text: TEXT",
            "echo 'TEXT' > FILE",
        ),
        (
            "Replace every planet with cloud in ~/report.txt",
            format!("sed -i 's/planet/cloud/g' {home}/report.txt"),
            "Replace every TEXT1 with TEXT2 in FILE",
            "sed -i 's/TEXT1/TEXT2/g' FILE",
        ),
        // An ending written with its dot is the parameter in a program's text too.
        (
            "how many files ending in .md do I have in ~/logs",
            "python3 -c \"import os; print(sum(f.endswith('.md') for f in os.listdir('x')))\""
                .to_string(),
            "how many files ending in .EXT do I have in DIR",
            "f.endswith('.EXT')",
        ),
    ];
    for (request, command, described, step) in cases {
        let draft = draft(request, &[shell(&command)], &h.env).expect("draft");
        assert_eq!(draft.description, described, "{}", draft.body);
        assert!(draft.body.contains(step), "{request}: {}", draft.body);
        let names: Vec<&str> = draft.parameters.iter().map(|p| p.0.as_str()).collect();
        for name in &names {
            assert!(
                described.contains(name),
                "{request}: {name} stands for nothing: {names:?}"
            );
        }
    }
    // A word of a path the request names, a flag and a short word are not texts.
    let draft = draft(
        "Show the last 5 lines of ~/logs/app.log",
        &[shell(&format!("tail -n 5 {home}/logs/app.log"))],
        &h.env,
    )
    .expect("draft");
    assert_eq!(draft.description, "Show the last N lines of FILE");
}

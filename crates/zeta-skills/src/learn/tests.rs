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

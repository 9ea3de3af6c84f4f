//! Asked writes against families of requests (what each asks to be written, and what asks
//! nothing), and against the files.

use super::*;

fn unmet(request: &str, env: &ShellEnv, since: SystemTime) -> Vec<String> {
    unmet_asked_writes(request, "", env, since).0
}

fn asked(request: &str) -> Vec<(String, bool)> {
    asked_writes(request)
        .into_iter()
        .map(|a| (a.path, a.exists_only))
        .collect()
}

#[test]
fn requests_ask_for_the_writes_they_name_and_nothing_else() {
    let changed = |p: &str| vec![(p.to_string(), false)];
    let exists = |p: &str| vec![(p.to_string(), true)];
    let cases: Vec<(&str, Vec<(String, bool)>)> = vec![
        (
            "How many .log files are in ~/logs? Write the number into ~/answer.txt",
            changed("~/answer.txt"),
        ),
        (
            "Count the .log files in ~/logs and write the number into ~/count.txt",
            changed("~/count.txt"),
        ),
        (
            "Find the largest file in ~/data and copy it into the folder ~/backup",
            changed("~/backup"),
        ),
        (
            "Write the Paris rows of ~/sales.csv (without the header) into ~/paris.csv",
            changed("~/paris.csv"),
        ),
        ("Save the disk usage to ~/du.txt.", changed("~/du.txt")),
        (
            "please append today's date to notes.txt",
            changed("notes.txt"),
        ),
        (
            "Put the result in a file as ~/out.txt",
            changed("~/out.txt"),
        ),
        (
            "Create a folder ~/archive and move every .log file from ~/logs into it",
            exists("~/archive"),
        ),
        (
            "Create a file ~/hello.txt that contains the line Hello, Zeta",
            exists("~/hello.txt"),
        ),
        (
            "Rename ~/data/mid.csv to ~/data/table.csv",
            exists("~/data/table.csv"),
        ),
        ("Move ~/a.txt to ~/old/a.txt", exists("~/old/a.txt")),
        (
            "Make a directory ~/tmp/x; then copy ~/a.txt into ~/tmp/x",
            vec![("~/tmp/x".to_string(), true)],
        ),
        // Nothing asked: questions, reads, negations, "in" and "from".
        ("How many lines in ~/app.log contain ERROR?", vec![]),
        (
            "What is the total of the amount column in ~/sales.csv?",
            vec![],
        ),
        ("Was anything written into ~/answer.txt?", vec![]),
        (
            "Do not write into ~/answer.txt, just tell me the count",
            vec![],
        ),
        ("Save the list of files in ~/docs", vec![]),
        ("Show me what moved from ~/inbox", vec![]),
        ("Which file in ~/data is the largest?", vec![]),
        ("Delete ~/old.txt", vec![]),
        ("Rename the file in ~/inbox.", vec![]),
        ("How much free disk space do I have?", vec![]),
    ];
    let mut wrong = Vec::new();
    for (request, want) in &cases {
        let got = asked(request);
        if &got != want {
            wrong.push(format!("{request}: got {got:?}, want {want:?}"));
        }
    }
    println!("{} requests, {} wrong", cases.len(), wrong.len());
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn the_files_say_which_asked_writes_are_not_done() {
    let dir = tempfile::tempdir().expect("temp");
    let env = ShellEnv {
        home: dir.path().to_path_buf(),
        cwd: dir.path().to_path_buf(),
        user: "me".into(),
    };
    let request = "How many .log files are in ~/logs? Write the number into ~/answer.txt";
    let start = SystemTime::now();
    assert_eq!(unmet(request, &env, start), ["~/answer.txt does not exist"]);
    // Touched, not written: empty; the answer's one number is the command's value.
    std::fs::write(dir.path().join("answer.txt"), "").expect("touch");
    let (found, fixes) =
        unmet_asked_writes(request, "There are 4 .log files in ~/logs.", &env, start);
    assert_eq!(found, ["~/answer.txt is empty"]);
    assert_eq!(fixes, ["echo 4 > ~/answer.txt"]);
    let (_, fixes) = unmet_asked_writes(request, "Between 3 and 4 files.", &env, start);
    assert!(fixes.is_empty(), "two numbers: no guess");
    std::fs::write(dir.path().join("answer.txt"), "4\n").expect("write");
    assert!(unmet(request, &env, start).is_empty());
    // There before the task, untouched since: not done.
    let later = SystemTime::now() + Duration::from_secs(60);
    assert_eq!(
        unmet(request, &env, later),
        ["~/answer.txt has not changed during this task"]
    );
    // A made folder need only exist, however old.
    std::fs::create_dir(dir.path().join("archive")).expect("dir");
    let made = "Create a folder ~/archive and move the .log files from ~/logs into it";
    assert!(unmet(made, &env, later).is_empty());
}

/// Any text is read without a panic.
#[test]
fn any_request_is_read_without_a_panic() {
    let mut seed = 5u64;
    let pieces = [
        "write", "into", "~/a.txt", "to", "?", ".", "create", "not", "é", "\n", ";", "x.y", "move",
        "as", "", "!",
    ];
    for _ in 0..3000 {
        let mut text = String::new();
        for _ in 0..(seed % 12) {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            text.push_str(pieces[(seed >> 33) as usize % pieces.len()]);
            if seed.is_multiple_of(3) {
                text.push(' ');
            }
        }
        let _ = asked_writes(&text);
        seed = seed.wrapping_add(1);
    }
}

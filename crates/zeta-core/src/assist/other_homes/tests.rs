//! Homes written that are not the person's, against families of commands, programs and
//! paths: every placeholder home, every way a path sits in a line, each read again and
//! compared with the line written in the person's home (and run, where it only reads);
//! and the lines where the path is there, is not the person's either, or is no path,
//! where nothing may be read. Misses and false alarms are counted and must be none.

use super::{find, read};
use crate::assist::test_home::{home_of, run, Home};
use serde_json::json;

/// A home with `projects/` (a.txt holding "hello", b.log empty) and `notes/`.
fn home() -> Home {
    home_of(
        &[("projects/a.txt", "hello\n"), ("projects/b.log", "")],
        &["notes"],
    )
}

/// Homes a model writes for the person's.
const PLACEHOLDERS: [&str; 5] = [
    "/home/user",
    "/home/username",
    "/home/your_username",
    "/Users/john",
    "/home/me",
];

/// Lines that name the person's files in a home written as `{H}`, and whether they only
/// read (run and compared).
const LINES: [(&str, bool); 18] = [
    ("ls {H}/projects", true),
    ("ls {H}/projects/", true),
    ("ls -la {H}/projects/* | wc -l", true),
    ("ls \"{H}/projects\"", true),
    ("cat '{H}/projects/a.txt'", true),
    ("find {H}/projects -type f -empty", true),
    ("cd {H}/projects && ls", true),
    ("wc -l < {H}/projects/a.txt", true),
    ("echo $(ls {H}/projects)", true),
    ("grep -l hello {H}/projects/*", true),
    ("ls {H}/proj*", true),
    ("X={H}/projects; ls $X", true),
    ("ls {H}/projects/{a,b}.*", true),
    ("for f in {H}/projects/*.txt; do wc -c < $f; done", true),
    ("ls {H}", false),
    ("cp {H}/projects/a.txt {H}/projects/c.txt", false),
    ("echo hi > {H}/notes/new.txt", false),
    (
        "mkdir -p {H}/notes/old && mv {H}/projects/b.log {H}/notes/old/",
        false,
    ),
];

#[test]
fn paths_in_a_home_that_is_not_the_persons_are_read_in_theirs() {
    let home = home();
    let mine = home.env.home.display().to_string();
    let nowhere = tempfile::tempdir().expect("root");
    let (mut cases, mut misses, mut wrong) = (0usize, Vec::new(), Vec::new());
    for placeholder in PLACEHOLDERS {
        for (line, reads) in LINES {
            cases += 1;
            let written = line.replace("{H}", placeholder);
            let expected = line.replace("{H}", &mine);
            match read(&written, &mine, nowhere.path()) {
                None => misses.push(written),
                Some((text, homes)) => {
                    if text != expected || homes != [placeholder] {
                        wrong.push(format!("{written} → {text} ({homes:?})"));
                    } else if reads {
                        // It runs, on the person's files: each of these prints something.
                        let (ok, out) = run(&text, &home.env.home);
                        if !ok || out.is_empty() {
                            wrong.push(format!("{written} → {text} → {out}"));
                        }
                    }
                }
            }
        }
        // A program's code, and a file tool's path.
        for code in [
            "import os\nprint(os.listdir('{H}/projects'))",
            "print(open(\"{H}/projects/a.txt\").read())",
            "from pathlib import Path\nprint(Path('{H}/projects').exists())",
        ] {
            cases += 1;
            let written = code.replace("{H}", placeholder);
            match read(&written, &mine, nowhere.path()) {
                Some((text, _)) if text == code.replace("{H}", &mine) => {}
                other => wrong.push(format!("{written} → {other:?}")),
            }
        }
    }
    // Another person's `/home/user` is here, without the person's folders: a path the
    // person's home holds is still read in it (a home written alone is theirs).
    let theirs = tempfile::tempdir().expect("root");
    std::fs::create_dir_all(theirs.path().join("home/user/other")).expect("theirs");
    for (line, _) in LINES.iter().filter(|(l, _)| *l != "ls {H}") {
        cases += 1;
        let written = line.replace("{H}", "/home/user");
        match read(&written, &mine, theirs.path()) {
            Some((text, _)) if text == line.replace("{H}", &mine) => {}
            None => misses.push(format!("{written} (another /home/user here)")),
            other => wrong.push(format!("{written} → {other:?}")),
        }
    }
    println!(
        "other homes: {cases} lines, {} missed, {} read wrongly",
        misses.len(),
        wrong.len()
    );
    assert!(misses.is_empty(), "missed: {misses:#?}");
    assert!(wrong.is_empty(), "read wrongly: {wrong:#?}");
}

#[test]
fn paths_that_are_there_or_not_the_persons_or_no_paths_are_left_alone() {
    let home = home();
    let mine = home.env.home.display().to_string();
    // Another person's home that is there, with their own projects.
    let root = tempfile::tempdir().expect("root");
    std::fs::create_dir_all(root.path().join("home/user/projects")).expect("theirs");
    std::fs::create_dir_all(root.path().join("home/user/notes")).expect("theirs");
    let lines = [
        "ls /home/user/projects",
        "ls /home/user",
        "echo hi > /home/user/notes/x.txt",
        // In another person's home that is there, and the person's does not hold it.
        "ls /home/user/nowhere",
        "cat /home/user/nowhere/a.txt",
        "echo hi > /home/user/nowhere/x.txt",
        // No home: another word, a relative path, a web address, the folder of homes.
        "ls /homework/projects",
        "ls x/home/alice/projects",
        "curl https://example.com/home/alice/projects",
        "ls /home/",
        "ls /home",
        "ls /home/../etc",
        "ls /home/./projects",
        "ls /home//alice/projects",
        "grep alice/home/alice/projects f",
    ];
    let mut alarms: Vec<String> = lines
        .iter()
        .filter_map(|l| read(l, &mine, root.path()).map(|r| format!("{l}: {r:?}")))
        .collect();
    // The person's own home, as written.
    let own = format!("ls {mine}/projects; ls {mine}/nowhere");
    if let Some(r) = read(&own, &mine, root.path()) {
        alarms.push(format!("{own}: {r:?}"));
    }
    // Text to type or send is not a place.
    for arguments in [
        json!({"text": "/home/nobody-zeta/projects"}),
        json!({"url": "file:///home/nobody-zeta/projects"}),
        json!({"content": "see /home/nobody-zeta/projects"}),
    ] {
        if let Some(r) = find(&arguments, &home.env) {
            alarms.push(format!("{arguments}: {r:?}"));
        }
    }
    println!(
        "other homes left alone: {} lines, {} false alarms",
        lines.len() + 4,
        alarms.len()
    );
    assert!(alarms.is_empty(), "false alarms: {alarms:#?}");
}

/// A call's arguments: the places read, everything else kept; the note names the homes.
#[test]
fn a_calls_places_are_read_and_the_rest_kept() {
    let home = home();
    let mine = home.env.home.display().to_string();
    // A home no computer here has.
    let ghost = "/home/nobody-zeta-9f3";
    let arguments = json!({"path": format!("{ghost}/projects/a.txt"), "max_lines": 5});
    let read = find(&arguments, &home.env).expect("read");
    assert_eq!(read.arguments["path"], format!("{mine}/projects/a.txt"));
    assert_eq!(read.arguments["max_lines"], 5);
    assert_eq!(read.written, [ghost]);
    let note = read.note(&home.env);
    assert!(note.contains(ghost) && note.contains(&mine), "{note}");
}

/// Text cut at every place and joined at random: reading it never panics, and whatever
/// is read still holds the rest of the text.
#[test]
fn cut_and_joined_texts_never_panic() {
    let home = home();
    let mine = home.env.home.display().to_string();
    let nowhere = tempfile::tempdir().expect("root");
    let whole = "cd /home/user/projects && cat '/Users/é/a.txt' \"/home/user\" > /home/x/";
    for end in (0..=whole.len()).filter(|e| whole.is_char_boundary(*e)) {
        let _ = read(&whole[..end], &mine, nowhere.path());
    }
    let pieces = [
        "/home/", "/Users/", "user", "/", "projects", " ", "'", "\"", "*", "é", "..", "$", "{",
        "}", "=", ";", "\n", "a.txt", "~",
    ];
    for text in crate::text::random_joins(&pieces, 3000, 8, 3) {
        if let Some((read, _)) = read(&text, &mine, nowhere.path()) {
            assert!(read.contains(&mine), "{text} → {read}");
        }
    }
}

//! The note against families of commands built to break it: every way of naming a file
//! to `ls` and every reader of the pipe, where it must be said; folders, flags that print
//! more than names, names that are not there, globs, programs that take names, and the
//! file read rightly, where it must not. Misses and false alarms are counted and must be
//! none.

use super::*;
use crate::assist::test_home::{home_of, Home};

/// A home with `invoice.txt`, `q3.csv`, `my notes.txt`, `docs/` (holding `a.txt`) and
/// `projects/`.
fn home() -> Home {
    home_of(
        &[
            ("invoice.txt", "one\ntwo\nthree\n"),
            ("q3.csv", "id,city\n1,Oslo\n2,Lima\n"),
            ("my notes.txt", "milk\n"),
            ("docs/a.txt", "x\n"),
        ],
        &["projects"],
    )
}

/// The ways a command names one file of the home to `ls`.
fn file_forms(home: &Path) -> Vec<String> {
    let abs = home.join("invoice.txt").display().to_string();
    vec![
        "invoice.txt".into(),
        "./invoice.txt".into(),
        "~/invoice.txt".into(),
        "$HOME/invoice.txt".into(),
        "\"$HOME/invoice.txt\"".into(),
        "'invoice.txt'".into(),
        abs.clone(),
        format!("\"{abs}\""),
        "~/q3.csv".into(),
        "\"my notes.txt\"".into(),
        "docs/a.txt".into(),
        "~/docs/a.txt".into(),
        "invoice.txt q3.csv".into(),
    ]
}

/// The programs a pipe of names may go into, as a model writes them.
const READERS: &[&str] = &[
    "wc -l",
    "wc -w",
    "wc -c",
    "wc",
    "grep -c WARN",
    "grep -i tasmania",
    "cut -d, -f2 | sort | uniq | wc -l",
    "awk -F, '{sum += $2} END {print sum}'",
    "sort | uniq -c",
    "head -n 5",
    "tail -n 20",
    "sed -n '2p'",
    "tr ',' '\\n' | wc -l",
    "python3 -c 'import sys; print(len(sys.stdin.read().split()))'",
];

/// The ways the pipe sits in a line.
fn placings(ls: &str, reader: &str) -> Vec<String> {
    vec![
        format!("{ls} | {reader}"),
        format!("{ls} | {reader} > ~/count.txt"),
        format!("echo \"$({ls} | {reader})\""),
        format!("n=$({ls} | {reader}); echo $n"),
        format!("cd ~ && {ls} | {reader}"),
        format!("{ls} 2>/dev/null | {reader}"),
    ]
}

#[test]
fn names_piped_where_contents_were_meant_are_said() {
    let home = home();
    let mut cases = 0;
    let mut misses = Vec::new();
    for file in file_forms(&home.env.home) {
        for ls in [
            format!("ls {file}"),
            format!("ls -1 {file}"),
            format!("ls -d {file}"),
        ] {
            for reader in READERS {
                for line in placings(&ls, reader) {
                    cases += 1;
                    if note(&line, &home.env).is_none() {
                        misses.push(line);
                    }
                }
            }
        }
    }
    println!("names piped: {cases} lines, {} missed", misses.len());
    assert!(
        misses.is_empty(),
        "{} of {cases} missed: {misses:#?}",
        misses.len()
    );
}

#[test]
fn names_listed_rightly_and_files_read_rightly_are_not() {
    let home = home();
    let abs = home.env.home.join("invoice.txt").display().to_string();
    let lines = [
        // A folder's names: what may be asked.
        "ls | wc -l".to_string(),
        "ls ~/docs | wc -l".into(),
        "ls docs | grep txt".into(),
        "ls ~/projects | wc -l".into(),
        "ls -A ~/docs | wc -l".into(),
        "ls ~/docs/ | sort".into(),
        // Flags that print more than names: the line holds sizes and dates.
        "ls -l invoice.txt | awk '{print $5}'".into(),
        format!("ls -la {abs} | cut -d' ' -f5"),
        "ls -s invoice.txt | cut -d' ' -f1".into(),
        "ls -i invoice.txt | awk '{print $1}'".into(),
        "ls --full-time invoice.txt | awk '{print $6}'".into(),
        "ls -lh ~/invoice.txt | awk '{print $5}'".into(),
        // Globs and names made when the line runs.
        "ls ~/docs/*.txt | wc -l".into(),
        "ls *.csv | head -1".into(),
        "ls $(find . -name invoice.txt) | wc -l".into(),
        "f=invoice.txt; ls \"$UNSET_DIR/$f\" | wc -l".into(),
        // Names that are not there.
        "ls missing.txt | wc -l".into(),
        "ls ~/nowhere/invoice.txt | wc -l".into(),
        // Programs that take names as arguments.
        "ls invoice.txt | xargs wc -l".into(),
        "ls invoice.txt q3.csv | xargs -I{} wc -l {}".into(),
        "ls invoice.txt | parallel wc -l".into(),
        // The file read rightly.
        "cat invoice.txt | wc -l".into(),
        "wc -l < invoice.txt".into(),
        "wc -l invoice.txt".into(),
        "ls invoice.txt && wc -l invoice.txt".into(),
        "ls invoice.txt; cat invoice.txt | wc -l".into(),
        "ls invoice.txt".into(),
        "test -f invoice.txt && cut -d, -f2 q3.csv | sort -u | wc -l".into(),
        "ls invoice.txt | while read f; do wc -l \"$f\"; done".into(),
        "find . -name invoice.txt | wc -l".into(),
        "echo invoice.txt | wc -c".into(),
        "grep -c one invoice.txt".into(),
        "python3 -c 'print(1)' | wc -l".into(),
        "ls invoice.txt | ls".into(),
    ];
    let alarms: Vec<&String> = lines
        .iter()
        .filter(|l| note(l, &home.env).is_some())
        .collect();
    println!(
        "names listed or files read rightly: {} lines, {} false alarms",
        lines.len(),
        alarms.len()
    );
    assert!(alarms.is_empty(), "false alarms: {alarms:#?}");
}

#[test]
fn the_note_names_what_the_command_wrote_and_the_program_that_read_it() {
    let home = home();
    let said = note("ls ~/q3.csv | cut -d, -f2 | sort | uniq | wc -l", &home.env).expect("noted");
    assert!(said.contains("`ls ~/q3.csv`"), "{said}");
    assert!(said.contains("(~/q3.csv)"), "{said}");
    assert!(said.contains("so `cut` worked on those names"), "{said}");
    assert!(said.contains("`cat ~/q3.csv`"), "{said}");
    // Nothing of the home's own path where the command wrote `~`.
    assert!(
        !said.contains(&home.env.home.display().to_string()),
        "{said}"
    );
    // Removed after the line ran: not there, not said.
    std::fs::remove_file(home.env.home.join("q3.csv")).expect("remove");
    assert!(note("ls ~/q3.csv | wc -l", &home.env).is_none());
}

/// Lines cut at every place, and random joins of their pieces: no panic, and a note only
/// where a pipe from `ls` of a file that is there stays whole.
#[test]
fn cut_and_joined_lines_never_panic() {
    let home = home();
    let pieces = [
        "ls ",
        "invoice.txt",
        " | ",
        "wc -l",
        "$(",
        ")",
        "\"",
        "'",
        "~/",
        "docs",
        "; ",
        "&&",
        " -l ",
        "cut -d, -f2",
        "<<EOF\n",
        "\nEOF",
        "`",
        "\\",
        "|",
        "{a,b}",
        "*",
        "\n",
        "sort -rh",
        "grep -l x",
        " -e ",
        "--",
    ];
    let whole = "ls ~/invoice.txt | cut -d, -f2 | sort | uniq | wc -l";
    for end in 0..=whole.len() {
        if whole.is_char_boundary(end) {
            let _ = note(&whole[..end], &home.env);
        }
    }
    for line in crate::text::random_joins(&pieces, 3000, 6, 7) {
        if let Some(piped) = find(&line, &home.env) {
            assert!(line.contains("ls"), "{line}: {piped:?}");
            assert!(line.contains('|'), "{line}: {piped:?}");
            let _ = piped.read_as();
        }
    }
}

/// Where the listing is in the line itself, the command is written again with `cat` of
/// the same files in its place, which runs (bash, in the home) and prints what the files
/// hold; in a nested shell's text it is only said.
#[test]
fn the_listing_in_the_line_is_run_with_the_files_contents() {
    let home = home();
    let cases = [
        ("ls ~/invoice.txt | wc -l", "cat ~/invoice.txt | wc -l", "3"),
        (
            "ls -1 invoice.txt 2>/dev/null | wc -l",
            "cat invoice.txt 2>/dev/null | wc -l",
            "3",
        ),
        (
            "ls ~/q3.csv | cut -d, -f2 | tail -n +2 | sort | uniq | wc -l",
            "cat ~/q3.csv | cut -d, -f2 | tail -n +2 | sort | uniq | wc -l",
            "2",
        ),
        (
            "echo \"$(ls \"my notes.txt\" | wc -c)\"",
            "echo \"$(cat \"my notes.txt\" | wc -c)\"",
            "5",
        ),
        (
            "cd docs && ls a.txt | grep -c x",
            "cd docs && cat a.txt | grep -c x",
            "1",
        ),
        (
            "ls invoice.txt q3.csv | wc -l",
            "cat invoice.txt q3.csv | wc -l",
            "6",
        ),
    ];
    for (line, expected, prints) in cases {
        let piped = find(line, &home.env).expect(line);
        let (command, said) = piped.read_as().expect(line);
        assert_eq!(command, expected);
        assert!(said.starts_with(&format!("Run as `{expected}`")), "{said}");
        assert!(find(&command, &home.env).is_none(), "{command}");
        let out = std::process::Command::new("bash")
            .args(["-c", &command])
            .current_dir(&home.env.home)
            .env("HOME", &home.env.home)
            .output()
            .expect("bash");
        assert_eq!(
            String::from_utf8_lossy(&out.stdout).trim(),
            prints,
            "{command}"
        );
    }
    let nested = find("bash -c 'ls invoice.txt | wc -l'", &home.env).expect("nested");
    assert!(nested.read_as().is_none());
    assert!(nested.note().expect("said").contains("`ls invoice.txt`"));
    // Every line of the corpus that is noted is written again, none with a listing left.
    let mut written = 0;
    for file in file_forms(&home.env.home) {
        for reader in READERS {
            for line in placings(&format!("ls {file}"), reader) {
                let (command, _) = find(&line, &home.env)
                    .and_then(|p| p.read_as())
                    .expect(&line);
                assert!(find(&command, &home.env).is_none(), "{line} → {command}");
                written += 1;
            }
        }
    }
    println!("written again with the contents: {written} lines");
}

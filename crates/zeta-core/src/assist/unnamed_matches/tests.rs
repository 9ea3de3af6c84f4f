//! The reading against the ways a model writes find's `-exec grep`, each run again and
//! held against the folder (the file that holds the word named on its line), and the
//! commands whose grep already names files, prints none, or gets several files at once,
//! where nothing may be read. Misses and false alarms are counted and must be none.

use super::*;
use crate::assist::test_home::{home_of, run};

#[test]
fn grep_of_one_file_at_a_time_names_the_file() {
    let home = home_of(
        &[
            ("reports/alpha.txt", "we met in Kilimanjaro last year\n"),
            ("reports/beta.txt", "nothing here\n"),
            ("reports/old/gamma.txt", "a note\n"),
        ],
        &[],
    );
    let lines = [
        "find ~/reports -type f -exec grep -i Kilimanjaro {} \\;",
        "find ~/reports -type f -exec grep Kilimanjaro {} \\;",
        "find ~/reports -name '*.txt' -exec grep -i 'kilimanjaro' {} ';'",
        "find reports -type f -execdir grep -n Kilimanjaro {} \\;",
        "cd ~ && find . -type f -exec grep -w Kilimanjaro {} \\;",
        "find ~/reports -type f -exec grep -i Kilimanjaro {} \\; 2>/dev/null",
        "find $HOME/reports -exec grep -s Kilimanjaro {} \\;",
        "find ~/reports -type f -exec  grep  -i Kilimanjaro {} \\; | head -n 5",
        "echo \"$(find ~/reports -type f -exec grep -i Kilimanjaro {} \\;)\"",
    ];
    let (mut misses, mut wrong) = (Vec::new(), Vec::new());
    for line in lines {
        let Some(found) = find(line, &home.env) else {
            misses.push(line);
            continue;
        };
        let (command, said) = found.read_as();
        assert!(said.starts_with(&format!("Run as `{command}`")), "{said}");
        assert!(find(&command, &home.env).is_none(), "{line} → {command}");
        let (_, out) = run(&command, &home.env.home);
        if !out.contains("alpha.txt:") {
            wrong.push(format!("{line} → {command} → {out}"));
        }
    }
    println!(
        "grep one file at a time: {} lines, {} missed, {} run wrongly",
        lines.len(),
        misses.len(),
        wrong.len()
    );
    assert!(misses.is_empty(), "missed: {misses:#?}");
    assert!(wrong.is_empty(), "run wrongly: {wrong:#?}");
    let alarms: Vec<&str> = [
        "find ~/reports -type f -exec grep -l Kilimanjaro {} \\;",
        "find ~/reports -type f -exec grep -il Kilimanjaro {} \\;",
        "find ~/reports -type f -exec grep -H Kilimanjaro {} \\;",
        "find ~/reports -type f -exec grep -c Kilimanjaro {} \\;",
        "find ~/reports -type f -exec grep -q Kilimanjaro {} \\; -print",
        "find ~/reports -type f -exec grep --files-with-matches Kilimanjaro {} \\;",
        "find ~/reports -type f -exec grep -i Kilimanjaro {} +",
        "find ~/reports -type f -exec cat {} \\;",
        "find ~/reports -type f",
        "grep -ri Kilimanjaro ~/reports",
        "grep -i Kilimanjaro ~/reports/alpha.txt",
        "bash -c 'find ~/reports -type f -exec grep -i Kilimanjaro {} \\;'",
        "find ~/reports -type f -exec grep -i Kilimanjaro {} {} \\;",
    ]
    .into_iter()
    .filter(|l| find(l, &home.env).is_some())
    .collect();
    println!(
        "grep that names files or gets several: 13 lines, {} false alarms",
        alarms.len()
    );
    assert!(alarms.is_empty(), "false alarms: {alarms:#?}");
}

/// Lines cut at every place: no panic.
#[test]
fn cut_lines_never_panic() {
    let home = home_of(&[("reports/a.txt", "x\n")], &[]);
    let whole = "find ~/reports -type f -execdir grep -i 'Kilimanjaro' {} \\; | head -n 5";
    for end in 0..=whole.len() {
        if whole.is_char_boundary(end) {
            if let Some(found) = find(&whole[..end], &home.env) {
                let _ = found.read_as();
            }
        }
    }
}

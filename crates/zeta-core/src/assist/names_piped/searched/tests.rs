//! find searching names for a word no name holds, against families built to break the
//! reading: every way of naming the folder, of writing the pattern, and of adding the
//! tests find may have besides, each line run by bash in the home to see that it prints
//! nothing indeed; and the lines where a name holds the word, the pattern is more than a
//! word, find does more than search, or the folder is not there, where nothing may be
//! said. Misses and false alarms are counted and must be none.

use super::*;
use crate::assist::test_home::{home_of, run};

/// `reports/` (alpha.txt mentions Kilimanjaro in its text, beta.md does not; a folder
/// `old/` with gamma.txt) and `inbox/` (kilimanjaro-trip.txt by name).
fn home() -> crate::assist::test_home::Home {
    home_of(
        &[
            ("reports/alpha.txt", "we climbed Kilimanjaro\n"),
            ("reports/beta.md", "nothing here\n"),
            ("reports/old/gamma.txt", "old notes\n"),
            ("inbox/kilimanjaro-trip.txt", "plans\n"),
        ],
        &[],
    )
}

#[test]
fn names_searched_in_vain_by_find_are_said_with_how_to_search_the_files() {
    let home = home();
    let env = &home.env;
    let folders = [
        "~/reports",
        "reports",
        "\"$HOME/reports\"",
        "./reports",
        "~/reports/",
    ];
    let patterns = [
        ("-name", "'*Kilimanjaro*'"),
        ("-name", "\"*Kilimanjaro*\""),
        ("-name", "Kilimanjaro"),
        ("-name", "'*Kilimanjaro'"),
        ("-iname", "'*kilimanjaro*'"),
        ("-name", "'*climbed Kilimanjaro*'"),
        ("-name", "'* Kilimanjaro*'"),
    ];
    let besides = [
        "",
        "-type f",
        "-maxdepth 1",
        "-type f -print",
        "-mindepth 1 -type f",
    ];
    let (mut misses, mut total) = (Vec::new(), 0);
    for folder in folders {
        for (test, pattern) in patterns {
            for more in besides {
                // `-print` before the test prints every name (a line that must not be
                // read, below): only placed after it.
                let before = (!more.contains("-print"))
                    .then(|| format!("find {folder} {more} {test} {pattern}"));
                for line in before.into_iter().chain([
                    format!("find {folder} {test} {pattern} {more}"),
                    format!("find {folder} {test} {pattern} | head -5"),
                ]) {
                    total += 1;
                    let (ok, printed) = run(&line, &env.home);
                    let note = found_none(&line, env).and_then(|p| p.note());
                    match note {
                        Some(n)
                            if ok
                                && printed.is_empty()
                                && n.contains("find searched the files' names")
                                && n.contains("grep -r") =>
                        {
                            // The search it offers finds the file.
                            let search = n.split('`').nth(1).unwrap_or_default();
                            let (_, found) = run(search, &env.home);
                            if !found.contains("alpha.txt") {
                                misses.push(format!("{line}: {search} -> {found}"));
                            }
                        }
                        other => misses.push(format!("{line} ({ok}, {printed:?}) -> {other:?}")),
                    }
                }
            }
        }
    }
    assert_eq!(total, 490);
    assert!(
        misses.is_empty(),
        "{} of {total} missed:\n{}",
        misses.len(),
        misses.join("\n")
    );
}

#[test]
fn find_that_found_names_or_did_more_is_left_alone() {
    let home = home();
    let env = &home.env;
    let nothing = [
        // A name holds the word.
        "find ~/inbox -iname '*kilimanjaro*'",
        "find ~ -iname '*kilimanjaro*'",
        "find ~/reports -name '*alpha*'",
        "find ~/reports -name '*old*'",
        // More than a word, or no pattern.
        "find ~/reports -name '*.txt'",
        "find ~/reports -name 'Kili*jaro'",
        "find ~/reports -name '[K]ilimanjaro'",
        "find ~/reports -type f",
        // find doing more than searching names.
        "find ~/reports -name '*Kilimanjaro*' -delete",
        "find ~/reports -name '*Kilimanjaro*' -exec grep -l x {} +",
        "find ~/reports -name '*Kilimanjaro*' -o -name '*Everest*'",
        "find ~/reports ! -name '*Kilimanjaro*'",
        "find ~/reports -newer x -name '*Kilimanjaro*'",
        "find ~/reports -name '*Kilimanjaro*' -name '*x*'",
        "find ~/reports -print -name '*Kilimanjaro*'",
        // A folder not there, other programs, a line in a nested shell's text.
        "find ~/nowhere -name '*Kilimanjaro*'",
        "ls ~/reports",
        "grep -rl Kilimanjaro ~/reports",
        "sh -c \"find ~/reports -name '*Kilimanjaro*'\"",
        "",
    ];
    let alarms: Vec<String> = nothing
        .iter()
        .filter_map(|line| found_none(line, env).map(|p| format!("{line} -> {:?}", p.note())))
        .collect();
    assert!(
        alarms.is_empty(),
        "{} false alarms:\n{}",
        alarms.len(),
        alarms.join("\n")
    );
}

/// Random lines never panic.
#[test]
fn random_find_lines_never_panic() {
    let home = home();
    for line in crate::text::random_joins(
        &[
            "find",
            "~/reports",
            "-name",
            "-iname",
            "'*K*'",
            "-type",
            "f",
            "-maxdepth",
            "|",
            "'",
            "*",
            "(",
        ],
        2000,
        7,
        5,
    ) {
        let _ = found_none(&line, &home.env);
    }
}

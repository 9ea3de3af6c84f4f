//! Names `find` printed, sorted as numbers, against families of commands: every way of
//! naming the folder, `find`'s tests that keep to files, its ways of printing a name,
//! `sort`'s ways of ordering by number, and the places the pipe sits in a line; each
//! line read again is run, and its first line held against the folder's truth. Lines
//! where something else was printed or sorted must be left alone. Misses, lines run
//! wrongly and false alarms are counted and must be none.

use super::super::{find, Meant};
use crate::assist::test_home::{home_of, run, Home};

/// A home with `inbox/` (invoice.log the largest file, smaller than a folder's 4096
/// bytes; alpha.json the smallest; a folder `archive/` inside), and `numbered/` (names
/// that begin with digits).
fn home() -> Home {
    let (large, middle, nested, small) = (
        "x".repeat(3_000),
        "y".repeat(500),
        "z".repeat(900),
        "a".repeat(30),
    );
    home_of(
        &[
            ("inbox/invoice.log", large.as_str()),
            ("inbox/memo.txt", middle.as_str()),
            ("inbox/archive/old.csv", nested.as_str()),
            ("inbox/alpha.json", small.as_str()),
            ("numbered/1-small.txt", "s"),
            ("numbered/10-big.txt", middle.as_str()),
        ],
        &[],
    )
}

#[test]
fn names_found_and_sorted_as_numbers_are_run_with_their_sizes() {
    let home = home();
    let abs = home.env.home.join("inbox").display().to_string();
    let folders = [
        "~/inbox".to_string(),
        "~/inbox/".into(),
        "inbox".into(),
        "./inbox".into(),
        "$HOME/inbox".into(),
        "\"$HOME/inbox\"".into(),
        abs.clone(),
        format!("'{abs}'"),
    ];
    let tests = [
        "",
        "-type f",
        "-maxdepth 1 -type f",
        "-type f -name '*'",
        "-mindepth 1",
        "-iname '*.*'",
    ];
    let prints = [
        "",
        "-print",
        "-printf '%f\\n'",
        "-printf \"%f\\n\"",
        "-printf '%p\\n'",
        "-printf '%P\\n'",
    ];
    let largest = [
        "-rn",
        "-nr",
        "-rh",
        "-k1,1nr",
        "-k1nr",
        "-rg",
        "-n -r",
        "--numeric-sort --reverse",
    ];
    let smallest = ["-n", "-h", "-k1,1n", "-g"];
    let orders = largest
        .iter()
        .map(|s| (*s, "invoice.log"))
        .chain(smallest.iter().map(|s| (*s, "alpha.json")));
    let (mut cases, mut runs) = (0usize, 0usize);
    let (mut misses, mut wrong) = (Vec::new(), Vec::new());
    for (order, first) in orders {
        for folder in &folders {
            for test in tests {
                for print in prints {
                    let pipe = format!("find {folder} {test} {print} | sort {order}");
                    for line in [
                        format!("{pipe} | head -n 1"),
                        format!("{pipe} | head -1"),
                        format!("echo \"$({pipe} | head -n 1)\""),
                        format!("{pipe} 2>/dev/null | head -n 1"),
                    ] {
                        cases += 1;
                        let Some(piped) = find(&line, &home.env) else {
                            misses.push(line);
                            continue;
                        };
                        assert_eq!(piped.meant(), Meant::FoundSizes, "{line}");
                        let (command, said) = piped.read_as().expect(&line);
                        assert!(said.starts_with(&format!("Run as `{command}`")), "{said}");
                        assert!(find(&command, &home.env).is_none(), "{line} → {command}");
                        // Every eighth line is run (all of them take a minute on two cores).
                        if cases % 8 == 0 {
                            runs += 1;
                            let (ok, out) = run(&command, &home.env.home);
                            let top = out.lines().next().unwrap_or_default();
                            if !ok || !top.ends_with(first) {
                                wrong.push(format!("{line} → {command} → {out}"));
                            }
                        }
                    }
                }
            }
        }
    }
    // In the folder itself, and where no folder is given.
    for (line, first) in [
        (
            "cd ~/inbox && find . -type f | sort -rn | head -n 1",
            "invoice.log",
        ),
        (
            "cd inbox; find -printf '%f\\n' | sort -n | head -1",
            "alpha.json",
        ),
    ] {
        cases += 1;
        runs += 1;
        match find(line, &home.env).and_then(|p| p.read_as()) {
            Some((command, _)) => {
                let (ok, out) = run(&command, &home.env.home);
                if !ok || !out.lines().next().unwrap_or_default().ends_with(first) {
                    wrong.push(format!("{line} → {command} → {out}"));
                }
            }
            None => misses.push(line.to_string()),
        }
    }
    println!(
        "names found, sorted as sizes: {cases} lines ({runs} run), {} missed, {} run wrongly",
        misses.len(),
        wrong.len()
    );
    assert!(misses.is_empty(), "missed: {misses:#?}");
    assert!(wrong.is_empty(), "run wrongly: {wrong:#?}");
}

#[test]
fn names_found_are_left_alone_where_something_else_was_sorted() {
    let home = home();
    let left = [
        // Names that begin with digits: sorting them as numbers may be meant.
        "find ~/numbered -type f -printf '%f\\n' | sort -n | head -1",
        "cd ~ && find numbered -printf '%P\\n' | sort -rn",
        // Sizes or times already printed.
        "find ~/inbox -type f -printf '%s %f\\n' | sort -rn | head -1",
        "find ~/inbox -type f -printf '%T@ %p\\n' | sort -n | tail -1",
        "find ~/inbox -ls | sort -k7 -rn",
        // Not sorted by number, or by another field.
        "find ~/inbox -type f | sort | head -1",
        "find ~/inbox -type f | sort -r",
        "find ~/inbox -type f | sort -k2n",
        "find ~/inbox -type f | sort -t/ -k3n",
        // Folders asked for, other actions, an "or", a negation.
        "find ~/inbox -type d | sort -n",
        "find ~/inbox -type f -exec ls -s {} \\; | sort -n",
        "find ~/inbox -name '*.log' -o -name '*.txt' | sort -rn",
        "find ~/inbox ! -name '*.log' | sort -rn",
        "find ~/inbox -type f -delete | sort -n",
        "find ~/inbox -print0 | sort -zn",
        // A folder that is not there, a variable the line does not know.
        "find ~/nowhere -type f | sort -rn | head -1",
        "find $DIR -type f | sort -rn | head -1",
        // Not into sort.
        "find ~/inbox -type f | wc -l",
        "find ~/inbox -type f | xargs ls -S | head -1",
        "find ~/inbox -type f | head -1 | sort -n",
    ];
    let alarms: Vec<String> = left
        .iter()
        .filter_map(|line| {
            find(line, &home.env)
                .filter(|p| p.meant() == Meant::FoundSizes)
                .map(|p| format!("{line}: {p:?}"))
        })
        .collect();
    println!(
        "names found, left alone: {} lines, {} false alarms",
        left.len(),
        alarms.len()
    );
    assert!(alarms.is_empty(), "{alarms:#?}");
}

/// Lines cut at every place, and random joins of find's words: no panic, and no
/// reading of a line that has no `find` piped into `sort`.
#[test]
fn cut_and_joined_find_lines_never_panic() {
    let home = home();
    let whole =
        "cd ~ && find ~/inbox -maxdepth 1 -type f -printf '%f\\n' | sort -k1,1nr | head -n 1";
    for end in (0..=whole.len()).filter(|e| whole.is_char_boundary(*e)) {
        let _ = find(&whole[..end], &home.env).and_then(|p| p.read_as());
    }
    let pieces = [
        "find ",
        "~/inbox",
        " -type",
        " f",
        " d",
        " -printf",
        " '%f\\n'",
        " -name",
        " '*'",
        " | ",
        "sort",
        " -rn",
        " -k1",
        " -maxdepth",
        " 1",
        "$(",
        ")",
        "\"",
        "'",
        ";",
        " -o",
        " -exec",
        " {}",
        " \\;",
        "\n",
        " -print",
    ];
    for line in crate::text::random_joins(&pieces, 3000, 8, 5) {
        if let Some(piped) = find(&line, &home.env) {
            if piped.meant() == Meant::FoundSizes {
                assert!(line.contains("find") && line.contains("sort"), "{line}");
            }
            let _ = piped.read_as();
        }
    }
}

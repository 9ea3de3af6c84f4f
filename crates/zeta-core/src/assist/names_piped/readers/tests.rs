//! The readers whose flags say the files were meant, against families of commands: every
//! way of naming a folder, `ls`'s flags that keep names first, `sort`'s and grep's ways
//! of writing the flags, and the places a pipe sits in a line, each run again and its
//! output held against the folder's truth; and the lines where names are what was
//! sorted or searched, or the reader does not read the listing, where nothing may be
//! said. Misses and false alarms are counted and must be none.

use super::super::{find, Meant};
use crate::assist::test_home::{home_of, run, Home};
use std::path::Path;

/// A home with `notes/` (alpha.log the largest, report.pdf the smallest), `work/`
/// (draft.txt empty, trip.txt mentioning Zanzibar, todo.txt), `mixed/` (a file and a
/// folder) and `numbered/` (names that begin with digits).
fn home() -> Home {
    let (large, middle, small) = ("x".repeat(20_000), "y".repeat(500), "z".repeat(10));
    let numbered = "b".repeat(900);
    home_of(
        &[
            ("notes/alpha.log", large.as_str()),
            ("notes/photo.txt", middle.as_str()),
            ("notes/report.pdf", small.as_str()),
            ("work/draft.txt", ""),
            ("work/trip.txt", "Off to Zanzibar in May\n"),
            ("work/todo.txt", "milk\n"),
            ("mixed/a.txt", "Zanzibar\n"),
            ("numbered/1-small.txt", "s"),
            ("numbered/10-big.txt", numbered.as_str()),
        ],
        &["mixed/inner"],
    )
}

/// The ways a command names the folder `name` of the home.
fn folder_forms(home: &Path, name: &str) -> Vec<String> {
    let abs = home.join(name).display().to_string();
    vec![
        format!("~/{name}"),
        format!("~/{name}/"),
        name.to_string(),
        format!("./{name}"),
        format!("$HOME/{name}"),
        format!("\"$HOME/{name}\""),
        abs.clone(),
        format!("'{abs}'"),
    ]
}

/// The ways the pipe sits in a line.
fn placings(pipe: &str) -> Vec<String> {
    vec![
        pipe.to_string(),
        format!("{pipe} | head -n 1"),
        format!("{pipe} | head -1"),
        format!("echo \"$({pipe} | head -n 1)\""),
        format!("{pipe} 2>/dev/null | head -n 1"),
    ]
}

/// Lines tried, and those missed or run to the wrong output.
#[derive(Default)]
struct Tally {
    cases: usize,
    misses: Vec<String>,
    wrong: Vec<String>,
}

impl Tally {
    /// `line` read again and run: its output must end with `expected`.
    fn runs_to(&mut self, line: &str, home: &Home, expected: &str) {
        self.cases += 1;
        match find(line, &home.env).and_then(|p| p.read_as()) {
            Some((command, _)) => {
                let (ok, out) = run(&command, &home.env.home);
                if !ok || !out.ends_with(expected) {
                    self.wrong.push(format!("{line} → {command} → {out}"));
                }
            }
            None => self.misses.push(line.to_string()),
        }
    }

    /// Printed, and none missed or wrong.
    fn none_failed(self, what: &str) {
        println!(
            "{what}: {} lines, {} missed, {} run wrongly",
            self.cases,
            self.misses.len(),
            self.wrong.len()
        );
        assert!(self.misses.is_empty(), "missed: {:#?}", self.misses);
        assert!(self.wrong.is_empty(), "run wrongly: {:#?}", self.wrong);
    }
}

#[test]
fn names_sorted_as_sizes_are_run_by_size() {
    let home = home();
    let mut tally = Tally::default();
    let largest = [
        "-rh",
        "-hr",
        "-r -h",
        "-h -r",
        "--human-numeric-sort --reverse",
        "-rn",
        "-nr",
        "-rg",
        "-k1,1nr",
        "-k 1 -rn",
        "-rk1n",
        "--key=1,1hr",
    ];
    let smallest = ["-h", "-n", "--numeric-sort", "-h -u", "-k1n", "-k 1,1h"];
    for folder in folder_forms(&home.env.home, "notes") {
        for ls in ["ls", "ls -1", "ls -a", "ls -l", "ls -lh", "ls -la", "ls -A"] {
            let orders = largest
                .iter()
                .map(|f| (*f, "alpha.log"))
                .chain(smallest.iter().map(|f| (*f, "report.pdf")));
            // A key is a name's only field: with `-l` it is the mode, not sent here.
            for (flags, first) in orders.filter(|(f, _)| !(ls.contains("-l") && f.contains('k'))) {
                for line in placings(&format!("{ls} {folder} | sort {flags}")) {
                    tally.cases += 1;
                    let Some(piped) = find(&line, &home.env) else {
                        tally.misses.push(line);
                        continue;
                    };
                    assert_eq!(piped.meant(), Meant::Sizes, "{line}");
                    let (command, said) = piped.read_as().expect(&line);
                    assert!(said.starts_with(&format!("Run as `{command}`")), "{said}");
                    assert!(find(&command, &home.env).is_none(), "{line} → {command}");
                    // Names first: the largest (or smallest) file's name comes first.
                    if ls == "ls" || ls == "ls -1" {
                        let (ok, out) = run(&command, &home.env.home);
                        let top = out.lines().next().unwrap_or_default();
                        if !ok || !top.ends_with(first) {
                            tally.wrong.push(format!("{line} → {command} → {out}"));
                        }
                    }
                }
            }
        }
    }
    // In the folder itself, and a glob of its files.
    for (line, first) in [
        ("cd ~/notes && ls | sort -rh | head -n 1", "alpha.log"),
        ("cd notes; ls | sort -h | head -1", "report.pdf"),
        ("ls ~/notes/* | sort -rh | head -n 1", "alpha.log"),
        ("ls -1 $HOME/notes/* | sort -hr | head -n 1", "alpha.log"),
    ] {
        tally.runs_to(line, &home, first);
    }
    tally.none_failed("names sorted as sizes");
}

#[test]
fn grep_listing_files_of_names_is_given_the_files() {
    let home = home();
    let mut tally = Tally::default();
    let greps: [(&str, &[&str]); 8] = [
        ("grep -l ''", &["todo.txt", "trip.txt"]),
        ("grep -L ''", &["draft.txt"]),
        ("grep -il zanzibar", &["trip.txt"]),
        ("grep -l -i Zanzibar", &["trip.txt"]),
        ("grep --files-with-matches Zanzibar", &["trip.txt"]),
        ("grep -l -e Zanzibar", &["trip.txt"]),
        ("grep -li 'zanzibar'", &["trip.txt"]),
        ("egrep -l 'Zanz|Lima'", &["trip.txt"]),
    ];
    for folder in folder_forms(&home.env.home, "work") {
        for ls in ["ls", "ls -1"] {
            for (grep, expected) in greps {
                let line = format!("{ls} {folder} | {grep}");
                tally.cases += 1;
                let Some(piped) = find(&line, &home.env) else {
                    tally.misses.push(line);
                    continue;
                };
                assert_eq!(piped.meant(), Meant::Files, "{line}");
                let (command, _) = piped.read_as().expect(&line);
                assert!(find(&command, &home.env).is_none(), "{line} → {command}");
                let (ok, out) = run(&command, &home.env.home);
                let names: Vec<&str> = out.lines().filter_map(|l| l.rsplit('/').next()).collect();
                if !ok || names != expected {
                    tally.wrong.push(format!("{line} → {command} → {out}"));
                }
            }
        }
    }
    // In the folder, a glob, and a folder that holds a folder (skipped, not an error).
    for (line, expected) in [
        ("cd ~/work && ls | grep -l Zanzibar", "trip.txt"),
        ("ls ~/work/*.txt | grep -il zanzibar", "trip.txt"),
        ("ls ~/mixed | grep -l Zanzibar", "a.txt"),
        (
            "ls ~/work | grep -L '' > ~/empty.txt; cat ~/empty.txt",
            "draft.txt",
        ),
    ] {
        tally.runs_to(line, &home, expected);
    }
    tally.none_failed("grep listing files fed names");
}

#[test]
fn names_sorted_or_searched_as_names_are_not() {
    let home = home();
    let lines = [
        // Names sorted as names, or by a key, or names that hold numbers.
        "ls ~/notes | sort",
        "ls ~/notes | sort -r | head -n 1",
        "ls -l ~/notes | sort -k5 -rn | head -n 1",
        "ls -l ~/notes | sort -t' ' -k5 -n",
        "ls -l ~/notes | sort -k1,1nr",
        "ls ~/notes | sort -k2 -n",
        "ls ~/notes | sort -k1,1 -r",
        "ls /nowhere/* | sort -rh | head -n 1",
        "ls ~/nowhere/*.txt | sort -rh",
        "ls ~/numbered | sort -n",
        "ls ~/numbered | sort -rh | head -1",
        "ls -1 numbered/ | sort -V",
        // Listings that print sizes first, or sort their own way.
        "ls -s ~/notes | sort -rh",
        "ls -sh ~/notes | sort -h",
        "ls -S ~/notes | head -n 1",
        "du -sh ~/notes/* | sort -rh | head -n 1",
        "du -a ~/notes | sort -n",
        "find ~/notes -type f -printf '%s %p\\n' | sort -h",
        "ls ~/nowhere | sort -rh",
        "ls $(cat ~/where.txt) | sort -h",
        // grep of names: names searched or counted, or files of its own.
        "ls ~/work | grep txt",
        "ls ~/work | grep -c txt",
        "ls ~/work | grep -v draft",
        "ls ~/work | xargs grep -l Zanzibar",
        "ls ~/work | grep -rl Zanzibar",
        "ls ~/work | grep -l Zanzibar ~/work/trip.txt",
        "ls ~/work | grep -l -e Zanzibar ~/work/todo.txt",
        "ls -l ~/work | grep -l txt",
        "grep -l Zanzibar ~/work/*",
        "find ~/work -type f | grep -l x",
        "ls ~/nowhere | grep -l x",
    ];
    let alarms: Vec<&&str> = lines
        .iter()
        .filter(|l| find(l, &home.env).is_some())
        .collect();
    println!(
        "names sorted or searched as names: {} lines, {} false alarms",
        lines.len(),
        alarms.len()
    );
    assert!(alarms.is_empty(), "false alarms: {alarms:#?}");
}

#[test]
fn names_searched_in_vain_are_told_how_to_search_the_files() {
    let home = home();
    let mut tally = Tally::default();
    let lines = [
        ("ls ~/work | grep Zanzibar", "grep -l 'Zanzibar' ~/work/*"),
        (
            "ls ~/work | grep -i zanzibar",
            "grep -li 'zanzibar' ~/work/*",
        ),
        (
            "ls -1 work | grep -w Zanzibar",
            "grep -lw 'Zanzibar' work/*",
        ),
        (
            "ls $HOME/work/ | grep Zanzibar",
            "grep -l 'Zanzibar' $HOME/work/*",
        ),
        (
            "ls ~/work/*.txt | grep -i zanzibar",
            "grep -li -d skip 'zanzibar' ~/work/*.txt",
        ),
        (
            "ls ~/mixed | grep Zanzibar",
            "grep -l -d skip 'Zanzibar' ~/mixed/*",
        ),
    ];
    for (line, search) in lines {
        tally.cases += 1;
        let Some(piped) = find(line, &home.env) else {
            tally.misses.push(line.to_string());
            continue;
        };
        assert_eq!(piped.meant(), Meant::Searched, "{line}");
        assert!(piped.read_as().is_none(), "{line}: run as written");
        let said = piped.note().expect("said");
        assert!(said.contains(&format!("`{search}`")), "{line}: {said}");
        // The search it names runs, and finds the file that mentions the word.
        let (ok, out) = run(search, &home.env.home);
        if !ok || !out.ends_with("trip.txt") && !out.ends_with("a.txt") {
            tally.wrong.push(format!("{line} → {search} → {out}"));
        }
    }
    // After a `cd`, the folder it went to, for a command of its own.
    let said = find("cd ~/work && ls | grep Zanzibar", &home.env)
        .and_then(|p| p.note())
        .expect("said after a cd");
    let folder = home.env.home.join("work").display().to_string();
    let search = format!("grep -l 'Zanzibar' {}/*", zeta_judge::quote_path(&folder));
    assert!(said.contains(&format!("`{search}`")), "{said}");
    assert!(
        run(&search, &home.env.home).1.ends_with("trip.txt"),
        "{search}"
    );
    tally.none_failed("names searched in vain");
    let alarms: Vec<&str> = [
        "ls ~/work | grep trip",
        "ls ~/work | grep -i TRIP",
        "ls ~/work/*.txt | grep work",
        "ls ~/work | grep 'Zan.*'",
        "ls ~/work | grep -v Zanzibar",
        "ls ~/work | grep -c Zanzibar",
        "ls ~/work | grep -e Zanzibar -e Lima",
        "ls ~/nowhere | grep Zanzibar",
        "ls ~/nowhere/*.txt | grep Zanzibar",
        "ls -l ~/work | grep Zanzibar",
        "find ~/work | grep Zanzibar",
        "ls ~/work | grep Zanzibar ~/work/trip.txt",
    ]
    .into_iter()
    .filter(|l| find(l, &home.env).is_some())
    .collect();
    println!(
        "names searched rightly: 12 lines, {} false alarms",
        alarms.len()
    );
    assert!(alarms.is_empty(), "false alarms: {alarms:#?}");
}

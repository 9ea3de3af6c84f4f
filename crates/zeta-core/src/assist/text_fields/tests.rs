//! The reading against families of awk commands built to break it: every way of giving
//! the delimiter, the file and the program's arithmetic, each run again and its output
//! held against the file's truth; and the commands that use a field rightly, as text, by
//! another split, through a filter, or on a file with two columns of numbers, where
//! nothing may be read. Misses and false alarms are counted and must be none.

use super::*;
use crate::assist::test_home::{home_of, run};

/// `sales.csv` (city,item,amount: amounts 12, 30, 7, 45 — sum 94, largest 45),
/// `semi.csv` (the same split at `;`), `tabs.tsv` (at tabs), `two.csv` (two columns of
/// numbers), `words.txt` (lines of words) and `nums.txt` (a number a line).
fn home() -> crate::assist::test_home::Home {
    let rows = [
        ("Oslo", "pen", 12),
        ("Lima", "ink", 30),
        ("Oslo", "clip", 7),
        ("Rome", "pen", 45),
    ];
    let table = |d: &str| {
        let mut t = format!("city{d}item{d}amount\n");
        for (c, i, a) in rows {
            t.push_str(&format!("{c}{d}{i}{d}{a}\n"));
        }
        t
    };
    let (commas, semis, tabs) = (table(","), table(";"), table("\t"));
    home_of(
        &[
            ("sales.csv", commas.as_str()),
            ("semi.csv", semis.as_str()),
            ("tabs.tsv", tabs.as_str()),
            ("two.csv", "city,qty,price\nOslo,2,5\nLima,3,4\nRome,1,9\n"),
            (
                "words.txt",
                "one two three\nfour five six\nseven eight nine\n",
            ),
            ("nums.txt", "12\n30\n7\n45\n"),
        ],
        &[],
    )
}

/// Programs doing arithmetic on field 2 (the items), with what they print when run on
/// field 3 instead, and when fed the rows below the first (`tail -n +2`), which a program
/// that skips its own first row (`NR>1`) then reads one row short, as written.
const PROGRAMS: &[(&str, &str, &str)] = &[
    ("{sum += $2} END {print sum}", "94", "94"),
    ("{s+=$2} END {print s}", "94", "94"),
    ("NR>1 {total = total + $2} END {print total}", "94", "82"),
    (
        "{ sum += $2 } END { print \"Total:\", sum }",
        "Total: 94",
        "Total: 94",
    ),
    ("{t += $2 * 1} END {print t}", "94", "94"),
    ("NR>1 {if ($2 > max) max = $2} END {print max}", "45", "45"),
    ("NR>1 && $2>m {m=$2} END {print m}", "45", "45"),
    (
        "NR > 1 { if ($2+0 > best) best = $2 } END { print best }",
        "45",
        "45",
    ),
];

#[test]
fn arithmetic_on_a_field_of_words_is_run_on_the_field_of_numbers() {
    let home = home();
    let (mut cases, mut misses, mut wrong) = (0, Vec::new(), Vec::new());
    let delimiters = [
        ("sales.csv", "-F,"),
        ("sales.csv", "-F','"),
        ("sales.csv", "-F \",\""),
        ("sales.csv", "-F ','"),
        ("sales.csv", "-v FS=,"),
        ("semi.csv", "-F';'"),
        ("tabs.tsv", "-F'\\t'"),
        ("tabs.tsv", "-F '\\t'"),
    ];
    for (file, flag) in delimiters {
        for written in [
            format!("~/{file}"),
            file.to_string(),
            format!("$HOME/{file}"),
        ] {
            for (program, prints, fed_below) in PROGRAMS {
                let awk = format!("awk {flag} '{program}'");
                let placings = [
                    format!("{awk} {written}"),
                    format!("cat {written} | {awk}"),
                    format!("tail -n +2 {written} | {awk}"),
                    format!("echo \"$({awk} {written})\""),
                    format!("cd ~ && {awk} {file}"),
                ];
                for line in placings {
                    let prints = if line.starts_with("tail") {
                        fed_below
                    } else {
                        prints
                    };
                    cases += 1;
                    let Some(found) = find(&line, &home.env) else {
                        misses.push(line);
                        continue;
                    };
                    let (command, said) = found.read_as();
                    assert!(said.starts_with(&format!("Run as `{command}`")), "{said}");
                    assert!(
                        said.contains("`item`") && said.contains("`amount`"),
                        "{said}"
                    );
                    assert!(find(&command, &home.env).is_none(), "{line} → {command}");
                    let (ok, out) = run(&command, &home.env.home);
                    if !ok || out != *prints {
                        wrong.push(format!("{line} → {command} → {out}"));
                    }
                }
            }
        }
    }
    // The delimiter set in the program; and no delimiter, the rows split at one
    // character: awk read each whole row as one field.
    for (line, prints) in [
        ("awk '{sum += $2} END {print sum}' ~/sales.csv", "94"),
        ("cat ~/sales.csv | awk '{sum += $1} END {print sum}'", "94"),
        ("awk '{s+=$3} END {print s}' sales.csv", "94"),
        (
            "awk 'NR>1 {if ($1 > m) m = $1} END {print m}' ~/sales.csv",
            "45",
        ),
        ("cat ~/semi.csv | awk '{t += $1} END {print t}'", "94"),
        (
            "tail -n +2 ~/sales.csv | awk '{s += $2} END {print s}'",
            "94",
        ),
        (
            "awk 'BEGIN{FS=\",\"} {s += $2} END {print s}' ~/sales.csv",
            "94",
        ),
        (
            "awk 'BEGIN { FS = \",\" } NR>1 { t += $1 } END { print t }' sales.csv",
            "94",
        ),
    ] {
        cases += 1;
        match find(line, &home.env).map(|f| f.read_as()) {
            Some((command, _)) => {
                let (ok, out) = run(&command, &home.env.home);
                if !ok || out != prints {
                    wrong.push(format!("{line} → {command} → {out}"));
                }
            }
            None => misses.push(line.to_string()),
        }
    }
    println!(
        "arithmetic on a field of words: {cases} lines, {} missed, {} run wrongly",
        misses.len(),
        wrong.len()
    );
    assert!(misses.is_empty(), "missed: {misses:#?}");
    assert!(wrong.is_empty(), "run wrongly: {wrong:#?}");
}

#[test]
fn fields_used_rightly_or_past_knowing_are_not_read() {
    let home = home();
    let lines = [
        // The field of numbers, or fields as text.
        "awk -F, '{sum += $3} END {print sum}' ~/sales.csv",
        "awk -F, 'NR>1 {if ($3 > m) m = $3} END {print m}' ~/sales.csv",
        "awk -F, '{print $2}' ~/sales.csv",
        "awk -F, '$2 == \"pen\" {n++} END {print n}' ~/sales.csv",
        "awk -F, '$1 != \"city\" {print $1}' ~/sales.csv | sort -u",
        "awk -F, '{print $2 > \"out.txt\"}' ~/sales.csv",
        "awk -F, 'NR==1{print $2}' ~/sales.csv",
        "awk -F, '{n++} END {print n}' ~/sales.csv",
        "awk -F, '{count[$1]++} END {for (c in count) print c}' ~/sales.csv",
        // Two columns of numbers: which was meant is not known.
        "awk -F, '{sum += $1} END {print sum}' ~/two.csv",
        // Another split, a program from a file, a filter, two files, no file.
        "awk '{sum += $2} END {print sum}' ~/words.txt",
        "awk '{sum += $1} END {print sum}' ~/nums.txt",
        "cat ~/nums.txt | awk '{s += $1} END {print s}'",
        "awk -F'[,;]' '{sum += $2} END {print sum}' ~/sales.csv",
        "awk -f sum.awk ~/sales.csv",
        "grep Oslo ~/sales.csv | awk -F, '{s+=$2} END {print s}'",
        "awk -F, '{s+=$2} END {print s}' ~/sales.csv ~/semi.csv",
        "awk -F, '{s+=$2} END {print s}' ~/missing.csv",
        "echo 1,2 | awk -F, '{print $1 + $2}'",
        "awk -F, '{s+=$2} END {print s}' $(ls ~/*.csv | head -1)",
        "cut -d, -f2 ~/sales.csv | paste -sd+ | bc",
    ];
    let alarms: Vec<&&str> = lines
        .iter()
        .filter(|l| find(l, &home.env).is_some())
        .collect();
    println!(
        "fields used rightly or past knowing: {} lines, {} false alarms",
        lines.len(),
        alarms.len()
    );
    assert!(alarms.is_empty(), "false alarms: {alarms:#?}");
}

/// Lines cut at every place, and random joins of their pieces: no panic, and a reading
/// only of a line that holds awk.
#[test]
fn cut_and_joined_lines_never_panic() {
    let home = home();
    let whole = "cat ~/sales.csv | awk -F, 'NR>1 {sum += $2} END {print sum}'";
    for end in 0..=whole.len() {
        if whole.is_char_boundary(end) {
            let _ = find(&whole[..end], &home.env);
        }
    }
    let pieces = [
        "awk ",
        "-F, ",
        "-F",
        "'",
        "\"",
        "{s += $2}",
        "$2",
        "$",
        "2",
        " END {print s}",
        " ~/sales.csv",
        " | ",
        "cat ",
        "tail -n +2",
        "-v FS=",
        "BEGIN{FS=\",\"}",
        "\n",
        "$(",
        ")",
        "+=",
        ">",
        "\\",
    ];
    for line in crate::text::random_joins(&pieces, 3000, 7, 11) {
        if let Some(found) = find(&line, &home.env) {
            assert!(line.contains("awk"), "{line}: {found:?}");
            let _ = found.read_as();
        }
    }
}

//! The columns named against families of commands built to break it: every way of giving
//! awk's and cut's delimiter, fields and file, each field held against the header the
//! file has; and the commands where nothing may be named: a file without a header, a
//! split at blanks, bytes cut, programs from files, several files, a file not there.
//! Misses and false alarms are counted and must be none.

use super::*;
use crate::assist::test_home::home_of;

/// `stock.csv` (item,price,qty), `semi.csv` (the same at `;`), `tabs.tsv` (at tabs),
/// `bare.csv` (the rows without their header) and `words.csv` (a header over rows of
/// words only).
fn home() -> crate::assist::test_home::Home {
    let table =
        |d: &str| format!("item{d}price{d}qty\nplum{d}37.6{d}10\nfig{d}3.5{d}90\nlime{d}12{d}4\n");
    let (commas, semis, tabs) = (table(","), table(";"), table("\t"));
    home_of(
        &[
            ("stock.csv", commas.as_str()),
            ("semi.csv", semis.as_str()),
            ("tabs.tsv", tabs.as_str()),
            ("bare.csv", "plum,37.6,10\nfig,3.5,90\nlime,12,4\n"),
            ("words.csv", "a,b\nx,y\nz,w\n"),
        ],
        &[],
    )
}

const NAMES: [&str; 3] = ["item", "price", "qty"];

#[test]
fn the_columns_awk_and_cut_read_by_number_are_named() {
    let home = home();
    let env = &home.env;
    // (file, awk's ways of giving its delimiter, cut's)
    let files: [(&str, &[&str], &[&str]); 3] = [
        (
            "stock.csv",
            &["-F,", "-F ','", "-F \",\"", "-v FS=,", "-vFS=,"],
            &["-d,", "-d ','", "--delimiter=,", "-d \",\""],
        ),
        ("semi.csv", &["-F';'", "-F ';'"], &["-d';'", "-d ';'"]),
        ("tabs.tsv", &["-F'\\t'", "-F '\\t'"], &["", "-d $'\\t'"]),
    ];
    let places = |file: &str| {
        [
            format!("~/{file}"),
            file.to_string(),
            format!("\"$HOME/{file}\""),
        ]
    };
    let mut misses = Vec::new();
    let mut total = 0;
    for (file, awk_ds, cut_ds) in files {
        for place in places(file) {
            for field in 1..=4usize {
                let want = |note: &str, numbered: &str| {
                    let named = match NAMES.get(field - 1) {
                        Some(name) => format!("{numbered} is the column \"{name}\""),
                        None => format!("{numbered} is past its last column"),
                    };
                    note.contains(&named)
                };
                let mut lines: Vec<(String, String)> = Vec::new();
                for d in awk_ds {
                    for program in [
                        format!("'{{print ${field}}}'"),
                        format!("'NR>1 {{print ${field}}}'"),
                        format!("'{{s += ${field}}} END {{print s}}'"),
                        format!("'NR > 1 && ${field} > 5 {{print $1}}'"),
                    ] {
                        let awk = format!("awk {d} {program}");
                        lines.push((
                            format!("{awk} {place} | sort -nr | head -1"),
                            format!("${field}"),
                        ));
                        lines.push((format!("cat {place} | {awk}"), format!("${field}")));
                    }
                }
                for d in cut_ds {
                    for f in [
                        format!("-f{field}"),
                        format!("-f {field}"),
                        format!("--fields={field}"),
                    ] {
                        lines.push((
                            format!("cut {d} {f} {place} | sort -u"),
                            format!("field {field}"),
                        ));
                        lines.push((
                            format!("tail -n +2 {place} | cut {d} {f}"),
                            format!("field {field}"),
                        ));
                    }
                }
                for (line, numbered) in lines {
                    total += 1;
                    match find(&line, env).map(|c| c.note()) {
                        Some(note) if want(&note, &numbered) && note.contains(file) => {}
                        other => misses.push(format!("{line} -> {other:?}")),
                    }
                }
            }
        }
    }
    assert!(total > 500, "{total}");
    assert!(
        misses.is_empty(),
        "{} of {total} missed:\n{}",
        misses.len(),
        misses.join("\n")
    );
    // Several fields, each named once in the order the program uses them.
    let note = find("awk -F, '{print $3, $1; t += $3}' ~/stock.csv", env)
        .map(|c| c.note())
        .unwrap_or_default();
    assert!(
        note.contains("$3 is the column \"qty\"; $1 is the column \"item\"")
            && note.contains("item,price,qty"),
        "{note}"
    );
    let note = find("cut -d, -f1,3 stock.csv", env)
        .map(|c| c.note())
        .unwrap_or_default();
    assert!(
        note.contains("field 1 is the column \"item\"; field 3 is the column \"qty\""),
        "{note}"
    );
}

#[test]
fn nothing_is_named_where_no_header_or_no_field_is_read() {
    let home = home();
    let env = &home.env;
    let nothing = [
        // No header.
        "awk -F, '{print $2}' bare.csv",
        "cut -d, -f2 ~/bare.csv",
        // A header over words only: no column of numbers below it.
        "awk -F, '{print $1}' words.csv",
        // awk's own split at blanks, and a pattern for a delimiter.
        "awk '{print $2}' stock.csv",
        "awk -F'[,;]' '{print $2}' stock.csv",
        // Bytes and characters cut, a range of fields.
        "cut -c1-3 stock.csv",
        "cut -b2 stock.csv",
        "cut -d, -f2- stock.csv",
        // No field used, a program from a file, two files, a file not there.
        "awk -F, '{print}' stock.csv",
        "awk -F, -f prog.awk stock.csv",
        "awk -F, '{print $2}' stock.csv semi.csv",
        "awk -F, '{print $2}' ~/nothere.csv",
        // Other programs, and what is not a command.
        "sort -t, -k2 -nr stock.csv",
        "grep plum stock.csv",
        "head -1 stock.csv",
        "",
        "awk -F, '{print $2",
        // The delimiter the file is not split at: one field a row, no header read.
        "cut -d';' -f2 stock.csv",
    ];
    let alarms: Vec<String> = nothing
        .iter()
        .filter_map(|line| find(line, env).map(|c| format!("{line} -> {}", c.note())))
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
fn random_lines_never_panic() {
    let home = home();
    for line in crate::text::random_joins(
        &[
            "awk",
            "cut",
            "-F,",
            "-d,",
            "-f2",
            "'{print $2}'",
            "$3",
            "stock.csv",
            "|",
            "cat",
            "-f",
            "'",
            "\"",
        ],
        2000,
        8,
        3,
    ) {
        let _ = find(&line, &home.env);
    }
}

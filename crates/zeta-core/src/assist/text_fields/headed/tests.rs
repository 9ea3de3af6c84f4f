//! A column's values counted with its header, against families of commands: every way
//! of naming the file, of cutting or printing one field, of making values of the lines,
//! and of placing the pipe in a line; each read again is run, and its output held
//! against the file's truth (5 cities, `city` not among them). Lines where the first
//! line is no header, the lines are not made values, or the header is already dropped
//! must be left alone. Misses, lines run wrongly and false alarms are counted and must
//! be none.

use super::find;
use crate::assist::test_home::{home_of, run, Home};

/// A home with `q3.csv` (a header `date,city,amount`, 8 rows, 5 cities), `plain.csv`
/// (words only: no header shown) and `rows.csv` (its first line a row like the others).
fn home() -> Home {
    home_of(
        &[
            (
                "q3.csv",
                "date,city,amount\n2024-01-03,Oslo,12\n2024-01-04,Lima,30\n2024-01-05,Oslo,7\n\
                 2024-01-06,Rome,45\n2024-01-07,Kyiv,9\n2024-01-08,Lima,3\n2024-01-09,Quito,1\n\
                 2024-01-10,Rome,8\n",
            ),
            ("plain.csv", "Oslo,pen\nLima,ink\nOslo,clip\nRome,pen\n"),
            (
                "rows.csv",
                "2024-01-03,Oslo,12\n2024-01-04,Lima,30\n2024-01-05,Rome,7\n",
            ),
        ],
        &[],
    )
}

#[test]
fn a_columns_values_are_counted_without_its_header() {
    let home = home();
    let abs = home.env.home.join("q3.csv").display().to_string();
    let files = [
        "~/q3.csv".to_string(),
        "q3.csv".into(),
        "./q3.csv".into(),
        "$HOME/q3.csv".into(),
        "\"$HOME/q3.csv\"".into(),
        abs.clone(),
        format!("'{abs}'"),
    ];
    let cutters = [
        "cut -d, -f2 {F}",
        "cut -d ',' -f 2 {F}",
        "cut -f2 -d, {F}",
        "cut --delimiter=, --fields=2 {F}",
        "cut -d\",\" -f2 {F}",
        "awk -F, '{print $2}' {F}",
        "awk -F',' '{ print $2 }' {F}",
        "awk -F ',' '{print $2;}' {F}",
        "awk -v FS=, '{print $2}' {F}",
        "awk 'BEGIN{FS=\",\"} {print $2}' {F}",
        "cat {F} | cut -d, -f2",
        "cat {F} | awk -F, '{print $2}'",
    ];
    let tails = [
        ("| sort | uniq | wc -l", true),
        ("| sort -u | wc -l", true),
        ("| sort --unique | wc -l", true),
        ("| sort | uniq -c | wc -l", true),
        ("| sort | uniq", false),
        ("| sort -u", false),
        ("| sort | uniq -c | sort -rn", false),
    ];
    let (mut cases, mut misses, mut wrong) = (0usize, Vec::new(), Vec::new());
    for file in &files {
        for cutter in cutters {
            for (tail, counts) in tails {
                let pipe = format!("{} {tail}", cutter.replace("{F}", file));
                for line in [
                    pipe.clone(),
                    format!("echo \"$({pipe})\""),
                    format!("cd ~ && {pipe} 2>/dev/null"),
                ] {
                    cases += 1;
                    let Some(headed) = find(&line, &home.env) else {
                        misses.push(line);
                        continue;
                    };
                    let (command, said) = headed.read_as();
                    assert!(said.starts_with(&format!("Run as `{command}`")), "{said}");
                    assert!(find(&command, &home.env).is_none(), "{line} → {command}");
                    let (ok, out) = run(&command, &home.env.home);
                    let right = if counts {
                        out == "5"
                    } else {
                        out.lines().count() == 5 && !out.contains("city")
                    };
                    if !ok || !right {
                        wrong.push(format!("{line} → {command} → {out}"));
                    }
                }
            }
        }
    }
    println!(
        "headed values: {cases} lines, {} missed, {} run wrongly",
        misses.len(),
        wrong.len()
    );
    assert!(
        misses.is_empty() && wrong.is_empty(),
        "missed: {misses:#?}\nrun wrongly: {wrong:#?}"
    );
}

#[test]
fn lines_without_a_header_counted_as_a_value_are_left_alone() {
    let home = home();
    let lines = [
        // No header shown: words only, or a first line like the rows below.
        "cut -d, -f1 ~/plain.csv | sort -u | wc -l",
        "awk -F, '{print $2}' ~/rows.csv | sort | uniq | wc -l",
        // Lines not made values.
        "cut -d, -f2 ~/q3.csv | wc -l",
        "cut -d, -f2 ~/q3.csv | sort",
        "cut -d, -f2 ~/q3.csv",
        "cut -d, -f2 ~/q3.csv | head -3",
        "cut -d, -f2 ~/q3.csv | uniq_tool",
        // awk that reads NR, prints several fields or matches a pattern.
        "awk -F, 'NR>1 {print $2}' ~/q3.csv | sort -u | wc -l",
        "awk -F, '{print $2, $3}' ~/q3.csv | sort -u | wc -l",
        "awk -F, '/Oslo/ {print $2}' ~/q3.csv | sort -u | wc -l",
        "awk '{print $2}' ~/q3.csv | sort -u | wc -l",
        // The header already dropped, or lines filtered before the cut.
        "tail -n +2 ~/q3.csv | cut -d, -f2 | sort -u | wc -l",
        "sed 1d ~/q3.csv | cut -d, -f2 | sort -u | wc -l",
        "grep -v city ~/q3.csv | cut -d, -f2 | sort -u | wc -l",
        // Several fields, a range, other flags, two files, a file not there.
        "cut -d, -f2,3 ~/q3.csv | sort -u | wc -l",
        "cut -d, -f2- ~/q3.csv | sort -u | wc -l",
        "cut -s -d, -f2 ~/q3.csv | sort -u | wc -l",
        "cut -d, -f2 ~/q3.csv ~/plain.csv | sort -u | wc -l",
        "cut -d, -f2 ~/nowhere.csv | sort -u | wc -l",
        "cat ~/q3.csv ~/plain.csv | cut -d, -f2 | sort -u | wc -l",
    ];
    let alarms: Vec<String> = lines
        .iter()
        .filter_map(|l| find(l, &home.env).map(|h| format!("{l}: {h:?}")))
        .collect();
    println!(
        "headed values left alone: {} lines, {} false alarms",
        lines.len(),
        alarms.len()
    );
    assert!(alarms.is_empty(), "{alarms:#?}");
}

/// Lines cut at every place, and random joins of their words: no panic.
#[test]
fn cut_and_joined_lines_never_panic() {
    let home = home();
    let whole =
        "cat ~/q3.csv | cut -d, -f2 | sort | uniq | wc -l; awk -F, '{print $2}' q3.csv | sort -u";
    for end in (0..=whole.len()).filter(|e| whole.is_char_boundary(*e)) {
        let _ = find(&whole[..end], &home.env).map(|h| h.read_as());
    }
    let pieces = [
        "cut",
        " -d,",
        " -f2",
        " ~/q3.csv",
        " | ",
        "sort",
        " -u",
        "uniq",
        "wc -l",
        "awk",
        " -F,",
        " '{print $2}'",
        "cat",
        "'",
        "\"",
        "$(",
        ")",
        ";",
        " -f",
        "é",
        "\n",
    ];
    for line in crate::text::random_joins(&pieces, 3000, 8, 13) {
        let _ = find(&line, &home.env).map(|h| h.read_as());
    }
}

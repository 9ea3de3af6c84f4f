use super::*;

fn written(text: &str) -> Vec<String> {
    values(text)
        .iter()
        .map(|v| v.as_written().to_string())
        .collect()
}

#[test]
fn values_are_numbers_dates_and_versions_not_digits_inside_names() {
    for (text, want) in [
        ("There are 137 lines.", vec!["137"]),
        (
            "It has 1,234 rows and costs 4.50 EUR",
            vec!["1,234", "4.50"],
        ),
        ("60G free of 100G", vec!["60", "100"]),
        ("Python 3.11.7 is installed", vec!["3.11.7"]),
        ("on 2026-03-04 at 10:05", vec!["2026-03-04", "10:05"]),
        ("q3.csv and file2.txt and amd64", vec![]),
        ("kernel 6.1.0-18-amd64", vec![]),
        ("~/data/2024/report.txt", vec![]),
        ("a 3rd try took 5s", vec!["3", "5"]),
        ("It is 42.", vec!["42"]),
        ("3,4 or 12,345", vec!["3,4", "12,345"]),
        ("", vec![]),
        ("no digits here", vec![]),
        ("x_1 and v2 and #3", vec![]),
    ] {
        assert_eq!(written(text), want, "{text}");
    }
    assert_eq!(values("1,234")[0], Value::Number("1,234".into(), 1234.0));
    assert!(matches!(values("3.11.7")[0], Value::Literal(_)));
}

/// Families of answers against outputs: a value the output gave (as written, rounded to
/// the answer's precision, inside a date) is grounded; a value no output gave is not.
#[test]
fn grounding_against_outputs_counts_misses_and_false_alarms() {
    let grounded_cases = [
        ("The file has 137 lines.", "137 /home/me/poem.txt"),
        ("It costs 4.5 EUR", "Widget: 4.50 EUR"),
        ("about 4.57", "4.5678"),
        ("You have 60 GB free", "/dev/sda1 100G 40G 60G 40% /"),
        ("Total: 1,234", "1234"),
        ("Python 3.11.7", "Python 3.11.7"),
        ("It was a Tuesday, 2025-08-14", "Thu 2025-08-14"),
        ("The 14th", "2025-08-14"),
        ("408", "408\n"),
        ("There are 3 files: a, b and c", "3"),
        ("user root", "root"),
    ];
    let ungrounded_cases = [
        ("The file has 1 line.", "137 /home/me/poem.txt"),
        ("It costs 4.60 EUR", "Widget: 4.50 EUR"),
        ("There are 12 rows", "13"),
        ("Python 3.11.8", "Python 3.11.7"),
        ("on 2025-08-15", "2025-08-14"),
        ("You have 61 GB free", "/dev/sda1 100G 40G 60G 40% /"),
        ("The sum is 250", "12\n30\n8"),
    ];
    let mut misses = 0;
    let mut false_alarms = 0;
    for (answer, output) in grounded_cases {
        if !ungrounded(answer, &[output]).is_empty() {
            false_alarms += 1;
            eprintln!("false alarm: {answer:?} against {output:?}");
        }
    }
    for (answer, output) in ungrounded_cases {
        if ungrounded(answer, &[output]).is_empty() {
            misses += 1;
            eprintln!("miss: {answer:?} against {output:?}");
        }
    }
    println!(
        "{} cases: {misses} misses, {false_alarms} false alarms",
        grounded_cases.len() + ungrounded_cases.len()
    );
    assert_eq!((misses, false_alarms), (0, 0));
}

/// A number the request itself gives is grounded ("What is 12 times 34?": 12 and 34).
#[test]
fn the_request_is_a_source_too() {
    let sources = ["What is 12 times 34?", "408"];
    assert!(ungrounded("12 times 34 is 408", &sources).is_empty());
    assert_eq!(ungrounded("12 times 34 is 418", &sources).len(), 1);
}

/// Shell expansions are found as written; prices, a lone dollar and text without one
/// are not expansions.
#[test]
fn shell_expansions_are_found_as_written() {
    let cases: [(&str, &[&str]); 9] = [
        ("Your username on this machine is $USER.", &["$USER"]),
        ("It is ${HOME}/notes", &["${HOME}"]),
        (
            "The user is $(whoami), home $HOME_DIR",
            &["$(whoami)", "$HOME_DIR"],
        ),
        ("It costs $5 or $ 12.", &[]),
        ("A lone $ and ${} and $()", &[]),
        ("no dollars at all", &[]),
        ("$_ and $a1", &["$_", "$a1"]),
        ("unclosed ${HOME and $(ls", &[]),
        ("$USER $USER", &["$USER"]),
    ];
    for (text, want) in cases {
        assert_eq!(expansions(text), want, "{text}");
    }
    for text in crate::text::random_texts("$({})_aZ9 .", 3000, 30, 5) {
        for e in expansions(&text) {
            assert!(text.contains(&e), "{text:?} gave {e:?}");
        }
    }
}

/// Random text never panics, and every value found is a substring of the text.
#[test]
fn random_text_never_panics() {
    for text in crate::text::random_texts("0123456789.,:-_/ abcGKx$#\n€é", 3000, 40, 7) {
        for v in values(&text) {
            assert!(text.contains(v.as_written()), "{text:?} gave {v:?}");
        }
        let _ = ungrounded(&text, &[&text]);
        assert!(
            ungrounded(&text, &[&text]).is_empty(),
            "a text grounds itself: {text:?}"
        );
    }
}

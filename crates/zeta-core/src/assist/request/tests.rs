use super::*;

fn env() -> ShellEnv {
    ShellEnv {
        home: PathBuf::from("/home/me"),
        cwd: PathBuf::from("/home/me"),
        user: "me".into(),
    }
}

fn parse(text: &str) -> Request {
    Request::parse(text, &env())
}

/// Families of requests: orders, questions, polite orders, negations, two-part requests.
#[test]
fn what_a_request_orders_and_asks() {
    // (request, asks a change, asks to be told, several parts)
    let cases = [
        ("How many .log files are in ~/logs?", false, true, false),
        ("What is my user name?", false, true, false),
        ("Rename ~/docs/a.txt to b.txt", true, false, false),
        ("Can you rename ~/docs/a.txt to b.txt?", true, false, false),
        (
            "Please delete every .tmp file in ~/work.",
            true,
            false,
            false,
        ),
        (
            "Count the lines in ~/a.txt and write the number into ~/n.txt",
            true,
            false,
            true,
        ),
        (
            "How many lines does ~/a.txt have? Save the number in ~/n.txt.",
            true,
            true,
            true,
        ),
        (
            "Do not delete anything, just list ~/work",
            false,
            true,
            true,
        ),
        ("Make ~/bin/run.sh executable.", true, false, false),
        ("Which file in ~/docs is the largest?", false, true, false),
        (
            "Tell me the first line of ~/a.txt and its number of lines.",
            false,
            true,
            true,
        ),
        (
            "Create a folder ~/archive and move every .log file from ~/logs into it",
            true,
            false,
            true,
        ),
        ("what's 12 plus 30", false, true, false),
        ("Show me the last line of ~/notes.txt.", false, true, false),
        (
            "Copy the biggest file of ~/a to the folder ~/b.",
            true,
            false,
            false,
        ),
        // Windows: a value typed, a box ticked, a button pressed are changes; checking
        // something asks to be told.
        (
            "In the Print window, open the Advanced tab, tick Duplex, then press Apply",
            true,
            true,
            true,
        ),
        ("Type Lisbon into the City dialog", true, false, false),
        ("Choose Large in the Size dialog", true, false, false),
        ("Check how much disk space is free", false, true, false),
        // "Add up" computes; "add" alone puts something in.
        ("Add up the amounts in ~/q3.csv.", false, true, false),
        ("Sum the amount column of ~/sales.csv", false, true, false),
        ("Add a line saying done to ~/todo.txt", true, false, false),
    ];
    let mut wrong = Vec::new();
    for (text, change, told, several) in cases {
        let r = parse(text);
        if (r.asks_change, r.asks_to_be_told, r.several()) != (change, told, several) {
            wrong.push(format!(
                "{text}: change {} told {} several {} (parts {})",
                r.asks_change,
                r.asks_to_be_told,
                r.several(),
                r.parts
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} wrong:\n{}",
        wrong.len(),
        cases.len(),
        wrong.join("\n")
    );
}

#[test]
fn targets_are_where_the_request_asks_things_to_go() {
    let targets = |text: &str| -> Vec<(String, bool, bool)> {
        parse(text)
            .targets
            .into_iter()
            .map(|t| (t.text, t.exists_only, t.wants_text))
            .collect()
    };
    assert_eq!(
        targets("Count the files and write the number into ~/count.txt"),
        [("~/count.txt".to_string(), false, true)]
    );
    assert_eq!(
        targets("Write \"Buy milk\" into a new file ~/todo.txt."),
        [("~/todo.txt".to_string(), false, true)]
    );
    assert_eq!(
        targets("Create a file ~/hello.txt that contains the line Hello"),
        [("~/hello.txt".to_string(), true, false)]
    );
    assert_eq!(
        targets("Copy ~/a.txt into the folder ~/backup."),
        [("~/backup".to_string(), false, false)]
    );
    // A question, a negation and "in" ask nothing to be written.
    assert!(targets("How many files did I copy into ~/backup?").is_empty());
    assert!(targets("Do not write into ~/count.txt").is_empty());
    assert!(targets("Save the list of files in ~/docs").is_empty());
    // A bare new name is beside the file it renames, and shown where it points.
    let r = parse("Rename ~/docs/a.txt to b.txt");
    assert_eq!(r.targets.len(), 1);
    assert_eq!(r.targets[0].paths, [PathBuf::from("/home/me/docs/b.txt")]);
    assert_eq!(r.targets[0].text, "~/docs/b.txt");
    // Copied to a bare name: here or beside the source.
    let r = parse("Copy ~/docs/a.txt to b.txt");
    assert_eq!(
        r.targets[0].paths,
        [
            PathBuf::from("/home/me/b.txt"),
            PathBuf::from("/home/me/docs/b.txt")
        ]
    );
}

#[test]
fn a_count_is_asked_by_how_many_count_and_number_of() {
    for (text, want) in [
        ("How many files are in ~/docs?", true),
        (
            "Count the files in ~/work and tell me which is biggest.",
            true,
        ),
        ("put the line count of my a.txt into ~/n.txt", true),
        ("What is the number of rows in ~/a.csv?", true),
        ("Which file is the largest?", false),
        ("What is my user name?", false),
    ] {
        assert_eq!(parse(text).asks_count, want, "{text}");
    }
}

/// A count asked for is a value to be told; with a change beside it, the request still
/// orders that change.
#[test]
fn a_count_asked_is_a_question_unless_a_change_is_ordered_too() {
    for (text, only_asks) in [
        ("Count the distinct cities in ~/orders.csv.", true),
        ("count the lines of ~/a.txt", true),
        (
            "Count the files in ~/work and write the number into ~/n.txt",
            false,
        ),
        ("put the line count of my a.txt into ~/n.txt", false),
    ] {
        let r = parse(text);
        assert_eq!(r.only_asks(), only_asks, "{text}");
    }
}

#[test]
fn sources_are_where_things_must_leave() {
    let sources = |text: &str| -> Vec<(String, Leaves)> {
        parse(text)
            .sources
            .into_iter()
            .map(|s| (s.named.text, s.leaves))
            .collect()
    };
    assert_eq!(
        sources("Create a folder ~/archive and move every .log file from ~/logs into it"),
        [("~/logs".to_string(), Leaves::Moved)]
    );
    assert_eq!(
        sources("Rename ~/docs/a.txt to b.txt"),
        [("~/docs/a.txt".to_string(), Leaves::Moved)]
    );
    assert_eq!(
        sources("Delete every .tmp file in ~/work."),
        [("~/work".to_string(), Leaves::Deleted)]
    );
    assert!(sources("Copy ~/a.txt into ~/backup").is_empty());
    assert!(sources("How many files did I move from ~/logs?").is_empty());
    assert!(sources("Do not delete ~/work").is_empty());
}

#[test]
fn sentences_end_at_marks_followed_by_a_space() {
    let s = sentences("Open ~/data/mid.csv. Is 2.5 installed? can you copy a.txt?");
    let texts: Vec<(&str, bool)> = s.iter().map(|s| (s.text.as_str(), s.question)).collect();
    assert_eq!(
        texts,
        [
            ("Open ~/data/mid.csv", false),
            ("Is 2.5 installed", true),
            ("can you copy a.txt", false)
        ]
    );
}

/// Random text never panics.
#[test]
fn random_requests_never_panic() {
    for text in crate::text::random_texts("ab ~/.?!;,\n\"'inotwrecpy0é€", 3000, 60, 11) {
        let r = parse(&text);
        assert!(r.parts >= 1);
    }
}

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

/// Places named by a bare word: each entry of a home, named in every way a sentence
/// holds a word (at its start, its end, before a mark, possessive, in another letter
/// case), is found, and nothing else is; words that name no entry, hidden entries,
/// paths already written and names two entries share in another case are not.
#[test]
fn places_named_by_a_bare_word_are_the_homes_entries() {
    let home = crate::assist::test_home::home_of(
        &[
            ("Makefile", "all:\n"),
            ("reports/q1.txt", "x"),
            ("docs/journal.txt", "x"),
            (".secret/x", "x"),
            ("Notes/a", "x"),
            ("notes/b", "x"),
            ("old-photos/a.jpg", "x"),
        ],
        &["Downloads", "go"],
    );
    let env = &home.env;
    let named = [
        ("reports", "reports"),
        ("docs", "docs"),
        ("Downloads", "Downloads"),
        ("Makefile", "Makefile"),
        ("old-photos", "old-photos"),
        ("go", "go"),
    ];
    let forms = [
        "what is the newest file in my {} folder?",
        "{} holds some files; which is the largest",
        "how many words does my journal have? it's in {}",
        "count the files under {}.",
        "tell me about \"{}\"",
        "list ({}) please",
        "what's in {}'s first file?",
        "is there anything in {}, and how big is it?",
    ];
    let mut misses = Vec::new();
    let mut total = 0;
    for (word, entry) in named {
        for written in [word.to_string(), word.to_uppercase(), word.to_lowercase()] {
            for form in forms {
                let text = form.replace("{}", &written);
                total += 1;
                let places = Request::parse(&text, env).places;
                let want = env.home.join(entry);
                if places.iter().map(|p| &p.path).collect::<Vec<_>>() != vec![&want] {
                    misses.push(format!("{text:?} -> {places:?}"));
                }
            }
        }
    }
    assert!(
        misses.is_empty(),
        "{} of {total} missed:\n{}",
        misses.len(),
        misses.join("\n")
    );
    // Two entries, one name in two letter cases: the one written so, and no guess
    // between them otherwise.
    let notes = |text: &str| {
        Request::parse(text, env)
            .places
            .into_iter()
            .map(|p| p.path)
            .collect::<Vec<_>>()
    };
    assert_eq!(notes("what is in Notes"), vec![env.home.join("Notes")]);
    assert_eq!(notes("what is in notes"), vec![env.home.join("notes")]);
    assert_eq!(notes("what is in NOTES"), Vec::<std::path::PathBuf>::new());
    let nothing = [
        "what is the weather like today?",
        "how many cores does this machine have",
        "which files are in my secret folder",
        "what is in .secret",
        "how big is ~/reports/q1.txt",
        "count the words in ~/docs/journal.txt",
        "what is in ./reports",
        "the report is in reporting",
        "",
    ];
    let alarms: Vec<String> = nothing
        .iter()
        .map(|text| (text, Request::parse(text, env).places))
        .filter(|(_, p)| !p.is_empty())
        .map(|(text, p)| format!("{text:?} -> {p:?}"))
        .collect();
    assert!(alarms.is_empty(), "{}", alarms.join("\n"));
    // The same name twice is one place; a path written is not also a place.
    let r = Request::parse("docs, my docs: how many files does docs hold?", env);
    assert_eq!(r.places.len(), 1);
    let r = Request::parse("is Makefile the same as ~/Makefile", env);
    assert!(r.places.is_empty(), "{:?}", r.places);
}

/// A home that cannot be read names no place, and random text in a home with entries
/// never panics.
#[test]
fn places_in_a_home_not_there_or_random_text() {
    let gone = ShellEnv {
        home: PathBuf::from("/nonexistent-zeta-home"),
        cwd: PathBuf::from("/nonexistent-zeta-home"),
        user: "me".into(),
    };
    assert!(Request::parse("what is in reports", &gone)
        .places
        .is_empty());
    let home = crate::assist::test_home::home_of(&[("a/x", "x"), ("é€/y", "y")], &["b"]);
    for text in crate::text::random_texts("ab é€/.'s?!\"", 2000, 40, 5) {
        let r = Request::parse(&text, &home.env);
        assert!(r.places.len() <= 3, "{text:?}: {:?}", r.places);
    }
}

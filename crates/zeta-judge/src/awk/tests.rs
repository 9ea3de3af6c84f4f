//! The awk read-only rule against families of programs built to break it, and against
//! real awk: every program the rule passes is run, and must leave its folder as it was.

use super::*;
use proptest::prelude::*;

fn args(line: &[&str]) -> Vec<Word> {
    line.iter().map(|a| Word::literal(a)).collect()
}

/// The ways people and models pass the field separator and variables.
const OPTIONS: &[&[&str]] = &[
    &[],
    &["-F,"],
    &["-F", ","],
    &["-F\t"],
    &["-F:", "-v", "v=Paris"],
    &["-v", "n=3", "-F", ";"],
    &["-vn=3"],
    &["--"],
];

/// Programs that only read and print.
const READING: &[&str] = &[
    "{print}",
    "{print $1}",
    "NR>1 {s += $3} END {print s}",
    "NR > 1 && $1 == v",
    "$3 > 10 {print $1, $3}",
    "$3 >= 10",
    "{ if ($3 > 10) print $2 }",
    "{ if ($3 >= m) { m = $3; w = $2 } } END { print w, m }",
    "/ERROR/ {c++} END {print c+0}",
    "/ERROR|WARN/",
    "!/^#/",
    "$1 ~ /^[0-9]+$/",
    "/[[:digit:]]+ ms/ {print}",
    "length($0) > 72",
    "{ n += NF } END { print n }",
    "END { print NR }",
    "BEGIN { FS = \",\" } { print $2 }",
    "{ print \"a > b | c\" }",
    "{ x = \"}\" ; print x }",
    "{ print ($3 > 10) }",
    "$1 == \"x\" || $1 == \"y\"",
    "{ printf \"%s %d\\n\", $1, $3 }",
    "{ a[$1] += $3 } END { for (k in a) print k, a[k] }",
    "{ print $NF / 2 }",
    "NR==1, NR==3",
    "{ sub(/a/, \"b\"); print }",
    "# the total\n{ s += $1 }\nEND { print s }",
    "/[]x]/ {print}",
];

/// Programs that write a file, run a command or load code.
const WRITING: &[&str] = &[
    "{print > \"out\"}",
    "{print >> \"out\"}",
    "{print $1 > \"/tmp/x\"}",
    "{ print(\"a\") > \"out\" }",
    "{ printf \"%s\", $1 > \"out\" }",
    "{ print > (\"out\" NR) }",
    "{ if ($3 > 10) print > \"big\" }",
    "$3 > 10 { print > \"big\" }",
    "{ print | \"sh\" }",
    "{ print |& \"sh\" }",
    "{ print | \"cat > out\" }",
    "BEGIN { system(\"rm -rf ~\") }",
    "BEGIN { system (\"touch x\") }",
    "BEGIN { \"date\" | getline d; print d }",
    "BEGIN { while ((\"ls\" | getline l) > 0) print l }",
    "BEGIN { getline < \"/etc/shadow\" }",
    "@load \"filefuncs\"",
    "@include \"x.awk\"",
    // What hides a redirection from a careless scan.
    "{ # }\nprint > \"out\" }",
    "{ x = \"}\"; print > \"out\" }",
    "{ if (/}/) print > \"out\" }",
    "{ x = /[/]}/; print > \"out\" }",
    "{ x = /[[:alpha:]/]/; print > \"out\" }",
    "} { print > \"out\"",
    "{ print \"unterminated\n}",
    "(( { print > \"out\" }",
    "{ print > \"out\" }}",
];

/// Option lists that make awk write or load code, whatever the program.
const WRITING_OPTIONS: &[&[&str]] = &[
    &["-f", "prog.awk"],
    &["-fprog.awk"],
    &["--file=prog.awk"],
    &["-i", "inplace"],
    &["-l", "filefuncs"],
    &["--profile"],
    &["-o"],
    &["-p"],
    &["-d"],
    &["-W", "exec", "x"],
    &["--dump-variables"],
    &["-E", "prog.awk"],
    &["-e"],
];

#[test]
fn the_rule_passes_reading_programs_and_no_writing_one() {
    let mut misses = Vec::new();
    let mut alarms = Vec::new();
    let mut cases = 0;
    for options in OPTIONS {
        for (programs, reads) in [(READING, true), (WRITING, false)] {
            for program in programs {
                cases += 1;
                let mut line: Vec<&str> = options.to_vec();
                line.push(program);
                line.push("sales.csv");
                let judged = reads_only(&args(&line));
                if judged && !reads {
                    alarms.push(format!("{line:?}"));
                } else if !judged && reads {
                    misses.push(format!("{line:?}"));
                }
            }
        }
    }
    for options in WRITING_OPTIONS {
        for program in READING {
            cases += 1;
            let mut line: Vec<&str> = options.to_vec();
            line.push(program);
            if reads_only(&args(&line)) {
                alarms.push(format!("{line:?}"));
            }
        }
    }
    println!(
        "awk: {cases} command lines, {} reading ones taken for writes, {} writing ones taken for reads",
        misses.len(),
        alarms.len()
    );
    assert!(
        alarms.is_empty(),
        "writing awk taken for reading: {alarms:#?}"
    );
    assert!(
        misses.is_empty(),
        "reading awk taken for writing: {misses:#?}"
    );
    // A program known only when it runs, or none at all.
    assert!(!reads_only(&[Word::unknown("$PROG"), Word::literal("f")]));
    assert!(!reads_only(&args(&["-F,"])));
    assert!(!reads_only(&args(&["-v"])));
}

#[test]
fn the_program_text_is_found_after_the_options() {
    let cases: &[(&[&str], Option<&str>)] = &[
        (&["{print}", "f"], Some("{print}")),
        (&["-F", ",", "-v", "a=1", "NR>1", "f"], Some("NR>1")),
        (&["-F,", "--", "{print}"], Some("{print}")),
        (&["-f", "prog.awk", "f"], None),
        (&["-F,"], None),
    ];
    for (line, want) in cases {
        let line = args(line);
        assert_eq!(
            program_text(&line).and_then(Word::single),
            *want,
            "{line:?}"
        );
    }
}

/// Pieces of awk programs: reading ones and ones that write a file in the working folder.
const PATTERNS: &[&str] = &[
    "", "NR>1 ", "$1 > 1 ", "/x/ ", "/a|b/ ", "BEGIN ", "END ", "/[/]/ ", "!/}/ ",
];
const STATEMENTS: &[&str] = &[
    "print",
    "print $1",
    "s += $1",
    "if ($1 > 0) print $1",
    "x = \"}\"",
    "x = \"{\"",
    "print > \"w1\"",
    "print $1 >> \"w2\"",
    "print | \"cat > w3\"",
    "system(\"touch w4\")",
    "\"touch w5\" | getline",
    "printf \"%s\", $1 > \"w6\"",
    "if (NR) print > \"w7\"",
    "print(\"a\") > \"w8\"",
    "print /x/",
    "c++",
];
const NOISE: &[&str] = &[
    "", "}", "{", "\n", "# }\n", "\"", "/", "(", ")", ";", "[", "]",
];

fn program() -> impl Strategy<Value = String> {
    let rule = (
        prop::sample::select(PATTERNS),
        prop::collection::vec(prop::sample::select(STATEMENTS), 0..4),
        prop::sample::select(NOISE),
        prop::sample::select(NOISE),
    )
        .prop_map(|(p, s, n1, n2)| format!("{p}{n1}{{ {} }}{n2}", s.join("; ")));
    prop::collection::vec(rule, 1..4).prop_map(|r| r.join("\n"))
}

/// Runs `text` with the real awk on a small input in a fresh folder: the names left there.
fn run_awk(text: &str) -> Vec<String> {
    let dir = tempfile::tempdir().expect("a temporary folder");
    std::fs::write(dir.path().join("in.txt"), "1 a\n2 b\n").expect("the input");
    let ran = std::process::Command::new("timeout")
        .args(["5", "awk", text, "in.txt"])
        .current_dir(dir.path())
        .output();
    assert!(ran.is_ok(), "awk could not be started: {ran:?}");
    let mut left: Vec<String> = std::fs::read_dir(dir.path())
        .expect("the folder")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    left
}

/// Every generated program the rule passes, run by the real awk, leaves its folder as it
/// was: no file written, no command run. The writing pieces show the test can fail: run
/// alone, each one writes.
#[test]
fn no_program_the_rule_passes_writes_when_real_awk_runs_it() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    for piece in STATEMENTS.iter().filter(|s| s.contains('w')) {
        assert_ne!(run_awk(&format!("{{ {piece} }}")), ["in.txt"], "{piece}");
    }
    let mut runner = TestRunner::deterministic();
    let strategy = program();
    let (mut passed, mut writing, mut cases) = (0, 0, 0);
    let mut wrote = Vec::new();
    while cases < 5000 {
        let text = strategy
            .new_tree(&mut runner)
            .expect("a generated program")
            .current();
        cases += 1;
        if STATEMENTS
            .iter()
            .any(|s| s.contains('w') && text.contains(s))
        {
            writing += 1;
        }
        if program_reads_only(&text) {
            passed += 1;
            let left = run_awk(&text);
            if left != ["in.txt"] {
                wrote.push((text, left));
            }
        }
    }
    println!(
        "awk fuzz: {cases} programs ({writing} with a writing piece), {passed} passed as reading and run by awk, {} of them wrote",
        wrote.len()
    );
    assert!(
        passed >= 200,
        "too few programs passed to test anything: {passed}"
    );
    assert!(wrote.is_empty(), "{wrote:#?}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

    /// Any text at all: a verdict, no panic.
    #[test]
    fn any_text_is_judged_without_a_panic(text in "[ -~\\n\\t{}()\\[\\]/\"#|>]{0,200}") {
        let _ = program_reads_only(&text);
        let _ = reads_only(&args(&["-F,", &text]));
    }
}

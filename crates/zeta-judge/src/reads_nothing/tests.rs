//! Readers given nothing, against families built to break the reading: every reader
//! with each way of giving its options (clustered, attached, apart, long, `=`), alone
//! or in a pipeline's first place, in a list, a substitution or a loop; and the same
//! commands given a file, fed by a pipe, a here-document, a here-string or `<`, or told
//! to read elsewhere, where nothing may be said. Misses and false alarms are counted and
//! must be none.

use super::*;
use std::path::PathBuf;

fn env() -> ShellEnv {
    ShellEnv {
        home: PathBuf::from("/home/me"),
        cwd: PathBuf::from("/home/me"),
        user: "me".into(),
    }
}

/// Each reader's ways of being given options and operands that are not files, as the
/// line is written.
const GIVEN_NOTHING: &[(&str, &[&str])] = &[
    (
        "wc",
        &["wc", "wc -w", "wc -l", "wc -lw", "wc --words", "wc -c -l"],
    ),
    ("cat", &["cat", "cat -n", "cat -"]),
    ("tac", &["tac"]),
    ("md5sum", &["md5sum"]),
    (
        "sort",
        &[
            "sort",
            "sort -nr",
            "sort -k2,2nr",
            "sort -k 2 -t ,",
            "sort -t, -k3 -n",
            "sort --key=2 -r",
            "sort --field-separator , -u",
        ],
    ),
    ("uniq", &["uniq", "uniq -c", "uniq -f 1", "uniq -s2"]),
    (
        "head",
        &[
            "head",
            "head -5",
            "head -n 5",
            "head -n5",
            "head --lines=3",
            "head -c 10",
        ],
    ),
    (
        "tail",
        &[
            "tail",
            "tail -1",
            "tail -n 20",
            "tail -n +2",
            "tail --lines 4",
        ],
    ),
    (
        "cut",
        &[
            "cut -d, -f2",
            "cut -d ',' -f 2",
            "cut -f1",
            "cut --delimiter=: --fields=1",
            "cut -c1-5",
        ],
    ),
    (
        "grep",
        &[
            "grep -c word",
            "grep -i 'two words'",
            "grep -e a -e b",
            "grep -E 'a|b' -c",
            "grep -m 1 x",
            "grep -A2 x",
            "grep --regexp=x",
            "grep -f patterns.txt",
            "grep -- -x",
        ],
    ),
    (
        "awk",
        &[
            "awk '{print $1}'",
            "awk -F, '{s += $2} END {print s}'",
            "awk -F ',' 'NR>1'",
            "awk -v n=2 '{print $n}'",
            "awk -f prog.awk",
            "awk 'BEGIN {x = 1} {print x}'",
        ],
    ),
    (
        "sed",
        &[
            "sed -n 1p",
            "sed 's/a/b/g'",
            "sed -e 's/a/b/' -e 's/c/d/'",
            "sed -E 's/x+/y/'",
        ],
    ),
    ("tr", &["tr a-z A-Z", "tr -d '\\n'", "tr -s ' '"]),
];

#[test]
fn readers_given_nothing_are_found_wherever_they_stand() {
    let env = env();
    let places = [
        "{}",
        "{} | head -1",
        "{} | sort | uniq -c",
        "cd ~/docs && {}",
        "echo start; {}",
        "n=$({})",
        "for f in a b; do {}; done",
        "if true; then {}; fi",
        "{} 2>/dev/null",
        "{} > ~/out.txt",
    ];
    let (mut misses, mut total) = (Vec::new(), 0);
    for (program, ways) in GIVEN_NOTHING {
        for way in *ways {
            for place in places {
                let line = place.replace("{}", way);
                total += 1;
                if reads_nothing(&line, &env).as_deref() != Some(*program) {
                    misses.push(format!("{line} -> {:?}", reads_nothing(&line, &env)));
                }
            }
        }
    }
    assert_eq!(total, 600);
    assert!(
        misses.is_empty(),
        "{} of {total} missed:\n{}",
        misses.len(),
        misses.join("\n")
    );
}

#[test]
fn readers_with_something_to_read_are_left_alone() {
    let env = env();
    // Each way again, given a file, or fed.
    let feeds = [
        "{} ~/essay.txt",
        "{} essay.txt other.txt",
        "{} \"$HOME/my notes.txt\"",
        "{} -- essay.txt",
        "cat ~/a.txt | {}",
        "ls ~ | {}",
        "{} < ~/essay.txt",
        "{} 0< essay.txt",
        "{} <<< 'one two'",
        "{} <<'EOF'\none two\nEOF",
        "find ~ -name '*.txt' | {}",
        "{} $(ls ~/docs)",
        "{} <(ls ~)",
        "{} ~/docs/*.txt",
    ];
    let (mut alarms, mut total) = (Vec::new(), 0);
    for (_, ways) in GIVEN_NOTHING {
        for way in *ways {
            // tr takes no files: only the feeds count for it.
            let tr = way.starts_with("tr ");
            for feed in feeds {
                let fed = feed.contains('|') || feed.contains('<') && !feed.contains("<(");
                if tr && !fed {
                    continue;
                }
                let line = feed.replace("{}", way);
                total += 1;
                if let Some(found) = reads_nothing(&line, &env) {
                    alarms.push(format!("{line} -> {found}"));
                }
            }
        }
    }
    // Read elsewhere, a program with no input to read, wrapped or nested readers, and
    // other programs.
    let others = [
        "grep -r TODO",
        "grep -rn TODO",
        "grep -Ri todo",
        "grep --recursive x",
        "wc -l --files0-from=list",
        "awk 'BEGIN {print 2 + 3}'",
        "awk 'BEGIN { printf \"%d\\n\", 7 * 6 }'",
        "awk -v x=3 'BEGIN {print x * 2}'",
        "awk 'BEGIN {a = \"}\"; print a}'",
        "find . -name '*.log' | xargs wc -l",
        "find ~/docs -type f -exec wc -w {} +",
        "find ~/docs -type f -exec grep -l word {} \\;",
        "ls -la ~/docs",
        "echo hello",
        "python3 - <<'EOF'\nprint(1)\nEOF",
        "du -sh ~/docs",
        "date",
        "",
        "wc -l 'unclosed",
    ];
    for line in others {
        total += 1;
        if let Some(found) = reads_nothing(line, &env) {
            alarms.push(format!("{line} -> {found}"));
        }
    }
    assert!(total > 800, "{total}");
    assert!(
        alarms.is_empty(),
        "{} false alarms of {total}:\n{}",
        alarms.len(),
        alarms.join("\n")
    );
}

/// Random lines never panic.
#[test]
fn random_lines_never_panic() {
    let env = env();
    let pieces = [
        "wc", "-l", "grep", "-e", "x", "awk", "'BEGIN {", "}'", "|", "<", "<<<", "sort", "-k",
        "--key=", "-", "--", "tr", "\"", "$(", ")", ";", "\n", "cut", "-d,", "-f2", "{",
    ];
    let mut seed: u64 = 7;
    for _ in 0..3000 {
        let mut line = String::new();
        for _ in 0..8 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let piece = pieces[(seed >> 33) as usize % pieces.len()];
            line.push_str(piece);
            if (seed >> 40).is_multiple_of(2) {
                line.push(' ');
            }
        }
        let _ = reads_nothing(&line, &env);
    }
}

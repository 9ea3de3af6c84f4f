//! The catalogue against this machine (every flag in the program's `--help` or man page)
//! and retrieval against families of requests: the recipe each should get, and requests
//! that should get none.

use super::*;
use std::process::Command;

/// The program's own documentation here: `--help`, `-W usage` (mawk), `-h` and the man
/// page, all of it.
fn documentation(program: &str) -> String {
    let mut text = String::new();
    for args in [
        &["--help"][..],
        &["--help", "all"],
        &["-W", "usage"],
        &["-h"],
    ] {
        if let Ok(out) = Command::new(program).args(args).output() {
            text.push_str(&String::from_utf8_lossy(&out.stdout));
            text.push_str(&String::from_utf8_lossy(&out.stderr));
        }
    }
    if let Ok(out) = Command::new("man")
        .arg(program)
        .env("MANPAGER", "cat")
        .env("MANWIDTH", "200")
        .output()
    {
        text.push_str(&String::from_utf8_lossy(&out.stdout));
    }
    // man pages may render hyphens as U+2010 or U+2212.
    text.replace(['\u{2010}', '\u{2212}'], "-")
}

/// `flag` stands on its own in `text`: not part of a longer flag or word.
fn documents(text: &str, flag: &str) -> bool {
    text.match_indices(flag).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + flag.len()..].chars().next();
        !before.is_some_and(|c| c == '-' || c.is_alphanumeric())
            && !after.is_some_and(|c| c.is_alphanumeric() || c == '-')
    })
}

#[test]
fn every_flag_is_in_this_machines_documentation() {
    let mut checked = 0;
    let mut missing_programs = Vec::new();
    let mut undocumented = Vec::new();
    for recipe in CATALOGUE {
        if !available().iter().any(|r| r.command == recipe.command) {
            missing_programs.push(recipe.program);
            continue;
        }
        // An environment assignment before the program (`TZ=Asia/Tokyo date`) is not
        // the program.
        let command = recipe
            .command
            .split_once(' ')
            .filter(|(first, _)| first.contains('=') && !first.starts_with('-'))
            .map_or(recipe.command, |(_, rest)| rest);
        assert!(
            command.starts_with(recipe.program)
                || recipe.command.contains(&format!("&& {}", recipe.program))
                || recipe.command.contains(&format!("| {}", recipe.program))
                || recipe.command.contains(&format!("$({}", recipe.program))
                || recipe.program == "bash",
            "{}: the command does not run {}",
            recipe.command,
            recipe.program
        );
        let doc = documentation(recipe.program);
        for flag in recipe.flags {
            checked += 1;
            if !documents(&doc, flag) {
                undocumented.push(format!("{} {flag}", recipe.program));
            }
        }
    }
    println!(
        "{checked} flags checked; programs not on this machine (not offered): {missing_programs:?}"
    );
    assert!(
        undocumented.is_empty(),
        "flags not documented here: {undocumented:?}"
    );
    assert!(
        missing_programs.len() <= 2,
        "most of the catalogue runs here: {missing_programs:?}"
    );
}

#[test]
fn the_documentation_check_can_fail() {
    let doc = documentation("wc");
    assert!(documents(&doc, "-l"));
    assert!(!documents(&doc, "--no-such-flag"));
    assert!(!documents("  --create  ", "-c"), "part of a longer flag");
}

/// Requests in families (other wording, other paths, other values), each with a word of
/// the recipe it should get among those offered.
const SHOULD_GET: &[(&str, &str)] = &[
    ("How much free disk space do I have?", "free disk space"),
    ("how much space is left on my disk", "free disk space"),
    ("Is my disk full?", "free disk space"),
    ("How much RAM is free?", "memory"),
    ("how much memory is used right now", "memory"),
    ("How many CPU cores does this computer have?", "CPU cores"),
    ("how many processors are there", "CPU cores"),
    ("What is my user name?", "user name"),
    ("which user am I logged in as", "user name"),
    ("Which Linux kernel version is running?", "kernel"),
    ("what kernel is this", "kernel"),
    ("How long has the computer been running?", "running"),
    ("Which process uses the most memory?", "most memory"),
    ("what processes are using the most CPU", "most CPU"),
    ("Which ports are listening?", "listen"),
    ("What is my IP address?", "IP"),
    ("What time is it?", "date and time"),
    (
        "What does the Gadget cost according to ~/shop/prices.txt?",
        "what a file says",
    ),
    (
        "what does ~/notes.txt say about the budget",
        "what a file says",
    ),
    ("What is today's date?", "date and time"),
    ("What time is it in Tokyo?", "another place"),
    ("which time zone is 3pm in London", "another place"),
    ("What version of the package curl is installed?", "package"),
    ("Which file in ~/data is the largest?", "largest file"),
    ("find the biggest file in ~/Downloads", "largest file"),
    ("What is the largest file in /var/log?", "largest file"),
    ("Which folders in my home take the most space?", "space"),
    ("How big is the folder ~/projects?", "folder"),
    ("How many bytes is ~/data/big.bin?", "bytes"),
    ("exact size in bytes of /etc/passwd", "bytes"),
    ("How many .log files are in ~/logs?", "how many files"),
    ("count the .txt files in ~/notes", "how many files"),
    ("where is the file called report.pdf?", "by name"),
    ("Locate notes.txt under my home", "by name"),
    ("What are the newest files in ~/Downloads?", "recently"),
    ("Which files in /tmp are older than 7 days?", "not changed"),
    (
        "Create a folder ~/archive and move every .log file from ~/logs into it",
        "move",
    ),
    (
        "Move all the pdf files from ~/Downloads into ~/docs",
        "move",
    ),
    ("Copy ~/todo.txt into ~/backup", "copy"),
    ("make a backup copy of ~/notes.md in ~/old", "copy"),
    ("Rename ~/data/mid.csv to ~/data/table.csv", "rename"),
    (
        "Create a file ~/hello.txt that contains the line Hello, Zeta",
        "line of text",
    ),
    (
        "Count the .log files in ~/logs and write the number into ~/count.txt",
        "into a file",
    ),
    ("Compress the folder ~/photos into an archive", "archive"),
    ("extract ~/dl/src.tar.gz into ~/src", "unpack"),
    ("How many lines in ~/app.log contain ERROR?", "contain"),
    (
        "how many lines containing WARN are in /var/log/syslog",
        "contain",
    ),
    ("Search my notes folder for the word invoice", "mention"),
    ("Which files mention budget in ~/docs?", "mention"),
    (
        "How often does the word error appear in ~/app.log?",
        "appears",
    ),
    (
        "Show me the last 20 lines of /var/log/syslog",
        "last N lines",
    ),
    ("show the first 5 lines of ~/todo.txt", "first N lines"),
    ("How many words are in ~/shop/prices.txt?", "words"),
    ("Replace foo with bar in ~/config.txt", "replace"),
    ("Are there duplicate lines in ~/list.txt?", "repeated"),
    ("Which item in ~/shop/prices.txt is the cheapest?", "lowest"),
    ("what is the most expensive thing in ~/prices.txt", "lowest"),
    (
        "What is the total of the amount column in ~/sales.csv?",
        "total",
    ),
    ("sum the price column of ~/orders.csv", "total"),
    ("How many sales in ~/sales.csv were in Paris?", "rows"),
    (
        "Write the Paris rows of ~/sales.csv (without the header) into ~/paris.csv",
        "rows",
    ),
    ("how many orders per city are in ~/orders.csv", "each value"),
    ("What is 1234 times 5678?", "whole numbers"),
    ("calculate 17 plus 25", "whole numbers"),
    ("What is 15 percent of 80?", "decimals"),
    ("What is 100 divided by 7?", "decimals"),
    (
        "What day of the week is 25 December 2026?",
        "day of the week",
    ),
    ("which weekday was 2000-01-01", "day of the week"),
    (
        "How many days are there from 2026-01-01 to 2026-03-01?",
        "between",
    ),
    ("days between 2025-05-01 and 2025-06-15", "between"),
    (
        "download https://example.com and show its title",
        "web page",
    ),
];

/// Requests no recipe fits: chat, questions about the assistant, and GUI work.
const SHOULD_GET_NONE: &[&str] = &[
    "Hello!",
    "Who are you?",
    "Thanks, that's all",
    "Open Firefox",
    "Click the OK button",
    "Tell me a joke",
    "What can you do?",
    "Take a screenshot",
    "Remind me tomorrow at 9 to call Anna",
    "Remember that my favourite colour is green",
];

#[test]
fn requests_get_the_recipe_of_their_kind() {
    let all = CATALOGUE;
    let mut misses = Vec::new();
    for (request, wanted) in SHOULD_GET {
        let got = matching(request, all);
        if !got.iter().any(|r| r.task.contains(wanted)) {
            misses.push(format!(
                "{request} → {:?} (wanted {wanted})",
                got.iter().map(|r| r.task).collect::<Vec<_>>()
            ));
        }
    }
    let alarms: Vec<_> = SHOULD_GET_NONE
        .iter()
        .filter(|r| !matching(r, all).is_empty())
        .map(|r| {
            format!(
                "{r} → {:?}",
                matching(r, all).iter().map(|x| x.task).collect::<Vec<_>>()
            )
        })
        .collect();
    println!(
        "retrieval: {} of {} requests got their recipe; {} of {} with none to get got one",
        SHOULD_GET.len() - misses.len(),
        SHOULD_GET.len(),
        alarms.len(),
        SHOULD_GET_NONE.len()
    );
    assert!(misses.is_empty(), "misses: {misses:#?}");
    assert!(alarms.is_empty(), "false alarms: {alarms:#?}");
}

#[test]
fn any_text_is_read_without_a_panic() {
    // A small deterministic fuzz: bytes from a linear congruential generator as text.
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    for _ in 0..3000 {
        let len = (x % 80) as usize;
        let text: String = (0..len)
            .map(|_| {
                x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                char::from_u32((x >> 33) as u32 % 0x3000).unwrap_or('s')
            })
            .collect();
        let found = matching(&text, CATALOGUE);
        assert!(found.len() <= MOST);
        x = x.wrapping_add(len as u64 + 1);
    }
    for odd in [
        "",
        "s",
        "ies",
        "ßies",
        "ÇÇs",
        "\u{0}",
        "how many    ",
        "é".repeat(500).as_str(),
    ] {
        let _ = matching(odd, CATALOGUE);
        let _ = stem(odd);
    }
}

//! A file the request names, read where it is not, against families: requests that name
//! it, places guessed for it, readers given it in every way; each read again is run and
//! its output held against the same command on the file the request names. Lines where
//! the request asks for a change, the path is there, is also written, or is not the
//! request's file must be left alone. Misses and false alarms are counted.

use super::find;
use crate::assist::request::Request;
use crate::assist::test_home::{home_of, run, Home};

/// A home with `server.log` (3 WARN lines of 5) and `notes.txt`.
fn home() -> Home {
    home_of(
        &[
            (
                "server.log",
                "09:00 INFO up\n09:01 WARN disk\n09:02 WARN cpu\n09:03 ERROR net\n09:04 WARN fan\n",
            ),
            ("notes.txt", "first\nlast line here\n"),
        ],
        &["other"],
    )
}

#[test]
fn a_named_file_guessed_elsewhere_is_read_where_it_is() {
    let home = home();
    let requests = [
        "how often does WARN appear in my server.log (lines)?",
        "How many lines in server.log contain WARN?",
        "How many lines in ~/server.log contain WARN?",
        "What does the last line of server.log say?",
    ];
    let places = [
        "/var/log/server.log",
        "/var/log/app/server.log",
        "/opt/zeta-nowhere/server.log",
        "/home/user/logs/server.log",
        "/tmp/zeta-nowhere/server.log",
    ];
    let commands = [
        "grep -i WARN {P} | wc -l",
        "grep -c WARN {P}",
        "cat {P} | grep WARN | wc -l",
        "wc -l {P}",
        "tail -n 1 {P}",
        "awk '/WARN/' {P} | wc -l",
        "grep WARN '{P}'",
        "grep WARN \"{P}\" | wc -l",
        "echo \"$(grep -c WARN {P})\"",
        "head -3 {P} && tail -1 {P}",
    ];
    let (mut cases, mut misses, mut wrong) = (0usize, Vec::new(), Vec::new());
    let mine = home.env.home.join("server.log").display().to_string();
    for request in requests {
        let request = Request::parse(request, &home.env);
        for place in places {
            for command in commands {
                cases += 1;
                let line = command.replace("{P}", place);
                let Some(read) = find(&line, &request, &home.env) else {
                    misses.push(format!("{} / {line}", request.text));
                    continue;
                };
                let (run_as, said) = read.read_as();
                assert!(said.starts_with(&format!("Run as `{run_as}`")), "{said}");
                let expected = command.replace("{P}", &mine);
                let (ok, out) = run(&run_as, &home.env.home);
                let (_, truth) = run(&expected, &home.env.home);
                if !ok || out != truth || out.is_empty() {
                    wrong.push(format!("{line} → {run_as} → {out} (truth {truth})"));
                }
            }
        }
    }
    println!(
        "named files: {cases} lines, {} missed, {} run wrongly",
        misses.len(),
        wrong.len()
    );
    assert!(
        misses.is_empty() && wrong.is_empty(),
        "missed: {misses:#?}\nrun wrongly: {wrong:#?}"
    );
}

#[test]
fn paths_that_are_there_written_or_not_the_requests_are_left_alone() {
    let home = home();
    let there = home.env.home.join("other/server.log");
    std::fs::write(&there, "other\n").expect("write");
    let there = there.display().to_string();
    let asks = "How many lines in server.log contain WARN?";
    let cases = [
        // A change asked: a path not there may be one to make.
        (
            "copy my server.log to /backup/server.log",
            "cat /backup/server.log",
        ),
        ("Write the WARN count of server.log into ~/count.txt", "grep -c WARN /var/log/server.log"),
        // The path is there.
        (asks, &*format!("grep -c WARN {there}")),
        // Also written: a redirection, sort's output, a copy.
        (asks, "grep WARN ~/server.log > /tmp/zeta-nowhere/server.log; wc -l /tmp/zeta-nowhere/server.log"),
        (asks, "sort -o /tmp/zeta-nowhere/server.log ~/server.log; grep -c WARN /tmp/zeta-nowhere/server.log"),
        (asks, "cp ~/server.log /tmp/zeta-nowhere/server.log && grep -c WARN /tmp/zeta-nowhere/server.log"),
        // Not the request's file, a relative path, a program that changes files.
        (asks, "grep -c WARN /var/log/syslog"),
        (asks, "grep -c WARN logs/server.log"),
        (asks, "sed -i s/WARN/W/ /var/log/server.log"),
        (asks, "grep -c WARN /var/log/server.log.1"),
        // A request that names no file.
        ("How many WARN lines are in my log?", "grep -c WARN /var/log/server.log"),
    ];
    let alarms: Vec<String> = cases
        .iter()
        .filter_map(|(request, line)| {
            let request = Request::parse(request, &home.env);
            find(line, &request, &home.env).map(|r| format!("{line}: {r:?}"))
        })
        .collect();
    println!(
        "named files left alone: {} lines, {} false alarms",
        cases.len(),
        alarms.len()
    );
    assert!(alarms.is_empty(), "{alarms:#?}");
}

/// Lines cut at every place and joined at random: no panic.
#[test]
fn cut_and_joined_lines_never_panic() {
    let home = home();
    let request = Request::parse("How many lines in server.log contain WARN?", &home.env);
    let whole = "grep -i WARN /var/log/server.log | wc -l > /tmp/x; cat '/opt/server.log'";
    for end in (0..=whole.len()).filter(|e| whole.is_char_boundary(*e)) {
        let _ = find(&whole[..end], &request, &home.env).map(|r| r.read_as());
    }
    let pieces = [
        "grep",
        " WARN",
        " /var/log/server.log",
        " | ",
        "wc -l",
        " > ",
        "'",
        "\"",
        "$(",
        ")",
        ";",
        "cat",
        " -c",
        "é",
        "\n",
        "/server.log",
    ];
    for line in crate::text::random_joins(&pieces, 3000, 8, 17) {
        let _ = find(&line, &request, &home.env).map(|r| r.read_as());
    }
}

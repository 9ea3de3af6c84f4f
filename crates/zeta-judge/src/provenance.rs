//! Untrusted input by provenance, not phrasing. Once a task has read anything the user did
//! not type (a file, a page, an HTTP response, a screenshot, a file's name, command output
//! that relays such text), every later side-effecting call of the task asks, even in
//! `auto` mode, unless the user approved that exact call earlier in the task; only the
//! user's own message clears it. Each tool says whether its output is such input
//! (`Tool::taints`, true unless it knows better).
//!
//! For the shell the default is the same: a command's output marks the task, unless every
//! program in it is on a short list of programs whose output is a fact about the computer
//! (each with the reason it cannot carry someone else's text), and nothing in the line
//! relays text from elsewhere into it: no glob (it expands to names on disk), no command
//! or process substitution (`$(…)`, `` `…` ``, `$(<file)`, `<(…)`), and none of the flags
//! that make such a program read a file (`date -f`, `wc --files0-from`).

use crate::catalogue::{FACTS, READING_FLAGS};

/// Whether `word` is (or starts with, for `--flag=value`) one of `flags`; a short flag
/// also inside a cluster (`-rf`).
fn is_flag(word: &str, flags: &[&str]) -> bool {
    flags.iter().any(|flag| {
        word == *flag
            || flag.starts_with("--") && word.starts_with(&format!("{flag}="))
            || flag.len() == 2
                && !flag.starts_with("--")
                && word.starts_with('-')
                && !word.starts_with("--")
                && word[1..].contains(&flag[1..])
    })
}

/// Whether the line relays text from elsewhere whatever its programs are: a glob (names
/// on disk; a `[` followed by a space is the test command, not a glob), or a command or
/// process substitution. Read on the raw text: a quoted `*` counts too, which only marks
/// more.
fn relays(command: &str) -> bool {
    let bytes = command.as_bytes();
    command.contains("$(")
        || command.contains('`')
        || command.contains("<(")
        || command.contains(">(")
        || command.contains('*')
        || command.contains('?')
        || bytes
            .iter()
            .enumerate()
            .any(|(i, b)| *b == b'[' && bytes.get(i + 1).is_some_and(|n| !n.is_ascii_whitespace()))
}

/// True when the output of `command` is only facts about the computer (see the module
/// doc), so it does not mark the task. An empty or unparseable command marks.
pub fn reports_metadata_only(command: &str) -> bool {
    let Some(seen) = crate::seen(command) else {
        return false;
    };
    let names = &seen.programs;
    if names.is_empty() || relays(command) {
        return false;
    }
    if !names
        .iter()
        .all(|name| FACTS.iter().any(|(fact, _)| fact == name))
    {
        return false;
    }
    // The words as the shell will pass them (`-"f"` is `-f`), and the raw text's too.
    let words: Vec<&str> = command
        .split(|c: char| c.is_whitespace() || ";&|()'\"".contains(c))
        .chain(seen.words.iter().map(String::as_str))
        .filter(|w| !w.is_empty())
        .collect();
    let reads_a_file = READING_FLAGS.iter().any(|(program, flags)| {
        names.iter().any(|n| n == program) && words.iter().any(|w| is_flag(w, flags))
    });
    // du lists every folder below what it was given unless summarising.
    let du_lists = names.iter().any(|n| n == "du")
        && !words
            .iter()
            .any(|w| is_flag(w, &["-s", "--summarize"]) || *w == "--max-depth=0" || *w == "-d0");
    !reads_a_file && !du_lists
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_facts_about_the_computer_are_trusted_output() {
        let trusted = [
            "df -h",
            "free -m && uptime",
            "whoami && id -u",
            "mkdir -p ~/x && touch ~/x/a",
            "du -sh ~/Downloads",
            "du -s ~/Documents ~/Music",
            "wc -l notes.txt",
            "date +%F",
            "uname -a; nproc",
            "echo $HOME",
            "[ -d ~/x ] && echo yes",
            "cd ~/project && pwd",
            "rm -f ~/old.txt",
        ];
        let marked = [
            // Relayed names and contents.
            "ls -la ~/Downloads",
            "ls",
            "du -sh ~/* | sort -h",
            "du -h ~/Documents",
            "echo *",
            "echo ~/Downloads/*.pdf",
            "printf '%s\\n' ~/notes/[a-z]*",
            "wc -l *.txt",
            "wc --files0-from=list.txt",
            "wc -l --files0-from list",
            "date -f dates.txt",
            "date --file=dates.txt",
            "date -r notes.txt",
            "date -\"f\" dates.txt",
            "wc --files0-fr\"om\"=list",
            "printf \"$(<notes.txt)\"",
            "echo $(cat notes.txt)",
            "echo `head -1 notes.txt`",
            "wc -l <(cat x)",
            "stat notes.txt",
            "cat notes.txt",
            "curl -s http://127.0.0.1:8000/page",
            "ls $(cat list.txt)",
            "tail -20 /var/log/syslog",
            "grep -r password ~",
            "sudo ls",
            "python3 -c 'print(open(\"x\").read())'",
            "ls; head README.md",
            "readlink link",
            "find . -name x",
            "",
            "   ",
        ];
        let alarms: Vec<&str> = trusted
            .iter()
            .copied()
            .filter(|c| !reports_metadata_only(c))
            .collect();
        let misses: Vec<&str> = marked
            .iter()
            .copied()
            .filter(|c| reports_metadata_only(c))
            .collect();
        assert!(
            alarms.is_empty(),
            "facts taken for relayed text: {alarms:?}"
        );
        assert!(
            misses.is_empty(),
            "relayed text taken for facts: {misses:?}"
        );
    }

    #[test]
    fn every_fact_says_why() {
        for (program, why) in FACTS {
            assert!(why.len() > 3, "{program} needs a reason");
        }
    }
}

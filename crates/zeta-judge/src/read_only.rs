//! Commands that only read: every program in them (nested ones included) is on a short
//! list of programs that change nothing with the arguments people give them, no output is
//! redirected into a file, and no flag that turns a reader into a writer is present
//! (`find -delete`, `-exec`, `date -s`…). Such a shell call never asks for approval
//! (issue: "every read-only command asks"); anything else, an unknown program included,
//! is a change. What cannot be known statically still asks a person through the judge.

use crate::catalogue::{READERS, WRITING_FLAGS};
use crate::AWKS;

/// True when `command` only reads (see the module doc). Empty or unparseable: false.
pub fn reads_only(command: &str) -> bool {
    crate::seen(command).is_some_and(|seen| reads_with(&seen, command, &[]))
}

/// The same for a line already walked (`seen`), counting the session's clients as
/// readers (for a command the judge found only asks the session for information:
/// `session`).
pub fn reads_only_or_session(seen: &crate::Seen, command: &str) -> bool {
    reads_with(seen, command, crate::catalogue::SESSION_CLIENTS)
}

fn reads_with(seen: &crate::Seen, command: &str, also: &[&str]) -> bool {
    // The words as the shell will pass them (`-"delete"` is `-delete`), and the raw
    // text's too.
    let raw = command.split(|c: char| c.is_whitespace() || ";&|()`'\"".contains(c));
    let mut words = seen.words.iter().map(String::as_str).chain(raw);
    // `sort -o FILE`, `sort -nro FILE`, `sort --output=FILE`.
    let sort_writes = |w: &str| {
        w.starts_with("--o") || (w.starts_with('-') && !w.starts_with("--") && w.contains('o'))
    };
    let writing = |w: &str| {
        WRITING_FLAGS
            .iter()
            .any(|f| w == *f || f.starts_with("--") && w.starts_with(&format!("{f}=")))
    };
    let names = &seen.programs;
    let sorts = names.iter().any(|n| n == "sort");
    !names.is_empty()
        && !seen.writes
        && names.iter().all(|n| {
            READERS.contains(&n.as_str())
                || AWKS.contains(&n.as_str())
                || also.contains(&n.as_str())
        })
        && !words.any(|w| writing(w) || (sorts && sort_writes(w)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readers_read_and_everything_else_is_a_change() {
        let reading = [
            "df -h",
            "ls -la ~/Downloads",
            "du -sh ~/* | sort -h",
            "cat notes.txt",
            "tail -20 /var/log/syslog",
            "grep -rn TODO ~/project | head -50",
            "find /var/log -name '*.log' -type f -printf '%s %p\\n' | tail -1",
            "ps aux | grep firefox",
            "free -m && uptime",
            "wc -l $(ls *.txt)",
            "cd ~/project && ls",
            "echo $HOME",
            "stat -c %s big.iso > /dev/null",
            "awk -F, 'NR>1 {s += $3} END {print s}' ~/sales.csv",
            "grep Gadget ~/shop/prices.txt | awk '{print $2}'",
            "awk -F, -v v='Paris' 'NR>1 && $1 == v' ~/sales.csv | wc -l",
            "awk '$3 > 10 {print $1}' data.txt | sort -n | head -5",
            "awk '$2 == \"Gadget\" {print $1}' ~/shop/prices.txt",
            "awk -F: '/Gadget/ {print \"price:\", $2}' prices.txt",
        ];
        let changing = [
            "touch x",
            "rm -f notes.txt",
            "cat a > b",
            "echo hi >> ~/.bashrc",
            "ls > listing.txt",
            "find ~ -name '*.pyc' -delete",
            "find . -exec rm {} +",
            "find . -fprint out.txt",
            "sort -o out.txt in.txt",
            "sort -nro out.txt in.txt",
            "du -s * | sort --output=x",
            "uniq in.txt out.txt",
            "date -s '2020-01-01'",
            "hostname evil",
            "ls && rm x",
            "cat $(touch y)",
            "grep x <(curl -s http://x)",
            "echo 'rm -rf ~' | sh",
            "sudo cat /etc/shadow",
            "env ls",
            "xargs cat < list",
            "sed -i s/a/b/ f",
            "tee out.txt < in.txt",
            "git status",
            "python3 -c 'print(1)'",
            "awk '{print > \"out.txt\"}' in.txt",
            "awk 'BEGIN {system(\"rm x\")}'",
            "awk '{print | \"sh\"}' cmds.txt",
            "awk -i inplace '{print}' f",
            "awk -f prog.awk data",
            "awk \"$PROG\" data",
            "awk '{print}' in > out",
            "find . -\"delete\"",
            "find . -type f -ex\"ec\" rm {} +",
            "find . -fprin't' out",
            "sort --compress-program=sh -S 1 cmds.txt",
            "sort --compress-program sh cmds.txt",
            "sort -o\"\"out.txt in.txt",
            "D=-delete; find . $D",
            "$CMD",
            "",
        ];
        let misses: Vec<&str> = reading.iter().copied().filter(|c| !reads_only(c)).collect();
        let alarms: Vec<&str> = changing.iter().copied().filter(|c| reads_only(c)).collect();
        assert!(
            misses.is_empty(),
            "reading commands that would ask: {misses:?}"
        );
        assert!(alarms.is_empty(), "changes taken for reads: {alarms:?}");
    }

    #[test]
    fn no_catastrophic_command_reads_only() {
        use crate::corpus::{CATASTROPHIC, HARMLESS};
        let mut alarms = Vec::new();
        for (family, commands) in CATASTROPHIC {
            alarms.extend(
                commands
                    .iter()
                    .filter(|c| reads_only(c))
                    .map(|c| format!("[{family}] {c}")),
            );
        }
        let reads = HARMLESS.iter().filter(|c| reads_only(c)).count();
        println!(
            "read-only: 0 of the catastrophic corpus may be, {reads} of {} harmless commands are",
            HARMLESS.len()
        );
        assert!(alarms.is_empty(), "{alarms:#?}");
    }
}

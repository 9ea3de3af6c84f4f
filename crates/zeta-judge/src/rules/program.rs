//! One simple command judged: its program found (through wrappers: `sudo`, `env`,
//! `xargs`, `find -exec`…), the table's and the special rules applied, what it writes
//! noted, and the scripts it hands to a shell or an interpreter walked in turn.

use super::special::SPECIAL;
use super::{apply_rules, ask, base, block, classes, is_option, operands, strip_key};
use crate::awk;
use crate::catalogue::{DECODERS, DOWNLOADERS, SHELLS, WRITES_ALL, WRITES_LAST};
use crate::interp;
use crate::targets::Class;
use crate::walk::{Stdin, Walker};
use crate::words::{normalize, Word};
use crate::Verdict;
use Class::*;

/// Judges one simple command; returns what its output is for the next pipeline stage.
pub fn judge_command(walker: &mut Walker, argv: &[Word], stdin: Stdin) -> Stdin {
    let Some(first) = argv.first() else {
        return Stdin::Unknown;
    };
    let Some(names) = first.values.clone() else {
        if walker.findings.collect_only {
            // A program only known when it runs: no list of known programs names it.
            walker.seen.programs.push("?".to_string());
        }
        walker.ask(
            "program-unknown",
            format!(
                "the program it runs is computed when it runs (`{}`), so Zeta cannot check it",
                first.text
            ),
        );
        return Stdin::Unknown;
    };
    let mut out = Stdin::Unknown;
    for name in names {
        out = judge_program(walker, &name, &argv[1..], stdin.clone());
    }
    out
}

fn judge_program(walker: &mut Walker, path: &str, args: &[Word], stdin: Stdin) -> Stdin {
    let program = base(path);
    if walker.findings.collect_only {
        walker.seen.programs.push(program.clone());
        for w in args {
            match &w.values {
                Some(values) => walker.seen.words.extend(values.iter().cloned()),
                None => walker.seen.words.push(w.text.clone()),
            }
        }
    }
    if let Some(cwd) = walker.cwd.clone() {
        if path.contains('/') && walker.downloaded.contains(&normalize(path, &cwd)) {
            walker.find(block(
                "run-just-downloaded",
                format!("running {path}, which was just downloaded"),
            ));
        }
    }
    if walker.functions.contains(&program.to_string()) && walker.piped_or_background {
        walker.find(block(
            "fork-bomb-function",
            format!("the function {program} starts copies of itself"),
        ));
    }
    if walker.loops > 0
        && walker.piped_or_background
        && (SHELLS.contains(&program.as_str()) || path == "$0")
    {
        walker.find(block(
            "fork-bomb-loop",
            "a loop that starts shells in the background",
        ));
    }
    if let Some(out) = wrapper(walker, &program, args, stdin.clone()) {
        return out;
    }
    if program == "cd" || program == "pushd" {
        change_dir(walker, args);
        return Stdin::None;
    }
    if interp::is_interpreter(&program) {
        interp::run(walker, &program, args, stdin);
        return Stdin::Unknown;
    }
    if crate::catalogue::AWKS.contains(&program.as_str()) {
        awk::judge(walker, &program, args);
    }
    apply_rules(walker, &program, args);
    note_writes(walker, &program, args);
    for (programs, check) in SPECIAL {
        if programs.contains(&program.as_str()) {
            if let Some(v) = check(walker, &program, args) {
                walker.find(v);
            }
        }
    }
    if DOWNLOADERS.contains(&program.as_str()) {
        walker.downloads_seen += 1;
        note_download_files(walker, &program, args);
        return Stdin::Download;
    }
    output_of(&program, args, stdin)
}

/// Notes the paths `program` writes that are known now (see `Walker::write_targets`).
fn note_writes(walker: &mut Walker, program: &str, args: &[Word]) {
    let ops = operands(args);
    let written: Vec<Word> = if WRITES_ALL.contains(&program) {
        // chmod/chown: the first operand is the mode or owner.
        let skip = usize::from(matches!(program, "chmod" | "chown" | "chgrp"));
        ops.into_iter().skip(skip).cloned().collect()
    } else if program == "dd" {
        args.iter()
            .filter(|w| w.single().is_some_and(|a| a.starts_with("of=")))
            .map(|w| strip_key(w, "of="))
            .collect()
    } else if WRITES_LAST.contains(&program) {
        ops.last().map(|w| (*w).clone()).into_iter().collect()
    } else {
        Vec::new()
    };
    for w in &written {
        walker.note_writes(w);
    }
}

/// Writing into `target` (a redirection, `tee`, a copy): judged by its class.
pub fn write_to(walker: &Walker, target: &Word, append: bool, how: &str) -> Verdict {
    let Some(found) = classes(walker, target) else {
        return ask(
            "write-target-unknown",
            format!(
                "{how} into `{}`, which is only known when it runs",
                target.text
            ),
        );
    };
    let mut v = Verdict::Allow;
    for (value, class) in found {
        let next = match class {
            BlockDevice => block(
                "write-disk-device",
                format!("{how} onto the disk device {value}"),
            ),
            Account => block("write-account-file", format!("{how} into {value}")),
            Sysrq => block(
                "write-sysrq",
                format!("{how} into {value}, which reboots or powers off"),
            ),
            Cron => block("write-crontab", format!("{how} into {value}")),
            Startup if append => ask(
                "append-startup",
                format!("{how} into {value}, a shell startup file that runs at every login"),
            ),
            Startup => block(
                "overwrite-startup",
                format!("{how} over {value}, a shell startup file"),
            ),
            _ => Verdict::Allow,
        };
        v = v.and(next);
    }
    v
}

fn change_dir(walker: &mut Walker, args: &[Word]) {
    let target = operands(args).first().map(|w| w.single().map(String::from));
    walker.cwd = match (target, walker.cwd.clone()) {
        (None, _) => Some(walker.env.home.clone()),
        (Some(Some(dir)), Some(cwd)) if dir != "-" => Some(normalize(&dir, &cwd)),
        _ => None,
    };
}

/// What a command's output is, for a shell reading it.
fn output_of(program: &str, args: &[Word], stdin: Stdin) -> Stdin {
    let values: Option<Vec<&str>> = args.iter().map(|w| w.single()).collect();
    match program {
        "echo" | "printf" => match values {
            Some(vs) => {
                let escapes = program == "printf"
                    && vs.iter().any(|v| v.contains('\\') || v.contains("%b"))
                    || program == "echo"
                        && vs.iter().any(|v| {
                            v.starts_with("-e") || v.starts_with("-ne") || v.starts_with("-en")
                        });
                if escapes {
                    Stdin::Decoded
                } else {
                    let words: Vec<&str> = vs.into_iter().filter(|v| !v.starts_with('-')).collect();
                    Stdin::Text(words.join(" "))
                }
            }
            None => Stdin::Decoded,
        },
        "cat" if args.is_empty() => stdin,
        p if DECODERS.contains(&p) => Stdin::Decoded,
        _ => match stdin {
            Stdin::Download => Stdin::Download,
            Stdin::Decoded => Stdin::Decoded,
            _ => Stdin::Unknown,
        },
    }
}

/// Files a download writes (`curl -o F`, `curl -O URL`, `wget -O F`, `wget URL`).
fn note_download_files(walker: &mut Walker, program: &str, args: &[Word]) {
    let Some(cwd) = walker.cwd.clone() else {
        return;
    };
    let values: Vec<Option<&str>> = args.iter().map(|w| w.single()).collect();
    let mut named = Vec::new();
    for (i, v) in values.iter().enumerate() {
        let Some(v) = v else { continue };
        let next = values.get(i + 1).copied().flatten();
        match *v {
            "-o" | "--output" | "-O" | "--output-document" if program != "curl" || *v != "-O" => {
                if let Some(n) = next {
                    named.push(n.to_string());
                }
            }
            _ if v.starts_with("--output-document=") || v.starts_with("--output=") => {
                named.push(v.split_once('=').map(|x| x.1).unwrap_or("").to_string());
            }
            _ => {}
        }
    }
    let remote_name = (program == "wget" && named.is_empty())
        || (program == "curl"
            && values
                .iter()
                .any(|v| matches!(v, Some("-O" | "--remote-name"))));
    if remote_name {
        for v in values.iter().flatten() {
            if v.starts_with("http://") || v.starts_with("https://") || v.starts_with("ftp://") {
                named.push(base(v.trim_end_matches('/')));
            }
        }
    }
    for n in named {
        walker.downloaded.push(normalize(&n, &cwd));
    }
}

/// Commands that run another command: the inner one is judged in their place.
fn wrapper(walker: &mut Walker, program: &str, args: &[Word], stdin: Stdin) -> Option<Stdin> {
    let values: Vec<Option<&str>> = args.iter().map(|w| w.single()).collect();
    // Index of the first argument that is not an option, skipping options with values.
    let after_options = |with_value: &[&str]| -> usize {
        let mut i = 0;
        while let Some(Some(a)) = values.get(i) {
            if a == &"--" {
                return i + 1;
            }
            if !is_option(a) {
                break;
            }
            i += if with_value.contains(a) { 2 } else { 1 };
        }
        i
    };
    let inner = |from: usize| args.get(from..).unwrap_or(&[]).to_vec();
    match program {
        "sudo" => {
            let at = after_options(&[
                "-u", "-g", "-h", "-p", "-C", "-D", "-U", "-r", "-t", "-T", "--user", "--group",
                "--host", "--prompt", "--chdir",
            ]);
            if let Some(at_word) = args.get(at) {
                let _ = at_word;
                return Some(judge_command(walker, &inner(at), stdin));
            }
            Some(Stdin::Unknown)
        }
        "doas" | "run0" => {
            let at = after_options(&["-u", "-C", "--user"]);
            Some(judge_command(walker, &inner(at), stdin))
        }
        "pkexec" => {
            let at = after_options(&["--user"]);
            Some(judge_command(walker, &inner(at), stdin))
        }
        "su" | "runuser" => {
            if let Some(i) = values
                .iter()
                .position(|v| matches!(v, Some("-c" | "--command")))
            {
                run_script(walker, args.get(i + 1), &[]);
            } else if let Some(i) = values
                .iter()
                .position(|v| v.is_some_and(|v| v.starts_with("--command=")))
            {
                let w = args[i].clone();
                run_script(walker, Some(&strip_key(&w, "--command=")), &[]);
            } else if let Some(i) = values.iter().position(|v| *v == Some("--")) {
                judge_command(walker, &inner(i + 1), stdin);
            }
            Some(Stdin::Unknown)
        }
        "env" => {
            let mut i = 0;
            while let Some(v) = values.get(i) {
                match v {
                    Some("-u" | "--unset" | "-C" | "--chdir" | "-S" | "--split-string") => i += 2,
                    Some(a) if is_option(a) || a.contains('=') => i += 1,
                    None => break,
                    _ => break,
                }
            }
            if args.get(i).is_none() {
                return Some(Stdin::Unknown);
            }
            Some(judge_command(walker, &inner(i), stdin))
        }
        "nice" | "ionice" | "nohup" | "setsid" | "time" | "stdbuf" | "unbuffer" | "chrt"
        | "taskset" | "builtin" | "exec" | "command" | "catchsegv" | "strace" | "ltrace"
        | "firejail" | "torsocks" | "proxychains" | "caffeinate" => {
            // Detached: it outlives the task, outside the call's process group.
            if matches!(program, "nohup" | "setsid") {
                walker.ask(
                    "detached",
                    format!(
                        "`{program}` leaves the command running after this task, outside its \
                     process group, where Zeta cannot end it"
                    ),
                );
            }
            if program == "command" && values.iter().any(|v| matches!(v, Some("-v" | "-V"))) {
                return Some(Stdin::Unknown);
            }
            let mut at = after_options(&[
                "-n",
                "-c",
                "-t",
                "-i",
                "-o",
                "-e",
                "-a",
                "-p",
                "--adjustment",
                "--class",
                "--classdata",
            ]);
            // chrt PRIORITY, taskset MASK: one more operand before the command.
            if matches!(program, "chrt" | "taskset") {
                at += 1;
            }
            if args.get(at).is_none() {
                return Some(Stdin::Unknown);
            }
            Some(judge_command(walker, &inner(at), stdin))
        }
        "timeout" => {
            let at = after_options(&["-s", "-k", "--signal", "--kill-after"]) + 1;
            Some(judge_command(walker, &inner(at), stdin))
        }
        "flock" => {
            let at = after_options(&["-w", "-E", "--timeout", "--conflict-exit-code"]) + 1;
            if values.get(at) == Some(&Some("-c")) {
                run_script(walker, args.get(at + 1), &[]);
                return Some(Stdin::Unknown);
            }
            Some(judge_command(walker, &inner(at), stdin))
        }
        "busybox" | "toybox" => Some(judge_command(walker, &inner(0), stdin)),
        "xargs" => {
            let at = after_options(&[
                "-n",
                "-L",
                "-I",
                "-d",
                "-a",
                "-P",
                "-s",
                "-E",
                "-e",
                "--max-args",
                "--max-lines",
                "--delimiter",
                "--arg-file",
                "--max-procs",
                "--replace",
            ]);
            let mut argv = inner(at);
            if argv.is_empty() {
                argv.push(Word::literal("echo"));
            }
            // The arguments it adds come from its input.
            argv.push(Word::unknown("(arguments read from the input)"));
            Some(judge_command(walker, &argv, Stdin::None))
        }
        "watch" => {
            let at = after_options(&["-n", "-d", "--interval", "--differences"]);
            let script: Vec<&str> = values[at.min(values.len())..]
                .iter()
                .map(|v| v.unwrap_or("?"))
                .collect();
            let joined = Word::literal(&script.join(" "));
            run_script(walker, Some(&joined), &[]);
            Some(Stdin::Unknown)
        }
        "eval" => {
            let all: Option<Vec<&str>> = values.iter().copied().collect();
            match all {
                Some(words) => {
                    let joined = Word::literal(&words.join(" "));
                    run_script(walker, Some(&joined), &[]);
                }
                None if args.iter().any(|w| w.fetched) => {
                    walker.find(block("eval-download", "eval of a download"))
                }
                None => walker.ask(
                    "eval-unknown",
                    "eval of text that is only known when it runs",
                ),
            }
            Some(Stdin::Unknown)
        }
        "source" | "." => {
            run_file(walker, args.first(), program);
            Some(Stdin::Unknown)
        }
        p if SHELLS.contains(&p) => {
            shell(walker, p, args, stdin);
            Some(Stdin::Unknown)
        }
        _ => None,
    }
}

/// A shell: `-c SCRIPT [NAME ARGS…]`, a script file, or commands from its input.
fn shell(walker: &mut Walker, program: &str, args: &[Word], stdin: Stdin) {
    let values: Vec<Option<&str>> = args.iter().map(|w| w.single()).collect();
    let c = values.iter().position(|v| {
        v.is_some_and(|a| {
            a == "-c" || (a.starts_with('-') && !a.starts_with("--") && a.contains('c'))
        })
    });
    if let Some(i) = c {
        let positional: Vec<Word> = args.get(i + 2..).unwrap_or(&[]).to_vec();
        run_script(walker, args.get(i + 1), &positional);
        return;
    }
    let file = values
        .iter()
        .position(|v| v.is_none_or(|a| !is_option(a)))
        .and_then(|i| args.get(i));
    let reads_stdin = file.is_none() || values.iter().any(|v| matches!(v, Some("-s" | "-")));
    if let Some(file) = file.filter(|_| !reads_stdin) {
        run_file(walker, Some(file), program);
        return;
    }
    from_stdin(walker, program, stdin, |w, text| w.nested(text, &[]));
}

/// What a shell or interpreter does with what it reads from its input.
pub fn from_stdin(
    walker: &mut Walker,
    program: &str,
    stdin: Stdin,
    script: impl FnOnce(&mut Walker, &str),
) {
    match stdin {
        Stdin::Text(text) => script(walker, &text),
        Stdin::Download => walker.find(block(
            "pipe-download-to-shell",
            format!("piping a download straight into {program}"),
        )),
        Stdin::Decoded => walker.ask(
            "shell-runs-decoded",
            format!("{program} would run a payload decoded or built when it runs"),
        ),
        Stdin::Unknown => walker.ask(
            "shell-runs-output",
            format!("{program} would run commands read from another command's output"),
        ),
        Stdin::None => {}
    }
}

fn run_script(walker: &mut Walker, script: Option<&Word>, positional: &[Word]) {
    let Some(script) = script else { return };
    match script.values.as_deref() {
        Some(values) => {
            for v in values {
                walker.nested(v, positional);
            }
        }
        None if script.fetched => walker.find(block(
            "shell-runs-download",
            "running a script fetched from the network",
        )),
        None => walker.ask(
            "script-unknown",
            format!(
                "runs a script that is only known when it runs (`{}`)",
                script.text
            ),
        ),
    }
}

fn run_file(walker: &mut Walker, file: Option<&Word>, program: &str) {
    let Some(file) = file else { return };
    if file.fetched {
        walker.find(block(
            "shell-runs-downloaded-file",
            format!("{program} running a script fetched from the network"),
        ));
        return;
    }
    if let (Some(v), Some(cwd)) = (file.single(), walker.cwd.clone()) {
        if walker.downloaded.contains(&normalize(v, &cwd)) {
            walker.find(block(
                "run-just-downloaded-file",
                format!("{program} running {v}, which was just downloaded"),
            ));
        }
    }
}

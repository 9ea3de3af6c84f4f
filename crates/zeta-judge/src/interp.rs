//! One-liners and programs in other languages (`python -c`, `perl -e`, `node -e`,
//! `ruby -e`, `php -r`, and `run_code`'s programs): the shell commands in their string
//! literals are judged as shell commands, and their own calls are looked for: recursive
//! deletion of the home or the root, writes to block devices and account or startup
//! files, fork loops, killing every process, and code that runs what it decoded or
//! downloaded.

use crate::catalogue::INTERPRETERS;
use crate::rules::{block, from_stdin};
use crate::walk::{Stdin, Walker};
use crate::words::Word;

pub fn is_interpreter(program: &str) -> bool {
    INTERPRETERS.contains(&program)
        || program.starts_with("python3.")
        || program.starts_with("python2.")
}

/// An interpreter's command line: code given with `-c`/`-e`/`-r`/`--eval`, a file, or
/// code read from its input.
pub fn run(walker: &mut Walker, program: &str, args: &[Word], stdin: Stdin) {
    let values: Vec<Option<&str>> = args.iter().map(|w| w.single()).collect();
    let code_flag = values.iter().position(|v| {
        matches!(
            v,
            Some(
                "-c" | "-e"
                    | "-E"
                    | "-r"
                    | "--eval"
                    | "-p"
                    | "--print"
                    | "-pe"
                    | "-ne"
                    | "-le"
                    | "-lne"
            )
        )
    });
    if let Some(i) = code_flag {
        if let Some(code) = args.get(i + 1) {
            match code.values.as_deref() {
                Some(codes) => {
                    for c in codes {
                        judge_code(walker, c);
                    }
                }
                None if code.fetched => walker.find(block(
                    "interp-runs-download",
                    format!("{program} running code fetched from the network"),
                )),
                None => walker.ask(
                    "interp-code-unknown",
                    format!("{program} runs code that is only known when it runs"),
                ),
            }
        }
        return;
    }
    let file = args
        .iter()
        .find(|w| w.single().is_none_or(|a| !a.starts_with('-')));
    match file {
        Some(f) if f.fetched => walker.find(block(
            "interp-runs-fetched-file",
            format!("{program} running a program fetched from the network"),
        )),
        Some(f) if f.single() == Some("-") => from_stdin(walker, program, stdin, judge_code),
        // A file a download wrote earlier in the line.
        Some(f) => {
            if let (Some(v), Some(cwd)) = (f.single(), walker.cwd.clone()) {
                if walker
                    .downloaded
                    .contains(&crate::words::normalize(v, &cwd))
                {
                    walker.find(block(
                        "interp-runs-just-downloaded",
                        format!("{program} running {v}, which was just downloaded"),
                    ));
                }
            }
        }
        None => from_stdin(walker, program, stdin, judge_code),
    }
}

/// Judges a program's text in any of the interpreted languages.
pub fn judge_code(walker: &mut Walker, code: &str) {
    let lower = code.to_lowercase();
    let has = |needles: &[&str]| needles.iter().any(|n| lower.contains(n));
    // Shell commands in string literals (os.system, subprocess, exec, backquotes).
    walker.lenient += 1;
    for literal in string_literals(code) {
        walker.nested(&literal, &[]);
    }
    walker.lenient -= 1;
    let home = walker.env.home.display().to_string().to_lowercase();
    let home_or_root = has(&[
        "expanduser(\"~\")",
        "expanduser('~')",
        "path.home()",
        "environ[\"home\"]",
        "environ['home']",
        "getenv(\"home\")",
        "getenv('home')",
        "environ.get(\"home\")",
        "environ.get('home')",
        "homedir()",
        "env.home",
        "$env{home}",
        "$env{'home'}",
        "env[\"home\"]",
        "env['home']",
        "dir.home",
        "\"~\"",
        "'~'",
        "\"~/\"",
        "'~/'",
        "\"/\"",
        "'/'",
        "\"/etc\"",
        "'/etc'",
        "\"/usr\"",
        "'/usr'",
        "\"/home\"",
        "'/home'",
        "\"/boot\"",
        "'/boot'",
        "\"/var\"",
        "'/var'",
    ]) || (!home.is_empty()
        && (lower.contains(&format!("\"{home}\"")) || lower.contains(&format!("'{home}'"))));
    let recursive_delete = has(&[
        "rmtree",
        "remove_tree",
        "rm_rf",
        "rm_r(",
        "rmsync",
        "rmdirsync",
        "fs.rm(",
        "fs.rmdir(",
        "rimraf",
        "fileutils.rm",
        "file::path",
        "removeall",
        "deltree",
        "remove_dir_all",
    ]);
    if recursive_delete && home_or_root {
        walker.find(block(
            "interp-deletes-critical",
            "a program deleting the home folder or a system folder",
        ));
    }
    let disk = [
        "/dev/sd",
        "/dev/nvme",
        "/dev/vd",
        "/dev/hd",
        "/dev/xvd",
        "/dev/mmcblk",
        "/dev/dm-",
        "/dev/md",
        "/dev/mapper/",
        "/dev/disk/",
        "/dev/loop",
    ];
    let writes = has(&[
        "'w",
        "\"w",
        "'r+",
        "\"r+",
        "'a",
        "\"a",
        "o_wronly",
        "o_rdwr",
        "write",
        ">",
        "truncate",
        "writefile",
        "openw",
    ]);
    if disk.iter().any(|d| lower.contains(d)) && writes {
        walker.find(block(
            "interp-writes-disk",
            "a program writing onto a disk device",
        ));
    }
    if has(&[
        "/etc/passwd",
        "/etc/shadow",
        "/etc/sudoers",
        "/etc/group",
        "/proc/sysrq-trigger",
        "/var/spool/cron",
    ]) && writes
    {
        walker.find(block(
            "interp-writes-account",
            "a program writing an account file, the crontab or the sysrq trigger",
        ));
    }
    let startup = has(&[
        ".bashrc",
        ".bash_profile",
        ".profile",
        ".zshrc",
        ".zprofile",
        "authorized_keys",
        "/autostart/",
    ]);
    if startup
        && has(&[
            "'w",
            "\"w",
            "writefile",
            "write_text",
            "truncate",
            "o_trunc",
        ])
    {
        walker.find(block(
            "interp-overwrites-startup",
            "a program overwriting a shell startup file",
        ));
    } else if startup && writes {
        walker.ask(
            "interp-appends-startup",
            "a program writing into a shell startup file, which runs at every login",
        );
    }
    let forks = has(&[
        "fork(",
        "fork;",
        "fork while",
        "fork until",
        "fork for",
        "fork ",
        "child_process.fork",
        "pcntl_fork",
        "process.fork",
        "spawn(process.argv",
    ]);
    let loops = has(&[
        "while",
        "for ",
        "for(",
        "loop",
        "until",
        "setinterval",
        "1 while",
        "repeat",
    ]);
    if forks && loops {
        walker.find(block("interp-fork-bomb", "a program forking in a loop"));
    }
    if has(&[
        "kill(-1",
        "kill( -1",
        "kill -1",
        "killpg(0",
        "process.kill(-1",
        "kill('kill', -1",
        "kill(\"kill\", -1",
        "kill 9, -1",
        "kill 'kill', -1",
        "kill -9, -1",
    ]) {
        walker.find(block("interp-kills-all", "a program killing every process"));
    }
    let runs_code = has(&[
        "exec(",
        "eval(",
        "eval ",
        "compile(",
        "new function(",
        "function(",
        "instance_eval",
        "system(",
        "popen(",
    ]);
    if runs_code
        && has(&[
            "urlopen",
            "requests.get",
            "urllib",
            "fetch(",
            "http.get",
            "https.get",
            "lwp::",
            "net::http",
            "open-uri",
            "file_get_contents(\"http",
            "file_get_contents('http",
            "curl_exec",
        ])
    {
        walker.find(block(
            "interp-downloads-and-runs",
            "a program running code it downloads",
        ));
    } else if runs_code
        && has(&[
            "b64decode",
            "base64",
            "decode_base64",
            "unhexlify",
            "fromcharcode",
            "buffer.from",
            "pack(\"h",
            "pack('h",
            "codecs.decode",
            "bytes.fromhex",
            "zlib.decompress",
            "marshal.loads",
            "rot13",
            "[::-1]",
        ])
    {
        walker.ask(
            "interp-runs-decoded",
            "a program running code it decodes when it runs",
        );
    }
}

/// String literals in a program (single-, double- and back-quoted), escapes kept simple.
pub fn string_literals(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = code.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '"' && c != '\'' && c != '`' {
            continue;
        }
        let mut s = String::new();
        let mut closed = false;
        while let Some(d) = chars.next() {
            if d == '\\' {
                if let Some(e) = chars.next() {
                    s.push(match e {
                        'n' => '\n',
                        't' => '\t',
                        other => other,
                    });
                }
                continue;
            }
            if d == c {
                closed = true;
                break;
            }
            s.push(d);
        }
        if closed && !s.trim().is_empty() {
            out.push(s);
        }
        if out.len() > 256 {
            break;
        }
    }
    out
}

//! The rules that need more than a pattern of the table: a kill's target process, a
//! chmod that only tightens, a find that narrows what it deletes, a git clean's folder,
//! a crontab replaced, tar onto a disk, a move into /dev/null, work handed to another
//! process, power calls over D-Bus, and the desktop session's clients.

use super::program::judge_command;
use super::{ask, block, classes, has_flag, operands};
use crate::catalogue::HANDS_WORK;
use crate::session::SessionUse;
use crate::targets::{classify, Class};
use crate::walk::{Stdin, Walker};
use crate::words::Word;
use crate::Verdict;
use Class::*;

/// Special checks that need more than a pattern, by program.
type Special = fn(&mut Walker, &str, &[Word]) -> Option<Verdict>;
pub const SPECIAL: &[(&[&str], Special)] = &[
    (&["kill"], kill_all),
    (&["pkill", "killall"], kill_everything),
    (&["chmod"], chmod_tree),
    (&["find"], find_delete),
    (&["git"], git_clean),
    (&["crontab"], crontab_replace),
    (&["tar"], tar_onto),
    (&["mv"], move_into_null),
    (&["sort"], sort_runs_program),
    (
        &["systemctl", "dbus-send", "qdbus", "gdbus", "busctl"],
        bus_power,
    ),
    (HANDS_WORK, hands_work),
    (crate::catalogue::SESSION_CLIENTS, session_client),
];

/// A program that talks to the person's desktop session (`policy::session`): asking it
/// for information runs with the session; anything else needs a person.
fn session_client(walker: &mut Walker, program: &str, args: &[Word]) -> Option<Verdict> {
    let texts: Vec<&str> = args.iter().map(|w| w.text.as_str()).collect();
    let used = crate::session::session_use(program, &texts)?;
    walker.seen.session = Some(match (walker.seen.session, used) {
        (Some(SessionUse::Acts), _) | (_, SessionUse::Acts) => SessionUse::Acts,
        _ => SessionUse::Reads,
    });
    (used == SessionUse::Acts).then(|| {
        ask(
            "session-act",
            format!(
                "`{program}` acts in your desktop session (the display, the session bus or a \
             terminal server), which commands Zeta runs on its own cannot reach; approving \
             lets this command reach it"
            ),
        )
    })
}

/// `kill` whose target is process -1 (every process the user may signal). `kill -1 PID`
/// sends SIGHUP to one process and is fine.
fn kill_all(_walker: &mut Walker, _program: &str, args: &[Word]) -> Option<Verdict> {
    let values: Vec<&str> = args.iter().map(|w| w.single().unwrap_or("?")).collect();
    let mut i = 0;
    let mut signal_given = false;
    while i < values.len() {
        let a = values[i];
        if a == "--" {
            return values[i + 1..]
                .contains(&"-1")
                .then(|| block("kill-all", "kill -1 ends every process you own"));
        }
        if a == "-s" || a == "-n" || a == "--signal" {
            signal_given = true;
            i += 2;
            continue;
        }
        if a == "-1" && signal_given {
            return Some(block(
                "kill-all-signal",
                "kill -1 ends every process you own",
            ));
        }
        if a.starts_with('-') && !signal_given && a != "-l" && a != "-L" {
            signal_given = true;
            i += 1;
            continue;
        }
        i += 1;
    }
    None
}

/// `pkill`/`killall` with a pattern that matches every process.
fn kill_everything(_walker: &mut Walker, _program: &str, args: &[Word]) -> Option<Verdict> {
    let ops = operands(args);
    ops.iter()
        .filter_map(|w| w.single())
        .any(|p| matches!(p, "." | ".*" | "" | ".+" | "^" | "$" | "[a-z]*" | "*"))
        .then(|| block("pkill-everything", "a pattern that matches every process"))
}

/// Recursive `chmod` on the home or a system folder, unless it only takes rights away
/// from the group and others (`chmod -R go-rwx ~`).
fn chmod_tree(walker: &mut Walker, _program: &str, args: &[Word]) -> Option<Verdict> {
    let ops = operands(args);
    let (mode, paths) = ops.split_first()?;
    let mode = mode.single()?;
    let tightening = mode.split(',').all(|m| {
        let (who, rest) = m.split_at(m.find(['-', '+', '=']).unwrap_or(m.len()));
        !who.is_empty() && who.chars().all(|c| c == 'g' || c == 'o') && rest.starts_with('-')
    });
    let recursive = has_flag(args, &["R", "recursive"]);
    for path in paths {
        let Some(found) = classes(walker, path) else {
            return recursive.then(|| {
                ask(
                    "chmod-recursive-unknown",
                    format!(
                        "chmod -R on `{}`, which is only known when it runs",
                        path.text
                    ),
                )
            });
        };
        for (value, class) in found {
            let critical = matches!(class, Critical | CriticalContents);
            if critical && value.trim_end_matches('/').is_empty()
                || (critical && recursive && !tightening)
                || (class == Critical && locks_owner_out(mode))
            {
                return Some(block("chmod-critical", format!("chmod {mode} on {value}")));
            }
            if matches!(class, Account) && !tightening {
                return Some(block("chmod-account", format!("chmod {mode} on {value}")));
            }
        }
    }
    None
}

/// Whether `mode` takes reading or entering a folder away from its owner (`000`, `600`,
/// `u-x`, `a-r`, `u=w`): done to the home or a system folder, everything in it is lost
/// to the user.
fn locks_owner_out(mode: &str) -> bool {
    if mode.chars().all(|c| c.is_ascii_digit()) {
        let digits: Vec<u32> = mode.chars().filter_map(|c| c.to_digit(8)).collect();
        return digits.len() >= 3 && digits[digits.len() - 3] & 0o5 != 0o5;
    }
    mode.split(',').any(|clause| {
        let at = clause.find(['-', '+', '=']).unwrap_or(clause.len());
        let (who, rest) = clause.split_at(at);
        let owner = who.is_empty() || who.contains('u') || who.contains('a');
        match rest.chars().next() {
            Some('-') => owner && (rest.contains('r') || rest.contains('x')),
            Some('=') => owner && !(rest.contains('r') && rest.contains('x')),
            _ => false,
        }
    })
}

/// `find ROOT … -delete` or `-exec rm …` under the home or a system folder with nothing
/// narrowing what it matches; the command after `-exec` is judged too.
fn find_delete(walker: &mut Walker, _program: &str, args: &[Word]) -> Option<Verdict> {
    const NARROWING: &[&str] = &[
        "-name",
        "-iname",
        "-path",
        "-ipath",
        "-regex",
        "-iregex",
        "-wholename",
        "-iwholename",
        "-newer",
        "-mtime",
        "-mmin",
        "-atime",
        "-amin",
        "-ctime",
        "-cmin",
        "-size",
        "-empty",
        "-user",
        "-group",
        "-perm",
        "-inum",
        "-samefile",
        "-links",
        "-lname",
        "-ilname",
    ];
    let values: Vec<&str> = args.iter().map(|w| w.single().unwrap_or("?")).collect();
    let first_expr = values
        .iter()
        .position(|v| v.starts_with('-') || *v == "(" || *v == "!")
        .unwrap_or(values.len());
    let roots = &args[..first_expr];
    let narrowed = values.iter().any(|v| NARROWING.contains(v));
    let root_critical = roots.is_empty()
        && walker
            .cwd
            .as_ref()
            .is_some_and(|c| classify(&c.display().to_string(), walker.env, c) == Critical)
        || roots.iter().any(|r| {
            classes(walker, r).is_some_and(|cs| {
                cs.iter()
                    .any(|(_, c)| matches!(c, Critical | Keys | MainFolder))
            })
        });
    let deletes = values.contains(&"-delete");
    if deletes && root_critical && !narrowed {
        return Some(block(
            "find-delete-critical",
            "find deleting everything under the home, a system folder, your keys or a main folder",
        ));
    }
    // -exec / -execdir / -ok: the command up to `;` or `+`, with `{}` a found path.
    let mut i = 0;
    while i < values.len() {
        if matches!(values[i], "-exec" | "-execdir" | "-ok" | "-okdir") {
            let end = values[i + 1..]
                .iter()
                .position(|v| *v == ";" || *v == "+" || *v == "\\;")
                .map_or(values.len(), |e| i + 1 + e);
            let root = roots.first().cloned().unwrap_or_else(|| Word::literal("."));
            let found = if narrowed {
                // Some of what is under the root: not the root itself.
                root.concat(&Word::literal("/match"))
            } else {
                root
            };
            let inner: Vec<Word> = args[i + 1..end]
                .iter()
                .map(|w| {
                    if w.single() == Some("{}") {
                        found.clone()
                    } else {
                        w.clone()
                    }
                })
                .collect();
            judge_command(walker, &inner, Stdin::None);
            i = end;
        }
        i += 1;
    }
    None
}

/// `git clean -fdx` (or `-fd`, `-fx`) where the working tree is the home or a system folder.
fn git_clean(walker: &mut Walker, _program: &str, args: &[Word]) -> Option<Verdict> {
    let values: Vec<&str> = args.iter().map(|w| w.single().unwrap_or("?")).collect();
    let mut dir = walker.cwd.clone().map(|c| c.display().to_string());
    let mut i = 0;
    while i < values.len() {
        match values[i] {
            "-C" => {
                dir = values.get(i + 1).map(|d| d.to_string());
                i += 2;
            }
            v if v.starts_with("--work-tree=") || v.starts_with("--git-dir=") => {
                dir = v.split_once('=').map(|x| x.1.to_string());
                i += 1;
            }
            _ => break,
        }
    }
    if values.get(i) != Some(&"clean") {
        return None;
    }
    let rest = &args[i + 1..];
    let force = has_flag(rest, &["f", "force"]);
    let wide = has_flag(rest, &["x", "d", "X"]);
    let dry = has_flag(rest, &["n", "dry-run"]);
    if !force || !wide || dry {
        return None;
    }
    let Some(dir) = dir.filter(|d| d != "?") else {
        return Some(ask(
            "git-clean-unknown",
            "git clean in a folder that is only known when it runs",
        ));
    };
    let cwd = walker
        .cwd
        .clone()
        .unwrap_or_else(|| walker.env.home.clone());
    (classify(&dir, walker.env, &cwd) == Critical).then(|| {
        block(
            "git-clean-critical",
            format!("git clean deleting every untracked file in {dir}"),
        )
    })
}

/// `crontab FILE` or `crontab -` replaces the whole crontab: emptying it is blocked, any
/// other replacement asks.
fn crontab_replace(_walker: &mut Walker, _program: &str, args: &[Word]) -> Option<Verdict> {
    let values: Vec<&str> = args.iter().map(|w| w.single().unwrap_or("?")).collect();
    if values
        .iter()
        .any(|v| matches!(*v, "-l" | "-e" | "-r" | "--list" | "-i"))
    {
        return None;
    }
    let file = values.iter().find(|v| !v.starts_with('-') || **v == "-")?;
    if *file == "/dev/null" {
        return Some(block("crontab-empty", "emptying the crontab"));
    }
    Some(ask("crontab-replace", "this replaces the whole crontab"))
}

/// `tar` writing its archive onto a disk (`tar cf /dev/sdb …`), or extracting over `/`.
fn tar_onto(walker: &mut Walker, _program: &str, args: &[Word]) -> Option<Verdict> {
    let values: Vec<&str> = args.iter().map(|w| w.single().unwrap_or("?")).collect();
    let mut file = None;
    let mut extract_to_root = false;
    for (i, v) in values.iter().enumerate() {
        if v.starts_with("--file=") {
            file = Some(v.trim_start_matches("--file=").to_string());
        } else if *v == "-f"
            || *v == "--file"
            || (i == 0 && !v.starts_with("--") && v.trim_start_matches('-').ends_with('f'))
        {
            file = values.get(i + 1).map(|f| f.to_string());
        }
        if (*v == "-C" || *v == "--directory") && values.get(i + 1) == Some(&"/") {
            extract_to_root = true;
        }
    }
    let cwd = walker.cwd.clone()?;
    if let Some(f) = file {
        if classify(&f, walker.env, &cwd) == BlockDevice {
            return Some(block(
                "tar-onto-disk",
                format!("tar writing onto the disk device {f}"),
            ));
        }
    }
    extract_to_root.then(|| ask("tar-over-root", "tar extracting over the root folder"))
}

/// `mv X /dev/null` destroys X (and breaks /dev/null).
fn move_into_null(_walker: &mut Walker, _program: &str, args: &[Word]) -> Option<Verdict> {
    let ops = operands(args);
    (ops.len() >= 2 && ops.last().and_then(|w| w.single()) == Some("/dev/null"))
        .then(|| block("move-into-null", "moving files into /dev/null"))
}

/// Power and session calls over D-Bus (`dbus-send … PowerOff`, `qdbus … logout`).
/// A command handed to another process: what it asks that process to do cannot be
/// judged or confined here, so only a person may approve it. Asking for information
/// (`tmux ls`, `crontab -l`, `busctl list`, `xdotool search`) is not handing work.
fn hands_work(_walker: &mut Walker, program: &str, args: &[Word]) -> Option<Verdict> {
    let texts: Vec<&str> = args.iter().map(|w| w.text.as_str()).collect();
    let has = |names: &[&str]| texts.iter().any(|t| names.contains(t));
    let handed = match program {
        "tmux" => has(&[
            "send-keys",
            "send",
            "run-shell",
            "run",
            "new-window",
            "neww",
            "new-session",
            "new",
            "split-window",
            "splitw",
            "respawn-pane",
            "respawnp",
            "respawn-window",
            "respawnw",
            "pipe-pane",
            "pipep",
            "if-shell",
            "if",
            "source-file",
            "source",
            "command-prompt",
            "display-popup",
            "popup",
        ]),
        "screen" => has(&["-X"]),
        "xdotool" => has(&["type", "key", "keydown", "keyup"]),
        "busctl" => has(&["call", "set-property"]),
        "gdbus" => has(&["call", "emit"]),
        "qdbus" => operands(args).len() >= 3,
        // `-l` lists, `-e` opens an editor for the person; a file or `-` replaces it.
        "crontab" => !texts.iter().all(|t| {
            matches!(*t, "-l" | "-e" | "-u") || !t.starts_with('-') && texts.contains(&"-u")
        }),
        // systemd-run, dbus-send, at, batch, ssh: every use hands work.
        _ => true,
    };
    handed.then(|| {
        ask(
            "hands-work",
            format!(
                "`{program}` hands a command to another process (a terminal server, another \
             window, the service manager, the scheduler or another machine) that runs it \
             outside Zeta's confinement and after this task"
            ),
        )
    })
}

fn bus_power(_walker: &mut Walker, _program: &str, args: &[Word]) -> Option<Verdict> {
    let text: Vec<String> = args.iter().map(|w| w.text.to_lowercase()).collect();
    let joined = text.join(" ");
    [
        "poweroff",
        "reboot",
        "logout",
        "terminatesession",
        "terminateuser",
        "halt",
        "kexec",
    ]
    .iter()
    .any(|k| joined.contains(k))
    .then(|| {
        block(
            "bus-power",
            "a D-Bus call that powers off, restarts or logs out",
        )
    })
}

/// `sort --compress-program=PROG` runs PROG on the data it sorts: a file's lines fed to
/// `sh` run as commands. Read on the words the shell will pass (`--compress-prog"ram"`).
fn sort_runs_program(_walker: &mut Walker, _program: &str, args: &[Word]) -> Option<Verdict> {
    // GNU sort takes any unambiguous prefix: `--comp` is `--compress-program`.
    let mut words = args.iter().flat_map(|w| match &w.values {
        Some(values) => values.clone(),
        None => vec![w.text.clone()],
    });
    words.any(|w| w.starts_with("--comp")).then(|| {
        ask(
            "sort-runs-program",
            "sort --compress-program runs a program on the data it sorts",
        )
    })
}

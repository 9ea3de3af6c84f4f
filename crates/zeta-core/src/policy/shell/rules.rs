//! The rules: which commands never run (block) and which only a person may approve (ask),
//! written as data: program, argument pattern, target class → action. A few rules need
//! more than a pattern (a kill's target process, a chmod that only tightens, a find that
//! narrows what it deletes, the wrappers that run another command); each of those is a
//! named function listed beside the table.

use super::awk;
use super::interp;
use super::targets::{classify, Class};
use super::walk::{Stdin, Walker};
use super::words::{normalize, Word};
use super::{Blocked, Verdict};
use crate::policy::session::SessionUse;

/// What a matching rule does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Block,
    Ask,
}

/// When a rule applies, by the command's arguments.
#[derive(Debug, Clone, Copy)]
pub enum When {
    Always,
    /// Any of these flags: a single letter matches in a short cluster (`-rf`), a longer
    /// name matches `--name`.
    AnyFlag(&'static [&'static str]),
    /// None of these flags (e.g. a listing option).
    NoFlag(&'static [&'static str]),
    /// The first operand is one of these (a subcommand).
    Sub(&'static [&'static str]),
}

/// Which arguments are the targets a rule judges.
#[derive(Debug, Clone, Copy)]
pub enum Targets {
    /// The command itself is the harm (power off, mass kill).
    None,
    /// Every operand (arguments that are not options).
    Operands,
    /// The last operand (a copy's destination).
    Last,
    /// Every operand but the last (what a move takes away).
    AllButLast,
    /// The value of `key=` (dd's `of=`).
    Value(&'static str),
}

pub struct Rule {
    pub name: &'static str,
    pub programs: &'static [&'static str],
    pub when: When,
    pub targets: Targets,
    /// The target classes that trigger it (ignored for `Targets::None`).
    pub classes: &'static [Class],
    pub action: Action,
    pub reason: &'static str,
}

use Class::*;

const TREES: &[Class] = &[Critical, CriticalContents];
const MKFS: &[&str] = &[
    "mkfs",
    "mkfs.ext2",
    "mkfs.ext3",
    "mkfs.ext4",
    "mkfs.xfs",
    "mkfs.btrfs",
    "mkfs.vfat",
    "mkfs.fat",
    "mkfs.ntfs",
    "mkfs.exfat",
    "mkfs.f2fs",
    "mke2fs",
    "mkswap",
    "mkntfs",
    "mkdosfs",
    "wipefs",
    "blkdiscard",
];

/// The table. The first rule that matches with a target in its classes decides; an
/// operand that cannot be known asks when some rule for the program could have matched.
pub const RULES: &[Rule] = &[
    Rule {
        name: "wipe",
        programs: &["rm"],
        when: When::AnyFlag(&["r", "R", "recursive"]),
        targets: Targets::Operands,
        classes: TREES,
        action: Action::Block,
        reason: "recursive removal of the home folder, the root or a system folder",
    },
    Rule {
        name: "wipe",
        programs: &["rm", "unlink"],
        when: When::Always,
        targets: Targets::Operands,
        classes: &[CriticalContents, Account, Cron],
        action: Action::Block,
        reason: "deleting everything in the home or a system folder, or an account file",
    },
    Rule {
        name: "wipe keys",
        programs: &["rm", "unlink"],
        when: When::Always,
        targets: Targets::Operands,
        classes: &[Keys],
        action: Action::Block,
        reason: "deleting your SSH or GPG keys, your passwords or your keyrings",
    },
    Rule {
        name: "wipe folder",
        programs: &["rm"],
        when: When::AnyFlag(&["r", "R", "recursive"]),
        targets: Targets::Operands,
        classes: &[MainFolder],
        action: Action::Block,
        reason: "recursive removal of one of your main folders (Documents, Desktop, Pictures, Music, Videos) or everything in it",
    },
    Rule {
        name: "startup file",
        programs: &["rm", "unlink"],
        when: When::Always,
        targets: Targets::Operands,
        classes: &[Startup],
        action: Action::Ask,
        reason: "deleting a shell startup file",
    },
    Rule {
        name: "wipe",
        programs: &["rm"],
        when: When::AnyFlag(&["no-preserve-root"]),
        targets: Targets::None,
        classes: &[],
        action: Action::Block,
        reason: "rm --no-preserve-root",
    },
    Rule {
        name: "wipe",
        programs: &["shred", "srm", "wipe", "scrub"],
        when: When::Always,
        targets: Targets::Operands,
        classes: &[
            Critical,
            CriticalContents,
            BlockDevice,
            Account,
            Startup,
            Cron,
            Keys,
            MainFolder,
        ],
        action: Action::Block,
        reason: "overwriting a disk, a system or home folder, or an account or startup file",
    },
    Rule {
        name: "empty file",
        programs: &["truncate"],
        when: When::Always,
        targets: Targets::Operands,
        classes: &[
            BlockDevice,
            Account,
            Startup,
            Cron,
            Critical,
            CriticalContents,
            Keys,
            MainFolder,
        ],
        action: Action::Block,
        reason: "emptying a disk, an account file, a startup file, the crontab, your keys, or \
                 everything in the home or a main folder",
    },
    Rule {
        name: "make file system",
        programs: MKFS,
        when: When::Always,
        targets: Targets::Operands,
        classes: &[BlockDevice],
        action: Action::Block,
        reason: "erasing the file system on a disk",
    },
    Rule {
        name: "partition table",
        programs: &["fdisk", "sfdisk", "parted", "gdisk", "sgdisk", "cfdisk"],
        when: When::NoFlag(&["l", "list", "print"]),
        targets: Targets::Operands,
        classes: &[BlockDevice],
        action: Action::Block,
        reason: "rewriting a disk's partition table",
    },
    Rule {
        name: "write to disk",
        programs: &["dd"],
        when: When::Always,
        targets: Targets::Value("of="),
        classes: &[BlockDevice, Account, Startup, Cron, Sysrq],
        action: Action::Block,
        reason: "dd onto a disk or a system file",
    },
    Rule {
        name: "write to disk",
        programs: &["cp", "install", "ln", "rsync", "pv"],
        when: When::Always,
        targets: Targets::Last,
        classes: &[BlockDevice, Account, Startup, Cron, Sysrq],
        action: Action::Block,
        reason: "copying onto a disk, an account file, a startup file or the crontab",
    },
    Rule {
        name: "wipe",
        programs: &["mv"],
        when: When::Always,
        targets: Targets::AllButLast,
        classes: TREES,
        action: Action::Block,
        reason: "moving the home folder, the root or a system folder away",
    },
    Rule {
        name: "write to disk",
        programs: &["mv"],
        when: When::Always,
        targets: Targets::Last,
        classes: &[BlockDevice, Account, Startup, Cron],
        action: Action::Block,
        reason: "moving a file onto a disk, an account file, a startup file or the crontab",
    },
    Rule {
        name: "write to disk",
        programs: &["tee"],
        when: When::Always,
        targets: Targets::Operands,
        classes: &[BlockDevice, Account, Cron, Sysrq],
        action: Action::Block,
        reason: "writing onto a disk, an account file or the crontab",
    },
    Rule {
        name: "startup file",
        programs: &["tee"],
        when: When::NoFlag(&["a", "append"]),
        targets: Targets::Operands,
        classes: &[Startup],
        action: Action::Block,
        reason: "overwriting a shell startup file",
    },
    Rule {
        name: "startup file",
        programs: &["tee"],
        when: When::AnyFlag(&["a", "append"]),
        targets: Targets::Operands,
        classes: &[Startup],
        action: Action::Ask,
        reason: "appending to a shell startup file, which runs at every login",
    },
    Rule {
        name: "system file",
        programs: &["sed", "perl"],
        when: When::AnyFlag(&["i", "in-place"]),
        targets: Targets::Operands,
        classes: &[Account, Cron],
        action: Action::Block,
        reason: "editing an account file or the crontab in place",
    },
    Rule {
        name: "startup file",
        programs: &["sed"],
        when: When::AnyFlag(&["i", "in-place"]),
        targets: Targets::Operands,
        classes: &[Startup],
        action: Action::Ask,
        reason: "editing a shell startup file in place",
    },
    Rule {
        name: "permissions",
        programs: &["chown", "chgrp"],
        when: When::AnyFlag(&["R", "recursive"]),
        targets: Targets::Operands,
        classes: TREES,
        action: Action::Block,
        reason: "recursively changing the owner of the home folder or a system folder",
    },
    Rule {
        name: "wipe",
        programs: &["rsync"],
        when: When::AnyFlag(&[
            "delete",
            "delete-before",
            "delete-during",
            "delete-after",
            "delete-delay",
            "delete-excluded",
            "del",
        ]),
        targets: Targets::Last,
        classes: TREES,
        action: Action::Block,
        reason: "rsync --delete onto the home folder or a system folder",
    },
    Rule {
        name: "power",
        programs: &["shutdown", "poweroff", "reboot", "halt", "kexec"],
        when: When::Always,
        targets: Targets::None,
        classes: &[],
        action: Action::Block,
        reason: "powering off or restarting the computer",
    },
    Rule {
        name: "power",
        programs: &["systemctl"],
        when: When::Sub(&[
            "poweroff",
            "reboot",
            "halt",
            "kexec",
            "soft-reboot",
            "emergency",
            "rescue",
            "isolate",
            "default",
        ]),
        targets: Targets::None,
        classes: &[],
        action: Action::Block,
        reason: "powering off, restarting or changing the system's state",
    },
    Rule {
        name: "power",
        programs: &["systemctl"],
        when: When::Sub(&[
            "suspend",
            "hibernate",
            "hybrid-sleep",
            "suspend-then-hibernate",
        ]),
        targets: Targets::None,
        classes: &[],
        action: Action::Ask,
        reason: "suspending the computer",
    },
    Rule {
        name: "power",
        programs: &["init", "telinit"],
        when: When::Sub(&["0", "1", "6", "s", "S"]),
        targets: Targets::None,
        classes: &[],
        action: Action::Block,
        reason: "changing the run level (power off, restart, single user)",
    },
    Rule {
        name: "log out",
        programs: &["loginctl"],
        when: When::Sub(&[
            "terminate-user",
            "terminate-session",
            "kill-user",
            "kill-session",
            "poweroff",
            "reboot",
            "suspend",
            "lock-sessions",
        ]),
        targets: Targets::None,
        classes: &[],
        action: Action::Block,
        reason: "ending the user's sessions or powering off",
    },
    Rule {
        name: "log out",
        programs: &[
            "gnome-session-quit",
            "xfce4-session-logout",
            "lxsession-logout",
            "lxqt-leave",
            "cinnamon-session-quit",
            "mate-session-save",
            "openbox",
            "xdotool-logout",
        ],
        when: When::Always,
        targets: Targets::None,
        classes: &[],
        action: Action::Block,
        reason: "logging the user out",
    },
    Rule {
        name: "mass kill",
        programs: &["killall5"],
        when: When::Always,
        targets: Targets::None,
        classes: &[],
        action: Action::Block,
        reason: "killing every process",
    },
    Rule {
        name: "mass kill",
        programs: &["pkill", "killall", "pgrep"],
        when: When::AnyFlag(&["u", "U", "user", "euid", "uid"]),
        targets: Targets::None,
        classes: &[],
        action: Action::Block,
        reason: "killing all of a user's processes",
    },
    Rule {
        name: "crontab",
        programs: &["crontab"],
        when: When::AnyFlag(&["r", "remove"]),
        targets: Targets::None,
        classes: &[],
        action: Action::Block,
        reason: "deleting every scheduled job",
    },
    Rule {
        name: "account",
        programs: &["userdel", "deluser", "passwd", "chpasswd", "usermod"],
        when: When::Always,
        targets: Targets::None,
        classes: &[],
        action: Action::Ask,
        reason: "changing a user account",
    },
];

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
    (
        &["systemctl", "dbus-send", "qdbus", "gdbus", "busctl"],
        bus_power,
    ),
    (HANDS_WORK, hands_work),
    (crate::policy::session::SESSION_CLIENTS, session_client),
];

/// A program that talks to the person's desktop session (`policy::session`): asking it
/// for information runs with the session; anything else needs a person.
fn session_client(walker: &mut Walker, program: &str, args: &[Word]) -> Option<Verdict> {
    let texts: Vec<&str> = args.iter().map(|w| w.text.as_str()).collect();
    let used = crate::policy::session::session_use(program, &texts)?;
    walker.session = Some(match (walker.session, used) {
        (Some(SessionUse::Acts), _) | (_, SessionUse::Acts) => SessionUse::Acts,
        _ => SessionUse::Reads,
    });
    (used == SessionUse::Acts).then(|| {
        Verdict::Ask(format!(
            "`{program}` acts in your desktop session (the display, the session bus or a \
             terminal server), which commands Zeta runs on its own cannot reach; approving \
             lets this command reach it"
        ))
    })
}

/// Programs that can hand a command to a process started outside Zeta's confinement (a
/// terminal multiplexer's server, another window, the service manager, the scheduler,
/// another machine) (`hands_work`); `nohup` and `setsid`, which leave one running after
/// the task, are read as wrappers and ask there.
const HANDS_WORK: &[&str] = &[
    "tmux",
    "screen",
    "xdotool",
    "systemd-run",
    "busctl",
    "gdbus",
    "dbus-send",
    "qdbus",
    "at",
    "batch",
    "ssh",
    "crontab",
];

pub const SHELLS: &[&str] = &[
    "sh", "bash", "zsh", "dash", "ksh", "mksh", "fish", "ash", "csh", "tcsh", "yash",
];
pub const DOWNLOADERS: &[&str] = &[
    "curl",
    "wget",
    "fetch",
    "aria2c",
    "http",
    "https",
    "xh",
    "lwp-request",
    "GET",
];
const DECODERS: &[&str] = &[
    "base64", "base32", "basenc", "xxd", "openssl", "uudecode", "gunzip", "zcat", "rev", "gzip",
    "xz", "bzip2", "zstd",
];

pub fn base(word: &str) -> String {
    word.rsplit('/').next().unwrap_or(word).to_string()
}

fn is_option(a: &str) -> bool {
    a.starts_with('-') && a.len() > 1
}

/// Whether `args` carry a flag: a letter inside a short cluster, or `--name`.
pub fn has_flag(args: &[Word], names: &[&str]) -> bool {
    args.iter().filter_map(|w| w.single()).any(|a| {
        names.iter().any(|n| {
            if n.len() == 1 {
                a.starts_with('-') && !a.starts_with("--") && a[1..].contains(n)
            } else {
                a == format!("--{n}") || a.starts_with(&format!("--{n}="))
            }
        })
    })
}

fn operands(args: &[Word]) -> Vec<&Word> {
    args.iter()
        .filter(|w| w.single().is_none_or(|a| !is_option(a)))
        .collect()
}

pub fn block(rule: &'static str, reason: impl Into<String>) -> Verdict {
    Verdict::Block(Blocked {
        rule,
        reason: reason.into(),
    })
}

/// The class of each value of `w` (None when it cannot be known).
fn classes(walker: &Walker, w: &Word) -> Option<Vec<(String, Class)>> {
    let cwd = walker.cwd.clone()?;
    let values = w.values.as_ref()?;
    Some(
        values
            .iter()
            .map(|v| (v.clone(), classify(v, walker.env, &cwd)))
            .collect(),
    )
}

/// Judges one simple command; returns what its output is for the next pipeline stage.
pub fn judge_command(walker: &mut Walker, argv: &[Word], stdin: Stdin) -> Stdin {
    let Some(first) = argv.first() else {
        return Stdin::Unknown;
    };
    let Some(names) = first.values.clone() else {
        if walker.collect_programs {
            // A program only known when it runs: no list of known programs names it.
            walker.programs.push("?".to_string());
        }
        walker.ask(format!(
            "the program it runs is computed when it runs (`{}`), so Zeta cannot check it",
            first.text
        ));
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
    if walker.collect_programs {
        walker.programs.push(program.clone());
    }
    if let Some(cwd) = walker.cwd.clone() {
        if path.contains('/') && walker.downloaded.contains(&normalize(path, &cwd)) {
            walker.find(block(
                "download then run",
                format!("running {path}, which was just downloaded"),
            ));
        }
    }
    if walker.functions.contains(&program.to_string()) && walker.piped_or_background {
        walker.find(block(
            "fork bomb",
            format!("the function {program} starts copies of itself"),
        ));
    }
    if walker.loops > 0
        && walker.piped_or_background
        && (SHELLS.contains(&program.as_str()) || path == "$0")
    {
        walker.find(block(
            "fork bomb",
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
    if awk::AWKS.contains(&program.as_str()) {
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

fn apply_rules(walker: &mut Walker, program: &str, args: &[Word]) {
    for rule in RULES.iter().filter(|r| r.programs.contains(&program)) {
        let applies = match rule.when {
            When::Always => true,
            When::AnyFlag(flags) => has_flag(args, flags),
            When::NoFlag(flags) => !has_flag(args, flags),
            When::Sub(subs) => operands(args)
                .first()
                .and_then(|w| w.single())
                .is_some_and(|s| subs.contains(&s)),
        };
        if !applies {
            continue;
        }
        let ops = operands(args);
        let targets: Vec<&Word> = match rule.targets {
            Targets::None => {
                walker.find(verdict(rule, rule.reason.to_string()));
                continue;
            }
            Targets::Operands => ops,
            Targets::Last => ops.last().copied().into_iter().collect(),
            Targets::AllButLast => ops[..ops.len().saturating_sub(1)].to_vec(),
            Targets::Value(key) => args
                .iter()
                .filter(|w| {
                    w.text.starts_with(key) || w.single().is_some_and(|s| s.starts_with(key))
                })
                .collect(),
        };
        for target in targets {
            let target = match rule.targets {
                Targets::Value(key) => strip_key(target, key),
                _ => target.clone(),
            };
            match classes(walker, &target) {
                Some(found) => {
                    if let Some((value, _)) = found.iter().find(|(_, c)| rule.classes.contains(c)) {
                        walker.find(verdict(rule, format!("{}: {value}", rule.reason)));
                    }
                }
                // A target only known when it runs asks where the rule guards a whole
                // tree or a device; one file at a time (`xargs rm -f`) does not.
                None if rule.classes.contains(&Critical) || rule.classes.contains(&BlockDevice) => {
                    walker.ask(format!(
                        "`{program}` acts on `{}`, which is only known when it runs",
                        target.text
                    ))
                }
                None => {}
            }
        }
    }
}

/// Programs whose operands it writes: all of them, or only the last (the destination).
const WRITES_ALL: &[&str] = &[
    "touch", "mkdir", "rm", "rmdir", "unlink", "shred", "truncate", "tee", "chmod", "chown",
    "chgrp", "mkfifo", "mknod",
];
const WRITES_LAST: &[&str] = &["cp", "mv", "install", "ln", "rsync", "dd"];

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

fn strip_key(w: &Word, key: &str) -> Word {
    let values = w.values.as_ref().map(|vs| {
        vs.iter()
            .map(|v| v.strip_prefix(key).unwrap_or(v).to_string())
            .collect()
    });
    Word {
        values,
        text: w.text.clone(),
        fetched: w.fetched,
    }
}

fn verdict(rule: &Rule, reason: String) -> Verdict {
    match rule.action {
        Action::Block => block(rule.name, reason),
        Action::Ask => Verdict::Ask(reason),
    }
}

/// Writing into `target` (a redirection, `tee`, a copy): judged by its class.
pub fn write_to(walker: &Walker, target: &Word, append: bool, how: &str) -> Verdict {
    let Some(found) = classes(walker, target) else {
        return Verdict::Ask(format!(
            "{how} into `{}`, which is only known when it runs",
            target.text
        ));
    };
    let mut v = Verdict::Allow;
    for (value, class) in found {
        let next = match class {
            BlockDevice => block(
                "write to disk",
                format!("{how} onto the disk device {value}"),
            ),
            Account => block("account file", format!("{how} into {value}")),
            Sysrq => block(
                "power",
                format!("{how} into {value}, which reboots or powers off"),
            ),
            Cron => block("crontab", format!("{how} into {value}")),
            Startup if append => Verdict::Ask(format!(
                "{how} into {value}, a shell startup file that runs at every login"
            )),
            Startup => block(
                "startup file",
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
                walker.ask(format!(
                    "`{program}` leaves the command running after this task, outside its \
                     process group, where Zeta cannot end it"
                ));
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
                    walker.find(block("download into shell", "eval of a download"))
                }
                None => walker.ask("eval of text that is only known when it runs"),
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
            "download into shell",
            format!("piping a download straight into {program}"),
        )),
        Stdin::Decoded => walker.ask(format!(
            "{program} would run a payload decoded or built when it runs"
        )),
        Stdin::Unknown => walker.ask(format!(
            "{program} would run commands read from another command's output"
        )),
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
            "download into shell",
            "running a script fetched from the network",
        )),
        None => walker.ask(format!(
            "runs a script that is only known when it runs (`{}`)",
            script.text
        )),
    }
}

fn run_file(walker: &mut Walker, file: Option<&Word>, program: &str) {
    let Some(file) = file else { return };
    if file.fetched {
        walker.find(block(
            "download into shell",
            format!("{program} running a script fetched from the network"),
        ));
        return;
    }
    if let (Some(v), Some(cwd)) = (file.single(), walker.cwd.clone()) {
        if walker.downloaded.contains(&normalize(v, &cwd)) {
            walker.find(block(
                "download then run",
                format!("{program} running {v}, which was just downloaded"),
            ));
        }
    }
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
                .then(|| block("mass kill", "kill -1 ends every process you own"));
        }
        if a == "-s" || a == "-n" || a == "--signal" {
            signal_given = true;
            i += 2;
            continue;
        }
        if a == "-1" && signal_given {
            return Some(block("mass kill", "kill -1 ends every process you own"));
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
        .then(|| block("mass kill", "a pattern that matches every process"))
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
                Verdict::Ask(format!(
                    "chmod -R on `{}`, which is only known when it runs",
                    path.text
                ))
            });
        };
        for (value, class) in found {
            let critical = matches!(class, Critical | CriticalContents);
            if critical && value.trim_end_matches('/').is_empty()
                || (critical && recursive && !tightening)
                || (class == Critical && locks_owner_out(mode))
            {
                return Some(block("permissions", format!("chmod {mode} on {value}")));
            }
            if matches!(class, Account) && !tightening {
                return Some(block("account file", format!("chmod {mode} on {value}")));
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
            "wipe",
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
        return Some(Verdict::Ask(
            "git clean in a folder that is only known when it runs".into(),
        ));
    };
    let cwd = walker
        .cwd
        .clone()
        .unwrap_or_else(|| walker.env.home.clone());
    (classify(&dir, walker.env, &cwd) == Critical).then(|| {
        block(
            "wipe",
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
        return Some(block("crontab", "emptying the crontab"));
    }
    Some(Verdict::Ask("this replaces the whole crontab".into()))
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
                "write to disk",
                format!("tar writing onto the disk device {f}"),
            ));
        }
    }
    extract_to_root.then(|| Verdict::Ask("tar extracting over the root folder".into()))
}

/// `mv X /dev/null` destroys X (and breaks /dev/null).
fn move_into_null(_walker: &mut Walker, _program: &str, args: &[Word]) -> Option<Verdict> {
    let ops = operands(args);
    (ops.len() >= 2 && ops.last().and_then(|w| w.single()) == Some("/dev/null"))
        .then(|| block("wipe", "moving files into /dev/null"))
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
        Verdict::Ask(format!(
            "`{program}` hands a command to another process (a terminal server, another \
             window, the service manager, the scheduler or another machine) that runs it \
             outside Zeta's confinement and after this task"
        ))
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
            "power",
            "a D-Bus call that powers off, restarts or logs out",
        )
    })
}

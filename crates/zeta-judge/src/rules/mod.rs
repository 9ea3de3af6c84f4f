//! The rules: which commands never run (block) and which only a person may approve (ask),
//! written as data: program, argument pattern, target class → action. A few rules need
//! more than a pattern (a kill's target process, a chmod that only tightens, a find that
//! narrows what it deletes, the wrappers that run another command); each of those is a
//! named function (`special.rs`); how a command is taken apart, its wrappers and the
//! scripts it runs are `program.rs`. Every rule has a unique id, with the commands it
//! must and must not decide in `cases.rs`.

mod program;
mod special;

pub use program::{from_stdin, judge_command, write_to};

use crate::catalogue::MKFS;
use crate::targets::{classify, Class};
use crate::walk::Walker;
use crate::words::Word;
use crate::{Finding, Verdict};

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
    /// Unique among all the judge's rules; a refusal names it (`cases.rs` holds the
    /// commands each must and must not match).
    pub id: &'static str,
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
/// The table. The first rule that matches with a target in its classes decides; an
/// operand that cannot be known asks when some rule for the program could have matched.
pub const RULES: &[Rule] = &[
    Rule {
        id: "rm-recursive-critical",
        programs: &["rm"],
        when: When::AnyFlag(&["r", "R", "recursive"]),
        targets: Targets::Operands,
        classes: TREES,
        action: Action::Block,
        reason: "recursive removal of the home folder, the root or a system folder",
    },
    Rule {
        id: "rm-critical-contents",
        programs: &["rm", "unlink"],
        when: When::Always,
        targets: Targets::Operands,
        classes: &[CriticalContents, Account, Cron],
        action: Action::Block,
        reason: "deleting everything in the home or a system folder, or an account file",
    },
    Rule {
        id: "rm-keys",
        programs: &["rm", "unlink"],
        when: When::Always,
        targets: Targets::Operands,
        classes: &[Keys],
        action: Action::Block,
        reason: "deleting your SSH or GPG keys, your passwords or your keyrings",
    },
    Rule {
        id: "rm-recursive-main-folder",
        programs: &["rm"],
        when: When::AnyFlag(&["r", "R", "recursive"]),
        targets: Targets::Operands,
        classes: &[MainFolder],
        action: Action::Block,
        reason: "recursive removal of one of your main folders (Documents, Desktop, Pictures, Music, Videos) or everything in it",
    },
    Rule {
        id: "rm-startup-file",
        programs: &["rm", "unlink"],
        when: When::Always,
        targets: Targets::Operands,
        classes: &[Startup],
        action: Action::Ask,
        reason: "deleting a shell startup file",
    },
    Rule {
        id: "rm-no-preserve-root",
        programs: &["rm"],
        when: When::AnyFlag(&["no-preserve-root"]),
        targets: Targets::None,
        classes: &[],
        action: Action::Block,
        reason: "rm --no-preserve-root",
    },
    Rule {
        id: "shred-critical",
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
        id: "truncate-critical",
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
        id: "mkfs-disk",
        programs: MKFS,
        when: When::Always,
        targets: Targets::Operands,
        classes: &[BlockDevice],
        action: Action::Block,
        reason: "erasing the file system on a disk",
    },
    Rule {
        id: "partition-disk",
        programs: &["fdisk", "sfdisk", "parted", "gdisk", "sgdisk", "cfdisk"],
        when: When::NoFlag(&["l", "list", "print"]),
        targets: Targets::Operands,
        classes: &[BlockDevice],
        action: Action::Block,
        reason: "rewriting a disk's partition table",
    },
    Rule {
        id: "dd-onto-disk",
        programs: &["dd"],
        when: When::Always,
        targets: Targets::Value("of="),
        classes: &[BlockDevice, Account, Startup, Cron, Sysrq],
        action: Action::Block,
        reason: "dd onto a disk or a system file",
    },
    Rule {
        id: "copy-onto-disk",
        programs: &["cp", "install", "ln", "rsync", "pv"],
        when: When::Always,
        targets: Targets::Last,
        classes: &[BlockDevice, Account, Startup, Cron, Sysrq],
        action: Action::Block,
        reason: "copying onto a disk, an account file, a startup file or the crontab",
    },
    Rule {
        id: "mv-critical",
        programs: &["mv"],
        when: When::Always,
        targets: Targets::AllButLast,
        classes: TREES,
        action: Action::Block,
        reason: "moving the home folder, the root or a system folder away",
    },
    Rule {
        id: "mv-onto-disk",
        programs: &["mv"],
        when: When::Always,
        targets: Targets::Last,
        classes: &[BlockDevice, Account, Startup, Cron],
        action: Action::Block,
        reason: "moving a file onto a disk, an account file, a startup file or the crontab",
    },
    Rule {
        id: "tee-onto-disk",
        programs: &["tee"],
        when: When::Always,
        targets: Targets::Operands,
        classes: &[BlockDevice, Account, Cron, Sysrq],
        action: Action::Block,
        reason: "writing onto a disk, an account file or the crontab",
    },
    Rule {
        id: "tee-over-startup",
        programs: &["tee"],
        when: When::NoFlag(&["a", "append"]),
        targets: Targets::Operands,
        classes: &[Startup],
        action: Action::Block,
        reason: "overwriting a shell startup file",
    },
    Rule {
        id: "tee-append-startup",
        programs: &["tee"],
        when: When::AnyFlag(&["a", "append"]),
        targets: Targets::Operands,
        classes: &[Startup],
        action: Action::Ask,
        reason: "appending to a shell startup file, which runs at every login",
    },
    Rule {
        id: "sed-in-place-account",
        programs: &["sed", "perl"],
        when: When::AnyFlag(&["i", "in-place"]),
        targets: Targets::Operands,
        classes: &[Account, Cron],
        action: Action::Block,
        reason: "editing an account file or the crontab in place",
    },
    Rule {
        id: "sed-in-place-startup",
        programs: &["sed"],
        when: When::AnyFlag(&["i", "in-place"]),
        targets: Targets::Operands,
        classes: &[Startup],
        action: Action::Ask,
        reason: "editing a shell startup file in place",
    },
    Rule {
        id: "chown-recursive-critical",
        programs: &["chown", "chgrp"],
        when: When::AnyFlag(&["R", "recursive"]),
        targets: Targets::Operands,
        classes: TREES,
        action: Action::Block,
        reason: "recursively changing the owner of the home folder or a system folder",
    },
    Rule {
        id: "rsync-delete-critical",
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
        id: "power-off",
        programs: &["shutdown", "poweroff", "reboot", "halt", "kexec"],
        when: When::Always,
        targets: Targets::None,
        classes: &[],
        action: Action::Block,
        reason: "powering off or restarting the computer",
    },
    Rule {
        id: "systemctl-power",
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
        id: "systemctl-suspend",
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
        id: "init-runlevel",
        programs: &["init", "telinit"],
        when: When::Sub(&["0", "1", "6", "s", "S"]),
        targets: Targets::None,
        classes: &[],
        action: Action::Block,
        reason: "changing the run level (power off, restart, single user)",
    },
    Rule {
        id: "loginctl-end-sessions",
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
        id: "log-out",
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
        id: "killall5",
        programs: &["killall5"],
        when: When::Always,
        targets: Targets::None,
        classes: &[],
        action: Action::Block,
        reason: "killing every process",
    },
    Rule {
        id: "pkill-user",
        programs: &["pkill", "killall", "pgrep"],
        when: When::AnyFlag(&["u", "U", "user", "euid", "uid"]),
        targets: Targets::None,
        classes: &[],
        action: Action::Block,
        reason: "killing all of a user's processes",
    },
    Rule {
        id: "crontab-remove",
        programs: &["crontab"],
        when: When::AnyFlag(&["r", "remove"]),
        targets: Targets::None,
        classes: &[],
        action: Action::Block,
        reason: "deleting every scheduled job",
    },
    Rule {
        id: "account-change",
        programs: &["userdel", "deluser", "passwd", "chpasswd", "usermod"],
        when: When::Always,
        targets: Targets::None,
        classes: &[],
        action: Action::Ask,
        reason: "changing a user account",
    },
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
    Verdict::Block(Finding {
        rule,
        reason: reason.into(),
    })
}

/// Only a person may approve it, by rule `rule`.
pub fn ask(rule: &'static str, reason: impl Into<String>) -> Verdict {
    Verdict::Ask(Finding {
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

pub(super) fn apply_rules(walker: &mut Walker, program: &str, args: &[Word]) {
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
                    walker.ask(
                        "target-unknown",
                        format!(
                            "`{program}` acts on `{}`, which is only known when it runs",
                            target.text
                        ),
                    )
                }
                None => {}
            }
        }
    }
}

pub(super) fn strip_key(w: &Word, key: &str) -> Word {
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
        Action::Block => block(rule.id, reason),
        Action::Ask => ask(rule.id, reason),
    }
}

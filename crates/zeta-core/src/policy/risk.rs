//! Risk labels for command lines, for the confirmation dialog: a command that deletes,
//! moves, overwrites, changes owners or modes, kills processes, or runs as root is `high`;
//! any other command is `medium` (a command can always change something).

use crate::policy::shell::programs;
use crate::tool::Risk;

/// Programs that destroy, overwrite or reconfigure.
const HIGH: &[&str] = &[
    "rm",
    "rmdir",
    "unlink",
    "shred",
    "mv",
    "dd",
    "truncate",
    "chmod",
    "chown",
    "chgrp",
    "kill",
    "pkill",
    "killall",
    "shutdown",
    "reboot",
    "poweroff",
    "halt",
    "systemctl",
    "service",
    "mount",
    "umount",
    "useradd",
    "userdel",
    "usermod",
    "passwd",
    "crontab",
    "iptables",
    "ufw",
    "apt",
    "apt-get",
    "dpkg",
    "pip",
    "npm",
    "sudo",
    "su",
    "doas",
    "git",
    "rsync",
    "find",
    "sed",
    "perl",
    "tee",
    "install",
    "ln",
    "mkfs",
    "fdisk",
    "parted",
    "wipefs",
];

/// The risk of running `line` in a shell.
pub fn command_risk(line: &str) -> Risk {
    let (names, writes) = programs(line);
    if writes || names.iter().any(|n| HIGH.contains(&n.as_str())) {
        Risk::High
    } else {
        Risk::Medium
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn destructive_commands_are_high_and_others_medium() {
        for line in [
            "rm notes.txt",
            "cd /tmp && rm -f *.log",
            "sudo apt-get install foo",
            "echo hi > ~/.bashrc",
            "ls | xargs rm",
            "env X=1 mv a b",
            "$(pkill firefox)",
        ] {
            assert_eq!(command_risk(line), Risk::High, "{line}");
        }
        for line in [
            "ls -la",
            "df -h / 2>/dev/null",
            "mkdir -p build",
            "echo hello | wc -c",
        ] {
            assert_eq!(command_risk(line), Risk::Medium, "{line}");
        }
    }
}

//! What a path argument stands for: a tree whose loss wrecks the system or the user's
//! files, a block device, an account file, a shell startup file, the crontab, the sysrq
//! trigger, or anything else.

use std::path::Path;

use crate::words::{is_catch_all, normalize};
use crate::ShellEnv;

/// The kind of thing a path is, for the rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// `/`, the home folder, a system folder.
    Critical,
    /// Everything in one of those (`~/*`, `/etc/.*`).
    CriticalContents,
    /// A disk, partition, RAID, LVM or loop device under /dev.
    BlockDevice,
    /// /etc/passwd, /etc/shadow, /etc/group, /etc/sudoers…
    Account,
    /// A file a login or a new shell runs: ~/.bashrc, ~/.profile, autostart entries…
    Startup,
    /// The crontab spool or system cron tables.
    Cron,
    /// /proc/sysrq-trigger: reboot or power off in one write.
    Sysrq,
    /// The user's keys: `~/.ssh`, `~/.gnupg`, the password store, the keyrings, or
    /// anything in them.
    Keys,
    /// One of the user's main folders (`~/Documents`, `~/Pictures`…), or everything in
    /// it (`~/Documents/*`).
    MainFolder,
    Other,
}

/// Folders under the home that hold the user's keys (relative to the home).
const KEY_FOLDERS: &[&str] = &[".ssh", ".gnupg", ".password-store", ".local/share/keyrings"];

/// Whether a file in a key folder (its path there) holds a private key or the secrets
/// themselves: `id_ed25519` (not `.pub`), `*.key`, `*.pem`, GnuPG's private keys and
/// keyrings, the password store's entries. `known_hosts.old` does not.
fn holds_a_secret(inside: &str) -> bool {
    let name = inside.rsplit('/').next().unwrap_or(inside);
    (name.starts_with("id_") && !name.ends_with(".pub"))
        || [".key", ".pem", ".gpg", ".keyring", ".kbx"]
            .iter()
            .any(|end| name.ends_with(end))
        || inside.starts_with("private-keys-v1.d")
        || name.starts_with("secring")
        || name.starts_with("trustdb")
}

/// The user's main folders (relative to the home), where losing everything at once is
/// losing their work.
const MAIN_FOLDERS: &[&str] = &["Documents", "Desktop", "Pictures", "Music", "Videos"];

const SYSTEM_TREES: &[&str] = &[
    "/", "/home", "/root", "/etc", "/usr", "/var", "/boot", "/bin", "/sbin", "/lib", "/lib32",
    "/lib64", "/libx32", "/opt", "/srv", "/dev", "/proc", "/sys", "/snap", "/mnt", "/media",
    "/run",
];

const DISK_NAMES: &[&str] = &[
    "sd", "hd", "vd", "xvd", "nvme", "mmcblk", "dm-", "md", "loop", "nbd", "zd", "rbd", "bcache",
    "sr", "root",
];

const ACCOUNT_FILES: &[&str] = &[
    "/etc/passwd",
    "/etc/shadow",
    "/etc/group",
    "/etc/gshadow",
    "/etc/sudoers",
    "/etc/subuid",
    "/etc/subgid",
];

/// Files under the home that a login or a new shell runs (relative to the home).
pub const HOME_STARTUP: &[&str] = &[
    ".bashrc",
    ".bash_aliases",
    ".bash_profile",
    ".bash_login",
    ".bash_logout",
    ".profile",
    ".zshrc",
    ".zprofile",
    ".zshenv",
    ".zlogin",
    ".xprofile",
    ".xinitrc",
    ".xsession",
    ".xsessionrc",
    ".config/fish/config.fish",
    ".ssh/authorized_keys",
    ".ssh/rc",
];

const SYSTEM_STARTUP: &[&str] = &[
    "/etc/profile",
    "/etc/bash.bashrc",
    "/etc/environment",
    "/etc/zsh/zshrc",
];

fn is_critical(path: &Path, env: &ShellEnv) -> bool {
    let s = path.to_string_lossy();
    path == env.home
        || SYSTEM_TREES.contains(&s.as_ref())
        || (s.starts_with("/home/") && path.components().count() == 3)
}

/// The class of `value` (an expanded word) as a path, with relative paths taken from `cwd`.
pub fn classify(value: &str, env: &ShellEnv, cwd: &Path) -> Class {
    if value.is_empty() {
        return Class::Other;
    }
    let path = normalize(value, cwd);
    let last = value.trim_end_matches('/').rsplit('/').next().unwrap_or("");
    // `dir/*`, `dir/.*`: everything in dir.
    if is_catch_all(last) {
        let parent = path.parent().map(Path::to_path_buf).unwrap_or(path.clone());
        if is_critical(&parent, env) {
            return Class::CriticalContents;
        }
    }
    if is_critical(&path, env) {
        return Class::Critical;
    }
    let p = path.to_string_lossy();
    if let Some(dev) = p.strip_prefix("/dev/") {
        if DISK_NAMES.iter().any(|d| dev.starts_with(d))
            || ["disk/", "mapper/", "block/", "md/"]
                .iter()
                .any(|d| dev.starts_with(d))
        {
            return Class::BlockDevice;
        }
    }
    if ACCOUNT_FILES.contains(&p.as_ref()) || p.starts_with("/etc/sudoers.d/") {
        return Class::Account;
    }
    if p == "/proc/sysrq-trigger" {
        return Class::Sysrq;
    }
    if p == "/etc/crontab" || p.starts_with("/etc/cron.d/") || p.starts_with("/var/spool/cron/") {
        return Class::Cron;
    }
    if SYSTEM_STARTUP.contains(&p.as_ref()) || p.starts_with("/etc/profile.d/") {
        return Class::Startup;
    }
    if let Ok(rest) = path.strip_prefix(&env.home) {
        let rest = rest.to_string_lossy();
        if HOME_STARTUP.contains(&rest.as_ref()) || rest.starts_with(".config/autostart/") {
            return Class::Startup;
        }
        if KEY_FOLDERS.iter().any(|k| {
            rest == *k
                || rest
                    .strip_prefix(&format!("{k}/"))
                    .is_some_and(|inside| is_catch_all(last) || holds_a_secret(inside))
        }) {
            return Class::Keys;
        }
        if MAIN_FOLDERS.contains(&rest.as_ref()) {
            return Class::MainFolder;
        }
    }
    // `~/Documents/*`: everything in a main folder.
    if is_catch_all(last) {
        let parent = path.parent().map(Path::to_path_buf).unwrap_or(path.clone());
        if let Ok(rest) = parent.strip_prefix(&env.home) {
            if MAIN_FOLDERS.contains(&rest.to_string_lossy().as_ref()) {
                return Class::MainFolder;
            }
        }
    }
    Class::Other
}

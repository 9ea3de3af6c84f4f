//! Where tool processes may write: the user's home minus its startup files, keys and
//! configuration, the task's folder and the temporary folders; never system folders or
//! block devices. The shell and `run_code` are confined to it at the OS level (Landlock,
//! in zeta-tools), and the gate checks the paths a call names against it before it runs:
//! a call that needs more asks, naming the path, and runs unconfined only when approved.
//!
//! Landlock grants rights on whole trees and cannot take a subtree back out of a grant,
//! so the home itself is never granted: each of its entries is, except the protected
//! ones, and a folder holding a protected path (`~/.config`, `~/.local/share`) is split
//! the same way. What follows: a file can be changed, or created, inside any granted
//! entry, but creating or deleting an entry directly in the home (or in a split folder)
//! needs an approval.

use std::path::{Path, PathBuf};

/// Paths under the home that tool processes never write unasked, beside the startup
/// files (`shell::HOME_STARTUP`): keys, and files that run later, by their role:
/// aliases, the folders first on PATH, launchers that override an app, user services,
/// interpreter start-up hooks (`.pth` files in the user's site-packages), git's
/// configuration and hooks, editor and terminal configuration that can run commands.
pub const PROTECTED_IN_HOME: &[&str] = &[
    ".bash_aliases",
    ".inputrc",
    ".local/bin",
    ".local/lib",
    ".local/share/applications",
    ".gitconfig",
    ".config/git",
    ".vimrc",
    ".config/nvim",
    ".emacs",
    ".emacs.d",
    ".tmux.conf",
    ".config/tmux",
    ".config/kitty",
    ".config/alacritty",
    ".zlogout",
    ".cshrc",
    ".tcshrc",
    ".login",
    ".pam_environment",
    ".ssh",
    ".gnupg",
    ".pki",
    ".password-store",
    ".local/share/keyrings",
    ".config/autostart",
    ".config/systemd",
    ".config/environment.d",
    ".config/fish",
];

/// What Zeta keeps in its home that a command must not change: its settings (the
/// permissions among them), the database (queue, audit, memory), keys, souls, the socket.
const ZETA_FILES: &[&str] = &[
    "settings.json",
    "zeta.db",
    "zeta.db-wal",
    "zeta.db-shm",
    "secrets.json",
    "mcp-reviewed.json",
    "souls",
    "control.sock",
    "worker.lock",
];

/// A repository's hooks and configuration, wherever the repository is: git runs what
/// they name (a hook, `core.fsmonitor`, `core.pager`) at the person's next git command.
/// Landlock cannot take these out of a granted folder, so only writes named before the
/// call runs are caught (they ask); a program writing them is kept for undo.
fn runs_in_a_repository(path: &Path) -> bool {
    let parts: Vec<_> = path.components().map(|c| c.as_os_str()).collect();
    parts
        .windows(2)
        .any(|w| w[0] == ".git" && (w[1] == "hooks" || w[1] == "config" || w[1] == "info"))
}

/// Trees outside the home that are always writable.
pub const TEMPORARY: &[&str] = &["/tmp", "/var/tmp", "/dev/shm"];

/// Device files a command may write to (none of them stores anything).
pub const DEVICES: &[&str] = &[
    "/dev/null",
    "/dev/zero",
    "/dev/full",
    "/dev/random",
    "/dev/urandom",
    "/dev/tty",
    "/dev/ptmx",
];

/// Device trees a command may write in (terminals).
pub const DEVICE_TREES: &[&str] = &["/dev/pts"];

/// First components of folders that are never a task's folder to write in.
const SYSTEM: &[&str] = &[
    "etc", "usr", "bin", "sbin", "lib", "lib32", "lib64", "libx32", "boot", "dev", "proc", "sys",
    "run", "var", "root", "snap",
];

/// One grant to the OS: write access to a whole tree, or to one existing file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Grant {
    Tree(PathBuf),
    File(PathBuf),
}

/// The writable set for one task.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Writable {
    home: PathBuf,
    /// Whole trees: the temporary folders and the task's folder.
    roots: Vec<PathBuf>,
    /// Absolute protected paths (the list above, and Zeta's own home).
    protected: Vec<PathBuf>,
}

impl Writable {
    /// The set for a task running in `task_folder`, for the user whose home is `home`;
    /// `zeta_home` (settings, database) is protected too.
    pub fn new(home: &Path, task_folder: &Path, zeta_home: &Path) -> Self {
        let home = resolved(home);
        let mut protected: Vec<PathBuf> = super::shell::HOME_STARTUP
            .iter()
            .chain(PROTECTED_IN_HOME)
            .map(|p| home.join(p))
            .collect();
        let zeta_home = resolved(zeta_home);
        if home.starts_with(&zeta_home) {
            // Zeta's home holds the user's (ZETA_HOME=$HOME): only Zeta's own files.
            protected.extend(ZETA_FILES.iter().map(|f| zeta_home.join(f)));
        } else {
            protected.push(zeta_home);
        }
        // A protected file reached through a link (a dotfiles folder) is protected where
        // it lives too: writing the target is writing the file.
        let targets: Vec<PathBuf> = protected
            .iter()
            .filter_map(|p| std::fs::canonicalize(p).ok().filter(|real| real != p))
            .collect();
        protected.extend(targets);
        let mut roots: Vec<PathBuf> = TEMPORARY.iter().map(PathBuf::from).collect();
        let folder = resolved(task_folder);
        let usable = !home.starts_with(&folder)
            && !protected
                .iter()
                .any(|p| p.starts_with(&folder) || folder.starts_with(p))
            && folder
                .components()
                .nth(1)
                .is_some_and(|c| !SYSTEM.contains(&c.as_os_str().to_string_lossy().as_ref()))
            && !folder.starts_with(&home);
        if usable {
            roots.push(folder);
        }
        Self {
            home,
            roots,
            protected,
        }
    }

    pub fn home(&self) -> &Path {
        &self.home
    }

    /// Folders split into their entries: the home, and each folder between it and a
    /// protected path.
    fn is_split(&self, dir: &Path) -> bool {
        dir == self.home
            || self
                .protected
                .iter()
                .any(|p| p.starts_with(dir) && p != dir && dir.starts_with(&self.home))
    }

    fn is_protected(&self, path: &Path) -> bool {
        self.protected.iter().any(|p| path.starts_with(p)) || runs_in_a_repository(path)
    }

    /// Whether a confined process can write `path` (absolute, or relative to `cwd`): the
    /// same answer the OS will give, as far as it can be known before the call.
    pub fn allows(&self, path: &Path, cwd: &Path) -> bool {
        // By its name and by what it leads to.
        let named = super::shell::normalize(&cwd.join(path).to_string_lossy(), Path::new("/"));
        let path = resolved(&cwd.join(path));
        if self.is_protected(&path) || self.is_protected(&named) {
            return false;
        }
        if DEVICES.iter().any(|d| path == Path::new(d))
            || DEVICE_TREES.iter().any(|d| path.starts_with(d))
            || self.roots.iter().any(|r| path.starts_with(r))
        {
            return true;
        }
        let Ok(rest) = path.strip_prefix(&self.home) else {
            return false;
        };
        // Down from the home through split folders to the granted entry on the way.
        let mut dir = self.home.clone();
        for part in rest.components() {
            let entry = dir.join(part);
            if self.is_split(&entry) {
                dir = entry;
                continue;
            }
            return entry.symlink_metadata().is_ok();
        }
        // The home, or a split folder, itself.
        false
    }

    /// What to grant the OS, read from the file system now: the roots and device trees,
    /// the device files, and every entry of the home and of its split folders except the
    /// protected ones.
    pub fn grants(&self) -> Vec<Grant> {
        let mut out: Vec<Grant> = self
            .roots
            .iter()
            .chain(
                DEVICE_TREES
                    .iter()
                    .map(PathBuf::from)
                    .collect::<Vec<_>>()
                    .iter(),
            )
            .filter(|p| p.is_dir())
            .map(|p| Grant::Tree(p.clone()))
            .collect();
        out.extend(
            DEVICES
                .iter()
                .map(PathBuf::from)
                .filter(|p| p.exists())
                .map(Grant::File),
        );
        let mut pending = vec![self.home.clone()];
        while let Some(dir) = pending.pop() {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for entry in entries.flatten() {
                let path = entry.path();
                if self.is_protected(&path) {
                    continue;
                }
                if self.is_split(&path) {
                    pending.push(path);
                    continue;
                }
                // A link is not granted: what it points to may lie anywhere.
                let Ok(kind) = entry.file_type() else {
                    continue;
                };
                if kind.is_dir() {
                    out.push(Grant::Tree(path));
                } else if kind.is_file() {
                    out.push(Grant::File(path));
                }
            }
        }
        out
    }

    /// One line for the model and the dialog: where writes go without asking.
    pub fn describe(&self) -> String {
        let roots: Vec<String> = self.roots.iter().map(|r| r.display().to_string()).collect();
        format!(
            "{} (except its startup files, keys and settings, and new entries directly in it) and {}",
            self.home.display(),
            roots.join(", ")
        )
    }
}

/// `path` as the OS will find it: links followed as far as the path exists (a link in a
/// writable folder pointing at `~/.bashrc` is `~/.bashrc`), the rest normalised by its
/// text.
fn resolved(path: &Path) -> PathBuf {
    let lexical = super::shell::normalize(&path.to_string_lossy(), Path::new("/"));
    let mut existing = lexical.as_path();
    let mut rest = Vec::new();
    loop {
        if let Ok(real) = std::fs::canonicalize(existing) {
            return rest.iter().rev().fold(real, |p, part| p.join(part));
        }
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                existing = parent;
            }
            _ => return lexical,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A home outside the temporary folders (which are writable whole).
    pub fn home_outside_tmp() -> tempfile::TempDir {
        tempfile::tempdir_in(base_outside_tmp()).unwrap()
    }

    /// The target folder when it is not under a temporary folder (a checkout in /tmp),
    /// else `~/.cache/zeta-tests`.
    fn base_outside_tmp() -> PathBuf {
        let target = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/tmp");
        let base = if TEMPORARY.iter().any(|t| resolved(&target).starts_with(t)) {
            PathBuf::from(std::env::var_os("HOME").unwrap()).join(".cache/zeta-tests")
        } else {
            target
        };
        std::fs::create_dir_all(&base).unwrap();
        base
    }

    fn setup() -> (tempfile::TempDir, Writable) {
        let dir = home_outside_tmp();
        let home = dir.path().join("home");
        for d in [
            ".ssh",
            ".config/autostart",
            ".config/git",
            ".config/someapp",
            "projects/a",
            ".zeta",
        ] {
            std::fs::create_dir_all(home.join(d)).unwrap();
        }
        for f in [".bashrc", "notes.txt", ".config/mimeapps.list"] {
            std::fs::write(home.join(f), "x").unwrap();
        }
        let w = Writable::new(&home, &home.join("projects"), &home.join(".zeta"));
        (dir, w)
    }

    #[test]
    fn the_home_minus_what_is_protected() {
        let (_d, w) = setup();
        let h = w.home().to_path_buf();
        let yes = |p: &str| w.allows(Path::new(p), &h);
        assert!(yes("projects/a/new.rs"), "inside an entry");
        assert!(yes("notes.txt"), "an existing file in the home");
        assert!(yes(".config/someapp/config"), "an entry of a split folder");
        assert!(
            !yes(".config/git/config"),
            "git's configuration runs commands (hooks, fsmonitor)"
        );
        assert!(
            !yes(".bash_aliases")
                && !yes(".local/bin/ls")
                && !yes(".local/lib/python3.11/site-packages/x.pth")
        );
        assert!(
            !yes("projects/a/.git/hooks/pre-commit")
                && !yes("projects/a/.git/config")
                && !yes("/tmp/repo/.git/hooks/post-checkout"),
            "a repository's hooks and configuration, wherever it is"
        );
        assert!(yes("projects/a/.git/objects/ab") && yes("projects/a/.gitignore"));
        assert!(yes("/tmp/x"));
        assert!(yes("/dev/null"));
        assert!(!yes(".bashrc"));
        assert!(!yes(".ssh/authorized_keys"));
        assert!(!yes(".config/autostart/evil.desktop"));
        assert!(!yes(".zeta/settings.json"), "Zeta's own settings");
        assert!(!yes("new-in-home.txt"), "a new entry directly in the home");
        assert!(!yes(".config/newapp/x"), "a new entry in a split folder");
        assert!(!yes("projects/../.bashrc"));
        assert!(!yes("/etc/passwd"));
        assert!(!yes("/dev/vda"));
        assert!(!yes(&h.display().to_string()));
        std::os::unix::fs::symlink(h.join(".bashrc"), h.join("projects/rc")).unwrap();
        assert!(
            !yes("projects/rc"),
            "a link to a startup file is the startup file"
        );
    }

    #[test]
    fn grants_skip_the_protected_and_split_the_folders_above_them() {
        let (_d, w) = setup();
        let h = w.home().to_path_buf();
        let grants = w.grants();
        assert!(grants.contains(&Grant::Tree(h.join("projects"))));
        assert!(grants.contains(&Grant::File(h.join("notes.txt"))));
        assert!(grants.contains(&Grant::Tree(h.join(".config/someapp"))));
        assert!(!grants.contains(&Grant::Tree(h.join(".config/git"))));
        assert!(grants.contains(&Grant::File(h.join(".config/mimeapps.list"))));
        assert!(grants.contains(&Grant::Tree(PathBuf::from("/tmp"))));
        for never in [
            h.clone(),
            h.join(".ssh"),
            h.join(".bashrc"),
            h.join(".config"),
            h.join(".config/autostart"),
            h.join(".zeta"),
        ] {
            assert!(
                !grants.contains(&Grant::Tree(never.clone()))
                    && !grants.contains(&Grant::File(never.clone())),
                "{}",
                never.display()
            );
        }
    }

    #[test]
    fn a_zeta_home_that_holds_the_home_protects_only_zetas_files() {
        let dir = home_outside_tmp();
        let home = dir.path().join("home");
        std::fs::create_dir_all(home.join("projects")).unwrap();
        let w = Writable::new(&home, &home, &home);
        assert!(w.allows(Path::new("projects/x"), &home));
        assert!(!w.allows(Path::new("settings.json"), &home));
        assert!(!w.allows(Path::new("zeta.db"), &home));
    }

    #[test]
    fn a_task_folder_is_a_root_unless_it_holds_the_home_or_is_a_system_folder() {
        let home = Path::new("/home/u");
        let z = Path::new("/home/u/.zeta");
        let roots = |f: &str| Writable::new(home, Path::new(f), z).roots;
        assert!(roots("/srv/work").contains(&PathBuf::from("/srv/work")));
        for f in ["/", "/home", "/home/u", "/etc", "/usr/local", "/var/lib"] {
            assert_eq!(roots(f).len(), TEMPORARY.len(), "{f}");
        }
    }
}

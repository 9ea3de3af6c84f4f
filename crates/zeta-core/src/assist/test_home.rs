//! A home folder for the tests of what commands read: files written into a temporary
//! folder, commands run there by bash with `HOME` set to it.

use std::path::Path;

use crate::policy::ShellEnv;

pub(crate) struct Home {
    _dir: tempfile::TempDir,
    pub(crate) env: ShellEnv,
}

/// A home holding `files` (paths in it, with their text) and the empty `folders`,
/// commands running in the home.
pub(crate) fn home_of(files: &[(&str, &str)], folders: &[&str]) -> Home {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().to_path_buf();
    for (name, text) in files {
        let path = root.join(name);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("folder");
        std::fs::write(path, text).expect("write");
    }
    for folder in folders {
        std::fs::create_dir_all(root.join(folder)).expect("folder");
    }
    Home {
        env: ShellEnv {
            home: root.clone(),
            cwd: root,
            user: "me".into(),
        },
        _dir: dir,
    }
}

/// Whether bash ran `command` in `home` without failing, and what it printed, trimmed.
pub(crate) fn run(command: &str, home: &Path) -> (bool, String) {
    let out = std::process::Command::new("bash")
        .args(["-c", command])
        .current_dir(home)
        .env("HOME", home)
        .output()
        .expect("bash");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).trim().to_string(),
    )
}

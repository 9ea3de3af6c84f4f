//! "Start Zeta when I log in": an XDG autostart entry
//! (`$XDG_CONFIG_HOME/autostart/zeta.desktop`, `~/.config/autostart` by default) that
//! starts this binary with `--hidden`, in the tray without the chat window. The setting
//! `startWithSession` is the truth: the entry is written or removed to match it when the
//! app starts and when the settings are saved. An entry the user wrote by hand under
//! another name is not touched.

use std::path::{Path, PathBuf};

/// The flag the entry starts Zeta with: the app opens in the tray, its window hidden.
pub const HIDDEN_FLAG: &str = "--hidden";

/// Where the entry lives, from `XDG_CONFIG_HOME` or `HOME`; `None` without either.
pub fn entry_path(env: &dyn Fn(&str) -> Option<String>) -> Option<PathBuf> {
    let config = env("XDG_CONFIG_HOME")
        .filter(|d| Path::new(d).is_absolute())
        .map(PathBuf::from)
        .or_else(|| env("HOME").map(|h| PathBuf::from(h).join(".config")))?;
    Some(config.join("autostart").join("zeta.desktop"))
}

/// The entry's text for the program at `exe`.
pub fn entry_text(exe: &Path) -> String {
    // Exec quotes per the Desktop Entry spec: a path with spaces is quoted, and `"`, `` ` ``,
    // `$` and `\` inside it escaped.
    let path = exe.display().to_string();
    let exec = if path
        .chars()
        .any(|c| c.is_whitespace() || "\"`$\\".contains(c))
    {
        let escaped: String = path
            .chars()
            .flat_map(|c| {
                if "\"`$\\".contains(c) {
                    vec!['\\', c]
                } else {
                    vec![c]
                }
            })
            .collect();
        format!("\"{escaped}\"")
    } else {
        path
    };
    format!(
        "[Desktop Entry]\nType=Application\nName=Zeta\nComment=Zeta, a desktop computer-use agent, in the tray\nExec={exec} {HIDDEN_FLAG}\nIcon=zeta\nTerminal=false\nX-GNOME-Autostart-enabled=true\n"
    )
}

/// Writes (`on`) or removes the entry at `path` so it matches the setting. Returns
/// whether the file changed.
pub fn apply(path: &Path, on: bool, exe: &Path) -> std::io::Result<bool> {
    if on {
        let text = entry_text(exe);
        if std::fs::read_to_string(path).is_ok_and(|t| t == text) {
            return Ok(false);
        }
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let tmp = path.with_extension("desktop.saving");
        std::fs::write(&tmp, text)?;
        std::fs::rename(&tmp, path)?;
        Ok(true)
    } else {
        match std::fs::remove_file(path) {
            Ok(()) => Ok(true),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
            Err(e) => Err(e),
        }
    }
}

/// Makes this user's entry match `on`, for this binary; logs what it could not do.
pub fn sync(on: bool) {
    let env = |k: &str| std::env::var(k).ok();
    let Some(path) = entry_path(&env) else {
        tracing::warn!("no HOME or XDG_CONFIG_HOME: cannot set up the start at login");
        return;
    };
    let exe = match std::env::current_exe() {
        Ok(exe) => exe,
        Err(e) => {
            tracing::warn!("cannot name this program for the start at login: {e}");
            return;
        }
    };
    match apply(&path, on, &exe) {
        Ok(true) if on => tracing::info!("Zeta starts at login: {}", path.display()),
        Ok(true) => tracing::info!(
            "Zeta no longer starts at login ({} removed)",
            path.display()
        ),
        Ok(false) => {}
        Err(e) => tracing::warn!("could not change {}: {e}", path.display()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_entry_is_written_and_removed_to_match_the_setting() {
        let dir = tempfile::tempdir().expect("dir");
        let home = dir.path().display().to_string();
        let env = |k: &str| (k == "HOME").then(|| home.clone());
        let path = entry_path(&env).expect("path");
        assert_eq!(path, dir.path().join(".config/autostart/zeta.desktop"));
        let exe = Path::new("/usr/bin/zeta");
        assert!(apply(&path, true, exe).expect("write"));
        let text = std::fs::read_to_string(&path).expect("entry");
        assert!(
            text.contains("Exec=/usr/bin/zeta --hidden\n") && text.starts_with("[Desktop Entry]\n"),
            "{text}"
        );
        assert!(
            !apply(&path, true, exe).expect("again"),
            "unchanged when it matches"
        );
        assert!(apply(&path, false, exe).expect("remove"));
        assert!(!path.exists());
        assert!(!apply(&path, false, exe).expect("nothing to remove"));
        let config = dir.path().join("cfg").display().to_string();
        let xdg = |k: &str| match k {
            "XDG_CONFIG_HOME" => Some(config.clone()),
            _ => Some("/home/x".into()),
        };
        assert_eq!(
            entry_path(&xdg),
            Some(dir.path().join("cfg/autostart/zeta.desktop"))
        );
        let relative = |k: &str| match k {
            "XDG_CONFIG_HOME" => Some("relative".into()),
            "HOME" => Some("/home/x".into()),
            _ => None,
        };
        assert_eq!(
            entry_path(&relative),
            Some(PathBuf::from("/home/x/.config/autostart/zeta.desktop"))
        );
        assert_eq!(entry_path(&|_| None), None);
    }

    #[test]
    fn a_path_with_spaces_or_quotes_is_quoted() {
        let text = entry_text(Path::new("/opt/my apps/ze\"ta"));
        assert!(
            text.contains("Exec=\"/opt/my apps/ze\\\"ta\" --hidden"),
            "{text}"
        );
    }
}

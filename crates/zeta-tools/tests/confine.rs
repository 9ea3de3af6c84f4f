//! Landlock confinement of the shell and run_code, on this kernel: inside the confined
//! process, writes to a startup file, a key folder, Zeta's settings, /etc and a block
//! device fail, while ordinary work in the home and /tmp succeeds; the same write
//! unconfined (an approved call) goes through.
//!
//! The test home lies under the target folder, outside the temporary folders (which are
//! writable whole).

// Test code: a failed unwrap or expect is the test failing, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::sync::Arc;
use zeta_test_support::Needs;

use serde_json::json;
use zeta_core::policy::Writable;
use zeta_core::tool::{Tool, ToolContext, ToolOutput};
use zeta_core::CancelToken;
use zeta_tools::confine::{support, Support};
use zeta_tools::run_code::RunCode;
use zeta_tools::shell::Shell;

struct Fixture {
    _dir: tempfile::TempDir,
    _cancel: tokio::sync::watch::Sender<bool>,
    cancel: CancelToken,
    base: PathBuf,
    home: PathBuf,
}

fn fixture() -> Fixture {
    let dir = outside_tmp();
    let base = dir.path().to_path_buf();
    let home = base.join("home");
    for d in [
        ".ssh",
        ".config/autostart",
        ".config/git",
        ".config/someapp",
        "projects",
        ".zeta",
    ] {
        std::fs::create_dir_all(home.join(d)).expect("folders");
    }
    for f in [".bashrc", "notes.txt", ".zeta/settings.json"] {
        std::fs::write(home.join(f), "original\n").expect("files");
    }
    std::fs::create_dir_all(base.join("outside")).expect("outside");
    let (_cancel, cancel) = CancelToken::new();
    Fixture {
        _dir: dir,
        _cancel,
        cancel,
        base,
        home,
    }
}

/// A folder outside the temporary folders (writable whole): the target folder's, or
/// `~/.cache/zeta-tests` when the checkout itself lies in /tmp.
fn outside_tmp() -> tempfile::TempDir {
    let target = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let real = target.canonicalize().unwrap_or(target.to_path_buf());
    let base = if zeta_core::policy::writable::TEMPORARY
        .iter()
        .any(|t| real.starts_with(t))
    {
        Path::new(&std::env::var_os("HOME").expect("HOME")).join(".cache/zeta-tests")
    } else {
        target.to_path_buf()
    };
    std::fs::create_dir_all(&base).expect("a test folder outside /tmp");
    tempfile::tempdir_in(base).expect("a test folder outside /tmp")
}

fn ctx(f: &Fixture, confined: bool) -> ToolContext {
    let writable = Writable::new(&f.home, &f.home.join("projects"), &f.home.join(".zeta"));
    ToolContext {
        cancel: f.cancel.clone(),
        workdir: f.home.join("projects"),
        command_timeout_ms: 20_000,
        max_output_length: 4000,
        images_supported: false,
        screenshot: Default::default(),
        on_output: Arc::new(|_: &str| {}),
        untrusted_input: false,
        confine: confined.then(|| Arc::new(writable)),
        keeper: None,
        session: zeta_core::tool::Session::Closed,
        at_task_end: Default::default(),
        request: "".into(),
        choose: Default::default(),
    }
}

fn landlock_here() -> bool {
    match support() {
        Support::Available => true,
        Support::Missing(why) => {
            let why = format!("this kernel cannot confine processes: {why}");
            zeta_test_support::cannot_run(Needs::Landlock, "confinement test", why);
            false
        }
    }
}

async fn sh(ctx: &ToolContext, command: &str) -> ToolOutput {
    Shell.run(json!({ "command": command }), ctx).await
}

/// Each command fails for want of permission and leaves its path as it was.
async fn refused(c: &ToolContext, attempts: &[(String, PathBuf)]) {
    for (command, path) in attempts {
        let before = read(path);
        let out = sh(c, command).await;
        assert!(!out.ok, "{command} ran: {}", out.content);
        assert!(
            out.content.contains("Permission denied") || out.content.contains("not permitted"),
            "{command}: {}",
            out.content
        );
        assert_eq!(read(path), before, "{command} changed {}", path.display());
    }
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| format!("<{e}>"))
}

#[tokio::test]
async fn confined_writes_to_protected_places_fail() {
    if !landlock_here() {
        return;
    }
    let f = fixture();
    let c = ctx(&f, true);
    let h = f.home.display().to_string();
    let attempts = [
        (format!("echo evil >> {h}/.bashrc"), f.home.join(".bashrc")),
        (
            format!("echo key > {h}/.ssh/authorized_keys"),
            f.home.join(".ssh/authorized_keys"),
        ),
        (
            format!("cp {h}/notes.txt {h}/.config/autostart/evil.desktop"),
            f.home.join(".config/autostart/evil.desktop"),
        ),
        (
            format!("echo '{{}}' > {h}/.zeta/settings.json"),
            f.home.join(".zeta/settings.json"),
        ),
        (format!("touch {h}/new-in-home"), f.home.join("new-in-home")),
        (format!("rm -f {h}/notes.txt"), f.home.join("notes.txt")),
        (
            "echo x > /etc/zeta-confine-test".to_string(),
            PathBuf::from("/etc/zeta-confine-test"),
        ),
        (
            format!("echo x > {}/outside/f", f.base.display()),
            f.base.join("outside/f"),
        ),
    ];
    refused(&c, &attempts).await;
    // An interpreter is confined the same way.
    let py = RunCode
        .run(
            json!({"language": "python", "code": format!("open('{h}/.bashrc', 'a').write('evil')")}),
            &c,
        )
        .await;
    assert!(
        !py.ok && py.content.contains("PermissionError"),
        "{}",
        py.content
    );
    assert_eq!(read(&f.home.join(".bashrc")), "original\n");
}

#[tokio::test]
async fn a_block_device_cannot_be_opened_for_writing() {
    if !landlock_here() {
        return;
    }
    let f = fixture();
    // Opening with `: >` writes nothing even where it succeeds: harmless unconfined too.
    let Some(device) = (0..8)
        .map(|n| format!("/dev/loop{n}"))
        .find(|p| Path::new(p).exists())
    else {
        eprintln!("SKIPPED the block device part: no /dev/loop* device here");
        return;
    };
    let out = sh(&ctx(&f, true), &format!(": > {device}")).await;
    assert!(
        !out.ok && out.content.contains("Permission denied"),
        "{device}: {}",
        out.content
    );
}

#[tokio::test]
async fn ordinary_work_in_the_home_and_tmp_succeeds() {
    if !landlock_here() {
        return;
    }
    let f = fixture();
    let c = ctx(&f, true);
    let h = f.home.display().to_string();
    let tmp = tempfile::tempdir().expect("tmp");
    let t = tmp.path().display().to_string();
    let command = format!(
        "set -e; mkdir -p {h}/projects/app/src && echo 'fn main() {{}}' > {h}/projects/app/src/main.rs \
         && cp {h}/projects/app/src/main.rs {h}/projects/app/copy.rs && mv {h}/projects/app/copy.rs {h}/projects/moved.rs \
         && rm {h}/projects/moved.rs && echo more >> {h}/notes.txt && echo app > {h}/.config/someapp/config \
         && echo scratch > {t}/scratch && sort {t}/scratch > {t}/sorted && rm {t}/scratch \
         && echo quiet > /dev/null && echo out > /dev/stdout && echo err >&2 && echo done"
    );
    let out = sh(&c, &command).await;
    assert!(out.ok, "{}", out.content);
    assert!(out.content.contains("done"), "{}", out.content);
    assert_eq!(read(&f.home.join("notes.txt")), "original\nmore\n");
    assert_eq!(read(&tmp.path().join("sorted")), "scratch\n");
    let py = RunCode
        .run(
            json!({"language": "python", "code": format!("open('{h}/projects/p.txt', 'w').write('py')\nprint('ok')")}),
            &c,
        )
        .await;
    assert!(py.ok, "{}", py.content);
    assert_eq!(read(&f.home.join("projects/p.txt")), "py");
}

#[tokio::test]
async fn the_same_write_unconfined_goes_through() {
    if !landlock_here() {
        return;
    }
    let f = fixture();
    let target = f.base.join("outside/approved.txt");
    let command = format!("echo approved > {}", target.display());
    let confined = sh(&ctx(&f, true), &command).await;
    assert!(!confined.ok, "{}", confined.content);
    let unconfined = sh(&ctx(&f, false), &command).await;
    assert!(unconfined.ok, "{}", unconfined.content);
    assert_eq!(read(&target), "approved\n");
}

/// Files that run later are protected by their role (aliases, the folder first on PATH,
/// launchers, git's configuration), and a protected file reached through a link (a
/// dotfiles folder) is protected where it lives too; the folder's other files are not.
#[tokio::test]
async fn files_that_run_later_are_protected_also_through_a_link() {
    if !landlock_here() {
        return;
    }
    let f = fixture();
    let h = f.home.display().to_string();
    for d in ["dotfiles", ".local/bin", ".local/share/applications"] {
        std::fs::create_dir_all(f.home.join(d)).expect("folders");
    }
    for file in ["dotfiles/aliases", "dotfiles/README", ".gitconfig"] {
        std::fs::write(f.home.join(file), "original\n").expect("files");
    }
    std::os::unix::fs::symlink(
        f.home.join("dotfiles/aliases"),
        f.home.join(".bash_aliases"),
    )
    .expect("link");
    // The writable set is read now, with the link in place.
    let c = ctx(&f, true);
    let attempts = [
        (
            format!("echo evil >> {h}/.bash_aliases"),
            f.home.join("dotfiles/aliases"),
        ),
        (
            format!("echo evil >> {h}/dotfiles/aliases"),
            f.home.join("dotfiles/aliases"),
        ),
        (
            format!("echo evil > {h}/.local/bin/ls"),
            f.home.join(".local/bin/ls"),
        ),
        (
            format!("echo evil > {h}/.local/share/applications/firefox.desktop"),
            f.home.join(".local/share/applications/firefox.desktop"),
        ),
        (
            format!("echo evil >> {h}/.gitconfig"),
            f.home.join(".gitconfig"),
        ),
    ];
    refused(&c, &attempts).await;
    let out = sh(&c, &format!("echo fine >> {h}/dotfiles/README")).await;
    assert!(out.ok, "{}", out.content);
    assert_eq!(read(&f.home.join("dotfiles/README")), "original\nfine\n");
    // And the gate's own check, by name and by target.
    let writable =
        zeta_core::policy::Writable::new(&f.home, &f.home.join("projects"), &f.home.join(".zeta"));
    assert!(!writable.allows(&f.home.join(".bash_aliases"), &f.home));
    assert!(!writable.allows(&f.home.join("dotfiles/aliases"), &f.home));
    assert!(writable.allows(&f.home.join("dotfiles/README"), &f.home));
}

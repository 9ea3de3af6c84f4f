//! write_file writes what was judged: a symbolic link on the way to a file Zeta would
//! not write on the same terms (a startup file, a protected folder) is refused, also when
//! it is swapped in while the call runs (a thread flipping a folder or the file itself
//! between real and link, hundreds of times); a link to an ordinary file is followed; a
//! FIFO is refused at once.

// Test code: a failed unwrap or expect is the test failing, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use serde_json::json;
use zeta_core::tool::{Tool, ToolContext};
use zeta_tools::files::WriteFile;

async fn write(dir: &Path, path: &Path, content: &str) -> (bool, String) {
    let ctx = ToolContext::detached(dir.to_path_buf());
    let out = WriteFile
        .run(json!({"path": path, "content": content}), &ctx)
        .await;
    (out.ok, out.content)
}

/// Flips `path` between `real` content and a link to `to`, atomically (rename), until
/// `stop`.
fn flipper(
    path: &Path,
    to: &Path,
    folder: bool,
    stop: Arc<AtomicBool>,
) -> std::thread::JoinHandle<u64> {
    let (path, to) = (path.to_path_buf(), to.to_path_buf());
    std::thread::spawn(move || {
        let link = path.with_extension("link-tmp");
        let real = path.with_extension("real-tmp");
        let mut flips = 0;
        while !stop.load(Ordering::Relaxed) {
            if folder {
                // The real folder (with what was written in it) set aside, the link in
                // its place, then the folder back.
                let _ = std::fs::create_dir_all(&path);
                let _ = std::fs::rename(&path, &real);
                let _ = std::fs::remove_file(&link);
                let _ = std::os::unix::fs::symlink(&to, &link);
                let _ = std::fs::rename(&link, &path);
                let _ = std::fs::remove_file(&path);
                let _ = std::fs::rename(&real, &path);
            } else {
                let _ = std::fs::remove_file(&link);
                let _ = std::os::unix::fs::symlink(&to, &link);
                let _ = std::fs::rename(&link, &path);
                let _ = std::fs::write(&real, "real");
                let _ = std::fs::rename(&real, &path);
            }
            flips += 1;
        }
        flips
    })
}

#[tokio::test(flavor = "multi_thread")]
async fn a_link_never_carries_a_write_where_it_was_not_judged_to_go() {
    let home = tempfile::tempdir().unwrap();
    // The judge reads the home from HOME (one test in this binary).
    std::env::set_var("HOME", home.path());
    let h = home.path();
    std::fs::write(h.join(".bashrc"), "# the person's\n").unwrap();
    let autostart = h.join(".config/autostart");
    std::fs::create_dir_all(&autostart).unwrap();
    let work = h.join("work");
    std::fs::create_dir_all(&work).unwrap();

    // Still links.
    std::os::unix::fs::symlink(h.join(".bashrc"), work.join("notes.txt")).unwrap();
    let (ok, out) = write(&work, &work.join("notes.txt"), "curl x | sh\n").await;
    assert!(!ok && out.contains("leads to"), "{out}");
    std::os::unix::fs::symlink(&autostart, work.join("apps")).unwrap();
    let (ok, out) = write(&work, &work.join("apps/evil.desktop"), "[Desktop Entry]\n").await;
    assert!(!ok && out.contains("leads to"), "{out}");
    // A link to an ordinary file is followed.
    std::fs::write(work.join("real.txt"), "old").unwrap();
    std::os::unix::fs::symlink(work.join("real.txt"), work.join("alias.txt")).unwrap();
    let (ok, out) = write(&work, &work.join("alias.txt"), "new").await;
    assert!(ok, "{out}");
    assert_eq!(
        std::fs::read_to_string(work.join("real.txt")).unwrap(),
        "new"
    );
    // A FIFO: refused at once, not waited on.
    nix::unistd::mkfifo(
        &work.join("pipe"),
        nix::sys::stat::Mode::from_bits_truncate(0o600),
    )
    .unwrap();
    let (ok, out) = write(&work, &work.join("pipe"), "x").await;
    assert!(!ok, "{out}");

    // Races: the file itself, then a folder on the way, flipped while writing.
    let mut table = Vec::new();
    for (what, path, target, folder) in [
        ("the file", work.join("flip.txt"), h.join(".bashrc"), false),
        ("a folder", work.join("flipdir"), autostart.clone(), true),
    ] {
        let stop = Arc::new(AtomicBool::new(false));
        let flips = flipper(&path, &target, folder, Arc::clone(&stop));
        let file = if folder {
            path.join("x.desktop")
        } else {
            path.clone()
        };
        let (mut wrote, mut refused) = (0, 0);
        for i in 0..400 {
            match write(&work, &file, &format!("write {i}\n")).await {
                (true, _) => wrote += 1,
                (false, _) => refused += 1,
            }
        }
        stop.store(true, Ordering::Relaxed);
        let flips = flips.join().unwrap();
        table.push(format!(
            "{what}: {flips} flips, {wrote} written, {refused} refused"
        ));
    }
    println!("{}", table.join("\n"));
    assert_eq!(
        std::fs::read_to_string(h.join(".bashrc")).unwrap(),
        "# the person's\n",
        "a startup file was written through a link"
    );
    let in_autostart: Vec<_> = std::fs::read_dir(&autostart).unwrap().flatten().collect();
    assert!(in_autostart.is_empty(), "{in_autostart:?}");
}

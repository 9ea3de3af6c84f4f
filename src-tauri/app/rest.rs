//! What the app gives back when it rests. Once the app has been quiet for a while after
//! something happened (its start, a task, a window shown, hidden or released), it hands
//! the system what it holds only because of what it just did:
//! - the pages of code and read-only data it mapped to start and act, most of them not
//!   used again at rest (measured: 17 MiB of the binary's code mapped after start,
//!   0.8 MiB of it touched in the next 20 s idle) — paged out (`MADV_PAGEOUT`), to be read
//!   again if they are needed. Pages another process also maps are left alone by the
//!   kernel, so WebKit's pages shared with its web process stay where they are;
//! - the tokenizer's tables (~25 MiB, loaded again in 60 ms by the next task that counts
//!   tokens), and then the free memory of its heap (`malloc_trim`), such as those tables
//!   or the skills' model once released.
//!
//! A tool call that runs for longer than the quiet time (a long command) is quiet too:
//! what the hand-back took is read again when the task goes on.
//!
//! Android compacts apps at rest the same way. Anything that happens resets the wait;
//! one hand-back per quiet spell.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;

/// How long the app stays quiet before it gives memory back.
const QUIET: Duration = Duration::from_secs(20);

/// The app's activity, as the router, the window's commands and the windows' lives see it.
pub struct Rest {
    activity: watch::Sender<()>,
}

impl Rest {
    /// Starts watching for quiet; the start itself counts as something that happened.
    pub fn start() -> Arc<Self> {
        let (activity, seen) = watch::channel(());
        tauri::async_runtime::spawn(rest_when_quiet(seen, QUIET));
        Arc::new(Self { activity })
    }

    /// Something happened: the next hand-back waits for the quiet after it.
    pub fn woke(&self) {
        self.activity.send_modify(|()| {});
    }
}

/// Gives memory back each time `after` passes with no activity following some activity.
async fn rest_when_quiet(mut seen: watch::Receiver<()>, after: Duration) {
    loop {
        seen.borrow_and_update();
        tokio::time::sleep(after).await;
        match seen.has_changed() {
            Ok(true) => continue,
            Ok(false) => {}
            Err(_) => return,
        }
        // The tokenizer's tables go first, so the heap's trim returns them too.
        let tokenizer = zeta_core::context::let_go_of_the_tokenizer();
        let given = tokio::task::spawn_blocking(give_back).await;
        match given {
            Ok(Ok(given)) => tracing::debug!(
                tokenizer,
                "at rest: gave back the pages of {} mappings and the heap's free memory",
                given
            ),
            Ok(Err(e)) => tracing::debug!("at rest: could not give memory back ({e})"),
            Err(e) => tracing::debug!("at rest: the hand-back stopped ({e})"),
        }
        if seen.changed().await.is_err() {
            return;
        }
    }
}

/// A mapping of this process, as `/proc/self/maps` lists it.
#[derive(Debug, PartialEq)]
struct Mapping {
    start: usize,
    end: usize,
}

/// The mappings whose pages can be read again from their files: private, not writable,
/// backed by a file that still exists (not shared memory, devices or anonymous memory).
fn from_files(maps: &str) -> Vec<Mapping> {
    maps.lines()
        .filter_map(|line| {
            let mut fields = line.split_whitespace();
            let range = fields.next()?;
            let perms = fields.next()?;
            let path = fields.nth(3)?;
            let rest: Vec<&str> = fields.collect();
            let perms = perms.as_bytes();
            let private_read_only = perms.len() == 4 && perms[1] != b'w' && perms[3] == b'p';
            let file = path.starts_with('/')
                && !path.starts_with("/dev/")
                && !path.starts_with("/memfd:")
                && !path.starts_with("/SYSV")
                && !rest.contains(&"(deleted)");
            if !private_read_only || !file {
                return None;
            }
            let (start, end) = range.split_once('-')?;
            let start = usize::from_str_radix(start, 16).ok()?;
            let end = usize::from_str_radix(end, 16).ok()?;
            (end > start).then_some(Mapping { start, end })
        })
        .collect()
}

/// Pages out this process's file-backed read-only mappings and trims its heap; the
/// number of mappings advised.
#[cfg(target_os = "linux")]
fn give_back() -> std::io::Result<usize> {
    let maps = std::fs::read_to_string("/proc/self/maps")?;
    let mut advised = 0;
    for mapping in from_files(&maps) {
        // SAFETY: the range is one of this process's own mappings, as the kernel listed it
        // a moment ago; MADV_PAGEOUT changes no content (the pages are read again from
        // their file when touched), and a range unmapped since then is an error, not harm.
        let done = unsafe {
            libc::madvise(
                mapping.start as *mut libc::c_void,
                mapping.end - mapping.start,
                libc::MADV_PAGEOUT,
            )
        };
        if done != 0 {
            let e = std::io::Error::last_os_error();
            // A kernel before 5.4 knows no MADV_PAGEOUT: nothing to do there.
            if e.raw_os_error() == Some(libc::EINVAL) && advised == 0 {
                return Err(e);
            }
            continue;
        }
        advised += 1;
    }
    #[cfg(target_env = "gnu")]
    // SAFETY: malloc_trim only returns the allocator's free memory to the system.
    unsafe {
        libc::malloc_trim(0);
    }
    Ok(advised)
}

#[cfg(not(target_os = "linux"))]
fn give_back() -> std::io::Result<usize> {
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_private_read_only_file_mappings_are_given_back() {
        let maps = "\
5638a301b000-5638a41af000 r--p 00000000 fe:01 1234 /usr/bin/zeta
5638a41af000-5638a6610000 r-xp 01194000 fe:01 1234 /usr/bin/zeta
5638a6610000-5638a6820000 r--p 035f5000 fe:01 1234 /usr/bin/zeta
5638a6820000-5638a6834000 rw-p 03805000 fe:01 1234 /usr/bin/zeta
5638a7000000-5638a8000000 rw-p 00000000 00:00 0 [heap]
7f0000000000-7f0000100000 rw-s 00000000 00:01 9 /SYSV00000000 (deleted)
7f0000100000-7f0000200000 r--s 00000000 00:05 7 /memfd:wayland-shm (deleted)
7f0000200000-7f0000300000 r-xp 00000000 fe:01 77 /usr/lib/libwebkit2gtk-4.1.so.0
7f0000300000-7f0000400000 r--p 00000000 fe:01 78 /tmp/replaced.so (deleted)
7f0000400000-7f0000500000 r--p 00000000 00:06 5 /dev/dri/card0
7f0000500000-7f0000600000 ---p 00000000 00:00 0
7ffd00000000-7ffd00021000 rw-p 00000000 00:00 0 [stack]
7ffd00100000-7ffd00102000 r-xp 00000000 00:00 0 [vdso]
garbage line
ffff-0000 r--p 00000000 fe:01 1 /backwards
";
        let got = from_files(maps);
        assert_eq!(
            got,
            vec![
                Mapping {
                    start: 0x5638a301b000,
                    end: 0x5638a41af000
                },
                Mapping {
                    start: 0x5638a41af000,
                    end: 0x5638a6610000
                },
                Mapping {
                    start: 0x5638a6610000,
                    end: 0x5638a6820000
                },
                Mapping {
                    start: 0x7f0000200000,
                    end: 0x7f0000300000
                },
            ]
        );
    }

    /// The effect on a real process (this test's): a file mapped and read is resident,
    /// and after the hand-back it is not, yet reads the same.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_file_read_through_its_mapping_is_given_back_and_reads_the_same() {
        use std::io::Write;
        let mut file = tempfile::NamedTempFile::new().unwrap();
        let content: Vec<u8> = (0..8 * 1024 * 1024u32).map(|i| (i % 251) as u8).collect();
        file.write_all(&content).unwrap();
        file.as_file().sync_all().unwrap();
        let path = file.path().display().to_string();
        // SAFETY: a private read-only mapping of a file this test owns and does not change.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                content.len(),
                libc::PROT_READ,
                libc::MAP_PRIVATE,
                std::os::fd::AsRawFd::as_raw_fd(file.as_file()),
                0,
            )
        };
        assert_ne!(base, libc::MAP_FAILED);
        // SAFETY: `base` maps `content.len()` readable bytes until the munmap below.
        let mapped = unsafe { std::slice::from_raw_parts(base as *const u8, content.len()) };
        let sum = |bytes: &[u8]| bytes.iter().map(|b| u64::from(*b)).sum::<u64>();
        assert_eq!(sum(mapped), sum(&content));
        let resident = |path: &str| -> u64 {
            let smaps = std::fs::read_to_string("/proc/self/smaps").unwrap();
            let mut inside = false;
            for line in smaps.lines() {
                let header = line.split_whitespace().next().is_some_and(|range| {
                    range.contains('-') && range.chars().all(|c| c.is_ascii_hexdigit() || c == '-')
                });
                if header {
                    inside = line.ends_with(path);
                }
                if inside {
                    if let Some(kb) = line.strip_prefix("Rss:") {
                        return kb.trim().trim_end_matches(" kB").trim().parse().unwrap();
                    }
                }
            }
            panic!("{path} is not mapped");
        };
        let before = resident(&path);
        assert!(
            before >= 7 * 1024,
            "read through, it is resident: {before} kB"
        );
        let advised = give_back().unwrap();
        assert!(advised >= 1);
        let after = resident(&path);
        assert!(after < before / 4, "given back: {before} kB → {after} kB");
        assert_eq!(sum(mapped), sum(&content), "the same bytes, read again");
        // SAFETY: the mapping made above, unmapped once.
        unsafe { libc::munmap(base, content.len()) };
    }
}

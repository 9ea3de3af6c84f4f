//! A folder tree as a comparable value, for the undo tests: per path, its kind, mode,
//! and content (length and hash) or link target; and the differences between two.

use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// Per path under the root (relative), what it is.
pub type Snapshot = BTreeMap<PathBuf, String>;

/// `root`'s tree now (not following links).
pub fn snapshot(root: &Path) -> Snapshot {
    let mut out = Snapshot::new();
    for entry in walkdir::WalkDir::new(root)
        .min_depth(1)
        .sort_by_file_name()
        .into_iter()
        .flatten()
    {
        let path = entry.path();
        let rel = path.strip_prefix(root).unwrap_or(path).to_path_buf();
        let Ok(meta) = std::fs::symlink_metadata(path) else {
            continue;
        };
        let mode = meta.permissions().mode() & 0o7777;
        let what = if meta.file_type().is_symlink() {
            let target = std::fs::read_link(path).unwrap_or_default();
            format!("link -> {}", target.display())
        } else if meta.is_dir() {
            format!("dir {mode:o}")
        } else if meta.is_file() {
            let bytes = std::fs::read(path).unwrap_or_default();
            format!("file {mode:o} {} {:x}", bytes.len(), fnv(&bytes))
        } else {
            format!("other {mode:o}")
        };
        out.insert(rel, what);
    }
    out
}

fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// What differs from `a` to `b`, a line per path.
pub fn differences(a: &Snapshot, b: &Snapshot) -> Vec<String> {
    let mut out = Vec::new();
    for (path, what) in a {
        match b.get(path) {
            None => out.push(format!("missing {}: {what}", path.display())),
            Some(other) if other != what => {
                out.push(format!("{}: {what} ≠ {other}", path.display()))
            }
            _ => {}
        }
    }
    for (path, what) in b {
        if !a.contains_key(path) {
            out.push(format!("extra {}: {what}", path.display()));
        }
    }
    out
}

//! The task generator: families of everyday requests, each with randomised fixtures and
//! phrasings, and a check against the machine's truth after the task ran.
//!
//! A family belongs to one half: `Tune` (the half one may look at while improving Zeta)
//! or `HeldOut` (reported, never tuned on; its transcripts stay hidden unless asked for).
//! A family is a function from a seeded generator and a work folder (the task's HOME) to
//! the request and its check; it writes its fixtures into the folder itself. The
//! families are in questions.rs (files, text, tables, the system, numbers and dates) and
//! changes.rs (changes, find-then-act, two-part requests); this file holds what they
//! share and the list of every family with its half.

mod changes;
mod questions;

use std::path::Path;
use std::process::Command;

use changes::*;
use questions::*;

/// Which half a family belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Half {
    Tune,
    HeldOut,
}

/// What the task's check says: `Ok` solved, `Err` why not.
pub type Verdict = Result<(), String>;

/// How a task is checked: the work folder and the loop's answer, against the truth.
pub type CheckFn = Box<dyn Fn(&Path, &str) -> Verdict>;

/// One generated task: the request and how to check it once the loop answered.
pub struct Generated {
    pub request: String,
    pub check: CheckFn,
}

pub struct Family {
    pub name: &'static str,
    pub kind: &'static str,
    pub half: Half,
    pub make: fn(&mut Rng, &Path) -> Generated,
}

/// splitmix64: reproducible fixtures without a dependency.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// A number in `lo..=hi`.
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next() % (hi - lo + 1)
    }
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.next() as usize % items.len()]
    }
    /// `n` different items of `items`.
    pub fn several<T: Clone>(&mut self, items: &[T], n: usize) -> Vec<T> {
        let mut pool: Vec<T> = items.to_vec();
        let mut out = Vec::new();
        while out.len() < n && !pool.is_empty() {
            let i = self.next() as usize % pool.len();
            out.push(pool.remove(i));
        }
        out
    }
}

pub(super) const DIRS: &[&str] = &[
    "reports", "notes", "inbox", "work", "projects", "docs", "exports", "misc",
];
pub(super) const STEMS: &[&str] = &[
    "alpha", "budget", "draft", "summary", "minutes", "plan", "index", "todo", "letter", "invoice",
    "photo", "backup", "report", "memo", "list", "agenda",
];
pub(super) const WORDS: &[&str] = &[
    "apple", "river", "stone", "cloud", "engine", "garden", "window", "silver", "harbor", "meadow",
    "planet", "candle",
];
pub(super) const CITIES: &[&str] = &[
    "Paris", "Lyon", "Nice", "Berlin", "Hamburg", "Madrid", "Porto", "Turin",
];
pub(super) const ITEMS: &[&str] = &["pen", "ink", "pad", "stapler", "folder", "tape", "clip"];

pub fn write(path: &Path, text: &str) {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).expect("folder");
    }
    std::fs::write(path, text).expect("write");
}

pub fn read(path: &Path) -> Option<String> {
    std::fs::read_to_string(path).ok()
}

pub fn sh(command: &str) -> String {
    let out = Command::new("bash")
        .args(["-c", command])
        .output()
        .expect("bash");
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// The numbers a reply gives (commas between thousands allowed).
pub(super) fn numbers(reply: &str) -> Vec<f64> {
    let cleaned: String = reply
        .chars()
        .collect::<Vec<_>>()
        .windows(3)
        .map(|w| {
            if w[1] == ',' && w[0].is_ascii_digit() && w[2].is_ascii_digit() {
                '\u{0}'
            } else {
                w[1]
            }
        })
        .collect();
    let cleaned = format!(" {cleaned} ").replace('\u{0}', "");
    cleaned
        .split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
        .filter_map(|n| n.trim_matches(['.', '-']).parse::<f64>().ok())
        .collect()
}

pub fn says_number(reply: &str, want: f64) -> Verdict {
    if numbers(reply).iter().any(|n| (n - want).abs() < 0.011) {
        Ok(())
    } else {
        Err(format!("the reply does not give {want}"))
    }
}

pub fn says(reply: &str, want: &str) -> Verdict {
    if reply.to_lowercase().contains(&want.to_lowercase()) {
        Ok(())
    } else {
        Err(format!("the reply does not say {want:?}"))
    }
}

pub(super) fn says_not(reply: &str, wrong: &[String]) -> Verdict {
    match wrong
        .iter()
        .find(|w| reply.to_lowercase().contains(&w.to_lowercase()))
    {
        Some(w) => Err(format!("the reply also names {w:?}")),
        None => Ok(()),
    }
}

pub(super) fn holds(path: &Path, want: &str) -> Verdict {
    match read(path) {
        Some(t) if t.trim() == want.trim() => Ok(()),
        Some(t) => Err(format!(
            "{} holds {:?}",
            path.display(),
            t.chars().take(60).collect::<String>()
        )),
        None => Err(format!("{} is missing", path.display())),
    }
}

pub(super) fn exists(path: &Path, want: bool) -> Verdict {
    if path.exists() == want {
        Ok(())
    } else if want {
        Err(format!("{} is missing", path.display()))
    } else {
        Err(format!("{} is still there", path.display()))
    }
}

pub(super) fn all(verdicts: impl IntoIterator<Item = Verdict>) -> Verdict {
    verdicts
        .into_iter()
        .collect::<Result<Vec<()>, String>>()
        .map(|_| ())
}

pub(super) fn text_lines(rng: &mut Rng, n: u64) -> Vec<String> {
    (0..n)
        .map(|i| {
            let a = rng.pick(WORDS);
            let b = rng.pick(WORDS);
            format!("line {} {a} {b}", i + 1)
        })
        .collect()
}

/// Files in `dir` of several kinds; returns (name, size) of each.
pub(super) fn mixed_files(rng: &mut Rng, dir: &Path, n: usize) -> Vec<(String, usize)> {
    let exts = ["txt", "log", "csv", "md", "pdf", "json"];
    let stems = rng.several(STEMS, n);
    let mut sizes = rng.several(&(1..=60).map(|k| k * 137).collect::<Vec<_>>(), n);
    sizes.sort_unstable();
    let mut out = Vec::new();
    for (stem, size) in stems.iter().zip(sizes.iter().rev()) {
        let name = format!("{stem}.{}", rng.pick(&exts));
        write(&dir.join(&name), &"x".repeat(*size));
        out.push((name, *size));
    }
    out
}

pub(super) fn csv_table(rng: &mut Rng) -> (Vec<(String, String, u64)>, String) {
    let n = rng.range(5, 9) as usize;
    let mut rows = Vec::new();
    let mut amounts: Vec<u64> = rng.several(&(3..=99).collect::<Vec<_>>(), n);
    amounts.truncate(n);
    for amount in amounts {
        rows.push((
            rng.pick(CITIES).to_string(),
            rng.pick(ITEMS).to_string(),
            amount,
        ));
    }
    let mut text = "city,item,amount\n".to_string();
    for (c, i, a) in &rows {
        text.push_str(&format!("{c},{i},{a}\n"));
    }
    (rows, text)
}

pub(super) fn date(rng: &mut Rng) -> String {
    format!(
        "20{}-{:02}-{:02}",
        rng.range(20, 27),
        rng.range(1, 12),
        rng.range(1, 28)
    )
}

macro_rules! family {
    ($name:literal, $kind:literal, $half:ident, $make:ident) => {
        Family {
            name: $name,
            kind: $kind,
            half: Half::$half,
            make: $make,
        }
    };
}

/// Every family; the half each belongs to was fixed before any run.
pub const FAMILIES: &[Family] = &[
    family!("count-ext", "files", Tune, count_ext),
    family!("count-all", "files", HeldOut, count_all),
    family!("largest-file", "files", Tune, largest_file),
    family!("file-size", "files", HeldOut, file_size),
    family!("newest-file", "files", HeldOut, newest_file),
    family!("empty-files", "files", Tune, empty_files),
    family!("line-count", "text", HeldOut, line_count),
    family!("lines-with-word", "text", Tune, lines_with_word),
    family!("last-line", "text", HeldOut, last_line),
    family!("which-file-mentions", "text", Tune, which_file_mentions),
    family!("word-count", "text", HeldOut, word_count),
    family!("csv-sum", "tables", Tune, csv_sum),
    family!("csv-max", "tables", HeldOut, csv_max),
    family!("csv-rows", "tables", HeldOut, csv_rows),
    family!("csv-distinct", "tables", Tune, csv_distinct),
    family!("sys-user", "system", Tune, sys_user),
    family!("sys-kernel", "system", Tune, sys_kernel),
    family!("sys-hostname", "system", HeldOut, sys_hostname),
    family!("sys-python", "system", HeldOut, sys_python),
    family!("arithmetic", "numbers", Tune, arithmetic),
    family!("percent", "numbers", HeldOut, percent),
    family!("days-between", "dates", HeldOut, days_between),
    family!("weekday", "dates", Tune, weekday),
    family!("create-with-text", "changes", Tune, create_with_text),
    family!("copy-file", "changes", HeldOut, copy_file),
    family!("rename-file", "changes", Tune, rename_file),
    family!("delete-by-ext", "changes", HeldOut, delete_by_ext),
    family!("archive", "changes", HeldOut, archive),
    family!("replace-text", "changes", Tune, replace_text),
    family!("chmod-exec", "changes", HeldOut, chmod_exec),
    family!("mkdir-move", "changes", Tune, mkdir_move),
    family!("largest-copy", "find-then-act", HeldOut, largest_copy),
    family!("count-write", "find-then-act", Tune, count_write),
    family!("newest-move", "find-then-act", HeldOut, newest_move),
    family!("count-and-largest", "two-part", Tune, count_and_largest),
    family!("lines-and-first", "two-part", HeldOut, lines_and_first),
];

//! The task generator: families of everyday requests, each with randomised fixtures and
//! phrasings, and a check against the machine's truth after the task ran.
//!
//! A family belongs to one half: `Tune` (the half one may look at while improving Zeta)
//! or `HeldOut` (reported, never tuned on; its transcripts stay hidden unless asked for).
//! A family is a function from a seeded generator and a work folder (the task's HOME) to
//! the request and its check; it writes its fixtures into the folder itself.

use std::path::Path;
use std::process::Command;

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

const DIRS: &[&str] = &[
    "reports", "notes", "inbox", "work", "projects", "docs", "exports", "misc",
];
const STEMS: &[&str] = &[
    "alpha", "budget", "draft", "summary", "minutes", "plan", "index", "todo", "letter", "invoice",
    "photo", "backup", "report", "memo", "list", "agenda",
];
const WORDS: &[&str] = &[
    "apple", "river", "stone", "cloud", "engine", "garden", "window", "silver", "harbor", "meadow",
    "planet", "candle",
];
const CITIES: &[&str] = &[
    "Paris", "Lyon", "Nice", "Berlin", "Hamburg", "Madrid", "Porto", "Turin",
];
const ITEMS: &[&str] = &["pen", "ink", "pad", "stapler", "folder", "tape", "clip"];

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
fn numbers(reply: &str) -> Vec<f64> {
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

fn says_not(reply: &str, wrong: &[String]) -> Verdict {
    match wrong
        .iter()
        .find(|w| reply.to_lowercase().contains(&w.to_lowercase()))
    {
        Some(w) => Err(format!("the reply also names {w:?}")),
        None => Ok(()),
    }
}

fn holds(path: &Path, want: &str) -> Verdict {
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

fn exists(path: &Path, want: bool) -> Verdict {
    if path.exists() == want {
        Ok(())
    } else if want {
        Err(format!("{} is missing", path.display()))
    } else {
        Err(format!("{} is still there", path.display()))
    }
}

fn all(verdicts: impl IntoIterator<Item = Verdict>) -> Verdict {
    verdicts
        .into_iter()
        .collect::<Result<Vec<()>, String>>()
        .map(|_| ())
}

fn text_lines(rng: &mut Rng, n: u64) -> Vec<String> {
    (0..n)
        .map(|i| {
            let a = rng.pick(WORDS);
            let b = rng.pick(WORDS);
            format!("line {} {a} {b}", i + 1)
        })
        .collect()
}

/// Files in `dir` of several kinds; returns (name, size) of each.
fn mixed_files(rng: &mut Rng, dir: &Path, n: usize) -> Vec<(String, usize)> {
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

fn csv_table(rng: &mut Rng) -> (Vec<(String, String, u64)>, String) {
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

fn date(rng: &mut Rng) -> String {
    format!(
        "20{}-{:02}-{:02}",
        rng.range(20, 27),
        rng.range(1, 12),
        rng.range(1, 28)
    )
}

// ---------------------------------------------------------------------------------------
// Questions about files.

fn count_ext(rng: &mut Rng, w: &Path) -> Generated {
    let dir = *rng.pick(DIRS);
    let ext = *rng.pick(&["log", "txt", "csv", "md"]);
    let n = rng.range(2, 7);
    for stem in rng.several(STEMS, n as usize) {
        write(&w.join(dir).join(format!("{stem}.{ext}")), "x\n");
    }
    write(&w.join(dir).join(format!("old.{ext}.gz")), "x");
    write(&w.join(dir).join("readme.rtf"), "x");
    let request = match rng.range(0, 2) {
        0 => format!("How many .{ext} files are in ~/{dir}?"),
        1 => format!("Count the {ext} files in the {dir} folder of my home."),
        _ => format!("how many files ending in .{ext} do I have in ~/{dir}"),
    };
    Generated {
        request,
        check: Box::new(move |_, r| says_number(r, n as f64)),
    }
}

fn count_all(rng: &mut Rng, w: &Path) -> Generated {
    let dir = *rng.pick(DIRS);
    let n = rng.range(3, 9) as usize;
    mixed_files(rng, &w.join(dir), n);
    let request = match rng.range(0, 2) {
        0 => format!("How many files are in ~/{dir}?"),
        1 => format!("Tell me how many files my {dir} folder holds."),
        _ => format!("count the files in ~/{dir} please"),
    };
    Generated {
        request,
        check: Box::new(move |_, r| says_number(r, n as f64)),
    }
}

fn largest_file(rng: &mut Rng, w: &Path) -> Generated {
    let dir = *rng.pick(DIRS);
    let n = rng.range(3, 6) as usize;
    let files = mixed_files(rng, &w.join(dir), n);
    let biggest = files[0].0.clone();
    let request = match rng.range(0, 2) {
        0 => format!("Which file in ~/{dir} is the largest?"),
        1 => format!("What's the biggest file in my {dir} folder?"),
        _ => format!("find the largest file under ~/{dir} and tell me its name"),
    };
    Generated {
        request,
        check: Box::new(move |_, r| says(r, &biggest)),
    }
}

fn file_size(rng: &mut Rng, w: &Path) -> Generated {
    let dir = *rng.pick(DIRS);
    let n = rng.range(2, 4) as usize;
    let files = mixed_files(rng, &w.join(dir), n);
    let (name, size) = rng.pick(&files).clone();
    let request = match rng.range(0, 2) {
        0 => format!("How big is ~/{dir}/{name} in bytes?"),
        1 => format!("What is the size of ~/{dir}/{name}, in bytes?"),
        _ => format!("how many bytes does {name} in ~/{dir} take up"),
    };
    Generated {
        request,
        check: Box::new(move |_, r| says_number(r, size as f64)),
    }
}

fn newest_file(rng: &mut Rng, w: &Path) -> Generated {
    let dir = *rng.pick(DIRS);
    let n = rng.range(3, 5) as usize;
    let files = mixed_files(rng, &w.join(dir), n);
    let days = rng.several(&(1..=27).collect::<Vec<u64>>(), n);
    let mut newest = (0, String::new());
    for ((name, _), day) in files.iter().zip(days) {
        sh(&format!(
            "touch -d '2026-02-{day:02} 10:00' '{}'",
            w.join(dir).join(name).display()
        ));
        if day > newest.0 {
            newest = (day, name.clone());
        }
    }
    let newest = newest.1;
    let request = match rng.range(0, 2) {
        0 => format!("Which file in ~/{dir} was changed most recently?"),
        1 => format!("What is the newest file in ~/{dir}?"),
        _ => format!("which of the files in my {dir} folder was modified last"),
    };
    Generated {
        request,
        check: Box::new(move |_, r| says(r, &newest)),
    }
}

fn empty_files(rng: &mut Rng, w: &Path) -> Generated {
    let dir = *rng.pick(DIRS);
    let stems = rng.several(STEMS, 5);
    let empty = rng.range(1, 2) as usize;
    let mut names = Vec::new();
    for (i, stem) in stems.iter().enumerate() {
        let name = format!("{stem}.txt");
        write(
            &w.join(dir).join(&name),
            if i < empty { "" } else { "some text\n" },
        );
        names.push(name);
    }
    let (want, wrong) = names.split_at(empty);
    let (want, wrong) = (want.to_vec(), wrong.to_vec());
    let request = match rng.range(0, 2) {
        0 => format!("Which files in ~/{dir} are empty?"),
        1 => format!("Are there any empty files in ~/{dir}? Name them."),
        _ => format!("list the files with no content in my {dir} folder"),
    };
    Generated {
        request,
        check: Box::new(move |_, r| {
            all(want.iter().map(|n| says(r, n)).chain([says_not(r, &wrong)]))
        }),
    }
}

// ---------------------------------------------------------------------------------------
// Text in files.

fn line_count(rng: &mut Rng, w: &Path) -> Generated {
    let stem = *rng.pick(STEMS);
    let n = rng.range(12, 180);
    let lines = text_lines(rng, n);
    write(&w.join(format!("{stem}.txt")), &(lines.join("\n") + "\n"));
    let request = match rng.range(0, 2) {
        0 => format!("How many lines are in ~/{stem}.txt?"),
        1 => format!("How many lines does the file ~/{stem}.txt have?"),
        _ => format!("count the lines of {stem}.txt in my home folder"),
    };
    Generated {
        request,
        check: Box::new(move |_, r| says_number(r, n as f64)),
    }
}

fn lines_with_word(rng: &mut Rng, w: &Path) -> Generated {
    let word = *rng.pick(&["ERROR", "WARN", "timeout", "denied"]);
    let n = rng.range(20, 60);
    let mut hits = 0;
    let mut text = String::new();
    for i in 0..n {
        if rng.range(0, 4) == 0 {
            hits += 1;
            text.push_str(&format!("2026-03-{:02} {word} step {i}\n", 1 + i % 28));
        } else {
            text.push_str(&format!("2026-03-{:02} info step {i}\n", 1 + i % 28));
        }
    }
    let file = *rng.pick(&["app.log", "server.log", "sync.log"]);
    write(&w.join(file), &text);
    let request = match rng.range(0, 2) {
        0 => format!("How many lines in ~/{file} contain {word}?"),
        1 => format!("Count the {word} lines in ~/{file}."),
        _ => format!("how often does {word} appear in my {file} (lines)?"),
    };
    Generated {
        request,
        check: Box::new(move |_, r| says_number(r, hits as f64)),
    }
}

fn last_line(rng: &mut Rng, w: &Path) -> Generated {
    let stem = *rng.pick(STEMS);
    let n = rng.range(4, 30);
    let mut lines = text_lines(rng, n);
    let last = format!("the end is {} {}", rng.pick(WORDS), rng.pick(WORDS));
    lines.push(last.clone());
    write(&w.join(format!("{stem}.txt")), &(lines.join("\n") + "\n"));
    let request = match rng.range(0, 2) {
        0 => format!("What is the last line of ~/{stem}.txt?"),
        1 => format!("Show me the final line in ~/{stem}.txt."),
        _ => format!("what does the last line of {stem}.txt in my home say"),
    };
    Generated {
        request,
        check: Box::new(move |_, r| says(r, &last)),
    }
}

fn which_file_mentions(rng: &mut Rng, w: &Path) -> Generated {
    let dir = *rng.pick(DIRS);
    let stems = rng.several(STEMS, 4);
    let word = rng
        .pick(&["Zanzibar", "Kilimanjaro", "Reykjavik", "Tasmania"])
        .to_string();
    let hit = rng.range(0, 3) as usize;
    let mut others = Vec::new();
    for (i, stem) in stems.iter().enumerate() {
        let name = format!("{stem}.txt");
        let body = if i == hit {
            format!("notes\nwe met in {word} last year\nend\n")
        } else {
            others.push(name.clone());
            "notes\nnothing to see\nend\n".to_string()
        };
        write(&w.join(dir).join(&name), &body);
    }
    let want = format!("{}.txt", stems[hit]);
    let request = match rng.range(0, 2) {
        0 => format!("Which file in ~/{dir} mentions {word}?"),
        1 => format!("One of the files in ~/{dir} talks about {word}. Which one?"),
        _ => format!("find the file in my {dir} folder that contains the word {word}"),
    };
    Generated {
        request,
        check: Box::new(move |_, r| says(r, &want).and(says_not(r, &others))),
    }
}

fn word_count(rng: &mut Rng, w: &Path) -> Generated {
    let stem = *rng.pick(STEMS);
    let n = rng.range(3, 12);
    let mut words = 0;
    let mut text = String::new();
    for _ in 0..n {
        let k = rng.range(2, 9);
        let line: Vec<&str> = (0..k).map(|_| *rng.pick(WORDS)).collect();
        words += k;
        text.push_str(&line.join(" "));
        text.push('\n');
    }
    write(&w.join(format!("{stem}.txt")), &text);
    let request = match rng.range(0, 2) {
        0 => format!("How many words are in ~/{stem}.txt?"),
        1 => format!("Give me the word count of ~/{stem}.txt."),
        _ => format!("how many words does {stem}.txt in my home folder contain"),
    };
    Generated {
        request,
        check: Box::new(move |_, r| says_number(r, words as f64)),
    }
}

// ---------------------------------------------------------------------------------------
// Tables.

fn csv_sum(rng: &mut Rng, w: &Path) -> Generated {
    let (rows, text) = csv_table(rng);
    let file = *rng.pick(&["sales.csv", "orders.csv", "q3.csv"]);
    write(&w.join(file), &text);
    let total: u64 = rows.iter().map(|r| r.2).sum();
    let request = match rng.range(0, 2) {
        0 => format!("What is the total of the amount column in ~/{file}?"),
        1 => format!("Add up the amounts in ~/{file}."),
        _ => format!("sum of all amounts in my {file}?"),
    };
    Generated {
        request,
        check: Box::new(move |_, r| says_number(r, total as f64)),
    }
}

fn csv_max(rng: &mut Rng, w: &Path) -> Generated {
    let (rows, text) = csv_table(rng);
    let file = *rng.pick(&["sales.csv", "orders.csv", "q3.csv"]);
    write(&w.join(file), &text);
    let best = rows.iter().max_by_key(|r| r.2).map(|r| r.2).unwrap_or(0);
    let request = match rng.range(0, 2) {
        0 => format!("What is the largest amount in ~/{file}?"),
        1 => format!("In ~/{file}, which amount is the highest?"),
        _ => format!("biggest value of the amount column in my {file}"),
    };
    Generated {
        request,
        check: Box::new(move |_, r| says_number(r, best as f64)),
    }
}

fn csv_rows(rng: &mut Rng, w: &Path) -> Generated {
    let (rows, text) = csv_table(rng);
    let file = *rng.pick(&["sales.csv", "orders.csv", "q3.csv"]);
    write(&w.join(file), &text);
    let n = rows.len();
    let request = match rng.range(0, 2) {
        0 => format!("How many data rows are in ~/{file}, not counting the header?"),
        1 => format!("How many records does ~/{file} hold (without its header line)?"),
        _ => format!("number of rows in {file} in my home, header excluded"),
    };
    Generated {
        request,
        check: Box::new(move |_, r| says_number(r, n as f64)),
    }
}

fn csv_distinct(rng: &mut Rng, w: &Path) -> Generated {
    let (rows, text) = csv_table(rng);
    let file = *rng.pick(&["sales.csv", "orders.csv", "q3.csv"]);
    write(&w.join(file), &text);
    let mut cities: Vec<&str> = rows.iter().map(|r| r.0.as_str()).collect();
    cities.sort_unstable();
    cities.dedup();
    let n = cities.len();
    let request = match rng.range(0, 2) {
        0 => format!("How many different cities appear in ~/{file}?"),
        1 => format!("Count the distinct cities in ~/{file}."),
        _ => format!("how many unique cities are listed in my {file}"),
    };
    Generated {
        request,
        check: Box::new(move |_, r| says_number(r, n as f64)),
    }
}

// ---------------------------------------------------------------------------------------
// The system.

fn sys_user(rng: &mut Rng, _: &Path) -> Generated {
    let request = rng
        .pick(&[
            "What is my user name?",
            "Which user am I logged in as?",
            "what's my username on this machine",
        ])
        .to_string();
    Generated {
        request,
        check: Box::new(|_, r| says(r, &sh("whoami"))),
    }
}

fn sys_kernel(rng: &mut Rng, _: &Path) -> Generated {
    let request = rng
        .pick(&[
            "Which Linux kernel version is running?",
            "What kernel release does this computer run?",
            "tell me the kernel version",
        ])
        .to_string();
    Generated {
        request,
        check: Box::new(|_, r| says(r, &sh("uname -r"))),
    }
}

fn sys_hostname(rng: &mut Rng, _: &Path) -> Generated {
    let request = rng
        .pick(&[
            "What is this computer's hostname?",
            "What is the name of this machine on the network?",
            "hostname of this box?",
        ])
        .to_string();
    Generated {
        request,
        check: Box::new(|_, r| says(r, &sh("hostname"))),
    }
}

fn sys_python(rng: &mut Rng, _: &Path) -> Generated {
    let request = rng
        .pick(&[
            "Which version of Python 3 is installed?",
            "What python3 version do I have?",
            "tell me the version of python3 on this computer",
        ])
        .to_string();
    Generated {
        request,
        check: Box::new(|_, r| {
            let v = sh("python3 --version");
            says(r, v.trim_start_matches("Python ").trim())
        }),
    }
}

// ---------------------------------------------------------------------------------------
// Numbers and dates.

fn arithmetic(rng: &mut Rng, _: &Path) -> Generated {
    let (a, b) = (rng.range(12, 999), rng.range(12, 999));
    let (request, want) = match rng.range(0, 2) {
        0 => (format!("What is {a} times {b}?"), a * b),
        1 => (format!("Multiply {a} by {b}."), a * b),
        _ => (format!("what's {a} plus {b} plus {a}"), a + b + a),
    };
    Generated {
        request,
        check: Box::new(move |_, r| says_number(r, want as f64)),
    }
}

fn percent(rng: &mut Rng, _: &Path) -> Generated {
    let p = *rng.pick(&[5u64, 10, 15, 20, 25, 30, 40, 75]);
    let n = rng.range(2, 90) * 20;
    let want = (p * n) as f64 / 100.0;
    let request = match rng.range(0, 2) {
        0 => format!("What is {p} percent of {n}?"),
        1 => format!("Compute {p}% of {n}."),
        _ => format!("how much is {p} per cent of {n}"),
    };
    Generated {
        request,
        check: Box::new(move |_, r| says_number(r, want)),
    }
}

fn days_between(rng: &mut Rng, _: &Path) -> Generated {
    let (a, b) = (date(rng), date(rng));
    let (a, b) = if a <= b { (a, b) } else { (b, a) };
    let days: i64 = sh(&format!(
        "echo $(( ($(date -ud {b} +%s) - $(date -ud {a} +%s)) / 86400 ))"
    ))
    .parse()
    .unwrap_or(-1);
    let request = match rng.range(0, 2) {
        0 => format!("How many days are there between {a} and {b}?"),
        1 => format!("Count the days from {a} to {b}."),
        _ => format!("number of days between {a} and {b}?"),
    };
    Generated {
        request,
        check: Box::new(move |_, r| says_number(r, days as f64)),
    }
}

fn weekday(rng: &mut Rng, _: &Path) -> Generated {
    let d = date(rng);
    let day = sh(&format!("date -ud {d} +%A"));
    let request = match rng.range(0, 2) {
        0 => format!("What day of the week was {d}?"),
        1 => format!("Which weekday is {d}?"),
        _ => format!("on what day of the week does {d} fall"),
    };
    Generated {
        request,
        check: Box::new(move |_, r| says(r, &day)),
    }
}

// ---------------------------------------------------------------------------------------
// Changes.

fn create_with_text(rng: &mut Rng, w: &Path) -> Generated {
    let stem = *rng.pick(STEMS);
    let text = format!(
        "{} {} {}",
        rng.pick(&["Buy", "Call", "Send", "Fix"]),
        rng.pick(WORDS),
        rng.range(2, 99)
    );
    let request = match rng.range(0, 2) {
        0 => format!("Create a file ~/{stem}.txt containing the text: {text}"),
        1 => format!("Write \"{text}\" into a new file ~/{stem}.txt."),
        _ => format!("make a file called {stem}.txt in my home folder with the line {text}"),
    };
    let path = w.join(format!("{stem}.txt"));
    let _ = w;
    Generated {
        request,
        check: Box::new(move |_, _| holds(&path, &text)),
    }
}

fn copy_file(rng: &mut Rng, w: &Path) -> Generated {
    let dir = *rng.pick(DIRS);
    let stem = *rng.pick(STEMS);
    let body = format!("{} {}\n", rng.pick(WORDS), rng.range(1, 9999));
    write(&w.join(format!("{stem}.txt")), &body);
    std::fs::create_dir_all(w.join(dir)).expect("dir");
    let request = match rng.range(0, 2) {
        0 => format!("Copy ~/{stem}.txt into the folder ~/{dir}."),
        1 => format!("Put a copy of ~/{stem}.txt in ~/{dir}"),
        _ => format!("copy {stem}.txt from my home to my {dir} folder"),
    };
    let (src, dst) = (
        w.join(format!("{stem}.txt")),
        w.join(dir).join(format!("{stem}.txt")),
    );
    Generated {
        request,
        check: Box::new(move |_, _| all([holds(&dst, &body), holds(&src, &body)])),
    }
}

fn rename_file(rng: &mut Rng, w: &Path) -> Generated {
    let dir = *rng.pick(DIRS);
    let names = rng.several(STEMS, 2);
    let body = format!("{}\n", rng.pick(WORDS));
    write(&w.join(dir).join(format!("{}.txt", names[0])), &body);
    let (from, to) = (
        w.join(dir).join(format!("{}.txt", names[0])),
        w.join(dir).join(format!("{}.txt", names[1])),
    );
    let request = match rng.range(0, 2) {
        0 => format!("Rename ~/{dir}/{}.txt to {}.txt", names[0], names[1]),
        1 => format!(
            "In ~/{dir}, change the name of {}.txt to {}.txt.",
            names[0], names[1]
        ),
        _ => format!(
            "please rename the file {}.txt in my {dir} folder so it is called {}.txt",
            names[0], names[1]
        ),
    };
    Generated {
        request,
        check: Box::new(move |_, _| all([holds(&to, &body), exists(&from, false)])),
    }
}

fn delete_by_ext(rng: &mut Rng, w: &Path) -> Generated {
    let dir = *rng.pick(DIRS);
    let ext = *rng.pick(&["tmp", "bak", "old"]);
    let stems = rng.several(STEMS, 6);
    let (gone, kept) = stems.split_at(3);
    for s in gone {
        write(&w.join(dir).join(format!("{s}.{ext}")), "x");
    }
    for s in kept {
        write(&w.join(dir).join(format!("{s}.txt")), "x");
    }
    let gone: Vec<_> = gone
        .iter()
        .map(|s| w.join(dir).join(format!("{s}.{ext}")))
        .collect();
    let kept: Vec<_> = kept
        .iter()
        .map(|s| w.join(dir).join(format!("{s}.txt")))
        .collect();
    let request = match rng.range(0, 2) {
        0 => format!("Delete every .{ext} file in ~/{dir}."),
        1 => format!("Remove the {ext} files from ~/{dir}, keep everything else."),
        _ => format!("get rid of all *.{ext} files in my {dir} folder"),
    };
    Generated {
        request,
        check: Box::new(move |_, _| {
            all(gone
                .iter()
                .map(|p| exists(p, false))
                .chain(kept.iter().map(|p| exists(p, true))))
        }),
    }
}

fn archive(rng: &mut Rng, w: &Path) -> Generated {
    let dir = *rng.pick(DIRS);
    let stems = rng.several(STEMS, 3);
    for s in &stems {
        write(&w.join(dir).join(format!("{s}.txt")), "x\n");
    }
    let request = match rng.range(0, 2) {
        0 => format!("Make a tar.gz archive of ~/{dir} called ~/{dir}.tar.gz"),
        1 => format!("Pack the folder ~/{dir} into ~/{dir}.tar.gz."),
        _ => format!("compress my {dir} folder into a {dir}.tar.gz file in my home"),
    };
    let tar = w.join(format!("{dir}.tar.gz"));
    Generated {
        request,
        check: Box::new(move |_, _| {
            let listed = sh(&format!("tar tzf '{}' 2>/dev/null", tar.display()));
            all(stems.iter().map(|s| {
                if listed.contains(&format!("{s}.txt")) {
                    Ok(())
                } else {
                    Err(format!("{s}.txt is not in the archive"))
                }
            }))
        }),
    }
}

fn replace_text(rng: &mut Rng, w: &Path) -> Generated {
    let stem = *rng.pick(STEMS);
    let pair = rng.several(WORDS, 2);
    let (old, new) = (pair[0], pair[1]);
    let n = rng.range(4, 10);
    let mut before = String::new();
    for i in 0..n {
        let word = if i % 2 == 0 { old } else { "plain" };
        before.push_str(&format!("row {i} {word}\n"));
    }
    write(&w.join(format!("{stem}.txt")), &before);
    let after = before.replace(old, new);
    let request = match rng.range(0, 2) {
        0 => format!("Replace every {old} with {new} in ~/{stem}.txt"),
        1 => format!("In ~/{stem}.txt, change all occurrences of \"{old}\" to \"{new}\"."),
        _ => format!("swap {old} for {new} everywhere in my {stem}.txt"),
    };
    let path = w.join(format!("{stem}.txt"));
    Generated {
        request,
        check: Box::new(move |_, _| holds(&path, &after)),
    }
}

fn chmod_exec(rng: &mut Rng, w: &Path) -> Generated {
    let stem = *rng.pick(&["deploy", "backup", "cleanup", "sync", "build"]);
    let path = w.join(format!("bin/{stem}.sh"));
    write(&path, "#!/bin/sh\necho hi\n");
    let request = match rng.range(0, 2) {
        0 => format!("Make ~/bin/{stem}.sh executable."),
        1 => format!("Give ~/bin/{stem}.sh permission to run as a program."),
        _ => format!("set the execute bit on {stem}.sh in my bin folder"),
    };
    Generated {
        request,
        check: Box::new(move |_, _| {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).map(|m| m.permissions().mode());
            match mode {
                Ok(m) if m & 0o100 != 0 => Ok(()),
                other => Err(format!("mode {other:?}")),
            }
        }),
    }
}

fn mkdir_move(rng: &mut Rng, w: &Path) -> Generated {
    let dirs = rng.several(DIRS, 2);
    let (from, to) = (dirs[0].to_string(), dirs[1].to_string());
    let ext = *rng.pick(&["log", "csv", "md"]);
    let stems = rng.several(STEMS, 5);
    let (moved, kept) = stems.split_at(3);
    for s in moved {
        write(&w.join(&from).join(format!("{s}.{ext}")), "x");
    }
    for s in kept {
        write(&w.join(&from).join(format!("{s}.txt")), "x");
    }
    let request = match rng.range(0, 2) {
        0 => format!("Create a folder ~/{to} and move every .{ext} file from ~/{from} into it"),
        1 => format!(
            "Make a new folder {to} in my home and put all the {ext} files of ~/{from} there."
        ),
        _ => format!("move the .{ext} files out of ~/{from} into a new folder ~/{to}"),
    };
    let w = w.to_path_buf();
    let (moved, kept): (Vec<String>, Vec<String>) = (
        moved.iter().map(|s| format!("{s}.{ext}")).collect(),
        kept.iter().map(|s| format!("{s}.txt")).collect(),
    );
    Generated {
        request,
        check: Box::new(move |_, _| {
            all(moved
                .iter()
                .flat_map(|f| {
                    [
                        exists(&w.join(&to).join(f), true),
                        exists(&w.join(&from).join(f), false),
                    ]
                })
                .chain(kept.iter().map(|f| exists(&w.join(&from).join(f), true))))
        }),
    }
}

// ---------------------------------------------------------------------------------------
// Find, then act.

fn largest_copy(rng: &mut Rng, w: &Path) -> Generated {
    let dirs = rng.several(DIRS, 2);
    let (from, to) = (dirs[0].to_string(), dirs[1].to_string());
    let files = mixed_files(rng, &w.join(&from), 4);
    std::fs::create_dir_all(w.join(&to)).expect("dir");
    let (name, size) = files[0].clone();
    let request = match rng.range(0, 2) {
        0 => format!("Find the largest file in ~/{from} and copy it into ~/{to}"),
        1 => format!("Copy the biggest file of ~/{from} to the folder ~/{to}."),
        _ => format!("whichever file in my {from} folder is largest, put a copy of it in ~/{to}"),
    };
    let (dst, others): (_, Vec<_>) = (
        w.join(&to).join(&name),
        files[1..].iter().map(|f| w.join(&to).join(&f.0)).collect(),
    );
    Generated {
        request,
        check: Box::new(move |_, _| {
            let len = std::fs::metadata(&dst).map(|m| m.len() as usize).ok();
            let right = if len == Some(size) {
                Ok(())
            } else {
                Err(format!("{} is {len:?}", dst.display()))
            };
            all(std::iter::once(right).chain(others.iter().map(|p| exists(p, false))))
        }),
    }
}

fn count_write(rng: &mut Rng, w: &Path) -> Generated {
    let stem = *rng.pick(STEMS);
    let n = rng.range(5, 60);
    let lines = text_lines(rng, n);
    write(&w.join(format!("{stem}.txt")), &(lines.join("\n") + "\n"));
    let out = *rng.pick(&["count.txt", "lines.txt", "result.txt"]);
    let request = match rng.range(0, 2) {
        0 => format!("Count the lines in ~/{stem}.txt and write the number into ~/{out}"),
        1 => format!("How many lines does ~/{stem}.txt have? Save the number in ~/{out}."),
        _ => format!("put the line count of my {stem}.txt into a file ~/{out}"),
    };
    let path = w.join(out);
    Generated {
        request,
        check: Box::new(move |_, _| holds(&path, &n.to_string())),
    }
}

fn newest_move(rng: &mut Rng, w: &Path) -> Generated {
    let dir = *rng.pick(DIRS);
    let n = 4;
    let files = mixed_files(rng, &w.join(dir), n);
    let days = rng.several(&(1..=27).collect::<Vec<u64>>(), n);
    let mut newest = (0, String::new());
    for ((name, _), day) in files.iter().zip(days) {
        sh(&format!(
            "touch -d '2026-04-{day:02} 09:00' '{}'",
            w.join(dir).join(name).display()
        ));
        if day > newest.0 {
            newest = (day, name.clone());
        }
    }
    let newest = newest.1;
    let target = *rng.pick(&["latest", "current", "keep"]);
    let request = match rng.range(0, 2) {
        0 => {
            format!("Move the most recently modified file in ~/{dir} into a new folder ~/{target}")
        }
        1 => format!("Create ~/{target} and move the newest file from ~/{dir} into it."),
        _ => format!("put the newest file of my {dir} folder in a new folder ~/{target} (move it)"),
    };
    let (dst, src) = (w.join(target).join(&newest), w.join(dir).join(&newest));
    Generated {
        request,
        check: Box::new(move |_, _| all([exists(&dst, true), exists(&src, false)])),
    }
}

// ---------------------------------------------------------------------------------------
// Two parts.

fn count_and_largest(rng: &mut Rng, w: &Path) -> Generated {
    let dir = *rng.pick(DIRS);
    let n = rng.range(3, 6) as usize;
    let files = mixed_files(rng, &w.join(dir), n);
    let biggest = files[0].0.clone();
    let request = match rng.range(0, 2) {
        0 => format!("How many files are in ~/{dir}, and which one is the largest?"),
        1 => format!("Count the files in ~/{dir} and tell me which is biggest."),
        _ => format!("in my {dir} folder: how many files, and the name of the largest?"),
    };
    Generated {
        request,
        check: Box::new(move |_, r| all([says_number(r, n as f64), says(r, &biggest)])),
    }
}

fn lines_and_first(rng: &mut Rng, w: &Path) -> Generated {
    let stem = *rng.pick(STEMS);
    let n = rng.range(6, 40);
    let mut lines = text_lines(rng, n - 1);
    let first = format!("title {} {}", rng.pick(WORDS), rng.pick(WORDS));
    lines.insert(0, first.clone());
    write(&w.join(format!("{stem}.txt")), &(lines.join("\n") + "\n"));
    let request = match rng.range(0, 2) {
        0 => format!("How many lines does ~/{stem}.txt have, and what is its first line?"),
        1 => format!("Tell me the first line of ~/{stem}.txt and its number of lines."),
        _ => format!("first line and line count of {stem}.txt in my home?"),
    };
    Generated {
        request,
        check: Box::new(move |_, r| all([says_number(r, n as f64), says(r, &first)])),
    }
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

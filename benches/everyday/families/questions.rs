//! Families of questions: about files, text in files, tables, the system, numbers and
//! dates.

use std::path::Path;

use super::*;

// ---------------------------------------------------------------------------------------
// Questions about files.

pub fn count_ext(rng: &mut Rng, w: &Path) -> Generated {
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

pub fn count_all(rng: &mut Rng, w: &Path) -> Generated {
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

pub fn largest_file(rng: &mut Rng, w: &Path) -> Generated {
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

pub fn file_size(rng: &mut Rng, w: &Path) -> Generated {
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

pub fn newest_file(rng: &mut Rng, w: &Path) -> Generated {
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

pub fn empty_files(rng: &mut Rng, w: &Path) -> Generated {
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

pub fn line_count(rng: &mut Rng, w: &Path) -> Generated {
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

pub fn lines_with_word(rng: &mut Rng, w: &Path) -> Generated {
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

pub fn last_line(rng: &mut Rng, w: &Path) -> Generated {
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

pub fn which_file_mentions(rng: &mut Rng, w: &Path) -> Generated {
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

pub fn word_count(rng: &mut Rng, w: &Path) -> Generated {
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

pub fn csv_sum(rng: &mut Rng, w: &Path) -> Generated {
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

pub fn csv_max(rng: &mut Rng, w: &Path) -> Generated {
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

pub fn csv_rows(rng: &mut Rng, w: &Path) -> Generated {
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

pub fn csv_distinct(rng: &mut Rng, w: &Path) -> Generated {
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

pub fn sys_user(rng: &mut Rng, _: &Path) -> Generated {
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

pub fn sys_kernel(rng: &mut Rng, _: &Path) -> Generated {
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

pub fn sys_hostname(rng: &mut Rng, _: &Path) -> Generated {
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

pub fn sys_python(rng: &mut Rng, _: &Path) -> Generated {
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

pub fn arithmetic(rng: &mut Rng, _: &Path) -> Generated {
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

pub fn percent(rng: &mut Rng, _: &Path) -> Generated {
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

pub fn days_between(rng: &mut Rng, _: &Path) -> Generated {
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

pub fn weekday(rng: &mut Rng, _: &Path) -> Generated {
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

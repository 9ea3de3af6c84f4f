//! Families of changes: create, copy, rename, delete, archive, edit in place,
//! permissions, folders; find-then-act; and two-part requests.

use std::path::Path;

use super::*;

// ---------------------------------------------------------------------------------------
// Changes.

pub fn create_with_text(rng: &mut Rng, w: &Path) -> Generated {
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

pub fn copy_file(rng: &mut Rng, w: &Path) -> Generated {
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

pub fn rename_file(rng: &mut Rng, w: &Path) -> Generated {
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

pub fn delete_by_ext(rng: &mut Rng, w: &Path) -> Generated {
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

pub fn archive(rng: &mut Rng, w: &Path) -> Generated {
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

pub fn replace_text(rng: &mut Rng, w: &Path) -> Generated {
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

pub fn chmod_exec(rng: &mut Rng, w: &Path) -> Generated {
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

pub fn mkdir_move(rng: &mut Rng, w: &Path) -> Generated {
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

pub fn largest_copy(rng: &mut Rng, w: &Path) -> Generated {
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

pub fn count_write(rng: &mut Rng, w: &Path) -> Generated {
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

pub fn newest_move(rng: &mut Rng, w: &Path) -> Generated {
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

pub fn count_and_largest(rng: &mut Rng, w: &Path) -> Generated {
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

pub fn lines_and_first(rng: &mut Rng, w: &Path) -> Generated {
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

//! Learned skills are templates: drafted from a task that worked, their description is
//! the request with its values as parameters ("How many .EXT files are in DIR?") and
//! their command is that request's. A small model runs the command it is shown, so a
//! template is offered only for a request of its shape (the request's own values as
//! parameters, compared by meaning on the real embedding model), not for a neighbour
//! that reads alike ("How many files are in DIR?", "Which file is the newest?").
//!
//! A table of requests, each with the template that fits it or none, written as people
//! ask and in two halves: `tune` (the floor was set on it: its neighbours reach 0.82, its
//! fits 0.92 and more) and `held` (not looked at while setting it: no false pick, and 5
//! of its 8 reworded requests of a shape missed). Zeta's own skills are on the shelf beside the templates, as by
//! default; only templates offered are counted here (the built-ins have their own table).

// Test code: a failed expect is the test failing, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::sync::Arc;

use zeta_core::assist::request::Request;
use zeta_core::policy::ShellEnv;
use zeta_core::store::audit::AuditEntry;
use zeta_skills::choose::{Chooser, Query, Tuning};
use zeta_skills::embed::MiniLm;
use zeta_skills::Skills;

/// Tasks that worked, each taught as a skill: name, request, its commands (`~` the home).
const TAUGHT: &[(&str, &str, &[&str])] = &[
    (
        "count-ext",
        "How many .txt files are in ~/docs?",
        &["find ~/docs -name '*.txt' | wc -l"],
    ),
    (
        "largest",
        "Which file in ~/logs is the largest?",
        &["ls -S ~/logs | head -n 1"],
    ),
    (
        "lines-with",
        "How many lines in ~/logs/app.log contain 'error'?",
        &["grep -c error ~/logs/app.log"],
    ),
    (
        "column-total",
        "What is the total of the third column in ~/data/sales.csv?",
        &["awk -F, 'NR>1 {s+=$3} END {print s}' ~/data/sales.csv"],
    ),
    (
        "rename",
        "Rename ~/notes.txt to todo.txt",
        &["mv ~/notes.txt ~/todo.txt"],
    ),
    (
        "multiply",
        "What is 17 times 23?",
        &["python3 -c 'print(17*23)'"],
    ),
    (
        "weekday",
        "What day of the week is 2026-12-25?",
        &["date -d 2026-12-25 +%A"],
    ),
    (
        "move-ext",
        "Move the .jpg files of ~/Pictures into ~/archive",
        &["mkdir -p ~/archive", "mv ~/Pictures/*.jpg ~/archive/"],
    ),
];

/// request, the template that fits it ("" for none), half.
const TABLE: &[(&str, &str, &str)] = &[
    // Of a template's shape, other values and wordings.
    ("How many .md files are in ~/docs?", "count-ext", "tune"),
    (
        "how many .jpg files do I have in ~/Pictures",
        "count-ext",
        "tune",
    ),
    (
        "Which file in ~/Pictures is the largest?",
        "largest",
        "tune",
    ),
    (
        "How many lines in ~/data/sales.csv contain 'Paris'?",
        "lines-with",
        "tune",
    ),
    (
        "What is the total of the second column in ~/data/sales.csv?",
        "column-total",
        "tune",
    ),
    ("Rename ~/logs/app.log to old.log", "rename", "tune"),
    ("What is 48 times 12?", "multiply", "tune"),
    ("What day of the week is 2027-03-01?", "weekday", "tune"),
    (
        "Move the .txt files of ~/docs into ~/archive",
        "move-ext",
        "tune",
    ),
    ("Count the .csv files in ~/data", "count-ext", "held"),
    ("which is the biggest file in ~/docs", "largest", "held"),
    (
        "In ~/logs/app.log, how many lines contain 'timeout'?",
        "lines-with",
        "held",
    ),
    (
        "Sum the first column of ~/data/sales.csv",
        "column-total",
        "held",
    ),
    ("rename ~/docs/a.txt to b.txt please", "rename", "held"),
    ("how much is 7 times 91", "multiply", "held"),
    ("Which weekday was 2024-02-29?", "weekday", "held"),
    (
        "put the .md files from ~/docs into ~/archive",
        "move-ext",
        "held",
    ),
    // Neighbours that read alike and ask something else.
    ("How many files are in ~/docs?", "", "tune"),
    ("Which file in ~/logs is the newest?", "", "tune"),
    ("How many lines does ~/logs/app.log have?", "", "tune"),
    (
        "What is the largest value in the third column of ~/data/sales.csv?",
        "",
        "tune",
    ),
    ("Copy ~/notes.txt to ~/backup.txt", "", "tune"),
    ("What is 17 percent of 230?", "", "tune"),
    (
        "How many days are there between 2026-01-01 and 2026-12-25?",
        "",
        "tune",
    ),
    ("Delete the .jpg files in ~/Pictures", "", "tune"),
    ("How much room is left on my drive?", "", "tune"),
    (
        "how many things are in the docs folder in my home",
        "",
        "held",
    ),
    ("what's the oldest file in ~/Pictures", "", "held"),
    ("How many words are in ~/notes.txt?", "", "held"),
    ("How many rows does ~/data/sales.csv have?", "", "held"),
    ("Make a copy of ~/logs/app.log called app.bak", "", "held"),
    ("What is 230 divided by 4?", "", "held"),
    ("What date is 40 days after 2026-12-25?", "", "held"),
    ("Zip up ~/Pictures into ~/pictures.zip", "", "held"),
    ("What is my user name?", "", "held"),
];

/// A home with the folders and files the table names.
fn home() -> (tempfile::TempDir, ShellEnv) {
    let dir = tempfile::tempdir().expect("home");
    let h = dir.path();
    for (path, text) in [
        ("docs/a.txt", "a"),
        ("docs/b.md", "b"),
        ("logs/app.log", "error\nok\n"),
        ("data/sales.csv", "city,n,amount\nParis,1,3\n"),
        ("Pictures/x.jpg", "x"),
        ("notes.txt", "n"),
    ] {
        let file = h.join(path);
        std::fs::create_dir_all(file.parent().expect("parent")).expect("folder");
        std::fs::write(file, text).expect("file");
    }
    std::fs::create_dir_all(h.join("archive")).expect("archive");
    let env = ShellEnv {
        home: h.to_path_buf(),
        cwd: h.to_path_buf(),
        user: "someone".into(),
    };
    (dir, env)
}

#[test]
fn a_learned_skill_is_offered_for_requests_of_its_shape_and_not_their_neighbours() {
    let Some(model) = zeta_test_support::skills::model("learned skills' choice") else {
        return;
    };
    let (dir, env) = home();
    let shelf = tempfile::tempdir().expect("shelf");
    let skills = Skills::new(
        shelf.path().join("skills"),
        shelf.path().join("skills.json"),
    );
    for (name, request, commands) in TAUGHT {
        let commands: Vec<String> = commands
            .iter()
            .map(|c| c.replace("~/", &format!("{}/", dir.path().display())))
            .collect();
        let calls: Vec<AuditEntry> = commands.iter().map(|c| common::shell(c)).collect();
        let draft = zeta_skills::learn::draft(request, &calls, &env).expect("a draft");
        skills
            .write(name, &draft.description, &draft.body, false)
            .expect("saved");
    }
    let catalog = Arc::new(skills).current();
    let usable: Vec<_> = catalog.enabled().collect();
    let taught: Vec<&str> = TAUGHT.iter().map(|t| t.0).collect();
    for name in &taught {
        let entry = catalog.get(name).expect("a taught skill loads");
        assert!(
            !entry.skill.parameters().is_empty(),
            "{name} is a template: {}",
            entry.skill.body
        );
    }
    let embedder = MiniLm::load(&model).expect("the model loads");
    let chooser = Chooser::new(Some(Box::new(embedder)), Tuning::default());
    let mut tally = common::Tally::default();
    let show = std::env::var("ZETA_CHOICE_SHOW").is_ok_and(|v| v == "1");
    for (request, fits, half) in TABLE {
        let parsed = Request::parse(request, &env);
        let query = Query::of(&parsed, &env.home, &usable);
        if show && *half == "tune" {
            let top: Vec<String> = chooser
                .ranked(query.clone(), &usable)
                .iter()
                .take(3)
                .map(|(s, e)| format!("{} {s:.2}", e.skill.name))
                .collect();
            println!("{request:?} as {:?} fits {fits:?}: {top:?}", query.shape);
        }
        let chosen: Vec<String> = chooser
            .choose(query, &usable)
            .iter()
            .map(|e| e.skill.name.clone())
            .filter(|n| taught.contains(&n.as_str()))
            .collect();
        let fits: Vec<&str> = fits.split_whitespace().collect();
        tally.record(half, request, &chosen, &fits);
    }
    tally.report("a template");
    // A reworded request of the shape often reads further than the floor (the held
    // half: 5 misses in 8 at 0.85, where its neighbours were none): a miss leaves the
    // model as it would be without the skill, so misses are bounded loosely.
    tally.bound((3, 4));
}

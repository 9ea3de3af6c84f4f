//! What a model reads of the skills, as committed text: the first-turn note for a large
//! model (every skill by name and description) and for a small one (the skills chosen by
//! meaning for a request, on the real embedding model), compared with `snapshots/`, so a
//! change to a built-in skill or to the note is a reviewed text diff.
//! `ZETA_UPDATE_SNAPSHOTS=1 cargo test -p zeta-skills --test notes` writes them anew.

// Test code: a failed expect is the test failing, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::path::PathBuf;
use std::sync::Arc;

use zeta_core::assist::notes::{Knowledge, Room};
use zeta_core::assist::request::Request;
use zeta_core::policy::ShellEnv;
use zeta_skills::choose::{Chooser, Tuning};
use zeta_skills::note::{SkillsNote, SmallOffer};
use zeta_skills::Skills;

fn compare(name: &str, rendered: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/snapshots")
        .join(format!("{name}.txt"));
    if std::env::var("ZETA_UPDATE_SNAPSHOTS").is_ok_and(|v| v == "1") {
        std::fs::write(&path, rendered).expect("write snapshot");
        return;
    }
    let kept = std::fs::read_to_string(&path).unwrap_or_default();
    assert_eq!(
        kept,
        rendered,
        "{name}: the note differs from {} (ZETA_UPDATE_SNAPSHOTS=1 writes it; review the diff)",
        path.display()
    );
}

fn request(text: &str) -> Request {
    Request::parse(text, &ShellEnv::current(std::path::Path::new("/tmp")))
}

#[test]
fn a_large_model_reads_every_skill_by_name_and_description() {
    let note = SkillsNote::new(
        Arc::new(Skills::built_in_only()),
        Arc::new(Chooser::new(None, Tuning::default())),
        SmallOffer::Yours,
    );
    let added = note
        .note(
            &request("How much free disk space do I have?"),
            Room::of_window(false, 32_768),
        )
        .expect("a note");
    assert!(added.untrusted.is_none() && added.used.is_empty());
    compare("large", &added.text);
}

/// A large model on a small window: the list shrinks to names, then to the names that
/// fit, and never takes more of the window than its part.
#[test]
fn a_large_model_on_a_small_window_reads_what_fits() {
    let note = SkillsNote::new(
        Arc::new(Skills::built_in_only()),
        Arc::new(Chooser::new(None, Tuning::default())),
        SmallOffer::Yours,
    );
    let ask = request("How much free disk space do I have?");
    let whole = note
        .note(&ask, Room::of_window(false, 32_768))
        .expect("a note")
        .text;
    let mut shown = Vec::new();
    for window in [16_384u32, 8192, 4096, 2048, 1024, 512, 64] {
        let room = Room::of_window(false, window);
        match note.note(&ask, room) {
            Some(added) => {
                let tokens = zeta_core::context::count_text(&added.text);
                assert!(
                    tokens <= room.tokens,
                    "{window}: {tokens} > {}",
                    room.tokens
                );
                shown.push((window, added.text));
            }
            None => assert!(room.tokens < 40, "{window}: nothing shown"),
        }
    }
    // A window of 8,192 tokens (1,024 for the note): every name, no descriptions.
    let (_, names) = shown.iter().find(|(w, _)| *w == 8192).expect("8192");
    assert_ne!(names, &whole);
    assert!(
        names.contains("disk-space") && !names.contains("more, not listed"),
        "{names}"
    );
    // 1,024 (128 for the note): some names, and how many more there are.
    let (_, few) = shown.iter().find(|(w, _)| *w == 1024).expect("1024");
    assert!(few.contains("more, not listed"), "{few}");
}

#[test]
fn a_small_model_reads_the_skills_chosen_for_its_request() {
    let Some(dir) = zeta_test_support::skills::model("the skills note") else {
        return;
    };
    let model = zeta_skills::embed::MiniLm::load(&dir).expect("model");
    let note = SkillsNote::new(
        Arc::new(Skills::built_in_only()),
        Arc::new(Chooser::new(Some(Box::new(model)), Tuning::default())),
        SmallOffer::All,
    );
    let mut rendered = String::new();
    for text in [
        "How many .log files are in ~/zeta-snapshot-logs?",
        "What is the total of the amount column in ~/sales.csv?",
        "Tell me a joke",
    ] {
        let added = note.note(&request(text), Room::of_window(true, 8192));
        rendered.push_str(&format!("=== {text} ===\n"));
        match added {
            Some(added) => {
                rendered.push_str(&format!(
                    "{}\n(used: {})\n",
                    added.text,
                    added.used.join(", ")
                ));
            }
            None => rendered.push_str("(no note)\n"),
        }
    }
    compare("small", &rendered);
}

/// A person's empty skills folder and a chooser on the real model, or `None` (said)
/// without the model.
fn person_home() -> Option<(tempfile::TempDir, Arc<Skills>, Arc<Chooser>)> {
    let dir = zeta_test_support::skills::model("the skills note")?;
    let home = tempfile::tempdir().expect("home");
    let skills = Arc::new(Skills::new(
        home.path().join("skills"),
        home.path().join("skills.json"),
    ));
    let chooser = Arc::new(Chooser::new(
        Some(Box::new(
            zeta_skills::embed::MiniLm::load(&dir).expect("model"),
        )),
        Tuning::default(),
    ));
    Some((home, skills, chooser))
}

#[test]
fn a_small_model_is_offered_what_its_offer_lets_it_have() {
    let Some((_home, skills, chooser)) = person_home() else {
        return;
    };
    skills
        .write(
            "weekly-report",
            "Make the weekly report from the notes folder.",
            "# the weekly report\n\n```sh\nreport-tool --week NOTES\n```",
            false,
        )
        .expect("write");
    let offered = |offer: SmallOffer, text: &str| {
        SkillsNote::new(skills.clone(), chooser.clone(), offer)
            .note(&request(text), Room::of_window(true, 8192))
            .map(|a| a.used)
            .unwrap_or_default()
    };
    assert_eq!(
        offered(SmallOffer::Yours, "make this week's report from my notes"),
        ["weekly-report"]
    );
    assert!(offered(SmallOffer::Yours, "How many processor cores do I have?").is_empty());
    assert_eq!(
        offered(SmallOffer::All, "How many processor cores do I have?"),
        ["cpu-cores"]
    );
    // Two skills about as near: neither is shown.
    assert!(offered(SmallOffer::All, "How much room is left on my drive?").is_empty());
    assert!(offered(SmallOffer::Off, "make this week's report from my notes").is_empty());
}

/// Two skills learned from tasks of one kind show the same command: they are one choice,
/// not two about as near (which would show neither).
#[test]
fn skills_that_show_the_same_command_are_one_choice() {
    let Some((_home, skills, chooser)) = person_home() else {
        return;
    };
    let write = |name: &str, description: &str, command: &str| {
        skills
            .write(
                name,
                description,
                &format!("# {description}\n\n```sh\n{command}\n```"),
                false,
            )
            .expect("write");
    };
    let count = "ls DIR/*.EXT | wc -l";
    write("learned-a", "How many .EXT files are in DIR?", count);
    write("learned-b", "How many .EXT files does DIR hold?", count);
    let note = SkillsNote::new(skills.clone(), chooser.clone(), SmallOffer::Yours);
    let shown = |text: &str| {
        note.note(&request(text), Room::of_window(true, 8192))
            .map(|a| a.used)
            .unwrap_or_default()
    };
    assert_eq!(
        shown("how many .pdf files are in my papers folder").len(),
        1
    );
    // Given another command, the two are about as near: neither is shown.
    skills.remove("learned-b").expect("remove");
    write(
        "learned-c",
        "How many .EXT files does DIR hold?",
        "find DIR -name '*.EXT' | wc -l",
    );
    assert!(shown("how many .pdf files are in my papers folder").is_empty());
}

/// A skill learned from a task is a template: shown, with its parameters standing in its
/// command, for a request of its shape, and not for a neighbour that reads alike but
/// asks something else (a model shown the one-kind count counts one kind).
#[test]
fn a_learned_template_is_shown_for_a_request_of_its_shape_only() {
    let Some((home, skills, chooser)) = person_home() else {
        return;
    };
    let docs = home.path().join("docs");
    let papers = home.path().join("papers");
    for dir in [&docs, &papers] {
        std::fs::create_dir_all(dir).expect("folder");
    }
    let env = ShellEnv::current(home.path());
    let call = common::shell(&format!("find {} -name '*.txt' | wc -l", docs.display()));
    let draft = zeta_skills::learn::draft(
        &format!("How many .txt files are in {}?", docs.display()),
        &[call],
        &env,
    )
    .expect("a draft");
    skills
        .write("learned-count", &draft.description, &draft.body, false)
        .expect("saved");
    let note = SkillsNote::new(skills.clone(), chooser.clone(), SmallOffer::All);
    let shown = |text: &str| {
        note.note(&request(text), Room::of_window(true, 8192))
            .map(|a| (a.used, a.text))
            .unwrap_or_default()
    };
    let (used, text) = shown(&format!("How many .pdf files are in {}?", papers.display()));
    assert_eq!(used, ["learned-count"], "{text}");
    assert!(text.contains("find DIR -name '*.EXT' | wc -l"), "{text}");
    assert!(!text.contains("txt") && !text.contains("docs"), "{text}");
    let (used, text) = shown(&format!("How many files are in {}?", papers.display()));
    assert!(!used.iter().any(|u| u == "learned-count"), "{text}");
}

//! Loading: Zeta's own skills, a folder with good, malformed, duplicate and huge skills,
//! and reading again only when the folder changed.

use super::*;
use crate::shelf::Skills;

fn write(dir: &Path, folder: &str, text: &str) {
    std::fs::create_dir_all(dir.join(folder)).expect("folder");
    std::fs::write(dir.join(folder).join("SKILL.md"), text).expect("write");
}

fn skill(name: &str, description: &str) -> String {
    format!("---\nname: {name}\ndescription: {description}\n---\nSteps for {name}.\n")
}

#[test]
fn the_built_in_skills_all_load_with_a_command_and_their_programs() {
    let library = Library::built_in();
    assert!(library.problems.is_empty(), "{:?}", library.problems);
    assert_eq!(library.skills.len(), 52);
    for skill in &library.skills {
        assert!(skill.is_built_in());
        assert!(
            skill.first_command().is_some(),
            "{} has no command",
            skill.name
        );
        assert_eq!(skill.requires.len(), 1, "{}", skill.name);
        assert_ne!(skill.title(), skill.description, "{}: no title", skill.name);
    }
}

#[test]
fn a_malformed_skill_is_a_problem_by_name_and_the_others_load() {
    let dir = tempfile::tempdir().expect("dir");
    let d = dir.path();
    write(d, "good", &skill("good", "A good one."));
    write(d, "broken-yaml", "---\nname: [oops\ndescription: x\n---\n");
    write(d, "no-name", "---\ndescription: x\n---\n");
    std::fs::create_dir_all(d.join("empty-folder")).expect("empty");
    write(d, "twin", &skill("good", "The same name again."));
    write(d, ".hidden", &skill("hidden", "Not read."));
    std::fs::write(d.join("stray.md"), "a file, not a folder").expect("stray");
    // Huge: refused before it is read.
    write(
        d,
        "huge",
        &format!("{}{}", skill("huge", "Big."), "x".repeat(200_000)),
    );
    // Not text.
    std::fs::create_dir_all(d.join("binary")).expect("binary");
    std::fs::write(d.join("binary/SKILL.md"), [0xff, 0xfe, 0x00, 0x01]).expect("bytes");
    let library = Library::folder(d);
    let names: Vec<&str> = library.skills.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["good"]);
    let problems: Vec<(&str, &str)> = library
        .problems
        .iter()
        .map(|p| (p.name.as_str(), p.message.as_str()))
        .collect();
    let has = |name: &str, text: &str| problems.iter().any(|(n, m)| *n == name && m.contains(text));
    assert!(has("binary", "not a text file"), "{problems:#?}");
    assert!(has("broken-yaml", "not valid YAML"), "{problems:#?}");
    assert!(has("empty-folder", "no SKILL.md"), "{problems:#?}");
    assert!(has("huge", "at most"), "{problems:#?}");
    assert!(has("no-name", "no `name`"), "{problems:#?}");
    assert!(has("good", "already named `good`"), "{problems:#?}");
    assert_eq!(problems.len(), 6, "{problems:#?}");
}

#[test]
fn one_of_yours_with_a_built_in_name_takes_its_place() {
    let dir = tempfile::tempdir().expect("dir");
    write(dir.path(), "mine", &skill("disk-space", "My own way."));
    let library = Library::load(Some(dir.path()));
    let found: Vec<&Skill> = library
        .skills
        .iter()
        .filter(|s| s.name == "disk-space")
        .collect();
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].description, "My own way.");
    assert_eq!(library.skills.len(), 52);
}

#[test]
fn files_beside_are_listed_but_not_links_out_of_the_folder() {
    let dir = tempfile::tempdir().expect("dir");
    let d = dir.path();
    write(d, "tools", &skill("tools", "With files."));
    std::fs::create_dir_all(d.join("tools/scripts")).expect("scripts");
    std::fs::write(d.join("tools/scripts/run.sh"), "echo hi\n").expect("script");
    std::fs::write(d.join("tools/reference.md"), "ref\n").expect("ref");
    std::os::unix::fs::symlink("/etc/passwd", d.join("tools/passwd")).expect("link");
    std::os::unix::fs::symlink("/etc", d.join("tools/etc")).expect("link");
    let library = Library::folder(d);
    assert_eq!(library.skills[0].files, ["reference.md", "scripts/run.sh"]);
}

#[test]
fn skills_are_read_again_only_when_the_folder_changed() {
    let dir = tempfile::tempdir().expect("dir");
    let skills_dir = dir.path().join("skills");
    std::fs::create_dir_all(&skills_dir).expect("dir");
    let skills = Skills::new(skills_dir.clone(), dir.path().join("skills.json"));
    let first = skills.current();
    assert!(first.get("greet").is_none());
    // Nothing changed: the very same catalog.
    assert!(Arc::ptr_eq(&first, &skills.current()));
    write(&skills_dir, "greet", &skill("greet", "Say hello."));
    let second = skills.current();
    assert!(second.get("greet").is_some());
    // Edited: the new text (a size change, whatever the clock's grain).
    write(
        &skills_dir,
        "greet",
        &skill("greet", "Say hello warmly, in full."),
    );
    assert_eq!(
        skills
            .current()
            .get("greet")
            .map(|e| e.skill.description.clone()),
        Some("Say hello warmly, in full.".to_string())
    );
    // The catalog a task holds does not change under it.
    assert_eq!(
        second.get("greet").map(|e| e.skill.description.as_str()),
        Some("Say hello.")
    );
    std::fs::remove_dir_all(skills_dir.join("greet")).expect("remove");
    assert!(skills.current().get("greet").is_none());
}

use std::sync::Arc;

#[test]
fn the_persons_changes_add_write_switch_trust_and_remove() {
    let dir = tempfile::tempdir().expect("dir");
    let skills_dir = dir.path().join("skills");
    let state = dir.path().join("skills.json");
    let skills = Skills::new(skills_dir.clone(), state.clone());
    // A folder from elsewhere: added as it is, not trusted.
    let elsewhere = dir.path().join("download/pdf-merge");
    write(
        &dir.path().join("download"),
        "pdf-merge",
        &skill("pdf-merge", "Merge PDFs."),
    );
    std::fs::write(elsewhere.join("merge.py"), "print('x')\n").expect("script");
    assert_eq!(skills.add(&elsewhere, false).expect("add"), "pdf-merge");
    let entry = skills.current().get("pdf-merge").cloned().expect("added");
    assert!(!entry.trusted && entry.enabled);
    assert_eq!(entry.skill.files, ["merge.py"]);
    assert!(matches!(
        skills.add(&elsewhere, false),
        Err(SkillError::Exists(_))
    ));
    // Trusted as it is now; an edit by someone else makes it untrusted again.
    skills
        .trust("pdf-merge", &entry.skill.digest)
        .expect("trust");
    assert!(skills.current().get("pdf-merge").is_some_and(|e| e.trusted));
    write(
        &skills_dir,
        "pdf-merge",
        &skill("pdf-merge", "Merge PDFs, and more now."),
    );
    assert!(skills
        .current()
        .get("pdf-merge")
        .is_some_and(|e| !e.trusted));
    // Written by the person: trusted.
    let written = skills
        .write(
            "weekly-report",
            "Make the weekly report.",
            "1. Run it.",
            false,
        )
        .expect("write");
    assert!(skills
        .current()
        .get(&written.name)
        .is_some_and(|e| e.trusted));
    assert!(matches!(
        skills.write("weekly-report", "Again.", "x", false),
        Err(SkillError::Exists(_))
    ));
    assert!(matches!(
        skills.write("Bad Name", "x", "y", false),
        Err(SkillError::BadName { .. })
    ));
    // Off and on.
    skills.set_enabled("disk-space", false).expect("off");
    assert!(skills
        .current()
        .get("disk-space")
        .is_some_and(|e| !e.enabled));
    skills.set_enabled("disk-space", true).expect("on");
    assert!(skills
        .current()
        .get("disk-space")
        .is_some_and(|e| e.enabled));
    assert!(matches!(
        skills.set_enabled("nope", false),
        Err(SkillError::Unknown(_))
    ));
    // Removed: the person's only.
    skills.remove("weekly-report").expect("remove");
    assert!(skills.current().get("weekly-report").is_none());
    assert!(matches!(
        skills.remove("disk-space"),
        Err(SkillError::BuiltIn(_))
    ));
}

#[test]
fn a_broken_state_file_is_reported_kept_aside_and_replaced_on_change() {
    let dir = tempfile::tempdir().expect("dir");
    let state = dir.path().join("skills.json");
    std::fs::write(&state, "{ not json").expect("write");
    let skills = Skills::new(dir.path().join("skills"), state.clone());
    let catalog = skills.current();
    assert!(catalog
        .problems
        .iter()
        .any(|p| p.name == "skills.json" && p.message.contains("not valid")));
    // Everything still loads, all on.
    assert!(catalog.get("disk-space").is_some_and(|e| e.enabled));
    skills.set_enabled("disk-space", false).expect("off");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("skills.json.broken")).expect("kept"),
        "{ not json"
    );
    assert!(skills.current().problems.is_empty());
}

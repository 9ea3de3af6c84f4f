//! Zeta's own skills against this machine: every flag a built-in skill's command uses
//! (`metadata.checked-flags`) is in its program's `--help` or man page here, and the
//! program is the one its command runs. (Moved with the knowledge from the compiled
//! recipe catalogue.)

// Test code: a failed expect is the test failing, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::Command;

use zeta_skills::library::Library;

/// The program's own documentation here: `--help`, `-W usage` (mawk), `-h` and the man
/// page, all of it.
fn documentation(program: &str) -> String {
    let mut text = String::new();
    for args in [
        &["--help"][..],
        &["--help", "all"],
        &["-W", "usage"],
        &["-h"],
    ] {
        if let Ok(out) = Command::new(program).args(args).output() {
            text.push_str(&String::from_utf8_lossy(&out.stdout));
            text.push_str(&String::from_utf8_lossy(&out.stderr));
        }
    }
    if let Ok(out) = Command::new("man")
        .arg(program)
        .env("MANPAGER", "cat")
        .env("MANWIDTH", "200")
        .output()
    {
        text.push_str(&String::from_utf8_lossy(&out.stdout));
    }
    // man pages may render hyphens as U+2010 or U+2212.
    text.replace(['\u{2010}', '\u{2212}'], "-")
}

/// `flag` stands on its own in `text`: not part of a longer flag or word.
fn documents(text: &str, flag: &str) -> bool {
    text.match_indices(flag).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + flag.len()..].chars().next();
        !before.is_some_and(|c| c == '-' || c.is_alphanumeric())
            && !after.is_some_and(|c| c.is_alphanumeric() || c == '-')
    })
}

#[test]
fn every_flag_of_every_built_in_skill_is_in_this_machines_documentation() {
    let library = Library::built_in();
    let mut checked = 0;
    let mut missing_programs = Vec::new();
    let mut undocumented = Vec::new();
    for skill in &library.skills {
        let Some(program) = skill.requires.first() else {
            panic!("{} names no program it needs", skill.name);
        };
        if !zeta_skills::choose::runs_here(skill) {
            missing_programs.push(program.clone());
            continue;
        }
        let command = skill.first_command().unwrap_or_default();
        // An environment assignment before the program (`TZ=Asia/Tokyo date`) is not
        // the program.
        let command = command
            .split_once(' ')
            .filter(|(first, _)| first.contains('=') && !first.starts_with('-'))
            .map_or(command, |(_, rest)| rest);
        assert!(
            command.starts_with(program.as_str())
                || command.contains(&format!("&& {program}"))
                || command.contains(&format!("| {program}"))
                || command.contains(&format!("$({program}"))
                || program == "bash",
            "{}: the command {command:?} does not run {program}",
            skill.name
        );
        let doc = documentation(program);
        for flag in &skill.checked_flags {
            checked += 1;
            if !documents(&doc, flag) {
                undocumented.push(format!("{} {flag}", program));
            }
        }
    }
    println!(
        "{checked} flags checked; programs not on this machine (not offered): {missing_programs:?}"
    );
    assert!(
        undocumented.is_empty(),
        "flags not documented here: {undocumented:?}"
    );
    assert!(checked >= 50, "the flags were read from the skills");
    assert!(
        missing_programs.len() <= 2,
        "most of Zeta's own skills run here: {missing_programs:?}"
    );
}

#[test]
fn the_documentation_check_can_fail() {
    let doc = documentation("wc");
    assert!(documents(&doc, "-l"));
    assert!(!documents(&doc, "--no-such-flag"));
    assert!(!documents("  --create  ", "-c"), "part of a longer flag");
}

//! The format against good skills, skills from elsewhere, and a corpus of broken ones.

use super::*;

fn parse_ok(text: &str) -> Skill {
    parse(text, "test", Origin::BuiltIn).expect("parses")
}

#[test]
fn a_skill_in_the_common_format_parses() {
    let skill = parse_ok(
        "---\nname: pdf-tools\ndescription: >\n  Fill PDF forms and merge PDFs.\n  Use when the request names a PDF.\nallowed-tools: Bash Read\nlicense: MIT\nmetadata:\n  author: someone\n  version: \"1.0\"\n---\n\n# PDF tools\n\nRun `scripts/merge.py A B`.\n",
    );
    assert_eq!(skill.name, "pdf-tools");
    assert_eq!(
        skill.description,
        "Fill PDF forms and merge PDFs. Use when the request names a PDF."
    );
    assert_eq!(skill.allowed_tools, ["Bash", "Read"]);
    assert_eq!(skill.title(), "PDF tools");
    assert!(skill.body.starts_with("# PDF tools"));
    assert_eq!(skill.digest.len(), 64);
}

#[test]
fn allowed_tools_may_be_a_list_and_crlf_and_a_bom_are_read() {
    let skill = parse_ok(
        "\u{feff}---\r\nname: a\r\ndescription: b\r\nallowed-tools: [Bash, \"Read\"]\r\n---\r\nbody\r\n",
    );
    assert_eq!(skill.allowed_tools, ["Bash", "Read"]);
    assert_eq!(skill.body, "body");
    assert_eq!(skill.title(), "b");
}

#[test]
fn the_first_command_is_the_first_fenced_block() {
    let skill =
        parse_ok("---\nname: a\ndescription: b\n---\ntext\n```sh\ndf -h /\n```\n```\nother\n```\n");
    assert_eq!(skill.first_command(), Some("df -h /"));
    assert_eq!(
        parse_ok("---\nname: a\ndescription: b\n---\nno code").first_command(),
        None
    );
}

#[test]
fn requires_and_checked_flags_come_from_metadata() {
    let skill = parse_ok(
        "---\nname: a\ndescription: b\nmetadata:\n  requires: [tar]\n  checked-flags: [\"-c\"]\n  other: {x: 1}\n---\n",
    );
    assert_eq!(skill.requires, ["tar"]);
    assert_eq!(skill.checked_flags, ["-c"]);
}

/// Broken skills: each is refused with the error that names its fault.
#[test]
fn a_corpus_of_broken_skills_is_refused_each_for_its_fault() {
    let cases: Vec<(String, &str)> = vec![
        ("no front matter at all".into(), "no front matter"),
        ("name: a\ndescription: b\n".into(), "no front matter"),
        ("---\nname: a\ndescription: b\n".into(), "no front matter"),
        ("---\n---\nbody".into(), "no `name`"),
        ("---\ndescription: b\n---\n".into(), "no `name`"),
        ("---\nname: a\n---\n".into(), "no `description`"),
        (
            "---\nname: a\ndescription: \"  \"\n---\n".into(),
            "no `description`",
        ),
        (
            "---\nname: Bad Name\ndescription: b\n---\n".into(),
            "cannot be a skill's name",
        ),
        (
            "---\nname: -a\ndescription: b\n---\n".into(),
            "cannot be a skill's name",
        ),
        (
            "---\nname: a--b\ndescription: b\n---\n".into(),
            "cannot be a skill's name",
        ),
        (
            "---\nname: ../etc\ndescription: b\n---\n".into(),
            "cannot be a skill's name",
        ),
        (
            format!("---\nname: {}\ndescription: b\n---\n", "a".repeat(65)),
            "longer than 64",
        ),
        (
            format!("---\nname: a\ndescription: {}\n---\n", "word ".repeat(300)),
            "longer than 1024",
        ),
        (
            "---\nname: [a\ndescription: b\n---\n".into(),
            "not valid YAML",
        ),
        (
            "---\nname: a\ndescription: b\n  bad: indent\n---\n".into(),
            "not valid YAML",
        ),
        (
            "---\nname: a\nname: b\ndescription: c\n---\n".into(),
            "not valid YAML",
        ),
        (
            "---\nname: {x: 1}\ndescription: c\n---\n".into(),
            "not valid YAML",
        ),
        ("---\n- a\n- b\n---\n".into(), "not valid YAML"),
        (
            format!(
                "---\nname: a\ndescription: b\n---\n{}",
                "x".repeat(MOST_BYTES)
            ),
            "at most",
        ),
    ];
    let mut wrong = Vec::new();
    for (text, want) in &cases {
        match parse(text, "case", Origin::BuiltIn) {
            Ok(skill) => wrong.push(format!("{text:?} parsed as {}", skill.name)),
            Err(e) if !e.to_string().contains(want) => {
                wrong.push(format!("{text:?}: {e} (wanted {want:?})"))
            }
            Err(e) => assert!(e.to_string().starts_with("case"), "{e} names no place"),
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn a_yaml_bomb_is_refused_not_expanded() {
    let mut text =
        String::from("---\nname: a\ndescription: b\na0: &a0 [x, x, x, x, x, x, x, x, x]\n");
    for i in 1..12 {
        let prev = i - 1;
        text.push_str(&format!(
            "a{i}: &a{i} [*a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}]\n"
        ));
    }
    text.push_str("---\n");
    let started = std::time::Instant::now();
    let result = parse(&text, "bomb", Origin::BuiltIn);
    // Either refused, or read without expanding the unknown keys; never a hang.
    if let Err(e) = &result {
        assert!(e.to_string().contains("bomb"));
    }
    assert!(started.elapsed().as_secs() < 20);
}

#[test]
fn fuzzed_text_never_panics_and_what_parses_is_a_valid_skill() {
    // Mutations of a good skill: bytes dropped, doubled, replaced with YAML's own
    // characters.
    let good = "---\nname: disk-space\ndescription: \"Free space: how much is left.\"\nallowed-tools: [Bash]\nmetadata:\n  requires: [df]\n---\n\n# free disk space\n\n```sh\ndf -h /\n```\n";
    let noise = [
        '-', ':', '\n', '"', '\'', '[', ']', '{', '}', '&', '*', '!', '|', '>', '#', ' ', '\t',
        'é', '\u{0}',
    ];
    let mut seed: u64 = 0x5EED;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let chars: Vec<char> = good.chars().collect();
    let (mut parsed, mut refused) = (0, 0);
    for _ in 0..5000 {
        let mut text = chars.clone();
        for _ in 0..(1 + next() % 4) {
            let at = (next() as usize) % text.len();
            match next() % 3 {
                0 => {
                    text.remove(at);
                }
                1 => text.insert(at, text[at]),
                _ => text[at] = noise[(next() as usize) % noise.len()],
            }
        }
        let text: String = text.into_iter().collect();
        match parse(&text, "fuzz", Origin::BuiltIn) {
            Ok(skill) => {
                parsed += 1;
                assert!(check_name(&skill.name).is_ok(), "{text:?}");
                assert!(!skill.description.is_empty());
            }
            Err(_) => refused += 1,
        }
    }
    println!("fuzz: {parsed} parsed, {refused} refused");
    assert!(parsed > 0 && refused > 0);
}

#[test]
fn a_rendered_skill_parses_back_whatever_its_text() {
    for description in [
        "plain",
        "has: a colon",
        "quotes \" and ' and \\ backslash",
        "- starts like a list",
        "# like a comment",
        "multi\nline",
        "{braces} [brackets] &anchor *alias !tag %percent @at `tick`",
    ] {
        let text = render("learned", description, "body\n---\nmore");
        let skill = parse_ok(&text);
        assert_eq!(skill.name, "learned");
        assert_eq!(
            skill.description,
            description.split_whitespace().collect::<Vec<_>>().join(" ")
        );
        assert_eq!(skill.body, "body\n---\nmore");
    }
}

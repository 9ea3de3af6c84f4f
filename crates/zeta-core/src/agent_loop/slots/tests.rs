//! Slots against families of requests and files: what each fills, what stays open when
//! anything is in doubt, and that no file or request makes it panic.

use super::*;
use crate::recipes::Slots;

fn env(dir: &std::path::Path) -> ShellEnv {
    ShellEnv {
        home: dir.to_path_buf(),
        cwd: dir.to_path_buf(),
        user: "me".into(),
    }
}

const SALES: &str = "city,item,amount\nParis,pen,12\nLyon,ink,30\nParis,pad,8\nNice,pen,15\n";

fn home() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp");
    let p = dir.path();
    std::fs::write(p.join("sales.csv"), SALES).expect("write");
    std::fs::write(p.join("people.tsv"), "name\tage\nAda\t36\nAlan\t41\n").expect("write");
    std::fs::create_dir_all(p.join("shop")).expect("dir");
    std::fs::write(
        p.join("shop/prices.txt"),
        "Widget: 4.50 EUR\nGadget: 12.00 EUR\nGizmo: 7.25 EUR\n",
    )
    .expect("write");
    std::fs::write(p.join("notes.txt"), "It was a dark night.\nThe end.\n").expect("write");
    std::fs::create_dir_all(p.join("data")).expect("dir");
    std::fs::create_dir_all(p.join("backup")).expect("dir");
    dir
}

fn want(
    file: Option<&str>,
    dir: Option<&str>,
    column: Option<usize>,
    value: Option<&str>,
) -> Slots {
    Slots {
        file: file.map(str::to_string),
        dir: dir.map(str::to_string),
        column,
        value: value.map(str::to_string),
    }
}

#[test]
fn each_family_fills_what_the_request_and_its_files_leave_no_doubt_about() {
    let dir = home();
    let cases: Vec<(String, Slots)> = vec![
        // A CSV column named by its header, in several phrasings.
        (
            "What is the total of the amount column in ~/sales.csv?".into(),
            want(Some("~/sales.csv"), None, Some(3), None),
        ),
        (
            "Sum the amounts in ~/sales.csv".into(),
            want(Some("~/sales.csv"), None, Some(3), None),
        ),
        (
            "How many distinct items are in sales.csv?".into(),
            want(Some("sales.csv"), None, Some(2), None),
        ),
        // A value names its column.
        (
            "Write the Paris rows of ~/sales.csv (without the header) into ~/paris.csv".into(),
            want(Some("~/sales.csv"), None, Some(1), Some("Paris")),
        ),
        (
            "How many sales in ~/sales.csv were in paris?".into(),
            want(Some("~/sales.csv"), None, Some(1), Some("Paris")),
        ),
        (
            "Show the rows of ~/sales.csv for Lyon".into(),
            want(Some("~/sales.csv"), None, Some(1), Some("Lyon")),
        ),
        // The header and the value agree.
        (
            "Which rows of ~/sales.csv have the city Nice?".into(),
            want(Some("~/sales.csv"), None, Some(1), Some("Nice")),
        ),
        // The header and the value disagree: the value stays, the column is in doubt.
        (
            "What is the total amount for Paris in ~/sales.csv?".into(),
            want(Some("~/sales.csv"), None, None, Some("Paris")),
        ),
        // Two columns named: neither.
        (
            "Show the item and amount of each row in ~/sales.csv".into(),
            want(Some("~/sales.csv"), None, None, None),
        ),
        // A value found in two columns ("pen" is an item; no other): one; two values: none.
        (
            "Count the pen sales in ~/sales.csv".into(),
            want(Some("~/sales.csv"), None, Some(2), Some("pen")),
        ),
        (
            "Compare Paris and Lyon in ~/sales.csv".into(),
            want(Some("~/sales.csv"), None, None, None),
        ),
        // A TSV.
        (
            "What is the average age in ~/people.tsv?".into(),
            want(Some("~/people.tsv"), None, Some(2), None),
        ),
        // A list: its one numeric field.
        (
            "Which item in ~/shop/prices.txt is the cheapest, and what does it cost?".into(),
            want(Some("~/shop/prices.txt"), None, Some(2), None),
        ),
        // Prose: the file, no column.
        (
            "How many words are in ~/notes.txt?".into(),
            want(Some("~/notes.txt"), None, None, None),
        ),
        // Folders: one is filled, two are in doubt.
        (
            "Which file in ~/data is the largest?".into(),
            want(None, Some("~/data"), None, None),
        ),
        (
            "Find the largest file in ~/data and copy it into the folder ~/backup".into(),
            want(None, None, None, None),
        ),
        // Missing paths fill nothing; two files fill no FILE.
        (
            "Write 3 into ~/count.txt".into(),
            want(None, None, None, None),
        ),
        (
            "Append ~/notes.txt to ~/shop/prices.txt".into(),
            want(None, None, None, None),
        ),
        (
            "How much free disk space do I have?".into(),
            Slots::default(),
        ),
    ];
    let mut wrong = Vec::new();
    for (request, expected) in &cases {
        let got = slots(request, &env(dir.path()));
        if &got != expected {
            wrong.push(format!("{request}: got {got:?}, want {expected:?}"));
        }
    }
    println!("{} requests, {} wrong", cases.len(), wrong.len());
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn a_filled_recipe_is_a_command_to_run_as_it_stands() {
    let dir = home();
    let e = env(dir.path());
    let request = "Which item in ~/shop/prices.txt is the cheapest, and what does it cost?";
    let hint = crate::recipes::hint(request, &slots(request, &e)).expect("a recipe");
    assert!(
        hint.contains("sort -k 2 -n ~/shop/prices.txt | head -n 1"),
        "{hint}"
    );
    let request = "Write the Paris rows of ~/sales.csv (without the header) into ~/paris.csv";
    let hint = crate::recipes::hint(request, &slots(request, &e)).expect("a recipe");
    assert!(
        hint.contains("awk -F, -v v='Paris' 'NR>1 && $1 == v' ~/sales.csv"),
        "{hint}"
    );
    // Run as the hint shows it, the filled command gives the truth.
    let out = std::process::Command::new("bash")
        .arg("-c")
        .arg("sort -k 2 -n ~/shop/prices.txt | head -n 1")
        .env("HOME", dir.path())
        .output()
        .expect("bash");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "Widget: 4.50 EUR\n");
    // Nothing known: the capitals stay.
    let request = "Which item in ~/missing.txt is the cheapest?";
    let hint = crate::recipes::hint(request, &slots(request, &e)).expect("a recipe");
    assert!(hint.contains("sort -k N -n FILE | head -n 1"), "{hint}");
}

#[test]
fn only_capitals_standing_alone_are_filled() {
    let s = want(Some("~/a.csv"), Some("~/d"), Some(3), Some("Paris"));
    assert_eq!(
        s.fill("awk -F, -v v='VALUE' 'NR>1 && $N == v' FILE"),
        "awk -F, -v v='Paris' 'NR>1 && $3 == v' ~/a.csv"
    );
    assert_eq!(s.fill("find DIR -type f"), "find ~/d -type f");
    assert_eq!(
        s.fill("mkdir -p DIR && cp FILE DIR/"),
        "mkdir -p ~/d && cp ~/a.csv ~/d/"
    );
    for kept in [
        "NR FILENAME DIRS xFILE FILE_2 NF",
        "tar czf OUT.tar.gz",
        "YYYY-MM-DD",
        "",
    ] {
        assert_eq!(
            s.fill(kept).replace("~/d", "DIR"),
            kept.replace("~/d", "DIR"),
            "{kept}"
        );
    }
    assert_eq!(Slots::default().fill("sort -k N FILE"), "sort -k N FILE");
}

#[test]
fn odd_paths_are_not_filled() {
    let dir = tempfile::tempdir().expect("temp");
    for name in ["a$b.txt", "a`b`.txt", "a'b.txt", "a;b.txt"] {
        std::fs::write(dir.path().join(name), "x 1\ny 2\n").expect("write");
        let got = slots(&format!("Sort ~/{name}"), &env(dir.path()));
        assert_eq!(got.file, None, "{name}");
    }
}

/// Whatever a named file holds, slots are read without a panic and any value filled is
/// plain text from the file.
#[test]
fn any_file_gives_plain_slots_without_a_panic() {
    let dir = tempfile::tempdir().expect("temp");
    let mut seed = 11u64;
    let mut next = || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) as u32
    };
    let alphabet = b"ab,\t \n\"'$;9.-PARIS\r\xc3\xa9";
    let mut filled = 0;
    for round in 0..400 {
        let len = (round * 29) % 5000;
        let bytes: Vec<u8> = (0..len)
            .map(|_| alphabet[next() as usize % alphabet.len()])
            .collect();
        let name = if round % 2 == 0 { "x.csv" } else { "x.txt" };
        std::fs::write(dir.path().join(name), &bytes).expect("write");
        let got = slots(
            &format!("Rows of ~/{name} for paris, a, b9 and the ab column"),
            &env(dir.path()),
        );
        if let Some(v) = &got.value {
            filled += 1;
            assert!(
                v.chars()
                    .all(|c| c.is_ascii_alphanumeric() || " ._-".contains(c)),
                "{v:?}"
            );
        }
    }
    println!("400 random files, {filled} values filled");
}

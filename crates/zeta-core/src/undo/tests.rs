//! The undo journal, keeper, store budget and view, with changes told to the keeper as
//! the watch tells them (before each file operation). The watched processes themselves
//! are zeta-tools' tests (the 224-command corpus) and the agent tests'.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use zeta_protocol::changes::ChangeKind;

use super::budget::{prune, Budget};
use super::journal::{SetKind, SetState};
use super::{undo_task, Keeper, SetKeeper, Touch, UndoError, UndoStore};

struct Fixture {
    _dir: tempfile::TempDir,
    home: PathBuf,
    store: UndoStore,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let zeta = dir.path().join("zeta");
    std::fs::create_dir_all(&zeta).unwrap();
    let store = UndoStore {
        database: zeta.join("zeta.db"),
        originals: zeta.join("originals"),
    };
    Fixture {
        _dir: dir,
        home,
        store,
    }
}

/// Overwrites `path` as a watched process would: the keeper hears first.
fn overwrite(keeper: &SetKeeper, path: &Path, text: &str) {
    keeper.before(&Touch::Write {
        path: path.to_path_buf(),
        create: true,
    });
    std::fs::write(path, text).unwrap();
}

fn task(f: &Fixture, id: i64, act: impl FnOnce(&SetKeeper)) {
    let keeper = SetKeeper::new(&f.store, id, SetKind::Task, None, None).unwrap();
    act(&keeper);
    keeper.close(SetState::Closed);
}

#[test]
fn the_store_and_the_database_are_never_kept() {
    let f = fixture();
    let keeper = SetKeeper::new(&f.store, 1, SetKind::Task, None, None).unwrap();
    keeper.before(&Touch::Write {
        path: f.store.originals.join("objects/x"),
        create: true,
    });
    keeper.before(&Touch::Remove(f.store.database.clone()));
    keeper.before(&Touch::Write {
        path: PathBuf::from("/dev/null"),
        create: false,
    });
    assert_eq!(keeper.set(), None, "nothing was recorded");
}

#[test]
fn the_same_content_is_kept_once_and_outlives_the_set_let_go() {
    let f = fixture();
    let a = f.home.join("a.txt");
    let b = f.home.join("b.txt");
    std::fs::write(&a, "same text\n").unwrap();
    std::fs::write(&b, "same text\n").unwrap();
    task(&f, 1, |k| overwrite(k, &a, "one\n"));
    task(&f, 2, |k| overwrite(k, &b, "two\n"));
    let objects = std::fs::read_dir(f.store.originals.join("objects"))
        .unwrap()
        .count();
    assert_eq!(objects, 1, "one copy for one content");
    // Over budget: the oldest set is let go first; the newer one needs the object.
    let pruned = prune(
        &f.store,
        Budget {
            max_bytes: 5,
            max_age_ms: i64::MAX,
        },
        crate::store::schema::now_ms(),
    )
    .unwrap();
    assert_eq!(pruned.tasks, vec![1]);
    assert!(matches!(
        undo_task(&f.store, 1, false),
        Err(UndoError::Expired(1))
    ));
    undo_task(&f.store, 2, false).unwrap();
    assert_eq!(std::fs::read_to_string(&b).unwrap(), "same text\n");
}

#[test]
fn sets_older_than_the_age_budget_are_let_go() {
    let f = fixture();
    let a = f.home.join("a.txt");
    std::fs::write(&a, "before\n").unwrap();
    task(&f, 1, |k| overwrite(k, &a, "after\n"));
    let later = crate::store::schema::now_ms() + 31 * 86_400_000;
    let budget = Budget {
        max_bytes: u64::MAX,
        max_age_ms: 30 * 86_400_000,
    };
    assert_eq!(prune(&f.store, budget, later).unwrap().tasks, vec![1]);
    assert_eq!(
        std::fs::read_dir(f.store.originals.join("objects"))
            .unwrap()
            .count(),
        0,
        "its copy is gone"
    );
    let err = undo_task(&f.store, 1, false).unwrap_err().to_string();
    assert!(err.contains("cannot be undone"), "{err}");
}

#[test]
fn a_dry_run_changes_nothing_and_says_what_it_would_do() {
    let f = fixture();
    let a = f.home.join("a.txt");
    let made = f.home.join("made.txt");
    std::fs::write(&a, "before\n").unwrap();
    task(&f, 1, |k| {
        overwrite(k, &a, "after\n");
        overwrite(k, &made, "new\n");
    });
    let report = undo_task(&f.store, 1, true).unwrap();
    assert!(report.dry_run);
    assert_eq!(report.restored, vec![a.clone()]);
    assert_eq!(report.removed, vec![made.clone()]);
    assert_eq!(std::fs::read_to_string(&a).unwrap(), "after\n");
    assert!(made.exists());
    let lines = report.lines().join("\n");
    assert!(
        lines.contains("would restore") && lines.contains("would remove"),
        "{lines}"
    );
    // The real undo afterwards.
    undo_task(&f.store, 1, false).unwrap();
    assert_eq!(std::fs::read_to_string(&a).unwrap(), "before\n");
    assert!(!made.exists());
}

#[test]
fn a_task_that_changed_nothing_has_nothing_to_undo() {
    let f = fixture();
    task(&f, 7, |_| {});
    assert!(matches!(
        undo_task(&f.store, 7, false),
        Err(UndoError::NothingKept(7))
    ));
}

#[test]
fn the_view_names_each_change_with_a_diff_of_text() {
    let f = fixture();
    let notes = f.home.join("notes.txt");
    let old = f.home.join("old.log");
    let table = f.home.join("a.csv");
    let moved = f.home.join("b.csv");
    let script = f.home.join("run.sh");
    let made = f.home.join("made.txt");
    let binary = f.home.join("blob.bin");
    std::fs::write(&notes, "status: draft\n").unwrap();
    std::fs::write(&old, "old\n").unwrap();
    std::fs::write(&table, "x\n").unwrap();
    std::fs::write(&script, "echo\n").unwrap();
    std::fs::write(&binary, [0u8, 1, 2, 255]).unwrap();
    task(&f, 1, |k| {
        overwrite(k, &notes, "status: final\n");
        overwrite(k, &binary, "\0\u{1}changed");
        k.before(&Touch::Remove(old.clone()));
        std::fs::remove_file(&old).unwrap();
        k.before(&Touch::Rename {
            from: table.clone(),
            to: moved.clone(),
            exchange: false,
        });
        std::fs::rename(&table, &moved).unwrap();
        k.before(&Touch::Mode(script.clone()));
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        overwrite(k, &made, "new\n");
    });
    let changes = super::view::task_changes(
        &f.store,
        1,
        &[
            ("shell".into(), r#"{"command":"ls"}"#.into()),
            ("open_app".into(), r#"{"name":"gedit"}"#.into()),
            (
                "http_request".into(),
                r#"{"url":"https://x","method":"POST"}"#.into(),
            ),
            ("http_request".into(), r#"{"url":"https://x"}"#.into()),
        ],
    )
    .unwrap();
    let kind = |p: &Path| {
        changes
            .files
            .iter()
            .find(|c| c.path == p.display().to_string())
            .map(|c| c.kind)
    };
    assert_eq!(kind(&notes), Some(ChangeKind::Changed));
    assert_eq!(kind(&old), Some(ChangeKind::Deleted));
    assert_eq!(kind(&moved), Some(ChangeKind::Moved));
    assert_eq!(
        kind(&table),
        None,
        "a moved file is shown once, where it went"
    );
    assert_eq!(kind(&script), Some(ChangeKind::Permissions));
    assert_eq!(kind(&made), Some(ChangeKind::Created));
    let notes_change = changes
        .files
        .iter()
        .find(|c| c.path == notes.display().to_string())
        .unwrap();
    let diff = notes_change.diff.as_deref().unwrap_or_default();
    assert!(
        diff.contains("-status: draft") && diff.contains("+status: final"),
        "{diff}"
    );
    let blob = changes
        .files
        .iter()
        .find(|c| c.path == binary.display().to_string())
        .unwrap();
    assert!(blob.diff.is_none());
    assert!(
        blob.note
            .as_deref()
            .unwrap_or_default()
            .starts_with("not text"),
        "{blob:?}"
    );
    assert!(changes.can_undo);
    assert_eq!(
        changes.not_undoable.len(),
        2,
        "the app opened and the POST, not the shell or the GET: {:?}",
        changes.not_undoable
    );
}

#[test]
fn an_append_keeps_only_the_size_and_undo_cuts_it_back() {
    let f = fixture();
    let log = f.home.join("big.log");
    let text = "line\n".repeat(200_000);
    std::fs::write(&log, &text).unwrap();
    task(&f, 1, |k| {
        k.before(&Touch::Append(log.clone()));
        use std::io::Write;
        let mut file = std::fs::OpenOptions::new().append(true).open(&log).unwrap();
        file.write_all(b"one more\n").unwrap();
        // A second append in the same task records nothing more.
        k.before(&Touch::Append(log.clone()));
        file.write_all(b"and another\n").unwrap();
    });
    assert_eq!(
        std::fs::read_dir(f.store.originals.join("objects"))
            .unwrap()
            .count(),
        0,
        "nothing copied for an append"
    );
    let changes = super::view::task_changes(&f.store, 1, &[]).unwrap();
    assert_eq!(changes.files.len(), 1);
    assert_eq!(changes.files[0].kind, ChangeKind::Changed);
    assert!(
        changes.files[0]
            .note
            .as_deref()
            .unwrap_or_default()
            .starts_with("appended"),
        "{:?}",
        changes.files[0]
    );
    undo_task(&f.store, 1, false).unwrap();
    assert_eq!(std::fs::read_to_string(&log).unwrap(), text);
    // Redo brings the appended lines back.
    super::redo_task(&f.store, 1, false).unwrap();
    assert!(std::fs::read_to_string(&log)
        .unwrap()
        .ends_with("one more\nand another\n"));
}

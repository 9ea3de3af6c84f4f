use super::*;
use serde_json::json;
use std::process::Command;

fn env(dir: &Path) -> ShellEnv {
    ShellEnv {
        home: dir.to_path_buf(),
        cwd: dir.to_path_buf(),
        user: "me".into(),
    }
}

/// Runs `command` in `dir` (its HOME) under a watch, as the loop does around a call.
fn effects(dir: &Path, command: &str) -> Vec<String> {
    let env = env(dir);
    let watch = Watch::before(&json!({ "command": command }), &[], &env);
    let status = Command::new("bash")
        .args(["-c", command])
        .current_dir(dir)
        .env("HOME", dir)
        .status()
        .expect("bash");
    assert!(status.success(), "{command}");
    let mut out: Vec<String> = watch.after().iter().map(|e| e.describe(dir)).collect();
    out.sort();
    out
}

fn setup() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp");
    let w = dir.path();
    std::fs::create_dir_all(w.join("docs/deep/er")).expect("dirs");
    std::fs::create_dir_all(w.join("logs")).expect("dirs");
    for (p, t) in [
        ("docs/a.txt", "a\n"),
        ("docs/b.tmp", "b\n"),
        ("docs/c.tmp", "c\n"),
        ("logs/x.log", "x\n"),
        ("logs/y.log", "y\n"),
        ("logs/notes.txt", "n\n"),
        ("top.txt", "t\n"),
        ("docs/deep/er/z.txt", "z\n"),
    ] {
        std::fs::write(w.join(p), t).expect("write");
    }
    dir
}

/// Families of commands, each with the effects a person would name.
#[test]
fn each_kind_of_change_is_seen_as_it_happened() {
    let cases: &[(&str, &[&str])] = &[
        ("echo 4 > ~/count.txt", &["created ~/count.txt"]),
        ("echo more >> docs/a.txt", &["changed ~/docs/a.txt"]),
        ("chmod +x ~/top.txt", &["changed ~/top.txt"]),
        (
            "rm ~/docs/*.tmp",
            &["deleted ~/docs/b.tmp", "deleted ~/docs/c.tmp"],
        ),
        (
            "mv ~/docs/a.txt ~/docs/renamed.txt",
            &["moved ~/docs/a.txt to ~/docs/renamed.txt"],
        ),
        (
            "mkdir ~/archive && mv ~/logs/*.log ~/archive/",
            &[
                "created ~/archive",
                "moved ~/logs/x.log to ~/archive/x.log",
                "moved ~/logs/y.log to ~/archive/y.log",
            ],
        ),
        ("sed -i s/a/b/ ~/docs/a.txt", &["changed ~/docs/a.txt"]),
        ("cp top.txt docs/", &["created ~/docs/top.txt"]),
        ("cd ~/logs && rm notes.txt", &["deleted ~/logs/notes.txt"]),
        (
            "tar czf ~/docs.tar.gz -C ~ docs",
            &["created ~/docs.tar.gz"],
        ),
        ("ls ~/docs; cat ~/top.txt", &[]),
        // Only its time changed: its bytes and mode are as they were.
        ("touch ~/docs/deep/er/z.txt", &[]),
        (
            "touch ~/docs/deep/er/new.txt",
            &["created ~/docs/deep/er/new.txt"],
        ),
        // Rewritten with the same bytes (a substitution that matched nothing): no change.
        ("sed -i s/nomatch/x/ ~/docs/a.txt", &[]),
        (
            "chmod 644 ~/top.txt && chmod +x ~/top.txt",
            &["changed ~/top.txt"],
        ),
    ];
    let mut wrong = Vec::new();
    for (command, want) in cases {
        let dir = setup();
        // A changed time must be a different time, on a filesystem with coarse times.
        if command.starts_with("touch") {
            let old = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000);
            let f = std::fs::File::options()
                .write(true)
                .open(dir.path().join("docs/deep/er/z.txt"))
                .expect("open");
            f.set_modified(old).expect("time");
        }
        let got = effects(dir.path(), command);
        if got != *want {
            wrong.push(format!("{command}: {got:?}, not {want:?}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {}:\n{}",
        wrong.len(),
        cases.len(),
        wrong.join("\n")
    );
}

#[test]
fn paths_in_arguments_are_read_from_every_string() {
    let dir = setup();
    let env = env(dir.path());
    let watch = Watch::before(
        &json!({"path": dir.path().join("docs/deep/new.txt").display().to_string(), "content": "x"}),
        &[],
        &env,
    );
    std::fs::write(dir.path().join("docs/deep/new.txt"), "x").expect("write");
    let got: Vec<String> = watch
        .after()
        .iter()
        .map(|e| e.describe(dir.path()))
        .collect();
    assert_eq!(got, ["created ~/docs/deep/new.txt"]);
}

#[test]
fn evidence_answers_what_landed_where() {
    let mut e = Evidence::default();
    e.push(CallEvidence {
        tool: "shell".into(),
        line: "✓ shell mv a b".into(),
        ran: true,
        held: false,
        ok: true,
        changes: true,
        output: "exit code 0\nstdout:\nhello\n".into(),
        effects: vec![Effect::Moved {
            from: "/h/a".into(),
            to: "/h/docs/b".into(),
        }],
        read_back: None,
        shows: None,
        program: None,
    });
    assert!(e.changed_ok());
    assert_eq!(e.effects_at(Path::new("/h/docs")).count(), 1);
    assert_eq!(e.effects_at(Path::new("/h/a")).count(), 1);
    assert_eq!(e.effects_at(Path::new("/h/other")).count(), 0);
    assert_eq!(e.printed(), ["hello"]);
}

#[test]
fn a_program_is_run_code_or_python_in_the_shell_read_off_its_syntax_tree() {
    let shell = |c: &str| runs_program("shell", &json!({ "command": c }));
    for c in [
        "python3 - <<'EOF'\nimport os\nprint(max(os.listdir('.'), key=os.path.getsize))\nEOF",
        "python3 -c 'print(240*15/100)'",
        "cd ~/docs && python3 count.py",
        "/usr/bin/python3 -c 'print(1)'",
        "python -c 'print(1)'",
        "ls | python3 -c 'import sys; print(len(sys.stdin.read().split()))'",
    ] {
        assert!(shell(c), "{c}");
    }
    for c in [
        "ls -S ~/docs | head -1",
        "wc -l a.csv",
        "echo python3",
        "cat python3.txt",
    ] {
        assert!(!shell(c), "{c}");
    }
    assert!(runs_program(
        "run_code",
        &json!({ "language": "python", "code": "print(1)" })
    ));
    assert!(!runs_program("read_file", &json!({ "path": "x.py" })));
}

#[test]
fn what_zeta_writes_in_its_own_folder_is_no_effect_of_the_call() {
    // Zeta's home inside the watched one (as in a home that holds `.zeta`, or the
    // tests'): its database's journal and its log, written while the call runs, are
    // Zeta's doing; a file the call makes there is the call's.
    let dir = setup();
    let env = env(dir.path());
    let own = dir.path().join("zeta-home");
    std::fs::create_dir_all(own.join("logs")).expect("own");
    std::fs::write(own.join("zeta.db-wal"), "before").expect("wal");
    let arguments = json!({"command": "echo hi > ~/notes.txt; ls ~/zeta-home ~/zeta-home/logs"});
    let run = |watch: Watch| {
        std::fs::write(own.join("zeta.db-wal"), "after, longer").expect("wal");
        std::fs::write(own.join("logs/zeta.log"), "line").expect("log");
        std::fs::write(own.join("made.txt"), "the call's").expect("made");
        std::fs::write(dir.path().join("notes.txt"), "hi\n").expect("notes");
        let mut got: Vec<String> = watch
            .after()
            .iter()
            .map(|e| e.describe(dir.path()))
            .collect();
        got.sort();
        got
    };
    let seen = run(Watch::before(&arguments, &[], &env));
    assert!(
        seen.iter().any(|e| e.contains("zeta.db-wal"))
            && seen.iter().any(|e| e.contains("zeta.log")),
        "without leaving them out, Zeta's own writes show: {seen:?}"
    );
    for made in [
        dir.path().join("notes.txt"),
        own.join("logs/zeta.log"),
        own.join("made.txt"),
    ] {
        std::fs::remove_file(made).expect("rm");
    }
    let left_out = run(Watch::before(&arguments, &[], &env).leaving_out(&own));
    assert_eq!(
        left_out,
        ["created ~/notes.txt", "created ~/zeta-home/made.txt"]
    );
}

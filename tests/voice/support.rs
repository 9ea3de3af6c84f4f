//! What the voice tests share: the converted models (made once per test binary), the
//! `zeta` binary, espeak-ng, and word error counting.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Model {
    /// English only, the fastest (the benchmark's).
    TinyEn,
    /// Multilingual, Zeta's default voice model.
    Base,
}

impl Model {
    fn folder(self) -> &'static str {
        match self {
            Model::TinyEn => "tiny.en",
            Model::Base => "base",
        }
    }

    pub fn file(self) -> &'static str {
        match self {
            Model::TinyEn => "ggml-tiny.en.bin",
            Model::Base => "ggml-base.bin",
        }
    }
}

type Converted = OnceLock<Option<(tempfile::TempDir, PathBuf)>>;

/// `which`, converted by `zeta models import` once for this test binary; `None` (said on
/// stderr) when the cached source or espeak-ng is missing and the tests are not required.
pub fn model(which: Model) -> Option<&'static Path> {
    static TINY: Converted = OnceLock::new();
    static BASE: Converted = OnceLock::new();
    let slot = match which {
        Model::TinyEn => &TINY,
        Model::Base => &BASE,
    };
    slot.get_or_init(|| convert(which))
        .as_ref()
        .map(|(_, p)| p.as_path())
}

fn convert(which: Model) -> Option<(tempfile::TempDir, PathBuf)> {
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))?;
    let src = cache.join("zeta/whisper-src").join(which.folder());
    let espeak = Command::new("espeak-ng").arg("--version").output().is_ok();
    if !src.join("model.bin").is_file() || !espeak {
        let why = format!(
            "no {} or no espeak-ng (scripts/whisper-model.sh, scripts/setup.sh --tests)",
            src.display()
        );
        zeta_test_support::cannot_run(zeta_test_support::Needs::Whisper, "voice test", why);
        return None;
    }
    let home = tempfile::tempdir().expect("home");
    let out = zeta(
        home.path(),
        &["models", "import", &src.display().to_string()],
    );
    assert!(
        out.status.success(),
        "import: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let path = home.path().join("models").join(which.file());
    assert!(path.is_file(), "{} was not made", path.display());
    Some((home, path))
}

pub fn zeta(home: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_zeta"))
        .args(args)
        .env("ZETA_HOME", home)
        .env("ZETA_SECRETS", "file")
        .output()
        .expect("run zeta")
}

pub fn speak(dir: &Path, name: &str, text: &str) -> PathBuf {
    let wav = dir.join(format!("{name}.wav"));
    let ok = Command::new("espeak-ng")
        .args(["-v", "en-us", "-s", "140", "-w"])
        .arg(&wav)
        .arg(text)
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "espeak-ng could not speak {text:?}");
    wav
}

/// Lower-case words without punctuation, numbers spelled out (as Whisper's own English
/// normaliser counts "20" and "twenty" as the same word).
pub fn words(text: &str) -> Vec<String> {
    const NUMBERS: [(&str, &str); 12] = [
        ("1", "one"),
        ("2", "two"),
        ("3", "three"),
        ("4", "four"),
        ("5", "five"),
        ("6", "six"),
        ("7", "seven"),
        ("8", "eight"),
        ("9", "nine"),
        ("10", "ten"),
        ("20", "twenty"),
        ("30", "thirty"),
    ];
    text.to_lowercase()
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| !w.is_empty())
        .map(|w| {
            NUMBERS
                .iter()
                .find(|(d, _)| *d == w)
                .map_or(w, |(_, s)| s)
                .to_string()
        })
        .collect()
}

/// Word-level edit distance.
pub fn errors(truth: &[String], heard: &[String]) -> usize {
    let mut row: Vec<usize> = (0..=heard.len()).collect();
    for (i, t) in truth.iter().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, h) in heard.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(t != h)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[heard.len()]
}

/// A microphone recording: `speech` (or nothing) between silences, as the raw 32-bit float
/// 48 kHz stereo that cpal asks the ALSA file device for.
pub fn mic_file(dir: &Path, speech: Option<&str>) -> PathBuf {
    let raw = dir.join("mic.raw");
    let to_raw = zeta_test_support::sound::MIC_RAW;
    let ok = match speech {
        Some(text) => {
            let wav = speak(dir, "command", text);
            Command::new("sox")
                .arg(&wav)
                .args(to_raw)
                .arg(&raw)
                .args(["pad", "0.3", "1"])
                .status()
        }
        None => Command::new("sox")
            .args(["-n"])
            .args(to_raw)
            .arg(&raw)
            .args(["synth", "5", "whitenoise", "vol", "0.002"])
            .status(),
    }
    .is_ok_and(|s| s.success());
    assert!(ok, "sox could not make the microphone file");
    raw
}

/// An `.asoundrc` (in a HOME of its own) whose default device records from `mic`.
pub fn asoundrc(home: &Path, mic: &Path) {
    std::fs::write(
        home.join(".asoundrc"),
        format!(
            "pcm.!default {{ type file; slave.pcm \"null\"; file \"/dev/null\"; infile \"{}\"; format \"raw\" }}\n",
            mic.display()
        ),
    )
    .expect("asoundrc");
}

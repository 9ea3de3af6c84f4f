//! What a model file is, read from its header: GGUF (llama.cpp models; magic `GGUF`, a
//! version, tensor and metadata counts) or whisper.cpp's ggml (magic `0x67676d6c`, then
//! eleven i32 hyper-parameters). Anything else, or a file too short to hold its header,
//! is refused with the reason.

use std::io::Read;
use std::path::Path;

use serde::Serialize;

use crate::{io, ModelError};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub enum ModelKind {
    /// A llama.cpp language model (the `local` provider).
    Gguf,
    /// A whisper.cpp speech model.
    Whisper,
}

impl ModelKind {
    pub fn label(self) -> &'static str {
        match self {
            ModelKind::Gguf => "llm (gguf)",
            ModelKind::Whisper => "whisper (ggml)",
        }
    }
}

const GGML_MAGIC: u32 = 0x6767_6d6c;

/// Reads the header of `path` and says what it is.
pub fn detect(path: &Path) -> Result<ModelKind, ModelError> {
    let mut file = std::fs::File::open(path).map_err(io("open", path))?;
    let mut head = [0u8; 64];
    let mut read = 0;
    while read < head.len() {
        match file.read(&mut head[read..]).map_err(io("read", path))? {
            0 => break,
            n => read += n,
        }
    }
    let size = file.metadata().map_err(io("inspect", path))?.len();
    classify(&head[..read], size).map_err(|reason| ModelError::NotAModel {
        path: path.to_path_buf(),
        reason,
    })
}

/// The kind of a file whose first bytes are `head` and whose length is `size`.
pub fn classify(head: &[u8], size: u64) -> Result<ModelKind, String> {
    if head.len() < 8 {
        return Err(format!("it is only {size} bytes long"));
    }
    let u32_at = |i: usize| u32::from_le_bytes([head[i], head[i + 1], head[i + 2], head[i + 3]]);
    if &head[..4] == b"GGUF" {
        let version = u32_at(4);
        if !(1..=3).contains(&version) {
            return Err(format!("GGUF version {version} is not one llama.cpp reads"));
        }
        if head.len() < 24 {
            return Err("its GGUF header is cut short".into());
        }
        let tensors = u64::from_le_bytes(head[8..16].try_into().unwrap_or_default());
        if tensors == 0 || size < 1 << 20 {
            return Err(format!(
                "a GGUF file with {tensors} tensors in {size} bytes is cut short or empty"
            ));
        }
        return Ok(ModelKind::Gguf);
    }
    if u32_at(0) == GGML_MAGIC {
        if head.len() < 48 {
            return Err("its whisper header is cut short".into());
        }
        let n_vocab = u32_at(4);
        let n_audio_state = u32_at(12);
        let n_mels = u32_at(40);
        if !(50_000..60_000).contains(&n_vocab) || n_mels != 80 && n_mels != 128 {
            return Err(format!(
                "its whisper header is not plausible (n_vocab {n_vocab}, n_mels {n_mels})"
            ));
        }
        // The smallest model (tiny) has 384-wide states and is ~75 MB in f16.
        if n_audio_state < 384 || size < 30 << 20 {
            return Err(format!("a whisper model of {size} bytes is cut short"));
        }
        return Ok(ModelKind::Whisper);
    }
    Err("it is neither a GGUF nor a whisper.cpp ggml file".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gguf(tensors: u64) -> Vec<u8> {
        let mut h = b"GGUF".to_vec();
        h.extend(3u32.to_le_bytes());
        h.extend(tensors.to_le_bytes());
        h.extend(20u64.to_le_bytes());
        h
    }

    fn whisper(vocab: u32, state: u32, mels: u32) -> Vec<u8> {
        let mut h = GGML_MAGIC.to_le_bytes().to_vec();
        for v in [vocab, 1500, state, 6, 4, 448, 384, 6, 4, mels, 1] {
            h.extend(v.to_le_bytes());
        }
        h
    }

    #[test]
    fn headers_are_recognised_and_cut_or_foreign_files_refused() {
        assert_eq!(classify(&gguf(339), 1 << 30), Ok(ModelKind::Gguf));
        assert!(classify(&gguf(339), 1000)
            .unwrap_err()
            .contains("cut short"));
        assert!(classify(&gguf(0), 1 << 30).is_err());
        assert!(classify(&b"GGUF"[..], 4).unwrap_err().contains("4 bytes"));
        assert_eq!(
            classify(&whisper(51864, 384, 80), 77 << 20),
            Ok(ModelKind::Whisper)
        );
        assert!(classify(&whisper(51864, 384, 80), 1 << 20).is_err());
        assert!(classify(&whisper(7, 384, 80), 77 << 20).is_err());
        assert!(classify(b"PK\x03\x04 a zip file, not a model", 1 << 30)
            .unwrap_err()
            .contains("neither"));
    }
}

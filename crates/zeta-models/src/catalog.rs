//! The models Zeta can fetch by name: where from, how large, and the checksum the file
//! must have (sha256, or for whisper.cpp's ggml files the SHA-1 its README publishes). `zeta models download URL --sha256 HEX` fetches anything else.

use crate::format::ModelKind;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Known {
    pub name: &'static str,
    pub kind: ModelKind,
    pub url: &'static str,
    /// About how large (for the list; the checksum is what is checked).
    pub bytes: u64,
    /// Lower-case hex: 64 digits a sha256, 40 a SHA-1.
    pub checksum: &'static str,
    pub about: &'static str,
}

/// One of whisper.cpp's own ggml files, checked by the SHA-1 its models README lists.
macro_rules! whisper {
    ($name:literal, $bytes:expr, $sha1:literal, $about:literal) => {
        Known {
            name: $name,
            kind: ModelKind::Whisper,
            url: concat!(
                "https://huggingface.co/ggerganov/whisper.cpp/resolve/main/",
                $name
            ),
            bytes: $bytes,
            checksum: $sha1,
            about: $about,
        }
    };
}

pub const KNOWN: &[Known] = &[Known {
    name: "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
    kind: ModelKind::Gguf,
    url: "https://huggingface.co/Qwen/Qwen2.5-Coder-1.5B-Instruct-GGUF/resolve/main/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
    bytes: 1_117_320_768,
    checksum: "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
    about: "Qwen2.5-Coder 1.5B Instruct, Q4_K_M: the default local model (the JSON planner)",
},
    whisper!(
        "ggml-base.bin",
        147_951_465,
        "465707469ff3a37a2b9b8d8f89f2f99de7299dac",
        "Whisper base, multilingual: the default voice model"
    ),
    whisper!(
        "ggml-tiny.en.bin",
        77_700_000,
        "c78c86eb1a8faa21b369bcd33207cc90d64ae9df",
        "Whisper tiny, English only: the fastest, less accurate"
    ),
    whisper!(
        "ggml-base.en.bin",
        148_000_000,
        "137c40403d78fd54d454da0f9bd998f78703390c",
        "Whisper base, English only"
    ),
    whisper!(
        "ggml-small.bin",
        487_600_000,
        "55356645c2b361a969dfd0ef2c5a50d530afd8d5",
        "Whisper small, multilingual: more accurate, about 3x slower than base"
    ),
];

impl Known {
    /// Where to fetch it: its URL, or the same path on the Hugging Face mirror named by
    /// `HF_ENDPOINT` (the variable Hugging Face's own tools read), for networks that
    /// reach huggingface.co only through one.
    pub fn url(&self) -> String {
        mirrored(self.url, std::env::var("HF_ENDPOINT").ok().as_deref())
    }
}

const HUGGING_FACE: &str = "https://huggingface.co";

fn mirrored(url: &str, endpoint: Option<&str>) -> String {
    match (
        endpoint.map(|e| e.trim().trim_end_matches('/')),
        url.strip_prefix(HUGGING_FACE),
    ) {
        (Some(endpoint), Some(path)) if !endpoint.is_empty() => format!("{endpoint}{path}"),
        _ => url.to_string(),
    }
}

pub fn find(name: &str) -> Option<&'static Known> {
    KNOWN
        .iter()
        .find(|k| k.name == name || k.name.trim_end_matches(".gguf") == name)
}

#[cfg(test)]
mod mirror_tests {
    use super::*;

    #[test]
    fn hf_endpoint_replaces_the_host_only() {
        let url = "https://huggingface.co/Qwen/x/resolve/main/a.gguf";
        assert_eq!(mirrored(url, None), url);
        assert_eq!(mirrored(url, Some("")), url);
        assert_eq!(
            mirrored(url, Some("http://127.0.0.1:9/")),
            "http://127.0.0.1:9/Qwen/x/resolve/main/a.gguf"
        );
        assert_eq!(
            mirrored("https://example.com/a", Some("http://m")),
            "https://example.com/a"
        );
    }
}

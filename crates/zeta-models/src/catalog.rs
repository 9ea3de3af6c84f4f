//! The models Zeta can fetch by name: where from, how large, and the sha256 the file
//! must have. `zeta models download URL --sha256 HEX` fetches anything else.

use crate::format::ModelKind;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Known {
    pub name: &'static str,
    pub kind: ModelKind,
    pub url: &'static str,
    pub bytes: u64,
    /// Lower-case hex.
    pub sha256: &'static str,
    pub about: &'static str,
}

pub const KNOWN: &[Known] = &[Known {
    name: "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
    kind: ModelKind::Gguf,
    url: "https://huggingface.co/Qwen/Qwen2.5-Coder-1.5B-Instruct-GGUF/resolve/main/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
    bytes: 1_117_320_768,
    sha256: "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
    about: "Qwen2.5-Coder 1.5B Instruct, Q4_K_M: the default local model (the JSON planner)",
}];

pub fn find(name: &str) -> Option<&'static Known> {
    KNOWN
        .iter()
        .find(|k| k.name == name || k.name.trim_end_matches(".gguf") == name)
}

//! The sentence-embedding model the skills' tests choose with: where
//! `scripts/skills-model.sh` caches it (or `ZETA_SKILLS_MODEL`).

use std::path::PathBuf;

use crate::{cannot_run, Needs};

/// The model's folder, or `None` (said why; a failure when the suite requires it).
pub fn model(test: &str) -> Option<PathBuf> {
    let places: Vec<PathBuf> = std::env::var_os("ZETA_SKILLS_MODEL")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .into_iter()
        .chain(
            std::env::var_os("HOME")
                .map(|h| PathBuf::from(h).join(".cache/zeta/models/all-MiniLM-L6-v2-int8")),
        )
        .collect();
    match places
        .iter()
        .find(|p| p.join("model.onnx").is_file() && p.join("tokenizer.json").is_file())
    {
        Some(dir) => Some(dir.clone()),
        None => {
            cannot_run(
                Needs::SkillsModel,
                test,
                format!(
                    "the skills' model is not in {places:?} (scripts/skills-model.sh fetches it)"
                ),
            );
            None
        }
    }
}

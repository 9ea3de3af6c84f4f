//! What the skills' tests share: the embedding model the test script fetched.

use std::path::PathBuf;

/// The model's folder (`ZETA_SKILLS_MODEL`, or the test script's cache), or `None`
/// (said why) without it; with `ZETA_SKILLS_MODEL_REQUIRED=1` its absence fails.
pub fn model() -> Option<PathBuf> {
    let cache = std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache/zeta/models"));
    match zeta_skills::embed::locate(cache.as_deref()) {
        Ok(dir) => Some(dir),
        Err(e) if std::env::var("ZETA_SKILLS_MODEL_REQUIRED").is_ok_and(|v| v == "1") => {
            panic!("{e}")
        }
        Err(e) => {
            eprintln!("SKIPPED: {e}");
            None
        }
    }
}

//! Choosing skills for a small model by meaning: the request and each skill's
//! description as vectors of a sentence-embedding model (`embed`), compared by cosine;
//! the nearest few above a floor are offered. No word of the request is matched against
//! a list: "how much room is left on my drive" finds "free disk space". A skill whose
//! programs are not on this machine is never offered (`runs_here`).

use std::collections::HashMap;
use std::sync::Mutex;

use crate::embed::Embedder;
use crate::shelf::Entry;

/// Skills offered to a small model at most.
pub const MOST: usize = 2;

/// How choice is tuned: the floor a description's similarity must reach, and how far
/// below the best one the second may be.
#[derive(Debug, Clone, Copy)]
pub struct Tuning {
    pub floor: f32,
    pub within: f32,
}

impl Default for Tuning {
    fn default() -> Self {
        Self {
            floor: 0.30,
            within: 0.03,
        }
    }
}

/// Chooses skills for requests; keeps each description's vector by its text.
pub struct Chooser {
    embedder: Option<Box<dyn Embedder>>,
    tuning: Tuning,
    vectors: Mutex<HashMap<String, Vec<f32>>>,
}

impl Chooser {
    /// Chooses with `embedder`; without one (its model is missing) nothing is chosen for
    /// a small model, and the reason is in the log.
    pub fn new(embedder: Option<Box<dyn Embedder>>, tuning: Tuning) -> Self {
        Self {
            embedder,
            tuning,
            vectors: Mutex::new(HashMap::new()),
        }
    }

    pub fn can_choose(&self) -> bool {
        self.embedder.is_some()
    }

    /// The similarity of each skill's description to `request`, best first.
    pub fn ranked<'a>(&self, request: &str, skills: &[&'a Entry]) -> Vec<(f32, &'a Entry)> {
        let Some(embedder) = &self.embedder else {
            return Vec::new();
        };
        let query = embedder.embed(request);
        let mut vectors = self.vectors.lock().unwrap_or_else(|p| p.into_inner());
        let mut ranked: Vec<(f32, &Entry)> = skills
            .iter()
            .map(|e| {
                let v = vectors
                    .entry(e.skill.description.clone())
                    .or_insert_with(|| embedder.embed(&e.skill.description));
                (cosine(&query, v), *e)
            })
            .collect();
        ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
        ranked
    }

    /// The skills offered for `request`: the best when it reaches the floor, and the
    /// next ones as close to it, at most `MOST`.
    pub fn choose<'a>(&self, request: &str, skills: &[&'a Entry]) -> Vec<&'a Entry> {
        let ranked = self.ranked(request, skills);
        let Some(best) = ranked.first().map(|r| r.0) else {
            return Vec::new();
        };
        ranked
            .into_iter()
            .take(MOST)
            .filter(|(s, _)| *s >= self.tuning.floor && *s >= best - self.tuning.within)
            .map(|(_, e)| e)
            .collect()
    }
}

fn cosine(a: &[f32], b: &[f32]) -> f32 {
    let dot: f32 = a.iter().zip(b).map(|(x, y)| x * y).sum();
    let na: f32 = a.iter().map(|x| x * x).sum::<f32>().sqrt();
    let nb: f32 = b.iter().map(|x| x * x).sum::<f32>().sqrt();
    if na == 0.0 || nb == 0.0 {
        0.0
    } else {
        dot / (na * nb)
    }
}

/// The request as choice reads it: each path it names stands as "a folder" or "a file"
/// (the words of a name — `~/zeta-snapshot-logs`, `q3-report.txt` — are not what is asked;
/// a file's kind is kept: "a .csv file"), and an address as "a web page".
pub fn meaning_text(request: &zeta_core::assist::request::Request) -> String {
    let mut text = request.text.clone();
    let mut named: Vec<&zeta_core::assist::request::NamedPath> = request.paths.iter().collect();
    // Longest first, so a path inside another is not cut out of it.
    named.sort_by_key(|p| std::cmp::Reverse(p.text.len()));
    for p in named {
        let kind = if p.text.contains("://") {
            "a web page".to_string()
        } else if p.path.is_dir() || p.text.ends_with('/') {
            "a folder".to_string()
        } else {
            match p.path.extension().and_then(|e| e.to_str()) {
                Some(ext) if ext.chars().all(|c| c.is_ascii_alphanumeric()) => {
                    format!("a .{ext} file")
                }
                _ if p.path.extension().is_none() && !p.text.contains('.') => {
                    "a folder".to_string()
                }
                _ => "a file".to_string(),
            }
        };
        text = text.replace(&p.text, &kind);
    }
    text
}

/// Whether every program the skill requires is on this machine's PATH (looked up once
/// per program).
pub fn runs_here(skill: &crate::format::Skill) -> bool {
    static FOUND: Mutex<Option<HashMap<String, bool>>> = Mutex::new(None);
    let mut found = FOUND.lock().unwrap_or_else(|p| p.into_inner());
    let found = found.get_or_insert_with(HashMap::new);
    skill.requires.iter().all(|program| {
        *found
            .entry(program.clone())
            .or_insert_with(|| on_path(program))
    })
}

fn on_path(program: &str) -> bool {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path).any(|d| d.join(program).is_file())
}

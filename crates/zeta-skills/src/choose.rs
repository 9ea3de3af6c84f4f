//! Choosing skills for a small model by meaning: the request and each skill's
//! description as vectors of a sentence-embedding model (`embed`), compared by cosine.
//! No word of the request is matched against a list: "how much room is left on my
//! drive" finds "free disk space". One skill is offered, and only where it is near the
//! request and clearly nearer than any other: where two are about as near ("how many
//! words" beside "how many lines hold a word"), the model is shown neither, since a
//! neighbour's command is one it runs as it is (measured: shown the skill for counting
//! matching lines, a 1.5B model counted lines for "how many words"). A skill whose
//! programs are not on this machine is never offered (`runs_here`).

use std::collections::HashMap;
use std::sync::Mutex;

use crate::embed::Embedder;
use crate::shelf::Entry;
use crate::vectors::Kept;

/// How choice is tuned: the floor the nearest description's similarity must reach, and
/// how far it must stand above the next one's.
#[derive(Debug, Clone, Copy)]
pub struct Tuning {
    pub floor: f32,
    pub lead: f32,
    /// A template skill (one that declares parameters, as a learned one does) is a
    /// candidate only where the request's shape (`learn::shape`) is this near its
    /// description: it stands for requests of one shape, and its command is that shape's.
    pub template_floor: f32,
}

impl Default for Tuning {
    /// Set on the tune half of `tests/choice.rs`'s table and on requests written for the
    /// purpose (`zeta skills match`): there, 0.40 and 0.05 offer a fitting skill for 72 of
    /// 100 requests with 2 false picks in 74, where the earlier rule (0.30, and a second
    /// within 0.03) offered one for 93 with 16 false picks in 111. On the held half, never
    /// looked at while setting them: 43 of 51 with no false pick (8 false in 57 before).
    fn default() -> Self {
        Self {
            floor: 0.40,
            lead: 0.05,
            template_floor: 0.85,
        }
    }
}

/// A request as choice reads it: its meaning (`meaning_text`), and its shape, the values
/// as parameters (`learn::shape`), which a template skill's description is compared with.
#[derive(Debug, Clone)]
pub struct Query {
    pub meant: String,
    pub shape: Option<String>,
}

impl Query {
    /// `request`'s meaning, and its shape where a template is among `skills` (reading
    /// the shape may look into the folders the request names); `home`: the home `~`
    /// stands for.
    pub fn of(
        request: &zeta_core::assist::request::Request,
        home: &std::path::Path,
        skills: &[&Entry],
    ) -> Self {
        Self {
            meant: meaning_text(request),
            shape: skills
                .iter()
                .any(|e| is_template(e))
                .then(|| crate::learn::shape(request, home)),
        }
    }
}

impl From<&str> for Query {
    /// A text read both ways.
    fn from(text: &str) -> Self {
        Self {
            meant: text.to_string(),
            shape: None,
        }
    }
}

impl From<&String> for Query {
    fn from(text: &String) -> Self {
        Self::from(text.as_str())
    }
}

/// Whether a skill is a template: it declares parameters.
pub fn is_template(entry: &Entry) -> bool {
    !entry.skill.parameters().is_empty()
}

/// Chooses skills for requests; keeps each description's vector by its digest, in
/// memory and, where given a file, between runs (`vectors::Kept`).
pub struct Chooser {
    embedder: Option<Box<dyn Embedder>>,
    tuning: Tuning,
    vectors: Mutex<Placed>,
    kept: Option<Kept>,
}

/// The descriptions placed so far, and whether the kept file was read.
#[derive(Default)]
struct Placed {
    by_digest: HashMap<String, Vec<f32>>,
    read: bool,
}

impl Chooser {
    /// Chooses with `embedder`; without one (its model is missing) nothing is chosen for
    /// a small model, and the reason is in the log.
    pub fn new(embedder: Option<Box<dyn Embedder>>, tuning: Tuning) -> Self {
        Self {
            embedder,
            tuning,
            vectors: Mutex::new(Placed::default()),
            kept: None,
        }
    }

    /// The same, keeping the descriptions' vectors in `file` between runs.
    pub fn keeping_vectors(mut self, file: std::path::PathBuf) -> Self {
        self.kept = Some(Kept::at(file));
        self
    }

    pub fn can_choose(&self) -> bool {
        self.embedder.is_some()
    }

    /// The similarity of each skill's description to `request`, best first.
    /// A template skill is compared with the request's shape (`Query`).
    pub fn ranked<'a>(
        &self,
        request: impl Into<Query>,
        skills: &[&'a Entry],
    ) -> Vec<(f32, &'a Entry)> {
        let Some(embedder) = &self.embedder else {
            return Vec::new();
        };
        let request = request.into();
        let query = embedder.embed(&request.meant);
        let shape = match &request.shape {
            Some(shape) if skills.iter().any(|e| is_template(e)) => embedder.embed(shape),
            _ => query.clone(),
        };
        // A model that cannot place the request places nothing else either: it is not
        // asked to, once per description.
        if query.is_empty() {
            return Vec::new();
        }
        let mut placed = self.vectors.lock().unwrap_or_else(|p| p.into_inner());
        let identity = self.kept.as_ref().and_then(|_| embedder.identity());
        if let (Some(kept), Some(model), false) = (&self.kept, &identity, placed.read) {
            placed.read = true;
            // Only vectors of the request's length and finite numbers are taken from the
            // file: another would be compared wrongly (cut short, or NaN first).
            let read = kept
                .read(model)
                .into_iter()
                .filter(|(_, v)| v.len() == query.len() && v.iter().all(|x| x.is_finite()));
            placed.by_digest.extend(read);
        }
        let mut new = false;
        let mut ranked: Vec<(f32, &Entry)> = skills
            .iter()
            .map(|e| {
                let key = crate::format::digest(&e.skill.description);
                let v = placed.by_digest.entry(key).or_insert_with(|| {
                    new = true;
                    embedder.embed(&e.skill.description)
                });
                let against = if is_template(e) { &shape } else { &query };
                (cosine(against, v), *e)
            })
            .collect();
        // A text the model could not place is placed again next time, not kept.
        placed.by_digest.retain(|_, v| !v.is_empty());
        if let (Some(kept), Some(model), true) = (&self.kept, &identity, new) {
            kept.write(model, &placed.by_digest);
        }
        ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
        ranked
    }

    /// The skill offered for `request`, if any: the nearest, where it reaches the floor
    /// and stands `lead` above the next.
    /// A template skill takes part only where the request's shape is near its own.
    pub fn choose<'a>(&self, request: impl Into<Query>, skills: &[&'a Entry]) -> Vec<&'a Entry> {
        let ranked: Vec<(f32, &Entry)> = self
            .ranked(request, skills)
            .into_iter()
            .filter(|(s, e)| !is_template(e) || *s >= self.tuning.template_floor)
            .collect();
        let Some(&(best, entry)) = ranked.first() else {
            return Vec::new();
        };
        // Skills that would show the same steps (two learned from tasks of one kind) are
        // one choice: the lead is over the next that shows something else.
        let next = ranked
            .iter()
            .skip(1)
            .find(|(_, e)| shown(e) != shown(entry))
            .map_or(0.0, |r| r.0);
        if best >= self.tuning.floor && best - next >= self.tuning.lead {
            vec![entry]
        } else {
            Vec::new()
        }
    }
}

/// What a small model would be shown of a skill: its command, else its steps.
fn shown(entry: &Entry) -> &str {
    entry
        .skill
        .first_command()
        .unwrap_or(entry.skill.body.as_str())
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

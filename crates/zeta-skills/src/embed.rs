//! Sentence vectors for choosing skills by meaning: all-MiniLM-L6-v2 (a 6-layer sentence
//! transformer, 384 dimensions, Apache-2.0) quantised to int8 ONNX, run by tract (pure
//! Rust), its tokens averaged and the result normalised. About 25 ms a sentence on one
//! core; loaded on first use, so a task that needs no choice never pays for it.
//!
//! The model is a folder (`model.onnx`, `tokenizer.json`) found at `ZETA_SKILLS_MODEL`,
//! in Zeta's models folder, or where the package installed it; without one, a small
//! model is offered no skills, and `zeta doctor` says how to get it.

use std::path::{Path, PathBuf};

use tokenizers::Tokenizer;
use tract_onnx::prelude::*;

/// The model's folder name.
pub const MODEL_DIR: &str = "all-MiniLM-L6-v2-int8";
/// Where a package installs it.
pub const SYSTEM_DIR: &str = "/usr/share/zeta/models";
/// Tokens read of a text at most (the model's own limit is 256; requests are short).
const MOST_TOKENS: usize = 128;

/// Text to vector.
pub trait Embedder: Send + Sync {
    fn embed(&self, text: &str) -> Vec<f32>;
    /// Which model places the texts (`vectors::identity`), where it is known: vectors
    /// are kept between runs only under it.
    fn identity(&self) -> Option<String> {
        None
    }
}

/// The model could not be found or loaded.
#[derive(Debug, thiserror::Error)]
pub enum EmbedError {
    #[error(
        "the model that chooses skills by meaning ({MODEL_DIR}) is not installed: looked in \
         {looked}; `scripts/skills-model.sh` fetches it, or set ZETA_SKILLS_MODEL to its folder"
    )]
    Missing { looked: String },
    #[error("the skills' model in {path} could not be loaded: {message}")]
    Load { path: PathBuf, message: String },
}

/// The sentence transformer.
pub struct MiniLm {
    tokenizer: Tokenizer,
    model: std::sync::Arc<TypedRunnableModel>,
    identity: Option<String>,
}

impl MiniLm {
    /// Loads the model folder at `dir`.
    pub fn load(dir: &Path) -> Result<Self, EmbedError> {
        let fail = |message: String| EmbedError::Load {
            path: dir.to_path_buf(),
            message,
        };
        let mut tokenizer = Tokenizer::from_file(dir.join("tokenizer.json"))
            .map_err(|e| fail(format!("tokenizer.json: {e}")))?;
        // The packaged tokenizer pads every text to 128 tokens; the mean is over the
        // text's own tokens.
        tokenizer.with_padding(None);
        let model =
            runnable(&dir.join("model.onnx")).map_err(|e| fail(format!("model.onnx: {e}")))?;
        Ok(Self {
            tokenizer,
            model,
            identity: crate::vectors::identity(dir),
        })
    }

    /// Finds and loads the model (see `locate`).
    pub fn find(models_dir: Option<&Path>) -> Result<Self, EmbedError> {
        Self::load(&locate(models_dir)?)
    }

    /// The text's vector, or why the model could not place it.
    pub fn vector(&self, text: &str) -> Result<Vec<f32>, String> {
        let encoding = self
            .tokenizer
            .encode(text, true)
            .map_err(|e| e.to_string())?;
        let n = encoding.get_ids().len().min(MOST_TOKENS);
        if n == 0 {
            return Err("no tokens".into());
        }
        let ids: Vec<i64> = encoding.get_ids()[..n]
            .iter()
            .map(|&x| i64::from(x))
            .collect();
        let ids = tract_ndarray::Array2::from_shape_vec((1, n), ids).map_err(|e| e.to_string())?;
        let mask = tract_ndarray::Array2::<i64>::ones((1, n));
        let types = tract_ndarray::Array2::<i64>::zeros((1, n));
        let out = self
            .model
            .run(tvec!(
                Tensor::from(ids).into(),
                Tensor::from(mask).into(),
                Tensor::from(types).into()
            ))
            .map_err(|e| e.to_string())?;
        let hidden = out
            .first()
            .ok_or("no output")?
            .to_plain_array_view::<f32>()
            .map_err(|e| e.to_string())?
            .into_dimensionality::<tract_ndarray::Ix3>()
            .map_err(|e| e.to_string())?;
        let dim = hidden.shape()[2];
        let mut v = vec![0f32; dim];
        for t in 0..n {
            for (d, x) in v.iter_mut().enumerate() {
                *x += hidden[[0, t, d]];
            }
        }
        let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt().max(1e-12);
        v.iter_mut().for_each(|x| *x /= norm);
        Ok(v)
    }
}

/// The ONNX graph, optimised.
fn runnable(path: &Path) -> TractResult<std::sync::Arc<TypedRunnableModel>> {
    tract_onnx::onnx()
        .model_for_path(path)?
        .into_optimized()?
        .into_runnable()
}

impl Embedder for MiniLm {
    /// The text's vector; a text the model cannot read is the zero vector (near nothing).
    fn embed(&self, text: &str) -> Vec<f32> {
        self.vector(text).unwrap_or_else(|e| {
            tracing::warn!("could not place a text for choosing skills: {e}");
            Vec::new()
        })
    }
    fn identity(&self) -> Option<String> {
        self.identity.clone()
    }
}

/// How long the model stays loaded after its last use: it holds ~130 MiB, and a person
/// at rest should not pay for it (a later choice loads it again, ~0.5 s).
pub const KEEP_LOADED: std::time::Duration = std::time::Duration::from_secs(120);

/// The model, found and loaded at its first use (a task that chooses nothing never loads
/// it) and let go `KEEP_LOADED` after its last; a missing model is said once in the log,
/// and places nothing.
pub struct Lazy {
    models_dir: Option<PathBuf>,
    keep: std::time::Duration,
    state: std::sync::Arc<std::sync::Mutex<Loaded>>,
}

#[derive(Default)]
struct Loaded {
    model: Option<MiniLm>,
    last_used: Option<std::time::Instant>,
    /// Said once: the model is not installed.
    missing_said: bool,
    /// A thread lets the model go when idle.
    reaper: bool,
}

impl Lazy {
    pub fn new(models_dir: Option<PathBuf>) -> Self {
        Self::keeping(models_dir, KEEP_LOADED)
    }

    /// The same, letting the model go `keep` after its last use.
    pub fn keeping(models_dir: Option<PathBuf>, keep: std::time::Duration) -> Self {
        Self {
            models_dir,
            keep,
            state: Default::default(),
        }
    }

    /// Whether the model is loaded now.
    pub fn loaded(&self) -> bool {
        self.state
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .model
            .is_some()
    }

    fn reap_when_idle(state: std::sync::Weak<std::sync::Mutex<Loaded>>, keep: std::time::Duration) {
        let spawned = std::thread::Builder::new()
            .name("skills-model-reaper".into())
            .spawn(move || loop {
                std::thread::sleep(keep / 4);
                let Some(state) = state.upgrade() else { return };
                let mut loaded = state.lock().unwrap_or_else(|p| p.into_inner());
                if loaded.last_used.is_some_and(|t| t.elapsed() >= keep) {
                    loaded.model = None;
                    loaded.reaper = false;
                    tracing::debug!("the skills' model let go after {keep:?} unused");
                    return;
                }
            });
        if let Err(e) = spawned {
            tracing::warn!("the skills' model stays loaded (no thread to let it go: {e})");
        }
    }
}

impl Embedder for Lazy {
    fn embed(&self, text: &str) -> Vec<f32> {
        let mut loaded = self.state.lock().unwrap_or_else(|p| p.into_inner());
        if loaded.model.is_none() {
            let started = std::time::Instant::now();
            match MiniLm::find(self.models_dir.as_deref()) {
                Ok(model) => {
                    tracing::info!(
                        ms = started.elapsed().as_millis() as u64,
                        "the skills' model loaded"
                    );
                    loaded.model = Some(model);
                }
                Err(e) => {
                    if !loaded.missing_said {
                        tracing::warn!("no skills are chosen for a small model: {e}");
                        loaded.missing_said = true;
                    }
                    return Vec::new();
                }
            }
        }
        loaded.last_used = Some(std::time::Instant::now());
        if !loaded.reaper {
            loaded.reaper = true;
            Self::reap_when_idle(std::sync::Arc::downgrade(&self.state), self.keep);
        }
        loaded
            .model
            .as_ref()
            .map(|m| m.embed(text))
            .unwrap_or_default()
    }
    /// The model's identity without loading it.
    fn identity(&self) -> Option<String> {
        crate::vectors::identity(&locate(self.models_dir.as_deref()).ok()?)
    }
}

/// Where the model is: `ZETA_SKILLS_MODEL`, then `models_dir/all-MiniLM-L6-v2-int8`,
/// then the package's copy; or where it was looked for.
pub fn locate(models_dir: Option<&Path>) -> Result<PathBuf, EmbedError> {
    let mut places: Vec<PathBuf> = Vec::new();
    if let Some(dir) = std::env::var_os("ZETA_SKILLS_MODEL").filter(|v| !v.is_empty()) {
        places.push(PathBuf::from(dir));
    }
    if let Some(models) = models_dir {
        places.push(models.join(MODEL_DIR));
    }
    places.push(Path::new(SYSTEM_DIR).join(MODEL_DIR));
    places
        .iter()
        .find(|p| p.join("model.onnx").is_file() && p.join("tokenizer.json").is_file())
        .cloned()
        .ok_or_else(|| EmbedError::Missing {
            looked: places
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", "),
        })
}

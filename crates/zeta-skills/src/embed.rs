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
        Ok(Self { tokenizer, model })
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
}

/// The model, found and loaded at its first use (a task that chooses nothing never
/// loads it); a missing model is said once in the log, and places nothing.
pub struct Lazy {
    models_dir: Option<PathBuf>,
    model: std::sync::OnceLock<Option<MiniLm>>,
}

impl Lazy {
    pub fn new(models_dir: Option<PathBuf>) -> Self {
        Self {
            models_dir,
            model: std::sync::OnceLock::new(),
        }
    }
}

impl Embedder for Lazy {
    fn embed(&self, text: &str) -> Vec<f32> {
        let model = self.model.get_or_init(|| {
            let started = std::time::Instant::now();
            match MiniLm::find(self.models_dir.as_deref()) {
                Ok(model) => {
                    tracing::info!(
                        ms = started.elapsed().as_millis() as u64,
                        "the skills' model loaded"
                    );
                    Some(model)
                }
                Err(e) => {
                    tracing::warn!("no skills are chosen for a small model: {e}");
                    None
                }
            }
        });
        model.as_ref().map(|m| m.embed(text)).unwrap_or_default()
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

//! The description vectors kept between runs (`$ZETA_HOME/skill-vectors.json`). Placing
//! Zeta's 52 descriptions takes ~3 s in a release build (measured by
//! `benches/choose.rs`), and every process that chooses — each `zeta run`, the app's
//! first task after it starts — would pay it again; kept, a choice places the request
//! alone. Kept by the model's identity (its file's size and time: another model places
//! texts elsewhere) and each description's SHA-256. A file of another model, unreadable
//! or not what this writes is passed over and written anew; failing to write it costs
//! only the time.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// The largest file read (16 MiB).
const MOST_BYTES: u64 = 16 * 1024 * 1024;

/// What the file holds.
#[derive(Serialize, Deserialize, Default)]
struct Stored {
    /// The identity of the model that placed them.
    model: String,
    /// Each description's vector, by the description's digest.
    vectors: HashMap<String, Vec<f32>>,
}

/// The file of kept vectors.
pub struct Kept {
    path: PathBuf,
}

impl Kept {
    pub fn at(path: PathBuf) -> Self {
        Self { path }
    }

    /// The vectors `model` placed, by description digest; none when the file is missing,
    /// unreadable, of another model or not this file's shape.
    pub fn read(&self, model: &str) -> HashMap<String, Vec<f32>> {
        // Zeta's own take ~0.5 MiB; a file far larger is not this one.
        let size = std::fs::metadata(&self.path).map_or(0, |m| m.len());
        if size > MOST_BYTES {
            tracing::warn!(
                "{} holds {size} bytes, more than kept vectors take: it is written anew",
                self.path.display()
            );
            return HashMap::new();
        }
        let Ok(text) = std::fs::read_to_string(&self.path) else {
            return HashMap::new();
        };
        match serde_json::from_str::<Stored>(&text) {
            Ok(stored) if stored.model == model => stored
                .vectors
                .into_iter()
                .filter(|(_, v)| !v.is_empty())
                .collect(),
            Ok(_) => HashMap::new(),
            Err(e) => {
                tracing::warn!(
                    "{} is not a file of kept skill vectors ({e}): it is written anew",
                    self.path.display()
                );
                HashMap::new()
            }
        }
    }

    /// Keeps `vectors` (by description digest) as placed by `model`, replacing the file
    /// whole (written aside, then renamed).
    pub fn write(&self, model: &str, vectors: &HashMap<String, Vec<f32>>) {
        let stored = Stored {
            model: model.to_string(),
            vectors: vectors.clone(),
        };
        let text = match serde_json::to_string(&stored) {
            Ok(text) => text,
            Err(e) => {
                tracing::warn!("could not keep the skills' vectors: {e}");
                return;
            }
        };
        // Aside under this process's own name: two writers never share it.
        let aside = self
            .path
            .with_extension(format!("json.{}.part", std::process::id()));
        let written = zeta_protocol::home::write_private(&aside, text.as_bytes())
            .and_then(|()| std::fs::rename(&aside, &self.path));
        if let Err(e) = written {
            tracing::warn!(
                "could not keep the skills' vectors in {}: {e}",
                self.path.display()
            );
        }
    }
}

/// A model folder's identity: its `model.onnx`'s size and modification time, and the
/// tokenizer's size.
pub fn identity(dir: &Path) -> Option<String> {
    let model = std::fs::metadata(dir.join("model.onnx")).ok()?;
    let tokenizer = std::fs::metadata(dir.join("tokenizer.json")).ok()?;
    let time = model
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?
        .as_nanos();
    Some(format!("{}:{time}:{}", model.len(), tokenizer.len()))
}

//! The folder of models (`$ZETA_HOME/models`): what is installed, and importing a file
//! into it. An import is checked by its header first, then hard-linked when the source is
//! on the same disk, or else copied to a temporary name and renamed, so a cut-short copy
//! never takes the model's name.

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::format::{detect, ModelKind};
use crate::{io, ModelError};

#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct InstalledModel {
    pub name: String,
    pub kind: ModelKind,
    pub bytes: u64,
    pub path: String,
}

#[derive(Debug, Clone)]
pub struct ModelStore {
    dir: PathBuf,
}

impl ModelStore {
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Self { dir: dir.into() }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Every model file in the folder, by name; files that are not models (and `.part`
    /// downloads) are left out.
    pub fn list(&self) -> Result<Vec<InstalledModel>, ModelError> {
        let entries = match std::fs::read_dir(&self.dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(io("list", &self.dir)(e)),
        };
        let mut models = Vec::new();
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().to_string();
            if !path.is_file() || name.ends_with(".part") || name.starts_with('.') {
                continue;
            }
            match detect(&path) {
                Ok(kind) => models.push(InstalledModel {
                    bytes: entry.metadata().map(|m| m.len()).unwrap_or(0),
                    name,
                    kind,
                    path: path.display().to_string(),
                }),
                Err(e) => tracing::debug!("not a model: {e}"),
            }
        }
        models.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(models)
    }

    /// The installed models of one kind, by name.
    pub fn names(&self, kind: ModelKind) -> Vec<String> {
        self.list()
            .unwrap_or_default()
            .into_iter()
            .filter(|m| m.kind == kind)
            .map(|m| m.name)
            .collect()
    }

    /// The model called `name` (a file name in the folder), checked by its header.
    pub fn get(&self, name: &str) -> Result<InstalledModel, ModelError> {
        let path = self.dir.join(file_name(name)?);
        if !path.is_file() {
            return Err(ModelError::NotInstalled {
                name: name.to_string(),
                dir: self.dir.clone(),
            });
        }
        let kind = detect(&path)?;
        Ok(InstalledModel {
            name: name.to_string(),
            kind,
            bytes: std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0),
            path: path.display().to_string(),
        })
    }

    /// Brings `source` into the folder as `name` (default: its file name). A faster-whisper
    /// folder (model.bin + vocabulary) is converted to ggml (`ggml-<folder>.bin`).
    pub fn import(&self, source: &Path, name: Option<&str>) -> Result<InstalledModel, ModelError> {
        if source.is_dir() {
            return self.import_faster_whisper(source, name);
        }
        let kind = detect(source)?;
        let name = match name {
            Some(name) => file_name(name)?.to_string(),
            None => source
                .file_name()
                .map(|n| n.to_string_lossy().to_string())
                .ok_or_else(|| {
                    ModelError::Invalid(format!("{} has no file name", source.display()))
                })?,
        };
        std::fs::create_dir_all(&self.dir).map_err(io("create folder", &self.dir))?;
        let dest = self.dir.join(&name);
        let same_file = match (std::fs::canonicalize(source), std::fs::canonicalize(&dest)) {
            (Ok(a), Ok(b)) => a == b,
            _ => false,
        };
        if !same_file {
            let tmp = self.dir.join(format!(".{name}.importing"));
            let _ = std::fs::remove_file(&tmp);
            if std::fs::hard_link(source, &tmp).is_err() {
                std::fs::copy(source, &tmp).map_err(io("copy into", &tmp))?;
            }
            std::fs::rename(&tmp, &dest).map_err(io("rename into", &dest))?;
        }
        tracing::info!(%name, kind = kind.label(), "model imported");
        self.get(&name).map(|m| InstalledModel { kind, ..m })
    }
}

impl ModelStore {
    fn import_faster_whisper(
        &self,
        dir: &Path,
        name: Option<&str>,
    ) -> Result<InstalledModel, ModelError> {
        if !dir.join("model.bin").is_file() {
            return Err(ModelError::NotAModel {
                path: dir.to_path_buf(),
                reason: "a folder without model.bin (a faster-whisper model folder has model.bin and vocabulary.txt)".into(),
            });
        }
        let name = match name {
            Some(name) => file_name(name)?.to_string(),
            None => {
                let folder = dir
                    .canonicalize()
                    .ok()
                    .and_then(|p| p.file_name().map(|n| n.to_string_lossy().to_string()))
                    .unwrap_or_else(|| "whisper".into());
                format!("ggml-{folder}.bin")
            }
        };
        std::fs::create_dir_all(&self.dir).map_err(io("create folder", &self.dir))?;
        let tmp = self.dir.join(format!(".{name}.importing"));
        let result = crate::whisper_convert::convert(dir, &tmp).and_then(|()| {
            // The converted file must read back as a whisper model.
            detect(&tmp)?;
            std::fs::rename(&tmp, self.dir.join(&name)).map_err(io("rename into", &self.dir))
        });
        if let Err(e) = result {
            let _ = std::fs::remove_file(&tmp);
            return Err(e);
        }
        tracing::info!(%name, from = %dir.display(), "faster-whisper model converted to ggml");
        self.get(&name)
    }
}

/// A plain file name: no folders, nothing hidden.
fn file_name(name: &str) -> Result<&str, ModelError> {
    let name = name.trim();
    if name.is_empty() || name.starts_with('.') || name.contains('/') || name.contains('\\') {
        return Err(ModelError::Invalid(format!(
            "{name:?} is not a model name (a plain file name, like model.gguf)"
        )));
    }
    Ok(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fake_gguf(path: &Path) {
        let mut bytes = b"GGUF".to_vec();
        bytes.extend(3u32.to_le_bytes());
        bytes.extend(5u64.to_le_bytes());
        bytes.extend(1u64.to_le_bytes());
        bytes.resize(2 << 20, 0);
        std::fs::write(path, bytes).expect("write");
    }

    #[test]
    fn import_checks_the_header_and_list_shows_models_only() {
        let dir = tempfile::tempdir().expect("dir");
        let store = ModelStore::new(dir.path().join("models"));
        let src = dir.path().join("m.gguf");
        fake_gguf(&src);
        let m = store.import(&src, Some("mine.gguf")).expect("import");
        assert_eq!((m.name.as_str(), m.kind), ("mine.gguf", ModelKind::Gguf));
        std::fs::write(store.dir().join("notes.txt"), "hi").expect("write");
        std::fs::write(store.dir().join("x.gguf.part"), "GGUF").expect("write");
        let names: Vec<String> = store
            .list()
            .expect("list")
            .into_iter()
            .map(|m| m.name)
            .collect();
        assert_eq!(names, ["mine.gguf"]);
        let junk = dir.path().join("junk.gguf");
        std::fs::write(&junk, "not a model at all").expect("write");
        let err = store.import(&junk, None).unwrap_err().to_string();
        assert!(err.contains("neither a GGUF"), "{err}");
        assert!(!store.dir().join("junk.gguf").exists());
        assert!(store.import(&src, Some("../escape.gguf")).is_err());
        assert!(matches!(
            store.get("missing.gguf"),
            Err(ModelError::NotInstalled { .. })
        ));
    }
}

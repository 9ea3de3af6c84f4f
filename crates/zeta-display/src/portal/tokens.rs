//! The portals' restore tokens: what the person allowed (a screen shared, the keyboard
//! and pointer controlled), kept in an owner-only file, handed back at the next start and
//! replaced by the token each start returns (they are single-use); a "no" forgets it.

use std::path::{Path, PathBuf};

use crate::DisplayError;

/// The file that keeps the portal's restore token.
#[derive(Debug, Clone)]
pub struct Tokens {
    path: PathBuf,
}

impl Tokens {
    pub fn at(path: impl Into<PathBuf>) -> Tokens {
        Tokens { path: path.into() }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The token kept, if any.
    pub fn load(&self) -> Option<String> {
        std::fs::read_to_string(&self.path)
            .ok()
            .map(|t| t.trim().to_string())
            .filter(|t| !t.is_empty())
    }

    /// Keeps `token` (owner-only), or forgets the one kept.
    pub fn save(&self, token: Option<&str>) {
        let done = match token {
            Some(t) => write_private(&self.path, t),
            None => match std::fs::remove_file(&self.path) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
                _ => Ok(()),
            },
        };
        if let Err(e) = done {
            tracing::warn!("the portal's restore token in {}: {e}", self.path.display());
        }
    }
}

fn write_private(path: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(path)?;
    f.write_all(text.as_bytes())
}

impl Tokens {
    /// Keeps the token a start returned, or forgets the one kept when the person said no;
    /// `started` passes through.
    pub(crate) fn settle<T>(
        &self,
        started: Result<T, DisplayError>,
        token: impl Fn(&T) -> Option<&str>,
    ) -> Result<T, DisplayError> {
        match &started {
            Ok(s) => self.save(token(s)),
            Err(DisplayError::Refused { .. }) => self.save(None),
            Err(_) => {}
        }
        started
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_kept_owner_only_and_forgotten() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let tokens = Tokens::at(dir.path().join("portal").join("token"));
        assert_eq!(tokens.load(), None);
        tokens.save(Some("abc"));
        assert_eq!(tokens.load().as_deref(), Some("abc"));
        let mode = std::fs::metadata(tokens.path())
            .map(|m| m.permissions().mode() & 0o777)
            .unwrap_or(0);
        assert_eq!(mode, 0o600);
        tokens.save(None);
        assert_eq!(tokens.load(), None);
        tokens.save(None);
    }
}

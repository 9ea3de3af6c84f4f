//! API keys at rest: in the OS keyring (the Secret Service on Linux, via the `keyring`
//! crate), or, when no keyring service answers, in `$ZETA_HOME/secrets.json` readable by
//! the owner only (0600). Which one is in use is reported (`SecretStore::backend`), never
//! guessed. A key is held in a `Secret`, whose `Debug` and `Display` never show it.

use std::collections::BTreeMap;
use std::io::Write;
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// A key. Printing it shows `<redacted>`; `expose` is for the HTTP header only.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    pub fn new(value: impl Into<String>) -> Self {
        Self(value.into())
    }
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("<redacted>")
    }
}

impl std::fmt::Display for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("<redacted>")
    }
}

/// Where keys are kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Backend {
    /// The OS keyring (Secret Service).
    Keyring,
    /// The 0600 file, because the keyring could not be used (`why`).
    File { path: PathBuf, why: String },
}

impl Backend {
    /// Where keys are kept, as a person reads it (no library's error text).
    pub fn words(&self) -> String {
        match self {
            Backend::Keyring => "the system keyring".into(),
            Backend::File { path, .. } => format!(
                "an owner-only file, {} (no system keyring answered)",
                path.display()
            ),
        }
    }

    /// Why the keyring is not used, in the keyring library's words, for "Details".
    pub fn detail(&self) -> Option<&str> {
        match self {
            Backend::Keyring => None,
            Backend::File { why, .. } => Some(why),
        }
    }
}

impl std::fmt::Display for Backend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Backend::Keyring => f.write_str("the OS keyring (Secret Service)"),
            Backend::File { path, why } => write!(
                f,
                "{} (owner-only file; the OS keyring cannot be used: {why})",
                path.display()
            ),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum SecretError {
    #[error("keyring: {0}")]
    Keyring(String),
    #[error("{what} {}: {source}", path.display())]
    File {
        what: &'static str,
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{} is not a JSON object of names to keys: {message}", path.display())]
    Corrupt { path: PathBuf, message: String },
    #[error("a key name must be 1 to 200 characters; got {0} characters")]
    BadName(usize),
}

/// The keys of one Zeta home.
#[derive(Debug)]
pub struct SecretStore {
    /// The keyring service name: one per home, so two homes never share keys.
    service: String,
    file: PathBuf,
    backend: OnceLock<Backend>,
}

impl SecretStore {
    /// The store for the Zeta home at `home`.
    pub fn for_home(home: &Path) -> Self {
        Self {
            service: format!("zeta:{}", home.display()),
            file: home.join("secrets.json"),
            backend: OnceLock::new(),
        }
    }

    /// Which backend is in use: the keyring when it answers, else the file. Probed once.
    /// `ZETA_SECRETS=file` chooses the file without probing.
    pub fn backend(&self) -> &Backend {
        self.backend.get_or_init(|| {
            if std::env::var("ZETA_SECRETS").as_deref() == Ok("file") {
                return self.file_backend("ZETA_SECRETS=file".into());
            }
            let probe =
                keyring::Entry::new(&self.service, "zeta-probe").and_then(|e| e.get_password());
            match probe {
                Ok(_) | Err(keyring::Error::NoEntry) => Backend::Keyring,
                Err(e) => {
                    let why = zeta_core::text::flatten(&e.to_string());
                    // `zeta secret status` and `zeta doctor` say so; not on every command.
                    tracing::info!(
                        "the OS keyring cannot be used ({why}); API keys are kept in {} (mode 0600)",
                        self.file.display()
                    );
                    self.file_backend(why)
                }
            }
        })
    }

    fn file_backend(&self, why: String) -> Backend {
        Backend::File {
            path: self.file.clone(),
            why,
        }
    }

    pub fn get(&self, name: &str) -> Result<Option<Secret>, SecretError> {
        check_name(name)?;
        match self.backend() {
            Backend::Keyring => match self.entry(name)?.get_password() {
                Ok(key) => Ok(Some(Secret(key))),
                Err(keyring::Error::NoEntry) => Ok(None),
                Err(e) => Err(SecretError::Keyring(zeta_core::text::flatten(
                    &e.to_string(),
                ))),
            },
            Backend::File { .. } => Ok(self.read_file()?.remove(name).map(Secret)),
        }
    }

    /// Stores `key` under `name`; returns where it went.
    pub fn set(&self, name: &str, key: &Secret) -> Result<&Backend, SecretError> {
        check_name(name)?;
        match self.backend() {
            Backend::Keyring => self
                .entry(name)?
                .set_password(key.expose())
                .map_err(|e| SecretError::Keyring(zeta_core::text::flatten(&e.to_string())))?,
            Backend::File { .. } => {
                let mut all = self.read_file()?;
                all.insert(name.to_string(), key.expose().to_string());
                self.write_file(&all)?;
            }
        }
        Ok(self.backend())
    }

    /// Removes the key under `name`; false when there was none.
    pub fn delete(&self, name: &str) -> Result<bool, SecretError> {
        check_name(name)?;
        match self.backend() {
            Backend::Keyring => match self.entry(name)?.delete_credential() {
                Ok(()) => Ok(true),
                Err(keyring::Error::NoEntry) => Ok(false),
                Err(e) => Err(SecretError::Keyring(zeta_core::text::flatten(
                    &e.to_string(),
                ))),
            },
            Backend::File { .. } => {
                let mut all = self.read_file()?;
                let had = all.remove(name).is_some();
                if had {
                    self.write_file(&all)?;
                }
                Ok(had)
            }
        }
    }

    fn entry(&self, name: &str) -> Result<keyring::Entry, SecretError> {
        keyring::Entry::new(&self.service, name)
            .map_err(|e| SecretError::Keyring(zeta_core::text::flatten(&e.to_string())))
    }

    fn read_file(&self) -> Result<BTreeMap<String, String>, SecretError> {
        use zeta_core::bounded::{read_text, BoundedReadError};
        let text = match read_text(&self.file, 1024 * 1024) {
            Ok(text) => text,
            Err(BoundedReadError::NotFound) => return Ok(BTreeMap::new()),
            Err(BoundedReadError::Io(source)) => {
                return Err(SecretError::File {
                    what: "read",
                    path: self.file.clone(),
                    source,
                })
            }
            Err(e) => {
                return Err(SecretError::File {
                    what: "read",
                    path: self.file.clone(),
                    source: std::io::Error::new(std::io::ErrorKind::InvalidData, e.to_string()),
                })
            }
        };
        // A file others can read is made private again before it is used.
        if let Ok(meta) = std::fs::metadata(&self.file) {
            if meta.permissions().mode() & 0o077 != 0 {
                tracing::warn!(
                    "{} was readable by others; setting it to 0600",
                    self.file.display()
                );
                let _ =
                    std::fs::set_permissions(&self.file, std::fs::Permissions::from_mode(0o600));
            }
        }
        // The parser's message may quote the text: it is never shown.
        serde_json::from_str(&text).map_err(|e| SecretError::Corrupt {
            path: self.file.clone(),
            message: format!("line {}, column {}", e.line(), e.column()),
        })
    }

    /// Writes through a 0600 temporary file renamed into place.
    fn write_file(&self, all: &BTreeMap<String, String>) -> Result<(), SecretError> {
        let tmp = self.file.with_extension("json.tmp");
        let io = |what, source| SecretError::File {
            what,
            path: self.file.clone(),
            source,
        };
        let _ = std::fs::remove_file(&tmp);
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&tmp)
            .map_err(|e| io("create", e))?;
        let text = serde_json::to_string_pretty(all).unwrap_or_else(|_| "{}".into());
        f.write_all(text.as_bytes())
            .and_then(|_| f.sync_all())
            .map_err(|e| io("write", e))?;
        std::fs::rename(&tmp, &self.file).map_err(|e| io("replace", e))
    }
}

fn check_name(name: &str) -> Result<(), SecretError> {
    let n = name.chars().count();
    if n == 0 || n > 200 {
        return Err(SecretError::BadName(n));
    }
    Ok(())
}

/// `text` with every occurrence of each secret replaced by `[redacted]`.
pub fn redact(text: &str, secrets: &[&Secret]) -> String {
    let mut out = text.to_string();
    for secret in secrets {
        if secret.expose().len() >= 4 {
            out = out.replace(secret.expose(), "[redacted]");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file_store(dir: &Path) -> SecretStore {
        let store = SecretStore::for_home(dir);
        let _ = store.backend.set(Backend::File {
            path: dir.join("secrets.json"),
            why: "test".into(),
        });
        store
    }

    #[test]
    fn the_file_fallback_is_owner_only_and_round_trips() {
        let dir = tempfile::tempdir().expect("dir");
        let store = file_store(dir.path());
        assert_eq!(store.get("openai").expect("get"), None);
        store.set("openai", &Secret::new("sk-abc")).expect("set");
        store.set("anthropic", &Secret::new("sk-ant")).expect("set");
        let mode = std::fs::metadata(dir.path().join("secrets.json"))
            .expect("meta")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
        assert_eq!(
            store.get("openai").expect("get"),
            Some(Secret::new("sk-abc"))
        );
        assert!(store.delete("openai").expect("delete"));
        assert!(!store.delete("openai").expect("delete again"));
        assert_eq!(
            store.get("anthropic").expect("get"),
            Some(Secret::new("sk-ant"))
        );
    }

    #[test]
    fn a_loose_file_is_tightened_and_a_corrupt_one_is_reported_without_its_text() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("secrets.json");
        std::fs::write(&path, r#"{"openai": "sk-loose"}"#).expect("write");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).expect("chmod");
        let store = file_store(dir.path());
        assert_eq!(
            store.get("openai").expect("get"),
            Some(Secret::new("sk-loose"))
        );
        let mode = std::fs::metadata(&path).expect("meta").permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        std::fs::write(&path, "sk-in-a-broken-file").expect("write");
        let e = store.get("openai").expect_err("corrupt").to_string();
        assert!(!e.contains("sk-in-a-broken-file"), "{e}");
        assert!(e.contains("secrets.json"), "{e}");
    }

    #[test]
    fn secrets_never_print_and_redact_removes_them() {
        let key = Secret::new("sk-live-123456");
        assert_eq!(format!("{key} {key:?}"), "<redacted> <redacted>");
        let text = redact(
            "HTTP 401: invalid key sk-live-123456 for sk-live-123456",
            &[&key],
        );
        assert_eq!(text, "HTTP 401: invalid key [redacted] for [redacted]");
    }
}

//! The evaluated prompt kept across server starts. A fresh llama-server evaluates the
//! whole first prompt (~1,100 tokens of rules and examples, ~13 s on two cores) before the
//! first word of the first task; the same prefix was evaluated before the server last
//! stopped. When Zeta stops its own llama-server it saves the slot's state (the KV cache
//! and its tokens, `POST /slots/0?action=save`) into `$ZETA_HOME/prompt-cache`, and
//! when one becomes ready it restores it before anyone is told it is ready. The server
//! then reuses the longest common prefix of its tokens and the next request, so a stale
//! or different state costs nothing but the restore, never a wrong answer.
//!
//! The file is named after the model file and the server program (each one's path, size
//! and time of change): a state is only ever restored into the model and the server build
//! that made it (another llama.cpp build may lay out its state differently). The folder is private to the user: the
//! state holds the last conversation, as the task history does.

use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How long a save or a restore may take (tens of MB on a slow disk).
const LIMIT: Duration = Duration::from_secs(20);

/// The folder llama-server saves slots in (`--slot-save-path`), made private.
pub fn folder(home: &Path) -> Option<PathBuf> {
    let dir = home.join("prompt-cache");
    let made = std::fs::create_dir_all(&dir);
    #[cfg(unix)]
    let made = made.and_then(|()| {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700))
    });
    match made {
        Ok(()) => Some(dir),
        Err(e) => {
            tracing::warn!("could not make {}: {e}", dir.display());
            None
        }
    }
}

/// The state's file name for `model` served by `program`: each one's path, size and time
/// of change, hashed. `None` when either file cannot be read.
pub fn file_name(model: &Path, program: &Path) -> Option<String> {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    for file in [model, program] {
        let meta = std::fs::metadata(file).ok()?;
        file.hash(&mut hasher);
        meta.len().hash(&mut hasher);
        meta.modified().ok()?.hash(&mut hasher);
    }
    Some(format!("prompt-{:016x}.bin", hasher.finish()))
}

/// Saves the slot's state of the server on `port` (`program`) for `model`; true when it
/// did.
pub fn save(port: u16, model: &Path, program: &Path) -> bool {
    let Some(name) = file_name(model, program) else {
        return false;
    };
    let saved = post_slot(port, "save", &name);
    tracing::info!(port, saved, file = name, "saved the evaluated prompt");
    saved
}

/// Restores the state saved for `model` and `program` into the server on `port`; false
/// when there is none (a new model, another server build) or the server refused it
/// (another context size).
pub fn restore(home: &Path, port: u16, model: &Path, program: &Path) -> bool {
    let Some(name) = file_name(model, program) else {
        return false;
    };
    if !home.join("prompt-cache").join(&name).is_file() {
        return false;
    }
    let restored = post_slot(port, "restore", &name);
    tracing::info!(port, restored, file = name, "restored the evaluated prompt");
    restored
}

/// `POST /slots/0?action=ACTION` with the file name; true on a 200.
fn post_slot(port: u16, action: &str, file: &str) -> bool {
    let body = serde_json::json!({ "filename": file }).to_string();
    let request = format!(
        "POST /slots/0?action={action} HTTP/1.0\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    super::supervisor::answers_ok(port, &request, Duration::from_secs(2), LIMIT)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_name_follows_the_model_file_and_the_server_build() {
        let dir = tempfile::tempdir().expect("tempdir");
        let model = dir.path().join("m.gguf");
        let server = dir.path().join("llama-server");
        std::fs::write(&server, "ELF build 1").expect("write");
        assert_eq!(file_name(&model, &server), None, "no model, no name");
        std::fs::write(&model, "GGUF one").expect("write");
        let first = file_name(&model, &server).expect("a name");
        assert_eq!(file_name(&model, &server), Some(first.clone()), "stable");
        assert!(first.starts_with("prompt-") && first.ends_with(".bin"));
        // Another model in its place (other size) gets another name.
        std::fs::write(&model, "GGUF two, longer").expect("write");
        let second = file_name(&model, &server).expect("a name");
        assert_ne!(second, first);
        // So does another server build: its state is not restored into this one.
        std::fs::write(&server, "ELF build 2, rebuilt").expect("write");
        assert_ne!(file_name(&model, &server), Some(second));
        assert_eq!(file_name(&model, &dir.path().join("gone")), None);
    }

    #[test]
    fn the_folder_is_private_and_nothing_is_restored_without_a_file() {
        let home = tempfile::tempdir().expect("tempdir");
        let dir = folder(home.path()).expect("folder");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&dir).expect("meta").permissions().mode();
            assert_eq!(mode & 0o777, 0o700);
        }
        let model = home.path().join("m.gguf");
        std::fs::write(&model, "GGUF").expect("write");
        let server = home.path().join("llama-server");
        std::fs::write(&server, "ELF").expect("write");
        // No saved state: no request is even made (port 9 would refuse it).
        assert!(!restore(home.path(), 9, &model, &server));
        // A server that is not there: false, no panic.
        assert!(!save(9, &model, &server));
    }
}

//! The one typed contract with the window (tauri-specta, as Handy does it): every
//! command and every event the app sends, collected here once; `export` writes them as
//! TypeScript (`ui/src/bindings.ts`, with Rust's 64-bit integers as numbers, said once)
//! from the Rust signatures themselves. The window calls `commands.*` and listens with
//! `events.*`, so a renamed command, argument or field changes that file and fails the
//! UI's type check and the test that keeps the file current — not the running window.

use serde::Serialize;
use tauri_specta::{collect_commands, collect_events, Builder, ErrorHandlingMode};

use super::commands;

/// What the core did (a task queued, a step, a question, an answer): every core event.
#[derive(Debug, Clone, Serialize, specta::Type, tauri_specta::Event)]
#[serde(transparent)]
pub struct CoreNews(pub zeta_core::Event);

/// The voice pipeline's news (listening, transcribing, heard, errors).
#[derive(Debug, Clone, Serialize, specta::Type, tauri_specta::Event)]
#[serde(transparent)]
pub struct VoiceNews(pub zeta_protocol::voice::VoiceEvent);

/// Whether the push-to-talk key is held, and what to do where it cannot be.
#[derive(Debug, Clone, Serialize, specta::Type, tauri_specta::Event)]
#[serde(transparent)]
pub struct HotkeyNews(pub super::voice_manager::HotkeyStatus);

/// Zeta's own model server, on every change.
#[derive(Debug, Clone, Serialize, specta::Type, tauri_specta::Event)]
#[serde(transparent)]
pub struct LocalServerNews(pub zeta_llm::LocalServerState);

/// A model download's progress and end.
#[derive(Debug, Clone, Serialize, specta::Type, tauri_specta::Event)]
#[serde(transparent)]
pub struct DownloadNews(pub super::download_manager::DownloadState);

/// The model server install's progress and end.
#[derive(Debug, Clone, Serialize, specta::Type, tauri_specta::Event)]
#[serde(transparent)]
pub struct SetupNews(pub super::setup_manager::SetupState);

/// Every command and event, once.
/// The commands of `command_list.rs`, as tauri-specta collects them.
macro_rules! collected {
    ($($name:ident),* $(,)?) => {
        collect_commands![$(commands::$name),*]
    };
}

pub fn builder() -> Builder<tauri::Wry> {
    Builder::<tauri::Wry>::new()
        // A command's error rejects its promise (as `invoke` does), said as its text.
        .error_handling(ErrorHandlingMode::Throw)
        .commands(with_commands!(collected))
        .events(collect_events![
            CoreNews,
            VoiceNews,
            HotkeyNews,
            LocalServerNews,
            DownloadNews,
            SetupNews
        ])
}

/// Writes the TypeScript of the contract to `path`.
#[cfg(test)]
pub fn export(path: &std::path::Path) -> Result<(), String> {
    use specta_typescript::{BigIntExportBehavior, Typescript};
    builder()
        .export(
            Typescript::default()
                .bigint(BigIntExportBehavior::Number)
                .header("// @ts-nocheck\n"),
            path,
        )
        .map_err(|e| format!("could not write {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    /// The window's TypeScript is the contract's as the Rust now says it (the test script
    /// then fails when the written file differs from the committed one).
    #[test]
    fn the_window_bindings_are_written_from_the_rust_signatures() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("ui/src/bindings.ts");
        super::export(&path).expect("export");
        let text = std::fs::read_to_string(&path).expect("read back");
        assert!(
            text.contains("skillsView") && text.contains("coreNews"),
            "commands and events are in it"
        );
    }

    /// The names of `command_list.rs`.
    macro_rules! names {
        ($($name:ident),* $(,)?) => {
            [$(stringify!($name)),*]
        };
    }

    /// Every command is granted to some window, and every `allow-…` a capability grants
    /// is a command of the list (a renamed or removed command fails here, not in the
    /// window).
    #[test]
    fn every_command_is_granted_and_every_grant_is_a_command() {
        let commands: Vec<String> = with_commands!(names)
            .iter()
            .map(|n| format!("allow-{}", n.replace('_', "-")))
            .collect();
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src-tauri/capabilities");
        let mut granted: Vec<String> = Vec::new();
        for entry in std::fs::read_dir(&dir).expect("capabilities").flatten() {
            let text = std::fs::read_to_string(entry.path()).expect("a capability");
            let json: serde_json::Value = serde_json::from_str(&text).expect("json");
            let permissions = json["permissions"].as_array().expect("permissions");
            granted.extend(
                permissions
                    .iter()
                    .filter_map(|p| p.as_str())
                    .filter(|p| p.starts_with("allow-"))
                    .map(str::to_string),
            );
        }
        assert!(commands.len() > 40, "{}", commands.len());
        let ungranted: Vec<&String> = commands.iter().filter(|c| !granted.contains(c)).collect();
        assert!(ungranted.is_empty(), "no window may call {ungranted:?}");
        let unknown: Vec<&String> = granted.iter().filter(|g| !commands.contains(g)).collect();
        assert!(unknown.is_empty(), "granted, but not commands: {unknown:?}");
    }
}

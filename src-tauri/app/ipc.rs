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
pub fn builder() -> Builder<tauri::Wry> {
    Builder::<tauri::Wry>::new()
        // A command's error rejects its promise (as `invoke` does), said as its text.
        .error_handling(ErrorHandlingMode::Throw)
        .commands(collect_commands![
            commands::enqueue_task,
            commands::list_tasks,
            commands::cancel_task,
            commands::set_paused,
            commands::worker_state,
            commands::approve_call,
            commands::deny_call,
            commands::answer_question,
            commands::hold_approval,
            commands::hide_chat,
            commands::new_chat,
            commands::list_conversations,
            commands::conversation_tasks,
            commands::list_models,
            commands::download_model,
            commands::cancel_download,
            commands::server_program,
            commands::install_server,
            commands::cancel_install,
            commands::pending_approvals,
            commands::send_message,
            commands::retry_task,
            commands::task_activity,
            commands::task_record,
            commands::send_held,
            commands::task_changes,
            commands::undo_task,
            commands::redo_task,
            commands::get_settings,
            commands::save_settings,
            commands::mcp_servers,
            commands::mcp_review,
            commands::set_api_key,
            commands::test_provider,
            commands::detect_local_models,
            commands::finish_onboarding,
            commands::task_metrics,
            commands::skills_view,
            commands::skill_set_enabled,
            commands::skill_trust,
            commands::skill_remove,
            commands::skill_save,
            commands::skill_draft,
            commands::memory_view,
            commands::forget_fact,
            commands::clear_summary,
            commands::remove_job,
            commands::voice_listen,
            commands::hotkey_status,
        ])
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
}

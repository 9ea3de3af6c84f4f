//! Compiles tauri.conf.json and the capabilities under src-tauri/capabilities into the app.
//! The app's commands are listed so that each gets an `allow-…` permission: a window may
//! call only the commands its capability grants.

const COMMANDS: &[&str] = &[
    "enqueue_task",
    "list_tasks",
    "cancel_task",
    "set_paused",
    "worker_state",
    "approve_call",
    "deny_call",
    "answer_question",
    "hold_approval",
    "hide_chat",
    "new_chat",
    "list_conversations",
    "conversation_tasks",
    "list_models",
    "download_model",
    "cancel_download",
    "server_program",
    "install_server",
    "cancel_install",
    "pending_approvals",
    "send_message",
    "retry_task",
    "task_activity",
    "task_record",
    "send_held",
    "task_changes",
    "undo_task",
    "redo_task",
    "get_settings",
    "save_settings",
    "mcp_servers",
    "mcp_review",
    "set_api_key",
    "test_provider",
    "detect_local_models",
    "finish_onboarding",
    "task_metrics",
    "skills_view",
    "skill_set_enabled",
    "skill_trust",
    "skill_remove",
    "skill_save",
    "skill_draft",
    "memory_view",
    "forget_fact",
    "clear_summary",
    "remove_job",
    "voice_listen",
    "hotkey_status",
];

fn main() {
    let attributes = tauri_build::Attributes::new()
        .capabilities_path_pattern("./src-tauri/capabilities/**/*")
        .app_manifest(tauri_build::AppManifest::new().commands(COMMANDS));
    if let Err(e) = tauri_build::try_build(attributes) {
        println!("cargo:warning=tauri build step failed: {e:#}");
        std::process::exit(1);
    }
}

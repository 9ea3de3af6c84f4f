//! IPC commands the windows call: thin wrappers over `QueueManager`. Which window may call
//! which command is set in `src-tauri/capabilities`.

use std::sync::Arc;

use tauri::{Manager, State};
use zeta_core::{Event, Op, Task, WorkerState};
use zeta_protocol::{ApprovalScope, StepChoice};

use super::download_manager::DownloadManager;
use super::memory_manager::{MemoryManager, MemoryView};
use super::queue_manager::{Conversations, QueueManager};
use super::settings_manager::{SettingsManager, SettingsView};
use super::setup_manager::SetupManager;
use super::skills_manager::{SkillDraft, SkillsManager, SkillsView};
use super::undo_manager::UndoManager;
use super::voice_manager::{HotkeyStatus, VoiceManager};
use zeta_core::settings::ProviderSettings;
use zeta_core::store::audit::AuditEntry;
use zeta_core::store::metrics::TaskMetrics;
use zeta_core::SettingsProblem;
use zeta_llm::detect::LocalEndpoint;

/// Longest request accepted from the chat box.
const MAX_MESSAGE_CHARS: usize = 20_000;

#[tauri::command]
#[specta::specta]
pub fn enqueue_task(queue: State<'_, Arc<QueueManager>>, message: String) -> Result<(), String> {
    let message = checked_message(&message)?;
    queue.enqueue("chat", message).map_err(|e| e.to_string())
}

fn checked_message(message: &str) -> Result<&str, String> {
    let message = message.trim();
    if message.is_empty() {
        return Err("the message is empty".into());
    }
    if message.chars().count() > MAX_MESSAGE_CHARS {
        return Err(format!(
            "the message is longer than {MAX_MESSAGE_CHARS} characters"
        ));
    }
    Ok(message)
}

#[tauri::command]
#[specta::specta]
pub fn list_tasks(
    queue: State<'_, Arc<QueueManager>>,
    limit: Option<u32>,
) -> Result<Vec<Task>, String> {
    queue
        .recent(limit.unwrap_or(200).min(1000))
        .map_err(|e| e.to_string())
}

/// "New chat": later tasks start a new conversation.
#[tauri::command]
#[specta::specta]
pub fn new_chat(queue: State<'_, Arc<QueueManager>>) -> Result<(), String> {
    queue
        .core()
        .submit(Op::NewConversation)
        .map_err(|e| e.to_string())
}

/// The conversation new tasks join, and the earlier ones, newest first.
#[tauri::command]
#[specta::specta]
pub fn list_conversations(queue: State<'_, Arc<QueueManager>>) -> Result<Conversations, String> {
    queue.conversations(200).map_err(|e| e.to_string())
}

/// The tasks of one conversation, for reading it again.
#[tauri::command]
#[specta::specta]
pub fn conversation_tasks(
    queue: State<'_, Arc<QueueManager>>,
    id: i64,
) -> Result<Vec<Task>, String> {
    queue.conversation_tasks(id, 500).map_err(|e| e.to_string())
}

#[tauri::command]
#[specta::specta]
pub fn cancel_task(queue: State<'_, Arc<QueueManager>>, id: i64) -> Result<(), String> {
    queue
        .core()
        .submit(Op::CancelTask { id })
        .map_err(|e| e.to_string())
}

#[tauri::command]
#[specta::specta]
pub fn set_paused(queue: State<'_, Arc<QueueManager>>, paused: bool) -> Result<(), String> {
    let op = if paused {
        Op::PauseQueue
    } else {
        Op::ResumeQueue
    };
    queue.core().submit(op).map_err(|e| e.to_string())
}

#[tauri::command]
#[specta::specta]
pub fn worker_state(queue: State<'_, Arc<QueueManager>>) -> Option<WorkerState> {
    queue.worker_state()
}

#[tauri::command]
#[specta::specta]
pub fn approve_call(
    queue: State<'_, Arc<QueueManager>>,
    call_id: String,
    steps: Option<Vec<StepChoice>>,
    scope: Option<ApprovalScope>,
) -> Result<(), String> {
    queue
        .core()
        .submit(Op::Approve {
            call_id,
            steps: steps.unwrap_or_default(),
            scope: scope.unwrap_or_default(),
        })
        .map_err(|e| e.to_string())
}

#[tauri::command]
#[specta::specta]
pub fn deny_call(
    queue: State<'_, Arc<QueueManager>>,
    call_id: String,
    reason: Option<String>,
) -> Result<(), String> {
    queue
        .core()
        .submit(Op::Deny { call_id, reason })
        .map_err(|e| e.to_string())
}

/// The user's answer to the agent's question `call_id` (`ask_user`).
#[tauri::command]
#[specta::specta]
pub fn answer_question(
    queue: State<'_, Arc<QueueManager>>,
    call_id: String,
    text: String,
) -> Result<(), String> {
    let text = Some(text).filter(|t| !t.trim().is_empty());
    queue
        .core()
        .submit(Op::Answer { call_id, text })
        .map_err(|e| e.to_string())
}

/// The user is editing the request `call_id`: its time limit stops until they answer.
#[tauri::command]
#[specta::specta]
pub fn hold_approval(queue: State<'_, Arc<QueueManager>>, call_id: String) -> Result<(), String> {
    queue
        .core()
        .submit(Op::HoldApproval { call_id })
        .map_err(|e| e.to_string())
}

/// Hides the chat window (Esc). A call waiting inline moves to the confirmation dialog.
#[tauri::command]
#[specta::specta]
pub fn hide_chat(window: tauri::WebviewWindow) {
    super::chat_window::hide(window.app_handle());
}

/// Requests waiting for the user, oldest first (the confirmation dialog reads them on open).
#[tauri::command]
#[specta::specta]
pub fn pending_approvals(queue: State<'_, Arc<QueueManager>>) -> Vec<Event> {
    queue.pending()
}

/// A message from the composer: injected into the running task, or a new task.
#[tauri::command]
#[specta::specta]
pub fn send_message(queue: State<'_, Arc<QueueManager>>, message: String) -> Result<(), String> {
    let message = checked_message(&message)?;
    queue
        .core()
        .submit(Op::UserMessage {
            sender: "chat".into(),
            text: message.to_string(),
        })
        .map_err(|e| e.to_string())
}

/// Runs a finished task's request again, as a new task.
#[tauri::command]
#[specta::specta]
pub fn retry_task(queue: State<'_, Arc<QueueManager>>, id: i64) -> Result<(), String> {
    let task = queue.task(id).map_err(|e| e.to_string())?;
    queue
        .enqueue("chat", &task.message)
        .map_err(|e| e.to_string())
}

/// Every tool call of one task, for its transcript.
#[tauri::command]
#[specta::specta]
pub fn task_activity(
    queue: State<'_, Arc<QueueManager>>,
    id: i64,
) -> Result<Vec<AuditEntry>, String> {
    queue.activity(id).map_err(|e| e.to_string())
}

/// A task's record (its calls, the messages added to it, its checks' notes): what every
/// surface that reports the task shows.
#[tauri::command]
#[specta::specta]
pub fn task_record(
    queue: State<'_, Arc<QueueManager>>,
    id: i64,
) -> Result<zeta_core::store::record::TaskRecord, String> {
    queue.record(id).map_err(|e| e.to_string())
}

/// Sends a message held after a Stop (its record id) as a task of its own.
#[tauri::command]
#[specta::specta]
pub fn send_held(queue: State<'_, Arc<QueueManager>>, id: i64) -> Result<(), String> {
    queue
        .core()
        .submit(zeta_core::Op::SendHeld { id })
        .map_err(|e| e.to_string())
}

/// What a finished task changed on disk, file by file, and whether it can be undone.
#[tauri::command]
#[specta::specta]
pub fn task_changes(
    undo: State<'_, Arc<UndoManager>>,
    id: i64,
) -> Result<zeta_protocol::changes::TaskChanges, String> {
    undo.changes(id)
}

/// Takes back every file change a finished task made.
#[tauri::command]
#[specta::specta]
pub fn undo_task(
    undo: State<'_, Arc<UndoManager>>,
    id: i64,
) -> Result<zeta_protocol::changes::UndoOutcome, String> {
    undo.undo(id, false)
}

/// Takes back a task's last undo.
#[tauri::command]
#[specta::specta]
pub fn redo_task(
    undo: State<'_, Arc<UndoManager>>,
    id: i64,
) -> Result<zeta_protocol::changes::UndoOutcome, String> {
    undo.undo(id, true)
}

#[tauri::command]
#[specta::specta]
pub fn get_settings(settings: State<'_, Arc<SettingsManager>>) -> Result<SettingsView, String> {
    settings.view()
}

#[tauri::command]
#[specta::specta]
pub fn save_settings(
    app: tauri::AppHandle,
    settings: State<'_, Arc<SettingsManager>>,
    value: serde_json::Value,
) -> Result<SettingsView, Vec<SettingsProblem>> {
    let view = settings.save(value)?;
    if let Some(voice) = tauri::Manager::try_state::<Arc<VoiceManager>>(&app) {
        voice.apply(&app, &view.settings);
    }
    Ok(view)
}

/// The MCP servers the settings name, with their state and tools; with `start`, each is
/// started first (the settings window's Check button), so its tools are listed.
#[tauri::command]
#[specta::specta]
pub async fn mcp_servers(
    mcp: State<'_, Arc<zeta_mcp::McpManager>>,
    settings: State<'_, Arc<SettingsManager>>,
    start: bool,
) -> Result<Vec<zeta_mcp::ServerStatus>, String> {
    let current = settings.view()?.settings;
    mcp.configure(&current.mcp_servers).await;
    if start {
        mcp.start_all().await;
    }
    Ok(mcp.status())
}

/// Records that the person reviewed a server's tool descriptions, as shown with
/// `digest` (refused when the list changed since).
#[tauri::command]
#[specta::specta]
pub fn mcp_review(
    mcp: State<'_, Arc<zeta_mcp::McpManager>>,
    name: String,
    digest: String,
) -> Result<(), String> {
    mcp.record_review_of(&name, &digest)
}

#[tauri::command]
#[specta::specta]
pub fn set_api_key(
    settings: State<'_, Arc<SettingsManager>>,
    provider: ProviderSettings,
    key: String,
) -> Result<String, String> {
    settings.set_key(&provider, &key)
}

#[tauri::command]
#[specta::specta]
pub async fn test_provider(
    settings: State<'_, Arc<SettingsManager>>,
    provider: ProviderSettings,
) -> Result<String, String> {
    settings.test(&provider).await
}

/// Starts downloading catalogue model `name` (progress comes as `zeta:download`).
#[tauri::command]
#[specta::specta]
pub fn download_model(
    app: tauri::AppHandle,
    downloads: State<'_, DownloadManager>,
    name: String,
) -> Result<(), String> {
    downloads.start(app, &name)
}

/// Stops the running download; its bytes are kept for the next start.
#[tauri::command]
#[specta::specta]
pub fn cancel_download(app: tauri::AppHandle, downloads: State<'_, DownloadManager>, name: String) {
    downloads.cancel(&app, &name);
}

/// The local model server program Zeta would run, in words (`None`: not installed).
#[tauri::command]
#[specta::specta]
pub fn server_program(setup: State<'_, SetupManager>) -> Option<String> {
    setup.program()
}

/// Installs the local model server (progress comes as `zeta:setup`).
#[tauri::command]
#[specta::specta]
pub fn install_server(app: tauri::AppHandle, setup: State<'_, SetupManager>) -> Result<(), String> {
    setup.start(app)
}

/// Stops the install; pip and what it started end.
#[tauri::command]
#[specta::specta]
pub fn cancel_install(app: tauri::AppHandle, setup: State<'_, SetupManager>) {
    setup.cancel(&app);
}

/// The models the provider's server offers (onboarding's and Settings' model list).
#[tauri::command]
#[specta::specta]
pub async fn list_models(
    settings: State<'_, Arc<SettingsManager>>,
    provider: ProviderSettings,
) -> Result<Vec<String>, String> {
    settings.list_models(&provider).await
}

#[tauri::command]
#[specta::specta]
pub async fn detect_local_models(
    settings: State<'_, Arc<SettingsManager>>,
) -> Result<Vec<LocalEndpoint>, String> {
    Ok(settings.detect().await)
}

/// Onboarding is done: the marker written, and Zeta's own model (when chosen) warmed.
#[tauri::command]
#[specta::specta]
pub fn finish_onboarding(
    settings: State<'_, Arc<SettingsManager>>,
    local: State<'_, Arc<zeta_llm::LocalServer>>,
    mcp: State<'_, Arc<zeta_mcp::McpManager>>,
) -> Result<(), String> {
    settings.finish_onboarding()?;
    match zeta_core::settings::load_or_create(&settings.home().settings_file()) {
        Ok(loaded) => super::warm::in_background(settings.home(), &local, &mcp, loaded.settings),
        Err(e) => tracing::warn!("not warming the model: the settings cannot be read ({e})"),
    }
    Ok(())
}

/// The newest tasks' metrics (seed 001), oldest first.
#[tauri::command]
#[specta::specta]
pub fn task_metrics(
    queue: State<'_, Arc<QueueManager>>,
    limit: Option<u32>,
) -> Result<Vec<TaskMetrics>, String> {
    queue
        .metrics(limit.unwrap_or(50).min(500))
        .map_err(|e| e.to_string())
}

/// The skills, with their records and the ones that did not load (Settings → Skills).
#[tauri::command]
#[specta::specta]
pub fn skills_view(skills: State<'_, SkillsManager>) -> SkillsView {
    skills.view()
}

#[tauri::command]
#[specta::specta]
pub fn skill_set_enabled(
    skills: State<'_, SkillsManager>,
    name: String,
    enabled: bool,
) -> Result<SkillsView, String> {
    skills.set_enabled(&name, enabled)
}

#[tauri::command]
#[specta::specta]
pub fn skill_trust(skills: State<'_, SkillsManager>, name: String) -> Result<SkillsView, String> {
    skills.trust(&name)
}

#[tauri::command]
#[specta::specta]
pub fn skill_remove(skills: State<'_, SkillsManager>, name: String) -> Result<SkillsView, String> {
    skills.remove(&name)
}

/// Writes a skill the person wrote, edited or accepted.
#[tauri::command]
#[specta::specta]
pub fn skill_save(
    skills: State<'_, SkillsManager>,
    draft: SkillDraft,
    replace: bool,
) -> Result<SkillsView, String> {
    skills.save(&draft, replace)
}

/// The skill a task that worked would make ("Save as a skill").
#[tauri::command]
#[specta::specta]
pub fn skill_draft(skills: State<'_, SkillsManager>, task_id: i64) -> Result<SkillDraft, String> {
    skills.draft(task_id)
}

/// What is remembered and scheduled, for the Memory view.
#[tauri::command]
#[specta::specta]
pub fn memory_view(memory: State<'_, MemoryManager>) -> Result<MemoryView, String> {
    memory.view().map_err(|e| e.to_string())
}

#[tauri::command]
#[specta::specta]
pub fn forget_fact(memory: State<'_, MemoryManager>, id: i64) -> Result<MemoryView, String> {
    memory.forget(id).map_err(|e| e.to_string())
}

#[tauri::command]
#[specta::specta]
pub fn clear_summary(memory: State<'_, MemoryManager>) -> Result<MemoryView, String> {
    memory.clear_summary().map_err(|e| e.to_string())
}

#[tauri::command]
#[specta::specta]
pub fn remove_job(memory: State<'_, MemoryManager>, id: i64) -> Result<MemoryView, String> {
    memory.remove_job(id).map_err(|e| e.to_string())
}

/// The chat window's microphone button: start or stop a recording.
#[tauri::command]
#[specta::specta]
pub fn voice_listen(voice: State<'_, Arc<VoiceManager>>) {
    voice.listener().toggle();
}

/// Whether the push-to-talk hotkey is registered (and what to do if not).
#[tauri::command]
#[specta::specta]
pub fn hotkey_status(voice: State<'_, Arc<VoiceManager>>) -> Option<HotkeyStatus> {
    voice.hotkey_status()
}

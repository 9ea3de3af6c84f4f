// The backend's commands and event stream, typed with the generated bindings.

import { invoke } from "@tauri-apps/api/core";
import { listen, type UnlistenFn } from "@tauri-apps/api/event";
import type { AuditEntry } from "../bindings/AuditEntry";
import type { HotkeyStatus } from "../bindings/HotkeyStatus";
import type { VoiceEvent } from "../bindings/VoiceEvent";
import type { Event } from "../bindings/Event";
import type { LocalEndpoint } from "../bindings/LocalEndpoint";
import type { LocalServerState } from "../bindings/LocalServerState";
import type { MemoryView } from "../bindings/MemoryView";
import type { ProviderSettings } from "../bindings/ProviderSettings";
import type { Settings } from "../bindings/Settings";
import type { SettingsView } from "../bindings/SettingsView";
import type { StepChoice } from "../bindings/StepChoice";
import type { Task } from "../bindings/Task";
import type { TaskMetrics } from "../bindings/TaskMetrics";
import type { TaskRecord } from "../bindings/TaskRecord";
import type { WorkerState } from "../bindings/WorkerState";
import type { ApprovalScope } from "../bindings/ApprovalScope";
import type { Conversations } from "../bindings/Conversations";
import type { DownloadState } from "../bindings/DownloadState";
import type { SetupState } from "../bindings/SetupState";
import type { ServerStatus } from "../bindings/ServerStatus";
import type { TaskChanges } from "../bindings/TaskChanges";
import type { UndoOutcome } from "../bindings/UndoOutcome";
import type { SkillsView } from "../bindings/SkillsView";
import type { SkillDraft } from "../bindings/SkillDraft";

export const EVENT_NAME = "zeta:event";
export const LOCAL_SERVER_EVENT = "zeta:local-server";
export const VOICE_EVENT = "zeta:voice";
export const HOTKEY_EVENT = "zeta:hotkey";

export const backend = {
  enqueue: (message: string) => invoke<void>("enqueue_task", { message }),
  /** Injected into the running task, or a new task when none runs. */
  sendMessage: (message: string) => invoke<void>("send_message", { message }),
  listTasks: (limit = 200) => invoke<Task[]>("list_tasks", { limit }),
  cancelTask: (id: number) => invoke<void>("cancel_task", { id }),
  retryTask: (id: number) => invoke<void>("retry_task", { id }),
  taskActivity: (id: number) => invoke<AuditEntry[]>("task_activity", { id }),
  /** A task's record: its calls, the messages added to it, its checks' notes. */
  taskRecord: (id: number) => invoke<TaskRecord>("task_record", { id }),
  /** Sends a message held after a Stop as a task of its own. */
  sendHeld: (id: number) => invoke<void>("send_held", { id }),
  /** What a finished task changed on disk, and whether it can be undone. */
  taskChanges: (id: number) => invoke<TaskChanges>("task_changes", { id }),
  undoTask: (id: number) => invoke<UndoOutcome>("undo_task", { id }),
  redoTask: (id: number) => invoke<UndoOutcome>("redo_task", { id }),
  setPaused: (paused: boolean) => invoke<void>("set_paused", { paused }),
  workerState: () => invoke<WorkerState | null>("worker_state"),
  approve: (callId: string, steps: StepChoice[] = [], scope: ApprovalScope = "once") => invoke<void>("approve_call", { callId, steps, scope }),
  holdApproval: (callId: string) => invoke<void>("hold_approval", { callId }),
  hideChat: () => invoke<void>("hide_chat"),
  newChat: () => invoke<void>("new_chat"),
  listConversations: () => invoke<Conversations>("list_conversations"),
  conversationTasks: (id: number) => invoke<Task[]>("conversation_tasks", { id }),
  deny: (callId: string) => invoke<void>("deny_call", { callId, reason: null }),
  answerQuestion: (callId: string, text: string) => invoke<void>("answer_question", { callId, text }),
  pendingApprovals: () => invoke<Event[]>("pending_approvals"),
  getSettings: () => invoke<SettingsView>("get_settings"),
  saveSettings: (value: Settings) => invoke<SettingsView>("save_settings", { value }),
  /** The MCP servers' states and tools; `start` starts them first. */
  mcpServers: (start: boolean) => invoke<ServerStatus[]>("mcp_servers", { start }),
  /** Records that the person reviewed a server's tool descriptions, as shown (`digest`). */
  mcpReview: (name: string, digest: string) => invoke<void>("mcp_review", { name, digest }),
  setApiKey: (provider: ProviderSettings, key: string) => invoke<string>("set_api_key", { provider, key }),
  testProvider: (provider: ProviderSettings) => invoke<string>("test_provider", { provider }),
  listModels: (provider: ProviderSettings) => invoke<string[]>("list_models", { provider }),
  detectLocalModels: () => invoke<LocalEndpoint[]>("detect_local_models"),
  finishOnboarding: () => invoke<void>("finish_onboarding"),
  /** The skills with their records, and the ones that did not load. */
  skillsView: () => invoke<SkillsView>("skills_view"),
  skillSetEnabled: (name: string, enabled: boolean) => invoke<SkillsView>("skill_set_enabled", { name, enabled }),
  skillTrust: (name: string) => invoke<SkillsView>("skill_trust", { name }),
  skillRemove: (name: string) => invoke<SkillsView>("skill_remove", { name }),
  /** Writes a skill the person wrote, edited or accepted (`replace`: over theirs). */
  skillSave: (draft: SkillDraft, replace: boolean) => invoke<SkillsView>("skill_save", { draft, replace }),
  /** The skill a task that worked would make, for "Save as a skill". */
  skillDraft: (taskId: number) => invoke<SkillDraft>("skill_draft", { taskId }),
  memoryView: () => invoke<MemoryView>("memory_view"),
  forgetFact: (id: number) => invoke<MemoryView>("forget_fact", { id }),
  clearSummary: () => invoke<MemoryView>("clear_summary"),
  removeJob: (id: number) => invoke<MemoryView>("remove_job", { id }),
  taskMetrics: (limit = 50) => invoke<TaskMetrics[]>("task_metrics", { limit }),
  /** Start or stop a voice recording (the microphone button). */
  voiceListen: () => invoke<void>("voice_listen"),
  hotkeyStatus: () => invoke<HotkeyStatus | null>("hotkey_status"),
  onVoice: (handler: (event: VoiceEvent) => void): Promise<UnlistenFn> =>
    listen<VoiceEvent>(VOICE_EVENT, (e) => handler(e.payload)),
  onHotkey: (handler: (status: HotkeyStatus) => void): Promise<UnlistenFn> =>
    listen<HotkeyStatus>(HOTKEY_EVENT, (e) => handler(e.payload)),
  onEvent: (handler: (event: Event) => void): Promise<UnlistenFn> =>
    listen<Event>(EVENT_NAME, (e) => handler(e.payload)),
  /** Zeta's own model server (the `local` provider), on every change. */
  onLocalServer: (handler: (state: LocalServerState) => void): Promise<UnlistenFn> =>
    listen<LocalServerState>(LOCAL_SERVER_EVENT, (e) => handler(e.payload)),
  downloadModel: (name: string) => invoke<void>("download_model", { name }),
  cancelDownload: (name: string) => invoke<void>("cancel_download", { name }),
  serverProgram: () => invoke<string | null>("server_program"),
  installServer: () => invoke<void>("install_server"),
  cancelInstall: () => invoke<void>("cancel_install"),
  onSetup: (handler: (state: SetupState) => void): Promise<UnlistenFn> =>
    listen<SetupState>("zeta:setup", (e) => handler(e.payload)),
  onDownload: (handler: (state: DownloadState) => void): Promise<UnlistenFn> =>
    listen<DownloadState>("zeta:download", (e) => handler(e.payload)),
};

// The backend's commands and event stream, typed with the generated bindings.

import { invoke } from "@tauri-apps/api/core";
import { listen, type UnlistenFn } from "@tauri-apps/api/event";
import type { Event } from "../bindings/Event";
import type { StepChoice } from "../bindings/StepChoice";
import type { Task } from "../bindings/Task";
import type { WorkerState } from "../bindings/WorkerState";

export const EVENT_NAME = "zeta:event";

export const backend = {
  enqueue: (message: string) => invoke<void>("enqueue_task", { message }),
  listTasks: (limit = 200) => invoke<Task[]>("list_tasks", { limit }),
  cancelTask: (id: number) => invoke<void>("cancel_task", { id }),
  setPaused: (paused: boolean) => invoke<void>("set_paused", { paused }),
  workerState: () => invoke<WorkerState | null>("worker_state"),
  approve: (callId: string, steps: StepChoice[] = []) => invoke<void>("approve_call", { callId, steps }),
  deny: (callId: string) => invoke<void>("deny_call", { callId, reason: null }),
  pendingApprovals: () => invoke<Event[]>("pending_approvals"),
  onEvent: (handler: (event: Event) => void): Promise<UnlistenFn> =>
    listen<Event>(EVENT_NAME, (e) => handler(e.payload)),
};

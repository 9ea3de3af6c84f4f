// The chat window's view of the queue, and how each core event changes it. Pure
// functions: the component holds the state, these compute the next one.

import type { Event } from "../bindings/Event";
import type { Task } from "../bindings/Task";
import type { WorkerState } from "../bindings/WorkerState";

export interface QueueView {
  /** Tasks by ascending id (the order they were asked in). */
  tasks: Task[];
  worker: WorkerState | null;
  /** Problems in settings.json, as sentences. */
  settingsProblems: string[];
  /** Errors outside any task, newest last. */
  errors: string[];
  /** Set when the queue changed elsewhere: reload the list. */
  stale: boolean;
}

export const emptyView = (): QueueView => ({
  tasks: [],
  worker: null,
  settingsProblems: [],
  errors: [],
  stale: false,
});

const MAX_ERRORS = 5;

/** Inserts or replaces `task`, keeping ids ascending. */
export function upsert(tasks: Task[], task: Task): Task[] {
  const next = tasks.filter((t) => t.id !== task.id);
  const at = next.findIndex((t) => t.id > task.id);
  if (at === -1) next.push(task);
  else next.splice(at, 0, task);
  return next;
}

export function applyEvent(view: QueueView, event: Event): QueueView {
  switch (event.type) {
    case "taskQueued":
    case "taskStarted":
    case "taskFinished":
      return { ...view, tasks: upsert(view.tasks, event.task) };
    case "queueChanged":
      return { ...view, stale: true };
    case "workerStateChanged":
      return { ...view, worker: event.state };
    case "settingsProblems":
      return {
        ...view,
        settingsProblems: event.problems.map((p) => `${p.field}: ${p.message}`),
      };
    case "error":
      return { ...view, errors: [...view.errors, event.message].slice(-MAX_ERRORS) };
  }
}

/** Tasks not finished yet: the running one first, then the pending ones in order. */
export function activeTasks(tasks: Task[]): Task[] {
  const running = tasks.filter((t) => t.status === "running");
  const pending = tasks.filter((t) => t.status === "pending");
  return [...running, ...pending];
}

/** What the worker is doing, in words. */
export function workerLabel(worker: WorkerState | null): string {
  if (worker === null) return "starting";
  switch (worker.state) {
    case "active":
      return "ready";
    case "paused":
      return "paused";
    case "standby":
      return `another Zeta (pid ${worker.holder_pid}) is working the queue`;
  }
}

/** Enter sends, Shift+Enter is a new line, and keys during IME composition are left alone. */
export function composerAction(
  key: string,
  shiftKey: boolean,
  isComposing: boolean,
): "send" | "newline" | "none" {
  if (key !== "Enter" || isComposing) return "none";
  return shiftKey ? "newline" : "send";
}

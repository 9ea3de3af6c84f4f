// The chat window's view of the queue, and how each core event changes it. Pure
// functions: the component holds the state, these compute the next one.

import type { CheckResult } from "../bindings";
import type { Event } from "../bindings";
import type { CompactionKind } from "../bindings";
import type { StepStatus } from "../bindings";
import type { Task } from "../bindings";
import type { TaskMetrics } from "../bindings";
import type { WorkerState } from "../bindings";
import type { AuditEntry } from "../bindings";
import type { AddedMessage } from "../bindings";
import { requestFrom, type Request } from "./confirm";
import { appendStream, EMPTY_STREAM, type Stream } from "./markdown";

/** One tool call of the running task, as the activity panel shows it. */
export interface LiveStep {
  callId: string;
  tool: string;
  arguments: unknown;
  /** The iteration it belongs to. */
  iteration: number;
  startedAt: number;
  finishedAt?: number;
  /** Undefined while it runs. */
  ok?: boolean;
  summary?: string;
  /** What the model was given (streamed output while it runs). */
  output: string;
  /** Screenshots, as data URLs. */
  images: string[];
  /** Waiting for the user's answer: its time so far is not the tool's. */
  waiting?: boolean;
  /** Read back from the task's record: no duration is known. */
  recorded?: boolean;
}

/** A plan of the running task, with each step's progress. */
export interface LivePlan {
  callId: string;
  goal: string;
  /** waiting: for the user's answer; running: approved (or needed no approval); denied: not run. */
  state: "waiting" | "running" | "denied";
  steps: { index: number; tool: string; target: string; description: string; status: StepStatus; summary: string }[];
}

/** What the running task is doing right now. */
export interface Live {
  taskId: number;
  iteration: number;
  maxIterations: number;
  /** Model text streamed during the current iteration, as settled blocks and a tail. */
  stream: Stream;
  steps: LiveStep[];
  /** A single call waiting for the user's answer, asked inline in the chat. */
  approval: Request | null;
  /** The latest plan the model proposed in this task. */
  plan: LivePlan | null;
  /** Messages the user sent while it ran, which reached it. */
  injected: string[];
  /** Messages the user sent while it ran that it has not read yet (shown at once). */
  added: string[];
  /** The latest request's size and the model's window, in tokens. */
  context: { tokens: number; window: number } | null;
  /** Compactions so far: kind and tokens before and after. */
  compactions: { kind: CompactionKind; before: number; after: number }[];
  /** How the finishing checks judged its answers so far, by check name. */
  checks: { check: string; result: CheckResult; detail: string }[];
  /** The model request failed and is being tried again (cleared when the model answers). */
  retrying: { said: string; attempt: number; waitMs: number } | null;
  /** A question the agent asked (`ask_user`), waiting for the user's answer. */
  question: { callId: string; question: string; timeoutSecs: number } | null;
  /** The agent's latest status line (`report_progress`). */
  progress: string | null;
}

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
  live: Live | null;
  /** The tool calls of tasks that ran while the window was open, by task id. */
  activity: Record<number, LiveStep[]>;
  /** What each task used, by task id (from events, or loaded for the metrics panel). */
  metrics: Record<number, TaskMetrics>;
  /** Tasks made of a message added to a task that ended before reading it: new task id → that task's id. */
  requeued: Record<number, number>;
  /** The conversation new tasks join ("New chat" starts another); null until known. */
  conversation: number | null;
}

export const emptyView = (): QueueView => ({
  conversation: null,
  tasks: [],
  worker: null,
  settingsProblems: [],
  errors: [],
  stale: false,
  live: null,
  activity: {},
  metrics: {},
  requeued: {},
});

const MAX_KEPT_ACTIVITY = 20;

const MAX_ERRORS = 5;

/** Inserts or replaces `task`, keeping ids ascending. */
export function upsert(tasks: Task[], task: Task): Task[] {
  const next = tasks.filter((t) => t.id !== task.id);
  const at = next.findIndex((t) => t.id > task.id);
  if (at === -1) next.push(task);
  else next.splice(at, 0, task);
  return next;
}

export function applyEvent(view: QueueView, event: Event, now: number = Date.now()): QueueView {
  switch (event.type) {
    case "taskQueued":
      return { ...view, tasks: upsert(view.tasks, event.task) };
    case "taskStarted":
      return {
        ...view,
        tasks: upsert(view.tasks, event.task),
        live: { taskId: event.task.id, iteration: 0, maxIterations: 0, stream: EMPTY_STREAM, steps: [], approval: null, plan: null, injected: [], added: [], context: null, compactions: [], checks: [], retrying: null, question: null, progress: null },
      };
    case "taskFinished":
    case "taskInterrupted": {
      // Interrupted: Zeta stopped while it ran; it is pending again and resumes later.
      const ending = view.live?.taskId === event.task.id ? view.live : null;
      const activity = ending ? keepActivity(view.activity, ending.taskId, ending.steps) : view.activity;
      return { ...view, tasks: upsert(view.tasks, event.task), live: ending ? null : view.live, activity };
    }
    case "iterationStarted":
      return withLive(view, event.taskId, (live) => ({
        ...live,
        iteration: event.iteration,
        maxIterations: event.maxIterations,
        stream: EMPTY_STREAM,
        context: { tokens: event.contextTokens, window: event.contextWindow },
      }));
    case "compacted":
      return withLive(view, event.taskId, (live) => ({
        ...live,
        compactions: [...live.compactions, { kind: event.kind, before: event.before, after: event.after }],
      }));
    case "llmDelta":
      return withLive(view, event.taskId, (live) => ({ ...live, stream: appendStream(live.stream, event.text), retrying: null }));
    case "toolCallStarted":
      return withLive(view, event.taskId, (live) => ({
        ...live,
        retrying: null,
        steps: [
          ...live.steps,
          {
            callId: event.callId,
            tool: event.tool,
            arguments: event.arguments,
            iteration: live.iteration,
            startedAt: now,
            output: "",
            images: [],
          },
        ],
      }));
    case "toolOutput":
      return withLive(view, event.taskId, (live) => ({
        ...live,
        steps: live.steps.map((s) =>
          s.callId === event.callId ? { ...s, output: (s.output + event.chunk).slice(-MAX_LIVE_OUTPUT) } : s,
        ),
      }));
    case "toolCallFinished":
      return withLive(view, event.taskId, (live) => ({
        ...live,
        steps: live.steps.map((s) =>
          s.callId === event.callId
            ? { ...s, ok: event.ok, summary: event.summary, output: event.output, images: event.images, finishedAt: now }
            : s,
        ),
      }));
    case "answerChecked":
      return withLive(view, event.taskId, (live) => ({
        ...live,
        checks: [...live.checks, { check: event.check, result: event.result, detail: event.detail }],
      }));
    case "approvalRequested":
      return withLive(view, event.taskId, (live) => ({
        ...live,
        approval: requestFrom(event),
        steps: live.steps.map((s) => (s.callId === event.callId ? { ...s, waiting: true } : s)),
      }));
    case "approvalResolved":
      return withLive(view, event.taskId, (live) => ({
        ...live,
        approval: live.approval?.callId === event.callId ? null : live.approval,
        // The tool's own time starts when the user answered.
        steps: live.steps.map((s) => (s.callId === event.callId ? { ...s, waiting: false, startedAt: now } : s)),
        plan:
          live.plan?.callId === event.callId
            ? { ...live.plan, state: event.approved ? "running" : "denied" }
            : live.plan,
      }));
    case "planProposed":
      return withLive(view, event.taskId, (live) => ({
        ...live,
        plan: {
          callId: event.callId,
          goal: event.goal,
          state: event.needsApproval ? "waiting" : "running",
          steps: event.steps.map((s) => ({
            index: s.index,
            tool: s.tool,
            target: s.target,
            description: s.description,
            status: "pending" as StepStatus,
            summary: "",
          })),
        },
      }));
    case "planStepUpdated":
      return withLive(view, event.taskId, (live) => {
        if (live.plan?.callId !== event.callId) return live;
        const steps = live.plan.steps.map((s) =>
          s.index === event.index ? { ...s, status: event.status, summary: event.summary } : s,
        );
        return { ...live, plan: { ...live.plan, steps } };
      });
    case "taskMetrics":
      return { ...view, metrics: { ...view.metrics, [event.metrics.taskId]: event.metrics } };
    case "questionAsked":
      return withLive(view, event.taskId, (live) => ({
        ...live,
        question: { callId: event.callId, question: event.question, timeoutSecs: event.timeoutSecs },
      }));
    case "questionAnswered":
      return withLive(view, event.taskId, (live) => ({
        ...live,
        question: live.question?.callId === event.callId ? null : live.question,
      }));
    case "progress":
      return withLive(view, event.taskId, (live) => ({ ...live, progress: event.text }));
    case "userMessageInjected":
      return withLive(view, event.taskId, (live) => {
        const at = live.added.indexOf(event.text);
        const added = at === -1 ? live.added : [...live.added.slice(0, at), ...live.added.slice(at + 1)];
        return { ...live, added, injected: [...live.injected, event.text] };
      });
    case "userMessageRequeued":
      return { ...view, requeued: { ...view.requeued, [event.newTaskId]: event.taskId } };
    case "queueChanged":
      return { ...view, stale: true };
    case "modelRetrying":
      return withLive(view, event.taskId, (live) => ({
        ...live,
        retrying: { said: event.said, attempt: event.attempt, waitMs: event.waitMs },
      }));
    case "conversationStarted":
      return { ...view, conversation: event.id };
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

/** Longest streamed output kept per running call (the final output replaces it). */
const MAX_LIVE_OUTPUT = 20_000;

function keepActivity(
  activity: Record<number, LiveStep[]>,
  taskId: number,
  steps: LiveStep[],
): Record<number, LiveStep[]> {
  const next = { ...activity, [taskId]: steps };
  const ids = Object.keys(next).map(Number).sort((a, b) => a - b);
  for (const id of ids.slice(0, Math.max(0, ids.length - MAX_KEPT_ACTIVITY))) delete next[id];
  return next;
}

/** How long a call took, in words ("0.4 s", "12 s"), or "running". */
export function duration(step: LiveStep, now: number | null = null): string {
  if (step.recorded) return step.ok === undefined ? "cut short" : "";
  if (step.waiting) return "waiting for you";
  if (step.finishedAt === undefined) {
    if (now === null) return "running";
    return `running ${Math.max(0, Math.floor((now - step.startedAt) / 1000))} s`;
  }
  const secs = (step.finishedAt - step.startedAt) / 1000;
  return secs < 10 ? `${secs.toFixed(1)} s` : `${Math.round(secs)} s`;
}

/** Whether a tool's output was cut to fit the limit (the tools mark the cut). */
export function isTruncated(output: string): boolean {
  return /\[… \d+ bytes cut …\]/.test(output);
}

/** A task's time, for the queue panel: HH:MM today, else the date too. */
export function taskTime(ms: number | null, today: Date = new Date()): string {
  if (ms === null) return "";
  const d = new Date(ms);
  const hm = d.toTimeString().slice(0, 5);
  return d.toDateString() === today.toDateString() ? hm : `${d.toISOString().slice(0, 10)} ${hm}`;
}

/** The user sent `text` while a task runs: shown in that task at once, until it reads it. */
export function noteAdded(view: QueueView, text: string): QueueView {
  if (!view.live) return view;
  return { ...view, live: { ...view.live, added: [...view.live.added, text] } };
}

function withLive(view: QueueView, taskId: number, change: (live: Live) => Live): QueueView {
  if (view.live?.taskId !== taskId) return view;
  return { ...view, live: change(view.live) };
}

/** One line for a step: its tool, a short form of its arguments, and how it ended. */
/** A tool's name for people: an MCP server's tool (`server__tool`) as `tool (MCP server)`. */
export function toolName(tool: string): string {
  const at = tool.indexOf("__");
  return at > 0 ? `${tool.slice(at + 2)} (MCP ${tool.slice(0, at)})` : tool;
}

export function stepLine(step: Pick<LiveStep, "tool" | "arguments" | "ok">): string {
  const args = step.arguments as Record<string, unknown> | null;
  // What it acts on, in words where a built-in tool names it; else its arguments.
  const named = step.tool.includes("__") ? undefined : ["command", "path", "url", "query"].map((k) => args?.[k]).find((v) => typeof v === "string");
  const brief = typeof named === "string" ? named : JSON.stringify(step.arguments ?? {});
  const mark = step.ok === undefined ? "…" : step.ok ? "✓" : "✗";
  return `${mark} ${toolName(step.tool)} ${brief.length > 80 ? brief.slice(0, 79) + "…" : brief}`;
}

/** The sum of every task's metrics. */
export function totals(all: TaskMetrics[]): Omit<TaskMetrics, "taskId"> {
  const sum = { llmRequests: 0, llmFailures: 0, toolCalls: 0, toolFailures: 0, denials: 0, compactions: 0, tokensIn: 0, tokensOut: 0 };
  for (const m of all) {
    for (const k of Object.keys(sum) as (keyof typeof sum)[]) sum[k] += m[k];
  }
  return sum;
}

/** Tokens in thousands, for the context line ("12.3k"). */
export function kTokens(n: number): string {
  return n < 1000 ? String(n) : `${(n / 1000).toFixed(1)}k`;
}

/** A mark for a plan step's state. */
export function stepMark(status: StepStatus): string {
  switch (status) {
    case "pending":
      return "○";
    case "running":
      return "…";
    case "done":
      return "✓";
    case "failed":
      return "✗";
    case "skipped":
      return "–";
  }
}

/** Tasks not finished yet: the running one first, then the pending ones in order. */
export function activeTasks(tasks: Task[]): Task[] {
  const running = tasks.filter((t) => t.status === "running");
  const pending = tasks.filter((t) => t.status === "pending");
  return [...running, ...pending];
}

/** What the worker is doing, in words; `runningTask` is the id of the task it works on. */
/** The worker's state in full, for the status's tooltip. */
export function workerTitle(worker: WorkerState | null, runningTask: number | null = null): string {
  if (worker?.state === "active" && runningTask !== null) return `working on task ${runningTask}`;
  return workerLabel(worker, runningTask);
}

/** The worker's state in a word or two, for the header (kept short: the header's row must
 *  not grow or wrap as tasks start and end). */
export function workerLabel(worker: WorkerState | null, runningTask: number | null = null): string {
  if (worker === null) return "starting";
  switch (worker.state) {
    case "active":
      return runningTask === null ? "ready" : "working";
    case "paused":
      return "paused";
    case "standby":
      return `another Zeta (pid ${worker.holderPid}) is working the queue`;
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

/** True for a key that types a character while the focus is on nothing that takes text
 *  (a button just clicked, the page itself): such text belongs in the composer. */
export function typedIntoNowhere(e: {
  key: string;
  ctrlKey: boolean;
  altKey: boolean;
  metaKey: boolean;
  isComposing: boolean;
  target: EventTarget | null;
}): boolean {
  if (e.ctrlKey || e.altKey || e.metaKey || e.isComposing) return false;
  if ([...e.key].length !== 1) return false;
  const target = e.target as { tagName?: string; isContentEditable?: boolean } | null;
  const tag = target?.tagName?.toUpperCase() ?? "";
  return !["INPUT", "TEXTAREA", "SELECT"].includes(tag) && !target?.isContentEditable;
}

/** What did not happen in a task, from its audit, whatever its reply says. */
export function callsNote(task: Pick<Task, "deniedCalls" | "failedCalls" | "skippedSteps">): string | null {
  const parts: string[] = [];
  if (task.deniedCalls > 0) {
    const verb = task.deniedCalls === 1 ? "action was" : "actions were";
    parts.push(`${task.deniedCalls} ${verb} not allowed to run`);
  }
  if (task.failedCalls > 0) {
    parts.push(parts.length ? `${task.failedCalls} failed` : `${task.failedCalls} ${task.failedCalls === 1 ? "action" : "actions"} failed`);
  }
  if (task.skippedSteps > 0) {
    parts.push(task.skippedSteps === 1 ? "1 step you skipped did not run" : `${task.skippedSteps} steps you skipped did not run`);
  }
  return parts.length ? parts.join(", ") : null;
}

/** "1 step", "4 steps". */
export function steps(n: number): string {
  return `${n} ${n === 1 ? "step" : "steps"}`;
}

/** The tasks the chat shows: the current conversation's, and any task still running or
 *  waiting from an earlier one (it finishes where it started, and stays in view until then). */
export function chatTasks(view: Pick<QueueView, "tasks" | "conversation">): Task[] {
  if (view.conversation === null) return view.tasks;
  return view.tasks.filter((t) => t.conversation === view.conversation || t.status === "running" || t.status === "pending");
}

/** "3 requests · 24 Nov, 09:41" for a conversation in the history list. */
export function conversationLine(tasks: number, lastAt: number): string {
  const when = new Date(lastAt).toLocaleString(undefined, { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
  return `${tasks} ${tasks === 1 ? "request" : "requests"} · ${when}`;
}

/** A failed task's error: the plain sentence shown, and the details kept for "Details". */
export function splitError(error: string | null): { said: string; details: string } {
  const text = (error ?? "").trim();
  const cut = text.indexOf("\n\n");
  if (cut < 0) return { said: text || "It failed, and said nothing more.", details: "" };
  return { said: text.slice(0, cut), details: text.slice(cut + 2).trim() };
}

/** "Trying again in 2 s (attempt 1 of the request failed)". */
export function retryLine(r: { said: string; attempt: number; waitMs: number }): string {
  return `${r.said} Trying again in ${Math.max(1, Math.ceil(r.waitMs / 1000))} s…`;
}

/** A finished task's calls from its record, as the activity list shows them (outputs and
 *  screenshots are not kept; what ran, how it ended and what was refused are). */
export function stepsFromRecord(calls: AuditEntry[]): LiveStep[] {
  return calls.map((c) => {
    let args: unknown = c.arguments;
    try {
      args = JSON.parse(c.arguments);
    } catch {
      // Shown as the text it is.
    }
    return {
      callId: c.callId,
      tool: c.tool,
      arguments: args,
      iteration: 0,
      startedAt: c.createdAt,
      ok: c.state === "running" ? undefined : c.ok,
      summary: c.summary,
      output: "",
      images: [],
      recorded: true,
    };
  });
}

/** What became of a message the person added while a task ran, in words. */
export function addedLine(added: Pick<AddedMessage, "fate" | "newTaskId">): string {
  switch (added.fate) {
    case "read":
      return "it read this while it worked";
    case "requeued":
      return added.newTaskId === null ? "it ran as a task of its own" : `it ran as a task of its own (task ${added.newTaskId})`;
    case "held":
      return "not sent: you stopped the task before it read this";
  }
}

import { describe, expect, it } from "vitest";
import type { Task } from "../bindings";
import { activeTasks, applyEvent, chatTasks, conversationLine, retryLine, splitError, callsNote, noteAdded, composerAction, typedIntoNowhere, emptyView, stepLine, upsert, workerLabel, workerTitle, stepMark, totals, duration, isTruncated, kTokens, steps } from "./queue";

const task = (id: number, status: Task["status"], message = `m${id}`): Task => ({
  id,
  sender: "chat",
  message,
  status,
  previousContext: null,
  result: null,
  reply: null,
  error: null,
  createdAt: id,
  startedAt: null,
  finishedAt: null,
  attempts: 0,
  interrupted: null,
  untrusted: false,
  previousUntrusted: false,
  deniedCalls: 0,
  failedCalls: 0,
  skippedSteps: 0,
  conversation: 1,
  fix: null,
});

describe("upsert", () => {
  it("keeps tasks in id order and replaces by id", () => {
    let tasks = upsert([], task(3, "pending"));
    tasks = upsert(tasks, task(1, "done"));
    tasks = upsert(tasks, task(2, "pending"));
    tasks = upsert(tasks, task(3, "running"));
    expect(tasks.map((t) => [t.id, t.status])).toEqual([
      [1, "done"],
      [2, "pending"],
      [3, "running"],
    ]);
  });
});

describe("applyEvent", () => {
  it("follows a task from queued to failed", () => {
    let view = applyEvent(emptyView(), { type: "taskQueued", task: task(7, "pending") });
    view = applyEvent(view, { type: "taskStarted", task: task(7, "running") });
    expect(activeTasks(view.tasks).map((t) => t.id)).toEqual([7]);
    const failed = { ...task(7, "failed"), error: "no agent configured" };
    view = applyEvent(view, { type: "taskFinished", task: failed });
    expect(view.tasks).toEqual([failed]);
    expect(activeTasks(view.tasks)).toEqual([]);
  });

  it("marks the view stale when the queue changed elsewhere", () => {
    expect(applyEvent(emptyView(), { type: "queueChanged" }).stale).toBe(true);
  });

  it("keeps only the newest errors", () => {
    let view = emptyView();
    for (let i = 0; i < 8; i++) view = applyEvent(view, { type: "error", message: `e${i}` });
    expect(view.errors).toEqual(["e3", "e4", "e5", "e6", "e7"]);
  });

  it("shows settings problems by field", () => {
    const view = applyEvent(emptyView(), {
      type: "settingsProblems",
      problems: [{ field: "maxIterations", message: "\"many\" is not valid here" }],
    });
    expect(view.settingsProblems).toEqual(['maxIterations: "many" is not valid here']);
  });

  it("tracks the worker state", () => {
    const view = applyEvent(emptyView(), {
      type: "workerStateChanged",
      state: { state: "standby", holderPid: "42" },
    });
    expect(workerLabel(view.worker)).toContain("pid 42");
    expect(workerLabel(null)).toBe("starting");
  });
});

describe("activeTasks", () => {
  it("puts the running task before pending ones and drops finished ones", () => {
    const tasks = [task(1, "pending"), task(2, "done"), task(3, "running"), task(4, "pending")];
    expect(activeTasks(tasks).map((t) => t.id)).toEqual([3, 1, 4]);
  });
});

describe("composerAction", () => {
  it("sends on Enter, adds a line on Shift+Enter, ignores IME composition", () => {
    expect(composerAction("Enter", false, false)).toBe("send");
    expect(composerAction("Enter", true, false)).toBe("newline");
    expect(composerAction("Enter", false, true)).toBe("none");
    expect(composerAction("a", false, false)).toBe("none");
  });
});

describe("live activity", () => {
  it("follows iterations, streamed text and tool calls of the running task only", () => {
    let view = applyEvent(emptyView(), { type: "taskStarted", task: task(4, "running") });
    view = applyEvent(view, { type: "iterationStarted", taskId: 4, iteration: 1, maxIterations: 50, contextTokens: 100, contextWindow: 32768 });
    view = applyEvent(view, { type: "llmDelta", taskId: 4, text: "Look" });
    view = applyEvent(view, { type: "llmDelta", taskId: 4, text: "ing" });
    view = applyEvent(view, { type: "llmDelta", taskId: 9, text: "other task" });
    expect(view.live?.stream).toEqual({ settled: [], tail: "Looking" });
    view = applyEvent(view, {
      type: "toolCallStarted", taskId: 4, callId: "c1", tool: "shell", arguments: { command: "ls -la" },
    });
    expect(stepLine(view.live!.steps[0])).toBe("… shell ls -la");
    view = applyEvent(view, {
      type: "toolCallFinished", taskId: 4, callId: "c1", tool: "shell", ok: true, summary: "exit 0", output: "", images: [],
    });
    expect(stepLine(view.live!.steps[0])).toBe("✓ shell ls -la");
    expect(stepLine({ tool: "notes__write_note", arguments: { name: "a" }, ok: true })).toBe('✓ write_note (MCP notes) {"name":"a"}');
    expect(stepLine({ tool: "write_file", arguments: { path: "/tmp/a.txt", content: "x\ny" }, ok: true })).toBe("✓ write_file /tmp/a.txt");
    view = applyEvent(view, { type: "iterationStarted", taskId: 4, iteration: 2, maxIterations: 50, contextTokens: 100, contextWindow: 32768 });
    expect(view.live?.stream).toEqual({ settled: [], tail: "" });
    view = applyEvent(view, { type: "taskFinished", task: task(4, "done") });
    expect(view.live).toBeNull();
  });
});

describe("interrupted tasks", () => {
  it("ends the live view and keeps the task pending with what was running", () => {
    let view = applyEvent(emptyView(), { type: "taskStarted", task: task(7, "running") });
    expect(view.live?.taskId).toBe(7);
    const back = { ...task(7, "pending"), attempts: 1, interrupted: "while `shell` {} was running" };
    view = applyEvent(view, { type: "taskInterrupted", task: back });
    expect(view.live).toBeNull();
    expect(view.tasks.find((t) => t.id === 7)?.interrupted).toContain("shell");
  });
});

describe("approvals", () => {
  it("shows a waiting call until it is answered", () => {
    let view = applyEvent(emptyView(), { type: "taskStarted", task: task(5, "running") });
    view = applyEvent(view, {
      type: "approvalRequested", taskId: 5, callId: "c9", tool: "shell", arguments: { command: "rm x" },
      target: "rm x", risk: "high", reason: null, screenshot: null, timeoutSecs: 120, requiresPerson: false, allowance: null, highRisk: true, files: [], change: null, request: "m",
    });
    expect(view.live?.approval?.callId).toBe("c9");
    view = applyEvent(view, { type: "approvalResolved", taskId: 5, callId: "other", approved: true, by: "user" });
    expect(view.live?.approval?.callId).toBe("c9");
    view = applyEvent(view, { type: "approvalResolved", taskId: 5, callId: "c9", approved: false, by: "timeout" });
    expect(view.live?.approval).toBeNull();
  });

  it("follows a plan from proposal through its steps' progress", () => {
    let view = applyEvent(emptyView(), { type: "taskStarted", task: task(6, "running") });
    view = applyEvent(view, {
      type: "planProposed", taskId: 6, callId: "p1", goal: "Make files", risks: [], needsApproval: true,
      screenshot: null, timeoutSecs: 60, request: "make files",
      steps: [0, 1].map((index) => ({
        index, description: `step ${index}`, tool: "shell", params: {}, target: `touch f${index}`,
        risk: "medium" as const, sideEffects: true, canFail: false, fallback: null, change: null,
      })),
    });
    expect(view.live?.plan?.state).toBe("waiting");
    expect(view.live?.plan?.steps.map((s) => s.status)).toEqual(["pending", "pending"]);
    view = applyEvent(view, { type: "approvalResolved", taskId: 6, callId: "p1", approved: true, by: "user" });
    expect(view.live?.plan?.state).toBe("running");
    view = applyEvent(view, { type: "planStepUpdated", taskId: 6, callId: "p1", index: 0, status: "done", summary: "ok" });
    view = applyEvent(view, { type: "planStepUpdated", taskId: 6, callId: "p1", index: 1, status: "skipped", summary: "skipped by the user" });
    expect(view.live?.plan?.steps.map((s) => [s.status, stepMark(s.status)])).toEqual([
      ["done", "✓"],
      ["skipped", "–"],
    ]);
    view = applyEvent(view, { type: "approvalResolved", taskId: 6, callId: "p1", approved: false, by: "user" });
    expect(view.live?.plan?.state).toBe("denied");
  });
});

describe("metrics and activity helpers", () => {
  it("keeps each task's metrics from events and sums them", () => {
    const m = (taskId: number, toolCalls: number) => ({
      taskId, llmRequests: 2, llmFailures: 0, toolCalls, toolFailures: 1, denials: 0, compactions: 0, tokensIn: 100, tokensOut: 10,
    });
    let view = applyEvent(emptyView(), { type: "taskMetrics", metrics: m(1, 3) });
    view = applyEvent(view, { type: "taskMetrics", metrics: m(2, 4) });
    expect(Object.keys(view.metrics)).toEqual(["1", "2"]);
    expect(totals(Object.values(view.metrics))).toMatchObject({ llmRequests: 4, toolCalls: 7, toolFailures: 2, tokensIn: 200 });
  });

  it("times calls, marks cut output and keeps a finished task's activity", () => {
    let view = applyEvent(emptyView(), { type: "taskStarted", task: task(9, "running") }, 1000);
    view = applyEvent(view, { type: "toolCallStarted", taskId: 9, callId: "a", tool: "shell", arguments: { command: "ls" } }, 1000);
    view = applyEvent(view, { type: "toolOutput", taskId: 9, callId: "a", chunk: "part" }, 1100);
    expect(view.live?.steps[0].output).toBe("part");
    expect(duration(view.live!.steps[0])).toBe("running");
    const started = view.live!.steps[0].startedAt;
    expect(duration(view.live!.steps[0], started + 4200)).toBe("running 4 s");
    view = applyEvent(view, {
      type: "toolCallFinished", taskId: 9, callId: "a", tool: "shell", ok: true, summary: "exit 0",
      output: "head\\n[… 5000 bytes cut …]\\ntail", images: ["data:image/jpeg;base64,AA"],
    }, 2500);
    const step = view.live!.steps[0];
    expect(duration(step)).toBe("1.5 s");
    expect(isTruncated(step.output)).toBe(true);
    expect(isTruncated("plain")).toBe(false);
    view = applyEvent(view, { type: "iterationStarted", taskId: 9, iteration: 2, maxIterations: 50, contextTokens: 30500, contextWindow: 32768 });
    view = applyEvent(view, { type: "compacted", taskId: 9, kind: "hard", before: 30500, after: 9000 });
    expect(view.live?.context).toEqual({ tokens: 30500, window: 32768 });
    expect(view.live?.compactions).toEqual([{ kind: "hard", before: 30500, after: 9000 }]);
    expect(kTokens(30500)).toBe("30.5k");
    view = applyEvent(view, { type: "answerChecked", taskId: 9, check: "asked-target", result: "sentBack", detail: "~/n.txt does not exist" });
    view = applyEvent(view, { type: "answerChecked", taskId: 8, check: "other-task", result: "told", detail: "" });
    expect(view.live?.checks).toEqual([{ check: "asked-target", result: "sentBack", detail: "~/n.txt does not exist" }]);
    view = applyEvent(view, { type: "taskFinished", task: task(9, "done") });
    expect(view.live).toBeNull();
    expect(view.activity[9].map((s) => s.images.length)).toEqual([1]);
  });
});

describe("callsNote", () => {
  it("says what did not happen, whatever the reply claims", () => {
    expect(callsNote(task(1, "done"))).toBeNull();
    expect(callsNote({ ...task(1, "done"), deniedCalls: 1 })).toBe("1 action was not allowed to run");
    expect(callsNote({ ...task(1, "done"), deniedCalls: 2, failedCalls: 1 })).toBe(
      "2 actions were not allowed to run, 1 failed",
    );
    expect(callsNote({ ...task(1, "done"), failedCalls: 3 })).toBe("3 actions failed");
    expect(callsNote({ ...task(1, "done"), skippedSteps: 1 })).toBe("1 step you skipped did not run");
    expect(callsNote({ ...task(1, "done"), deniedCalls: 1, skippedSteps: 2 })).toBe(
      "1 action was not allowed to run, 2 steps you skipped did not run",
    );
  });
});

describe("steps", () => {
  it("counts in words", () => {
    expect(steps(1)).toBe("1 step");
    expect(steps(4)).toBe("4 steps");
  });
});

describe("added messages", () => {
  it("show at once, move to injected when read, and a late one is marked on its new task", () => {
    let view = applyEvent(emptyView(), { type: "taskStarted", task: task(1, "running") });
    view = noteAdded(view, "make it French");
    expect(view.live?.added).toEqual(["make it French"]);
    view = applyEvent(view, { type: "userMessageInjected", taskId: 1, text: "make it French" });
    expect(view.live?.added).toEqual([]);
    expect(view.live?.injected).toEqual(["make it French"]);
    view = noteAdded(view, "and shorter");
    view = applyEvent(view, { type: "userMessageRequeued", taskId: 1, newTaskId: 2, text: "and shorter" });
    expect(view.requeued).toEqual({ 2: 1 });
    expect(noteAdded(emptyView(), "x").live).toBeNull();
  });
});

describe("typing into nowhere", () => {
  const key = (k: string, tagName: string, mods: Partial<{ ctrlKey: boolean; altKey: boolean }> = {}) => ({
    key: k, ctrlKey: false, altKey: false, metaKey: false, isComposing: false, target: { tagName } as unknown as EventTarget, ...mods,
  });
  it("takes characters typed on a button or the page", () => {
    expect(typedIntoNowhere(key("a", "BUTTON"))).toBe(true);
    expect(typedIntoNowhere(key("é", "BODY"))).toBe(true);
    expect(typedIntoNowhere(key(" ", "MAIN"))).toBe(true);
  });
  it("leaves fields, shortcuts and named keys alone", () => {
    expect(typedIntoNowhere(key("a", "INPUT"))).toBe(false);
    expect(typedIntoNowhere(key("a", "textarea"))).toBe(false);
    expect(typedIntoNowhere(key("a", "SELECT"))).toBe(false);
    expect(typedIntoNowhere(key("1", "BODY", { ctrlKey: true }))).toBe(false);
    expect(typedIntoNowhere(key("Enter", "BODY"))).toBe(false);
    expect(typedIntoNowhere(key("Tab", "BODY"))).toBe(false);
  });
});

describe("the header while a task runs", () => {
  it("says which task is being worked on", () => {
    const worker = { state: "active" } as Parameters<typeof workerLabel>[0];
    expect(workerLabel(worker, 7)).toBe("working");
    expect(workerTitle(worker, 7)).toBe("working on task 7");
    expect(workerTitle(worker, null)).toBe("ready");
    expect(workerLabel(worker, null)).toBe("ready");
  });
});

describe("conversations", () => {
  it("show the current conversation, and what still runs from an earlier one", () => {
    const t = (id: number, conversation: number, status: Task["status"]) => ({ ...task(id, status), conversation });
    let view = { ...emptyView(), tasks: [t(1, 1, "done"), t(2, 1, "running"), t(3, 2, "pending")] };
    view = applyEvent(view, { type: "conversationStarted", id: 2 });
    expect(chatTasks(view).map((x) => x.id)).toEqual([2, 3]);
    view = applyEvent(view, { type: "taskFinished", task: t(2, 1, "done") });
    expect(chatTasks(view).map((x) => x.id)).toEqual([3]);
  });
  it("count requests in words", () => {
    expect(conversationLine(1, 0)).toMatch(/^1 request · /);
    expect(conversationLine(3, 0)).toMatch(/^3 requests · /);
  });
});

describe("errors as people read them", () => {
  it("show the sentence and keep the details apart", () => {
    expect(splitError("The provider rejected the API key.\n\nscripted: https://x/v1: request refused HTTP 401: {}")).toEqual({
      said: "The provider rejected the API key.",
      details: "scripted: https://x/v1: request refused HTTP 401: {}",
    });
    expect(splitError("Plain.")).toEqual({ said: "Plain.", details: "" });
    expect(splitError(null).said).toContain("failed");
  });
  it("show a retry while it waits, until the model answers", () => {
    let view = applyEvent(emptyView(), { type: "taskStarted", task: task(4, "running") });
    view = applyEvent(view, { type: "modelRetrying", taskId: 4, attempt: 1, waitMs: 1500, said: "The model server at h:1 had an error (HTTP 503)." });
    expect(retryLine(view.live!.retrying!)).toBe("The model server at h:1 had an error (HTTP 503). Trying again in 2 s…");
    view = applyEvent(view, { type: "llmDelta", taskId: 4, text: "ok" });
    expect(view.live?.retrying).toBeNull();
  });
});

describe("the agent's question and progress", () => {
  it("show the question until its answer, and the latest status line", () => {
    let view = applyEvent(emptyView(), { type: "taskStarted", task: task(5, "running") });
    view = applyEvent(view, { type: "progress", taskId: 5, text: "Counting" });
    view = applyEvent(view, { type: "progress", taskId: 5, text: "Writing" });
    expect(view.live?.progress).toBe("Writing");
    view = applyEvent(view, { type: "questionAsked", taskId: 5, callId: "q1", question: "Which file?", timeoutSecs: 120 });
    expect(view.live?.question).toEqual({ callId: "q1", question: "Which file?", timeoutSecs: 120 });
    view = applyEvent(view, { type: "questionAnswered", taskId: 5, callId: "other", answered: true });
    expect(view.live?.question?.callId).toBe("q1");
    view = applyEvent(view, { type: "questionAnswered", taskId: 5, callId: "q1", answered: false });
    expect(view.live?.question).toBeNull();
    // Another task's question is not this one's.
    view = applyEvent(view, { type: "questionAsked", taskId: 9, callId: "q2", question: "?", timeoutSecs: 1 });
    expect(view.live?.question).toBeNull();
  });
});

describe("a step that asked", () => {
  it("counts its time from the answer, not from the question", () => {
    let view = applyEvent(emptyView(), { type: "taskStarted", task: task(8, "running") }, 0);
    view = applyEvent(view, { type: "toolCallStarted", taskId: 8, callId: "c1", tool: "shell", arguments: { command: "touch x" } }, 1000);
    view = applyEvent(view, {
      type: "approvalRequested", taskId: 8, callId: "c1", tool: "shell", arguments: { command: "touch x" },
      target: "touch x", risk: "medium", reason: null, screenshot: null, timeoutSecs: 120, requiresPerson: false, allowance: null, highRisk: false, files: [], change: null, request: "m",
    }, 1000);
    expect(duration(view.live!.steps[0])).toBe("waiting for you");
    view = applyEvent(view, { type: "approvalResolved", taskId: 8, callId: "c1", approved: true, by: "user" }, 61000);
    view = applyEvent(view, { type: "toolCallFinished", taskId: 8, callId: "c1", tool: "shell", ok: true, summary: "", output: "", images: [] }, 61500);
    expect(duration(view.live!.steps[0])).toBe("0.5 s");
  });
});

import { describe, expect, it } from "vitest";
import type { Event } from "../bindings";
import { applyToPending, callTitle, choices, dialogKey, fieldsOf, markerAt, paramsOf, preview, requestFrom, scopeLabel, secondsLeft, visible } from "./confirm";

const plan: Event = {
  type: "planProposed",
  taskId: 3,
  callId: "p1",
  goal: "Tidy the downloads",
  risks: ["moves files"],
  needsApproval: true,
  screenshot: null,
  timeoutSecs: 60,
  request: "tidy my downloads",
  steps: [
    { index: 0, description: "list", tool: "shell", params: { command: "ls" }, target: "ls", risk: "medium", sideEffects: true, canFail: false, fallback: null, change: null },
    { index: 1, description: "click", tool: "mouse", params: { action: "click", x: 50, y: 25 }, target: "click at (50, 25)", risk: "medium", sideEffects: true, canFail: true, fallback: null, change: null },
  ],
};

const call: Event = {
  type: "approvalRequested",
  taskId: 3,
  callId: "c2",
  tool: "shell",
  arguments: { command: "rm a" },
  target: "rm a",
  risk: "high",
  reason: "it follows text addressed to the agent",
  screenshot: null,
  timeoutSecs: 30,
  requiresPerson: false,
  allowance: { tool: "shell", program: "rm" },
  highRisk: false,
  files: ["/home/sam/a"],
  change: null,
  request: "remove a",
};

describe("the confirmation dialog", () => {
  it("opens a plan that needs approval and a single call as a one-step plan", () => {
    const r = requestFrom(plan);
    expect(r?.kind).toBe("plan");
    expect(r?.steps.map((s) => s.target)).toEqual(["ls", "click at (50, 25)"]);
    const c = requestFrom(call);
    expect(c?.kind).toBe("call");
    expect(c?.steps).toHaveLength(1);
    expect(c?.steps[0].risk).toBe("high");
    expect(c?.files).toEqual(["/home/sam/a"]);
    expect(r?.files).toEqual([]);
    expect(requestFrom({ ...plan, needsApproval: false } as Event)).toBeNull();
  });

  it("keeps the waiting requests in order and drops answered ones and finished tasks", () => {
    let pending = applyToPending([], plan);
    pending = applyToPending(pending, call);
    expect(pending.map((r) => r.callId)).toEqual(["p1", "c2"]);
    pending = applyToPending(pending, { type: "approvalResolved", taskId: 3, callId: "p1", approved: true, by: "user" });
    expect(pending.map((r) => r.callId)).toEqual(["c2"]);
    pending = applyToPending(pending, {
      type: "taskFinished",
      task: { id: 3, sender: "chat", message: "m", status: "failed", createdAt: 0, startedAt: 1, finishedAt: 2, previousContext: null, reply: null, error: "x" },
    } as Event);
    expect(pending).toEqual([]);
  });

  it("sends skips and edits, and refuses a field that is not a value", () => {
    const r = requestFrom(plan)!;
    expect(r.request).toBe("tidy my downloads");
    expect(choices(r)).toEqual({ ok: true, steps: [] });
    r.steps[0].draft = [{ key: "command", kind: "text", value: "ls -la" }];
    r.steps[1].skip = true;
    expect(choices(r)).toEqual({
      ok: true,
      steps: [
        { index: 0, skip: false, params: { command: "ls -la" } },
        { index: 1, skip: true, params: null },
      ],
    });
    r.steps[0].draft = [{ key: "x", kind: "json", value: "fifty" }];
    expect(choices(r)).toMatchObject({ ok: false, error: expect.stringContaining("“x”") });
  });

  it("edits text as text: line breaks and quotes as they are, other values as JSON", () => {
    const params = { path: "/tmp/a.txt", content: 'line "one"\nline two\n', append: false, lines: [1, 2] };
    const fields = fieldsOf(params);
    expect(fields).toEqual([
      { key: "path", kind: "text", value: "/tmp/a.txt" },
      { key: "content", kind: "text", value: 'line "one"\nline two\n' },
      { key: "append", kind: "json", value: "false" },
      { key: "lines", kind: "json", value: "[1,2]" },
    ]);
    expect(fields[1].value).not.toContain("\\n");
    expect(paramsOf(fields)).toEqual({ ok: true, params });
    expect(fieldsOf(null)).toEqual([]);
  });

  it("approves on Enter and denies on Escape, but leaves Enter to a text field", () => {
    expect(dialogKey("Enter", false, false)).toBe("approve");
    expect(dialogKey("Enter", true, false)).toBe("none");
    expect(dialogKey("Escape", true, false)).toBe("deny");
    expect(dialogKey("Enter", false, true)).toBe("none");
    expect(dialogKey("a", false, false)).toBe("none");
  });

  it("marks a mouse step's point on the screenshot", () => {
    expect(markerAt({ tool: "mouse", params: { x: 50, y: 25 } }, 200, 100)).toEqual({ left: 25, top: 25 });
    expect(markerAt({ tool: "mouse", params: { x: 500, y: -5 } }, 200, 100)).toEqual({ left: 100, top: 0 });
    expect(markerAt({ tool: "shell", params: { x: 1, y: 1 } }, 200, 100)).toBeNull();
    expect(markerAt({ tool: "mouse", params: {} }, 200, 100)).toBeNull();
  });

  it("counts down to the timeout", () => {
    expect(secondsLeft(60, 1000, 1000)).toBe(60);
    expect(secondsLeft(60, 1000, 31_500)).toBe(30);
    expect(secondsLeft(60, 1000, 99_000)).toBe(0);
  });
});

describe("single-call questions", () => {
  it("never approve a high-risk call with Enter", () => {
    expect(dialogKey("Enter", false, false, true)).toBe("none");
    expect(dialogKey("Escape", false, false, true)).toBe("deny");
  });
  it("say what a write will write, as text", () => {
    const shown = preview({ tool: "write_file", params: { path: "/home/u/a.txt", content: 'line "one"\nline two' }, target: "/home/u/a.txt" });
    expect(shown).toEqual({ label: "Writes to /home/u/a.txt:", text: 'line "one"\nline two' });
    expect(preview({ tool: "shell", params: { command: "df -h" }, target: "df -h" })?.text).toBe("df -h");
    expect(preview({ tool: "mouse", params: { x: 1, y: 2 }, target: "click" })).toBeNull();
  });
  it("show whole what other tools would run or type", () => {
    const long = "echo ok; " + "x".repeat(600) + "; rm -rf ~";
    const typed = preview({ tool: "ui_act", params: { element: 3, action: "type", text: long }, target: 'type "echo ok…" into terminal' });
    expect(typed?.text).toBe(long);
    const app = preview({ tool: "open_app", params: { name: "bash", args: ["-c", "rm -rf ~\r"] }, target: "bash" });
    expect(app).toEqual({ label: "Starts:", text: "bash -c rm -rf ~\\r" });
    expect(preview({ tool: "open_url", params: { url: "https://example.com/\u202e" }, target: "x" })?.text).toBe("https://example.com/\\u{202e}");
  });
  it("name the scope of a yes", () => {
    expect(scopeLabel("once", null)).toBe("Allow once");
    expect(scopeLabel("task", { tool: "shell", program: "git" })).toBe("Allow “git” commands for this task");
    expect(scopeLabel("always", { tool: "write_file" })).toBe("Always allow writing files");
    expect(callTitle("shell")).toBe("Zeta wants to run a command");
    expect(callTitle("notes__write_note")).toBe("Zeta wants to use write_note from the MCP server notes");
  });
});

describe("what a question shows", () => {
  it("shows the whole command with what could hide part of it made visible", () => {
    const hidden = "rm -rf ~/Documents";
    for (const spoof of [
      `echo backup\r${hidden}`,
      `${hidden} \x1b[2K\x1b[1Gecho hello`,
      `${hidden}${"\b".repeat(18)}ls -la`,
      `ls\u200b; ${hidden}`,
      `${hidden} #\u202etxt.gnp`,
      `ls\x00; ${hidden}`,
    ]) {
      const shown = preview({ tool: "shell", params: { command: spoof }, target: spoof })?.text ?? "";
      expect(shown).toContain(hidden);
      expect(/[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b\u202e]/.test(shown)).toBe(false);
    }
    expect(visible("grep 'café'\tx\necho 'שלום' 🎉")).toBe("grep 'café'\tx\necho 'שלום' 🎉");
    expect(visible("a\rb")).toBe("a\\rb");
  });
});

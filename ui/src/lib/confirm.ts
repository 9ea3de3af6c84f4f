// The confirmation dialog's model: the requests waiting for the user (a plan, or one call
// shown as a one-step plan), the user's edits and skips, and the answer they make. Pure
// functions; Confirm.svelte holds the state.

import type { Allowance } from "../bindings";
import type { ApprovalScope } from "../bindings";
import type { Event } from "../bindings";
import type { FileChange } from "../bindings";
import type { Risk } from "../bindings";
import type { JsonValue, StepChoice } from "../bindings";

export interface DialogStep {
  index: number;
  description: string;
  tool: string;
  params: unknown;
  target: string;
  risk: Risk;
  sideEffects: boolean;
  canFail: boolean;
  fallback: string | null;
  skip: boolean;
  /** The parameters as the user is editing them, field by field, or null when not edited. */
  draft: Field[] | null;
  /** The text it would write into a file: the new file's text, or a diff. */
  change: FileChange | null;
}

/** One parameter as the user edits it: text as text (line breaks as line breaks), any
 *  other value as JSON. */
export interface Field {
  key: string;
  kind: "text" | "json";
  value: string;
}

export interface Request {
  kind: "plan" | "call";
  taskId: number;
  callId: string;
  title: string;
  risks: string[];
  /** Why a call asks although the policy would not have. */
  reason: string | null;
  screenshot: string | null;
  timeoutSecs: number;
  steps: DialogStep[];
  /** What "Allow for this task" / "Always allow" would cover; null: once only. */
  allowance: Allowance | null;
  /** Enter alone does not approve it (a high-risk call, or a plan with one). */
  highRisk: boolean;
  /** The files a call would change, where known before it runs. */
  files: string[];
  /** What the person asked for, in their words. */
  request: string;
}

/** The request an event opens, if it opens one. */
export function requestFrom(event: Event): Request | null {
  if (event.type === "planProposed" && event.needsApproval) {
    return {
      kind: "plan",
      taskId: event.taskId,
      callId: event.callId,
      title: event.goal,
      risks: event.risks,
      reason: null,
      screenshot: event.screenshot,
      timeoutSecs: event.timeoutSecs,
      steps: event.steps.map((s) => ({ ...s, skip: false, draft: null })),
      allowance: null,
      highRisk: event.steps.some((s) => s.risk === "high"),
      files: [],
      request: event.request,
    };
  }
  if (event.type === "approvalRequested") {
    return {
      kind: "call",
      taskId: event.taskId,
      callId: event.callId,
      title: callTitle(event.tool),
      risks: [],
      reason: event.reason,
      screenshot: event.screenshot,
      timeoutSecs: event.timeoutSecs,
      steps: [
        {
          index: 0,
          description: "",
          tool: event.tool,
          params: event.arguments,
          target: event.target,
          risk: event.risk,
          sideEffects: true,
          canFail: false,
          fallback: null,
          skip: false,
          draft: null,
          change: event.change,
        },
      ],
      allowance: event.allowance,
      highRisk: event.highRisk,
      files: event.files,
      request: event.request,
    };
  }
  return null;
}

/** What a single call's question says it wants, in words. */
export function callTitle(tool: string): string {
  const words: Record<string, string> = {
    shell: "run a command",
    run_code: "run a program",
    write_file: "write a file",
    http_request: "send a web request",
    open_url: "open a web page",
    open_app: "open an application",
    mouse: "use the mouse",
    keyboard: "type on the keyboard",
    remember: "remember something",
    schedule: "schedule a task",
  };
  const mcp = tool.indexOf("__");
  if (mcp > 0) return `Zeta wants to use ${tool.slice(mcp + 2)} from the MCP server ${tool.slice(0, mcp)}`;
  return `Zeta wants to ${words[tool] ?? `use ${tool}`}`;
}

/** What an allowance covers, in words: "“git” commands", "writing files" (a label shows
 * no markdown, so the program is quoted as text is). */
export function allowanceWords(allowance: Allowance): string {
  if (allowance.program) return `“${allowance.program}” commands`;
  const nouns: Record<string, string> = {
    write_file: "writing files",
    http_request: "web requests",
    open_url: "opening web pages",
    open_app: "opening applications",
    mouse: "the mouse",
    keyboard: "the keyboard",
    remember: "remembering facts",
    schedule: "scheduling tasks",
  };
  const mcp = allowance.tool.indexOf("__");
  if (mcp > 0) return `${allowance.tool.slice(mcp + 2)} (MCP server ${allowance.tool.slice(0, mcp)})`;
  return nouns[allowance.tool] ?? allowance.tool;
}

/** The words on the buttons for how far a yes reaches. */
export function scopeLabel(scope: ApprovalScope, allowance: Allowance | null): string {
  const what = allowance ? allowanceWords(allowance) : "";
  switch (scope) {
    case "once":
      return "Allow once";
    case "task":
      return `Allow ${what} for this task`;
    case "always":
      return `Always allow ${what}`;
  }
}

const BIDI = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g;
const INVISIBLE = /[\u200B-\u200D\u2060\uFEFF\u00AD\u180E]/g;

/** `text` as it can be shown for approval (as zeta-core's `policy::shown`): line breaks
 *  and tabs as they are; carriage returns, escapes, other control characters and
 *  characters that take no space or reorder the text as visible escapes. */
export function visible(text: string): string {
  const hex = (c: string) => c.codePointAt(0)?.toString(16) ?? "";
  return text
    .replace(/\r/g, "\\r")
    .replace(/\x1b/g, "\\e")
    .replace(/\x08/g, "\\b")
    .replace(/[\x00-\x07\x0b\x0c\x0e-\x1a\x1c-\x1f\x7f-\x9f]/g, (c) => `\\x${hex(c).padStart(2, "0")}`)
    .replace(BIDI, (c) => `\\u{${hex(c)}}`)
    .replace(INVISIBLE, (c) => `\\u{${hex(c)}}`);
}

/** What the call will do, shown as text: a command, or the file and the text written,
 *  with what could hide part of it made visible. */
export function preview(step: Pick<DialogStep, "tool" | "params" | "target">): { label: string; text: string } | null {
  const shown = previewRaw(step);
  return shown && { label: shown.label, text: visible(shown.text) };
}

function previewRaw(step: Pick<DialogStep, "tool" | "params" | "target">): { label: string; text: string } | null {
  const p = (step.params ?? {}) as Record<string, unknown>;
  const str = (k: string) => (typeof p[k] === "string" ? (p[k] as string) : null);
  if (step.tool === "write_file" && str("content") !== null) {
    return { label: `Writes to ${str("path") ?? step.target}:`, text: str("content") ?? "" };
  }
  if (step.tool === "shell" && str("command") !== null) return { label: "Command:", text: str("command") ?? "" };
  if (step.tool === "run_code" && str("code") !== null) return { label: `${str("language") ?? "Code"}:`, text: str("code") ?? "" };
  if (step.tool === "keyboard" && str("text") !== null) return { label: "Types:", text: str("text") ?? "" };
  if (step.tool === "ui_act" && str("text") !== null) return { label: `${step.target}:`, text: str("text") ?? "" };
  if (step.tool === "open_app" && str("name") !== null) {
    const args = Array.isArray(p.args) ? (p.args as unknown[]).map(String) : [];
    return { label: "Starts:", text: [str("name") ?? "", ...args].join(" ") };
  }
  if (step.tool === "open_url" && str("url") !== null) return { label: "Opens:", text: str("url") ?? "" };
  return null;
}

/** The waiting requests after `event`, oldest first. */
export function applyToPending(pending: Request[], event: Event): Request[] {
  const opened = requestFrom(event);
  if (opened) return [...pending.filter((r) => r.callId !== opened.callId), opened];
  if (event.type === "approvalResolved") return pending.filter((r) => r.callId !== event.callId);
  if (event.type === "taskFinished") return pending.filter((r) => r.taskId !== event.task.id);
  return pending;
}

/** A call's parameters as fields to edit: strings as their text, anything else as JSON. */
export function fieldsOf(params: unknown): Field[] {
  const object = params !== null && typeof params === "object" && !Array.isArray(params) ? (params as Record<string, unknown>) : {};
  return Object.entries(object).map(([key, value]) =>
    typeof value === "string" ? { key, kind: "text", value } : { key, kind: "json", value: JSON.stringify(value) },
  );
}

/** The parameters the edited fields stand for, or the first field that is not a value. */
export function paramsOf(fields: Field[]): { ok: true; params: Record<string, unknown> } | { ok: false; error: string } {
  const params: Record<string, unknown> = {};
  for (const field of fields) {
    if (field.kind === "text") {
      params[field.key] = field.value;
      continue;
    }
    try {
      params[field.key] = JSON.parse(field.value);
    } catch {
      return { ok: false, error: `“${field.key}” must be a number, true or false, or JSON; it is “${field.value}”.` };
    }
  }
  return { ok: true, params };
}

/** The choices to send with an approval, or the first problem with the user's edits. */
export function choices(request: Request): { ok: true; steps: StepChoice[] } | { ok: false; error: string } {
  const steps: StepChoice[] = [];
  for (const step of request.steps) {
    let params: JsonValue | null = null;
    if (step.draft !== null && !step.skip) {
      const edited = paramsOf(step.draft);
      if (!edited.ok) return { ok: false, error: `Step ${step.index + 1}: ${edited.error}` };
      // Values read from the form's fields: text, numbers, booleans and JSON.
      params = edited.params as JsonValue;
    }
    if (step.skip || params !== null) steps.push({ index: step.index, skip: step.skip, params });
  }
  return { ok: true, steps };
}

/** What a key does in the dialog: Enter approves once and Escape denies, except while
 *  editing text; Enter never approves a high-risk request (a click must). */
export function dialogKey(key: string, inTextField: boolean, isComposing: boolean, highRisk = false): "approve" | "deny" | "none" {
  if (isComposing) return "none";
  if (key === "Escape") return "deny";
  if (key === "Enter" && !inTextField && !highRisk) return "approve";
  return "none";
}

/** Where a mouse step points on the screenshot, in percent of its size, if it does. */
export function markerAt(
  step: Pick<DialogStep, "tool" | "params">,
  width: number,
  height: number,
): { left: number; top: number } | null {
  if (step.tool !== "mouse" || width <= 0 || height <= 0) return null;
  const p = step.params as Record<string, unknown> | null;
  const x = typeof p?.x === "number" ? p.x : NaN;
  const y = typeof p?.y === "number" ? p.y : NaN;
  if (!Number.isFinite(x) || !Number.isFinite(y)) return null;
  const clamp = (v: number) => Math.min(100, Math.max(0, v));
  return { left: clamp((x / width) * 100), top: clamp((y / height) * 100) };
}

/** Seconds left before an unanswered request counts as denied. */
export function secondsLeft(timeoutSecs: number, openedAtMs: number, nowMs: number): number {
  return Math.max(0, Math.ceil(timeoutSecs - (nowMs - openedAtMs) / 1000));
}

import type { LocalServerState } from "../bindings";
// The settings form's pure parts: problems by field, the tools whose permission can be
// set, moving fallback providers, and what onboarding offers from detected servers.

import type { LocalEndpoint } from "../bindings";
import type { ProviderSettings } from "../bindings";
import type { SettingsProblem } from "../bindings";

/** The backend's problems keyed by field (`provider.baseUrl`), for showing beside inputs. */
export function problemsByField(problems: SettingsProblem[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of problems) out[p.field] = out[p.field] ? `${out[p.field]}; ${p.message}` : p.message;
  return out;
}

/** Tools the permission table lists, side-effecting first. */
export const PERMISSION_TOOLS = [
  "shell",
  "run_code",
  "write_file",
  "http_request",
  "open_url",
  "open_app",
  "mouse",
  "keyboard",
  "read_file",
  "list_directory",
  "search_files",
  "screenshot",
];

/** `list` with item `i` moved by `by` (-1 up, +1 down), unchanged at the edges. */
export function moved<T>(list: T[], i: number, by: -1 | 1): T[] {
  const j = i + by;
  if (i < 0 || i >= list.length || j < 0 || j >= list.length) return list;
  const next = [...list];
  [next[i], next[j]] = [next[j], next[i]];
  return next;
}

/** A provider section for a detected local server, its first model chosen. */
export function providerFor(found: LocalEndpoint, base: ProviderSettings): ProviderSettings {
  return {
    ...base,
    kind: found.kind,
    baseUrl: found.baseUrl,
    model: found.models[0] ?? "",
    protocol: "auto",
  };
}

/** How a detected server is offered, in words. */
export function describeEndpoint(found: LocalEndpoint): string {
  const what = found.kind === "ollama" ? "Ollama" : "An OpenAI-compatible server";
  const models = found.models.length ? ` with ${found.models.slice(0, 3).join(", ")}` : "";
  return `${what} at ${found.baseUrl}${models}`;
}

/** One line on Zeta's own model server, for the settings panel. */
export function describeLocalServer(state: LocalServerState): string {
  switch (state.state) {
    case "stopped":
      return "Not running: Zeta starts it for the first local task.";
    case "starting":
      return `Starting (${state.program})…`;
    case "ready":
      return `Ready on 127.0.0.1:${state.port} (pid ${state.pid}), started in ${(state.startupMs / 1000).toFixed(1)} s.`;
    case "restarting":
      return `Restarting (attempt ${state.attempt}): ${state.reason}`;
    case "failed":
      return `Failed: ${state.error}`;
  }
}

/** The words the settings form shows for each field the backend can name in a problem. */
export const FIELD_LABELS: Record<string, string> = {
  "(file)": "The settings file",
  "provider.baseUrl": "Base URL",
  "provider.model": "Model",
  "provider.contextWindow": "Context window",
  fallbackProviders: "Fallback providers",
  maxIterations: "Most steps per task",
  commandTimeoutMs: "Command time limit",
  maxOutputLength: "Longest output kept",
  context: "Conversation length",
  "permissions.approvalTimeoutSecs": "Time to answer an approval",
  "permissions.defaultRateLimit": "Rate limit",
  "hotkey.pushToTalk": "Push-to-talk key",
  "voice.maxRecordingSecs": "Longest recording",
  "screenshot.maxSide": "Screenshot size",
  "screenshot.quality": "Screenshot quality",
  "undo.budgetMb": "Space for originals",
  "undo.keepDays": "Keep tasks undoable for",
};

/** A problem's message as said when saving: the fallback the loader would use
 *  ("; using …") is dropped, since nothing is saved or used. */
export function forSaving(message: string): string {
  return message.replace(/; using .*$/, "");
}

/** One line for the status beside Save: which fields stop the save, and why. */
export function problemSummary(problems: Record<string, string>): string {
  const parts = Object.entries(problems).map(([field, message]) => `${FIELD_LABELS[field] ?? field}: ${forSaving(message)}`);
  if (parts.length === 0) return "";
  return `Not saved. ${parts.join(" · ")}`;
}

/** True when the form differs from what was loaded or last saved. */
export function isChanged(form: unknown, saved: unknown): boolean {
  return JSON.stringify(form) !== JSON.stringify(saved);
}

/** The model Zeta runs itself by default (catalog name). */
export const DEFAULT_LOCAL_MODEL = "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf";

export type CloudChoice = "openai" | "anthropic" | "compatible" | "ollama";

/** The providers onboarding offers, in words. */
export const CLOUD_CHOICES: { value: CloudChoice; label: string }[] = [
  { value: "openai", label: "OpenAI" },
  { value: "anthropic", label: "Anthropic" },
  { value: "compatible", label: "Another OpenAI-compatible server" },
  { value: "ollama", label: "Ollama (on another computer)" },
];

/** The provider section a cloud choice starts from: its kind and usual address. */
export function cloudProvider(choice: CloudChoice, base: ProviderSettings): ProviderSettings {
  const start = { ...base, protocol: "auto" as const, model: "" };
  switch (choice) {
    case "openai":
      return { ...start, kind: "openai", baseUrl: "https://api.openai.com/v1" };
    case "anthropic":
      return { ...start, kind: "anthropic", baseUrl: "https://api.anthropic.com" };
    case "compatible":
      return { ...start, kind: "openai", baseUrl: "" };
    case "ollama":
      return { ...start, kind: "ollama", baseUrl: "http://127.0.0.1:11434" };
  }
}

/** A download's progress in words: "312 of 1,117 MB · about 4 min left". */
export function downloadLine(d: { received: number; total: number | null; etaSecs: number | null; resumedFrom: number }): string {
  const mb = (n: number) => Math.round(n / 1e6).toLocaleString("en");
  const size = d.total ? `${mb(d.received)} of ${mb(d.total)} MB` : `${mb(d.received)} MB`;
  const resumed = d.resumedFrom > 0 ? ` · continued from ${mb(d.resumedFrom)} MB` : "";
  let left = " · measuring the speed…";
  if (d.etaSecs !== null) left = d.etaSecs < 60 ? " · less than a minute left" : ` · about ${Math.round(d.etaSecs / 60)} min left`;
  return `${size}${resumed}${left}`;
}

/** The server install's progress in words: "4 of about 10 min · Building wheel…". */
export function setupLine(s: { line: string; elapsedSecs: number; estimateSecs: number }): string {
  const mins = (n: number) => Math.max(0, Math.round(n / 60));
  const over = s.elapsedSecs > s.estimateSecs ? " (longer than usual; it is still working)" : "";
  const line = s.line.length > 90 ? `${s.line.slice(0, 89)}…` : s.line;
  return `${mins(s.elapsedSecs)} of about ${mins(s.estimateSecs)} min${over} · ${line}`;
}

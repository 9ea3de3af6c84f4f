// The settings window's MCP section: the `mcpServers` JSON as the user edits it, and a
// server's state in words.

import type { ServerStatus } from "../bindings";

export type Parsed = { ok: true; servers: Record<string, unknown> } | { ok: false; error: string };

/** Reads the text of the servers box: an object of servers, or the whole pasted file
 * (`{"mcpServers": {...}}`, as other apps' configs are written). */
export function parseServers(text: string): Parsed {
  if (text.trim() === "") return { ok: true, servers: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `not valid JSON: ${(e as Error).message}` };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { ok: false, error: "expected an object of servers, like {\"name\": {\"command\": \"...\"}}" };
  }
  const inner = (value as Record<string, unknown>).mcpServers;
  if (inner !== undefined) {
    if (typeof inner !== "object" || inner === null || Array.isArray(inner)) {
      return { ok: false, error: "`mcpServers` is not an object of servers" };
    }
    return { ok: true, servers: inner as Record<string, unknown> };
  }
  return { ok: true, servers: value as Record<string, unknown> };
}

/** The servers as the box shows them. */
export function serversText(servers: Record<string, unknown>): string {
  return Object.keys(servers).length === 0 ? "" : JSON.stringify(servers, null, 2);
}

/** One server's state in words. */
export function describeServer(s: ServerStatus): string {
  switch (s.state.state) {
    case "ready":
      return `running (${s.tools.length} ${s.tools.length === 1 ? "tool" : "tools"})`;
    case "notStarted":
      return "starts when a task needs it";
    case "disabled":
      return "turned off";
    case "failed":
      return `failed: ${s.state.error}${s.state.restartsLeft === 0 ? " (given up)" : ""}`;
  }
}

/** The settings problems about MCP servers, as lines. */
export function serverProblems(problems: Record<string, string>): string[] {
  return Object.entries(problems)
    .filter(([field]) => field === "mcpServers" || field.startsWith("mcpServers."))
    .map(([field, message]) => `${field.replace(/^mcpServers\.?/, "") || "servers"}: ${message}`);
}

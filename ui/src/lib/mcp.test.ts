import { describe, expect, it } from "vitest";
import { describeServer, parseServers, serverProblems, serversText } from "./mcp";

describe("the MCP servers box", () => {
  it("takes an object of servers, or a whole pasted config", () => {
    const one = { files: { command: "npx", args: ["-y", "server"] } };
    expect(parseServers(JSON.stringify(one))).toEqual({ ok: true, servers: one });
    expect(parseServers(JSON.stringify({ mcpServers: one }))).toEqual({ ok: true, servers: one });
    expect(parseServers("  ")).toEqual({ ok: true, servers: {} });
    expect(serversText({})).toBe("");
    expect(parseServers(serversText(one))).toEqual({ ok: true, servers: one });
  });

  it("says what is wrong with text that is not servers", () => {
    for (const bad of ["{", "[]", "3", "null", '"files"', '{"mcpServers": []}']) {
      const parsed = parseServers(bad);
      expect(parsed.ok, bad).toBe(false);
      if (!parsed.ok) expect(parsed.error.length, bad).toBeGreaterThan(5);
    }
  });

  it("describes each state and lists the problems of the servers only", () => {
    expect(describeServer({ name: "a", target: "x", state: { state: "ready", pid: 4 }, tools: ["a__t"], descriptions: [], digest: null, reviewed: false })).toBe("running (1 tool)");
    expect(describeServer({ name: "a", target: "x", state: { state: "failed", error: "no such file", restartsLeft: 0 }, tools: [], descriptions: [], digest: null, reviewed: false })).toBe("failed: no such file (given up)");
    expect(describeServer({ name: "a", target: "x", state: { state: "notStarted" }, tools: [], descriptions: [], digest: null, reviewed: false })).toContain("when a task needs it");
    expect(serverProblems({ "mcpServers.bad.url": "not http", maxIterations: "too big", mcpServers: "not an object" })).toEqual([
      "bad.url: not http",
      "servers: not an object",
    ]);
  });
});

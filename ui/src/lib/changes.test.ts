import { describe, expect, it } from "vitest";
import { diffLines, fileLine, summary } from "./changes";
import type { TaskChanges } from "../bindings";

const changes = (n: number): TaskChanges => ({
  taskId: 1,
  files: Array.from({ length: n }, (_, i) => ({ path: `/h/f${i}`, kind: "created", from: null, diff: null, note: null })),
  canUndo: n > 0,
  canRedo: false,
  notUndoable: [],
});

describe("a task's file changes in words", () => {
  it("counts files, one or many, and says nothing for none", () => {
    expect(summary(changes(0))).toBeNull();
    expect(summary(changes(1))).toBe("Changed 1 file");
    expect(summary(changes(3))).toBe("Changed 3 files");
  });

  it("names a move from where to where, in the home as ~", () => {
    const line = fileLine({ path: "/home/sam/b.csv", kind: "moved", from: "/home/sam/a.csv", diff: null, note: null }, "/home/sam");
    expect(line).toBe("moved ~/a.csv → ~/b.csv");
    const other = fileLine({ path: "/tmp/x", kind: "deleted", from: null, diff: null, note: "4 bytes" }, "/home/sam");
    expect(other).toBe("deleted /tmp/x (4 bytes)");
  });

  it("marks a diff's lines and drops its file headers", () => {
    const lines = diffLines("--- a (before)\n+++ a (now)\n@@ -1 +1 @@\n-draft\n+final\n same\n");
    expect(lines.map((l) => l.kind)).toEqual(["hunk", "remove", "add", "context"]);
    expect(lines[1].text).toBe("-draft");
  });
});

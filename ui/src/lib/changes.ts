// What a finished task changed on disk, in the chat's words: the summary line, each
// file's line, and a unified diff split into lines marked added, removed or context.

import type { ChangeKind } from "../bindings";
import type { FileChange } from "../bindings";
import type { TaskChanges } from "../bindings";

/** "Changed 3 files", or null when the task changed none. */
export function summary(changes: TaskChanges): string | null {
  const n = changes.files.length;
  if (n === 0) return null;
  return `Changed ${n} ${n === 1 ? "file" : "files"}`;
}

const WORDS: Record<ChangeKind, string> = {
  created: "created",
  changed: "changed",
  deleted: "deleted",
  moved: "moved",
  permissions: "permissions changed",
};

/** One file's line: "moved ~/a.csv → ~/b.csv", "changed ~/notes.txt (4 bytes → 9 bytes)". */
export function fileLine(file: FileChange, home = ""): string {
  const short = (p: string) => (home && p.startsWith(home + "/") ? "~" + p.slice(home.length) : p);
  const what = file.from ? `${short(file.from)} → ${short(file.path)}` : short(file.path);
  return `${WORDS[file.kind]} ${what}${file.note ? ` (${file.note})` : ""}`;
}

export type DiffLine = { text: string; kind: "add" | "remove" | "hunk" | "context" };

/** A unified diff as lines to colour; the two header lines are left out. */
export function diffLines(diff: string): DiffLine[] {
  return diff
    .split("\n")
    .filter((line) => !line.startsWith("+++ ") && !line.startsWith("--- "))
    .filter((line, i, all) => line !== "" || i < all.length - 1)
    .map((text) => ({
      text,
      kind: text.startsWith("@@") ? "hunk" : text.startsWith("+") ? "add" : text.startsWith("-") ? "remove" : "context",
    }));
}

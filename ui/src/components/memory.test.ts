// @vitest-environment jsdom
// The Memory view against a stand-in for the backend's IPC: it lists facts, the summary
// and jobs, and Forget / Remove call the backend with the right id.
import { flushSync, mount, tick, unmount } from "svelte";
import { describe, expect, it, vi } from "vitest";

const calls: [string, unknown][] = [];
const view = {
  facts: [{ id: 7, text: "Backups go to /mnt/vault", tags: "backup", taskId: 1, createdAt: 0 }],
  summary: "Task 1: asked about backups",
  jobs: [{ id: 3, spec: "cron:0 9 * * 1-5", message: "morning report", nextRunAt: 0, lastRunAt: null, enabled: true }],
};
vi.mock("@tauri-apps/api/core", () => ({
  invoke: async (cmd: string, args: unknown) => {
    calls.push([cmd, args]);
    if (cmd === "forget_fact") return { ...view, facts: [] };
    return view;
  },
}));

describe("MemoryPanel", () => {
  it("shows what is remembered and scheduled, and forgets on request", async () => {
    const { default: MemoryPanel } = await import("./MemoryPanel.svelte");
    const target = document.createElement("div");
    document.body.appendChild(target);
    const app = mount(MemoryPanel, { target, props: {} });
    await vi.waitFor(() => expect(target.querySelectorAll("[data-testid=fact]")).toHaveLength(1));
    expect(target.textContent).toContain("Task 1: asked about backups");
    expect(target.querySelector("[data-testid=job]")?.textContent).toContain("on weekdays at 09:00");
    (target.querySelector("[data-testid=fact] button") as HTMLButtonElement).click();
    await tick();
    await vi.waitFor(() => expect(target.querySelectorAll("[data-testid=fact]")).toHaveLength(0));
    flushSync();
    expect(calls).toContainEqual(["forget_fact", { id: 7 }]);
    unmount(app);
  });
});

// @vitest-environment jsdom
// The components, mounted in a DOM: what they show for given data, and what a click does.
import { flushSync, mount, unmount } from "svelte";
import { afterEach, describe, expect, it } from "vitest";
import Activity from "./Activity.svelte";
import Markdown from "./Markdown.svelte";
import Metrics from "./Metrics.svelte";
import type { LiveStep } from "../lib/queue";

let mounted: Record<string, unknown>[] = [];
afterEach(() => {
  for (const m of mounted) unmount(m);
  mounted = [];
  document.body.innerHTML = "";
});

function render(component: any, props: Record<string, unknown>): HTMLElement {
  const target = document.createElement("div");
  document.body.appendChild(target);
  mounted.push(mount(component, { target, props }));
  flushSync();
  return target;
}

const step = (over: Partial<LiveStep>): LiveStep => ({
  callId: "c1", tool: "shell", arguments: { command: "ls -la" }, iteration: 1, startedAt: 0,
  output: "", images: [], ...over,
});

describe("Activity", () => {
  it("shows each call with its status, duration, output and the cut marker", () => {
    const el = render(Activity, {
      steps: [
        step({ finishedAt: 400, ok: true, summary: "exit 0", output: "a\n[… 90 bytes cut …]\nb" }),
        step({ callId: "c2", tool: "read_file", arguments: { path: "/x" }, iteration: 2 }),
      ],
    });
    const items = el.querySelectorAll("[data-testid=activity-step]");
    expect(items).toHaveLength(2);
    expect(items[0].getAttribute("data-ok")).toBe("true");
    expect(items[0].textContent).toContain("✓ shell ls -la");
    expect(items[0].textContent).toContain("0.4 s");
    expect(items[0].querySelector("[data-testid=truncated]")).not.toBeNull();
    expect(items[1].getAttribute("data-ok")).toBe("running");
    expect(items[1].textContent).toContain("running");
  });

  it("opens a screenshot full size and closes it", () => {
    const el = render(Activity, { steps: [step({ ok: true, finishedAt: 1, images: ["data:image/png;base64,AA"] })] });
    expect(el.querySelector(".overlay")).toBeNull();
    (el.querySelector("button.thumb") as HTMLButtonElement).click();
    flushSync();
    expect(el.querySelector(".overlay img")?.getAttribute("src")).toBe("data:image/png;base64,AA");
    (el.querySelector(".overlay .close") as HTMLButtonElement).click();
    flushSync();
    expect(el.querySelector(".overlay")).toBeNull();
  });
});

describe("Markdown", () => {
  it("renders markdown, adds copy buttons to code, and shows scripts and images as text", () => {
    const el = render(Markdown, {
      text: "Done **now**.\n\n```\nls -la\n```\n<script>alert(1)</script><img src=http://evil/x.png onerror=alert(1)>",
    });
    expect(el.querySelector("strong")?.textContent).toBe("now");
    expect(el.querySelector("pre button.copy")?.textContent).toBe("Copy");
    expect(el.querySelector("script")).toBeNull();
    expect(el.querySelector("img")).toBeNull();
    const handlers = [...el.querySelectorAll("*")].flatMap((e) => e.getAttributeNames().filter((a) => a.startsWith("on")));
    expect(handlers).toEqual([]);
    expect(el.textContent).toContain("<script>alert(1)</script>");
  });
});

describe("Metrics", () => {
  it("lists each task and the totals", () => {
    const m = (taskId: number) => ({
      taskId, llmRequests: 3, llmFailures: 1, toolCalls: 2, toolFailures: 0, denials: 1, compactions: 0, tokensIn: 50, tokensOut: 5,
    });
    const el = render(Metrics, { live: { 1: m(1), 2: m(2) } });
    expect(el.querySelectorAll("[data-testid=metrics-row]")).toHaveLength(2);
    const cells = [...(el.querySelector(".total")?.querySelectorAll("td") ?? [])].map((td) => td.textContent);
    expect(cells).toEqual(["All 2", "6", "2", "4", "0", "2", "0", "100", "10"]);
  });
});

describe("QueuePanel", () => {
  it("offers cancel for waiting and running tasks, retry for failed ones, a transcript for all", async () => {
    const { default: QueuePanel } = await import("./QueuePanel.svelte");
    const t = (id: number, status: string) => ({
      id, sender: "chat", message: `task ${id}`, status, createdAt: Date.now(), startedAt: null, finishedAt: null,
      previousContext: null, reply: null, error: status === "failed" ? "boom" : null,
    });
    const el = render(QueuePanel, {
      tasks: [t(1, "done"), t(2, "failed"), t(3, "running"), t(4, "pending")],
      activity: {},
    });
    const rows = [...el.querySelectorAll("tbody tr")];
    expect(rows.map((r) => r.getAttribute("data-task-id"))).toEqual(["4", "3", "2", "1"]);
    const buttons = (id: string) =>
      [...el.querySelectorAll(`tr[data-task-id="${id}"] button`)].map((b) => b.textContent?.trim());
    expect(buttons("4")).toEqual(["Cancel", "Transcript"]);
    expect(buttons("3")).toEqual(["Cancel", "Transcript"]);
    expect(buttons("2")).toEqual(["Retry", "Transcript"]);
    expect(buttons("1")).toEqual(["Transcript"]);
  });
});

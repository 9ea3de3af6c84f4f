// @vitest-environment jsdom
// A reply as it streams: settled blocks keep their DOM (rendered once), the tail follows.
import { flushSync, mount, unmount } from "svelte";
import { afterEach, describe, expect, it } from "vitest";
import StreamedMarkdown from "./StreamedMarkdown.svelte";
import { appendStream, EMPTY_STREAM, renderMarkdown, type Stream } from "../lib/markdown";

let mounted: Record<string, unknown>[] = [];
afterEach(() => {
  for (const m of mounted) unmount(m);
  mounted = [];
  document.body.innerHTML = "";
});

describe("StreamedMarkdown", () => {
  it("keeps the settled blocks' elements while the tail grows, and renders markdown", () => {
    // The first block settles once the next block's first line is whole.
    const props = $state({ stream: appendStream(EMPTY_STREAM, "First **bold** paragraph.\n\nSecond line") });
    const target = document.createElement("div");
    document.body.appendChild(target);
    mounted.push(mount(StreamedMarkdown, { target, props }));
    flushSync();
    expect(target.querySelector("p")?.innerHTML).toBe("First <strong>bold</strong> paragraph.");
    props.stream = appendStream(props.stream, " goes on.\n");
    flushSync();
    const first = target.querySelector("p");
    for (const piece of ["\n```sh\nls -la\n\n", "echo hi\n```\n\nDone."]) {
      props.stream = appendStream(props.stream, piece);
      flushSync();
      // The first paragraph is the same element: it was not rendered again.
      expect(target.querySelector("p")).toBe(first);
    }
    const code = target.querySelector("pre code");
    expect(code?.textContent).toBe("ls -la\n\necho hi\n");
    expect([...target.querySelectorAll("p")].map((p) => p.textContent)).toEqual([
      "First bold paragraph.",
      "Second line goes on.",
      "Done.",
    ]);
  });

  it("shows, delta by delta and across a new step's stream, what the whole text renders to", () => {
    const replies = [
      "Intro **bold**.\n\n- one\n- two\n\n```sh\nls\n\necho\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nEnd.",
      "# Next step\n\n1. first\n2. second\n\n> quoted\n\nDone <b>x</b>.",
    ];
    const props = $state({ stream: EMPTY_STREAM as Stream });
    const target = document.createElement("div");
    document.body.appendChild(target);
    mounted.push(mount(StreamedMarkdown, { target, props }));
    const whole = (text: string) => {
      const box = document.createElement("div");
      box.append(renderMarkdown(text));
      return box.innerHTML;
    };
    let steps = 0;
    for (const reply of replies) {
      props.stream = EMPTY_STREAM;
      flushSync();
      for (let at = 0; at < reply.length; at += 3) {
        props.stream = appendStream(props.stream, reply.slice(at, at + 3));
        flushSync();
        const prefix = reply.slice(0, at + 3);
        const shown = (target.querySelector(".markdown")?.innerHTML ?? "").replace(/>\s+</g, "><");
        expect(shown, JSON.stringify(prefix)).toBe(whole(prefix.trim() === "" ? "" : prefix).replace(/>\s+</g, "><"));
        steps++;
      }
    }
    expect(steps).toBeGreaterThan(40);
  });
});

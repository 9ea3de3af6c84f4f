// @vitest-environment jsdom
// A reply as it streams: settled blocks keep their DOM (rendered once), the tail follows.
import { flushSync, mount, unmount } from "svelte";
import { afterEach, describe, expect, it } from "vitest";
import StreamedMarkdown from "./StreamedMarkdown.svelte";
import { appendStream, EMPTY_STREAM } from "../lib/markdown";

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
});

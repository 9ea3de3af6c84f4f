// @vitest-environment jsdom
// splitStreamed against generated replies: every prefix of every document, as a stream
// delivers them. What must hold: blocks once settled never change, nothing is lost or
// repeated, and no settled block ends inside a code fence.
import { describe, expect, it } from "vitest";
import { appendStream, EMPTY_STREAM, renderMarkdown, splitStreamed, type Stream } from "./markdown";

// A small deterministic generator (no dependency): xorshift.
function rng(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

const PIECES = [
  "Some text.", "**bold** and `code`", "- item one", "- item two", "1. first", "> quoted",
  "# Heading", "", "", "   ", "```", "```sh", "~~~", "````", "  ```", "    indented code",
  "ls -la | sort -k5 -n", "| a | b |", "|---|---|", "line with ``` inside", "\t", "done",
];

function doc(random: () => number): string {
  const n = 1 + Math.floor(random() * 14);
  return Array.from({ length: n }, () => PIECES[Math.floor(random() * PIECES.length)]).join("\n");
}

function fencesOpen(block: string): boolean {
  let fence: string | null = null;
  for (const line of block.split("\n")) {
    const m = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (!m) continue;
    if (fence === null) fence = m;
    else if (m[0] === fence[0] && m.length >= fence.length && line.trim() === m) fence = null;
  }
  return fence !== null;
}

describe("splitStreamed", () => {
  it("settles paragraphs and keeps a fence with blank lines whole", () => {
    expect(splitStreamed("a\n\nb\n")).toEqual({ settled: ["a"], tail: "b\n" });
    expect(splitStreamed("a\n\nb")).toEqual({ settled: [], tail: "a\n\nb" });
    expect(splitStreamed("a\n")).toEqual({ settled: [], tail: "a\n" });
    // A block settles once the next one's first line is whole.
    expect(splitStreamed("a\n\n")).toEqual({ settled: [], tail: "a\n\n" });
    expect(splitStreamed("- a\n\n- b\n")).toEqual({ settled: [], tail: "- a\n\n- b\n" });
    expect(splitStreamed("- a\n\nb\n")).toEqual({ settled: ["- a"], tail: "b\n" });
    expect(splitStreamed("```\nx\n\ny\n```\n\nz\n")).toEqual({ settled: ["```\nx\n\ny\n```"], tail: "z\n" });
    expect(splitStreamed("```\nx\n\ny")).toEqual({ settled: [], tail: "```\nx\n\ny" });
    expect(splitStreamed("~~~\n```\n\n~~~\n\nz\n").settled).toEqual(["~~~\n```\n\n~~~"]);
    expect(splitStreamed("")).toEqual({ settled: [], tail: "" });
  });

  it("holds its invariants on every prefix of 400 generated replies", () => {
    const random = rng(7);
    let prefixes = 0;
    for (let d = 0; d < 400; d++) {
      const text = doc(random);
      let before: string[] = [];
      for (let cut = 0; cut <= text.length; cut++) {
        const prefix = text.slice(0, cut);
        const { settled, tail } = splitStreamed(prefix);
        prefixes++;
        // Settled blocks only grow: a block rendered once is never different later.
        expect(settled.slice(0, before.length), JSON.stringify(prefix)).toEqual(before);
        before = settled;
        // Nothing lost or repeated: the blocks and the tail are the text in order, with
        // only blank lines between them.
        let at = 0;
        for (const block of settled) {
          const found = prefix.indexOf(block, at);
          expect(found, JSON.stringify(prefix)).toBeGreaterThanOrEqual(at);
          expect(prefix.slice(at, found).trim()).toBe("");
          expect(block.trim()).not.toBe("");
          expect(fencesOpen(block), JSON.stringify(block)).toBe(false);
          at = found + block.length;
        }
        expect(prefix.endsWith(tail)).toBe(true);
        expect(prefix.slice(at, prefix.length - tail.length).trim()).toBe("");
      }
    }
    expect(prefixes).toBeGreaterThan(20000);
  });
});

/** HTML compared as a person sees it: the whitespace between tags does not show. */
function shown(html: string): string {
  return html.replace(/>\s+</g, "><").trim();
}

describe("the streamed rendering", () => {
  it("gives the HTML of rendering the whole text, on every prefix of 150 generated replies", { timeout: 60_000 }, () => {
    const random = rng(11);
    let prefixes = 0;
    const misses: string[] = [];
    for (let d = 0; d < 150; d++) {
      const text = doc(random);
      for (let cut = 0; cut <= text.length; cut++) {
        const prefix = text.slice(0, cut);
        const { settled, tail } = splitStreamed(prefix);
        const streamed = [...settled, tail].map((part) => renderMarkdown(part)).join("");
        prefixes++;
        if (shown(streamed) !== shown(renderMarkdown(prefix))) misses.push(prefix);
      }
    }
    expect(misses.slice(0, 3).map((m) => JSON.stringify(m)), `${misses.length} of ${prefixes} prefixes differ`).toEqual([]);
  });
});

describe("the stream as the chat holds it", () => {
  it("delta by delta, gives the HTML of rendering the whole text so far, on 150 generated replies", { timeout: 60_000 }, () => {
    const random = rng(23);
    let steps = 0;
    const misses: string[] = [];
    for (let d = 0; d < 150; d++) {
      const text = doc(random);
      let stream: Stream = EMPTY_STREAM;
      let at = 0;
      while (at < text.length) {
        // Deltas of 1 to 12 characters, as a model's tokens arrive.
        const size = 1 + Math.floor(random() * 12);
        const delta = text.slice(at, at + size);
        at += delta.length;
        const before = stream.settled;
        stream = appendStream(stream, delta);
        steps++;
        // Settled blocks are kept as they were (the same strings: never rendered again).
        for (let i = 0; i < before.length; i++) expect(stream.settled[i]).toBe(before[i]);
        const prefix = text.slice(0, at);
        const streamed = [...stream.settled, stream.tail].map((part) => renderMarkdown(part)).join("");
        if (shown(streamed) !== shown(renderMarkdown(prefix))) misses.push(prefix);
      }
    }
    expect(misses.slice(0, 3).map((m) => JSON.stringify(m)), `${misses.length} of ${steps} steps differ`).toEqual([]);
  });
});

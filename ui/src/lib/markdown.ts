// Agent replies as markdown: parsed with marked, then sanitised with DOMPurify, so a reply
// (which may quote web pages or files) can never inject script or remote content.

import DOMPurify from "dompurify";
import { marked } from "marked";

/** Safe HTML for `text`. Links open nowhere (the app shows no remote content). */
export function renderMarkdown(text: string): string {
  const html = marked.parse(text, { async: false, gfm: true, breaks: true });
  return DOMPurify.sanitize(html, {
    FORBID_TAGS: ["style", "img", "iframe", "form", "input"],
    FORBID_ATTR: ["style"],
  });
}

/**
 * A reply still streaming, cut where it can no longer change: `settled` are whole blocks
 * (ended by a blank line outside a code fence, where marked's own lexer also ends a
 * block: a list whose items are apart is one block), `tail` is what is still being
 * written. Each settled block is rendered once; only the tail is rendered again on each
 * delta, so a long reply costs the renderer its growing tail, not its whole length per
 * delta, and the parts render as the whole text would.
 */
export function splitStreamed(text: string): { settled: string[]; tail: string } {
  // Where marked's top-level blocks start and end: a cut between two of them is safe.
  const spans: [number, number][] = [];
  let at = 0;
  for (const token of marked.lexer(text, { gfm: true, breaks: true })) {
    spans.push([at, at + token.raw.length]);
    at += token.raw.length;
  }
  const tokenAt = (offset: number) => spans.findIndex(([a, b]) => offset >= a && offset < b);
  const settled: string[] = [];
  let fence: string | null = null;
  let start = 0;
  let offset = 0;
  const lines = text.split("\n");
  lines.forEach((line, i) => {
    const end = offset + line.length;
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker) {
      if (fence === null) fence = marker;
      else if (marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker)
        fence = null;
    }
    // A blank line outside a fence, with more text after it, ends a block, unless the
    // lexer reads the text on both sides of it as one block.
    // The next block counts only once its first line is whole (what it is, and how far
    // it is indented, is then known: "1" may yet become "1. item" of the list above).
    const rest = text.slice(end + 1);
    const firstLine = /^[ \t]*\n/.test(rest) ? "" : rest.trimStart();
    const begun = firstLine.trim() !== "" && firstLine.includes("\n");
    if (fence === null && line.trim() === "" && i < lines.length - 1 && begun) {
      const block = text.slice(start, offset).trimEnd();
      const next = end + 1 + (rest.length - rest.trimStart().length);
      const blockEnd = start + block.length;
      const apart = block.trim() === "" || tokenAt(blockEnd - 1) !== tokenAt(next) || tokenAt(next) === -1;
      if (apart) {
        if (block.trim() !== "") settled.push(block);
        start = end + 1;
      }
    }
    offset = end + 1;
  });
  return { settled, tail: text.slice(Math.min(start, text.length)) };
}

/** A reply as it streams: its settled blocks and the tail still being written. */
export interface Stream {
  settled: string[];
  tail: string;
}

export const EMPTY_STREAM: Stream = { settled: [], tail: "" };

/**
 * `stream` with `delta` written on. Only the tail and the delta are split again: a long
 * reply costs each delta its tail, never its whole length (the whole text is never even
 * joined), and blocks once settled are the same objects from then on.
 */
export function appendStream(stream: Stream, delta: string): Stream {
  const part = splitStreamed(stream.tail + delta);
  if (part.settled.length === 0) return { settled: stream.settled, tail: part.tail };
  return { settled: [...stream.settled, ...part.settled], tail: part.tail };
}

/** Whether anything was streamed yet. */
export function streamShows(stream: Stream): boolean {
  return stream.settled.length > 0 || stream.tail.trim() !== "";
}

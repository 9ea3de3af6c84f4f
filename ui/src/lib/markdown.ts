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
 * (ended by a blank line outside a code fence), `tail` is what is still being written.
 * Each settled block is rendered once; only the tail is rendered again on each delta, so
 * a long reply costs the renderer its growing tail, not its whole length per delta.
 */
export function splitStreamed(text: string): { settled: string[]; tail: string } {
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
    // A blank line outside a fence, with more text after it, ends a block.
    if (fence === null && line.trim() === "" && i < lines.length - 1) {
      const block = text.slice(start, offset).trimEnd();
      if (block !== "" && block.trim() !== "") settled.push(block);
      start = end + 1;
    }
    offset = end + 1;
  });
  return { settled, tail: text.slice(Math.min(start, text.length)) };
}

// Agent replies as markdown: lexed with marked, then built into elements from its tokens,
// never through HTML. A reply (which may quote web pages or files) can so never inject
// script, styles or remote content: only the elements and attributes below are ever
// made, text goes in as text, and HTML written in a reply shows as the text it is.

import { marked, type Token, type Tokens } from "marked";

const OPTIONS = { gfm: true, breaks: true } as const;

/** Link targets that may be kept (the window opens none: the navigation guard). */
const SAFE_HREF = /^(https?:|mailto:)/i;

/** `text` rendered, as nodes of `doc` (the chat's document unless told). */
export function renderMarkdown(text: string, doc: Document = document): DocumentFragment {
  return new Builder(doc).blocks(marked.lexer(text, OPTIONS));
}

/** Builds elements from marked's tokens. */
class Builder {
  constructor(private readonly doc: Document) {}

  blocks(tokens: Token[], loose = true): DocumentFragment {
    const out = this.doc.createDocumentFragment();
    for (const token of tokens) out.append(this.block(token, loose));
    return out;
  }

  inline(tokens: Token[] | undefined, fallback: string): DocumentFragment {
    const out = this.doc.createDocumentFragment();
    if (!tokens) out.append(this.text(fallback));
    else for (const token of tokens) out.append(this.span(token));
    return out;
  }

  el(tag: string, ...children: (Node | string)[]): HTMLElement {
    const element = this.doc.createElement(tag);
    element.append(...children);
    return element;
  }

  /** Text as written; character references (`&amp;`) read as markdown reads them. */
  text(s: string): Text {
    return this.doc.createTextNode(s.includes("&") ? decodeReferences(this.doc, s) : s);
  }

  block(token: Token, loose: boolean): Node {
    const t = token as Tokens.Generic;
    switch (token.type) {
      case "space":
      case "def":
        return this.doc.createDocumentFragment();
      case "heading":
        return this.el(`h${Math.min(Math.max(Number(t.depth) || 1, 1), 6)}`, this.inline(t.tokens, t.text));
      case "paragraph":
        return this.el("p", this.inline(t.tokens, t.text));
      case "text":
        // A tight list item's text has no paragraph of its own.
        return loose ? this.el("p", this.inline(t.tokens, t.text)) : this.inline(t.tokens, t.text);
      case "code":
        return this.code(token as Tokens.Code);
      case "blockquote":
        return this.el("blockquote", this.blocks(t.tokens ?? []));
      case "hr":
        return this.el("hr");
      case "list":
        return this.list(token as Tokens.List);
      case "table":
        return this.table(token as Tokens.Table);
      default:
        // HTML blocks and anything unknown show as written.
        return this.el("p", this.text(t.raw));
    }
  }

  code(token: Tokens.Code): HTMLElement {
    const code = this.el("code", this.doc.createTextNode(`${token.text.replace(/\n$/, "")}\n`));
    const lang = /^[\w+-]+/.exec(token.lang ?? "")?.[0];
    if (lang) code.className = `language-${lang}`;
    const copy = this.el("button", "Copy");
    copy.setAttribute("type", "button");
    copy.className = "copy";
    copy.setAttribute("aria-label", "Copy this code");
    copy.addEventListener("click", () => {
      void navigator.clipboard?.writeText(token.text).then(
        () => (copy.textContent = "Copied"),
        () => (copy.textContent = "Copy failed"),
      );
    });
    return this.el("pre", copy, code);
  }

  list(token: Tokens.List): HTMLElement {
    const list = this.el(token.ordered ? "ol" : "ul");
    if (token.ordered && typeof token.start === "number" && token.start !== 1) list.setAttribute("start", String(token.start));
    for (const item of token.items) {
      const li = this.el("li");
      for (const part of item.tokens) {
        if (part.type === "checkbox") li.append(this.text((part as Tokens.Checkbox).checked ? "☑ " : "☐ "));
        else li.append(this.block(part, item.loose));
      }
      list.append(li);
    }
    return list;
  }

  table(token: Tokens.Table): HTMLElement {
    const cell = (tag: string, c: Tokens.TableCell) => {
      const element = this.el(tag, this.inline(c.tokens, c.text));
      if (c.align) element.setAttribute("align", c.align);
      return element;
    };
    const head = this.el("thead", this.el("tr", ...token.header.map((c) => cell("th", c))));
    const table = this.el("table", head);
    if (token.rows.length > 0) table.append(this.el("tbody", ...token.rows.map((row) => this.el("tr", ...row.map((c) => cell("td", c))))));
    return table;
  }

  span(token: Token): Node {
    const t = token as Tokens.Generic;
    switch (token.type) {
      case "text":
      case "escape":
        return t.tokens ? this.inline(t.tokens, t.text) : this.text(t.text);
      case "strong":
        return this.el("strong", this.inline(t.tokens, t.text));
      case "em":
        return this.el("em", this.inline(t.tokens, t.text));
      case "del":
        return this.el("del", this.inline(t.tokens, t.text));
      case "codespan":
        return this.el("code", this.doc.createTextNode(t.text));
      case "br":
        return this.el("br");
      case "link": {
        const link = token as Tokens.Link;
        if (!SAFE_HREF.test(link.href.trim())) return this.inline(link.tokens, link.text);
        const a = this.el("a", this.inline(link.tokens, link.text));
        a.setAttribute("href", link.href.trim());
        if (link.title) a.setAttribute("title", link.title);
        return a;
      }
      case "image":
        // No remote content: an image shows as its description.
        return this.text(t.text);
      case "html":
        // A line break is the one tag a reply's table may need; any other shows as text.
        return /^<br\s*\/?>$/i.test(t.text.trim()) ? this.el("br") : this.doc.createTextNode(t.raw);
      default:
        return this.doc.createTextNode(t.raw);
    }
  }
}

/** `s` with its character references read (`&amp;` → `&`), as text: RCDATA makes no
 * element of what it parses. */
function decodeReferences(doc: Document, s: string): string {
  const area = doc.createElement("textarea");
  area.innerHTML = s;
  return area.value;
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

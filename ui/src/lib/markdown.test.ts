// @vitest-environment jsdom
// splitStreamed against generated replies: every prefix of every document, as a stream
// delivers them. What must hold: blocks once settled never change, nothing is lost or
// repeated, and no settled block ends inside a code fence.
import { marked } from "marked";
import { describe, expect, it } from "vitest";
import { appendStream, EMPTY_STREAM, renderMarkdown, splitStreamed, type Stream } from "./markdown";

/** The HTML of `text` rendered. */
function html(text: string): string {
  const box = document.createElement("div");
  box.append(renderMarkdown(text));
  return box.innerHTML;
}

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

  it("holds its invariants on every prefix of 400 generated replies", { timeout: 60_000 }, () => {
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
        const streamed = [...settled, tail].map((part) => html(part)).join("");
        prefixes++;
        if (shown(streamed) !== shown(html(prefix))) misses.push(prefix);
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
        const streamed = [...stream.settled, stream.tail].map((part) => html(part)).join("");
        if (shown(streamed) !== shown(html(prefix))) misses.push(prefix);
      }
    }
    expect(misses.slice(0, 3).map((m) => JSON.stringify(m)), `${misses.length} of ${steps} steps differ`).toEqual([]);
  });
});

/** What marked's own HTML renderer makes of `text`, as the browser parses it. */
function markedHtml(text: string): string {
  const box = document.createElement("div");
  box.innerHTML = marked.parse(text, { async: false, gfm: true, breaks: true });
  return box.innerHTML;
}

/** Ours without the Copy buttons (marked makes none). */
function withoutButtons(text: string): string {
  const box = document.createElement("div");
  box.append(renderMarkdown(text));
  for (const b of box.querySelectorAll("button.copy")) b.remove();
  return box.innerHTML;
}

// Markdown a model writes, without raw HTML, images, task boxes or entities: there the
// built elements must be what marked's own renderer gives.
const RICH = [
  "# Title", "## Sub *it*", "Text with **bold**, *em*, ~~gone~~ and `code`.", "- a\n- b\n  - nested",
  "1. one\n2. two", "3. three\n4. four", "- loose\n\n- items", "> quote\n> more", "---",
  "```python\nprint(1 < 2)\n```", "    indented", "| a | b |\n|:--|--:|\n| 1 | **2** |", "[site](https://example.com \"T\")",
  "<https://example.com>", "line one\nline two", "a\\*b", "", "done",
];

describe("the built elements", () => {
  it("are marked's own HTML on 600 generated replies", () => {
    const random = rng(5);
    const misses: string[] = [];
    for (let d = 0; d < 600; d++) {
      const n = 1 + Math.floor(random() * 8);
      const text = Array.from({ length: n }, () => RICH[Math.floor(random() * RICH.length)]).join(random() < 0.5 ? "\n\n" : "\n");
      if (shown(withoutButtons(text)) !== shown(markedHtml(text))) misses.push(text);
    }
    expect(misses.slice(0, 3), `${misses.length} of 600 differ`).toEqual([]);
  });

  it("give each code block a Copy button and keep the code's text", () => {
    const box = document.createElement("div");
    box.append(renderMarkdown("```sh\nls -la\n```"));
    expect(box.querySelector("pre button.copy")?.textContent).toBe("Copy");
    expect(box.querySelector("pre code")?.textContent).toBe("ls -la\n");
    expect(box.querySelector("pre code")?.className).toBe("language-sh");
  });
});

// Hostile replies: what a web page or a file quoted in a reply may hold, in every place
// markdown can carry it. Whatever the input, only these elements and attributes exist.
const ELEMENTS = new Set(["P", "H1", "H2", "H3", "H4", "H5", "H6", "STRONG", "EM", "DEL", "CODE", "PRE", "BUTTON",
  "BLOCKQUOTE", "HR", "UL", "OL", "LI", "TABLE", "THEAD", "TBODY", "TR", "TH", "TD", "A", "BR"]);
const ATTRIBUTES = new Set(["href", "title", "align", "start", "class", "type", "aria-label"]);

const PAYLOADS = [
  "<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "<iframe src=https://evil.example></iframe>",
  "<style>body{display:none}</style>", "<svg onload=alert(1)>", "<a href=\"javascript:alert(1)\">x</a>",
  "<div onclick=\"alert(1)\">click</div>", "<form action=https://evil.example><input name=p></form>",
  "<object data=x></object>", "<link rel=stylesheet href=https://evil.example/a.css>", "<meta http-equiv=refresh content=0>",
  "<base href=https://evil.example/>", "<math><mi xlink:href=\"javascript:alert(1)\">x</mi></math>", "<body onload=alert(1)>",
  "<video src=x onerror=alert(1)>", "<details open ontoggle=alert(1)>", "<p style=\"background:url(https://evil.example)\">s</p>",
  "</p><script>alert(1)</script>", "<scr<script>ipt>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;",
  "<!-- <script>alert(1)</script> -->", "<![CDATA[<script>alert(1)</script>]]>", "<noscript><p title=\"</noscript><img src=x onerror=alert(1)>\">",
];
const PLACES: ((p: string) => string)[] = [
  (p) => p, (p) => `text ${p} text`, (p) => `**${p}**`, (p) => `- ${p}`, (p) => `> ${p}`, (p) => `# ${p}`,
  (p) => `| a |\n|---|\n| ${p} |`, (p) => `[${p}](https://example.com)`, (p) => `[x](javascript:alert(1) "${p}")`,
  (p) => `![${p}](https://evil.example/x.png)`, (p) => `\`${p}\``, (p) => `\`\`\`\n${p}\n\`\`\``, (p) => `${p}\n\nafter`,
  (p) => `[x](${p})`, (p) => `<${p}>`, (p) => `1. ${p}\n2. two`, (p) => `- [x] ${p}`,
];
const LINKS = ["javascript:alert(1)", "JaVaScRiPt:alert(1)", " javascript:alert(1)", "data:text/html,<script>alert(1)</script>",
  "vbscript:msgbox(1)", "file:///etc/passwd", "java\tscript:alert(1)", "//evil.example/x", "https://example.com/ok"];

function unsafe(box: HTMLElement): string | null {
  for (const e of box.querySelectorAll("*")) {
    if (!ELEMENTS.has(e.tagName)) return `element ${e.tagName}`;
    for (const a of e.getAttributeNames()) {
      if (!ATTRIBUTES.has(a)) return `attribute ${a} on ${e.tagName}`;
      if (a === "href" && !/^(https?:|mailto:)/i.test(e.getAttribute(a) ?? "")) return `href ${e.getAttribute(a)}`;
    }
  }
  return null;
}

describe("hostile replies", () => {
  it("make no element or attribute outside the allowed ones, in every place, and fuzzed", () => {
    const cases: string[] = [];
    for (const p of PAYLOADS) for (const place of PLACES) cases.push(place(p));
    for (const href of LINKS) for (const text of ["x", "**x**"]) cases.push(`[${text}](${href})`, `<${href}>`, `[r]: ${href}\n\n[${text}][r]`);
    // Fuzz: payloads and markdown pieces cut and joined at random.
    const random = rng(13);
    const pieces = [...PAYLOADS, ...PIECES, ...RICH, "<", ">", "\"", "'", "=", "onerror", "javascript:", "&#106;avascript:"];
    for (let i = 0; i < 3000; i++) {
      const n = 1 + Math.floor(random() * 6);
      cases.push(Array.from({ length: n }, () => {
        const piece = pieces[Math.floor(random() * pieces.length)];
        const a = Math.floor(random() * piece.length);
        return random() < 0.3 ? piece.slice(a) : piece;
      }).join(random() < 0.5 ? "" : "\n"));
    }
    const misses: string[] = [];
    for (const text of cases) {
      const box = document.createElement("div");
      box.append(renderMarkdown(text));
      const bad = unsafe(box);
      if (bad) misses.push(`${bad}: ${JSON.stringify(text)}`);
    }
    expect(cases.length).toBeGreaterThan(3400);
    expect(misses.slice(0, 3), `${misses.length} of ${cases.length} unsafe`).toEqual([]);
  });

  it("show written HTML as the text it is, losing none of it", () => {
    for (const p of PAYLOADS.slice(0, 12)) {
      const box = document.createElement("div");
      box.append(renderMarkdown(`Before ${p} after`));
      expect(box.textContent, p).toContain("after");
      expect(box.querySelector("script, img, iframe, style, svg")).toBeNull();
    }
    const box = document.createElement("div");
    box.append(renderMarkdown("Run <script>alert(1)</script> & [x](javascript:alert(1)) ![logo](https://e.x/l.png)"));
    expect(box.textContent).toBe("Run <script>alert(1)</script> & x logo");
  });
});

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

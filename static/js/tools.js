// The viewer's tools: search in chunk text (matches highlighted on the page), filters by
// chunk type and flag, "go to chunk N" and zoom. What changes the view is in the URL
// (q=, type=, flag=, zoom=); focus.js reads and writes those keys with the toggles.
import { s } from "./dom.js";

export const FLAG_FILTERS = {
  defect: (chunk) => (chunk.flags || []).some((f) => f.intended === false),
  overlap: (chunk) => (chunk.flags || []).some((f) => f.code.startsWith("overlap")),
  containment: (chunk) => (chunk.flags || []).some((f) => f.code.startsWith("contain")),
  none: (chunk) => !(chunk.flags || []).length,
};

const BASE_ZOOM = 1.25; // CSS pixels per PDF point at 100 % (app.css --zoom)

/** Search terms: lower-case words of the query. */
export function terms(query) {
  return (query || "").toLowerCase().split(/\s+/).filter(Boolean);
}

/** Does `chunk` pass the search and filters in `display`? */
export function passes(chunk, display) {
  if (display.type && chunk.chunk_type !== display.type) return false;
  if (display.flag && !FLAG_FILTERS[display.flag]?.(chunk)) return false;
  const wanted = terms(display.q);
  if (!wanted.length) return true;
  const text = chunk.text.toLowerCase();
  return wanted.every((t) => text.includes(t));
}

/** The set of chunk indexes that pass, or null when nothing filters. */
export function passing(report, display) {
  if (!display.q && !display.type && !display.flag) return null;
  return new Set(report.chunks.filter((c) => passes(c, display)).map((c) => c.index));
}

/** Rectangles over the words of a page that hold a search term. */
export function searchMarks(words, query) {
  const wanted = terms(query);
  const g = s("g", { class: "search-hits" });
  if (!wanted.length) return g;
  // A short term ("3") must be the whole word; a longer one may be part of it.
  const hit = (word) => wanted.some((t) => (t.length < 3 ? word.replace(/[^\p{L}\p{N}]/gu, "") === t : word.includes(t)));
  for (const [x0, top, x1, bottom, text] of words) {
    if (!hit(text.toLowerCase())) continue;
    g.append(s("rect", { class: "search-hit", x: x0 - 0.5, y: top - 0.5, width: x1 - x0 + 1, height: bottom - top + 1 }));
  }
  return g;
}

/** Page width for a zoom setting: none is 100 % (narrowed to the column when it is
 * narrower), "fit" fills the column's width, a number is that percentage. */
export function applyZoom(pagesEl, zoom) {
  const percent = Number(zoom);
  const fixed = Number.isFinite(percent) && percent >= 50 && percent <= 400;
  pagesEl.classList.toggle("zoom-fixed", fixed);
  if (zoom === "fit") pagesEl.style.setProperty("--zoom", "100");
  else if (fixed) pagesEl.style.setProperty("--zoom", String((percent / 100) * BASE_ZOOM));
  else pagesEl.style.removeProperty("--zoom");
}

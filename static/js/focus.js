// What the overlay shows: focus mode (the selected chunk strong, its overlap and
// containment partners light, the rest faint) and toggles for labels, hatching and
// containment tags. All of it lives in the URL (focus=1|0, labels=0, hatch=0, tags=0).
import { reasonText } from "./format.js";

// A page with more chunk boxes than this is dense: focus mode is on unless the URL says no.
export const DENSE_BOXES = 8;

export const TOGGLES = ["labels", "hatch", "tags"];
// Off unless the URL says text=1: the selectable text layer (text-layer.js).
export const MODES = ["text"];

export function isDense(index) {
  let most = 0;
  for (const entries of index.byPage.values()) most = Math.max(most, entries.length);
  return most > DENSE_BOXES;
}

/** The display settings in the URL's terms: focus null means "decide by density". */
// The tools' keys (tools.js): search, filters and zoom; empty means "not set".
export const TOOL_KEYS = ["q", "type", "flag", "zoom"];

export function readDisplay(query) {
  const focus = query.get("focus");
  const display = { focus: focus === null ? null : focus === "1" };
  for (const name of TOGGLES) display[name] = query.get(name) !== "0";
  for (const name of TOOL_KEYS) display[name] = query.get(name) || "";
  for (const name of MODES) display[name] = query.get(name) === "1";
  return display;
}

export function writeDisplay(query, display) {
  if (display.focus !== null && display.focus !== undefined) query.set("focus", display.focus ? "1" : "0");
  for (const name of TOGGLES) if (display[name] === false) query.set(name, "0");
  for (const name of TOOL_KEYS) if (display[name]) query.set(name, display[name]);
  for (const name of MODES) if (display[name]) query.set(name, "1");
}

/** Classes on the viewer element that the CSS turns into focus and hiding. */
export function applyDisplay(el, display, dense) {
  const focus = display.focus ?? dense;
  el.classList.toggle("focus-mode", focus);
  el.classList.toggle("hide-labels", !display.labels);
  el.classList.toggle("hide-hatch", !display.hatch);
  el.classList.toggle("hide-tags", !display.tags);
  return focus;
}

/** chunk index -> why it is related to `index` (overlap or containment, with reason). */
export function partnersOf(report, index) {
  const partners = new Map();
  const add = (other, text) => {
    if (other === index) return;
    partners.set(other, partners.has(other) ? `${partners.get(other)}; ${text}` : text);
  };
  for (const o of report.overlaps) {
    if (o.a === index || o.b === index) add(o.a === index ? o.b : o.a, `overlaps on p. ${o.page}: ${reasonText(o.reason)}`);
  }
  for (const c of report.containment) {
    if (c.container === index) add(c.contained, `inside chunk ${index}: ${reasonText(c.reason)}`);
    if (c.contained === index) add(c.container, `contains chunk ${index}: ${reasonText(c.reason)}`);
  }
  return partners;
}

// Tiny helpers for building DOM nodes without innerHTML (no escaping bugs).

const SVG_NS = "http://www.w3.org/2000/svg";

function apply(el, attrs) {
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "text") el.textContent = value;
    else if (key === "class") el.setAttribute("class", value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "style") for (const [k, v] of Object.entries(value)) el.style.setProperty(k, v);
    else if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  return el;
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

export function h(tag, attrs = {}, ...children) {
  return append(apply(document.createElement(tag), attrs), children);
}

export function s(tag, attrs = {}, ...children) {
  return append(apply(document.createElementNS(SVG_NS, tag), attrs), children);
}

export function clear(el) {
  el.replaceChildren();
  return el;
}

/** Replace `el`'s children; null/undefined/false children and nested arrays are fine. */
export function fill(el, ...children) {
  return append(clear(el), children);
}

const idle = window.requestIdleCallback || ((run) => setTimeout(run, 1));

/** A `tag` list of `items`, each made by `make`: the first `first` at once, the rest a
 * batch per idle moment while the list stays on the page. A report of 1,451 chunks
 * lists hundreds of overlaps and diagnostics; built whole, they came before page 1's
 * boxes were drawn. At once: what the analysis panel (18 % of the window) shows of
 * its first list, and some; laying out each entry before the boxes costs them. */
export function batchedList(tag, attrs, items, make, first = 20, batch = 200) {
  const list = h(tag, attrs, items.slice(0, first).map(make));
  let built = Math.min(first, items.length);
  const more = (deadline) => {
    if (!list.isConnected) return; // another report replaced it
    // what is left of the idle moment has room for (about 10 entries a millisecond)
    // (at most 80: the next frame lays them out, outside the idle time)
    const count = deadline?.timeRemaining ? Math.min(80, Math.max(10, Math.floor(deadline.timeRemaining()) * 10)) : batch;
    list.append(...items.slice(built, built + count).map(make));
    built = Math.min(built + count, items.length);
    if (built < items.length) idle(more);
  };
  if (built < items.length) idle(more);
  return list;
}

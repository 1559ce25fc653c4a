// The compare page: two chunkings of the same pages side by side, scrolled together.
// Hovering or selecting a chunk on one side highlights the chunks of the other side
// that share its words (links.js) and shows both texts below. The URL holds the whole
// view: left=…&right=… (a strategy, import:<sha256> or stored), each side's
// parameters as left.<name>=…, page=N and chunk=left:3.
import { SideView } from "./compare-side.js";
import { renderHint, renderLinked } from "./compare-panels.js";
import { attachImport } from "./import-control.js";
import { sharedChunks, strongest } from "./links.js";
import { renderDetail } from "./panels.js";
import { intParam, setQuery } from "./params.js";
import { chunkIndexOf } from "./report-index.js";
import { addImportOption, importRefusal, sourceQuery } from "./sources.js";
import { markReady } from "./fixture.js";

const config = JSON.parse(document.getElementById("compare-config").textContent);
const SIDES = ["left", "right"];
const other = (name) => (name === "left" ? "right" : "left");
const pageInput = document.querySelector('[data-testid="page-input"]');
const viewerLink = document.querySelector('[data-testid="viewer-link"]');
const HINT = "Hover over or click a chunk on either side (or press j / k) to see its text and the chunks on the other side that share its words.";

const shared = {
  config,
  strategies: new Map(config.strategies.map((s) => [s.name, s])),
  importNames: new Map(), // "import:<sha256>" -> file name
  colour: (index) => config.palette[index % config.palette.length],
  paintSvg: (side, svg) => paintRoot(side, svg),
  onReport: (side) => reportChanged(side),
};

// --- the URL ---------------------------------------------------------------------------

function readSideFromUrl(query, name) {
  const params = {};
  for (const [key, value] of query) if (key.startsWith(`${name}.`)) params[key.slice(name.length + 1)] = value;
  return { source: query.get(name) || config.defaults[name], params };
}

function readChunk(query) {
  const match = /^(left|right):(\d+)$/.exec(query.get("chunk") || "");
  return match ? { side: match[1], index: Number(match[2]) } : null;
}

function writeUrl({ push = false } = {}) {
  const query = new URLSearchParams();
  for (const name of SIDES) {
    const { source, params } = sides[name].view;
    query.set(name, source);
    if (shared.strategies.has(source)) for (const [key, value] of Object.entries(params)) query.set(`${name}.${key}`, value);
  }
  if (state.page) query.set("page", String(state.page));
  if (state.focus) query.set("chunk", `${state.focus.side}:${state.focus.index}`);
  setQuery(query, { push });
  // The viewer opens on what the left side shows.
  const left = sides.left.view;
  const viewer = new URLSearchParams(sourceQuery(left.source, shared.strategies.has(left.source) ? left.params : {}));
  if (state.page) viewer.set("page", String(state.page));
  if (state.focus?.side === "left") viewer.set("chunk", String(state.focus.index));
  const search = viewer.toString();
  viewerLink.href = search ? `${config.urls.viewer}?${search}` : config.urls.viewer;
}

// --- the two sides --------------------------------------------------------------------

const initial = new URLSearchParams(window.location.search);
const sides = Object.fromEntries(
  // The server has read and checked the sides (defaults filled in); use its reading.
  SIDES.map((name) => [name, new SideView(name, { ...config.sides[name] }, shared)]),
);
const state = {
  focus: readChunk(initial), // the selected chunk {side, index}
  hover: null, // the chunk under the mouse {side, index}
  page: intParam(initial, "page"),
  links: new Map(), // "side:index" -> sharedChunks(...), for the current reports
};

const active = () => state.hover || state.focus;

function linksOf(chunkRef) {
  const key = `${chunkRef.side}:${chunkRef.index}`;
  if (!state.links.has(key)) {
    const from = sides[chunkRef.side].report;
    const to = sides[other(chunkRef.side)];
    if (!from || !to.report || !from.chunks[chunkRef.index]) return null;
    state.links.set(key, sharedChunks(from.chunks[chunkRef.index], { byPage: to.index.byPage, areas: to.areas }));
  }
  return state.links.get(key);
}

/** index -> classes, for the chunks of `side` given the current hover and selection. */
function classesOf(side) {
  const classes = new Map();
  const add = (index, name) => classes.set(index, [...(classes.get(index) || []), name]);
  if (state.focus?.side === side) add(state.focus.index, "selected");
  if (state.hover?.side === side) add(state.hover.index, "hover");
  const current = active();
  if (current && current.side !== side) for (const link of linksOf(current) || []) add(link.index, "linked");
  return classes;
}

function paintRoot(side, root, classes = classesOf(side)) {
  for (const el of root.querySelectorAll(".selected, .hover, .linked")) el.classList.remove("selected", "hover", "linked");
  for (const [index, names] of classes) {
    for (const el of root.querySelectorAll(`[data-chunk-index="${index}"]`)) el.classList.add(...names);
  }
}

function paint() {
  for (const name of SIDES) {
    const side = sides[name];
    paintRoot(name, side.els.pages);
    side.els.pages.classList.toggle("has-active", Boolean(active()));
  }
  renderDetails();
}

function renderDetails() {
  const current = active();
  for (const name of SIDES) {
    const side = sides[name];
    if (!current || !sides[current.side].report) {
      renderHint(side.els.detail, HINT);
    } else if (current.side === name) {
      renderDetail(side.els.detail, side.report, current.index, shared.colour);
    } else if (!side.report) {
      renderHint(side.els.detail, "This side has no chunks to compare yet.");
    } else {
      renderLinked(side.els.detail, {
        side: name,
        report: side.report,
        from: current,
        links: linksOf(current) || [],
        colour: shared.colour,
      });
    }
  }
}

function reportChanged(name) {
  state.links.clear();
  const side = sides[name];
  // A chunk number means nothing under another chunking: drop a selection it no longer fits.
  if (state.focus?.side === name && side.state === "ready" && !side.report.chunks[state.focus.index]) {
    state.focus = null;
    writeUrl();
  }
  if (state.hover?.side === name) state.hover = null;
  const tokens = sides.left.report?.document_tokens ?? sides.right.report?.document_tokens ?? null;
  for (const each of SIDES) sides[each].renderSummary(sides[each].report?.document_tokens ?? tokens);
  paint();
  diffShown = showDiff();
}

// "What changed from left to right": the server's `visualiser diff` of the two reports.
const diffPanel = document.querySelector('[data-testid="chunk-diff"]');
let diffRequest = null;
let diffShown = Promise.resolve(); // fixture mode waits for it
async function showDiff() {
  diffRequest?.abort();
  diffPanel.hidden = true;
  const [left, right] = SIDES.map((name) => sides[name].report);
  if (!left || !right) return;
  const request = new AbortController();
  diffRequest = request;
  const response = await fetch(config.urls.diff, {
    method: "POST", signal: request.signal,
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify({ old: left, new: right }),
  }).catch(() => null);
  const body = response?.ok ? await response.json() : null;
  if (!body || diffRequest !== request) return;
  const list = diffPanel.querySelector("ul");
  list.replaceChildren(...(body.same ? ["The two sides chunk the document the same way."] : body.changes.map((c) => c.message))
    .map((text) => Object.assign(document.createElement("li"), { textContent: text })));
  diffPanel.querySelector("summary").textContent = body.same
    ? "What changed from left to right: nothing"
    : `What changed from left to right: ${body.changes.length} change${body.changes.length === 1 ? "" : "s"}`;
  diffPanel.dataset.same = String(body.same);
  diffPanel.hidden = false;
}

// --- selection, hover, keys -----------------------------------------------------------

function select(ref, { scroll = true } = {}) {
  const side = ref && sides[ref.side];
  if (ref && !side.report?.chunks[ref.index]) return;
  state.focus = ref;
  paint();
  writeUrl();
  if (ref && scroll) {
    const first = side.report.chunks[ref.index].regions[0];
    if (first) side.column.scrollToBox(first.page, first.bbox);
  }
}

function setHover(ref) {
  const same = ref && state.hover && ref.side === state.hover.side && ref.index === state.hover.index;
  if (same || (!ref && !state.hover)) return;
  state.hover = ref;
  paint();
}

function chunkAt(target) {
  const svg = target.closest?.("svg.overlay");
  if (!svg) return null;
  const index = chunkIndexOf(target);
  return index === null ? null : { side: svg.closest("[data-side]").dataset.side, index };
}

document.addEventListener("mouseover", (event) => setHover(chunkAt(event.target)));
document.addEventListener("mouseout", (event) => {
  if (!event.relatedTarget) setHover(null);
});
document.addEventListener("click", (event) => {
  const link = event.target.closest?.("[data-select-side]");
  if (link) {
    select({ side: link.dataset.selectSide, index: Number(link.dataset.selectIndex) });
    return;
  }
  const ref = chunkAt(event.target);
  if (ref) select(ref, { scroll: false });
});

const isTyping = (el) => el && (el.isContentEditable || ["INPUT", "SELECT", "TEXTAREA"].includes(el.tagName));

function step(delta) {
  const name = state.focus?.side || "left";
  const count = sides[name].report?.chunks.length || 0;
  if (!count) return;
  const at = state.focus ? state.focus.index + delta : delta > 0 ? 0 : count - 1;
  select({ side: name, index: Math.min(Math.max(at, 0), count - 1) });
}

/** To the other side: its chunk sharing the most words with the selection, or its first. */
function cross(name) {
  if (state.focus?.side === name || !sides[name].report?.chunks.length) return;
  const best = state.focus ? strongest(linksOf(state.focus)) : null;
  select({ side: name, index: best ? best.index : 0 });
}

document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey || isTyping(event.target)) return;
  const keys = {
    j: () => step(1), ArrowDown: () => step(1), k: () => step(-1), ArrowUp: () => step(-1),
    h: () => cross("left"), ArrowLeft: () => cross("left"), l: () => cross("right"), ArrowRight: () => cross("right"),
  };
  if (keys[event.key]) {
    event.preventDefault();
    keys[event.key]();
  } else if (event.key === "Escape") {
    const open = document.querySelector("details.params[open]");
    if (open) open.open = false;
    else select(null);
  }
});

// --- scrolling together, and the page number ---------------------------------------------

let pagePending = false;
function pageChanged() {
  if (pagePending) return;
  pagePending = true;
  requestAnimationFrame(() => {
    pagePending = false;
    const page = sides.left.column.currentPage();
    if (page !== state.page) {
      state.page = page;
      pageInput.value = page;
      writeUrl();
    }
  });
}

// Both columns hold the same pages at the same size, so equal scroll offsets show the
// same place. Setting the other's offset fires its scroll event, which then finds the
// two equal and stops: no loop.
for (const name of SIDES) {
  const here = sides[name].els.pages;
  const there = sides[other(name)].els.pages;
  here.addEventListener("scroll", () => {
    if (Math.abs(there.scrollTop - here.scrollTop) >= 1) there.scrollTop = here.scrollTop;
    if (Math.abs(there.scrollLeft - here.scrollLeft) >= 1) there.scrollLeft = here.scrollLeft;
    pageChanged();
  });
}

function scrollToPage(number) {
  for (const name of SIDES) sides[name].column.scrollToPage(number);
}

pageInput.addEventListener("change", () => {
  const page = Number.parseInt(pageInput.value, 10);
  if (Number.isFinite(page)) scrollToPage(page);
});

// --- each side's selector, form and import -------------------------------------------------

function knowImport(imported) {
  let value = null;
  for (const name of SIDES) value = addImportOption(sides[name].els.select, imported);
  shared.importNames.set(value, imported.name);
  return value;
}

for (const imported of config.imports) knowImport(imported);

function change(side, { source = side.view.source, params = side.readForm(), rebuild = false } = {}) {
  const switched = source !== side.view.source;
  if (switched && state.focus?.side === side.name) state.focus = null;
  side.view = { source, params };
  // Rebuilding the form while someone types in it would lose their focus and input:
  // only a new chunking (or a reset) gets a fresh form.
  if (switched || rebuild) side.buildForm();
  writeUrl({ push: true });
  side.load();
}

for (const name of SIDES) {
  const side = sides[name];
  const { select: selector, fields, controls } = side.els;
  // A new chunking starts from its own defaults: parameters do not carry across.
  selector.addEventListener("change", () => change(side, { source: selector.value, params: {} }));
  fields.addEventListener("change", () => change(side));
  controls.addEventListener("submit", (event) => {
    event.preventDefault();
    change(side);
  });
  controls.querySelector('[data-action="reset-params"]').addEventListener("click", () => change(side, { params: {}, rebuild: true }));
  attachImport({
    input: side.els.importInput,
    dropTarget: side.els.pages,
    url: config.urls.imports,
    onBusy: (text) => side.setProgress(text),
    onImported: (body) => change(side, { source: knowImport(body), params: {} }),
    onFailed: (body, status, file) => side.showError(importRefusal(body, status, file), status),
  });
}

window.addEventListener("popstate", () => {
  const query = new URLSearchParams(window.location.search);
  state.focus = readChunk(query);
  state.hover = null;
  for (const name of SIDES) {
    const side = sides[name];
    const view = readSideFromUrl(query, name);
    const same = view.source === side.view.source && JSON.stringify(view.params) === JSON.stringify(side.view.params);
    side.view = view;
    side.buildForm();
    if (!same) side.load();
  }
  const page = intParam(query, "page");
  if (page) scrollToPage(page);
  paint();
});

// --- start ------------------------------------------------------------------------------

async function start() {
  for (const name of SIDES) sides[name].buildForm();
  if (state.page) {
    scrollToPage(state.page);
    pageInput.value = state.page;
  }
  writeUrl();
  for (const name of SIDES) sides[name].column.start();
  const loads = SIDES.map((name) => {
    const side = sides[name];
    // A side the server found a bad parameter in shows that error (already on the
    // page) and its form, and waits for a fix instead of asking for the same error.
    const error = config.sides[name].error;
    if (error) {
      side.showError(error, 400);
      side.state = "error";
      return Promise.resolve();
    }
    return side.load();
  });
  // Labels are placed by the server for the served font's metrics: draw them once it is in.
  await document.fonts.load('700 8px "Viewer Sans"');
  for (const name of SIDES) {
    sides[name].fontReady = true;
    sides[name].column.redraw();
  }
  await Promise.all(loads);
  renderDetails();
  // Without a page in the URL, a selected chunk decides where the view starts.
  if (state.focus && !state.page) select(state.focus);
  await diffShown;
  await markReady(SIDES.map((name) => sides[name].els.pages));
}

start();

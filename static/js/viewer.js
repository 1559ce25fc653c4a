// The viewer: lazily rendered pages with chunk overlays, a chunk list linked both
// ways with the boxes, and a URL that reproduces the view. For a knowledgebase
// document (config.stored set) it opens on the stored chunks; choosing a strategy
// shows a preview computed from the stored PDF, which changes nothing stored.
import { clear, fill, h } from "./dom.js";
import { PageColumn } from "./columns.js";
import { buildOverlay } from "./overlay.js";
import { renderAnalysis, renderDetail, renderSummary } from "./panels.js";
import { ChunkList } from "./chunk-list.js";
import { attachImport } from "./import-control.js";
import { renderBanner } from "./banner.js";
import { applyDisplay, isDense, partnersOf } from "./focus.js";
import { applyZoom, passing, searchMarks } from "./tools.js";
import { Minimap } from "./minimap.js";
import { buildTextLayer } from "./text-layer.js";
import { apiQuery, buildParamFields, markInvalid, readParamFields, readUrl, writeUrl } from "./params.js";
import { chunkIndexOf, indexReport, marked as markedIn } from "./report-index.js";
import { addImportOption, importLabel, importRefusal, isImport } from "./sources.js";
import { previewSentence, previewsSentence, processingSentence } from "./stored.js";
import { fixtureMode, markReady } from "./fixture.js";
import { earlyReport, fetchReport, POLL_MS, startTicker } from "./report-loader.js";

const config = JSON.parse(document.getElementById("viewer-config").textContent);
const $ = (selector) => document.querySelector(selector);
const els = {
  viewer: $('[data-testid="viewer"]'),
  pages: $('[data-testid="pages"]'),
  list: $('[data-testid="chunk-list"]'),
  detail: $('[data-testid="chunk-detail"]'),
  summary: $('[data-testid="summary"]'),
  overlaps: $('[data-testid="overlaps"]'),
  containment: $('[data-testid="containment"]'),
  diagnostics: $('[data-testid="diagnostics"]'),
  banner: $('[data-testid="strategy-banner"]'),
  error: $('[data-testid="error"]'),
  progress: $('[data-testid="progress"]'),
  controls: $('[data-testid="controls"]'),
  select: $('[data-testid="strategy-select"]'),
  layout: $('[data-testid="layout-select"]'),
  fields: $('[data-testid="param-fields"]'),
  pageInput: $('[data-testid="page-input"]'),
  params: $('[data-testid="params"]'),
  previewNotice: $('[data-testid="preview-notice"]'),
  previewText: $('[data-testid="preview-text"]'),
  processing: $('[data-testid="processing"]'),
  processingText: $('[data-testid="processing-text"]'),
  importInput: $('[data-testid="import-input"]'),
  compareLink: $('[data-testid="compare-link"]'),
  viewBar: $('[data-testid="view-bar"]'),
  search: $('[data-testid="search"]'),
  searchCount: $('[data-testid="search-count"]'),
  filterType: $('[data-testid="filter-type"]'),
  gotoChunk: $('[data-testid="goto-chunk"]'),
  previews: $('[data-testid="previews-status"]'),
};
const stored = config.stored; // null for a bundled sample
const pageInfo = new Map(config.document.pages.map((p) => [p.number, p]));
const strategies = new Map(config.strategies.map((s) => [s.name, s]));
const importNames = new Map(); // "import:<sha256>" -> file name
const colour = (index) => config.palette[index % config.palette.length];

const state = {
  view: readUrl(config.strategy, config.default_layout), // {strategy, params, layout, page, chunk}
  report: null,
  index: null, // the report indexed for drawing (report-index.js)
  selected: null,
  hovered: null,
  request: null, // AbortController of the report being fetched
  poll: null, // timer while a stored document is still being processed
  partners: new Map(), // chunk -> why it relates to the selected chunk
  dense: false, // some page has more boxes than focus.js DENSE_BOXES
  passing: null, // chunks that pass the search and filters (tools.js), null: all
  words: new Map(), // page -> Promise of its words, for search highlights
};
let fontReady = false; // labels are drawn in the served font

// Reports already shown, parsed and indexed, by their query: switching back to one
// (a warm switch) neither asks the server again nor parses megabytes of JSON (the
// 619-page rulebook's report is 3.3 MB; parsing it took a third of a warm switch). The
// few most recent, so a long session does not keep every report it ever saw.
const SHOWN_KEPT = 4;
const shownReports = new Map(); // apiQuery -> {report, index}

function rememberReport(query, report, index) {
  shownReports.delete(query);
  shownReports.set(query, { report, index });
  while (shownReports.size > SHOWN_KEPT) shownReports.delete(shownReports.keys().next().value);
}

/** A report shown before under `query`, as it was then: only one that cannot have
 * changed since (a preview, an import, a sample's report, a stored document's chunks
 * once it is ready; never an error or a document still being processed). */
function shownBefore(query) {
  const kept = shownReports.get(query);
  if (!kept) return null;
  rememberReport(query, kept.report, kept.index); // the most recent again
  return kept;
}

const cacheable = (body) => !stored || body.preview || body.state === "ready";
const SLOW_MS = 300; // a report taking longer than this fades the list it replaces

// --- pages: images and overlays, only for pages near the viewport --------------------

function overlayFor(number) {
  if (!state.report || !fontReady) return null;
  const svg = buildOverlay(pageInfo.get(number), state.index.byPage.get(number) || [],
    state.index.overlapsByPage.get(number) || [], { colour, labels: state.index.labelsByPage.get(number) || [] });
  paintState(svg);
  markSearch(svg, number);
  queueMicrotask(() => addTextLayer(svg, number)); // once the svg is on its page
  return svg;
}

/** Highlight the words of page `number` that hold a search term (sample documents:
 * the server lists a page's words; a knowledgebase view filters chunks only). */
function pageWords(number) {
  if (!state.words.has(number)) {
    const url = config.urls.page_words.replace(/\/0\/words$/, `/${number}/words`);
    state.words.set(number, fetch(url).then((r) => (r.ok ? r.json() : { words: [] })).then((b) => b.words));
  }
  return state.words.get(number);
}

/** In "Select text" mode, the page's words as selectable text over the image. */
function addTextLayer(svg, number) {
  if (!state.view.display.text || !config.urls.page_words) return;
  const section = svg.closest("section.page");
  if (!section || section.querySelector("svg.text-layer")) return;
  pageWords(number).then((words) => {
    if (!section.isConnected || section.querySelector("svg.text-layer")) return;
    section.append(buildTextLayer(pageInfo.get(number), words));
  });
}

function markSearch(svg, number) {
  svg.querySelector(".search-hits")?.remove();
  const query = state.view.display.q;
  if (!query || !config.urls.page_words) return;
  pageWords(number).then((words) => {
    if (state.view.display.q !== query || !svg.isConnected) return;
    svg.querySelector(".search-hits")?.remove();
    svg.querySelector(".hits").before(searchMarks(words, query));
  });
}

const column = new PageColumn({
  container: els.pages,
  pages: config.document.pages,
  imageUrl: config.urls.page_image,
  overlay: overlayFor,
});

const minimap = new Minimap($('[data-testid="minimap"]'), config.document.pages,
  (page, y) => column.scrollToBox(page, [0, y, 0, y]));

function showInView() {
  const el = els.pages;
  minimap.show(el.scrollTop / el.scrollHeight, (el.scrollTop + el.clientHeight) / el.scrollHeight);
}

let scrollPending = false;
els.pages.addEventListener("scroll", () => {
  if (scrollPending) return;
  scrollPending = true;
  requestAnimationFrame(() => {
    scrollPending = false;
    showInView();
    const page = column.currentPage();
    if (page !== state.view.page) {
      state.view.page = page;
      els.pageInput.value = page;
      saveView();
    }
  });
});

els.pageInput.addEventListener("change", () => {
  const page = Number.parseInt(els.pageInput.value, 10);
  if (Number.isFinite(page)) column.scrollToPage(page);
});

// --- hover and selection -----------------------------------------------------------

const marked = (index) => markedIn(document, index);

function paintState(root) {
  if (state.passing) {
    for (const el of root.querySelectorAll("[data-chunk-index]")) {
      el.classList.toggle("filtered-out", !state.passing.has(Number(el.dataset.chunkIndex)));
    }
  }
  if (state.selected !== null) {
    for (const el of root.querySelectorAll(`[data-chunk-index="${state.selected}"]`)) el.classList.add("selected");
    for (const mark of root.querySelectorAll("svg [data-overlap]")) {
      const [a, b] = mark.dataset.overlap.split("-").map(Number);
      if (a === state.selected || b === state.selected) mark.classList.add("partner");
    }
    for (const [index, why] of state.partners) {
      for (const el of root.querySelectorAll(`[data-chunk-index="${index}"]`)) {
        el.classList.add("partner");
        if (el.matches("g.box")) el.dataset.partnerWhy = why;
      }
    }
  }
  if (state.hovered !== null) {
    for (const el of root.querySelectorAll(`[data-chunk-index="${state.hovered}"]`)) el.classList.add("hover");
  }
}

const chunkList = new ChunkList(els.list, colour, paintState);
const listEntry = (index) => chunkList.entry(index);

function setHover(index, fromBox) {
  if (index === state.hovered) return;
  if (state.hovered !== null) for (const el of marked(state.hovered)) el.classList.remove("hover");
  state.hovered = index;
  if (index === null) return;
  for (const el of marked(index)) el.classList.add("hover");
  if (fromBox) listEntry(index)?.scrollIntoView({ block: "nearest" });
}

function select(index, { scroll = true, focus = false } = {}) {
  if (!state.report) return;
  if (index !== null && (index < 0 || index >= state.report.chunks.length)) return;
  if (state.selected !== null) for (const el of marked(state.selected)) el.classList.remove("selected");
  for (const el of document.querySelectorAll(".partner")) el.classList.remove("partner");
  state.selected = index;
  // Focus mode draws the chunks related to the selection lightly, with their reason.
  state.partners = index === null ? new Map() : partnersOf(state.report, index);
  els.viewer.classList.toggle("has-selection", index !== null);
  renderDetail(els.detail, state.report, index, colour);
  state.view.chunk = index;
  if (index !== null) {
    paintState(document);
    for (const el of marked(index)) el.classList.add("selected");
    const entry = listEntry(index);
    entry?.scrollIntoView({ block: "nearest" });
    if (focus) entry?.focus({ preventScroll: true });
    const first = state.report.chunks[index].regions[0];
    if (scroll && first) column.scrollToBox(first.page, first.bbox);
  }
  saveView();
}

document.addEventListener("mouseover", (event) => {
  setHover(chunkIndexOf(event.target), Boolean(event.target.closest?.("svg.overlay")));
});
document.addEventListener("mouseout", (event) => {
  if (!event.relatedTarget) setHover(null);
});
document.addEventListener("click", (event) => {
  const overlap = event.target.closest?.("[data-overlap]");
  if (overlap && !overlap.closest("svg")) return focusOverlap(overlap.dataset.overlap);
  const container = event.target.closest?.("[data-containment]");
  if (container) return select(Number(container.dataset.containment), { focus: true });
  const index = chunkIndexOf(event.target);
  if (index !== null) select(index, { scroll: !event.target.closest("svg.overlay") });
});

function focusOverlap(key) {
  const [a, b, page] = key.split("-").map(Number);
  const overlap = state.report.overlaps.find((o) => o.a === a && o.b === b && o.page === page);
  if (!overlap) return;
  column.scrollToBox(page, overlap.bbox);
  column.showPage(page);
  for (const el of document.querySelectorAll("svg .overlap-mark.focused")) el.classList.remove("focused");
  document.querySelector(`svg [data-overlap="${key}"]`)?.classList.add("focused");
}

const isTyping = (el) => el && (el.isContentEditable || ["INPUT", "SELECT", "TEXTAREA"].includes(el.tagName));

document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey || isTyping(event.target) || !state.report) return;
  const count = state.report.chunks.length;
  const focused = event.target.closest?.("[data-chunk-index]");
  if ((event.key === "Enter" || event.key === " ") && focused) {
    event.preventDefault();
    select(Number(focused.dataset.chunkIndex), { focus: true });
  } else if (event.key === "j" || event.key === "ArrowDown") {
    if (!count) return;
    event.preventDefault();
    select(state.selected === null ? 0 : Math.min(state.selected + 1, count - 1), { focus: true });
  } else if (event.key === "k" || event.key === "ArrowUp") {
    if (!count) return;
    event.preventDefault();
    select(state.selected === null ? count - 1 : Math.max(state.selected - 1, 0), { focus: true });
  } else if (event.key === "Escape") {
    if (document.querySelector("details.params[open]")) {
      document.querySelector("details.params").open = false;
      return;
    }
    select(null);
  }
});

// --- focus mode and overlay toggles (focus.js); all in the URL ------------------------

function showDisplay() {
  const focus = applyDisplay(els.viewer, state.view.display, state.dense);
  els.viewer.classList.toggle("text-mode", Boolean(state.view.display.text));
  if (state.view.display.text) {
    for (const svg of els.pages.querySelectorAll("svg.overlay")) addTextLayer(svg, Number(svg.dataset.page));
  }
  for (const input of els.viewBar.querySelectorAll("[data-display]")) {
    input.checked = input.dataset.display === "focus" ? focus : state.view.display[input.dataset.display];
  }
}

els.viewBar.addEventListener("change", (event) => {
  const name = event.target.dataset.display;
  if (!name) return;
  state.view.display[name] = event.target.checked;
  showDisplay();
  saveView();
});

// --- tools: search, filters, go to chunk, zoom (tools.js); in the URL ----------------

function applyTools() {
  const display = state.view.display;
  applyZoom(els.pages, display.zoom);
  if (!state.report) return;
  state.passing = passing(state.report, display);
  els.viewer.classList.toggle("filtered", state.passing !== null);
  for (const el of document.querySelectorAll(".filtered-out")) el.classList.remove("filtered-out");
  if (state.passing) paintState(document);
  els.searchCount.textContent = state.passing
    ? `${state.passing.size} of ${state.report.chunks.length}` : "";
  for (const svg of els.pages.querySelectorAll("svg.overlay")) markSearch(svg, Number(svg.dataset.page));
}

function showTools() {
  for (const el of els.viewBar.querySelectorAll("[data-tool]")) el.value = state.view.display[el.dataset.tool] || "";
}

let searchTimer = null;
els.viewBar.addEventListener("input", (event) => {
  const name = event.target.dataset.tool;
  if (!name) return;
  clearTimeout(searchTimer);
  const apply = () => {
    state.view.display[name] = event.target.value;
    applyTools();
    if (name === "zoom") column.rescale();
    saveView();
  };
  if (name === "q") searchTimer = setTimeout(apply, 150);
  else apply();
});

els.gotoChunk.addEventListener("change", () => {
  const index = Number.parseInt(els.gotoChunk.value, 10);
  if (Number.isFinite(index)) select(index, { focus: true });
});

/** The type filter offers the types this report has. */
function fillTypes(report) {
  const types = [...new Set(report.chunks.map((c) => c.chunk_type))].sort();
  els.filterType.replaceChildren(
    new Option("All types", ""), ...types.map((t) => new Option(t, t)));
  els.filterType.value = types.includes(state.view.display.type) ? state.view.display.type : "";
}

const EXPORTS = { json: "JSON", jsonl: "JSONL", langchain: "LangChain", llamaindex: "LlamaIndex" };

/** Download links for the chunks on show, in the shapes other tools read (export.py). */
function exportLinks() {
  const query = apiQuery(state.view);
  return h("p", { class: "export", "data-testid": "export" }, "Export: ",
    Object.entries(EXPORTS).map(([format, name], n) => [
      n ? " · " : null,
      h("a", { href: `${config.urls.export}?${query ? `${query}&` : ""}format=${format}`,
        download: "", "data-export": format }, name),
    ]));
}

/** A badge on each page whose words were read by OCR. */
function markOcr(report) {
  for (const badge of els.pages.querySelectorAll(".page-ocr")) badge.remove();
  for (const page of report.pages || []) {
    if (!page.ocr) continue;
    const el = els.pages.querySelector(`section.page[data-page="${page.number}"]`);
    el?.setAttribute("data-ocr", "");
    el?.append(h("span", { class: "page-ocr", "data-testid": "ocr-badge",
      title: "This page has no text layer: its words were read by OCR (Tesseract)" }, "OCR"));
  }
}

// --- the report ----------------------------------------------------------------------

function clearReport() {
  state.report = null;
  state.selected = null;
  state.hovered = null;
  column.clearOverlays();
  chunkList.clear();
  clear(els.summary);
  clear(els.overlaps);
  clear(els.containment);
  clear(els.diagnostics);
  els.banner.hidden = true;
  if (els.processing) els.processing.hidden = true;
  els.viewer.classList.remove("has-selection");
}

function showReport(report, wanted, shown = null) {
  clearReport();
  state.report = report;
  state.index = shown || indexReport(report);
  // The banner text comes from the strategy, through the JSON; its chunk numbers
  // select their chunks.
  renderBanner(els.banner, report, (index) => ({ onclick: () => select(index, { focus: true }) }));
  renderSummary(els.summary, report, stored ? (report.preview ? "preview" : "stored") : null);
  if (config.urls.export) els.summary.append(exportLinks());
  chunkList.show(report);
  renderAnalysis(els, report);
  state.dense = isDense(state.index);
  showDisplay();
  fillTypes(report);
  markOcr(report);
  minimap.draw(report, colour);
  showInView();
  applyTools();
  column.redraw();
  const keep = wanted !== null && wanted < report.chunks.length ? wanted : null;
  select(keep, { scroll: false });
}

function showError(body, status) {
  const title = body?.error || `HTTP ${status}`;
  const message = body?.message || "The server did not say why.";
  clear(els.error).append(
    Object.assign(document.createElement("strong"), { textContent: `${title}:` }),
    document.createTextNode(` ${message}`),
  );
  els.error.hidden = false;
  markInvalid(els.fields, body?.parameter ?? null, message);
  if (body?.parameter) els.controls.querySelector("details.params").open = true;
}

function setProgress(text) {
  if (fixtureMode) text = null; // a counting "… 3 s" would differ between screenshots
  els.progress.textContent = text || "";
  els.progress.hidden = !text;
}

// --- a knowledgebase document: stored chunks, preview, processing ---------------------

/** What is shown, in words: a strategy's label or the imported file's name. */
function sourceLabel(source) {
  if (isImport(source)) return importLabel(importNames.get(source) || "a chunks file");
  return strategies.get(source)?.label || source || "Stored chunks";
}

function showMode() {
  // Stored chunks were made with the stored parameters and imported chunks have none:
  // only a strategy has a parameter form.
  const hasForm = strategies.has(state.view.strategy);
  els.params.hidden = !hasForm;
  if (!hasForm) els.params.open = false;
  if (!stored) return;
  const previewing = Boolean(state.view.strategy);
  els.previewNotice.hidden = !previewing;
  if (previewing) els.previewText.textContent = previewSentence(stored, sourceLabel(state.view.strategy));
}

function saveView(options) {
  writeUrl(state.view, options);
  updateCompareLink();
}

/** "Compare with…" keeps this view (chunks, parameters, page, chunk) as the left side. */
function updateCompareLink() {
  const query = new URLSearchParams({ left: state.view.strategy || "stored" });
  if (strategies.has(state.view.strategy)) {
    for (const [key, value] of Object.entries(state.view.params)) query.set(`left.${key}`, value);
  }
  if (state.view.page) query.set("page", String(state.view.page));
  if (state.selected !== null) query.set("chunk", `left:${state.selected}`);
  els.compareLink.href = `${config.urls.compare}?${query}`;
}

/** A stored document that has no chunks to show yet (processing) or will not (failed). */
function showStoredState(body, wanted) {
  clearReport();
  if (body.state === "processing") {
    els.processingText.textContent = processingSentence(body.progress);
    els.processing.querySelector("progress").value = Math.round((body.progress || 0) * 100);
    els.processing.hidden = false;
    fill(els.summary, h("p", { class: "hint" }, "No chunks yet: the document is being processed."));
    els.select.disabled = true; // a preview would extract the layout a second time
    els.viewer.dataset.reportState = "processing";
    state.poll = setTimeout(() => loadReport({ wanted, quiet: true }), POLL_MS);
    return;
  }
  els.select.disabled = false;
  fill(els.summary, h("p", { class: "hint" },
    "No stored chunks: processing failed. A preview under another strategy (the selector above) may still work."));
  showError({ error: "Processing failed", message: body.error || "The server did not say why." }, 0);
  els.viewer.dataset.reportState = "failed";
}

async function loadReport({ wanted = state.selected, quiet = false } = {}) {
  state.request?.abort();
  clearTimeout(state.poll);
  showMode();
  const request = new AbortController();
  state.request = request;
  const label = sourceLabel(state.view.strategy);
  const pages = config.document.page_count;
  els.progress.title = `${label}: the first request for a document extracts the layout of its ${pages} pages; later ones reuse it.`;
  // Polling a document that is being processed says so in its own panel instead. A
  // report kept ahead arrives in a blink: its counter would only flash (and showing it
  // lays out the top bar and repaints the pages under it, about 0.1 s).
  const stopTicker = quiet ? () => {} : isKept(state.view) ? tickerAfter(SLOW_MS) : startTicker(setProgress);
  if (!quiet) els.viewer.dataset.reportState = "loading";
  // The list fades only when the wait is long enough to see: repainting it costs about
  // 0.1 s, more than a report kept ahead takes to arrive.
  const fading = quiet ? null : setTimeout(() => els.viewer.classList.add("loading-slowly"), SLOW_MS);
  els.viewer.setAttribute("aria-busy", "true");
  els.error.hidden = true;
  markInvalid(els.fields, null);
  try {
    const query = apiQuery(state.view);
    const kept = quiet ? null : shownBefore(query);
    if (kept) {
      if (stored) els.select.disabled = false;
      showReport(kept.report, wanted, kept.index);
      els.viewer.dataset.reportState = "ready";
      return;
    }
    const { response, body } = await (earlyReport(query) || fetchReport(config.urls.chunks, query, request.signal));
    if (state.request !== request) return;
    if (!response.ok || !body) {
      clearReport();
      showError(body, response.status);
      els.viewer.dataset.reportState = "error";
      return;
    }
    if (stored && !body.preview && body.state !== "ready") {
      showStoredState(body, wanted);
      return;
    }
    if (stored) els.select.disabled = false;
    if (stored && !body.preview && stored.state !== "ready") {
      stored.state = "ready"; // processed while this page was open: previews come now
      refreshPreviews();
    }
    showReport(body, wanted);
    if (cacheable(body)) rememberReport(query, body, state.index);
    els.viewer.dataset.reportState = "ready";
  } catch (error) {
    if (error.name === "AbortError") return;
    clearReport();
    showError({ error: "Network error", message: `Could not reach the server (${error.message}).` }, 0);
    els.viewer.dataset.reportState = "error";
  } finally {
    clearTimeout(fading);
    if (state.request === request) els.viewer.classList.remove("loading-slowly");
    stopTicker();
    if (state.request === request) {
      setProgress(null);
      els.viewer.removeAttribute("aria-busy");
    }
  }
}

// --- which strategies were computed ahead (a stored document) -------------------------

const PREVIEWS_POLL_MS = 5000;
let previewsTimer = null;
let keptAhead = new Set(); // strategies whose default report is kept on the server

/** Is this view a report the server keeps ready: the stored chunks, or a strategy
 * computed ahead at its defaults, read by the knowledgebase's layout engine? */
function isKept(view) {
  if (!stored) return false;
  if (!view.strategy) return true;
  return keptAhead.has(view.strategy) && !Object.keys(view.params).length
    && (!view.layout || view.layout === config.default_layout);
}

/** The "Computing chunks…" counter, shown only once `ms` have gone by. */
function tickerAfter(ms) {
  let stop = null;
  const timer = setTimeout(() => { stop = startTicker(setProgress); }, ms);
  return () => {
    clearTimeout(timer);
    stop?.();
  };
}

function showPreviews(previews) {
  if (!els.previews) return;
  els.previews.textContent = previewsSentence(previews);
  els.previews.title = "Strategies whose report of this document was computed ahead, in the background: choosing one shows it at once; the others are computed when chosen.";
  els.previews.hidden = !els.previews.textContent;
  const ready = new Set(previews?.ready || []);
  keptAhead = ready;
  for (const option of els.select.querySelectorAll("option[value]")) {
    if (!strategies.has(option.value)) continue;
    option.toggleAttribute("data-ready", ready.has(option.value));
    option.title = ready.has(option.value)
      ? "Computed ahead: shown at once"
      : "Not computed yet: the first view of it computes it from the stored layout";
  }
  clearTimeout(previewsTimer);
  // Ask again while the background is still computing some (the document is ready).
  if (previews?.ahead && previews.count < previews.total && stored.state === "ready") {
    previewsTimer = setTimeout(refreshPreviews, PREVIEWS_POLL_MS);
  }
}

async function refreshPreviews() {
  try {
    const response = await fetch(config.urls.document, { headers: { Accept: "application/json" } });
    const body = response.ok ? await response.json() : null;
    if (body) {
      stored.state = body.state;
      showPreviews(body.previews);
    }
  } catch {
    // the server is away: the status stays as it was
  }
}

// --- strategy selector and parameter form ------------------------------------------

function buildForm() {
  els.select.value = state.view.strategy;
  if (stored && !state.view.strategy) state.view.layout = config.default_layout;
  els.layout.value = state.view.layout;
  // The stored chunks were read by the knowledgebase's engine; another one is a preview.
  els.layout.disabled = Boolean(stored) && !state.view.strategy;
  const strategy = strategies.get(state.view.strategy);
  if (strategy) buildParamFields(els.fields, strategy, state.view.params);
  else clear(els.fields);
  showMode();
}

function applyForm({ strategyChanged = false } = {}) {
  state.view.strategy = els.select.value;
  const strategy = strategies.get(state.view.strategy);
  // A new strategy starts from its own defaults: parameters do not carry across.
  state.view.params = strategyChanged || !strategy ? {} : readParamFields(els.fields, strategy);
  if (strategyChanged) {
    // Chunk 4 of one strategy has nothing to do with chunk 4 of another.
    buildForm();
    state.view.chunk = null;
    state.selected = null;
  }
  saveView({ push: true });
  loadReport();
}

els.select.addEventListener("change", () => applyForm({ strategyChanged: true }));
els.layout.addEventListener("change", () => {
  // Another engine reads other lines and blocks: chunk 4 is not the same chunk.
  state.view.layout = els.layout.value;
  state.view.chunk = null;
  state.selected = null;
  saveView({ push: true });
  loadReport();
});
$('[data-action="back-to-stored"]')?.addEventListener("click", () => {
  els.select.value = "";
  applyForm({ strategyChanged: true });
  els.select.focus();
});
els.fields.addEventListener("change", () => applyForm());
els.controls.addEventListener("submit", (event) => {
  event.preventDefault();
  applyForm();
});
els.controls.querySelector('[data-action="reset-params"]').addEventListener("click", () => {
  state.view.params = {};
  buildForm();
  saveView({ push: true });
  loadReport();
});

// --- imported chunks -------------------------------------------------------------------

function knowImport(imported) {
  const value = addImportOption(els.select, imported);
  importNames.set(value, imported.name);
  return value;
}

for (const imported of config.imports) knowImport(imported);

attachImport({
  input: els.importInput,
  dropTarget: els.pages,
  url: config.urls.imports,
  onBusy: setProgress,
  onImported(body) {
    els.select.value = knowImport(body);
    applyForm({ strategyChanged: true });
  },
  onFailed(body, status, file) {
    // The view stays as it was; the reason is the server's (e.g. "chunk 3 has no text").
    showError(importRefusal(body, status, file), status);
  },
});

window.addEventListener("popstate", () => {
  state.view = readUrl(config.strategy, config.default_layout);
  buildForm();
  showTools();
  if (state.view.page) column.scrollToPage(state.view.page);
  loadReport({ wanted: state.view.chunk });
});

// --- start -------------------------------------------------------------------------

async function start() {
  buildForm();
  if (stored) showPreviews(stored.previews);
  showTools();
  applyZoom(els.pages, state.view.display.zoom);
  updateCompareLink();
  const initial = state.view;
  if (initial.page) {
    column.scrollToPage(initial.page);
    els.pageInput.value = initial.page;
  }
  column.start();
  const report = loadReport({ wanted: initial.chunk });
  // Labels are placed for the served font's metrics, so wait for it before drawing.
  await document.fonts.load('700 8px "Viewer Sans"');
  fontReady = true;
  column.redraw();
  await report;
  // Without a page in the URL, a selected chunk decides where the view starts.
  if (!initial.page && state.selected !== null) select(state.selected);
  await chunkList.whenComplete(); // a screenshot shows the list's whole length
  await markReady([els.pages]);
}

start();

// One side of the compare page: its selector and parameter form, its report (from the
// ordinary chunks API), its summary, banner and errors, and its column of pages.
// The page (compare.js) owns what links the two sides: selection, hover, the URL.
import { PageColumn } from "./columns.js";
import { clear, fill, h } from "./dom.js";
import { renderBanner } from "./banner.js";
import { buildOverlay } from "./overlay.js";
import { buildParamFields, markInvalid, readParamFields } from "./params.js";
import { indexReport } from "./report-index.js";
import { chunkAreas } from "./links.js";
import { importLabel, isImport, isStored, sourceQuery } from "./sources.js";
import { renderSideSummary } from "./compare-panels.js";
import { processingSentence } from "./stored.js";
import { fixtureMode } from "./fixture.js";
import { fetchReport, POLL_MS, startTicker } from "./report-loader.js";


export class SideView {
  /**
   * @param name    "left" or "right"
   * @param view    {source, params} from the URL
   * @param shared  {config, strategies, importNames, colour, paintSvg(side, svg), onReport(side)}
   */
  constructor(name, view, shared) {
    const q = (id) => document.querySelector(`[data-testid="${name}-${id}"]`);
    this.name = name;
    this.title = name === "left" ? "Left" : "Right";
    this.view = view;
    this.shared = shared;
    this.els = {
      select: q("select"), fields: q("param-fields"), params: q("params"), controls: q("controls"),
      summary: q("summary"), banner: q("banner"), error: q("error"), pages: q("pages"),
      detail: q("detail"), progress: q("progress"), importInput: q("import"),
    };
    this.report = null;
    this.index = null; // indexReport(report)
    this.areas = null; // chunk index -> text area, for links.js
    this.fontReady = false; // set once the font is loaded
    this.request = null;
    this.retry = null;
    this.column = new PageColumn({
      container: this.els.pages,
      pages: shared.config.document.pages,
      imageUrl: shared.config.urls.page_image,
      overlay: (number) => this.#overlay(number),
    });
  }

  #overlay(number) {
    if (!this.report || !this.fontReady) return null;
    const { byPage, overlapsByPage, labelsByPage } = this.index;
    const page = this.column.info.get(number);
    const svg = buildOverlay(page, byPage.get(number) || [], overlapsByPage.get(number) || [], {
      colour: this.shared.colour,
      labels: labelsByPage.get(number) || [],
    });
    this.shared.paintSvg(this.name, svg);
    return svg;
  }

  /** What this side shows, in words. */
  label() {
    const { source } = this.view;
    if (isImport(source)) return importLabel(this.shared.importNames.get(source) || "a chunks file");
    if (isStored(source)) return `Stored chunks (${this.shared.config.stored?.chunking_strategy || "strategy unknown"})`;
    return this.shared.strategies.get(source)?.label || source;
  }

  get state() {
    return this.els.pages.dataset.reportState;
  }

  set state(value) {
    this.els.pages.dataset.reportState = value;
  }

  buildForm() {
    this.els.select.value = this.view.source;
    const strategy = this.shared.strategies.get(this.view.source);
    if (strategy) buildParamFields(this.els.fields, strategy, this.view.params, `${this.name}-`);
    else clear(this.els.fields);
    // Stored and imported chunks have no parameters to set.
    this.els.params.hidden = !strategy;
    if (!strategy) this.els.params.open = false;
  }

  readForm() {
    const strategy = this.shared.strategies.get(this.view.source);
    return strategy ? readParamFields(this.els.fields, strategy) : {};
  }

  setProgress(text) {
    if (fixtureMode) text = null; // a counting "… 3 s" would differ between screenshots
    this.els.progress.textContent = text || "";
    this.els.progress.hidden = !text;
  }

  /** An error on this side, always naming it: "Bad parameter: left side: …". */
  showError(body, status) {
    const title = body?.error || `HTTP ${status}`;
    let message = body?.message || "The server did not say why.";
    if (!message.startsWith(`${this.name} side`)) message = `${this.name} side: ${message}`;
    fill(this.els.error, h("strong", {}, `${title}:`), " ", message);
    this.els.error.hidden = false;
    // The chunks API names the bare parameter; the page's own check, `left.<name>`.
    const parameter = body?.parameter?.replace(new RegExp(`^${this.name}\\.`), "") ?? null;
    markInvalid(this.els.fields, parameter, message);
    if (parameter && this.shared.strategies.has(this.view.source)) this.els.params.open = true;
  }

  clearReport() {
    this.report = null;
    this.index = null;
    this.areas = null;
    this.column.clearOverlays();
    clear(this.els.summary);
    this.els.banner.hidden = true;
  }

  showReport(report) {
    this.report = report;
    this.index = indexReport(report);
    this.areas = chunkAreas(report);
    // As in the viewer: the banner comes from the report; its chunk numbers select
    // chunks of this side (compare.js handles [data-select-side] links).
    renderBanner(this.els.banner, report, (index) => ({
      "data-select-side": this.name,
      "data-select-index": index,
    }));
    this.column.redraw();
  }

  renderSummary(documentTokens) {
    if (this.report) renderSideSummary(this.els.summary, this.report, documentTokens);
  }

  async load() {
    this.request?.abort();
    clearTimeout(this.retry);
    const request = new AbortController();
    this.request = request;
    this.clearReport();
    this.state = "loading";
    this.els.error.hidden = true;
    markInvalid(this.els.fields, null);
    const stopTicker = startTicker((text) => this.setProgress(text));
    this.els.pages.setAttribute("aria-busy", "true");
    try {
      const query = sourceQuery(this.view.source, this.view.params);
      const { response, body } = await fetchReport(this.shared.config.urls.chunks, query, request.signal);
      if (this.request !== request) return;
      if (!response.ok || !body) {
        this.showError(body, response.status);
        this.state = "error";
        // 409: a preview of a document still being processed; it will be possible soon.
        if (response.status === 409) this.retry = setTimeout(() => this.load(), POLL_MS);
      } else if (isStored(this.view.source) && body.state && body.state !== "ready") {
        this.#showStoredState(body);
      } else {
        this.showReport(body);
        this.state = "ready";
      }
    } catch (error) {
      if (error.name === "AbortError") return;
      this.showError({ error: "Network error", message: `could not reach the server (${error.message})` }, 0);
      this.state = "error";
    } finally {
      stopTicker();
      if (this.request === request) {
        this.setProgress(null);
        this.els.pages.removeAttribute("aria-busy");
        this.shared.onReport(this.name);
      }
    }
  }

  #showStoredState(body) {
    if (body.state === "processing") {
      fill(this.els.summary, h("p", { class: "hint" }, `No stored chunks yet: ${processingSentence(body.progress)}.`));
      this.state = "processing";
      this.retry = setTimeout(() => this.load(), POLL_MS);
      return;
    }
    this.showError({ error: "Processing failed", message: body.error || "no reason was recorded" }, 0);
    this.state = "failed";
  }
}

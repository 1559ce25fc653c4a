// The strategy parameter form (built from the registry's describe()) and the URL,
// which holds the whole view: strategy (or `import=<sha256>`), parameters, layout
// engine, page and selected chunk. For a knowledgebase document an empty strategy
// means "the stored chunks" (read by the knowledgebase's own layout engine).
import { fill, h } from "./dom.js";
import { IMPORT, importId, isImport, sourceQuery } from "./sources.js";
import { MODES, readDisplay, TOGGLES, TOOL_KEYS, writeDisplay } from "./focus.js";

const VIEW_KEYS = new Set(["strategy", "import", "page", "chunk", "layout", "focus", "fixture", ...TOGGLES, ...TOOL_KEYS, ...MODES]);

export function intParam(query, name) {
  const value = Number.parseInt(query.get(name) ?? "", 10);
  return Number.isFinite(value) ? value : null;
}

export function readUrl(defaultStrategy, defaultLayout = "") {
  const query = new URLSearchParams(window.location.search);
  const params = {};
  for (const [key, value] of query) if (!VIEW_KEYS.has(key)) params[key] = value;
  const imported = query.get("import");
  const strategy = imported ? IMPORT + imported : query.get("strategy") || defaultStrategy;
  const layout = query.get("layout") || defaultLayout;
  return {
    strategy, params, layout, page: intParam(query, "page"), chunk: intParam(query, "chunk"),
    display: readDisplay(query), // focus mode, overlay toggles and tools (focus.js)
  };
}

/** Replace (or, with `push`, add) the history entry when the query string changed. */
export function setQuery(query, { push = false } = {}) {
  // Fixture mode (fixture.js) stays on as the view changes, so a reload keeps it.
  if (new URLSearchParams(window.location.search).get("fixture") === "1") query.set("fixture", "1");
  const search = query.toString();
  const url = search ? `${window.location.pathname}?${search}` : window.location.pathname;
  if (url === `${window.location.pathname}${window.location.search}`) return;
  if (push) window.history.pushState(null, "", url);
  else window.history.replaceState(null, "", url);
}

export function writeUrl(view, { push = false } = {}) {
  const query = new URLSearchParams();
  if (isImport(view.strategy)) query.set("import", importId(view.strategy));
  else if (view.strategy) query.set("strategy", view.strategy);
  for (const [key, value] of Object.entries(view.params)) query.set(key, value);
  // Stored chunks were read by the knowledgebase's engine: only a preview names one.
  if (view.strategy && view.layout) query.set("layout", view.layout);
  if (view.page) query.set("page", String(view.page));
  if (view.chunk !== null && view.chunk !== undefined) query.set("chunk", String(view.chunk));
  if (view.display) writeDisplay(query, view.display);
  setQuery(query, { push });
}

export function apiQuery(view) {
  const query = sourceQuery(view.strategy, view.params);
  if (!query || !view.layout) return query;
  return `${query}&${new URLSearchParams({ layout: view.layout })}`;
}

function field(param, raw, idPrefix) {
  const id = `${idPrefix}param-${param.name}`;
  const common = { id, name: param.name, "data-param": param.name, "data-kind": param.kind };
  let input;
  if (param.kind === "bool") {
    const checked = raw === undefined ? Boolean(param.default) : ["1", "true", "yes", "on"].includes(String(raw).toLowerCase());
    input = h("input", { ...common, type: "checkbox", checked });
  } else if (param.kind === "choice") {
    const current = raw ?? param.default;
    input = h("select", common, param.choices.map((c) => h("option", { value: c, selected: c === current }, c)));
  } else {
    const value = raw ?? (param.default === null ? "" : String(param.default));
    input = h("input", {
      ...common,
      type: "number",
      step: 1,
      min: param.minimum,
      max: param.maximum,
      value,
      placeholder: param.optional ? "auto" : null,
    });
  }
  return [
    h("label", { for: id }, param.name),
    input,
    h("div", { class: "help" }, param.optional ? `${param.help.replace(/\.?$/, ".")} Leave empty for automatic.` : param.help),
  ];
}

/** `idPrefix` keeps the ids unique when a page has two forms (the compare page). */
export function buildParamFields(el, strategy, params, idPrefix = "") {
  fill(el,
    strategy.params.length
      ? strategy.params.map((p) => field(p, params[p.name], idPrefix))
      : h("p", { class: "help" }, "This strategy has no parameters."),
  );
}

/** The parameters that differ from the defaults, as strings for the query string. */
export function readParamFields(el, strategy) {
  const params = {};
  for (const param of strategy.params) {
    const input = el.querySelector(`[data-param="${param.name}"]`);
    if (!input) continue;
    let value;
    if (param.kind === "bool") value = input.checked ? "true" : "false";
    else value = input.value.trim();
    const defaultText = param.default === null ? "" : String(param.default);
    if (value !== defaultText) params[param.name] = value;
  }
  return params;
}

/**
 * Mark the field `name` invalid (and no other); with `message`, say why right under it,
 * since the open form covers the page's error bar.
 */
export function markInvalid(el, name, message = null) {
  for (const note of el.querySelectorAll(".param-error")) note.remove();
  for (const input of el.querySelectorAll("[data-param]")) {
    input.toggleAttribute("aria-invalid", input.dataset.param === name);
    if (input.dataset.param !== name) continue;
    input.setAttribute("aria-invalid", "true");
    if (message) {
      const help = input.nextElementSibling;
      (help || input).after(h("div", { class: "param-error", "data-testid": "param-error" }, message));
    }
  }
}

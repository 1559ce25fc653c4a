// The side panel: report summary, chunk list, analysis lists and the detail panel.
import { batchedList, fill, h, s } from "./dom.js";
import { firstWords, listNumbers, pageRange, plural, reasonText } from "./format.js";
import { partnersOf } from "./focus.js";

// Flags are data from the server ({code, message, intended, reason}); only those it
// marks as not intended (an unexplained overlap or containment) get the defect style.
export const isDefect = (flag) => flag.intended === false;

// A flag naming hundreds of chunks stays one line in the list; the tooltip has it all.
const shorten = (text, limit = 90) => (text.length > limit ? `${text.slice(0, limit - 1)}…` : text);

function flagList(flags) {
  if (!flags || flags.length === 0) return null;
  return h(
    "ul",
    { class: "flags" },
    flags.map((f) =>
      h(
        "li",
        {
          class: isDefect(f) ? "flag defect" : "flag",
          title: f.message,
          "data-flag": f.code,
          "data-intended": String(f.intended !== false),
        },
        shorten(f.message || f.code),
      ),
    ),
  );
}

const BINS = 12;

/** Chunk sizes at a glance: an inline SVG histogram of tokens per chunk, with counts
 * by chunk type. Each bar's title says its range and count. */
export function sizeHistogram(report) {
  const sizes = report.chunks.map((c) => c.tokens);
  if (!sizes.length) return null;
  const most = Math.max(...sizes);
  const step = Math.max(1, Math.ceil((most + 1) / BINS));
  const counts = new Array(BINS).fill(0);
  for (const size of sizes) counts[Math.min(BINS - 1, Math.floor(size / step))] += 1;
  const tallest = Math.max(...counts);
  const width = 240;
  const height = 48;
  const bar = width / BINS;
  const svg = s("svg", {
    class: "size-histogram", "data-testid": "size-histogram", viewBox: `0 0 ${width} ${height + 12}`,
    width, height: height + 12, role: "img",
    "aria-label": `Chunk sizes: ${sizes.length} chunks from ${Math.min(...sizes)} to ${most} tokens`,
  });
  counts.forEach((count, n) => {
    const h2 = tallest ? (count / tallest) * height : 0;
    const rect = s("rect", {
      x: n * bar + 1, y: height - h2, width: bar - 2, height: Math.max(h2, count ? 1 : 0),
      "data-bin": n, "data-count": count,
    });
    rect.append(s("title", {}, `${n * step}–${(n + 1) * step - 1} tokens: ${plural(count, "chunk")}`));
    svg.append(rect);
  });
  svg.append(
    s("text", { x: 0, y: height + 10 }, "0"),
    s("text", { x: width, y: height + 10, "text-anchor": "end" }, `${most} tokens`),
  );
  const types = new Map();
  for (const c of report.chunks) types.set(c.chunk_type, (types.get(c.chunk_type) || 0) + 1);
  return h(
    "details",
    { class: "sizes", "data-testid": "sizes" },
    h("summary", {}, "Chunk sizes and types"),
    svg,
    h("p", { class: "type-counts", "data-testid": "type-counts" },
      [...types].map(([type, count]) => `${type} ${count}`).join(" · ")),
    ...(report.tables || []).map((t) => h("p", { class: "table-figures", "data-testid": "table-figures" },
      `table ${t.table}: ${t.tokens} tokens, ${plural(t.rows, "row")}, ` +
        (t.predicted_split === null ? "kept whole by the strategy" : `cut by a window ${Math.round(t.predicted_split * 100)}% of the time`) +
        `; here ${t.split ? "split" : "whole"} (${plural(t.chunks.length, "chunk")})`)),
  );
}

/** Whose code cut the chunks ("LangChain 1.1.3", "port equal to LangChain 1.1.3"), for
 * the strategies that reproduce a library; null for our own. */
export function implementationTag(strategy) {
  if (!strategy?.implementation) return null;
  return h("span", {
    class: "tag implementation", "data-testid": "implementation",
    title: strategy.implementation.startsWith("port ")
      ? "The library is not installed here; this project's port of it, tested to cut the same chunks, ran."
      : "The library itself cut these chunks.",
  }, strategy.implementation);
}

/** `mode` is "stored" or "preview" for a knowledgebase document, null for a sample. */
export function renderSummary(el, report, mode = null) {
  const { strategy } = report;
  const unexplained = report.overlaps.filter((o) => !o.intended).length +
    report.containment.filter((c) => !c.intended).length;
  const modeTag = mode ? h("span", { class: `tag mode-${mode}`, "data-testid": "report-mode" }, mode) : null;
  fill(el,
    strategy
      ? h(
          "details",
          {},
          h("summary", {}, h("span", { class: "label" }, strategy.label), " ", h("span", { class: "tag" }, strategy.name), " ",
            implementationTag(strategy), " ", modeTag),
          h("p", { class: "explanation" }, strategy.explanation),
        )
      // Unreadable knowledgebase metadata: say so rather than guess a strategy.
      : h("p", {}, h("span", { class: "label" }, "Strategy unknown"), " ", modeTag),
    h(
      "div",
      { class: "counts", "data-testid": "counts" },
      `${plural(report.chunks.length, "chunk")} · ${plural(report.overlaps.length, "overlap")} · ` +
        `${plural(report.containment.length, "containment pair")} · ` +
        `${plural(report.diagnostics.length, "diagnostic")}` +
        (unexplained ? ` · ${unexplained} unexplained` : ""),
    ),
    sizeHistogram(report),
  );
}

/** One chunk's entry in the chunk list (chunk-list.js builds the list from them). */
export function listEntry(chunk, colour) {
  return h(
    "li",
    {
      class: (chunk.flags || []).some(isDefect) ? "chunk has-defect" : "chunk",
      tabindex: 0,
      "data-chunk-index": chunk.index,
      title: chunk.why,
      style: { "--c": colour(chunk.index) },
      "aria-label": `Chunk ${chunk.index}, ${chunk.chunk_type}, ${chunk.tokens} tokens, ${pageRange(chunk.pages)}`,
    },
    h(
      "div",
      { class: "chunk-head" },
      h("span", { class: "chunk-num" }, chunk.index),
      h("span", { class: "badge", "data-chunk-type": chunk.chunk_type }, chunk.chunk_type),
      h("span", { class: "meta" }, `${chunk.tokens} tokens · ${pageRange(chunk.pages)}`),
    ),
    chunk.heading_path.length ? h("div", { class: "heading-path" }, chunk.heading_path.join(" › ")) : null,
    h("div", { class: "first-words" }, firstWords(chunk.text)),
    flagList(chunk.flags),
  );
}

export function containmentGroups(report) {
  const groups = new Map();
  for (const pair of report.containment) {
    if (!groups.has(pair.container)) groups.set(pair.container, []);
    groups.get(pair.container).push(pair);
  }
  for (const pairs of groups.values()) pairs.sort((a, b) => a.contained - b.contained);
  return groups;
}

function reasons(items) {
  const names = [...new Set(items.map((i) => i.reason))];
  const defect = items.some((i) => !i.intended);
  return h(
    "span",
    { class: defect ? "reason unexplained" : "reason" },
    ` — ${names.map(reasonText).join("; ")}${defect ? "" : " (intended)"}`,
  );
}

export function renderAnalysis(els, report) {
  const overlaps = report.overlaps;
  fill(els.overlaps,
    h("h2", {}, `Overlapping boxes (${report.overlap_method}): ${overlaps.length}`),
    overlaps.length
      ? batchedList(
          "ul",
          {},
          overlaps,
          (o) =>
            h(
              "li",
              {
                "data-overlap": `${o.a}-${o.b}-${o.page}`,
                "data-intended": String(o.intended !== false),
                class: o.intended === false ? "defect" : null,
                tabindex: 0,
              },
              `Chunks ${o.a} and ${o.b} on page ${o.page}`,
              reasons([o]),
            ),
        )
      : h("p", { class: "none" }, "No adjacent chunks' boxes intersect."),
  );

  const groups = containmentGroups(report);
  fill(els.containment,
    h("h2", {}, `Containment: ${plural(report.containment.length, "pair")}`),
    groups.size
      ? h(
          "ul",
          {},
          [...groups].map(([container, pairs]) =>
            h(
              "li",
              {
                "data-containment": container,
                "data-intended": String(pairs.every((p) => p.intended !== false)),
                class: pairs.some((p) => p.intended === false) ? "defect" : null,
                tabindex: 0,
              },
              `Chunk ${container} contains ${listNumbers(pairs.map((p) => p.contained))}`,
              reasons(pairs),
            ),
          ),
        )
      : h("p", { class: "none" }, "No chunk contains another."),
  );

  fill(els.diagnostics,
    h("h2", {}, `Diagnostics: ${report.diagnostics.length}`),
    report.diagnostics.length
      ? batchedList(
          "ul",
          {},
          report.diagnostics,
          (d) => h("li", { "data-diagnostic": d.code, "data-chunk": d.chunk ?? "" }, d.message),
        )
      : h("p", { class: "none" }, "Nothing to report."),
    // What the layout step could not do (no OCR, running headers left out): it
    // explains missing boxes, so it belongs next to the diagnostics.
    (report.warnings || []).length
      ? h(
          "ul",
          { "data-testid": "layout-warnings" },
          report.warnings.map((w) => h("li", { "data-warning": "" }, `Reading the PDF: ${w}`)),
        )
      : null,
  );
}

/** The chunks focus mode draws lightly beside the selection, each with its reason. */
function relatedList(report, index) {
  const partners = partnersOf(report, index);
  if (!partners.size) return null;
  return h(
    "ul",
    { class: "related", "data-testid": "related" },
    [...partners].sort((a, b) => a[0] - b[0]).map(([other, why]) =>
      h("li", { "data-chunk-index": other, tabindex: 0 }, h("strong", {}, `Chunk ${other}`), ` — ${why}`)),
  );
}

export function renderDetail(el, report, index, colour) {
  if (index === null) {
    fill(el,
      h("p", { class: "hint" }, "Select a chunk (click a box or a list entry, or press j / k) to see its text."),
    );
    return;
  }
  const chunk = report.chunks[index];
  const overlaps = report.overlaps.filter((o) => o.a === index || o.b === index);
  const holds = report.containment.filter((c) => c.container === index).map((c) => c.contained);
  const heldBy = report.containment.filter((c) => c.contained === index).map((c) => c.container);
  const origin = chunk.origin && chunk.origin.sources ? `${chunk.origin.rule}, from chunks ${listNumbers(chunk.origin.sources)}` : chunk.origin?.rule;
  fill(el,
    h(
      "h2",
      { style: { "border-left": `6px solid ${colour(index)}`, "padding-left": "6px" } },
      `Chunk ${index}`,
      h("span", { class: "badge", "data-chunk-type": chunk.chunk_type }, chunk.chunk_type),
    ),
    h("p", { class: "why", "data-testid": "chunk-why" }, chunk.why),
    h(
      "dl",
      {},
      h("dt", {}, "Tokens"), h("dd", {}, chunk.tokens),
      h("dt", {}, "Pages"), h("dd", {}, pageRange(chunk.pages)),
      h("dt", {}, "Heading"), h("dd", {}, chunk.heading_path.join(" › ") || "none"),
      origin ? [h("dt", {}, "Made by"), h("dd", {}, origin)] : null,
      holds.length ? [h("dt", {}, "Contains"), h("dd", {}, `chunks ${listNumbers(holds)}`)] : null,
      heldBy.length ? [h("dt", {}, "Inside"), h("dd", {}, `chunks ${listNumbers(heldBy)}`)] : null,
      overlaps.length
        // Chunk numbers, said as such ("Overlaps: 0 on p. 1" read as a count).
        ? [h("dt", {}, "Overlaps"), h("dd", { "data-testid": "detail-overlaps" },
            overlaps.map((o) => `chunk ${o.a === index ? o.b : o.a} on p. ${o.page}`).join(", "))]
        : null,
    ),
    flagList(chunk.flags),
    relatedList(report, index),
    h("pre", { class: "text", "data-testid": "chunk-text" }, chunk.text),
  );
}

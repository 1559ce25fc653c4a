// The compare page's words: each side's summary (the numbers worth comparing), and
// the detail pane of the side opposite the chunk being inspected, listing the chunks
// that share its words with both texts at hand.
import { fill, h } from "./dom.js";
import { plural } from "./format.js";
import { implementationTag } from "./panels.js";

const count = (n) => n.toLocaleString("en-US");
const percent = (share) => `${Math.round(share * 100)} %`;

export const storedTokens = (report) => report.chunks.reduce((total, chunk) => total + chunk.tokens, 0);

/** "+29 %" / "−4 %": how much more (or less) the chunks store than the document holds. */
function inflation(stored, documentTokens) {
  const change = Math.round((stored / documentTokens - 1) * 100);
  return change >= 0 ? `+${change} %` : `−${-change} %`;
}

/**
 * @param documentTokens the document's token count (from this side's report, or the
 *                       other's: the same document), or null when neither knows it
 */
export function renderSideSummary(el, report, documentTokens) {
  const stored = storedTokens(report);
  const unexplained = report.overlaps.filter((o) => !o.intended).length +
    report.containment.filter((c) => !c.intended).length;
  const item = (name, text) => h("span", { class: "count", "data-count": name }, text);
  fill(el,
    h("div", { class: "counts" },
      item("chunks", plural(report.chunks.length, "chunk")), " · ",
      item("overlaps", plural(report.overlaps.length, "overlap")), " · ",
      item("containment", plural(report.containment.length, "containment pair")), " · ",
      item("diagnostics", plural(report.diagnostics.length, "diagnostic")),
      unexplained ? [" · ", h("span", { class: "count defect", "data-count": "unexplained" }, `${unexplained} unexplained`)] : null,
    ),
    h("div", { class: "tokens", "data-count": "tokens" },
      documentTokens
        ? [`${count(stored)} tokens stored for ${count(documentTokens)} in the document `,
          h("strong", { class: stored > documentTokens ? "inflated" : null }, `(${inflation(stored, documentTokens)})`)]
        : `${count(stored)} tokens stored`,
    ),
    implementationTag(report.strategy),
  );
}

export function renderHint(el, text) {
  fill(el, h("p", { class: "hint" }, text));
}

/**
 * The other side's pane while a chunk is inspected: the chunks of this side that
 * share its words, each with how much and its text; a heading names the chunk.
 *
 * @param from   {side, index} the chunk being inspected, on the other side
 * @param links  sharedChunks(...) from links.js, seen from that chunk
 */
export function renderLinked(el, { side, report, from, links, colour }) {
  const title = `${from.side} chunk ${from.index}`;
  if (!links.length) {
    fill(el, h("p", { class: "hint", "data-testid": `${side}-linked-none` },
      `No chunk on this side shares words with ${title}.`));
    return;
  }
  fill(el,
    h("h2", { class: "linked-heading" },
      `Sharing words with ${title}: ${plural(links.length, "chunk")}`),
    links.map(({ index, share, shareOther }) => {
      const chunk = report.chunks[index];
      return h("article", { class: "linked-chunk", "data-linked-index": index, style: { "--c": colour(index) } },
        h("h3", {},
          h("button", { type: "button", class: "chunk-link", "data-select-side": side, "data-select-index": index,
            title: "Select this chunk" }, `Chunk ${index}`),
          h("span", { class: "badge", "data-chunk-type": chunk.chunk_type }, chunk.chunk_type),
          h("span", { class: "share" },
            `${percent(shareOther)} of its text is in ${title}, covering ${percent(share)} of it · ${chunk.tokens} tokens`),
        ),
        h("pre", { class: "text" }, chunk.text),
      );
    }),
  );
}

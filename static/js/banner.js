// The strategy's banner for this document: text from the server, with the chunks it
// names as links that select them. No strategy known (unreadable metadata) means no
// banner rather than a guess.
import { fill, h } from "./dom.js";

/** `linkAttrs(index)`: the attributes that make a link select chunk `index` on this page. */
export function renderBanner(el, report, linkAttrs) {
  const about = report.chunking_strategy ? report.strategy : null;
  const parts = about?.banner_parts || (about?.banner ? [{ text: about.banner }] : null);
  if (!parts) {
    fill(el);
    el.hidden = true;
    return;
  }
  fill(el, parts.map((part) =>
    part.chunk === undefined
      ? part.text
      : h("button", {
          type: "button",
          class: "chunk-link",
          title: `Select chunk ${part.chunk}`,
          "data-banner-chunk": part.chunk,
          ...linkAttrs(part.chunk),
        }, String(part.chunk)),
  ));
  el.hidden = false;
}

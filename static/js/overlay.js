// The SVG overlay of one page: chunk boxes in chunk order, overlap marks, a hit
// layer and number labels. Built only when the page scrolls into view.
import { s } from "./dom.js";
import { listNumbers, reasonText } from "./format.js";

const LABEL_SIZE = 8;
const TAG_SIZE = 7;
const PAD = 2;
const TAG_LIMIT = 6; // numbers written on a box; the side panel lists them all

export function makeMeasurer() {
  const context = document.createElement("canvas").getContext("2d");
  return (text, size) => {
    context.font = `700 ${size}px "Viewer Sans"`;
    return context.measureText(text).width;
  };
}

function collides(box, placed) {
  return placed.some((o) => box[0] < o[2] && o[0] < box[2] && box[1] < o[3] && o[1] < box[3]);
}

// Same rule as visualiser/render.py place_labels: in the left margin beside the box's
// top edge, moving further left when taken; inside the box when the margin is narrow.
export function placeLabels(items, pageWidth, pageHeight) {
  const placed = [];
  const height = LABEL_SIZE + 2 * PAD;
  for (const { width, bbox } of items) {
    const top = Math.min(Math.max(bbox[1], 0), Math.max(pageHeight - height, 0));
    let x1 = bbox[0] - 3;
    let box = [x1 - width, top, x1, top + height];
    while (box[0] >= 0 && collides(box, placed)) {
      x1 -= width + 2;
      box = [x1 - width, top, x1, top + height];
    }
    if (box[0] < 0) {
      let x0 = Math.max(bbox[0], 0) + 2;
      box = [x0, top + 2, x0 + width, top + 2 + height];
      while (box[2] <= pageWidth && collides(box, placed)) {
        x0 += width + 2;
        box = [x0, top + 2, x0 + width, top + 2 + height];
      }
    }
    placed.push(box);
  }
  return placed;
}

function rect(box, cls) {
  return s("rect", {
    class: cls,
    x: box[0],
    y: box[1],
    width: Math.max(box[2] - box[0], 0.5),
    height: Math.max(box[3] - box[1], 0.5),
    "vector-effect": "non-scaling-stroke",
  });
}

const area = (b) => (b[2] - b[0]) * (b[3] - b[1]);

function label(cls, index, colour, box, text, size) {
  return s(
    "g",
    { class: cls, "data-chunk-index": index, style: { "--c": colour } },
    s("rect", { x: box[0], y: box[1], width: box[2] - box[0], height: box[3] - box[1], rx: 1.5 }),
    s("text", { x: box[0] + PAD, y: box[3] - PAD - 1.2 * (size / LABEL_SIZE) }, text),
  );
}

/**
 * @param page     {number, width, height}
 * @param entries  [{chunk, region}] for this page, in chunk order
 * @param overlaps the report's overlaps on this page
 * @param ctx      {colour(index), holds: Map(container -> [contained]),
 *                  unexplained: Set(container) of unexplained containment, measure}
 */
export function buildOverlay(page, entries, overlaps, ctx) {
  const svg = s("svg", {
    class: "overlay",
    viewBox: `0 0 ${page.width} ${page.height}`,
    preserveAspectRatio: "none",
    "data-page": page.number,
  });

  const boxes = s("g", { class: "boxes" });
  for (const { chunk, region } of entries) {
    boxes.append(
      s(
        "g",
        { class: "box", "data-chunk-index": chunk.index, style: { "--c": ctx.colour(chunk.index) } },
        region.rects.map((r) => rect(r, "line")),
        rect(region.bbox, "bbox"),
      ),
    );
  }

  // Only the text two chunks share is hatched (the overlap's rects, from the server);
  // enclosing boxes that cross where no word is shared get a thin outline, no hatch.
  const marks = s("g", { class: "overlaps" });
  for (const overlap of overlaps) {
    const rects = overlap.rects || [];
    const defect = overlap.intended === false ? " defect" : "";
    const mark = rects.length
      ? s("path", {
          class: `overlap-mark${defect}`,
          d: rects.map((r) => `M${r[0]},${r[1]}H${r[2]}V${r[3]}H${r[0]}Z`).join(""),
          "vector-effect": "non-scaling-stroke",
        })
      : rect(overlap.bbox, `overlap-outline${defect}`);
    mark.dataset.overlap = `${overlap.a}-${overlap.b}-${overlap.page}`;
    const where = rects.length ? "share text here" : "have crossing boxes here but share no text";
    mark.append(
      s("title", {}, `Chunks ${overlap.a} and ${overlap.b} ${where}: ${reasonText(overlap.reason)}`),
    );
    marks.append(mark);
  }

  // Largest first, so a nested (smaller) box lies on top and keeps the mouse.
  const hits = s("g", { class: "hits" });
  for (const { chunk, region } of [...entries].sort((a, b) => area(b.region.bbox) - area(a.region.bbox))) {
    const hit = rect(region.bbox, "hit");
    hit.setAttribute("data-chunk-index", chunk.index);
    hit.append(s("title", {}, `Chunk ${chunk.index} (${chunk.chunk_type}): ${chunk.why || ""}`));
    hits.append(hit);
  }

  const labels = s("g", { class: "labels" });
  const wanted = entries.map(({ chunk, region }) => ({
    width: ctx.measure(String(chunk.index), LABEL_SIZE) + 2 * PAD,
    bbox: region.bbox,
  }));
  placeLabels(wanted, page.width, page.height).forEach((box, i) => {
    const { chunk } = entries[i];
    labels.append(label("label", chunk.index, ctx.colour(chunk.index), box, String(chunk.index), LABEL_SIZE));
  });
  // Containment is written on the container's box: "contains 1, 2, 3".
  for (const { chunk, region } of entries) {
    const inner = ctx.holds.get(chunk.index);
    if (!inner) continue;
    const text = `contains ${listNumbers(inner, TAG_LIMIT)}`;
    const width = ctx.measure(text, TAG_SIZE) + 2 * PAD;
    const height = TAG_SIZE + 2 * PAD;
    const b = region.bbox;
    const top = b[1] >= height + 1 ? b[1] - height - 1 : b[1] + 1;
    const cls = ctx.unexplained?.has(chunk.index) ? "tag defect" : "tag";
    labels.append(label(cls, chunk.index, ctx.colour(chunk.index), [b[2] - width, top, b[2], top + height], text, TAG_SIZE));
  }

  svg.append(boxes, marks, hits, labels);
  return svg;
}

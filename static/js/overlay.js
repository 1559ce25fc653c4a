// The SVG overlay of one page: chunk boxes in chunk order, overlap marks, a hit
// layer and number labels. Built only when the page scrolls into view.
import { s } from "./dom.js";
import { reasonText } from "./format.js";

const LABEL_SIZE = 8;
const TAG_SIZE = 7;
const PAD = 2;

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

// Many chunks starting on one line share one label ("15–27"); hovering it shows one
// chip per chunk below it (over the page only while hovered), each selecting its chunk.
function groupLabel(mark, colour) {
  const [x0, top, x1, bottom] = mark.box;
  const height = bottom - top;
  const members = s("g", { class: "members" });
  mark.chunks.forEach((index, n) => {
    const y = bottom + 1 + n * (height + 1);
    members.append(label("label", index, colour(index), [x0, y, x1, y + height], String(index), LABEL_SIZE));
  });
  return s(
    "g",
    { class: "group", "data-chunks": mark.chunks.join(" ") },
    s("rect", { x: x0, y: top, width: x1 - x0, height, rx: 1.5 }),
    s("text", { x: x0 + PAD, y: bottom - PAD - 1.2 }, mark.text),
    s("title", {}, `Chunks ${mark.chunks.join(", ")} start on this line`),
    members,
  );
}

/**
 * @param page     {number, width, height}
 * @param entries  [{chunk, region}] for this page, in chunk order
 * @param overlaps the report's overlaps on this page
 * @param ctx      {colour(index), labels: the server's placed labels for this page}
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

  // Labels and tags where the server placed them (visualiser/labels.py, the same
  // placement as `visualiser render`): in the margins or free space, never over text.
  const labels = s("g", { class: "labels" });
  for (const mark of ctx.labels || []) {
    if (mark.kind === "tag") {
      const cls = mark.defect ? "tag defect" : "tag";
      labels.append(label(cls, mark.chunks[0], ctx.colour(mark.chunks[0]), mark.box, mark.text, TAG_SIZE));
    } else if (mark.kind === "group") {
      labels.append(groupLabel(mark, ctx.colour));
    } else {
      labels.append(label("label", mark.chunks[0], ctx.colour(mark.chunks[0]), mark.box, mark.text, LABEL_SIZE));
    }
  }

  svg.append(boxes, marks, hits, labels);
  return svg;
}

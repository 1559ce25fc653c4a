// A selectable text layer over a page image: the page's words as transparent SVG text
// fitted to their boxes, one <text> per line, so a chunk's text can be selected and
// copied from the page itself. Shown in "Select text" mode (the overlay then lets the
// mouse through).
import { s } from "./dom.js";

/** Words [[x0, top, x1, bottom, text]] in reading order, grouped into lines. */
function lines(words) {
  const out = [];
  for (const word of words) {
    const last = out[out.length - 1];
    const prev = last?.[last.length - 1];
    const sameLine = prev && word[0] >= prev[0] && Math.min(word[3], prev[3]) - Math.max(word[1], prev[1]) > 0.5 * (word[3] - word[1]);
    if (sameLine) last.push(word);
    else out.push([word]);
  }
  return out;
}

export function buildTextLayer(page, words) {
  const svg = s("svg", {
    class: "text-layer", viewBox: `0 0 ${page.width} ${page.height}`,
    preserveAspectRatio: "none", "data-page": page.number,
  });
  for (const line of lines(words)) {
    const height = Math.max(...line.map((w) => w[3] - w[1]));
    const text = s("text", { "font-size": height * 0.9 });
    line.forEach(([x0, , x1, bottom, word], n) => {
      if (n) text.append(" ");
      text.append(s("tspan", { x: x0, y: bottom - height * 0.18, textLength: Math.max(x1 - x0, 0.5), lengthAdjust: "spacingAndGlyphs" }, word));
    });
    svg.append(text, "\n");
  }
  return svg;
}

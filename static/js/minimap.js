// A minimap beside the pages: every page as a strip, the chunk boxes on it in their
// colours, and the part of the document in view. A click scrolls there.
import { s } from "./dom.js";

export class Minimap {
  /** @param pages [{number, width, height}]; onGo(page, y) scrolls to y points on page */
  constructor(el, pages, onGo) {
    this.el = el;
    this.pages = pages;
    this.onGo = onGo;
    this.top = new Map(); // page -> its top in minimap units (page widths)
    let y = 0;
    for (const page of pages) {
      this.top.set(page.number, y);
      y += page.height / page.width + 0.04;
    }
    this.height = y;
    this.svg = s("svg", { viewBox: `0 0 1 ${y}`, preserveAspectRatio: "none", "data-testid": "minimap-svg" });
    this.view = s("rect", { class: "in-view", x: 0, y: 0, width: 1, height: 0 });
    // The page strips are the same for every report: built once, not on each switch
    // (with their titles, 1,238 elements on a 619-page document).
    this.pagesLayer = s("g", { class: "mini-pages" });
    for (const page of pages) {
      const rect = s("rect", { x: 0, y: this.top.get(page.number), width: 1, height: page.height / page.width, "data-mini-page": page.number });
      rect.append(s("title", {}, `Page ${page.number}`));
      this.pagesLayer.append(rect);
    }
    this.boxes = s("g", { class: "mini-boxes" });
    this.built = new WeakMap(); // report -> its boxes, gone with the report
    this.svg.append(this.pagesLayer, this.boxes, this.view);
    el.replaceChildren(this.svg);
    el.addEventListener("click", (event) => this.#go(event));
  }

  draw(report, colour) {
    // A report shown again (a warm switch) gets the boxes built for it the first time.
    const built = report ? this.built.get(report) : null;
    if (built) {
      this.boxes.replaceWith(built);
      this.boxes = built;
      return;
    }
    const boxes = s("g", { class: "mini-boxes" });
    const info = new Map(this.pages.map((p) => [p.number, p]));
    for (const chunk of report?.chunks || []) {
      for (const region of chunk.regions) {
        const page = info.get(region.page);
        if (!page) continue;
        const [x0, top, x1, bottom] = region.bbox.map((v) => v / page.width);
        boxes.append(s("rect", {
          x: x0, y: this.top.get(region.page) + top, width: Math.max(x1 - x0, 0.01),
          height: Math.max(bottom - top, 0.004), fill: colour(chunk.index), "data-mini-chunk": chunk.index,
        }));
      }
    }
    this.boxes.replaceWith(boxes);
    this.boxes = boxes;
    if (report) this.built.set(report, boxes);
  }

  /** The part in view, as fractions of the column's scroll height. */
  show(from, to) {
    this.view.setAttribute("y", String(from * this.height));
    this.view.setAttribute("height", String(Math.max((to - from) * this.height, 0.02)));
  }

  #go(event) {
    const box = this.el.getBoundingClientRect();
    const y = ((event.clientY - box.top) / box.height) * this.height;
    let target = this.pages[0];
    for (const page of this.pages) if (this.top.get(page.number) <= y) target = page;
    const within = (y - this.top.get(target.number)) * target.width;
    this.onGo?.(target.number, Math.max(0, within));
  }
}

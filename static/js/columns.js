// A scrolling column of page placeholders (rendered by the server from page sizes
// alone) that get their image and chunk overlay only near the viewport: a 600-page
// document opens at once, and scrolling through it does not keep 600 decoded images.
// The viewer has one column; the compare page has two over the same pages.

function imageScale(page, el) {
  const pixels = el.clientWidth * (window.devicePixelRatio || 1);
  // Quarter steps: fewer cache entries. clientWidth is rounded to whole pixels, so a
  // page at the default zoom (1.25) can measure a hair over it (595 pt: 743.75 -> 744
  // px); the 0.01 keeps that at 1.25, the scale its images were rendered ahead at.
  const scale = Math.ceil((pixels / page.width) * 4 - 0.01) / 4;
  return Math.min(4, Math.max(0.25, scale));
}

export class PageColumn {
  /**
   * @param container  the scrolling element holding `section.page[data-page]`
   * @param pages      [{number, width, height}] from the config
   * @param imageUrl   the page-image URL with page number 0 (the server's url_for)
   * @param overlay    (number) => an SVG for that page, or null while there is none
   */
  constructor({ container, pages, imageUrl, overlay }) {
    this.container = container;
    this.info = new Map(pages.map((p) => [p.number, p]));
    this.els = new Map([...container.querySelectorAll("section.page")].map((el) => [Number(el.dataset.page), el]));
    this.imageUrl = imageUrl;
    this.overlay = overlay;
    this.visible = new Set();
    this.built = new Set(); // pages whose overlay matches the current report
    this.observer = new IntersectionObserver((entries) => this.#seen(entries), {
      root: container,
      rootMargin: "800px 0px",
    });
  }

  start() {
    for (const el of this.els.values()) this.observer.observe(el);
  }

  get pageCount() {
    return this.els.size;
  }

  #seen(entries) {
    for (const entry of entries) {
      const number = Number(entry.target.dataset.page);
      if (entry.isIntersecting) {
        this.visible.add(number);
        this.showPage(number);
      } else {
        this.visible.delete(number);
        this.#release(number);
      }
    }
  }

  ensureImage(number) {
    const el = this.els.get(number);
    if (el.querySelector("img")) return;
    const img = document.createElement("img");
    img.alt = `Page ${number}`;
    img.decoding = "async";
    img.addEventListener("load", () => el.setAttribute("data-loaded", ""));
    img.addEventListener("error", () => el.setAttribute("data-load-error", ""));
    const scale = imageScale(this.info.get(number), el);
    img.src = `${this.imageUrl.replace(/\/0\.png$/, `/${number}.png`)}?scale=${scale}`;
    el.prepend(img);
  }

  ensureOverlay(number) {
    if (this.built.has(number)) return;
    const svg = this.overlay(number);
    if (!svg) return;
    const el = this.els.get(number);
    el.querySelector("svg.overlay")?.remove();
    el.append(svg);
    this.built.add(number);
  }

  showPage(number) {
    this.ensureImage(number);
    this.ensureOverlay(number);
  }

  /** New page images at the current width (after a zoom), for the visible pages. */
  rescale() {
    for (const number of this.visible) {
      this.els.get(number).querySelector("img")?.remove();
      this.ensureImage(number);
    }
  }

  /** Draw the overlays of the visible pages again (a new report, or fonts ready). */
  redraw() {
    this.clearOverlays();
    for (const number of this.visible) this.ensureOverlay(number);
  }

  clearOverlays() {
    this.built.clear();
    for (const svg of this.container.querySelectorAll("svg.overlay")) svg.remove();
  }

  // A page well outside the viewport gives back its image and overlay. Coming back is
  // quick: the PNG is in the browser's cache.
  #release(number) {
    const el = this.els.get(number);
    el.querySelector("img")?.remove();
    el.removeAttribute("data-loaded");
    el.querySelector("svg.overlay")?.remove();
    this.built.delete(number);
  }

  pageTop(number) {
    return this.els.get(number).offsetTop;
  }

  /** The last page whose top is above a third of the viewport (binary search). */
  currentPage() {
    const mark = this.container.scrollTop + this.container.clientHeight / 3;
    let low = 1;
    let high = this.els.size;
    while (low < high) {
      const mid = Math.ceil((low + high) / 2);
      if (this.pageTop(mid) <= mark) low = mid;
      else high = mid - 1;
    }
    return low;
  }

  scrollToPage(number) {
    const target = Math.min(Math.max(number, 1), this.els.size);
    this.container.scrollTop = this.pageTop(target) - 16;
  }

  scrollToBox(page, bbox) {
    const el = this.els.get(page);
    const y = this.pageTop(page) + (bbox[1] / this.info.get(page).height) * el.clientHeight;
    this.container.scrollTop = Math.max(0, y - 48);
  }
}

// The chunk list, built in batches: the first entries at once, the rest a batch per
// idle moment. The 619-page rulebook has 1,451 chunks; building all their entries
// (about 0.12 s traced in chromium) and laying them out came before page 1's boxes
// were drawn. Whatever needs an entry not built yet (selecting the last chunk with k,
// a box's hover) builds the list up to it first.
import { clear } from "./dom.js";
import { listEntry } from "./panels.js";

// A few screenfuls of entries at once (the panel shows about six); the rest come while
// the browser is idle. Each entry built before page 1's boxes costs their arrival
// about 0.4 ms here (a warm switch of strategy on the 619-page rulebook built 200).
const FIRST = 24;
const BATCH = 300;
const idle = window.requestIdleCallback || ((run) => setTimeout(run, 1));
const PER_MS = 10; // entries built per millisecond (1,451 in about 0.12 s, traced)
// At most this many per idle moment, however long it is: the frame after it lays the
// new entries out, outside the idle time (500 entries from a 50 ms idle moment cost the
// next frame about 80 ms, traced, in the middle of a strategy switch).
export const IDLE_MOST = 80;

/** How many entries fit what is left of the idle moment, so that a click or a page
 * jump arriving meanwhile is not held up behind a whole batch (`fallback` where the
 * browser has no requestIdleCallback). */
export function idleBatch(deadline, fallback) {
  if (!deadline?.timeRemaining) return fallback;
  return Math.min(IDLE_MOST, Math.max(PER_MS, Math.floor(deadline.timeRemaining()) * PER_MS));
}
const cancelIdle = window.cancelIdleCallback || clearTimeout;

export class ChunkList {
  /** @param paint (fragment) => void marks new entries with the view's state
   * (selection, hover, filters) before they join the list */
  constructor(el, colour, paint) {
    Object.assign(this, { el, colour, paint });
    this.chunks = [];
    this.built = 0;
    this.pending = null;
    this.finished = Promise.resolve();
    this.done = () => {};
  }

  show(report) {
    this.clear();
    this.chunks = report.chunks;
    this.finished = new Promise((resolve) => { this.done = resolve; });
    this.#buildTo(FIRST);
  }

  clear() {
    if (this.pending !== null) cancelIdle(this.pending);
    this.pending = null;
    this.chunks = [];
    this.built = 0;
    clear(this.el);
    this.done();
  }

  /** The list entry of chunk `index`, built if it was not yet. */
  entry(index) {
    if (index >= this.built) this.#buildTo(index + 1);
    return this.el.querySelector(`:scope > [data-chunk-index="${index}"]`);
  }

  /** Resolves once every entry is in the list (fixture mode waits for it). */
  whenComplete() {
    return this.finished;
  }

  #buildTo(count) {
    const end = Math.min(count, this.chunks.length);
    if (end > this.built) {
      const fragment = document.createDocumentFragment();
      for (const chunk of this.chunks.slice(this.built, end)) fragment.append(listEntry(chunk, this.colour));
      this.paint(fragment);
      this.el.append(fragment);
      this.built = end;
    }
    if (this.pending !== null) cancelIdle(this.pending);
    this.pending = null;
    if (this.built < this.chunks.length) {
      this.pending = idle((deadline) => {
        this.pending = null;
        this.#buildTo(this.built + idleBatch(deadline, BATCH));
      });
    } else {
      this.done();
    }
  }
}

// Which chunks of one chunking share words with a chunk of another, from the boxes
// alone. Both sides place the same document's words, and a chunk's line rectangles
// are tight around its words (one per run of words on a line), so two chunks share
// words exactly where their rectangles on the same page cross as parts of one line
// do. Neighbouring lines touch by a fraction of a point and words on one line are
// separated by a space, so a real share is told from a graze by the shared height.
// Nothing new is needed in the JSON.

const MIN_WIDTH = 0.5; // points

function lineArea(a, b) {
  const width = Math.min(a[2], b[2]) - Math.max(a[0], b[0]);
  const height = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
  if (width <= MIN_WIDTH || height <= 0) return 0;
  // As visualiser/align.py's _same_line: more than half the shorter rectangle's height.
  if (height <= 0.5 * Math.min(a[3] - a[1], b[3] - b[1])) return 0;
  return width * height;
}

const rectArea = (r) => Math.max(0, r[2] - r[0]) * Math.max(0, r[3] - r[1]);

export function chunkArea(chunk) {
  let total = 0;
  for (const region of chunk.regions) for (const rect of region.rects) total += rectArea(rect);
  return total;
}

/**
 * The chunks of the other side (indexed by report-index.js) that share words with
 * `chunk`, in chunk order: [{index, share, shareOther}] where `share` is the part of
 * `chunk`'s text area they cover and `shareOther` the part of their own.
 */
export function sharedChunks(chunk, other) {
  const overlap = new Map(); // other chunk index -> shared area
  for (const region of chunk.regions) {
    for (const { chunk: candidate, region: theirs } of other.byPage.get(region.page) || []) {
      let area = 0;
      for (const a of region.rects) for (const b of theirs.rects) area += lineArea(a, b);
      if (area > 0) overlap.set(candidate.index, (overlap.get(candidate.index) || 0) + area);
    }
  }
  const own = chunkArea(chunk) || 1;
  return [...overlap]
    .map(([index, area]) => ({
      index,
      share: Math.min(1, area / own),
      shareOther: Math.min(1, area / (other.areas.get(index) || 1)),
    }))
    .sort((a, b) => a.index - b.index);
}

/** Text areas per chunk index, for `sharedChunks`'s `other.areas`. */
export function chunkAreas(report) {
  return new Map(report.chunks.map((chunk) => [chunk.index, chunkArea(chunk)]));
}

/** The link covering most of the chunk (ties: the first), or null. */
export function strongest(links) {
  return (links || []).reduce((best, link) => (!best || link.share > best.share ? link : best), null);
}

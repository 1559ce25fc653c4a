// A chunk report indexed for drawing: per page, the chunks' regions in chunk order
// and the overlaps; per container, the chunks it holds. Built once per report.

function push(map, key, value) {
  if (!map.has(key)) map.set(key, []);
  map.get(key).push(value);
}

export function indexReport(report) {
  const byPage = new Map(); // page -> [{chunk, region}] in chunk order
  for (const chunk of report.chunks) {
    for (const region of chunk.regions) push(byPage, region.page, { chunk, region });
  }
  const overlapsByPage = new Map();
  for (const overlap of report.overlaps) push(overlapsByPage, overlap.page, overlap);
  const holds = new Map(); // container -> [contained]
  const unexplained = new Set(); // containers holding some chunk without a reason
  for (const pair of report.containment) {
    push(holds, pair.container, pair.contained);
    if (pair.intended === false) unexplained.add(pair.container);
  }
  for (const inner of holds.values()) inner.sort((a, b) => a - b);
  return { byPage, overlapsByPage, holds, unexplained };
}

/** Every element (box, hit area, label, list entry) of chunk `index` under `root`. */
export function marked(root, index) {
  return root.querySelectorAll(`[data-chunk-index="${index}"]`);
}

/** The chunk index of the element under the mouse (or focused), or null. */
export function chunkIndexOf(target) {
  const el = target?.closest?.("[data-chunk-index]");
  return el ? Number(el.dataset.chunkIndex) : null;
}

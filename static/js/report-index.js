// A chunk report indexed for drawing: per page, the chunks' regions in chunk order
// the overlaps and the labels the server placed. Built once per report.

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
  const labelsByPage = new Map(); // page -> the server's placed labels and tags
  for (const mark of report.labels || []) push(labelsByPage, mark.page, mark);
  return { byPage, overlapsByPage, labelsByPage };
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

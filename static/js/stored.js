// Words for a knowledgebase document's viewer: what a preview is compared with, and
// how far processing has got.

/** After "Preview — not stored;": what the knowledgebase stores, and what is shown
 * (`shown`: a strategy's label, or "Imported: <file>"). */
export function previewSentence(stored, shown) {
  const own = stored.chunking_strategy
    ? `the knowledgebase chunks with ${stored.chunking_strategy}`
    : "the knowledgebase's own strategy is unknown (its stored metadata cannot be read)";
  return `${own}. Shown here: ${shown}, computed from the stored PDF.`;
}

export function percent(progress) {
  return Math.max(0, Math.min(100, Math.floor((progress || 0) * 100)));
}

export function processingSentence(progress) {
  const done = percent(progress);
  // Progress counts pages read; chunking the whole document comes after the last one.
  return done >= 100 ? "Processing… all pages read, chunking" : `Processing… ${done} % of the pages read`;
}

/** How many strategies' reports were computed ahead (a switch to them reads a file;
 * the others are being computed in the background, or are computed when chosen). */
export function previewsSentence(previews) {
  if (!previews || !previews.total) return "";
  return `Previews ready: ${previews.count} of ${previews.total}`;
}

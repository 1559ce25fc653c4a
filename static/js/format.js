// Plain-language bits shared by the list, the detail panel and the overlay.

export function pageRange(pages) {
  if (!pages || pages.length === 0) return "no page";
  const sorted = [...pages].sort((a, b) => a - b);
  const contiguous = sorted.every((p, i) => i === 0 || p === sorted[i - 1] + 1);
  if (sorted.length === 1) return `p. ${sorted[0]}`;
  if (contiguous) return `pp. ${sorted[0]}–${sorted[sorted.length - 1]}`;
  return `pp. ${sorted.join(", ")}`;
}

export function firstWords(text, count = 14) {
  const all = text || "";
  // Only the start is read (the list shows hundreds of chunks of thousands of
  // characters): a cut can split only the last word read, so more than count + 1
  // words in the start give the same first `count` as the whole text.
  for (let end = 32 * count; ; end *= 4) {
    const words = all.slice(0, end).replace(/[#|]+/g, " ").split(/\s+/).filter(Boolean);
    if (end >= all.length || words.length > count + 1) {
      const head = words.slice(0, count).join(" ");
      return words.length > count ? `${head} …` : head;
    }
  }
}

/** "1, 2, 3" — or, for long lists (a box label must fit), "1, 2, 3, 4, 5, 6 and 40 more". */
export function listNumbers(numbers, limit = Infinity) {
  if (numbers.length <= limit) return numbers.join(", ");
  return `${numbers.slice(0, limit).join(", ")} and ${numbers.length - limit} more`;
}

const REASONS = {
  overlap_window: "the strategy's overlap window",
  table_context: "a table-context chunk spans its neighbours",
  repeated_header: "split table parts repeat the header row",
  table_full: "the whole-table chunk holds its parts",
  layout_only: "boxes cross, but no words are shared",
  margin_note: "a note set sideways in the margin stretches a box",
  unexplained: "unexplained — worth a look",
};

export function reasonText(reason) {
  return REASONS[reason] || reason;
}

export function plural(n, word, many = `${word}s`) {
  return `${n} ${n === 1 ? word : many}`;
}

/** As the server's `filesize` filter writes it, for rows the page adds itself. */
export function fileSize(size) {
  if (size < 1024) return `${size} bytes`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KB`;
  return `${(size / (1024 * 1024)).toFixed(1)} MB`;
}

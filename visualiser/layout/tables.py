"""Tables on a page, with their cells filled with the text layer's words.

Ruled tables are found from the page's own drawings: strokes that cross form a grid
(at least two horizontal and two vertical ones), the grid's cells are the regions its
strokes close, and every word whose centre lies in the grid's box goes to the cell
around it. Underlines, column separators and single boxes never form a grid; grids
that are mostly empty (a form's fields), a single row of boxes or a frame around a
figure are not tables. Unruled tables (columns aligned by whitespace) are in
`unruled.py`.

PyMuPDF's `page.find_tables()` is not used: it builds its own character list of the
page (it cannot reuse our text page), computes a header we never use (rendering
pixmaps to compare colours) in every table it constructs, and on a rotated page
rewrites the page's content stream and returns cells in displayed coordinates while
our words are unrotated. Here each grid is computed in its "reading space": the
text space turned so that the grid's own words run left to right (the identity
unless the text itself is set sideways), and the results are handed back in text
space, where `pages.py` matches them against the text lines.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import pymupdf

from visualiser.geometry import BBox, area, centre, holds_centre, overlap_area, union
from visualiser.layout.items import Item, WordBox
from visualiser.layout.unruled import Rule, Word, framed_tables, may_hold_unruled, unruled_tables

# Strokes
TOLERANCE = 3.0  # strokes this close are one stroke; ends this close touch (as PyMuPDF)
_THIN = 3.0  # a filled rectangle at most this thick is drawn as a rule
_MIN_STROKE = 1.0
_WHITE = 0.95  # a fill this light on every channel is a background no one sees
MIN_CELL = 5.0  # points: no cell with text is narrower
MIN_TEXT_ROWS = 2  # text lines in a ruled row that make it several rows
# What a table is not
MIN_FILLED_SHARE = 0.5  # a table has words in at least half of its cells
_HAS_TEXT = re.compile(r"[^\W_]")  # a letter or digit: dot leaders do not fill a cell
MAX_CUT_SHARE = 0.05  # of a table's text lines, at most this share run out of its box
MAX_SHAPES = 8  # curved or slanted drawings a table may hold (check marks, rounded corners)
_FIELD_HEIGHT = 15.0  # vertical strokes up to this long are the sides of fields and boxes
_MIN_RULE = 30.0  # points: a stroke shorter than this rules no table across
_EXTENT = 6.0  # points: rules whose ends round alike to this may be one table's
_RULE_GAP = 8.0  # points: a column rule may stop this far short of a rule across
CJK_SHARE = 0.3  # pages with more CJK words than this get no unruled tables
_CJK = re.compile(r"[\u3000-\u9fff\uac00-\ud7af\uff00-\uffef]")


@dataclass(slots=True)
class _Segment:
    pos: float  # y of a horizontal stroke, x of a vertical one
    lo: float
    hi: float
    cluster: int = 0


# -- orientation -------------------------------------------------------------------

Transform = Callable[[BBox], BBox]


def _identity(b: BBox) -> BBox:
    return b


def _upward(b: BBox) -> BBox:  # text running bottom to top: turn it a quarter clockwise
    return (-b[3], b[0], -b[1], b[2])


def _upward_back(b: BBox) -> BBox:
    return (b[1], -b[2], b[3], -b[0])


def _downward(b: BBox) -> BBox:  # text running top to bottom
    return (b[1], -b[2], b[3], -b[0])


def _downward_back(b: BBox) -> BBox:
    return (-b[3], b[0], -b[1], b[2])


def _flipped(b: BBox) -> BBox:  # upside down (an involution: its own inverse)
    return (-b[2], -b[3], -b[0], -b[1])


_TURNS: dict[tuple[int, int], tuple[Transform, Transform]] = {
    (1, 0): (_identity, _identity),
    (0, -1): (_upward, _upward_back),
    (0, 1): (_downward, _downward_back),
    (-1, 0): (_flipped, _flipped),
}


def reading_turn(raw_words: list[tuple]) -> tuple[Transform, Transform]:
    """(to reading space, back to text space) for the direction the page's lines run
    in, voted by their words (the first and last word of each line of several). Exact:
    only swaps and negations."""
    votes: Counter[tuple[int, int]] = Counter()
    first: dict[tuple[int, int], tuple] = {}
    last: dict[tuple[int, int], tuple] = {}
    for w in raw_words:
        first.setdefault((w[5], w[6]), w)
        last[(w[5], w[6])] = w
    for key, a in first.items():
        b = last[key]
        dx = (b[0] + b[2]) - (a[0] + a[2])
        dy = (b[1] + b[3]) - (a[1] + a[3])
        if dx or dy:
            votes[(1 if dx > 0 else -1, 0) if abs(dx) >= abs(dy) else (0, 1 if dy > 0 else -1)] += 1
    direction = votes.most_common(1)[0][0] if votes else (1, 0)
    return _TURNS[direction]


# -- strokes and grids -------------------------------------------------------------


def stroke_boxes(paths: list[dict]) -> tuple[list[BBox], list[BBox]]:
    """Axis-aligned strokes of the page's drawings as thin boxes, in text space:
    lines, the edges of rectangles, thin filled rectangles (rules); and the boxes of
    the drawings that have curves or slanted lines (a figure's shapes). Curves
    themselves (rounded corners) and white fills (backgrounds no one sees) make no
    strokes."""
    boxes: list[BBox] = []
    shapes: list[BBox] = []
    for path in paths:
        if path.get("type") == "f" and all(c >= _WHITE for c in (path.get("fill") or (0,))):
            continue
        curved = False
        for item in path["items"]:
            kind = item[0]
            if kind == "c":
                curved = True
            elif kind == "l":
                (xa, ya), (xb, yb) = item[1], item[2]
                if abs(xa - xb) < 1 or abs(ya - yb) < 1:
                    boxes.append((min(xa, xb), min(ya, yb), max(xa, xb), max(ya, yb)))
                else:
                    curved = True
            elif kind in ("re", "qu"):
                if kind == "re":
                    x0, y0, x1, y1 = item[1]
                else:
                    points = item[1]
                    xs, ys = [p[0] for p in points], [p[1] for p in points]
                    if len({round(x) for x in xs}) > 2 or len({round(y) for y in ys}) > 2:
                        continue  # a turned quad: not a ruling
                    x0, y0, x1, y1 = min(xs), min(ys), max(xs), max(ys)
                if x1 - x0 <= _THIN or y1 - y0 <= _THIN:
                    boxes.append((x0, y0, x1, y1))
                else:
                    boxes.extend([(x0, y0, x1, y0), (x0, y1, x1, y1),
                                  (x0, y0, x0, y1), (x1, y0, x1, y1)])
        if curved:
            shapes.append(tuple(path["rect"]))
    return boxes, shapes


def _segments(boxes: Sequence[BBox]) -> tuple[list[_Segment], list[_Segment]]:
    """Horizontal and vertical strokes (reading space), collinear ones joined and
    positions snapped: strokes within TOLERANCE of one position share it."""
    horizontal, vertical = [], []
    for x0, y0, x1, y1 in boxes:
        width, height = x1 - x0, y1 - y0
        if height <= _THIN and width >= _MIN_STROKE and width > height:
            horizontal.append(_Segment((y0 + y1) / 2, x0, x1))
        elif width <= _THIN and height >= _MIN_STROKE and height > width:
            vertical.append(_Segment((x0 + x1) / 2, y0, y1))
    return _joined(horizontal), _joined(vertical)


def _joined(segments: list[_Segment]) -> list[_Segment]:
    segments.sort(key=lambda s: s.pos)
    clusters: list[list[_Segment]] = []
    for seg in segments:
        if clusters and seg.pos - clusters[-1][-1].pos <= TOLERANCE:
            clusters[-1].append(seg)
        else:
            clusters.append([seg])
    joined: list[_Segment] = []
    for number, cluster in enumerate(clusters):
        pos = sorted(s.pos for s in cluster)[len(cluster) // 2]
        cluster.sort(key=lambda s: s.lo)
        current = _Segment(pos, cluster[0].lo, cluster[0].hi, number)
        for seg in cluster[1:]:
            if seg.lo <= current.hi + TOLERANCE:
                current.hi = max(current.hi, seg.hi)
            else:
                joined.append(current)
                current = _Segment(pos, seg.lo, seg.hi, number)
        joined.append(current)
    return joined


def _grids(horizontal: list[_Segment],
           vertical: list[_Segment]) -> list[tuple[list[_Segment], list[_Segment]]]:
    """Groups of strokes connected by crossings, with at least two strokes each way."""
    parent = list(range(len(horizontal) + len(vertical)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    by_x = sorted(range(len(vertical)), key=lambda k: vertical[k].pos)
    xs = [vertical[k].pos for k in by_x]
    for i, h in enumerate(horizontal):
        for k in by_x[bisect_left(xs, h.lo - TOLERANCE):bisect_right(xs, h.hi + TOLERANCE)]:
            v = vertical[k]
            if v.lo - TOLERANCE <= h.pos <= v.hi + TOLERANCE:
                a, b = root(i), root(len(horizontal) + k)
                if a != b:
                    parent[a] = b
    groups: dict[int, tuple[list[_Segment], list[_Segment]]] = {}
    for i, h in enumerate(horizontal):
        groups.setdefault(root(i), ([], []))[0].append(h)
    for k, v in enumerate(vertical):
        groups.setdefault(root(len(horizontal) + k), ([], []))[1].append(v)
    return [(hs, vs) for hs, vs in groups.values()
            if len({s.cluster for s in hs}) >= 2 and len({s.cluster for s in vs}) >= 2]


def _covered(segments: dict[float, list[tuple[float, float]]], pos: float,
             lo: float, hi: float) -> bool:
    return any(a <= lo + TOLERANCE and b >= hi - TOLERANCE for a, b in segments.get(pos, ()))


def _boundaries(positions: Iterable[float]) -> tuple[dict[float, float], list[float]]:
    """Stroke positions → cell boundaries: strokes closer than MIN_CELL (a cell's
    background and its border a few points apart) are one boundary, not a sliver
    of a column no text fits in."""
    mapping: dict[float, float] = {}
    kept: list[float] = []
    for pos in sorted(set(positions)):
        if not kept or pos - kept[-1] >= MIN_CELL:
            kept.append(pos)
        mapping[pos] = kept[-1]
    return mapping, kept


class _Grid:
    """A grid's atomic cells (between consecutive stroke positions), merged where no
    stroke separates them into the cells a reader sees."""

    def __init__(self, horizontal: list[_Segment], vertical: list[_Segment]) -> None:
        y_of, self.ys = _boundaries(s.pos for s in horizontal)
        x_of, self.xs = _boundaries(s.pos for s in vertical)
        h_at: dict[float, list[tuple[float, float]]] = {}
        v_at: dict[float, list[tuple[float, float]]] = {}
        for s in horizontal:
            h_at.setdefault(y_of[s.pos], []).append((s.lo, s.hi))
        for s in vertical:
            v_at.setdefault(x_of[s.pos], []).append((s.lo, s.hi))
        rows, cols = len(self.ys) - 1, len(self.xs) - 1
        parent = list(range(rows * cols))

        def root(i: int) -> int:
            while parent[i] != i:
                parent[i] = parent[parent[i]]
                i = parent[i]
            return i

        for i in range(rows):
            for j in range(cols):
                here = i * cols + j
                if j + 1 < cols and not _covered(v_at, self.xs[j + 1], self.ys[i], self.ys[i + 1]):
                    parent[root(here)] = root(here + 1)
                if i + 1 < rows and not _covered(h_at, self.ys[i + 1], self.xs[j], self.xs[j + 1]):
                    parent[root(here)] = root(here + cols)
        self.owner = [[root(i * cols + j) for j in range(cols)] for i in range(rows)]

    def position(self, x: float, y: float, rows: range, cols: range) -> tuple[int, int]:
        """The atomic cell of point (x, y), clamped into the kept rows and columns."""
        i = min(max(bisect_right(self.ys, y) - 1, rows.start), rows.stop - 1)
        j = min(max(bisect_right(self.xs, x) - 1, cols.start), cols.stop - 1)
        return i, j


def find_tables(page: pymupdf.Page, textpage: pymupdf.TextPage,
                words: list[tuple] | None = None,
                drawn: tuple[list[BBox], list[BBox]] | None = None) -> list[Item]:
    """Every table of the page, ruled or not: rows → cells → words, in text space.
    `words`: `textpage.extractWORDS()` and `drawn`: `stroke_boxes` of the page's
    drawings, when the caller has them already. Cheap gates
    first (a grid of strokes; rules of one width across; rows of four or more cells),
    so a page of prose costs one pass over its drawings and one over its words."""
    raw_words = textpage.extractWORDS() if words is None else words
    if not raw_words:
        return []
    strokes, shapes = stroke_boxes(page.get_cdrawings()) if drawn is None else drawn
    # Crossing is the same in text space whichever way a grid's text runs.
    horizontal, vertical = _segments(strokes)
    components = _grids(horizontal, vertical) if len(strokes) >= 4 else []
    found, forms = ruled_tables(components, shapes, raw_words) if components else ([], [])
    # the strokes of a grid that is neither a table nor a form may rule one across
    taken = [box for box, _ in found] + forms
    rules = _loose_rules(horizontal, vertical, [
        grid for grid in components if any(overlap_area(_extent(grid), box) > 0 for box in taken)])
    aligned = may_hold_unruled(raw_words)
    if (aligned or rules) and (sum(1 for w in raw_words if _CJK.search(w[4]))
                               < CJK_SHARE * len(raw_words)):
        # Columns aligned by whitespace need words parted by spaces: CJK text has none.
        raw_words = _outside(raw_words, found)
        to_reading, to_text = reading_turn(raw_words)
        words = sorted((_reading_word(w, to_reading) for w in raw_words), key=lambda w: w.y)
        unruled = unruled_tables(words) if aligned else []
        across = _reading_rules(rules, to_reading)
        framed = framed_tables(words, across) if across else []
        unruled = [t for t in unruled if not _drawn(t[0], strokes, to_reading)]
        framed = [t for t in framed if not _drawn(t[0], strokes, to_reading, framed=True)]
        for box, rows in _best_of(unruled, framed):
            box = to_text(box)
            if not any(overlap_area(box, form) > 0.1 * area(box) for form in forms):
                found.append((box, rows))
    return [Item("table", box, rows=rows) for box, rows in found]


def _best_of(unruled: Found, framed: Found) -> Found:
    """The tables found by whitespace and by rules across, one of each where they
    overlap: the one with more filled cells (the rules see a whole table whose
    columns shift between its parts; whitespace may see more columns)."""
    kept = list(unruled)
    for table in framed:
        rivals = [t for t in kept if overlap_area(t[0], table[0]) > 0]
        if sum(map(_filled, rivals)) < _filled(table):
            kept = [t for t in kept if t not in rivals] + [table]
    return sorted(kept, key=lambda t: (round(t[0][1]), t[0][0]))


def _filled(table: tuple[BBox, list[list[list[WordBox]]]]) -> int:
    return sum(1 for row in table[1] for cell in row if cell)


def _extent(grid: tuple[list[_Segment], list[_Segment]]) -> BBox:
    hs, vs = grid
    return union([(s.lo, s.pos, s.hi, s.pos) for s in hs]
                 + [(s.pos, s.lo, s.pos, s.hi) for s in vs])


def _outside(raw_words: list[tuple], found: Found) -> list[tuple]:
    if not found:
        return raw_words
    return [w for w in raw_words if not any(holds_centre(box, _box(w)) for box, _ in found)]


def _loose_rules(horizontal: list[_Segment], vertical: list[_Segment],
                 grids: list[tuple[list[_Segment], list[_Segment]]]) -> list[BBox]:
    """Strokes of none of the `grids` that may rule a table across (text space, thin
    boxes): two or more of one extent along one axis (a table's top and bottom rules),
    else none, so a page whose only strokes are a footnote rule or underlines costs
    nothing more."""
    gridded = {id(s) for hs, vs in grids for s in hs + vs}
    out: list[BBox] = []
    for segments, along_x in ((horizontal, True), (vertical, False)):
        loose = [s for s in segments if id(s) not in gridded and s.hi - s.lo > _MIN_RULE]
        extents = Counter((round(s.lo / _EXTENT), round(s.hi / _EXTENT)) for s in loose)
        if max(extents.values(), default=0) < 2:
            continue
        out.extend((s.lo, s.pos, s.hi, s.pos) if along_x else (s.pos, s.lo, s.pos, s.hi)
                   for s in loose)
    return out


def _reading_rules(rules: list[BBox], to_reading: Transform) -> list[Rule]:
    """`rules` that run across the page's lines, in reading space: (y, x0, x1)."""
    across = []
    for box in map(to_reading, rules):
        if box[3] - box[1] <= _THIN < box[2] - box[0]:
            across.append(((box[1] + box[3]) / 2, box[0], box[2]))
    return across


def _box(word: tuple) -> BBox:
    """The box of a PyMuPDF word tuple (x0, y0, x1, y1, text, block, line, word)."""
    return (word[0], word[1], word[2], word[3])


def _drawn(box: BBox, strokes: list[BBox], to_reading: Transform, *,
           framed: bool = False) -> bool:
    """Are there short vertical strokes inside `box` (the sides of a form's fields
    and check boxes)? Then its columns are a form's layout, not an unruled table.
    Column rules, even drawn a row at a time (LaTeX's `|`), join into long ones; in a
    table ruled across (`framed`), so do the pieces of a column rule that stops short
    of each rule across and goes on below it (booktabs leaves that gap)."""
    inside = [b for b in map(to_reading, strokes)
              if box[0] < centre(b)[0] < box[2] and box[1] < centre(b)[1] < box[3]]
    if not inside:
        return False
    horizontal, vertical = _segments(inside)
    rules = (_column_rules(vertical, horizontal) if framed
             else [(s.lo, s.hi) for s in vertical])
    return sum(1 for lo, hi in rules if _THIN <= hi - lo <= _FIELD_HEIGHT) >= 2


def _column_rules(vertical: list[_Segment], horizontal: list[_Segment]
                  ) -> list[tuple[float, float]]:
    """(top, bottom) of each vertical stroke, pieces of one rule joined across the
    small gaps where a rule across passes through (not a box's edge, which ends at the
    stroke)."""
    out: list[tuple[float, float]] = []
    pieces: dict[float, list[_Segment]] = {}
    for seg in vertical:
        pieces.setdefault(seg.pos, []).append(seg)
    for pos, column in pieces.items():
        column.sort(key=lambda s: s.lo)
        lo, hi = column[0].lo, column[0].hi
        for seg in column[1:]:
            if seg.lo - hi <= _RULE_GAP and any(
                    hi < h.pos < seg.lo and h.lo < pos - TOLERANCE and h.hi > pos + TOLERANCE
                    for h in horizontal):
                hi = max(hi, seg.hi)
                continue
            out.append((lo, hi))
            lo, hi = seg.lo, seg.hi
        out.append((lo, hi))
    return out


Found = list[tuple[BBox, list[list[list[WordBox]]]]]


@dataclass(slots=True)
class _Space:
    """The page's words and figure shapes in one reading space."""

    words: list[Word]  # sorted by their centre's y
    ys: list[float]
    lines: dict[tuple[int, int], list[Word]]
    shape_centres: list[tuple[float, float]]


def _space(raw_words: list[tuple], shapes: list[BBox], to_reading: Transform) -> _Space:
    words = sorted((_reading_word(w, to_reading) for w in raw_words), key=lambda w: w.y)
    lines: dict[tuple[int, int], list[Word]] = {}
    for w in words:
        lines.setdefault(w.line, []).append(w)
    centres = [centre(b) for b in map(to_reading, shapes)]
    return _Space(words, [w.y for w in words], lines, centres)


def ruled_tables(components: list[tuple[list[_Segment], list[_Segment]]], shapes: list[BBox],
                 raw_words: list[tuple]) -> tuple[Found, list[BBox]]:
    """The ruled tables among the grids `components` (text space), each read in the
    direction its own words run (a sideways table on an upright page too); and the
    boxes of grids with text that are no tables (a form's layout). Text space."""
    spaces: dict[Transform, _Space] = {}
    tables: Found = []
    forms: list[BBox] = []
    for hs, vs in components:
        boxes = [(s.lo, s.pos, s.hi, s.pos) for s in hs] + [(s.pos, s.lo, s.pos, s.hi) for s in vs]
        extent = union(boxes)
        inside = [w for w in raw_words if holds_centre(extent, _box(w))]
        to_reading, to_text = reading_turn(inside or raw_words)
        if to_reading not in spaces:
            spaces[to_reading] = _space(raw_words, shapes, to_reading)
        space = spaces[to_reading]
        grid = _Grid(*_segments([to_reading(b) for b in boxes]))
        table = _table_of(grid, space.words, space.ys)
        if (table is not None
                and not _cuts_lines(table[0], space.words, space.ys, space.lines)
                and not _is_figure(table[0], len(hs) + len(vs), space.shape_centres)):
            tables.append((to_text(table[0]), table[1]))
        elif len(grid.ys) > 2 and len(grid.xs) > 2:
            forms.append(to_text((grid.xs[0], grid.ys[0], grid.xs[-1], grid.ys[-1])))
    # A grid inside another's cell is emitted once, as part of that cell's text; of
    # two that overlap, the larger holds the words they share (a word is in one cell).
    tables.sort(key=lambda t: -area(t[0]))
    kept: Found = []
    for box, rows in tables:
        if not any(overlap_area(box, other) > 0 or _inside(box, other) for other, _ in kept):
            kept.append((box, rows))
    kept.sort(key=lambda t: (round(t[0][1]), t[0][0]))
    return kept, forms


def _reading_word(w: tuple, to_reading: Transform) -> Word:
    box = to_reading(_box(w))
    return Word(*centre(box), box, (_box(w), w[4]), (w[5], w[6]))


def _inside(inner: BBox, outer: BBox) -> bool:
    return (inner[0] >= outer[0] - TOLERANCE and inner[1] >= outer[1] - TOLERANCE
            and inner[2] <= outer[2] + TOLERANCE and inner[3] <= outer[3] + TOLERANCE)


def _is_figure(box: BBox, strokes: int, shape_centres: list[tuple[float, float]]) -> bool:
    """A frame around a diagram: more curved or slanted shapes (circles, arrows)
    inside than half its straight strokes. A table's few curves are rounded corners
    or check boxes."""
    shapes = sum(1 for x, y in shape_centres if box[0] <= x <= box[2] and box[1] <= y <= box[3])
    return shapes > max(MAX_SHAPES, strokes / 2)


def _cuts_lines(box: BBox, words: list[Word], word_ys: list[float],
                lines: dict[tuple[int, int], list[Word]]) -> bool:
    """Does the box cut through text lines? A table holds its lines whole; a box whose
    edge runs through the middle of sentences is part of a form's layout (amount
    columns beside their labels), not a table."""
    inside = {w.line for w in _words_in(box, words, word_ys) if _HAS_TEXT.search(w.word[1])}
    cut = sum(1 for key in inside
              if any(not (box[0] <= w.x <= box[2] and box[1] <= w.y <= box[3])
                     for w in lines[key]))
    return cut > MAX_CUT_SHARE * len(inside)


def _words_in(box: BBox, words: list[Word], word_ys: list[float]) -> list[Word]:
    """Words whose centre lies in `box` (edges included, as pages.py tests it)."""
    start, stop = bisect_left(word_ys, box[1]), bisect_right(word_ys, box[3])
    return [w for w in words[start:stop] if box[0] <= w.x <= box[2]]


def _table_of(grid: _Grid, words: list[Word],
              word_ys: list[float]) -> tuple[BBox, list[list[list[WordBox]]]] | None:
    rows, cols = range(len(grid.ys) - 1), range(len(grid.xs) - 1)
    full = (grid.xs[0], grid.ys[0], grid.xs[-1], grid.ys[-1])
    counts: Counter[tuple[int, int]] = Counter(
        grid.position(w.x, w.y, rows, cols) for w in _words_in(full, words, word_ys))
    rows, cols = _peeled(grid, counts, rows, cols)
    if len(rows) < 1 or len(cols) < 1:
        return None
    box = (grid.xs[cols.start], grid.ys[rows.start], grid.xs[cols.stop], grid.ys[rows.stop])
    # A merged cell is met first at its top-left atomic cell: its place in the rows.
    starts: dict[int, tuple[int, int]] = {}
    for i in rows:
        for j in cols:
            starts.setdefault(grid.owner[i][j], (i, j))
    row_at = sorted({i for i, _ in starts.values()})
    col_at = sorted({j for _, j in starts.values()})
    if len(row_at) < 2 or len(col_at) < 2:
        return None  # one row of boxes (a form's comb field) or one column: no table
    content: dict[int, list[Word]] = {}
    for w in _words_in(box, words, word_ys):
        i, j = grid.position(w.x, w.y, rows, cols)
        content.setdefault(grid.owner[i][j], []).append(w)
    filled = sum(1 for inside in content.values() if any(_HAS_TEXT.search(w.word[1])
                                                         for w in inside))
    if filled < 2 or filled < MIN_FILLED_SHARE * len(starts):
        return None  # mostly empty cells: a form's fields, not a table
    row_index = {i: n for n, i in enumerate(row_at)}
    col_index = {j: n for n, j in enumerate(col_at)}
    last_row = {grid.owner[i][j]: i for i in rows for j in cols}  # rows go down: the last wins
    cells: list[list[list[Word]]] = [[[] for _ in col_at] for _ in row_at]
    spanned: set[int] = set()  # output rows a cell taller than one row starts in or covers
    for cell, (i, j) in starts.items():
        cells[row_index[i]][col_index[j]] = content.get(cell, [])
        if last_row[cell] > i:
            spanned.update(n for k, n in row_index.items() if i <= k <= last_row[cell])
    table: list[list[list[WordBox]]] = []
    for n, row in enumerate(cells):
        for part in (row,) if n == 0 or n in spanned else _text_rows(row):
            table.append([[w.word for w in sorted(cell, key=lambda w: (round(w.box[1]), w.box[0]))]
                          for cell in part])
    return box, table


def _text_rows(row: list[list[Word]]) -> list[list[list[Word]]]:
    """A ruled row that holds several rows of the table set as text lines (a table
    ruled between its columns and under its header only): one row per line, when
    there are at least MIN_TEXT_ROWS lines and each has words in most of the row's
    cells (text wrapped over lines in some cells beside one-line cells stays one row)."""
    placed = sorted(((w, j) for j, cell in enumerate(row) for w in cell), key=lambda p: p[0].y)
    if len(placed) < 2 * MIN_TEXT_ROWS:
        return [row]
    half = sorted(w.box[3] - w.box[1] for w, _ in placed)[len(placed) // 2] / 2
    lines: list[list[tuple[Word, int]]] = [[placed[0]]]
    for p in placed[1:]:
        if p[0].y - lines[-1][-1][0].y > half:
            lines.append([])
        lines[-1].append(p)
    filled = sum(1 for cell in row if cell)
    if len(lines) < MIN_TEXT_ROWS or any(len({j for _, j in line}) < max(2, 0.75 * filled)
                                         for line in lines):
        return [row]
    return [[[w for w, k in line if k == j] for j in range(len(row))] for line in lines]


def _peeled(grid: _Grid, counts: Counter[tuple[int, int]], rows: range,
            cols: range) -> tuple[range, range]:
    """Take off what frames a table rather than belongs to it: empty rows and columns
    at its edges (the margin between a frame and the table it holds) and, at the top,
    rows that are one cell across the whole width (a title set inside the frame; its
    words stay text lines)."""
    def column_empty(j: int) -> bool:
        return not any(counts[(i, j)] for i in rows)

    def row_empty(i: int) -> bool:
        return not any(counts[(i, j)] for j in cols)

    def one_cell_across(i: int) -> bool:
        owners = {grid.owner[i][j] for j in cols}
        below = {grid.owner[i + 1][j] for j in cols} if i + 1 < rows.stop else set()
        return len(owners) == 1 and not owners & below and len(cols) > 1

    changed = True
    while changed and len(rows) and len(cols):
        changed = False
        if column_empty(cols.start):
            cols, changed = range(cols.start + 1, cols.stop), True
        elif len(cols) and column_empty(cols.stop - 1):
            cols, changed = range(cols.start, cols.stop - 1), True
        elif row_empty(rows.start) or one_cell_across(rows.start):
            rows, changed = range(rows.start + 1, rows.stop), True
        elif len(rows) and row_empty(rows.stop - 1):
            rows, changed = range(rows.start, rows.stop - 1), True
    return rows, cols

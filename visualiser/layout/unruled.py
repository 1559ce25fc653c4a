"""Unruled tables: columns aligned by whitespace alone.

Works on text lines, not characters, so that a page without aligned columns costs
one pass over its words. A line is cut into segments where its words are at least
about an em apart; segments at one height form a row. A table is a run of at least
MIN_ROWS rows, each close below the last, that keep at least MIN_GUTTERS common
gutters (vertical strips of whitespace no word of any row crosses). Prose never
qualifies: its lines are one segment each (a two-column page gives one gutter), and
a wide segment (a line of prose) beside the run ends it. Everything is in reading
space (see `tables.py`), so a sideways table is read row by row, not column by column.

A table ruled only across (a rule above, one under its header, one below: LaTeX's
`\\hline` or booktabs, most tables of papers) has no grid, and often only two or three
columns. Its rules are evidence enough: between rules of one width, rows of cells with
one gutter in common make a table (`framed_tables`).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass, field
from itertools import pairwise
from statistics import mean, median

from visualiser.geometry import BBox
from visualiser.layout.items import WordBox

MIN_ROWS = 4  # consecutive rows sharing the gutters
MIN_GUTTERS = 3  # so at least four columns: two-column prose has one gutter
GAP_EMS = 0.9  # a gap of at least this many word heights parts two cells
# and between the rules of a table ruled across, which say it is one: booktabs sets
# its columns 12 points apart (2 × \tabcolsep), under 0.9 word heights of the type
# around it (0.89 in ASME's template)
FRAMED_GAP_EMS = 0.8
MIN_GUTTER = 1.0  # points of whitespace a shared gutter keeps
PROSE_SHARE = 0.35  # a segment wider than this share of the text width is prose,
MAX_CELL_WORDS = 6  # and so is one of more words (a paragraph's short last line),
_NUMBER = re.compile(r"^[-+−–—(]?[$€£]?[\d.,:%/]+[)%*]?$")  # unless it is a run of numbers
MIN_FILLED_SHARE = 0.5  # of the table's cells hold words
_BUCKET = 4.0  # points: the gate counts segments per band this high
MAX_HEADER_ROWS = 4  # lines above a run taken into it as its header
HEADER_GUTTER = 0.25  # of each gutter's width that a header row leaves free, at least
MIN_FRAMED_ROWS = 3  # rows between the rules of a table ruled only across (a header, two rows)
MIN_RULE_EMS = 4.0  # a rule of a table is at least this many word heights long


@dataclass(slots=True)
class Word:
    x: float  # centre, reading space
    y: float
    box: BBox  # reading space
    word: WordBox  # text space
    line: tuple[int, int]


@dataclass(slots=True)
class _Segment:
    x0: float
    x1: float
    y0: float
    y1: float
    words: list[Word]


@dataclass(slots=True)
class _Row:
    segments: list[_Segment] = field(default_factory=list)
    prose: list[_Segment] = field(default_factory=list)

    @property
    def y0(self) -> float:
        return min(s.y0 for s in self.segments + self.prose)

    @property
    def y1(self) -> float:
        return max(s.y1 for s in self.segments + self.prose)


def may_hold_unruled(raw_words: list[tuple]) -> bool:
    """The gate, in one pass over the text layer's words (text space, any direction):
    are there MIN_ROWS rows of more than MIN_GUTTERS segments? Loose (a row may be
    counted twice), never stricter than `unruled_tables` itself."""
    rows: Counter[tuple[bool, int]] = Counter()
    previous = None
    for w in raw_words:
        x0, y0, x1, y1 = w[0], w[1], w[2], w[3]
        starts = previous is None or previous[5] != w[5] or previous[6] != w[6]
        if not starts:
            px0, py0, px1, py1 = previous[0], previous[1], previous[2], previous[3]
            across = x0 >= px1 - 1 or x1 <= px0 + 1  # the line runs along x
            if across:
                gap, size = (x0 - px1 if x0 >= px1 - 1 else px0 - x1), y1 - y0
            else:
                gap, size = (y0 - py1 if y0 >= py1 - 1 else py0 - y1), x1 - x0
            starts = gap >= 0.8 * GAP_EMS * size  # looser: a line's median height decides later
        if starts:
            across = x1 - x0 >= y1 - y0 or len(w[4]) < 2
            middle = (y0 + y1) / 2 if across else (x0 + x1) / 2
            rows[(across, int(middle // _BUCKET))] += 1
        previous = w
    full = sum(1 for (axis, b), n in rows.items() if n + rows[(axis, b + 1)] > MIN_GUTTERS)
    return full >= MIN_ROWS


def unruled_tables(words: list[Word]) -> list[tuple[BBox, list[list[list[WordBox]]]]]:
    """(reading-space box, rows → cells → words) of each unruled table among `words`."""
    segments = _segments(words)
    rows = _rows(segments)
    # The gate: without MIN_ROWS rows of four cells or more there is nothing to try.
    if sum(1 for r in rows if len(r.segments) > MIN_GUTTERS) < MIN_ROWS:
        return []
    height = median(s.y1 - s.y0 for s in segments)
    tables = []
    paragraphs = {w.line[0] for r in rows for p in r.prose for w in p.words}
    for run, gutters in _runs(rows, height, paragraphs):
        apart = _side_by_side(run, gutters, rows)
        if apart is not None:  # each side on its own, within the run's extent
            members = [w for r in run for s in r.segments for w in s.words]
            top, bottom = min(w.box[1] for w in members), max(w.box[3] for w in members)
            middle = (apart[0] + apart[1]) / 2
            inside = [w for w in words if top <= w.y <= bottom]
            tables.extend(unruled_tables([w for w in inside if w.x < middle]))
            tables.extend(unruled_tables([w for w in inside if w.x >= middle]))
            continue
        table = _table(run, gutters, words)
        if table is not None:
            tables.append(table)
    return tables


def _side_by_side(run: list[_Row], gutters: list[Gutter], rows: list[_Row]) -> Gutter | None:
    """The gutter that `run` reaches over when it holds two things side by side (a
    list in one column and a table in the other, each on its own baselines): a
    quarter of its rows at least with cells only left of it (or left on a baseline of
    their own), as many only right of it, and no running text around crossing it. A
    table across both columns fills both sides of its rows, on one baseline."""
    top, bottom = run[0].y0, run[-1].y1
    reach = 4 * (bottom - top) / len(run)  # four rows above and below the run
    prose = [s for r in rows if top - reach <= r.y0 and r.y1 <= bottom + reach
             for s in r.prose]
    for gutter in gutters:
        middle = (gutter[0] + gutter[1]) / 2
        if any(s.x0 < middle < s.x1 for s in prose):
            continue  # running text crosses it: no gutter between the page's columns
        left = right = 0
        for row in run:
            lefts = [(s.y0 + s.y1) / 2 for s in row.segments if s.x1 <= gutter[0] + 0.5]
            rights = [(s.y0 + s.y1) / 2 for s in row.segments if s.x0 >= gutter[1] - 0.5]
            # a row whose two sides stand on different baselines is two rows
            apart = bool(lefts and rights) and abs(mean(lefts) - mean(rights)) > 0.3 * min(
                s.y1 - s.y0 for s in row.segments)
            left += bool(lefts) and (not rights or apart)
            right += bool(rights) and (not lefts or apart)
        if min(left, right) >= max(2, len(run) / 4):
            return gutter
    return None


def _segments(words: list[Word]) -> list[_Segment]:
    by_line: dict[tuple[int, int], list[Word]] = {}
    for w in words:
        by_line.setdefault(w.line, []).append(w)
    segments = []
    for line in by_line.values():
        line.sort(key=lambda w: w.box[0])
        height = median(w.box[3] - w.box[1] for w in line)
        current = [line[0]]
        for w in line[1:]:
            if w.box[0] - current[-1].box[2] >= GAP_EMS * height:
                segments.append(_segment(current))
                current = []
            current.append(w)
        segments.append(_segment(current))
    return segments


def _segment(words: list[Word]) -> _Segment:
    return _Segment(min(w.box[0] for w in words), max(w.box[2] for w in words),
                    min(w.box[1] for w in words), max(w.box[3] for w in words), words)


def _rows(segments: list[_Segment], text_width: float | None = None) -> list[_Row]:
    """Segments whose vertical middles are within half a line of each other.
    `text_width`: what a line of prose spans (by default, all of `segments`)."""
    if text_width is None:
        text_width = (max(s.x1 for s in segments) - min(s.x0 for s in segments)) if segments else 0
    segments = sorted(segments, key=lambda s: (s.y0 + s.y1) / 2)
    grouped: list[list[_Segment]] = []
    centre = -1e9
    for s in segments:
        middle, half = (s.y0 + s.y1) / 2, (s.y1 - s.y0) / 2
        if not grouped or middle - centre > half:
            grouped.append([])
            centre = middle
        grouped[-1].append(s)
    # the lines set tight, one segment of several words: a paragraph's, in its block
    tight: dict[int, list[_Segment]] = {}
    for s in segments:
        if len(s.words) >= JUSTIFIED_WORDS:
            tight.setdefault(s.words[0].line[0], []).append(s)
    rows: list[_Row] = []
    for group in grouped:
        row = _Row()
        for s in _justified(sorted(group, key=lambda s: s.x0), tight):
            wide = (s.x1 - s.x0 > PROSE_SHARE * text_width or len(s.words) > MAX_CELL_WORDS) and (
                sum(1 for w in s.words if _NUMBER.match(w.word[1])) < 0.8 * len(s.words))
            (row.prose if wide else row.segments).append(s)
        rows.append(row)
    return rows


JUSTIFIED_WORDS = 4  # words of a justified line split one to a segment; of a line set tight
JUSTIFIED_SPREAD = 0.25  # word heights: how much the spaces of a justified line differ


def _justified(segments: list[_Segment], tight: dict[int, list[_Segment]]
               ) -> list[_Segment]:
    """The row's segments (left to right), a justified line made one segment again: a
    browser spreads a loose line's words so far apart that each is a line of the text
    layer and a segment here ("delivers" "the" "operational"), so a narrow column of
    prose (three columns to the page) would show rows of cells. (A paragraph in a
    table's cell is justified too: one segment, it stays that cell's.) Its
    sign: JUSTIFIED_WORDS words or more of one text block in a row, each a segment,
    none a number nor Chinese or Japanese (spaced out by characters, a form's title),
    the spaces between them equal and wide as a cell's gap (a listing's words, a space
    apart in a typewriter face, are its cell's), from margin to margin of a line of
    their block set tight (`tight`: its segments of several words). A table's header
    may be spaced evenly too (each the widest cell of its column, a column gap apart),
    but no line of its block runs across its columns in one segment."""
    out: list[_Segment] = []
    run: list[_Segment] = []

    def close() -> None:
        if len(run) >= JUSTIFIED_WORDS:
            gaps = [b.x0 - a.x1 for a, b in pairwise(run)]
            height = median(s.y1 - s.y0 for s in run)
            line = _segment([w for s in run for w in s.words])
            if (min(gaps) >= GAP_EMS * height
                    and max(gaps) - min(gaps) <= JUSTIFIED_SPREAD * height
                    and any(abs(t.x0 - line.x0) <= height and abs(t.x1 - line.x1) <= height
                            for t in tight.get(run[0].words[0].line[0], ()))):
                out.append(line)
                return
        out.extend(run)

    for s in segments:
        word = s.words[0] if len(s.words) == 1 else None
        if word is None or _NUMBER.match(word.word[1]) or word.word[1] >= "\u2e80":
            close()
            run = []
            out.append(s)
        elif run and run[-1].words[0].line[0] != word.line[0]:
            close()
            run = [s]
        else:
            run.append(s)
    close()
    return out


Gutter = tuple[float, float]


def _gaps(row: _Row) -> list[Gutter]:
    return [(a.x1, b.x0) for a, b in zip(row.segments, row.segments[1:], strict=False)
            if b.x0 > a.x1]


def _narrowed(gutters: list[Gutter], row: _Row) -> list[Gutter]:
    """What is left of each gutter where the row's words do not cross it (words, not
    segments: right-aligned numbers can stand closer than a segment's gap)."""
    kept = []
    spans = [(w.box[0], w.box[2]) for s in row.segments for w in s.words]
    for lo, hi in gutters:
        pieces = [(lo, hi)]
        for x0, x1 in spans:
            if x1 <= lo or x0 >= hi:
                continue
            pieces = [p for a, b in pieces
                      for p in ((a, min(b, x0)), (max(a, x1), b)) if p[1] - p[0] > 0]
        best = max(pieces, key=lambda p: p[1] - p[0], default=None)
        if best is not None and best[1] - best[0] >= MIN_GUTTER:
            kept.append(best)
    return kept


def _runs(rows: list[_Row], height: float,
          paragraphs: set[int]) -> list[tuple[list[_Row], list[Gutter]]]:
    """Runs of rows sharing MIN_GUTTERS gutters, with the header lines above them.
    `paragraphs`: the text blocks that hold prose (a title's lines are not a header)."""
    runs: list[tuple[list[_Row], list[Gutter]]] = []
    start = -1  # index of the run's first row in `rows`, -1 when there is no run
    run: list[_Row] = []
    gutters: list[Gutter] = []
    used = -1  # rows up to this index belong to a table already

    history: list[list[Gutter]] = []  # the gutters as they were before each row joined

    def close(stop: int) -> None:
        nonlocal used, gutters
        while run and len(run[-1].segments) < 2:
            run.pop()  # a short line below the table (a note) is not a row of it,
            gutters = history.pop()  # nor does it narrow the table's gutters
        if len(run) < MIN_ROWS:
            return
        # Header lines above the run that cross none of its gutters belong to it.
        head = start
        while head - 1 > used and start - head < MAX_HEADER_ROWS:
            above = _near(rows[head - 1], run, height)
            if (above is None or run[0].y0 - above.y1 > 1.5 * height
                    or not _can_head(gutters, above, height)
                    or any(w.line[0] in paragraphs for s in above.segments for w in s.words)):
                break
            run.insert(0, above)
            head -= 1
        first = _first_column(run, rows[head:head + len(run)], height)
        if first is not None:
            run[:], gutters = first[0], [first[1], *gutters]
        runs.append((list(run), gutters))
        used = stop - 1

    for n, row in enumerate(rows):
        if run:
            near = _near(row, run, height)
            narrowed = _narrowed(gutters, near) if near is not None else []
            if (near is not None and row.y0 - run[-1].y1 <= 1.5 * height
                    and len(narrowed) >= MIN_GUTTERS):
                run.append(near)
                history.append(gutters)
                gutters = narrowed
                continue
            close(n)
        run = []
        gutters = [g for g in _gaps(row) if g[1] - g[0] >= GAP_EMS * height]
        if len(gutters) >= MIN_GUTTERS and n > used:
            run, start, history = [row], n, []
    if run:
        close(len(rows))
    return runs


def _can_head(gutters: list[Gutter], row: _Row, height: float) -> bool:
    """Can `row` head the columns that `gutters` part? It crosses none of them, and
    leaves each of them a part of its width: a header's cells stand over their
    columns. Another table's rows above, set tight (a gap of a few points between
    its cells), would leave slivers of a point."""
    narrowed = _narrowed(gutters, row)
    return len(narrowed) == len(gutters) and all(
        n[1] - n[0] >= min(HEADER_GUTTER * (g[1] - g[0]), 0.5 * GAP_EMS * height)
        for n, g in zip(narrowed, gutters, strict=True))


def _first_column(run: list[_Row], originals: list[_Row], height: float
                  ) -> tuple[list[_Row], Gutter] | None:
    """A first column the run missed: its cells end just left of the run (centred or
    right-aligned labels, where the header row has none to start the run from). It
    must have a cell in most rows and no prose beside it, or it is a page column."""
    x0 = min(s.x0 for r in run for s in r.segments)
    reach = 6 * height  # a centred label column may end well short of the next
    cells: list[_Segment | None] = []
    for near, row in zip(run, originals, strict=True):
        if any(p.x1 <= x0 + 1 and x0 - p.x1 <= reach for p in row.prose):
            return None
        left = [s for s in row.segments
                if s.x1 <= x0 and x0 - s.x1 <= reach and s not in near.segments]
        cells.append(max(left, key=lambda s: s.x1) if left else None)
    found = [c for c in cells if c is not None]
    if len(found) < 0.6 * len(run):
        return None
    gutter = (max(c.x1 for c in found), x0)
    if gutter[1] - gutter[0] < MIN_GUTTER:
        return None
    rows = [_Row(([c] if c else []) + r.segments, []) for c, r in zip(cells, run, strict=True)]
    return rows, gutter


def _near(row: _Row, run: list[_Row], height: float) -> _Row | None:
    """The row's segments that can be cells of the run: those starting in its columns
    (text apart from them is another column of the page); None when a line of prose
    runs through the run's columns, or nothing is near."""
    x0 = min(s.x0 for r in run for s in r.segments)
    x1 = max(s.x1 for r in run for s in r.segments)
    if any(p.x0 < x1 and p.x1 > x0 for p in row.prose):
        return None
    # Cells lie in the table's columns: one may start left of the leftmost cell so far
    # (a centred first column) but then runs into the columns; text that ends before
    # them is another column of the page.
    near = [s for s in row.segments if s.x0 <= x1 + height
            and (s.x0 >= x0 - 0.5 * height or s.x1 > x0 + 0.5 * height)]
    return _Row(near, []) if near else None


def _table(run: list[_Row], gutters: list[Gutter], words: list[Word]
           ) -> tuple[BBox, list[list[list[WordBox]]]] | None:
    boundaries = sorted((lo + hi) / 2 for lo, hi in gutters)
    members = [w for r in run for s in r.segments for w in s.words]
    box = (min(w.box[0] for w in members), min(w.box[1] for w in members),
           max(w.box[2] for w in members), max(w.box[3] for w in members))
    centres = [(r.y0 + r.y1) / 2 for r in run]
    cells: list[list[list[Word]]] = [[[] for _ in range(len(boundaries) + 1)] for _ in run]
    # Every word inside the box, row members or not, goes to the nearest row's cell.
    for w in words:
        if box[0] <= w.x <= box[2] and box[1] <= w.y <= box[3]:
            i = bisect_right(centres, w.y)
            if i == len(centres) or (i > 0 and w.y - centres[i - 1] <= centres[i] - w.y):
                i -= 1
            cells[i][bisect_right(boundaries, w.x)].append(w)
    total = len(run) * (len(boundaries) + 1)
    if sum(1 for row in cells for cell in row if cell) < MIN_FILLED_SHARE * total:
        return None
    rows = [[[w.word for w in sorted(cell, key=lambda w: (round(w.box[1]), w.box[0]))]
             for cell in row] for row in cells]
    return box, rows


Rule = tuple[float, float, float]  # a horizontal rule in reading space: y, x0, x1


def framed_tables(words: list[Word], rules: list[Rule]
                  ) -> list[tuple[BBox, list[list[list[WordBox]]]]]:
    """(reading-space box, rows → cells → words) of each table ruled only across.
    Rules of one width, top to bottom, part the page into slabs; a slab of cells (rows
    of two or more segments, no prose) joins the table the slab above began, anything
    else (a caption, prose, nothing) ends it. So a page's header and footer rules,
    a framed abstract or an algorithm box, whose slabs hold prose or single lines,
    make no table, and two tables of one width, a caption between, make two."""
    if len(rules) < 2 or not words:
        return []
    height = median(w.box[3] - w.box[1] for w in words)
    text_width = max(w.box[2] for w in words) - min(w.box[0] for w in words)
    tables = []
    for rule_set in _rule_sets(rules, height):
        x0 = min(r[1] for r in rule_set) - height
        x1 = max(r[2] for r in rule_set) + height
        top, bottom = rule_set[0][0], rule_set[-1][0]
        inside = [w for w in words if x0 <= w.x <= x1 and top < w.y < bottom]
        if not inside:
            continue
        table: list[_Row] = []
        for upper, lower in zip(rule_set, rule_set[1:], strict=False):
            slab = [w for w in inside if upper[0] < w.y < lower[0]]
            rows = _rows(_segments(slab), text_width) if slab else []
            if rows and not any(r.prose for r in rows) and any(len(r.segments) > 1 for r in rows):
                table.extend(rows)
                continue
            tables.extend(_framed(table, inside, height))
            table = []
        tables.extend(_framed(table, inside, height))
    return tables


def _rule_sets(rules: list[Rule], height: float) -> list[list[Rule]]:
    """Rules long enough for a table, grouped by their extent (a table's rules share its
    width; shorter ones under a spanning header cell are inside it), top to bottom;
    sets of two or more."""
    sets: list[list[Rule]] = []
    for rule in sorted(rules):
        if rule[2] - rule[1] < MIN_RULE_EMS * height:
            continue
        for group in sets:
            if abs(group[0][1] - rule[1]) <= height and abs(group[0][2] - rule[2]) <= height:
                group.append(rule)
                break
        else:
            sets.append([rule])
    return [group for group in sets if len(group) > 1]


def _parts(rows: list[_Row], gutter: Gutter) -> bool:
    """Does a narrow `gutter` part cells in half the rows at least, two or more? A
    listing's one long line, or a gloss's one wide word, reaches past a gap the other
    rows leave: it is no column."""
    both = sum(1 for r in rows
               if any(w.box[2] <= gutter[0] + 0.5 for s in r.segments for w in s.words)
               and any(w.box[0] >= gutter[1] - 0.5 for s in r.segments for w in s.words))
    return both >= max(2, len(rows) / 2)


def _framed(rows: list[_Row], words: list[Word], height: float
            ) -> list[tuple[BBox, list[list[list[WordBox]]]]]:
    """The table of `rows` (between rules), when they are one: MIN_FRAMED_ROWS rows,
    most of them of several cells, with a gutter no word of the body crosses (the
    rows of the usual number of cells or more: a header cell spanning columns, or a
    group label, crosses gutters and goes to the cell its middle is in)."""
    cells = [r for r in rows if len(r.segments) > 1]
    # a group's label set between its rows ("DP" beside its "NLL" and "Triplet" rows)
    # is a row of one short segment; it does not make the slab less of a table
    labels = [r for r in rows if len(r.segments) == 1 and len(r.segments[0].words) <= 2]
    if (len(rows) < MIN_FRAMED_ROWS or len(cells) < 2
            or len(cells) < 2 * (len(rows) - len(labels)) / 3):
        return []
    usual = median(len(r.segments) for r in cells)
    body = [r for r in cells if len(r.segments) >= usual]
    spans = sorted((w.box[0], w.box[2]) for r in body for s in r.segments for w in s.words)
    gutters: list[Gutter] = []
    reach = spans[0][1]
    for lo, hi in spans[1:]:
        if lo - reach >= GAP_EMS * height or (
                lo - reach >= FRAMED_GAP_EMS * height and _parts(body, (reach, lo))):
            gutters.append((reach, lo))
        reach = max(reach, hi)
    if not gutters:
        return []
    table = _table(rows, gutters, words)
    return [table] if table is not None else []

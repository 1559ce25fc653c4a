"""Reading order of a page's items: recursive XY-cut over their boxes.

A page is cut into horizontal bands wherever no item spans the gap between them;
consecutive bands that share a column gutter (a vertical strip of at least
`MIN_GUTTER` points that no item crosses) form one group, and a group with a gutter
is read column by column, each column cut again the same way. So any number of
columns is read in order, and a page whose column count changes (a title across two
columns, a figure across two of three) is read band by band. Rows of short cells
side by side (a table of contents, a key–value form) are not columns: they are read
row by row.
"""

from __future__ import annotations

from collections.abc import Sequence

from visualiser.geometry import BBox, centre, holds_centre
from visualiser.layout.figures import Figure
from visualiser.layout.items import Item

MIN_GUTTER = 6.0  # points: narrower gaps are word or cell spacing, not a column gutter
Gutter = tuple[float, float]  # a vertical strip (x0, x1) that no item crosses
_PROSE_WORDS = 4  # a line of this many words is running text
_HEADING_SIZE = 1.08  # type this much larger than the running text beside it is a heading
_INK = 0.2  # share of a line's height above and below that is leading, not ink


def reading_order(items: list[Item], width: float = 0.0,
                  figures: Sequence[Figure] = ()) -> list[Item]:
    """`items` in reading order. Images behind text (backgrounds, frames) come first:
    they would otherwise bridge every gutter they lie under. A figure's members (its
    labels, `figures.py`) are read together where the figure stands, as one solid
    item: scattered over the figure, they would bridge gutters and rows."""
    for n, item in enumerate(items):
        item.seq = n
    grouped = {id(m) for f in figures for m in f.members}
    stand_ins: dict[int, list[Item]] = {}
    placed: list[Item] = []
    for figure in figures:
        own = {id(m) for m in figure.members}
        members = [m for m in items if id(m) in own]
        if not members:
            continue
        stand_in = Item("image", figure.bbox, seq=min(m.seq for m in members))
        stand_ins[id(stand_in)] = members
        placed.append(stand_in)
    items = [i for i in items if id(i) not in grouped] + placed
    lines = [i for i in items if i.kind == "line"]
    behind = [i for i in items if i.kind == "image" and id(i) not in stand_ins
              and _covers_lines(i.bbox, lines)]
    behind_ids = {id(i) for i in behind}
    solid = [i for i in items if id(i) not in behind_ids]
    ordered: list[Item] = []
    for item in _rows(behind) + _xy_cut(solid):
        # A diagram has no reading order of its own; its program writes each label
        # whole (both lines of a box's name, a legend entry), where rows would
        # interleave the labels of boxes side by side.
        ordered.extend(sorted(stand_ins[id(item)], key=lambda i: i.seq)
                       if id(item) in stand_ins else [item])
    return ordered


def _xy_cut(items: list[Item]) -> list[Item]:
    if len(items) <= 1:
        return list(items)
    ordered: list[Item] = []
    for group in _groups(_bands(items)):
        columns = _columns(group, _gutters(group))
        if len(columns) > 1 and len(columns[0]) < len(group):
            for column in columns:
                ordered.extend(_xy_cut(column))
        else:
            ordered.extend(_rows(group))
    return ordered


def _ink(item: Item) -> tuple[float, float]:
    top, bottom = item.bbox[1], item.bbox[3]
    if item.kind == "line":  # line boxes include leading: adjacent lines overlap a little
        pad = (bottom - top) * _INK
        return top + pad, bottom - pad
    return top, bottom


def _bands(items: list[Item]) -> list[list[Item]]:
    """Items cut into horizontal bands at every vertical gap no item spans."""
    bands: list[list[Item]] = []
    bottom = float("-inf")
    for item in sorted(items, key=lambda i: _ink(i)[0]):
        top, low = _ink(item)
        if bands and top < bottom:
            bands[-1].append(item)
            bottom = max(bottom, low)
        else:
            bands.append([item])
            bottom = low
    return bands


def _groups(bands: list[list[Item]]) -> list[list[Item]]:
    """Consecutive bands that share a column structure, merged.

    The gutters of a group and the next band together are found from what the group
    covers (kept as the union of its spans, a handful of intervals) and the band's
    spans, not from all the group's items again: that made a page of a hundred lines
    cost thousands of span walks. Only when a piece of a line in the band continues a
    line of the group (`_spans` would run them together) are the spans walked anew."""
    groups: list[list[Item]] = []
    own: list[Gutter] = []  # the gutters of the last group
    covered: list[Gutter] = []  # what the last group's spans cover, as disjoint intervals
    size = 0.0  # the largest type in the last group
    seqs: set[int] = set()  # the last group's items
    for band in bands:
        band_covered, band_size = _union(_spans(band)), _type_size(band)
        if groups:
            merged = groups[-1] + band
            if _continues_across(seqs, band, groups[-1]):
                merged_covered = _union(_spans(merged))
            else:
                merged_covered = _union(covered + band_covered)
            merged_size = max(size, band_size)
            gutters = _gaps(merged_covered, merged_size)
            parts = [_structural(groups[-1], own),
                     _structural(band, _gaps(band_covered, band_size))
                     if _reliable(band) else []]
            if _compatible(gutters, [g for g in parts if g]):
                groups[-1] = merged
                own, covered, size = gutters, merged_covered, merged_size
                seqs.update(i.seq for i in band)
                continue
        groups.append(list(band))
        own, covered, size = _gaps(band_covered, band_size), band_covered, band_size
        seqs = {i.seq for i in band}
    return groups


def _structural(items: list[Item], gutters: list[Gutter]) -> list[Gutter]:
    """The gutters of `items` that part columns of substance: running text (a line
    of `_PROSE_WORDS` words or more), a title set large, a table or a picture on
    both sides. The gaps between the pieces of a displayed formula ("V(A) = IDF(w)",
    "Σ", "exp(−") or between a diagram's labels are no column structure to keep
    apart from the columns around them."""
    if not gutters:
        return gutters
    heights = sorted(i.bbox[3] - i.bbox[1] for i in items if i.kind == "line")
    title = 1.5 * heights[len(heights) // 2] if heights else float("inf")
    prose = sorted(i.line.size for i in items
                   if i.line is not None and len(i.line.words) >= _PROSE_WORDS)
    # a heading set larger than the running text beside it ("Abstract" at the top of
    # one column, the other column's text already running)
    heading = _HEADING_SIZE * prose[len(prose) // 2] if prose else float("inf")
    columns: list[bool] = [False] * (len(gutters) + 1)
    for item in items:
        if item.kind != "line" or (item.line is not None and (
                len(item.line.words) >= _PROSE_WORDS or item.bbox[3] - item.bbox[1] >= title
                or (item.line.size >= heading and _wordy(item.line.text)))):
            centre = (item.bbox[0] + item.bbox[2]) / 2
            columns[sum(1 for g in gutters if centre > g[1])] = True
    return [g for n, g in enumerate(gutters) if columns[n] and columns[n + 1]]

def _wordy(text: str) -> bool:
    """Is `text` made of words ("Abstract", "1 Introduction"), not the pieces of a
    formula set in a larger math font ("L(qi, p+", "Σ")?"""
    letters = sum(c.isalpha() for c in text)
    return letters >= 0.6 * len(text.replace(" ", "")) and any(
        len(word) >= 3 and word.isalpha() for word in text.split())


def _continues_across(seqs: set[int], band: list[Item], group: list[Item]) -> bool:
    """Does an item of `band` run on from (or into) an item of `group` as `_spans`
    joins the pieces of one line: next in the PDF's order, on the same row, close?"""
    neighbours = [i for i in band if i.seq - 1 in seqs or i.seq + 1 in seqs]
    if not neighbours:
        return False
    by_seq = {i.seq: i for i in group}
    for b in neighbours:
        for a, c in ((by_seq.get(b.seq - 1), b), (b, by_seq.get(b.seq + 1))):
            if a is not None and c is not None and _joined(a, c):
                return True
    return False


def _reliable(band: list[Item]) -> bool:
    """Do the gutters of `band` say anything? A single row whose pieces the PDF
    writes one right after the other is one line of text that PyMuPDF split at a
    wide space; a picture, a table, a second row, or pieces written apart (each in
    its own column's run of text) are a column structure."""
    lines = [i for i in band if i.kind == "line"]
    if len(lines) < len(band) or any(not _same_row(lines[0].bbox, i.bbox) for i in lines):
        return True
    by_x = sorted(lines, key=lambda i: i.bbox[0])
    return any(b.seq != a.seq + 1 for a, b in zip(by_x, by_x[1:], strict=False))


def _compatible(merged: list[Gutter], parts: list[list[Gutter]]) -> bool:
    """Can two parts with gutters `parts` be read as one, with gutters `merged`?
    Parts without gutters go with anything that keeps a gutter of the others; every
    gutter of the parts must live on in a merged one, and one of them nearly whole.
    (A line centred above two columns narrows their gutter to a sliver: it belongs
    to neither column.)"""
    if not parts:
        return True  # one column on both sides

    def overlaps(m: Gutter, o: Gutter) -> bool:
        return m[0] < o[1] and o[0] < m[1]

    def kept(m: Gutter, o: Gutter) -> bool:
        return overlaps(m, o) and m[1] - m[0] >= min(0.5 * (o[1] - o[0]), 3 * MIN_GUTTER)

    return (all(any(overlaps(m, o) for m in merged) for part in parts for o in part)
            and any(kept(m, o) for part in parts for o in part for m in merged))


def _gutters(items: list[Item]) -> list[Gutter]:
    """Vertical strips that no item covers, with items on both sides, wider than
    MIN_GUTTER and than the word spacing of the largest type around (a gap in a
    title set at 32 pt is a space between words)."""
    return _gaps(_union(_spans(items)), _type_size(items))


def _type_size(items: list[Item]) -> float:
    return max((i.line.size for i in items if i.line is not None), default=0.0)


def _union(spans: list[Gutter]) -> list[Gutter]:
    """The extents `spans` cover together, as disjoint intervals left to right."""
    covered: list[Gutter] = []
    for left, right in sorted(spans):
        if covered and left <= covered[-1][1]:
            if right > covered[-1][1]:
                covered[-1] = (covered[-1][0], right)
        else:
            covered.append((left, right))
    return covered


def _gaps(covered: list[Gutter], size: float) -> list[Gutter]:
    """The gaps between covered intervals wide enough to be gutters next to type of
    `size` points."""
    widest_space = max(MIN_GUTTER, 0.6 * size)
    return [(a[1], b[0]) for a, b in zip(covered, covered[1:], strict=False)
            if b[0] - a[1] >= widest_space]


def _spans(items: list[Item]) -> list[Gutter]:
    """The horizontal extents the items cover. Pieces of one line of text (side by
    side on a row, close, written one right after the other) cover the space between
    them too: a section number and its title, a line split at a wide space."""
    spans = []
    by_seq = sorted(items, key=lambda i: i.seq)
    run = by_seq[0] if by_seq else None
    x0, x1 = (run.bbox[0], run.bbox[2]) if run else (0.0, 0.0)
    for a, b in zip(by_seq, by_seq[1:], strict=False):
        if _joined(a, b):
            x0, x1 = min(x0, b.bbox[0]), max(x1, b.bbox[2])
            continue
        spans.append((x0, x1))
        x0, x1 = b.bbox[0], b.bbox[2]
    if by_seq:
        spans.append((x0, x1))
    return spans


def _joined(a: Item, b: Item) -> bool:
    """Are `a` and the item written right after it, `b`, pieces of one line?"""
    return (a.line is not None and b.line is not None and b.seq == a.seq + 1
            and _same_row(a.bbox, b.bbox)
            and max(b.bbox[0] - a.bbox[2], a.bbox[0] - b.bbox[2]) < 2.5 * a.line.size)


def _columns(items: list[Item], gutters: list[Gutter]) -> list[list[Item]]:
    """`items` split at the gutters, left to right, unless they read as rows. A gutter
    that would leave a lone line as a column of its own (a section number beside its
    title) is no gutter: the narrowest such one is dropped until none is left."""
    gutters = list(gutters)
    while gutters:
        columns: list[list[Item]] = [[] for _ in range(len(gutters) + 1)]
        for item in items:
            x, _ = centre(item.bbox)
            columns[sum(1 for g in gutters if x > g[1])].append(item)
        light = [n for n, c in enumerate(columns) if _weight(c) < 2]
        if not light:
            return [items] if _reads_as_rows(columns) else columns
        beside = {g for n in light for g in (n - 1, n) if 0 <= g < len(gutters)}
        gutters.pop(min(beside, key=lambda g: gutters[g][1] - gutters[g][0]))
    return [items]


def _weight(column: list[Item]) -> int:
    return sum(1 if i.kind == "line" else 2 for i in column)


def _reads_as_rows(columns: list[list[Item]]) -> bool:
    """Short cells side by side on shared baselines (a table of contents, a form's
    labels and values) are rows, not columns of running text."""
    lines = [[i for i in c if i.kind == "line"] for c in columns]
    if any(not c for c in lines):
        return False
    prose = [sum(1 for i in c if i.line and len(i.line.words) >= 4) / len(c) for c in lines]
    if min(prose) >= 0.2:
        return False  # running text on every side: columns, even on a shared line grid
    paired = total = 0
    for left, right in zip(lines, lines[1:], strict=False):
        for item in min(left, right, key=len):
            other = right if item in left else left
            total += 1
            paired += any(_same_row(item.bbox, o.bbox) for o in other)
    return total > 0 and paired / total >= 0.7


def _same_row(a: BBox, b: BBox) -> bool:
    centre_a, centre_b = (a[1] + a[3]) / 2, (b[1] + b[3]) / 2
    return abs(centre_a - centre_b) < 0.5 * max(a[3] - a[1], b[3] - b[1], 1.0)


def _rows(items: list[Item]) -> list[Item]:
    """Top to bottom; items on one row in the order the PDF writes them, which is
    left to right for running text, and says what comes first where a row is not
    running text (a title written before the number in the badge to its left)."""
    ordered: list[Item] = []
    row: list[Item] = []
    for item in sorted(items, key=lambda i: (i.bbox[1], i.bbox[0])):
        if row and not _same_row(row[0].bbox, item.bbox):
            ordered.extend(sorted(row, key=lambda i: i.seq))
            row = []
        row.append(item)
    ordered.extend(sorted(row, key=lambda i: i.seq))
    return ordered


def _covers_lines(box: BBox, lines: list[Item]) -> bool:
    """Does the image `box` lie under at least two text lines (a background)?"""
    inside = 0
    for line in lines:
        if holds_centre(box, line.bbox):
            inside += 1
            if inside >= 2:
                return True
    return False

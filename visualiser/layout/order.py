"""Reading order of a page's items: recursive XY-cut over their boxes.

A page is cut into horizontal bands wherever no item spans the gap between them;
consecutive bands that share a column gutter (a vertical strip of at least
`MIN_GUTTER` points that no item crosses) form one group, and a group with a gutter
is read column by column, each column cut again the same way. So any number of
columns is read in order, and a page whose column count changes (a title across two
columns, a figure across two of three) is read band by band. A page written right to
left (Arabic, Hebrew) reads its columns from the right. Rows of short cells
side by side (a table of contents, a key–value form) are not columns: they are read
row by row.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right, insort
from collections.abc import Sequence
from itertools import pairwise
from math import inf

from visualiser.geometry import BBox, centre, holds_centre, union
from visualiser.layout.figures import Figure
from visualiser.layout.items import Item, RawLine
from visualiser.layout.scripts import right_to_left
from visualiser.patterns import DOT_LEADER, LABEL_LINES, RUNNING_WORDS, SENTENCE_END

MIN_GUTTER = 6.0  # points: narrower gaps are word or cell spacing, not a column gutter
Gutter = tuple[float, float]  # a vertical strip (x0, x1) that no item crosses
_RUNNING_LINES = 6  # lines of running text that show a column of it
_LISTED_ROWS = 0.8  # of the rows beside it a list has an entry on, line after line
_LISTING_MONO = 0.8  # of a code listing's lines set in a typewriter font, at least
_HEADING_SIZE = 1.08  # type this much larger than the running text beside it is a heading
_SIDE_WIDTH = 0.25  # a column of section heads: this share of the width it and its text span
_INK = 0.2  # share of a line's height above and below that is leading, not ink
_TALL = 3.0  # a picture or table this many lines high is a row of its own
_CONTENTS_ENTRIES = 3  # dot-leader lines that make a column of contents entries
_LABEL_WORDS = 5  # a label with a line of more words is a paragraph
_TERM_WORDS = 3  # a term hung in the margin beside its description's first line, at most
_BARE_NUMBER = re.compile(r"^\W*[\d.,%]+\W*$")


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
    rtl = right_to_left(i.line.text for i in lines if i.line is not None)
    ordered: list[Item] = []
    for item in _rows(behind) + _xy_cut(solid, rtl):
        # A diagram has no reading order of its own; its program writes each label
        # whole (both lines of a box's name, a legend entry), where rows would
        # interleave the labels of boxes side by side.
        ordered.extend(sorted(stand_ins[id(item)], key=lambda i: i.seq)
                       if id(item) in stand_ins else [item])
    return ordered


def _xy_cut(items: list[Item], rtl: bool = False) -> list[Item]:
    if len(items) <= 1:
        return list(items)
    ordered: list[Item] = []
    groups = _groups(_bands(items))
    for n, (group, overrun) in enumerate(groups):
        columns = _columns(group, overrun or _gutters(group))
        if len(columns) > 1 and len(columns[0]) < len(group):
            rest = [i for c in columns[1:] for i in c]
            if not rtl and _side_heads(columns[0], rest):
                ordered.extend(_beside(_xy_cut(columns[0]), _xy_cut(rest)))
                continue
            after = groups[n + 1][0] if n + 1 < len(groups) else []
            tail = [] if rtl else _heads_below(columns, after)
            for column in reversed(columns) if rtl else columns:
                ordered.extend(_xy_cut(column, rtl))
            ordered.extend(_xy_cut(tail))
        else:
            ordered.extend(_rows(group, rtl))
    return ordered


def _heads_below(columns: list[list[Item]], after: list[Item]) -> list[Item]:
    """The heads that end a column below the foot of every column after it, taken out
    of it (`columns` left to right, changed in place), where text across that column's
    edge follows (`after`: the next group): set where the columns have all ended,
    narrower than that text and so within the first column's width, such a head heads
    it (a newsletter's "Remote Vendor" over its full-width text), not the column. A
    head at a column's foot with its text atop the next column stands above that
    column's foot; a paper's last page, its second column short, has no text across
    after its first column's last heads (an appendix's "A.1" goes on in that column)."""
    lines = [i for column in columns for i in column if i.line is not None]
    if not lines or not after:
        return []
    sizes = sorted(i.line.size for i in lines)
    head_size = _HEADING_SIZE * sizes[len(sizes) // 2]
    tail: list[Item] = []
    for n, column in enumerate(columns[:-1]):
        later = [i for c in columns[n + 1:] for i in c]
        foot = max(i.bbox[3] for i in later)
        heads = [i for i in column if i.bbox[1] > foot and i.line is not None
                 and i.line.size >= head_size]
        rest = [i for i in column if i not in heads]
        edge = max(i.bbox[2] for i in column)
        if (heads and rest and max(i.bbox[3] for i in rest) <= min(h.bbox[1] for h in heads)
                and any(a.bbox[0] < edge < a.bbox[2] and a.bbox[1] >= max(h.bbox[3] for h in heads)
                        for a in after)):
            tail[:0] = heads
            column[:] = rest
    return tail


def _side_heads(side: list[Item], rest: list[Item]) -> bool:
    """Is `side` a narrow column of section heads beside the text they head, set level
    with their sections' first lines (a form's "Income" and "Adjusted Gross Income", a
    résumé's "Experience")? Read as a column of its own, every head would come before
    all the sections: the text of each would fall under the last head."""
    lines = [i for i in rest if i.line is not None]
    if not lines or any(i.line is None for i in side):
        return False
    left, right = min(i.bbox[0] for i in side), max(i.bbox[2] for i in rest)
    if max(i.bbox[2] for i in side) - left > _SIDE_WIDTH * (right - left):
        return False
    sizes = sorted(i.line.size for i in lines)
    heads = [i for i in side if i.line.size >= _HEADING_SIZE * sizes[len(sizes) // 2]]
    # a head below the text's top: read first as a column, it would run ahead of text
    top = min(i.bbox[1] for i in rest)
    return any(h.bbox[1] > top + 2 * (h.bbox[3] - h.bbox[1]) for h in heads)


def _beside(side: list[Item], rest: list[Item]) -> list[Item]:
    """`rest` with the blocks of `side` (both in reading order; a block: lines set one
    close under the other, a head on three lines or a note) each read before the first
    item of `rest` that starts level with the block's first line or below."""
    blocks: list[list[Item]] = []
    for item in side:
        if blocks and item.bbox[1] - blocks[-1][-1].bbox[3] < 0.5 * (
                blocks[-1][-1].bbox[3] - blocks[-1][-1].bbox[1]):
            blocks[-1].append(item)
        else:
            blocks.append([item])
    out: list[Item] = []
    n = 0
    for block in blocks:
        top = block[0].bbox[1] - 0.5 * (block[0].bbox[3] - block[0].bbox[1])
        while n < len(rest) and rest[n].bbox[1] < top:
            out.append(rest[n])
            n += 1
        out.extend(block)
    return out + rest[n:]


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


def _groups(bands: list[list[Item]]) -> list[tuple[list[Item], list[Gutter] | None]]:
    """Consecutive bands that share a column structure, merged; with each group, its
    gutters when a line overran one of them (`_cut_back`: the group's own items no
    longer show it), else None.

    Everything the test needs about the group so far is kept up to date band by band
    (what its spans cover, as a handful of disjoint intervals; its items by `seq`; its
    column substance, `_Substance`), never found by walking the group's items again:
    that made a page of a hundred lines cost thousands of item walks. Each band is
    walked once, and once more when it joins the group."""
    infos = [_BandInfo(band) for band in bands]
    groups: list[list[Item]] = []
    # per group: its gutters, kept from the merging once a line of it overran one
    overrun: list[list[Gutter] | None] = []
    own: list[Gutter] = []  # the gutters of the last group
    covered: list[Gutter] = []  # what the last group's spans cover, as disjoint intervals
    size = 0.0  # the largest type in the last group
    by_seq: dict[int, Item] = {}  # the last group's items
    substance = _Substance()  # the last group's column substance
    members: list[int] = []  # the bands of the last group
    for n, info in enumerate(infos):
        band = info.band
        if groups:
            merged_covered = _union(covered + info.covered + _hulls_across(by_seq, band))
            merged_size = max(size, info.size)
            gutters = _gaps(merged_covered, merged_size)
            parts = [g for g in (substance.structural(own), info.structural) if g]
            following = infos[n + 1].structural if n + 1 < len(infos) else []
            fits = _compatible(gutters, parts) or _confirmed(gutters, parts, following)
            cut_back = False
            if not fits and (cut := _cut_back(info.covered, covered, info.size)):
                merged_covered = _union(covered + cut + _hulls_across(by_seq, band))
                gutters = _gaps(merged_covered, merged_size)
                fits = cut_back = _compatible(gutters, parts)
            if fits:
                groups[-1].extend(band)
                members.append(n)
                own, covered, size = gutters, merged_covered, merged_size
                if cut_back or overrun[-1] is not None:
                    overrun[-1] = gutters
                by_seq.update((i.seq, i) for i in band)
                substance.add(band)
                continue
        start = n
        if groups and info.structural:
            start = _column_starts(infos, members, n)
        pulled = [i for m in range(start, n) for i in infos[m].band]
        if pulled:
            kept = {id(i) for i in pulled}
            groups[-1] = [i for i in groups[-1] if id(i) not in kept]
        groups.append(pulled + list(band))
        overrun.append(None)
        members = list(range(start, n + 1))
        own = info.gaps
        covered = _union([c for m in members for c in infos[m].covered])
        size = max(infos[m].size for m in members)
        by_seq = {i.seq: i for i in groups[-1]}
        substance = _Substance()
        substance.add(groups[-1])
    return list(zip(groups, overrun, strict=True))


def _column_starts(infos: list[_BandInfo], members: list[int], n: int) -> int:
    """Where the columns that band `n` opens begin: the last bands of the group before
    (`members`) that lie wholly on one side of its gutters, each set close above the
    next and aligned with the column it stands over, belong to the columns. Columns
    start staggered when a heading on a tinted bar opens one of them: the other's
    first lines, beside the heading, are bands of one column each and had joined the
    full-width text above. (A line set apart above, or not aligned with the column
    below, as a right-aligned author's name, stays where it is.)"""
    gutters, start = infos[n].structural, n
    below = list(infos[n].band)  # the lines of the columns so far, each band's once
    last = len(members) - 1
    while last > 0 and members[last] == start - 1:
        band = infos[start - 1].band
        # the space left above the band, from the band before it
        above = min(i.bbox[1] for i in band) - max(
            (i.bbox[3] for i in (infos[start - 2].band if start >= 2 else ())),
            default=float("-inf"))
        if not all(_beside_gutters(i, gutters) and _atop_column(i, below, gutters, above)
                   for i in band):
            break
        below.extend(band)
        last, start = last - 1, start - 1
    return start


def _beside_gutters(item: Item, gutters: list[Gutter]) -> bool:
    return all(item.bbox[2] <= g[0] or item.bbox[0] >= g[1] for g in gutters)


def _atop_column(item: Item, below: list[Item], gutters: list[Gutter],
                 above: float = float("inf")) -> bool:
    """Is `item` set close above the lines `below` on its side of `gutters`, its edge
    aligned with theirs (a paragraph's indent apart at most)? Close: within three
    quarters of its size, or within one and a half and less than half the space
    `above` it (headings atop both columns, "CONTENTS" and "1 INTRODUCTION", set
    nearer their text than the abstract above them)."""
    if item.line is None:
        return False
    side = sum(1 for g in gutters if item.bbox[0] >= g[1])
    column = [i for i in below if sum(1 for g in gutters if i.bbox[0] >= g[1]) == side]
    if not column:
        return False
    size = item.line.size
    top = min(i.bbox[1] for i in below)
    aligned = any(abs(i.bbox[0] - item.bbox[0]) <= 2 * size
                  or abs(i.bbox[2] - item.bbox[2]) <= 2 * size for i in column)
    gap = top - item.bbox[3]
    return aligned and (gap <= 0.75 * size or (gap <= 1.5 * size and gap < above / 2))


class _BandInfo:
    """What `_groups` needs of one band, found once: what its spans cover, its type
    size, its gutters, and those of them that are column structure (`_structural`;
    none when the band is one line split at a wide space, `_reliable`)."""

    def __init__(self, band: list[Item]) -> None:
        self.band = band
        self.covered = _union(_spans(band))
        self.size = _type_size(band)
        self.gaps = _gaps(self.covered, self.size)
        self.structural = _structural(band, self.gaps) if self.gaps and _reliable(band) else []


def _hulls_across(by_seq: dict[int, Item], band: list[Item]) -> list[Gutter]:
    """The extents that pieces of one line cover where a piece in `band` runs on from
    (or into) a piece in the group `by_seq` (`_spans` joins them): with these, the
    union of the group's and the band's covered intervals is what the spans of both
    together cover."""
    hulls: list[Gutter] = []
    for b in band:
        for a, c in ((by_seq.get(b.seq - 1), b), (b, by_seq.get(b.seq + 1))):
            if a is not None and c is not None and _joined(a, c):
                hulls.append((min(a.bbox[0], c.bbox[0]), max(a.bbox[2], c.bbox[2])))
    return hulls


class _Substance:
    """`_structural` of a growing group, kept up to date item by item: the centres of
    the items that are column substance whatever else is in the group (pictures,
    tables, running text), kept sorted, and the other lines sorted by the height and
    size that make them a title or a heading once the group's medians are known."""

    def __init__(self) -> None:
        self.always: list[float] = []  # centres, sorted
        self.heights: list[float] = []  # every line's height, sorted (for `title`)
        self.prose: list[float] = []  # the type sizes of running text, sorted
        self.by_height: list[tuple[float, float, float]] = []  # (height, centre, size)
        # of short lines
        self.by_size: list[tuple[float, float]] = []  # (size, centre) of short wordy lines

    def add(self, items: list[Item]) -> None:
        for item in items:
            centre = (item.bbox[0] + item.bbox[2]) / 2
            if item.kind != "line":
                insort(self.always, centre)
                continue
            height = item.bbox[3] - item.bbox[1]
            insort(self.heights, height)
            if item.line is None:
                continue
            if len(item.line.words) >= RUNNING_WORDS:
                insort(self.always, centre)
                insort(self.prose, item.line.size)
                continue
            insort(self.by_height, (height, centre, item.line.size))
            if _wordy(item.line.text):
                insort(self.by_size, (item.line.size, centre))

    def structural(self, gutters: list[Gutter]) -> list[Gutter]:
        """As `_structural(items, gutters)` of the items added so far."""
        if not gutters:
            return gutters
        heights, prose = self.heights, self.prose
        title = 1.5 * heights[len(heights) // 2] if heights else float("inf")
        heading = _HEADING_SIZE * prose[len(prose) // 2] if prose else float("inf")
        # the few lines set large enough: a suffix of each sorted list. A tall line is a
        # title only in type larger than the running text: a displayed formula's piece
        # is as tall where a fraction or a sum's limits stack ("dx Fn(x)" over "An + Bn")
        large = sorted([c for _, c, size in self.by_height[bisect_left(self.by_height,
                                                                       (title,)):]
                        if size >= heading or not prose]
                       + [c for _, c in self.by_size[bisect_left(self.by_size, (heading,)):]])

        def any_in(low: float, high: float) -> bool:  # a centre c with low < c <= high
            return any(bisect_right(c, high) > bisect_right(c, low)
                       for c in (self.always, large))

        edges = [float("-inf")] + [g[1] for g in gutters] + [float("inf")]
        columns = [any_in(edges[n], edges[n + 1]) for n in range(len(gutters) + 1)]
        return [g for n, g in enumerate(gutters) if columns[n] and columns[n + 1]]


def _structural(items: list[Item], gutters: list[Gutter]) -> list[Gutter]:
    """The gutters of `items` that part columns of substance: running text (a line
    of `RUNNING_WORDS` words or more), a title set large, a heading set larger than
    the running text, a table or a picture on both sides. The gaps between the pieces
    of a displayed formula ("V(A) = IDF(w)", "Σ", "exp(−") or between a diagram's
    labels are no column structure to keep apart from the columns around them."""
    if not gutters:
        return gutters
    substance = _Substance()
    substance.add(items)
    return substance.structural(gutters)


def _wordy(text: str) -> bool:
    """Is `text` made of words ("Abstract", "1 Introduction"), not the pieces of a
    formula set in a larger math font ("L(qi, p+", "Σ")?"""
    letters = sum(c.isalpha() for c in text)
    return letters >= 0.6 * len(text.replace(" ", "")) and any(
        len(word) >= 3 and word.isalpha() for word in text.split())


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


def _cut_back(band: list[Gutter], group: list[Gutter], size: float) -> list[Gutter] | None:
    """`band`'s covered intervals with each that overruns a column of `group` into
    the gutter after it cut back to the column's edge; None when none does. An
    overfull line (a line of code, a long address) starts where its column starts and
    runs into the gutter, short of the next column: it narrows the gutter by its
    overrun, and the band it makes with the next column's row is no row across.
    It keeps its column's left edge (or its indent), and the gutter is one between
    columns of its type, 4 em wide at most: a centred line wider than the ones above
    it (an author's affiliation) sticks out on the left too, and a title reaching
    across a masthead's wide gap between its left and right parts is no overrun."""
    cut, changed = [], False
    for start, end in band:
        column = next(((left, right) for (left, right), (after, _) in pairwise(group)
                       if left - 1.0 <= start <= left + 2 * size
                       and right < end <= after - MIN_GUTTER / 2
                       and after - right <= 4 * size), None)
        cut.append((start, column[1]) if column else (start, end))
        changed = changed or column is not None
    return cut if changed else None


def _compatible(merged: list[Gutter], parts: list[list[Gutter]]) -> bool:
    """Can two parts with gutters `parts` be read as one, with gutters `merged`?
    Parts without gutters go with anything that keeps a gutter of the others; every
    gutter of the parts must live on in a merged one, and one of them nearly whole,
    or 12 points wide at least. (A line centred above two columns narrows their
    gutter to a sliver: it belongs to neither column. A long line beside a column of
    notes may leave 16 points of a gutter that its shorter neighbours left 40 wide.)"""
    if not parts:
        return True  # one column on both sides

    def overlaps(m: Gutter, o: Gutter) -> bool:
        return m[0] < o[1] and o[0] < m[1]

    def kept(m: Gutter, o: Gutter) -> bool:
        return overlaps(m, o) and m[1] - m[0] >= min(0.5 * (o[1] - o[0]), 2 * MIN_GUTTER)

    return (all(any(overlaps(m, o) for m in merged) for part in parts for o in part)
            and any(kept(m, o) for part in parts for o in part for m in merged))


def _confirmed(merged: list[Gutter], parts: list[list[Gutter]],
               following: list[Gutter]) -> bool:
    """Is a gutter that a band narrows (`_compatible` refuses it) the true gutter all
    the same, because the band after it has its gutter where the narrowed one ends? A
    column's text is wider than the table or picture above it: its edge narrows the
    gutter seen so far to the one the column keeps below. (A line centred above two
    columns narrows their gutter to less than the columns below keep.)"""
    if not following or not parts:
        return False
    gutters = [o for part in parts for o in part]

    def overlaps(m: Gutter, o: Gutter) -> bool:
        return m[0] < o[1] and o[0] < m[1]

    def holds(m: Gutter, o: Gutter) -> bool:
        """Does `o` keep the edges of `m` that the band moved?"""
        moved_left = any(overlaps(m, g) and g[0] < m[0] - 1.0 for g in gutters)
        moved_right = any(overlaps(m, g) and g[1] > m[1] + 1.0 for g in gutters)
        return (overlaps(m, o) and (not moved_left or o[0] >= m[0] - 1.0)
                and (not moved_right or o[1] <= m[1] + 1.0))

    return (all(any(overlaps(m, o) for m in merged) for o in gutters)
            and all(any(holds(m, o) for m in merged) for o in following))


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
    labels and values) are rows, not columns of running text; and so are short lines
    that never share a row with the other side (a letter's letterhead, addresses and
    date, set left and right of one another): top to bottom is how they read."""
    lines = [[i for i in c if i.kind == "line"] for c in columns]
    if any(not c for c in lines):
        return False
    prose = [sum(1 for i in c if i.line and len(i.line.words) >= 4) / len(c) for c in lines]
    if min(prose) >= 0.2:
        return False  # running text on every side: columns, even on a shared line grid
    if all(_contents_column(c) for c in lines):
        return False  # a contents page in columns: each side's rows are whole entries
    if len(lines) == 2 and (_list_beside_text(*lines) or _code_beside_text(*lines)):
        return False
    paired = total = 0
    for left, right in zip(lines, lines[1:], strict=False):
        for item in min(left, right, key=len):
            other = right if item in left else left
            total += 1
            paired += any(_same_row(item.bbox, o.bbox) for o in other)
    return total > 0 and (paired == 0 or paired / total >= 0.7)


def _label_rows(rows: list[list[Item]], rtl: bool) -> tuple[list[list[Item]], set[int]]:
    """`rows` with each run of two or three rows that are labels side by side
    (`_labels_side_by_side`) made one row, read label by label (from the right on a
    page written right to left); and the ids of those rows, already in order."""
    out: list[list[Item]] = []
    labels: set[int] = set()
    n = 0
    while n < len(rows):
        for length in range(LABEL_LINES, 1, -1):
            run = rows[n:n + length]
            if len(run) < length:
                continue
            if len({len(r) for r in run}) > 1:
                run = _cut_at_gutters(run)
            if len({len(r) for r in run}) > 1 or len(run[0]) < 2:
                continue
            by_x = [sorted(r, key=lambda i: i.bbox[0]) for r in run]
            stacks = [list(s) for s in zip(*by_x, strict=True)]
            if _labels_side_by_side(stacks):
                row = [i for s in (reversed(stacks) if rtl else stacks) for i in s]
                out.append(row)
                labels.add(id(row))
                n += length
                break
        else:
            out.append(rows[n])
            n += 1
    return out, labels


def _cut_at_gutters(run: list[list[Item]]) -> list[list[Item]]:
    """`run` (rows of lines) with a line of a row of fewer pieces cut where a gutter of
    the row of most pieces crosses a space between its words: two labels set close on
    one row are read as one line ("Building the  Building a"), and beside the next
    row's four pieces the row of three made no labels."""
    widest = max(run, key=len)
    by_x = sorted(widest, key=lambda i: i.bbox[0])
    gutters = [(a.bbox[2], b.bbox[0]) for a, b in pairwise(by_x) if b.bbox[0] > a.bbox[2]]
    cut_run = []
    for row in run:
        if len(row) == len(widest):
            cut_run.append(row)
            continue
        pieces: list[Item] = []
        for item in row:
            pieces.extend(_cut_line(item, gutters))
        cut_run.append(pieces)
    return cut_run


def _cut_line(item: Item, gutters: list[Gutter]) -> list[Item]:
    """`item`'s line in pieces at the spaces between its words that hold the middle of
    one of `gutters`; its words keep their order (a right-to-left line's too)."""
    line = item.line
    if line is None or len(line.words) < 2:
        return [item]
    words = sorted(line.words, key=lambda w: w[0][0])
    cuts = [right[0][0] for left, right in pairwise(words)
            if any(left[0][2] <= (g0 + g1) / 2 <= right[0][0] for g0, g1 in gutters)]
    if not cuts:
        return [item]
    pieces = []
    for start, end in pairwise([-inf, *cuts, inf]):
        part = [w for w in line.words if start <= w[0][0] < end]
        box = union(b for b, _ in part)
        pieces.append(Item("line", box, line=RawLine(box, part, line.size, line.bold,
                                                     line.mono, line.horizontal),
                           role=item.role, group=item.group, seq=item.seq))
    return pieces


def _labels_side_by_side(stacks: list[list[Item]]) -> bool:
    """Labels side by side, each wrapped on two or three lines (a diagram's boxes, an
    infographic's steps: "Building the" over "Egyptian person" beside "Building a"
    over "competitive economy"). They share baselines as a form's labels and values
    do, and row by row they interleave ("Building the Building a … Egyptian person
    competitive economy"). What tells them apart: each column is one short stack of
    lines, none of them a label ending in a colon or a bare number, and its lines
    read on as one phrase: a line ending unfinished ("the", "and", a hyphen) or
    followed by one in lower case, in most columns; a script without capitals gives
    no such cue, and there three such stacks in a row or more decide."""
    if len(stacks) < 2 or not all(_label_stack(s) for s in stacks):
        return False
    for row in zip(*stacks, strict=True):  # pieces of one justified line, split at a
        if any(_joined(a, b) or _joined(b, a) for a, b in zip(row, row[1:], strict=False)):
            return False  # wide space, stacked over the next line's pieces
    texts = [[i.line.text.strip() for i in s if i.line is not None] for s in stacks]
    if not any(c.isupper() or c.islower() for lines in texts for t in lines for c in t):
        return len(stacks) >= 3
    phrases = sum(1 for lines in texts if any(
        _UNFINISHED.search(a) or a.endswith("-") or b[:1].islower()
        for a, b in zip(lines, lines[1:], strict=False)))
    return phrases > len(stacks) / 2


def _label_stack(lines: list[Item]) -> bool:
    """Are `lines` (top to bottom) one label on two or three lines: short, set one
    close under the other and aligned (left, centre or right)?"""
    if not 2 <= len(lines) <= LABEL_LINES or any(
            i.line is None or len(i.line.words) > _LABEL_WORDS
            or i.line.text.rstrip().endswith((":", "：")) or _BARE_NUMBER.match(i.line.text)
            for i in lines):
        return False
    if any(i.line.text.rstrip().endswith((".", "!", "?", "。"))
           for i in lines[:-1] if i.line is not None):
        return False  # a sentence ends inside: the lines of running text
    for a, b in zip(lines, lines[1:], strict=False):
        size = max(a.line.size, b.line.size)
        if not 0.5 * size < b.bbox[1] - a.bbox[1] < 2.0 * size:
            return False
        if min(abs(a.bbox[0] - b.bbox[0]), abs(a.bbox[2] - b.bbox[2]),
               abs(a.bbox[0] + a.bbox[2] - b.bbox[0] - b.bbox[2]) / 2) > size:
            return False
    return True


def _list_beside_text(left: list[Item], right: list[Item]) -> bool:
    """Is one side running text and the other a list set line after line beside it (a
    paper's contents in one column, its introduction in the other)? On one line grid
    they pair up row by row, as a form's labels and values do; but the text runs on
    from line to line, and the list has an entry on nearly every row of it. (A term
    beside its definition pairs with the definition's first line only: rows.)"""
    for text, listed in ((left, right), (right, left)):
        top = min(i.bbox[1] for i in listed)
        bottom = max(i.bbox[3] for i in listed)
        beside = [i for i in text if top <= (i.bbox[1] + i.bbox[3]) / 2 <= bottom]
        rows = len({round((i.bbox[1] + i.bbox[3]) / 2) for i in listed})  # an entry's
        # number and title may be two pieces
        if (len(beside) >= _RUNNING_LINES and rows >= _LISTED_ROWS * len(beside)
                and _runs_on(beside)):
            return True
    return False


def _code_beside_text(left: list[Item], right: list[Item]) -> bool:
    """Is one side running text and the other a listing in a typewriter font beside it
    (a manual's example set in the other column, on its own line grid)? Read row by
    row, each line of the text was followed by a line of code."""
    for text, code in ((left, right), (right, left)):
        # a listing's lines, not the numbers of another listing's lines
        mono = sum(1 for i in code if i.line is not None and i.line.mono
                   and not _BARE_NUMBER.match(i.line.text))
        prose = [i for i in text if i.line is not None and not i.line.mono]
        if (len(code) >= _RUNNING_LINES and mono >= _LISTING_MONO * len(code)
                and len(prose) >= _RUNNING_LINES and _runs_on(prose)):
            return True  # (the text's side may hold a listing of its own further down)
    return False


def _runs_on(lines: list[Item]) -> bool:
    """Are `lines` running text: most of them lines of prose, and many of them carrying
    on the sentence of the line above (starting lower case, or after a hyphen)?"""
    texts = [i.line.text for i in sorted(lines, key=lambda i: i.bbox[1]) if i.line]
    if sum(len(t.split()) >= RUNNING_WORDS for t in texts) < 0.6 * len(texts):
        return False
    carried = sum(1 for a, b in pairwise(texts) if b[:1].islower() or a.endswith("-"))
    return carried >= 0.3 * (len(texts) - 1)


def _contents_column(lines: list[Item]) -> bool:
    """Are `lines` a column of contents entries, each with its dot leaders to its page
    number? Side by side, such columns share a line grid as a form's labels and values
    do, but an entry is whole on its side: read across, the entries interleave."""
    leaders = sum(1 for i in lines if i.line and DOT_LEADER.search(i.line.text))
    rows = len({round((i.bbox[1] + i.bbox[3]) / 2) for i in lines})
    return leaders >= _CONTENTS_ENTRIES and leaders >= 0.5 * rows


def _same_row(a: BBox, b: BBox) -> bool:
    centre_a, centre_b = (a[1] + a[3]) / 2, (b[1] + b[3]) / 2
    return abs(centre_a - centre_b) < 0.5 * max(a[3] - a[1], b[3] - b[1], 1.0)


def _rows(items: list[Item], rtl: bool = False) -> list[Item]:
    """Top to bottom; items on one row in the order the PDF writes them, which is
    left to right for running text, and says what comes first where a row is not
    running text (a title written before the number in the badge to its left). On a
    page written right to left a row of lines side by side reads from the right: a
    form's label before the value on its left, whatever order they were drawn in."""
    limit = _TALL * _line_height(items)
    # A picture or table many lines high makes no row: as the first of one it took
    # in every line beside it, and a photo down the page's side had the whole page
    # read in the order its PDF happens to write it. It is read after the rows
    # beside it, so that it parts no paragraph it stands beside, and before the
    # first row set on or under it (its labels, its caption).
    tall = sorted((i for i in items if i.kind != "line" and i.bbox[3] - i.bbox[1] > limit),
                  key=lambda i: (i.bbox[3], i.bbox[0]))
    taken = {id(i) for i in tall}
    rows: list[list[Item]] = []
    for item in sorted(items, key=lambda i: (i.bbox[1], i.bbox[0])):
        if id(item) in taken:
            continue
        if not rows or not _same_row(rows[-1][0].bbox, item.bbox):
            rows.append([])
        rows[-1].append(item)
    rows, labels = _label_rows(rows, rtl)
    ordered: list[Item] = []
    above: list[Item] = []
    for row in rows:
        middle = (row[0].bbox[1] + row[0].bbox[3]) / 2  # a caption's box may touch it
        due = [t for t in tall if t.bbox[3] <= middle or (t.bbox[1] <= middle and any(
            i.bbox[0] < t.bbox[2] and t.bbox[0] < i.bbox[2] for i in row))]
        if due:
            ordered.extend(due)
            placed = {id(t) for t in due}
            tall = [t for t in tall if id(t) not in placed]
        ordered.extend(row if id(row) in labels else _in_row(row, rtl, above))
        above = row
    ordered.extend(tall)
    return _labels_whole(ordered)


_SECTION_LABEL = 1.15  # a bold label this much larger than the form's text heads a section
_UNFINISHED = re.compile(r"(?:,|&|\b(?:and|or|of|for|the|to))$", re.IGNORECASE)


def _labels_whole(ordered: list[Item]) -> list[Item]:
    """A form's bold label set on two lines in the margin ("Tax and" over "Credits",
    "Sign" over "Here") read whole: its lines stand on two rows, and row by row the
    first row's fields came between them, so each half was a heading of its own.
    Where the first line cannot end a label (a comma, "and", "of"), or where both
    lines are set larger than the form's text (a section's label, not a field's:
    field labels stacked at the form's own size, "Name" over "Address", each read
    with the value beside it, look the same)."""
    bold = [i for i in ordered if i.line is not None and i.line.bold]
    if not bold:
        return ordered  # the usual group of rows
    sizes = sorted(i.line.size for i in ordered if i.line is not None)
    large = _SECTION_LABEL * sizes[len(sizes) // 2]
    out = list(ordered)
    for item in bold:
        line = item.line
        assert line is not None
        if not (line.size >= large or _UNFINISHED.search(line.text.rstrip())):
            continue
        under = [i for i in bold if i is not item and i.line is not None
                 and abs(i.bbox[0] - item.bbox[0]) < 0.5 * line.size
                 and -0.5 * line.size <= i.bbox[1] - item.bbox[3] < 0.6 * line.size
                 and abs(i.line.size - line.size) < 0.1 * line.size]
        if len(under) == 1:  # moved by identity: items equal field by field may repeat
            out = [i for i in out if i is not under[0]]
            at = next(n for n, i in enumerate(out) if i is item)
            out.insert(at + 1, under[0])
    return out


def _line_height(items: list[Item]) -> float:
    """The median height of the lines among `items`; infinite without lines running
    across (on a page whose content is drawn turned, its text space has them
    running down, and rows of it mean nothing)."""
    heights = sorted(i.bbox[3] - i.bbox[1] for i in items
                     if i.kind == "line" and i.bbox[2] - i.bbox[0] > i.bbox[3] - i.bbox[1])
    return heights[len(heights) // 2] if heights else float("inf")


def _in_row(row: list[Item], rtl: bool, above: list[Item]) -> list[Item]:
    """`row` in reading order; `above` is the row over it."""
    if rtl and len(row) > 1 and all(i.kind == "line" for i in row):
        by_x = sorted(row, key=lambda i: -i.bbox[2])
        if all(b.bbox[2] <= a.bbox[0] for a, b in zip(by_x, by_x[1:], strict=False)):
            return by_x  # side by side, none over another: one row of a right-to-left page
    ordered = sorted(row, key=lambda i: i.seq)
    if not rtl and len(ordered) == 2 and _hung_before(*ordered, above):
        ordered.reverse()
    return ordered


def _hung_before(line: Item, label: Item, above: list[Item]) -> bool:
    """Is `label`, written after the running text `line`, a term hung in the margin
    left of it, beside the first line of its description (a package manual's option
    name, set by \\marginpar or \\llap after the line it stands by)? It is read first:
    after the line it split the paragraph in two ("… from being loaded" /
    "references" / "and deactivates …"). Beside a line inside a paragraph (an index
    entry in the margin) it stays where the PDF writes it."""
    if (line.line is None or label.line is None or label.bbox[2] > line.bbox[0]
            or len(label.line.words) > _TERM_WORDS or len(line.line.words) < RUNNING_WORDS
            or _BARE_NUMBER.match(label.line.text)):  # a draft's line number
        return False
    height = line.bbox[3] - line.bbox[1]
    over = [i for i in above if i.line is not None
            and i.bbox[0] < line.bbox[2] and line.bbox[0] < i.bbox[2]]
    return all(line.bbox[1] - i.bbox[3] > 0.5 * height
               or i.line.text.rstrip().endswith(SENTENCE_END)  # type: ignore[union-attr]
               for i in over)


def _covers_lines(box: BBox, lines: list[Item]) -> bool:
    """Does the image `box` lie under at least two text lines (a background)?"""
    inside = 0
    for line in lines:
        if holds_centre(box, line.bbox):
            inside += 1
            if inside >= 2:
                return True
    return False

"""Provenance → regions: the boxes on each page where a chunk's words sit."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from operator import itemgetter

from shapely import box as shapely_box
from shapely import unary_union
from shapely.geometry.base import BaseGeometry

from visualiser.geometry import BBox, height, union
from visualiser.layout.model import Layout


@dataclass(frozen=True, slots=True)
class Region:
    page: int
    rects: tuple[BBox, ...]  # one per run of the chunk's words on a line
    bbox: BBox  # encloses all rects on this page

    def to_dict(self) -> dict[str, object]:
        return {
            "page": self.page,
            "rects": [[round(v, 2) for v in r] for r in self.rects],
            "bbox": [round(v, 2) for v in self.bbox],
        }


def regions_of(word_ids: set[int], layout: Layout) -> list[Region]:
    """Line-level rectangles of `word_ids`, page by page.

    On each line the chunk's words are taken in runs of neighbours (a line a chunk
    covers only in part gets a rectangle over that part only); rectangles that
    overlap are merged.
    """
    by_page: dict[int, list[BBox]] = {}
    words = layout.words
    for line_id in sorted({words[w].line for w in word_ids}):
        line = layout.lines[line_id]
        if word_ids.issuperset(line.word_ids):  # the whole line, as most lines are: one run
            by_page.setdefault(line.page, []).append(layout.words_box(line_id))
            continue
        run: list[int] = []
        for word_id in line.word_ids:
            if word_id in word_ids:
                run.append(word_id)
            elif run:
                by_page.setdefault(line.page, []).append(union(layout.words[w].bbox for w in run))
                run = []
        if run:
            by_page.setdefault(line.page, []).append(union(layout.words[w].bbox for w in run))
    return [
        Region(page, tuple(rects := _merge(boxes)), union(rects))
        for page, boxes in sorted(by_page.items())
    ]


def sideways_notes(region: Region) -> tuple[BBox, ...]:
    """The rectangles of `region` that are text set sideways in a margin (arXiv's
    stamp, a rotated note): tall and narrow, all on one side of every other rectangle
    of the chunk on that page, none of them above or below it. The PDF reads them
    beside the text they stand by, so they stretch the chunk's enclosing box out to the
    margin. (A chunk of text written down the page, vertical Japanese, has none.)"""
    sideways = [r for r in region.rects if _sideways(r)]
    across = [r for r in region.rects if not _sideways(r)]
    if not sideways or not across:
        return ()  # none, or text written down the page (vertical Japanese): no margin
    left, right = min(o[0] for o in across), max(o[2] for o in across)
    if all(r[2] <= left for r in sideways) or all(r[0] >= right for r in sideways):
        return tuple(sideways)
    return ()


def without_notes(region: Region) -> BBox:
    """`region`'s enclosing box without its notes set sideways (`sideways_notes`)."""
    notes = sideways_notes(region)
    return union(r for r in region.rects if r not in notes) if notes else region.bbox


def _sideways(rect: BBox) -> bool:
    """A line set sideways: its box many times taller than wide, and as wide as a
    line of small type at least (a full stop's box is tall and narrow too)."""
    width = rect[2] - rect[0]
    return width >= _LINE_WIDTH and height(rect) >= _SIDEWAYS * width


_SIDEWAYS = 3.0  # a line's box this many times taller than wide is set sideways
_LINE_WIDTH = 4.0  # points: the least height of a line of text, and so width sideways


def _merge(boxes: list[BBox]) -> list[BBox]:
    """Merge rectangles that overlap (words of one line split into several text
    lines by the PDF, table cells' words), keeping reading order. Two overlap as parts
    of one line do when they share over half the height of the shorter: lines above and
    below each other often overlap by a fraction of a point, and merging those would
    stretch a partial line to the full width of its neighbour and cover words not in
    the chunk. (Written out in the loop: a report asks it millions of times.)"""
    merged: list[BBox] = []
    for box in sorted(boxes, key=_TOP_LEFT):
        x0, top, x1, bottom = box
        tall = bottom - top
        # Sorted by top, only the last few rectangles can still reach down to this one.
        for n in range(len(merged) - 1, max(-1, len(merged) - 9), -1):
            ox0, otop, ox1, obottom = merged[n]
            if (x0 < ox1 and ox0 < x1
                    and min(obottom, bottom) - max(otop, top) > 0.5 * min(obottom - otop, tall)):
                merged[n] = (min(ox0, x0), min(otop, top), max(ox1, x1), max(obottom, bottom))
                break
        else:
            merged.append(box)
    return merged


_TOP_LEFT = itemgetter(1, 0)


def region_shape(rects: Iterable[BBox]) -> BaseGeometry:
    """A chunk's ground on a page: the union of its line rectangles (never its enclosing
    box, which also covers the gaps and the other column it does not hold)."""
    return unary_union([shapely_box(*r) for r in rects])


def _reaching(rects: tuple[BBox, ...], box: BBox) -> list[BBox]:
    """The rectangles of `rects` that touch or cross `box`."""
    return [r for r in rects if r[0] <= box[2] and box[0] <= r[2] and r[1] <= box[3]
            and box[1] <= r[3]]


def shared_ground(a: Region, b: Region, shared: Region | None) -> tuple[list[BBox], float]:
    """Where chunks `a` and `b` hold the same text on one page: the intersection of their
    line-rectangle unions, restricted to the lines of the words both hold (`shared`, the
    regions of those words). Returns the rectangles to hatch and their area in points².
    Enclosing boxes that cross where no word is shared give nothing."""
    if shared is None:
        return [], 0.0
    # Only the lines that reach the shared words' box can meet them: a long chunk's
    # other lines would only make the shapes, and so the overlap, slower to compute.
    near = shared.bbox
    both = region_shape(_reaching(a.rects, near)).intersection(
        region_shape(_reaching(b.rects, near)))
    pieces: list[BBox] = []
    for rect in shared.rects:
        common = both.intersection(shapely_box(*rect))
        for part in getattr(common, "geoms", [common]):
            if part.area > 0:
                x0, top, x1, bottom = part.bounds
                pieces.append((x0, top, x1, bottom))
    area = unary_union([shapely_box(*p) for p in pieces]).area if pieces else 0.0
    return pieces, float(area)

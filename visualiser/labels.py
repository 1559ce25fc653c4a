"""Where chunk numbers and containment tags go on a page, so that none covers text and
none covers another.

One algorithm for the browser and the static render: the chunks JSON carries its
result (`labels`), the viewer draws those boxes as they are, and `visualiser render`
draws the same. It needs only the report (chunk line rectangles stand for the text),
so stored and imported chunk sets are placed the same way.

Rules, in order: a chunk's number goes in the margin left of its first line (further
left when taken), else right of its box, else the nearest free space above or below;
chunks that start on one line share one label ("15–27"); a containment tag goes right
of its container's top, else left, else the nearest free space. Text widths are
Helvetica-Bold's (the viewer's Liberation Sans Bold has the same metrics).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any

import numpy
import pymupdf
import shapely
from shapely import STRtree
from shapely import box as shapely_box

from visualiser.geometry import BBox, height, shared_height

LABEL_FONT_SIZE = 8.0
TAG_FONT_SIZE = 7.0
PAD = 2.0
GAP = 2.0  # between a label and its box, and between labels
GROUP_FROM = 3  # this many chunks starting on one line share one label
TAG_LIMIT = 6  # chunk numbers written on a tag; the side panel lists them all
SEARCH_STEPS = 40  # rows tried above and below the anchor before giving up
MAX_ALONG = 256  # spots tried along a row on each side (a page is some 60 labels wide)


_BOLD = pymupdf.Font("hebo")  # get_text_length mis-measures "–" and other non-ASCII


@lru_cache(maxsize=4096)  # chunk numbers recur on every page a chunk is on
def text_width(text: str, size: float) -> float:
    return _BOLD.text_length(text, fontsize=size)


def number_ranges(numbers: Sequence[int]) -> str:
    """"15–27" for a run, "3, 5, 9–12" for runs and strays."""
    parts: list[str] = []
    run: list[int] = []
    for n in sorted(numbers):
        if run and n == run[-1] + 1:
            run.append(n)
            continue
        if run:
            parts.append(_run(run))
        run = [n]
    if run:
        parts.append(_run(run))
    return ", ".join(parts)


def _run(run: list[int]) -> str:
    if len(run) == 1:
        return str(run[0])
    return f"{run[0]}–{run[-1]}" if len(run) > 2 else f"{run[0]}, {run[1]}"


def number_list(numbers: Sequence[int], limit: int = TAG_LIMIT) -> str:
    text = ", ".join(str(n) for n in numbers[:limit])
    return text if len(numbers) <= limit else f"{text} and {len(numbers) - limit} more"


class _Free:
    """What is already taken on a page: the text (static, in a tree) and the labels
    placed so far."""

    def __init__(self, text: Iterable[BBox], width: float, height: float) -> None:
        corners = numpy.array(list(text), dtype=numpy.float64).reshape(-1, 4)
        self.tree = STRtree(shapely.box(*corners.T))  # made in one call, not box by box
        self.placed: list[BBox] = []
        self.width, self.height = width, height

    def fits(self, b: BBox) -> bool:
        if b[0] < 0 or b[1] < 0 or b[2] > self.width or b[3] > self.height:
            return False
        if any(b[0] < o[2] and o[0] < b[2] and b[1] < o[3] and o[1] < b[3] for o in self.placed):
            return False
        return len(self.tree.query(shapely_box(*b), predicate="intersects")) == 0

    def take(self, b: BBox) -> BBox:
        self.placed.append(b)
        return b


def _place(free: _Free, anchor: BBox, width: float, height: float, right_first: bool) -> BBox:
    """The first free spot for a `width` × `height` label near `anchor` (a box's top
    edge): beside it on its row, then rows above and below, nearest first."""
    x0, top, x1 = anchor[0], anchor[1], anchor[2]

    def row(y: float) -> Iterable[BBox]:
        left = [(x - width, y, x, y + height)
                for x in _steps(x0 - GAP, -width - GAP, lambda x: x - width >= 0)]
        right = [(x, y, x + width, y + height)
                 for x in _steps(x1 + GAP, width + GAP, lambda x: x + width <= free.width)]
        # Free space over the box itself (a blank line, the gap above a heading).
        inside = [(x, y, x + width, y + height)
                  for x in _steps(max(x0, 0.0), width + GAP, lambda x: x + width <= x1)]
        return [*(right + left if right_first else left + right), *inside]

    for step in range(SEARCH_STEPS):
        for sign in ((0,) if step == 0 else (-1, 1)):
            y = top + sign * step * (height + 1)
            for candidate in row(y):
                if free.fits(candidate):
                    return free.take(candidate)
    # Nothing free near it (a page filled edge to edge): overprint the text rather
    # than another label, in the margin beside the anchor.
    y = min(max(top, 0.0), max(free.height - height, 0.0))
    return free.take((max(x0 - GAP - width, 0.0), y, max(x0 - GAP, width), y + height))


def _steps(start: float, step: float, ok: Any) -> Iterable[float]:
    """Positions from `start` by `step` while `ok`, at most MAX_ALONG of them: a label
    further along its row than that is no nearer its box than one on the next row."""
    x = start
    for _ in range(MAX_ALONG):
        if not ok(x):
            return
        yield x
        x += step


Regions = list[tuple[int, Mapping[str, Any]]]  # (chunk index, its region on one page)


def place_page(chunks: Sequence[Mapping[str, Any]], containment: Sequence[Mapping[str, Any]],
               page: int, width: float, height: float) -> list[dict[str, Any]]:
    """Labels and tags for one page: `{"kind": "label"|"group"|"tag", "chunks": [...],
    "text", "box", "defect"}` in drawing order."""
    regions = [(c["index"], r) for c in chunks for r in c["regions"] if r["page"] == page]
    return _place_regions(regions, _holds(containment), width, height)


def _holds(containment: Sequence[Mapping[str, Any]]) -> tuple[dict[int, list[int]], set[int]]:
    """Which chunks each container holds, and the containers whose holding is a defect."""
    holds: dict[int, list[int]] = {}
    defects: set[int] = set()
    for pair in containment:
        holds.setdefault(pair["container"], []).append(pair["contained"])
        if pair.get("intended") is False:
            defects.add(pair["container"])
    return holds, defects


def _place_regions(regions: Regions, held: tuple[dict[int, list[int]], set[int]],
                   width: float, height: float) -> list[dict[str, Any]]:
    if not regions:
        return []
    free = _Free((tuple(rect) for _, r in regions for rect in r["rects"]), width, height)
    out: list[dict[str, Any]] = []
    label_h = LABEL_FONT_SIZE + 2 * PAD
    for group in _by_first_line(regions):
        numbers = [index for index, _ in group]
        anchor = _anchor(group)
        texts = [number_ranges(numbers)] if len(group) >= GROUP_FROM else [str(n) for n in numbers]
        for n, text in enumerate(texts):
            w = text_width(text, LABEL_FONT_SIZE) + 2 * PAD
            b = _place(free, anchor if len(texts) == 1 else _anchor([group[n]]), w,
                       label_h, right_first=False)
            kind, members = ("group", numbers) if len(texts) == 1 and len(group) > 1 else (
                "label", [numbers[n]])
            out.append({"kind": kind, "chunks": members, "text": text, "box": _round(b)})
    holds, defects = held
    tag_h = TAG_FONT_SIZE + 2 * PAD
    for index, region in regions:
        if index not in holds:
            continue
        text = f"contains {number_list(sorted(holds[index]))}"
        w = text_width(text, TAG_FONT_SIZE) + 2 * PAD
        b = _place(free, _anchor([(index, region)]), w, tag_h, right_first=True)
        out.append({"kind": "tag", "chunks": [index], "text": text, "box": _round(b),
                    "defect": index in defects})
    return out


def _by_first_line(regions: list[tuple[int, Mapping[str, Any]]]
                   ) -> list[list[tuple[int, Mapping[str, Any]]]]:
    """Chunks whose first line on the page is the same line, in chunk order."""
    groups: list[list[tuple[int, Mapping[str, Any]]]] = []
    for item in sorted(regions, key=lambda ir: (ir[1]["rects"][0][1], ir[0])):
        first = item[1]["rects"][0]
        if groups:
            last = groups[-1][0][1]["rects"][0]
            if shared_height(first, last) > 0.5 * min(height(first), height(last)):
                groups[-1].append(item)
                continue
        groups.append([item])
    return [sorted(g, key=lambda ir: ir[0]) for g in groups]


def _anchor(group: list[tuple[int, Mapping[str, Any]]]) -> BBox:
    """The top edge a group's label goes beside: its leftmost first line."""
    firsts = [r["rects"][0] for _, r in group]
    boxes = [r["bbox"] for _, r in group]
    return (min(f[0] for f in firsts), min(f[1] for f in firsts), max(b[2] for b in boxes),
            min(f[3] for f in firsts))


def _round(b: BBox) -> list[float]:
    return [round(v, 2) for v in b]


def place_all(report: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every page's labels, each with its `page`: what the chunks JSON carries. The
    regions are sorted by page in one pass over the chunks (asking every chunk on every
    page made twice the document four times the work)."""
    on_page: dict[int, Regions] = {}
    for c in report["chunks"]:
        for r in c["regions"]:
            on_page.setdefault(r["page"], []).append((c["index"], r))
    held = _holds(report.get("containment", []))
    out = []
    for page in report.get("pages", []):
        for mark in _place_regions(on_page.get(page["number"], []), held,
                                   page["width"], page["height"]):
            out.append({"page": page["number"], **mark})
    return out

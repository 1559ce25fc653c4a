"""One box type, pure geometry: `(x0, top, x1, bottom)` in PDF points, top-left origin."""

from __future__ import annotations

from collections.abc import Iterable

BBox = tuple[float, float, float, float]


def union(boxes: Iterable[BBox]) -> BBox:
    x0s, tops, x1s, bottoms = zip(*boxes, strict=True)
    return (min(x0s), min(tops), max(x1s), max(bottoms))


def intersection(a: BBox, b: BBox) -> BBox | None:
    """The common box of `a` and `b`, or None when they only touch or are apart."""
    x0, top = max(a[0], b[0]), max(a[1], b[1])
    x1, bottom = min(a[2], b[2]), min(a[3], b[3])
    if x0 >= x1 or top >= bottom:
        return None
    return (x0, top, x1, bottom)


def area(box: BBox) -> float:
    return max(0.0, box[2] - box[0]) * max(0.0, box[3] - box[1])


def height(box: BBox) -> float:
    return box[3] - box[1]


def overlap_area(a: BBox, b: BBox) -> float:
    """The area `a` and `b` have in common (0 when they only touch or are apart)."""
    common = intersection(a, b)
    return area(common) if common is not None else 0.0


def shared_height(a: BBox, b: BBox) -> float:
    """How much of their heights two boxes share (negative: the gap between them), the
    measure of whether two pieces of text sit on one line."""
    return min(a[3], b[3]) - max(a[1], b[1])


def same_row(a: BBox, b: BBox) -> bool:
    """Do `a` and `b` sit on one row: sharing half the height of the lower one?"""
    return shared_height(a, b) >= 0.5 * min(height(a), height(b))


def contains(outer: BBox, inner: BBox, tolerance: float = 0.5) -> bool:
    return (
        inner[0] >= outer[0] - tolerance
        and inner[1] >= outer[1] - tolerance
        and inner[2] <= outer[2] + tolerance
        and inner[3] <= outer[3] + tolerance
    )


def centre(box: BBox) -> tuple[float, float]:
    return ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)


def holds(box: BBox, point: tuple[float, float], slack: float = 0.0) -> bool:
    """Is `point` inside `box` (edges included, widened by `slack` on every side)?"""
    x, y = point
    return (box[0] - slack <= x <= box[2] + slack) and (box[1] - slack <= y <= box[3] + slack)


def holds_centre(box: BBox, inner: BBox) -> bool:
    """Does `box` hold the centre of `inner` (a word belongs where its middle is)?"""
    return holds(box, centre(inner))


def rounded(box: BBox, digits: int = 2) -> list[float]:
    return [round(v, digits) for v in box]

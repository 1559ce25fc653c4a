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


def contains(outer: BBox, inner: BBox, tolerance: float = 0.5) -> bool:
    return (
        inner[0] >= outer[0] - tolerance
        and inner[1] >= outer[1] - tolerance
        and inner[2] <= outer[2] + tolerance
        and inner[3] <= outer[3] + tolerance
    )


def centre(box: BBox) -> tuple[float, float]:
    return ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)


def rounded(box: BBox, digits: int = 2) -> list[float]:
    return [round(v, digits) for v in box]

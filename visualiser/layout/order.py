"""Reading order of a page's items."""

from __future__ import annotations

from visualiser.layout.items import Item


def reading_order(items: list[Item], width: float) -> list[Item]:
    """Top to bottom; where the page runs in two columns, the left column first.

    Items that cross the middle of the page (full-width headings, tables) cut the
    page into bands; inside a band with text on both sides of the middle, the left
    column is read to its end before the right one."""
    items.sort(key=lambda i: (round(i.bbox[1], 1), i.bbox[0]))
    mid = width / 2
    ordered: list[Item] = []
    band: list[Item] = []

    def flush() -> None:
        left = [i for i in band if i.bbox[2] <= mid + 4]
        right = [i for i in band if i.bbox[2] > mid + 4]
        two_columns = (sum(1 for i in left if i.kind == "line") >= 2
                       and sum(1 for i in right if i.kind == "line") >= 2)
        ordered.extend(left + right if two_columns else band)
        band.clear()

    for item in items:
        if item.bbox[0] < mid - 4 and item.bbox[2] > mid + 4:
            flush()
            ordered.append(item)
        else:
            band.append(item)
    flush()
    return ordered



"""Tables on a page: PyMuPDF's `find_tables` where the page has rules, cells filled
with the text layer's words."""

from __future__ import annotations

import pymupdf

from visualiser.layout.items import Item


def find_tables(page: pymupdf.Page, textpage: pymupdf.TextPage) -> list[Item]:
    # find_tables() is by far the slowest step. Its default strategy finds ruled
    # tables, which need both horizontal and vertical strokes: skip pages without.
    if not _has_rules(page):
        return []
    items = []
    words = textpage.extractWORDS()
    for table in page.find_tables().tables:
        if table.row_count < 1 or table.col_count < 2:
            continue
        rows = []
        for row in table.rows:
            cells = []
            for cell in row.cells:
                inside = [] if cell is None else [
                    ((x0, y0, x1, y1), text) for x0, y0, x1, y1, text, *_ in words
                    if cell[0] <= (x0 + x1) / 2 <= cell[2] and cell[1] <= (y0 + y1) / 2 <= cell[3]
                ]
                inside.sort(key=lambda w: (round(w[0][1]), w[0][0]))
                cells.append(inside)
            rows.append(cells)
        items.append(Item("table", tuple(table.bbox), rows=rows))
    return items


def _has_rules(page: pymupdf.Page) -> bool:
    horizontal = vertical = False
    for path in page.get_cdrawings():
        for item in path["items"]:
            if item[0] == "re":
                x0, y0, x1, y1 = item[1]
                horizontal |= x1 - x0 > 10
                vertical |= y1 - y0 > 10
            elif item[0] == "l":
                (xa, ya), (xb, yb) = item[1], item[2]
                horizontal |= abs(ya - yb) < 1 and abs(xa - xb) > 10
                vertical |= abs(xa - xb) < 1 and abs(ya - yb) > 10
            if horizontal and vertical:
                return True
    return False

"""Reading pages with PyMuPDF into plain, picklable data (`PageRead`).

This is the only module that talks to PyMuPDF about text. Its output is in the
page's own text space (unrotated, where lines run left to right), already in
reading order; `build.py` turns it into the Layout. Table detection dominates the
cost (≈0.1 s for a page holding a large ruled table), so long documents are read by
several processes at once.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from multiprocessing import get_context
from typing import Literal

import pymupdf

from visualiser.geometry import BBox
from visualiser.mupdf import LOCK

_TEXT_FLAGS = (
    pymupdf.TEXT_PRESERVE_LIGATURES
    | pymupdf.TEXT_PRESERVE_WHITESPACE
    | pymupdf.TEXT_MEDIABOX_CLIP
)  # no dehyphenation: a word must spell what the page shows
PARALLEL_FROM_PAGES = 48  # below this, starting worker processes costs more than it saves
_BATCH = 24

WordBox = tuple[BBox, str]


@dataclass(slots=True)
class RawLine:
    bbox: BBox
    words: list[WordBox]
    size: float
    bold: bool
    mono: bool
    text: str = field(init=False)

    def __post_init__(self) -> None:
        self.text = " ".join(w for _, w in self.words)


@dataclass(slots=True)
class Item:
    """A line, table or image in reading order."""

    kind: Literal["line", "table", "image"]
    bbox: BBox
    line: RawLine | None = None
    rows: list[list[list[WordBox]]] | None = None  # tables: rows → cells → words


@dataclass(slots=True)
class PageRead:
    number: int  # 1-based
    width: float  # displayed size (rotation applied)
    height: float
    rotation: int
    matrix: tuple[float, float, float, float, float, float]  # text space → displayed
    items: list[Item]
    ocr: bool = False
    warning: str | None = None


def ocr_available() -> bool:
    return shutil.which("tesseract") is not None


def read_pages(data: bytes, *, ocr: bool = True,
               progress: Callable[[int, int], None] | None = None) -> list[PageRead]:
    """Every page of the PDF `data`, read in parallel when there are many."""
    with LOCK, pymupdf.open(stream=data, filetype="pdf") as doc:
        total = doc.page_count
    if total < PARALLEL_FROM_PAGES or (os.cpu_count() or 1) < 2:
        return _read_here(data, [], total, ocr, progress)
    batches = [(data, start, min(start + _BATCH, total), ocr) for start in range(0, total, _BATCH)]
    pages: list[PageRead] = []
    try:
        # spawn, not fork: the web server has threads, and forking those is unsafe
        with ProcessPoolExecutor(max_workers=min(os.cpu_count() or 2, 4),
                                 mp_context=get_context("spawn")) as pool:
            for batch in pool.map(_read_batch, batches):
                pages.extend(batch)
                if progress:
                    progress(len(pages), total)
    except (BrokenProcessPool, OSError):
        # Workers could not start (e.g. the calling script has no __main__ guard, or
        # the system refuses processes): read the rest here, slower but complete.
        return _read_here(data, pages, total, ocr, progress)
    return pages


def _read_here(data: bytes, pages: list[PageRead], total: int, ocr: bool,
               progress: Callable[[int, int], None] | None) -> list[PageRead]:
    """Read the pages after `pages` in this process, holding the PyMuPDF lock for one
    page at a time so that other threads (page images) get their turn."""
    with LOCK:
        doc = pymupdf.open(stream=data, filetype="pdf")
    try:
        for n in range(len(pages), total):
            with LOCK:
                pages.append(read_page(doc[n], ocr=ocr))
            if progress:
                progress(len(pages), total)
    finally:
        with LOCK:
            doc.close()
    return pages


def _read_batch(args: tuple[bytes, int, int, bool]) -> list[PageRead]:
    data, start, stop, ocr = args
    with pymupdf.open(stream=data, filetype="pdf") as doc:
        return [read_page(doc[n], ocr=ocr) for n in range(start, stop)]


def read_page(page: pymupdf.Page, *, ocr: bool = True) -> PageRead:
    textpage = page.get_textpage(flags=_TEXT_FLAGS)
    used_ocr = False
    warning = None
    if not textpage.extractWORDS() and page.get_images():
        if ocr and ocr_available():
            textpage = page.get_textpage_ocr(flags=_TEXT_FLAGS, dpi=200, full=True)
            used_ocr = True
        else:
            warning = (f"page {page.number + 1} has no text layer and OCR is unavailable "
                       "(install tesseract-ocr); its words are missing")
    items = [] if used_ocr else _tables(page, textpage)
    table_boxes = [item.bbox for item in items]
    for line in _lines(textpage, styled=not used_ocr):
        kept = [w for w in line.words if not _inside_any(w[0], table_boxes)]
        if len(kept) != len(line.words):
            if not kept:
                continue
            line = RawLine(_union(b for b, _ in kept), kept, line.size, line.bold, line.mono)
        items.append(Item("line", line.bbox, line=line))
    if not used_ocr:
        for info in page.get_image_info():
            box = tuple(info["bbox"])
            if box[2] - box[0] > 8 and box[3] - box[1] > 8:  # skip hairline decorations
                items.append(Item("image", box))
    rect = page.rect
    text_width = rect.width if page.rotation % 180 == 0 else rect.height
    m = page.rotation_matrix
    return PageRead(page.number + 1, rect.width, rect.height, page.rotation,
                    (m.a, m.b, m.c, m.d, m.e, m.f), _reading_order(items, text_width),
                    used_ocr, warning)


def _tables(page: pymupdf.Page, textpage: pymupdf.TextPage) -> list[Item]:
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


def _lines(textpage: pymupdf.TextPage, *, styled: bool) -> list[RawLine]:
    """Text lines with their words and style. OCR text (`styled=False`) comes in one
    stand-in font, so its bold and monospace flags say nothing and are ignored."""
    words_by_line: dict[tuple[int, int], list[WordBox]] = {}
    for x0, y0, x1, y1, text, block_no, line_no, _ in textpage.extractWORDS():
        words_by_line.setdefault((block_no, line_no), []).append(((x0, y0, x1, y1), text))
    lines = []
    for block_no, block in enumerate(textpage.extractDICT()["blocks"]):
        for line_no, line in enumerate(block.get("lines", ())):
            words = words_by_line.get((block_no, line_no))
            spans = [s for s in line["spans"] if s["text"].strip()]
            if not words or not spans:
                continue
            chars = sum(len(s["text"]) for s in spans)
            size = sum(s["size"] * len(s["text"]) for s in spans) / chars
            bold = styled and all(s["flags"] & 16 or "bold" in s["font"].lower() for s in spans)
            mono = styled and all(s["flags"] & 8 or "cour" in s["font"].lower() for s in spans)
            lines.append(RawLine(_union(b for b, _ in words), words, size, bold, mono))
    return lines


def _reading_order(items: list[Item], width: float) -> list[Item]:
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


def _inside_any(box: BBox, boxes: list[BBox]) -> bool:
    x, y = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return any(b[0] <= x <= b[2] and b[1] <= y <= b[3] for b in boxes)


def _union(boxes) -> BBox:  # type: ignore[no-untyped-def]
    boxes = list(boxes)
    return (min(b[0] for b in boxes), min(b[1] for b in boxes),
            max(b[2] for b in boxes), max(b[3] for b in boxes))

"""The `pymupdf-layout` engine: PyMuPDF's ML layout analyzer (ONNX, on the CPU).

The model (`pymupdf-layout`, driven through `pymupdf4llm`'s document parser) says
where the page's boxes are, what each one is (text, section-header, list-item,
table, picture, caption, page-header, …) and in which order they are read. The words
themselves are still ours: the same text-layer words the builtin engine reads, each
assigned to the model's box it sits in, so provenance stays exact and both engines'
chunks can be compared word for word. Words the model left in no box are kept too,
placed in the reading order next to the boxes of their column.

Installed with the optional extra `[ml]`. Importing the model has process-wide side
effects in PyMuPDF (`find_tables` consults an active layout model, and glyph boxes
lose their ascender/descender correction), so the model is imported on first use and
switched on only while it reads a batch of pages, under `visualiser.mupdf.LOCK`: the
builtin engine in the same process never sees it.
"""

from __future__ import annotations

import importlib.metadata
import re
import unicodedata
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from multiprocessing import get_context
from typing import Any

import pymupdf

from visualiser.errors import LayoutModelUnavailable
from visualiser.geometry import BBox, area, centre, height, holds, shared_height, union
from visualiser.layout import pages as builtin
from visualiser.layout.engines import LayoutEngine, LayoutOptions, Progress, register
from visualiser.layout.items import Item, PageRead, RawLine, Role, WordBox
from visualiser.mupdf import LOCK
from visualiser.patterns import numbers_aside

NAME = "pymupdf-layout"
_DISTRIBUTIONS = ("pymupdf-layout", "pymupdf4llm")
BATCH = 4  # pages per model call: the lock is held this long (≈0.3–1.2 s a page)
PARALLEL_FROM_PAGES = 8  # the model is slow enough that worker processes pay off early
_SLACK = 2.0  # points: the model's boxes are tight (accurate glyph boxes), ours are not

# What each box class of the model means in our items. Boxes of other classes
# (text, formula, and any class a later model adds) are read as body text.
_ROLES: dict[str, Role] = {
    "title": "heading",
    "section-header": "heading",
    "list-item": "list_item",
    "caption": "caption",
    "footnote": "note",
    "page-header": "running",
    "page-footer": "running",
}
_CODE_MARKS = set("{}();=[]<>")


@register
class PymupdfLayoutEngine(LayoutEngine):
    name = NAME
    label = "PyMuPDF Layout (ML layout model, CPU)"
    explanation = ("Boxes, their kinds (headings with levels, list items, tables, figures, "
                   "captions, running heads) and their reading order from PyMuPDF's ML "
                   "layout analyzer; the words in them from PyMuPDF's text layer, as for "
                   "the builtin engine. Pages without a text layer are OCR'd by Tesseract "
                   "and read by the builtin engine.")

    @classmethod
    def available(cls) -> str | None:
        return _missing()

    @classmethod
    def version(cls) -> str:
        versions = _versions()
        return (f"{versions.get('pymupdf-layout', '?')} (pymupdf4llm "
                f"{versions.get('pymupdf4llm', '?')}, PyMuPDF {pymupdf.VersionBind})")

    def read(self, data: bytes, options: LayoutOptions,
             progress: Progress | None = None) -> list[PageRead]:
        with LOCK, pymupdf.open(stream=data, filetype="pdf") as doc:
            total = doc.page_count
        starts = range(0, total, BATCH)
        if options.workers >= 2 and total >= PARALLEL_FROM_PAGES:
            try:
                return _with_levels(_read_parallel(data, starts, total, options, progress))
            except (BrokenProcessPool, OSError):
                pass  # workers could not start: read here, slower but complete
        reads: list[_PageModel] = []
        for start in starts:
            reads.extend(_read_batch((data, start, min(start + BATCH, total), options)))
            if progress:
                progress(len(reads), total)
        return _with_levels(reads)


# --- availability -------------------------------------------------------------------


@cache
def _versions() -> dict[str, str]:
    found = {}
    for dist in _DISTRIBUTIONS:
        try:
            found[dist] = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            pass
    return found


@cache
def _missing() -> str | None:
    """Why the model cannot run here, without importing it (that loads the model and
    costs a second): the packages must be installed and made for this PyMuPDF."""
    versions = _versions()
    absent = [d for d in _DISTRIBUTIONS if d not in versions]
    if absent:
        return (f"{' and '.join(absent)} not installed; install the ml extra: "
                "pip install 'chunk-visualiser[ml]'")
    wrong = [f"{d} {v}" for d, v in versions.items() if v != pymupdf.VersionBind]
    if wrong:
        return (f"{', '.join(wrong)} needs the same PyMuPDF version, but PyMuPDF is "
                f"{pymupdf.VersionBind}; reinstall the ml extra")
    return None


# --- the model, switched on only while it reads -------------------------------------


@dataclass(slots=True)
class _Model:
    parse: Callable[..., Any]  # pymupdf4llm's parse_document
    analyze: Callable[..., Any]  # the function pymupdf.layout installs as pymupdf._get_layout


@cache
def _model() -> _Model:
    """Import the model once, then undo the import's process-wide switches."""
    with LOCK, _pymupdf_state():
        try:
            import pymupdf.layout  # noqa: F401  (loads the ONNX model, installs it)
            from pymupdf4llm.helpers.document_layout import parse_document
        except ImportError as exc:
            raise LayoutModelUnavailable(f"the {NAME} layout engine cannot load its model: "
                                         f"{exc}") from None
        analyze = pymupdf._get_layout
    if not callable(analyze):
        raise LayoutModelUnavailable(f"the {NAME} layout engine's model did not install")
    return _Model(parse_document, analyze)


@contextmanager
def _pymupdf_state() -> Iterator[None]:
    """Restore, on leaving, the PyMuPDF globals the layout model changes."""
    layout, quads = pymupdf._get_layout, pymupdf.TOOLS.unset_quad_corrections()
    try:
        yield
    finally:
        pymupdf._get_layout = layout
        pymupdf.TOOLS.unset_quad_corrections(quads)


@contextmanager
def _model_on(model: _Model) -> Iterator[None]:
    with _pymupdf_state():
        pymupdf._get_layout = model.analyze
        pymupdf.TOOLS.unset_quad_corrections(True)  # as pymupdf4llm sets it on import
        yield


# --- reading ------------------------------------------------------------------------


@dataclass(slots=True)
class _PageModel:
    """A page as read, before heading levels are known (they compare font sizes over
    the whole document): heading items keep the model's font size for now."""

    read: PageRead
    heading_sizes: list[tuple[Item, int]]


def _read_parallel(data: bytes, starts: range, total: int, options: LayoutOptions,
                   progress: Progress | None) -> list[_PageModel]:
    batches = [(data, start, min(start + BATCH, total), options) for start in starts]
    reads: list[_PageModel] = []
    # spawn, not fork: the web server has threads, and forking those is unsafe
    with ProcessPoolExecutor(max_workers=options.workers,
                             mp_context=get_context("spawn")) as pool:
        for batch in pool.map(_read_batch, batches):
            reads.extend(batch)
            if progress:
                progress(len(reads), total)
    return reads


def _read_batch(args: tuple[bytes, int, int, LayoutOptions]) -> list[_PageModel]:
    data, start, stop, options = args
    model = _model()
    with LOCK:
        ours = pymupdf.open(stream=data, filetype="pdf")
        # The parser rewrites its document (it removes page rotation and the structure
        # tree), so it gets a copy of its own.
        theirs = pymupdf.open(stream=data, filetype="pdf")
        try:
            numbers = range(start, stop)
            scanned = {n for n in numbers if _needs_ocr(ours[n])}
            wanted = [n for n in numbers if n not in scanned]
            boxes = {}
            if wanted:
                with _model_on(model):
                    # OCR off: a page without text goes to the builtin engine's OCR
                    # below, so its words come from one textpage, with their boxes.
                    parsed = model.parse(theirs, pages=wanted, use_ocr=False, force_text=True)
                boxes = {page.page_number - 1: page.boxes for page in parsed.pages}
            reads = []
            for n in numbers:
                if n in scanned:
                    read = builtin.read_page(ours[n], options)
                    if read.ocr:
                        read.warnings.append(
                            f"page {n + 1} has no text layer: it was OCR'd and read by the "
                            f"builtin engine, not by the layout model")
                    reads.append(_PageModel(read, []))
                else:
                    reads.append(_page(ours[n], boxes.get(n, [])))
            return reads
        finally:
            ours.close()
            theirs.close()


def _needs_ocr(page: pymupdf.Page) -> bool:
    return not page.get_text("words") and bool(page.get_images())


@dataclass(slots=True)
class _Box:
    """One of the model's boxes, in the page's text space."""

    order: int
    cls: str
    bbox: BBox
    size: int  # the model's largest font size in it (for headings)
    cells: list[list[BBox | None]] | None = None


def _page(page: pymupdf.Page, model_boxes: list[Any]) -> _PageModel:
    to_text = page.derotation_matrix  # the model saw the page with its rotation removed
    boxes = []
    for n, raw in enumerate(model_boxes):
        cells = None
        if raw.boxclass == "table" and raw.table and raw.table.get("cells"):
            cells = [[_in_text_space(c, to_text) if c else None for c in row]
                     for row in raw.table["cells"]]
        boxes.append(_Box(n, raw.boxclass, _in_text_space((raw.x0, raw.y0, raw.x1, raw.y1),
                                                          to_text),
                          int(raw.max_fontsize or 0), cells))
    textpage = page.get_textpage(flags=builtin.TEXT_FLAGS)
    by_box: dict[int, list[RawLine]] = {}
    orphans: list[RawLine] = []
    horizontal, vertical = builtin.text_lines(textpage, styled=True, page=page)
    for line in horizontal + vertical:
        for home, words in _split_by_box(line, boxes).items():
            part = _part(line, words)
            (orphans if home is None else by_box.setdefault(home, [])).append(part)
    _join_numbers_to_titles(boxes, by_box)
    items: list[Item] = []
    headings: list[tuple[Item, int]] = []
    for box in boxes:
        lines = by_box.get(box.order, [])
        items.extend(_box_items(box, lines, page.number, headings))
    for line in orphans:
        _insert_orphan(items, Item("line", line.bbox, line=line))
    rect = page.rect
    m = page.rotation_matrix
    read = PageRead(page.number + 1, rect.width, rect.height, page.rotation,
                    (m.a, m.b, m.c, m.d, m.e, m.f), items)
    return _PageModel(read, headings)


_HEADING_CLASSES = ("title", "section-header")


def _join_numbers_to_titles(boxes: list[_Box], by_box: dict[int, list[RawLine]]) -> None:
    """A section number the model boxed apart from its title ("5.1" beside "Hyper
    Parameter Optimization") joins the title's box, so the heading reads "5.1 Hyper
    Parameter Optimization" instead of a heading "5.1" (or none) and a stray line."""
    for box in boxes:
        lines = by_box.get(box.order)
        if not lines or box.cls not in (*_HEADING_CLASSES, "text"):
            continue
        text = " ".join(line.text for line in lines).strip()
        if len(text) > 8 or any(ch.isalpha() for ch in text) or not any(
                ch.isdigit() for ch in text):
            continue
        title = next((other for other in boxes if other is not box
                      and other.cls in _HEADING_CLASSES and by_box.get(other.order)
                      and _beside(box.bbox, other.bbox)), None)
        if title is not None:
            by_box[title.order].extend(by_box.pop(box.order))


def _beside(a: BBox, b: BBox) -> bool:
    """On one row (most of the lower one's height shared) and close side by side."""
    lower = min(height(a), height(b))
    gap = max(a[0], b[0]) - min(a[2], b[2])
    return lower > 0 and shared_height(a, b) >= 0.5 * lower and gap < 3 * max(lower, 1.0)


def _in_text_space(box: Any, matrix: pymupdf.Matrix) -> BBox:
    r = pymupdf.Rect(box) * matrix
    return (r.x0, r.y0, r.x1, r.y1)


def _split_by_box(line: RawLine, boxes: list[_Box]) -> dict[int | None, list[WordBox]]:
    homes: dict[int | None, list[WordBox]] = {}
    for word in line.words:
        homes.setdefault(_home(word[0], boxes), []).append(word)
    return homes


def _home(word: BBox, boxes: list[_Box]) -> int | None:
    """The box a word belongs to: the one its centre lies in, text before tables before
    pictures (text beside a figure often lies inside the figure's box), the smallest
    first (a caption inside a figure's box)."""
    middle = centre(word)
    inside = [b for b in boxes if holds(b.bbox, middle, _SLACK)]
    if not inside:
        return None
    rank = {"picture": 2, "table": 1}
    return min(inside, key=lambda b: (rank.get(b.cls, 0), area(b.bbox))).order


def _part(line: RawLine, words: list[WordBox]) -> RawLine:
    if len(words) == len(line.words):
        return line
    return RawLine(union(b for b, _ in words), words, line.size, line.bold, line.mono,
                   line.horizontal)


def _box_items(box: _Box, lines: list[RawLine], page_number: int,
               headings: list[tuple[Item, int]]) -> list[Item]:
    group = page_number * 10_000 + box.order  # unique in the document
    if box.cls not in ("table", "picture"):
        rows = _rows(lines)
        role = _role(box.cls, rows)
        items = [Item("line", row.bbox, line=row, role=role, group=group) for row in rows]
        if role == "heading":
            headings.extend((item, box.size) for item in items)
        return items
    if box.cls == "table":
        table = _table(box, lines)
        if table is not None:
            return [table]
        return [Item("line", row.bbox, line=row, role="paragraph", group=group)
                for row in _rows(lines)]
    # A picture: the image, then any text printed on it as one block.
    return [Item("image", box.bbox)] + [
        Item("line", row.bbox, line=row, role="paragraph", group=group) for row in _rows(lines)]


def _role(cls: str, rows: list[RawLine]) -> Role:
    role = _ROLES.get(cls)
    text = " ".join(row.text for row in rows)
    if role == "heading" and not any(ch.isalpha() for ch in text):
        return "paragraph"  # a bare number, a year or an icon is no heading to file under
    if role is None:
        mono = bool(rows) and all(row.mono for row in rows)
        # Monospace alone is not code (a transcript set in Courier); code has its marks.
        return "code" if mono and sum(ch in _CODE_MARKS for ch in text) >= len(rows) else (
            "paragraph")
    return role


def _rows(lines: list[RawLine]) -> list[RawLine]:
    """A box's text lines, top to bottom: fragments side by side on one baseline (a
    heading's number and its title, set as two spans) make one line."""
    horizontal = [line for line in lines if line.horizontal]
    rows: list[list[RawLine]] = []
    for line in sorted(horizontal, key=lambda line: line.bbox[1]):
        if rows and _same_row(rows[-1], line):
            rows[-1].append(line)
        else:
            rows.append([line])
    joined = [_join(row) for row in rows]
    return joined + [line for line in lines if not line.horizontal]


def _same_row(row: list[RawLine], line: RawLine) -> bool:
    top, bottom = max(r.bbox[1] for r in row), min(r.bbox[3] for r in row)
    shared = min(bottom, line.bbox[3]) - max(top, line.bbox[1])
    height = min(bottom - top, line.bbox[3] - line.bbox[1])
    return height > 0 and shared >= 0.5 * height


def _join(row: list[RawLine]) -> RawLine:
    if len(row) == 1:
        return row[0]
    rtl = _right_to_left(" ".join(line.text for line in row))
    row = sorted(row, key=lambda line: -line.bbox[2] if rtl else line.bbox[0])
    words = [w for line in row for w in line.words]
    chars = sum(len(line.text) for line in row) or 1
    size = sum(line.size * len(line.text) for line in row) / chars
    return RawLine(union(line.bbox for line in row), words, size,
                   all(line.bold for line in row), all(line.mono for line in row))


def _right_to_left(text: str) -> bool:
    for ch in text:
        kind = unicodedata.bidirectional(ch)
        if kind in ("R", "AL"):
            return True
        if kind == "L":
            return False
    return False


def _table(box: _Box, lines: list[RawLine]) -> Item | None:
    """The model's table grid filled with our words; a word inside the table's box but
    in no cell goes to the nearest cell, so none is lost."""
    if not box.cells or max(len(row) for row in box.cells) < 2:
        return None
    cells = [(r, c, cell) for r, row in enumerate(box.cells)
             for c, cell in enumerate(row) if cell is not None]
    if not cells:
        return None
    rows: list[list[list[WordBox]]] = [[[] for _ in row] for row in box.cells]
    for line in lines:
        for word in line.words:
            x, y = (word[0][0] + word[0][2]) / 2, (word[0][1] + word[0][3]) / 2
            r, c, _ = min(cells, key=lambda cell: _distance(cell[2], x, y))
            rows[r][c].append(word)
    for row in rows:
        for cell_words in row:
            cell_words.sort(key=lambda w: (round(w[0][1]), w[0][0]))
    return Item("table", box.bbox, rows=rows)


def _distance(box: BBox, x: float, y: float) -> float:
    dx = max(box[0] - x, 0.0, x - box[2])
    dy = max(box[1] - y, 0.0, y - box[3])
    return dx * dx + dy * dy


def _insert_orphan(items: list[Item], orphan: Item) -> None:
    """A line in none of the model's boxes goes before the first item of its column
    that lies below it, else after the last item of its column, else at the end."""
    x0, top, x1, bottom = orphan.bbox
    column = [n for n, item in enumerate(items)
              if min(item.bbox[2], x1) - max(item.bbox[0], x0) > 0]
    below = [n for n in column if items[n].bbox[1] >= bottom - 1]
    if below:
        items.insert(below[0], orphan)
    elif column:
        items.insert(column[-1] + 1, orphan)
    else:
        items.append(orphan)


def _with_levels(reads: list[_PageModel]) -> list[PageRead]:
    """What needs the whole document: heading ranks by the model's font sizes, as
    pymupdf4llm numbers its levels (the largest heading size is 1, the next 2, …;
    `build` makes levels 1–4 of them), and which of the page headers and footers
    really run."""
    sizes = sorted({size for read in reads for _, size in read.heading_sizes}, reverse=True)
    rank = {size: n for n, size in enumerate(sizes, start=1)}
    for read in reads:
        for item, size in read.heading_sizes:
            item.level = rank[size]
    _confirm_running([read.read for read in reads])
    return [read.read for read in reads]


_PAGE_NUMBER = re.compile(r"^\W*(page\s*)?\d+(\s*(of|/)\s*\d+)?\W*$", re.IGNORECASE)


def _confirm_running(pages: list[PageRead]) -> None:
    """A header or footer box is left out of the chunks (role "running") only when it
    runs: a page number, or text that recurs (numbers aside) on another page. The model
    also calls a first page's footnote or a back cover's imprint a page-footer, and
    those words belong in the chunks: they stay, as notes beside the body."""
    def key(item: Item) -> str:
        assert item.line is not None
        return numbers_aside(item.line.text)

    seen: dict[str, set[int]] = {}
    for page in pages:
        for item in page.items:
            if item.role == "running" and item.line is not None:
                seen.setdefault(key(item), set()).add(page.number)
    for page in pages:
        for item in page.items:
            if item.role == "running" and item.line is not None:
                recurs = len(seen[key(item)]) > 1 and len(pages) > 1
                if not (recurs or _PAGE_NUMBER.match(item.line.text.strip())):
                    item.role = "note"

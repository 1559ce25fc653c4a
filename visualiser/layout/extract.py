"""PDF → Layout with PyMuPDF: words, lines, headings, lists, tables, images, OCR.

All reasoning about reading order happens in the page's own (unrotated) text space,
where lines run left to right; boxes are turned into displayed coordinates (rotation
applied) only when they are stored, so the overlay can be drawn on the rendered page.
"""

from __future__ import annotations

import re
import shutil
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

import pymupdf

from visualiser.geometry import BBox, centre
from visualiser.layout.model import Block, BlockKind, Layout, Line, Page, Table, Word

_TEXT_FLAGS = (
    pymupdf.TEXT_PRESERVE_LIGATURES
    | pymupdf.TEXT_PRESERVE_WHITESPACE
    | pymupdf.TEXT_MEDIABOX_CLIP
    | pymupdf.TEXT_DEHYPHENATE * 0  # keep hyphens: words must spell what the page shows
)
_BULLETS = {"•", "◦", "▪", "■", "–", "-", "*", "·", "●", "○"}
_NUMBERED_ITEM = re.compile(r"^(\d{1,3}|[a-zA-Z]|[ivxIVX]{1,4})[.)]$")
_CAPTION = re.compile(r"^(table|figure|fig\.|exhibit|chart|schedule)\s+[\dA-Z]", re.IGNORECASE)


@dataclass(slots=True)
class _RawLine:
    """A text line in the page's text space, before it becomes a Line."""

    bbox: BBox
    words: list[tuple[BBox, str]]
    size: float
    bold: bool
    mono: bool
    text: str = field(init=False)

    def __post_init__(self) -> None:
        self.text = " ".join(w for _, w in self.words)


@dataclass(slots=True)
class _Item:
    """A line, table or image waiting to be placed in reading order."""

    bbox: BBox
    line: _RawLine | None = None
    table: pymupdf.table.Table | None = None
    image: BBox | None = None


def ocr_available() -> bool:
    return shutil.which("tesseract") is not None


def extract_layout(doc: pymupdf.Document, *, ocr: bool = True,
                   progress: Callable[[int, int], None] | None = None) -> Layout:
    """The layout of every page of `doc`, in reading order. `progress(done, total)` is
    called after each page is read."""
    layout = Layout(pages=[])
    pages_items: list[tuple[pymupdf.Page, list[_Item], bool]] = []
    sizes: Counter[float] = Counter()
    for page in doc:
        if progress is not None:
            progress(page.number, doc.page_count)
        items, used_ocr = _page_items(page, ocr=ocr, warnings=layout.warnings)
        for item in items:
            if item.line is not None and not item.line.mono:
                sizes[round(item.line.size * 2) / 2] += len(item.line.text)
        pages_items.append((page, items, used_ocr))
    body_size = sizes.most_common(1)[0][0] if sizes else 10.0
    heading_levels = _heading_levels(sizes, body_size)
    builder = _Builder(layout, body_size, heading_levels)
    for page, items, used_ocr in pages_items:
        builder.add_page(page, items, used_ocr)
    return layout


def _heading_levels(sizes: Counter[float], body: float) -> dict[float, int]:
    """Font sizes clearly above the body text, largest first, become H1..H4."""
    bigger = sorted((s for s in sizes if s >= body + 1.0), reverse=True)
    return {size: min(level, 4) for level, size in enumerate(bigger, start=1)}


def _page_items(
    page: pymupdf.Page, *, ocr: bool, warnings: list[str]
) -> tuple[list[_Item], bool]:
    textpage = page.get_textpage(flags=_TEXT_FLAGS)
    used_ocr = False
    if not textpage.extractWORDS() and page.get_images():
        if ocr and ocr_available():
            textpage = page.get_textpage_ocr(flags=_TEXT_FLAGS, dpi=200, full=True)
            used_ocr = True
        else:
            warnings.append(
                f"page {page.number + 1} has no text layer and OCR is unavailable "
                "(install tesseract-ocr); its words are missing"
            )
    tables = _find_tables(page) if not used_ocr else []
    table_boxes = [tuple(t.bbox) for t in tables]
    items = [_Item(bbox=box, table=t) for box, t in zip(table_boxes, tables, strict=True)]
    for line in _raw_lines(textpage, styled=not used_ocr):
        kept = [(b, w) for b, w in line.words if not _inside_any(centre(b), table_boxes)]
        if not kept:
            continue
        if len(kept) != len(line.words):
            line = _RawLine(_union(b for b, _ in kept), kept, line.size, line.bold, line.mono)
        items.append(_Item(bbox=line.bbox, line=line))
    if not used_ocr:
        for info in page.get_image_info():
            box = tuple(info["bbox"])
            if box[2] - box[0] > 8 and box[3] - box[1] > 8:  # skip hairline decorations
                items.append(_Item(bbox=box, image=box))
    text_width = page.rect.width if page.rotation % 180 == 0 else page.rect.height
    return _reading_order(items, text_width), used_ocr


def _find_tables(page: pymupdf.Page) -> list[pymupdf.table.Table]:
    # find_tables() is the slowest step by far; ruled tables need vector lines, so a
    # page without any drawings cannot hold one and is skipped.
    if not page.get_cdrawings():
        return []
    return [t for t in page.find_tables().tables if t.row_count >= 1 and t.col_count >= 2]


def _raw_lines(textpage: pymupdf.TextPage, *, styled: bool = True) -> list[_RawLine]:
    """Text lines with their words and style. OCR text (`styled=False`) comes in one
    stand-in font, so its bold and monospace flags say nothing and are ignored."""
    words_by_line: dict[tuple[int, int], list[tuple[BBox, str]]] = {}
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
            lines.append(_RawLine(_union(b for b, _ in words), words, size, bold, mono))
    return lines


def _reading_order(items: list[_Item], width: float) -> list[_Item]:
    """Top to bottom; where the page runs in two columns, the left column first."""
    items.sort(key=lambda i: (round(i.bbox[1], 1), i.bbox[0]))
    mid = width / 2
    ordered: list[_Item] = []
    band: list[_Item] = []

    def flush() -> None:
        left = [i for i in band if i.bbox[2] <= mid + 4]
        right = [i for i in band if i.bbox[2] > mid + 4]
        if sum(1 for i in right if i.line) >= 2 and sum(1 for i in left if i.line) >= 2:
            ordered.extend(left + right)  # each already top-to-bottom
        else:
            ordered.extend(band)
        band.clear()

    for item in items:
        spans_middle = item.bbox[0] < mid - 4 and item.bbox[2] > mid + 4
        if spans_middle:
            flush()
            ordered.append(item)
        else:
            band.append(item)
    flush()
    return ordered


def _inside_any(point: tuple[float, float], boxes: list[BBox]) -> bool:
    x, y = point
    return any(b[0] <= x <= b[2] and b[1] <= y <= b[3] for b in boxes)


def _union(boxes) -> BBox:  # type: ignore[no-untyped-def]
    boxes = list(boxes)
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


class _Builder:
    """Turns the ordered items of each page into Words, Lines and Blocks."""

    def __init__(self, layout: Layout, body_size: float, heading_levels: dict[float, int]):
        self.layout = layout
        self.body_size = body_size
        self.heading_levels = heading_levels
        self.matrix = pymupdf.Identity
        self.page_number = 0
        self._previous_table: Block | None = None  # last block so far, if a table

    # -- coordinates -------------------------------------------------------------
    def _display(self, box: BBox) -> BBox:
        r = pymupdf.Rect(box) * self.matrix
        return (round(r.x0, 2), round(r.y0, 2), round(r.x1, 2), round(r.y1, 2))

    def add_page(self, page: pymupdf.Page, items: list[_Item], used_ocr: bool) -> None:
        self.page_number = page.number + 1
        self.matrix = page.rotation_matrix
        rect = page.rect
        self.layout.pages.append(
            Page(self.page_number, round(rect.width, 2), round(rect.height, 2),
                 page.rotation, used_ocr)
        )
        group: list[int] = []  # line ids of the block being gathered
        group_kind: BlockKind = "paragraph"
        group_level = 0
        last: _RawLine | None = None
        after_bullet = False  # a bullet glyph set as its own line marks the next one
        for index, item in enumerate(items):
            if item.line is None:
                self._close(group, group_kind, group_level)
                last = None
                if item.table is not None:
                    self._add_table(item.table, first_on_page=index == 0)
                else:
                    self._add_image(item.bbox)
                    self._previous_table = None
                continue
            raw = item.line
            if raw.text.strip() in _BULLETS:
                after_bullet = True
                continue
            kind, level = self._classify(raw)
            if after_bullet:
                kind, level, after_bullet = "list_item", 0, False
            joins = (
                group
                and last is not None
                and self._continues(last, raw)
                and (
                    (kind == "paragraph" and group_kind in ("paragraph", "list_item"))
                    or (kind == group_kind and kind in ("code", "heading") and level == group_level)
                )
            )
            if not joins:
                self._close(group, group_kind, group_level)
                group_kind, group_level = kind, level
            group.append(self._add_line(raw))
            last = raw
            self._previous_table = None
        self._close(group, group_kind, group_level)

    def _classify(self, raw: _RawLine) -> tuple[BlockKind, int]:
        size = round(raw.size * 2) / 2
        if raw.mono:
            return "code", 0
        first = raw.words[0][1]
        if first in _BULLETS or (_NUMBERED_ITEM.match(first) and size < min(
            self.heading_levels, default=1e9
        )):
            return "list_item", 0
        if size in self.heading_levels and not _CAPTION.match(raw.text):
            return "heading", self.heading_levels[size]
        return "paragraph", 0

    def _continues(self, previous: _RawLine, line: _RawLine) -> bool:
        """Is `line` the next line of the same paragraph (or list item, or code)?"""
        if line.mono != previous.mono or line.bold != previous.bold:
            return False
        if _CAPTION.match(line.text):
            return False
        height = max(previous.bbox[3] - previous.bbox[1], 1.0)
        gap = line.bbox[1] - previous.bbox[3]
        same_column = abs(line.bbox[0] - previous.bbox[0]) < 40 or line.bbox[0] > previous.bbox[0]
        return -height < gap < 0.6 * height and same_column

    def _add_line(self, raw: _RawLine) -> int:
        line_id = len(self.layout.lines)
        word_ids = []
        for box, text in raw.words:
            if text in _BULLETS and not word_ids and len(raw.words) > 1:
                continue  # list marker glyph; the markdown writes "- " instead
            word_ids.append(len(self.layout.words))
            self.layout.words.append(
                Word(len(self.layout.words), self.page_number, text, self._display(box), line_id)
            )
        self.layout.lines.append(
            Line(line_id, self.page_number, self._display(raw.bbox), tuple(word_ids))
        )
        return line_id

    def _close(self, line_ids: list[int], kind: BlockKind, level: int) -> None:
        if line_ids:
            self._add_block(kind, list(line_ids), level)
            line_ids.clear()

    def _add_block(self, kind: BlockKind, line_ids: list[int], level: int) -> None:
        boxes = [self.layout.lines[i].bbox for i in line_ids]
        self.layout.blocks.append(
            Block(len(self.layout.blocks), self.page_number, kind, _union(boxes),
                  tuple(line_ids), level)
        )

    def _add_image(self, box: BBox) -> None:
        number = sum(1 for b in self.layout.blocks if b.kind == "image") + 1
        word_id = len(self.layout.words)
        line_id = len(self.layout.lines)
        shown = self._display(box)
        self.layout.words.append(
            Word(word_id, self.page_number, f"![image {number}](page-{self.page_number})",
                 shown, line_id, kind="image")
        )
        self.layout.lines.append(Line(line_id, self.page_number, shown, (word_id,)))
        self.layout.blocks.append(
            Block(len(self.layout.blocks), self.page_number, "image", shown, (line_id,),
                  image_word=word_id)
        )

    def _add_table(self, found: pymupdf.table.Table, first_on_page: bool) -> None:
        page_words = _table_words(found)
        rows: list[tuple[tuple[int, ...], ...]] = []
        for row in page_words:
            cells = []
            for cell in row:
                ids: list[int] = []
                for line_words in _cell_lines(cell):
                    line_id = len(self.layout.lines)
                    first = len(self.layout.words)
                    for box, text in line_words:
                        self.layout.words.append(Word(
                            len(self.layout.words), self.page_number, text, self._display(box),
                            line_id))
                    line_ids = tuple(range(first, len(self.layout.words)))
                    self.layout.lines.append(Line(
                        line_id, self.page_number,
                        self._display(_union(b for b, _ in line_words)), line_ids))
                    ids.extend(line_ids)
                cells.append(tuple(ids))
            rows.append(tuple(cells))
        previous = self._previous_table
        continued = (
            first_on_page
            and previous is not None
            and previous.table is not None
            and len(previous.table.rows[0]) == len(rows[0])
        )
        header_rows = 1
        if continued:
            assert previous is not None and previous.table is not None
            header_rows = 1 if self._same_row(previous.table.rows[0], rows[0]) else 0
        table = Table(tuple(rows), header_rows=header_rows, continued=continued)
        line_ids = tuple(dict.fromkeys(
            self.layout.words[w].line for row in rows for cell in row for w in cell
        ))
        block = Block(len(self.layout.blocks), self.page_number, "table",
                      self._display(tuple(found.bbox)), line_ids, table=table)
        self.layout.blocks.append(block)
        self._previous_table = block

    def _same_row(self, a: tuple[tuple[int, ...], ...], b: tuple[tuple[int, ...], ...]) -> bool:
        def text(row: tuple[tuple[int, ...], ...]) -> list[str]:
            return [" ".join(self.layout.words[w].text for w in cell) for cell in row]

        return text(a) == text(b)


def _cell_lines(words: list[tuple[BBox, str]]) -> list[list[tuple[BBox, str]]]:
    """The words of one cell, grouped into the text lines they sit on."""
    lines: list[list[tuple[BBox, str]]] = []
    for word in words:  # already sorted top to bottom, left to right
        if lines and abs(lines[-1][0][0][1] - word[0][1]) < 2:
            lines[-1].append(word)
        else:
            lines.append([word])
    return lines


def _table_words(found: pymupdf.table.Table) -> list[list[list[tuple[BBox, str]]]]:
    """Rows → cells → (box, text) of the words whose centre lies in the cell."""
    page = found.page
    words = page.get_text("words", flags=_TEXT_FLAGS, clip=found.bbox)
    rows = []
    for row in found.rows:
        cells = []
        for cell in row.cells:
            if cell is None:
                cells.append([])
                continue
            inside = [
                ((x0, y0, x1, y1), text)
                for x0, y0, x1, y1, text, *_ in words
                if cell[0] <= (x0 + x1) / 2 <= cell[2] and cell[1] <= (y0 + y1) / 2 <= cell[3]
            ]
            inside.sort(key=lambda w: (round(w[0][1]), w[0][0]))
            cells.append(inside)
        rows.append(cells)
    return rows

"""The layout of a PDF as pure data: pages, words, lines and blocks in reading order.

No I/O here: `build.py` fills these from what a layout engine read. Every
coordinate is in PDF points with a top-left origin, as `(x0, top, x1, bottom)` on the
page as it is displayed (rotation applied), so a box can be drawn straight over the
rendered page image.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, NamedTuple

from visualiser.geometry import BBox, union

BlockKind = Literal["heading", "paragraph", "list_item", "table", "image", "code"]


@dataclass(frozen=True, slots=True)
class Page:
    number: int  # 1-based, as people count pages
    width: float
    height: float
    rotation: int = 0
    ocr: bool = False  # words came from Tesseract, not the text layer


class Word(NamedTuple):
    """A word as the page shows it: the unit of provenance.

    A named tuple, not a frozen dataclass like the other parts: a long document has
    hundreds of thousands of words, and a tuple is made in C (`tuple.__new__`, see
    `build.py`) where a frozen dataclass sets each field through `object.__setattr__`;
    it is as immutable, and read by the same attribute names."""

    id: int
    page: int
    text: str
    bbox: BBox
    line: int  # id of the Line it sits on


@dataclass(frozen=True, slots=True)
class Line:
    id: int
    page: int
    bbox: BBox
    word_ids: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Table:
    rows: tuple[tuple[tuple[int, ...], ...], ...]  # rows → cells → word ids
    header_rows: int = 1
    continued: bool = False  # continues the previous table across a page break


@dataclass(frozen=True, slots=True)
class Block:
    id: int
    page: int
    kind: BlockKind
    bbox: BBox
    line_ids: tuple[int, ...] = ()
    level: int = 0  # heading level 1-4, 0 for other blocks
    table: Table | None = None
    # a paragraph that carries on an earlier one across a column or page break: how
    # many blocks back it is (1: the previous one; more when footnotes sit between)
    continues: int = 0


@dataclass(slots=True)
class Layout:
    pages: list[Page]
    words: list[Word] = field(default_factory=list)
    lines: list[Line] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)  # document reading order
    warnings: list[str] = field(default_factory=list)
    engine: str = ""  # the layout engine that read it, with its version
    # each line's `words_box`, made on first use, once the layout is complete
    _words_boxes: list[BBox] | None = field(default=None, init=False, repr=False,
                                            compare=False)

    def block_words(self, block: Block) -> list[int]:
        if block.table is not None:
            return [w for row in block.table.rows for cell in row for w in cell]
        return [w for line_id in block.line_ids for w in self.lines[line_id].word_ids]

    def block_text(self, block: Block) -> str:
        return " ".join(self.words[w].text for w in self.block_words(block))

    def words_box(self, line_id: int) -> BBox:
        """The box around a line's words: every report places most chunks by whole
        lines, so it is made once per line, not once per chunk. (`Line.bbox` is the
        text layer's line, which can reach past its words: a list marker dropped.)"""
        boxes = self._words_boxes
        if boxes is None:  # made whole, then set: a report in another thread sees all
            words = self.words
            boxes = [union(words[w].bbox for w in line.word_ids) if line.word_ids
                     else line.bbox for line in self.lines]
            self._words_boxes = boxes
        return boxes[line_id]

    def line_text(self, line_id: int) -> str:
        return " ".join(self.words[w].text for w in self.lines[line_id].word_ids)

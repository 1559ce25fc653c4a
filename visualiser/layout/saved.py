"""A Layout as JSON and back, so that a document's layout (OCR included) is read once
and every later strategy, preview, compare side and import starts from it.

JSON rather than pickle: the files sit in a cache folder that other processes share,
and loading one must never run code. The format carries its own version; a file of
another version is not read, and the layout is extracted again.
"""

from __future__ import annotations

import json
from typing import Any

from visualiser.layout.model import Block, Layout, Line, Page, Table, Word

FORMAT = 1


def dumps(layout: Layout) -> bytes:
    return json.dumps({
        "format": FORMAT,
        "engine": layout.engine,
        "warnings": layout.warnings,
        "pages": [[p.number, p.width, p.height, p.rotation, p.ocr] for p in layout.pages],
        "words": [[w.page, w.text, w.bbox, w.line] for w in layout.words],
        "lines": [[ln.page, ln.bbox, ln.word_ids] for ln in layout.lines],
        "blocks": [_block(b) for b in layout.blocks],
    }, ensure_ascii=False, separators=(",", ":")).encode()


def _block(b: Block) -> list[Any]:
    table = None if b.table is None else [b.table.rows, b.table.header_rows, b.table.continued]
    return [b.page, b.kind, b.bbox, b.line_ids, b.level, table, b.continues]


def loads(data: bytes) -> Layout | None:
    """The layout saved in `data`, or None when it is of another format version."""
    raw = json.loads(data)
    if raw.get("format") != FORMAT:
        return None
    layout = Layout(pages=[Page(n, w, h, r, bool(ocr)) for n, w, h, r, ocr in raw["pages"]],
                    warnings=list(raw["warnings"]), engine=raw["engine"])
    layout.words = [Word(i, page, text, tuple(bbox), line)
                    for i, (page, text, bbox, line) in enumerate(raw["words"])]
    layout.lines = [Line(i, page, tuple(bbox), tuple(ids))
                    for i, (page, bbox, ids) in enumerate(raw["lines"])]
    layout.blocks = [
        Block(i, page, kind, tuple(bbox), tuple(line_ids), level,
              None if table is None else Table(_rows(table[0]), table[1], table[2]),
              continues)
        for i, (page, kind, bbox, line_ids, level, table, continues) in enumerate(raw["blocks"])
    ]
    return layout


def _rows(rows: list[list[list[int]]]) -> tuple[tuple[tuple[int, ...], ...], ...]:
    return tuple(tuple(tuple(cell) for cell in row) for row in rows)

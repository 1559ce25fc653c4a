"""A Layout as JSON and back, so that a document's layout (OCR included) is read once
and every later strategy, preview, compare side and import starts from it.

JSON rather than pickle: the files sit in a cache folder that other processes share,
and loading one must never run code. The format carries its own version; a file of
another version is not read, and the layout is extracted again.

A file also names the layout code that read it (`engines.layout_code_digest`). After
an upgrade that changed the rules, a layout is read again (seconds, once), never
served as the old code made it, except one with more than KEEP_OCR_PAGES pages read by
OCR: that would OCR them all again (minutes for a long scan) on the first view after
each upgrade, so it is kept, with a warning that says so.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from visualiser.files import write_atomically
from visualiser.layout import engines
from visualiser.layout.model import Block, Layout, Line, Page, Table, Word

FORMAT = 1
KEEP_OCR_PAGES = 5  # an 8-page scan took 78 s to OCR on the development machine


def file_name(options_key: str, prefix: str = "layout") -> str:
    """The file a layout read under these options is kept in: one per engine, its
    version and OCR settings, so a layout is reused only for the options it was read
    with."""
    return f"{prefix}-{hashlib.sha256(options_key.encode()).hexdigest()[:16]}.json"


def read_file(path: Path) -> Layout | None:
    """The layout kept in `path`; None when there is none, or it cannot be used (another
    format version, a damaged or cut-short file: then it is removed, to be replaced)."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    try:
        layout, code = _load(data)
    except (ValueError, KeyError, TypeError, IndexError):
        layout, code = None, None  # a disk fault, a hand edit
    if layout is not None and code != engines.layout_code_digest():
        scanned = sum(page.ocr for page in layout.pages)
        if scanned > KEEP_OCR_PAGES:
            layout.warnings.append(
                f"this layout was read by an earlier version of the layout rules and kept: "
                f"its {scanned} pages read by OCR would take minutes to read again; remove "
                "the document and add it again to read it with the current rules")
        else:
            layout = None  # read by other rules: read it again
    if layout is None:
        path.unlink(missing_ok=True)
    return layout


def write_file(path: Path, layout: Layout) -> None:
    """Keep `layout` in `path`, atomically (a reader in another process never sees
    half of it). A full disk costs the next reader time, nothing else."""
    try:
        write_atomically(path, dumps(layout))
    except OSError:
        pass


def dumps(layout: Layout) -> bytes:
    return json.dumps({
        "format": FORMAT,
        "code": engines.layout_code_digest(),
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
    return _load(data)[0]


def _load(data: bytes) -> tuple[Layout | None, str | None]:
    """`loads`, and the digest of the layout code that read it."""
    raw = json.loads(data)
    if raw.get("format") != FORMAT:
        return None, None
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
    return layout, raw.get("code")


def _rows(rows: list[list[list[int]]]) -> tuple[tuple[tuple[int, ...], ...], ...]:
    return tuple(tuple(tuple(cell) for cell in row) for row in rows)

"""Page images and the static overlay PNG.

Everything here draws in *displayed* page coordinates (PDF points, top-left origin,
rotation applied), the coordinates of the chunks JSON. Rendering goes through a
pixmap of the page as displayed, so page rotation never needs special cases.

PyMuPDF is not thread-safe, so every call into it holds the process-wide
`visualiser.mupdf.LOCK`; renders are short, a few tens of milliseconds.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Protocol

import pymupdf

from visualiser.errors import BadParameter, NotFound, reading_pdf
from visualiser.files import write_atomically
from visualiser.geometry import BBox
from visualiser.labels import LABEL_FONT_SIZE, PAD, TAG_FONT_SIZE, place_page
from visualiser.mupdf import LOCK, take_messages
from visualiser.resources import static_dir

# One colour per chunk, chosen by `index % len(PALETTE)`. The browser gets this list
# from the server, so the static PNG and the viewer always agree.
PALETTE: tuple[str, ...] = (
    "#4e79a7",
    "#f28e2b",
    "#e15759",
    "#76b7b2",
    "#59a14f",
    "#c9a227",
    "#b07aa1",
    "#ff6f91",
    "#9c755f",
    "#6b6ecf",
)

MIN_SCALE = 0.25
MAX_SCALE = 4.0
# A poster-sized page at 4x would be a gigapixel image; refuse instead of swapping.
MAX_PIXELS = 40_000_000

# The scale the viewer's first screen asks its page images at: its default zoom
# (`--zoom` in static/css/app.css, CSS pixels per PDF point) at a device pixel ratio of
# 1, and how many pages that screen shows. Rendered at processing (`warm`), so the first
# view of a stored document serves them from the cache.
FIRST_SCREEN_SCALE = 1.25
FIRST_SCREEN_PAGES = 3

FILL_OPACITY = 0.16
HATCH_STEP = 8.0


class HasPdf(Protocol):
    pdf: bytes


def colour(index: int) -> str:
    return PALETTE[index % len(PALETTE)]


def parse_scale(raw: str | float | None, default: float = 1.0) -> float:
    """A render scale from a query string, bounded so one request cannot eat the RAM."""
    if raw is None or raw == "":
        return default
    try:
        value = float(raw)
    except (TypeError, ValueError):
        raise BadParameter("scale", f"expected a number, got {raw!r}") from None
    if not math.isfinite(value) or not MIN_SCALE <= value <= MAX_SCALE:
        raise BadParameter("scale", f"must be between {MIN_SCALE} and {MAX_SCALE}, got {raw}")
    # Two decimals keep the disk cache from filling with near-identical images.
    return round(value, 2)


def _page(document: pymupdf.Document, page_number: int) -> pymupdf.Page:
    if not 1 <= page_number <= document.page_count:
        raise NotFound(
            f"page {page_number} does not exist; the document has {document.page_count} pages",
            page=page_number,
        )
    return document[page_number - 1]


def _pixmap(page: pymupdf.Page, scale: float) -> pymupdf.Pixmap:
    rect = page.rect
    pixels = rect.width * scale * rect.height * scale
    if pixels > MAX_PIXELS:
        biggest = math.sqrt(MAX_PIXELS / (rect.width * rect.height))
        raise BadParameter(
            "scale", f"{scale} is too large for this page; at most {biggest:.2f} is allowed"
        )
    return page.get_pixmap(matrix=pymupdf.Matrix(scale, scale), alpha=False)


def render_page_png(document: pymupdf.Document, page_number: int, scale: float) -> bytes:
    """The page as displayed (rotation applied), as PNG bytes; BadPdf with MuPDF's
    reason when the page cannot be drawn."""
    with reading_pdf(f"page {page_number}"):
        try:
            return _pixmap(_page(document, page_number), scale).tobytes("png")
        finally:
            take_messages()  # keep MuPDF's buffer from growing with every image


class PageImageCache:
    """Rendered page PNGs on disk, keyed by (sha256, page, scale).

    Files are written to a temporary name and renamed, so a reader never sees half a
    PNG, and two servers sharing the directory cannot corrupt each other.
    """

    def __init__(self, directory: Path, open_documents: int = 4) -> None:
        self.directory = directory
        self.lock = LOCK
        self._open: dict[str, pymupdf.Document] = {}  # insertion order = LRU order
        self._open_limit = open_documents

    def path(self, doc_id: str, page_number: int, scale: float) -> Path:
        return self.directory / "pages" / doc_id[:2] / doc_id / f"{page_number}@{scale:.2f}.png"

    def get(self, doc_id: str, pdf: Callable[[], bytes], page_number: int, scale: float) -> Path:
        """The PNG's path, rendered on a miss; `pdf` loads the file only when needed."""
        target = self.path(doc_id, page_number, scale)
        if target.is_file():
            return target
        with self.lock:
            if target.is_file():  # another thread rendered it while we waited
                return target
            png = render_page_png(self._document(doc_id, pdf), page_number, scale)
            write_atomically(target, png)
        return target

    def warm(self, doc_id: str, pdf: Callable[[], bytes], page_count: int,
             pages: int = FIRST_SCREEN_PAGES, scale: float = FIRST_SCREEN_SCALE) -> list[Path]:
        """Render the first screen's pages into the cache (those not there yet)."""
        return [self.get(doc_id, pdf, number, scale)
                for number in range(1, min(pages, page_count) + 1)]

    def _document(self, doc_id: str, pdf: Callable[[], bytes]) -> pymupdf.Document:
        """An open document, kept for the next page: a 600-page file is parsed once."""
        document = self._open.pop(doc_id, None)
        if document is None:
            with reading_pdf():
                document = pymupdf.open(stream=pdf(), filetype="pdf")
        self._open[doc_id] = document
        while len(self._open) > self._open_limit:
            oldest = next(iter(self._open))
            self._open.pop(oldest).close()
        return document

    def close(self) -> None:
        with self.lock:
            for document in self._open.values():
                document.close()
            self._open.clear()


# --- the static overlay --------------------------------------------------------------


def hatch_segments(box: BBox, step: float = HATCH_STEP) -> list[tuple[float, float, float, float]]:
    """45° hatching lines clipped to `box`: the mark for an overlap's intersection."""
    x0, top, x1, bottom = box
    segments = []
    # Lines x - y = c, for c stepping across the box (y grows downwards).
    c = x0 - bottom
    while c <= x1 - top:
        ya, yb = max(top, x0 - c), min(bottom, x1 - c)
        if ya < yb:
            segments.append((ya + c, ya, yb + c, yb))
        c += step
    return segments


def _rgb(hex_colour: str) -> tuple[float, float, float]:
    value = hex_colour.lstrip("#")
    r, g, b = (int(value[i : i + 2], 16) / 255 for i in (0, 2, 4))
    return (r, g, b)


def _draw_overlay(page: pymupdf.Page, report: Mapping[str, Any], page_number: int) -> None:
    shape = page.new_shape()
    for chunk in report["chunks"]:
        rgb = _rgb(colour(chunk["index"]))
        for region in chunk["regions"]:
            if region["page"] != page_number:
                continue
            for rect in region["rects"]:
                shape.draw_rect(pymupdf.Rect(rect))
                shape.finish(color=None, fill=rgb, fill_opacity=FILL_OPACITY, width=0)
            shape.draw_rect(pymupdf.Rect(region["bbox"]))
            shape.finish(color=rgb, fill=None, width=1.2)
    # Many pairs can share one line (every split part repeats the header row): each
    # rectangle is hatched once, or stacked hatches would hide the text under them.
    hatched: set[tuple[tuple[float, ...], tuple[float, float, float]]] = set()
    for overlap in report.get("overlaps", []):
        if overlap["page"] != page_number:
            continue
        # As in the browser: the shared text is hatched (red for a defect); boxes that
        # cross without shared words get a thin dashed outline. Chunk sets stored before
        # overlaps carried `rects` have none and are outlined.
        ink = (0.12, 0.12, 0.12) if overlap.get("intended", True) else (0.75, 0.1, 0.1)
        rects = overlap.get("rects") or []
        if not rects:
            shape.draw_rect(pymupdf.Rect(overlap["bbox"]))
            shape.finish(color=ink, width=0.5, dashes="[2 3] 0", stroke_opacity=0.7)
            continue
        fresh = [r for r in rects if (tuple(r), ink) not in hatched]
        if not fresh:
            continue
        for rect in fresh:
            hatched.add((tuple(rect), ink))
            for xa, ya, xb, yb in hatch_segments(tuple(rect)):
                shape.draw_line((xa, ya), (xb, yb))
        shape.finish(color=ink, width=0.6, stroke_opacity=0.45)
    # The same placement as the viewer's (visualiser/labels.py): in the margins or the
    # nearest free space, never over text or each other.
    for mark in place_page(report["chunks"], report.get("containment", []), page_number,
                           page.rect.width, page.rect.height):
        rgb = _rgb(colour(mark["chunks"][0]))
        if mark["kind"] == "tag":
            rgb = (0.73, 0.13, 0.07) if mark.get("defect") else rgb
            _draw_label(shape, mark["text"], tuple(mark["box"]), rgb, tag=True)
        else:
            _draw_label(shape, mark["text"], tuple(mark["box"]),
                        (0.25, 0.28, 0.32) if mark["kind"] == "group" else rgb)
    shape.commit()


LABEL_FONT = static_dir() / "fonts" / "LiberationSans-Bold.ttf"


def _draw_label(
    shape: pymupdf.Shape,
    text: str,
    box: BBox,
    rgb: tuple[float, float, float],
    tag: bool = False,
) -> None:
    """A chunk number (white on the chunk's colour) or a containment tag (dark on white,
    framed in the colour), as in the browser."""
    shape.draw_rect(pymupdf.Rect(box))
    if tag:
        shape.finish(color=rgb, fill=(1, 1, 1), width=0.8)
    else:
        shape.finish(color=None, fill=rgb, width=0)
    size = TAG_FONT_SIZE if tag else LABEL_FONT_SIZE
    baseline = (box[0] + PAD, box[3] - PAD - 0.15 * size)
    ink = (0.11, 0.14, 0.17) if tag else (1, 1, 1)
    # The viewer's own font (Liberation Sans Bold, Helvetica-Bold's metrics, which
    # labels.py measures with): the base-14 font cannot write the en dash of "15–27".
    shape.insert_text(baseline, text, fontname="ViewerSansBold", fontfile=str(LABEL_FONT),
                      fontsize=size, color=ink)


LEGEND_ROW = 11.0  # points per legend row
LEGEND_COLUMN = 120.0  # points per legend entry
LEGEND_PAD = 8.0


def _legend_entries(report: Mapping[str, Any], page_number: int) -> list[tuple[int, str]]:
    """(chunk index, "N · type · T tok") for each chunk with a box on the page."""
    entries = []
    for chunk in report["chunks"]:
        if any(region["page"] == page_number for region in chunk["regions"]):
            tokens = chunk.get("tokens")
            size = f" · {tokens} tok" if tokens is not None else ""
            entries.append((chunk["index"], f"{chunk['index']} · {chunk['chunk_type']}{size}"))
    return entries


def _legend_grid(report: Mapping[str, Any], page_number: int,
                 width: float) -> tuple[list[tuple[int, str]], int, int]:
    """The legend's entries, and the columns and rows they fill on a page `width` wide."""
    entries = _legend_entries(report, page_number)
    columns = max(1, int((width - 2 * LEGEND_PAD) // LEGEND_COLUMN))
    return entries, columns, -(-len(entries) // columns)


def legend_height(report: Mapping[str, Any], page_number: int, width: float) -> float:
    """Points the legend adds below the page: its entries in columns, then the key."""
    _, _, rows = _legend_grid(report, page_number, width)
    return 2 * LEGEND_PAD + (rows + 1) * LEGEND_ROW


def _draw_legend(page: pymupdf.Page, report: Mapping[str, Any], page_number: int,
                 top: float) -> None:
    """Below the page: a swatch and "index · type · tokens" per chunk on it, then what
    the hatching and the tags mean, so a picture read alone explains itself."""
    shape = page.new_shape()
    entries, columns, rows = _legend_grid(report, page_number, page.rect.width)
    y = top + LEGEND_PAD
    for i, (index, text) in enumerate(entries):
        x = LEGEND_PAD + (i % columns) * LEGEND_COLUMN
        row_y = y + (i // columns) * LEGEND_ROW
        shape.draw_rect(pymupdf.Rect(x, row_y + 2, x + 8, row_y + 9))
        shape.finish(color=None, fill=_rgb(colour(index)), width=0)
        _legend_text(shape, (x + 11, row_y + 8.5), text)
    _legend_text(shape, (LEGEND_PAD, y + rows * LEGEND_ROW + 8.5),
                 "hatched: text two chunks share (red: not explained by the strategy) · "
                 "framed tag: containment")
    shape.commit()


def _legend_text(shape: pymupdf.Shape, at: tuple[float, float], text: str) -> None:
    shape.insert_text(at, text, fontname="ViewerSansBold", fontfile=str(LABEL_FONT),
                      fontsize=7, color=(0.11, 0.14, 0.17))


def render_overlay_png(
    doc: HasPdf, report: Mapping[str, Any], page_number: int, scale: float = 1.5
) -> bytes:
    """The page with every chunk box of `report` drawn on it, as deterministic PNG bytes.

    The page is rendered first, then placed as an image on a blank page of the same
    displayed size where the boxes are drawn as vectors: MuPDF maps the image pixel
    for pixel (checked in tests), and the drawing never meets the page's rotation.
    """
    return render_overlay_pngs(doc, report, [page_number], scale)[page_number]


def render_overlay_pngs(
    doc: HasPdf, report: Mapping[str, Any], pages: list[int], scale: float = 1.5,
    fmt: str = "png", legend: bool = False,
) -> dict[int, bytes]:
    """`render_overlay_png` for several pages, opening the PDF once. With `fmt="svg"`:
    the page picture as an embedded PNG and the boxes and labels as vectors, the label
    glyphs written as outlines of the shipped font, so no viewer needs the font. With
    `legend`, a strip below each page names its chunks and what the marks mean."""
    scale = parse_scale(scale)
    out: dict[int, bytes] = {}
    what = f"page {pages[0]}" if len(pages) == 1 else "the PDF"  # named in a BadPdf
    with LOCK, reading_pdf(what), pymupdf.open(stream=doc.pdf, filetype="pdf") as source:
        for page_number in pages:
            page = _page(source, page_number)
            pixmap = _pixmap(page, scale)
            width, height = page.rect.width, page.rect.height
            extra = legend_height(report, page_number, width) if legend else 0.0
            with pymupdf.open() as canvas:
                blank = canvas.new_page(width=width, height=height + extra)
                blank.insert_image(pymupdf.Rect(0, 0, width, height), pixmap=pixmap)
                _draw_overlay(blank, report, page_number)
                if legend:
                    _draw_legend(blank, report, page_number, height)
                if fmt == "svg":
                    svg = blank.get_svg_image(matrix=pymupdf.Matrix(scale, scale),
                                              text_as_path=True)
                    out[page_number] = svg.encode("utf-8")
                else:
                    out[page_number] = blank.get_pixmap(
                        matrix=pymupdf.Matrix(scale, scale), alpha=False).tobytes("png")
            take_messages()
    return out

"""The builtin layout engine: PyMuPDF's text layer, read page by page.

This module reads lines with their words and style, and gathers the tables
(`tables.py`), images and OCR'd text (`ocr.py`) of each page; `order.py` puts them in
reading order. Everything it returns is plain, picklable data in the page's own text
space; `build.py` makes the Layout from it.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import cache
from itertools import groupby, pairwise
from multiprocessing import get_context
from operator import itemgetter

import pymupdf

from visualiser.geometry import BBox, area, centre, holds_centre, same_row, union
from visualiser.layout.accents import has_accent, with_accents
from visualiser.layout.engines import (
    DEFAULT_OPTIONS,
    LayoutEngine,
    LayoutOptions,
    Progress,
    register,
)
from visualiser.layout.figures import Figure, drawing_boxes, find_figures
from visualiser.layout.items import Item, PageRead, RawLine, WordBox
from visualiser.layout.ligatures import has_unmapped, restore_ligatures
from visualiser.layout.lines import margin_notes, margin_numbers
from visualiser.layout.ocr import ocr_available, ocr_page
from visualiser.layout.order import reading_order
from visualiser.layout.scripts import (
    UNSPACED_CHAR,
    Piece,
    columns,
    horizontal_lines,
    is_rtl,
    is_vertical_piece,
    needs_chars,
    normalise,
    stretching_glyphs,
    vertical_order,
    vertical_words,
    with_stretching,
)
from visualiser.layout.stacks import split_stacked_letters
from visualiser.layout.tables import find_tables, stroke_boxes
from visualiser.lifeline import exit_with_parent
from visualiser.mupdf import LOCK
from visualiser.patterns import only_addresses

TEXT_FLAGS = (
    pymupdf.TEXT_PRESERVE_LIGATURES
    | pymupdf.TEXT_PRESERVE_WHITESPACE
    | pymupdf.TEXT_MEDIABOX_CLIP
)  # no dehyphenation: a word must spell what the page shows
# An operator that paints a path or a shading, or runs an XObject (a form may draw),
# as a token of its own in a content stream: "S", "f*", "b", "sh", "Do".
_PAINTS = re.compile(rb"[\s\])>}](?:[SsfFBb]\*?|sh|Do)[\s\[(</%{]")
# Bold and monospace fonts by name, for PDFs whose fonts do not say it in their flags
# (Ghostscript and Distiller drop them: arXiv's and many journals' TeX papers, whose
# section headings are CMBX and code CMTT; pdfTeX's Inconsolata and Latin Modern Mono
# carry no fixed-pitch flag either). TeX's names: CM/EC/Latin Modern bold extended
# (cmbx10, SFBX1000), bold (cmb10), sans bold (cmssbx10), bold symbols and maths
# (cmbsy10, cmmib10), EC bold italic and bold caps (SFBI, SFXC); typewriter cmtt, sftt.
_BOLD_FONT = re.compile(
    r"bold|[-,](?:black|heavy|demi)|(?-i:-(?:Bd|Blk)(?![a-z]))|nimbusromno9l-medi|"
    r"^(?:cmbx|cmb\d|cmbsy|cmmib|cmssbx|sfbx|sfbi|sfxc|ecbx|ecbi|ecxc|hfbrbx)",
    re.IGNORECASE)
_MONO_FONT = re.compile(
    r"cour|mono(?!type)|nimbusmon|typewriter|inconsolata|consol|menlo|sourcecodepro|"
    r"^(?:cmtt|cmitt|cmsltt|sftt|ectt|txtt|pcr[rbo])", re.IGNORECASE)
PARALLEL_FROM_PAGES = 48  # below this, starting worker processes costs more than it saves
_BATCH = 24


@register
class BuiltinEngine(LayoutEngine):
    name = "builtin"
    label = "Builtin (PyMuPDF text layer and font statistics)"
    explanation = ("Words and lines from PyMuPDF's text layer, columns found by recursive "
                   "XY-cut, headings told by font size and weight relative to the body "
                   "text, ruled tables from the grids the page draws, unruled tables from "
                   "columns aligned by whitespace, OCR by Tesseract.")

    @classmethod
    def version(cls) -> str:
        return f"2 (PyMuPDF {pymupdf.VersionBind})"

    def read(self, data: bytes, options: LayoutOptions,
             progress: Progress | None = None) -> list[PageRead]:
        return read_pages(data, options, progress)


def read_pages(data: bytes, options: LayoutOptions = DEFAULT_OPTIONS,
               progress: Progress | None = None) -> list[PageRead]:
    """Every page of the PDF `data`; in `options.workers` processes when asked."""
    with LOCK, pymupdf.open(stream=data, filetype="pdf") as doc:
        total = doc.page_count
    if options.workers < 2 or total < PARALLEL_FROM_PAGES:
        return _read_here(data, [], total, options, progress)
    batches = [(data, start, min(start + _BATCH, total), options)
               for start in range(0, total, _BATCH)]
    pages: list[PageRead] = []
    try:
        # spawn, not fork: the web server has threads, and forking those is unsafe
        with ProcessPoolExecutor(max_workers=options.workers,
                                 mp_context=get_context("spawn"),
                                 initializer=exit_with_parent,
                                 initargs=(os.getpid(),)) as pool:
            for batch in pool.map(_read_batch, batches):
                pages.extend(batch)
                if progress:
                    progress(len(pages), total)
    except (BrokenProcessPool, OSError):
        # Workers could not start (e.g. the calling script has no __main__ guard, or
        # the system refuses processes): read the rest here, slower but complete.
        return _read_here(data, pages, total, options, progress)
    return pages


def _read_here(data: bytes, pages: list[PageRead], total: int, options: LayoutOptions,
               progress: Progress | None) -> list[PageRead]:
    """Read the pages after `pages` in this process, holding the PyMuPDF lock for one
    page at a time so that other threads (page images) get their turn."""
    with LOCK:
        doc = pymupdf.open(stream=data, filetype="pdf")
    try:
        for n in range(len(pages), total):
            with LOCK:
                pages.append(read_page(doc[n], options))
            if progress:
                progress(len(pages), total)
    finally:
        with LOCK:
            doc.close()
    return pages


def _read_batch(args: tuple[bytes, int, int, LayoutOptions]) -> list[PageRead]:
    data, start, stop, options = args
    with pymupdf.open(stream=data, filetype="pdf") as doc:
        return [read_page(doc[n], options) for n in range(start, stop)]


def read_page(page: pymupdf.Page, options: LayoutOptions = DEFAULT_OPTIONS) -> PageRead:
    textpage = page.get_textpage(flags=TEXT_FLAGS)
    words, raw = read_words(textpage)
    if not words and page.get_images():
        if options.ocr and ocr_available():
            return _read_by_ocr(page, options)
        return _page_read(page, [], warning=(
            f"page {page.number + 1} has no text layer and OCR is unavailable "
            "(install tesseract-ocr); its words are missing"))
    watermarks: list[tuple[int, int, str]] = []
    lines, vertical_lines = text_lines(textpage, styled=True, page=page, words=words, raw=raw,
                                       watermarks=watermarks)
    if watermarks:
        marked = {(block, line) for block, line, _ in watermarks}
        words = [w for w in words if (w[5], w[6]) not in marked]
    # The table finder reads cells across, which scrambles a page set in columns of
    # vertical text (its ruled frames are not tables); such pages have no tables.
    mostly_vertical = _word_count(vertical_lines) > _word_count(lines)
    contents = cache(page.read_contents)  # the content stream, read once if at all
    # the drawings, read once for tables and figures
    paths = page.get_cdrawings() if not mostly_vertical and may_draw(page, contents) else []
    drawn = stroke_boxes(paths)  # their strokes and shapes, for tables and row numbers
    # margin line numbers stay out of the tables and the reading order: beside every
    # row of a draft's two columns, they make its rows look like a table's and take
    # the reading order across the gutter; they are read after the text they number
    numbers = [] if mostly_vertical else margin_numbers(
        _page_read(page, [Item("line", line.bbox, line=line) for line in lines]))
    if numbers and paths:
        rules = [((x0 + x1) / 2, y0, y1) for x0, y0, x1, y1 in drawn[0] if x1 - x0 <= 2]
        numbers = [item for item in numbers if not _ruled_cell(item.bbox, rules, lines)]
    if numbers:
        apart = {id(item.line) for item in numbers}
        boxes = {item.line.words[0][0] for item in numbers if item.line is not None}
        lines = [line for line in lines if id(line) not in apart]
        words = [w for w in words if tuple(w[:4]) not in boxes]
    items = [] if mostly_vertical else find_tables(page, textpage, words, drawn)
    table_boxes = [item.bbox for item in items]
    lines = _outside(lines, table_boxes)
    vertical_lines = _outside(vertical_lines, table_boxes)
    items.extend(Item("line", line.bbox, line=line) for line in lines)
    pictures = [box for info in (page.get_image_info() if may_show_pictures(page, contents)
                                 else ())
                if (box := tuple(info["bbox"]))[2] - box[0] > 8 and box[3] - box[1] > 8]
    _mark_labels(items, pictures)
    items.extend(Item("image", box) for box in pictures)  # no hairline decorations
    rect = page.rect
    text_width = rect.width if page.rotation % 180 == 0 else rect.height
    vertical = [Item("line", line.bbox, line=line) for line in vertical_lines]
    if mostly_vertical:  # vertical Japanese: columns right to left, in tiers
        return _page_read(page, vertical_order(reading_order(items, text_width), vertical))
    figures = find_figures(drawing_boxes(paths), items)
    for figure in figures:
        for member in figure.members:
            if member.line is not None:
                member.role = "label"  # never a heading, nor in a paragraph
    # notes (a few lines written top to bottom on a horizontal page, short lines in the
    # margin beside the text) are read apart from the body's rows (`_in_order`)
    ordered = _in_order(items + vertical, text_width, figures)
    read = _page_read(page, ordered + sorted(numbers, key=lambda i: (i.bbox[0], i.bbox[1])))
    read.watermarks = [text for _, _, text in watermarks]
    return read


def _ruled_cell(box: BBox, rules: list[tuple[float, float, float]],
                lines: list[RawLine]) -> bool:
    """Does `box` stand alone between two vertical rules, as a table's cell does? A
    table's column of row numbers ("1", "2", … beside the names they number) is no
    margin numbering: taken for one, it was read out of its table, whose first
    column came out empty. (A frame around the page has the text between a margin's
    numbers and its far side.)"""
    middle = (box[1] + box[3]) / 2
    across = [x for x, y0, y1 in rules if y0 <= middle <= y1]  # vertical rules, x
    left = max((x for x in across if x <= box[0] + 1), default=None)
    right = min((x for x in across if x >= box[2] - 1), default=None)
    if left is None or right is None:
        return False
    return not any(line.bbox[1] < middle < line.bbox[3] and left < line.bbox[2]
                   and line.bbox[0] < right and line.bbox != box for line in lines)


def may_draw(page: pymupdf.Page, contents: Callable[[], bytes] | None = None) -> bool:
    """Can `page` draw a line or a shape? False only when its content stream paints
    no path or shading and runs no XObject, and it has no annotation or form field
    (their appearances are run too). `get_cdrawings` interprets the whole page, text
    included, and most pages of a long document draw nothing (37 of the rulebook's
    619). A false hit (an "S" inside a string) costs only time."""
    if page.first_annot is not None or page.first_widget is not None:
        return True
    # padded, so that an operator opening or closing the stream is a token too
    return _PAINTS.search(b"\n" + (contents or page.read_contents)() + b"\n") is not None


def may_show_pictures(page: pymupdf.Page,
                      contents: Callable[[], bytes] | None = None) -> bool:
    """Can `page` draw a picture? False only when nothing it runs can hold one: no image
    or form XObject in its resources, no pattern (a tiling pattern may paint an image),
    no inline image operator in its content stream, no annotation or form field (their
    appearance streams are run too). `get_image_info` builds a second text page, as
    dear as reading the words; most pages of a long document have no picture.
    Resources inherited from the page tree are not looked into: such a page may."""
    if page.get_images(full=True) or page.get_xobjects():
        return True
    if page.first_annot is not None or page.first_widget is not None:
        return True
    doc = page.parent
    if doc.xref_get_key(page.xref, "Resources")[0] == "null":
        return True  # inherited
    if doc.xref_get_key(page.xref, "Resources/Pattern")[0] != "null":
        return True
    # an inline image; a false hit costs only time
    return b"BI" in (contents or page.read_contents)()


def _page_read(page: pymupdf.Page, items: list[Item], warning: str | None = None) -> PageRead:
    m = page.rotation_matrix
    return PageRead(page.number + 1, page.rect.width, page.rect.height, page.rotation,
                    (m.a, m.b, m.c, m.d, m.e, m.f), items, False, warning)


def _read_by_ocr(page: pymupdf.Page, options: LayoutOptions) -> PageRead:
    """A scan: OCR'd upright (`ocr.py`). Its text space is the upright scan, so lines
    run left to right there; `matrix` maps it onto the page as displayed, and the
    rotation between the two is the page's own plus the turn OCR gave it."""
    ocr = ocr_page(page, options)
    full = _full_measure(ocr.lines)
    items = [Item("line", line.bbox, line=line,
                  role="paragraph" if ocr.low_confidence or n in ocr.doubtful
                  or _running_unspaced(line, full) else None)
             for n, line in enumerate(ocr.lines)]
    _mark_labels(items, ocr.pictures)
    items.extend(Item("image", box) for box in ocr.pictures)
    return PageRead(page.number + 1, page.rect.width, page.rect.height,
                    (page.rotation + ocr.turned) % 360, ocr.matrix,
                    reading_order(items, ocr.width), True, None, ocr.warnings)


def _full_measure(lines: list[RawLine]) -> float:
    """How wide a full line of the page's text is: the median of its wider half."""
    widths = sorted(line.bbox[2] - line.bbox[0] for line in lines)
    wide = widths[len(widths) // 2:]
    return wide[len(wide) // 2] if wide else float("inf")


_RUNNING_CHARS = 12  # Chinese or Japanese characters on a line of running text


def _running_unspaced(line: RawLine, full: float) -> bool:
    """Is `line` an OCR'd full line of Chinese or Japanese running text? Its words are
    unbroken runs, so the rule that a line of ten words is no heading cannot count
    them, and a box stretched by a speck made small_ocr's body line "量的价格还赶不上
    巴西甘蔗种植园…" a heading. A heading is not set across the whole measure."""
    unspaced = len(UNSPACED_CHAR.findall(line.text))
    return unspaced >= _RUNNING_CHARS and line.bbox[2] - line.bbox[0] >= 0.9 * full


def _mark_labels(items: list[Item], pictures: list[BBox]) -> None:
    """Lines set sparsely on a picture (callout numbers, labels on a photo) belong to
    the picture: they are kept as labels, never joined to the body or taken for
    headings. Text that fills a picture (a heading on a tinted bar, a boxed summary)
    is body text on a background."""
    for box in pictures:
        on_it = [i for i in items if i.line is not None and holds_centre(box, i.bbox)]
        # a heading on a tinted bar is no label: its text fills the picture
        if on_it and sum(area(i.bbox) for i in on_it) < 0.05 * area(box):
            for item in on_it:
                item.role = "label"


def _in_order(items: list[Item], width: float, figures: list[Figure]) -> list[Item]:
    """The body in reading order, with the notes in the margin beside the text
    (`margin_notes`) each after the body line level with it (`build.py` writes it
    after the paragraph that line is in); then the rotated lines of a page of
    horizontal text (a margin stamp, a note set sideways). Read by rows, the notes
    would be taken into the middle of the paragraphs they stand beside."""
    lines = [i.line for i in items if i.line is not None]
    sideways = sum(len(line.text) for line in lines if not line.horizontal)
    rotated = [] if not sideways or 2 * sideways >= sum(len(line.text) for line in lines) \
        else [i for i in items if i.line is not None and not i.line.horizontal]
    beside = margin_notes(items)
    for note in rotated + beside:
        note.role = "note"
    aside = {id(note) for note in rotated + beside}
    body = [i for i in items if id(i) not in aside]
    return (_beside_their_lines(reading_order(body, width, figures), beside)
            + sorted(rotated, key=lambda i: (i.bbox[0], i.bbox[1])))


def _beside_their_lines(ordered: list[Item], notes: list[Item]) -> list[Item]:
    """`ordered` with each note after the last body line that starts at its height or
    above (a page with margin notes is one block of text, read top to bottom)."""
    out = list(ordered)
    for note in sorted(notes, key=lambda i: (i.bbox[1], i.bbox[0]), reverse=True):
        at = max((n for n, i in enumerate(out) if i.line is not None and i.role != "note"
                  and i.bbox[1] <= note.bbox[1] + 1.0), default=-1)
        out.insert(at + 1, note)
    return out


def read_words(textpage: pymupdf.TextPage) -> tuple[list, list[dict] | None]:
    """The text page's words (`extractWORDS()`), a ligature glyph without text in them
    read by its width ("wri�ng": `ligatures.py`); and its characters
    (`extractRAWDICT()` blocks) when that took them, else None."""
    words = textpage.extractWORDS()
    if not has_unmapped(words):
        return words, None
    raw = textpage.extractRAWDICT()["blocks"]
    return restore_ligatures(words, raw), raw


def text_lines(textpage: pymupdf.TextPage, *, styled: bool, page: pymupdf.Page | None = None,
               words: list | None = None, raw: list[dict] | None = None,
               watermarks: list[tuple[int, int, str]] | None = None,
               ) -> tuple[list[RawLine], list[RawLine]]:
    """Text lines with their words and style: the horizontal lines, and the vertical
    ones (read top to bottom). OCR text (`styled=False`) comes in one stand-in font, so
    its bold and monospace flags say nothing and are ignored.

    Ordinary lines take PyMuPDF's own words; lines in a right-to-left or CJK script,
    and vertical ones, are rebuilt from their characters by `scripts.py` (with the
    stretching glyphs of right-to-left lines that the text layer drops, when `page`
    is given). `words` and `raw` are `read_words(textpage)` when the caller has them
    already. With `watermarks`, a line set slantwise across the page ("DRAFT",
    "Unpublished working draft.") is no line: its block, line and text are added
    there instead (its box, a square over the columns, would bridge them)."""
    if words is None:
        words, raw = read_words(textpage)
    words_by_line: dict[tuple[int, int], list[WordBox]] = {}
    # the text page lists a line's words together: one dictionary entry per run
    for key, run in groupby(words, key=_BLOCK_LINE):
        words_by_line.setdefault(key, []).extend([(w[:4], w[4]) for w in run])
    # `raw`: the characters, read only for a page that needs them
    stretching: list[tuple[BBox, str]] | None = None  # read only for right-to-left lines
    lines: list[RawLine] = []
    pieces: list[Piece] = []
    for block_no, block in enumerate(textpage.extractDICT()["blocks"]):
        block_lines = [(n, line, "".join(s["text"] for s in line["spans"]))
                       for n, line in enumerate(block.get("lines", ()))]
        by_chars = any(needs_chars(text) for _, _, text in block_lines)
        fragments: list[Piece] = []  # this block's lines to be rebuilt from characters
        for line_no, line, text in block_lines:
            spans = [s for s in line["spans"] if s["text"].strip()]
            if not spans:
                continue
            if watermarks is not None and _watermark(line, textpage):
                watermarks.append((block_no, line_no, text.strip()))
                continue
            size, bold, mono = _style(spans, styled)
            mono = mono and not only_addresses(text)  # a byline's or footnote's link
            vertical = is_vertical_piece(line["dir"], line["bbox"], text)
            if not vertical and not by_chars:
                words = words_by_line.get((block_no, line_no))
                if words:
                    if has_accent(text):  # "P˚al": an old TeX font's accent over its letter
                        if raw is None:
                            raw = textpage.extractRAWDICT()["blocks"]
                        words = with_accents(words, _chars(raw, block_no, line_no))
                    words = _split_marks(words, spans, size) if styled else words
                    words = _letter_spaced(words, size)
                    if not text.isascii():
                        words = [(box, normalise(word)) for box, word in words]
                    dx, dy = line["dir"]
                    horizontal = dx > 0.9 and abs(dy) < 0.1
                    parts = _parts_set_apart(words, spans) if horizontal and styled else None
                    for part, part_spans in parts or [(words, spans)]:
                        if parts:
                            size, bold, mono = _style(part_spans, styled)
                        lines.append(RawLine(union(b for b, _ in part), part, size, bold, mono,
                                             horizontal=horizontal))
                continue
            if raw is None:
                raw = textpage.extractRAWDICT()["blocks"]
            chars = _chars(raw, block_no, line_no)
            if page is not None and any(map(is_rtl, text)):
                if stretching is None:
                    stretching = stretching_glyphs(page.get_texttrace())
                chars = with_stretching(chars, stretching)
            piece = Piece(tuple(line["bbox"]), chars, size, (bold, mono))
            (pieces if vertical else fragments).append(piece)
        # MuPDF cuts a right-to-left line where the direction changes: its fragments on
        # one baseline are one line again. Other lines stay as MuPDF cut them.
        rtl = any(not text.isascii() and any(map(is_rtl, text)) for _, _, text in block_lines)
        spans_here = [s for _, line, _ in block_lines for s in line["spans"]]
        for rebuilt in _lines_from_chars(fragments, join_rows=rtl):
            if styled:
                rebuilt = RawLine(rebuilt.bbox, _split_marks(rebuilt.words, spans_here,
                                                             rebuilt.size),
                                  rebuilt.size, rebuilt.bold, rebuilt.mono, rebuilt.horizontal)
            lines.append(rebuilt)
    vertical_lines: list[RawLine] = []
    chains = columns(pieces)
    for column in chains:
        if len(column) == 1 and not _written_down(column[0]) and not _in_line_with(
                column[0], chains):
            lines.extend(_lines_from_chars(column))  # a lone wide character, not a column
            continue
        size = max(p.size for p in column)
        words = vertical_words([c for p in column for c in p.chars], size)
        if words:
            bold, mono = (all(p.styled[i] for p in column) for i in (0, 1))
            vertical_lines.append(RawLine(union(b for b, _ in words), words, size, bold, mono,
                                          horizontal=False))
    lines, stacks = split_stacked_letters(lines)  # "P R I N T" spelled down a form's margin
    return lines, vertical_lines + stacks


_BLOCK_LINE = itemgetter(5, 6)  # of an `extractWORDS()` word


def _chars(raw: list[dict], block_no: int, line_no: int) -> list[tuple[BBox, str]]:
    """The characters of a line of `raw` (the text page's `extractRAWDICT` blocks)."""
    return [(tuple(c["bbox"]), c["c"])
            for s in raw[block_no]["lines"][line_no]["spans"] for c in s["chars"]]


LETTER_GAP = 0.3  # em: letters spaced out are closer than words set with spaces


def _letter_spaced(words: list[WordBox], size: float) -> list[WordBox]:
    """A word spaced out letter by letter ("A B S T R A C T", a title page's "M A S T E R
    A R B E I T", a thesis class's "C O N T E N T S") is one word again: the text layer
    makes a word of each letter, as the gaps between them are wider than a glyph's.
    Its letters stand at one even pitch; a wider gap is a space between two words
    ("A R T I C L E  I N F O"), and a kerned pair ("PA", "AT") is a piece of the word.
    Only where a run of four letters or more shows the spacing, and only in
    alphabetic scripts (a CJK line is spaced out by characters of its own)."""
    if len(words) < 4 or sum(len(text) == 1 for _, text in words) < 3:
        return words  # most lines: decided without a loop over their gaps
    short = [len(text) <= 2 and text.isalpha() and text < "\u0590" for _, text in words]
    single = [is_short and len(text) == 1
              for is_short, (_, text) in zip(short, words, strict=True)]
    gaps = [b[0][0] - a[0][2] for a, b in pairwise(words)]
    letter_gaps = sorted(gap for n, gap in enumerate(gaps)
                         if single[n] and single[n + 1] and 0 <= gap <= LETTER_GAP * size)
    if len(letter_gaps) < 3:
        return words
    pitch = letter_gaps[len(letter_gaps) // 2]
    runs: list[list[int]] = [[0]]  # word indexes joined into one word
    for n, gap in enumerate(gaps):
        if short[n] and short[n + 1] and 0.65 * pitch <= gap <= 1.35 * pitch:
            runs[-1].append(n + 1)
        else:
            runs.append([n + 1])
    if not any(len(run) >= 4 and 3 * sum(single[i] for i in run) >= 2 * len(run)
               for run in runs):
        return words  # no word is spaced out, only short words in a row ("at me as if")
    return [(union(words[i][0] for i in run), "".join(words[i][1] for i in run))
            for run in runs]


WATERMARK_SPAN = 0.25  # of the page's width: a slanted line this long is a watermark


SET_APART = 0.8  # em: a gap this wide, with a change of type size, parts two lines
SIZE_STEP = 1.15  # type this much larger or smaller is another line's


def _parts_set_apart(words: list[WordBox], spans: list[dict]
                     ) -> list[tuple[list[WordBox], list[dict]]] | None:
    """A line MuPDF made of two set apart in different sizes on one baseline, as its
    parts (words and spans); None when it is one line. A form's section label and the
    number of the first row beside it ("Payments" in 10 pt, then "61" in 8 pt, an em
    away) were one line, so the label read "Payments 61"."""
    if len(spans) < 2 or len(words) < 2:
        return None
    sizes = [sp["size"] for sp in spans]
    if max(sizes) < SIZE_STEP * min(sizes):
        return None  # the usual line, all in one size (or nearly), decided first

    def size_at(box: BBox) -> float:
        x = (box[0] + box[2]) / 2
        return next((sp["size"] for sp in spans if sp["bbox"][0] <= x <= sp["bbox"][2]), 0.0)

    at = [(size_at(box), text) for box, text in words]  # each word's type size, once
    cuts = []
    for n, ((a, _), (b, _)) in enumerate(pairwise(words), start=1):
        (small, _), (large, label) = sorted((at[n - 1], at[n]))
        # the larger type is a label's words, not a symbol ("▶" before a line's number)
        if (small > 0 and large >= SIZE_STEP * small and b[0] - a[2] >= SET_APART * large
                and sum(c.isalpha() for c in label) >= 2):
            cuts.append(n)
    if not cuts:
        return None
    parts = []
    for start, stop in zip([0, *cuts], [*cuts, len(words)], strict=True):
        part = words[start:stop]
        x0, x1 = part[0][0][0], part[-1][0][2]
        own = [sp for sp in spans if x0 - 1 <= (sp["bbox"][0] + sp["bbox"][2]) / 2 <= x1 + 1]
        parts.append((part, own or spans))
    return parts


def _watermark(line: dict, textpage: pymupdf.TextPage) -> bool:
    """Is `line` set slantwise (between about 10° and 80°) and long across the page? A
    table's slanted column header is short; a watermark spans the text. (The text
    page's size, a new object at each reading, is read only for slanted lines.)"""
    if not 0.17 < abs(line["dir"][0]) < 0.98:
        return False
    x0, y0, x1, y1 = line["bbox"]
    return max(x1 - x0, y1 - y0) >= WATERMARK_SPAN * textpage.rect.width


def _split_marks(words: list[WordBox], spans: list[dict], size: float) -> list[WordBox]:
    """A footnote mark set small and raised against a word ("risk¹", "상해1)나") is a
    word of its own, with its own box: the text layer has no space there, but a reader
    sees a word and its mark. (Other raised text, an ordinal or an exponent, stays in
    its word: `_cut`.)"""
    if len(spans) == 1:
        return words  # a mark is smaller than the line's size, or than the text after it
    marks = [(s["bbox"], s["text"].strip()) for s in spans
             if s["flags"] & 1 and s["size"] < 0.85 * size and s["text"].strip()]
    # MuPDF flags a span raised against the text before it; a footnote's own mark
    # starts its line ("¹The limit applies"), so only the text after it shows it raised
    marks += [(a["bbox"], a["text"].strip()) for a, b in zip(spans, spans[1:], strict=False)
              if not a["flags"] & 1 and a["size"] < 0.85 * b["size"] and a["text"].strip()
              and a["origin"][1] < b["origin"][1] - 0.2 * b["size"]
              and abs(b["bbox"][0] - a["bbox"][2]) < 1.0]
    if not marks:
        return words
    out: list[WordBox] = []
    for box, text in words:
        pieces = [(box, text)]
        for mark_box, mark in marks:
            if not box[0] - 0.5 <= mark_box[0] < mark_box[2] <= box[2] + 0.5:
                continue
            pieces = [part for piece in pieces for part in _cut(piece, mark_box, mark)]
        out.extend(pieces)
    return out


# What a footnote mark is: numbers ("12", "1,3", "2)"), reference symbols, one letter
_FOOTNOTE_MARK = re.compile(r"\(?\d[\d,\-–]*\)?|[*∗†‡§¶⋆#]+|[a-z]")


def _a_variable(text: str) -> bool:
    """One letter of a script with case ("x", "h", "α") is a formula's variable, so a
    number raised after it is its exponent. One syllable of a script without case
    ("목" in "각 목⁴⁾에") is a word of its own, and the number its footnote mark."""
    return len(text) == 1 and text.isalpha() and text.lower() != text.upper()


def _cut(piece: WordBox, mark_box: tuple[float, ...], mark: str) -> list[WordBox]:
    """`piece` cut into the text before the mark, the mark, and the text after it,
    the boxes split where the mark begins and ends."""
    (x0, y0, x1, y1), text = piece
    if mark == text or not x0 - 0.5 <= mark_box[0] < mark_box[2] <= x1 + 0.5:
        return [piece]
    guess = round(len(text) * (mark_box[0] - x0) / max(x1 - x0, 1e-6))
    starts = [i for i in range(len(text)) if text.startswith(mark, i)]
    if not starts:
        return [piece]
    i = min(starts, key=lambda start: abs(start - guess))
    before = text[:i]
    if not _FOOTNOTE_MARK.fullmatch(mark) or _a_variable(before):
        # raised, but no footnote mark: an ordinal ("10ᵗʰ"), an exponent or index in
        # a formula ("Rⁿˣᵈ", "x²", "h⊤"): part of its word, as the text layer has it
        return [piece]
    cut = [(text[:i], (x0, y0, mark_box[0], y1)),
           (mark, (mark_box[0], mark_box[1], mark_box[2], mark_box[3])),
           (text[i + len(mark):], (mark_box[2], y0, x1, y1))]
    return [(box, part) for part, box in cut if part]


def _leader(text: str) -> bool:
    """Dot leaders: three dots or more and nothing else."""
    return text.count(".") + text.count("…") >= 3 and not text.strip(" .…")


def _style(spans: list[dict], styled: bool) -> tuple[float, bool, bool]:
    """A line's size (that of most of its characters, small capitals at the size of
    the capital they follow), whether it is all bold, all monospace."""
    if len(spans) == 1:  # most lines
        span = spans[0]
        return span["size"], styled and _bold(spans), styled and _mono(span)
    size = _most_set_in((_nominal_size(spans, n), len(s["text"])) for n, s in enumerate(spans))
    # a contents entry's dot leaders may come from another font than its bold title
    worded = [s for s in spans if not _leader(s["text"])] or spans
    bold = styled and _bold(worded)
    mono = styled and all(map(_mono, spans))
    return size, bold, mono


def _bold(spans: list[dict]) -> bool:
    """Is the line set bold: all of it, but for words in typewriter type, which LaTeX
    has no bold of (a bold paragraph's `\\texttt{quotation}`, a title's file name), so
    long as those are its lesser part? Read as not bold, the first line of a bold
    paragraph, alone bold, was a heading."""
    bold: list[dict] = []
    plain: list[dict] = []
    for s in spans:
        (bold if s["flags"] & 16 or _bold_font(s["font"]) else plain).append(s)
    if not bold or not plain:
        return not plain  # most lines: all bold, or none of it
    if any(map(_mono, bold)):
        return False  # a listing's keywords set bold: code, not a bold line
    return all(map(_mono, plain)) and 3 * sum(len(s["text"].strip()) for s in plain) <= sum(
        len(s["text"].strip()) for s in spans)


def _mono(span: dict) -> bool:
    return bool(span["flags"] & 8 or _mono_font(span["font"]))


@cache
def _bold_font(name: str) -> bool:
    return bool(_BOLD_FONT.search(name.rpartition("+")[2]))  # "ABCDEF+CMBX10": a subset


@cache
def _mono_font(name: str) -> bool:
    return bool(_MONO_FONT.search(name.rpartition("+")[2]))


def _most_set_in(sizes: Iterable[tuple[float, int]]) -> float:
    """The size most characters are set in, of (size, characters) pairs: a footnote
    mark or an index set small does not make a title line smaller than the title
    line above it, nor a heading beside its smaller number less of a heading."""
    weights: dict[float, int] = {}
    for size, chars in sizes:
        weights[size] = weights.get(size, 0) + chars
    return max(weights, key=weights.__getitem__)


def _nominal_size(spans: list[dict], n: int) -> float:
    """The size span `n` stands for: small capitals ("T" + "APAS", "T" + "ITLE") are
    capitals set smaller after a full-size capital, as lower case would be, and count
    at that capital's size, or a heading set in them would be taken for body text."""
    span = spans[n]
    if n == 0:
        return span["size"]
    before = spans[n - 1]
    text, previous = span["text"], before["text"]
    if (text[:1].isupper() and text.isupper() and previous[-1:].isupper()
            and 0.6 * before["size"] <= span["size"] < 0.9 * before["size"]):
        return before["size"]
    return span["size"]


def _written_down(piece: Piece) -> bool:
    return piece.box[3] - piece.box[1] > 1.6 * (piece.box[2] - piece.box[0])


def _in_line_with(piece: Piece, chains: list[list[Piece]]) -> bool:
    """Is `piece` right above or below a column (an item number set apart from it)?"""
    x, _ = centre(piece.box)
    width = piece.box[2] - piece.box[0]
    return any(len(chain) > 1 and abs(centre(chain[0].box)[0] - x) < 0.35 * width
               for chain in chains)


def _lines_from_chars(fragments: list[Piece], *, join_rows: bool = False) -> list[RawLine]:
    """Lines rebuilt from their characters; with `join_rows`, the fragments of a block
    that share a baseline joined into one line first."""
    lines: list[RawLine] = []
    rows: list[list[Piece]] = []
    for piece in sorted(fragments, key=lambda p: p.box[1]) if join_rows else fragments:
        if join_rows and rows and _same_row(rows[-1], piece):
            rows[-1].append(piece)
        else:
            rows.append([piece])
    for row in rows:
        size = _most_set_in((p.size, len(p.chars)) for p in row)
        bold, mono = (all(p.styled[i] for p in row) for i in (0, 1))
        for words in horizontal_lines([c for p in row for c in p.chars], size):
            lines.append(RawLine(union(b for b, _ in words), words, size, bold, mono))
    return lines


def _same_row(row: list[Piece], piece: Piece) -> bool:
    extent = union(p.box for p in row)
    # a row may hold fragments of two columns: `horizontal_lines` cuts it at the gutter
    return same_row(extent, piece.box)


def _word_count(lines: list[RawLine]) -> int:
    return sum(len(line.words) for line in lines)


def _outside(lines: list[RawLine], boxes: list[BBox]) -> list[RawLine]:
    """`lines` without their words inside any of `boxes` (a table's cells hold them)."""
    if not boxes:
        return lines
    out = []
    for line in lines:
        kept = [w for w in line.words if not any(holds_centre(b, w[0]) for b in boxes)]
        if len(kept) == len(line.words):
            out.append(line)
        elif kept:
            out.append(RawLine(union(b for b, _ in kept), kept, line.size, line.bold, line.mono,
                               line.horizontal))
    return out


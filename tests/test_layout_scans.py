"""The layout of scanned documents: pages with no text layer, read by OCR, where the
size and weight of the type come from the ink (`layout/ink.py`), not from fonts.

The documents are the ones a word processor exported (`bench/office_corpus.py`),
rasterised as a scanner would give them (`bench/scanned_corpus.py`): grey, slightly
blurred, fed a little crooked.
Scored against their groundtruth as the exported PDFs are (`bench/scores.py`)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import numpy
import pymupdf
import pytest
from conftest import _unavailable
from PIL import Image

from visualiser.layout import ink
from visualiser.layout.ocr import ocr_available
from visualiser.pipeline import chunk_report, process_pdf

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))
from office_corpus import DOCUMENTS, build  # noqa: E402
from scanned_corpus import scanned  # noqa: E402
from scores import structure  # noqa: E402

pytestmark = pytest.mark.skipif(not ocr_available(), reason="tesseract is not installed")
SCANNED = ("office_report", "office_regulation_3col", "office_handbook_2col",
           "office_transcript")


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> Path:
    _unavailable(None if shutil.which("soffice") else "soffice is not installed "
                 "(apt install libreoffice-writer-nogui)", "LibreOffice")
    out = tmp_path_factory.mktemp("exported")
    build([make() for make in DOCUMENTS if make().name in SCANNED], out)
    return out


@pytest.mark.parametrize("name, dpi, tilt", [
    ("office_report", 200, 0.4), ("office_regulation_3col", 200, -0.6),
    ("office_handbook_2col", 150, 0.8), ("office_transcript", 300, 0.0)])
def test_a_scanned_documents_headings_and_paragraphs(exported, name, dpi, tilt):
    """A scan's headings are found by their type, as a text layer's are: set larger,
    or bold at the body's size (a regulation's "§ 101.1 …", a report's "1 Initial
    Scholar", a transcript's "DIRECT EXAMINATION OF …"). Before the ink was measured
    a line's size was its box's height and nothing was bold: 0-44 % of these headings
    were found. The paragraphs stay whole on a crooked scan, its columns read
    straightened (a three-column page fed 0.6° askew), and in a column topped by a
    picture (the handbook's: unseen, the column beside it was read first, 0.94)."""
    data = scanned((exported / f"{name}.pdf").read_bytes(), dpi, tilt)
    chunks = chunk_report(process_pdf(data, f"{name}.pdf"), "structure_aware")["chunks"]
    headings, whole, order = structure((exported / f"{name}.md").read_text(encoding="utf-8"),
                                       chunks)
    assert headings == 1.0, headings
    assert whole == 1.0, whole
    assert order >= 0.95, order


def _lines_image(angle: float, columns: int = 1) -> numpy.ndarray:
    """A grey page of text lines in `columns`, turned `angle` degrees anticlockwise;
    the columns' baselines staggered by half a line, as a column of text beside a
    column that began under a heading would be."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    width = 475 / columns
    for column in range(columns):
        x = 60 + column * (width + 10)
        for n in range(45 - column):
            page.insert_text((x, 80 + 15 * n + 7.5 * column),
                             "the regional tenant audits the annual household"[:int(width / 5.5)],
                             fontsize=10)
    pix = page.get_pixmap(dpi=200, colorspace=pymupdf.csGRAY)
    image = Image.frombytes("L", (pix.width, pix.height), pix.samples)
    return numpy.asarray(image.rotate(angle, resample=Image.BICUBIC, fillcolor=255))


@pytest.mark.parametrize("angle", [-2.0, -0.6, 0.5, 1.2])
@pytest.mark.parametrize("columns", [1, 3])
def test_the_skew_of_a_scan_is_measured_from_its_lines(angle, columns):
    """Turned anticlockwise, a page's lines slope up to the right: a negative skew.
    Three columns whose baselines are staggered do not pull the angle towards a
    slope of their own (lined up across the page, they did)."""
    measured = ink.skew(_lines_image(angle, columns))
    assert measured == pytest.approx(-angle, abs=0.1 * max(1, abs(angle)))


def test_a_straight_page_and_a_blank_one_have_no_skew():
    assert ink.skew(_lines_image(0.0, 3)) == 0.0
    assert ink.skew(numpy.full((2200, 1700), 255, dtype=numpy.uint8)) == 0.0


def _word_ink(text: str, fontname: str, size: float
              ) -> tuple[list, float, numpy.ndarray, float]:
    """`text` set on a page and rendered at 200 dpi: each word's box (its glyphs'
    ink, as Tesseract boxes it, padded with white above and below), no line box, the
    image and its pixels per point (`ink.type_size`'s arguments)."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=200)
    page.insert_text((40, 100), text, fontname=fontname, fontsize=size)
    zoom = 200 / 72
    pix = page.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), colorspace=pymupdf.csGRAY)
    grey = numpy.frombuffer(pix.samples, numpy.uint8).reshape(pix.height, pix.width)
    words = [((x0, y0 - 4, x1, y1 + 4), word)
             for x0, y0, x1, y1, word, *_ in page.get_text("words")]
    return words, 0.0, grey, zoom


@pytest.mark.parametrize("text", ["minor reasons", "typing query", "Initial Scholar",
                                  "PART 101—EFFECTIVE JOURNAL", "the treatment"])
@pytest.mark.parametrize("fontname", ["tiro", "helv", "hebo", "cour"])
def test_a_line_s_size_is_the_same_whatever_its_letters_reach(text, fontname):
    """A heading of capitals, a line without descenders, one of x-height letters and
    t's: each reads as the size of a line of running text in its face, within 8 %
    (inside the margin that makes sizes one), where the height of its box said
    anything from two thirds of it to all of it."""
    body = ink.type_size(*_word_ink("the regional tenant audits the household", fontname, 12))
    words, _, grey, zoom = _word_ink(text, fontname, 12)
    assert ink.type_size(words, 0.0, grey, zoom) == pytest.approx(body, rel=ink.SAME_SIZE)


def test_bold_lines_are_told_by_their_strokes():
    """Helvetica Bold's stems are half again as thick as Helvetica's for its size: the
    bold line is bold among body lines, and no body line is."""
    strokes, sizes = [], []
    for fontname in ("helv", "helv", "helv", "hebo"):
        words, _, grey, zoom = _word_ink("the regional tenant audits the household", fontname, 11)
        strokes.append(ink.stroke(grey, [box for box, _ in words], zoom))
        sizes.append(ink.type_size(words, 0.0, grey, zoom))
    assert ink.bold_lines(strokes, sizes, [6, 6, 6, 6], zoom) == [False, False, False, True]


def test_a_paragraph_s_last_word_alone_on_its_line_is_its_paragraph_s_size():
    """Measured on one word, a line's size can be a fifth off (a tilted scan makes a
    long word taller): within its paragraph it takes the paragraph's size, and is no
    heading set larger. Two lines of a heading agree the same way."""
    sizes = ink.steady_sizes([10.0, 10.0, 10.0, 11.9, 14.0, 13.2, 10.0, 10.0, 10.0],
                             [9, 8, 9, 1, 3, 2, 8, 9, 9],
                             ["p", "p", "p", "p", "h", "h", "q", "q", "q"])
    assert sizes[3] == pytest.approx(10.0)
    assert sizes[4] == sizes[5] == pytest.approx(13.6)
    assert sizes[0] == sizes[6]  # one body size on the page


def test_a_scan_s_picture_is_found_and_its_text_and_rules_are_not():
    """A photo (a grey panel with a darker subject) is a picture; a paragraph, a ruled
    table's grid and a logo's few letters are not. (A column topped by an unseen
    picture was read as starting below the top of the column beside it.)"""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.draw_rect(pymupdf.Rect(60, 60, 280, 200), color=None, fill=(0.8, 0.8, 0.8))
    page.draw_rect(pymupdf.Rect(100, 90, 240, 170), color=None, fill=(0.4, 0.4, 0.4))
    page.insert_textbox(pymupdf.Rect(300, 60, 540, 400), TEXT * 3, fontname="tiro", fontsize=10)
    for n in range(6):  # a table's rules: a grid of hairlines
        page.draw_line((60, 450 + 20 * n), (540, 450 + 20 * n), width=0.5)
        page.draw_line((60 + 96 * n, 450), (60 + 96 * n, 550), width=0.5)
    page.insert_text((60, 700), "ACME", fontname="hebo", fontsize=14)
    zoom = 200 / 72
    pix = page.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), colorspace=pymupdf.csGRAY)
    grey = numpy.frombuffer(pix.samples, numpy.uint8).reshape(pix.height, pix.width)
    words = [tuple(w[:4]) for w in page.get_text("words")]
    found = ink.pictures(grey, words, zoom)
    assert len(found) == 1
    assert found[0] == pytest.approx((60, 60, 280, 200), abs=4)


TEXT = ("The regional tenant audits the annual household while the federal signal "
        "publishes the approximate utility against the specific manager. ")

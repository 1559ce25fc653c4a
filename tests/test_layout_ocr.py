"""OCR that says what it did: scans turned upright, boxes on the glyphs of the page
as shown, low confidence and missing language packs reported. Scans are made here:
text rendered to an image, turned, and placed on a page with no text layer."""

from __future__ import annotations

import os
from pathlib import Path

import numpy
import pymupdf
import pytest

from visualiser.layout import ocr
from visualiser.layout.build import build_layout
from visualiser.layout.engines import LayoutOptions
from visualiser.layout.ocr import installed_languages, ocr_available
from visualiser.layout.pages import read_page

pytestmark = pytest.mark.skipif(not ocr_available(), reason="tesseract is not installed")
CORPUS = Path(os.environ.get("VISUALISER_CORPUS")
              or Path(__file__).resolve().parents[1].parent / "shared" / "corpus")
DPI = 150
TITLE = "Warehouse Access Rules"
TEXT = ("Drivers should stay in the marked waiting area while "
        "their vehicle is loaded. Only staff with a valid access card may enter the racking "
        "aisles. Visitors sign in at the gatehouse and wear a high-visibility vest.")
CHINESE_TITLE = "第一章 商品"
CHINESE = ("现在我们进一步考察这个问题。一种特殊的商品，按各种极不相同的比例"
           "与别的商品交换。但是，它的交换价值，无论采用何种表现方式，都是同一的。")


def scan(source: pymupdf.Page, turn: int) -> tuple[pymupdf.Document, pymupdf.Matrix]:
    """`source` as a scan turned `turn` degrees clockwise: an image filling a page with
    no text layer. Also the matrix from `source` coordinates to the scan page's."""
    zoom = DPI / 72
    render = pymupdf.Matrix(zoom, zoom).prerotate(turn)
    pix = source.get_pixmap(matrix=render)
    x0, y0 = pix.irect[:2]
    doc = pymupdf.open()
    page = doc.new_page(width=pix.width / zoom, height=pix.height / zoom)
    page.insert_image(page.rect, stream=pix.tobytes("png"))
    to_scan = render * pymupdf.Matrix(1, 0, 0, 1, -x0, -y0) * pymupdf.Matrix(1 / zoom, 1 / zoom)
    return doc, to_scan


def text_page(title: str, text: str, fontname: str = "helv",
              fontsize: float = 16) -> pymupdf.Document:
    """A page with a title set large and a paragraph under it."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((60, 90), title, fontname=fontname, fontsize=fontsize * 1.8)
    page.insert_textbox(pymupdf.Rect(60, 120, 540, 600), text, fontname=fontname,
                        fontsize=fontsize)
    return doc


def shown(read, box) -> pymupdf.Rect:
    return pymupdf.Rect(box) * pymupdf.Matrix(*read.matrix)


@pytest.mark.parametrize("turn", [180, 90])
def test_a_turned_scan_is_read_upright_with_boxes_on_its_glyphs(turn):
    source = text_page(TITLE, TEXT)
    truth = [(w[4], pymupdf.Rect(w[:4])) for w in source[0].get_text("words")]
    doc, to_scan = scan(source[0], turn)
    read = read_page(doc[0], LayoutOptions())
    assert read.ocr
    words = [w for item in read.items for w in item.line.words]
    assert [t for _, t in words] == [t for t, _ in truth]
    shares = []
    for (box, text), (_, expected) in zip(words, truth, strict=True):
        glyphs = expected * to_scan  # where the word's glyphs are on the scan page
        got = shown(read, box)
        share = (got & glyphs).get_area() / got.get_area()  # of the OCR box on the glyphs
        assert share >= 0.6 and glyphs.contains((got.tl + got.br) / 2), (text, got, glyphs)
        shares.append(share)
    assert sorted(shares)[len(shares) // 2] >= 0.98  # Tesseract's boxes hug the ink
    assert any(f"turned {(360 - turn) % 360}°" in w for w in read.warnings), read.warnings
    layout = build_layout([read])
    assert layout.blocks[0].kind == "heading"  # the turned title is still a title


def test_a_sideways_scan_shown_upright_by_the_page_rotation_is_read_as_shown():
    """A scanner that stores the image sideways and sets /Rotate: the page as displayed
    is upright, nothing needs turning, boxes land on the displayed glyphs."""
    source = text_page(TITLE, TEXT)
    truth = [(w[4], pymupdf.Rect(w[:4])) for w in source[0].get_text("words")]
    doc, to_scan = scan(source[0], 90)
    doc[0].set_rotation(270)
    read = read_page(doc[0], LayoutOptions())
    assert read.rotation == 270 and not any("turned" in w for w in read.warnings)
    words = [w for item in read.items for w in item.line.words]
    assert [t for _, t in words] == [t for t, _ in truth]
    for (box, text), (_, expected) in zip(words, truth, strict=True):
        glyphs = expected * to_scan * doc[0].rotation_matrix
        got = shown(read, box)
        assert glyphs.contains((got.tl + got.br) / 2), (text, got, glyphs)


def test_an_upright_scan_is_not_turned_and_says_nothing():
    doc, _ = scan(text_page(TITLE, TEXT)[0], 0)
    read = read_page(doc[0], LayoutOptions())
    assert read.rotation == 0 and read.warnings == []


@pytest.fixture
def english_only(monkeypatch):
    """A machine whose Tesseract has only the English pack (and orientation
    detection): a Chinese scan cannot be read with the pack its script needs."""
    monkeypatch.setattr(ocr, "installed_languages", lambda: ("eng", "osd"))


def test_chinese_read_with_english_only_warns_and_makes_no_headings(english_only):
    doc, _ = scan(text_page(CHINESE_TITLE, CHINESE, fontname="china-s", fontsize=20)[0], 0)
    read = read_page(doc[0], LayoutOptions(ocr_lang="eng"))
    low = [w for w in read.warnings if "confidence is low" in w]
    assert low and "page 1" in low[0] and "--ocr-lang" in low[0], read.warnings
    layout = build_layout([read])
    assert layout.words  # the junk is kept, marked, not silently dropped
    assert not [b for b in layout.blocks if b.kind == "heading"]


@pytest.mark.skipif("chi_sim" not in installed_languages(),
                    reason="tesseract-ocr-chi-sim is not installed (.ci/run installs it)")
def test_chinese_read_with_its_language_pack_is_confident_and_unspaced():
    doc, _ = scan(text_page(CHINESE_TITLE, CHINESE, fontname="china-s", fontsize=20)[0], 0)
    read = read_page(doc[0], LayoutOptions(ocr_lang="chi_sim"))
    assert not any("confidence" in w for w in read.warnings), read.warnings
    text = "".join(t for item in read.items for _, t in item.line.words)
    assert "现在我们进一步考察这个问题" in text
    longest = max((t for item in read.items for _, t in item.line.words), key=len)
    assert len(longest) >= 8  # CJK characters joined into runs, not one word each


@pytest.mark.skipif("chi_sim" not in installed_languages(),
                    reason="tesseract-ocr-chi-sim is not installed (.ci/run installs it)")
def test_chinese_asked_to_be_read_as_english_is_read_with_its_script_s_pack():
    """English was asked for (the default) and reads the page as junk; orientation
    detection names its script, Han, and the Chinese pack is installed: the page is
    read with it, and a warning says so."""
    doc, _ = scan(text_page(CHINESE_TITLE, CHINESE, fontname="china-s", fontsize=20)[0], 0)
    read = read_page(doc[0], LayoutOptions(ocr_lang="eng"))
    said = [w for w in read.warnings if "read with chi_sim, not eng" in w]
    assert said and "Han" in said[0] and "page 1" in said[0], read.warnings
    assert not any("confidence is low" in w for w in read.warnings), read.warnings
    assert "现在我们进一步考察这个问题" in "".join(
        t for item in read.items for _, t in item.line.words)


def test_an_english_scan_is_read_with_english_alone():
    """A page English reads well is not read again with another pack."""
    doc, _ = scan(text_page(TITLE, TEXT)[0], 0)
    read = read_page(doc[0], LayoutOptions(ocr_lang="eng"))
    assert not any("read with" in w for w in read.warnings), read.warnings


def test_a_missing_language_pack_is_a_warning_listing_the_installed_ones():
    doc, _ = scan(text_page(TITLE, TEXT)[0], 0)
    read = read_page(doc[0], LayoutOptions(ocr_lang="eng+xyz"))
    missing = [w for w in read.warnings if "xyz" in w]
    assert missing and "not installed" in missing[0] and "eng" in missing[0].split(
        "Installed:")[1], read.warnings
    assert "Warehouse" in [t for item in read.items for _, t in item.line.words]
    alone = read_page(doc[0], LayoutOptions(ocr_lang="xyz"))
    assert any("read with eng instead" in w for w in alone.warnings), alone.warnings
    assert alone.items


def test_corpus_chinese_scan_with_english_only_is_flagged(english_only):
    path = CORPUS / "mineru__small_ocr.pdf"
    if not path.exists():
        pytest.skip(f"corpus file {path.name} not found in {CORPUS} (set VISUALISER_CORPUS)")
    with pymupdf.open(path) as doc:
        read = read_page(doc[1], LayoutOptions(ocr_lang="eng"))
    assert any("page 2" in w and "confidence is low" in w for w in read.warnings)
    assert all(item.role == "paragraph" for item in read.items)


@pytest.mark.skipif("ara" not in installed_languages(),
                    reason="tesseract-ocr-ara is not installed (.ci/run installs it)")
def test_an_upside_down_arabic_scan_reads_right_to_left_in_logical_order():
    """Two lines are too little for orientation detection; the scan reads badly as it
    lies, so OCR tries it the other ways round and keeps the upright read."""
    doc = pymupdf.open()
    page = doc.new_page()
    sentence = "تحقيق أربعة أهداف استراتيجية رئيسية للحكومة المصرية خلال الفترة القادمة"
    page.insert_htmlbox(pymupdf.Rect(50, 50, 545, 400),
                        f'<p dir="rtl" style="font-size:22px">{sentence}</p>')
    scanned, _ = scan(page, 180)
    read = read_page(scanned[0], LayoutOptions(ocr_lang="ara"))
    words = [t for item in read.items for _, t in item.line.words]
    assert words == sentence.split()
    assert any("turned 180°" in w for w in read.warnings), read.warnings
    first = read.items[0].line.words
    assert first[0][0][0] > first[1][0][0]  # the first word is the rightmost


def test_a_line_read_at_low_confidence_is_never_a_heading():
    """On a page that reads well as a whole, a line Tesseract read at low confidence
    (misread, its box stretched tall by the rule above it) is doubtful: it is kept,
    but never taken for a heading."""
    def row(line: str, left: int, text: str, conf: str, height: int = 40) -> dict[str, str]:
        return {"level": "5", "block_num": "1", "par_num": "1", "line_num": line,
                "left": str(left), "top": str(100 * int(line)), "width": "80",
                "height": str(height), "conf": conf, "text": text}
    rows = [row("1", 100, "内在的区从全", "31", height=176), row("1", 200, "也于是经对", "39", 176),
            row("2", 100, "现在我们进一步", "91"), row("2", 200, "考察这个问题。", "88")]
    blank = numpy.full((1000, 1000), 255, dtype=numpy.uint8)  # the page: no ink needed here
    lines, confidences, doubtful = ocr._lines(rows, 200 / 72, blank)
    assert len(lines) == 2 and doubtful == {0}
    assert confidences == [31.0, 39.0, 91.0, 88.0]


def test_a_doubtful_line_on_a_confident_page_heads_nothing(monkeypatch):
    from visualiser.layout import pages
    from visualiser.layout.items import RawLine

    def line(top: float, text: str, size: float) -> RawLine:
        words = [((72.0 + 60 * n, top, 120.0 + 60 * n, top + 1.2 * size), w)
                 for n, w in enumerate(text.split())]
        return RawLine((72.0, top, 72.0 + 60 * len(words), top + 1.2 * size), words,
                       size, False, False)

    body = [line(200 + 14 * n, "the annual tenant audits the regional household", 10)
            for n in range(12)]
    for doubtful, headings in ((set(), 1), ({0}, 0)):
        read = ocr.OcrPage([line(100, "Smudge Fold Shadow", 30), *body],
                           (1, 0, 0, 1, 0, 0), 612, 0, 80.0, "eng", doubtful=doubtful)
        monkeypatch.setattr(pages, "ocr_page", lambda page, options, read=read: read)
        doc, _ = scan(text_page(TITLE, TEXT)[0], 0)
        layout = build_layout([read_page(doc[0], LayoutOptions())])
        assert sum(b.kind == "heading" for b in layout.blocks) == headings, doubtful


def test_a_huge_page_is_rendered_for_ocr_at_a_bounded_size():
    """A letter page is read at 200 dpi; a page 200 inches square (the PDF limit) would
    be 1.6 billion pixels at that resolution, so it is read at what fits in forty
    million."""
    assert ocr.ocr_zoom(pymupdf.Rect(0, 0, 612, 792)) == pytest.approx(200 / 72)
    huge = pymupdf.Rect(0, 0, 14_400, 14_400)
    assert (14_400 * ocr.ocr_zoom(huge)) ** 2 <= ocr.MAX_PIXELS * 1.0001


def test_a_full_line_of_ocr_d_chinese_is_no_heading_however_tall(monkeypatch):
    """OCR'd Chinese: a body line whose box a speck stretched reads as larger type,
    and its words are unbroken runs the ten-word rule cannot count. Set across the
    whole measure, it is running text; a short line set larger is still a heading."""
    from visualiser.layout import pages
    from visualiser.layout.items import RawLine

    def line(top: float, text: str, size: float, width: float = 468.0) -> RawLine:
        box = (72.0, top, 72.0 + width, top + 1.2 * size)
        return RawLine(box, [(box, text)], size, False, False)

    body = [line(200 + 16 * n, "现在我们进一步考察这个问题而劳动生产力是由多种情况决定的", 11)
            for n in range(12)]
    running = line(100, "量的价格还赶不上巴西甘蔗种植园或咖啡种植园一年半乎均产量", 20)
    heading = line(100, "商品所体现的劳动的二重性", 20, width=240.0)
    for first, headings in ((running, 0), (heading, 1)):
        read = ocr.OcrPage([first, *body], (1, 0, 0, 1, 0, 0), 612, 0, 85.0, "chi_sim")
        monkeypatch.setattr(pages, "ocr_page", lambda page, options, read=read: read)
        doc, _ = scan(text_page(TITLE, TEXT)[0], 0)
        layout = build_layout([read_page(doc[0], LayoutOptions())])
        assert sum(b.kind == "heading" for b in layout.blocks) == headings, first.text


def test_a_scanned_book_s_running_heads_that_carry_the_page_number_are_left_out():
    """A book's running heads name its parts and chapters (the left-hand page's
    differs from the right-hand one's, and OCR reads each a little differently), so
    their text does not recur; the page number at their outer end, going up by one page
    by page, gives them away. Left in, they sit inside the sentence carried over each
    page break."""
    sentences = [
        "the exchange value of a thing is the quantity of other things it is given for and",
        "this proportion changes constantly with time and place so that exchange value",
        "appears to be something accidental and purely relative yet every commodity holds",
        "a value of its own which is what the labour spent on it makes of it in the end."]
    book = pymupdf.open()
    for n, sentence in enumerate(sentences):
        source = pymupdf.open()
        page = source.new_page(width=595, height=842)
        folio = str(12 + n)  # the book's page number: the scan starts inside it
        if n % 2 == 0:  # a left-hand page: its number at the left, the part's name
            page.insert_text((60, 60), folio, fontsize=11)
            page.insert_text((250, 60), "Part One  Commodities and Money", fontsize=11)
        else:  # a right-hand page: the chapter's name, its number at the right
            page.insert_text((200, 60), "Chapter One  Commodities", fontsize=11)
            page.insert_text((520, 60), folio, fontsize=11)
        page.insert_textbox(pymupdf.Rect(60, 100, 540, 400),
                            ("Value " if n == 0 else "") + sentence, fontsize=14)
        scanned, _ = scan(page, 0)
        book.insert_pdf(scanned)
    layout = build_layout([read_page(page, LayoutOptions(ocr_lang="eng")) for page in book])
    text = " ".join(layout.block_text(block) for block in layout.blocks)
    assert text == "Value " + " ".join(sentences)
    assert any("running header/footer lines" in w for w in layout.warnings)

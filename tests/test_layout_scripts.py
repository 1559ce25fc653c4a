"""Right-to-left lines, ligatures, CJK and vertical Japanese, on PDFs generated here
with PyMuPDF (and on the corpus files when present)."""

from __future__ import annotations

import os
import re
import unicodedata
from pathlib import Path

import pymupdf
import pytest

from visualiser.layout.build import build_layout
from visualiser.layout.items import Item, PageRead, RawLine
from visualiser.layout.pages import read_page
from visualiser.layout.scripts import (
    horizontal_lines,
    normalise,
    stretching_glyphs,
    with_stretching,
)
from visualiser.pipeline import chunk_report, process_pdf

DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
CORPUS = Path(os.environ.get("VISUALISER_CORPUS")
              or Path(__file__).resolve().parents[1].parent / "shared" / "corpus")
TOKEN = re.compile(r"[^\W_]+", re.UNICODE)


def corpus_file(name: str) -> Path:
    path = CORPUS / name
    if not path.exists():
        pytest.skip(f"corpus file {name} not found in {CORPUS} (set VISUALISER_CORPUS)")
    return path


def line_words(read) -> list[list[tuple[tuple[float, ...], str]]]:
    return [item.line.words for item in read.items if item.line is not None]


def inside(inner, outer, tolerance: float = 0.6) -> bool:
    return (inner[0] >= outer[0] - tolerance and inner[1] >= outer[1] - tolerance
            and inner[2] <= outer[2] + tolerance and inner[3] <= outer[3] + tolerance)


def glyph_boxes(page: pymupdf.Page) -> list[tuple[float, float, float, float]]:
    raw = page.get_text("rawdict", flags=pymupdf.TEXT_PRESERVE_LIGATURES)
    return [tuple(c["bbox"]) for b in raw["blocks"] for ln in b.get("lines", ())
            for s in ln["spans"] for c in s["chars"] if c["c"].strip()]


@pytest.fixture
def arabic_line_pdf():
    """One Arabic line set right to left, its words drawn in a scrambled content
    order (as producers do), with a number and a lam-alef ligature glyph (U+FEFB)."""
    if not Path(DEJAVU).exists():
        pytest.skip("DejaVu Sans (fonts-dejavu-core) is needed for the Arabic glyphs")
    logical = ["كتاب", "2024", "\ufefbعب", "جديد،"]
    font = pymupdf.Font(fontfile=DEJAVU)
    doc = pymupdf.open()
    page = doc.new_page(width=400, height=200)
    page.insert_font(fontname="dv", fontfile=DEJAVU)
    x, size, placed = 360.0, 16, []
    for word in logical:
        shown = word if word.isdigit() else word[::-1]  # glyphs left to right on the page
        width = font.text_length(shown, fontsize=size)
        placed.append((word, shown, x - width, width))
        x -= width + size * 0.5
    for n in (2, 0, 3, 1):
        _, shown, x0, _ = placed[n]
        page.insert_text((x0, 100), shown, fontname="dv", fontsize=size)
    yield doc, placed
    doc.close()


def test_arabic_line_reads_in_logical_order_with_ligatures_decomposed(arabic_line_pdf):
    doc, placed = arabic_line_pdf
    lines = line_words(read_page(doc[0]))
    assert len(lines) == 1, lines  # MuPDF's fragments of one baseline make one line
    texts = [text for _, text in lines[0]]
    assert texts == ["كتاب", "2024", "لاعب", "جديد،"]
    for (box, _), (_, _, x0, width) in zip(lines[0], placed, strict=True):
        assert box[0] == pytest.approx(x0, abs=0.5) and box[2] == pytest.approx(x0 + width,
                                                                                 abs=0.5)


def test_arabic_word_boxes_sit_on_their_glyphs(arabic_line_pdf):
    doc, _ = arabic_line_pdf
    glyphs = glyph_boxes(doc[0])
    for box, text in line_words(read_page(doc[0]))[0]:
        mine = [g for g in glyphs if inside(g, box)]
        assert len(mine) == len(text) - text.count("لا"), (text, box)  # ﻻ: 1 glyph, 2 letters


def test_latin_ligature_is_spelled_out_and_keeps_its_box():
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=100)
    page.insert_font(fontname="dv", fontfile=DEJAVU)
    page.insert_text((20, 50), "the \ufb01le is o\ufb00ered", fontname="dv", fontsize=14)
    raw = {w[4]: w[:4] for w in page.get_text("words", flags=pymupdf.TEXT_PRESERVE_LIGATURES)}
    words = line_words(read_page(doc[0]))[0]
    assert [t for _, t in words] == ["the", "file", "is", "offered"]
    assert words[1][0] == pytest.approx(raw["\ufb01le"], abs=0.01)


def test_normalise_touches_only_ligatures_and_presentation_forms():
    assert normalise("\ufefb") == "لا" and normalise("\ufb01") == "fi"
    assert normalise("x² ½ ＡＢ") == "x² ½ ＡＢ"  # full NFKC would rewrite these


def test_cjk_without_spaces_is_cut_at_the_gutter():
    """Two columns of Japanese half an em apart: PyMuPDF reads one word across both
    (CJK has no spaces to split at); ours stop at the gap, each box on its own glyphs."""
    doc = pymupdf.open()
    page = doc.new_page(width=420, height=200)
    left, right = "道路交通法施行令の一部", "内閣は道路交通法の一部"
    page.insert_text((20, 60), left, fontname="china-s", fontsize=14)
    gutter_x = 20 + pymupdf.Font("china-s").text_length(left, fontsize=14)
    page.insert_text((gutter_x + 8, 60), right, fontname="china-s", fontsize=14)
    assert len(page.get_text("words")) == 1  # PyMuPDF's own words: one giant word
    words = [w for line in line_words(read_page(doc[0])) for w in line]
    assert [t for _, t in words] == [left, right]
    assert words[0][0][2] <= gutter_x + 0.5 and words[1][0][0] >= gutter_x + 7.5


def test_vertical_columns_read_top_to_bottom_right_to_left():
    """Vertical Japanese as producers write it: one character at a time, columns from
    the right. The layout reads each column down, the right column first."""
    columns = ["政令第百四十九号", "道路交通法施行令", "内閣は改正する"]
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=300)
    size = 12
    for n, column in enumerate(columns):
        x = 250 - n * 20
        for k, char in enumerate(column):
            page.insert_text((x, 40 + k * size), char, fontname="china-s", fontsize=size)
    read = read_page(doc[0])
    texts = ["".join(t for _, t in line) for line in line_words(read)]
    assert texts == columns
    glyphs = glyph_boxes(doc[0])
    for line in line_words(read):
        for box, _ in line:  # one glyph per word, its box on it
            assert sum(inside(g, box) for g in glyphs) == 1


def test_corpus_arabic_page_reads_in_order_with_whole_ligatures():
    pdf = corpus_file("docling__right_to_left_02.pdf")
    md = pdf.with_suffix(".md").read_text(encoding="utf-8")
    truth = [t.lower() for t in TOKEN.findall(md)]
    pairs = set(zip(truth, truth[1:], strict=False))
    with pymupdf.open(pdf) as doc:
        read = read_page(doc[0])
    words = [t for line in line_words(read) for _, t in line]
    assert "الإنسخن" in words and "وعليه،" in words  # lam-alef whole, comma at the end
    assert not any(w.startswith(("اإل", "األ")) for w in words)  # the broken ligature order
    tokens = [t.lower() for w in words for t in TOKEN.findall(w)]
    in_order = sum(p in pairs for p in zip(tokens, tokens[1:], strict=False)) / (len(tokens) - 1)
    # 0.67 in PyMuPDF's own word order, 0.77 with the lines in reading order, 0.88 with
    # the stretching glyphs MuPDF drops as overprint put back (this PDF's font maps its
    # kashidas to a letter, which Docling keeps). The rest: word breaks Docling reads
    # differently, and the labels of its diagram, which are not in the .md.
    assert in_order >= 0.85, in_order


def _markdown_of(draw) -> str:
    doc = pymupdf.open()
    draw(doc.new_page(width=300, height=300))
    return process_pdf(doc.tobytes(), "cjk.pdf").source.text


def test_chinese_and_japanese_text_has_no_spaces_between_lines_or_down_a_column():
    """Han and kana are written without spaces: a paragraph wrapped over two lines and
    a vertical column (one word per character) read as unbroken text, while a space
    the page sets inside a line stays, and so do spaces in Korean, which has them."""
    def horizontal(page):
        page.insert_text((20, 60), "道路交通法施行令の一部を", fontname="japan", fontsize=12)
        page.insert_text((20, 76), "改正する政令 第一条", fontname="japan", fontsize=12)

    def vertical(page):
        for k, char in enumerate("内閣は、改正する"):
            page.insert_text((250, 40 + k * 12), char, fontname="japan", fontsize=12)

    def korean(page):
        page.insert_text((20, 60), "이 문서는 한국어로", fontname="korea", fontsize=12)
        page.insert_text((20, 76), "작성되었습니다", fontname="korea", fontsize=12)

    assert "道路交通法施行令の一部を改正する政令 第一条" in _markdown_of(horizontal)
    assert "内閣は、改正する" in _markdown_of(vertical)
    assert "이 문서는 한국어로 작성되었습니다" in _markdown_of(korean)


def test_corpus_vertical_japanese_reads_in_columns():
    pdf = corpus_file("pdfminer__kampo.pdf")
    with pymupdf.open(pdf) as doc:
        read = read_page(doc[0])
        glyphs = glyph_boxes(doc[0])
    layout = build_layout([read])
    text = "".join(w.text for w in layout.words)
    assert "政令第百四十九号" in text
    assert "道路交通法施行令の一部を改正する政令" in text
    assert not any(b.kind == "table" for b in layout.blocks)  # frames of vertical text
    lines = line_words(read)
    for line in lines:
        for box, word in line:
            assert sum(inside(g, box, 0.8) for g in glyphs) >= len(word), (word, box)


@pytest.mark.parametrize("logical, visual", [
    ("كتاب جديد", "ديدج باتك"),
    ("كتاب PDF جديد", "ديدج PDF باتك"),  # a left-to-right word inside keeps its order
    ("سعر 2.5 دولار،", "،رالود 2.5 رعس"),  # digits with their separator; comma at the end
    ("the word كتاب here", "the word باتك here"),  # an Arabic word in an English line
    # after an Arabic letter digits are an Arabic number: the % is not part of it and
    # renderers set it on the number's left
    ("النمو 5.5% في", "يف %5.5 ومنلا"),
    ("كتاب price 5.5% here", "باتك price 5.5% here"),  # in English the % stays with it
    ("في عام 2024.", ".2024 ماع يف"),  # the full stop ends the sentence, touching the digits
    # brackets: some producers map the mirrored glyph to its own character, some back
    # to the one typed; both read as typed
    ("كتاب (مثال) جديد", "ديدج (لاثم) باتك"),
    ("كتاب (مثال) جديد", "ديدج )لاثم( باتك"),
    ("الفترة (2024 - 2026) الآن", "نآلا (2026 - 2024) ةرتفلا"),
])
def test_bidi_turns_visual_order_back_into_reading_order(logical, visual):
    chars = [((10.0 * n, 0.0, 10.0 * n + 9.0, 12.0), c) for n, c in enumerate(visual)]
    chars.reverse()  # the content stream's order must not matter
    lines = horizontal_lines(chars, 12.0)
    assert [" ".join(t for _, t in line) for line in lines] == [logical]


def test_a_space_of_arabic_in_logical_order_parts_the_words_where_it_is_written():
    """LuaTeX writes vocalised Arabic in logical order and MuPDF boxes each space as if
    the pen moved right from the letter before it: over that word's last letters.
    Sorted by position, the space fell inside the word ("دَجَاجَ ةُ أَ بِي")."""
    chars, x = [], 400.0
    for word in ("دَجَاجَةُ", "أَبِي"):
        for c in word:
            if unicodedata.category(c) == "Mn":  # a vowel mark: zero width, on its letter
                chars.append(((x, 0.0, x, 12.0), c))
                continue
            x -= 6.0
            chars.append(((x, 0.0, x + 6.0, 12.0), c))
        chars.append(((x + 3.0, 0.0, x + 9.0, 12.0), " "))  # the space, boxed rightwards
        x -= 4.0  # the gap it makes, left of the word
    lines = horizontal_lines(chars[:-1], 12.0)
    assert [" ".join(t for _, t in line) for line in lines] == ["دَجَاجَةُ أَبِي"]

def _trace_char(c: str, x: float, width: float) -> tuple:
    """One glyph as `page.get_texttrace()` reports it: (unicode, glyph, origin, bbox)."""
    return (ord(c), 0, (x, 100.0), (x, 90.0, x + width, 102.0))


def test_a_stretching_glyph_mupdf_drops_is_put_back_but_not_an_overstrike():
    size = 13.0
    span = {"size": size, "chars": [
        _trace_char("ص", 120.0, 9.0),
        _trace_char("و", 118.5, 1.5),
        _trace_char("و", 117.6, 1.5),  # moved on by 0.9 of its 1.5: a stretch, ink of its own
        _trace_char("ة", 111.0, 6.5),
        _trace_char("و", 105.0, 1.5),
        _trace_char("و", 104.8, 1.5),  # 0.2 on: lands on its twin, an overstrike
    ]}
    latin = {"size": size, "chars": [_trace_char("o", 50.0, 6.0), _trace_char("o", 50.5, 6.0)]}
    restored = stretching_glyphs([span, latin])
    assert restored == [((117.6, 90.0, 119.1, 102.0), "و")]
    # MuPDF's characters of the line: the twin kept, the stretch dropped
    line = [((120.0, 90.0, 129.0, 102.0), "ص"), ((118.5, 90.0, 120.0, 102.0), "و"),
            ((111.0, 90.0, 117.5, 102.0), "ة")]
    assert [c for _, c in with_stretching(line, restored)] == ["ص", "و", "و", "ة"]
    elsewhere = [((20.0, 300.0, 30.0, 312.0), "و")]  # a glyph of another line is untouched
    assert with_stretching(elsewhere, restored) == elsewhere


def _arabic_page(draw) -> bytes:  # type: ignore[no-untyped-def]
    """A page of Arabic set by MuPDF's HTML engine (HarfBuzz shaping, bidi, mirrored
    brackets, presentation forms and lam-alef ligature glyphs in the text layer), as
    a word processor writes it."""
    if not Path(DEJAVU).exists():
        pytest.skip("DejaVu Sans (fonts-dejavu-core) is needed for the Arabic glyphs")
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    draw(page, pymupdf.Archive(str(Path(DEJAVU).parent)))
    data = doc.tobytes()
    doc.close()
    return data


_ARABIC_CSS = ("@font-face {font-family: dv; src: url(DejaVuSans.ttf);} "
               "* {font-family: dv; font-size: 11pt;} h2 {font-size: 16pt;}")
_INTRO = ("تعتبر البرمجة بلغة R و Python من الأدوات القوية التي يمكن أن تعزز الإنتاجية "
          "وتساعد في إيجاد حلول فعالة للمشكلات المعقدة في العمل اليومي، مما يسهل على "
          "المحللين والعلماء إجراء تحليلات معقدة بطريقة سريعة وفعالة.")
_GROWTH = ("بلغت نسبة النمو 5.5% في الفترة (2024 - 2026) حسب التقرير رقم 17، وهي نسبة "
           "جيدة جداً مقارنة بالفترات السابقة التي لم تتجاوز فيها النسبة 3.1% في المتوسط.")
_CLOSING = ("في النهاية، يمكن أن تؤدي البرمجة مع عقلية تحليلية إلى تحسين الإنتاجية وتوفير "
            "حلول مبتكرة للمشكلات المعقدة على المدى البعيد، وهذا ما تؤكده التجارب العملية.")


def _chunks(data: bytes) -> list[dict]:
    return chunk_report(process_pdf(data, "arabic.pdf"), "structure_aware")["chunks"]


def test_arabic_two_column_page_reads_right_column_first_in_whole_paragraphs():
    """Two columns of Arabic: the right one is read first, each paragraph whole, its
    lines top to bottom and every line's fragments (a Latin name, a number, brackets)
    in reading order, with the lam-alef ligatures whole."""
    def draw(page, archive):
        right = f'<h2 dir="rtl">المقدمة</h2><p dir="rtl">{_INTRO}</p><p dir="rtl">{_GROWTH}</p>'
        left = f'<h2 dir="rtl">الخاتمة</h2><p dir="rtl">{_CLOSING}</p>'
        page.insert_htmlbox(pymupdf.Rect(310, 60, 540, 700), right, css=_ARABIC_CSS,
                            archive=archive)
        page.insert_htmlbox(pymupdf.Rect(55, 60, 285, 700), left, css=_ARABIC_CSS,
                            archive=archive)
    chunks = _chunks(_arabic_page(draw))
    text = "\n".join(c["text"] for c in chunks)
    for paragraph in (_INTRO, _GROWTH, _CLOSING):
        assert any(paragraph in c["text"] for c in chunks), paragraph
    assert text.index(_INTRO) < text.index(_GROWTH) < text.index(_CLOSING)
    assert [c["heading_path"] for c in chunks if _CLOSING in c["text"]] == [["الخاتمة"]]
    assert [c["heading_path"] for c in chunks if _INTRO in c["text"]] == [["المقدمة"]]
    assert "اإل" not in text and "األ" not in text  # lam-alef read in its letters' order


def test_arabic_words_keep_boxes_on_their_glyphs():
    def draw(page, archive):
        page.insert_htmlbox(pymupdf.Rect(60, 60, 535, 400), f'<p dir="rtl">{_GROWTH}</p>',
                            css=_ARABIC_CSS, archive=archive)
    data = _arabic_page(draw)
    with pymupdf.open(stream=data, filetype="pdf") as doc:
        glyphs = glyph_boxes(doc[0])
        words = [w for line in line_words(read_page(doc[0])) for w in line]
    assert " ".join(t for _, t in words) == _GROWTH
    for box, text in words:
        letters = len(text) - text.count("لا") - text.count("لأ")  # one glyph, two letters
        assert sum(inside(g, box) for g in glyphs) == letters, (text, box)


def test_arabic_form_rows_read_label_first_from_the_right():
    """A form written right to left, each value (on the left) drawn before its label
    (on the right): each row reads from the right, the label before its value."""
    rows = [("شماره استاندارد ملی", "20300"), ("تاريخ پذيرش", "1403/10/04"),
            ("مشاور پذيرش", "کارگزاری آرمون بورس")]

    def draw(page, archive):
        for n, (label, value) in enumerate(rows):
            y = 100 + 30 * n
            page.insert_htmlbox(pymupdf.Rect(60, y, 250, y + 20), f'<p dir="rtl">{value}</p>',
                                css=_ARABIC_CSS, archive=archive)
            page.insert_htmlbox(pymupdf.Rect(330, y, 535, y + 20),
                                f'<p dir="rtl">{label}</p>', css=_ARABIC_CSS, archive=archive)
    text = " ".join(c["text"] for c in _chunks(_arabic_page(draw))).split()
    assert text == " ".join(f"{label} {value}" for label, value in rows).split()


def test_arabic_paragraph_across_a_page_break_is_one_paragraph():
    """Arabic has no lower case to tell that a sentence goes on over a page break:
    a page that ends without a full stop is carried on by the next page's text."""
    if not Path(DEJAVU).exists():
        pytest.skip("DejaVu Sans (fonts-dejavu-core) is needed for the Arabic glyphs")
    archive = pymupdf.Archive(str(Path(DEJAVU).parent))
    first = _CLOSING[:60].rsplit(" ", 1)[0]  # the sentence cut at a word, no full stop
    rest = _CLOSING[len(first) + 1:]
    doc = pymupdf.open()
    for part in (f"{_INTRO} {first}", rest):
        page = doc.new_page(width=595, height=842)
        page.insert_htmlbox(pymupdf.Rect(60, 700, 535, 800), f'<p dir="rtl">{part}</p>',
                            css=_ARABIC_CSS, archive=archive)
    data = doc.tobytes()
    doc.close()
    assert any(_CLOSING in c["text"] for c in _chunks(data))
    markdown = process_pdf(data, "two.pdf").source.text
    assert f"{_INTRO} {_CLOSING}" in markdown  # one paragraph, not two


def test_arabic_paragraphs_set_apart_by_an_indent_on_the_right_are_paragraphs():
    """Justified Arabic paragraphs with no space between them, each first line indented
    from the right margin: each is a paragraph of its own, whole."""
    css = _ARABIC_CSS + " p {margin: 0; text-indent: 2em; text-align: justify;}"

    def draw(page, archive):
        html = "".join(f'<p dir="rtl">{text}</p>' for text in (_INTRO, _GROWTH, _CLOSING))
        page.insert_htmlbox(pymupdf.Rect(60, 60, 300, 700), html, css=css, archive=archive)
    text = process_pdf(_arabic_page(draw), "arabic.pdf").source.text
    paragraphs = [" ".join(block.split()) for block in text.split("\n\n") if block.strip()]
    assert paragraphs == [_INTRO, _GROWTH, _CLOSING]


def test_a_chinese_line_with_a_full_stop_or_comma_is_no_heading_however_tall():
    """An OCR'd line's size is its box's height, which a speck inflates: Chinese body
    lines set a little taller than the rest came out as headings. A Chinese or
    Japanese heading holds no full stop and no full-width comma; a taller line that
    does is a sentence, and a title without them is still a heading."""
    body = "价值首先表现为量的关系表现为不同种使用价值彼此相交换的比例"
    texts = [(14.0, "2 商品所体现的劳动的二重性"), (10.0, body), (10.0, body),
             (13.0, "尺度之所以不同，部分是由于被计量的物的性质不同"), (10.0, body),
             (13.0, "承担者。"), (10.0, body), (10.0, body)]
    items, top = [], 60.0
    for size, text in texts:
        box = (60.0, top, 60.0 + size * len(text), top + size * 1.2)
        items.append(Item("line", box, line=RawLine(box, [(box, text)], size, False, False)))
        top += size * 1.2 + 4
    layout = build_layout([PageRead(1, 612, 792, 0, (1, 0, 0, 1, 0, 0), items)])
    kinds = {layout.block_text(b): b.kind for b in layout.blocks}
    assert kinds["2 商品所体现的劳动的二重性"] == "heading", kinds
    assert not any(kind == "heading" and ("，" in text or "。" in text)
                   for text, kind in kinds.items()), kinds


def test_arabic_labels_side_by_side_read_label_by_label_from_the_right():
    """A row of a diagram's labels on a page written right to left, each on two lines
    (the steps of a government programme): read label by label from the right, not
    row by row across the four."""
    labels = [("بناء", "الإنسان المصري"), ("بناء اقتصاد", "تنافسي"),
              ("حماية الأمن", "القومي المصري"), ("تحقيق الاستقرار", "السياسي")]

    def draw(page, archive):
        page.insert_htmlbox(pymupdf.Rect(60, 60, 535, 200), f'<p dir="rtl">{_INTRO}</p>',
                            css=_ARABIC_CSS, archive=archive)
        for n, (first, second) in enumerate(labels):  # the first label at the right
            x1 = 535 - 120 * n
            page.insert_htmlbox(pymupdf.Rect(x1 - 100, 250, x1, 290),
                                f'<p dir="rtl">{first}<br/>{second}</p>',
                                css=_ARABIC_CSS, archive=archive)
        page.insert_htmlbox(pymupdf.Rect(60, 320, 535, 500), f'<p dir="rtl">{_CLOSING}</p>',
                            css=_ARABIC_CSS, archive=archive)
    data = _arabic_page(draw)
    text = " ".join(" ".join(c["text"] for c in _chunks(data)).split())
    wholes = [text.find(f"{first} {second}") for first, second in labels]
    assert all(at >= 0 for at in wholes), text
    assert wholes == sorted(wholes), text
    assert text.index(_INTRO) < wholes[0] and wholes[-1] < text.index(_CLOSING)
    # each label a paragraph of its own: no full stop ends one, but the next stands
    # beside it, not under it, so no sentence is carried from one into the next
    markdown = process_pdf(data, "labels.pdf").source.text
    paragraphs = [" ".join(b.split()) for b in markdown.split("\n\n") if b.strip()]
    assert [f"{first} {second}" for first, second in labels] == paragraphs[1:5], paragraphs


def test_arabic_text_after_a_wide_blank_is_no_carried_sentence():
    """Arabic has no lower case, so only a missing full stop says that a sentence goes
    on. Below a blank of several lines it does not: the next paragraph is its own, not
    the rest of the line above it (a diagram's labels, a page number over the text)."""
    labels = "بناء الإنسان المصري بناء اقتصاد تنافسي"  # no full stop at its end

    def draw(page, archive):
        page.insert_htmlbox(pymupdf.Rect(60, 60, 535, 200), f'<p dir="rtl">{_INTRO}</p>',
                            css=_ARABIC_CSS, archive=archive)
        page.insert_htmlbox(pymupdf.Rect(60, 250, 535, 280), f'<p dir="rtl">{labels}</p>',
                            css=_ARABIC_CSS, archive=archive)
        page.insert_htmlbox(pymupdf.Rect(60, 330, 535, 500), f'<p dir="rtl">{_CLOSING}</p>',
                            css=_ARABIC_CSS, archive=archive)
    text = process_pdf(_arabic_page(draw), "arabic.pdf").source.text
    paragraphs = [" ".join(block.split()) for block in text.split("\n\n") if block.strip()]
    assert paragraphs == [_INTRO, labels, _CLOSING]

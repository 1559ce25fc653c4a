"""One small generated PDF per layout rule: columns, bands, headings, notes,
paragraphs across breaks, hyphenation, monospace text, honest chunk types."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from visualiser.geometry import union
from visualiser.layout.headings import is_date
from visualiser.layout.model import Block, Layout, Line, Page, Word
from visualiser.markdown import build_markdown
from visualiser.pipeline import chunk_report, process_pdf
from visualiser.strategies import get_strategy

DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
LOREM = ("the committee shall review every application within thirty days and publish "
         "its reasons together with the supporting data in the docket ")


def _pdf(draw) -> bytes:  # type: ignore[no-untyped-def]
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    draw(page)
    data = doc.tobytes()
    doc.close()
    return data


def _column(page: pymupdf.Page, x0: float, x1: float, top: float, bottom: float,
            text: str, size: float = 10, font: str = "helv",
            align: int = pymupdf.TEXT_ALIGN_LEFT) -> None:
    left = page.insert_textbox(pymupdf.Rect(x0, top, x1, bottom), text, fontsize=size,
                               fontname=font, align=align)
    assert left >= 0, "the text must fit its box"


def _sections(page: pymupdf.Page, titles: list[str], top: float) -> None:
    """Numbered sections under a title block: each title in bold, prose under it."""
    for n, title in enumerate(titles):
        y = top + 240 * n
        page.insert_text((72, y), title, fontsize=14, fontname="hebo")
        _column(page, 72, 520, y + 10, y + 210, LOREM * 6)


def _words(marker: str, n: int) -> str:
    return " ".join(f"{marker}{i}" for i in range(n))


def _positions(text: str, marker: str) -> list[int]:
    return [i for i, word in enumerate(text.split()) if word.startswith(marker)]


def test_three_columns_are_read_one_after_another():
    def draw(page):
        for marker, x in (("apple", 40), ("birch", 230), ("cedar", 420)):
            _column(page, x, x + 170, 60, 700, _words(marker, 120))
    text = process_pdf(_pdf(draw), "three.pdf").source.text
    a, b, c = (_positions(text, m) for m in ("apple", "birch", "cedar"))
    assert len(a) == len(b) == len(c) == 120
    assert max(a) < min(b) and max(b) < min(c)
    assert [text.split()[i] for i in a] == [f"apple{i}" for i in range(120)]


def test_a_band_switching_from_one_to_two_columns_is_read_band_by_band():
    def draw(page):
        _column(page, 40, 572, 40, 140, _words("intro", 60))
        _column(page, 40, 296, 160, 600, _words("left", 150))
        _column(page, 316, 572, 160, 600, _words("right", 150))
        _column(page, 40, 572, 620, 740, _words("outro", 60))
    text = process_pdf(_pdf(draw), "bands.pdf").source.text
    spans = [_positions(text, m) for m in ("intro", "left", "right", "outro")]
    assert all(spans)
    for before, after in zip(spans, spans[1:], strict=False):
        assert max(before) < min(after)


def test_rows_of_short_cells_are_read_row_by_row():
    def draw(page):
        for n in range(12):
            y = 80 + 20 * n
            page.insert_text((72, y), f"Storage topic number{n}", fontsize=10)
            page.insert_text((480, y), f"p{3 + 7 * n}", fontsize=10)
    words = process_pdf(_pdf(draw), "contents.pdf").source.text.split()
    read = [w for w in words if w.startswith(("number", "p"))]
    assert read == [x for n in range(12) for x in (f"number{n}", f"p{3 + 7 * n}")]


def test_a_contents_page_in_two_columns_is_read_column_by_column():
    # a handbook's contents in two columns of entries, each with dot leaders to its
    # page number, on one line grid: read as rows, the two columns' entries alternated
    titles = ["Abomination", "Bear", "Corpse", "Deepstalker", "Golem"]  # short entries

    def draw(page):
        for n in range(20):
            y = 80 + 14 * n
            for x, side in ((57, "left"), (328, "right")):
                title = f"{side}{n}-{titles[n % len(titles)]}"
                end = x + pymupdf.get_text_length(title, fontsize=10)
                page.insert_text((x, y), title, fontsize=10)
                dots = int((x + 205 - end) / pymupdf.get_text_length(".", fontsize=10))
                page.insert_text((end, y), "." * dots, fontsize=10)
                page.insert_text((x + 208, y), str(3 + n), fontsize=10)
    words = process_pdf(_pdf(draw), "contents.pdf").source.text.split()
    read = [w.split("-")[0] for w in words if w.startswith(("left", "right"))]
    assert read == [f"left{n}" for n in range(20)] + [f"right{n}" for n in range(20)]


def _headings(data: bytes) -> list[tuple[int, str]]:
    doc = process_pdf(data, "h.pdf")
    return [(b.level, b.heading) for b in doc.source.blocks if b.kind == "heading"]


def test_a_section_number_set_apart_joins_its_title():
    def draw(page):
        page.insert_text((72, 80), "5.1", fontsize=14, fontname="hebo")
        page.insert_text((110, 80), "Hyper Parameter Optimization", fontsize=14,
                         fontname="hebo")
        _column(page, 72, 540, 95, 200, LOREM * 4)
        page.insert_text((72, 230), "2.", fontsize=14, fontname="hebo")
        page.insert_text((72, 250), "Overview", fontsize=14, fontname="hebo")
        _column(page, 72, 540, 265, 400, LOREM * 4)
    headings = [text for _, text in _headings(_pdf(draw))]
    assert "5.1 Hyper Parameter Optimization" in headings
    assert "2. Overview" in headings
    assert "2." not in headings and "5.1" not in headings


def test_a_heading_whose_words_begin_with_table_or_schedule_is_no_caption():
    # a caption's label is a number, a letter or a roman numeral ("Table 2", "Exhibit
    # B"); a heading's word is none: "3 TABLEFORMER: Robust Structural" / "Table
    # Encoding" (TableFormer's section 3) lost its second line, "Schedule of Fees" was
    # no heading
    def draw(page):
        page.insert_text((72, 80), "3 Robust Structural", fontsize=14, fontname="hebo")
        page.insert_text((72, 96), "Table Encoding", fontsize=14, fontname="hebo")
        _column(page, 72, 540, 110, 220, LOREM * 4)
        page.insert_text((72, 250), "Schedule of Fees", fontsize=14, fontname="hebo")
        _column(page, 72, 540, 265, 400, LOREM * 4)
        page.insert_text((72, 430), "Table 2: Fees by year", fontsize=10)
        _column(page, 72, 540, 445, 560, LOREM * 3)
    headings = [text for _, text in _headings(_pdf(draw))]
    assert headings == ["3 Robust Structural Table Encoding", "Schedule of Fees"]


def test_a_callout_number_on_the_picture_above_a_heading_is_not_its_number():
    """A manual numbers the parts of its photos ("3" in a circle by the card's zone);
    a heading under the photo is no section 3 ("3 Hands-free unlocking")."""
    def draw(page):
        _picture(page, pymupdf.Rect(72, 60, 260, 200))
        page.draw_circle((150, 212), 8, color=(0, 0, 0))  # on the photo's lower edge
        page.insert_text((146, 216), "3", fontsize=10, fontname="hebo")
        page.insert_text((72, 290), "Hands-free unlocking", fontsize=12, fontname="hebo")
        _column(page, 72, 260, 300, 450, LOREM * 2, size=9)
    headings = [text for _, text in _headings(_pdf(draw))]
    assert headings == ["Hands-free unlocking"]


def test_a_page_number_at_the_end_of_a_contents_line_is_no_section_number():
    # KOMA-Script's contents: bold entries with their page number at the right margin
    # and no leaders; "1" was taken as the number of the next entry ("1 A. Overview")
    def draw(page):
        page.insert_text((72, 60), "Contents", fontsize=16, fontname="hebo")
        for n, (title, number) in enumerate((("Preamble", "1"), ("A. Overview", "2"),
                                             ("B. Membership", "3"))):
            page.insert_text((72, 90 + 22 * n), title, fontsize=10, fontname="hebo")
            page.insert_text((530, 90 + 22 * n), number, fontsize=10, fontname="hebo")
        _column(page, 72, 540, 170, 300, LOREM * 4)
    text = process_pdf(_pdf(draw), "contents.pdf").source.text
    for title in ("A. Overview", "B. Membership"):
        assert title in text
        assert f"1 {title}" not in text and f"2 {title}" not in text


def test_a_bold_contents_entry_over_two_lines_is_no_heading():
    # web2c's contents: a bold chapter entry wraps, its dot leaders set in roman; the
    # first line was taken as a heading "4 Three programs: Metafont,"
    def draw(page):
        page.insert_text((72, 60), "Contents", fontsize=16, fontname="hebo")
        page.insert_htmlbox(pymupdf.Rect(72, 78, 540, 130), (
            "<p style='font-size:12px;margin:0'><b>4 Three programs: Metafont,</b><br>"
            "<b>MetaPost, and TeX</b> . . . . . . . . . . . . . . . . <b>11</b></p>"))
        _column(page, 72, 540, 140, 300, LOREM * 4)
    data = _pdf(draw)
    headings = [text for _, text in _headings(data)]
    assert headings == ["Contents"]
    assert "Metafont, MetaPost, and TeX" in process_pdf(data, "toc.pdf").source.text


def test_a_papers_contents_end_at_its_first_paragraph_of_prose():
    # aomart's contents: entries in bold, a size below "Contents", and sections set in
    # a type no heading is read in. Nothing ended the contents, so every subsection of
    # the paper that a formula (not prose) follows was taken for one of its entries.
    def draw(page):
        page.insert_text((72, 60), "Field Survey Methods", fontsize=20, fontname="hebo")
        page.insert_text((72, 100), "Contents", fontsize=14, fontname="hebo")
        page.insert_text((72, 125), "1 Overview", fontsize=12, fontname="hebo")
        page.insert_text((72, 145), "2 Worked Examples", fontsize=12, fontname="hebo")
        page.insert_text((72, 175), "Keywords: survey, transects", fontsize=10)
        _column(page, 72, 540, 190, 290, LOREM * 4)
        page.insert_text((72, 320), "2.1 A Transect Count", fontsize=12, fontname="hebo")
        page.insert_text((200, 345), "n = a + b", fontsize=10)
        _column(page, 72, 540, 360, 460, LOREM * 4)
    assert [text for _, text in _headings(_pdf(draw))] == [
        "Field Survey Methods", "Contents", "2.1 A Transect Count"]


def test_bold_capitals_and_legal_divisions_at_body_size_are_headings():
    def draw(page):
        y = 60
        for title in ("Increasing Basic Patterns", "GENERAL PROVISIONS", "TITLE II"):
            page.insert_text((72, y), title, fontsize=10,
                             fontname="hebo" if title.startswith("Inc") else "helv")
            _column(page, 72, 540, y + 8, y + 150, LOREM * 5)
            y += 180
    headings = [text for _, text in _headings(_pdf(draw))]
    assert headings == ["Increasing Basic Patterns", "GENERAL PROVISIONS", "TITLE II"]


def test_a_sentence_citing_a_division_is_no_heading():
    # dmca: "Article 11 of the WCT states:" over a quotation read as a heading
    def draw(page):
        y = 60
        for lead in ("Article 11 of the WCT states:", "Article 12 Remedies"):
            page.insert_text((72, y), lead, fontsize=10)
            _column(page, 100, 500, y + 8, y + 150, LOREM * 4)
            y += 180
    assert [text for _, text in _headings(_pdf(draw))] == ["Article 12 Remedies"]


def test_years_icons_and_sentences_set_large_are_not_headings():
    def draw(page):
        page.insert_text((72, 80), "2007", fontsize=28)
        page.insert_text((72, 130), "!", fontsize=28)
        page.insert_text((72, 180), "Annual Report", fontsize=22)
        _column(page, 72, 540, 200, 330, LOREM * 4)
        _column(page, 40, 572, 340, 520, ("This whole sentence is set in a large type to be "
                                          "noticed, but it is a sentence and not a heading "
                                          "of any section at all."), size=14)
        _column(page, 72, 540, 530, 700, LOREM * 4)
        # the tail of a displayed formula set large (demo3: ", A = ¯A + ˆA")
        page.insert_text((72, 725), ", where A equals B", fontsize=14)
        _column(page, 72, 540, 735, 780, LOREM)
    assert [text for _, text in _headings(_pdf(draw))] == ["Annual Report"]


def test_a_title_line_with_a_footnote_mark_keeps_the_title_size():
    # a line's size is that of most of its characters: the mark "a)" set small after
    # the title's second line made that line a size smaller, a heading of its own
    # one level down (REVTeX's "Sample Title:" / "with Forced Linebreak a)")
    def draw(page):
        page.insert_text((72, 60), "Sample Title:", fontsize=14, fontname="hebo")
        page.insert_text((72, 78), "with Forced Linebreak", fontsize=14, fontname="hebo")
        end = 72 + pymupdf.get_text_length("with Forced Linebreak", "hebo", 14)
        page.insert_text((end + 1, 72), "a)", fontsize=9, fontname="hebo")
        _column(page, 72, 540, 100, 300, LOREM * 6)
        page.insert_text((72, 330), "Introduction", fontsize=12, fontname="hebo")
        _column(page, 72, 540, 340, 500, LOREM * 6)
    headings = _headings(_pdf(draw))
    assert len(headings) == 2 and headings[1][1] == "Introduction"
    assert headings[0][1].startswith("Sample Title: with Forced Linebreak")
    assert headings[0][0] < headings[1][0]

def test_a_displayed_formula_in_bold_is_no_heading():
    # a journal's sample sets its formulas' lines apart in bold (JPSJ's multline:
    # "A + B + C + D + E + F" / "= G + H + I + J + K" were two H2s)
    def draw(page):
        page.insert_text((72, 60), "2. Equations", fontsize=12, fontname="hebo")
        _column(page, 72, 540, 70, 200, LOREM * 4)
        page.insert_text((120, 220), "A + B + C + D + E + F", fontsize=10, fontname="hebo")
        page.insert_text((250, 236), "= G + H + I + J + K", fontsize=10, fontname="hebo")
        _column(page, 72, 540, 250, 400, LOREM * 4)
    assert [text for _, text in _headings(_pdf(draw))] == ["2. Equations"]

def test_a_rotated_margin_note_stays_out_of_the_body():
    def draw(page):
        _column(page, 72, 540, 72, 720, LOREM * 14)
        page.insert_text((580, 600), "Draft circulated with PROPOSALS", fontsize=9, rotate=90)
    doc = process_pdf(_pdf(draw), "note.pdf")
    text = doc.source.text
    assert "PROPOSALS" in text  # kept, every word is in some chunk
    body = text.split("\n\n")
    assert not any("PROPOSALS" in part and "committee" in part for part in body)
    assert text.rstrip().endswith("PROPOSALS")


def _ruled_grid(page: pymupdf.Page, x0: float, y0: float, rows: int, cols: int) -> None:
    for i in range(rows + 1):
        page.draw_line((x0, y0 + i * 24), (x0 + cols * 70, y0 + i * 24))
    for j in range(cols + 1):
        page.draw_line((x0 + j * 70, y0), (x0 + j * 70, y0 + rows * 24))
    for i in range(rows):
        for j in range(cols):
            page.insert_text((x0 + j * 70 + 4, y0 + i * 24 + 16), f"r{i}c{j}", fontsize=9)


@pytest.mark.parametrize("float_kind", ["picture", "table"])
def test_a_paragraph_carried_past_a_float_atop_the_next_column_passes_its_caption(
        float_kind: str):
    # ASME sets captions in capitals with no full stop ("TABLE 2: TABLE WITH MORE
    # COMPLICATED COLUMNS"): only a caption ending a sentence was passed, so the
    # paragraph's second half after the float came out as one of its own (after a
    # picture, run on from the caption: "… ROUTES report goes to the board")
    label = "FIGURE 2: THE DEPOTS" if float_kind == "picture" else "TABLE 2: THE DEPOTS"

    def draw(page):
        _column(page, 40, 296, 60, 700,
                ("the inspection of every warehouse takes place once a year and " * 20)
                + "the")
        page.insert_text((330, 72), label, fontsize=8)
        if float_kind == "picture":
            _picture(page, pymupdf.Rect(330, 80, 560, 240))
        else:
            _ruled_grid(page, 330, 80, 6, 3)
        _column(page, 316, 572, 250, 400, "report goes to the board within a month. " * 6)
    doc = process_pdf(_pdf(draw), "caption.pdf")
    assert "once a year and the report goes to the board" in doc.source.text
    caption = next(b for b in doc.layout.blocks if "THE DEPOTS" in doc.layout.block_text(b))
    assert doc.layout.block_text(caption) == label, "the caption, alone"


def test_a_paragraph_carried_over_a_page_break_passes_a_margin_stamp():
    # arXiv stamps the first page of every preprint in its left margin; read after the
    # page's text, the stamp was spliced into the sentence running on to page 2
    sentence = "the inspection of every warehouse takes place once a year and the "
    doc = pymupdf.open()
    first = doc.new_page(width=612, height=792)
    _column(first, 72, 540, 600, 720, (sentence * 9).strip())
    first.insert_text((30, 600), "arXiv:2101.00001v1 [cs.CL] 1 Jan 2021", fontsize=14,
                      rotate=90)
    _column(doc.new_page(width=612, height=792), 72, 540, 72, 200,
            "report goes to the board within a month of the visit. " * 5)
    data = doc.tobytes()
    text = process_pdf(data, "stamp.pdf").source.text
    assert "once a year and the report goes to the board" in text
    assert text.count("arXiv:2101.00001v1") == 1  # kept, after the paragraph


def test_a_paragraph_carried_over_a_page_break_passes_a_running_head_that_does_not_recur():
    # an appendix's one page names its chapter in the head margin ("A. Simulation
    # results"): no other page has it, so it is no running head that recurs, and the
    # sentence running on to that page was cut in two by it
    sentence = "the inspection of every warehouse takes place once a year and the "
    doc = pymupdf.open()
    _column(doc.new_page(width=612, height=792), 72, 540, 600, 720, (sentence * 9).strip())
    second = doc.new_page(width=612, height=792)
    second.insert_text((230, 40), "A. Simulation results", fontsize=10)
    _column(second, 72, 540, 80, 200, "report goes to the board within a month of the "
            "visit. " * 5)
    text = process_pdf(doc.tobytes(), "head.pdf").source.text
    assert "once a year and the report goes to the board" in text
    assert text.count("A. Simulation results") == 1  # kept, after the paragraph


def test_a_paragraph_carried_across_a_column_break_stays_one_paragraph():
    sentence = ("the inspection of every warehouse takes place once a year and the report "
                "goes to the board ") * 6
    def draw(page):
        _column(page, 40, 296, 60, 260, sentence.strip())
        _column(page, 316, 572, 60, 260, "and then it is published in full " * 12)
    doc = process_pdf(_pdf(draw), "carry.pdf")
    paragraphs = [b for b in doc.source.blocks if b.kind == "paragraph"]
    assert len(paragraphs) == 1
    assert "to the board and then it is published" in doc.source.text


def test_a_word_hyphenated_at_a_line_end_is_joined_and_keeps_both_boxes():
    def draw(page):
        page.insert_text((72, 80), "Keep the card within the detec-", fontsize=11)
        page.insert_text((72, 94), "tion area for fifteen minutes and the n-", fontsize=11)
        page.insert_text((72, 108), "tridecanal sample, unlike n-tridecanal kept cold.",
                         fontsize=11)
    doc = process_pdf(_pdf(draw), "hyphen.pdf")
    assert "within the detection area" in doc.source.text
    assert "the n-tridecanal sample" in doc.source.text  # a real hyphen stays
    halves = [w for w in doc.layout.words if w.text in ("detec-", "tion")]
    assert len(halves) == 2 and halves[0].bbox[1] < halves[1].bbox[1]
    start = doc.source.text.index("detection")
    owners = [doc.source.word_at[i] for i in range(start, start + len("detection"))]
    assert owners == [halves[0].id] * 5 + [halves[1].id] * 4


def test_a_transcript_set_in_courier_is_text_not_code():
    def draw(page):
        y = 60
        for n in range(1, 30):
            page.insert_text((72, y), f"{n:2d}  Q. And where were you on the night of the",
                             fontsize=10, fontname="cour")
            y += 24
    doc = process_pdf(_pdf(draw), "transcript.pdf")
    assert "```" not in doc.source.text
    report = chunk_report(doc, "structure_aware")
    assert {c["chunk_type"] for c in report["chunks"]} == {"text"}


def test_code_in_a_prose_document_is_still_code():
    def draw(page):
        _column(page, 72, 540, 60, 300, LOREM * 8)
        for n, line in enumerate(("def area(r):", "    return 3.14 * r * r")):
            page.insert_text((72, 330 + 12 * n), line, fontsize=9, fontname="cour")
        _column(page, 72, 540, 370, 600, LOREM * 8)
    assert "```\ndef area(r):" in process_pdf(_pdf(draw), "code.pdf").source.text


def _distilled(data: bytes, names: dict[str, str]) -> bytes:
    """`data` with its fonts renamed as Ghostscript or Distiller leave TeX's: a name
    such as "ABCDEF+CMBX9" and no bold or fixed-pitch flag (MuPDF reads none)."""
    doc = pymupdf.open("pdf", data)
    for xref, _, _, name, *_ in doc[0].get_fonts():
        if name in names:
            doc.xref_set_key(xref, "BaseFont", f"/{names[name]}")
    renamed = doc.tobytes()
    flags = {s["font"]: s["flags"] for b in pymupdf.open("pdf", renamed)[0].get_text(
        "dict")["blocks"] for line in b["lines"] for s in line["spans"]}
    assert not any(flags[name.rpartition("+")[2]] & (16 | 8) for name in names.values())
    return renamed


def test_tex_bold_section_headings_are_found_by_the_font_name_a_size_below_the_body():
    # a journal (Physical Review, AIP) sets "I. INTRODUCTION" and "A. Prior work" in
    # 9 pt CMBX beside 10 pt body text; once distilled, no flag says bold
    def draw(page):
        y = 60
        for heading in ("I. INTRODUCTION", "A. Prior work", "II. METHODS"):
            page.insert_text((72, y + 10), heading, fontsize=9, fontname="hebo")
            _column(page, 72, 540, y + 20, y + 200, LOREM * 6)
            y += 230
    data = _distilled(_pdf(draw), {"Helvetica-Bold": "ABCDEF+CMBX9"})
    headings = [text for _, text in _headings(data)]
    assert headings == ["I. INTRODUCTION", "A. Prior work", "II. METHODS"]
    # a small bold line with no section number stays small print
    def small(page):
        _column(page, 72, 540, 60, 300, LOREM * 8)
        page.insert_text((72, 330), "Note on the data", fontsize=8, fontname="hebo")
        _column(page, 72, 540, 340, 600, LOREM * 8)
    assert _headings(_distilled(_pdf(small), {"Helvetica-Bold": "CMBX8"})) == []


def test_tex_typewriter_is_code_by_the_font_name_but_a_line_of_addresses_is_not():
    def draw(page):
        page.insert_text((72, 60), "Retrieval for Question Answering", fontsize=16,
                         fontname="hebo")
        page.insert_text((72, 84), "Ann Author and Ben Author", fontsize=10)
        page.insert_text((72, 98), "{ann, ben}@example.edu", fontsize=10, fontname="cour")
        _column(page, 72, 540, 120, 300, LOREM * 8)
        for n, line in enumerate(("def area(r):", "    return 3.14 * r * r")):
            page.insert_text((72, 330 + 12 * n), line, fontsize=9, fontname="cour")
        _column(page, 72, 540, 370, 560, LOREM * 6)
        page.insert_text((72, 700), "1 Code is at https://github.example.org/tapas/blob/",
                         fontsize=8)
        page.insert_text((72, 710), "master/README.md", fontsize=8, fontname="cour")
    doc = process_pdf(_distilled(_pdf(draw), {"Courier": "CMTT10"}), "tt.pdf")
    code = [doc.layout.block_text(b) for b in doc.layout.blocks if b.kind == "code"]
    assert code == ["def area(r): return 3.14 * r * r"]
    assert "```\ndef area(r):" in doc.source.text
    assert "Ann Author and Ben Author {ann, ben}@example.edu" in doc.source.text
    assert "blob/ master/README.md" in doc.source.text  # the link's rest goes on


def _spaced_out(page: pymupdf.Page, x: float, y: float, text: str, pitch: float) -> None:
    """`text` set at 10 pt with its letters spaced `pitch` apart, in one text object as
    TeX's letter spacing leaves it (character spacing, `Tc`)."""
    page.insert_text((x, y), " ", fontsize=10, fontname="hebo")  # the font's resource
    xref = page.get_contents()[-1]
    stream = page.parent.xref_stream(xref) + (
        f"\nBT /hebo 10 Tf {pitch} Tc 1 0 0 1 {x} {page.rect.height - y} Tm ({text}) Tj ET\n"
    ).encode()
    page.parent.update_stream(xref, stream)


def test_a_word_spaced_out_letter_by_letter_is_one_word_with_one_box():
    # Elsevier's "A R T I C L E  I N F O" and "A B S T R A C T", a thesis class's
    # "C O N T E N T S": the text layer makes a word of every letter
    def draw(page):
        _spaced_out(page, 72, 80, "ARTICLE INFO", 1.7)
        _column(page, 72, 540, 90, 200, LOREM * 3)
        _spaced_out(page, 72, 230, "ABSTRACT", 1.7)
        _column(page, 72, 540, 240, 400, "it stared back at me as if it knew " + LOREM * 3)
    doc = process_pdf(_pdf(draw), "spaced.pdf")
    assert "ARTICLE INFO" in doc.source.text and "ABSTRACT" in doc.source.text
    assert "back at me as if it knew" in doc.source.text  # short words stay apart
    word = next(w for w in doc.layout.words if w.text == "ABSTRACT")
    width = pymupdf.get_text_length("ABSTRACT", "hebo", 10) + 7 * 1.7
    assert word.bbox[0] == pytest.approx(72, abs=0.5)
    assert word.bbox[2] == pytest.approx(72 + width, abs=0.5)


def _picture(page: pymupdf.Page, rect: pymupdf.Rect) -> None:
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 40, 40), False)
    pix.clear_with(180)
    page.insert_image(rect, pixmap=pix)


@pytest.mark.parametrize("with_table", [False, True])
def test_prose_beside_a_figure_or_a_small_table_is_a_text_chunk(with_table):
    def draw(page):
        page.insert_text((72, 60), "Results", fontsize=16, fontname="hebo")
        _picture(page, pymupdf.Rect(340, 80, 540, 240))
        _column(page, 72, 320, 80, 700, LOREM * 12)
        if with_table:
            for row in range(3):
                for col in range(3):
                    r = pymupdf.Rect(340 + 60 * col, 300 + 18 * row, 400 + 60 * col,
                                     318 + 18 * row)
                    page.draw_rect(r, color=(0, 0, 0), width=0.6)
                    page.insert_text((r.x0 + 3, r.y1 - 5), f"c{row}{col}", fontsize=8)
    report = chunk_report(process_pdf(_pdf(draw), "figure.pdf"), "structure_aware")
    # The table stands in a column of its own beside the prose: a chunk of its own
    # (a chunk does not reach over a column gutter), the prose still a text chunk.
    expected = ["text", "table"] if with_table else ["text"]
    assert [c["chunk_type"] for c in report["chunks"]] == expected
    assert "![" not in report["chunks"][0]["text"]  # a picture writes no stand-in text


def test_a_tall_picture_close_beside_the_text_leaves_it_read_top_to_bottom():
    """A photo down the page's side, set closer to the text than a column gutter, took
    every line beside it into one row with it, and the page was read in the order its
    PDF writes it: here the last paragraph first. Read after the lines beside it, it
    parts none of their paragraphs."""
    def draw(page):
        _picture(page, pymupdf.Rect(440, 120, 572, 720))  # from the first one's middle
        for marker, top in (("cedar", 500), ("apple", 60), ("birch", 280)):  # as written
            _column(page, 72, 435, top, top + 200, _words(marker, 90), size=11,
                    align=pymupdf.TEXT_ALIGN_JUSTIFY)
    source = process_pdf(_pdf(draw), "photo.pdf").source
    a, b, c = (_positions(source.text, m) for m in ("apple", "birch", "cedar"))
    assert len(a) == len(b) == len(c) == 90
    assert max(a) < min(b) and max(b) < min(c)
    kinds = [block.kind for block in source.blocks]
    assert kinds[-1] == "image" and "image" not in kinds[:-1]


def test_a_picture_with_its_caption_alone_is_an_image_chunk():
    def draw(page):
        page.insert_text((72, 60), "Overview", fontsize=16, fontname="hebo")
        _column(page, 72, 540, 70, 200, LOREM * 4)
        page.insert_text((72, 240), "Figures", fontsize=16, fontname="hebo")
        _picture(page, pymupdf.Rect(72, 250, 400, 450))
        page.insert_text((72, 470), "Figure 1: The warehouse floor plan", fontsize=9)
    report = chunk_report(process_pdf(_pdf(draw), "picture.pdf"), "structure_aware")
    assert [c["chunk_type"] for c in report["chunks"]] == ["text", "image"]


def test_a_footnote_mark_raised_against_a_word_is_a_word_of_its_own():
    def draw(page):
        writer = pymupdf.TextWriter(page.rect)
        font = pymupdf.Font("helv")
        writer.append((72, 100), "The risk", font=font, fontsize=11)
        writer.append((writer.last_point.x, 96), "12", font=font, fontsize=6)
        writer.append((writer.last_point.x, 100), " is covered.", font=font, fontsize=11)
        writer.write_text(page)
    doc = process_pdf(_pdf(draw), "mark.pdf")
    words = [w.text for w in doc.layout.words]
    assert "risk" in words and "12" in words, words
    mark = next(w for w in doc.layout.words if w.text == "12")
    risk = next(w for w in doc.layout.words if w.text == "risk")
    assert risk.bbox[2] <= mark.bbox[0] + 0.5  # the mark's box starts where the word ends


def test_an_accent_set_over_its_letter_is_one_letter_with_it():
    """TeX's old font encoding sets "Schütze" as "Sch", a diaeresis moved back over the
    "u", and "utze": the text layer reads "Sch¨utze". An accent with an advance of its
    own ("don´t" typed with an acute, a backtick in code) stays as written."""
    def draw(page):
        writer = pymupdf.TextWriter(page.rect)
        font = pymupdf.Font(fontfile=DEJAVU)
        for y, (before, accent, after) in ((100, ("Sch", "¨", "utze")),
                                           (120, ("P", "˚", "al")),
                                           (140, ("Baudi", "ˇ", "s"))):
            writer.append((72, y), before, font=font, fontsize=11)
            x = writer.last_point.x
            writer.append((x, y), accent, font=font, fontsize=11)
            writer.append((x, y), after, font=font, fontsize=11)  # back over the letter
        writer.append((72, 160), "don´t run `ls` there", font=font, fontsize=11)
        writer.write_text(page)
    doc = process_pdf(_pdf(draw), "accents.pdf")
    words = [w.text for w in doc.layout.words]
    assert words[:3] == ["Schütze", "Pål", "Baudiš"]
    assert words[3:] == ["don´t", "run", "`ls`", "there"]
    schutze = doc.layout.words[0].bbox
    assert schutze[0] == pytest.approx(72, abs=0.5)  # the word keeps its box


def test_an_accent_in_letter_spaced_capitals_does_not_cut_its_word():
    """Small capitals spaced out a point a letter (classicthesis' "persönliche daten",
    a Brazilian thesis' "PRODUÇÃO"): the accent's glyph, centred over its letter, stands
    ahead of the pen, and MuPDF starts a word there ("pers" "¨onliche"). Composed, the
    letter follows the word before it as closely as its letters follow each other: one
    word. A reference's number set close before an accented name stays apart."""
    def draw(page):
        writer = pymupdf.TextWriter(page.rect)
        font = pymupdf.Font(fontfile=DEJAVU)

        def spaced(x: float, y: float, letters: str) -> float:
            for letter in letters:
                writer.append((x, y), letter, font=font, fontsize=12)
                x = writer.last_point.x + 1.0
            return x
        for y, (before, accent, letter, after) in ((100, ("pers", "¨", "o", "nliche")),
                                                   (130, ("PRODUÇ", "˜", "A", "O"))):
            x = spaced(72, y, before)
            writer.append((x + 1.7, y), accent, font=font, fontsize=12)  # ahead, centred
            spaced(spaced(x, y, letter), y, after)
        writer.append((72, 160), "28", font=font, fontsize=12)
        x = writer.last_point.x + 0.5
        writer.append((x + 2.0, 160), "´", font=font, fontsize=12)
        writer.append((x, 160), "E. Masterly", font=font, fontsize=12)
        writer.write_text(page)
    words = [w.text for w in process_pdf(_pdf(draw), "spaced.pdf").layout.words]
    assert words[:2] == ["persönliche", "PRODUÇÃO"], words
    assert words[2] == "28", words



def unmapped_ligatures_pdf(lines: list[bytes], ligatures: dict[int, float]) -> bytes:
    """One page of `lines` in a simple font with Calibri's advances for f, i, l and t
    (the glyphs' shapes are Helvetica's, the advances the font's /Widths) and, at the
    codes of `ligatures`, glyphs of the given advance (em) whose names no text
    mapping knows, as Word writes Calibri's ligatures: the text layer reads U+FFFD."""
    helvetica = pymupdf.Font("helv")
    calibri = {"f": 0.305, "i": 0.229, "l": 0.229, "t": 0.335}

    def advance(code: int) -> float:
        return ligatures.get(code) or calibri.get(chr(code)) or helvetica.glyph_advance(code)

    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    font = doc.get_new_xref()
    names = " ".join(f"{code} /g{code}" for code in ligatures)
    widths = " ".join(str(round(1000 * advance(code))) for code in range(32, 160))
    doc.update_object(font, (
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /FirstChar 32 /LastChar 159 "
        f"/Widths [{widths}] /Encoding << /Type /Encoding /BaseEncoding /WinAnsiEncoding "
        f"/Differences [{names}] >> >>"))
    content = doc.get_new_xref()
    doc.update_object(content, "<< >>")
    doc.update_stream(content, b"BT /F1 11 Tf 72 700 Td "
                      + b" ".join(b"(" + line + b") Tj 0 -14 Td" for line in lines) + b" ET")
    doc.xref_set_key(page.xref, "Contents", f"{content} 0 R")
    doc.xref_set_key(page.xref, "Resources", f"<< /Font << /F1 {font} 0 R >> >>")
    data = doc.tobytes()
    doc.close()
    return data


def test_a_ligature_glyph_without_text_is_read_by_its_width():
    """Word sets Calibri's ligatures without a text mapping: the text layer reads
    "wri�ng", "opera�on", "inpu�ng". A ligature is as wide as its letters or a little
    narrower (Calibri's "ti" by 0.007 em, its "tti" by 0.043), so its width against
    the font's own letters says "ti" and "tti". Calibri's "tt" (0.036 em narrower) is
    as wide as "ft" or "tf" would be: it stays unread, not misspelled; and so does a
    glyph between spaces, which is no piece of a word."""
    data = unmapped_ligatures_pdf(
        [b"The wri\x80ng of an opera\x80on and inpu\x82ng,",
         b"a letter wri\x81en to a tiny title \x80 page."],
        {128: 0.335 + 0.229 - 0.007, 129: 2 * 0.335 - 0.036, 130: 2 * 0.335 + 0.229 - 0.043})
    doc = process_pdf(data, "calibri.pdf")
    words = [w.text for w in doc.layout.words]
    assert words[:7] == ["The", "writing", "of", "an", "operation", "and", "inputting,"]
    assert "wri\ufffden" in words and "\ufffd" in words
    assert "writing" in doc.source.text and "tiny title" in doc.source.text

def _left_column_lines(page: pymupdf.Page, lines: list[str], top: float = 80) -> None:
    for n, line in enumerate(lines):
        page.insert_text((40, top + 13 * n), line, fontsize=10)


_PARAGRAPH = [  # one paragraph, a word broken at a line end in the middle of it
    "The system was tested on several news collections and",
    "it obtained reasonably good results with a fair perfor-",
    "mance over all of them, though the smaller collections",
    "were harder to cluster than the larger collections were.",
] * 3


def _diagram(page: pymupdf.Page, x0: float, top: float) -> None:
    """A flowchart drawn with vector graphics: boxes, an ellipse, arrows, and small
    labels on its shapes, on the rows of the text beside it."""
    for n, name in enumerate(("Crawler", "Clusterer", "Pattern Finder", "Tables")):
        y = top + 34 * n
        box = pymupdf.Rect(x0, y, x0 + 90, y + 20)
        if n == 2:
            page.draw_oval(box, color=(0, 0, 0), width=0.8)
        else:
            page.draw_rect(box, color=(0, 0, 0), width=0.8)
        page.insert_text((x0 + 8, y + 13), name, fontsize=7)
        page.insert_text((x0 + 94, y + 13), f"stage {n + 1}", fontsize=7)
        if n < 3:
            page.draw_line((x0 + 45, y + 20), (x0 + 45, y + 34), color=(0, 0, 0), width=0.8)


def test_labels_of_a_drawn_figure_stay_out_of_the_paragraph_beside_it():
    def draw(page):
        _left_column_lines(page, _PARAGRAPH)
        _diagram(page, 330, 75)
        page.insert_text((330, 230), "Figure 1: The pipeline.", fontsize=10)
        _column(page, 330, 572, 245, 400, LOREM * 2)
    doc = process_pdf(_pdf(draw), "figure.pdf")
    text = doc.source.text
    assert "a fair performance over all of them" in text
    paragraph = next(b for b in text.split("\n\n") if "performance" in b)
    assert not any(label in paragraph for label in ("Crawler", "Clusterer", "stage"))
    # every label is kept, after the paragraph and before the caption, in drawing order
    labels = [text.index(w) for w in ("Crawler", "Clusterer", "Pattern", "Tables")]
    assert labels == sorted(labels)
    assert text.index("cluster than the larger") < labels[0] < text.index("Figure 1")
    headings = [b.heading for b in doc.source.blocks if b.kind == "heading"]
    assert not any("Crawler" in h or "stage" in h for h in headings)


def test_text_in_a_drawn_box_is_body_text_not_figure_labels():
    def draw(page):
        _left_column_lines(page, _PARAGRAPH)
        page.draw_rect(pymupdf.Rect(325, 70, 575, 180), color=(0, 0, 0), width=0.8)
        _column(page, 330, 570, 75, 180, LOREM * 2)
    doc = process_pdf(_pdf(draw), "boxed.pdf")
    paragraphs = [b.strip() for b in doc.source.text.split("\n\n")]
    assert any(p.startswith("the committee shall review") and len(p.split()) > 30
               for p in paragraphs), paragraphs


def test_a_displayed_formula_beside_a_paragraph_leaves_the_paragraph_whole():
    def draw(page):
        for n, line in enumerate(_PARAGRAPH):
            page.insert_text((40, 80 + 15 * n), line, fontsize=10)
        _picture(page, pymupdf.Rect(330, 70, 560, 140))
        # a formula set in pieces, as TeX does, a wide gap between each, on a band of
        # its own beside the paragraph
        page.insert_text((330, 168), "V(A) = IDF(w)", fontsize=10)
        page.insert_text((420, 170), "\u03a3", fontsize=14, fontname="symb")
        page.insert_text((450, 168), "exp(", fontsize=10)
        page.insert_text((490, 164), "i", fontsize=7)
        _column(page, 330, 572, 190, 330, LOREM * 2)
    doc = process_pdf(_pdf(draw), "formula.pdf")
    assert "a fair performance over all of them" in doc.source.text
    paragraph = next(b for b in doc.source.text.split("\n\n") if "performance" in b)
    assert "IDF" not in paragraph and "exp" not in paragraph
    assert paragraph.count("collections were.") == 3  # the whole paragraph, in one block


def test_a_figure_between_two_parts_of_a_paragraph_is_read_after_it():
    def draw(page):
        lines = _PARAGRAPH[:2]
        for n, line in enumerate(lines):
            page.insert_text((40, 80 + 13 * n), line, fontsize=10)
        _diagram(page, 60, 110)  # the figure set across the column, mid-paragraph
        for n, line in enumerate(_PARAGRAPH[2:6]):
            page.insert_text((40, 270 + 13 * n), line, fontsize=10)
    doc = process_pdf(_pdf(draw), "interrupted.pdf")
    text = doc.source.text
    assert "a fair performance over all of them" in text
    assert text.index("larger collections were.") < text.index("Crawler")


def test_a_banner_title_beside_a_short_colophon_keeps_its_own_column():
    def draw(page):
        for n, line in enumerate(("Issued 2 April 2020", "Publisher Research Service",
                                  "Editor Kim Hajung", "www.example.org")):
            page.insert_text((62, 120 + 16 * n), line, fontsize=8)
        page.insert_text((480, 100), "No. 1695", fontsize=10)
        page.insert_text((400, 150), "Issue Brief", fontsize=22, fontname="hebo")
        _column(page, 62, 550, 200, 400, LOREM * 4)
    text = process_pdf(_pdf(draw), "banner.pdf").source.text
    assert "Editor Kim Hajung www.example.org" in " ".join(text.split())


_THIRDS = ((40, 210), (221, 391), (402, 572))  # three columns and their gutters


def _column_of(box: list[float]) -> int | None:
    """The column a box lies in, or None when it reaches over a gutter."""
    return next((n for n, (x0, x1) in enumerate(_THIRDS)
                 if box[0] >= x0 - 1 and box[2] <= x1 + 1), None)


def test_columns_without_headings_of_their_own_are_chunks_of_their_own():
    def draw(page):
        page.insert_text((40, 60), "Depot records", fontsize=16, fontname="hebo")
        for (x0, x1), place in zip(_THIRDS, ("Corby", "Leeds", "Bristol"), strict=True):
            _column(page, x0, x1, 80, 700, f"The {place} depot keeps a log of its "
                    "deliveries and sends it to the board. " * 9)
    report = chunk_report(process_pdf(_pdf(draw), "three.pdf"), "structure_aware")
    chunks = report["chunks"]
    columns = [[_column_of(r["bbox"]) for r in c["regions"]] for c in chunks]
    assert columns == [[0], [1], [2]]  # one column-shaped box per chunk
    assert chunks[0]["text"].startswith("# Depot records")
    assert all(c["heading_path"] == ["Depot records"] for c in chunks)
    assert [c["origin"]["rule"] for c in chunks] == ["column_part"] * 3
    assert report["containment"] == [] and report["overlaps"] == []


def test_text_carried_into_the_next_column_and_a_heading_at_a_column_foot_stay_whole():
    def draw(page):
        page.insert_text((40, 60), "Depot records", fontsize=16, fontname="hebo")
        # column 1 breaks off mid-sentence; column 2 carries it on in lower case
        _column(page, *_THIRDS[0], 80, 700, ("every depot keeps a log of its deliveries "
                                             "and sends it ") * 12 + "to the")
        _column(page, *_THIRDS[1], 80, 300, "board once a month. " * 12)
        # a heading at the foot of column 2 introduces the text atop column 3
        page.insert_text((221, 690), "Audits", fontsize=16, fontname="hebo")
        _column(page, *_THIRDS[2], 80, 300, "The auditors visit every depot. " * 10)
    report = chunk_report(process_pdf(_pdf(draw), "carried.pdf"), "structure_aware")
    texts = [c["text"] for c in report["chunks"]]
    assert len(texts) == 2, texts
    assert "sends it to the board once a month" in texts[0]
    assert texts[1].startswith("# Audits\n\nThe auditors visit")
    # each chunk's box spans two columns (the heading at the foot of the second is the
    # third one's), and the why-texts say so
    for chunk in report["chunks"]:
        assert chunk["origin"]["across_columns"] is True
        assert "runs on from the foot of one column to the top of the next" in chunk["why"]



def test_a_table_floated_atop_the_next_column_with_its_notes_is_a_piece_of_its_own():
    """A section ends at the foot of the left column; its table floated to the top of
    the right one, with the table's notes under it, marked "a", "b" (REVTeX's AIP
    guide). A note in lower case is no sentence carried on from the column before:
    the table is the section's second piece, and no chunk's box spans both columns."""
    def draw(page):
        _column(page, 40, 290, 60, 560, LOREM * 12)
        page.insert_text((40, 600), "Markup", fontsize=14, fontname="hebo")
        _column(page, 40, 290, 610, 700, "Markup is the preferred way to structure your "
                "file, and plain macros are less so. See the manual for details.")
        page.insert_text((330, 72), "Table 2. Other class options", fontsize=9)
        for row in range(4):
            for col in range(2):
                r = pymupdf.Rect(330 + 110 * col, 80 + 16 * row, 440 + 110 * col, 96 + 16 * row)
                page.draw_rect(r, color=(0, 0, 0), width=0.6)
                page.insert_text((r.x0 + 3, r.y1 - 4), f"option{row}{col}", fontsize=8)
        page.insert_text((330, 160), "a Default option for every journal. b Standard in most "
                         "of them. c Only for two.", fontsize=7)
        page.insert_text((330, 200), "Front Matter", fontsize=14, fontname="hebo")
        _column(page, 330, 572, 210, 400, "The guide has complete information. " * 6)
    report = chunk_report(process_pdf(_pdf(draw), "float.pdf"), "structure_aware")
    markup = [c for c in report["chunks"] if c["heading_path"][-1:] == ["Markup"]]
    assert [c["chunk_type"] for c in markup] == ["text", "table"]
    assert [c["origin"]["rule"] for c in markup] == ["column_part", "column_part"]
    assert "a Default option" in markup[1]["text"]


def _layout(blocks: list[list[tuple[float, float, str]]]) -> Layout:
    """A one-page layout of paragraphs, each a list of (x0, top, text) lines, in this
    reading order; words 6 points a letter, lines 10 high."""
    layout = Layout([Page(1, 612, 792)])
    for lines in blocks:
        line_ids = []
        for x0, top, text in lines:
            line_id, x, ids = len(layout.lines), x0, []
            for word in text.split():
                box = (x, top, x + 6 * len(word), top + 10)
                layout.words.append(Word(len(layout.words), 1, word, box, line_id))
                ids.append(len(layout.words) - 1)
                x = box[2] + 4
            layout.lines.append(Line(line_id, 1, union(layout.words[w].bbox for w in ids),
                                     tuple(ids)))
            line_ids.append(line_id)
        layout.blocks.append(Block(len(layout.blocks), 1, "paragraph",
                                   union(layout.lines[i].bbox for i in line_ids),
                                   tuple(line_ids)))
    return layout


def test_labels_strewn_over_a_diagram_atop_the_next_column_go_with_that_column():
    left = [[(40, 80 + 12 * n, "the yard lies behind the depot.") for n in range(30)]]
    # A diagram's labels, read in an order that jumps up and to the right within it
    labels = [[(330, 100, "North gate house")], [(480, 80, "Loading bay one")],
              [(330, 160, "Office and canteen")], [(480, 140, "Loading bay two")],
              [(330, 220, "South car gate")], [(480, 200, "Empty yard and sheds")]]
    right = [[(316, 260 + 12 * n, "Lorries enter by the gate.") for n in range(20)]]
    source = build_markdown(_layout(left + labels + right))
    cls = get_strategy("structure_aware")
    chunks = cls().chunk(source, cls.settings())
    xs = [{source.layout.words[w].bbox[0] >= 300 for w in source.words_of(c.text)}
          for c in chunks]
    assert xs == [{False}, {True}]  # the left column, then the diagram with its column
    assert not any(c.origin.get("across_columns") for c in chunks)  # each in one column


def test_a_paragraph_resumed_below_a_caption_atop_the_next_column_is_not_cut():
    left = [[(40, 80 + 12 * n, "The yard lies behind the depot and") for n in range(30)]]
    caption = [[(316, 80, "Figure 2: The yard at night.")]]
    right = [[(316, 100 + 12 * n, "then the gate is locked for good.") for n in range(20)]]
    source = build_markdown(_layout(left + caption + right))
    cls = get_strategy("structure_aware")
    [chunk] = cls().chunk(source, cls.settings())
    assert chunk.origin["across_columns"] is True
    # with a sentence begun anew there, the column is a chunk of its own
    right = [[(316, 100 + 12 * n, "Then the gate is locked for good.") for n in range(20)]]
    source = build_markdown(_layout(left + caption + right))
    assert len(cls().chunk(source, cls.settings())) == 2


def test_a_section_too_long_for_one_chunk_is_cut_at_its_column_break_first():
    def paragraphs(x0: float, count: int, text: str) -> list[list[tuple[float, float, str]]]:
        return [[(x0, 80 + 130 * p + 12 * n, text) for n in range(10)] for p in range(count)]
    left = paragraphs(40, 2, "The yard lies behind the depot and")
    right = paragraphs(316, 4, "then the gate is locked for good.")
    source = build_markdown(_layout(left + right))
    cls = get_strategy("structure_aware")
    whole = cls().chunk(source, cls.settings())
    assert len(whole) == 1  # text carried across the break, and it fits: kept whole
    # Too long for one chunk, it is cut anyway: first where the column ends (packing
    # block by block alone would have taken the right column's first paragraph along)
    settings = {**cls.settings(), "max_token_size": 300, "overlap_token_size": 0}
    parts = cls().chunk(source, settings)
    xs = [{source.layout.words[w].bbox[0] >= 300 for w in source.words_of(c.text)}
          for c in parts]
    assert xs[0] == {False} and all(x == {True} for x in xs[1:]), xs


def test_page_numbers_of_a_short_document_are_left_out():
    """Two pages numbered as LaTeX sets them (centred, above the bottom margin band):
    the numbers are no part of the text. A number right under the text it belongs to
    (a total, the last item of a list) and one beside other text stay."""
    doc = pymupdf.open()
    for n in (1, 2):
        page = doc.new_page(width=612, height=792)
        _column(page, 134, 480, 120, 400, LOREM * 6)
        page.insert_text((303, 703), str(n), fontsize=10)  # the page number, 0.89 down
    page = doc.new_page(width=612, height=792)  # an unnumbered last page
    _column(page, 134, 480, 120, 400, LOREM * 6)
    page.insert_text((134, 745), "Total", fontsize=10)
    page.insert_text((300, 745), "42", fontsize=10)  # at the foot, beside its label: stays
    data = doc.tobytes()
    doc.close()
    processed = process_pdf(data, "numbered.pdf")
    words = [w.text for w in processed.layout.words]
    assert words.count("1") == 0 and words.count("2") == 0
    assert "42" in words and "Total" in words
    assert any("page numbers included" in w for w in processed.layout.warnings)


def test_a_one_page_printouts_page_number_with_the_count_is_left_out():
    """A browser prints "1 / 1" (or a service "Page 1 of 1") at the foot of a one-page
    document: a page number with the count of pages, no part of the last chunk."""
    for folio in ("1 / 1", "Page 1 of 1", "1/1"):
        def draw(page, folio=folio):
            _column(page, 72, 540, 100, 400, LOREM * 6)
            page.insert_text((290, 760), folio, fontsize=8)
        words = [w.text for w in process_pdf(_pdf(draw), "printout.pdf").layout.words]
        assert "1" not in words and "1/1" not in words and "Page" not in words, folio


def test_a_type_specimen_set_huge_inside_a_manual_heads_nothing():
    """dvips's manual shows what a PostScript special draws: "NEAT" at 100 pt on page
    39. As the largest size of the document it was the H1 over every chunk after it."""
    doc = pymupdf.open()
    for n in range(1, 7):
        page = doc.new_page(width=612, height=792)
        if n == 1:
            page.insert_text((90, 110), "The Manual", fontsize=20, fontname="hebo")
        page.insert_text((90, 150), f"{n} Section {n}", fontsize=14, fontname="hebo")
        _column(page, 90, 522, 165, 400, LOREM * 4)
        if n == 5:
            page.insert_text((150, 560), "NEAT", fontsize=100, fontname="hebo")
        _column(page, 90, 522, 600, 740, LOREM * 2)
    data = doc.tobytes()
    doc.close()
    headings = [text for _, text in _headings(data)]
    assert "NEAT" not in headings
    assert headings == ["The Manual"] + [f"{n} Section {n}" for n in range(1, 7)]


def test_a_book_running_head_beside_the_page_number_is_left_out():
    """A manual's running head names its chapter ("Chapter 2: Output" with the page
    number at the other end of the row), so its text recurs on a few pages only; the
    page number beside it gives it away. The chapters' own headings are kept."""
    titles = ("Reading the input", "Writing the output", "Checking the result")
    doc = pymupdf.open()
    for n in range(1, 13):
        page = doc.new_page(width=612, height=792)
        chapter = (n - 1) // 4
        if n % 2 == 0:
            page.insert_text((90, 58), f"Chapter {chapter + 1}: {titles[chapter]}",
                             fontsize=11)
        page.insert_text((512, 58), str(n), fontsize=11)
        if n % 4 == 1:
            page.insert_text((90, 110), f"{chapter + 1} {titles[chapter]}", fontsize=17,
                             fontname="hebo")
        _column(page, 90, 522, 130, 700, LOREM * 7)
    data = doc.tobytes()
    doc.close()
    processed = process_pdf(data, "manual.pdf")
    assert "Chapter" not in processed.source.text
    assert [b.heading for b in processed.source.blocks if b.kind == "heading"] == [
        f"{n} {title}" for n, title in enumerate(titles, start=1)]
    assert "12" not in [w.text for w in processed.layout.words]


def test_entries_of_a_table_of_contents_are_not_headings():
    """A manual's contents list its chapters in the chapters' own heading type; the
    dot leaders and page number say they are entries, not headings."""
    def draw(page):
        page.insert_text((72, 70), "Contents", fontsize=18, fontname="hebo")
        y = 110
        for chapter, section in (("1 Introduction", "1.1 Scope"),
                                 ("Appendix A Copying", "A.1 The licence")):
            page.insert_text((72, y), f"{chapter} . . . . . . . . 3", fontsize=13,
                             fontname="hebo")
            page.insert_text((82, y + 16), f"{section} . . . . . . . . 4", fontsize=10)
            y += 36
        page.insert_text((72, 200), "1 Introduction", fontsize=13, fontname="hebo")
        _column(page, 72, 540, 215, 500, LOREM * 9)
    assert [text for _, text in _headings(_pdf(draw))] == ["Contents", "1 Introduction"]


def test_each_contents_entry_is_a_paragraph_of_its_own():
    """An entry ends at its page number: the entries under it, set close below and
    indented, are the next entries, not the rest of its paragraph. An entry that wraps
    (its first line without leaders) stays one."""
    entries = [(72, "Creatures . . . . . . . . . . . . . . . . 6"),
               (86, "Abomination . . . . . . . . . . . . . . 6"),
               (86, "Arcane Horror . . . . . . . . . . . . . 7"),
               (86, "Falon'Din: Friend of the Dead, the"),
               (86, "Guide . . . . . . . . . . . . . . . . . 9"),
               (72, "Items . . . . . . . . . . . . . . . . . . 12")]

    def draw(page):
        page.insert_text((72, 70), "Contents", fontsize=18, fontname="hebo")
        for n, (x, text) in enumerate(entries):
            page.insert_text((x, 100 + 13 * n), text, fontsize=10)
        _column(page, 72, 540, 200, 500, LOREM * 9)
    doc = process_pdf(_pdf(draw), "contents.pdf")
    paragraphs = [doc.source.text[b.start:b.end].split(" .")[0]
                  for b in doc.source.blocks if b.kind == "paragraph"][:5]
    assert paragraphs == ["Creatures", "Abomination", "Arcane Horror",
                          "Falon'Din: Friend of the Dead, the Guide", "Items"]


def test_a_listing_with_blank_lines_is_one_code_block_indented_as_on_the_page():
    """Blank lines cut a listing into blocks; it is written as one fence, its lines
    indented as they are set, and an option and its description, cut apart at the
    wide space between them, on one line again."""
    listing = [(0, "Group ::= SEQUENCE {"), (3, "id    OBJECT IDENTIFIER,"), (0, "}"),
               None, (0, "END")]

    def draw(page):
        _column(page, 72, 540, 60, 200, LOREM * 5)
        y = 230
        for entry in listing:
            if entry is not None:
                indent, line = entry
                page.insert_text((90 + indent * 5.4, y), line, fontsize=9, fontname="cour")
            y += 12
        page.insert_text((90, y + 12), "-c, --check", fontsize=9, fontname="cour")
        page.insert_text((300, y + 12), "checks the syntax only", fontsize=9, fontname="cour")
        _column(page, 72, 540, y + 40, y + 200, LOREM * 5)
    text = process_pdf(_pdf(draw), "listing.pdf").source.text
    assert text.count("```") == 2
    assert ("```\nGroup ::= SEQUENCE {\n   id OBJECT IDENTIFIER,\n}\n\nEND\n\n"
            "-c, --check") in text
    line = next(line for line in text.splitlines() if line.startswith("-c, --check"))
    assert line.endswith("checks the syntax only") and len(line) > 40


_TESTIMONY = ("Q. Where were you employed in the spring of last year? A. I worked as a "
              "dispatcher at the depot on Marsh Road, mostly on the night shift, and I "
              "trained the new dispatchers as well. Q. Did your shift change? A. Yes. In "
              "April my supervisor told me that I was moving to days. ") * 6


def _numbered_pages(columns: list[tuple[float, float, float]], pages: int,
                    per_page: int, first: int, restart: bool, pad: int = 0,
                    size: tuple[float, float] = (612, 792), rotation: int = 0) -> bytes:
    """Pages whose text lines are numbered in the margin: per column (text x0, text
    x1, x of the numbers' right edge, or their left edge when right of the text)."""
    words = _TESTIMONY.split()
    doc = pymupdf.open()
    number = first
    for _ in range(pages):
        page = doc.new_page(width=size[0], height=size[1])
        page.set_rotation(rotation)
        number = first if restart else number
        for x0, x1, numbers_x in columns:
            for n in range(per_page):
                y = 90 + n * 24
                label = str(number + n).zfill(pad)
                width = pymupdf.get_text_length(label, "cour", 11)
                page.insert_text((numbers_x - width if numbers_x < x0 else numbers_x, y),
                                 label, fontname="cour", fontsize=11)
                line: list[str] = []
                while words and pymupdf.get_text_length(" ".join([*line, words[0]]), "cour",
                                                        11) < x1 - x0:
                    line.append(words.pop(0))
                page.insert_text((x0, y), " ".join(line), fontname="cour", fontsize=11)
                words = words or _TESTIMONY.split()
            if not restart:
                number += per_page
    data = doc.tobytes()
    doc.close()
    return data


def _no_number_between_words(text: str) -> None:
    tokens = text.split()
    assert not [t for t in tokens if t.isdigit()], "a line number was read into the text"
    assert "I worked as a dispatcher at the depot on Marsh Road" in " ".join(tokens)


def test_a_transcripts_line_numbers_are_left_out_of_the_text():
    """A transcript numbers every line 1–25 in the margin, again on each page; read
    with the text, the numbers would sit between the words of every sentence."""
    processed = process_pdf(_numbered_pages([(100, 540, 80)], pages=3, per_page=25, first=1,
                                            restart=True), "transcript.pdf")
    _no_number_between_words(processed.source.text)
    assert any("75 line numbers in the margin" in w for w in processed.layout.warnings)


def test_line_numbers_on_a_rotated_page_are_told_by_its_text_space():
    """A landscape page turned to be shown upright: its numbers left of the text sit
    left of the middle of the page as its text runs, though right of the middle of
    the page as shown (which is narrower)."""
    data = _numbered_pages([(350, 700, 330)], pages=3, per_page=20, first=1, restart=True,
                           size=(792, 612), rotation=90)
    processed = process_pdf(data, "turned.pdf")
    _no_number_between_words(processed.source.text)
    assert any("60 line numbers in the margin" in w for w in processed.layout.warnings)


def test_a_draft_papers_line_numbers_on_both_margins_are_left_out():
    """A paper under review numbers its lines 000, 001, … on across the pages, in the
    left margin for the left column and the right margin for the right one."""
    data = _numbered_pages([(70, 290, 50), (322, 542, 562)], pages=3, per_page=27, first=0,
                           restart=False, pad=3)
    processed = process_pdf(data, "draft.pdf")
    _no_number_between_words(processed.source.text)
    assert any("162 line numbers in the margin" in w for w in processed.layout.warnings)


def _read_column_by_column(text: list[str]) -> None:
    """Three pages of two columns of 200 words ("lft0n…", "rgt0n…"): each page's left
    column read before its right one, and no line number among the words."""
    for page_no in range(3):
        left = [i for i, w in enumerate(text) if w.startswith(f"lft{page_no}n")]
        right = [i for i, w in enumerate(text) if w.startswith(f"rgt{page_no}n")]
        assert len(left) == len(right) == 200
        assert max(left) < min(right), f"page {page_no + 1} read across its columns"
    assert not [w for w in text if w.isdigit()]


def test_a_drafts_two_columns_numbered_in_both_margins_are_read_column_by_column():
    """ACM's author draft: two columns 22 pt apart on one baseline grid, every line
    numbered in the left margin and the right one. Read with the text, the numbers
    made each row of the page look like a table's row (number, left line, right line,
    number) and the reading order went across the gutter, line by line."""
    doc = pymupdf.open()
    number = 1
    for page_no in range(3):
        page = doc.new_page(width=612, height=792)
        for side, x0, numbers_x in (("lft", 54, 28), ("rgt", 318, 566)):
            for n in range(40):
                y = 90 + n * 14
                page.insert_text((numbers_x, y), str(number), fontsize=6)
                number += 1
                words = " ".join(f"{side}{page_no}n{n:02d}k{k}" for k in range(5))
                assert 190 < pymupdf.get_text_length(words, "helv", 9) < 240  # full lines
                page.insert_text((x0, y), words, fontsize=9)
    text = process_pdf(doc.tobytes(), "draft.pdf").source.text.split()
    _read_column_by_column(text)


def test_a_drafts_second_column_numbered_in_the_gutter_is_read_column_by_column():
    """REVTeX's preprint layout: every fifth line numbered, in small type, the left
    column's in the left margin and the right column's in the gutter, a few points
    from the left column's text. The gutter's numbers stood between the columns'
    rows and kept the columns from being told apart: the page was read across, row
    by row."""
    doc = pymupdf.open()
    number = 0
    for page_no in range(3):
        page = doc.new_page(width=612, height=792)
        for side, x0 in (("lft", 54), ("rgt", 317)):
            for n in range(40):
                y = 90 + n * 14 + (20 if n > 20 else 0)  # a heading's space
                number += 1
                if number % 5 == 0:  # set flush right, 10 pt before the line
                    label = str(number)
                    page.insert_text((x0 - 10 - pymupdf.get_text_length(label, "helv", 5), y),
                                     label, fontsize=5)
                words = " ".join(f"{side}{page_no}n{n:02d}k{k}" for k in range(5))
                # justified: every line 245 pt wide, 3 pt short of the gutter's numbers
                size = 245 / pymupdf.get_text_length(words, "helv", 1)
                page.insert_text((x0, y), words, fontsize=size)
    processed = process_pdf(doc.tobytes(), "preprint.pdf")
    text = processed.source.text.split()
    _read_column_by_column(text)
    assert any("48 line numbers in the margin" in w for w in processed.layout.warnings)


def test_a_drafts_every_line_numbered_beside_lists_and_headings_loses_its_numbers():
    """AASTeX's `linenumbers`: every line numbered 1, 2, 3, … in a margin of its own,
    the rows uneven (a list's items, headings, the space around them). An even pitch
    is what tells a list's bare numbers at the text's edge from line numbers; in a
    margin no text reaches, an uneven one is line numbering still."""
    words = _TESTIMONY.split()
    doc = pymupdf.open()
    number = 0
    for _ in range(3):
        page = doc.new_page(width=612, height=792)
        y = 80.0
        for n in range(40):
            y += (13, 17, 13, 21, 13, 26, 16)[n % 7]  # list items, headings, equations
            number += 1
            label = str(number)
            page.insert_text((44 - pymupdf.get_text_length(label, "helv", 6), y), label,
                             fontsize=6)
            line: list[str] = []
            while words and pymupdf.get_text_length(" ".join([*line, words[0]]), "helv",
                                                    10) < 440:
                line.append(words.pop(0))
            page.insert_text((72, y), " ".join(line), fontsize=10)
            words = words or _TESTIMONY.split()
    processed = process_pdf(doc.tobytes(), "draft.pdf")
    _no_number_between_words(processed.source.text)
    assert any("120 line numbers in the margin" in w for w in processed.layout.warnings)


def test_a_watermark_set_slantwise_is_left_out_and_said_but_a_slanted_label_stays():
    """ACM's author draft, a "Sample" biosketch: a watermark set at 45° across the
    page. Its box, a square over both columns, bridged the gutter and every chunk it
    joined covered half the page; it is no text of the document. A short slanted
    label (a table's column header set at 45°) is text and stays."""
    def draw(page):
        _column(page, 54, 296, 60, 700, _words("west", 260))
        _column(page, 318, 560, 60, 700, _words("east", 260))
        centre = pymupdf.Point(150, 560)
        page.insert_text(centre, "CONFIDENTIAL DRAFT", fontsize=40, color=(0.8, 0.8, 0.8),
                         morph=(centre, pymupdf.Matrix(45)))
        label = pymupdf.Point(300, 740)
        page.insert_text(label, "Q1 total", fontsize=8, morph=(label, pymupdf.Matrix(45)))
    doc = process_pdf(_pdf(draw), "watermark.pdf")
    words = doc.source.text.split()
    west, east = _positions(doc.source.text, "west"), _positions(doc.source.text, "east")
    assert len(west) == len(east) == 260 and max(west) < min(east)
    assert "CONFIDENTIAL" not in words and "Q1" in words
    assert any("watermark" in w and "CONFIDENTIAL DRAFT" in w for w in doc.layout.warnings)


def test_a_forms_numbered_lines_keep_their_numbers():
    """A form numbers its lines too (1, 2, 3, 5, 6, …: sub-lines "4a" between), with
    its section labels in the margin left of them: those numbers are the form's."""
    def draw(page):
        page.insert_text((36, 90), "Income", fontsize=10, fontname="hebo")
        y = 90
        for n in (*range(1, 4), *range(5, 12), *range(13, 20), *range(21, 25)):
            page.insert_text((112 - pymupdf.get_text_length(str(n), "helv", 9), y), str(n),
                             fontsize=9)
            page.insert_text((130, y), f"Amount reported on schedule part {n + 40}",
                             fontsize=9)
            y += 14
    text = process_pdf(_pdf(draw), "form.pdf").source.text
    assert [t for t in text.split() if t.isdigit()][:6] == ["1", "41", "2", "42", "3", "43"]


def test_a_regulations_bold_section_headings_with_a_full_stop_are_headings():
    """A regulation titles its sections in bold at body size, ending in a full stop
    ("§ 101.1 Purpose.", the section sign a word of its own); a bold sentence with a
    full stop is still not a heading."""
    def draw(page):
        y = 70
        for number, title in (("101.1", "Purpose"), ("101.2", "Definitions of terms")):
            page.insert_text((72, y), f"§ {number} {title}.", fontsize=10, fontname="hebo")
            _column(page, 72, 540, y + 6, y + 110, LOREM * 4)
            y += 130
        page.insert_text((72, y), "Applicants must file the form before the deadline.",
                         fontsize=10, fontname="hebo")
        _column(page, 72, 540, y + 6, y + 110, LOREM * 4)
    assert [text for _, text in _headings(_pdf(draw))] == [
        "§ 101.1 Purpose.", "§ 101.2 Definitions of terms."]


def test_a_section_number_near_the_top_is_no_running_page_number():
    """Page numbers sit at the top of every page; the first section's heading starts
    near the top of page 1, its number set apart ("1" then "Historical Utility"). The
    number looks like a page number but is not where the page numbers are."""
    doc = pymupdf.open()
    for n in range(1, 5):
        page = doc.new_page(width=612, height=792)
        page.insert_text((550, 32), str(n), fontsize=10)
        top = 100
        if n == 1:
            page.insert_text((57, 68), "1", fontsize=14, fontname="hebo")
            page.insert_text((81, 68), "Historical Utility", fontsize=14, fontname="hebo")
            top = 80
        _column(page, 57, 555, top, 740, LOREM * 9)
    data = doc.tobytes()
    doc.close()
    processed = process_pdf(data, "handbook.pdf")
    assert [b.heading for b in processed.source.blocks if b.kind == "heading"] == [
        "1 Historical Utility"]
    assert not {"2", "3", "4"} & {w.text for w in processed.layout.words}


def _footnoted_pages() -> bytes:
    """Two pages: a paragraph runs from the foot of page 1 onto page 2, with the page's
    footnote (its mark raised at the start of its line) between the two parts."""
    doc = pymupdf.open()
    first = doc.new_page(width=612, height=792)
    _column(first, 72, 540, 72, 640, LOREM * 11 + "and the clerk shall enter the date on which")
    first.insert_text((72, 700), "1", fontsize=6)
    first.insert_text((76, 703), "The docket is kept open to the public at the registry.",
                      fontsize=8)
    second = doc.new_page(width=612, height=792)
    _column(second, 72, 540, 72, 300, "each application was received. " + LOREM * 4)
    data = doc.tobytes()
    doc.close()
    return data


def test_a_paragraph_carried_over_a_page_break_skips_the_footnote_between():
    """The footnote is written after the whole paragraph, its mark a word of its own."""
    text = process_pdf(_footnoted_pages(), "footnoted.pdf").source.text
    assert "enter the date on which each application was received." in text
    assert "1 The docket is kept open" in text
    assert text.index("1 The docket") > text.index("each application was received")


def test_a_chapters_label_over_its_title_is_one_heading():
    """"Chapter 2" set over "Limited Market" in another size: one heading."""
    def draw(page):
        page.insert_text((72, 120), "Chapter 2", fontsize=20, fontname="hebo")
        page.insert_text((72, 170), "Limited Market", fontsize=25, fontname="hebo")
        _column(page, 72, 540, 200, 500, LOREM * 9)
    assert [text for _, text in _headings(_pdf(draw))] == ["Chapter 2 Limited Market"]


def test_a_transcripts_speakers_questions_and_answers_are_paragraphs():
    """A transcript is typewritten: a speaker's turn, a question or an answer starts
    on a line indented by tabs, with no space above it, and runs on at the margin.
    Each is a paragraph of its own, whole; "Q." and "A." are speakers, not a list."""
    turns = [
        ("          ", "THE COURT: Good morning. Please be seated. We are on the record "
                       "in the matter of Harlow versus Denton Freight."),
        ("          ", "MR. BRANDT: Peter Brandt for the defendant, Denton Freight "
                       "Incorporated, who is present."),
        ("     ", "Q. Would you state your name for the record and spell your last name?"),
        ("     ", "A. Lucia Harlow."),
        ("     ", "Q. And where were you employed in the spring of last year, before "
                  "the events that bring us here today?"),
    ]
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    y = 90
    for indent, text in turns:
        words, line = text.split(), indent
        while words:
            while words and len(line) + len(words[0]) < 56:
                line += words.pop(0) + " "
            page.insert_text((96, y), line.rstrip(), fontname="cour", fontsize=12)
            y, line = y + 25, ""
    data = doc.tobytes()
    doc.close()
    processed = process_pdf(data, "transcript.pdf")
    paragraphs = [processed.source.text[b.start:b.end] for b in processed.source.blocks]
    assert paragraphs == [text for _, text in turns]
    report = chunk_report(processed, "structure_aware")
    assert {c["chunk_type"] for c in report["chunks"]} == {"text"}


def test_a_heading_in_small_capitals_keeps_its_size_and_its_second_line():
    """"2 Preliminaries: TAPAS for Table / Encoding", TAPAS in small capitals (a full
    size T, then APAS smaller): the first line is as large as the second, and the
    two lines are one heading."""
    def draw(page):
        x = 72.0
        for text, size in (("2 Preliminaries: T", 12), ("APAS", 9.6), (" for Table", 12)):
            page.insert_text((x, 80), text, fontsize=size, fontname="tibo")
            x += pymupdf.get_text_length(text, "tibo", size)
        page.insert_text((72, 94), "Encoding", fontsize=12, fontname="tibo")
        _column(page, 72, 540, 104, 300, LOREM * 6)
        page.insert_text((72, 330), "3 Results", fontsize=12, fontname="tibo")
        _column(page, 72, 540, 340, 500, LOREM * 6)
    headings = _headings(_pdf(draw))
    assert [text for _, text in headings] == ["2 Preliminaries: TAPAS for Table Encoding",
                                              "3 Results"]
    assert headings[0][0] == headings[1][0]


def test_a_papers_authors_and_institutions_are_not_headings():
    """The title block sets authors and their institutions as large as the section
    headings; one author has a footnote mark, the other not, and an e-mail address
    follows. None of them heads the abstract."""
    def draw(page):
        page.insert_text((150, 70), "Preemptive Extraction of Relations", fontsize=17,
                         fontname="hebo")
        page.insert_text((150, 100), "Ada Lindqvist", fontsize=12, fontname="hebo")
        page.insert_text((231, 95), "*", fontsize=8)
        page.insert_text((360, 100), "Tomas Okoro", fontsize=12, fontname="hebo")
        page.insert_text((230, 118), "Harbour Institute of Technology", fontsize=12)
        page.insert_text((220, 134), "{ada,tomas}@harbour.example.org", fontsize=10)
        page.insert_text((72, 170), "Abstract", fontsize=12, fontname="hebo")
        _column(page, 72, 540, 180, 300, LOREM * 4)
        page.insert_text((72, 330), "1 Introduction", fontsize=12, fontname="hebo")
        _column(page, 72, 540, 340, 500, LOREM * 6)
    assert [text for _, text in _headings(_pdf(draw))] == [
        "Preemptive Extraction of Relations", "Abstract", "1 Introduction"]


def test_a_paragraph_over_three_pages_skips_the_footnotes_of_both_breaks():
    doc = pymupdf.open()
    parts = (LOREM * 11 + "and the clerk shall enter the date on which",
             "each application was received " + LOREM * 13 + "and the register shall show",
             "the name of every applicant. " + LOREM * 3)
    for n, text in enumerate(parts, start=1):
        page = doc.new_page(width=612, height=792)
        _column(page, 72, 540, 72, 640 if n < 3 else 300, text)
        if n < 3:
            page.insert_text((72, 700), str(n), fontsize=6)
            page.insert_text((76, 703), f"Footnote {n} is kept at the registry for the public.",
                             fontsize=8)
    data = doc.tobytes()
    doc.close()
    text = process_pdf(data, "footnoted.pdf").source.text
    assert "enter the date on which each application was received" in text
    assert "the register shall show the name of every applicant." in text
    paragraph_end = text.index("the name of every applicant.")
    assert text.index("1 Footnote 1") > paragraph_end and text.index("2 Footnote 2") > paragraph_end


def test_a_draft_numbered_every_fifth_line_loses_its_numbers():
    """Every fifth line numbered ("5", "10", …), headings between making the pitch
    uneven: line numbering still, by its step."""
    words = _TESTIMONY.split()
    doc = pymupdf.open()
    for p in range(3):
        page = doc.new_page(width=612, height=792)
        y = 80.0
        for n in range(1, 46):
            if n % 10 == 2:
                y += 30  # a heading's space
            if n % 5 == 0:
                label = str(p * 45 + n)
                page.insert_text((50 - pymupdf.get_text_length(label, "helv", 7), y), label,
                                 fontsize=7)
            line = []
            while words and pymupdf.get_text_length(" ".join([*line, words[0]]), "helv",
                                                    10) < 440:
                line.append(words.pop(0))
            page.insert_text((72, y), " ".join(line), fontsize=10)
            words = words or _TESTIMONY.split()
            y += 12
    data = doc.tobytes()
    doc.close()
    processed = process_pdf(data, "draft.pdf")
    _no_number_between_words(processed.source.text)
    assert any("27 line numbers in the margin" in w for w in processed.layout.warnings)


_INDENTED_CSS = ("p{margin:0;text-indent:2em;text-align:justify;font-size:10pt;"
                 "font-family:sans-serif} p.ref{text-indent:-2em;padding-left:2em}")


def _set_by_html(html: str) -> bytes:
    """Paragraphs set by MuPDF's HTML engine: justified, first lines indented, no space
    between (as books, papers and regulations set them)."""
    return _pdf(lambda page: page.insert_htmlbox(pymupdf.Rect(72, 72, 300, 740), html,
                                                 css=_INDENTED_CSS))


def _paragraphs(text: str) -> list[str]:
    return [" ".join(block.split()) for block in text.split("\n\n") if block.strip()]


def test_paragraphs_set_apart_by_their_indent_alone_are_paragraphs_of_their_own():
    html = "".join(f"<p>Paragraph{k} opens here. {LOREM * (2 + k)}and so it ends.</p>"
                   for k in range(4))
    paragraphs = _paragraphs(process_pdf(_set_by_html(html), "indented.pdf").source.text)
    assert [p.split()[0] for p in paragraphs] == [f"Paragraph{k}" for k in range(4)]
    assert all(p.endswith("and so it ends.") for p in paragraphs)


def test_a_hanging_indent_keeps_each_reference_whole():
    """A reference list hangs its second lines: the first line, short and ending in a
    full stop (a forced break), and the indented line after it are one reference."""
    refs = "".join(f"<p class='ref'>Writer{k}, A. and B. Reader. 2001.<br>"
                   f"A study of dockets. Proc. of the meeting.</p>" for k in range(4))
    html = f"<p>Paragraph opens here. {LOREM * 2}and so it ends.</p>" + refs
    paragraphs = _paragraphs(process_pdf(_set_by_html(html), "refs.pdf").source.text)
    for k in range(4):
        assert any(f"Writer{k}, A. and B. Reader. 2001. A study of dockets." in p
                   for p in paragraphs)


def test_a_paragraph_goes_on_past_a_table_atop_the_next_column():
    """A paragraph breaks at the foot of the left column; the right column opens with a
    table (its caption above it, ruled only across) and then the rest of the sentence.
    The paragraph is one, the table (a table, its three columns found by the rules)
    after it."""
    def draw(page):
        _column(page, 40, 290, 60, 700, LOREM * 12 + "and the clerk shall enter the date")
        page.insert_text((320, 70), "Table 1: Applications by office.", fontsize=10)
        for y in (80, 96, 150):
            page.draw_line((320, y), (560, y), width=0.6)
        for n, row in enumerate((("Office", "Count", "Share"), ("north", "724", "72.8"),
                                 ("south", "936", "46.8"), ("east", "561", "26.8"))):
            for x, cell in zip((326, 420, 500), row, strict=True):
                page.insert_text((x, 91 + 14 * n + (4 if n else 0)), cell, fontsize=10)
        _column(page, 320, 570, 160, 700, "on which each application was received. " + LOREM)
    report = chunk_report(process_pdf(_pdf(draw), "float.pdf"), "structure_aware")
    text = " ".join(c["text"] for c in report["chunks"])
    assert "enter the date on which each application was received." in " ".join(text.split())
    assert "| Office | Count | Share |" in text
    assert text.index("| Office |") > text.index("each application was received")


def _sectioned_pages(marks: bool, mark_at: float = 50) -> bytes:
    """Four pages, each opening a section ("§ 2 Club Officers" at 14 pt over its text);
    with `marks`, each page's head names its section in body type, as a statute's or
    a book's running heads do. Page 1 is a contents page naming the sections small."""
    doc = pymupdf.open()
    titles = [f"§ {n} {name}" for n, name in enumerate(
        ("Name and Seat", "Club Officers", "Membership", "General Meeting"), start=1)]
    contents = doc.new_page(width=595, height=842)
    contents.insert_text((72, 120), "Contents", fontsize=14, fontname="hebo")
    for n, title in enumerate(titles):
        contents.insert_text((72, 150 + 16 * n), title, fontsize=10)
    for title in titles:
        page = doc.new_page(width=595, height=842)
        if marks:
            page.insert_text((220, mark_at), title, fontsize=10)
        page.insert_text((72, 130), title, fontsize=14, fontname="hebo")
        _column(page, 72, 520, 150, 600, LOREM * 8)
    data = doc.tobytes()
    doc.close()
    return data


@pytest.mark.parametrize("mark_at", [50, 95])
def test_running_heads_naming_the_current_section_are_left_out(mark_at):
    # at 95 pt the head sits a line above the text, under the head margin (KOMA-Script)
    text = process_pdf(_sectioned_pages(marks=True, mark_at=mark_at), "marks.pdf").source.text
    for title in ("§ 2 Club Officers", "§ 4 General Meeting"):
        assert text.count(title) == 2  # the contents entry and the heading, no mark


def test_a_heading_at_the_top_of_a_page_the_contents_named_stays():
    """Without marks the headings open their pages (here below the head margin, so
    set one higher): a heading named earlier in smaller type is no running head."""
    data = _sectioned_pages(marks=False)
    doc = pymupdf.open(stream=data, filetype="pdf")
    out = pymupdf.open()
    for page in doc:  # move each heading up into the head margin
        new = out.new_page(width=595, height=842)
        new.show_pdf_page(pymupdf.Rect(0, -90, 595, 752), doc, page.number)
    text = process_pdf(out.tobytes(), "tops.pdf").source.text
    for title in ("§ 2 Club Officers", "§ 4 General Meeting"):
        assert text.count(title) == 2


def test_a_books_cover_and_title_page_are_one_level_and_icons_none():
    """A 24-page manual: its cover (28 pt) and title page (22 pt) set sizes used there
    only, a margin icon ("M", 20 pt) recurs, chapters are 18 pt and sections 14 pt.
    The cover and title page are one level, the title's, and the icon none, so a
    section's heading path reads title, chapter, section."""
    doc = pymupdf.open()
    cover = doc.new_page(width=595, height=842)
    cover.insert_text((150, 300), "Dockets Guide", fontsize=28, fontname="hebo")
    title = doc.new_page(width=595, height=842)
    title.insert_text((150, 300), "Dockets Guide", fontsize=22, fontname="hebo")
    title.insert_text((150, 340), "Second edition, revised and enlarged", fontsize=10)
    for chapter in range(1, 12):
        opening = doc.new_page(width=595, height=842)
        opening.insert_text((72, 120), f"Keeping Records {chapter}", fontsize=18,
                            fontname="hebo")
        _column(opening, 72, 520, 150, 700, LOREM * 10)
        page = doc.new_page(width=595, height=842)
        page.insert_text((72, 100), f"{chapter}.1 Filing Rules", fontsize=14, fontname="hebo")
        page.insert_text((530, 100), "M", fontsize=20, fontname="hebo")
        _column(page, 72, 520, 120, 700, LOREM * 10)
    report = chunk_report(process_pdf(doc.tobytes(), "guide.pdf"), "structure_aware")
    paths = {tuple(c["heading_path"]) for c in report["chunks"]}
    assert ("Dockets Guide", "Keeping Records 3", "3.1 Filing Rules") in paths


def test_a_size_that_heads_nothing_takes_no_heading_level():
    """A report's masthead sets its issue number in a size of its own, between the
    subtitle's and the sections'; sections and subsections, half a point apart, must
    still be two levels (they were both the fourth, so a subsection's path lost its
    section)."""
    def draw(page):
        page.insert_text((72, 70), "Insurance Claims Review", fontsize=22, fontname="hebo")
        page.insert_text((72, 100), "Issues and Points", fontsize=18, fontname="hebo")
        page.insert_text((72, 125), "No. 1695 / 2020", fontsize=15)
        y = 160
        for section in ("1 Background", "2 Current Cover"):
            page.insert_text((72, y), section, fontsize=13.5, fontname="hebo")
            for sub in ("(1) Amended Act", "(2) Standard Terms"):
                page.insert_text((72, y + 22), sub, fontsize=12.5)
                _column(page, 72, 540, y + 30, y + 100, LOREM * 2, size=11)
                y += 90
            y += 20
    report = chunk_report(process_pdf(_pdf(draw), "report.pdf"), "structure_aware")
    paths = {tuple(c["heading_path"]) for c in report["chunks"]}
    top = ("Insurance Claims Review", "Issues and Points")
    assert (*top, "2 Current Cover", "(2) Standard Terms") in paths
    assert (*top, "1 Background", "(2) Standard Terms") in paths


def test_a_title_blocks_author_and_date_are_no_headings():
    """LaTeX's title block: title, author and date set larger than the text, the
    author with no footnote mark or address. The date gives the block away: neither it
    nor the author heads the sections after it."""
    def draw(page):
        page.insert_text((200, 100), "Filing Dockets", fontsize=17)
        page.insert_text((230, 130), "Oren Reader", fontsize=12)
        page.insert_text((220, 150), "February 8, 1988", fontsize=12)
        page.insert_text((72, 190), "1 Overview", fontsize=12, fontname="hebo")
        _column(page, 72, 520, 200, 400, LOREM * 6)
        page.insert_text((72, 430), "2 Changes", fontsize=12, fontname="hebo")
        _column(page, 72, 520, 440, 640, LOREM * 6)
    assert [text for _, text in _headings(_pdf(draw))] == [
        "Filing Dockets", "1 Overview", "2 Changes"]


def test_a_title_blocks_release_line_gives_the_authors_away():
    """A package's title block ends with its version and date ("Version 3.00,
    2009/06/22") rather than a bare date: the authors above it head nothing."""
    def draw(page):
        page.insert_text((200, 100), "The fraktur package", fontsize=17)
        page.insert_text((170, 130), "Frank Marsh", fontsize=12)
        page.insert_text((300, 130), "Rainer Holt", fontsize=12)
        page.insert_text((210, 150), "Version 3.00, 2009/06/22", fontsize=10)
        page.insert_text((72, 190), "1 Introduction", fontsize=14, fontname="hebo")
        _column(page, 72, 520, 200, 400, LOREM * 6)
    assert [text for _, text in _headings(_pdf(draw))] == [
        "The fraktur package", "1 Introduction"]


def test_authors_over_an_address_in_typewriter_type_are_no_headings():
    """A Texinfo title page: the authors set large over the project's address in
    typewriter type, which is read as code. The address still gives the block away."""
    def draw(page):
        page.insert_text((72, 100), "Kpathsea library", fontsize=24, fontname="hebo")
        page.insert_text((300, 140), "Karl Berry Olaf Weber", fontsize=16, fontname="hebo")
        page.insert_text((72, 170), "https://tug.org/kpathsea", fontsize=10, fontname="cour")
        _column(page, 72, 520, 190, 300, LOREM * 4)
        page.insert_text((72, 330), "1 Introduction", fontsize=16, fontname="hebo")
        _column(page, 72, 520, 340, 540, LOREM * 6)
    assert [text for _, text in _headings(_pdf(draw))] == [
        "Kpathsea library", "1 Introduction"]

def test_authors_named_by_their_initials_are_no_headings():
    """A font's documentation: the authors by their initials set large above the title,
    with no address or footnote mark. Two names in that form (or one with "et al.")
    are a byline; one alone may be a lettered heading ("A. Overview") and stays one."""
    def draw(page):
        page.insert_text((72, 90), "B. Jackowski and J. M. Nowacki", fontsize=14,
                         fontname="hebo")
        page.insert_text((72, 130), "Gyre Family of Fonts", fontsize=24, fontname="hebo")
        _column(page, 72, 520, 150, 300, LOREM * 4)
        page.insert_text((72, 330), "A. Overview", fontsize=14, fontname="hebo")
        _column(page, 72, 520, 340, 540, LOREM * 6)
    assert [text for _, text in _headings(_pdf(draw))] == [
        "Gyre Family of Fonts", "A. Overview"]


def test_prose_set_larger_than_the_code_it_documents_is_no_heading():
    """A program documented in its own source (docstrip): numbered listings in small
    typewriter type make up most of the characters, the prose between them is set a
    point larger. Its long lines make that size a body's, not a heading level."""
    doc = pymupdf.open()
    number = 0

    def listing(page: pymupdf.Page, y: float, lines: int) -> float:
        """A sentence in the prose's type ("Process options."), then the code."""
        nonlocal number
        page.insert_text((72, y + 10), f"Process the options of part {number}.", fontsize=10,
                         fontname="tiro")
        y += 14
        for _ in range(lines):
            number += 1
            page.insert_text((72, y + 9), str(number), fontsize=6)
            page.insert_text((84, y + 9), rf"\DeclareMathSymbol{{\sym{number}}}"
                             rf"{{\mathord}}{{AMSa}}{{{number}}}\relax", fontsize=9,
                             fontname="cour")
            y += 10.5
        return y + 6

    first = doc.new_page(width=612, height=792)
    first.insert_text((72, 60), "The symbols package", fontsize=17)
    first.insert_text((72, 90), "1 Introduction", fontsize=14, fontname="hebo")
    _column(first, 72, 540, 100, 148, LOREM * 2, font="tiro")
    y = listing(first, 150, 25)
    first.insert_text((72, y + 16), "2 The Implementation", fontsize=14, fontname="hebo")
    _column(first, 72, 540, y + 26, y + 74, LOREM * 2, font="tiro")
    listing(first, y + 76, 25)
    second = doc.new_page(width=612, height=792)
    _column(second, 72, 540, 60, 108, LOREM * 2, font="tiro")
    listing(second, 110, 60)
    assert [text for _, text in _headings(doc.tobytes())] == [
        "The symbols package", "1 Introduction", "2 The Implementation"]


def test_a_letter_reads_letterhead_address_date_then_body():
    """A letter: its letterhead centred at the top, the addresses on the left, the
    date on the right above the salutation. The short lines left and right never
    share a row, so they are no columns: the letter reads top to bottom."""
    def draw(page):  # as KOMA-Script's scrlttr2 sets one
        page.insert_text((271, 32), "Joe Public", fontsize=11)
        for n, line in enumerate(("2 Valley", "SAMPLEBY", "ZY32 1XW")):
            page.insert_text((270, 53 + 14 * n), line, fontsize=10)
        page.insert_text((57, 142), "Joe Public, 2 Valley, SAMPLEBY, ZY32 1XW", fontsize=7)
        for n, line in enumerate(("Joanna Public", "1 Hillside", "SAMPLESTEAD", "WX12 3YZ")):
            page.insert_text((57, 184 + 14.5 * n), line, fontsize=10)
        page.insert_text((426, 294), "12th October 2022", fontsize=10)
        page.insert_text((74, 323), "Dear Madam Chair,", fontsize=10)
        _column(page, 74, 521, 340, 420, LOREM * 2)
    text = " ".join(process_pdf(_pdf(draw), "letter.pdf").source.text.split())
    order = [text.index(s) for s in ("Joe Public", "SAMPLEBY", "Joanna Public",
                                      "SAMPLESTEAD", "12th October", "Dear Madam",
                                      "the committee shall")]
    assert order == sorted(order)


def test_a_contents_pages_bold_entries_are_not_headings():
    """A book's contents set its chapters in bold, a page number on the right and no
    dot leaders: entries under "Contents", not headings, up to the first chapter."""
    doc = pymupdf.open()
    contents = doc.new_page(width=595, height=842)
    contents.insert_text((72, 100), "Contents", fontsize=20, fontname="hebo")
    for n, name in enumerate(("Introduction", "Overview", "Installation"), start=1):
        contents.insert_text((72, 140 + 20 * n), f"{n} {name}", fontsize=12, fontname="hebo")
        contents.insert_text((510, 140 + 20 * n), str(2 * n), fontsize=12, fontname="hebo")
    for n, name in enumerate(("Introduction", "Overview", "Installation"), start=1):
        page = doc.new_page(width=595, height=842)
        page.insert_text((72, 100), f"{n} {name}", fontsize=20, fontname="hebo")
        page.insert_text((72, 140), f"{n}.1 Scope", fontsize=12, fontname="hebo")
        _column(page, 72, 520, 160, 600, LOREM * 8)
    headings = [text for _, text in _headings(doc.tobytes())]
    assert headings[:3] == ["Contents", "1 Introduction", "1.1 Scope"]
    assert headings.count("2 Overview") == 1


def test_a_title_set_over_wide_spaced_lines_is_one_heading():
    """A cover sets its title large over three lines spaced wide apart: one heading."""
    def draw(page):
        for n, word in enumerate(("Docket", "Reference", "Manual")):
            page.insert_text((150, 160 + 90 * n), word, fontsize=40, fontname="hebo")
        _column(page, 72, 520, 420, 700, LOREM * 6)
    assert [text for _, text in _headings(_pdf(draw))] == ["Docket Reference Manual"]


def test_a_paragraph_goes_on_past_a_caption_at_the_foot_of_the_page_before():
    """A figure set at the foot of page 1, its caption under it, the paragraph above it
    broken mid-sentence and carried on at the top of page 2: one paragraph, the
    caption after it. A paragraph that merely opens with "Table 4 shows" is no
    caption when it breaks mid-sentence."""
    doc = pymupdf.open()
    first = doc.new_page(width=612, height=792)
    _column(first, 72, 540, 72, 500, "Table 4 shows " + LOREM * 7 + "and the clerk shall enter")
    _picture(first, pymupdf.Rect(150, 560, 450, 700))
    first.insert_text((150, 720), "Figure 2: The yard at night.", fontsize=9)
    second = doc.new_page(width=612, height=792)
    _column(second, 72, 540, 72, 300, "the date on which each application was received. " + LOREM)
    text = " ".join(process_pdf(doc.tobytes(), "caption.pdf").source.text.split())
    assert "shall enter the date on which each application" in text
    assert text.index("Figure 2: The yard") > text.index("each application was received")


def test_a_word_hyphenated_at_a_column_foot_goes_on_past_footnotes_and_a_chart():
    """The left column ends "… when training with mul-" over two footnotes in small
    print; the right column opens with a chart drawn in lines (its axis numbers and
    legend are text, smaller than the body) and its caption, then "tiple datasets".
    One paragraph "… with multiple datasets …"; the footnotes are not part of "mul-",
    and the chart's labels and caption come after the paragraph, not inside it."""
    def draw(page):
        _column(page, 40, 290, 60, 640, LOREM * 10 + "when training with mul-", size=11)
        page.insert_text((40, 700), "8", fontsize=6)
        page.insert_text((44, 704), "Squares are counted once per office and year.", fontsize=9)
        page.insert_text((40, 716), "9", fontsize=6)
        page.insert_text((44, 720), "Lucene defaults were kept for every run.", fontsize=9)
        page.draw_rect(pymupdf.Rect(340, 70, 560, 200), width=0.5)
        page.draw_polyline([(345, 190), (400, 150), (470, 120), (555, 80)], width=0.8)
        for n, x in enumerate((345, 400, 455, 510)):
            page.insert_text((x, 212), str(20 * (n + 1)), fontsize=6)
        for n, y in enumerate((195, 160, 125, 90)):
            page.insert_text((324, y), str(40 + 10 * n), fontsize=6)
        page.insert_text((480, 180), "# Train: 1k", fontsize=6)
        page.insert_text((480, 188), "# Train: all", fontsize=6)
        page.insert_text((320, 234), "Figure 1: Accuracy by the number of examples.",
                         fontsize=10)
        _column(page, 320, 570, 250, 700, "tiple datasets, the smallest of them gains "
                "most. " + LOREM, size=11)
    text = " ".join(process_pdf(_pdf(draw), "chart.pdf").source.text.split())
    assert "when training with multiple datasets, the smallest of them gains most." in text
    assert "mul-8" not in text and "mul- 8" not in text
    assert text.index("Squares are counted") > text.index("gains most")
    assert text.index("# Train: 1k") > text.index("gains most")
    assert text.index("Figure 1: Accuracy") > text.index("gains most")


def test_a_capitalised_figure_label_does_not_finish_a_hyphenated_word():
    """"… a set of arti-" at a column foot, then a flow chart's first box label "Web
    Crawling" atop the next column: the label is not the rest of "arti-"."""
    def draw(page):
        _column(page, 40, 290, 60, 700, LOREM * 12 + "to find a set of arti-", size=11)
        page.insert_text((400, 80), "Web Crawling", fontsize=6)
        page.insert_text((400, 140), "Basic Clustering", fontsize=6)
        page.insert_text((360, 170), "Figure 4: System overview.", fontsize=10)
        _column(page, 320, 570, 190, 700, "cles that report the same news. " + LOREM, size=11)
    text = " ".join(process_pdf(_pdf(draw), "flow.pdf").source.text.split())
    assert "artiWeb" not in text and "arti-Web" not in text
    assert "a set of articles that report the same news." in text


def test_a_last_line_of_one_word_in_capitals_ends_its_sentence():
    """"… In Proceedings of the Conference on Artificial Intelligence" / "(AAAI-96).":
    a word in capitals ending the sentence is the paragraph's last line, not a
    heading over the next one; a line in capitals with no full stop still heads."""
    def draw(page):
        page.insert_text((72, 80), "Ellen Riloff. 1996. Automatically generating extraction "
                         "patterns from", fontsize=10)
        page.insert_text((72, 92), "text. In Proceedings of the Conference on Artificial "
                         "Intelligence", fontsize=10)
        page.insert_text((72, 104), "(AAAI-96).", fontsize=10)
        page.insert_text((72, 116), "Sergey Brin. 1998. Extracting patterns and relations from "
                         "the web.", fontsize=10)
        page.insert_text((72, 128), "the committee shall meet as the rules below say", fontsize=10)
        page.insert_text((72, 140), "GENERAL PROVISIONS", fontsize=10)
        page.insert_text((72, 152), "The docket is public.", fontsize=10)
    source = process_pdf(_pdf(draw), "caps.pdf").source
    paragraphs = [source.text[b.start:b.end] for b in source.blocks]
    assert any(p.endswith("Artificial Intelligence (AAAI-96).") for p in paragraphs)
    assert not any(p.startswith("(AAAI-96)") for p in paragraphs)
    assert not any("say GENERAL" in p for p in paragraphs)


def test_a_paragraph_whose_last_line_is_set_small_goes_on_past_a_caption():
    """The left column's paragraph ends in a line of small print (a formula's symbols,
    "W V ∈ R d × d V to the corre-"); the right column opens with a figure's caption and
    then "sponding representations": one paragraph. A paragraph's size is that of most
    of its lines, not of its last."""
    def draw(page):
        words = (LOREM * 14).split()
        for n in range(40):  # forty lines of body text, seven words each
            page.insert_text((40, 80 + 14 * n), " ".join(words[7 * n:7 * n + 7]), fontsize=11)
        page.insert_text((40, 80 + 14 * 40), "and W V in R d x d V mapped onto the corre-",
                         fontsize=8.5)
        page.insert_text((320, 70), "Figure 2: The input and its attention biases.", fontsize=10)
        _column(page, 320, 570, 90, 700, "sponding representations Q, K and V. " + LOREM,
                size=11)
    text = " ".join(process_pdf(_pdf(draw), "small_last.pdf").source.text.split())
    assert "mapped onto the corresponding representations Q, K and V." in text
    assert text.index("Figure 2: The input") > text.index("representations Q, K")


def test_a_paragraph_goes_on_past_a_listing_wider_than_its_caption():
    """Page 1 ends "… a hurricane name from a"; page 2 opens with a figure that is a
    listing in small print, wider than its centred caption and than the column below,
    whose text goes on "person name. …".
    One paragraph; the listing and its caption after it."""
    doc = pymupdf.open()
    first = doc.new_page(width=612, height=792)
    _column(first, 72, 540, 72, 700, LOREM * 12 + "and the tagger kept a hurricane name from a")
    second = doc.new_page(width=612, height=792)
    for n, line in enumerate(("for each cluster pair (cA, cB) {", "    XA = cA.entities",
                              "    for each entity mapping M over every pair of entities "
                              "of the two clusters {",
                              "        link cA and cB with mapping M } }")):
        second.insert_text((80, 90 + 12 * n), line, fontsize=9)
    second.insert_text((250, 160), "Figure 6: Similarity.", fontsize=10)
    _column(second, 72, 290, 190, 500, "person name. The second table is shown. " + LOREM)
    text = " ".join(process_pdf(doc.tobytes(), "listing.pdf").source.text.split())
    assert "a hurricane name from a person name. The second table" in text
    assert text.index("Figure 6: Similarity") > text.index("The second table")


def test_notes_in_the_margin_are_read_after_the_text_and_leave_its_paragraphs_whole():
    """A package manual's macro names (`\\DescribeMacro`), a statute's side notes: short
    lines in the margin beside a paragraph's lines, set apart by a gap. No column the
    reading order keeps apart (they are not running text), they were read by rows
    into the paragraph and cut it in three. They are read after the page's text."""
    def draw(page):
        _column(page, 150, 540, 100, 700, _words("body", 150),
                align=pymupdf.TEXT_ALIGN_JUSTIFY)
        for y, note in ((112, "\\firstmacro"), (160, "\\secondmacro")):
            page.insert_text((70, y), note, fontsize=9, fontname="cour")
        page.insert_text((550, 136), "NOTE", fontsize=8)  # beside justified text
    doc = process_pdf(_pdf(draw), "margin-notes.pdf")
    blocks = [doc.layout.block_text(b) for b in doc.layout.blocks]
    paragraph = next(text for text in blocks if "body0" in text)
    assert _positions(paragraph, "body") == list(range(150)), "one paragraph, in order"
    assert "\\firstmacro" not in paragraph and "NOTE" not in paragraph
    words = doc.source.text.split()
    assert words.index("\\firstmacro") > words.index("body149")
    assert words.index("\\secondmacro") > words.index("\\firstmacro")
    assert "NOTE" in words


def test_option_names_set_flush_right_close_to_the_text_are_margin_notes():
    """hep-paper's manual sets each option's name flush right in the margin, 0.7 em
    from the paragraph it describes: under a gap of 0.8 em, no name was a note, and
    each cut its paragraph in two around a code block of one word."""
    def draw(page):
        for n, y in enumerate(range(100, 600, 100)):
            _column(page, 120, 520, y, y + 60, _words(f"opt{n}x", 40),
                    align=pymupdf.TEXT_ALIGN_JUSTIFY)
            name = f"option{n}"
            width = pymupdf.get_text_length(name, fontname="cour", fontsize=10)
            page.insert_text((112.5 - width, y + 22), name, fontsize=10, fontname="cour")
    doc = process_pdf(_pdf(draw), "option-notes.pdf")
    blocks = [doc.layout.block_text(b) for b in doc.layout.blocks]
    for n in range(5):
        paragraph = next(text for text in blocks if f"opt{n}x0" in text)
        assert _positions(paragraph, f"opt{n}x") == list(range(40)), "one paragraph"
        assert "option" not in paragraph
    words = doc.source.text.split()
    for n in range(5):  # each after the paragraph it stands beside, before the next
        assert words.index(f"opt{n}x39") < words.index(f"option{n}")
        assert n == 4 or words.index(f"option{n}") < words.index(f"opt{n + 1}x0")


def test_a_description_lists_terms_at_the_text_edge_are_no_margin_notes():
    """A description list: terms at the text's left edge, each description beside its
    term. The descriptions are most of the running text, so they seem to be the text
    block and the terms its margin; but the heading above starts where the terms do:
    the terms are part of the text, each read before its description."""
    def draw(page):
        page.insert_text((60, 80), "Characters of the story", fontsize=14)
        for n, y in enumerate(range(110, 500, 60)):
            page.insert_text((60, y + 10), f"Term{n}", fontsize=10, fontname="hebo")
            _column(page, 160, 540, y, y + 50, _words(f"desc{n}x", 16))
    doc = process_pdf(_pdf(draw), "description-list.pdf")
    words = doc.source.text.split()
    order = [words.index(word) for n in range(7) for word in (f"Term{n}", f"desc{n}x0")]
    assert order == sorted(order), "each term before its description, in turn"



def test_a_title_with_a_thanks_mark_is_the_title_and_its_author_no_heading():
    """`\\thanks` in a LaTeX title puts an asterisk after it ("Die Dokumentklasse
    jura ∗"); a mark after a name makes a byline, so the title was no heading and
    the author below it, taken for the title, headed the whole document. In the
    document's largest type an asterisk is the title's; a dagger stays a byline's."""
    if not Path(DEJAVU).exists():
        pytest.skip("DejaVu Sans (fonts-dejavu-core) is needed for the ∗ glyph")

    def draw(page):
        page.insert_font(fontname="dv", fontfile=DEJAVU)
        page.insert_text((200, 100), "The quire class ∗", fontsize=17, fontname="dv")
        page.insert_text((230, 130), "Felix Marlow", fontsize=12)
        page.insert_text((235, 150), "1998/07/06", fontsize=12)
        _sections(page, ["1 Introduction", "2 Options"], 190)
    headings = [text for _, text in _headings(_pdf(draw))]
    assert headings[0].startswith("The quire class") and "∗" in headings[0]
    assert headings[1:] == ["1 Introduction", "2 Options"]


def test_a_word_in_capitals_does_not_make_a_chinese_line_one_in_capitals():
    """Chinese and Japanese have no case: a line of them with a word in capitals
    ("LATEX コマンドは…", "文档中的 PDF …") was "in capitals", so it broke from the
    paragraph it opens and became a heading. Only cased letters, nearly all of the
    line's, make a line in capitals."""
    lines = ["PDF 文件和 DVD 光盘中的内容都可以由这个程序读出并且保存为文本文件",
             "读出的内容按照原来的顺序排列每一页的文字都放在同一个文件里面并且",
             "每一个段落之间用空行分开这样就可以方便地进行检索和阅读以及修改",
             "如果文件中有图片则图片会被保存为单独的文件并在文本中留下位置标记"]

    def draw(page):
        page.insert_text((72, 80), "程序说明", fontsize=16, fontname="china-s")
        for n, line in enumerate(lines):
            page.insert_text((72, 110 + 16 * n), line, fontsize=12, fontname="china-s")
    doc = process_pdf(_pdf(draw), "cjk-capitals.pdf")
    blocks = [(b.kind, doc.layout.block_text(b)) for b in doc.layout.blocks]
    assert [text for kind, text in blocks if kind == "heading"] == ["程序说明"]
    paragraphs = [text for kind, text in blocks if kind == "paragraph"]
    assert len(paragraphs) == 1 and paragraphs[0].startswith("PDF"), "one paragraph"


def test_a_numbered_title_set_like_the_text_ends_before_the_paragraph_under_it():
    """A subsection's title in the text's size and weight ("3.1.3 Windows", in TeX
    Live's Japanese guide), spaced from its paragraph like the paragraph's lines: a
    paragraph's first line is full, so a short numbered one is its own block, the
    heading. A contents entry ends in its page number and stays an entry."""
    def draw(page):
        page.insert_text((72, 100), "3.1.3 Windows", fontsize=10)
        _column(page, 84, 540, 103, 170, LOREM * 3)
        page.insert_text((72, 200), "3.1.4 Cygwin", fontsize=10)
        _column(page, 84, 540, 203, 270, LOREM * 3)
    assert [text for _, text in _headings(_pdf(draw))] == ["3.1.3 Windows", "3.1.4 Cygwin"]


def test_a_titles_release_line_in_its_type_is_no_part_of_the_title():
    """`\\title{The arabluatex package \\\\ v1.20 – 2020/03/23}`: the release line is set
    in the title's type, so it joined the title, and the date in the block made the
    whole of it no heading; the author below, taken for the title, headed the
    document. The release line is a block of its own: the title stays the title, and
    the author over an address is a byline."""
    def draw(page):
        page.insert_text((200, 100), "The quire package", fontsize=17)
        page.insert_text((205, 122), "v1.20, 2020/03/23", fontsize=17)
        page.insert_text((240, 150), "Felix Marlow", fontsize=12)
        page.insert_text((225, 166), "marlow@quire.example.org", fontsize=12)
        _sections(page, ["1 Introduction"], 200)
    assert [text for _, text in _headings(_pdf(draw))] == ["The quire package",
                                                           "1 Introduction"]


@pytest.mark.parametrize(("text", "date"), [
    ("١٩ اردیبهشت ١٣٩۴", True),  # a Persian title page's solar date
    ("۲۵ اسفند ۱۴۰۰", True),
    ("3 مارس 2021", True),  # Arabic, Egyptian month names
    ("12 تشرين الأول 2019", True),  # Levantine
    ("February 8, 1988", True),
    ("کاربرد مهر در متن", False),  # a month's name in a sentence is no date
    ("11. Dezember 2022", True),  # German, French, Spanish, Portuguese, Italian
    ("1er mars 2021", True),
    ("2 de marzo de 2021", True),
    ("15 de setembro de 2019", True),
    ("Dicembre 2011", True),
    ("Mai 2020 bis Juni", False),
])
def test_dates_in_other_scripts_and_languages_give_a_title_block_away(text, date):
    assert is_date(text) is date


def test_prose_that_names_a_web_address_is_no_byline():
    # tudaposter's announcement: a paragraph of two sentences ending in the maker's
    # web address was taken for a byline, and the section heading above it for an
    # author's name
    def draw(page):
        page.insert_text((72, 70), "Notices in the House Style", fontsize=20, fontname="hebo")
        page.insert_text((72, 110), "Basic Notes", fontsize=14, fontname="hebo")
        _column(page, 72, 540, 120, 170, "This class sets notices for the notice boards. "
                "It follows the house style of the poster class. www.example.org")
        _sections(page, ["1 Options"], 220)
    assert "Basic Notes" in [text for _, text in _headings(_pdf(draw))]


@pytest.mark.parametrize("first", ["1", "*"])
def test_footnotes_set_one_under_the_other_are_paragraphs_of_their_own(first: str):
    """Two footnotes at the foot of a page, both marks indented alike: a short one
    ("1 Harbour Institute.", or "* Harbour Institute.") and one over two lines.
    Nothing in the indent parts them; the second starts with its mark after a
    sentence ends, in small print low on the page. Its own second line, starting
    with a number after no full stop, stays in it. An asterisk there is a mark, kept,
    not a list's bullet."""
    def draw(page):
        _column(page, 72, 540, 72, 600, LOREM * 8)
        for y, mark, text in ((690, first, "Harbour Institute."),
                              (701, "2", "The effective household calculates the internal "
                                         "contract before the substantial engine, in")):
            page.insert_text((80, y - 3), mark, fontsize=6)
            page.insert_text((84, y), text, fontsize=8)
        page.insert_text((72, 711), "2019, prepares the quarterly laboratory.", fontsize=8)
    paragraphs = _paragraphs(process_pdf(_pdf(draw), "footnotes.pdf").source.text)
    assert f"{first} Harbour Institute." in paragraphs, paragraphs
    assert any(p.startswith("2 The effective household") and p.endswith(
        "in 2019, prepares the quarterly laboratory.") for p in paragraphs), paragraphs


def test_a_code_line_keeps_its_leading_dash():
    """A bullet glyph is dropped only from a list item's line (markdown writes its own
    "- "): a code block's YAML list ("  - run: make test") kept no dash."""
    def draw(page):
        _column(page, 72, 540, 72, 300, LOREM * 4)
        for n, text in enumerate(["steps:", "  - run: make test", "  - run: make lint"]):
            page.insert_text((72, 330 + 12 * n), text, fontsize=9, fontname="cour")
        _column(page, 72, 540, 400, 600, LOREM * 3)
    text = process_pdf(_pdf(draw), "ci.pdf").source.text
    assert "```\nsteps:\n  - run: make test\n  - run: make lint\n```" in text, text


def test_a_table_label_atop_every_page_is_no_running_head():
    """A report of one table a page starts each page with "Table N." at one height,
    its caption's text beside it: the label recurs there as a running head does
    (numbers aside, "Table #."), and was left out of every caption. The page's foot,
    "Reference Tables" beside its page number, is still left out."""
    doc = pymupdf.open()
    for n in range(4):
        page = doc.new_page(width=612, height=792)
        page.insert_text((36, 46), f"Table {14 + n}.", fontsize=9, fontname="hebo")
        page.insert_text((84, 46), f"Projected numbers of graduates, series {n + 1}",
                         fontsize=9, fontname="hebo")
        _column(page, 36, 560, 80, 400, LOREM * 5)
        page.insert_text((36, 765), f"{52 + n} Reference Tables", fontsize=8)
    data = doc.tobytes()
    doc.close()
    text = process_pdf(data, "tables.pdf").source.text
    for n in range(4):
        assert f"Table {14 + n}. Projected numbers of graduates, series {n + 1}" in text, text
    assert "Reference Tables" not in text


def test_the_feet_of_each_side_of_a_two_sided_report_are_left_out():
    """Seven pages, the left-hand feet naming the part ("52 Reference Tables"), the
    right-hand ones the series ("Projections of Statistics 53"): the right-hand foot
    is on three pages of seven, under half of them, but on every page of its side."""
    doc = pymupdf.open()
    for n in range(7):
        page = doc.new_page(width=612, height=792)
        _column(page, 72, 540, 72, 500, f"Page{n} opens here. " + LOREM * 4)
        foot = f"{52 + n} Reference Tables" if n % 2 == 0 else f"Projections of Statistics {52 + n}"
        page.insert_text((72 if n % 2 == 0 else 420, 765), foot, fontsize=8)
    data = doc.tobytes()
    doc.close()
    text = process_pdf(data, "report.pdf").source.text
    assert all(f"Page{n} opens here." in text for n in range(7))
    assert "Reference Tables" not in text and "Projections of Statistics" not in text, text


def test_a_caption_in_capitals_on_two_lines_stays_whole_over_its_table():
    """A bold caption in capitals, centred on two lines, the first left unfinished
    ("… BY LITERACY STATUS OF" over "MALE HEAD OF THE HOUSEHOLD"): its second line
    read as a heading, so the caption was cut in two and the table headed by its
    second half."""
    def draw(page):
        page.insert_text((124, 77), "Table 6 : DISTRIBUTION (%) OF HOUSEHOLDS BY LITERACY "
                         "STATUS OF", fontsize=10, fontname="hebo")
        page.insert_text((219, 89), "MALE HEAD OF THE HOUSEHOLD", fontsize=10, fontname="hebo")
        xs, ys = [100, 220, 340, 460], [110 + 18 * n for n in range(5)]
        for x in xs:
            page.draw_line((x, ys[0]), (x, ys[-1]))
        for y in ys:
            page.draw_line((xs[0], y), (xs[-1], y))
        for r, row in enumerate([("State", "n", "Share")] + [(f"State{k}", "2400", f"{k}.5")
                                                            for k in range(3)]):
            for c, cell in enumerate(row):
                page.insert_text((xs[c] + 4, ys[r] + 13), cell, fontsize=9)
        _column(page, 72, 540, 220, 400, LOREM * 3)
    data = _pdf(draw)
    assert _headings(data) == []
    text = process_pdf(data, "caption.pdf").source.text
    assert ("Table 6 : DISTRIBUTION (%) OF HOUSEHOLDS BY LITERACY STATUS OF MALE HEAD OF "
            "THE HOUSEHOLD\n\n| State | n | Share |") in text, text


def test_a_forms_bold_tick_box_answer_is_no_heading():
    """A form sets the answer beside a tick box in bold at its body size ("No" at the
    right margin, pdf.js's prefilled 1040): by its weight alone it was a heading, and
    "Refund > No" headed the form's last section. A bold word of three letters or more
    still heads, and so does a numbered title however short."""
    def draw(page):
        page.insert_text((72, 80), "Refund", fontsize=10, fontname="hebo")
        _column(page, 72, 540, 88, 200, LOREM * 3)
        page.insert_text((72, 230), "Do you want to allow another person to discuss "
                         "this return with the office?", fontsize=10)
        page.draw_rect(pymupdf.Rect(500, 221, 508, 229))
        page.insert_text((512, 230), "No", fontsize=10, fontname="hebo")
        _column(page, 72, 540, 240, 330, LOREM * 3)
        page.insert_text((72, 360), "Tax", fontsize=10, fontname="hebo")
        _column(page, 72, 540, 368, 460, LOREM * 3)
        page.insert_text((72, 490), "5 AI", fontsize=10, fontname="hebo")
        _column(page, 72, 540, 498, 590, LOREM * 3)
    assert [text for _, text in _headings(_pdf(draw))] == ["Refund", "Tax", "5 AI"]


def _set_in_fonts(page: pymupdf.Page, x: float, y: float,
                  pieces: list[tuple[str, str]], size: float = 10) -> None:
    """One line of `pieces` (text, font), each set after the one before it."""
    for text, font in pieces:
        page.insert_text((x, y), text, fontsize=size, fontname=font)
        x += pymupdf.get_text_length(text, font, size)


def test_typewriter_words_in_a_bold_line_leave_it_bold():
    """LaTeX has no bold typewriter type: REVTeX's bold lead paragraph sets
    `\\texttt{quotation}` in medium weight on its second line. Read as not bold, that
    line ended the bold text, and the paragraph's first line, bold and alone, was a
    heading ("The lead paragraph is encapsulated with the"). A title with a file name
    in it is bold still and heads; a listing's line with a bold keyword is code."""
    def draw(page):
        _set_in_fonts(page, 72, 80, [("The lead paragraph is encapsulated with the", "hebo")])
        _set_in_fonts(page, 72, 92, [("LaTeX ", "hebo"), ("quotation", "cour"),
                                     (" environment and is formatted as a", "hebo")])
        _set_in_fonts(page, 72, 104, [("single paragraph before the first heading.", "hebo")])
        _column(page, 72, 540, 120, 230, LOREM * 3)
        _set_in_fonts(page, 72, 260, [("Appendix A The listing of ", "hebo"),
                                      ("topcoman.sty", "cour")])
        _column(page, 72, 540, 268, 380, LOREM * 3)
        _set_in_fonts(page, 72, 400, [("\\else", "cobo"), (" % otherwise", "cour")])
        _set_in_fonts(page, 72, 412, [("\\relax", "cour")])
        _column(page, 72, 540, 430, 540, LOREM * 3)
    headings = [text for _, text in _headings(_pdf(draw))]
    assert headings == ["Appendix A The listing of topcoman.sty"]

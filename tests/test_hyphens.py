"""Line-end hyphens (`visualiser/hyphens.py`): joined where the break is soft, kept
where the document spells the compound with a hyphen, or the second part starts with
a capital or a digit; both halves keep their boxes."""

from __future__ import annotations

import pymupdf

from visualiser.hyphens import LineEndHyphens
from visualiser.pipeline import chunk_report, process_pdf


def _hyphens(*words: str) -> LineEndHyphens:
    return LineEndHyphens(lambda: iter(words))


def test_a_word_broken_by_the_typesetter_is_joined():
    assert _hyphens("the", "tion").joint("detec-", "tion") == "join"


def test_a_soft_hyphen_is_always_a_break_inside_a_word():
    assert _hyphens("self-publishing").joint("self\u00ad", "publishing") == "join"


def test_a_compound_the_document_spells_with_its_hyphen_keeps_it():
    hyphens = _hyphens("on", "self-publishing,", "and")
    assert hyphens.joint("self-", "publishing.") == "keep"
    assert hyphens.joint("(self-", "publishing)") == "keep"


def test_the_spelling_the_document_uses_more_often_wins():
    assert _hyphens("email", "email", "e-mail").joint("e-", "mail") == "join"
    assert _hyphens("email", "e-mail", "e-mail").joint("e-", "mail") == "keep"


def test_a_capital_or_a_digit_after_the_hyphen_keeps_it():
    hyphens = _hyphens()
    assert hyphens.joint("Jean-", "Pierre") == "keep"
    assert hyphens.joint("COVID-", "19") == "keep"
    assert hyphens.joint("3-", "dimensional") == "keep"


def test_no_hyphen_or_no_word_after_it_is_two_words():
    hyphens = _hyphens()
    assert hyphens.joint("table", "three") is None
    assert hyphens.joint("-", "three") is None
    assert hyphens.joint("word-", "(see") is None


def test_in_a_document_the_halves_keep_their_boxes_and_the_text_follows_the_rules():
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    lines = ["Authors turn to self-publishing more and more, and self-",
             "publishing is cheap. The detec-",
             "tion of a COVID-",
             "19 case is reported the same day."]
    for n, line in enumerate(lines):
        page.insert_text((72, 80 + 14 * n), line, fontsize=11)
    result = process_pdf(doc.tobytes(), "hyphens.pdf")
    text = result.source.text
    assert "and self-publishing is cheap" in text
    assert "The detection of a COVID-19 case" in text
    halves = [w for w in result.layout.words if w.text in ("self-", "publishing")]
    assert len(halves) == 2 and halves[0].bbox[1] < halves[1].bbox[1]
    start = text.index("self-publishing is")
    owners = [result.source.word_at[i] for i in range(start, start + len("self-publishing"))]
    assert owners == [halves[0].id] * 5 + [halves[1].id] * 10


def test_a_word_the_document_spells_joined_is_joined_even_before_a_capital():
    assert _hyphens("TABLEFORMER", "uses").joint("TABLE-", "FORMER") == "join"


def test_a_heading_broken_at_a_hyphen_is_joined_in_its_heading_path():
    """The heading path names the heading as its chunk text writes it: a title broken
    over two lines at "Develop-" reads "Development" there too."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 80), "Studies Relating to Technological Develop-", fontsize=16,
                     fontname="hebo")
    page.insert_text((72, 100), "ment", fontsize=16, fontname="hebo")
    for n in range(6):
        page.insert_text((72, 140 + 14 * n), "The studies of the office are reported to "
                         "the committee every year, with their findings.", fontsize=10)
    report = chunk_report(process_pdf(doc.tobytes(), "heading.pdf"), "structure_aware")
    paths = {tuple(c["heading_path"]) for c in report["chunks"]}
    assert ("Studies Relating to Technological Development",) in paths, paths

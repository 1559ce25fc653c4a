"""The token_based banner speaks of the document it is shown on: it names the
table-context chunks there are (the Apex sample has one, chunk 4), or says in one line
that there are none. The strategy writes the words, the analysis counts the chunks."""

from __future__ import annotations

import pymupdf
import pytest
from conftest import APEX

from visualiser import analysis
from visualiser.pipeline import chunk_report, process_pdf
from visualiser.strategies import STRATEGIES

TOKEN_BASED = STRATEGIES["token_based"]


def plain_pdf() -> bytes:
    """Three paragraphs and no table."""
    with pymupdf.open() as document:
        page = document.new_page(width=612, height=792)
        page.insert_text((72, 80), "Delivery terms", fontsize=16, fontname="hebo")
        text = "Goods are delivered within thirty days of the order, at the buyer's site. " * 6
        page.insert_textbox(pymupdf.Rect(72, 100, 540, 400), text, fontsize=10)
        return document.tobytes()


def test_apex_names_its_one_context_chunk(processed):
    report = chunk_report(processed(APEX), "token_based")
    about = report["strategy"]
    assert [c["index"] for c in report["chunks"] if c["chunk_type"] == "table_context"] == [4]
    assert "1 table-context chunk — 4 — repeats its neighbours on purpose" in about["banner"]
    assert "its box spans theirs" in about["banner"]
    assert {"chunk": 4} in about["banner_parts"]
    # The parts say the same as the text.
    assert "".join(p.get("text", str(p.get("chunk"))) for p in about["banner_parts"]) \
        == about["banner"]


def test_a_document_without_tables_gets_the_one_line_form():
    doc = process_pdf(plain_pdf(), "plain.pdf")
    report = chunk_report(doc, "token_based")
    assert not any(c["chunk_type"] == "table_context" for c in report["chunks"])
    assert report["strategy"]["banner"] == TOKEN_BASED.short_banner
    assert "no table-context chunk" in TOKEN_BASED.short_banner
    assert "\n" not in TOKEN_BASED.short_banner and "spans" in TOKEN_BASED.short_banner


@pytest.mark.parametrize(("numbers", "expected"), [
    ([4, 9, 15], "3 table-context chunks — 4, 9, 15 — repeat their neighbours on purpose"),
    ([2, 7], "2 table-context chunks — 2, 7 — repeat their neighbours on purpose"),
])
def test_many_context_chunks_are_counted_and_listed(numbers, expected):
    settings = TOKEN_BASED.settings()
    types = ["text"] * 20
    for n in numbers:
        types[n] = "table_context"
    about = analysis.banner(TOKEN_BASED, settings, types)
    assert expected in about["banner"] and "their boxes span them" in about["banner"]
    assert [p["chunk"] for p in about["banner_parts"] if "chunk" in p] == numbers


def test_no_context_chunks_switched_off_speaks_of_the_overlap_only(processed):
    report = chunk_report(processed(APEX), "token_based", {"table_context": "false"})
    assert "switched off" in report["strategy"]["banner"]
    assert "table-context chunk" not in report["strategy"]["banner"]


def test_structure_aware_still_has_no_banner(processed):
    about = chunk_report(processed(APEX), "structure_aware")["strategy"]
    assert about["banner"] is None and about["banner_parts"] is None

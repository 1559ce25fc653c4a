"""Overlaps are measured on the text two chunks share, not on their enclosing boxes:
the hatched rectangles lie on both chunks' lines and on the words both hold, `area` is
their area; boxes that cross where no word is shared are reported with no area."""

from __future__ import annotations

import json

import pymupdf
from conftest import APEX
from shapely import box, unary_union

from visualiser.pipeline import chunk_report, imported_report, process_pdf
from visualiser.render import render_overlay_png

LEFT, RIGHT = pymupdf.Rect(50, 60, 290, 700), pymupdf.Rect(322, 60, 562, 700)


def two_columns() -> bytes:
    with pymupdf.open() as document:
        page = document.new_page(width=612, height=792)
        # Words that never repeat, so each imported chunk aligns to one place only.
        for rect, word in ((LEFT, "freight"), (RIGHT, "claims")):
            page.insert_textbox(rect, " ".join(f"{word}{i}" for i in range(160)), fontsize=10)
        return document.tobytes()


def shape(rects):
    return unary_union([box(*r) for r in rects])


def test_boxes_that_cross_without_shared_words_have_no_area():
    doc = process_pdf(two_columns(), "columns.pdf")
    words = sorted(doc.layout.words, key=lambda w: (w.bbox[0] > 306, w.bbox[1], w.bbox[0]))
    left = [w.text for w in words if w.bbox[0] < 306]
    right = [w.text for w in words if w.bbox[0] >= 306]
    # Chunk 0 runs on into the right column's first line: its box spans both columns
    # and so crosses chunk 1's box over the whole right column, with no word in common.
    chunks = [" ".join(left + right[:6]), " ".join(right[6:])]
    report = imported_report(doc, json.dumps(chunks).encode(), "columns.json")
    (overlap,) = report["overlaps"]
    assert overlap["reason"] == "layout_only"
    assert overlap["box_area"] > 10_000  # the enclosing boxes cross over a wide area
    assert overlap["area"] == 0 and overlap["rects"] == [] and overlap["shared_words"] == 0
    # The static render outlines it and hatches nothing: it still renders.
    assert render_overlay_png(doc, report, 1, scale=1.0)[:4] == b"\x89PNG"


def test_overlap_window_is_hatched_on_the_shared_words_only(processed):
    doc = processed(APEX)
    report = chunk_report(doc, "token_based")
    chunks = report["chunks"]
    overlap = next(o for o in report["overlaps"] if o["reason"] == "overlap_window")
    a, b = chunks[overlap["a"]], chunks[overlap["b"]]
    page = overlap["page"]
    ra = next(r for r in a["regions"] if r["page"] == page)
    rb = next(r for r in b["regions"] if r["page"] == page)
    hatched = shape(overlap["rects"])
    assert overlap["rects"] and overlap["shared_words"] > 0
    assert abs(hatched.area - overlap["area"]) < 1.0
    # Smaller than the crossing of the enclosing boxes, and on both chunks' lines.
    assert overlap["area"] < overlap["box_area"]
    assert hatched.difference(shape(ra["rects"]).intersection(shape(rb["rects"]))).area < 1.0
    # Every hatched rectangle holds a word of both chunks' text, and no word of the page
    # that only one chunk holds lies wholly inside the hatching.
    text_a, text_b = set(a["text"].split()), set(b["text"].split())
    inside = [w for w in doc.layout.words if w.page == page
              and hatched.contains(box(*w.bbox).buffer(-0.5))]
    assert inside and all(w.text in text_a and w.text in text_b for w in inside)


def test_a_context_chunk_hatches_only_its_shared_lines(processed):
    report = chunk_report(processed(APEX), "token_based")
    for overlap in report["overlaps"]:
        if overlap["reason"] == "table_context":
            assert 0 < overlap["area"] <= overlap["box_area"]
            assert overlap["intended"] is True

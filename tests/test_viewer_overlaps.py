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


def test_a_box_stretched_by_a_note_set_sideways_in_the_margin_says_so():
    """arXiv's stamp, set sideways in the left margin beside the whole page, is read
    after the page's text: the last chunk's box reaches out to the margin and up the
    page, over the box of the chunk above it. The chunk says why, and the overlap is
    put down to the note, not left as boxes crossing for no reason."""
    with pymupdf.open() as document:
        page = document.new_page(width=612, height=792)
        for top, word in ((150, "freight"), (420, "claims")):
            assert page.insert_textbox(pymupdf.Rect(72, top, 540, top + 250),
                                       " ".join(f"{word}{i}" for i in range(120)),
                                       fontsize=10) >= 0
        page.insert_text((36, 720), "arXiv:2203.00274v2 [cs.CL] 3 May 2022", fontsize=24,
                         rotate=90)
        data = document.tobytes()
    doc = process_pdf(data, "stamped.pdf")
    words = sorted(doc.layout.words, key=lambda w: (w.bbox[1], w.bbox[0]))
    upper = [w.text for w in words if w.text.startswith("freight")]
    lower = [w.text for w in words if w.text.startswith("claims")]
    stamp = [w.text for w in doc.layout.words if w.bbox[0] < 60]
    assert stamp and " ".join(stamp) == "arXiv:2203.00274v2 [cs.CL] 3 May 2022"
    chunks = [" ".join(upper), " ".join(lower + stamp)]
    report = imported_report(doc, json.dumps(chunks).encode(), "stamped.json")
    (overlap,) = report["overlaps"]
    assert overlap["reason"] == "margin_note"
    first, second = report["chunks"]
    assert not any(f["code"] == "margin_note" for f in first["flags"])
    note = [f for f in second["flags"] if f["code"] == "margin_note"]
    assert note and note[0]["intended"]
    assert "sideways text beside it on page 1" in note[0]["message"]
    # a note that is not in the margin beside the text (a chunk of the note alone)
    alone = imported_report(doc, json.dumps([" ".join(stamp)]).encode(), "note.json")
    assert not alone["chunks"][0]["flags"]

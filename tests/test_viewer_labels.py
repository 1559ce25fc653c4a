"""One label placement for the browser and the static render, and on a dense page it
covers no word and no other label."""

from __future__ import annotations

import pymupdf
from conftest_web import make_long_table_pdf

from visualiser.labels import place_page
from visualiser.pipeline import chunk_report, process_pdf
from visualiser.render import LABEL_FONT, render_overlay_png


def crosses(a, b) -> bool:
    return a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5


def test_dense_table_labels_cover_no_word_and_the_render_draws_the_same(tmp_path):
    path = tmp_path / "table.pdf"
    make_long_table_pdf(path, 4)
    doc = process_pdf(path.read_bytes(), path.name)
    report = chunk_report(doc, "token_based")
    for page in report["pages"]:
        sent = [{k: v for k, v in m.items() if k != "page"}
                for m in report["labels"] if m["page"] == page["number"]]
        # What the browser is sent is what the render places.
        assert sent == place_page(report["chunks"], report["containment"], page["number"],
                                  page["width"], page["height"])
        words = [w.bbox for w in doc.layout.words if w.page == page["number"]]
        for n, mark in enumerate(sent):
            assert not any(crosses(mark["box"], w) for w in words), mark
            assert not any(crosses(mark["box"], o["box"]) for o in sent[n + 1:]), mark
    assert any(m["kind"] == "group" for m in report["labels"])
    assert render_overlay_png(doc, report, 1, scale=1.0)[:4] == b"\x89PNG"


def test_a_run_of_chunks_is_written_as_a_range_and_the_render_can_write_it(tmp_path):
    path = tmp_path / "table.pdf"
    make_long_table_pdf(path, 1)
    doc = process_pdf(path.read_bytes(), path.name)
    rects = [[72.0, 100.0, 500.0, 112.0]]
    chunks = [{"index": i, "chunk_type": "text", "regions": [
        {"page": 1, "rects": rects, "bbox": rects[0]}]} for i in range(15, 28)]
    report = {"chunks": chunks, "overlaps": [], "containment": [],
              "pages": [{"number": 1, "width": 612, "height": 792}]}
    (mark,) = place_page(chunks, [], 1, 612, 792)
    assert mark["text"] == "15–27"
    assert render_overlay_png(doc, report, 1, scale=2.0)[:4] == b"\x89PNG"
    # The render writes labels in a font that has the en dash.
    assert pymupdf.Font(fontfile=str(LABEL_FONT)).has_glyph(0x2013)


def test_a_label_looks_for_room_near_its_box_only(monkeypatch):
    """On a page filled edge to edge the search for a free spot gives up near the box
    (and overprints the margin) instead of trying every spot along a row: on a page
    made 2^32 pt wide, trying them all took 24 GB. The pipeline refuses such a page;
    the placement stays bounded for any page it is given (spots tried counted, not
    seconds)."""
    from visualiser import labels

    tried = []
    fits = labels._Free.fits
    monkeypatch.setattr(labels._Free, "fits", lambda self, b: tried.append(b) or fits(self, b))
    width = 2.0 ** 32
    rects = [[0.0, 20.0 * n, width, 20.0 * n + 18] for n in range(40)]
    chunk = {"index": 0, "regions": [{"page": 1, "rects": rects,
                                       "bbox": [0.0, 0.0, width, 798.0]}]}
    marks = place_page([chunk], [], 1, width, 800.0)
    assert [m["text"] for m in marks] == ["0"]
    rows = 2 * labels.SEARCH_STEPS + 1  # the anchor's row, then rows above and below
    assert 0 < len(tried) <= rows * 3 * labels.MAX_ALONG  # right, left and over the box

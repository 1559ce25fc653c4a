"""Page images and the static overlay PNG: sizes, determinism, boxes where the text is."""

from __future__ import annotations

import math
from dataclasses import dataclass

import pymupdf
import pytest
from conftest_web import assert_matches_golden

from visualiser.errors import BadParameter, NotFound
from visualiser.labels import place_page
from visualiser.pipeline import chunk_report
from visualiser.render import (
    PALETTE,
    PageImageCache,
    colour,
    hatch_segments,
    parse_scale,
    render_overlay_png,
    render_page_png,
)

APEX = "05_Apex_Logistics_Services_Agreement_2025.pdf"


@dataclass
class Doc:
    pdf: bytes


def pixel(pixmap: pymupdf.Pixmap, x: float, y: float) -> tuple[int, ...]:
    return tuple(pixmap.pixel(int(x), int(y)))


def one_box_report(page: int, box: list[float], rects: list[list[float]]) -> dict:
    return {
        "chunks": [
            {"index": 0, "regions": [{"page": page, "bbox": box, "rects": rects}]},
        ],
        "overlaps": [],
        "containment": [],
    }


def test_parse_scale():
    assert parse_scale(None) == 1.0
    assert parse_scale("1.333") == 1.33
    assert parse_scale(4) == 4.0
    for bad in ("x", "0.2", "4.01", "nan", "inf", "-1"):
        with pytest.raises(BadParameter) as caught:
            parse_scale(bad)
        assert caught.value.details["parameter"] == "scale"


def test_page_png_size_and_missing_pages(sample_path):
    with pymupdf.open(sample_path(APEX)) as document:
        pixmap = pymupdf.Pixmap(render_page_png(document, 1, 2.0))
        assert (pixmap.width, pixmap.height) == (1224, 1584)
        with pytest.raises(NotFound):
            render_page_png(document, 5, 1.0)


def test_page_image_cache_renders_once(tmp_path, sample_path):
    cache = PageImageCache(tmp_path)
    loads = []

    def load() -> bytes:
        loads.append(1)
        return sample_path(APEX).read_bytes()

    first = cache.get("abc123", load, 2, 1.0)
    second = cache.get("abc123", load, 2, 1.0)
    third = cache.get("abc123", load, 3, 1.0)  # same open document, no reload
    cache.close()
    assert first == second and first.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert third != first and loads == [1]
    assert not list(tmp_path.rglob("*.part"))


def test_overlay_is_deterministic_and_matches_its_golden(processed):
    doc = processed(APEX)
    report = chunk_report(doc, "token_based")
    png = render_overlay_png(doc, report, 3, 1.0)
    assert png == render_overlay_png(doc, report, 3, 1.0)
    assert_matches_golden(png, "overlay-apex-token-based-p3.png")


def test_overlay_draws_boxes_where_the_words_are(processed):
    doc = processed(APEX)
    report = chunk_report(doc, "structure_aware")
    scale = 2.0
    plain = pymupdf.Pixmap(render_page_png(pymupdf.open(stream=doc.pdf), 1, scale))
    drawn = pymupdf.Pixmap(render_overlay_png(doc, report, 1, scale))
    assert (plain.width, plain.height) == (drawn.width, drawn.height)
    first = next(c for c in report["chunks"] if c["regions"][0]["page"] == 1)
    x0, top, x1, bottom = first["regions"][0]["bbox"]
    # Outline: the left edge of the box is painted in the chunk's colour.
    edge = pixel(drawn, x0 * scale, (top + bottom) / 2 * scale)
    target = tuple(int(PALETTE[0][i : i + 2], 16) for i in (1, 3, 5))
    assert max(abs(a - b) for a, b in zip(edge, target, strict=True)) < 60
    # Away from every box (the bottom margin) the page is untouched.
    assert pixel(drawn, 10, drawn.height - 10) == pixel(plain, 10, plain.height - 10)


def _rotated_pdf() -> bytes:
    with pymupdf.open() as document:
        page = document.new_page(width=400, height=600)
        page.insert_text((50, 80), "Rotated words", fontsize=20)
        page.set_rotation(90)
        return document.tobytes()


def test_overlay_uses_displayed_coordinates_on_rotated_pages():
    pdf = _rotated_pdf()
    with pymupdf.open(stream=pdf) as document:
        page = document[0]
        assert (page.rect.width, page.rect.height) == (600, 400)
        word = page.get_text("words")[0]
        displayed = pymupdf.Rect(word[:4]) * page.rotation_matrix
    box = [displayed.x0, displayed.y0, displayed.x1, displayed.y1]
    plain = pymupdf.Pixmap(render_page_png(pymupdf.open(stream=pdf), 1, 1.0))
    drawn = pymupdf.Pixmap(render_overlay_png(Doc(pdf), one_box_report(1, box, [box]), 1, 1.0))
    assert (drawn.width, drawn.height) == (plain.width, plain.height) == (600, 400)
    inside = [
        (x, y)
        for x in range(math.ceil(box[0]) + 2, int(box[2]) - 1)
        for y in range(math.ceil(box[1]) + 2, int(box[3]) - 1)
    ]
    # The displayed box covers the text as rendered (dark ink inside it) ...
    assert any(max(pixel(plain, x, y)) < 100 for x, y in inside)
    # ... and the overlay tints exactly there: paper inside the box is no longer white.
    paper = [(x, y) for x, y in inside if min(pixel(plain, x, y)) == 255]
    assert paper and all(pixel(drawn, x, y) != (255, 255, 255) for x, y in paper)
    assert pixel(drawn, 5, 5) == pixel(plain, 5, 5) == (255, 255, 255)


def test_overlay_bad_page_and_scale(processed):
    doc = processed(APEX)
    report = {"chunks": [], "overlaps": [], "containment": []}
    with pytest.raises(NotFound):
        render_overlay_png(doc, report, 9, 1.0)
    with pytest.raises(BadParameter):
        render_overlay_png(doc, report, 1, 40)


def test_labels_never_overlap_each_other_or_the_text():
    def chunk(index, rects):
        rects = [list(r) for r in rects]
        bbox = [min(r[0] for r in rects), min(r[1] for r in rects),
                max(r[2] for r in rects), max(r[3] for r in rects)]
        return {"index": index, "regions": [{"page": 1, "rects": rects, "bbox": bbox}]}

    # Nested chunks sharing a top-left corner, and chunks that reach the page's edge.
    same_corner = [chunk(i, [(72.0, 100.0, 500.0, 112.0), (72.0, 114.0, 500.0, 300.0 + i)])
                   for i in range(4)]
    narrow_margin = [chunk(i, [(2.0, 50.0 + 20 * i, 600.0, 62.0 + 20 * i)]) for i in range(3)]
    containment = [{"container": 0, "contained": 1, "intended": True}]
    for chunks in (same_corner, narrow_margin):
        marks = place_page(chunks, containment, 1, 612, 792)
        boxes = [m["box"] for m in marks]
        text = [r for c in chunks for r in c["regions"][0]["rects"]]
        assert {n for m in marks for n in m["chunks"]} == {c["index"] for c in chunks}
        for i, a in enumerate(boxes):
            assert a[0] >= 0 and a[2] <= 612
            for b in boxes[i + 1 :] + text:
                assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3])


def test_chunks_starting_on_one_line_share_a_label():
    rects = [[72.0, 100.0, 500.0, 112.0], [72.0, 114.0, 500.0, 126.0]]
    chunks = [{"index": i, "regions": [{"page": 1, "rects": rects,
                                        "bbox": [72.0, 100.0, 500.0, 126.0]}]}
              for i in (15, 16, 17, 18, 20)]
    (mark,) = place_page(chunks, [], 1, 612, 792)
    assert mark["kind"] == "group" and mark["text"] == "15–18, 20"
    assert mark["chunks"] == [15, 16, 17, 18, 20]


def test_hatch_segments_stay_inside_their_box():
    box = (10.0, 20.0, 110.0, 60.0)
    segments = hatch_segments(box, step=8)
    assert len(segments) > 10
    for xa, ya, xb, yb in segments:
        for x, y in ((xa, ya), (xb, yb)):
            assert box[0] - 1e-9 <= x <= box[2] + 1e-9 and box[1] - 1e-9 <= y <= box[3] + 1e-9
        assert math.isclose(xb - xa, yb - ya)  # 45 degrees


def test_palette_cycles():
    assert colour(0) == PALETTE[0] and colour(len(PALETTE) + 2) == PALETTE[2]

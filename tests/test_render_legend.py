"""`render --legend`: a strip below the page naming its chunks and the marks."""

from __future__ import annotations

import pymupdf
from test_render import APEX

from visualiser.pipeline import chunk_report
from visualiser.render import (
    LEGEND_COLUMN,
    LEGEND_PAD,
    LEGEND_ROW,
    colour,
    legend_height,
    render_overlay_pngs,
)


def test_legend_adds_a_strip_with_a_swatch_per_chunk_on_the_page(processed):
    doc = processed(APEX)
    report = chunk_report(doc, "token_based")
    plain = pymupdf.Pixmap(render_overlay_pngs(doc, report, [3], 1.0)[3])
    png = render_overlay_pngs(doc, report, [3], 1.0, legend=True)[3]
    assert png == render_overlay_pngs(doc, report, [3], 1.0, legend=True)[3]
    pix = pymupdf.Pixmap(png)
    assert pix.width == plain.width
    extra = legend_height(report, 3, plain.width)
    assert abs(pix.height - plain.height - extra) <= 1

    on_page = [c for c in report["chunks"] if any(r["page"] == 3 for r in c["regions"])]
    assert len(on_page) >= 2
    columns = int((plain.width - 2 * LEGEND_PAD) // LEGEND_COLUMN)
    for i, chunk in enumerate(on_page):
        x = LEGEND_PAD + (i % columns) * LEGEND_COLUMN + 4
        y = plain.height + LEGEND_PAD + (i // columns) * LEGEND_ROW + 5.5
        hex_colour = colour(chunk["index"]).lstrip("#")
        want = tuple(int(hex_colour[k:k + 2], 16) for k in (0, 2, 4))
        got = pix.pixel(int(x), int(y))[:3]
        assert all(abs(a - b) <= 3 for a, b in zip(got, want, strict=True)), (chunk, got)


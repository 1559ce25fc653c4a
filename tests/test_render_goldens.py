"""Render goldens: every sample page under both main strategies, at a small scale.

A failure writes the new picture and an image of the differences to tests/output/;
`scripts/refresh_goldens.py` accepts new pictures on purpose.
"""

from __future__ import annotations

import pytest
from conftest_web import assert_matches_golden

from visualiser.pipeline import chunk_report
from visualiser.render import render_overlay_pngs
from visualiser.resources import samples_dir

SAMPLES = sorted(p.name for p in samples_dir().glob("*.pdf"))
SCALE = 0.5


@pytest.mark.parametrize("strategy", ["token_based", "structure_aware"])
@pytest.mark.parametrize("name", SAMPLES)
def test_golden_render_of_every_sample_page(processed, name, strategy):
    doc = processed(name)
    report = chunk_report(doc, strategy, {})
    pages = list(range(1, len(doc.layout.pages) + 1))
    for page, png in render_overlay_pngs(doc, report, pages, SCALE).items():
        stem = name.removesuffix(".pdf")
        assert_matches_golden(png, f"render/{stem}.{strategy}.p{page}.png")


def test_a_changed_render_writes_its_difference_image(tmp_path, monkeypatch):
    import conftest_web

    golden = sorted((conftest_web.GOLDENS / "render").glob("*.png"))[0]
    monkeypatch.setattr(conftest_web, "FAILED", tmp_path / "output")
    monkeypatch.delenv("UPDATE_GOLDENS", raising=False)
    import pymupdf

    pixmap = pymupdf.Pixmap(golden.read_bytes())
    pixmap.set_rect(pymupdf.IRect(0, 0, 60, 60), (255, 0, 0))
    with pytest.raises(AssertionError, match="pixels differ"):
        assert_matches_golden(pixmap.tobytes("png"), f"render/{golden.name}")
    assert (tmp_path / "output" / "render" / golden.name.replace(".png", ".diff.png")).is_file()

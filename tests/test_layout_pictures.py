"""The cheap gates before `get_image_info` (`pages.may_show_pictures`) and
`get_cdrawings` (`pages.may_draw`): each may say a page has pictures or drawings when it
has none (that costs time), never the other way round (that loses a picture, or a
table's rules). Checked on made pages of each kind, on every page of the corpus
(`../shared/corpus/` or `VISUALISER_CORPUS`; skipped, saying so, where it is absent)
and on the samples.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pymupdf
import pytest

from visualiser.layout.pages import may_draw, may_show_pictures

REPO = Path(__file__).resolve().parents[1]
CORPUS = Path(os.environ.get("VISUALISER_CORPUS", REPO.parent / "shared" / "corpus"))


def _png() -> bytes:
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 20, 20), False)
    pix.clear_with(128)
    return pix.tobytes("png")


def _page_with(kind: str) -> pymupdf.Page:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), "Some words on the page")
    if kind == "image":
        page.insert_image(pymupdf.Rect(100, 100, 200, 200), stream=_png())
    elif kind == "inline":
        # an inline image (BI … ID … EI): no XObject names it
        data = b"q 50 0 0 50 100 300 cm BI /W 2 /H 2 /CS /G /BPC 8 ID \x00\xff\xff\x00 EI Q"
        xref = doc.get_new_xref()
        doc.update_object(xref, "<<>>")
        doc.update_stream(xref, data)
        contents = page.get_contents()
        doc.xref_set_key(page.xref, "Contents",
                         "[" + " ".join(f"{c} 0 R" for c in [*contents, xref]) + "]")
    elif kind == "stamp":
        annot = page.add_stamp_annot(pymupdf.Rect(300, 300, 400, 350), stamp=0)
        annot.update()
    return page


def _pictures(page: pymupdf.Page) -> list[tuple[float, ...]]:
    return [box for info in page.get_image_info()
            if (box := tuple(info["bbox"]))[2] - box[0] > 8 and box[3] - box[1] > 8]


def test_a_page_of_words_only_skips_the_picture_pass() -> None:
    page = _page_with("text")
    assert not _pictures(page)
    assert not may_show_pictures(page)


@pytest.mark.parametrize("kind", ["image", "inline", "stamp"])
def test_a_page_that_can_draw_a_picture_is_read_for_pictures(kind: str) -> None:
    page = _page_with(kind)
    assert may_show_pictures(page)
    if kind != "stamp":  # the stamp's appearance is vector art; what matters is the gate
        assert _pictures(page)


def _gate_losses(files: list[Path], gate: Callable[[pymupdf.Page], bool],
                 finds: Callable[[pymupdf.Page], object]) -> tuple[list[str], int, int]:
    """Run `gate` on every page of `files`: the pages it would skip though `finds`
    finds something there, how many pages it skips, and how many pages there are."""
    lost, skipped, pages = [], 0, 0
    for path in files:
        with pymupdf.open(path) as doc:
            for page in doc:
                pages += 1
                passed = gate(page)
                skipped += not passed
                if not passed and finds(page):
                    lost.append(f"{path.name} page {page.number + 1}")
    return lost, skipped, pages


def test_no_picture_of_the_corpus_is_lost() -> None:
    files = sorted(CORPUS.glob("*.pdf"))
    if not files:
        pytest.skip(f"no corpus at {CORPUS} (set VISUALISER_CORPUS to the corpus)")
    lost, skipped, pages = _gate_losses(files, may_show_pictures, _pictures)
    assert not lost, f"pictures the gate would lose: {lost}"
    assert skipped > pages / 2  # the gate pays: most corpus pages have no picture


def _drawn(kind: str) -> pymupdf.Page:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), "Some words on the page, (S) and (f*) in strings")
    if kind == "line":
        page.draw_line((72, 100), (300, 100), width=0.5)
    elif kind == "filled":
        page.draw_rect(pymupdf.Rect(72, 120, 200, 160), color=None, fill=(0.9, 0.9, 0.9))
    elif kind == "form":  # the drawing lives in a form XObject the page runs ("Do")
        source = pymupdf.open()
        source.new_page().draw_rect(pymupdf.Rect(10, 10, 100, 100), width=1)
        page.show_pdf_page(pymupdf.Rect(300, 300, 500, 500), source, 0)
    elif kind == "annotation":
        page.add_rect_annot(pymupdf.Rect(100, 100, 200, 200))
    return page


def test_a_page_of_words_only_skips_the_drawings_pass() -> None:
    page = _drawn("text")
    assert not page.get_cdrawings()
    assert not may_draw(page)


@pytest.mark.parametrize("kind", ["line", "filled", "form", "annotation"])
def test_a_page_that_draws_is_read_for_drawings(kind: str) -> None:
    page = _drawn(kind)
    assert page.get_cdrawings()
    assert may_draw(page)


@pytest.mark.parametrize("where", ["corpus", "samples"])
def test_no_drawing_of_the_corpus_or_the_samples_is_lost(where: str) -> None:
    folder = CORPUS if where == "corpus" else REPO / "sample_pdfs"
    files = sorted(folder.glob("*.pdf"))
    if not files:
        pytest.skip(f"no PDFs at {folder} (set VISUALISER_CORPUS to the corpus)")
    lost, skipped, pages = _gate_losses(files, may_draw, lambda page: page.get_cdrawings())
    assert not lost, f"drawings the gate would lose: {lost}"
    if where == "corpus":
        assert skipped > pages / 2  # most pages (the rulebook's) draw nothing

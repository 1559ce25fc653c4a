"""The layout on documents a browser printed to PDF (`bench/browser_corpus.py`): the
other great producer of the PDFs users bring, whose text layer is not TeX's (Skia's
glyph runs, a justified line's words set apart, CSS columns, HarfBuzz-shaped Arabic,
the print dialog's running heads). Printed by the Debian chromium the browser tests
drive and scored against the groundtruth their HTML gives, as the shared
`structure_score.py` scores Docling's files (`bench/scores.py`)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from visualiser.pipeline import chunk_report, process_pdf

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))
from browser_corpus import DOCUMENTS, build  # noqa: E402
from paragraph_bounds import bounds  # noqa: E402
from scores import structure  # noqa: E402


@pytest.fixture(scope="module")
def printed(chromium, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("printed")
    build([make() for make in DOCUMENTS], out, chromium)
    return out


def _chunks(pdf: Path) -> list[dict]:
    return chunk_report(process_pdf(pdf.read_bytes(), pdf.name), "structure_aware")["chunks"]


@pytest.mark.parametrize("name", [make().name for make in DOCUMENTS])
def test_a_printed_documents_headings_paragraphs_and_order(printed, name):
    """Every heading found, every paragraph whole in one chunk, the words in order:
    a regulation in three CSS columns (its loose justified lines, one text line per
    word, had made rows of a table across the columns), a two-column paper whose
    paragraph goes on in the next column after a full stop, a report, a handbook
    with a photo floated beside its prose, an Arabic article, a newsletter whose head
    under its first column heads the full-width text below the columns."""
    chunks = _chunks(printed / f"{name}.pdf")
    headings, whole, order = structure((printed / f"{name}.md").read_text(encoding="utf-8"),
                                       chunks)
    assert (headings, whole) == (1.0, 1.0), (headings, whole)
    assert order >= 0.97, order


def test_a_three_column_pages_loose_justified_lines_are_no_table(printed):
    pdf = printed / "browser_regulation_3col.pdf"
    layout = process_pdf(pdf.read_bytes(), pdf.name).layout
    assert [b for b in layout.blocks if b.kind == "table"] == []


@pytest.mark.parametrize("name", [make().name for make in DOCUMENTS])
def test_a_printed_documents_paragraphs_are_ours_exactly(printed, name):
    """Each paragraph of the groundtruth is one paragraph of our markdown, no more and
    no less (`bench/paragraph_bounds.py`): the handbook's paragraph that wraps round
    its floated photo is one, though its lines widen below the photo; the regulation's
    "(d)", indented under a last line of "(c)" that runs to within 2 points of the
    margin, opens a paragraph of its own."""
    pdf = printed / f"{name}.pdf"
    exact, count = bounds((printed / f"{name}.md").read_text(encoding="utf-8"),
                          process_pdf(pdf.read_bytes(), pdf.name).source.text)
    assert exact == count, (exact, count)


def test_a_two_page_printouts_running_head_and_page_numbers_are_left_out(printed):
    """The print dialog writes the head ("Operator handbook") and "1 / 2", "2 / 2" on
    both pages of the handbook, at one height: running lines, though two pages are
    fewer than the three that running heads need elsewhere."""
    pdf = printed / "browser_handbook.pdf"
    processed = process_pdf(pdf.read_bytes(), pdf.name)
    assert "Operator handbook" not in processed.source.text
    assert "1 / 2" not in processed.source.text and "2 / 2" not in processed.source.text
    assert any("4 running header/footer lines" in w for w in processed.layout.warnings)

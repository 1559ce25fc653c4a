"""The layout on documents a word processor exported to PDF (`bench/office_corpus.py`):
the producer behind most of the regulations, reports, handbooks and transcripts users
bring. LibreOffice Writer exports them here (Debian's libreoffice-writer-nogui, which
CI installs), and they are scored against the groundtruth their source gives, as the
shared `structure_score.py` scores Docling's files (`bench/scores.py`)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from conftest import _unavailable

from visualiser.pipeline import chunk_report, process_pdf

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))
from office_corpus import DOCUMENTS, build  # noqa: E402
from paragraph_bounds import bounds  # noqa: E402
from scores import structure  # noqa: E402

NAMES = [make().name for make in DOCUMENTS]


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> Path:
    _unavailable(None if shutil.which("soffice") else "soffice is not installed "
                 "(apt install libreoffice-writer-nogui)", "LibreOffice")
    out = tmp_path_factory.mktemp("exported")
    build([make() for make in DOCUMENTS], out)
    return out


def _processed(exported: Path, name: str):
    pdf = exported / f"{name}.pdf"
    return process_pdf(pdf.read_bytes(), pdf.name)


@pytest.mark.parametrize("name", NAMES)
def test_an_exported_documents_headings_paragraphs_and_order(exported, name):
    """Every heading found, every paragraph whole in one chunk, the words in order:
    a report whose headings' numbers are list labels of their own, a regulation in a
    three-column section, a two-column handbook with a picture, a double-spaced
    transcript whose two centred headings stand a line apart (they had been read as
    one title), an Arabic article in Amiri, whose lines stand two of their glyph
    boxes' heights apart. (The report's footnotes are text the groundtruth leaves
    out: in order 0.97.)"""
    chunks = chunk_report(_processed(exported, name), "structure_aware")["chunks"]
    headings, whole, order = structure((exported / f"{name}.md").read_text(encoding="utf-8"),
                                       chunks)
    assert (headings, whole) == (1.0, 1.0), (headings, whole)
    assert order >= 0.95, order


@pytest.mark.parametrize("name", NAMES)
def test_an_exported_documents_paragraphs_are_ours_exactly(exported, name):
    """Each paragraph of the groundtruth is one paragraph of our markdown, no more and
    no less (`bench/paragraph_bounds.py`): the transcript's answer carried over a page
    whose every line is numbered; the Arabic paragraphs whose lines end at a full stop
    (their lines were a blank line apart by their boxes, so only a missing full stop
    had carried them on), and the one whose "(2010" / "- 2021)" breaks at the dash,
    no list item."""
    exact, count = bounds((exported / f"{name}.md").read_text(encoding="utf-8"),
                          _processed(exported, name).source.text)
    assert exact == count, (exact, count)


def test_loosely_set_lines_make_one_block_with_one_box(exported):
    """The Arabic article's and the double-spaced transcript's paragraphs are blocks
    of several lines, not a block per line linked to the next: one box per paragraph
    in the viewer, as the groundtruth has paragraphs."""
    for name in ("office_arabic", "office_transcript"):
        blocks = [b for b in _processed(exported, name).layout.blocks if b.kind == "paragraph"]
        several = sum(len(b.line_ids) > 1 for b in blocks)
        assert several >= 0.6 * len(blocks), (name, several, len(blocks))

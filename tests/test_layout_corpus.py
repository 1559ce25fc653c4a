"""The layout on real PDFs written by others (`../shared/corpus/`, or
`VISUALISER_CORPUS`), scored as the shared tools score it (`bench/scores.py`). Skipped,
saying so, where the corpus is absent: its files are not ours to ship.

The goals are those of the layout issue where this engine reaches them; where a
measure cannot be met honestly the bar is what we reach, and the reason is beside it.
"""

from __future__ import annotations

import os
import statistics
import sys
from pathlib import Path

import pymupdf
import pytest

from visualiser.pipeline import chunk_report, process_pdf

REPO = Path(__file__).resolve().parents[1]
CORPUS = Path(os.environ.get("VISUALISER_CORPUS", REPO.parent / "shared" / "corpus"))
sys.path.insert(0, str(REPO / "bench"))
from scores import boxes, pdf_order_normalised, structure  # noqa: E402

DOCLING = ["docling__code_and_formula", "docling__multi_page", "docling__normal_4pages",
           "docling__picture_classification", "docling__right_to_left_02"]
MULTI_COLUMN = ["pdfminer__naacl06-shinyama", "unstructured__multi-column", "mineru__demo3",
                "unstructured__embedded-images", "docling__multi_page",
                "docling__normal_4pages"]


@pytest.fixture(scope="module")
def chunks_of():
    cache: dict[str, list[dict]] = {}

    def get(name: str) -> list[dict]:
        path = CORPUS / f"{name}.pdf"
        if not path.exists():
            pytest.skip(f"corpus file {path} absent (set VISUALISER_CORPUS to the corpus)")
        if name not in cache:
            doc = process_pdf(path.read_bytes(), path.name)
            cache[name] = chunk_report(doc, "structure_aware")["chunks"]
        return cache[name]

    return get


def _structure(chunks_of, name: str) -> tuple[float, float, float]:
    chunks = chunks_of(name)
    return structure((CORPUS / f"{name}.md").read_text(encoding="utf-8"), chunks)


def test_docling_groundtruth_headings_paragraphs_and_order(chunks_of):
    scores = {name: _structure(chunks_of, name) for name in DOCLING}
    headings, whole, order = (statistics.mean(s[i] for s in scores.values()) for i in range(3))
    assert headings >= 0.95, scores
    # right_to_left_02: Docling's text keeps the font's kashida glyphs as letters ("و")
    # that MuPDF drops, so its paragraphs miss the 3 % bigram rule even when whole.
    assert whole >= 0.88, scores
    assert order >= 0.94, scores
    for name in DOCLING[:4]:  # the files written left to right
        assert scores[name][1] >= 0.84 and scores[name][2] >= 0.96, (name, scores[name])


@pytest.mark.parametrize("name", MULTI_COLUMN)
def test_multi_column_pages_are_read_in_the_pdf_s_own_order(chunks_of, name):
    """Against the content stream's order, with the PDF's words normalised as our text
    is (NFKC, line-end hyphens joined or kept): `order_score.py` itself counts "detection"
    for "detec-" "tion" as two pairs out of order."""
    chunks = chunks_of(name)
    with pymupdf.open(CORPUS / f"{name}.pdf") as pdf:
        order = pdf_order_normalised(pdf, chunks)
    assert order is not None and order >= 0.97, order


def test_boxes_hold_their_words_on_every_file(chunks_of):
    recalls, precisions = [], []
    for path in sorted(CORPUS.glob("*.pdf")) if CORPUS.exists() else []:
        if path.stem == "unstructured__DA-619p":  # 619 pages: the speed benches read it
            continue
        with pymupdf.open(path) as pdf:
            if not any(page.get_text("words") for page in pdf):
                continue  # a scan: no text layer to check the boxes against
            score = boxes(pdf, chunks_of(path.stem))
        if score is not None:
            recalls.append(score[0])
            precisions.append(score[1])
    if not recalls:
        pytest.skip(f"no corpus at {CORPUS}")
    assert statistics.median(recalls) >= 0.99 and statistics.median(precisions) >= 0.95


def test_a_tax_form_s_lines_fall_under_the_section_head_beside_them(chunks_of):
    """Form 1040 sets its section heads in a column left of the numbered lines; each
    line's chunk is under the head level with its section, not under the last head of
    the column."""
    chunks = chunks_of("pdfjs__prefilled_f1040")

    def head_of(words: str) -> str:
        chunk = next(c for c in chunks if words in c["text"])
        return chunk["heading_path"][-1]

    assert head_of("Wages, salaries, tips") == "Income"
    assert head_of("Unemployment compensation") == "Income"
    assert head_of("Educator expenses") == "Adjusted Gross Income"
    assert head_of("Total number of exemptions claimed") == "Exemptions"

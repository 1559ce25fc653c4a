"""Every box is where its text is: the invariants, on every sample and strategy."""

import pytest

from tests.conftest import APEX, SAMPLES
from visualiser.geometry import centre, contains
from visualiser.pipeline import chunk_report
from visualiser.strategies import STRATEGIES
from visualiser.tokenizers import count_tokens


def _inside(point, rect):
    return rect[0] <= point[0] <= rect[2] and rect[1] <= point[1] <= rect[3]


@pytest.mark.parametrize("strategy", list(STRATEGIES))
@pytest.mark.parametrize("name", SAMPLES)
def test_region_words_reproduce_provenance(processed, name, strategy):
    doc = processed(name)
    report = chunk_report(doc, strategy)
    cls = STRATEGIES[strategy]
    traced = [c.text for c in cls().chunk(doc.source, cls.settings())]
    assert len(traced) == len(report["chunks"])
    pages = {p["number"]: p for p in report["pages"]}
    for chunk, text in zip(report["chunks"], traced, strict=True):
        assert chunk["text"] == text.text
        provenance = doc.source.words_of(text)
        assert {r["page"] for r in chunk["regions"]} == {
            doc.layout.words[w].page for w in provenance}
        for region in chunk["regions"]:
            page = pages[region["page"]]
            assert contains((0, 0, page["width"], page["height"]), region["bbox"])
            for rect in region["rects"]:
                assert contains(region["bbox"], rect)
            on_page = [w for w in doc.layout.words if w.page == region["page"]]
            in_rects = {w.id for w in on_page
                        if any(_inside(centre(w.bbox), r) for r in region["rects"])}
            expected = {w for w in provenance if doc.layout.words[w].page == region["page"]}
            assert in_rects == expected, f"chunk {chunk['index']} page {region['page']}"
        assert chunk["tokens"] == count_tokens(chunk["text"], report["parameters"]["tokenizer"])
        assert chunk["pages"] == sorted({r["page"] for r in chunk["regions"]})


def test_apex_chunk_4_box_spans_chunks_1_to_3(processed):
    report = chunk_report(processed(APEX), "token_based")
    chunks = report["chunks"]
    spanning = {r["page"]: r["bbox"] for r in chunks[4]["regions"]}
    for index in (1, 2, 3):
        for region in chunks[index]["regions"]:
            assert contains(spanning[region["page"]], region["bbox"])

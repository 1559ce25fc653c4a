import pytest

from tests.conftest import APEX, RATES, REPORT, SAMPLES
from visualiser.errors import BadParameter
from visualiser.pipeline import chunk_report
from visualiser.strategies import get_strategy


def test_apex_gives_17_heading_aligned_chunks_none_containing_another(processed):
    report = chunk_report(processed(APEX), "structure_aware")
    chunks = report["chunks"]
    assert len(chunks) == 17
    assert chunks[0]["text"].startswith("# Apex Logistics Services Agreement 2025\n\n## 1. ")
    for n, chunk in enumerate(chunks[1:], start=2):
        assert chunk["text"].startswith(f"## {n}. "), chunk["text"][:40]
        assert chunk["heading_path"][-1].startswith(f"{n}. ")
    assert report["containment"] == []
    table = next(c for c in chunks if "| Service |" in c["text"])
    assert table["chunk_type"] == "table" and table["text"].startswith("## 10. Service Levels")
    assert "Table 1: Service level targets" in table["text"]
    assert report["strategy"]["banner"] is None


@pytest.mark.parametrize("name", SAMPLES)
def test_no_chunk_contains_another_and_all_text_is_covered(processed, name):
    doc = processed(name)
    report = chunk_report(doc, "structure_aware")
    assert report["containment"] == []
    cls = get_strategy("structure_aware")
    covered = set()
    for chunk in cls().chunk(doc.source, cls.settings()):
        covered |= doc.source.words_of(chunk.text)
    every_word = {w for w in doc.source.word_at if w >= 0}
    assert covered == every_word


def test_small_limits_split_tables_by_rows_with_the_header_repeated(processed):
    report = chunk_report(processed(RATES), "structure_aware",
                          {"max_token_size": "300", "max_table_token_size": "600"})
    parts = [c for c in report["chunks"] if c["chunk_type"] == "table"]
    assert len(parts) >= 5
    header = next(ln for ln in parts[0]["text"].split("\n") if ln.startswith("| Zone"))
    for part in parts:
        assert header in part["text"] and part["tokens"] <= 600 + 5
        assert part["origin"]["rule"] == "section_part"
    assert report["containment"] == []
    reasons = {o["reason"] for o in report["overlaps"]}
    assert reasons <= {"repeated_header", "layout_only", "overlap_window"}


def test_long_list_is_split_between_items(processed):
    report = chunk_report(processed(REPORT), "structure_aware",
                          {"max_token_size": "60", "overlap_token_size": "0",
                           "max_list_token_size": "80", "max_table_token_size": "100"})
    lists = [c for c in report["chunks"] if c["chunk_type"] == "list"]
    assert len(lists) >= 2
    source = processed(REPORT).source
    items = {source.text[a:b] for block in source.blocks if block.kind == "list"
             for a, b in block.items}
    for chunk in lists:  # cut between items: every item line is a whole item
        lines = [ln for ln in chunk["text"].split("\n") if ln.startswith(("- ", "1. ", "2. ",
                                                                          "3. ", "4. "))]
        assert lines and all(line in items for line in lines)
    assert report["containment"] == []


def test_heading_stays_in_text_and_travels_with_its_table(processed):
    report = chunk_report(processed(REPORT), "structure_aware")
    for chunk in report["chunks"]:
        origin = chunk["origin"]
        if origin["rule"] == "column_part" and origin["column"] > 1:
            continue  # the two-column commentary on page 5: its second column
        assert chunk["text"].lstrip().startswith("#"), chunk["text"][:60]


def test_parameters_validate():
    cls = get_strategy("structure_aware")
    with pytest.raises(BadParameter, match="overlap_token_size"):
        cls.settings({"max_token_size": "50", "overlap_token_size": "60"})
    with pytest.raises(BadParameter, match="keep_heading_with_list: expected true or false"):
        cls.settings({"keep_heading_with_list": "maybe"})

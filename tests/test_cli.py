import json

from tests.conftest import APEX
from visualiser.cli import main


def test_chunk_json_for_apex(capsys, sample_path):
    assert main(["chunk", str(sample_path(APEX)), "--strategy", "token_based",
                 "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["chunking_strategy"] == "token_based"
    assert report["overlap_method"] == "bbox_adjacent"
    assert report["parameters"]["chunk_token_size"] == 1200
    assert len(report["chunks"]) == 5
    assert {"index", "chunk_type", "text", "tokens", "heading_path", "pages", "regions", "why",
            "flags"} <= set(report["chunks"][0])
    assert [p["number"] for p in report["pages"]] == [1, 2, 3, 4]
    assert any(o["reason"] == "table_context" for o in report["overlaps"])


def test_chunk_text_format(capsys, sample_path):
    assert main(["chunk", str(sample_path(APEX)), "--format", "text",
                 "--strategy", "structure_aware"]) == 0
    out = capsys.readouterr().out
    assert "17 chunks, strategy structure_aware" in out


def test_params_are_passed(capsys, sample_path):
    assert main(["chunk", str(sample_path(APEX)), "--param", "chunk_token_size=400",
                 "--param", "chunk_overlap_token_size=0"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["parameters"]["chunk_token_size"] == 400
    assert all(c["tokens"] <= 400 for c in report["chunks"] if c["chunk_type"] == "text")


def test_unknown_strategy_exits_2_listing_the_valid_ones(capsys, sample_path):
    assert main(["chunk", str(sample_path(APEX)), "--strategy", "nope"]) == 2
    err = capsys.readouterr().err
    assert "nope" in err and "token_based" in err and "structure_aware" in err


def test_bad_parameter_exits_2_naming_it(capsys, sample_path):
    assert main(["chunk", str(sample_path(APEX)), "--param", "chunk_token_size=-5"]) == 2
    assert "chunk_token_size: must be at least" in capsys.readouterr().err
    assert main(["chunk", str(sample_path(APEX)), "--param", "colour=red"]) == 2
    assert "valid: chunk_token_size" in capsys.readouterr().err


def test_not_a_pdf_exits_2(capsys, tmp_path):
    bad = tmp_path / "x.pdf"
    bad.write_text("hello")
    assert main(["chunk", str(bad)]) == 2
    assert "not a PDF" in capsys.readouterr().err


def test_strategies_lists_the_registry(capsys):
    assert main(["strategies"]) == 0
    out = capsys.readouterr().out
    assert "token_based:" in out and "structure_aware:" in out and "max_table_token_size" in out

"""`visualiser lint`: per-table cut predictions equal the formula, and exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pymupdf
import pytest

from visualiser.analysis import split_probability
from visualiser.cli import main
from visualiser.pipeline import chunk_report, process_pdf
from visualiser.tokenizers import count_tokens

ROWS = (2, 9, 40)  # a table inside the overlap, one between, one longer than a window
SIZE, OVERLAP = 200, 40
PROSE = ("The carrier collects each consignment from the depot and delivers it within the "
         "agreed window, reporting every exception to the customer on the same day. ")


def _tables_pdf(path: Path) -> Path:
    doc = pymupdf.open()
    for number, rows in enumerate(ROWS):
        page = doc.new_page(width=612, height=792)
        page.insert_textbox((72, 60, 540, 160), PROSE * 3, fontsize=10)
        top, height, width = 180, 12, 150
        for i in range(rows + 1):
            page.draw_line((72, top + i * height), (72 + 3 * width, top + i * height))
        for j in range(4):
            page.draw_line((72 + j * width, top), (72 + j * width, top + rows * height))
        for i in range(rows):
            for j in range(3):
                text = ("Zone", "Rate", "Days")[j] if i == 0 else f"t{number}r{i}c{j}"
                page.insert_text((76 + j * width, top + i * height + 9), text, fontsize=8)
        page.insert_textbox((72, top + rows * height + 30, 540, 780), PROSE * 2, fontsize=10)
    doc.save(path)
    return path


@pytest.fixture(scope="module")
def pdf(tmp_path_factory) -> Path:
    return _tables_pdf(tmp_path_factory.mktemp("lint") / "tables.pdf")


@pytest.fixture(scope="module")
def doc(pdf):
    return process_pdf(pdf.read_bytes(), pdf.name)


def test_each_table_s_prediction_is_the_clamped_formula(doc):
    report = chunk_report(doc, "fixed_tokens", {"chunk_size": SIZE, "chunk_overlap": OVERLAP})
    tables = report["tables"]
    blocks = [b for b in doc.source.blocks if b.kind == "table"]
    assert [t["rows"] for t in tables] == list(ROWS)
    for table, block in zip(tables, blocks, strict=True):
        length = count_tokens(doc.source.text[block.start:block.end], "cl100k_base")
        assert table["tokens"] == length
        expected = min(1.0, max(0.0, (length - OVERLAP) / (SIZE - OVERLAP)))
        assert table["predicted_split"] == round(expected, 4)
    small, middle, large = tables
    assert small["tokens"] <= OVERLAP and small["predicted_split"] == 0
    assert 0 < middle["predicted_split"] < 1
    assert large["tokens"] >= SIZE and large["predicted_split"] == 1 and large["split"]
    assert len(large["chunks"]) > 1 and not small["split"]


def test_strategies_that_keep_tables_whole_predict_nothing(doc):
    for name in ("structure_aware", "token_based", "table_header_aware"):
        tables = chunk_report(doc, name)["tables"]
        assert len(tables) == len(ROWS)
        assert all(t["predicted_split"] is None for t in tables)
        assert not any(t["split"] for t in tables), name  # small tables: each one chunk


def test_split_probability_is_clamped_and_linear_between():
    assert split_probability(40, 200, 40) == 0 and split_probability(200, 200, 40) == 1
    assert split_probability(120, 200, 40) == 0.5
    assert split_probability(400, 1024, 200) == pytest.approx(0.243, abs=1e-3)  # the seed's


def test_lint_exits_0_when_within_limits_and_prints_the_tables(pdf, capsys):
    code = main(["lint", str(pdf), "--strategy", "fixed_tokens", "--param", f"chunk_size={SIZE}",
                 "--param", f"chunk_overlap={OVERLAP}", "--format", "json"])
    result = json.loads(capsys.readouterr().out)
    assert code == 0 and result["passed"] and result["failures"] == []
    assert [t["rows"] for t in result["tables"]] == list(ROWS)
    assert set(result["tables"][0]) == {"table", "tokens", "rows", "predicted_split", "split",
                                        "chunks"}


def test_lint_exits_1_past_a_threshold(pdf, capsys):
    args = ["lint", str(pdf), "--strategy", "fixed_tokens", "--param", f"chunk_size={SIZE}",
            "--param", f"chunk_overlap={OVERLAP}"]
    assert main([*args, "--max-detached", "0"]) == 1
    assert "FAIL detached is" in capsys.readouterr().out
    assert main([*args, "--max-inflation", "0.01"]) == 1
    assert main([*args, "--fail-on", "table_without_header"]) == 1
    assert main([*args, "--max-inflation", "5", "--fail-on", "over_embedding_limit"]) == 0
    text = capsys.readouterr().out
    assert "table 2:" in text and "predicted split 100.0%" in text and text.endswith("passed\n")


def test_lint_exits_2_on_bad_input(pdf, tmp_path, capsys):
    not_pdf = tmp_path / "notes.pdf"
    not_pdf.write_text("plain text")
    assert main(["lint", str(not_pdf)]) == 2
    assert main(["lint", str(pdf), "--strategy", "nope"]) == 2
    assert main(["lint", str(pdf), "--param", "chunk_token_size=-5"]) == 2
    assert main(["lint", str(tmp_path / "missing.pdf")]) == 2
    with pytest.raises(SystemExit) as exited:
        main(["lint", str(pdf), "--max-tiny", "many"])
    assert exited.value.code == 2
    assert "error:" in capsys.readouterr().err

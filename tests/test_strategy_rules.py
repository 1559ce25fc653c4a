"""A strategy explains its own chunks and overlaps: the analysis asks its rules."""

from __future__ import annotations

import dataclasses

import pytest

from tests.conftest import APEX
from tests.my_window_strategy import MY_WINDOW, REASON, MyWindow
from visualiser import analysis
from visualiser.pipeline import chunk_report
from visualiser.strategies.base import RULES, STRATEGIES, register


@pytest.fixture
def my_window():
    register(MyWindow)  # the one registration line a new strategy needs
    yield MyWindow
    del STRATEGIES[MyWindow.name]
    for rule in MyWindow.rules:
        del RULES[rule.name]


def test_a_new_strategy_s_overlaps_are_explained_by_its_own_rule(processed, my_window):
    report = chunk_report(processed(APEX), "my_window", {"words": 60, "repeat": 15})
    chunks, overlaps = report["chunks"], report["overlaps"]
    assert len(chunks) > 5 and overlaps
    # every overlap is between neighbouring windows, which share words: all intended
    assert {o["reason"] for o in overlaps} <= {REASON, "layout_only"}
    assert any(o["reason"] == REASON and o["intended"] for o in overlaps)
    assert not [f for c in chunks for f in c["flags"] if not f["intended"]
                and f["code"].startswith("overlap")]
    first = chunks[1]
    assert first["why"] == (f"Word window 2 of {len(chunks)}, {first['tokens']} tokens; it "
                            "repeats the last 15 words of the window before it on purpose.")
    assert any("my window repeat" in f["message"] for f in first["flags"])


def test_without_the_rule_s_claim_the_same_overlaps_are_defects(processed, my_window,
                                                               monkeypatch):
    monkeypatch.setitem(RULES, "my_window", dataclasses.replace(MY_WINDOW, shares=lambda *a: None))
    report = chunk_report(processed(APEX), "my_window", {"words": 60, "repeat": 15})
    reasons = {o["reason"] for o in report["overlaps"]}
    assert "unexplained" in reasons and REASON not in reasons
    assert any(f["code"] == "overlap_defect" for c in report["chunks"] for f in c["flags"])


def test_zero_repeat_windows_share_no_words_so_nothing_is_claimed(processed, my_window):
    report = chunk_report(processed(APEX), "my_window", {"words": 60, "repeat": 0})
    assert all(o["reason"] == "layout_only" for o in report["overlaps"])


def test_a_chunk_whose_rule_is_unknown_is_explained_by_its_type():
    assert analysis.why({"rule": "nobody"}, "table", 5, ()) == "A table chunk."
    assert analysis.why({}, "text", 5, ()).startswith("Made by the strategy")


def test_the_analysis_imports_no_strategy_module():
    source = analysis.__file__
    with open(source, encoding="utf-8") as handle:
        imports = [ln for ln in handle if ln.startswith(("from ", "import "))]
    assert [ln for ln in imports if "strategies" in ln] == [
        "from visualiser.strategies.base import (\n"]

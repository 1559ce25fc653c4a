"""Defects in the viewer: unexplained overlaps and containment are drawn and listed in
their own style, and deliberate ones are not. The defect case is a tiny strategy made
for the test (registered only while the module runs): its neighbours share words for
no reason it can give, and its last chunk repeats part of both."""

from __future__ import annotations

import json
import shutil
import urllib.request
from typing import Any

import pytest
from conftest_web import live_server, make_long_pdf, open_tab

from visualiser.markdown import SourceMarkdown
from visualiser.resources import samples_dir
from visualiser.strategies.base import STRATEGIES, Chunk, Strategy

READY = '[data-testid="viewer"][data-report-state="ready"]'
DOC = "one_page.pdf"
APEX = "05_Apex_Logistics_Services_Agreement_2025.pdf"


class RepeatsForNoReason(Strategy):
    """Thirds of the text, cut so that neighbours share the middle third."""

    name = "test_repeats"
    label = "Test: neighbours that repeat each other"
    explanation = "Made for a test."

    def chunk(self, source: SourceMarkdown, settings: dict[str, Any]) -> list[Chunk]:
        text = source.traced()
        n = len(text)
        cuts = [(0, 2 * n // 3), (n // 3, n), (int(n * 0.4), n // 2)]
        return [Chunk(text[a:b].strip(), "text", origin={"rule": "section"}) for a, b in cuts]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    STRATEGIES[RepeatsForNoReason.name] = RepeatsForNoReason
    samples = tmp_path_factory.mktemp("samples")
    shutil.copy(samples_dir() / APEX, samples / APEX)
    make_long_pdf(samples / DOC, 1)
    scratch = tmp_path_factory.mktemp("app")
    config = {"SAMPLES_DIR": samples, "CACHE_DIR": scratch / "cache",
              "DATABASE": scratch / "kb.sqlite"}
    try:
        with live_server(config) as running:
            yield running
    finally:
        del STRATEGIES[RepeatsForNoReason.name]


@pytest.fixture
def tab(chromium, server):
    with open_tab(chromium, server) as page:
        yield page


def document_id(server, name: str) -> str:
    with urllib.request.urlopen(server.url + "/api/documents", timeout=10) as response:
        documents = json.load(response)["documents"]
    return next(d["id"] for d in documents if d["name"] == name)


def test_unexplained_overlap_and_containment_show_as_defects(tab, server):
    tab.goto(f"{server.url}/documents/{document_id(server, DOC)}?strategy=test_repeats")
    tab.wait_for_selector(READY, state="attached")
    entries = tab.locator('[data-testid="chunk-list"] > li[data-chunk-index]')
    assert entries.count() == 3
    # Every chunk takes part in an unexplained pair: each list entry says so.
    for i in range(3):
        assert "has-defect" in (entries.nth(i).get_attribute("class") or "")
    defects = tab.locator('[data-testid="chunk-list"] .flag.defect')
    assert defects.count() >= 3
    assert all(f == "false" for f in defects.evaluate_all(
        "els => els.map(e => e.dataset.intended)"))
    assert "unexplained" in defects.first.inner_text()
    # The analysis lists mark the pairs as defects too.
    listed = tab.locator('[data-testid="overlaps"] li[data-overlap].defect')
    assert listed.count() >= 1
    assert "unexplained" in listed.first.inner_text()
    assert tab.locator('[data-testid="containment"] li[data-containment].defect').count() >= 1
    # On the page: the overlap is hatched in the defect style, the tag is red-framed.
    mark = tab.locator('section.page[data-page="1"] svg .overlap-mark.defect').first
    mark.wait_for()
    assert "defect-hatch" in mark.evaluate("el => getComputedStyle(el).fill")
    tag = tab.locator('section.page[data-page="1"] svg .tag.defect').first
    assert tag.evaluate("el => getComputedStyle(el.querySelector('rect')).stroke") == \
        "rgb(187, 34, 17)"


def test_deliberate_overlaps_are_not_defects(tab, server):
    apex = document_id(server, APEX)
    tab.goto(f"{server.url}/documents/{apex}?strategy=token_based&page=3")
    tab.wait_for_selector(READY, state="attached")
    flags = tab.locator('[data-testid="chunk-list"] .flag')
    assert flags.count() > 0
    assert tab.locator('[data-testid="chunk-list"] .flag.defect').count() == 0
    assert tab.locator("svg .overlap-mark.defect").count() == 0
    assert tab.locator('[data-testid="overlaps"] li.defect').count() == 0


# --- the banner speaks of this document ---------------------------------------------------


def test_banner_names_the_context_chunk_and_its_link_selects_it(tab, server):
    apex = document_id(server, APEX)
    tab.goto(f"{server.url}/documents/{apex}?strategy=token_based")
    tab.wait_for_selector(READY, state="attached")
    banner = tab.locator('[data-testid="strategy-banner"]')
    assert banner.is_visible()
    assert "1 table-context chunk — 4 — repeats its neighbours on purpose" in banner.inner_text()
    link = banner.locator('[data-banner-chunk="4"]')
    assert link.inner_text() == "4"
    link.click()
    assert "selected" in (tab.locator(
        '[data-testid="chunk-list"] > li[data-chunk-index="4"]').get_attribute("class") or "")
    assert tab.locator('[data-testid="chunk-detail"] h2').inner_text().startswith("Chunk 4")
    assert "chunk=4" in tab.url


def test_banner_short_form_on_a_document_without_tables(tab, server):
    tab.goto(f"{server.url}/documents/{document_id(server, DOC)}?strategy=token_based")
    tab.wait_for_selector(READY, state="attached")
    banner = tab.locator('[data-testid="strategy-banner"]')
    assert banner.is_visible()
    assert banner.inner_text().strip() == STRATEGIES["token_based"].short_banner
    assert banner.locator("[data-banner-chunk]").count() == 0


# --- overlaps drawn on the shared text ---------------------------------------------------


def api_report(server, doc_id: str, strategy: str) -> dict:
    url = f"{server.url}/api/documents/{doc_id}/chunks?strategy={strategy}"
    with urllib.request.urlopen(url, timeout=30) as response:
        return json.load(response)


def test_only_the_shared_text_is_hatched(tab, server):
    doc_id = document_id(server, DOC)
    overlaps = api_report(server, doc_id, "test_repeats")["overlaps"]
    tab.goto(f"{server.url}/documents/{doc_id}?strategy=test_repeats")
    tab.wait_for_selector(READY, state="attached")
    for o in overlaps:
        key = f'{o["a"]}-{o["b"]}-{o["page"]}'
        mark = tab.locator(f'section.page svg .overlap-mark[data-overlap="{key}"]')
        mark.wait_for()
        # The hatch is drawn over exactly the server's rectangles, which leave out the
        # blank space between paragraphs that the crossing boxes also cover.
        drawn = mark.evaluate(
            "el => el.getAttribute('d').split('Z').filter(Boolean).map(p => "
            "p.slice(1).split(/[HV,]/).slice(0, 4).map(Number))")
        assert drawn == o["rects"]
        assert 0 < o["area"] < 0.8 * o["box_area"]

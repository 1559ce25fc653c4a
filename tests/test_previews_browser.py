"""In the browser: a stored document's strategies computed ahead (`visualiser.previews`)
are shown as ready, and a switch to one draws the kept report without chunking
anything on the server."""

from __future__ import annotations

import json
import time
import urllib.request

import pytest
from conftest_web import live_server, open_tab

from tests.test_kb_browser import api_upload, new_kb
from visualiser import pipeline
from visualiser.resources import samples_dir
from visualiser.strategies import STRATEGIES

APEX = "05_Apex_Logistics_Services_Agreement_2025.pdf"
READY = '[data-testid="viewer"][data-report-state="ready"]'


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    scratch = tmp_path_factory.mktemp("previews-app")
    config = {"CACHE_DIR": scratch / "cache", "DATABASE": scratch / "kb.sqlite",
              "PRECOMPUTE_PREVIEWS": True}
    with live_server(config) as running:
        yield running


def get(server, path: str) -> dict:
    with urllib.request.urlopen(server.url + path, timeout=30) as response:
        return json.load(response)


def test_a_switch_on_a_stored_document_draws_the_kept_report(chromium, server, monkeypatch):
    kb = new_kb(server, "Previews")
    doc = api_upload(server, kb, (samples_dir() / APEX).read_bytes(), APEX)
    deadline = time.monotonic() + 240
    while (status := get(server, doc["links"]["self"]))["previews"]["count"] < len(STRATEGIES):
        assert time.monotonic() < deadline, status
        time.sleep(0.2)

    made: list[str] = []

    def refuse(doc_, strategy, *args, **kwargs):  # nothing may be chunked from here on
        made.append(strategy)
        raise AssertionError("a switch computed a report")

    monkeypatch.setattr(pipeline, "chunk_report", refuse)
    with open_tab(chromium, server) as tab:
        tab.goto(server.url + doc["links"]["viewer"])
        tab.wait_for_selector(READY)
        status = tab.locator('[data-testid="previews-status"]')
        assert status.inner_text() == f"Previews ready: {len(STRATEGIES)} of {len(STRATEGIES)}"
        select = '[data-testid="strategy-select"]'
        assert tab.locator(f'{select} option[data-ready]').count() == len(STRATEGIES)
        for strategy in ("token_based", "fixed_chars"):
            tab.select_option(select, strategy)
            tab.wait_for_function(
                """(name) => {
                     const viewer = document.querySelector('[data-testid="viewer"]');
                     return viewer.dataset.reportState === "ready"
                       && !document.querySelector('[data-testid="preview-notice"]').hidden
                       && document.querySelector('section.page[data-page="1"] svg.overlay g.box')
                       && new URL(location.href).searchParams.get("strategy") === name;
                   }""", arg=strategy)
            shown = tab.locator('[data-testid="chunk-list"] > li[data-chunk-index]').count()
            kept = get(server, f"{doc['links']['chunks']}?strategy={strategy}")
            assert shown == len(kept["chunks"]) > 0
    assert made == []

"""The viewer's summary shows the per-table figures of the chunks JSON."""

from __future__ import annotations

import json
import urllib.request

import pytest
from conftest_web import live_server, open_tab, sample_app_config

from tests.conftest import RATES

READY = '[data-testid="viewer"][data-report-state="ready"]'


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with live_server(sample_app_config(tmp_path_factory, RATES)) as running:
        yield running


def test_the_summary_lists_each_table_with_its_predicted_and_actual_cut(chromium, server):
    with urllib.request.urlopen(server.url + "/api/documents", timeout=10) as response:
        doc = json.load(response)["documents"][0]["id"]
    query = "strategy=fixed_tokens&chunk_size=1024&chunk_overlap=200"
    with urllib.request.urlopen(f"{server.url}/api/documents/{doc}/chunks?{query}",
                                timeout=60) as response:
        tables = json.load(response)["tables"]
    assert tables and tables[0]["predicted_split"] is not None
    with open_tab(chromium, server) as tab:
        tab.goto(f"{server.url}/documents/{doc}?{query}")
        tab.wait_for_selector(READY, state="attached", timeout=120_000)
        tab.locator('[data-testid="sizes"] summary').click()
        shown = tab.locator('[data-testid="table-figures"]').all_inner_texts()
    t = tables[0]
    assert len(shown) == len(tables)
    assert shown[0] == (f"table 0: {t['tokens']} tokens, {t['rows']} rows, cut by a window "
                        f"{round(t['predicted_split'] * 100)}% of the time; here "
                        f"{'split' if t['split'] else 'whole'} ({len(t['chunks'])} chunks)")

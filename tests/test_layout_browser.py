"""The viewer's layout engine choice in a real browser (Debian's chromium through
Playwright, against a real server): the selector lists the registry, `layout=` in the
URL is what the selector shows and what the chunks were read with, a choice updates
the URL, and reloading or going back reproduces the view."""

from __future__ import annotations

import hashlib
import json
import urllib.request

import pytest
from conftest_web import live_server, open_tab, sample_app_config

from tests.upper_engine import UpperCaseEngine
from visualiser.layout import ENGINES
from visualiser.resources import samples_dir

APEX = "05_Apex_Logistics_Services_Agreement_2025.pdf"
APEX_ID = hashlib.sha256((samples_dir() / APEX).read_bytes()).hexdigest()
READY = '[data-testid="viewer"][data-report-state="ready"]'
SELECT = '[data-testid="layout-select"]'
FIRST = '[data-testid="chunk-list"] > li[data-chunk-index="0"]'
ML = "pymupdf-layout"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    config = sample_app_config(tmp_path_factory, APEX)
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(ENGINES, UpperCaseEngine.name, UpperCaseEngine)
        with live_server(config) as running:
            yield running


@pytest.fixture
def tab(chromium, server):
    with open_tab(chromium, server) as page:
        yield page


def open_viewer(tab, server, query: str) -> None:
    tab.goto(f"{server.url}/documents/{APEX_ID}?{query}")
    tab.wait_for_selector(READY, state="attached")


def first_chunk(tab) -> str:
    # The DOM's text, not the rendered one: an entry's `innerText` read once came back
    # empty in a full run on a loaded machine (entries are `content-visibility: auto`)
    return tab.locator(FIRST).text_content() or ""


def test_the_selector_lists_the_registry_with_what_cannot_run_disabled(tab, server):
    open_viewer(tab, server, "strategy=structure_aware")
    with urllib.request.urlopen(f"{server.url}/api/layout-engines", timeout=10) as response:
        engines = json.load(response)["engines"]
    options = tab.locator(f"{SELECT} option")
    assert options.evaluate_all("os => os.map(o => o.value)") == [e["name"] for e in engines]
    disabled = options.evaluate_all("os => os.filter(o => o.disabled).map(o => o.value)")
    assert disabled == [e["name"] for e in engines if not e["available"]]
    assert (ML in disabled) == (ENGINES[ML].available() is not None)
    assert tab.locator(SELECT).input_value() == "builtin"


def test_layout_in_the_url_round_trips(tab, server):
    open_viewer(tab, server, "strategy=structure_aware&layout=builtin")
    assert tab.locator(SELECT).input_value() == "builtin"
    plain = first_chunk(tab)
    assert "Apex Logistics" in plain

    tab.click('[data-testid="params"] summary')
    tab.select_option(SELECT, UpperCaseEngine.name)
    tab.wait_for_function("document.querySelector('[data-testid=\"chunk-list\"] li') && "
                          f"location.search.includes('layout={UpperCaseEngine.name}')")
    tab.wait_for_selector(READY, state="attached")
    tab.wait_for_function(f"() => document.querySelector('{FIRST}')?.innerText"
                          ".includes('APEX LOGISTICS')")
    assert "strategy=structure_aware" in tab.url

    tab.reload()  # the link reproduces the view: the engine and its chunks
    tab.wait_for_selector(READY, state="attached")
    assert tab.locator(SELECT).input_value() == UpperCaseEngine.name
    assert "APEX LOGISTICS" in first_chunk(tab)

    tab.go_back()  # the choice was a history entry of its own
    tab.wait_for_function("new URLSearchParams(location.search).get('layout') === 'builtin'")
    tab.wait_for_function(f"(t) => document.querySelector('{FIRST}')?.textContent === t",
                          arg=plain)  # the builtin's chunks again
    assert tab.locator(SELECT).input_value() == "builtin"


def test_an_unknown_layout_in_the_url_is_a_400_page_naming_the_engines(tab, server):
    response = tab.goto(f"{server.url}/documents/{APEX_ID}?layout=nope")
    assert response.status == 400
    text = tab.locator("body").inner_text()
    assert "unknown layout engine 'nope'" in text and "builtin" in text

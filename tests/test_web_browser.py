"""The viewer in a real browser: Debian's chromium driven by Playwright against a real
server. One browser and one server for the module; a fresh tab per test."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import urllib.request

import pytest
from conftest_web import (
    APEX_TOKEN_BANNER,
    assert_matches_golden,
    live_server,
    make_long_pdf,
    open_tab,
)

from visualiser.resources import samples_dir

APEX = "05_Apex_Logistics_Services_Agreement_2025.pdf"
APEX_ID = hashlib.sha256((samples_dir() / APEX).read_bytes()).hexdigest()
LONG = "long_synthetic.pdf"
LONG_PAGES = 120

LIST = '[data-testid="chunk-list"]'
ENTRIES = f"{LIST} > li[data-chunk-index]"
BANNER = '[data-testid="strategy-banner"]'
READY = '[data-testid="viewer"][data-report-state="ready"]'


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    samples = tmp_path_factory.mktemp("samples")
    for pdf in samples_dir().glob("*.pdf"):
        shutil.copy(pdf, samples / pdf.name)
    make_long_pdf(samples / LONG, LONG_PAGES)
    scratch = tmp_path_factory.mktemp("app")
    config = {
        "SAMPLES_DIR": samples,
        "CACHE_DIR": scratch / "cache",
        "DATABASE": scratch / "kb.sqlite",
    }
    with live_server(config) as running:
        with urllib.request.urlopen(running.url + "/api/strategies", timeout=10) as response:
            assert response.status == 200, running.log.getvalue()
        yield running


@pytest.fixture
def tab(chromium, server):
    with open_tab(chromium, server) as page:
        yield page


def open_viewer(tab, server, query: str, document: str = APEX_ID) -> None:
    tab.goto(f"{server.url}/documents/{document}?{query}")
    tab.wait_for_selector(READY, state="attached")
    settle(tab)


def settle(tab) -> None:
    """Fonts loaded and every requested page image decoded: ready for a screenshot."""
    tab.evaluate("document.fonts.ready.then(() => true)")
    tab.wait_for_function(
        "[...document.querySelectorAll('section.page img')]"
        ".every(img => img.complete && img.naturalWidth > 0)"
    )


def report(server, strategy: str) -> dict:
    url = f"{server.url}/api/documents/{APEX_ID}/chunks?strategy={strategy}"
    with urllib.request.urlopen(url, timeout=30) as response:
        return json.load(response)


def entry(tab, index: int):
    return tab.locator(f'{LIST} > li[data-chunk-index="{index}"]')


def classes(locator) -> list[str]:
    return (locator.get_attribute("class") or "").split()


# --- token_based: the reference case ---------------------------------------------------


def test_token_based_list_banner_overlaps_and_containment(tab, server):
    open_viewer(tab, server, "strategy=token_based")
    assert tab.locator(ENTRIES).count() == 5
    banner = tab.locator(BANNER)
    assert banner.is_visible()
    assert banner.get_attribute("role") == "status"
    assert banner.inner_text().strip() == APEX_TOKEN_BANNER
    badges = tab.locator(f"{ENTRIES} .badge").all_inner_texts()
    assert badges[4] == "table_context"

    containment = tab.locator('[data-testid="containment"]').inner_text()
    assert "Chunk 4 contains 1, 2, 3" in containment
    overlaps = tab.locator('[data-testid="overlaps"] li[data-overlap]')
    assert overlaps.count() == len(report(server, "token_based")["overlaps"]) > 0

    # Overlaps are hatched on the page they are on; page 3 holds chunk 3 / 4's.
    tab.fill('[data-testid="page-input"]', "3")
    tab.press('[data-testid="page-input"]', "Enter")
    mark = tab.locator('section.page[data-page="3"] svg .overlap-mark[data-overlap="3-4-3"]')
    mark.wait_for()
    assert mark.evaluate("el => getComputedStyle(el).fill").startswith("url(")
    tag = tab.locator('section.page[data-page="3"] svg .tag[data-chunk-index="4"]')
    assert tag.text_content() == "contains 1, 2, 3"


def test_hover_links_boxes_and_list_both_ways(tab, server):
    open_viewer(tab, server, "strategy=token_based&page=3")
    hit = tab.locator('section.page[data-page="3"] svg .hit[data-chunk-index="2"]')
    hit.hover()
    assert "hover" in classes(entry(tab, 2))
    assert "hover" not in classes(entry(tab, 4))  # the container under it is not hovered

    entry(tab, 3).hover()
    assert "hover" not in classes(entry(tab, 2))
    boxes = tab.locator('svg .box[data-chunk-index="3"]')
    assert boxes.count() >= 1
    for i in range(boxes.count()):
        assert "hover" in classes(boxes.nth(i))
    assert tab.locator("svg .box.hover:not([data-chunk-index='3'])").count() == 0


def test_click_selects_everywhere_and_shows_the_text(tab, server):
    chunks = report(server, "token_based")["chunks"]
    open_viewer(tab, server, "strategy=token_based")
    entry(tab, 4).click()
    assert "selected" in classes(entry(tab, 4))
    detail = tab.locator('[data-testid="chunk-detail"]')
    assert detail.locator("h2").inner_text().startswith("Chunk 4")
    assert tab.locator('[data-testid="chunk-why"]').inner_text() == chunks[4]["why"]
    text = tab.locator('[data-testid="chunk-text"]').inner_text()
    assert text.split() == chunks[4]["text"].split()
    # Every page the chunk touches shows its boxes emphasised once built.
    for region in chunks[4]["regions"]:
        tab.fill('[data-testid="page-input"]', str(region["page"]))
        tab.press('[data-testid="page-input"]', "Enter")
        page = f'section.page[data-page="{region["page"]}"]'
        box = tab.locator(f'{page} svg .box[data-chunk-index="4"]')
        box.wait_for()
        assert "selected" in classes(box)
    assert re.search(r"[?&]chunk=4(&|$)", tab.url)

    # Clicking a box selects that chunk and scrolls its list entry into view.
    tab.locator('section.page[data-page="3"] svg .hit[data-chunk-index="2"]').click()
    assert "selected" in classes(entry(tab, 2)) and "selected" not in classes(entry(tab, 4))
    assert tab.locator('svg .box.selected:not([data-chunk-index="2"])').count() == 0


def test_keyboard_moves_and_clears_the_selection(tab, server):
    open_viewer(tab, server, "strategy=token_based")
    tab.locator("body").press("j")
    assert "selected" in classes(entry(tab, 0))
    tab.keyboard.press("j")
    tab.keyboard.press("ArrowDown")
    assert "selected" in classes(entry(tab, 2))
    assert tab.evaluate("document.activeElement.dataset.chunkIndex") == "2"
    tab.keyboard.press("k")
    assert "selected" in classes(entry(tab, 1))
    tab.keyboard.press("Escape")
    assert tab.locator(".selected").count() == 0
    assert "chunk=" not in tab.url
    # Entries are focusable; Enter selects the focused one.
    entry(tab, 3).focus()
    tab.keyboard.press("Enter")
    assert "selected" in classes(entry(tab, 3))


# --- switching strategy and the URL ----------------------------------------------------


def test_switching_strategy_refetches_without_reloading(tab, server):
    open_viewer(tab, server, "strategy=token_based")
    tab.evaluate("window.__sameDocument = true")
    tab.select_option('[data-testid="strategy-select"]', "structure_aware")
    tab.wait_for_function(
        f"document.querySelectorAll('{ENTRIES}').length === 17"
        " && document.querySelector('[data-testid=viewer]').dataset.reportState === 'ready'"
    )
    assert tab.locator(ENTRIES).count() == 17
    assert not tab.locator(BANNER).is_visible()
    assert tab.evaluate("window.__sameDocument") is True
    assert "strategy=structure_aware" in tab.url
    assert tab.locator('[data-testid="containment"] li').count() == 0
    assert "No chunk contains another" in tab.locator('[data-testid="containment"]').inner_text()
    assert tab.locator("svg .tag").count() == 0


def test_reload_restores_strategy_page_and_selection(tab, server):
    open_viewer(tab, server, "strategy=structure_aware")
    entry(tab, 9).click()
    assert "chunk=9" in tab.url and "strategy=structure_aware" in tab.url
    tab.reload()
    tab.wait_for_selector(READY, state="attached")
    assert tab.locator('[data-testid="strategy-select"]').input_value() == "structure_aware"
    assert tab.locator(ENTRIES).count() == 17
    assert "selected" in classes(entry(tab, 9))
    assert tab.locator('[data-testid="chunk-detail"] h2').inner_text().startswith("Chunk 9")
    page = int(re.search(r"[?&]page=(\d+)", tab.url).group(1))
    assert tab.locator('[data-testid="page-input"]').input_value() == str(page)


def test_parameters_update_the_url_and_the_chunks(tab, server):
    open_viewer(tab, server, "strategy=token_based")
    tab.click('[data-testid="params"] summary')
    tab.fill('[data-param="chunk_token_size"]', "200")
    tab.fill('[data-param="chunk_overlap_token_size"]', "20")
    tab.click('[data-testid="apply-params"]')
    tab.wait_for_function(f"document.querySelectorAll('{ENTRIES}').length > 5")
    tab.wait_for_selector(READY, state="attached")
    assert "chunk_token_size=200" in tab.url and "chunk_overlap_token_size=20" in tab.url
    # Back to the defaults: the view is the reference case again.
    tab.click('[data-action="reset-params"]')
    tab.wait_for_function(f"document.querySelectorAll('{ENTRIES}').length === 5")
    assert "chunk_token_size" not in tab.url


def test_bad_parameter_shows_the_servers_message(tab, server):
    tab.goto(f"{server.url}/documents/{APEX_ID}?strategy=structure_aware&max_token_size=0")
    tab.wait_for_selector('[data-testid="viewer"][data-report-state="error"]', state="attached")
    error = tab.locator('[data-testid="error"]')
    assert error.is_visible()
    assert "max_token_size" in error.inner_text() and "at least" in error.inner_text()
    field = tab.locator('[data-param="max_token_size"]')
    assert field.get_attribute("aria-invalid") == "true"
    assert tab.locator(ENTRIES).count() == 0
    field.fill("600")
    field.press("Enter")
    tab.wait_for_selector(READY, state="attached")
    assert not error.is_visible()
    assert tab.locator(ENTRIES).count() > 0


# --- a long document --------------------------------------------------------------------


def test_long_document_opens_at_once_and_loads_pages_lazily(tab, server):
    with urllib.request.urlopen(server.url + "/api/documents", timeout=10) as response:
        documents = json.load(response)["documents"]
    long_id = next(d["id"] for d in documents if d["name"] == LONG)
    tab.goto(f"{server.url}/documents/{long_id}?strategy=structure_aware")
    assert tab.locator("section.page").count() == LONG_PAGES
    # The page is there at once; the layout is still being extracted, and the progress
    # indicator says so.
    progress = tab.locator('[data-testid="progress"]')
    assert progress.is_visible() and "Computing chunks" in progress.inner_text()
    tab.wait_for_selector(READY, state="attached", timeout=120_000)
    assert not progress.is_visible()
    settle(tab)
    images = tab.locator("section.page img").count()
    overlays = tab.locator("section.page svg.overlay").count()
    assert 1 <= images <= 6 and 1 <= overlays <= 6
    tab.fill('[data-testid="page-input"]', "100")
    tab.press('[data-testid="page-input"]', "Enter")
    tab.locator('section.page[data-page="100"] svg.overlay .box').first.wait_for()
    tab.locator('section.page[data-page="100"][data-loaded]').wait_for()
    assert tab.locator("section.page img").count() < 15
    assert "page=100" in tab.url or "page=99" in tab.url


# --- goldens ----------------------------------------------------------------------------


def screenshot(tab) -> bytes:
    """In fixture mode (the goldens' URLs carry fixture=1): wait for body[data-ready]."""
    tab.wait_for_selector("body[data-ready]", state="attached")
    tab.mouse.move(0, 0)
    settle(tab)
    return tab.screenshot(animations="disabled", caret="hide")


def test_golden_token_based_with_the_context_chunk_selected(tab, server):
    open_viewer(tab, server, "fixture=1&strategy=token_based&page=3&chunk=4")
    assert_matches_golden(screenshot(tab), "viewer-token-based-p3-chunk4.png")


def test_golden_structure_aware(tab, server):
    open_viewer(tab, server, "fixture=1&strategy=structure_aware&page=1")
    assert_matches_golden(screenshot(tab), "viewer-structure-aware-p1.png")


# --- fixture mode (?fixture=1): the contract for visual-regression suites -------------


def open_fixture(tab, server, query: str) -> bytes:
    tab.goto(f"{server.url}/documents/{APEX_ID}?fixture=1&{query}")
    tab.wait_for_selector("body[data-ready]", state="attached")
    tab.mouse.move(0, 0)
    return tab.screenshot(animations="disabled", caret="hide")


def test_fixture_mode_screenshots_are_byte_identical(chromium, server):
    shots = []
    for _ in range(2):
        with open_tab(chromium, server) as tab:
            shots.append(open_fixture(tab, server, "strategy=structure_aware&page=2"))
            # data-ready means: every shown page has its image decoded and its overlay.
            shown = tab.locator("section.page:has(img)")
            assert shown.count() >= 1
            assert tab.evaluate("[...document.querySelectorAll('section.page img')]"
                                ".every(img => img.complete && img.naturalWidth > 0)")
            assert tab.locator("section.page:has(img) svg.overlay").count() == shown.count()
            # Only pages near the view are loaded, not the whole document.
            assert shown.count() < 4 or tab.locator("section.page").count() <= 4
            assert tab.locator('[data-testid="progress"]').is_hidden()
    assert shots[0] == shots[1]


def test_fixture_mode_selectors_mean_what_the_readme_says(tab, server):
    open_fixture(tab, server, "strategy=token_based&page=3")
    report = json.load(urllib.request.urlopen(
        f"{server.url}/api/documents/{APEX_ID}/chunks?strategy=token_based", timeout=30))
    # data-page: one section per page, numbered from 1.
    pages = tab.eval_on_selector_all("section.page[data-page]",
                                     "els => els.map(e => e.dataset.page)")
    assert pages == [str(n) for n in range(1, len(report["pages"]) + 1)]
    # data-chunk-index on each box; data-chunk-type on each list entry, as in the report.
    boxes = tab.eval_on_selector_all(
        'section.page[data-page="3"] svg.overlay g.box[data-chunk-index]',
        "els => els.map(e => Number(e.dataset.chunkIndex))")
    on_page_3 = [c["index"] for c in report["chunks"] if 3 in c["pages"]]
    assert sorted(set(boxes)) == on_page_3
    types = tab.eval_on_selector_all(
        '[data-testid="chunk-list"] [data-chunk-index] [data-chunk-type]',
        "els => els.map(e => [Number(e.closest('[data-chunk-index]').dataset.chunkIndex),"
        " e.dataset.chunkType])")
    assert types == [[c["index"], c["chunk_type"]] for c in report["chunks"]]
    # data-flag: one per flag the report gives a chunk.
    flags = tab.eval_on_selector_all(
        '[data-testid="chunk-list"] [data-chunk-index] [data-flag]',
        "els => els.map(e => [Number(e.closest('[data-chunk-index]').dataset.chunkIndex),"
        " e.dataset.flag])")
    expected = [[c["index"], f["code"]] for c in report["chunks"] for f in c["flags"]]
    assert sorted(flags) == sorted(expected)

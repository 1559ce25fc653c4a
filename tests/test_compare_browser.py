"""The compare page in a real browser: Debian's chromium driven by Playwright against a
real server. One browser and one server for the module; a fresh tab per test."""

from __future__ import annotations

import hashlib
import json
import shutil
import urllib.request

import pymupdf
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
LONG = "long_compare.pdf"
LONG_PAGES = 80
APEX_COMPARE = f"/documents/{APEX_ID}/compare?left=token_based&right=structure_aware"
# Resources the tests refuse on purpose; anything else on the console fails the test.
EXPECTED_STATUSES = ("400 (BAD REQUEST)",)


def side(name: str, what: str) -> str:
    return f'[data-testid="{name}-{what}"]'


def ready(name: str) -> str:
    return f'{side(name, "pages")}[data-report-state="ready"]'


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    samples = tmp_path_factory.mktemp("samples")
    shutil.copy(samples_dir() / APEX, samples / APEX)
    make_long_pdf(samples / LONG, LONG_PAGES)
    scratch = tmp_path_factory.mktemp("app")
    config = {"SAMPLES_DIR": samples, "CACHE_DIR": scratch / "cache",
              "DATABASE": scratch / "kb.sqlite"}
    with live_server(config) as running:
        yield running


@pytest.fixture
def tab(chromium, server):
    with open_tab(chromium, server, EXPECTED_STATUSES) as page:
        yield page


def open_compare(tab, server, path: str = APEX_COMPARE, query: str = "") -> None:
    tab.goto(f"{server.url}{path}{'&' if '?' in path else '?'}{query}" if query
             else f"{server.url}{path}")
    tab.wait_for_selector(ready("left"), state="attached")
    tab.wait_for_selector(ready("right"), state="attached")
    settle(tab)


def settle(tab) -> None:
    tab.evaluate("document.fonts.ready.then(() => true)")
    tab.wait_for_function(
        "[...document.querySelectorAll('section.page img')]"
        ".every(img => img.complete && img.naturalWidth > 0)"
    )


def report(server, strategy: str, query: str = "") -> dict:
    url = f"{server.url}/api/documents/{APEX_ID}/chunks?strategy={strategy}{query}"
    with urllib.request.urlopen(url, timeout=30) as response:
        return json.load(response)


@pytest.fixture(scope="module")
def words() -> dict[int, list[tuple]]:
    """PyMuPDF's own words of each Apex page (its pages are not rotated, so these are
    the coordinates the chunks JSON uses)."""
    with pymupdf.open(samples_dir() / APEX) as document:
        return {page.number + 1: page.get_text("words") for page in document}


def word_ids(chunk: dict, words: dict[int, list[tuple]]) -> set[tuple[int, int]]:
    """The PDF's words whose centre lies in one of the chunk's line rectangles."""
    found = set()
    for region in chunk["regions"]:
        for n, word in enumerate(words[region["page"]]):
            x, y = (word[0] + word[2]) / 2, (word[1] + word[3]) / 2
            if any(r[0] - 0.5 <= x <= r[2] + 0.5 and r[1] - 0.5 <= y <= r[3] + 0.5
                   for r in region["rects"]):
                found.add((region["page"], n))
    return found


def sharing_words(chunk: dict, other: dict, words: dict[int, list[tuple]]) -> list[int]:
    """The oracle: the other side's chunks holding one of the same words of the PDF
    (the page computes it from rectangle intersections; this counts words)."""
    mine = word_ids(chunk, words)
    return [c["index"] for c in other["chunks"] if mine & word_ids(c, words)]


def indexes(tab, selector: str) -> set[int]:
    return {int(i) for i in tab.locator(selector).evaluate_all(
        "els => els.map(el => el.dataset.chunkIndex ?? el.dataset.linkedIndex)")}


def hit(name: str, page: int, index: int) -> str:
    pages = side(name, "pages")
    return f'{pages} section.page[data-page="{page}"] svg .hit[data-chunk-index="{index}"]'


def classes(locator) -> list[str]:
    return (locator.get_attribute("class") or "").split()


# --- the reference case side by side -------------------------------------------------------------


def test_token_based_against_structure_aware(tab, server):
    open_compare(tab, server)
    left, right = report(server, "token_based"), report(server, "structure_aware")
    counts = {name: tab.locator(f'{side(name, "summary")} [data-count="chunks"]').inner_text()
              for name in ("left", "right")}
    assert counts == {"left": "5 chunks", "right": "17 chunks"}
    assert tab.locator(f'{side("left", "summary")} [data-count="containment"]').inner_text() == (
        "4 containment pairs")
    assert tab.locator(f'{side("right", "summary")} [data-count="containment"]').inner_text() == (
        "0 containment pairs")
    stored = sum(c["tokens"] for c in left["chunks"])
    tokens = tab.locator(f'{side("left", "summary")} [data-count="tokens"]').inner_text()
    growth = round((stored / left["document_tokens"] - 1) * 100)
    assert tokens == (f"{stored:,} tokens stored for {left['document_tokens']:,} in the document "
                      f"(+{growth} %)")
    assert len(right["chunks"]) == 17
    # The banner explains token_based's deliberate spanning; structure_aware has none.
    assert tab.locator(side("left", "banner")).inner_text() == APEX_TOKEN_BANNER
    assert not tab.locator(side("right", "banner")).is_visible()
    # Each side draws its own chunks over the same page images.
    page1 = 'section.page[data-page="1"]'
    assert indexes(tab, f'{side("left", "pages")} {page1} svg .box') == {0}
    assert indexes(tab, f'{side("right", "pages")} {page1} svg .box') == {0, 1, 2, 3, 4}
    left_image = tab.locator(f'{side("left", "pages")} {page1} img').get_attribute("src")
    assert left_image == tab.locator(f'{side("right", "pages")} {page1} img').get_attribute("src")


def test_hovering_a_chunk_highlights_the_chunks_sharing_its_words(tab, server, words):
    open_compare(tab, server, query="page=3")
    left, right = report(server, "token_based"), report(server, "structure_aware")
    tab.hover(hit("left", 3, 2))  # the table chunk
    expected = sharing_words(left["chunks"][2], right, words)
    assert expected == [9]  # the "10. Service Levels" section holds the table
    assert indexes(tab, f'{side("right", "pages")} svg .box.linked') == set(expected)
    assert indexes(tab, f'{side("right", "detail")} [data-linked-index]') == set(expected)
    heading = tab.locator(side("right", "detail")).inner_text()
    assert "Sharing words with left chunk 2: 1 chunk" in heading
    detail = tab.locator(side("left", "detail"))
    assert detail.locator("h2").inner_text().startswith("Chunk 2")
    right_text = tab.locator(f'{side("right", "detail")} pre.text').inner_text()
    assert right_text.split() == right["chunks"][9]["text"].split()

    # A chunk spanning pages: every linked chunk is listed; those on built pages are drawn.
    tab.hover(hit("left", 3, 3))
    expected = sharing_words(left["chunks"][3], right, words)
    assert len(expected) > 3
    assert indexes(tab, f'{side("right", "detail")} [data-linked-index]') == set(expected)
    drawn = indexes(tab, f'{side("right", "pages")} svg .box.linked')
    assert drawn and drawn <= set(expected)
    assert tab.locator(f'{side("left", "pages")} svg .box.hover[data-chunk-index="3"]').count() >= 1
    # And the other way round: a right chunk lights up the left chunks holding its words.
    tab.hover(hit("right", 3, 11))
    expected = sharing_words(right["chunks"][11], left, words)
    assert indexes(tab, f'{side("left", "detail")} [data-linked-index]') == set(expected) == {3, 4}
    # Leaving the boxes: nothing is inspected any more.
    tab.mouse.move(5, 300)
    assert tab.locator("svg .box.linked, svg .box.hover").count() == 0


def test_every_chunk_links_exactly_the_chunks_sharing_its_words(tab, server, words):
    # Small windows without overlap end and start mid-line: their enclosing boxes cross
    # where they share no word, which only line rectangles tell apart.
    open_compare(tab, server, f"/documents/{APEX_ID}/compare?left=token_based&right=fixed_tokens"
                 "&right.chunk_size=60&right.chunk_overlap=0")
    reports = {"left": report(server, "token_based"),
               "right": report(server, "fixed_tokens", "&chunk_size=60&chunk_overlap=0")}
    own = {name: [word_ids(c, words) for c in r["chunks"]] for name, r in reports.items()}
    # The page's own key handler walks every chunk (Esc clears, j starts on the left, l
    # on the right, j walks on); one round trip reads what each step shows.
    walk = """([mine, theirs, count]) => {
      const key = (k) => document.dispatchEvent(new KeyboardEvent("keydown", { key: k }));
      const seen = [];
      key("Escape");
      key(mine === "left" ? "j" : "l");
      for (let i = 0; i < count; i++) {
        if (i) key("j");
        const detail = (name) => document.querySelector(`[data-testid=${name}-detail]`);
        seen.push([detail(mine).querySelector("h2").textContent,
          [...detail(theirs).querySelectorAll("[data-linked-index]")]
            .map((el) => Number(el.dataset.linkedIndex))]);
      }
      return seen;
    }"""
    for name, other in (("left", "right"), ("right", "left")):
        steps = tab.evaluate(walk, [name, other, len(reports[name]["chunks"])])
        for index, (heading, shown) in enumerate(steps):
            assert heading.startswith(f"Chunk {index}"), heading
            expected = {i for i, theirs in enumerate(own[other]) if own[name][index] & theirs}
            assert set(shown) == expected, (name, index)


def test_scrolling_one_side_scrolls_the_other(tab, server):
    open_compare(tab, server)
    scroll = "name => document.querySelector(`[data-testid=${name}-pages]`).scrollTop"
    tab.locator(side("left", "pages")).evaluate("el => { el.scrollTop = 1500; }")
    tab.wait_for_function(f"({scroll})('right') === 1500")
    # A real wheel over the right column moves the left one.
    box = tab.locator(side("right", "pages")).bounding_box()
    tab.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    tab.mouse.wheel(0, 600)
    tab.wait_for_function(f"({scroll})('right') > 1500")
    tab.wait_for_function(f"({scroll})('left') === ({scroll})('right')")
    # The same place on both: page 3's top is at the same height in both columns.
    tab.fill('[data-testid="page-input"]', "3")
    tab.press('[data-testid="page-input"]', "Enter")
    tops = [tab.locator(f'{side(name, "pages")} section.page[data-page="3"]')
            .bounding_box()["y"] for name in ("left", "right")]
    assert abs(tops[0] - tops[1]) < 1
    tab.wait_for_function("/[?&]page=3(&|$)/.test(location.search)")


def test_the_url_reproduces_the_view_after_a_reload(tab, server):
    open_compare(tab, server)
    tab.click(f'{side("right", "params")} summary')
    tab.fill(f'{side("right", "param-fields")} [data-param="max_token_size"]', "100")
    tab.fill(f'{side("right", "param-fields")} [data-param="overlap_token_size"]', "10")
    tab.click(side("right", "apply"))
    tab.wait_for_function(
        "document.querySelector('[data-testid=right-pages]').dataset.reportState === 'ready'"
        " && document.querySelector('[data-testid=right-summary] [data-count=chunks]')"
        "?.textContent !== '17 chunks'")
    chunks = tab.locator(f'{side("right", "summary")} [data-count="chunks"]').inner_text()
    assert int(chunks.split()[0]) > 17
    assert "right.max_token_size=100" in tab.url and "right.overlap_token_size=10" in tab.url
    tab.click(hit("left", 1, 0))
    assert "chunk=left%3A0" in tab.url or "chunk=left:0" in tab.url
    linked = indexes(tab, f'{side("right", "detail")} [data-linked-index]')
    assert linked
    url = tab.url

    tab.reload()
    tab.wait_for_selector(ready("left"), state="attached")
    tab.wait_for_selector(ready("right"), state="attached")
    assert tab.url == url
    assert tab.locator(side("left", "select")).input_value() == "token_based"
    assert tab.locator(side("right", "select")).input_value() == "structure_aware"
    field = tab.locator(f'{side("right", "param-fields")} [data-param="max_token_size"]')
    assert field.input_value() == "100"
    assert tab.locator(f'{side("right", "summary")} [data-count="chunks"]').inner_text() == chunks
    box = tab.locator(f'{side("left", "pages")} svg .box[data-chunk-index="0"]').first
    assert "selected" in classes(box)
    assert indexes(tab, f'{side("right", "detail")} [data-linked-index]') == linked
    # Back to the defaults: the parameter leaves the URL.
    tab.click(f'{side("right", "params")} summary')
    tab.click(f'{side("right", "controls")} [data-action="reset-params"]')
    tab.wait_for_function(
        "document.querySelector('[data-testid=right-summary] [data-count=chunks]')"
        "?.textContent === '17 chunks'")
    assert "max_token_size" not in tab.url


def test_keyboard_moves_through_chunks_and_across_sides(tab, server, words):
    open_compare(tab, server)
    left, right = report(server, "token_based"), report(server, "structure_aware")
    tab.locator("body").press("j")
    assert "chunk=left%3A0" in tab.url
    tab.keyboard.press("j")
    tab.keyboard.press("j")  # left chunk 2, the table
    assert tab.locator(f'{side("left", "detail")} h2').inner_text().startswith("Chunk 2")
    tab.keyboard.press("l")  # across: the right chunk sharing most of its words
    assert "chunk=right%3A9" in tab.url
    assert tab.locator(f'{side("right", "detail")} h2').inner_text().startswith("Chunk 9")
    assert indexes(tab, f'{side("left", "detail")} [data-linked-index]') == set(
        sharing_words(right["chunks"][9], left, words))
    tab.keyboard.press("k")
    assert "chunk=right%3A8" in tab.url
    tab.keyboard.press("Escape")
    assert "chunk=" not in tab.url
    assert tab.locator("svg .box.selected, svg .box.linked").count() == 0
    # Everything else is reachable with Tab: the selectors, and the import pickers.
    tab.focus(side("left", "select"))
    tab.keyboard.press("Tab")
    tab.keyboard.press("Tab")
    assert tab.evaluate("document.activeElement.dataset.testid") == "left-import"


def test_a_bad_side_parameter_names_the_side_and_can_be_fixed(tab, server):
    tab.goto(f"{server.url}{APEX_COMPARE}&left.chunk_token_size=0")
    tab.wait_for_selector(ready("right"), state="attached")
    error = tab.locator(side("left", "error"))
    assert error.is_visible()
    assert "left side: chunk_token_size: must be at least" in error.inner_text()
    field = tab.locator(f'{side("left", "param-fields")} [data-param="chunk_token_size"]')
    assert field.get_attribute("aria-invalid") == "true"
    note = tab.locator(f'{side("left", "param-fields")} .param-error')
    assert "must be at least" in note.inner_text()
    assert tab.locator(f'{side("left", "pages")} svg .box').count() == 0
    right_chunks = tab.locator(f'{side("right", "summary")} [data-count="chunks"]')
    assert right_chunks.inner_text() == "17 chunks"
    field.fill("300")
    field.press("Enter")
    tab.wait_for_selector(ready("left"), state="attached")
    assert not error.is_visible()
    assert "left.chunk_token_size=300" in tab.url
    assert tab.locator(f'{side("left", "pages")} svg .box').count() > 0


def test_compare_with_keeps_the_viewers_view_as_the_left_side(tab, server):
    tab.goto(f"{server.url}/documents/{APEX_ID}?strategy=token_based&chunk_token_size=900&chunk=2")
    tab.wait_for_selector('[data-testid="viewer"][data-report-state="ready"]', state="attached")
    tab.click('[data-testid="compare-link"]')
    tab.wait_for_selector(ready("left"), state="attached")
    tab.wait_for_selector(ready("right"), state="attached")
    assert "/compare?" in tab.url and "left.chunk_token_size=900" in tab.url
    assert tab.locator(side("left", "select")).input_value() == "token_based"
    assert tab.locator(side("right", "select")).input_value() == "structure_aware"
    assert tab.locator(f'{side("left", "detail")} h2').inner_text().startswith("Chunk 2")
    # And back: the viewer opens on the left side.
    tab.click('[data-testid="viewer-link"]')
    tab.wait_for_selector('[data-testid="viewer"][data-report-state="ready"]', state="attached")
    assert "strategy=token_based" in tab.url and "chunk_token_size=900" in tab.url
    assert "chunk=2" in tab.url


def test_the_index_links_to_a_comparison(tab, server):
    tab.goto(server.url + "/")
    tab.click(f'tr[data-document-id="{APEX_ID}"] [data-testid="compare-link"]')
    tab.wait_for_selector(ready("right"), state="attached")
    assert tab.locator(side("left", "select")).input_value() == "token_based"


def test_a_long_document_opens_at_once_and_loads_pages_lazily(tab, server):
    with urllib.request.urlopen(server.url + "/api/documents", timeout=10) as response:
        long_id = next(d["id"] for d in json.load(response)["documents"] if d["name"] == LONG)
    tab.goto(f"{server.url}/documents/{long_id}/compare?left=token_based&right=structure_aware")
    assert tab.locator("section.page").count() == 2 * LONG_PAGES
    assert "Computing chunks" in tab.locator(side("left", "progress")).inner_text()
    tab.wait_for_selector(ready("left"), state="attached", timeout=120_000)
    tab.wait_for_selector(ready("right"), state="attached", timeout=120_000)
    settle(tab)
    assert 2 <= tab.locator("section.page img").count() <= 12
    tab.fill('[data-testid="page-input"]', "70")
    tab.press('[data-testid="page-input"]', "Enter")
    for name in ("left", "right"):
        tab.locator(f'{side(name, "pages")} section.page[data-page="70"] svg .box').first.wait_for()
    assert tab.locator("section.page img").count() <= 24


# --- golden --------------------------------------------------------------------------------------


def test_golden_compare_with_the_table_chunk_selected(tab, server):
    # Fixture mode: data-ready once the pages on show and the side-to-side diff are drawn.
    open_compare(tab, server, query="page=3&chunk=left:2&fixture=1")
    tab.wait_for_selector("body[data-ready]", state="attached")
    tab.mouse.move(0, 0)
    settle(tab)
    shot = tab.screenshot(animations="disabled", caret="hide")
    assert_matches_golden(shot, "compare-apex-p3-left2.png")


def test_fixture_mode_on_the_compare_page(chromium, server):
    shots = []
    for _ in range(2):
        with open_tab(chromium, server) as tab:
            tab.goto(f"{server.url}/documents/{APEX_ID}/compare?fixture=1&page=3")
            tab.wait_for_selector("body[data-ready]", state="attached")
            for name in ("left", "right"):
                assert tab.locator(f'[data-testid="{name}-pages"] svg.overlay').count() >= 1
            tab.mouse.move(0, 0)
            shots.append(tab.screenshot(animations="disabled", caret="hide"))
            assert "fixture=1" in tab.url
    assert shots[0] == shots[1]


def test_what_changed_between_the_two_sides(tab, server):
    open_compare(tab, server, path=APEX_COMPARE)
    panel = tab.locator('[data-testid="chunk-diff"]')
    panel.wait_for(state="attached")
    tab.wait_for_function("!document.querySelector('[data-testid=\"chunk-diff\"]').hidden")
    assert panel.get_attribute("data-same") == "false"
    tab.locator('[data-testid="chunk-diff-summary"]').click()
    items = tab.locator('[data-testid="chunk-diff-list"] li')
    assert items.count() >= 1
    same = f"/documents/{APEX_ID}/compare?left=token_based&right=token_based"
    open_compare(tab, server, path=same)
    tab.wait_for_function("document.querySelector('[data-testid=\"chunk-diff\"]')"
                          ".dataset.same === 'true'")

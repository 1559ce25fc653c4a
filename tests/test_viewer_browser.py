"""Defects in the viewer: unexplained overlaps and containment are drawn and listed in
their own style, and deliberate ones are not. The defect case is a tiny strategy made
for the test (registered only while the module runs): its neighbours share words for
no reason it can give, and its last chunk repeats part of both."""

from __future__ import annotations

import json
import re
import shutil
import tempfile
import urllib.request
from pathlib import Path
from typing import Any

import pymupdf
import pytest
from conftest_web import (
    assert_matches_golden,
    live_server,
    make_long_pdf,
    make_long_table_pdf,
    open_tab,
)

from visualiser.markdown import SourceMarkdown
from visualiser.resources import samples_dir
from visualiser.strategies.base import STRATEGIES, Chunk, Strategy

READY = '[data-testid="viewer"][data-report-state="ready"]'
DOC = "one_page.pdf"
DENSE = "long_table.pdf"  # a ruled table across 16 pages
APEX = "05_Apex_Logistics_Services_Agreement_2025.pdf"
MEMO = "scanned_memo.pdf"


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
    shutil.copy(samples_dir() / MEMO, samples / MEMO)  # a scan: its page is OCR'd
    make_long_pdf(samples / DOC, 1)
    make_long_table_pdf(samples / DENSE, 16)
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


# --- dense pages: focus mode, labels that never cover text ------------------------------


def open_dense(tab, server, query: str = "") -> str:
    doc_id = document_id(server, DENSE)
    tab.goto(f"{server.url}/documents/{doc_id}?strategy=token_based&page=1{query}")
    tab.wait_for_selector(READY, state="attached", timeout=60_000)
    tab.locator('section.page[data-page="1"] svg.overlay .labels').wait_for(state="attached")
    return doc_id


def placed_marks(tab, page: int) -> list[dict]:
    """Every label, group label and tag drawn on `page`, with its box in page points."""
    return tab.evaluate(
        """page => [...document.querySelectorAll(
             `section.page[data-page="${page}"] svg.overlay .labels > g`)]
           .map(g => { const r = g.querySelector(':scope > rect').getBBox();
                       return {cls: g.getAttribute('class'),
                               text: g.querySelector('text').textContent,
                               box: [r.x, r.y, r.x + r.width, r.y + r.height]}; })""", page)


def word_boxes(path, page: int) -> list[tuple[float, float, float, float]]:
    with pymupdf.open(path) as document:
        return [tuple(w[:4]) for w in document[page - 1].get_text("words")]


def crosses(a, b, slack: float = 0.5) -> bool:
    return (a[0] < b[2] - slack and b[0] < a[2] - slack
            and a[1] < b[3] - slack and b[1] < a[3] - slack)


def assert_nothing_overprinted(marks, words) -> None:
    for n, mark in enumerate(marks):
        for other in marks[n + 1:]:
            assert not crosses(mark["box"], other["box"]), (mark, other)
        for word in words:
            assert not crosses(mark["box"], word), (mark, word)


def test_dense_page_labels_cover_no_text_and_no_other_label(tab, server, tmp_path):
    doc_id = open_dense(tab, server)
    marks = placed_marks(tab, 1)
    assert len(marks) >= 4
    # Chunks that start on the title line share one label, written as ranges.
    groups = [m for m in marks if m["cls"] == "group"]
    assert groups and all(re.fullmatch(r"[0-9, –]+", g["text"]) and "–" in g["text"]
                          for g in groups)
    pdf = tmp_path / "dense.pdf"
    make_long_table_pdf(pdf, 16)  # the same generator, so the same words
    assert_nothing_overprinted(marks, word_boxes(pdf, 1))
    # Hovering a group shows one chip per chunk, and a chip selects its chunk.
    group = tab.locator('section.page[data-page="1"] svg .group').first
    group.hover()
    chips = group.locator(".members .label")
    assert chips.count() >= 3 and chips.first.is_visible()
    number = chips.nth(1).get_attribute("data-chunk-index")
    chips.nth(1).click()
    assert f"chunk={number}" in tab.url and doc_id


def test_apex_labels_cover_no_text(tab, server, tmp_path):
    apex = document_id(server, APEX)
    for page in (1, 2, 3):
        tab.goto(f"{server.url}/documents/{apex}?strategy=token_based&page={page}")
        tab.wait_for_selector(READY, state="attached")
        tab.locator(f'section.page[data-page="{page}"] svg.overlay .labels').wait_for(
            state="attached")
        marks = placed_marks(tab, page)
        assert marks
        assert_nothing_overprinted(marks, word_boxes(samples_dir() / APEX, page))


def test_focus_mode_is_on_for_dense_pages_and_follows_the_url(tab, server):
    open_dense(tab, server)
    viewer = tab.locator('[data-testid="viewer"]')
    assert "focus-mode" in viewer.get_attribute("class")
    assert tab.locator('[data-testid="toggle-focus"]').is_checked()
    # Selecting a context chunk: it is strong, the chunks it holds are its partners,
    # a chunk it has nothing to do with is faint.
    report = api_report(server, document_id(server, DENSE), "token_based")
    context = next(c for c in report["chunks"] if c["chunk_type"] == "table_context")
    held = [p["contained"] for p in report["containment"] if p["container"] == context["index"]]
    unrelated = next(c["index"] for c in report["chunks"] if 1 in c["pages"]
                     and c["index"] not in held and c["index"] != context["index"]
                     and not any({o["a"], o["b"]} == {c["index"], context["index"]}
                                 for o in report["overlaps"]))
    tab.locator(f'[data-testid="chunk-list"] > li[data-chunk-index="{context["index"]}"]').click()
    page1 = 'section.page[data-page="1"] svg.overlay'
    for index in held:
        if 1 in report["chunks"][index]["pages"]:
            assert "partner" in tab.locator(
                f'{page1} .box[data-chunk-index="{index}"]').get_attribute("class")
    # The detail panel lists those partners with their reason.
    related = tab.locator('[data-testid="related"] li')
    assert related.count() >= len(held)
    assert "table-context chunk" in related.first.inner_text()
    faint = tab.locator(f'{page1} .box[data-chunk-index="{unrelated}"]')
    assert float(faint.evaluate("el => getComputedStyle(el).opacity")) < 0.2
    # Toggles: hiding labels, hatching and tags, each in the URL and kept on reload.
    for name in ("labels", "hatch", "tags"):
        tab.locator(f'[data-testid="toggle-{name}"]').uncheck()
        assert f"{name}=0" in tab.url
    assert tab.locator(f"{page1} .labels .label").first.is_hidden()
    assert tab.locator(f"{page1} .overlaps").is_hidden()
    tab.locator('[data-testid="toggle-focus"]').uncheck()
    assert "focus=0" in tab.url and "focus-mode" not in viewer.get_attribute("class")
    tab.reload()
    tab.wait_for_selector(READY, state="attached")
    assert "focus-mode" not in viewer.get_attribute("class")
    assert not tab.locator('[data-testid="toggle-labels"]').is_checked()
    # A sparse page starts without focus mode.
    tab.goto(f"{server.url}/documents/{document_id(server, APEX)}?strategy=token_based")
    tab.wait_for_selector(READY, state="attached")
    assert "focus-mode" not in tab.locator('[data-testid="viewer"]').get_attribute("class")


def test_golden_dense_table_page_1(tab, server):
    open_dense(tab, server)
    tab.mouse.move(0, 0)
    tab.evaluate("document.fonts.ready.then(() => true)")
    tab.wait_for_function(
        "[...document.querySelectorAll('section.page img')]"
        ".every(img => img.complete && img.naturalWidth > 0)")
    assert_matches_golden(tab.screenshot(animations="disabled", caret="hide"),
                          "viewer-dense-table-p1.png")


# --- tools: search, filters, go to chunk, zoom, OCR marker, sizes --------------------------


def test_search_filters_the_list_and_highlights_words_on_the_page(tab, server):
    open_dense(tab, server)
    total = tab.locator('[data-testid="chunk-list"] > li[data-chunk-index]').count()
    tab.fill('[data-testid="search"]', "seasonal")
    tab.wait_for_function("location.search.includes('q=seasonal')")
    shown = tab.locator('[data-testid="chunk-list"] > li[data-chunk-index]:not(.filtered-out)')
    report = api_report(server, document_id(server, DENSE), "token_based")
    expected = [c["index"] for c in report["chunks"] if "seasonal" in c["text"].lower()]
    assert 0 < len(expected) < total
    assert [int(i) for i in shown.evaluate_all("els => els.map(e => e.dataset.chunkIndex)")] \
        == expected
    assert tab.locator('[data-testid="search-count"]').inner_text() == f"{len(expected)} of {total}"
    hits = tab.locator('section.page[data-page="1"] svg .search-hit')
    hits.first.wait_for(state="attached")
    # One highlight per word "seasonal" (the intro says it too) on page 1.
    with pymupdf.open(stream=make_table_bytes(), filetype="pdf") as document:
        words = [w for w in document[0].get_text("words") if "seasonal" in w[4].lower()]
    assert hits.count() == len(words)
    # The URL keeps it: a reload shows the same.
    tab.reload()
    tab.wait_for_selector(READY, state="attached")
    assert tab.locator('[data-testid="search"]').input_value() == "seasonal"
    assert tab.locator('[data-testid="search-count"]').inner_text() == f"{len(expected)} of {total}"


def make_table_bytes() -> bytes:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "t.pdf"
        make_long_table_pdf(path, 16)
        return path.read_bytes()


def test_filters_by_type_and_flag_and_go_to_chunk(tab, server):
    open_dense(tab, server, "&type=table_context")
    shown = tab.locator('[data-testid="chunk-list"] > li[data-chunk-index]:not(.filtered-out)')
    assert set(shown.locator(".badge").all_inner_texts()) == {"table_context"}
    # Boxes of other chunks fade on the page.
    other = tab.locator('section.page[data-page="1"] svg .box[data-chunk-index="0"]')
    assert "filtered-out" in other.get_attribute("class")
    tab.select_option('[data-testid="filter-type"]', "")
    assert "type=" not in tab.url
    tab.fill('[data-testid="goto-chunk"]', "5")
    tab.press('[data-testid="goto-chunk"]', "Enter")
    assert "chunk=5" in tab.url
    assert tab.locator('[data-testid="chunk-detail"] h2').inner_text().startswith("Chunk 5")
    # Flag filter: only the defects of the test strategy.
    tab.goto(f"{server.url}/documents/{document_id(server, DOC)}?strategy=test_repeats"
             "&flag=defect")
    tab.wait_for_selector(READY, state="attached")
    assert tab.locator('[data-testid="filter-flag"]').input_value() == "defect"
    assert shown.count() == 3
    tab.select_option('[data-testid="filter-flag"]', "none")
    assert shown.count() == 0 and "flag=none" in tab.url


def test_zoom_changes_the_page_width_and_is_in_the_url(tab, server):
    open_dense(tab, server)
    page = tab.locator('section.page[data-page="1"]')
    default = page.bounding_box()["width"]
    assert abs(default - 612 * 1.25) < 2
    tab.select_option('[data-testid="zoom"]', "200")
    assert "zoom=200" in tab.url
    assert abs(page.bounding_box()["width"] - 612 * 2.5) < 2
    tab.select_option('[data-testid="zoom"]', "50")
    assert abs(page.bounding_box()["width"] - 612 * 0.625) < 2
    tab.select_option('[data-testid="zoom"]', "fit")
    column = tab.locator('[data-testid="pages"]').evaluate("el => el.clientWidth")
    assert abs(page.bounding_box()["width"] - (column - 32)) < 2  # the column's padding
    # Boxes follow the page: the overlay spans it at any zoom.
    svg = tab.locator('section.page[data-page="1"] svg.overlay').bounding_box()
    assert abs(svg["width"] - page.bounding_box()["width"]) < 1


def test_ocr_pages_are_marked_and_sizes_are_summarised(tab, server):
    tab.goto(f"{server.url}/documents/{document_id(server, MEMO)}?strategy=structure_aware")
    tab.wait_for_selector(READY, state="attached", timeout=120_000)
    report = api_report(server, document_id(server, MEMO), "structure_aware")
    ocr = [p["number"] for p in report["pages"] if p["ocr"]]
    assert ocr, "the scanned sample should have been OCR'd"
    badges = tab.locator('[data-testid="ocr-badge"]')
    assert badges.count() == len(ocr)
    assert tab.locator(f'section.page[data-page="{ocr[0]}"] [data-testid="ocr-badge"]').count() == 1
    # The summary's histogram counts every chunk once.
    tab.locator('[data-testid="sizes"] summary').click()
    bars = tab.locator('[data-testid="size-histogram"] rect')
    assert sum(int(c) for c in bars.evaluate_all("els => els.map(e => e.dataset.count)")) \
        == len(report["chunks"])
    counts = tab.locator('[data-testid="type-counts"]').inner_text()
    assert f"text {sum(c['chunk_type'] == 'text' for c in report['chunks'])}" in counts


def test_the_summary_names_the_library_that_cut_the_chunks(tab, server):
    """The test extra installs LangChain and LlamaIndex, so they cut the chunks; the
    summary says which and its version, beside the strategy's name."""
    apex = document_id(server, APEX)
    for strategy, library in (("langchain_recursive", "LangChain"),
                              ("llamaindex_sentence", "LlamaIndex")):
        tab.goto(f"{server.url}/documents/{apex}?strategy={strategy}")
        tab.wait_for_selector(READY, state="attached", timeout=120_000)
        named = api_report(server, apex, strategy)["strategy"]["implementation"]
        assert re.fullmatch(rf"{library} \d+\.\d+\.\d+", named)
        tag = tab.locator('[data-testid="summary"] [data-testid="implementation"]')
        assert tag.inner_text() == named
    tab.goto(f"{server.url}/documents/{apex}?strategy=token_based")
    tab.wait_for_selector(READY, state="attached", timeout=120_000)
    assert tab.locator('[data-testid="implementation"]').count() == 0  # our own strategy


# --- smaller fixes -------------------------------------------------------------------------


def test_detail_overlaps_name_chunks_and_the_error_reads_with_a_space(tab, server):
    apex = document_id(server, APEX)
    tab.goto(f"{server.url}/documents/{apex}?strategy=token_based&chunk=0")
    tab.wait_for_selector(READY, state="attached")
    assert tab.locator('[data-testid="detail-overlaps"]').inner_text() == "chunk 1 on p. 2"
    tab.goto(f"{server.url}/documents/{apex}?strategy=token_based"
             "&chunk_overlap_token_size=5000")
    tab.wait_for_selector('[data-testid="viewer"][data-report-state="error"]', state="attached")
    error = tab.locator('[data-testid="error"]').inner_text()
    assert error.startswith("Bad parameter: chunk_overlap_token_size: ")


def test_the_chunk_list_keeps_room_with_a_chunk_selected(chromium, server):
    context = chromium.new_context(viewport={"width": 1400, "height": 1000})
    try:
        tab = context.new_page()
        doc_id = document_id(server, DENSE)
        tab.goto(f"{server.url}/documents/{doc_id}?strategy=token_based&chunk=8")
        tab.wait_for_selector(READY, state="attached", timeout=60_000)
        listed = tab.locator('[data-testid="chunk-list"]').bounding_box()
        side = tab.locator("aside.side").bounding_box()
        assert listed["height"] >= 0.4 * side["height"] - 1
        visible = tab.evaluate("""() => {
            const list = document.querySelector('[data-testid="chunk-list"]');
            const box = list.getBoundingClientRect();
            return [...list.children].filter(li => { const r = li.getBoundingClientRect();
                return r.bottom > box.top + 8 && r.top < box.bottom - 8; }).length; }""")
        assert visible >= 3
    finally:
        context.close()


def test_export_links_download_the_chunks_on_show(tab, server):
    apex = document_id(server, APEX)
    tab.goto(f"{server.url}/documents/{apex}?strategy=structure_aware&max_token_size=600")
    tab.wait_for_selector(READY, state="attached")
    shown = tab.locator('[data-testid="chunk-list"] > li[data-chunk-index]').count()
    for fmt in ("json", "jsonl", "langchain", "llamaindex"):
        with tab.expect_download() as info:
            tab.locator(f'[data-testid="export"] [data-export="{fmt}"]').click()
        download = info.value
        data = Path(download.path()).read_bytes()
        if fmt == "jsonl":
            items = [json.loads(line) for line in data.decode().splitlines()]
        else:
            body = json.loads(data)
            items = body["chunks"] if fmt == "json" else body
        # The parameters of the view travel with it: the same chunks as the list.
        assert len(items) == shown, fmt
        assert download.suggested_filename.startswith("05_Apex_Logistics_Services_Agreement")


def test_minimap_shows_every_page_and_its_boxes_and_a_click_goes_there(tab, server):
    open_dense(tab, server)
    report = api_report(server, document_id(server, DENSE), "token_based")
    minimap = tab.locator('[data-testid="minimap"]')
    assert minimap.locator("[data-mini-page]").count() == 16
    regions = sum(len(c["regions"]) for c in report["chunks"])
    assert minimap.locator(".mini-boxes rect").count() == regions
    box = minimap.bounding_box()
    tab.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.97)
    tab.wait_for_function(
        "Number(document.querySelector('[data-testid=page-input]').value) >= 15")
    assert re.search(r"[?&]page=1[56](&|$)", tab.url)
    view = minimap.locator(".in-view")
    assert float(view.get_attribute("y")) > 0.8 * float(
        minimap.locator("svg").get_attribute("viewBox").split()[3])


def test_text_layer_lets_the_page_text_be_selected_and_copied(tab, server):
    open_dense(tab, server)
    tab.locator('[data-testid="toggle-text"]').check()
    assert "text=1" in tab.url
    layer = tab.locator('section.page[data-page="1"] svg.text-layer')
    layer.wait_for()
    # Select the first line (the title) with the mouse, as a person would.
    title = layer.locator("text").first
    box = title.bounding_box()
    tab.mouse.move(box["x"] + 1, box["y"] + box["height"] / 2)
    tab.mouse.down()
    tab.mouse.move(box["x"] + box["width"] - 1, box["y"] + box["height"] / 2, steps=5)
    tab.mouse.up()
    selected = tab.evaluate("String(window.getSelection())")
    assert "Quarterly freight charges by route" in " ".join(selected.split())
    # The words sit where the page shows them: the layer's title spans the title's box.
    with pymupdf.open(stream=make_table_bytes(), filetype="pdf") as document:
        first = document[0].get_text("words")[0]
    page_box = tab.locator('section.page[data-page="1"]').bounding_box()
    scale = page_box["width"] / 612
    assert abs(box["x"] - (page_box["x"] + first[0] * scale)) < 3
    # Clicking a box in text mode selects no chunk (the mouse is the text's).
    assert "chunk=" not in tab.url

"""In a real browser, the first view of a stored document asks for its first pages'
images at the scale processing rendered them at, so they come from the cache. An A4
page (595 pt) is the case to watch: at the default zoom it measures 743.75 CSS pixels,
which the browser rounds up to 744."""

from __future__ import annotations

import hashlib
import time
from pathlib import Path

import pytest
from conftest_web import A4, live_server, long_pdf_bytes, open_tab

from visualiser import render
from visualiser.render import PageImageCache

VIEWER_READY = '[data-testid="viewer"][data-report-state="ready"]'


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    scratch = tmp_path_factory.mktemp("first-screen")
    config = {"CACHE_DIR": scratch / "cache", "DATABASE": scratch / "kb.sqlite"}
    with live_server(config) as running:
        running.cache = Path(config["CACHE_DIR"])
        yield running


def test_the_first_view_asks_for_the_images_rendered_at_processing(chromium, server):
    data = long_pdf_bytes(4, size=A4)
    doc_id = hashlib.sha256(data).hexdigest()
    with open_tab(chromium, server) as tab:
        kb = tab.request.post(f"{server.url}/api/knowledgebases",
                              data={"name": "first screen"}).json()
        uploaded = tab.request.post(
            f"{server.url}/api/knowledgebases/{kb['id']}/documents",
            multipart={"file": {"name": "a4.pdf", "mimeType": "application/pdf",
                                "buffer": data}})
        assert uploaded.status == 202, uploaded.text()
        deadline = time.monotonic() + 60
        while tab.request.get(f"{server.url}/api/knowledgebases/{kb['id']}/documents/"
                              f"{doc_id}").json()["state"] == "processing":
            assert time.monotonic() < deadline, "still processing after 60 s"
            time.sleep(0.05)
        images = PageImageCache(server.cache)
        ahead = {n: images.path(doc_id, n, render.FIRST_SCREEN_SCALE)
                 for n in range(1, render.FIRST_SCREEN_PAGES + 1)}
        assert all(path.is_file() for path in ahead.values())
        written = {n: path.stat().st_mtime_ns for n, path in ahead.items()}

        asked: list[str] = []
        tab.on("request", lambda request: asked.append(request.url)
               if "/pages/" in request.url and ".png" in request.url else None)
        tab.goto(f"{server.url}{uploaded.json()['links']['viewer']}")
        tab.wait_for_selector(VIEWER_READY)
        tab.wait_for_selector('section.page[data-page="1"][data-loaded]')
        first = [url for url in asked if "/pages/1.png" in url]
        assert first and all(url.endswith(f"?scale={render.FIRST_SCREEN_SCALE}")
                             for url in first), asked
        # served from the files rendered at processing, not drawn again
        assert {n: path.stat().st_mtime_ns for n, path in ahead.items()} == written


def stored_a4(tab, server, name: str) -> str:
    """A stored A4 document, processed: its viewer URL."""
    data = long_pdf_bytes(5, size=A4, words=name)  # bytes of its own: its own document
    kb = tab.request.post(f"{server.url}/api/knowledgebases", data={"name": name}).json()
    uploaded = tab.request.post(
        f"{server.url}/api/knowledgebases/{kb['id']}/documents",
        multipart={"file": {"name": f"{name}.pdf", "mimeType": "application/pdf",
                            "buffer": data}}).json()
    deadline = time.monotonic() + 60
    while tab.request.get(f"{server.url}{uploaded['links']['self']}").json()["state"] \
            == "processing":
        assert time.monotonic() < deadline, "still processing after 60 s"
        time.sleep(0.05)
    return f"{server.url}{uploaded['links']['viewer']}"


def test_the_first_screen_images_are_preloaded_and_asked_for_once(chromium, server):
    with open_tab(chromium, server) as tab:
        viewer = stored_a4(tab, server, "preloaded")
        asked: list[str] = []
        tab.on("request", lambda request: asked.append(request.url)
               if "/pages/" in request.url and ".png" in request.url else None)
        tab.goto(viewer)
        tab.wait_for_selector(VIEWER_READY)
        tab.wait_for_selector('section.page[data-page="2"][data-loaded]')
        preloads = tab.eval_on_selector_all('link[rel="preload"][as="image"]',
                                            "links => links.map(l => l.href)")
        assert [url.split("/pages/")[1] for url in preloads] == [
            f"{n}.png?scale={render.FIRST_SCREEN_SCALE}"
            for n in range(1, render.FIRST_SCREEN_PAGES + 1)]
        # the column's <img> takes the preloaded image: one request per page, not two
        for number in (1, 2):
            assert sum(f"/pages/{number}.png" in url for url in asked) == 1, asked
        # a view opening at page 4 preloads pages 4 and 5 (the last), a zoomed one none
        tab.goto(f"{viewer}?page=4")
        assert [url.split("/pages/")[1].split("?")[0] for url in tab.eval_on_selector_all(
            'link[rel="preload"][as="image"]', "links => links.map(l => l.href)")] == [
            "4.png", "5.png"]
        tab.goto(f"{viewer}?zoom=200")
        assert tab.locator('link[rel="preload"][as="image"]').count() == 0


def test_a_report_shown_before_is_shown_again_without_asking_the_server(chromium, server):
    with open_tab(chromium, server) as tab:
        tab.goto(stored_a4(tab, server, "warm switch"))
        tab.wait_for_selector(VIEWER_READY)
        asked: list[str] = []
        tab.on("request", lambda request: asked.append(request.url)
               if "/chunks" in request.url else None)
        select = '[data-testid="strategy-select"]'
        shown = {}
        for strategy in ("token_based", "fixed_tokens", "token_based", ""):
            tab.select_option(select, strategy)
            tab.wait_for_selector(VIEWER_READY)
            tab.wait_for_selector('section.page[data-page="1"] svg.overlay g.box')
            summary = tab.inner_text('[data-testid="counts"]')
            assert shown.setdefault(strategy or "stored", summary) == summary
        # token_based and the stored chunks were shown before: not asked for again
        assert [url.split("?")[1].split("&")[0] for url in asked] == [
            "strategy=token_based", "strategy=fixed_tokens"], asked
        # the list, the boxes and the keyboard work on the report shown again
        tab.keyboard.press("j")
        assert tab.locator('[data-testid="chunk-list"] > li.selected').count() == 1
        assert tab.locator('section.page[data-page="1"] g.box.selected').count() >= 1

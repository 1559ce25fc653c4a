"""Imported chunks in a real browser: Debian's chromium driven by Playwright against a
real server. A chunks file made here (as another pipeline would, from PyMuPDF's plain
text) goes through the real file picker or is dropped on the pages. One browser and
one server for the module; a fresh tab per test."""

from __future__ import annotations

import hashlib
import json
import time
import urllib.request
from bisect import bisect_right
from collections import Counter

import pymupdf
import pytest
from conftest_web import live_server, open_tab

from visualiser.resources import samples_dir

APEX = "05_Apex_Logistics_Services_Agreement_2025.pdf"
APEX_BYTES = (samples_dir() / APEX).read_bytes()
APEX_ID = hashlib.sha256(APEX_BYTES).hexdigest()
WINDOW, STEP = 900, 800
ENTRIES = '[data-testid="chunk-list"] > li[data-chunk-index]'
BANNER = '[data-testid="strategy-banner"]'
READY = '[data-testid="viewer"][data-report-state="ready"]'
SELECT = '[data-testid="strategy-select"]'
EXPECTED_STATUSES = ("400 (BAD REQUEST)",)


def page_texts() -> list[str]:
    with pymupdf.open(stream=APEX_BYTES, filetype="pdf") as document:
        return [page.get_text() for page in document]


def langchain_file() -> tuple[bytes, list[set[int]], list[int]]:
    """LangChain documents over 900-character windows of the plain text, and for each
    window the pages its characters come from and the page holding most of them."""
    texts = page_texts()
    text = "".join(texts)
    starts = [sum(len(t) for t in texts[:n]) for n in range(len(texts))]
    chunks, spans, main = [], [], []
    for at in range(0, len(text), STEP):
        window = text[at : at + WINDOW]
        pages = Counter(bisect_right(starts, at + k) for k in range(len(window)))
        chunks.append({"page_content": window, "metadata": {"source": APEX, "start_index": at}})
        spans.append(set(pages))
        main.append(pages.most_common(1)[0][0])
    return json.dumps(chunks).encode(), spans, main


def payload(name: str, data: bytes) -> dict:
    return {"name": name, "mimeType": "application/json", "buffer": data}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    scratch = tmp_path_factory.mktemp("import-app")
    config = {"CACHE_DIR": scratch / "cache", "DATABASE": scratch / "kb.sqlite"}
    with live_server(config) as running:
        yield running


@pytest.fixture
def tab(chromium, server):
    with open_tab(chromium, server, EXPECTED_STATUSES) as page:
        yield page


def api(server, method: str, path: str, body: dict | None = None) -> dict:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(server.url + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)


def pick(tab, label: str, name: str, data: bytes) -> None:
    """Choose a file through the real picker that the label opens."""
    with tab.expect_file_chooser() as chooser:
        tab.click(label)
    chooser.value.set_files(payload(name, data))


def boxes_by_page(tab, pages: int) -> dict[int, set[int]]:
    """Chunk indexes drawn on each page, visiting every page (overlays are lazy)."""
    found = {}
    for number in range(1, pages + 1):
        tab.fill('[data-testid="page-input"]', str(number))
        tab.press('[data-testid="page-input"]', "Enter")
        page = f'section.page[data-page="{number}"]'
        tab.locator(f"{page} svg.overlay").wait_for(state="attached")
        found[number] = {int(i) for i in tab.locator(f"{page} svg .box").evaluate_all(
            "els => els.map(el => el.dataset.chunkIndex)")}
    return found


def test_importing_through_the_file_picker_draws_the_chunks_on_their_pages(tab, server):
    data, spans, main = langchain_file()
    import_id = hashlib.sha256(data).hexdigest()
    tab.goto(f"{server.url}/documents/{APEX_ID}?strategy=token_based")
    tab.wait_for_selector(READY, state="attached")
    pick(tab, 'label[for="import-input"]', "apex-langchain.json", data)
    tab.wait_for_function(f"location.search.includes('import={import_id}')")
    tab.wait_for_selector(READY, state="attached")
    assert tab.locator(f"{SELECT} option:checked").inner_text() == "Imported: apex-langchain.json"
    assert tab.locator(ENTRIES).count() == len(spans)
    banner = tab.locator(BANNER)
    assert banner.is_visible()
    assert banner.inner_text().startswith("These chunks were made by another pipeline")
    assert not tab.locator('[data-testid="params"]').is_visible()  # no parameters to set

    drawn = boxes_by_page(tab, 4)
    for index, (pages, most) in enumerate(zip(spans, main, strict=True)):
        on = {page for page, chunks in drawn.items() if index in chunks}
        assert most in on and on <= pages, (index, on, pages)

    tab.locator(ENTRIES).nth(2).click()
    why = tab.locator('[data-testid="chunk-why"]').inner_text()
    assert why.startswith("Imported chunk 2, made by another pipeline;")
    assert "of its words were found on the page" in why

    tab.reload()
    tab.wait_for_selector(READY, state="attached")
    assert tab.locator(f"{SELECT} option:checked").inner_text() == "Imported: apex-langchain.json"
    assert tab.locator(ENTRIES).count() == len(spans)
    assert tab.locator(BANNER).inner_text().startswith("These chunks were made by another")
    assert "selected" in (tab.locator(ENTRIES).nth(2).get_attribute("class") or "")
    # Back to a strategy with the selector; the import stays one of its choices.
    tab.select_option(SELECT, "token_based")
    tab.wait_for_function(f"document.querySelectorAll('{ENTRIES}').length === 5")
    assert "import=" not in tab.url
    assert tab.locator(f'{SELECT} option[value="import:{import_id}"]').count() == 1


def test_a_refused_file_says_why_and_changes_nothing(tab, server):
    tab.goto(f"{server.url}/documents/{APEX_ID}?strategy=token_based")
    tab.wait_for_selector(READY, state="attached")
    url = tab.url
    pick(tab, 'label[for="import-input"]', "notes.json", b"these are not chunks {")
    error = tab.locator('[data-testid="error"]')
    error.wait_for()
    assert "Import refused (Unusable chunks file):" in error.inner_text()
    assert "neither JSON nor JSON Lines" in error.inner_text()
    assert tab.url == url and tab.locator(ENTRIES).count() == 5
    assert tab.locator(SELECT).input_value() == "token_based"


def test_a_file_dropped_on_a_knowledgebase_document_is_a_preview(tab, server):
    kb = api(server, "POST", "/api/knowledgebases",
             {"name": "Dropped", "chunking_strategy": "token_based"})
    boundary = "----import-test"
    body = (f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{APEX}"\r\n'
            "Content-Type: application/pdf\r\n\r\n").encode() + APEX_BYTES + (
        f"\r\n--{boundary}--\r\n".encode())
    urllib.request.urlopen(urllib.request.Request(
        f"{server.url}/api/knowledgebases/{kb['id']}/documents", data=body, method="POST",
        headers={"Content-Type": f"multipart/form-data; boundary={boundary}"}), timeout=30)
    deadline = time.monotonic() + 60
    while api(server, "GET", f"/api/knowledgebases/{kb['id']}/documents")["processing"]:
        assert time.monotonic() < deadline
        time.sleep(0.1)

    tab.goto(f"{server.url}/knowledgebases/{kb['id']}/documents/{APEX_ID}")
    tab.wait_for_selector(READY, state="attached")
    assert tab.locator(ENTRIES).count() == 5  # the stored token_based chunks
    lines = "\n".join(json.dumps({"text": t}) for t in page_texts())  # LlamaIndex, one a page
    tab.locator('[data-testid="pages"]').evaluate(
        """(target, text) => {
          const data = new DataTransfer();
          data.items.add(new File([text], "pages.jsonl", { type: "application/json" }));
          for (const type of ["dragenter", "dragover", "drop"]) {
            const init = { dataTransfer: data, bubbles: true, cancelable: true };
            target.dispatchEvent(new DragEvent(type, init));
          }
        }""",
        lines,
    )
    tab.wait_for_function("location.search.includes('import=')")
    tab.wait_for_selector(READY, state="attached")
    assert tab.locator(ENTRIES).count() == 4
    notice = tab.locator('[data-testid="preview-notice"]')
    assert notice.is_visible() and "Imported: pages.jsonl" in notice.inner_text()
    assert tab.locator(BANNER).inner_text().startswith("These chunks were made by another")
    for index, page in enumerate(range(1, 5)):
        assert tab.locator(ENTRIES).nth(index).get_attribute("aria-label").endswith(f"p. {page}")
    tab.click('[data-testid="back-to-stored"]')
    tab.wait_for_function(f"document.querySelectorAll('{ENTRIES}').length === 5")
    assert "import=" not in tab.url


def test_an_imported_set_as_one_side_of_a_comparison(tab, server):
    data, spans, _ = langchain_file()
    tab.goto(f"{server.url}/documents/{APEX_ID}/compare?left=token_based&right=structure_aware")
    tab.wait_for_selector('[data-testid="right-pages"][data-report-state="ready"]',
                          state="attached")
    pick(tab, 'label[for="right-import"]', "theirs.json", data)
    tab.wait_for_function(
        "new URLSearchParams(location.search).get('right')?.startsWith('import:')")
    tab.wait_for_selector('[data-testid="right-pages"][data-report-state="ready"]',
                          state="attached")
    selected = tab.locator('[data-testid="right-select"] option:checked').inner_text()
    assert selected == "Imported: theirs.json"
    summary = tab.locator('[data-testid="right-summary"] [data-count="chunks"]').inner_text()
    assert summary == f"{len(spans)} chunks"
    assert tab.locator('[data-testid="right-banner"]').inner_text().startswith(
        "These chunks were made by another")
    # The left side can show the same file: both selectors know it now.
    assert tab.locator('[data-testid="left-select"] option', has_text="Imported: theirs.json"
                       ).count() == 1
    tab.reload()
    tab.wait_for_selector('[data-testid="right-pages"][data-report-state="ready"]',
                          state="attached")
    assert tab.locator('[data-testid="right-select"] option:checked').inner_text() == selected

"""Knowledgebases in a real browser: Debian's chromium driven by Playwright against a
real server whose SQLite file starts as the legacy fixture. One browser and one server
for the module; a fresh tab per test."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import sqlite3
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from conftest_web import APEX_TOKEN_BANNER, live_server, long_pdf_bytes, open_tab

from visualiser.resources import samples_dir

LEGACY = Path(__file__).parent / "fixtures" / "legacy.sqlite"
LEGACY_KB, DAMAGED_KB = 1, 2
APEX = "05_Apex_Logistics_Services_Agreement_2025.pdf"
APEX_BYTES = (samples_dir() / APEX).read_bytes()
APEX_ID = hashlib.sha256(APEX_BYTES).hexdigest()

ENTRIES = '[data-testid="chunk-list"] > li[data-chunk-index]'
BANNER = '[data-testid="strategy-banner"]'
VIEWER_READY = '[data-testid="viewer"][data-report-state="ready"]'
NOTICE = '[data-testid="preview-notice"]'
# The browser logs every 4xx a test provokes on purpose (a refused upload, a refused
# preview); anything else on the console fails the test.
EXPECTED_STATUSES = ("400 (BAD REQUEST)", "409 (CONFLICT)", "422 (UNPROCESSABLE ENTITY)")


def pdf_file(name: str, data: bytes) -> dict:
    return {"name": name, "mimeType": "application/pdf", "buffer": data}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    scratch = tmp_path_factory.mktemp("kb-app")
    shutil.copy(LEGACY, scratch / "kb.sqlite")
    config = {"CACHE_DIR": scratch / "cache", "DATABASE": scratch / "kb.sqlite"}
    with live_server(config) as running:
        running.database = scratch / "kb.sqlite"
        yield running


@pytest.fixture
def tab(chromium, server):
    with open_tab(chromium, server, EXPECTED_STATUSES) as page:
        yield page


def api(server, method: str, path: str, body: dict | None = None) -> tuple[int, dict | None]:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(server.url + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            raw = response.read()
            return response.status, json.loads(raw) if raw else None
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def api_upload(server, kb_id: int, data: bytes, name: str) -> dict:
    boundary = "----kb-test-boundary"
    body = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{name}"\r\n'
        f"Content-Type: application/pdf\r\n\r\n"
    ).encode() + data + f"\r\n--{boundary}--\r\n".encode()
    request = urllib.request.Request(
        f"{server.url}/api/knowledgebases/{kb_id}/documents", data=body, method="POST",
        headers={"Content-Type": f"multipart/form-data; boundary={boundary}"})
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.status in (200, 202)
        return json.load(response)


def new_kb(server, name: str, **fields) -> int:
    status, body = api(server, "POST", "/api/knowledgebases", {"name": name, **fields})
    assert status == 201, body
    return body["id"]


def stored_strategy(server, kb_id: int) -> str | None:
    """Straight from the SQLite file."""
    with sqlite3.connect(server.database) as conn:
        raw = conn.execute("SELECT metadata FROM knowledgebases WHERE id = ?",
                           (kb_id,)).fetchone()[0]
    return json.loads(raw).get("chunking_strategy")


def row(tab, doc_id: str):
    return tab.locator(f'tr[data-doc-id="{doc_id}"]')


# --- creating ---------------------------------------------------------------------------


def test_creating_in_the_form_without_choosing_stores_structure_aware(tab, server):
    tab.goto(server.url + "/")
    select = tab.locator('[data-testid="kb-strategy-select"]')
    assert select.input_value() == ""  # "Default (structure-aware)" is preselected
    assert select.locator("option").first.inner_text() == "Default (structure-aware)"
    tab.fill('[data-testid="kb-name"]', "Made in the browser")
    tab.click('[data-testid="create-kb-submit"]')
    tab.wait_for_url("**/knowledgebases/*")
    kb_id = int(tab.url.rsplit("/", 1)[1])
    assert stored_strategy(server, kb_id) == "structure_aware"
    assert tab.locator('[data-testid="kb-title"]').inner_text() == "Made in the browser"
    assert tab.locator('[data-testid="kb-strategy"]').inner_text().startswith(
        "stored: structure_aware")
    # Back on the index, the new knowledgebase is listed.
    tab.click("text=All knowledgebases")
    assert tab.locator(f'tr[data-kb-id="{kb_id}"]').inner_text().startswith(
        "Made in the browser")


def test_a_refused_name_is_explained_on_the_form(tab, server):
    new_kb(server, "Taken")
    tab.goto(server.url + "/")
    tab.fill('[data-testid="kb-name"]', "Taken")
    tab.click('[data-testid="create-kb-submit"]')
    error = tab.locator('[data-testid="create-error"]')
    assert "already exists" in error.inner_text() and "Taken" in error.inner_text()
    assert tab.locator('[data-testid="kb-name"]').input_value() == "Taken"


# --- uploading --------------------------------------------------------------------------


def test_upload_through_the_file_picker_shows_progress_then_the_chunks(tab, server):
    kb_id = new_kb(server, "Picker")
    tab.goto(f"{server.url}/knowledgebases/{kb_id}")
    # Record every state the upload's own entry passes through (it may be quick).
    tab.evaluate("""() => {
      window.__uploadStates = [];
      new MutationObserver((records) => {
        for (const r of records) {
          const el = r.type === "attributes" ? r.target : r.addedNodes[0];
          if (el?.dataset?.state) window.__uploadStates.push(el.dataset.state);
        }
      }).observe(document.querySelector('[data-testid="uploads"]'), {
        subtree: true, childList: true, attributes: true, attributeFilter: ["data-state"],
      });
      window.__samePage = true;
    }""")
    data = long_pdf_bytes(60, words="Picker")
    doc_id = hashlib.sha256(data).hexdigest()
    tab.set_input_files('[data-testid="file-input"]', files=[pdf_file("long.pdf", data)])
    # The processing progress: a progress bar in the document's row...
    bar = row(tab, doc_id).locator("progress")
    bar.wait_for()
    assert re.search(r"Processing|Queued", row(tab, doc_id).locator(
        '[data-testid="doc-state"]').inner_text())
    # ...until the page, polling, sees the document ready, without a reload.
    tab.wait_for_selector(f'tr[data-doc-id="{doc_id}"][data-state="ready"]', timeout=120_000)
    assert bar.count() == 0
    assert tab.evaluate("window.__samePage") is True
    assert "uploading" in tab.evaluate("window.__uploadStates")
    assert tab.locator('[data-testid="upload-item"]').count() == 0  # done: its row says so

    tab.click(f'tr[data-doc-id="{doc_id}"] [data-testid="doc-link"]')
    tab.wait_for_selector(VIEWER_READY, state="attached")
    assert tab.locator(ENTRIES).count() > 0
    tab.locator("section.page svg.overlay .box").first.wait_for()
    assert tab.locator('[data-testid="report-mode"]').inner_text() == "stored"
    assert not tab.locator(BANNER).is_visible()  # structure_aware explains nothing
    assert tab.locator('[data-testid="kb-link"]').inner_text() == "Picker"


def test_drag_and_drop_uploads_too(tab, server):
    kb_id = new_kb(server, "Dropped")
    tab.goto(f"{server.url}/knowledgebases/{kb_id}")
    tab.evaluate("""(bytes) => {
      const file = new File([new Uint8Array(bytes)], "dropped.pdf", { type: "application/pdf" });
      const transfer = new DataTransfer();
      transfer.items.add(file);
      const zone = document.querySelector('[data-testid="dropzone"]');
      const init = { dataTransfer: transfer, bubbles: true, cancelable: true };
      zone.dispatchEvent(new DragEvent("dragover", init));
      zone.dispatchEvent(new DragEvent("drop", init));
    }""", list(APEX_BYTES))
    tab.wait_for_selector(f'tr[data-doc-id="{APEX_ID}"][data-state="ready"]', timeout=60_000)
    assert row(tab, APEX_ID).locator('[data-testid="doc-link"]').inner_text() == "dropped.pdf"


def test_the_file_picker_opens_from_the_keyboard(tab, server):
    kb_id = new_kb(server, "Keyboard")
    tab.goto(f"{server.url}/knowledgebases/{kb_id}")
    tab.click('[data-testid="kb-title"]')
    for _ in range(10):  # Tab through the page until the picker has the focus
        tab.keyboard.press("Tab")
        if tab.evaluate("document.activeElement.dataset.testid") == "file-input":
            break
    assert tab.evaluate("document.activeElement.dataset.testid") == "file-input"
    # Listen before pressing: Playwright turns on file-chooser interception lazily, and a
    # key pressed before it is on opens an unseen native dialog (a known race). The
    # evaluate() round trip makes sure the listener's request has reached the browser.
    choosers: list = []
    tab.on("filechooser", lambda chooser: choosers.append(chooser))
    tab.evaluate("0")

    def chooser_after(key: str):
        count = len(choosers)
        tab.keyboard.press(key)
        for _ in range(100):
            if len(choosers) > count:
                return choosers[-1]
            tab.wait_for_timeout(100)
        raise AssertionError(f"{key} did not open the file picker")

    chooser_after("Space").set_files(files=[])  # cancelled
    chooser_after("Enter").set_files(files=[pdf_file("keyboard.pdf", APEX_BYTES)])
    tab.wait_for_selector(f'tr[data-doc-id="{APEX_ID}"][data-state="ready"]', timeout=60_000)


def test_a_garbage_upload_gets_a_clear_message_and_the_page_keeps_working(tab, server):
    kb_id = new_kb(server, "Garbage")
    tab.goto(f"{server.url}/knowledgebases/{kb_id}")
    tab.set_input_files('[data-testid="file-input"]',
                        files=[pdf_file("garbage.pdf", b"this is not a PDF at all")])
    failed = tab.locator('[data-testid="upload-item"][data-state="failed"]')
    failed.wait_for()
    message = failed.inner_text()
    assert "garbage.pdf" in message and "not a PDF" in message
    assert failed.locator('[role="alert"]').count() == 1
    assert tab.locator("tr[data-doc-id]").count() == 0
    # Still working: a real PDF goes in and gets processed.
    tab.set_input_files('[data-testid="file-input"]', files=[pdf_file("apex.pdf", APEX_BYTES)])
    tab.wait_for_selector(f'tr[data-doc-id="{APEX_ID}"][data-state="ready"]', timeout=60_000)
    failed.locator("button").click()  # dismissed
    assert tab.locator('[data-testid="upload-item"]').count() == 0


def test_the_viewer_shows_processing_progress_then_refreshes_when_ready(tab, server):
    kb_id = new_kb(server, "Queued", chunking_strategy="token_based")
    # One worker: the second document waits behind the first, so it is "processing"
    # for several seconds, long enough to see.
    api_upload(server, kb_id, long_pdf_bytes(120, words="Ahead in the queue"), "first.pdf")
    doc = api_upload(server, kb_id, long_pdf_bytes(60, words="Behind"), "second.pdf")
    tab.goto(server.url + doc["links"]["viewer"])
    panel = tab.locator('[data-testid="processing"]')
    panel.wait_for()
    assert "Processing" in panel.inner_text()
    assert tab.locator("section.page svg.overlay .box").count() == 0
    assert tab.locator('[data-testid="strategy-select"]').is_disabled()
    tab.wait_for_selector(VIEWER_READY, state="attached", timeout=120_000)
    assert not panel.is_visible()
    assert tab.locator(ENTRIES).count() > 0
    tab.locator("section.page svg.overlay .box").first.wait_for()
    assert tab.locator(BANNER).is_visible()  # token_based
    assert tab.locator('[data-testid="strategy-select"]').is_enabled()


# --- the legacy fixture: stored chunks, banner, preview -------------------------------


def test_legacy_knowledgebase_stored_chunks_banner_and_a_preview(tab, server):
    tab.goto(f"{server.url}/knowledgebases/{LEGACY_KB}")
    assert "reads as token_based" in tab.locator('[data-testid="kb-strategy"]').inner_text()
    tab.set_input_files('[data-testid="file-input"]', files=[pdf_file(APEX, APEX_BYTES)])
    tab.wait_for_selector(f'tr[data-doc-id="{APEX_ID}"][data-state="ready"]', timeout=60_000)
    tab.click(f'tr[data-doc-id="{APEX_ID}"] [data-testid="doc-link"]')
    tab.wait_for_selector(VIEWER_READY, state="attached")

    banner = tab.locator(BANNER)
    assert banner.is_visible()
    assert banner.inner_text().strip() == APEX_TOKEN_BANNER
    badges = tab.locator(f"{ENTRIES} .badge").all_inner_texts()
    assert badges == ["text", "text", "table", "text", "table_context"]
    assert tab.locator('[data-testid="strategy-select"]').input_value() == ""
    assert not tab.locator(NOTICE).is_visible()
    assert not tab.locator('[data-testid="params"]').is_visible()
    tab.locator(f'{ENTRIES}[data-chunk-index="4"]').click()
    assert tab.locator('[data-testid="chunk-why"]').inner_text().startswith("Context chunk")

    # Another strategy: a preview, marked as such; nothing stored changes.
    tab.select_option('[data-testid="strategy-select"]', "structure_aware")
    tab.wait_for_function(
        f"document.querySelectorAll('{ENTRIES}').length === 17"
        " && document.querySelector('[data-testid=viewer]').dataset.reportState === 'ready'")
    notice = tab.locator(NOTICE)
    assert notice.is_visible()
    assert " ".join(notice.inner_text().split()).startswith(
        "Preview — not stored; the knowledgebase chunks with token_based")
    assert tab.locator('[data-testid="report-mode"]').inner_text() == "preview"
    assert not banner.is_visible()
    assert "strategy=structure_aware" in tab.url

    tab.click('[data-testid="back-to-stored"]')
    tab.wait_for_function(f"document.querySelectorAll('{ENTRIES}').length === 5")
    tab.wait_for_selector(VIEWER_READY, state="attached")
    assert not notice.is_visible() and banner.is_visible()
    assert "strategy=" not in tab.url
    status, stored = api(server, "GET",
                         f"/api/knowledgebases/{LEGACY_KB}/documents/{APEX_ID}/chunks")
    assert status == 200 and len(stored["chunks"]) == 5


def test_damaged_metadata_shows_the_failure_and_no_banner(tab, server):
    api_upload(server, DAMAGED_KB, APEX_BYTES, APEX)
    tab.goto(f"{server.url}/knowledgebases/{DAMAGED_KB}")
    assert "strategy is unknown" in tab.locator('[data-testid="kb-strategy"]').inner_text()
    tab.wait_for_selector(f'tr[data-doc-id="{APEX_ID}"][data-state="failed"]', timeout=60_000)
    assert "cannot be read" in row(tab, APEX_ID).locator('[data-testid="doc-error"]').inner_text()
    tab.click(f'tr[data-doc-id="{APEX_ID}"] [data-testid="doc-link"]')
    tab.wait_for_selector('[data-testid="viewer"][data-report-state="failed"]', state="attached")
    assert "Processing failed" in tab.locator('[data-testid="error"]').inner_text()
    assert not tab.locator(BANNER).is_visible()
    assert tab.locator(ENTRIES).count() == 0
    assert "Stored chunks (strategy unknown)" in tab.locator(
        '[data-testid="strategy-select"] option').first.inner_text()


# --- deleting, with confirmation -------------------------------------------------------


def test_deleting_asks_first(tab, server):
    kb_id = new_kb(server, "To delete")
    data = long_pdf_bytes(2, words="Deleted soon")
    doc_id = hashlib.sha256(data).hexdigest()
    api_upload(server, kb_id, data, "deleted-soon.pdf")
    tab.goto(f"{server.url}/knowledgebases/{kb_id}")
    tab.wait_for_selector(f'tr[data-doc-id="{doc_id}"][data-state="ready"]', timeout=60_000)
    delete = row(tab, doc_id).locator('[data-action="delete-document"]')
    questions: list[str] = []

    def answer(accept: bool):
        def handler(dialog) -> None:
            questions.append(dialog.message)
            dialog.accept() if accept else dialog.dismiss()
        return handler

    tab.once("dialog", answer(False))
    delete.click()
    tab.wait_for_function("true")  # let the click's handler finish
    assert len(questions) == 1 and "deleted-soon.pdf" in questions[0]
    assert row(tab, doc_id).count() == 1
    url = f"/api/knowledgebases/{kb_id}/documents/{doc_id}"
    assert api(server, "GET", url)[0] == 200

    tab.once("dialog", answer(True))
    delete.click()
    row(tab, doc_id).wait_for(state="detached")
    assert api(server, "GET", url)[0] == 404
    assert tab.locator('[data-testid="no-kb-documents"]').is_visible()

    tab.once("dialog", answer(False))
    tab.click('[data-testid="delete-kb"]')
    assert "To delete" in questions[-1]
    assert api(server, "GET", f"/api/knowledgebases/{kb_id}")[0] == 200
    tab.once("dialog", answer(True))
    with tab.expect_navigation():
        tab.click('[data-testid="delete-kb"]')
    assert tab.url == server.url + "/"
    assert api(server, "GET", f"/api/knowledgebases/{kb_id}")[0] == 404
    assert tab.locator(f'tr[data-kb-id="{kb_id}"]').count() == 0


def test_a_paused_retried_document_says_so_and_the_table_follows_it(tab, server):
    kb_id = new_kb(server, "Retried")
    doc = api_upload(server, kb_id, long_pdf_bytes(3, words="Retried by a second worker"),
                     "retried.pdf")
    api_wait_ready(server, kb_id, doc["id"])
    # As a team server's worker leaves it: its first worker died (attempt 2), and the
    # second handed it back to the queue part-read while small documents went first.
    with sqlite3.connect(server.database) as conn:
        conn.execute("UPDATE kb_documents SET state = 'processing', progress = 0.4, "
                     "attempts = 2, lease_owner = 'queue', lease_until = 1e12 "
                     "WHERE kb_id = ? AND doc_id = ?", (kb_id, doc["id"]))
    tab.goto(f"{server.url}/knowledgebases/{kb_id}")
    state = row(tab, doc["id"]).locator('[data-testid="doc-state"]')
    assert "Paused at 40 %" in state.inner_text()
    assert state.locator('[data-testid="doc-attempts"]').inner_text() == \
        "attempt 2 of 3: a worker stopped mid-job"
    with sqlite3.connect(server.database) as conn:  # the worker finishes it
        conn.execute("UPDATE kb_documents SET state = 'ready', progress = 1, "
                     "lease_owner = NULL, lease_until = NULL WHERE kb_id = ? AND doc_id = ?",
                     (kb_id, doc["id"]))
    tab.wait_for_selector(f'tr[data-doc-id="{doc["id"]}"][data-state="ready"]')
    assert "Ready" in state.inner_text()
    assert state.locator('[data-testid="doc-attempts"]').inner_text() == "after 2 attempts"


def api_wait_ready(server, kb_id: int, doc_id: str) -> None:
    import time

    deadline = time.monotonic() + 60
    while api(server, "GET", f"/api/knowledgebases/{kb_id}/documents/{doc_id}")[1][
            "state"] != "ready":
        assert time.monotonic() < deadline
        time.sleep(0.1)

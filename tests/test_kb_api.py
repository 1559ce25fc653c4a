"""Knowledgebases over HTTP (Flask's test client, a real SQLite file per test): creation
with the right default through every web path, uploads that are validated at the door
and processed in the background, stored chunks and previews, and the legacy fixture."""

from __future__ import annotations

import hashlib
import io
import json
import logging
import re
import shutil
import threading
import time
from pathlib import Path

import pymupdf
import pytest

from tests.conftest import make_app
from visualiser import ingest, knowledgebase, pipeline
from visualiser.resources import samples_dir
from visualiser.store import Store
from visualiser.strategies import STRATEGIES
from visualiser.web import start_processing

APEX = "05_Apex_Logistics_Services_Agreement_2025.pdf"
APEX_BYTES = (samples_dir() / APEX).read_bytes()
APEX_ID = hashlib.sha256(APEX_BYTES).hexdigest()
LEGACY = Path(__file__).parent / "fixtures" / "legacy.sqlite"
LEGACY_KB, DAMAGED_KB = 1, 2
TOKEN_BASED_TYPES = ["text", "text", "table", "text", "table_context"]


@pytest.fixture
def app(database, tmp_path):
    """The app on each backend: a SQLite file, or a PostgreSQL schema with its files
    under `tmp_path/data` (the API tests run on both)."""
    app = make_app(tmp_path, database)
    yield app
    app.extensions["visualiser"].close()


@pytest.fixture
def legacy_app(tmp_path):
    database = tmp_path / "legacy.sqlite"
    shutil.copy(LEGACY, database)
    app = make_app(tmp_path, database)
    yield app
    app.extensions["visualiser"].close()


def sql(app, query: str, *args):
    """Straight from the tables (SQLite or PostgreSQL), bypassing every read path of ours."""
    with app.extensions["visualiser"].store.db(write=False) as conn:
        return [tuple(row) for row in conn.execute(query, args).fetchall()]


def stored_metadata(app, kb_id: int):
    return json.loads(sql(app, "SELECT metadata FROM knowledgebases WHERE id = ?", kb_id)[0][0])


def upload(client, kb_id: int, data: bytes, name: str = "doc.pdf", **kwargs):
    return client.post(
        f"/api/knowledgebases/{kb_id}/documents",
        data={"file": (io.BytesIO(data), name)},
        content_type="multipart/form-data",
        **kwargs,
    )


def wait_until_processed(client, kb_id: int, timeout: float = 60) -> list[dict]:
    """Poll the API as the page does, until no document is processing."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        body = client.get(f"/api/knowledgebases/{kb_id}/documents").get_json()
        if body["processing"] == 0:
            return body["documents"]
        time.sleep(0.05)
    raise AssertionError(f"still processing after {timeout} s: {body}")


def create_kb(client, name: str = "Contracts", **fields) -> dict:
    response = client.post("/api/knowledgebases", json={"name": name, **fields})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def one_page_pdf(text: str) -> bytes:
    with pymupdf.open() as document:
        document.new_page().insert_text((72, 72), text)
        return document.tobytes()


def encrypted_pdf() -> bytes:
    with pymupdf.open() as document:
        document.new_page().insert_text((72, 72), "secret")
        return document.tobytes(
            encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="pw", owner_pw="pw"
        )


ZERO_PAGES = (
    b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n"
    b"2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF"
)


# --- creating: the default through every web path -----------------------------------


def test_json_creation_without_a_strategy_stores_structure_aware(app, client):
    body = create_kb(client, "Contracts")
    assert body["chunking_strategy"] == "structure_aware"
    stored = stored_metadata(app, body["id"])
    assert stored["chunking_strategy"] == "structure_aware"
    assert stored["chunking_params"] == STRATEGIES["structure_aware"].settings()
    assert body["links"]["page"] == f"/knowledgebases/{body['id']}"


@pytest.mark.parametrize("form", [{"name": "From the form", "chunking_strategy": ""},
                                  {"name": "From the form"}])
def test_form_creation_without_choosing_stores_structure_aware(app, client, form):
    response = client.post("/knowledgebases", data=form)
    assert response.status_code == 303
    kb_id = int(re.fullmatch(r"/knowledgebases/(\d+)", response.headers["Location"])[1])
    assert stored_metadata(app, kb_id)["chunking_strategy"] == "structure_aware"
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "stored: structure_aware" in page


def test_the_default_comes_from_the_one_source_of_truth(app, client, monkeypatch):
    # Were the default to change in knowledgebase.py, every web path would follow.
    monkeypatch.setattr(knowledgebase, "DEFAULT_STRATEGY", "token_based")
    kb = create_kb(client, "Follows")
    client.post("/knowledgebases", data={"name": "Form follows", "chunking_strategy": ""})
    assert stored_metadata(app, kb["id"])["chunking_strategy"] == "token_based"
    (form_id,) = sql(app, "SELECT id FROM knowledgebases WHERE name = 'Form follows'")[0]
    assert stored_metadata(app, form_id)["chunking_strategy"] == "token_based"


def test_the_creation_form_offers_the_default_first_then_the_other_strategies(client):
    html = client.get("/").get_data(as_text=True)
    select = re.search(r'<select name="chunking_strategy".*?</select>', html, re.S)[0]
    options = re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)</option>', select)
    assert options[0] == ("", "Default (structure-aware)")
    assert [value for value, _ in options[1:]] == [
        name for name in STRATEGIES if name != "structure_aware"]


def test_an_explicit_strategy_and_parameters_are_stored(app, client):
    body = create_kb(client, "Chosen", chunking_strategy="token_based",
                     chunking_params={"chunk_token_size": 800})
    stored = stored_metadata(app, body["id"])
    assert stored["chunking_strategy"] == "token_based"
    assert stored["chunking_params"]["chunk_token_size"] == 800
    response = client.post("/knowledgebases", data={"name": "Form choice",
                                                     "chunking_strategy": "fixed_tokens"})
    kb_id = int(response.headers["Location"].rsplit("/", 1)[1])
    assert stored_metadata(app, kb_id)["chunking_strategy"] == "fixed_tokens"


@pytest.mark.parametrize(("body", "named"), [
    ({"name": "X", "chunking_strategy": "nope"}, "nope"),
    ({"name": "X", "chunking_params": {"max_token_size": 0}}, "max_token_size"),
    ({"name": "X", "chunking_params": {"no_such_knob": 1}}, "no_such_knob"),
    ({"name": "X", "chunking_params": [1, 2]}, "chunking_params"),
    ({"name": "   "}, "name"),
    ({}, "name"),
])
def test_refused_creation_is_a_400_naming_what_is_wrong(app, client, body, named):
    create_kb(client, "Contracts")
    response = client.post("/api/knowledgebases", json=body)
    assert response.status_code == 400
    assert named in response.get_json()["message"]
    assert sql(app, "SELECT COUNT(*) FROM knowledgebases")[0][0] == 1


def test_a_duplicate_name_is_a_409_naming_it(app, client):
    create_kb(client, "Contracts")
    response = client.post("/api/knowledgebases", json={"name": "Contracts"})
    assert response.status_code == 409
    assert "Contracts" in response.get_json()["message"]
    assert sql(app, "SELECT COUNT(*) FROM knowledgebases")[0][0] == 1


def test_creation_needs_a_json_object(client):
    response = client.post("/api/knowledgebases", data="name=x",
                           content_type="application/x-www-form-urlencoded")
    assert response.status_code == 400
    assert "JSON object" in response.get_json()["message"]


def test_a_refused_form_shows_the_reason_and_keeps_what_was_typed(client):
    create_kb(client, "Contracts")
    response = client.post("/knowledgebases", data={"name": "Contracts",
                                                    "chunking_strategy": "token_based"})
    assert response.status_code == 409 and response.mimetype == "text/html"
    html = response.get_data(as_text=True)
    assert 'data-testid="create-error"' in html and "already exists" in html
    assert 'value="Contracts"' in html
    assert '<option value="token_based" selected>' in html


def test_list_get_and_delete_knowledgebases(app, client):
    first = create_kb(client, "B first")
    second = create_kb(client, "A second", chunking_strategy="token_based")
    listed = client.get("/api/knowledgebases").get_json()["knowledgebases"]
    assert [kb["name"] for kb in listed] == ["A second", "B first"]
    assert listed[1]["document_count"] == 0
    got = client.get(f"/api/knowledgebases/{second['id']}").get_json()
    assert got["chunking_strategy"] == "token_based" and got["documents"] == []
    assert got["strategy_source"] == "stored"
    assert client.delete(f"/api/knowledgebases/{first['id']}").status_code == 204
    assert client.get(f"/api/knowledgebases/{first['id']}").status_code == 404
    assert client.delete(f"/api/knowledgebases/{first['id']}").status_code == 404
    assert sql(app, "SELECT name FROM knowledgebases") == [("A second",)]


def test_index_lists_knowledgebases_and_the_samples(client):
    create_kb(client, "Contracts")
    html = client.get("/").get_data(as_text=True)
    assert 'href="/knowledgebases/1">Contracts</a>' in html
    assert f'data-document-id="{APEX_ID}"' in html
    assert 'action="/knowledgebases"' in html


# --- uploads ----------------------------------------------------------------------------


def test_upload_is_accepted_queued_and_processed_with_the_stored_strategy(app, client):
    kb = create_kb(client)
    response = upload(client, kb["id"], APEX_BYTES, APEX)
    assert response.status_code == 202
    body = response.get_json()
    assert body["id"] == APEX_ID and body["page_count"] == 4 and body["state"] == "processing"
    assert body["links"]["viewer"] == f"/knowledgebases/{kb['id']}/documents/{APEX_ID}"
    (doc,) = wait_until_processed(client, kb["id"])
    assert doc["state"] == "ready" and doc["progress"] == 1.0 and doc["error"] is None
    report = client.get(body["links"]["chunks"]).get_json()
    assert report["chunking_strategy"] == "structure_aware" and report["preview"] is False
    assert len(report["chunks"]) == 17 and report["strategy"]["banner"] is None
    assert sql(app, "SELECT COUNT(*) FROM chunks")[0][0] == 17
    # The layout the worker extracted is in the viewer's cache: previews reuse it.
    assert app.extensions["visualiser"].library.is_processed(APEX_ID)


def test_the_same_bytes_again_are_the_same_document_and_not_reprocessed(
        app, client, monkeypatch):
    calls = []
    real = ingest.process
    monkeypatch.setattr(ingest, "process", lambda *a, **k: (calls.append(a), real(*a, **k)))
    kb = create_kb(client)
    assert upload(client, kb["id"], APEX_BYTES, "first.pdf").status_code == 202
    wait_until_processed(client, kb["id"])
    again = upload(client, kb["id"], APEX_BYTES, "copy.pdf")
    assert again.status_code == 200
    assert again.get_json()["id"] == APEX_ID and again.get_json()["name"] == "first.pdf"
    assert again.get_json()["state"] == "ready"
    assert app.extensions["visualiser"].processor.wait(30)
    assert len(calls) == 1
    assert sql(app, "SELECT COUNT(*) FROM kb_documents")[0][0] == 1


@pytest.mark.parametrize(("data", "reason"), [
    (b"hello, I am text", "not a PDF"),
    (b"", "empty"),
    (one_page_pdf("x")[:200], "cannot be read|no pages|damaged"),
    (encrypted_pdf(), "encrypted with a password"),
    (ZERO_PAGES, "no pages"),
])
def test_unusable_uploads_are_a_422_with_the_reason_and_store_nothing(
        app, client, data, reason):
    kb = create_kb(client)
    response = upload(client, kb["id"], data, "bad.pdf")
    assert response.status_code == 422
    body = response.get_json()
    assert body["error"] == "Unusable PDF" and re.search(reason, body["message"])
    assert sql(app, "SELECT COUNT(*) FROM documents")[0][0] == 0
    assert list(app.extensions["visualiser"].store.files.iterdir()) == []
    # The server keeps serving, uploads included.
    assert client.get("/api/knowledgebases").status_code == 200
    assert upload(client, kb["id"], one_page_pdf("Fine words")).status_code == 202
    wait_until_processed(client, kb["id"])


def test_garbage_of_every_kind_never_breaks_the_server(client):
    kb = create_kb(client)
    for junk in (b"\x00" * 5000, b"%PDF-" + bytes(range(256)) * 40, b"%PDF-1.7\n%%EOF"):
        response = upload(client, kb["id"], junk, "junk.pdf")
        assert response.status_code == 422 and response.get_json()["message"]
    assert client.get("/").status_code == 200
    assert client.get(f"/api/documents/{APEX_ID}/chunks?strategy=token_based").status_code == 200


def test_over_the_byte_limit_is_a_json_413_with_a_clear_message(tmp_path):
    app = make_app(tmp_path, MAX_CONTENT_LENGTH=4096)
    client = app.test_client()
    try:
        kb = create_kb(client)
        response = upload(client, kb["id"], APEX_BYTES, APEX)
        assert response.status_code == 413 and response.mimetype == "application/json"
        body = response.get_json()
        assert body["error"] == "File too large" and "at most 4.0 KB" in body["message"]
        assert sql(app, "SELECT COUNT(*) FROM documents")[0][0] == 0
        # The form without JavaScript gets a friendly page, not JSON.
        page = client.post(f"/knowledgebases/{kb['id']}/documents",
                           data={"file": (io.BytesIO(APEX_BYTES), APEX)},
                           headers={"Accept": "text/html"})
        assert page.status_code == 413 and page.mimetype == "text/html"
        html = page.get_data(as_text=True)
        assert 'data-status="413"' in html and "at most 4.0 KB" in html
        assert client.get("/api/knowledgebases").status_code == 200
    finally:
        app.extensions["visualiser"].close()


def test_over_the_page_limit_is_a_422_naming_the_limit(tmp_path):
    app = make_app(tmp_path, MAX_UPLOAD_PAGES=3)
    client = app.test_client()
    try:
        kb = create_kb(client)
        response = upload(client, kb["id"], APEX_BYTES, APEX)
        assert response.status_code == 422
        assert "4 pages; the limit is 3" in response.get_json()["message"]
        assert sql(app, "SELECT COUNT(*) FROM documents")[0][0] == 0
    finally:
        app.extensions["visualiser"].close()


def test_an_upload_without_a_file_or_to_no_knowledgebase(app, client):
    kb = create_kb(client)
    response = client.post(f"/api/knowledgebases/{kb['id']}/documents", data={})
    assert response.status_code == 400 and response.get_json()["parameter"] == "file"
    assert upload(client, 99, APEX_BYTES).status_code == 404
    assert sql(app, "SELECT COUNT(*) FROM documents")[0][0] == 0


def test_the_upload_form_without_javascript_redirects_to_the_knowledgebase(client):
    kb = create_kb(client)
    response = client.post(f"/knowledgebases/{kb['id']}/documents",
                           data={"file": (io.BytesIO(APEX_BYTES), "../../evil/apex.pdf")})
    assert response.status_code == 303
    assert response.headers["Location"] == f"/knowledgebases/{kb['id']}"
    (doc,) = wait_until_processed(client, kb["id"])
    assert doc["name"] == "apex.pdf"  # no path from the browser survives


def test_documents_list_get_and_delete(app, client):
    kb = create_kb(client)
    other = one_page_pdf("Another document")
    upload(client, kb["id"], APEX_BYTES, APEX)
    upload(client, kb["id"], other, "other.pdf")
    docs = wait_until_processed(client, kb["id"])
    assert {d["name"] for d in docs} == {APEX, "other.pdf"}
    url = f"/api/knowledgebases/{kb['id']}/documents/{APEX_ID}"
    assert client.get(url).get_json()["state"] == "ready"
    assert client.delete(url).status_code == 204
    assert client.get(url).status_code == 404
    assert client.get(url + "/chunks").status_code == 404
    assert client.delete(url).status_code == 404
    remaining = client.get(f"/api/knowledgebases/{kb['id']}/documents").get_json()
    assert [d["name"] for d in remaining["documents"]] == ["other.pdf"]
    assert sql(app, "SELECT COUNT(*) FROM documents WHERE id = ?", APEX_ID)[0][0] == 0
    assert not app.extensions["visualiser"].store.pdf_path(APEX_ID).exists()


def test_deleting_a_knowledgebase_deletes_its_documents(app, client):
    kb = create_kb(client)
    upload(client, kb["id"], APEX_BYTES, APEX)
    wait_until_processed(client, kb["id"])
    assert client.delete(f"/api/knowledgebases/{kb['id']}").status_code == 204
    assert sql(app, "SELECT COUNT(*) FROM chunks")[0][0] == 0
    assert sql(app, "SELECT COUNT(*) FROM documents")[0][0] == 0
    assert client.get(f"/api/knowledgebases/{kb['id']}/documents").status_code == 404


def test_progress_is_recorded_while_processing(app, client, monkeypatch):
    seen: list[float] = []
    real = pipeline.process_pdf

    def watching(data, name, **kwargs):
        report = kwargs["progress"]

        def progress(done, total):
            report(done, total)
            seen.append(app.extensions["visualiser"].store.document(1, APEX_ID)["progress"])

        return real(data, name, **{**kwargs, "progress": progress})

    monkeypatch.setattr(ingest, "process_pdf", watching)
    kb = create_kb(client)
    upload(client, kb["id"], APEX_BYTES, APEX)
    wait_until_processed(client, kb["id"])
    assert seen == [0.25, 0.5, 0.75, 1.0]  # 4 pages, each more than 2 % of the document


def test_progress_writes_are_throttled(monkeypatch):
    clock = iter(i * 0.001 for i in range(10_000))  # 1 ms a page
    monkeypatch.setattr(ingest.time, "monotonic", lambda: next(clock))
    writes: list[float] = []
    progress = ingest.throttled(writes.append)
    for done in range(1, 2001):
        progress(done, 2000)
    assert 40 <= len(writes) <= 60  # every 2 % (or 0.25 s), not 2000 writes
    assert writes == sorted(writes)


def test_documents_left_processing_by_a_stopped_server_are_resumed(tmp_path):
    database = tmp_path / "kb.sqlite"
    store = Store(database)
    kb = store.create_knowledgebase("K", knowledgebase.new_metadata())
    ingest.admit(store, kb.id, APEX_BYTES, APEX)  # stored, never processed
    app = make_app(tmp_path, database)
    try:
        # create_app starts nothing; `serve` starts processing, and with it the resume
        assert app.extensions["visualiser"].processor.is_running(kb.id, APEX_ID) is False
        time.sleep(0.2)
        assert store.document(kb.id, APEX_ID)["state"] == "processing"
        assert start_processing(app) == 1
        (doc,) = wait_until_processed(app.test_client(), kb.id)
        assert doc["state"] == "ready"
    finally:
        app.extensions["visualiser"].close()


# --- stored chunks and previews ------------------------------------------------------


def test_legacy_knowledgebase_reads_as_token_based_and_stores_chunk_types(legacy_app):
    client = legacy_app.test_client()
    kb = client.get(f"/api/knowledgebases/{LEGACY_KB}").get_json()
    assert kb["name"] == "Legacy contracts"
    assert kb["chunking_strategy"] == "token_based" and kb["strategy_source"] == "legacy"
    page = client.get(f"/knowledgebases/{LEGACY_KB}").get_data(as_text=True)
    assert "reads as token_based" in page and "predates" in page
    assert upload(client, LEGACY_KB, APEX_BYTES, APEX).status_code == 202
    (doc,) = wait_until_processed(client, LEGACY_KB)
    assert doc["state"] == "ready"
    report = client.get(doc["links"]["chunks"]).get_json()
    assert report["chunking_strategy"] == "token_based"
    # The banner speaks of the stored chunks: chunk 4 is the one table-context chunk.
    assert "1 table-context chunk — 4 — repeats its neighbours" in report["strategy"]["banner"]
    assert {"chunk": 4} in report["strategy"]["banner_parts"]
    assert [c["chunk_type"] for c in report["chunks"]] == TOKEN_BASED_TYPES
    assert report["chunks"][4]["why"].startswith("Context chunk")
    stored = sql(legacy_app, "SELECT chunk_type FROM chunks ORDER BY idx")
    assert [row[0] for row in stored] == TOKEN_BASED_TYPES
    # Nothing rewrote the legacy metadata on the way.
    assert "chunking_strategy" not in stored_metadata(legacy_app, LEGACY_KB)


def test_damaged_metadata_gives_a_null_strategy_and_no_banner(legacy_app):
    client = legacy_app.test_client()
    kb = client.get(f"/api/knowledgebases/{DAMAGED_KB}").get_json()
    assert kb["chunking_strategy"] is None and kb["strategy_source"] == "unknown"
    page = client.get(f"/knowledgebases/{DAMAGED_KB}").get_data(as_text=True)
    assert "strategy is unknown" in page
    upload(client, DAMAGED_KB, APEX_BYTES, APEX)
    (doc,) = wait_until_processed(client, DAMAGED_KB)
    assert doc["state"] == "failed" and "cannot be read" in doc["error"]
    report = client.get(doc["links"]["chunks"]).get_json()
    assert report["chunking_strategy"] is None and report["strategy"] is None
    assert report["chunks"] == [] and report["state"] == "failed"
    # A preview still works: it needs no stored strategy.
    preview = client.get(doc["links"]["chunks"] + "?strategy=token_based").get_json()
    assert preview["preview"] is True and preview["stored_strategy"] is None
    assert len(preview["chunks"]) == 5


def test_a_preview_changes_nothing_stored(legacy_app, monkeypatch):
    client = legacy_app.test_client()
    upload(client, LEGACY_KB, APEX_BYTES, APEX)
    (doc,) = wait_until_processed(client, LEGACY_KB)

    def no_second_extraction(*args, **kwargs):
        raise AssertionError("the worker's layout should have been reused")

    monkeypatch.setattr(pipeline, "process_pdf", no_second_extraction)
    before = sql(legacy_app, "SELECT * FROM chunks ORDER BY idx")
    url = doc["links"]["chunks"]
    preview = client.get(url + "?strategy=structure_aware&max_token_size=600")
    assert preview.status_code == 200
    body = preview.get_json()
    assert body["preview"] is True and body["chunking_strategy"] == "structure_aware"
    assert body["stored_strategy"] == "token_based"
    assert body["parameters"]["max_token_size"] == 600
    assert body["knowledgebase"] == {"id": LEGACY_KB, "name": "Legacy contracts"}
    assert body["strategy"]["banner"] is None
    assert sql(legacy_app, "SELECT * FROM chunks ORDER BY idx") == before
    stored = client.get(url).get_json()
    assert stored["preview"] is False and len(stored["chunks"]) == 5
    bad = client.get(url + "?strategy=structure_aware&max_token_size=0")
    assert bad.status_code == 400 and bad.get_json()["parameter"] == "max_token_size"
    assert client.get(url + "?strategy=nope").status_code == 400


def test_no_preview_while_the_document_is_processing(app, client):
    kb = create_kb(client)
    upload(client, kb["id"], APEX_BYTES, APEX)
    wait_until_processed(client, kb["id"])
    app.extensions["visualiser"].store.set_state(kb["id"], APEX_ID, "processing", progress=0.4)
    url = f"/api/knowledgebases/{kb['id']}/documents/{APEX_ID}/chunks"
    response = client.get(url + "?strategy=token_based")
    assert response.status_code == 409 and "still being processed" in response.get_json()["message"]
    stored = client.get(url).get_json()
    assert stored["state"] == "processing" and stored["progress"] == 0.4


# --- the pages -----------------------------------------------------------------------


def viewer_config(html: str) -> dict:
    match = re.search(r'<script type="application/json" id="viewer-config">(.*?)</script>',
                      html, re.S)
    return json.loads(match[1])


def test_knowledgebase_page_shows_states_errors_and_links(app, client):
    kb = create_kb(client)
    upload(client, kb["id"], APEX_BYTES, APEX)
    wait_until_processed(client, kb["id"])
    store = app.extensions["visualiser"].store
    store.set_state(kb["id"], APEX_ID, "failed", error="the PDF's content cannot be read: x")
    html = client.get(f"/knowledgebases/{kb['id']}").get_data(as_text=True)
    assert f'<tr data-doc-id="{APEX_ID}" data-state="failed" data-phase="failed">' in html
    assert "the PDF&#39;s content cannot be read: x" in html
    assert f'href="/knowledgebases/{kb["id"]}/documents/{APEX_ID}"' in html
    assert 'data-action="delete-document"' in html and 'data-action="delete-knowledgebase"' in html
    assert 'type="file"' in html and 'data-testid="dropzone"' in html
    store.set_state(kb["id"], APEX_ID, "processing", progress=0.42)
    html = client.get(f"/knowledgebases/{kb['id']}").get_data(as_text=True)
    # No worker is on it (it was set by hand): it reads as queued, not as processing.
    assert '<progress max="100" value="42"' in html and "Queued · waiting" in html
    assert 'data-phase="queued"' in html
    assert client.get("/knowledgebases/99").status_code == 404


def test_viewer_of_a_stored_document(app, client):
    kb = create_kb(client, chunking_strategy="token_based")
    upload(client, kb["id"], APEX_BYTES, APEX)
    wait_until_processed(client, kb["id"])
    url = f"/knowledgebases/{kb['id']}/documents/{APEX_ID}"
    response = client.get(url)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    config = viewer_config(html)
    assert config["strategy"] == ""  # the stored chunks
    assert config["stored"]["chunking_strategy"] == "token_based"
    assert config["urls"]["chunks"] == f"/api/knowledgebases/{kb['id']}/documents/{APEX_ID}/chunks"
    assert '<option value="" selected>Stored chunks (token_based)</option>' in html
    assert html.count('<section class="page"') == 4
    assert viewer_config(client.get(url + "?strategy=structure_aware").get_data(as_text=True))[
        "strategy"] == "structure_aware"
    assert client.get(url + "?strategy=nope").status_code == 400
    assert client.get(f"/knowledgebases/{kb['id']}/documents/{'0' * 64}").status_code == 404


def test_page_images_of_a_stored_document(client):
    kb = create_kb(client)
    upload(client, kb["id"], APEX_BYTES, APEX)
    base = f"/api/knowledgebases/{kb['id']}/documents/{APEX_ID}/pages"
    with client.get(f"{base}/2.png?scale=0.5") as response:
        assert response.status_code == 200 and response.mimetype == "image/png"
        assert pymupdf.Pixmap(response.data).width == 306
    assert client.get(f"{base}/5.png").status_code == 404
    assert client.get(f"/api/knowledgebases/{kb['id']}/documents/{'0' * 64}/pages/1.png"
                      ).status_code == 404


def test_deleting_a_document_while_it_is_processed_is_quiet(app, client, monkeypatch, caplog):
    started, release = threading.Event(), threading.Event()
    real = pipeline.process_pdf

    def held(data, name, **kwargs):
        started.set()
        release.wait(30)
        return real(data, name, **kwargs)

    monkeypatch.setattr(ingest, "process_pdf", held)
    kb = create_kb(client)
    upload(client, kb["id"], APEX_BYTES, APEX)
    assert started.wait(30)
    with caplog.at_level(logging.INFO):
        assert client.delete(f"/api/knowledgebases/{kb['id']}").status_code == 204
        release.set()
        assert app.extensions["visualiser"].processor.wait(60)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert any("deleted while it was being processed" in r.getMessage() for r in caplog.records)
    assert sql(app, "SELECT COUNT(*) FROM chunks")[0][0] == 0
    assert client.get("/api/knowledgebases").get_json() == {"knowledgebases": []}

"""A knowledgebase document's layout is read from its pages once, at processing, and
kept beside its PDF; every later preview, compare side, import and page-words call
reads that file, also after a restart (a new app on the same store, an empty cache)."""

from __future__ import annotations

import hashlib
import io
import json

import pytest

from tests.conftest import APEX, make_app
from visualiser import pipeline
from visualiser.knowledgebase import new_metadata
from visualiser.layout import DEFAULT_OPTIONS, engines, saved
from visualiser.resources import samples_dir
from visualiser.web import start_processing

APEX_BYTES = (samples_dir() / APEX).read_bytes()
APEX_ID = hashlib.sha256(APEX_BYTES).hexdigest()


@pytest.fixture
def reads(monkeypatch) -> list[int]:
    """One entry per time a document's pages are read (the slow step)."""
    calls: list[int] = []
    real = pipeline.extract_layout

    def counted(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(pipeline, "extract_layout", counted)
    return calls


def _processed_app(tmp_path, cache: str = "cache"):
    app = make_app(tmp_path, CACHE_DIR=tmp_path / cache)
    start_processing(app)
    return app


def _upload(app, kb_id: int, data: bytes = APEX_BYTES, name: str = APEX) -> dict:
    client = app.test_client()
    response = client.post(f"/api/knowledgebases/{kb_id}/documents",
                           data={"file": (io.BytesIO(data), name)},
                           content_type="multipart/form-data")
    assert response.status_code in (200, 202), response.get_json()
    assert app.extensions["visualiser"].processor.wait(60)
    return response.get_json()


def _layout_file(app, doc_id: str):
    store = app.extensions["visualiser"].store
    return store.document_folder(doc_id) / saved.file_name(DEFAULT_OPTIONS.key())


def test_processing_keeps_the_layout_beside_the_pdf(tmp_path, reads, processed):
    app = _processed_app(tmp_path)
    try:
        web = app.extensions["visualiser"]
        kb = web.store.create_knowledgebase("kb", new_metadata())
        doc = _upload(app, kb.id)
        assert len(reads) == 1
        path = _layout_file(app, APEX_ID)
        assert path.is_file() and path.parent == web.store.pdf_path(APEX_ID).parent / APEX_ID
        # the viewer's memo was fed by the worker: its first preview reads nothing
        assert app.test_client().get(doc["links"]["chunks"] + "?strategy=token_based"
                                     ).status_code == 200
        assert len(reads) == 1
        assert saved.read_file(path) == processed(APEX).layout
    finally:
        app.extensions["visualiser"].close()


def _stored_then_stopped(tmp_path):
    """Apex uploaded to a new knowledgebase and processed, then the server stopped:
    the knowledgebase and the document's JSON."""
    app = _processed_app(tmp_path)
    try:
        kb = app.extensions["visualiser"].store.create_knowledgebase("kb", new_metadata())
        return kb, _upload(app, kb.id)
    finally:
        app.extensions["visualiser"].close()


def test_after_a_restart_no_view_reads_the_pages_again(tmp_path, reads):
    kb, doc = _stored_then_stopped(tmp_path)
    assert len(reads) == 1
    # A new server on the same store, with an empty cache folder: only the store's
    # document folder can spare it the reading.
    second = make_app(tmp_path, CACHE_DIR=tmp_path / "other-cache")
    try:
        client = second.test_client()
        chunks = doc["links"]["chunks"]
        viewer = doc["links"]["viewer"]
        assert client.get(viewer + "?strategy=token_based").status_code == 200
        for query in ("?strategy=token_based", "?strategy=structure_aware&max_token_size=600",
                      "?layout=builtin"):
            response = client.get(chunks + query)
            assert response.status_code == 200, response.get_json()
            assert response.get_json()["preview"] is True
        compare = client.get(f"/knowledgebases/{kb.id}/documents/{APEX_ID}/compare"
                             "?left=stored&right=token_based")
        assert compare.status_code == 200
        imported = client.post(
            f"/api/knowledgebases/{kb.id}/documents/{APEX_ID}/imports",
            data={"file": (io.BytesIO(json.dumps(["Apex Logistics", "Services"]).encode()),
                           "mine.json")},
            content_type="multipart/form-data")
        assert imported.status_code in (200, 201), imported.get_json()
        response = client.get(imported.get_json()["links"]["chunks"])
        assert response.status_code == 200 and len(response.get_json()["chunks"]) == 2
        words = client.get(f"/api/knowledgebases/{kb.id}/documents/{APEX_ID}/pages/1/words")
        assert words.status_code == 200 and words.get_json()["words"]
        assert len(reads) == 1, "a view of the stored document read its pages again"
    finally:
        second.extensions["visualiser"].close()


def test_a_second_knowledgebase_with_the_same_bytes_reuses_the_layout(tmp_path, reads):
    app = _processed_app(tmp_path)
    try:
        store = app.extensions["visualiser"].store
        one = store.create_knowledgebase("one", new_metadata())
        two = store.create_knowledgebase("two", new_metadata("token_based"))
        _upload(app, one.id)
        body = _upload(app, two.id)
        assert len(reads) == 1
        assert store.document(two.id, body["id"])["state"] == "ready"
        assert store.chunk_set(two.id, body["id"])["chunking_strategy"] == "token_based"
    finally:
        app.extensions["visualiser"].close()


def test_a_layout_kept_by_other_layout_code_is_read_again_once(tmp_path, reads, monkeypatch):
    """After an upgrade whose layout rules changed, a stored document's layout is read
    again (once: then the new reading is kept), never served as the old code made it."""
    _, doc = _stored_then_stopped(tmp_path)
    monkeypatch.setattr(engines, "layout_code_digest", lambda: "f" * 64)
    second = make_app(tmp_path, CACHE_DIR=tmp_path / "other-cache")
    try:
        for _ in range(2):
            response = second.test_client().get(doc["links"]["chunks"] + "?strategy=fixed_chars")
            assert response.status_code == 200, response.get_json()
        assert len(reads) == 2
        assert json.loads(_layout_file(second, APEX_ID).read_bytes())["code"] == "f" * 64
    finally:
        second.extensions["visualiser"].close()


def test_a_damaged_layout_file_is_read_again_and_replaced(tmp_path, reads):
    _, doc = _stored_then_stopped(tmp_path)
    second = make_app(tmp_path, CACHE_DIR=tmp_path / "other-cache")
    try:
        path = _layout_file(second, APEX_ID)
        path.write_bytes(b'{"format": 1, "pages": [')  # cut short
        response = second.test_client().get(doc["links"]["chunks"] + "?strategy=token_based")
        assert response.status_code == 200
        assert len(reads) == 2
        assert saved.read_file(path) is not None  # replaced by the new reading
    finally:
        second.extensions["visualiser"].close()


def test_removing_the_document_removes_its_layout(tmp_path, reads):
    app = _processed_app(tmp_path)
    try:
        store = app.extensions["visualiser"].store
        kb = store.create_knowledgebase("kb", new_metadata())
        _upload(app, kb.id)
        folder = _layout_file(app, APEX_ID).parent
        assert folder.is_dir()
        store.remove_document(kb.id, APEX_ID)
        assert not folder.exists()
    finally:
        app.extensions["visualiser"].close()

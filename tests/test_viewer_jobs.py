"""Uploads waiting behind others say "queued", not "processing · 0 %"; one whose pages
are all read says it is chunking, not "processing · 100 %"."""

from __future__ import annotations

import threading
import time

import pytest
from test_kb_api import create_kb, make_app, one_page_pdf, upload, wait_until_processed

from visualiser import ingest


@pytest.fixture
def app(tmp_path):
    app = make_app(tmp_path)
    yield app
    app.extensions["visualiser"].close()


def phases(client, kb_id: int) -> dict[str, tuple[str, str]]:
    body = client.get(f"/api/knowledgebases/{kb_id}/documents").get_json()
    return {d["name"]: (d["phase"], d["phase_text"]) for d in body["documents"]}


def wait_for(condition, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def test_a_second_upload_is_queued_while_the_first_is_read(app, monkeypatch):
    client = app.test_client()
    release = threading.Event()
    real = ingest.process_pdf

    def held(data, name, **kwargs):
        # The first document stays in the worker until the test lets it go.
        if name == "first.pdf":
            release.wait(30)
        return real(data, name, **kwargs)

    monkeypatch.setattr(ingest, "process_pdf", held)
    kb = create_kb(client)
    assert upload(client, kb["id"], one_page_pdf("first"), "first.pdf").status_code == 202
    assert upload(client, kb["id"], one_page_pdf("second"), "second.pdf").status_code == 202
    wait_for(lambda: phases(client, kb["id"])["first.pdf"][0] == "reading")
    now = phases(client, kb["id"])
    assert now["second.pdf"][0] == "queued"
    assert now["second.pdf"][1].startswith("Queued")
    assert now["first.pdf"][1].startswith("Processing · ")
    # The page renders the same words.
    html = client.get(f"/knowledgebases/{kb['id']}").get_data(as_text=True)
    assert 'data-phase="queued"' in html and "Queued · waiting" in html
    release.set()
    documents = wait_until_processed(client, kb["id"])
    assert {d["phase"] for d in documents} == {"ready"}


def test_all_pages_read_says_chunking(app):
    from visualiser.web.views import PHASE_TEXT, processing_phase

    with app.test_request_context():
        app.extensions["visualiser"].processor._running.add((1, "abc"))
        doc = {"id": "abc", "state": "processing", "progress": 1.0}
        assert processing_phase(1, doc) == "chunking"
        assert "chunking" in PHASE_TEXT["chunking"]
        assert processing_phase(1, {**doc, "progress": 0.5}) == "reading"
        assert processing_phase(2, doc) == "queued"

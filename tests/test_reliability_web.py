"""The web app against a careless or hostile client: cross-site writes, foreign Host
names, ids past SQLite's integers, names that look like markup, two stores in one
folder, uploads streamed to disk, and two servers on one database."""

from __future__ import annotations

import hashlib
import io
import time

import pytest
from werkzeug.datastructures import FileStorage
from werkzeug.test import encode_multipart

from tests.conftest import make_app
from tests.test_kb_api import (
    APEX,
    APEX_BYTES,
    APEX_ID,
    create_kb,
    one_page_pdf,
    sql,
    upload,
    wait_until_processed,
)
from visualiser import ingest, knowledgebase
from visualiser.library import Library, safe_name
from visualiser.resources import samples_dir
from visualiser.store import Store, files_folder
from visualiser.web.jobs import Processor
from visualiser.web.security import host_name

CROSS_SITE = [
    {"Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"},
    {"Origin": "http://evil.example"},  # an older browser: Origin only
    {"Sec-Fetch-Site": "same-site"},  # another port or subdomain of the same site
    {"Origin": "null", "Sec-Fetch-Site": "cross-site"},  # a sandboxed frame
]


@pytest.mark.parametrize("headers", CROSS_SITE)
def test_a_cross_origin_form_post_is_refused(app, client, headers):
    response = client.post("/knowledgebases", data={"name": "Planted"}, headers=headers)
    assert response.status_code == 403
    assert "only from this server" in response.get_data(as_text=True)
    assert sql(app, "SELECT COUNT(*) FROM knowledgebases")[0][0] == 0


@pytest.mark.parametrize("headers", CROSS_SITE)
def test_a_no_cors_upload_and_other_cross_site_writes_are_refused(app, client, headers):
    kb = create_kb(client)  # no Origin: not a browser, allowed
    # What a `fetch(url, {mode: "no-cors", method: "POST", body: formData})` sends.
    response = upload(client, kb["id"], APEX_BYTES, APEX,
                      headers={**headers, "Sec-Fetch-Mode": "no-cors"})
    assert response.status_code == 403 and response.get_json()["error"] == "Forbidden"
    assert sql(app, "SELECT COUNT(*) FROM documents")[0][0] == 0
    for method, path in (("delete", f"/api/knowledgebases/{kb['id']}"),
                         ("post", "/api/knowledgebases"),
                         ("post", f"/knowledgebases/{kb['id']}/documents")):
        response = getattr(client, method)(path, json={"name": "x"}, headers=headers)
        assert response.status_code == 403, (method, path)
    assert sql(app, "SELECT COUNT(*) FROM knowledgebases")[0][0] == 1


def test_same_origin_writes_pass(app, client):
    response = client.post("/knowledgebases", data={"name": "Mine"}, headers={
        "Origin": "http://localhost", "Sec-Fetch-Site": "same-origin"})
    assert response.status_code == 303
    response = client.post("/api/knowledgebases", json={"name": "Typed in the bar"},
                           headers={"Sec-Fetch-Site": "none"})
    assert response.status_code == 201


def test_reads_from_anywhere_still_work(client):
    response = client.get("/api/documents", headers={"Origin": "http://evil.example",
                                                     "Sec-Fetch-Site": "cross-site"})
    assert response.status_code == 200


def test_a_foreign_host_name_is_refused_against_dns_rebinding(client):
    for host in ("evil.example", "evil.example:5000", "127.0.0.1.evil.example"):
        response = client.get("/api/documents", headers={"Host": host})
        assert response.status_code == 400, host
        assert response.get_json()["error"] == "Host not allowed"
    for host in ("localhost", "localhost:5000", "127.0.0.1:8000", "[::1]:5000"):
        assert client.get("/api/documents", headers={"Host": host}).status_code == 200, host


def test_allowed_hosts_come_from_the_config(tmp_path):
    app = make_app(tmp_path, ALLOWED_HOSTS=["viz.internal"])
    try:
        client = app.test_client()
        assert client.get("/", headers={"Host": "viz.internal:80"}).status_code == 200
        assert client.get("/", headers={"Host": "localhost"}).status_code == 400
    finally:
        app.extensions["visualiser"].close()
    assert host_name("[::1]:5000") == "::1" and host_name("Example.ORG") == "example.org"


HUGE = [2**63, 2**64 + 1, 10**30]


@pytest.mark.parametrize("number", HUGE)
def test_ids_beyond_sqlite_integers_are_404_not_500(client, number):
    for path in (f"/api/knowledgebases/{number}",
                 f"/api/knowledgebases/{number}/documents",
                 f"/api/knowledgebases/{number}/documents/{APEX_ID}",
                 f"/api/knowledgebases/{number}/documents/{APEX_ID}/chunks",
                 f"/api/knowledgebases/{number}/documents/{APEX_ID}/pages/1.png",
                 f"/knowledgebases/{number}",
                 f"/knowledgebases/{number}/documents/{APEX_ID}"):
        assert client.get(path).status_code == 404, path
    assert client.delete(f"/api/knowledgebases/{number}").status_code == 404
    assert upload(client, number, APEX_BYTES).status_code == 404
    kb = create_kb(client)
    page = f"/api/documents/{APEX_ID}/pages/{number}.png"
    assert client.get(page).status_code in (404,)
    assert client.get(f"/api/knowledgebases/{kb['id']}/documents/{APEX_ID}/pages/"
                      f"{number}.png").status_code == 404


MARKUP_NAME = '"><img src=x onerror=alert(1)>.pdf'


def test_uploaded_names_are_kept_faithfully_and_escaped_on_output(client):
    kb = create_kb(client)
    # As a browser writes the name in the multipart header: `"` as %22.
    response = upload(client, kb["id"], APEX_BYTES, MARKUP_NAME.replace('"', "%22"))
    assert response.status_code == 202
    assert response.get_json()["name"] == MARKUP_NAME
    (doc,) = wait_until_processed(client, kb["id"])
    assert doc["name"] == MARKUP_NAME
    for path in (f"/knowledgebases/{kb['id']}",
                 f"/knowledgebases/{kb['id']}/documents/{APEX_ID}"):
        html = client.get(path).get_data(as_text=True)
        assert "<img src=x" not in html, path
        assert "&lt;img src=x onerror=alert(1)&gt;" in html or "\\u003cimg" in html, path


@pytest.mark.parametrize(("sent", "kept"), [
    (MARKUP_NAME, MARKUP_NAME),
    ("C:\\Users\\me\\report (final).pdf", "report (final).pdf"),
    ("../../etc/passwd", "passwd"),
    ("  naïve résumé 報告.pdf ", "naïve résumé 報告.pdf"),
    ("bell\x07\x00.pdf", "bell.pdf"),
    ("", "upload.pdf"),
    ("x" * 300 + ".pdf", "x" * 255),
])
def test_safe_name_drops_only_paths_and_control_characters(sent, kept):
    assert safe_name(sent) == kept


def test_two_stores_in_one_folder_keep_their_own_files(tmp_path):
    x, y = Store(tmp_path / "x.sqlite"), Store(tmp_path / "y.sqlite")
    assert x.files == files_folder(tmp_path / "x.sqlite") != y.files
    for store in (x, y):
        kb = store.create_knowledgebase("K", knowledgebase.new_metadata())
        ingest.admit(store, kb.id, APEX_BYTES, APEX)
    x.remove_document(1, APEX_ID)
    assert not x.pdf_path(APEX_ID).exists()
    assert y.pdf_path(APEX_ID).read_bytes() == APEX_BYTES  # untouched by x's delete
    ingest.process(y, 1, APEX_ID)
    assert y.document(1, APEX_ID)["state"] == "ready"
    y.delete_knowledgebase(1)
    assert list(y.files.glob("*.pdf")) == []


def test_a_store_adopts_its_files_from_the_old_shared_folder(tmp_path):
    store = Store(tmp_path / "old.sqlite")
    kb = store.create_knowledgebase("K", knowledgebase.new_metadata())
    ingest.admit(store, kb.id, APEX_BYTES, APEX)
    legacy = tmp_path / "pdfs"
    legacy.mkdir()
    store.pdf_path(APEX_ID).rename(legacy / f"{APEX_ID}.pdf")
    reopened = Store(tmp_path / "old.sqlite")
    assert reopened.pdf_path(APEX_ID).read_bytes() == APEX_BYTES
    assert (legacy / f"{APEX_ID}.pdf").exists()  # other stores may still use it


def post_big_file(client, kb_id: int, data: bytes, name: str):
    """An upload whose body is encoded here: the test client would spool a big form
    to a temporary file of its own and never close it."""
    boundary, body = encode_multipart({"file": FileStorage(io.BytesIO(data), name)})
    return client.post(f"/api/knowledgebases/{kb_id}/documents", data=body,
                       content_type=f"multipart/form-data; boundary={boundary}")


def test_an_upload_is_streamed_to_disk_hashed_and_kept_by_a_rename(app, client, monkeypatch):
    from visualiser.web import uploads

    seen = []
    real_init = uploads.ReceivedFile.__init__

    def spy(self, folder):
        real_init(self, folder)
        seen.append(self)

    monkeypatch.setattr(uploads.ReceivedFile, "__init__", spy)
    kb = create_kb(client)
    big = one_page_pdf("streamed") + b"%" + b"x" * (3 * 2**20) + b"\n"  # a 3 MB tail
    response = post_big_file(client, kb["id"], big, "big.pdf")
    assert response.status_code == 202, response.get_json()
    (received,) = seen
    doc_id = hashlib.sha256(big).hexdigest()
    assert received.sha256() == doc_id and received.size == len(big)
    store = app.extensions["visualiser"].store
    assert store.pdf_path(doc_id).read_bytes() == big
    assert not received.path.exists()  # renamed into place
    assert list(store.files.glob("*.upload")) == []
    refused = post_big_file(client, kb["id"], b"%PDF-1.7\n" + b"\0" * 2**20, "junk.pdf")
    assert refused.status_code == 422
    assert list(store.files.glob("*.upload")) == []  # the refused file is gone too


def test_import_files_still_arrive_through_the_streamed_upload(client):
    response = client.post(f"/api/documents/{APEX_ID}/imports", data={
        "file": (io.BytesIO(b'["Services Agreement"]'), "chunks.json")},
        content_type="multipart/form-data")
    assert response.status_code == 201, response.get_json()


def _store_with_a_document(tmp_path) -> Store:
    store = Store(tmp_path / "shared.sqlite")
    kb = store.create_knowledgebase("K", knowledgebase.new_metadata())
    ingest.admit(store, kb.id, APEX_BYTES, APEX)  # processing, nobody's
    return store


def test_a_lease_is_taken_atomically_by_one_owner(tmp_path):
    store = _store_with_a_document(tmp_path)
    assert store.claim(1, APEX_ID, "a", 30)
    assert not store.claim(1, APEX_ID, "b", 30)
    assert store.claim(1, APEX_ID, "a", 30)  # renewing one's own
    assert store.unleased() == []
    store.set_state(1, APEX_ID, "ready")
    assert sql_row(store) == ("ready", None, None)


def sql_row(store: Store) -> tuple:
    with store.db() as conn:
        return tuple(conn.execute(
            "SELECT state, lease_owner, lease_until FROM kb_documents").fetchone())


def test_a_second_server_skips_a_leased_row_until_the_lease_expires(tmp_path, monkeypatch):
    store = _store_with_a_document(tmp_path)
    assert store.claim(1, APEX_ID, "other-host:1:first-server", 1.0)
    processed = []
    monkeypatch.setattr(ingest, "process", lambda s, kb, doc, **kw: processed.append(doc)
                        or s.set_state(kb, doc, "ready"))
    second = Processor(store, Library(samples_dir()), lease_seconds=1.0)
    try:
        assert second.resume() == 0  # leased by a live server elsewhere: not ours
        assert processed == []
        time.sleep(1.2)  # the first server stopped renewing
        deadline = time.monotonic() + 5
        while not processed and time.monotonic() < deadline:
            second.resume() or time.sleep(0.05)
            second.wait(5)
        assert processed == [APEX_ID]
        assert sql_row(store)[0] == "ready"
    finally:
        second.shutdown()


def test_a_worker_that_loses_the_race_does_not_process(tmp_path, monkeypatch):
    store = _store_with_a_document(tmp_path)
    processed = []
    monkeypatch.setattr(ingest, "process", lambda s, kb, doc, **kw: processed.append(doc))
    first = Processor(store, Library(samples_dir()), sweep=False)
    second = Processor(store, Library(samples_dir()), sweep=False)
    try:
        assert store.claim(1, APEX_ID, first.owner, 30)
        second.submit(1, APEX_ID)
        assert second.wait(10) and processed == []
    finally:
        first.shutdown()
        second.shutdown()
    assert sql_row(store)[1] is None  # released at shutdown: free for the next server


def test_a_lease_of_a_dead_server_on_this_machine_is_taken_at_once(tmp_path, monkeypatch):
    import socket
    import subprocess

    store = _store_with_a_document(tmp_path)
    gone = subprocess.Popen(["true"])
    gone.wait()  # a pid that no longer runs
    assert store.claim(1, APEX_ID, f"{socket.gethostname()}:{gone.pid}:old", 3600)
    processed = []
    monkeypatch.setattr(ingest, "process", lambda s, kb, doc, **kw: processed.append(doc))
    processor = Processor(store, Library(samples_dir()), sweep=False)
    try:
        assert processor.resume() == 1
        assert processor.wait(10) and processed == [APEX_ID]
    finally:
        processor.shutdown()


def test_the_cli_does_not_process_a_row_a_server_holds(tmp_path, sample_path):
    import subprocess
    import sys

    from tests.fuzzing import REPO

    store = _store_with_a_document(tmp_path)
    assert store.claim(1, APEX_ID, "other-host:1:a-server", 3600)
    command = [sys.executable, "-m", "visualiser.cli", "kb", "--database",
               str(store.path), "add", "1", str(sample_path(APEX))]
    done = subprocess.run(command, capture_output=True, timeout=120, cwd=REPO)
    assert done.returncode == 2 and b"being processed by a server" in done.stderr
    assert sql_row(store)[:2] == ("processing", "other-host:1:a-server")
    store.release("other-host:1:a-server")
    done = subprocess.run(command, capture_output=True, timeout=120, cwd=REPO)
    assert done.returncode == 0, done.stderr
    assert sql_row(store) == ("ready", None, None)

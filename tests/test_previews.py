"""Every strategy's default report of a stored document, computed in the background
once it is processed and kept beside its PDF (`visualiser.previews`), and the packed
JSON it is served from (`visualiser.packed`, `visualiser.stored_packed`): computed
after processing and below it, read by a strategy switch (also after a restart),
recomputed on demand when missing, gone with the document; and on the RQ workers."""

from __future__ import annotations

import gzip
import io
import json
import zlib

import pytest

from tests.conftest import APEX, POLICY, make_app
from visualiser import ingest, packed, pipeline, previews, workers
from visualiser.knowledgebase import new_metadata
from visualiser.layout import LayoutOptions
from visualiser.library import Library
from visualiser.resources import samples_dir
from visualiser.store import Store, data_folders
from visualiser.strategies import STRATEGIES
from visualiser.web import jobs

ALL = sorted(STRATEGIES)


# -- packed JSON -----------------------------------------------------------------------


@pytest.mark.parametrize("data", [{"a": 1}, {"chunks": [{"text": "é ✓ \u0000"}] * 500}])
def test_packed_json_is_served_gzip_or_plain_with_fields_added(data):
    raw = packed.encode(data)
    report = packed.Packed.of(raw)
    assert json.loads(report.json_bytes()) == data
    extra = {"preview": True, "knowledgebase": {"id": 3, "name": "K"}}
    assert json.loads(report.json_bytes(extra)) == {**data, **extra}
    assert json.loads(gzip.decompress(report.gzip_bytes(extra))) == {**data, **extra}
    assert gzip.decompress(report.gzip_bytes()) == raw
    assert packed.Packed.from_file(report.to_file()) == report


def test_an_empty_object_takes_added_fields_too():
    report = packed.Packed.of(b"{}")
    assert json.loads(gzip.decompress(report.gzip_bytes({"x": 1}))) == {"x": 1}


def test_a_packed_file_cut_short_or_of_another_format_is_refused_and_removed(tmp_path):
    report = packed.Packed.of(packed.encode({"chunks": list(range(5000))}))
    path = tmp_path / "previews" / "x.report"
    assert packed.write_file(path, report)
    assert packed.read_file(path) == report
    path.write_bytes(report.to_file()[:-7])
    assert packed.read_file(path) is None and not path.exists()
    path.write_bytes(b'{"format": 99}\n' + report.deflated)
    assert packed.read_file(path) is None and not path.exists()
    with pytest.raises(ValueError):  # bytes changed inside: the CRC says so
        damaged = bytearray(report.deflated)
        damaged[len(damaged) // 2] ^= 0xFF
        packed.Packed(bytes(damaged), report.crc, report.length).json_bytes()


def test_a_packed_file_is_not_written_into_a_removed_document_folder(tmp_path):
    report = packed.Packed.of(b'{"a":1}')
    assert not packed.write_file(tmp_path / "gone" / "previews" / "x.report", report)
    assert not (tmp_path / "gone").exists()


# -- the web app, one server -------------------------------------------------------------


@pytest.fixture
def calls(monkeypatch):
    """Every chunk report computed in this process, by strategy."""
    made: list[str] = []
    real = pipeline.chunk_report

    def counted(doc, strategy, *args, **kwargs):
        made.append(strategy)
        return real(doc, strategy, *args, **kwargs)

    monkeypatch.setattr(pipeline, "chunk_report", counted)
    return made


def upload(client, kb_id: int, name: str = APEX) -> str:
    data = (samples_dir() / name).read_bytes()
    response = client.post(f"/api/knowledgebases/{kb_id}/documents",
                           data={"file": (io.BytesIO(data), name)},
                           content_type="multipart/form-data")
    assert response.status_code == 202, response.get_json()
    return response.get_json()["id"]


def processed_with_previews(app, name: str = APEX) -> tuple[int, str]:
    client = app.test_client()
    kb = client.post("/api/knowledgebases", json={"name": "K"}).get_json()["id"]
    doc_id = upload(client, kb, name)
    processor = app.extensions["visualiser"].processor
    assert processor.wait(120) and processor.wait_previews(300)
    return kb, doc_id


def chunks_url(kb: int, doc_id: str) -> str:
    return f"/api/knowledgebases/{kb}/documents/{doc_id}/chunks"


def test_every_strategy_is_computed_after_processing_and_a_switch_reads_it(tmp_path, calls):
    app = make_app(tmp_path, PRECOMPUTE_PREVIEWS=True)
    try:
        kb, doc_id = processed_with_previews(app)
        client = app.test_client()
        status = client.get(f"/api/knowledgebases/{kb}/documents/{doc_id}").get_json()
        assert status["previews"] == {"ready": list(STRATEGIES), "count": len(ALL),
                                      "total": len(ALL), "ahead": True}
        folder = app.extensions["visualiser"].store.document_folder(doc_id)
        assert sorted(p.name.split("-")[0] for p in (folder / "previews").iterdir()) == ALL
        assert sorted(calls) == ALL  # each preview computed once (processing aside)
        calls.clear()
        bodies = {}
        for strategy in ALL:
            response = client.get(f"{chunks_url(kb, doc_id)}?strategy={strategy}")
            assert response.status_code == 200
            bodies[strategy] = response.get_json()
            assert bodies[strategy]["preview"] is True
            assert bodies[strategy]["chunking_strategy"] == strategy
            assert bodies[strategy]["knowledgebase"] == {"id": kb, "name": "K"}
        assert calls == []  # every switch read a kept report
    finally:
        app.extensions["visualiser"].close()

    # The same as computed on demand by a server that keeps none.
    fresh = make_app(tmp_path / "fresh")
    try:
        client = fresh.test_client()
        other = client.post("/api/knowledgebases", json={"name": "K"}).get_json()["id"]
        upload(client, other)
        assert fresh.extensions["visualiser"].processor.wait(120)
        for strategy in ("token_based", "structure_aware", "fixed_chars"):
            computed = client.get(f"{chunks_url(other, doc_id)}?strategy={strategy}").get_json()
            assert computed["chunks"] == bodies[strategy]["chunks"]
            assert computed["document_tokens"] == bodies[strategy]["document_tokens"]
    finally:
        fresh.extensions["visualiser"].close()


def test_kept_reports_survive_a_restart_and_one_missing_is_made_on_demand(tmp_path, calls):
    app = make_app(tmp_path, PRECOMPUTE_PREVIEWS=True)
    try:
        kb, doc_id = processed_with_previews(app)
    finally:
        app.extensions["visualiser"].close()
    calls.clear()
    restarted = make_app(tmp_path)  # same store and caches, nothing in memory
    try:
        client = restarted.test_client()
        assert client.get(f"{chunks_url(kb, doc_id)}?strategy=token_based").status_code == 200
        assert calls == []
        folder = restarted.extensions["visualiser"].store.document_folder(doc_id)
        kept = next((folder / "previews").glob("fixed_tokens-*"))
        kept.unlink()
        assert client.get(f"{chunks_url(kb, doc_id)}?strategy=fixed_tokens").status_code == 200
        assert calls == ["fixed_tokens"] and kept.is_file()  # made, and kept again
        # other parameters: computed on demand, not kept
        response = client.get(f"{chunks_url(kb, doc_id)}?strategy=fixed_tokens&chunk_size=600")
        assert response.status_code == 200 and calls == ["fixed_tokens", "fixed_tokens"]
        assert len(list((folder / "previews").glob("fixed_tokens-*"))) == 1
    finally:
        restarted.extensions["visualiser"].close()


def test_a_restarted_server_computes_the_previews_a_stopped_one_left(tmp_path):
    app = make_app(tmp_path)  # previews off: none computed
    try:
        client = app.test_client()
        kb = client.post("/api/knowledgebases", json={"name": "K"}).get_json()["id"]
        doc_id = upload(client, kb)
        assert app.extensions["visualiser"].processor.wait(120)
        assert client.get(f"/api/knowledgebases/{kb}/documents/{doc_id}").get_json()[
            "previews"]["count"] == 0
    finally:
        app.extensions["visualiser"].close()
    restarted = make_app(tmp_path, PRECOMPUTE_PREVIEWS=True)
    try:
        processor = restarted.extensions["visualiser"].processor
        processor.start()  # as `visualiser serve` does
        assert processor.wait_previews(300)
        status = restarted.test_client().get(
            f"/api/knowledgebases/{kb}/documents/{doc_id}").get_json()["previews"]
        assert status["count"] == status["total"] == len(ALL)
    finally:
        restarted.extensions["visualiser"].close()


def test_kept_reports_go_with_the_document_and_stay_while_another_knowledgebase_holds_it(
        tmp_path):
    app = make_app(tmp_path, PRECOMPUTE_PREVIEWS=True)
    try:
        kb, doc_id = processed_with_previews(app)
        client = app.test_client()
        other = client.post("/api/knowledgebases", json={"name": "L"}).get_json()["id"]
        assert client.post(f"/api/knowledgebases/{other}/documents",
                           data={"file": (io.BytesIO((samples_dir() / APEX).read_bytes()),
                                          APEX)},
                           content_type="multipart/form-data").status_code == 202
        processor = app.extensions["visualiser"].processor
        assert processor.wait(120) and processor.wait_previews(120)
        store = app.extensions["visualiser"].store
        folder = store.files / doc_id
        assert client.get(chunks_url(kb, doc_id)).status_code == 200
        assert client.get(chunks_url(other, doc_id)).status_code == 200
        assert {p.name.split("-")[0] for p in (folder / "stored").iterdir()} == \
            {str(kb), str(other)}
        assert client.delete(f"/api/knowledgebases/{kb}/documents/{doc_id}").status_code == 204
        # The other knowledgebase still shows the same bytes: their previews stay;
        # what was kept of the first one's stored chunks goes.
        assert len(list((folder / "previews").iterdir())) == len(ALL)
        assert [p.name.split("-")[0] for p in (folder / "stored").iterdir()] == [str(other)]
        assert client.delete(f"/api/knowledgebases/{other}").status_code == 204
        assert not folder.exists()
    finally:
        app.extensions["visualiser"].close()


def test_a_preview_of_a_document_deleted_meanwhile_keeps_nothing(tmp_path):
    store = Store(tmp_path / "kb.sqlite")
    kb = store.create_knowledgebase("K", new_metadata())
    admitted = ingest.admit(store, kb.id, (samples_dir() / APEX).read_bytes(), APEX)
    ingest.process(store, kb.id, admitted.doc_id)
    library = Library(samples_dir())
    store.remove_document(kb.id, admitted.doc_id)
    assert previews.precompute(store, library, kb.id, admitted.doc_id, "token_based") == \
        "deleted"
    assert not (store.files / admitted.doc_id).exists()
    store.close()


def test_processing_goes_before_previews(tmp_path, monkeypatch):
    """A document uploaded while another's previews are being computed is processed
    before the rest of them."""
    store = Store(tmp_path / "kb.sqlite")
    kb = store.create_knowledgebase("K", new_metadata())
    first = ingest.admit(store, kb.id, (samples_dir() / APEX).read_bytes(), APEX).doc_id
    second = ingest.admit(store, kb.id, (samples_dir() / POLICY).read_bytes(), POLICY).doc_id
    order: list[tuple[str, str]] = []
    processor = jobs.Processor(store, Library(samples_dir()), sweep=False)

    def process(store_, kb_id, doc_id, **_):
        order.append(("process", doc_id))
        store_.set_state(kb_id, doc_id, "ready", progress=1.0)

    def precompute(store_, library, kb_id, doc_id, strategy):
        order.append((strategy, doc_id))
        if len(order) == 2:  # the first preview of the first document: an upload comes
            processor.submit(kb.id, second)
        return "computed"

    monkeypatch.setattr(jobs.ingest, "process", process)
    monkeypatch.setattr(jobs.stored_packed, "keep", lambda *args: None)
    monkeypatch.setattr(previews, "precompute", precompute)
    try:
        processor.submit(kb.id, first)
        assert processor.wait(30) and processor.wait_previews(30)
    finally:
        processor.shutdown()
        store.close()
    assert order[:3] == [("process", first), (ALL_IN_ORDER[0], first), ("process", second)]
    assert sorted(s for s, d in order if d == first and s != "process") == ALL
    assert sorted(s for s, d in order if d == second and s != "process") == ALL
    assert order.index(("process", second)) < order.index((ALL_IN_ORDER[1], first))


ALL_IN_ORDER = list(STRATEGIES)


def test_another_program_version_or_layout_engine_version_is_another_report(tmp_path,
                                                                            monkeypatch):
    cls = STRATEGIES["token_based"]
    options = LayoutOptions()
    path = previews.file_path(tmp_path, APEX, options, cls)
    assert path == previews.file_path(tmp_path, APEX, options, cls)
    assert path != previews.file_path(tmp_path, "other.pdf", options, cls)
    assert path != previews.file_path(tmp_path, APEX, LayoutOptions(ocr=False), cls)
    monkeypatch.setattr(previews, "code_digest", lambda: "another program")
    assert path != previews.file_path(tmp_path, APEX, options, cls)


# -- responses: gzip, ETag, the stored chunks ------------------------------------------------


def test_reports_are_sent_gzip_when_asked_and_304_when_unchanged(tmp_path):
    app = make_app(tmp_path, PRECOMPUTE_PREVIEWS=True)
    try:
        kb, doc_id = processed_with_previews(app)
        client = app.test_client()
        for url in (chunks_url(kb, doc_id), f"{chunks_url(kb, doc_id)}?strategy=token_based"):
            plain = client.get(url)
            zipped = client.get(url, headers={"Accept-Encoding": "gzip, deflate"})
            assert plain.headers.get("Content-Encoding") is None
            assert zipped.headers["Content-Encoding"] == "gzip"
            assert "Accept-Encoding" in zipped.headers["Vary"]
            assert len(zipped.data) < len(plain.data) / 2
            assert json.loads(zlib.decompress(zipped.data, 16 + zlib.MAX_WBITS)) == \
                plain.get_json()
            assert zipped.headers["ETag"] == plain.headers["ETag"]
            again = client.get(url, headers={"If-None-Match": plain.headers["ETag"]})
            assert again.status_code == 304 and again.data == b""
    finally:
        app.extensions["visualiser"].close()


def test_the_stored_chunks_served_packed_are_the_stored_report_and_follow_a_rechunk(
        tmp_path):
    app = make_app(tmp_path)
    try:
        client = app.test_client()
        kb = client.post("/api/knowledgebases", json={"name": "K"}).get_json()["id"]
        doc_id = upload(client, kb)
        assert app.extensions["visualiser"].processor.wait(120)
        store = app.extensions["visualiser"].store
        expected = json.loads(json.dumps(ingest.stored_report(store, kb, doc_id)))
        for _ in range(2):  # made and kept, then read from the file
            assert client.get(chunks_url(kb, doc_id)).get_json() == expected
        assert len(list((store.files / doc_id / "stored").iterdir())) == 1
        # Another chunk set stored (a re-chunk): served at once, the old file gone.
        report = pipeline.chunk_report(app.extensions["visualiser"].library.processed(
            app.extensions["visualiser"].library.stored_entry(
                doc_id, APEX, store.pdf_path(doc_id), store.document_folder(doc_id))),
            "token_based")
        store.save_chunk_set(kb, doc_id, report)
        body = client.get(chunks_url(kb, doc_id)).get_json()
        assert [c["text"] for c in body["chunks"]] == [c["text"] for c in report["chunks"]]
        assert len(list((store.files / doc_id / "stored").iterdir())) == 1
    finally:
        app.extensions["visualiser"].close()


# -- the team server's workers ---------------------------------------------------------------


def test_a_queue_worker_computes_the_previews_after_every_document(tmp_path, redis_url,
                                                                  calls):
    import redis

    connection = redis.Redis.from_url(redis_url)
    connection.flushdb()
    queues = workers.Queues.on(connection)
    assert queues.in_order()[-1] is queues.previews  # taken when nothing else waits
    data_dir = tmp_path / "data"
    database = str(tmp_path / "kb.sqlite")
    store = Store(database, data_folders(data_dir)["pdfs"])
    kb = store.create_knowledgebase("K", new_metadata())
    doc_id = ingest.admit(store, kb.id, (samples_dir() / APEX).read_bytes(), APEX).doc_id
    assert workers.enqueue(store, queues, kb.id, doc_id)
    workers.run_worker(database, redis_url, data_dir, burst=True)
    assert store.document(kb.id, doc_id)["state"] == "ready"
    folder = store.document_folder(doc_id)
    assert previews.missing(folder, APEX, kb.layout_options) == []
    finished = set(queues.previews.finished_job_registry.get_job_ids())
    assert {workers.preview_job_id(store, kb.id, doc_id, s) for s in ALL} <= finished
    assert workers.enqueue_previews(store, queues, kb.id, doc_id) == 0  # all kept
    # A web process on the same data folder reads them: no chunking there.
    app = make_app(tmp_path / "web", DATABASE=database, DATA_DIR=data_dir)
    try:
        calls.clear()
        response = app.test_client().get(f"{chunks_url(kb.id, doc_id)}?strategy=fixed_chars")
        assert response.status_code == 200 and calls == []
    finally:
        app.extensions["visualiser"].close()
        store.close()
        connection.close()

"""The queue workers (`visualiser.workers`, `visualiser.turns`) on a real Redis: jobs
keyed by document and configuration, a long document handed back to the queue without
spending an attempt, small documents first, and a long one read in turns giving the
chunks of one uninterrupted run."""

from __future__ import annotations

import threading
import time

import pytest

from tests.conftest import APEX, POLICY, store_files
from tests.conftest_web import make_long_pdf
from visualiser import ingest, turns, workers
from visualiser.knowledgebase import new_metadata
from visualiser.layout import LayoutOptions
from visualiser.pipeline import chunk_report, process_pdf
from visualiser.store import QUEUE_OWNER, Store, data_folders


@pytest.fixture
def store(database, tmp_path):
    store = Store(database, store_files(database, tmp_path))
    yield store
    store.close()


@pytest.fixture
def queues(redis_url):
    import redis

    connection = redis.Redis.from_url(redis_url)
    connection.flushdb()  # the session's Redis: no other test's jobs
    yield workers.Queues.on(connection)
    connection.close()


def add(store: Store, kb_id: int, data: bytes, name: str) -> str:
    return ingest.admit(store, kb_id, data, name).doc_id


def test_a_document_handed_back_to_the_queue_keeps_its_attempt(store, sample_path):
    kb = store.create_knowledgebase("K", new_metadata())
    doc_id = add(store, kb.id, sample_path(APEX).read_bytes(), APEX)
    assert store.claim(kb.id, doc_id, "worker-a", 30)
    assert not store.hand_back(kb.id, doc_id, "worker-b", 600)  # not b's to hand back
    assert store.hand_back(kb.id, doc_id, "worker-a", 600)
    doc = store.document(kb.id, doc_id)
    assert doc["lease_owner"] == QUEUE_OWNER and doc["attempts"] == 1
    assert store.unleased() == []  # held by the queue: no sweep queues it a second time
    assert store.claim(kb.id, doc_id, "worker-b", 30)  # the next turn, on another worker
    assert store.document(kb.id, doc_id)["attempts"] == 1
    assert not store.claim(kb.id, doc_id, "worker-c", 30)  # b holds it now


def test_jobs_are_keyed_by_document_and_configuration(tmp_path, queues, sample_path):
    store = Store(tmp_path / "kb.sqlite")
    contracts = store.create_knowledgebase("Contracts", new_metadata("structure_aware"))
    windows = store.create_knowledgebase("Windows", new_metadata("token_based"))
    data = sample_path(APEX).read_bytes()
    doc_id = add(store, contracts.id, data, APEX)
    add(store, windows.id, data, APEX)
    assert workers.enqueue(store, queues, contracts.id, doc_id)
    assert not workers.enqueue(store, queues, contracts.id, doc_id)  # already queued
    assert workers.enqueue(store, queues, windows.id, doc_id)  # another config: a job
    assert queues.small.count == 2 and queues.long.count == 0
    key = workers.job_id(store, contracts.id, doc_id)
    assert workers.job_id(store, contracts.id, doc_id, attempts=1) == f"{key}-retry1"
    assert workers.job_id(store, contracts.id, doc_id, 1, turn=40) == f"{key}-retry1-turn40"
    assert key != workers.job_id(store, windows.id, doc_id)


def test_a_long_document_makes_room_for_small_ones_and_its_chunks_are_whole(
        tmp_path, queues, redis_url, sample_path, monkeypatch):
    monkeypatch.setattr(turns, "TURN_SECONDS", 0.2)  # turns short enough for a test
    data_dir = tmp_path / "data"
    database = str(tmp_path / "kb.sqlite")
    store = Store(database, data_folders(data_dir)["pdfs"])
    kb = store.create_knowledgebase("Contracts", new_metadata("structure_aware"))
    long_pdf = tmp_path / "long.pdf"
    make_long_pdf(long_pdf, 160)
    long_id = add(store, kb.id, long_pdf.read_bytes(), "long.pdf")
    assert workers.enqueue(store, queues, kb.id, long_id)
    assert queues.long.count == 1

    ready: dict[str, float] = {}
    small_ids: list[str] = []

    def small_uploads_once_the_long_one_is_under_way() -> None:
        deadline = time.monotonic() + 60
        while store.document(kb.id, long_id)["progress"] == 0:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        for name in (APEX, POLICY):
            small_ids.append(add(store, kb.id, sample_path(name).read_bytes(), name))
            workers.enqueue(store, queues, kb.id, small_ids[-1])
        while len(ready) < 3 and time.monotonic() < deadline:
            for doc in store.documents(kb.id):
                if doc["state"] == "ready":
                    ready.setdefault(doc["id"], time.monotonic())
            time.sleep(0.01)

    watcher = threading.Thread(target=small_uploads_once_the_long_one_is_under_way)
    watcher.start()
    # until the queues are empty (previews aside: tests/test_previews.py has them)
    workers.run_worker(database, redis_url, data_dir, burst=True, precompute_previews=False)
    watcher.join()

    assert len(ready) == 3, store.documents(kb.id)
    assert all(ready[small] < ready[long_id] for small in small_ids)
    turned = [key for key in queues.long.finished_job_registry.get_job_ids() if "-turn" in key]
    assert turned, "the long document was never paused for the small ones"
    doc = store.document(kb.id, long_id)
    assert doc["state"] == "ready" and doc["attempts"] == 1 and doc["lease_owner"] is None
    assert not list(store.document_folder(long_id).glob("pages-*"))  # checkpoint gone
    whole = chunk_report(process_pdf(long_pdf.read_bytes(), "long.pdf",
                                     options=LayoutOptions()), "structure_aware")
    stored = store.chunk_set(kb.id, long_id)
    assert [(c["index"], c["text"], c["pages"]) for c in stored["chunks"]] == \
        [(c["index"], c["text"], c["pages"]) for c in whole["chunks"]]
    store.close()


def test_a_long_document_pauses_only_when_no_other_worker_serves_the_small_ones(
        tmp_path, queues, sample_path):
    def unserved() -> bool:  # a fresh Presence: its answer is not the cached one
        return workers.Presence(queues.connection, "me", 30).small_ones_unserved(queues)

    store = Store(tmp_path / "kb.sqlite")
    kb = store.create_knowledgebase("K", new_metadata())
    assert not unserved()  # no small document waits
    workers.enqueue(store, queues, kb.id, add(store, kb.id, sample_path(APEX).read_bytes(),
                                              APEX))
    assert unserved()  # one waits and no other worker is there
    other = workers.Presence(queues.connection, "other", 30)
    for doing, expected in (("long", True), ("small", False), ("idle", False)):
        other.set(doing)
        assert unserved() is expected, doing
    other.leave()  # stopped
    assert unserved()
    workers.Presence(queues.connection, "killed", -1).set("idle")  # its time has passed
    assert unserved()


def test_a_paused_document_whose_next_turn_was_lost_is_queued_again(tmp_path, queues,
                                                                     sample_path):
    store = Store(tmp_path / "kb.sqlite")
    kb = store.create_knowledgebase("K", new_metadata())
    doc_id = add(store, kb.id, sample_path(APEX).read_bytes(), APEX)
    assert store.claim(kb.id, doc_id, "worker-a", 30)
    assert store.hand_back(kb.id, doc_id, "worker-a", 3600)
    assert workers.sweep(store, queues) == 1  # no queue holds its next turn
    assert queues.small.get_job_ids() == [workers.job_id(store, kb.id, doc_id)]
    assert workers.sweep(store, queues) == 0  # now one does
    assert store.document(kb.id, doc_id)["attempts"] == 1


def test_what_mupdf_says_while_reading_in_turns_stays_in_the_warnings(monkeypatch):
    import pymupdf

    monkeypatch.setattr(turns, "TURN_SECONDS", 0)  # a turn of one page, then a pause
    with pymupdf.open() as doc:
        for number in range(120):
            doc.new_page().insert_text((72, 72), f"Page {number}")
        xref = doc[5].get_contents()[0]  # a broken content stream on page 6
        doc.update_stream(xref, doc.xref_stream(xref) + b" foo bar BT ET ] >> Tj")
        data = doc.tobytes()
    whole = process_pdf(data, "x.pdf").layout.warnings
    first, done = turns.read_turn(data, 0, LayoutOptions(), lambda: True, lambda *_: None)
    assert not done and len(first) == 1
    rest, done = turns.read_turn(data, len(first), LayoutOptions(), lambda: False,
                                 lambda *_: None)
    assert done
    in_turns = process_pdf(data, "x.pdf", pages_read=first + rest).layout.warnings
    assert any(w.startswith("MuPDF: ") for w in whole)
    assert sorted(in_turns) == sorted(whole)

"""Knowledgebases in a real SQLite file and a real PostgreSQL database (the tests taking
the `store` fixture run on both): the default strategy, the legacy reading, stored
chunk types, documents that are refused or stored once, leases and attempts."""

import json
import shutil
import sqlite3

import pytest

from tests.conftest import APEX, POLICY, store_files
from visualiser.cli import main
from visualiser.errors import BadPdf, DuplicateName, NotFound, UnknownStrategy
from visualiser.ingest import admit, process, stored_report
from visualiser.knowledgebase import DEFAULT_STRATEGY, new_metadata, strategy_in_effect
from visualiser.store import MIGRATIONS, Store
from visualiser.web.errors import http_status

LEGACY = "tests/fixtures/legacy.sqlite"


def _stored_metadata(path, kb_id):
    """Read what is stored, bypassing every read path of ours."""
    with sqlite3.connect(path) as conn:
        raw = conn.execute("SELECT metadata FROM knowledgebases WHERE id = ?",
                           (kb_id,)).fetchone()[0]
    return json.loads(raw)


def sql(store, query, *args):
    """Straight from the tables (SQLite or PostgreSQL), bypassing the store's reads."""
    with store.db(write=False) as conn:
        return [tuple(r) for r in conn.execute(query, args).fetchall()]


@pytest.fixture
def store(database, tmp_path):
    store = Store(database, store_files(database, tmp_path))
    yield store
    store.close()


def test_new_knowledgebase_stores_structure_aware_by_default(store):
    kb = store.create_knowledgebase("Contracts", new_metadata())
    (raw,) = sql(store, "SELECT metadata FROM knowledgebases WHERE id = ?", kb.id)[0]
    assert json.loads(raw)["chunking_strategy"] == "structure_aware"
    assert DEFAULT_STRATEGY == "structure_aware"


def test_cli_creation_stores_the_default_too(tmp_path, capsys):
    db = tmp_path / "cli.sqlite"
    assert main(["kb", "--database", str(db), "create", "From the CLI"]) == 0
    assert "structure_aware" in capsys.readouterr().out
    assert _stored_metadata(db, 1)["chunking_strategy"] == "structure_aware"
    assert main(["kb", "--database", str(db), "create", "Chosen", "--strategy",
                 "token_based", "--param", "chunk_token_size=800"]) == 0
    stored = _stored_metadata(db, 2)
    assert stored["chunking_strategy"] == "token_based"
    assert stored["chunking_params"]["chunk_token_size"] == 800
    assert main(["kb", "--database", str(db), "create", "Bad", "--strategy", "nope"]) == 2


def test_an_explicit_choice_is_validated():
    with pytest.raises(UnknownStrategy):
        new_metadata("nope")
    assert new_metadata("token_based")["chunking_strategy"] == "token_based"


def test_reading_resolves_absent_to_token_based_and_unreadable_to_none():
    assert strategy_in_effect('{"description": "old"}') == "token_based"
    assert strategy_in_effect('{"chunking_strategy": "structure_aware"}') == "structure_aware"
    assert strategy_in_effect("{broken") is None
    assert strategy_in_effect("[1, 2]") is None
    assert strategy_in_effect(None) is None


def test_legacy_database_migrates_and_reads_as_token_based(tmp_path):
    db = tmp_path / "legacy.sqlite"
    shutil.copy(LEGACY, db)
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
    store = Store(db)
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    legacy, damaged = store.knowledgebase(1), store.knowledgebase(2)
    assert "chunking_strategy" not in _stored_metadata(db, 1)  # nothing was rewritten
    assert legacy.chunking_strategy == "token_based"
    assert damaged.chunking_strategy is None


def test_legacy_document_is_chunked_token_based_and_keeps_chunk_types(tmp_path, sample_path):
    db = tmp_path / "legacy.sqlite"
    shutil.copy(LEGACY, db)
    store = Store(db)
    data = sample_path(APEX).read_bytes()
    admitted = admit(store, 1, data, APEX)
    process(store, 1, admitted.doc_id)
    report = stored_report(store, 1, admitted.doc_id)
    assert report["chunking_strategy"] == "token_based"
    assert report["strategy"]["banner"]
    types = [c["chunk_type"] for c in report["chunks"]]
    assert types == ["text", "text", "table", "text", "table_context"]
    # straight from the table, not from any report we built
    with sqlite3.connect(db) as conn:
        stored = [r[0] for r in conn.execute("SELECT chunk_type FROM chunks ORDER BY idx")]
    assert stored == types
    assert report["chunks"][4]["why"].startswith("Context chunk = chunk 1 + table chunk 2")
    assert {(p["container"], p["contained"]) for p in report["containment"]} >= {
        (4, 1), (4, 2), (4, 3)}


def test_unreadable_metadata_gives_null_strategy_and_no_banner(tmp_path, sample_path):
    db = tmp_path / "legacy.sqlite"
    shutil.copy(LEGACY, db)
    store = Store(db)
    admitted = admit(store, 2, sample_path(APEX).read_bytes(), APEX)
    process(store, 2, admitted.doc_id)
    report = stored_report(store, 2, admitted.doc_id)
    assert report["chunking_strategy"] is None and report["strategy"] is None
    doc = store.document(2, admitted.doc_id)
    assert doc["state"] == "failed" and "cannot be read" in doc["error"]


def test_same_bytes_twice_are_one_document(store, sample_path):
    kb = store.create_knowledgebase("K", new_metadata())
    data = sample_path(APEX).read_bytes()
    first = admit(store, kb.id, data, APEX)
    second = admit(store, kb.id, data, "copy.pdf")
    assert first.new and not second.new and first.doc_id == second.doc_id
    assert len(store.documents(kb.id)) == 1
    assert len(list(store.files.iterdir())) == 1


def test_refused_file_leaves_nothing_behind(store):
    kb = store.create_knowledgebase("K", new_metadata())
    with pytest.raises(BadPdf):
        admit(store, kb.id, b"not a pdf at all", "x.pdf")
    assert store.documents(kb.id) == [] and list(store.files.iterdir()) == []


def test_a_failing_run_keeps_the_previous_chunks(store, sample_path, monkeypatch):
    kb = store.create_knowledgebase("K", new_metadata())
    admitted = admit(store, kb.id, sample_path(APEX).read_bytes(), APEX)
    process(store, kb.id, admitted.doc_id)
    before = store.chunk_set(kb.id, admitted.doc_id)
    assert len(before["chunks"]) == 17

    def explode(*args, **kwargs):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr("visualiser.ingest.chunk_report", explode)
    process(store, kb.id, admitted.doc_id)
    doc = store.document(kb.id, admitted.doc_id)
    assert doc["state"] == "failed" and "disk on fire" in doc["error"]
    assert store.chunk_set(kb.id, admitted.doc_id) == before


def test_deleting_removes_rows_and_bytes(store, sample_path):
    kb = store.create_knowledgebase("K", new_metadata())
    admitted = admit(store, kb.id, sample_path(APEX).read_bytes(), APEX)
    process(store, kb.id, admitted.doc_id)
    store.delete_knowledgebase(kb.id)
    with pytest.raises(NotFound):
        store.knowledgebase(kb.id)
    assert list(store.files.iterdir()) == []
    assert sql(store, "SELECT COUNT(*) FROM chunks") == [(0,)]


def test_a_newer_schema_is_refused(tmp_path):
    db = tmp_path / "future.sqlite"
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA user_version = 99")
    with pytest.raises(Exception, match="newer than this program"):
        Store(db)


def test_the_same_bytes_keep_their_name_in_each_knowledgebase(store, sample_path):
    first = store.create_knowledgebase("A", new_metadata())
    second = store.create_knowledgebase("B", new_metadata())
    data = sample_path(APEX).read_bytes()
    admit(store, first.id, data, "contract.pdf")
    admit(store, second.id, data, "renamed.pdf")
    assert [d["name"] for d in store.documents(first.id)] == ["contract.pdf"]
    assert [d["name"] for d in store.documents(second.id)] == ["renamed.pdf"]
    assert len(list(store.files.iterdir())) == 1


def test_a_duplicate_name_is_a_conflict(store):
    store.create_knowledgebase("Contracts", new_metadata())
    with pytest.raises(DuplicateName, match="already exists") as raised:
        store.create_knowledgebase(" Contracts ", new_metadata())
    assert http_status(raised.value) == 409
    assert sql(store, "SELECT COUNT(*) FROM knowledgebases") == [(1,)]


def test_one_document_is_read_by_its_key(store, sample_path, monkeypatch):
    kb = store.create_knowledgebase("K", new_metadata())
    admitted = admit(store, kb.id, sample_path(APEX).read_bytes(), APEX)
    monkeypatch.setattr(store, "documents", lambda *a: pytest.fail("read them all"))
    doc = store.document(kb.id, admitted.doc_id)
    assert (doc["id"], doc["state"], doc["attempts"]) == (admitted.doc_id, "processing", 0)
    with pytest.raises(NotFound):
        store.document(kb.id, "0" * 64)
    with pytest.raises(NotFound):
        store.document(2**70, admitted.doc_id)


def test_only_one_of_many_racing_claims_wins_and_each_new_claim_is_an_attempt(store,
                                                                           sample_path):
    import threading

    kb = store.create_knowledgebase("K", new_metadata())
    doc_id = admit(store, kb.id, sample_path(APEX).read_bytes(), APEX).doc_id
    won: list[str] = []
    barrier = threading.Barrier(8)

    def race(owner: str) -> None:
        barrier.wait()
        if store.claim(kb.id, doc_id, owner, 30):
            won.append(owner)

    threads = [threading.Thread(target=race, args=(f"w{i}",)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(won) == 1
    assert store.claim(kb.id, doc_id, won[0], 30)  # renewing is no new attempt
    assert store.document(kb.id, doc_id)["attempts"] == 1
    assert store.claim(kb.id, doc_id, "late", -1) is False  # held
    with store.db() as conn:  # the holder died: its lease ran out
        conn.execute("UPDATE kb_documents SET lease_until = 0")
    assert store.unleased() == [(kb.id, doc_id)]
    assert store.release_expired(kb.id, doc_id) and not store.release_expired(kb.id, doc_id)
    assert store.claim(kb.id, doc_id, "second", 30)
    assert store.document(kb.id, doc_id)["attempts"] == 2


def test_a_document_that_killed_its_workers_too_often_is_failed(store, sample_path):
    kb = store.create_knowledgebase("K", new_metadata())
    doc_id = admit(store, kb.id, sample_path(APEX).read_bytes(), APEX).doc_id
    for attempt in range(3):
        assert store.claim(kb.id, doc_id, f"worker-{attempt}", -1)  # expires at once
    assert store.fail_exhausted(3) == [(kb.id, doc_id)]
    doc = store.document(kb.id, doc_id)
    assert doc["state"] == "failed" and "stopped 3 times" in doc["error"]
    assert doc["attempts"] == 3


def test_derived_fields_are_stored_as_processed_not_recomputed(store, sample_path,
                                                               monkeypatch):
    kb = store.create_knowledgebase("K", new_metadata("token_based"))
    admitted = admit(store, kb.id, sample_path(APEX).read_bytes(), APEX)
    process(store, kb.id, admitted.doc_id)
    stored = sql(store, "SELECT why FROM chunks ORDER BY idx")
    assert stored and all(why for (why,) in stored)
    monkeypatch.setattr("visualiser.store.why", lambda *a: pytest.fail("recomputed"))
    report = store.chunk_set(kb.id, admitted.doc_id)
    assert [c["why"] for c in report["chunks"]] == [why for (why,) in stored]


def test_text_postgresql_would_refuse_is_stored_alike_on_both(store, sample_path):
    kb = store.create_knowledgebase("K", new_metadata())
    admitted = admit(store, kb.id, sample_path(APEX).read_bytes(), APEX)
    process(store, kb.id, admitted.doc_id)
    report = store.chunk_set(kb.id, admitted.doc_id)
    report["chunks"][0]["text"] = "nul\x00 and a lone \ud800 surrogate"
    store.save_chunk_set(kb.id, admitted.doc_id, report)
    assert store.chunk_set(kb.id, admitted.doc_id)["chunks"][0]["text"] == (
        "nul\ufffd and a lone ? surrogate")


def test_every_migration_is_one_transaction(tmp_path, monkeypatch):
    """A migration failing halfway leaves the previous version whole: nothing of it
    applied, the version unchanged (SQLite's executescript would have committed)."""
    import visualiser.store as store_module

    db = tmp_path / "kb.sqlite"
    Store(db)
    broken = (*MIGRATIONS, "ALTER TABLE documents ADD COLUMN extra TEXT; SELECT nonsense()")
    monkeypatch.setattr(store_module, "MIGRATIONS", broken)
    with pytest.raises(sqlite3.OperationalError):
        Store(db)
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
        columns = [r[1] for r in conn.execute("PRAGMA table_info(documents)")]
    assert "extra" not in columns


def test_a_postgresql_store_needs_a_files_folder(postgres_url):
    from visualiser.errors import VisualiserError

    with pytest.raises(VisualiserError, match="--data-dir"):
        Store(postgres_url)


def test_the_schema_is_the_same_on_both_backends(tmp_path, postgres_url):
    from tests.servers import new_schema

    sqlite_store = Store(tmp_path / "kb.sqlite")
    pg_url = new_schema(postgres_url)
    pg_store = Store(pg_url, tmp_path / "pdfs")
    try:
        lite = {(t, c) for (t,) in sql(sqlite_store, "SELECT name FROM sqlite_master WHERE "
                                       "type = 'table'")
                for (_, c, *_rest) in sql(sqlite_store, f"PRAGMA table_info({t})")}
        pg = set(sql(pg_store, "SELECT table_name, column_name FROM "
                     "information_schema.columns WHERE table_schema = current_schema()"))
        assert lite - {("schema_version", "version")} == pg - {("schema_version", "version")}
        (version,) = sql(pg_store, "SELECT version FROM schema_version")[0]
        assert version == len(MIGRATIONS)
    finally:
        pg_store.close()


def test_kb_commands_take_the_database_and_data_dir_as_serve_does(database, tmp_path,
                                                                   sample_path, capsys):
    data_dir = tmp_path / "shared"
    where = ["--database", database, "--data-dir", str(data_dir)]
    assert main(["kb", "create", "Team", *where]) == 0  # after the subcommand
    store = Store(database, data_dir / "pdfs")
    kb_id = store.knowledgebases()[0].id
    store.close()
    assert main(["kb", *where, "add", str(kb_id), str(sample_path(POLICY))]) == 0  # before
    capsys.readouterr()
    assert main(["kb", "list", *where]) == 0
    listing = capsys.readouterr().out
    assert "Team" in listing and POLICY in listing and "ready" in listing
    assert len(list((data_dir / "pdfs").glob("*.pdf"))) == 1  # in the shared folder

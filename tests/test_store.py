"""Knowledgebases in a real SQLite file: the default strategy, the legacy reading,
stored chunk types, documents that are refused or stored once."""

import json
import shutil
import sqlite3

import pytest

from tests.conftest import APEX
from visualiser.cli import main
from visualiser.errors import BadPdf, NotFound, UnknownStrategy
from visualiser.ingest import admit, process, stored_report
from visualiser.knowledgebase import DEFAULT_STRATEGY, new_metadata, strategy_in_effect
from visualiser.store import MIGRATIONS, Store

LEGACY = "tests/fixtures/legacy.sqlite"


def _stored_metadata(path, kb_id):
    """Read what is stored, bypassing every read path of ours."""
    with sqlite3.connect(path) as conn:
        raw = conn.execute("SELECT metadata FROM knowledgebases WHERE id = ?",
                           (kb_id,)).fetchone()[0]
    return json.loads(raw)


@pytest.fixture
def store(tmp_path):
    return Store(tmp_path / "kb.sqlite")


def test_new_knowledgebase_stores_structure_aware_by_default(store):
    kb = store.create_knowledgebase("Contracts", new_metadata())
    assert _stored_metadata(store.path, kb.id)["chunking_strategy"] == "structure_aware"
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
    with sqlite3.connect(store.path) as conn:
        assert conn.execute("SELECT COUNT(*) FROM chunks").fetchone()[0] == 0


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

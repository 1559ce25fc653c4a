"""Knowledgebases, documents and chunk sets in one database — a SQLite file by default,
PostgreSQL for a team server (`visualiser.database` keeps the two alike) — and PDF
bytes in a folder: named after the SQLite file (`visualiser.sqlite.pdfs/`) so each
store owns its files, or `<data-dir>/pdfs` when several processes or hosts share one.

Every call is one transaction; the schema is versioned and migrated forward on open,
one transaction per migration. A chunk set is written in one transaction, so a failed
processing run leaves nothing behind. A chunk set is stored as it was produced,
derived fields (`why`, flags, diagnostics) included: reading never recomputes them,
so what a page shows is what processing made (only rows stored before `why` had a
column get it computed on read).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from visualiser.analysis import why
from visualiser.database import Connection, Database
from visualiser.errors import DuplicateName, NotFound, VisualiserError
from visualiser.knowledgebase import layout_in_effect, params_in_effect, strategy_in_effect
from visualiser.layout import LayoutOptions

# Each entry moves the schema one version forward; never edit a released one.
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE knowledgebases (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        metadata TEXT NOT NULL,
        created_at TEXT NOT NULL
    );
    CREATE TABLE documents (
        id TEXT PRIMARY KEY,            -- SHA-256 of the PDF bytes
        name TEXT NOT NULL,
        size INTEGER NOT NULL,
        page_count INTEGER NOT NULL,
        created_at TEXT NOT NULL
    );
    CREATE TABLE kb_documents (
        kb_id INTEGER NOT NULL REFERENCES knowledgebases(id) ON DELETE CASCADE,
        doc_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        state TEXT NOT NULL CHECK (state IN ('processing', 'ready', 'failed')),
        progress REAL NOT NULL DEFAULT 0,
        error TEXT,
        added_at TEXT NOT NULL,
        PRIMARY KEY (kb_id, doc_id)
    );
    """,
    """
    CREATE TABLE chunk_sets (
        id INTEGER PRIMARY KEY,
        kb_id INTEGER NOT NULL REFERENCES knowledgebases(id) ON DELETE CASCADE,
        doc_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        strategy TEXT NOT NULL,
        params TEXT NOT NULL,
        report TEXT NOT NULL,           -- overlaps, containment, diagnostics, pages
        created_at TEXT NOT NULL,
        UNIQUE (kb_id, doc_id)
    );
    CREATE TABLE chunks (
        chunk_set_id INTEGER NOT NULL REFERENCES chunk_sets(id) ON DELETE CASCADE,
        idx INTEGER NOT NULL,
        chunk_type TEXT NOT NULL,
        text TEXT NOT NULL,
        tokens INTEGER NOT NULL,
        heading_path TEXT NOT NULL,
        regions TEXT NOT NULL,
        origin TEXT NOT NULL,
        flags TEXT NOT NULL,
        PRIMARY KEY (chunk_set_id, idx)
    );
    """,
    # The same bytes can sit in two knowledgebases under two names.
    """
    ALTER TABLE kb_documents ADD COLUMN name TEXT;
    UPDATE kb_documents SET name = (SELECT name FROM documents WHERE id = doc_id);
    """,
    # A processing row belongs to the server that leased it (owner id and the time, in
    # seconds since the epoch, until which the lease holds unless renewed).
    """
    ALTER TABLE kb_documents ADD COLUMN lease_owner TEXT;
    ALTER TABLE kb_documents ADD COLUMN lease_until REAL;
    """,
    # How many times a worker took the row (a worker killed mid-job leaves a lease
    # that expires; the next worker's claim is attempt 2). `why` is stored with the
    # chunk, as its flags are. Indexes for the lookups by state and by document.
    """
    ALTER TABLE kb_documents ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE chunks ADD COLUMN why TEXT;
    CREATE INDEX kb_documents_by_state ON kb_documents (state, lease_until);
    CREATE INDEX kb_documents_by_doc ON kb_documents (doc_id);
    """,
)

# Where a document folder keeps each knowledgebase's stored chunks, packed for serving
# (`visualiser.stored_packed`), as `<kb_id>-<chunk set stamp>.report`.
KEPT_FOLDER = "stored"
# A document whose worker died this many times is failed rather than retried again:
# a file that kills its worker (out of memory, say) must not take down every worker.
MAX_ATTEMPTS = 3
# The lease owner of a document handed back to the queue part-way (a long document
# making room for small ones, `Store.hand_back`): held, not lost; the next claim goes on
# with the same attempt.
QUEUE_OWNER = "queue"
DOCUMENT_COLUMNS = (
    "d.id, COALESCE(k.name, d.name) AS name, d.size, d.page_count, d.created_at, k.state, "
    "k.progress, k.error, k.added_at, k.attempts, k.lease_owner, k.lease_until")

SQLITE_INTEGERS = range(-(2**63), 2**63)


@dataclass(frozen=True, slots=True)
class Knowledgebase:
    id: int
    name: str
    raw_metadata: str
    created_at: str

    @property
    def chunking_strategy(self) -> str | None:
        return strategy_in_effect(self.raw_metadata)

    @property
    def chunking_params(self) -> dict[str, Any]:
        return params_in_effect(self.raw_metadata)

    @property
    def layout_options(self) -> LayoutOptions:
        return layout_in_effect(self.raw_metadata)

    def to_dict(self) -> dict[str, Any]:
        try:
            metadata = json.loads(self.raw_metadata)
        except ValueError:
            metadata = None
        return {"id": self.id, "name": self.name, "metadata": metadata,
                "chunking_strategy": self.chunking_strategy,
                "layout": self.layout_options.engine, "ocr_lang": self.layout_options.ocr_lang,
                "created_at": self.created_at}


def default_database() -> Path:
    """The SQLite file used when none is configured: in the user's data directory."""
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "chunk-visualiser" / "visualiser.sqlite"


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def files_folder(database: Path) -> Path:
    """Where a store keeps its PDFs: a folder named after its database file, so two
    databases side by side never share (and never delete) each other's files."""
    return database.with_name(database.name + ".pdfs")


def data_folders(data_dir: str | os.PathLike[str]) -> dict[str, Path]:
    """The layout of a shared data folder (`--data-dir`): PDFs, and the caches (page
    images, imported chunk files, layouts) every web process and worker reads."""
    root = Path(data_dir)
    return {"pdfs": root / "pdfs", "cache": root / "cache"}


class Store:
    """`database` is a SQLite file (a path, or `sqlite:///path`) or a `postgresql://`
    URL; `files` the PDFs' folder (required with PostgreSQL: there is no file to put
    it beside)."""

    def __init__(self, database: str | os.PathLike[str], files: str | os.PathLike[str] | None
                 = None) -> None:
        self.database = Database(database)
        self.url = self.database.url
        if self.database.path is None and files is None:
            raise VisualiserError("a PostgreSQL store needs a folder for its PDFs: "
                                  "give --data-dir (shared by every web process and worker)")
        # The SQLite file (None for PostgreSQL).
        self.path: Path | None = self.database.path
        self.files = Path(files) if files else files_folder(self.database.path or Path())
        self.files.mkdir(parents=True, exist_ok=True)
        self.migrate()
        if files is None:
            self._adopt_legacy_files()

    def _adopt_legacy_files(self) -> None:
        """Stores before 0.2 kept PDFs in a `pdfs` folder shared by every database
        beside it; link (or copy) this store's own files out of it, leaving it as is."""
        legacy = (self.path or Path()).parent / "pdfs"
        if self.path is None or not legacy.is_dir():
            return
        with self.db() as conn:
            ids = [r[0] for r in conn.execute("SELECT id FROM documents")]
        for doc_id in ids:
            target, old = self.pdf_path(doc_id), legacy / f"{doc_id}.pdf"
            if target.exists() or not old.is_file():
                continue
            try:
                os.link(old, target)
            except OSError:
                shutil.copyfile(old, target)

    @contextmanager
    def db(self, *, write: bool = True) -> Iterator[Connection]:
        """One transaction (`write=False` for one that only reads)."""
        with self.database.transaction(write=write) as conn:
            yield conn

    def migrate(self) -> int:
        return self.database.migrate(MIGRATIONS)

    def close(self) -> None:
        self.database.close()

    # -- knowledgebases ----------------------------------------------------------
    def create_knowledgebase(self, name: str, metadata: dict[str, Any]) -> Knowledgebase:
        name = name.strip()
        if not name:
            raise VisualiserError("a knowledgebase needs a name")
        try:
            with self.db() as conn:
                kb_id = conn.insert(
                    "INSERT INTO knowledgebases (name, metadata, created_at) VALUES (?, ?, ?)",
                    (name, json.dumps(metadata), _now()))
        except self.database.integrity_errors:
            raise DuplicateName(f"a knowledgebase named {name!r} already exists") from None
        return self.knowledgebase(kb_id)

    def knowledgebases(self) -> list[Knowledgebase]:
        with self.db(write=False) as conn:
            rows = conn.execute("SELECT * FROM knowledgebases ORDER BY name").fetchall()
        return [Knowledgebase(r["id"], r["name"], r["metadata"], r["created_at"]) for r in rows]

    def knowledgebase(self, kb_id: int) -> Knowledgebase:
        if kb_id not in SQLITE_INTEGERS:  # SQLite would raise OverflowError
            raise NotFound(f"no knowledgebase with id {kb_id}")
        with self.db(write=False) as conn:
            r = conn.execute("SELECT * FROM knowledgebases WHERE id = ?", (kb_id,)).fetchone()
        if r is None:
            raise NotFound(f"no knowledgebase with id {kb_id}")
        return Knowledgebase(r["id"], r["name"], r["metadata"], r["created_at"])

    def delete_knowledgebase(self, kb_id: int) -> None:
        self.knowledgebase(kb_id)
        doc_ids = [doc["id"] for doc in self.documents(kb_id)]
        with self.db() as conn:
            conn.execute("DELETE FROM knowledgebases WHERE id = ?", (kb_id,))
        self._drop_kept(kb_id, doc_ids)
        self._drop_orphans()

    # -- documents ---------------------------------------------------------------
    def pdf_path(self, doc_id: str) -> Path:
        return self.files / f"{doc_id}.pdf"

    def document_folder(self, doc_id: str) -> Path:
        """A folder for what is computed from one stored PDF (its layout, say), beside
        it in the shared data folder; made on first call, removed with the PDF."""
        folder = self.files / doc_id
        folder.mkdir(parents=True, exist_ok=True)
        return folder

    def incoming(self) -> Path:
        """Where uploads being received are written (as `*.upload`): the PDFs' own
        folder, so that keeping one is a rename."""
        return self.files

    def add_document(self, kb_id: int, doc_id: str, name: str, data: bytes | Path,
                     page_count: int) -> bool:
        """Store the bytes (once per SHA-256) and link them to the knowledgebase; `data`
        may be a file in `incoming()`, which is then moved into place.
        Returns False when this knowledgebase already holds the same bytes."""
        self.knowledgebase(kb_id)
        path = self.pdf_path(doc_id)
        if isinstance(data, Path):
            size = data.stat().st_size
            if not path.exists():
                os.replace(data, path)
        else:
            size = len(data)
            if not path.exists():
                tmp = path.with_suffix(f".{os.getpid()}.{threading.get_ident()}.tmp")
                tmp.write_bytes(data)
                tmp.replace(path)
        with self.db() as conn:
            conn.execute(
                "INSERT INTO documents (id, name, size, page_count, created_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (doc_id, name, size, page_count, _now()))
            cur = conn.execute(
                "INSERT INTO kb_documents (kb_id, doc_id, name, state, added_at) "
                "VALUES (?, ?, ?, 'processing', ?) ON CONFLICT DO NOTHING",
                (kb_id, doc_id, name, _now()))
        return cur.rowcount == 1

    def documents(self, kb_id: int) -> list[dict[str, Any]]:
        if kb_id not in SQLITE_INTEGERS:
            return []
        with self.db(write=False) as conn:
            rows = conn.execute(
                f"SELECT {DOCUMENT_COLUMNS} FROM kb_documents k "
                "JOIN documents d ON d.id = k.doc_id WHERE k.kb_id = ? "
                "ORDER BY k.added_at, name", (kb_id,)).fetchall()
        return [dict(r) for r in rows]

    def document(self, kb_id: int, doc_id: str) -> dict[str, Any]:
        """One document of a knowledgebase, looked up by its key (every page image
        asks for it: it must not read the whole knowledgebase)."""
        row = None
        if kb_id in SQLITE_INTEGERS:
            with self.db(write=False) as conn:
                row = conn.execute(
                    f"SELECT {DOCUMENT_COLUMNS} FROM kb_documents k "
                    "JOIN documents d ON d.id = k.doc_id WHERE k.kb_id = ? AND k.doc_id = ?",
                    (kb_id, doc_id)).fetchone()
        if row is None:
            raise NotFound(f"knowledgebase {kb_id} has no document {doc_id}")
        return dict(row)

    def set_state(self, kb_id: int, doc_id: str, state: str, *, progress: float | None = None,
                  error: str | None = None) -> None:
        with self.db() as conn:
            # A finished row is nobody's any more; a processing one keeps its lease.
            conn.execute(
                "UPDATE kb_documents SET state = ?, progress = COALESCE(?, progress), "
                "error = ?, lease_owner = CASE WHEN ? = 'processing' THEN lease_owner END, "
                "lease_until = CASE WHEN ? = 'processing' THEN lease_until END "
                "WHERE kb_id = ? AND doc_id = ?",
                (state, progress, error, state, state, kb_id, doc_id))

    # -- leases on processing rows -------------------------------------------------
    def claim(self, kb_id: int, doc_id: str, owner: str, seconds: float) -> bool:
        """Take the lease on a processing row, atomically (a compare-and-set: one
        UPDATE whose WHERE holds for one caller only): True when it is now `owner`'s
        (it was free, expired, handed back, or already ours). Taking it anew counts an
        attempt; going on with a document handed back to the queue does not."""
        now = time.time()
        with self.db() as conn:
            cur = conn.execute(
                "UPDATE kb_documents SET lease_owner = ?, lease_until = ?, attempts = "
                "attempts + CASE WHEN lease_owner = ? OR lease_owner = ? THEN 0 ELSE 1 END "
                "WHERE kb_id = ? AND doc_id = ? AND state = 'processing' AND "
                "(lease_owner IS NULL OR lease_owner = ? OR lease_owner = ? "
                "OR lease_until < ?)",
                (owner, now + seconds, owner, QUEUE_OWNER, kb_id, doc_id, owner, QUEUE_OWNER,
                 now))
        return cur.rowcount == 1

    def hand_back(self, kb_id: int, doc_id: str, owner: str, seconds: float) -> bool:
        """Give `owner`'s lease on a processing row to the queue (QUEUE_OWNER) for
        `seconds`: a worker pausing a long document so that small ones go first. No
        sweep takes the row meanwhile; whoever claims it next goes on with the same
        attempt. False when the lease was no longer `owner`'s."""
        with self.db() as conn:
            cur = conn.execute(
                "UPDATE kb_documents SET lease_owner = ?, lease_until = ? "
                "WHERE kb_id = ? AND doc_id = ? AND state = 'processing' AND lease_owner = ?",
                (QUEUE_OWNER, time.time() + seconds, kb_id, doc_id, owner))
        return cur.rowcount == 1

    def restart(self, kb_id: int, doc_id: str) -> None:
        """Process a document again from the start (a re-chunk): processing, no
        progress, no attempts yet."""
        with self.db() as conn:
            conn.execute("UPDATE kb_documents SET state = 'processing', progress = 0, "
                         "error = NULL, attempts = 0, lease_owner = NULL, lease_until = NULL "
                         "WHERE kb_id = ? AND doc_id = ?", (kb_id, doc_id))

    def fail_exhausted(self, max_attempts: int = MAX_ATTEMPTS) -> list[tuple[int, str]]:
        """Fail the processing rows whose lease has expired `max_attempts` times (their
        worker died each time) instead of handing them to yet another worker."""
        now = time.time()
        with self.db() as conn:
            rows = conn.execute(
                "SELECT kb_id, doc_id FROM kb_documents WHERE state = 'processing' AND "
                "attempts >= ? AND (lease_until IS NULL OR lease_until < ?)",
                (max_attempts, now)).fetchall()
            conn.execute(
                "UPDATE kb_documents SET state = 'failed', lease_owner = NULL, "
                "lease_until = NULL, error = ? WHERE state = 'processing' AND "
                "attempts >= ? AND (lease_until IS NULL OR lease_until < ?)",
                (f"the worker processing it stopped {max_attempts} times (killed, or out "
                 "of memory?); it is not retried again", max_attempts, now))
        return [(r[0], r[1]) for r in rows]

    def release_expired(self, kb_id: int, doc_id: str) -> bool:
        """Free a row whose lease has expired (its holder died), atomically: True for
        the one caller that freed it."""
        with self.db() as conn:
            cur = conn.execute(
                "UPDATE kb_documents SET lease_owner = NULL, lease_until = NULL "
                "WHERE kb_id = ? AND doc_id = ? AND state = 'processing' AND "
                "lease_owner IS NOT NULL AND lease_until < ?", (kb_id, doc_id, time.time()))
        return cur.rowcount == 1

    def renew(self, owner: str, seconds: float) -> int:
        """Extend every lease `owner` holds (its heartbeat); how many it holds."""
        with self.db() as conn:
            cur = conn.execute(
                "UPDATE kb_documents SET lease_until = ? "
                "WHERE lease_owner = ? AND state = 'processing'",
                (time.time() + seconds, owner))
        return cur.rowcount

    def release(self, owner: str) -> None:
        """Give up `owner`'s leases (a server stopping with work unfinished)."""
        with self.db() as conn:
            conn.execute("UPDATE kb_documents SET lease_owner = NULL, lease_until = NULL "
                         "WHERE lease_owner = ?", (owner,))

    def lease_owners(self) -> set[str]:
        """Who holds leases on processing rows."""
        with self.db(write=False) as conn:
            rows = conn.execute("SELECT DISTINCT lease_owner FROM kb_documents WHERE "
                                "state = 'processing' AND lease_owner IS NOT NULL").fetchall()
        return {r[0] for r in rows}

    def held_by_queue(self) -> list[tuple[int, str, int]]:
        """Processing rows handed back to the queue (`hand_back`), with their attempts."""
        with self.db(write=False) as conn:
            rows = conn.execute(
                "SELECT kb_id, doc_id, attempts FROM kb_documents WHERE state = 'processing' "
                "AND lease_owner = ? ORDER BY added_at", (QUEUE_OWNER,)).fetchall()
        return [(r[0], r[1], int(r[2])) for r in rows]

    def unleased(self) -> list[tuple[int, str]]:
        """Processing rows nobody holds (never leased, released, or expired)."""
        with self.db(write=False) as conn:
            rows = conn.execute(
                "SELECT kb_id, doc_id FROM kb_documents WHERE state = 'processing' AND "
                "(lease_owner IS NULL OR lease_until < ?) ORDER BY added_at",
                (time.time(),)).fetchall()
        return [(r[0], r[1]) for r in rows]

    def remove_document(self, kb_id: int, doc_id: str) -> None:
        self.document(kb_id, doc_id)
        with self.db() as conn:
            conn.execute("DELETE FROM chunk_sets WHERE kb_id = ? AND doc_id = ?",
                         (kb_id, doc_id))
            conn.execute("DELETE FROM kb_documents WHERE kb_id = ? AND doc_id = ?",
                         (kb_id, doc_id))
        self._drop_kept(kb_id, [doc_id])
        self._drop_orphans()

    def _drop_kept(self, kb_id: int, doc_ids: list[str]) -> None:
        """What was kept of a knowledgebase's view of documents it no longer holds (its
        stored chunks, packed: `visualiser.stored_packed`), when another knowledgebase
        keeps the PDF; the rest of the document folder is the bytes', shared."""
        for doc_id in doc_ids:
            for path in (self.files / doc_id / KEPT_FOLDER).glob(f"{kb_id}-*"):
                path.unlink(missing_ok=True)

    def _drop_orphans(self) -> None:
        """Documents no knowledgebase holds any more go, bytes and all."""
        with self.db() as conn:
            orphans = [r[0] for r in conn.execute(
                "SELECT id FROM documents WHERE id NOT IN (SELECT doc_id FROM kb_documents)")]
            conn.executemany("DELETE FROM documents WHERE id = ?", [(o,) for o in orphans])
        for doc_id in orphans:
            self.pdf_path(doc_id).unlink(missing_ok=True)
            shutil.rmtree(self.files / doc_id, ignore_errors=True)

    # -- chunk sets --------------------------------------------------------------
    def save_chunk_set(self, kb_id: int, doc_id: str, report: dict[str, Any]) -> None:
        """Replace the stored chunks of (kb, doc) with those of `report`, atomically."""
        header = {k: v for k, v in report.items() if k != "chunks"}
        with self.db() as conn:
            conn.execute("DELETE FROM chunk_sets WHERE kb_id = ? AND doc_id = ?",
                         (kb_id, doc_id))
            set_id = conn.insert(
                "INSERT INTO chunk_sets (kb_id, doc_id, strategy, params, report, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (kb_id, doc_id, report["chunking_strategy"], json.dumps(report["parameters"]),
                 json.dumps(header), _now()))
            conn.executemany(
                "INSERT INTO chunks (chunk_set_id, idx, chunk_type, text, tokens, heading_path,"
                " regions, origin, flags, why) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(set_id, c["index"], c["chunk_type"], _text(c["text"]), c["tokens"],
                  json.dumps(c["heading_path"]), json.dumps(c["regions"]),
                  json.dumps(c["origin"]), json.dumps(c["flags"]), c.get("why"))
                 for c in report["chunks"]])

    def chunk_set_stamp(self, kb_id: int, doc_id: str) -> str | None:
        """What tells this stored chunk set from any other stored for (kb, doc), before
        or after it, without reading its chunks: None when none is stored."""
        with self.db(write=False) as conn:
            row = conn.execute("SELECT id, created_at, report FROM chunk_sets WHERE "
                               "kb_id = ? AND doc_id = ?", (kb_id, doc_id)).fetchone()
        if row is None:
            return None
        header = hashlib.sha256(str(row["report"]).encode()).hexdigest()[:16]
        return f"{row['id']}-{row['created_at']}-{header}"

    def chunk_set(self, kb_id: int, doc_id: str) -> dict[str, Any] | None:
        """The stored report, chunks read back from their rows; None if none stored."""
        with self.db(write=False) as conn:
            row = conn.execute("SELECT * FROM chunk_sets WHERE kb_id = ? AND doc_id = ?",
                               (kb_id, doc_id)).fetchone()
            if row is None:
                return None
            chunks = conn.execute("SELECT * FROM chunks WHERE chunk_set_id = ? ORDER BY idx",
                                  (row["id"],)).fetchall()
        report = json.loads(row["report"])
        report["chunks"] = [{
            "index": c["idx"], "chunk_type": c["chunk_type"], "text": c["text"],
            "tokens": c["tokens"], "heading_path": json.loads(c["heading_path"]),
            "regions": json.loads(c["regions"]), "origin": json.loads(c["origin"]),
            "flags": json.loads(c["flags"]), "why": c["why"],
        } for c in chunks]
        for chunk in report["chunks"]:
            chunk["pages"] = [r["page"] for r in chunk["regions"]]  # a view of regions
            if chunk["why"] is None:  # stored before `why` had a column
                chunk["why"] = why(chunk["origin"], chunk["chunk_type"], chunk["tokens"],
                                   chunk["heading_path"], report.get("layout_engine") or "")
        return report


def _text(text: str) -> str:
    """Chunk text as PostgreSQL can store it: a damaged PDF's text may hold NUL (which
    TEXT refuses) or lone surrogates (not UTF-8); SQLite takes either, so the text is
    made storable on both, the same way."""
    return text.replace("\x00", "\ufffd").encode("utf-8", "replace").decode("utf-8")

"""The document catalogue behind the web app: bundled samples (and uploads), each
identified by the SHA-256 of its bytes, with the expensive results memoised.

Layout extraction (`process_pdf`) is the slow step, so its result is kept in an LRU
per document; a strategy switch re-chunks from that cached layout, and chunk reports
are memoised per (document, strategy, resolved settings). Everything is safe to call
from the threads of a threaded WSGI server: two requests for the same uncomputed
result wait for one computation instead of racing to do it twice.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

from visualiser import pipeline
from visualiser.errors import BadPdf, NotFound
from visualiser.strategies import get_strategy

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Memo(Generic[K, V]):
    """A thread-safe LRU that computes each missing value once."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()
        self._key_locks: dict[K, threading.Lock] = {}

    def get(self, key: K, compute: Callable[[], V]) -> V:
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key]
            key_lock = self._key_locks.setdefault(key, threading.Lock())
        with key_lock:
            with self._lock:
                if key in self._items:  # computed by the thread we waited for
                    self._items.move_to_end(key)
                    return self._items[key]
            try:
                value = compute()  # outside the global lock: other keys stay served
            finally:
                with self._lock:
                    self._key_locks.pop(key, None)
            with self._lock:
                self._items[key] = value
                while len(self._items) > self.capacity:
                    self._items.popitem(last=False)
            return value

    def __contains__(self, key: object) -> bool:
        with self._lock:
            return key in self._items


@dataclass(frozen=True, slots=True)
class PageSize:
    number: int
    width: float
    height: float
    rotation: int


@dataclass(frozen=True, slots=True)
class Entry:
    """What the catalogue knows without running the pipeline: cheap to list."""

    id: str
    name: str
    size: int
    pages: tuple[PageSize, ...]
    source: str  # "sample" or "upload"
    path: Path | None = field(default=None, compare=False)

    @property
    def page_count(self) -> int:
        return len(self.pages)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "size": self.size,
            "page_count": self.page_count,
            "source": self.source,
        }


@dataclass(slots=True)
class Report:
    """A chunk report and, made once on demand, its JSON encoding (big for 600 pages)."""

    data: dict[str, Any]
    _json: bytes | None = None

    def json_bytes(self) -> bytes:
        if self._json is None:
            self._json = json.dumps(self.data, ensure_ascii=False, separators=(",", ":")).encode()
        return self._json


def read_entry(data: bytes, name: str, source: str, path: Path | None = None) -> Entry:
    """Page sizes straight from PyMuPDF: milliseconds even for 600 pages, so the viewer
    can lay out its page placeholders before the layout has been extracted."""
    document = pipeline.open_pdf(data)  # BadPdf with a message naming what is wrong
    try:
        pages = tuple(
            PageSize(
                page.number + 1,
                round(page.rect.width, 2),
                round(page.rect.height, 2),
                page.rotation,
            )
            for page in document
        )
    finally:
        document.close()
    return Entry(hashlib.sha256(data).hexdigest(), name, len(data), pages, source, path)


class Library:
    def __init__(self, samples_dir: Path, documents: int = 8, reports: int = 64) -> None:
        self.samples_dir = samples_dir
        self._lock = threading.Lock()
        self._entries: dict[str, Entry] | None = None
        self._uploads: dict[str, bytes] = {}
        self._processed: Memo[str, pipeline.ProcessedDocument] = Memo(documents)
        self._reports: Memo[tuple[str, str, tuple[tuple[str, Any], ...]], Report] = Memo(reports)
        self.problems: list[str] = []  # sample files that could not be read, for the log

    def _scan(self) -> dict[str, Entry]:
        entries: dict[str, Entry] = {}
        for path in sorted(self.samples_dir.glob("*.pdf")):
            try:
                entry = read_entry(path.read_bytes(), path.name, "sample", path)
            except (BadPdf, OSError) as error:
                self.problems.append(f"{path.name}: {error}")
                continue
            entries.setdefault(entry.id, entry)
        return entries

    def _all(self) -> dict[str, Entry]:
        with self._lock:
            if self._entries is None:
                self._entries = self._scan()
            return self._entries

    def documents(self) -> list[Entry]:
        return sorted(self._all().values(), key=lambda e: (e.source != "sample", e.name))

    def entry(self, doc_id: str) -> Entry:
        try:
            return self._all()[doc_id]
        except KeyError:
            raise NotFound(f"no document with id {doc_id!r}", id=doc_id) from None

    def pdf(self, doc_id: str) -> bytes:
        entry = self.entry(doc_id)
        if entry.path is not None:
            return entry.path.read_bytes()
        with self._lock:
            return self._uploads[doc_id]

    def add(self, data: bytes, name: str) -> Entry:
        """An uploaded PDF joins the catalogue (in memory, for this server's lifetime)."""
        entry = read_entry(data, name, "upload")
        documents = self._all()
        with self._lock:
            if entry.id in documents:
                return documents[entry.id]
            self._uploads[entry.id] = data
            documents[entry.id] = entry
        return entry

    def processed(self, doc_id: str) -> pipeline.ProcessedDocument:
        entry = self.entry(doc_id)
        return self._processed.get(
            doc_id, lambda: pipeline.process_pdf(self.pdf(doc_id), entry.name)
        )

    def is_processed(self, doc_id: str) -> bool:
        return doc_id in self._processed

    def report(self, doc_id: str, strategy: str, params: Mapping[str, Any] | None = None) -> Report:
        self.entry(doc_id)  # 404 before any work
        # Validate and resolve first: a bad parameter is answered without extracting the
        # layout, and "?size=1200" shares its cache entry with the default.
        settings = get_strategy(strategy).settings(params)
        key = (doc_id, strategy, tuple(sorted(settings.items())))
        return self._reports.get(
            key, lambda: Report(pipeline.chunk_report(self.processed(doc_id), strategy, settings))
        )

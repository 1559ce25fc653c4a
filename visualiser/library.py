"""The documents behind the web app — the bundled samples, and the documents stored
in knowledgebases — each identified by the SHA-256 of its bytes, with the expensive
results memoised.

Layout extraction (`process_pdf`) is the slow step, so its result is kept in an LRU
per (document, layout options: engine, its version, OCR); a strategy switch re-chunks
from that cached layout, and chunk reports are memoised per (document, layout
options, strategy, resolved settings). Everything is safe to call
from the threads of a threaded WSGI server: two requests for the same uncomputed
result wait for one computation instead of racing to do it twice.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import EllipsisType
from typing import Any, Generic, TypeVar

from visualiser import packed as packed_json
from visualiser import pipeline, previews
from visualiser.errors import BadPdf, NotFound, reading_pdf
from visualiser.files import write_atomically
from visualiser.layout import DEFAULT_OPTIONS, LayoutOptions, saved
from visualiser.mupdf import LOCK, take_messages
from visualiser.packed import Packed
from visualiser.strategies import get_strategy
from visualiser.tokenizers import DEFAULT_ENCODING, count_tokens

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
ReportKey = tuple[str, str, str, str, tuple[tuple[str, Any], ...], str | None]


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
            self.put(key, value)
            return value

    def put(self, key: K, value: V) -> None:
        """Store a value computed elsewhere (e.g. by the background processor)."""
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.capacity:
                self._items.popitem(last=False)

    def peek(self, key: K) -> V | None:
        """The value if it is kept, without computing it or refreshing its place."""
        with self._lock:
            return self._items.get(key)

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
    source: str  # "sample" or "knowledgebase"
    path: Path | None = field(default=None, compare=False)
    # Where the layout of a stored document is kept, beside its PDF (the store's
    # document folder); None for samples, whose layouts go to the library's cache.
    layout_folder: Path | None = field(default=None, compare=False)

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


class Report:
    """A chunk report: its data, and, each made once on demand, its JSON encoding (big
    for 600 pages) and that JSON packed for gzip responses (`visualiser.packed`). A
    report read from a kept file starts as the packed JSON alone."""

    __slots__ = ("_data", "_json", "_packed")

    def __init__(self, data: dict[str, Any] | None = None, *,
                 packed: Packed | None = None) -> None:
        if data is None and packed is None:
            raise ValueError("a report needs its data or its packed JSON")
        self._data, self._json, self._packed = data, None, packed

    @property
    def data(self) -> dict[str, Any]:
        if self._data is None:
            self._data = json.loads(self.json_bytes())
        return self._data

    def json_bytes(self, extra: Mapping[str, Any] | None = None) -> bytes:
        """The JSON; `extra` top-level fields are spliced in without re-encoding the
        (cached, possibly megabytes of) report: a JSON object always ends in `}`."""
        if self._json is None:
            self._json = (packed_json.encode(self._data) if self._data is not None
                          else self.packed().json_bytes())
        if not extra:
            return self._json
        assert self._data is None or not set(extra) & set(self._data), \
            "extra fields must not repeat the report's"
        return self._json[:-1] + packed_json.tail(extra, len(self._json) == 2)

    def packed(self) -> Packed:
        if self._packed is None:
            self._packed = Packed.of(self.json_bytes())
        return self._packed

    def gzip_bytes(self, extra: Mapping[str, Any] | None = None) -> bytes:
        return self.packed().gzip_bytes(extra)

    def slim(self) -> Report:
        """The same report holding only its packed JSON (a sixth of the JSON's bytes, and
        none of its Python objects): what a cache of many reports keeps."""
        return Report(packed=self.packed())


def read_entry(data: bytes | Path, name: str, source: str, path: Path | None = None,
               doc_id: str | None = None) -> Entry:
    """Page sizes straight from PyMuPDF: milliseconds even for 600 pages, so the viewer
    can lay out its page placeholders before the layout has been extracted. `data` is
    the bytes or the file; whatever the file throws is BadPdf with the reason."""
    with LOCK, reading_pdf():  # PyMuPDF is not thread-safe
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
            take_messages()  # nothing to report here; keep MuPDF's buffer from growing
    if isinstance(data, Path):
        size, doc_id = data.stat().st_size, doc_id or file_sha256(data)
    else:
        size, doc_id = len(data), doc_id or hashlib.sha256(data).hexdigest()
    return Entry(doc_id, name, size, pages, source, path)


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while block := handle.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


PAGES_FILE = "pages.json"  # a stored document's page sizes, beside its layout


def _stored_entry(doc_id: str, name: str, path: Path, folder: Path | None) -> Entry:
    """A stored document's entry; its page sizes read from the PDF once and kept in
    `folder` (opening a 600-page PDF to read them costs 0.1-0.2 s, and the viewer of
    a just-restarted server waits for it; the bytes never change, nor do the sizes)."""
    if folder is not None:
        try:
            pages = tuple(PageSize(*page) for page in json.loads(
                (folder / PAGES_FILE).read_bytes()))
            return Entry(doc_id, name, path.stat().st_size, pages, "knowledgebase", path,
                         folder)
        except (OSError, ValueError, TypeError):
            pass  # not kept yet (or damaged): read from the PDF, kept again
    entry = replace(read_entry(path, name, "knowledgebase", path, doc_id),
                    layout_folder=folder)
    if folder is not None:
        try:
            write_atomically(folder / PAGES_FILE, json.dumps(
                [[p.number, p.width, p.height, p.rotation] for p in entry.pages]).encode())
        except OSError:
            pass  # read from the PDF again next time
    return entry


MAX_NAME_LENGTH = 255
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def safe_name(name: str, default: str = "upload.pdf") -> str:
    """The name a browser sent, kept as it was (it is escaped wherever it is shown, and
    files are stored by SHA-256, never by name): only a path before it, control
    characters and surrounding blanks go, and it is cut at 255 characters."""
    base = _CONTROL.sub("", name.replace("\\", "/").rsplit("/", 1)[-1]).strip()
    return base[:MAX_NAME_LENGTH] or default


class Library:
    """Samples from `samples_dir`, listed once; documents stored elsewhere (the
    knowledgebase store) are described on demand by `stored_entry`. Processed layouts
    and chunk reports are memoised per SHA-256, whichever the document's origin."""

    def __init__(
        self, samples_dir: Path, documents: int = 8, reports: int = 64, entries: int = 256,
        time_budget: float | None = None, layout_dir: Path | None = None,
    ) -> None:
        self.samples_dir = samples_dir
        # where layouts are kept on disk, so that a restart or another process does not
        # read (or OCR) a document again; None keeps them in memory only
        self.layout_dir = layout_dir
        self.time_budget = time_budget  # seconds for one chunk report (OutOfTime past it)
        self._lock = threading.Lock()
        self._samples: dict[str, Entry] | None = None
        self._stored: Memo[tuple[str, str, Path], Entry] = Memo(entries)
        self._processed: Memo[tuple[str, str], pipeline.ProcessedDocument] = Memo(documents)
        # (document id, name, layout options, strategy or import, settings, the
        # strategy's implementation: a library installed or removed is another report)
        self._reports: Memo[ReportKey, Report] = Memo(reports)
        self.layout_workers = 1  # page-reading processes for a layout extracted here
        self._tokens: Memo[tuple[str, str], int] = Memo(documents * 2)
        self.problems: list[str] = []  # files that could not be read, for the log

    def _scan(self) -> dict[str, Entry]:
        entries: dict[str, Entry] = {}
        for path in sorted(self.samples_dir.glob("*.pdf")):
            try:
                entry = read_entry(path.read_bytes(), path.name, "sample", path)
            except (BadPdf, OSError) as error:
                self.problems.append(f"{path}: {error}")
                continue
            entries.setdefault(entry.id, entry)
        return entries

    def _all(self) -> dict[str, Entry]:
        with self._lock:
            if self._samples is None:
                self._samples = self._scan()
            return self._samples

    def documents(self) -> list[Entry]:
        return sorted(self._all().values(), key=lambda e: e.name)

    def entry(self, doc_id: str) -> Entry:
        """A bundled sample by id."""
        try:
            return self._all()[doc_id]
        except KeyError:
            raise NotFound(f"no document with id {doc_id!r}", id=doc_id) from None

    def stored_entry(self, doc_id: str, name: str, path: Path,
                     layout_folder: Path | None = None) -> Entry:
        """A document kept outside the samples (a knowledgebase's PDF on disk), whose
        layouts are kept in `layout_folder` (beside the PDF) when one is given."""
        return self._stored.get(
            (doc_id, name, path), lambda: _stored_entry(doc_id, name, path, layout_folder))

    @staticmethod
    def pdf(entry: Entry) -> bytes:
        assert entry.path is not None  # every entry comes from a file
        return entry.path.read_bytes()

    def remember(self, processed: pipeline.ProcessedDocument,
                 options: LayoutOptions = DEFAULT_OPTIONS) -> None:
        """Keep a layout processed elsewhere (the knowledgebase's background worker,
        which stores it on disk beside the PDF), so the viewer's first preview does not
        extract it a second time."""
        self._processed.put((processed.id, options.key()), processed)

    def processed(self, entry: Entry,
                  options: LayoutOptions = DEFAULT_OPTIONS) -> pipeline.ProcessedDocument:
        if options.workers != self.layout_workers:
            options = replace(options, workers=self.layout_workers)
        processed = self._processed.get(
            (entry.id, options.key()), lambda: self._read_layout(entry, options))
        # The same bytes may be known under two names (a sample, and a copy in a
        # knowledgebase); the layout is shared, the name is the caller's.
        return processed if processed.name == entry.name else replace(processed, name=entry.name)

    def _layout_path(self, entry: Entry, options: LayoutOptions) -> Path | None:
        if entry.layout_folder is not None:  # a stored document: beside its PDF
            return entry.layout_folder / saved.file_name(options.key())
        if self.layout_dir is None:
            return None
        return self.layout_dir / saved.file_name(options.key(), prefix=entry.id)

    def _read_layout(self, entry: Entry, options: LayoutOptions) -> pipeline.ProcessedDocument:
        """The document's layout from disk when it was read before under the same
        engine, version and OCR settings; else extracted now, and kept."""
        path = self._layout_path(entry, options)
        layout = saved.read_file(path) if path is not None else None
        if layout is not None:
            return pipeline.from_layout(self.pdf(entry), entry.name, layout)
        processed = pipeline.process_pdf(self.pdf(entry), entry.name, options=options)
        if path is not None:
            saved.write_file(path, processed.layout)
        return processed

    def is_processed(self, doc_id: str, options: LayoutOptions = DEFAULT_OPTIONS) -> bool:
        return (doc_id, options.key()) in self._processed

    def report(
        self, entry: Entry, strategy: str, params: Mapping[str, Any] | None = None,
        options: LayoutOptions = DEFAULT_OPTIONS, *,
        time_budget: float | EllipsisType | None = ...,
    ) -> Report:
        """The report of `strategy` under `params` (validated first: a bad parameter is
        answered without extracting the layout, and "?size=1200" shares its cache entry
        with the default). A stored document's default-parameter report is read from
        the file kept beside its PDF (`visualiser.previews`), or computed and kept
        there. `time_budget` overrides the library's (None: no limit)."""
        cls = get_strategy(strategy)
        settings = cls.settings(params)
        key: ReportKey = (entry.id, entry.name, options.key(), strategy,
                          tuple(sorted(settings.items())), cls.implementation_key())
        budget = self.time_budget if time_budget is ... else time_budget
        kept = (previews.file_path(entry.layout_folder, entry.name, options, cls)
                if entry.layout_folder is not None and previews.is_default(cls, settings)
                else None)

        def compute() -> Report:
            if kept is not None and (packed := previews.read(kept)) is not None:
                return Report(packed=packed)
            report = self._report(entry, lambda doc: pipeline.chunk_report(
                doc, strategy, settings, time_budget=budget), options)
            if kept is None:
                return report
            previews.write(kept, report.packed())
            return report.slim()

        return self._reports.get(key, compute)

    def imported(
        self, entry: Entry, import_id: str, file_name: str, data: Callable[[], bytes],
        options: LayoutOptions = DEFAULT_OPTIONS,
    ) -> Report:
        """Chunks from an imported file (`import_id` is its SHA-256), aligned to `entry`.
        `data` reads the file only when the report is not cached."""
        key = (entry.id, entry.name, options.key(), f"import:{import_id}",
               (("file", file_name),), None)
        return self._reports.get(
            key,
            lambda: self._report(
                entry, lambda doc: pipeline.imported_report(
                    doc, data(), file_name, time_budget=self.time_budget), options
            ),
        )

    def _report(
        self,
        entry: Entry,
        make: Callable[[pipeline.ProcessedDocument], dict[str, Any]],
        options: LayoutOptions = DEFAULT_OPTIONS,
    ) -> Report:
        processed = self.processed(entry, options)
        data = make(processed)
        # The document's own token count, so a side-by-side comparison can say how much
        # each chunking stores beyond it (the report carries it only inside the
        # inflation diagnostic, and only when there is inflation).
        encoding = data.get("parameters", {}).get("tokenizer") or DEFAULT_ENCODING
        data["document_tokens"] = self._tokens.get(
            (entry.id, encoding), lambda: count_tokens(processed.source.text, encoding)
        )
        if entry.layout_folder is not None:  # for the stored view after a restart
            tokens = _tokens_path(entry.layout_folder, encoding)
            if not tokens.is_file():
                try:
                    write_atomically(tokens, str(data["document_tokens"]).encode())
                except OSError:
                    pass
        return Report(data)

    def document_tokens(self, doc_id: str, encoding: str = DEFAULT_ENCODING,
                        folder: Path | None = None) -> int | None:
        """The count `_report` made for this document, if one was made and is still kept
        (in memory, or for a stored document in its `folder`)."""
        count = self._tokens.peek((doc_id, encoding))
        if count is None and folder is not None:
            try:
                count = int(_tokens_path(folder, encoding).read_text())
            except (OSError, ValueError):
                return None
            self._tokens.put((doc_id, encoding), count)
        return count


def _tokens_path(folder: Path, encoding: str) -> Path:
    return folder / f"tokens-{re.sub(r'[^A-Za-z0-9_.-]', '_', encoding)}.txt"

"""Adding documents to a knowledgebase: refuse what is unusable at the door, store
what is usable, process it (slowly, in the background when served), and read the
stored chunks back with the strategy that is in effect.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from visualiser import analysis, labels
from visualiser.errors import NotFound, VisualiserError
from visualiser.layout import LayoutOptions, get_engine, saved
from visualiser.layout.items import PageRead
from visualiser.library import file_sha256
from visualiser.mupdf import LOCK, take_messages
from visualiser.pipeline import (
    MAX_BYTES,
    MAX_PAGES,
    ProcessedDocument,
    chunk_report,
    from_layout,
    open_pdf,
    process_pdf,
)
from visualiser.render import PageImageCache
from visualiser.store import Knowledgebase, Store
from visualiser.strategies import get_strategy

log = logging.getLogger(__name__)

# Progress is written to SQLite for pollers; a 2000-page document must not cost 2000
# writes, so a write happens only when this much time or progress has passed.
PROGRESS_INTERVAL = 0.25  # seconds
PROGRESS_STEP = 0.02  # fraction of the pages


def throttled(write: Callable[[float], None], interval: float = PROGRESS_INTERVAL,
              step: float = PROGRESS_STEP) -> Callable[[int, int], None]:
    """A `progress(done, total)` callback that passes on `done / total` sparingly."""
    last = {"time": float("-inf"), "fraction": 0.0}

    def progress(done: int, total: int) -> None:
        fraction = done / max(total, 1)
        now = time.monotonic()
        if now - last["time"] >= interval or fraction - last["fraction"] >= step:
            last["time"], last["fraction"] = now, fraction
            write(fraction)

    return progress


@dataclass(frozen=True, slots=True)
class Admitted:
    doc_id: str
    name: str
    page_count: int
    new: bool  # False when the knowledgebase already held the same bytes


def admit(store: Store, kb_id: int, data: bytes | Path, name: str, *,
          max_bytes: int = MAX_BYTES, max_pages: int = MAX_PAGES,
          doc_id: str | None = None) -> Admitted:
    """Check the bytes (or a received file in `store.incoming()`, whose SHA-256 is
    `doc_id`) are a usable PDF — raises BadPdf with the reason — and store them.
    Nothing is stored for a refused file."""
    store.knowledgebase(kb_id)
    with LOCK:
        try:
            with open_pdf(data, max_bytes=max_bytes, max_pages=max_pages) as doc:
                page_count = doc.page_count
        finally:
            take_messages()  # a refusal says why; an accepted file is read again later
    if doc_id is None:
        doc_id = (file_sha256(data) if isinstance(data, Path)
                  else hashlib.sha256(data).hexdigest())
    new = store.add_document(kb_id, doc_id, name, data, page_count)
    return Admitted(doc_id, name, page_count, new)


def process(store: Store, kb_id: int, doc_id: str,
            on_processed: Callable[[Any, LayoutOptions], None] | None = None,
            workers: int = 1, pages_read: list[PageRead] | None = None,
            images: PageImageCache | None = None) -> None:
    """Lay out a stored document with its knowledgebase's layout engine (in `workers`
    processes; or from `pages_read`, every page read before by that engine) and chunk it
    with its strategy, then store the chunk set. Never raises: failures are recorded
    on the document. With `images`, the page images of the viewer's first screen are
    rendered into that cache first."""
    try:
        kb = store.knowledgebase(kb_id)
        doc_row = store.document(kb_id, doc_id)
        data = store.pdf_path(doc_id).read_bytes()
        if images is not None:
            warm_first_screen(images, doc_id, data, int(doc_row["page_count"]))

        progress = throttled(
            lambda fraction: store.set_state(kb_id, doc_id, "processing", progress=fraction))
        options = replace(kb.layout_options, workers=max(1, workers))
        get_engine(options.engine)  # an engine that cannot run here fails with the reason
        processed = stored_layout(store, doc_id, doc_row["name"], data, options, progress,
                                  pages_read)
        if on_processed is not None:
            on_processed(processed, options)
        strategy = kb.chunking_strategy
        if strategy is None:
            raise VisualiserError("the knowledgebase's stored metadata cannot be read, so its "
                                  "chunking strategy is unknown")
        report = chunk_report(processed, strategy, kb.chunking_params)
        store.save_chunk_set(kb_id, doc_id, report)
        store.set_state(kb_id, doc_id, "ready", progress=1.0)
    except VisualiserError as exc:
        store.set_state(kb_id, doc_id, "failed", error=exc.message)
    except OSError as exc:  # the stored file is gone or unreadable
        if not deleted(store, kb_id, doc_id):
            store.set_state(kb_id, doc_id, "failed",
                            error=f"the stored PDF cannot be read: {exc.strerror or exc}")
    except Exception as exc:  # a bug must not leave the document "processing" forever
        if deleted(store, kb_id, doc_id):
            # Deleted (or its knowledgebase) while it was processed: nothing to store.
            log.info("%s was deleted while it was being processed", doc_id)
            return
        log.exception("processing %s failed", doc_id)
        store.set_state(kb_id, doc_id, "failed", error=f"internal error: {exc}")


def warm_first_screen(images: PageImageCache, doc_id: str, data: bytes,
                      page_count: int) -> None:
    """The first pages' images, ready before anyone opens the viewer (a few tens of
    milliseconds each). A page that cannot be drawn is left for the viewer to report."""
    try:
        images.warm(doc_id, lambda: data, page_count)
    except (VisualiserError, OSError) as error:
        log.info("%s: the first pages were not rendered ahead: %s", doc_id, error)


def stored_layout(store: Store, doc_id: str, name: str, data: bytes, options: LayoutOptions,
                  progress: Callable[[int, int], None] | None = None,
                  pages_read: list[PageRead] | None = None) -> ProcessedDocument:
    """The document's layout under `options`, kept beside its PDF: read from there when
    it was read before (by another knowledgebase holding the same bytes, or before a
    restart cut the processing short), else read from the pages now and kept there, so
    that every later view, preview, comparison and import of it starts from the file."""
    path = store.document_folder(doc_id) / saved.file_name(options.key())
    layout = saved.read_file(path)
    if layout is not None:
        return from_layout(data, name, layout)
    processed = process_pdf(data, name, options=options, progress=progress,
                            pages_read=pages_read)
    saved.write_file(path, processed.layout)
    return processed


def deleted(store: Store, kb_id: int, doc_id: str) -> bool:
    """Is the document (or its knowledgebase) gone from the store?"""
    try:
        store.document(kb_id, doc_id)
    except NotFound:
        return True
    except Exception:  # the database itself fails: report the original error
        return False
    return False


def stored_report(store: Store, kb_id: int, doc_id: str) -> dict[str, Any]:
    """The stored chunks of a knowledgebase document, under the strategy in effect.

    `chunking_strategy` comes from the knowledgebase's metadata (absent means
    token_based; unreadable means None, and then no banner is offered)."""
    kb = store.knowledgebase(kb_id)
    doc = store.document(kb_id, doc_id)
    return {**stored_body(kb, store.chunk_set(kb_id, doc_id)), **stored_state(kb, doc)}


def stored_body(kb: Knowledgebase, report: dict[str, Any] | None) -> dict[str, Any]:
    """What of the stored report follows from the chunk set and the knowledgebase's
    strategy alone (so it can be kept, packed, as long as the chunk set is the same)."""
    report = report or {"chunks": [], "overlaps": [], "containment": [], "diagnostics": []}
    strategy = kb.chunking_strategy
    cls = None
    if strategy is not None:
        try:
            cls = get_strategy(strategy)
        except VisualiserError:
            cls = None
    about = None
    if cls is not None:
        try:
            settings = cls.settings(report.get("parameters"))
        except VisualiserError:  # chunks stored under other parameters than it knows
            settings = cls.settings()
        # The banner speaks of these stored chunks (which of them are context chunks).
        about = {**cls.describe(), **analysis.banner(
            cls, settings, [c["chunk_type"] for c in report["chunks"]]),
            # what cut the stored chunks, not what would cut them now
            "implementation": (report.get("strategy") or {}).get("implementation")}
    if "labels" not in report:  # stored before labels were placed on the server
        report["labels"] = labels.place_all(report)
    report.update({"chunking_strategy": strategy, "strategy": about})
    return report


def stored_state(kb: Knowledgebase, doc: dict[str, Any]) -> dict[str, Any]:
    """What of the stored report is the document's state now, and where it is kept."""
    return {
        "knowledgebase": {"id": kb.id, "name": kb.name},
        "state": doc["state"], "progress": doc["progress"], "error": doc["error"],
        "preview": False,
    }

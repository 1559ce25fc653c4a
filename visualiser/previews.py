"""Every registered strategy's report of a stored document at its default parameters,
computed in the background once the document is processed and kept beside its PDF,
so that switching strategy in the viewer reads a file instead of chunking 600 pages.

A report is kept in `<pdfs>/<sha256>/previews/<strategy>-<key>.report` (packed JSON,
`visualiser.packed`), removed with the PDF when no knowledgebase holds it any more. The
key covers everything the report depends on: the document's name (the report says
it), the layout options (engine, its version, OCR), the strategy's default settings,
what implements it (a library installed or not) and this program's own source (a
changed strategy or analysis makes new reports, never serves old ones). A report
that is missing — not computed yet, or a file of an older key — is computed on
demand as before, and kept.

The computation goes through the job machinery of processing (`web.jobs.Processor`,
`workers.run_preview`), one job per strategy, after and below every document waiting
to be processed.
"""

from __future__ import annotations

import hashlib
import json
import logging
from functools import cache
from pathlib import Path

from visualiser import packed
from visualiser.errors import NotFound, VisualiserError
from visualiser.files import source_digest
from visualiser.layout import LayoutOptions
from visualiser.packed import Packed
from visualiser.strategies import STRATEGIES, Strategy

log = logging.getLogger(__name__)

FOLDER = "previews"
SUFFIX = ".report"
_PACKAGE = Path(__file__).resolve().parent


@cache
def code_digest() -> str:
    """A digest of this program's Python source: reports made by other code are other
    reports. Read once per process (a few milliseconds)."""
    return source_digest(_PACKAGE.rglob("*.py"), _PACKAGE)


def file_path(folder: Path, name: str, options: LayoutOptions, cls: type[Strategy]) -> Path:
    """Where the default-parameter report of `cls` on the document kept in `folder` (its
    document folder beside the PDF) is kept."""
    key = json.dumps([code_digest(), name, options.key(), cls.name,
                      sorted(cls.settings().items()), cls.implementation_key()],
                     default=str)
    return folder / FOLDER / f"{cls.name}-{hashlib.sha256(key.encode()).hexdigest()[:20]}{SUFFIX}"


def is_default(cls: type[Strategy], settings: dict[str, object]) -> bool:
    return settings == cls.settings()


def read(path: Path) -> Packed | None:
    return packed.read_file(path)


def write(path: Path, report: Packed) -> bool:
    """Keep a report (see `packed.write_file`), and drop the same strategy's older ones."""
    if not packed.write_file(path, report):
        return False
    remove_stale(path.parent, path)
    return True


def remove_stale(folder: Path, kept: Path) -> None:
    """Reports of the same strategy under older keys (older code, another layout engine
    version) will not be read again: they go when a new one is kept."""
    prefix = kept.name.rsplit("-", 1)[0] + "-"
    for other in folder.glob(f"{prefix}*{SUFFIX}"):
        if other != kept and other.name.rsplit("-", 1)[0] + "-" == prefix:
            other.unlink(missing_ok=True)


def status(folder: Path, name: str, options: LayoutOptions) -> dict[str, bool]:
    """Strategy name → is its default report kept (a switch to it reads a file)?"""
    return {cls.name: file_path(folder, name, options, cls).is_file()
            for cls in STRATEGIES.values()}


def missing(folder: Path, name: str, options: LayoutOptions) -> list[str]:
    return [strategy for strategy, ready in status(folder, name, options).items()
            if not ready]


def precompute(store: object, library: object, kb_id: int, doc_id: str,
               strategy: str) -> str:
    """Compute and keep one strategy's default report of a stored document that is ready
    (what `Library.report` does on demand, without its time budget: nobody waits for
    it). Never raises; returns what happened, for the log and the tests."""
    from visualiser.library import Library
    from visualiser.store import Store

    assert isinstance(store, Store) and isinstance(library, Library)
    try:
        doc = store.document(kb_id, doc_id)
        if doc["state"] != "ready":
            return f"skipped: {doc['state']}"
        cls = STRATEGIES.get(strategy)
        if cls is None:
            return "skipped: no such strategy"
        options = store.knowledgebase(kb_id).layout_options
        folder = store.document_folder(doc_id)
        if file_path(folder, doc["name"], options, cls).is_file():
            return "kept already"
        entry = library.stored_entry(doc_id, doc["name"], store.pdf_path(doc_id), folder)
        library.report(entry, strategy, {}, options, time_budget=None)
        return "computed"
    except NotFound:
        return "deleted"
    except VisualiserError as error:  # a strategy that refuses this document: on demand
        return f"not kept: {error.message}"  # it says the same, as it does today
    except OSError as error:
        return f"not kept: {error}"
    except Exception as error:  # a bug in one strategy must not stop the others
        log.exception("precomputing %s of %s failed", strategy, doc_id)
        return f"failed: {error}"

"""Reading a long document in turns on the queue workers, so that small documents never
wait behind it.

Small and long documents go to two queues and every worker takes the small ones first
(`workers.Queues`). That alone is not enough: a 600-page document a worker has begun
holds that worker for half a minute. So a worker reads a long document's pages in
turns: after a turn of at least TURN_SECONDS it looks whether small documents are
waiting, and if so it saves the pages read so far beside the PDF in the shared data
folder (written to a temporary file, then renamed: a reader sees all or nothing),
hands the document back to the queue (`Store.hand_back`: no attempt spent, no sweep
takes it) and queues its next turn. Whichever worker takes that turn loads the pages
and reads on; the last turn makes the layout from every page and chunks it as a whole,
so the chunks are those of one uninterrupted run.

Only the builtin engine, which reads each page on its own, is read in turns, and only
by a worker reading in one process (`--layout-workers 1`); the pymupdf-layout engine
finishes its pages together.
"""

from __future__ import annotations

import hashlib
import logging
import os
import pickle
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pymupdf

from visualiser.layout import LayoutOptions
from visualiser.layout.items import PageRead
from visualiser.layout.pages import read_page
from visualiser.mupdf import LOCK

log = logging.getLogger(__name__)

LONG_PAGES = 100  # from this many pages a document is long: its own queue, read in turns
TURN_SECONDS = 2.0  # the least a turn reads before it may make room for small documents
TURN_ENGINES = frozenset({"builtin"})  # engines whose pages are read one by one


def takes_turns(options: LayoutOptions, page_count: int) -> bool:
    return (page_count >= LONG_PAGES and options.engine in TURN_ENGINES
            and options.workers < 2)


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """The pages of one document read so far, for one knowledgebase's layout options.
    Only the product's own processes write the data folder, so unpickling is safe."""

    path: Path

    @classmethod
    def of(cls, folder: Path, kb_id: int, options: LayoutOptions) -> Checkpoint:
        key = hashlib.sha256(options.key().encode()).hexdigest()[:16]
        return cls(folder / f"pages-{kb_id}-{key}.pickle")

    def load(self) -> list[PageRead]:
        try:
            with self.path.open("rb") as handle:
                pages = pickle.load(handle)
        except FileNotFoundError:
            return []
        except Exception:  # unreadable (another version wrote it): read from the start
            log.warning("ignoring the unreadable checkpoint %s", self.path)
            return []
        return pages if isinstance(pages, list) else []

    def save(self, pages: list[PageRead]) -> None:
        tmp = self.path.with_name(f"{self.path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        with tmp.open("wb") as handle:
            pickle.dump(pages, handle, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, self.path)

    def remove(self) -> None:
        self.path.unlink(missing_ok=True)


def read_turn(data: bytes, pages: list[PageRead], options: LayoutOptions,
              should_pause: Callable[[], bool],
              progress: Callable[[int, int], None]) -> bool:
    """Read on after `pages` (appending to it): True once every page is read, False
    when the turn stopped early because `should_pause` said so after TURN_SECONDS."""
    with LOCK:
        doc = pymupdf.open(stream=data, filetype="pdf")
    try:
        total = doc.page_count
        started = time.monotonic()
        for number in range(len(pages), total):
            with LOCK:  # one page at a time, as `pages._read_here` does
                pages.append(read_page(doc[number], options))
            progress(len(pages), total)
            if (len(pages) < total and time.monotonic() - started >= TURN_SECONDS
                    and should_pause()):
                return False
        return True
    finally:
        with LOCK:
            doc.close()

"""Reading a long document in turns on the queue workers, so that small documents never
wait behind it.

Small and long documents go to two queues and every worker takes the small ones first
(`workers.Queues`). That alone is not enough: a 600-page document a worker has begun
holds that worker for half a minute. So a worker reads a long document's pages in
turns: after a turn of at least TURN_SECONDS it looks whether small documents are
waiting (and no other worker is free for them, `workers.Presence`), and if so it saves
the pages this turn read beside the PDF in the shared data folder (written to a
temporary file, then renamed: a reader sees all or nothing), hands the document back
to the queue (`Store.hand_back`: no attempt spent, no sweep takes it) and queues its
next turn. Whichever worker takes that turn loads the pages
and reads on; the last turn makes the layout from every page and chunks it as a whole,
so the chunks are those of one uninterrupted run.

Only the builtin engine, which reads each page on its own, is read in turns, and only
by a worker reading in one process (`--layout-workers 1`); the pymupdf-layout engine
finishes its pages together.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pymupdf

from visualiser.layout import LayoutOptions
from visualiser.layout.engines import layout_code_digest
from visualiser.layout.items import PageRead
from visualiser.layout.pages import read_page
from visualiser.mupdf import LOCK, summarise, take_messages

# From this many pages a document is long: its own queue, read in turns. Every web
# process and worker must agree: set VISUALISER_LONG_PAGES alike for all (a huge value
# gives one first-come-first-served queue of whole documents).
LONG_PAGES = int(os.environ.get("VISUALISER_LONG_PAGES") or 100)
TURN_SECONDS = 2.0  # the least a turn reads before it may make room for small documents
TURN_ENGINES = frozenset({"builtin"})  # engines whose pages are read one by one


def takes_turns(options: LayoutOptions, page_count: int) -> bool:
    return (page_count >= LONG_PAGES and options.engine in TURN_ENGINES
            and options.workers < 2)


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """The pages of one document read so far, for one knowledgebase's layout options:
    a file per turn (`<name>-<first>-<end>.pickle`), so a turn writes only the pages it
    read (a 619-page document's pages pickle to about 20 MB, seconds to write and read).
    Pickles: safe to load while only the product's own processes can write the data
    folder (which must hold anyway: they could replace the PDFs)."""

    folder: Path
    name: str

    @classmethod
    def of(cls, folder: Path, kb_id: int, options: LayoutOptions) -> Checkpoint:
        # pages read by other code are not read on (a worker upgraded between turns)
        key = hashlib.sha256((options.key() + layout_code_digest()).encode()).hexdigest()[:16]
        return cls(folder, f"pages-{kb_id}-{key}")

    def _parts(self) -> list[tuple[int, int, Path]]:
        """The turns saved, in page order, as far as they run on from page 0."""
        parts = []
        for path in self.folder.glob(f"{self.name}-*-*.pickle"):
            first, _, end = path.stem[len(self.name) + 1:].partition("-")
            if first.isdigit() and end.isdigit():
                parts.append((int(first), int(end), path))
        chain, reached = [], 0
        for first, end, path in sorted(parts):
            if first == reached and end > first:
                chain.append((first, end, path))
                reached = end
        return chain

    def pages_saved(self) -> int:
        parts = self._parts()
        return parts[-1][1] if parts else 0

    def save(self, first: int, pages: list[PageRead]) -> None:
        """Keep pages `first`… of a turn: written whole to a temporary file, renamed."""
        path = self.folder / f"{self.name}-{first:05d}-{first + len(pages):05d}.pickle"
        tmp = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        with tmp.open("wb") as handle:
            pickle.dump(pages, handle, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)

    def load(self) -> list[PageRead]:
        pages: list[PageRead] = []
        for _, _, path in self._parts():
            with path.open("rb") as handle:
                pages.extend(pickle.load(handle))
        return pages

    def remove(self) -> None:
        """Every turn saved, and what a worker killed while saving left half-written."""
        for path in self.folder.glob(f"{self.name}-*.pickle*"):
            path.unlink(missing_ok=True)


def read_turn(data: bytes, first: int, options: LayoutOptions,
              should_pause: Callable[[], bool],
              progress: Callable[[int, int], None]) -> tuple[list[PageRead], bool]:
    """Read on from page index `first`: the pages read, and True once the last page is
    read, False when the turn stopped early because `should_pause` said so after
    TURN_SECONDS."""
    pages: list[PageRead] = []
    with LOCK:
        doc = pymupdf.open(stream=data, filetype="pdf")
        # Not ours: earlier work's, and what opening says (a repair), which the last
        # turn's `process_pdf` opening the file says again.
        take_messages()
    try:
        total = doc.page_count
        started = time.monotonic()
        for number in range(first, total):
            with LOCK:  # one page at a time, as `pages._read_here` does
                pages.append(read_page(doc[number], options))
            progress(number + 1, total)
            if (number + 1 < total and time.monotonic() - started >= TURN_SECONDS
                    and should_pause()):
                return pages, False
        return pages, True
    finally:
        with LOCK:
            doc.close()
            # What MuPDF said while reading pages (a broken content stream) goes with
            # the turn's last page, so the layout's warnings keep it across turns
            # (counted per turn, where one uninterrupted run counts them once).
            said = summarise(take_messages())
        if pages:
            pages[-1].warnings.extend(said)

"""The splitter libraries themselves, when installed, and their chunks mapped back to
the markdown.

LangChain's and LlamaIndex's splitters return plain strings. When the library
imports (the `[langchain]` and `[llamaindex]` extras install it) the reference
strategies run it and find each chunk in the markdown; otherwise they run our port
(`*_split.py`), which works in offsets from the start and is tested to equal the
pinned version chunk for chunk. The report says which ran: "LangChain 1.1.3" or
"port equal to LangChain 1.1.3".

A chunk is found by forward search, from where the previous chunk allows it to start,
so repeated text is matched in reading order, and `str.find` guarantees
`text[start:end] == chunk`. A splitter that rewrites text (MarkdownHeaderTextSplitter
strips lines and joins blocks with "  \\n") is followed line by line; a chunk whose
lines cannot all be found as whole lines is placed by its words (`word_align.py`).
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import metadata
from types import ModuleType
from typing import ClassVar

from visualiser.markdown import SourceMarkdown, Traced
from visualiser.word_align import WordAligner

log = logging.getLogger(__name__)

Span = tuple[int, int]


@dataclass(frozen=True, slots=True)
class SplitterLibrary:
    name: str  # as reports name it
    distribution: str  # the package whose version is reported
    module: str
    ported: str  # the version the port reproduces (the test extra pins it)

    def load(self) -> ModuleType | None:
        """The library's module, or None when it is not installed (or does not import:
        a broken installation falls back to the port, said once in the log)."""
        try:
            return importlib.import_module(self.module)
        except ImportError:
            return None
        except Exception:
            _warn_once(self.module)
            return None

    def installed(self) -> str:
        """What is installed, read from the package metadata without importing it (an
        installed library runs unless its import fails, which `implementation` says)."""
        version = _installed_version(self.distribution)
        return f"{self.name} {version}" if version else f"port equal to {self.name} {self.ported}"

    def implementation(self) -> str:
        """What runs: "LangChain 1.1.3" or "port equal to LangChain 1.1.3"."""
        if self.load() is None:
            return f"port equal to {self.name} {self.ported}"
        return f"{self.name} {_version(self.distribution)}"


class RunsLibrary:
    """For a strategy (put before `Strategy` in its bases) that runs `library` when it
    imports: the report names what runs."""

    library: ClassVar[SplitterLibrary]

    @classmethod
    def implementation(cls) -> str:
        return cls.library.implementation()

    @classmethod
    def implementation_key(cls) -> str:
        return cls.library.installed()


LANGCHAIN = SplitterLibrary("LangChain", "langchain-text-splitters", "langchain_text_splitters",
                            "1.1.3")
LLAMAINDEX = SplitterLibrary("LlamaIndex", "llama-index-core", "llama_index.core.node_parser",
                             "0.14.25")


@cache
def _version(distribution: str) -> str:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:  # importable but not installed as a package
        return "(version unknown)"


@cache
def _installed_version(distribution: str) -> str | None:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return None


@cache
def _warn_once(module: str) -> None:
    log.warning("%s is installed but does not import; its port runs instead", module,
                exc_info=True)


def forward_spans(text: str, chunks: Sequence[str], overlap: int | None = None
                  ) -> list[Span | None]:
    """Where each chunk lies in `text`, placed as the library itself places them: the
    first match after the previous chunk's start (LlamaIndex's node offsets), or, for
    a splitter whose overlap is a number of characters, at or after the previous
    chunk's end less that overlap (LangChain's `start_index`). None when absent.

    Text repeated within a window's reach is ambiguous to any search: there the
    chunk is placed on the earliest copy, as the library would place it."""
    spans: list[Span | None] = []
    previous: Span | None = None
    for chunk in chunks:
        if previous is None:
            cursor = 0
        elif overlap is None:
            cursor = previous[0] + 1
        else:
            cursor = max(0, previous[1] - overlap)
        at = text.find(chunk, cursor) if chunk else -1
        if at == -1 and previous is not None:
            at = text.find(chunk, previous[0]) if chunk else -1
        if at == -1:
            spans.append(None)
            continue
        previous = (at, at + len(chunk))
        spans.append(previous)
    return spans


def slices(source: SourceMarkdown, chunks: Sequence[str], overlap: int | None = None
           ) -> Iterator[Traced]:
    """The chunks of a splitter that cuts without rewriting, as slices of the markdown
    (placed by their words should one not be found, which the oracle tests rule out).
    `overlap`: as for `forward_spans`."""
    aligner: WordAligner | None = None
    for chunk, span in zip(chunks, forward_spans(source.text, chunks, overlap), strict=True):
        if span is not None:
            yield source.traced(*span)
            continue
        aligner = aligner or WordAligner(source)
        yield aligner.traced(chunk)[0]


def rewritten(source: SourceMarkdown, chunks: Sequence[str]) -> Iterator[Traced]:
    """The chunks of a splitter that strips lines and joins them anew: each line found
    as a whole line of the markdown, in order; a chunk with a line that is not (its
    characters changed) placed by its words."""
    aligner: WordAligner | None = None
    cursor = 0
    for chunk in chunks:
        found = _by_lines(source, chunk, cursor)
        if found is not None:
            traced, cursor = found
            yield traced
            continue
        aligner = aligner or WordAligner(source)
        yield aligner.traced(chunk)[0]


def _by_lines(source: SourceMarkdown, chunk: str, cursor: int) -> tuple[Traced, int] | None:
    parts: list[Traced] = []
    for n, line in enumerate(chunk.split("\n")):
        if n:
            parts.append(Traced.synthetic("\n"))
        core = line.strip()
        if not core:
            parts.append(Traced.synthetic(line))
            continue
        at = _whole_line(source.text, core, cursor)
        if at is None:
            return None
        lead = line.index(core)
        parts += [Traced.synthetic(line[:lead]), source.traced(at, at + len(core)),
                  Traced.synthetic(line[lead + len(core):])]
        cursor = at + len(core)
    return Traced.join("", parts), cursor


def _whole_line(text: str, core: str, start: int) -> int | None:
    """The first place at or after `start` where `core` is a whole line of `text` up
    to surrounding whitespace (so "Intro" is not found inside "# Intro")."""
    at = text.find(core, start)
    while at != -1:
        line_start = text.rfind("\n", 0, at) + 1
        line_end = text.find("\n", at + len(core))
        line_end = len(text) if line_end == -1 else line_end
        if not text[line_start:at].strip() and not text[at + len(core):line_end].strip():
            return at
        at = text.find(core, at + 1)
    return None

"""Shared pieces of the reference splitters: spans, cached token counts, window origins.

The reference splitters all cut a text into pieces that tile it (every separator is
kept with a piece), merge runs of neighbouring pieces into chunks and strip each
chunk. So a chunk is a span of the source, and we can work in offsets throughout and
build `Traced` text only once per chunk, which keeps provenance exact and cheap.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from visualiser.markdown import SourceMarkdown, Traced
from visualiser.strategies.base import Chunk, Context, Param, Rule, window_overlap
from visualiser.tokenizers import ENCODINGS, get_encoding

Span = tuple[int, int]
_CACHED_UP_TO = 64  # characters; short pieces (words, phrases) repeat a lot

# Character splitters never count tokens; the viewer still shows each chunk's count.
COUNTING_TOKENIZER = Param("tokenizer", "choice", "cl100k_base",
                           "tiktoken encoding for the token counts shown (not used to cut)",
                           choices=ENCODINGS)


def _window_why(o: Mapping[str, Any], c: Context) -> str:
    """The reference splitters' windows: sizes in tokens or characters."""
    unit = o["unit"]
    text = (f"Window {o['window']} of {o['of']}: {c.tokens} tokens, from a splitter that "
            f"fills chunks up to {o['size']} {unit}")
    if o["of"] > 1 and o["overlap"]:
        text += f" and repeats up to {o['overlap']} {unit} of each neighbour on purpose"
    if o.get("inside_previous"):
        text += ". It is the tail of the text and lies wholly inside the previous window"
    return text + "."


WINDOW = Rule("window", _window_why, window_overlap, window=True)


@dataclass(slots=True)
class Piece:
    """`text[start:end]` and its token count (or length), counted once."""

    start: int
    end: int
    size: int


class TokenCounter:
    """Counts tokens the way LlamaIndex does (special tokens allowed), with a cache.

    The splitters count every piece on its own, often the same word thousands of
    times; caching short pieces makes a 600-page document cheap.
    """

    def __init__(self, encoding: str) -> None:
        self._encode = get_encoding(encoding).encode
        self._cache: dict[str, int] = {}
        self._tokens: dict[str, list[int]] = {}

    def __call__(self, text: str) -> int:
        if len(text) > _CACHED_UP_TO:
            return len(self._encode(text, allowed_special="all"))
        count = self._cache.get(text)
        if count is None:
            count = self._cache[text] = len(self._encode(text, allowed_special="all"))
        return count

    def tokens(self, text: str) -> list[int]:
        """The tokens themselves, short pieces' cached the same way: the tokenizer to
        hand a library that counts by `len(tokenizer(text))` (LlamaIndex's splitters)."""
        if len(text) > _CACHED_UP_TO:
            return self._encode(text, allowed_special="all")
        tokens = self._tokens.get(text)
        if tokens is None:
            tokens = self._tokens[text] = self._encode(text, allowed_special="all")
        return tokens


def split_keeping_separator(text: str, start: int, end: int, separator: str) -> list[Span]:
    """Spans of `text[start:end]` split on `separator`, each separator kept at the start
    of the piece that follows it, empty pieces dropped (so the spans tile the text)."""
    bounds = [start]
    at = text.find(separator, start, end)
    while at != -1:
        bounds.append(at)
        at = text.find(separator, at + len(separator), end)
    bounds.append(end)
    return [(a, b) for a, b in zip(bounds, bounds[1:], strict=False) if b > a]


def overlap_banner(template: str, overlap: int) -> str | None:
    """A banner naming the overlap in force; none when nothing overlaps on purpose."""
    return template.format(overlap=overlap) if overlap else None


def characters(start: int, end: int) -> list[Span]:
    return [(i, i + 1) for i in range(start, end)]


def traced_span(source: SourceMarkdown, spans: Sequence[Span]) -> Traced:
    """The stripped text of pieces joined with nothing, positions intact. Neighbouring
    pieces are adjacent in the source, so this is usually one slice."""
    runs: list[list[int]] = []
    for start, end in spans:
        if runs and runs[-1][1] == start:
            runs[-1][1] = end
        else:
            runs.append([start, end])
    if len(runs) == 1:
        return source.traced(*runs[0]).strip()
    return Traced.join("", [source.traced(a, b) for a, b in runs]).strip()


def window_chunks(texts: Iterable[Traced], size: int, overlap: int, unit: str) -> list[Chunk]:
    """Chunks for a run of overlapping windows, empty ones dropped, each with an origin
    saying which window it is; a window lying wholly inside the one before it (a fixed
    splitter's tail) says so."""
    kept = [t for t in texts if t.text]
    chunks = []
    for number, text in enumerate(kept, start=1):
        origin: dict[str, Any] = {"rule": "window", "window": number, "of": len(kept),
                                  "size": size, "overlap": overlap, "unit": unit}
        if number > 1 and _inside(text, kept[number - 2]):
            origin["inside_previous"] = True
        chunks.append(Chunk(text, "text", origin=origin))
    return chunks


def _inside(text: Traced, previous: Traced) -> bool:
    first, last = _source_range(text)
    outer_first, outer_last = _source_range(previous)
    return first >= 0 and outer_first <= first and last <= outer_last


def _source_range(text: Traced) -> tuple[int, int]:
    known = [p for p in (text.pos[0], text.pos[-1]) if p >= 0]
    return (known[0], known[-1]) if known else (-1, -1)

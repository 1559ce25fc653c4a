"""Chunks produced elsewhere, aligned back to the page.

A pipeline under investigation has its own chunks: a JSON or JSONL file of plain
strings, LangChain documents (`page_content` + `metadata`), LlamaIndex nodes (`text`)
or our own export. Their text came from some other PDF extractor, so it will not
match our markdown character for character. We align by words: both sides become
sequences of normalised words, anchors (word 4-grams seen once in the document)
place each chunk roughly, and a sequence match inside that stretch pairs chunk words
with document words. Each paired word gives the chunk provenance — the same kind our
own strategies carry — so regions, overlaps and containment work unchanged.
"""

from __future__ import annotations

import json
import re
from array import array
from bisect import bisect_left
from collections.abc import Mapping
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any

from visualiser.errors import BadImport
from visualiser.markdown import SYNTHETIC, SourceMarkdown, Traced
from visualiser.strategies.base import Chunk, Context, Neighbour, Rule, register_rule

_WORD = re.compile(r"\w+", re.UNICODE)
_ANCHOR = 4  # words per anchor n-gram
_KNOWN_TYPES = {"text", "table", "table_context", "table_full", "list", "image", "code"}


@dataclass(frozen=True, slots=True)
class ImportedChunk:
    text: str
    chunk_type: str = "text"
    metadata: dict[str, Any] | None = None


def _imported_why(o: Mapping[str, Any], c: Context) -> str:
    found = f"{o['aligned']:.0%} of its words were found on the page"
    if o["aligned"] < 0.5:
        found += ", too few to trust its boxes: its text may come from another document"
    return f"Imported chunk {o['number']}, made by another pipeline; {found}."


def _imported_shares(mine: Neighbour, other: Neighbour) -> str | None:
    """The other pipeline's types are all we know: a whole-table copy or a context chunk
    repeats on purpose; otherwise neighbours sharing words are that pipeline's overlap."""
    for kind in ("table_full", "table_context"):
        if kind in (mine.kind, other.kind):
            return kind
    return "overlap_window" if other.origin.get("rule") == IMPORTED.name else None


IMPORTED = register_rule(Rule("imported", _imported_why, _imported_shares, window=True))


def parse_chunks(data: bytes) -> list[ImportedChunk]:
    """Read a JSON array, a JSON object with "chunks", or JSONL, in any of the shapes
    named above. Raises BadImport naming the item that is not understood."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise BadImport("the chunks file is not UTF-8 text") from None
    try:
        payload: Any = json.loads(text)
    except ValueError:
        try:
            payload = [json.loads(line) for line in text.splitlines() if line.strip()]
        except ValueError as exc:
            raise BadImport(f"neither JSON nor JSON Lines: {exc}") from None
    if isinstance(payload, dict) and isinstance(payload.get("chunks"), list):
        payload = payload["chunks"]  # our own export (the chunks JSON)
    if not isinstance(payload, list) or not payload:
        raise BadImport("expected a non-empty list of chunks")
    return [_one(item, n) for n, item in enumerate(payload)]


def _one(item: Any, n: int) -> ImportedChunk:
    if isinstance(item, str):
        return ImportedChunk(item)
    if isinstance(item, dict):
        for key in ("page_content", "text", "content"):  # LangChain, LlamaIndex/ours, LightRAG
            if isinstance(item.get(key), str):
                kind = item.get("chunk_type") or (item.get("metadata") or {}).get("chunk_type")
                return ImportedChunk(item[key], kind if kind in _KNOWN_TYPES else "text",
                                     item.get("metadata") if isinstance(item.get("metadata"),
                                                                        dict) else None)
    raise BadImport(f"chunk {n} has no text: expected a string or an object with "
                    "page_content, text or content")


def _normal(word: str) -> str:
    return word.casefold()


class _DocumentWords:
    """The markdown's words (from the layout), in order, with an anchor index."""

    def __init__(self, source: SourceMarkdown) -> None:
        self.source = source
        self.words: list[str] = []
        self.offsets: list[tuple[int, int]] = []  # markdown span of each word
        for match in _WORD.finditer(source.text):
            if source.word_at[match.start()] != SYNTHETIC:
                self.words.append(_normal(match.group()))
                self.offsets.append(match.span())
        self.anchors: dict[tuple[str, ...], int] = {}
        seen_twice: set[tuple[str, ...]] = set()
        for i in range(len(self.words) - _ANCHOR + 1):
            gram = tuple(self.words[i : i + _ANCHOR])
            if gram in self.anchors:
                seen_twice.add(gram)
            self.anchors[gram] = i
        for gram in seen_twice:  # an anchor must say where, so it must be unique
            del self.anchors[gram]


def align(source: SourceMarkdown, chunks: list[ImportedChunk]) -> list[Chunk]:
    """Chunks whose traced text points at the document words they were matched to."""
    doc = _DocumentWords(source)
    return [_align_one(doc, chunk, n) for n, chunk in enumerate(chunks)]


def _align_one(doc: _DocumentWords, chunk: ImportedChunk, number: int) -> Chunk:
    found = list(_WORD.finditer(chunk.text))
    words = [_normal(m.group()) for m in found]
    pos = array("i", [SYNTHETIC]) * len(chunk.text)
    matched = 0
    span = _locate(doc, words)
    if span is not None:
        start, stop = span
        matcher = SequenceMatcher(None, words, doc.words[start:stop], autojunk=False)
        for block in matcher.get_matching_blocks():
            for k in range(block.size):
                here = found[block.a + k]
                there = doc.offsets[start + block.b + k]
                _point(pos, here.span(), there)
                matched += 1
    share = matched / len(words) if words else 0.0
    origin = {"rule": "imported", "number": number, "aligned": round(share, 3),
              "metadata": chunk.metadata or {}}
    return Chunk(Traced(chunk.text, pos), chunk.chunk_type, (), origin)  # type: ignore[arg-type]


def _locate(doc: _DocumentWords, words: list[str]) -> tuple[int, int] | None:
    """The stretch of document words the chunk most likely came from."""
    hits = []
    for i in range(len(words) - _ANCHOR + 1):
        at = doc.anchors.get(tuple(words[i : i + _ANCHOR]))
        if at is not None:
            hits.append(at - i)  # where the chunk would start if this anchor is right
    if not hits:
        return None
    hits.sort()
    # The densest cluster of implied starts wins (anchors from a repeated passage
    # elsewhere land far from the rest).
    slack = max(8, len(words) // 10)
    best_lo, best_count = hits[0], 0
    for lo in hits:
        count = bisect_left(hits, lo + slack) - bisect_left(hits, lo)
        if count > best_count:
            best_lo, best_count = lo, count
    start = max(0, best_lo - slack)
    return start, min(len(doc.words), best_lo + len(words) + 2 * slack)


def _point(pos: array, here: tuple[int, int], there: tuple[int, int]) -> None:
    """Point the characters of a chunk word at the document word it matched."""
    length = there[1] - there[0]
    for k, i in enumerate(range(*here)):
        pos[i] = there[0] + min(k, length - 1)

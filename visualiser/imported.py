"""Chunks produced elsewhere, aligned back to the page.

A pipeline under investigation has its own chunks: a JSON or JSONL file of plain
strings, LangChain documents (`page_content` + `metadata`), LlamaIndex nodes (`text`)
or our own export. Their text came from some other PDF extractor, so it will not
match our markdown character for character, so each is placed by its words
(`word_align.py`): each paired word gives the chunk provenance — the same kind our
own strategies carry — so regions, overlaps and containment work unchanged.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from visualiser.errors import BadImport
from visualiser.markdown import SourceMarkdown
from visualiser.strategies.base import Chunk, Context, Neighbour, Rule, register_rule
from visualiser.word_align import WordAligner

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


def align(source: SourceMarkdown, chunks: list[ImportedChunk]) -> list[Chunk]:
    """Chunks whose traced text points at the document words they were matched to."""
    aligner = WordAligner(source)
    return [_align_one(aligner, chunk, n) for n, chunk in enumerate(chunks)]


def _align_one(aligner: WordAligner, chunk: ImportedChunk, number: int) -> Chunk:
    traced, share = aligner.traced(chunk.text)
    origin = {"rule": "imported", "number": number, "aligned": round(share, 3),
              "metadata": chunk.metadata or {}}
    return Chunk(traced, chunk.chunk_type, (), origin)  # type: ignore[arg-type]

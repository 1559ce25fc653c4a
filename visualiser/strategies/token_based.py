"""`token_based`: LightRAG's token windows, made table-aware.

Prose is cut into fixed token windows. Each markdown table (with the heading or
caption just above it and a footnote just below) becomes a chunk of its own; a table
too big for one chunk is split by rows with the header row repeated, plus a
`table_full` chunk holding all of it. Finally every `table` chunk gets a
`table_context` twin: the nearest prose chunk before it, the table, and the nearest
prose chunk after it, joined by blank lines — a retrieval aid that overlaps its
neighbours on purpose.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from visualiser.markdown import SourceMarkdown, Traced
from visualiser.strategies.base import (
    EMBEDDING_LIMIT,
    TOKENIZER,
    BannerParts,
    Chunk,
    Context,
    Neighbour,
    Param,
    Rule,
    Strategy,
    register,
    window_overlap,
)
from visualiser.strategies.table_split import (
    MarkdownTable,
    prose_windows,
    split_tables,
    strip_separator_rows,
    table_chunks,
)
from visualiser.tokenizers import count_tokens


def _window_why(o: Mapping[str, Any], c: Context) -> str:
    text = (f"Token window {o['window']} of {o['of']} over the text between tables: "
            f"{c.tokens} tokens of a {o['size']}-token budget")
    if o["of"] > 1 and o["overlap"]:
        text += f", sharing up to {o['overlap']} tokens with its neighbours on purpose"
    if o["window"] == o["of"] > 1 and c.tokens <= o["overlap"]:
        text += ". It is the tail of the text and lies wholly inside the previous window"
    return text + "."


def _part_why(o: Mapping[str, Any], c: Context) -> str:
    return (f"Part {o['part']} of {o['of']} of a table too big for one chunk "
            f"(over {o['limit']} tokens); the header row is repeated so the numbers keep "
            "their column names.")


def _same_table_parts(mine: Neighbour, other: Neighbour) -> str | None:
    """Parts of one table repeat its header row on purpose."""
    same = other.origin.get("rule") == "table_part" and (
        other.origin.get("table") == mine.origin.get("table"))
    return "repeated_header" if same else None


def _full_why(o: Mapping[str, Any], c: Context) -> str:
    return (f"The whole table in one chunk, kept alongside its {o['parts']} split parts "
            f"because it fits under the {EMBEDDING_LIMIT:,}-token embedding limit.")


def _holds_its_parts(mine: Neighbour, other: Neighbour) -> str | None:
    return "table_full" if other.origin.get("table") == mine.origin.get("table") else None


def _context_why(o: Mapping[str, Any], c: Context) -> str:
    names = " + ".join(("table chunk" if i == o["table_chunk"] else "chunk") + f" {i}"
                       for i in o["sources"])
    return (f"Context chunk = {names}, joined so a question asked in words can find the "
            "table. It repeats them on purpose, so its box spans theirs.")


TOKEN_WINDOW = Rule("token_window", _window_why, window_overlap, window=True)
# The prose windows' parameters, LightRAG's names and defaults (table_header_aware too)
PROSE_WINDOW = Param("chunk_token_size", "int", 1200, "tokens per prose window", 16, 100_000)
PROSE_OVERLAP = Param("chunk_overlap_token_size", "int", 100,
                      "tokens each prose window shares with the next", 0, 99_999)
WHOLE_TABLE = Rule("table", lambda o, c: (
    "The table as one chunk, with the heading or caption above it and any footnote."))
TABLE_PART = Rule("table_part", _part_why, _same_table_parts)
TABLE_FULL = Rule("table_full", _full_why, _holds_its_parts)
# A context chunk repeats its neighbours (and its table) by definition.
TABLE_CONTEXT = Rule("table_context", _context_why, lambda mine, other: "table_context")


@register
class TokenBased(Strategy):
    name = "token_based"
    label = "Token windows, table-aware (LightRAG)"
    explanation = (
        "Cuts prose into fixed windows of tokens that overlap a little, the way LightRAG "
        "does. Each table becomes a chunk of its own, with its title; large tables are "
        "split by rows with the header row repeated. Each table also gets a second, "
        "context chunk: the text before it, the table and the text after it."
    )
    # The banner for a document (banner_for_document) fills these in; `banner` itself,
    # shown before a document is chunked, speaks of tables in general.
    _intro = "This document is chunked by token count. "
    _context = ("{count} — {numbers} — {repeat} on purpose: {each} a table with the text just "
                "before and after it, so a question asked in words can still find the numbers; "
                "{boxes}. ")
    _default = ("New knowledgebases use structure-aware chunking by default: it follows the "
                "document's layout, so each chunk maps to one region of the page.")
    banner = (
        _intro + "Besides its own chunk, every table gets a context chunk that joins the table "
        "with the text just before and after it, so a question asked in words can still find "
        "the numbers. That chunk repeats its neighbours on purpose, which is why its box spans "
        "theirs. " + _default
    )
    short_banner = ("This document is chunked by token count; it has no table-context chunk "
                    "(no table with text beside it), so no box spans others on purpose.")
    sizing = ("chunk_token_size", "chunk_overlap_token_size", "tokens")
    rules = (TOKEN_WINDOW, WHOLE_TABLE, TABLE_PART, TABLE_FULL, TABLE_CONTEXT)
    params = (
        PROSE_WINDOW,
        PROSE_OVERLAP,
        Param("max_table_token_size", "int", None,
              "tables above this many tokens are split by rows (empty: twice the chunk size)",
              16, 100_000, optional=True),
        Param("table_context", "bool", True,
              "add a context chunk (previous text + table + next text) for every table"),
        TOKENIZER,
    )

    @classmethod
    def banner_for(cls, settings: dict[str, Any]) -> str | None:
        if settings["table_context"]:
            return cls.banner
        overlap = settings["chunk_overlap_token_size"]
        if not overlap:
            return None
        return (f"This document is chunked by token count, with table context chunks switched "
                f"off. Neighbouring text chunks share up to {overlap} tokens on purpose, so "
                "their boxes overlap where one window ends and the next begins.")

    @classmethod
    def banner_for_document(cls, settings: dict[str, Any],
                            figures: Mapping[str, list[int]]) -> BannerParts | None:
        """Names this document's table-context chunks, or says in one line that it has
        none (a reader should not look for boxes that are not there)."""
        if not settings["table_context"]:
            return super().banner_for_document(settings, figures)
        context = figures.get("table_context", [])
        if not context:
            return [cls.short_banner]
        one = len(context) == 1
        head, tail = cls._context.split("{numbers}")
        words = {"count": f"{len(context)} table-context chunk{'' if one else 's'}",
                 "repeat": "repeats its neighbours" if one else "repeat their neighbours",
                 "each": "it joins" if one else "each joins",
                 "boxes": "its box spans theirs" if one else "their boxes span them"}
        numbers: BannerParts = []
        for n, index in enumerate(context):
            numbers += ([", "] if n else []) + [index]
        return [cls._intro + head.format(**words), *numbers, tail.format(**words) + cls._default]

    def chunk(self, source: SourceMarkdown, settings: dict[str, Any]) -> list[Chunk]:
        size = settings["chunk_token_size"]
        overlap = settings["chunk_overlap_token_size"]
        encoding = settings["tokenizer"]
        table_limit = settings["max_table_token_size"] or 2 * size
        chunks: list[Chunk] = []
        segments = split_tables(strip_separator_rows(source.traced()))
        for segment_no, segment in enumerate(segments):
            if isinstance(segment, Traced):
                chunks.extend(prose_windows(segment, segment_no, size, overlap, encoding))
            else:
                chunks.extend(_table_chunks(segment, segment_no, table_limit, encoding))
        if settings["table_context"]:
            chunks.extend(_context_chunks(chunks))
        return chunks


def _table_chunks(table: MarkdownTable, number: int, limit: int, encoding: str) -> list[Chunk]:
    """The table's chunk or parts, and for a split table the whole of it besides
    (rule `table_full`) when that fits an embedding."""
    chunks = table_chunks(table, number, limit, encoding, lead_in_every_part=False)
    if len(chunks) > 1:
        whole = Traced.join("\n", [*table.lead, table.header, *table.rows, *table.footer])
        if count_tokens(whole.text, encoding) <= EMBEDDING_LIMIT:
            chunks.append(Chunk(whole, "table_full", origin={
                "rule": "table_full", "table": number, "parts": len(chunks)}))
    return chunks


def _context_chunks(chunks: list[Chunk]) -> list[Chunk]:
    """previous prose + table + next prose, for every `table` chunk."""
    tabular = {"table", "table_full"}
    out = []
    for index, chunk in enumerate(chunks):
        if chunk.chunk_type != "table":
            continue
        before = index - 1
        while before >= 0 and chunks[before].chunk_type in tabular:
            before -= 1  # walk past the whole run of split parts
        after = index + 1
        while after < len(chunks) and chunks[after].chunk_type in tabular:
            after += 1
        sources = [i for i in (before, index, after) if 0 <= i < len(chunks)]
        if len(sources) == 1:
            continue  # a table with no prose around it needs no context
        out.append(Chunk(
            Traced.join("\n\n", [chunks[i].text for i in sources]), "table_context",
            origin={"rule": "table_context", "table_chunk": index, "sources": sources}))
    return out

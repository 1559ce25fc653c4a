"""`table_header_aware`: token windows for prose; tables kept whole when they fit,
otherwise split between rows with the caption and header row repeated on every part.

Unlike `token_based` there is no `table_full` copy and no context chunk: every part
of a table stands on its own because it carries the table's title and column names.
"""

from __future__ import annotations

from typing import Any, Protocol

from visualiser.markdown import SourceMarkdown, Traced
from visualiser.strategies.base import Chunk, Param, Strategy, register
from visualiser.strategies.token_based import (
    TABLE_PART,
    TOKEN_WINDOW,
    WHOLE_TABLE,
    split_tables,
    strip_separator_rows,
)
from visualiser.strategies.windows import token_windows
from visualiser.tokenizers import ENCODINGS, count_tokens


class TableLines(Protocol):
    """A table as `split_tables` finds it."""

    lead: list[Traced]  # heading/caption lines above it
    header: Traced
    rows: list[Traced]
    footer: list[Traced]

TABLE_BANNER = (
    "Tables too big for one chunk are split between rows, and every part repeats the "
    "table's caption and header row so its numbers keep their column names; those boxes "
    "are drawn in each part on purpose."
)
PROSE_OVERLAP_BANNER = (
    " Prose windows also share up to {overlap} tokens with their neighbours, on purpose."
)


@register
class TableHeaderAware(Strategy):
    name = "table_header_aware"
    label = "Token windows, tables split by rows with header repeated"
    explanation = (
        "Prose is cut into token windows that overlap a little. Each table, with the "
        "caption or heading just above it, is one chunk when it fits; a larger table is "
        "split between rows, and every part repeats the caption and the header row, so "
        "each part can be read — and retrieved — on its own."
    )
    banner = (TABLE_BANNER + PROSE_OVERLAP_BANNER).format(overlap=100)
    sizing = ("chunk_token_size", "chunk_overlap_token_size", "tokens")
    rules = (TOKEN_WINDOW, WHOLE_TABLE, TABLE_PART)
    params = (
        Param("chunk_token_size", "int", 1200, "tokens per prose window", 16, 100_000),
        Param("chunk_overlap_token_size", "int", 100,
              "tokens each prose window shares with the next", 0, 99_999),
        Param("max_table_token_size", "int", None,
              "tables above this many tokens are split by rows (empty: the chunk size)",
              16, 100_000, optional=True),
        Param("tokenizer", "choice", "cl100k_base", "tiktoken encoding", choices=ENCODINGS),
    )

    @classmethod
    def banner_for(cls, settings: dict[str, Any]) -> str | None:
        overlap = settings["chunk_overlap_token_size"]
        return TABLE_BANNER + (PROSE_OVERLAP_BANNER.format(overlap=overlap) if overlap else "")

    def chunk(self, source: SourceMarkdown, settings: dict[str, Any]) -> list[Chunk]:
        size = settings["chunk_token_size"]
        overlap = settings["chunk_overlap_token_size"]
        encoding = settings["tokenizer"]
        limit = settings["max_table_token_size"] or size
        chunks: list[Chunk] = []
        for number, segment in enumerate(split_tables(strip_separator_rows(source.traced()))):
            if isinstance(segment, Traced):
                chunks.extend(
                    Chunk(w.text, "text", origin={
                        "rule": "token_window", "segment": number, "window": w.number,
                        "of": w.of, "size": size, "overlap": overlap})
                    for w in token_windows(segment, size, overlap, encoding))
            else:
                chunks.extend(table_chunks(segment, number, limit, encoding))
        return chunks


def table_chunks(table: TableLines, number: int, limit: int, encoding: str) -> list[Chunk]:
    head = [*table.lead, table.header]
    whole = Traced.join("\n", [*head, *table.rows, *table.footer])
    if not table.rows or count_tokens(whole.text, encoding) <= limit:
        return [Chunk(whole, "table", origin={"rule": "table", "table": number})]
    groups = row_groups(table, limit, encoding)
    return [
        Chunk(Traced.join("\n", [*head, *rows, *(table.footer if n == len(groups) else [])]),
              "table", origin={"rule": "table_part", "table": number, "part": n,
                               "of": len(groups), "limit": limit})
        for n, rows in enumerate(groups, start=1)
    ]


def row_groups(table: TableLines, limit: int, encoding: str) -> list[list[Traced]]:
    """Rows packed greedily under `limit` tokens, counting the repeated head in every
    part and the footer in the last. Each row is counted once (plus its newline); the
    exact count of a finished part is then checked, giving rows back if BPE merges
    across lines made the estimate short. Every part holds at least one row."""
    rows = table.rows
    head = count_tokens(Traced.join("\n", [*table.lead, table.header]).text, encoding)
    row_tokens = [count_tokens(row.text, encoding) + 1 for row in rows]
    groups: list[list[Traced]] = []
    start = 0
    while start < len(rows):
        end, used = start + 1, head + row_tokens[start]
        while end < len(rows) and used + row_tokens[end] <= limit:
            used += row_tokens[end]
            end += 1
        while end - start > 1 and _part_tokens(table, rows[start:end], end == len(rows),
                                               encoding) > limit:
            end -= 1
        groups.append(rows[start:end])
        start = end
    return groups


def _part_tokens(table: TableLines, rows: list[Traced], last: bool, encoding: str) -> int:
    footer = table.footer if last else []
    text = Traced.join("\n", [*table.lead, table.header, *rows, *footer])
    return count_tokens(text.text, encoding)

"""`table_header_aware`: token windows for prose; tables kept whole when they fit,
otherwise split between rows with the caption and header row repeated on every part.

Unlike `token_based` there is no `table_full` copy and no context chunk: every part
of a table stands on its own because it carries the table's title and column names.
"""

from __future__ import annotations

from typing import Any

from visualiser.markdown import SourceMarkdown, Traced
from visualiser.strategies.base import TOKENIZER, Chunk, Param, Strategy, register
from visualiser.strategies.table_split import (
    prose_windows,
    split_tables,
    strip_separator_rows,
    table_chunks,
)
from visualiser.strategies.token_based import (
    PROSE_OVERLAP,
    PROSE_WINDOW,
    TABLE_PART,
    TOKEN_WINDOW,
    WHOLE_TABLE,
)

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
        PROSE_WINDOW,
        PROSE_OVERLAP,
        Param("max_table_token_size", "int", None,
              "tables above this many tokens are split by rows (empty: the chunk size)",
              16, 100_000, optional=True),
        TOKENIZER,
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
                chunks.extend(prose_windows(segment, number, size, overlap, encoding))
            else:
                chunks.extend(table_chunks(segment, number, limit, encoding,
                                           lead_in_every_part=True))
        return chunks

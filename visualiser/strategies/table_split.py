"""Markdown tables in the text a window strategy cuts: found, and split by rows.

`split_tables` walks the markdown line by line and hands back prose segments and
tables (each with the heading or caption lines just above it and the footnotes just
below). `table_chunks` keeps a table whole when it fits and otherwise splits it
between rows with the header row repeated, every part under the limit by exact count.
`token_based` and `table_header_aware` share both; they differ in what a part
repeats (the caption too, or not) and in what they add around the parts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from visualiser.markdown import Traced
from visualiser.strategies.base import Chunk
from visualiser.strategies.windows import token_windows
from visualiser.tokenizers import count_tokens

HEADING_LOOKBACK_LINES = 6
MAX_BLANKS_BEFORE_TABLE = 2

_SEPARATOR_ROW = re.compile(r"^[ \t]*\|?[ \t]*:?-{3,}:?[ \t]*(\|[ \t]*:?-{3,}:?[ \t]*)*\|?[ \t]*$")
_TABLE_ROW = re.compile(r"^\s*\|.*\|\s*$")
_HEADING_LIKE = re.compile(
    r"^\s*(#{1,6}\s+\S|\*\*[^*]+\*\*\s*:?\s*$|(table|figure|exhibit|schedule)\s+[\dA-Z])",
    re.IGNORECASE,
)
_FOOTNOTE_LIKE = re.compile(r"^\s*(\*|†|‡|note[s]?\b|source[s]?\b|\(\d+\)|\[\d+\])", re.I)


@dataclass(slots=True)
class MarkdownTable:
    lead: list[Traced]  # heading/caption lines carried with the table
    header: Traced
    rows: list[Traced]
    footer: list[Traced]


def strip_separator_rows(text: Traced) -> Traced:
    """Drop markdown table separator lines (`|---|---|`): they cost tokens, say nothing."""
    return Traced.join("\n", [line for line in text.lines() if not _SEPARATOR_ROW.match(line.text)])


def split_tables(text: Traced) -> list[Traced | MarkdownTable]:
    """Prose segments and tables, in document order."""
    lines = text.lines()
    out: list[Traced | MarkdownTable] = []
    prose_from = 0
    n = 0
    while n < len(lines):
        if not _TABLE_ROW.match(lines[n].text):
            n += 1
            continue
        end = n
        while end < len(lines) and _TABLE_ROW.match(lines[end].text):
            end += 1
        lead_from = _lead_start(lines, n, floor=prose_from)
        foot_to = _footer_end(lines, end)
        prose = Traced.join("\n", lines[prose_from:lead_from])
        if prose.text.strip():
            out.append(prose)
        out.append(MarkdownTable(
            lead=[line for line in lines[lead_from:n] if line.text.strip()],
            header=lines[n],
            rows=lines[n + 1 : end],
            footer=[line for line in lines[end:foot_to] if line.text.strip()],
        ))
        prose_from = n = foot_to
    rest = Traced.join("\n", lines[prose_from:])
    if rest.text.strip():
        out.append(rest)
    return out


def _lead_start(lines: list[Traced], table_at: int, floor: int) -> int:
    """First line of the heading/caption above a table, or `table_at` if none.

    Looks at most six lines up, past at most two blank lines, and takes the nearest
    heading-like line together with any heading-like lines right above it.
    """
    start = table_at
    blanks = 0
    for n in range(table_at - 1, max(floor, table_at - HEADING_LOOKBACK_LINES) - 1, -1):
        line = lines[n].text
        if not line.strip():
            blanks += 1
            if blanks > MAX_BLANKS_BEFORE_TABLE:
                break
            continue
        if not _HEADING_LIKE.match(line):
            break
        start = n
    return start


def _footer_end(lines: list[Traced], after: int) -> int:
    """End of the footnote lines directly under a table (one blank line allowed)."""
    end = after
    n = after
    if n < len(lines) and not lines[n].text.strip():
        n += 1
    while n < len(lines) and _FOOTNOTE_LIKE.match(lines[n].text):
        n += 1
        end = n
    return end


def prose_windows(segment: Traced, number: int, size: int, overlap: int,
                  encoding: str) -> list[Chunk]:
    """The token windows of the prose between two tables (rule `token_window`)."""
    return [Chunk(w.text, "text", origin={
                "rule": "token_window", "segment": number, "window": w.number, "of": w.of,
                "size": size, "overlap": overlap})
            for w in token_windows(segment, size, overlap, encoding)]


def table_chunks(table: MarkdownTable, number: int, limit: int, encoding: str, *,
                 lead_in_every_part: bool) -> list[Chunk]:
    """The table as one chunk (rule `table`) when it fits `limit` tokens, else its parts
    (rule `table_part`): rows packed under the limit, each part with the header row,
    the first (or, with `lead_in_every_part`, every) part with the lead lines, the
    last with the footer."""
    whole = Traced.join("\n", [*table.lead, table.header, *table.rows, *table.footer])
    if not table.rows or count_tokens(whole.text, encoding) <= limit:
        return [Chunk(whole, "table", origin={"rule": "table", "table": number})]
    groups = _row_groups(table, limit, encoding, lead_in_every_part)
    return [
        Chunk(_part(table, rows, n == 1 or lead_in_every_part, n == len(groups)), "table",
              origin={"rule": "table_part", "table": number, "part": n, "of": len(groups),
                      "limit": limit})
        for n, rows in enumerate(groups, start=1)
    ]


def _part(table: MarkdownTable, rows: list[Traced], lead: bool, last: bool) -> Traced:
    return Traced.join("\n", [*(table.lead if lead else []), table.header, *rows,
                              *(table.footer if last else [])])


def _row_groups(table: MarkdownTable, limit: int, encoding: str,
                lead_in_every_part: bool) -> list[list[Traced]]:
    """Rows packed greedily under `limit` tokens, counting what each part repeats. Each
    row is counted once (plus its newline); the exact count of a finished part is then
    checked, giving rows back if BPE merges across lines made the estimate short.
    Every part holds at least one row."""
    rows = table.rows
    with_lead = count_tokens(Traced.join("\n", [*table.lead, table.header]).text, encoding)
    header_only = count_tokens(table.header.text, encoding)
    row_tokens = [count_tokens(row.text, encoding) + 1 for row in rows]
    groups: list[list[Traced]] = []
    start = 0
    while start < len(rows):
        lead = not groups or lead_in_every_part
        end, used = start + 1, (with_lead if lead else header_only) + row_tokens[start]
        while end < len(rows) and used + row_tokens[end] <= limit:
            used += row_tokens[end]
            end += 1
        while end - start > 1 and count_tokens(
                _part(table, rows[start:end], lead, end == len(rows)).text, encoding) > limit:
            end -= 1
        groups.append(rows[start:end])
        start = end
    return groups

"""`structure_aware`: one chunk per heading section, cut further only where needed.

Headings H1–H4 start chunks and stay in the chunk text (what is embedded is the
text, so the heading must be in it). A heading is kept with the table, list, image
or code block it introduces, a caption and footnote with their table. A section over
`max_token_size` is packed block by block; a table over `max_table_token_size` is
split by rows with its header repeated, a list over `max_list_token_size` by items,
a paragraph over `max_token_size` by overlapping token windows. A section whose
text runs on from the foot of one column to the top of the next is cut at that
column break, so that each chunk stays in one column (`columns.py`): if it fits one
chunk, only where no text is carried across the break. Every chunk is one
contiguous region of the document, and no chunk contains another.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from visualiser.layout.ml import NAME as ML_ENGINE  # its headings come from a model
from visualiser.markdown import MdBlock, SourceMarkdown, Traced
from visualiser.patterns import CAPTION
from visualiser.strategies.base import (
    TOKENIZER,
    Chunk,
    ChunkType,
    Context,
    Param,
    Rule,
    Strategy,
    check_overlap,
    register,
    window_overlap,
)
from visualiser.strategies.columns import column_pieces, runs_across_columns
from visualiser.strategies.windows import token_windows
from visualiser.tokenizers import count_tokens

_FOOTNOTE = re.compile(r"^(\*|†|‡|note[s]?\b|source[s]?\b)", re.IGNORECASE)
_BLOCK_TYPE: dict[str, ChunkType] = {"table": "table", "list": "list", "image": "image",
                                     "code": "code"}


def _where(o: Mapping[str, Any], c: Context) -> str:
    """The section a chunk belongs to, and who read its heading as one."""
    heading = c.heading_path[-1] if c.heading_path else None
    where = f"the section “{heading}”" if heading else "the text before the first heading"
    starts_at_heading = (o.get("rule") == "section" or o.get("part") == 1
                         or o.get("column") == 1)
    if heading and starts_at_heading and c.layout_engine.startswith(ML_ENGINE):
        where += ", read as a heading by the layout model"
    return where


SECTION = Rule("section", lambda o, c: (
    f"All of {_where(o, c)}, kept whole as one chunk."
    + (" Its text runs on from the foot of one column to the top of the next, so its "
       "box spans both columns." if o.get("across_columns") else "")))
SECTION_PART = Rule("section_part", lambda o, c: (
    f"Part {o['part']} of {o['of']} of {_where(o, c)}, which is longer than "
    f"{o['limit']} tokens and was split between blocks."), window_overlap, window=True)
COLUMN_PART = Rule("column_part", lambda o, c: (
    f"Part {o['column']} of {o['columns']} of {_where(o, c)}, which runs over "
    f"{o['columns']} columns: it was cut at the column break so that each chunk stays "
    "in one column."))


@dataclass(slots=True)
class _Unit:
    """Blocks that must stay together (a heading with what it introduces, a caption
    with its table); `main` is the block that gives the unit its type."""

    blocks: list[MdBlock]
    main: MdBlock

    @property
    def start(self) -> int:
        return self.blocks[0].start

    @property
    def end(self) -> int:
        return self.blocks[-1].end


@register
class StructureAware(Strategy):
    name = "structure_aware"
    label = "Structure-aware (headings, tables, lists)"
    explanation = (
        "Follows the document's own structure: every heading starts a chunk and stays in "
        "it, and a heading travels with the table, list or figure it introduces. Sections "
        "that are too long are split between blocks, tables between rows (header "
        "repeated), lists between items. Each chunk maps to one region of the page."
    )
    banner = None  # nothing spans anything: there is nothing to explain
    rules = (SECTION, SECTION_PART, COLUMN_PART)
    params = (
        Param("max_token_size", "int", 1200, "largest chunk of prose, in tokens", 16, 100_000),
        Param("overlap_token_size", "int", 100,
              "tokens shared when one long paragraph must be cut", 0, 99_999),
        Param("max_table_token_size", "int", 2000,
              "tables above this are split by rows, header repeated", 16, 100_000),
        Param("max_list_token_size", "int", 1800,
              "lists above this are split between items", 16, 100_000),
        Param("keep_heading_with_list", "bool", True,
              "keep a heading (or a line ending in ':') with the list it introduces"),
        Param("include_table_caption", "bool", True, "keep a caption line with its table"),
        Param("include_table_footnote", "bool", True, "keep a footnote line with its table"),
        TOKENIZER,
    )

    @classmethod
    def check(cls, settings: dict[str, Any]) -> None:
        # Its overlap only cuts an over-long paragraph, so it is not `sizing` (which
        # says the whole text goes through windows), but the same limits hold.
        check_overlap(settings, "max_token_size", "overlap_token_size")

    def chunk(self, source: SourceMarkdown, settings: dict[str, Any]) -> list[Chunk]:
        return _Splitter(source, settings).run()


class _Splitter:
    def __init__(self, source: SourceMarkdown, settings: dict[str, Any]) -> None:
        self.source = source
        self.s = settings
        self.chunks: list[Chunk] = []

    def tokens(self, start: int, end: int) -> int:
        return count_tokens(self.source.text[start:end], self.s["tokenizer"])

    def run(self) -> list[Chunk]:
        sections = column_pieces(self.source, self._sections(), self._fits)
        for number, section in enumerate(sections, start=1):
            for n, piece in enumerate(section, start=1):
                column = {"column": n, "columns": len(section)} if len(section) > 1 else {}
                self._emit_section(piece, number, column)
        return self.chunks

    def _sections(self) -> list[list[MdBlock]]:
        """Blocks grouped under their heading; a heading with no body of its own (a
        title right above a section heading) joins the section that follows."""
        sections: list[list[MdBlock]] = []
        current: list[MdBlock] = []
        for block in self.source.blocks:
            only_headings = all(b.kind == "heading" for b in current)
            if block.kind == "heading" and current and not only_headings:
                sections.append(current)
                current = []
            current.append(block)
        if current:
            sections.append(current)
        return sections

    def _fits(self, blocks: list[MdBlock]) -> bool:
        """Does this section fit one chunk (its table or list limit if it is one)?"""
        return self.tokens(blocks[0].start, blocks[-1].end) <= self._limit(blocks)

    def _limit(self, blocks: list[MdBlock]) -> int:
        kind = _section_type(blocks, self.source.text)
        limit = self.s["max_token_size"]
        if kind == "table":
            limit = max(limit, self.s["max_table_token_size"])
        elif kind == "list":
            limit = max(limit, self.s["max_list_token_size"])
        return limit

    def _emit_section(self, blocks: list[MdBlock], number: int,
                      column: dict[str, int]) -> None:
        start, end = blocks[0].start, blocks[-1].end
        # The heading path of a piece that leads with a figure's labels from above
        # its heading is that heading's.
        path_at = next((b.start for b in blocks if b.kind == "heading"), start)
        kind = _section_type(blocks, self.source.text)
        if self._fits(blocks):
            rule = "column_part" if column else "section"
            # a section kept whole over a column break (text carried across it) says
            # so: its box spans both columns
            across = ({"across_columns": True}
                      if not column and runs_across_columns(self.source, blocks) else {})
            self._add(self.source.traced(start, end), kind, path_at,
                      {"rule": rule, "section": number, **column, **across})
            return
        units = self._units(blocks)
        pieces: list[tuple[Traced, ChunkType]] = []
        group: list[_Unit] = []
        for unit in units:
            candidate = group + [unit]
            if group and self.tokens(candidate[0].start, unit.end) > self.s["max_token_size"]:
                pieces.extend(self._pack(group))
                group = [unit]
            else:
                group = candidate
        pieces.extend(self._pack(group))
        for n, (text, piece_type) in enumerate(pieces, start=1):
            self._add(text, piece_type, path_at, {
                "rule": "section_part", "section": number, "part": n, "of": len(pieces),
                "limit": self.s["max_token_size"], **column})

    def _pack(self, group: list[_Unit]) -> list[tuple[Traced, ChunkType]]:
        """One piece for units that fit together, or the pieces of one unit too big."""
        start, end = group[0].start, group[-1].end
        kind = _section_type([b for u in group for b in u.blocks], self.source.text)
        if len(group) > 1 or self.tokens(start, end) <= self.s["max_token_size"]:
            return [(self.source.traced(start, end), kind)]
        unit = group[0]
        main = unit.main
        if main.kind == "table":
            if self.tokens(start, end) <= self.s["max_table_token_size"]:
                return [(self.source.traced(start, end), "table")]
            return [(t, "table") for t in self._split_table(unit)]
        if main.kind == "list":
            if self.tokens(start, end) <= self.s["max_list_token_size"]:
                return [(self.source.traced(start, end), "list")]
            return [(t, "list") for t in self._split_list(unit)]
        windows = token_windows(self.source.traced(start, end), self.s["max_token_size"],
                                self.s["overlap_token_size"], self.s["tokenizer"],
                                drop_contained_tail=True)
        return [(w.text, _BLOCK_TYPE.get(main.kind, "text")) for w in windows]

    def _split_table(self, unit: _Unit) -> list[Traced]:
        """Parts of at most `max_table_token_size` tokens, cut between rows. The first
        part leads with the unit's heading and caption; every part repeats the header
        row and separator line."""
        table = unit.main
        body = table.rows[table.header_rows :]
        if not body:  # a header and nothing else: no row to cut between
            return [self.source.traced(unit.start, unit.end)]
        lead_end = body[0][0] - 1  # the newline that ends the separator line
        heads = [self.source.traced(unit.start, lead_end),
                 self.source.traced(table.start, lead_end)]
        head_tokens = [count_tokens(h.text, self.s["tokenizer"]) for h in heads]
        limit = self.s["max_table_token_size"]
        parts: list[Traced] = []
        part_start, used = body[0][0], head_tokens[0]
        for n, (row_start, row_end) in enumerate(body):
            row_tokens = self.tokens(row_start - 1, row_end)  # with its leading newline
            if row_start > part_start and used + row_tokens > limit:
                parts.append(self._table_part(heads[bool(parts)], part_start, body[n - 1][1]))
                part_start, used = row_start, head_tokens[1]
            used += row_tokens
        parts.append(self._table_part(heads[bool(parts)], part_start, unit.end))
        return parts

    def _table_part(self, head: Traced, start: int, end: int) -> Traced:
        return Traced.join("\n", [head, self.source.traced(start, end)])

    def _split_list(self, unit: _Unit) -> list[Traced]:
        items = unit.main.items
        parts: list[Traced] = []
        part_start = unit.start
        for n, (item_start, item_end) in enumerate(items):
            too_big = self.tokens(part_start, item_end) > self.s["max_list_token_size"]
            if n and item_start > part_start and too_big:
                parts.append(self.source.traced(part_start, items[n - 1][1]))
                part_start = item_start
        parts.append(self.source.traced(part_start, unit.end))
        return parts

    def _units(self, blocks: list[MdBlock]) -> list[_Unit]:
        """Blocks that must stay together, in order."""
        units: list[_Unit] = []
        pending: list[MdBlock] = []  # headings / captions / intro lines waiting
        for n, block in enumerate(blocks):
            text = self.source.text[block.start : block.end]
            if block.kind == "heading":
                pending.append(block)
                continue
            following = blocks[n + 1] if n + 1 < len(blocks) else None
            if block.kind == "paragraph" and self._leads(text, following):
                pending.append(block)
                continue
            if (
                block.kind == "paragraph"
                and self.s["include_table_footnote"]
                and units
                and units[-1].main.kind == "table"
                and _FOOTNOTE.match(text)
                and not pending
            ):
                units[-1].blocks.append(block)
                continue
            heading_travels = block.kind != "list" or self.s["keep_heading_with_list"]
            if pending and not heading_travels:
                units.append(_Unit(list(pending), pending[-1]))
                pending = []
            units.append(_Unit(pending + [block], block))
            pending = []
        if pending:
            units.append(_Unit(pending, pending[-1]))
        return units

    def _leads(self, text: str, following: MdBlock | None) -> bool:
        """Is this paragraph a caption or intro line for the block `following` it?"""
        if following is None:
            return False
        if following.kind == "table" and CAPTION.match(text):
            return self.s["include_table_caption"]
        if following.kind in ("table", "image") and CAPTION.match(text):
            return True
        if following.kind == "list" and text.rstrip().endswith(":"):
            return self.s["keep_heading_with_list"]
        return False

    def _add(self, text: Traced, kind: ChunkType, section_start: int,
             origin: dict[str, Any]) -> None:
        text = text.strip()
        if text.text:
            self.chunks.append(Chunk(text, kind, self.source.heading_path_at(section_start),
                                     origin))


def _section_type(blocks: list[MdBlock], text: str) -> ChunkType:
    """The chunk type that tells the truth about `blocks`: a table, list or code
    only when that makes up a third or more of the text beside the headings, a picture only when
    nothing but headings and captions come with it, and text otherwise."""
    sizes: dict[str, int] = {}
    for block in blocks:
        if block.kind != "heading":
            sizes[block.kind] = sizes.get(block.kind, 0) + block.end - block.start
    body = sum(sizes.values())
    for kind in ("table", "list", "code"):
        if body and sizes.get(kind, 0) * 3 >= body:
            return _BLOCK_TYPE[kind]
    if "image" in sizes and all(
            b.kind in ("heading", "image") or CAPTION.match(text[b.start:b.end])
            for b in blocks):
        return "image"
    return "text"

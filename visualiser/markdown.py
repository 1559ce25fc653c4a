"""Layout → markdown whose every character remembers where it came from.

`SourceMarkdown.word_at[i]` is the id of the word that character `i` of the markdown
belongs to, or -1 for synthetic characters (`#`, `|`, separator rows, blank lines).
Strategies never work on bare strings: they cut, strip, join and filter `Traced`
text, which carries for each character its offset in the source markdown. A chunk
therefore knows exactly which words, and so which boxes, it covers — even a chunk
that never existed as one piece of the document, such as a table-context chunk.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal, NamedTuple

import numpy

from visualiser.geometry import same_row
from visualiser.hyphens import SOFT_HYPHEN, LineEndHyphens
from visualiser.layout.model import Block, Layout, Word
from visualiser.layout.scripts import UNSPACED_CHAR, is_unspaced
from visualiser.patterns import NUMBERED_ITEM

SYNTHETIC = -1

MdKind = Literal["heading", "paragraph", "list", "table", "image", "code"]


class Traced:
    """A string plus, for each character, its offset in the source markdown (or -1)."""

    __slots__ = ("text", "pos")

    def __init__(self, text: str, pos: array) -> None:
        if len(text) != len(pos):
            raise ValueError("a traced text needs exactly one position per character")
        self.text = text
        self.pos = pos

    @classmethod
    def synthetic(cls, text: str) -> Traced:
        return cls(text, array("i", [SYNTHETIC]) * len(text))

    @classmethod
    def of_source(cls, text: str, start: int = 0) -> Traced:
        return cls(text, array("i", range(start, start + len(text))))

    def __len__(self) -> int:
        return len(self.text)

    def __getitem__(self, index: slice) -> Traced:
        return Traced(self.text[index], self.pos[index])

    def __add__(self, other: Traced) -> Traced:
        return Traced(self.text + other.text, self.pos + other.pos)

    def __repr__(self) -> str:
        return f"Traced({self.text!r})"

    def strip(self) -> Traced:
        left = len(self.text) - len(self.text.lstrip())
        right = len(self.text.rstrip())
        return self[left:right] if right > left else self[0:0]

    @staticmethod
    def join(separator: str, parts: Iterable[Traced]) -> Traced:
        text: list[str] = []
        pos = array("i")
        sep = Traced.synthetic(separator)
        for n, part in enumerate(parts):
            if n:
                text.append(sep.text)
                pos.extend(sep.pos)
            text.append(part.text)
            pos.extend(part.pos)
        return Traced("".join(text), pos)

    def lines(self) -> list[Traced]:
        """Split on newlines, dropping them (like `str.split("\\n")`)."""
        out, start = [], 0
        for match in re.finditer("\n", self.text):
            out.append(self[start : match.start()])
            start = match.end()
        out.append(self[start:])
        return out

    def with_text(self, text: str) -> Traced:
        """The same source span carrying a text that differs slightly from it (a
        decoded token window that cut a multi-byte character), positions resampled."""
        if len(text) == len(self.pos):
            return Traced(text, self.pos)
        if not self.pos:
            return Traced.synthetic(text)
        step = len(self.pos) / max(len(text), 1)
        return Traced(text, array("i", (self.pos[min(int(i * step), len(self.pos) - 1)]
                                        for i in range(len(text)))))


@dataclass(frozen=True, slots=True)
class MdBlock:
    """One block of the markdown: `text[start:end]` of the source."""

    kind: MdKind
    start: int
    end: int
    level: int = 0  # heading level
    heading: str = ""  # the heading text, for headings
    rows: tuple[tuple[int, int], ...] = ()  # tables: (start, end) of each row line
    header_rows: int = 0  # tables: how many leading rows are the header
    items: tuple[tuple[int, int], ...] = ()  # lists: (start, end) of each item line


class LineGeometry(NamedTuple):
    """Per word of the layout, arrays indexed by word id: its page, and the edges of
    the line it sits on (a column check asks where lines start, end and stand)."""

    pages: numpy.ndarray
    lefts: numpy.ndarray
    rights: numpy.ndarray
    tops: numpy.ndarray
    bottoms: numpy.ndarray


@dataclass(slots=True)
class SourceMarkdown:
    text: str
    word_at: array
    blocks: list[MdBlock]
    layout: Layout
    dropped_words: set[int] = field(default_factory=set)  # e.g. repeated table headers
    _headings: tuple[list[int], list[tuple[str, ...]]] | None = field(default=None, repr=False)
    # per word: its page, and its line's left, right, top and bottom
    _geometry: LineGeometry | None = field(default=None, repr=False)

    def traced(self, start: int = 0, end: int | None = None) -> Traced:
        end = len(self.text) if end is None else end
        return Traced.of_source(self.text[start:end], start)

    def words_of(self, traced: Traced) -> set[int]:
        # In numpy: a chunk has a position per character, and a 600-page document's
        # chunks have millions; a Python loop over them was 7% of a report's time.
        if not len(traced.pos):
            return set()
        pos = numpy.frombuffer(traced.pos, dtype=f"i{traced.pos.itemsize}")
        word_at = numpy.frombuffer(self.word_at, dtype=f"i{self.word_at.itemsize}")
        found = set(numpy.unique(word_at[pos[pos >= 0]]).tolist())
        found.discard(SYNTHETIC)
        return found

    def words_between(self, start: int, end: int) -> numpy.ndarray:
        """The ids of the words `text[start:end]` holds, ascending (`words_of` a span
        of the source, without making its positions)."""
        word_at = numpy.frombuffer(self.word_at, dtype=f"i{self.word_at.itemsize}")
        found = numpy.unique(word_at[start:end])
        return found[found >= 0]

    def line_geometry(self) -> LineGeometry:
        """Per word: its page and its line's edges (made once, in numpy)."""
        if self._geometry is None:
            layout = self.layout
            lines = numpy.fromiter((w.line for w in layout.words), dtype=numpy.int64,
                                   count=len(layout.words))
            pages = numpy.fromiter((w.page for w in layout.words), dtype=numpy.int64,
                                   count=len(layout.words))
            boxes = numpy.array([ln.bbox for ln in layout.lines],
                                dtype=numpy.float64).reshape(-1, 4)[lines]
            self._geometry = LineGeometry(pages, boxes[:, 0], boxes[:, 2], boxes[:, 1],
                                          boxes[:, 3])
        return self._geometry

    def heading_path_at(self, offset: int) -> tuple[str, ...]:
        """The chain of headings in force at `offset` of the source markdown."""
        starts, paths = self._heading_index()
        n = bisect_right(starts, offset)
        return paths[n - 1] if n else ()

    def _heading_index(self) -> tuple[list[int], list[tuple[str, ...]]]:
        if self._headings is None:
            starts: list[int] = []
            paths: list[tuple[str, ...]] = []
            path: list[tuple[int, str]] = []
            for block in self.blocks:
                if block.kind == "heading":
                    path = [p for p in path if p[0] < block.level] + [(block.level, block.heading)]
                    starts.append(block.start)
                    paths.append(tuple(h for _, h in path))
            self._headings = (starts, paths)
        return self._headings


class _Writer:
    """The markdown as pieces of text, each with the word that owns it (SYNTHETIC for
    none). The owner of every character is spread out once, at the end, in numpy: an
    array made and extended per word was a third of writing the markdown."""

    def __init__(self, layout: Layout) -> None:
        self.parts: list[str] = []
        self.owners: list[int] = []  # per part
        self.length = 0
        # Words broken at a line-end hyphen: joined again, or the hyphen kept where
        # the document spells the compound with it ("n-octanal"), `hyphens.py`.
        self.hyphens = LineEndHyphens(lambda: (w.text for w in layout.words))

    def word(self, text: str, word_id: int) -> None:
        self.parts.append(text)
        self.owners.append(word_id)
        self.length += len(text)

    def synthetic(self, text: str) -> None:
        self.parts.append(text)
        self.owners.append(SYNTHETIC)
        self.length += len(text)

    def owner(self) -> array:
        """`word_at`: the owner of every character written."""
        lengths = numpy.fromiter(map(len, self.parts), dtype=numpy.int64, count=len(self.parts))
        spread = numpy.repeat(numpy.asarray(self.owners, dtype=numpy.int32), lengths)
        owner = array("i")
        owner.frombytes(spread.astype(f"i{owner.itemsize}").tobytes())
        return owner


def build_markdown(layout: Layout) -> SourceMarkdown:
    """Serialise `layout`: headings `#`, pipe tables with separator rows, lists `-`."""
    out = _Writer(layout)
    blocks: list[MdBlock] = []
    dropped: set[int] = set()
    for group in _groups(layout):
        first = group[0]
        if first.kind == "image":
            # A picture has no words to embed: it is kept as an empty block, so that a
            # heading or caption can still travel with it, but writes no text.
            blocks.append(MdBlock("image", out.length, out.length))
            continue
        if out.length:
            out.synthetic("\n\n")
        start = out.length
        if first.kind == "table":
            blocks.append(_write_table(out, layout, group, dropped))
        elif first.kind == "list_item":
            items = []
            for n, block in enumerate(group):
                if n:
                    out.synthetic("\n")
                item_start = out.length
                words = layout.block_words(block)
                if not NUMBERED_ITEM.match(layout.words[words[0]].text):
                    out.synthetic("- ")  # bullets: the glyph is not a word; "1." is
                _write_words(out, layout, words)
                items.append((item_start, out.length))
            blocks.append(MdBlock("list", start, out.length, items=tuple(items)))
        elif first.kind == "code":
            _write_code(out, layout, group)
            blocks.append(MdBlock("code", start, out.length))
        elif first.kind == "heading":
            out.synthetic("#" * first.level + " ")
            written = len(out.parts)
            _write_words(out, layout, layout.block_words(first))
            heading = "".join(out.parts[written:])  # as written: words joined, CJK unspaced
            blocks.append(MdBlock("heading", start, out.length, level=first.level,
                                  heading=heading))
        else:  # a paragraph, perhaps carried on across column and page breaks
            _write_words(out, layout, [w for block in group for w in layout.block_words(block)])
            blocks.append(MdBlock("paragraph", start, out.length))
    return SourceMarkdown("".join(out.parts), out.owner(), blocks, layout, dropped)


def _groups(layout: Layout) -> list[list[Block]]:
    """Blocks that become one markdown block, in writing order: consecutive list items
    form one list, consecutive code blocks one listing; a table continued across a
    page break joins the table it continues, a paragraph the paragraph it carries on,
    and footnotes and floats read between the two parts are written after the whole
    paragraph (grouped among themselves the same way)."""
    # the paragraph carried on past footnotes → the block that carries it on
    carried = {b.id - b.continues: b.id for b in layout.blocks if b.continues > 1}
    groups: list[list[Block]] = []
    held: list[list[Block]] = []  # blocks waiting for their paragraph to end
    for block in layout.blocks:
        group = groups[-1] if groups else None
        if group is not None and block.id < carried.get(group[-1].id, -1):
            # between the two parts of the paragraph `group`
            if held and _joins(held[-1][-1], block):
                held[-1].append(block)
            else:
                held.append([block])
            continue
        if group is not None and _joins(group[-1], block):
            group.append(block)
            continue
        groups.extend(held)
        held = []
        groups.append([block])
    groups.extend(held)
    return groups


def _joins(last: Block, block: Block) -> bool:
    """Does `block` go on the markdown block that `last` ends?"""
    return ((block.kind == "list_item" and last.kind == "list_item")
            or (block.kind == "table" and block.table is not None and block.table.continued
                and last.kind == "table")
            or (block.kind == "paragraph" and block.continues > 0
                and last.id == block.id - block.continues and last.kind == "paragraph")
            # a listing's blank lines cut it into blocks: one listing again
            or (block.kind == "code" and last.kind == "code"))


def _write_code(out: _Writer, layout: Layout, group: list[Block]) -> None:
    """One fenced listing, laid out as on the page: each line indented as far as it
    is there (in characters of the listing's monospace font, since indentation is the
    structure of code), a blank line where the page leaves one, and lines that share
    a row (an option and its description, cut apart at the wide space) on one line."""
    lines = [layout.lines[i] for block in group for i in block.line_ids]
    words = [layout.words[w] for line in lines for w in line.word_ids]
    width = (sum(w.bbox[2] - w.bbox[0] for w in words)
             / max(sum(len(w.text) for w in words), 1)) or 1.0
    left = min(line.bbox[0] for line in lines)
    out.synthetic("```\n")
    before = None
    for line in lines:
        if before is None:
            spaces = round((line.bbox[0] - left) / width)
        elif same_row(before.bbox, line.bbox) and line.bbox[0] > before.bbox[2]:
            spaces = max(round((line.bbox[0] - before.bbox[2]) / width), 1)
        else:
            height = line.bbox[3] - line.bbox[1]
            out.synthetic("\n\n" if line.bbox[1] - before.bbox[3] > 0.8 * height else "\n")
            spaces = round((line.bbox[0] - left) / width)
        if spaces > 0:
            out.synthetic(" " * min(spaces, 80))
        _write_words(out, layout, line.word_ids)
        before = line
    out.synthetic("\n```")


def _write_words(out: _Writer, layout: Layout, word_ids: Iterable[int]) -> None:
    """Words joined by spaces; a word hyphenated at a line end is joined again
    ("detec-" + "tion" → "detection"), each part still owned by its own word."""
    words = layout.words
    sequence = [words[w] for w in word_ids]
    if not sequence:
        return
    texts = [word.text for word in sequence]
    ids = [word.id for word in sequence]
    # Written as whole lists, word, space, word...: this runs once per word of the
    # document. Only a word that ends in a hyphen and ends its line can be written
    # without the space after it (`LineEndHyphens.joint` says None for any other).
    glued: list[int] = []  # words written without the space after them
    for n in [n for n, text in enumerate(texts[:-1]) if text[-1:] in _HYPHENS]:
        if sequence[n + 1].line == sequence[n].line:
            continue
        joint = out.hyphens.joint(texts[n], texts[n + 1])  # texts[n + 1] not cut yet
        if joint is not None:
            glued.append(n)
            if joint == "join":
                texts[n] = texts[n][:-1]
    # Chinese and Japanese have no spaces: none between a line's end and the next
    # line's start, nor between the characters of a vertical column (one word each).
    # The block's text is sieved first, in C: most blocks have no such character.
    if not (joined := "".join(texts)).isascii() and UNSPACED_CHAR.search(joined):
        glued.extend(n for n in range(len(texts) - 1)
                     if _unspaced_joint(sequence[n], sequence[n + 1]))
        glued.sort()
    parts = [" "] * (2 * len(texts) - 1)
    parts[0::2] = texts
    owners = [SYNTHETIC] * len(parts)
    owners[0::2] = ids
    for n in reversed(glued):  # the space after word n, last first
        del parts[2 * n + 1]
        del owners[2 * n + 1]
    out.parts.extend(parts)
    out.owners.extend(owners)
    out.length += sum(map(len, parts))


_HYPHENS = ("-", SOFT_HYPHEN)  # what a word broken at a line end ends with


def _unspaced_joint(word: Word, after: Word) -> bool:
    """Do `word` and `after` meet without a space: both of a script written without
    spaces (Chinese, Japanese), and on different lines or one above the other in a
    vertical line (their boxes share most of their width; a comma's may overlap the
    next character's)? Two such words side by side on one line stay apart: the page
    set a space or a gap between them."""
    if not (word.text and after.text and is_unspaced(word.text[-1])
            and is_unspaced(after.text[0])):
        return False
    if word.line != after.line:
        return True
    shared = min(word.bbox[2], after.bbox[2]) - max(word.bbox[0], after.bbox[0])
    return shared > 0.5 * min(word.bbox[2] - word.bbox[0], after.bbox[2] - after.bbox[0])


def _write_table(out: _Writer, layout: Layout, parts: list[Block], dropped: set[int]) -> MdBlock:
    start = out.length
    rows: list[tuple[int, int]] = []
    first_table = parts[0].table
    assert first_table is not None
    width = max(len(row) for block in parts for row in block.table.rows)  # type: ignore[union-attr]
    header_rows = min(max(first_table.header_rows, 1), len(first_table.rows))
    for part_no, block in enumerate(parts):
        table = block.table
        assert table is not None
        body = table.rows
        if part_no:  # a continuation repeats the header on its page; say it once
            repeated = body[: table.header_rows]
            dropped.update(w for row in repeated for cell in row for w in cell)
            body = body[table.header_rows :]
        for row in body:
            if rows:
                out.synthetic("\n")
            row_start = out.length
            for cell_no in range(width):
                out.synthetic("| " if cell_no == 0 else " | ")
                if cell_no < len(row):
                    _write_words(out, layout, row[cell_no])
            out.synthetic(" |")
            rows.append((row_start, out.length))
            if len(rows) == header_rows:
                out.synthetic("\n|" + "|".join(["---"] * width) + "|")
    return MdBlock("table", start, out.length, rows=tuple(rows), header_rows=header_rows)

"""Read pages → Layout: words, lines and blocks, with headings, lists and tables.

Pure: no PyMuPDF here. Headings are told by font size relative to the body text
(the size most characters are set in); blocks are gathered from consecutive lines;
a table that starts a page and has the column count of the table that ended the
previous page continues it.
"""

from __future__ import annotations

import re
from collections import Counter, deque
from collections.abc import Iterable
from dataclasses import replace
from itertools import repeat
from typing import NamedTuple

import numpy

from visualiser.geometry import BBox, same_row, union
from visualiser.layout.headings import (
    DocumentStyle,
    is_byline,
    is_date,
    is_division_label,
    is_section_number,
    looks_like_heading,
    numbered_title,
    refine,
    size_class,
)
from visualiser.layout.ink import common_sizes
from visualiser.layout.items import Item, PageRead, RawLine, WordBox
from visualiser.layout.lines import (
    RUNNING_MARGIN,
    drop_folio_lines,
    drop_line_numbers,
    drop_page_numbers,
    drop_running_lines,
    drop_section_marks,
    figures_after_paragraphs,
    join_rows,
)
from visualiser.layout.model import Block, BlockKind, Layout, Line, Page, Table, Word
from visualiser.layout.scripts import right_to_left
from visualiser.patterns import (
    BULLETS,
    CAPTION,
    CAPTION_TITLE,
    DOT_LEADER,
    ENTRY_END,
    LABEL_LINES,
    NUMBERED_ITEM,
    SENTENCE_END,
)

# What an engine's role makes of a line; "running" lines never reach a block.
_ROLE_KINDS: dict[str, BlockKind] = {"heading": "heading", "paragraph": "paragraph",
                                     "list_item": "list_item", "caption": "paragraph",
                                     "code": "code", "note": "paragraph", "label": "paragraph",
                                     "running": "paragraph"}



def build_layout(pages: list[PageRead]) -> Layout:
    # a scan's sizes are measured, not named: one heading style is one size, one level
    common_sizes([i.line for page in pages if page.ocr for i in page.items if i.line is not None])
    numbered = drop_line_numbers(pages)
    dropped = (drop_running_lines(pages) + drop_folio_lines(pages) + drop_section_marks(pages)
               + drop_page_numbers(pages))
    for page in pages:
        page.items = join_rows(page.items)
    # after the rows are joined: a line's pieces are one line, so that a figure or
    # note moved past a sentence's end is never put between two of them
    figures_after_paragraphs(pages)
    builder = _Builder(DocumentStyle.of(pages), _usual_line_gap(pages))
    for page in pages:
        builder.add_page(page)
    _authors_are_no_headings(builder.layout)
    _contents_are_no_headings(builder.layout, builder.footnotes)
    _levels_from_ranks(builder.layout)
    dropped += builder.running
    if dropped:
        builder.layout.warnings.append(
            f"{dropped} running header/footer lines (the same text at the top or bottom of "
            "most pages, or beside or around the page number there; page numbers included) "
            "were left out of the chunks")
    if numbered:
        builder.layout.warnings.append(
            f"{numbered} line numbers in the margin (a transcript's or a draft's) were left "
            "out of the chunks")
    marked = [page for page in pages if page.watermarks]
    if marked:
        texts = list(dict.fromkeys(" ".join(page.watermarks) for page in marked))
        builder.layout.warnings.append(
            f"a watermark set slantwise across {len(marked)} page(s) was left out of the "
            "chunks: " + "; ".join(f"“{text[:80]}”" for text in texts[:3])
            + ("; …" if len(texts) > 3 else ""))
    return builder.layout


def _authors_are_no_headings(layout: Layout) -> None:
    """A paper's title block sets its authors and their institutions as large as its
    section headings; some carry a footnote mark or sit over an e-mail address (a
    byline, `headings.refine`), others do not ("Tomas Okoro" beside "Ada Lindqvist*").
    In the title block (the first page up to the abstract, the first numbered section
    or the first long paragraph), the headings after the title and before its last
    byline (or its date, which `\\maketitle` sets under the authors), and those on one
    row with a byline, are bylines too: no chunk of the paper sits under an author's
    name."""
    blocks = layout.blocks
    end = 0
    while end < len(blocks) and blocks[end].page == blocks[0].page:
        text = layout.block_text(blocks[end])
        if (blocks[end].kind == "heading" and _OPENS_BODY.match(text)) or (
                blocks[end].kind == "paragraph" and len(text.split()) >= 30):
            break
        end += 1
    headings = [n for n in range(end) if blocks[n].kind == "heading"]
    # (an address set in typewriter type is read as code; prose that names a web
    # address is no byline)
    bylines = [n for n in range(end) if blocks[n].kind in ("paragraph", "code")
               and (is_byline(text := layout.block_text(blocks[n])) or is_date(text))
               and not _SENTENCES.search(text)]
    if not bylines:
        return
    for n in headings[1:]:  # the first is the title
        if n < bylines[-1] or any(same_row(blocks[n].bbox, blocks[b].bbox) for b in bylines):
            blocks[n] = replace(blocks[n], kind="paragraph", level=0)


def _contents_are_no_headings(layout: Layout, footnotes: set[int]) -> None:
    """Under a "Contents" heading, the entries set in heading type (a book's chapters
    in bold, without dot leaders) are entries, not headings: no chunk sits under
    "1 Introduction" of the contents page. The contents end at the next heading at
    their level or above, at one that prose follows (the first chapter), or at a
    paragraph of prose itself (a paper's contents, whose sections are set in a type
    no heading was read in, end at its introduction); not at a footnote (`footnotes`:
    their block ids) at the foot of the contents page."""
    blocks = layout.blocks
    level = 0  # the level of the contents heading being read, 0 outside one
    for n, block in enumerate(blocks):
        if block.kind != "heading":
            if (level and block.kind == "paragraph" and block.id not in footnotes
                    and _is_prose(layout.block_text(block))):
                level = 0
            continue
        if level and block.level > level and not _prose_after(layout, n):
            blocks[n] = replace(block, kind="paragraph", level=0)
            continue
        level = block.level if _CONTENTS.fullmatch(layout.block_text(block).strip()) else 0


def _levels_from_ranks(layout: Layout) -> None:
    """Heading levels 1–4 from the ranks of the sizes headings were set in (and of
    the bold and numbered headings below them): the ranks the document's headings use,
    in order. A size that heads nothing (a masthead's issue number, a cover's banner)
    takes no level; without that, a report's sections and their subsections, set a
    half point apart, both fell below the fourth level and read as one."""
    blocks = layout.blocks
    ranks = sorted({block.level for block in blocks if block.kind == "heading"})
    level = {rank: min(n, 4) for n, rank in enumerate(ranks, start=1)}
    for n, block in enumerate(blocks):
        if block.kind == "heading" and level[block.level] != block.level:
            blocks[n] = replace(block, level=level[block.level])


def _prose_after(layout: Layout, n: int) -> bool:
    """Is the block after heading `n` a paragraph of running text?"""
    after = layout.blocks[n + 1] if n + 1 < len(layout.blocks) else None
    return (after is not None and after.kind == "paragraph"
            and len(layout.block_text(after).split()) >= PROSE_WORDS)


def _is_prose(text: str) -> bool:
    """Twice as many words as any contents entry, without dot leaders, and not a run
    of entries: their page numbers would be one word in eight or more."""
    words = text.split()
    return (len(words) >= 2 * PROSE_WORDS and not DOT_LEADER.search(text)
            and 8 * sum(map(str.isdigit, words)) < len(words))


PROSE_WORDS = 12  # a contents entry, with its page number, is shorter
# one sentence ending and the next beginning: "… Mechanismen. Zusätzlich …" (not an
# abbreviation: "Univ. Of", "Dept. of", "Phys. Rev.")
_SENTENCES = re.compile(r"[^\W\d_A-ZÀ-ÞΑ-Ω]{4}\. [A-ZÀ-Þ]")


_CONTENTS = re.compile(r"(table of )?contents|inhalt(sverzeichnis)?|sommaire|table des "
                       r"mati[eè]res|[íi]ndice( general)?|inhoud(sopgave)?|目次|目录",
                       re.IGNORECASE)


# where a paper's body starts: its abstract, introduction or first numbered section
_OPENS_BODY = re.compile(r"(abstract|summary|introduction|contents)\b|\d+(\.\d+)*\.?\s",
                         re.IGNORECASE)


class Spacing(NamedTuple):
    """The usual gap between the lines of a paragraph, and the loose one of a
    document whose lines are set a line's height apart or more: double-spaced, or in a
    font whose lines stand farther apart than its glyphs' box says (Amiri in a word
    processor: boxes 14 pt tall, 28 pt apart). Elsewhere a gap of a whole line is a
    blank line. `measure`: per size class, the width of the document's full lines."""

    gap: float
    loose: float | None = None
    measure: dict[float, float] = {}

    def full(self, line: RawLine) -> bool:
        """Does `line` run (nearly) the width of the document's full lines in its type:
        a line broken to carry its sentence on, no label or list entry?"""
        return (line.bbox[2] - line.bbox[0]
                >= _FULL * self.measure.get(size_class(line.size), float("inf")))

    def within(self, gap: float, height: float, full: bool = False) -> bool:
        """Is `gap`, under a line `height` tall, the spacing inside a paragraph? A
        loose gap holds only under a `full` line: under a short one (a label, a
        list's entry), a line's height apart, the next line is the next entry."""
        if self.loose is not None and full:
            return -height < gap < self.loose + 0.3 * height
        return -height < gap < min(self.gap + 0.3 * height, height)


def _usual_line_gap(pages: list[PageRead]) -> Spacing:
    """The most common gap between a line and the next line of the same style right
    below it: the spacing inside a paragraph. Paragraph breaks are wider than that.
    Gaps as tall as a line count only where they are most of the evidence: between a
    full line that carries its sentence on and the next (a blank line can follow a
    heading or a paragraph's end, not a sentence broken at the line's end)."""
    widths: dict[float, list[float]] = {}
    for page in pages:
        for item in page.items:
            if item.line is not None:
                box = item.line.bbox
                widths.setdefault(size_class(item.line.size), []).append(box[2] - box[0])
    # nine lines in ten are at most this wide: the full measure, not an overfull line;
    # a type set in a few lines (a label, a signature's "Chair") has none
    measure = {size: sorted(w)[int(0.9 * (len(w) - 1))] for size, w in widths.items()
               if len(w) >= _MEASURED_LINES}
    gaps: Counter[float] = Counter()
    loose: list[float] = []
    spacing = Spacing(0.0, measure=measure)
    for page in pages:
        lines = [i.line for i in page.items if i.line is not None]
        for above, below in zip(lines, lines[1:], strict=False):
            height = above.bbox[3] - above.bbox[1]
            gap = below.bbox[1] - above.bbox[3]
            if size_class(above.size) != size_class(below.size):
                continue
            if -height < gap < height:
                gaps[round(gap * 2) / 2] += 1
            elif (height <= gap < _LOOSE_GAP * height and not _ends_sentence(above)
                  and not below.text[:1].isupper()  # the sentence goes on
                  and len(above.words) >= _PROSE_WORDS and spacing.full(above)):
                loose.append(gap)
    usual = gaps.most_common(1)[0][0] if gaps else 0.0
    if len(loose) > max(gaps.total(), _LOOSE_EVIDENCE):
        return Spacing(usual, sorted(loose)[len(loose) // 2], measure)
    return Spacing(usual, None, measure)


def _opens_bracket(texts: Iterable[str]) -> bool:
    """Do `texts` leave a bracket open? A list item cannot start inside one."""
    depth = 0
    for text in texts:
        depth += text.count("(") - text.count(")")
    return depth > 0


_DASHES = frozenset({"-", "–", "—"})
_LOOSE_GAP = 2.0  # lines of a paragraph are at most this many of their heights apart
# a loose gap needs more than this many pairs of full lines of prose (this many words
# or more) to say so: a figure's few labels are no paragraph
_LOOSE_EVIDENCE = 5
_PROSE_WORDS = 4
_MEASURED_LINES = 20  # a type has a full measure when set in this many lines or more
_FULL = 0.8  # of the full measure: a line broken to carry its sentence on


# question and answer in a typewritten transcript: speakers, not a lettered list
_TESTIMONY = frozenset({"Q.", "A."})
# a paragraph in a script without case is carried on below a blank of at most this many
# of its lines (`_Builder._carried`)
_CASELESS_GAP = 2.0
_NUMBER_ABOVE = 2.0  # a section number set above its title is at most this many of its lines up
# a footnote's mark, a word of its own (`pages._split_marks` cuts it from the first word)
_FOOTNOTE_START = re.compile(r"\d{1,3}|[*∗†‡§¶⋆]{1,3}")

# `Word(*fields)` without the Python-level `__new__` of a named tuple: the hot loop
_new_tuple = tuple.__new__

_IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


class _Builder:
    def __init__(self, style: DocumentStyle, spacing: Spacing) -> None:
        self.layout = Layout(pages=[])
        self.style = style
        # this page's lines as read (their style), and those whose kind an engine decided
        self.raw: dict[int, RawLine] = {}
        self.engine_kind: set[int] = set()
        self.spacing = spacing
        self.page = 0
        self.matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
        self.previous_table: Block | None = None  # the last block so far, if a table
        self.running = 0  # lines an engine marked as running heads and feet
        self.footnotes: set[int] = set()  # ids of the blocks that are footnotes
        # ids of the lines read as notes (margin and rotated notes): after the block they
        # stand beside or after the page's body, between a paragraph's two parts
        self.note_lines: set[int] = set()
        # a paragraph's size class, that of most of its lines (a last line may be all
        # formula, set smaller)
        self.sizes: dict[int, float] = {}

    def display(self, box: BBox) -> BBox:
        """A text-space box in displayed coordinates (the page's rotation applied)."""
        if self.matrix == _IDENTITY:  # an unrotated page: most pages, and hot
            return _upright(box)
        x0, y0, x1, y1 = box
        a, b, c, d, e, f = self.matrix
        x0, y0, x1, y1 = (a * x0 + c * y0 + e, b * x0 + d * y0 + f,
                          a * x1 + c * y1 + e, b * x1 + d * y1 + f)
        return (round(min(x0, x1), 2), round(min(y0, y1), 2),
                round(max(x0, x1), 2), round(max(y0, y1), 2))

    def displayed(self, words: list[WordBox]) -> list[BBox]:
        """`display` of every word's box, the upright page's case in one loop (a
        600-page document has hundreds of thousands of words)."""
        if self.matrix == _IDENTITY:
            return [_upright(box) for box, _ in words]
        return [self.display(box) for box, _ in words]

    def _display_lines(self, items: list[Item]) -> dict[int, list[BBox]]:
        """The displayed boxes of the words of every line of an upright page, by
        `id()` of the line, rounded for the whole page in one numpy pass (rounding
        word by word was a fifth of building the layout); {} on a turned page."""
        if self.matrix != _IDENTITY:
            return {}
        lines = [item.line for item in items if item.line is not None]
        boxes = _upright_all([box for line in lines for box, _ in line.words])
        out: dict[int, list[BBox]] = {}
        start = 0
        for line in lines:
            end = start + len(line.words)
            out[id(line)] = boxes[start:end]
            start = end
        return out

    def add_page(self, read: PageRead) -> None:
        self.page = read.number
        self.matrix = read.matrix
        self.layout.pages.append(Page(read.number, round(read.width, 2), round(read.height, 2),
                                      read.rotation, read.ocr))
        if read.warning:
            self.layout.warnings.append(read.warning)
        self.layout.warnings.extend(read.warnings)
        # the left edge of a typewritten page's text: its paragraphs' first lines (a
        # speaker, a question) are indented from it
        margin = _usual_left(read.items) if self.style.mono_body else None
        group: list[int] = []  # line ids of the block being gathered
        reach = (0.0, 0.0)  # the left and right edges of its widest lines
        kind: BlockKind = "paragraph"
        level = 0
        last: RawLine | None = None
        after_bullet = False  # a bullet glyph set as its own line marks the next one
        note = False  # the block being gathered is a note or a label
        group_id: int | None = None  # the engine's block id of the block being gathered
        displayed = self._display_lines(read.items)
        pending = deque(enumerate(read.items))
        # margin notes read beside an open block wait for it to close, then follow it:
        # taken in where they stand, they cut the paragraph beside them in two
        held: list[tuple[int, Item]] = []
        released: set[int] = set()

        def release(before: tuple[int, Item] | None) -> None:
            """The held notes next, then `before` (the item that closes their block)."""
            if before is not None:
                pending.appendleft(before)
            pending.extendleft(reversed(held))
            released.update(id(i) for _, i in held)
            held.clear()

        while pending or held:
            if not pending:
                release(None)  # the page ends: its last block closes
            index, item = pending.popleft()
            if item.role == "running":
                self.running += 1
                continue
            if (item.role == "note" and item.line is not None and item.line.horizontal
                    and group and not note and id(item) not in released):
                held.append((index, item))
                continue
            if held and item.line is None:  # a table or picture closes the block
                release((index, item))
                continue
            if item.line is None:
                self._close(group, kind, level)
                last = None
                self._add_table(item, index == 0) if item.kind == "table" else self._add_image(item)
                continue
            raw = item.line
            if raw.text.strip() in BULLETS:
                after_bullet = True
                continue
            line_kind, line_level = self._classify(raw, item)
            if after_bullet:
                line_kind, line_level, after_bullet = "list_item", 0, False
            elif (line_kind == "list_item" and kind == "paragraph" and group
                  and raw.words[0][1] in _DASHES and _opens_bracket(
                      self.raw[i].text for i in group)):
                # "(2010" / "- 2021)": a range broken at the dash, no dash-led item
                line_kind = "paragraph"
            runs_on = (kind == "paragraph" and item.role is None and last is not None
                       and bool(group) and _caption_runs_on(self.raw[group[0]], last, raw))
            if runs_on:
                line_kind, line_level = "paragraph", 0
            if item.group is not None or group_id is not None:
                # the engine knows its blocks: its block ids say where one ends
                joins = item.group == group_id and line_kind in (kind, "paragraph")
            else:
                same_block = (
                    (line_kind == "paragraph" and kind in ("paragraph", "list_item"))
                    or (line_kind == kind and kind in ("code", "heading")
                        and line_level == level
                        # a title's release line set in its type ("The arabluatex
                        # package" / "v1.20 – 2020/03/23") is no line of the title
                        and not (kind == "heading" and is_date(raw.text)))
                )
                joins = runs_on or (
                    same_block and last is not None and (item.role in ("note", "label")) == note
                    and _continues(last, raw, self.spacing, opening=len(group) == 1,
                                   margin=margin, full=self.spacing.full(last))
                    and not (kind == "paragraph" and line_kind == "paragraph"
                             and margin is None
                             and (_indented_start(last, raw, _next_line(read.items, index),
                                                  reach)
                                  or self._next_footnote(last, raw))))
            if not joins and held:  # the block closes: its notes first
                release((index, item))
                continue
            if not joins:
                self._close(group, kind, level)
                kind, level = line_kind, line_level
                reach = (raw.bbox[0], raw.bbox[2])
            reach = (min(reach[0], raw.bbox[0]), max(reach[1], raw.bbox[2]))
            group_id, note = item.group, item.role in ("note", "label")
            line_id = self._add_line(raw.words, raw.bbox, skip_bullet=line_kind == "list_item",
                                     boxes=displayed.get(id(raw)))
            self.raw[line_id] = raw
            if item.role is not None:
                self.engine_kind.add(line_id)
            if item.role == "note":
                self.note_lines.add(line_id)
            group.append(line_id)
            last = raw
            self.previous_table = None
        self._close(group, kind, level)
        self.raw.clear()  # a page's styles are not needed once its blocks are made
        self.engine_kind.clear()

    def _classify(self, raw: RawLine, item: Item) -> tuple[BlockKind, int]:
        if item.role is not None:
            return _ROLE_KINDS[item.role], (max(item.level, 1)
                                            if item.role == "heading" else 0)
        size = size_class(raw.size)
        if raw.mono and not self.style.mono_body:
            return "code", 0
        first = raw.words[0][1]
        smallest_heading = min(self.style.ranks, default=float("inf"))
        bullet = first in BULLETS and not (
            first == "*" and self._in_footnotes(raw.bbox[1], raw.size))
        numbered = (NUMBERED_ITEM.match(first) and size < smallest_heading
                    and not (self.style.mono_body and first in _TESTIMONY))
        if bullet or numbered:
            return "list_item", 0
        if size in self.style.ranks and not CAPTION.match(raw.text):
            return "heading", self.style.ranks[size]
        return "paragraph", 0

    def _add_line(self, words: list[WordBox], bbox: BBox, *, skip_bullet: bool = False,
                  boxes: list[BBox] | None = None) -> int:
        """`boxes`: the words' displayed boxes, when `_display_lines` made them."""
        line_id = len(self.layout.lines)
        if boxes is None:
            boxes = self.displayed(words)
        if skip_bullet and len(words) > 1 and words[0][1] in BULLETS:
            words, boxes = words[1:], boxes[1:]  # the list marker: markdown writes "- "
        all_words = self.layout.words
        first = len(all_words)
        all_words.extend(map(_new_tuple, repeat(Word), zip(
            range(first, first + len(words)), repeat(self.page), [text for _, text in words],
            boxes, repeat(line_id))))
        self.layout.lines.append(Line(line_id, self.page, self.display(bbox),
                                      tuple(range(first, len(all_words)))))
        return line_id

    def _close(self, line_ids: list[int], kind: BlockKind, level: int) -> None:
        if not line_ids:
            return
        blocks = self.layout.blocks
        lines = [self.raw[i] for i in line_ids if i in self.raw]
        if lines and line_ids[0] not in self.engine_kind:
            kind, level = refine(kind, level, lines, self.style)  # type: ignore[assignment]
        before = blocks[-1] if blocks else None
        if (kind == "heading" and before is not None and before.page == self.page
                and before.kind not in ("table", "image")
                and ((len(before.line_ids) == 1
                      and ((is_section_number(text := self.layout.block_text(before))
                            and self._beside_title(before, line_ids[0]))
                           or is_division_label(text)))
                     or self._title_goes_on(before, level, line_ids))):
            # "5.1" set apart from its title: one heading "5.1 Results"; "Chapter 2"
            # over its title: one heading "Chapter 2 Limited Market"; a title set in
            # wide-spaced lines ("LuaTeX" / "Reference" / "Manual") is one title
            blocks.pop()
            self.footnotes.discard(before.id)
            line_ids[:0] = before.line_ids
        box = union(self.layout.lines[i].bbox for i in line_ids)
        # A paragraph carried on across a column or page break (it starts above the
        # footnotes, in the next column, or on the next page) carries on the last
        # paragraph before the footnotes at the foot of that column or page, and
        # before a table or figure placed at the break.
        target = None
        footnote = kind == "paragraph" and self._footnote(lines, line_ids[0], box)
        if kind == "paragraph":
            target = self._carried(box, lines, line_ids[0])
        if footnote and target is not None and blocks[target].id not in self.footnotes:
            target = None  # a footnote under "… with mul-" is no part of that word
        block = Block(len(blocks), self.page, kind, box, tuple(line_ids), level,
                      continues=len(blocks) - target if target is not None else 0)
        if kind == "paragraph" and lines:
            sizes = Counter(size_class(line.size) for line in lines)
            self.sizes[block.id] = sizes.most_common(1)[0][0]
        if footnote:
            self.footnotes.add(block.id)
        blocks.append(block)
        line_ids.clear()

    def _beside_title(self, number: Block, title_line: int) -> bool:
        """Is the section number `number` set where a title's number goes: on the
        title's row, close to it, or right above it, over its first line? A number at
        the far end of the line above (a contents page's "Preamble … 1") is that
        line's; one far above (a callout "3" on the photo over a manual's heading) is
        no part of the title."""
        n = self.layout.lines[number.line_ids[0]].bbox
        t = self.layout.lines[title_line].bbox
        height = t[3] - t[1]
        if n[1] < t[3] and t[1] < n[3]:  # one row
            return max(t[0] - n[2], n[0] - t[2]) < 3 * height
        return n[0] < t[2] and t[0] < n[2] and t[1] - n[3] < _NUMBER_ABOVE * height

    def _title_goes_on(self, before: Block, level: int, line_ids: list[int]) -> bool:
        """Is a level-1 heading of a few words, right under the level-1 heading
        `before` (less than three of its lines apart, nothing between, overlapping it
        across), the next line of one title set with wide spacing? Only in type
        larger than the text's: bold lines in the text's own size, a line apart (a
        transcript's "TRANSCRIPT OF PROCEEDINGS" over "DIRECT EXAMINATION OF …", its
        lines double-spaced), are headings one over the other."""
        if (before.kind != "heading" or before.level != 1 or level != 1
                or (line_ids[0] in self.raw
                    and size_class(self.raw[line_ids[0]].size) <= self.style.body + 0.5)):
            return False
        first = self.layout.lines[line_ids[0]].bbox
        above = self.layout.lines[before.line_ids[-1]].bbox
        words = sum(len(self.layout.lines[i].word_ids) for i in (*before.line_ids, *line_ids))
        return (words <= MAX_TITLE_WORDS and 0 <= first[1] - above[3] < 3 * (above[3] - above[1])
                and first[0] < above[2] and above[0] < first[2])

    def _carried(self, box: BBox, lines: list[RawLine], first_line: int) -> int | None:
        """The index of the paragraph that the paragraph at `box` carries on, if any:
        the last block, or the last before the footnotes, tables, pictures, captions
        and figure labels between. (Stopping at the first float instead could find
        none: a caption ends a sentence, a table or picture is no paragraph.)"""
        blocks = self.layout.blocks
        wrapped = self._wrapped(first_line)
        if wrapped is not None:
            return wrapped
        target = len(blocks) - 1
        passed_float = False
        caption: Block | None = None  # the figure caption last passed, if any
        while target > 0 and (between := self._at_break(blocks[target], box, caption)):
            passed_float = passed_float or between != "footnote"
            if between == "caption":
                caption = blocks[target]
            target -= 1
        if target < 0:
            return None
        before = blocks[target]
        last = target == len(blocks) - 1
        end = self.layout.lines[before.line_ids[-1]].bbox if before.line_ids else before.bbox
        below = before.page == self.page and box[1] >= end[1] - 1.0  # no break between
        if (before.kind != "paragraph" or (before.id in self.footnotes and not last)
                # past a float, only at a break: the next column (starting above the
                # paragraph's last line) or the next page
                or (passed_float and below)
                or (lines and lines[0].horizontal
                    and _caseless(self._first_word(first_line)[:1])
                    and _caseless_stop(before, box, end, len(lines), below=below, last=last))
                or not (self._continues_text(before, first_line)
                        or self._goes_on_flush(before, lines, below))):
            return None
        # past footnotes or floats: set as that paragraph is, not a figure's text
        if not last and lines and abs(
                size_class(lines[0].size) - self.sizes.get(before.id, 0.0)) > 0.5:
            return None
        return target

    def _at_break(self, block: Block, box: BBox, caption: Block | None = None) -> str | None:
        """Can `block` stand between a paragraph and its continuation (at `box`)?
        "footnote": one at the foot of a column or page; "caption", or "float": a
        table, a picture, a note or the labels of the figure over `caption`, placed
        where the text breaks, on this page or the one before."""
        if block.id in self.footnotes:
            return "footnote" if block.page != self.page or box[1] < block.bbox[1] else None
        if block.page < self.page - 1:
            return None
        if self._head_of_page(block, box):
            return "float"  # a running head read as text: a paragraph goes on under it
        if block.kind == "paragraph" and (
                (self._closed(block) and CAPTION.match(self.layout.line_text(block.line_ids[0])))
                or self._float_caption(block)):
            return "caption"  # its first line: a caption may stand on the page before
        if block.kind in ("table", "image") or block.line_ids[0] in self.note_lines or (
                caption is not None and self._labels(block, caption, box)):
            return "float"  # a note (an arXiv stamp) is read after its page's text
        return None

    def _head_of_page(self, block: Block, box: BBox) -> bool:
        """Is `block` a line atop this page, in its head margin, set apart above the
        text at `box` and the first thing on the page: a running head that did not
        give itself away (one chapter's name on one page, "A. Szimulációs
        eredmények")? Not a heading: a title atop a page heads what follows it."""
        blocks = self.layout.blocks
        height = self.layout.pages[-1].height  # as displayed, as blocks' boxes are
        return (block.page == self.page and block.kind in ("paragraph", "list_item")
                and len(block.line_ids) == 1 and block.bbox[3] <= height * RUNNING_MARGIN
                # set apart from the text under it (a page's first line of text is not)
                and box[1] - block.bbox[3] > block.bbox[3] - block.bbox[1]
                and (block.id == 0 or blocks[block.id - 1].page != self.page))

    def _float_caption(self, block: Block) -> bool:
        """Is `block` the caption set right above or below a table or picture, a label
        and a title that need not end a sentence ("TABLE 2: TABLE WITH MORE
        COMPLICATED COLUMNS")?"""
        blocks = self.layout.blocks
        return bool(CAPTION_TITLE.match(self.layout.line_text(block.line_ids[0]))) and any(
            0 <= n < len(blocks) and blocks[n].kind in ("table", "image")
            and blocks[n].page == block.page for n in (block.id - 1, block.id + 1))

    def _labels(self, block: Block, caption: Block, box: BBox) -> bool:
        """Is `block` text drawn in the figure over `caption` (an axis's numbers, a
        legend, a listing): above it, across its column (its width or that of the text
        carried on below it, at `box`; a figure may be wider than its caption), in
        smaller print than the body text?
        A chart drawn in lines keeps its labels as text, not as a picture."""
        if block.kind != "paragraph" or block.page != caption.page:
            return False
        left, right = min(caption.bbox[0], box[0]), max(caption.bbox[2], box[2])
        return (block.bbox[3] <= caption.bbox[1] + 1.0
                and block.bbox[0] < right and block.bbox[2] > left
                and self.sizes.get(block.id, self.style.body) < self.style.body - 0.5)

    def _closed(self, block: Block) -> bool:
        """Does `block` end a sentence? A caption does; a paragraph that opens with
        "Table 4 summarizes …" and breaks mid-sentence is the one carried on."""
        return self._last_word(block).endswith(SENTENCE_END + (")",))

    def _last_word(self, block: Block) -> str:
        return self.layout.words[self.layout.lines[block.line_ids[-1]].word_ids[-1]].text

    def _first_word(self, line_id: int) -> str:
        return self.layout.words[self.layout.lines[line_id].word_ids[0]].text

    def _footnote(self, lines: list[RawLine], first_line: int, box: BBox) -> bool:
        """A paragraph in small print in the lower half of its page that starts with a
        footnote's mark ("1", "*")."""
        if not lines or not self._in_footnotes(box[1], sum(line.size for line in lines)
                                               / len(lines)):
            return False
        first = self._first_word(first_line)
        return bool(_FOOTNOTE_START.fullmatch(first))

    def _next_footnote(self, previous: RawLine, line: RawLine) -> bool:
        """Does `line` start the next footnote? In small print in the lower half of
        its page, it starts with a footnote's mark and the line before it ends a
        sentence: two short footnotes set one under the other, both marks indented
        alike, ran on as one paragraph ("∗ Harbour Institute. 1 The effective …")."""
        if len(line.words) < 2 or not _FOOTNOTE_START.fullmatch(line.words[0][1]):
            return False  # the usual line, decided first
        return self._in_footnotes(line.bbox[1], line.size) and _ends_sentence(previous)

    def _in_footnotes(self, top: float, size: float) -> bool:
        """Is text from `top` down, set in `size`, where footnotes are: in small print,
        in the lower half of its page? (There an asterisk that starts a line is a
        footnote's mark, kept in the text, not a list's bullet.)"""
        page = self.layout.pages[-1]
        height = page.height if page.rotation % 180 == 0 else page.width
        return top >= height / 2 and size_class(size) < self.style.body - 0.5

    def _continues_text(self, before: Block, first_line: int) -> bool:
        """Does a paragraph that starts with `first_line` carry on the paragraph
        `before` across a column or page break (no full stop, then lower case)?"""
        if self._closed(before):
            return False
        last = self._last_word(before)
        first = self._first_word(first_line)
        # "arti-" goes on in "cles", not in a figure's "Web Crawling"; after a dash
        # of its own ("Chapter 1 -" / "Anders") the sentence goes on whatever the case
        return (_lower_or_caseless(first[:1]) or last == "-"
                or (last.endswith("-") and not first[:1].isupper()))

    def _wrapped(self, first_line: int) -> int | None:
        """The paragraph that the text from `first_line` carries on right under its
        last line, past the blocks read between them, all set beside it and above that
        line: a picture or table floated to one side, its caption (LaTeX's wrapfigure,
        a web page's floated photo). The text wraps round them, and its first line
        below them runs on under them (left to right only)."""
        blocks = self.layout.blocks
        if len(blocks) < 2 or right_to_left((self.layout.line_text(first_line),)):
            return None
        first = self.layout.lines[first_line].bbox
        height = first[3] - first[1]
        for n in range(len(blocks) - 2, max(-1, len(blocks) - 2 - WRAP_BLOCKS), -1):
            before = blocks[n]
            if before.page != self.page:
                return None
            if before.kind != "paragraph" or len(before.line_ids) < 2:
                continue
            end = self.layout.lines[before.line_ids[-1]].bbox
            beside = blocks[n + 1:]
            if (self._continues_text(before, first_line)  # no full stop, then lower case
                    # a picture or table (an index's next column is no float)
                    and any(b.kind in ("image", "table") for b in beside)
                    and 0 <= first[1] - end[3] and self.spacing.within(first[1] - end[3], height)
                    and abs(first[0] - before.bbox[0]) < 0.5 * height
                    and first[2] > before.bbox[2] + 2 * height
                    and all(b.bbox[0] >= before.bbox[2] - 1.0 and b.bbox[3] <= first[1] + 1.0
                            for b in beside)):
                return n
        return None

    def _goes_on_flush(self, before: Block, lines: list[RawLine], below: bool) -> bool:
        """Does the text at the top of the next column or page carry on `before`,
        though `before` ends a sentence? Its last line is full, and a paragraph's last
        line is not: it is set at its natural width, not stretched to the margin. So
        where the lines of `before` all end at the margin (justified), or where
        paragraphs open indented (as `before` does; a new one would be indented too),
        the text set flush at the top of the next column is the same paragraph, broken
        where a sentence happened to end (a browser's columns as TeX's)."""
        if (below or len(before.line_ids) < 2 or len(lines) < 2 or not lines[0].horizontal
                or not self._closed(before) or not lines[0].text[:1].isupper()
                or lines[0].bold or lines[0].bold_lead  # a run-in head ("Sample efficiency We …")
                or CAPTION.match(lines[0].text)
                or abs(size_class(lines[0].size) - self.sizes.get(before.id, 0.0)) > 0.5
                or right_to_left((lines[0].text,))):
            return False  # a sentence ends, the next starts in the same type, no caption
        boxes = [self.layout.lines[i].bbox for i in before.line_ids]
        em = lines[0].size or 1.0
        margin = max(b[2] for b in boxes) - 0.3 * em
        indented = INDENT_EMS[0] * em <= boxes[0][0] - boxes[1][0] <= INDENT_EMS[1] * em
        justified = len(boxes) >= 3 and all(b[2] >= margin for b in boxes)
        return (boxes[-1][2] >= margin and (indented or justified)
                and abs(lines[0].bbox[0] - lines[1].bbox[0]) < 0.3 * em)

    def _add_image(self, item: Item) -> None:
        """A picture: a block with a box and no words (nothing of it is embedded)."""
        self.layout.blocks.append(Block(len(self.layout.blocks), self.page, "image",
                                        self.display(item.bbox)))
        self.previous_table = None

    def _add_table(self, item: Item, first_on_page: bool) -> None:
        assert item.rows is not None
        rows = tuple(
            tuple(self._add_cell(cell) for cell in row) for row in item.rows
        )
        previous = self.previous_table.table if self.previous_table else None
        continued = first_on_page and previous is not None and len(previous.rows[0]) == len(
            rows[0])
        header_rows = 1
        if continued and previous is not None:
            # A continuation usually repeats the header; if it does not, it has none.
            header_rows = 1 if self._row_text(previous.rows[0]) == self._row_text(rows[0]) else 0
        line_ids = tuple(dict.fromkeys(
            self.layout.words[w].line for row in rows for cell in row for w in cell))
        block = Block(len(self.layout.blocks), self.page, "table", self.display(item.bbox),
                      line_ids, table=Table(rows, header_rows, continued))
        self.layout.blocks.append(block)
        self.previous_table = block

    def _add_cell(self, words: list[WordBox]) -> tuple[int, ...]:
        """A cell's words, one Line per text line inside the cell."""
        ids: list[int] = []
        start = 0
        for n in range(1, len(words) + 1):
            if n == len(words) or abs(words[n][0][1] - words[start][0][1]) >= 2:
                line_words = words[start:n]
                line_id = self._add_line(line_words, union(b for b, _ in line_words))
                ids.extend(self.layout.lines[line_id].word_ids)
                start = n
        return tuple(ids)

    def _row_text(self, row: tuple[tuple[int, ...], ...]) -> list[str]:
        return [" ".join(self.layout.words[w].text for w in cell) for cell in row]


def _lower_or_caseless(c: str) -> bool:
    """Can a paragraph go on with `c`? A lower-case letter, or a letter of a script
    without case (Arabic, Hebrew, CJK), where only the missing full stop before it
    tells that the sentence goes on."""
    return c.islower() or _caseless(c)


def _caseless(c: str) -> bool:
    """A letter of a script without case; not a mathematical italic (𝑥, 𝜙), which
    starts a formula's pieces, not a sentence."""
    return (c.isalpha() and not c.isupper() and c.lower() == c.upper()
            and not _MATH_LETTERS[0] <= c <= _MATH_LETTERS[1])


_MATH_LETTERS = ("\U0001D400", "\U0001D7FF")  # Mathematical Alphanumeric Symbols


def _caseless_stop(before: Block, box: BBox, end: BBox, lines: int, *, below: bool,
                   last: bool) -> bool:
    """Does a paragraph at `box` (of `lines` lines, in a script without case) stop the
    paragraph `before` (whose last line is at `end`) rather than carry it on? There
    only the missing full stop says that the sentence goes on; below a blank of two
    lines or more it does not (a diagram's labels, a page number, a heading over the
    next paragraph), nor into a short block beside it (the next of a row of labels;
    `last`: nothing between the two)."""
    return ((below and box[1] - end[3] > _CASELESS_GAP * max(end[3] - end[1], 1.0))
            or (last and _side_by_side(before, box, lines)))


def _side_by_side(before: Block, box: BBox, lines: int) -> bool:
    """Are `before` and the block at `box` (of `lines` lines) two short blocks side by
    side, sharing most of their height: labels in a row, not a column's last lines
    and the next column's first ones?"""
    if len(before.line_ids) > LABEL_LINES or lines > LABEL_LINES:
        return False
    shared = min(before.bbox[3], box[3]) - max(before.bbox[1], box[1])
    apart = max(box[0] - before.bbox[2], before.bbox[0] - box[2])
    # set apart as labels are, not the pieces of one line set in two fonts
    return (shared > 0.5 * min(before.bbox[3] - before.bbox[1], box[3] - box[1])
            and apart > (box[3] - box[1]) / lines)


def _upright(box: BBox) -> BBox:
    """`_Builder.display` on an unrotated page: the box rounded, its corners in order.
    `+ 0.0` as the general formula has it: it turns -0.0 into 0.0."""
    x0, y0, x1, y1 = box
    if x0 <= x1 and y0 <= y1:  # as words come; min and max cost a call each
        return (round(x0 + 0.0, 2), round(y0 + 0.0, 2), round(x1 + 0.0, 2), round(y1 + 0.0, 2))
    x0, y0, x1, y1 = x0 + 0.0, y0 + 0.0, x1 + 0.0, y1 + 0.0
    return (round(min(x0, x1), 2), round(min(y0, y1), 2),
            round(max(x0, x1), 2), round(max(y0, y1), 2))


def _upright_all(boxes: list[BBox]) -> list[BBox]:
    """`_upright` of every box, in numpy: the same floats, to the bit. Rounding to
    hundredths as `round(x, 2)` does (the decimal nearest, ties to even) differs from
    numpy's (x * 100, rounded) only where x * 100 falls within a hair of a half;
    those few values, and pages with a value that is not finite or is huge, are
    rounded by `round` itself."""
    if not boxes:
        return []
    values = numpy.array(boxes, dtype=numpy.float64).reshape(-1, 4) + 0.0
    if not numpy.isfinite(values).all() or numpy.abs(values).max() > 1e9:
        return [_upright(box) for box in boxes]
    x0 = numpy.minimum(values[:, 0], values[:, 2])
    x1 = numpy.maximum(values[:, 0], values[:, 2])
    y0 = numpy.minimum(values[:, 1], values[:, 3])
    y1 = numpy.maximum(values[:, 1], values[:, 3])
    ordered = numpy.stack((x0, y0, x1, y1), axis=1)
    scaled = ordered * 100.0
    rounded = numpy.rint(scaled) / 100.0
    near_half = numpy.abs(scaled - numpy.floor(scaled) - 0.5) < 1e-6
    if near_half.any():  # eighths of a point (x.125, x.375) are common: many
        rounded[near_half] = [round(v, 2) for v in ordered[near_half].tolist()]
    return list(zip(*rounded.T.tolist(), strict=True))


def _usual_left(items: list[Item]) -> float | None:
    """The leftmost edge that several of the page's lines start at (to the point):
    the text's margin, whatever is indented from it."""
    edges = Counter(round(i.line.bbox[0]) for i in items if i.line is not None)
    least = max(2, 0.1 * sum(edges.values()))
    shared = [x for x, n in edges.items() if n >= least]
    return float(min(shared)) if shared else None


_SUBSECTION_MARK = re.compile(r"\((?:\d{1,3}|[a-z]{1,2}|[ivx]{1,5})\)\s")  # "(d) ", "(iv) "
WRAP_BLOCKS = 4  # a floated picture, its caption, its labels: what text wraps round
MAX_TITLE_WORDS = 12  # a title set over several wide-spaced lines, at most
INDENT_EMS = (0.6, 5.0)  # a paragraph's first line is indented by this much (1-3 em usually)


def _next_line(items: list[Item], index: int) -> RawLine | None:
    """The text line after `items[index]` on the page, running heads and notes aside."""
    for item in items[index + 1:]:
        if item.role in ("running", "note"):
            continue
        return item.line
    return None


def _indented_start(previous: RawLine, line: RawLine, after: RawLine | None,
                    reach: tuple[float, float]) -> bool:
    """Does `line` start a paragraph by its indent alone, with no space above it (books,
    papers, regulations)? It is indented from `previous`, a short line that ends a
    sentence, and the line `after` it goes back to the margin `previous` starts at.
    Not so a hanging indent: a reference's second line follows a full line, or, if
    the first line is short, is itself a short line that ends the reference; centred
    lines do not come back to one margin. `reach`: the left and right edges of the
    block so far, with `line`, where full lines end. In right-to-left text the indent
    is on the right."""
    if after is None:
        return False
    if right_to_left((previous.text,)):
        start, margin, back = -line.bbox[2], -previous.bbox[2], -after.bbox[2]
        end, own_end = -previous.bbox[0], -line.bbox[0]
        full = -min(line.bbox[0], after.bbox[0], reach[0])
    else:
        start, margin, back = line.bbox[0], previous.bbox[0], after.bbox[0]
        end, own_end = previous.bbox[2], line.bbox[2]
        full = max(line.bbox[2], after.bbox[2], reach[1])
    em = line.size or 1.0
    # a line ending at the margin may end its paragraph by chance; an indented "(d)"
    # under it opens the next one (a regulation's subsections), no hanging indent's
    # next line
    short = end < full - 0.3 * em or bool(_SUBSECTION_MARK.match(line.text))
    if not (INDENT_EMS[0] * em <= start - margin <= INDENT_EMS[1] * em
            and abs(back - margin) < 0.3 * em and short):
        return False
    return _ends_sentence(previous) and not (own_end < full - 0.3 * em and _ends_sentence(line))


def _caption_runs_on(first: RawLine, last: RawLine, line: RawLine) -> bool:
    """Does `line` carry on the caption that `first` opens and `last` leaves
    unfinished, set in its type right under it ("Table 6 : DISTRIBUTION (%) OF
    HOUSEHOLDS BY LITERACY STATUS OF" over "MALE HEAD OF THE HOUSEHOLD")? Bold and in
    capitals, it read as a heading: the caption was cut in two and its table headed
    by its second half."""
    return (abs(line.size - last.size) < 0.5 and line.bold == last.bold
            and 0 < line.bbox[1] - last.bbox[1] < 2 * last.size
            and bool(CAPTION.match(first.text)) and not _ends_sentence(last))


def _ends_sentence(line: RawLine) -> bool:
    words = [w for _, w in line.words]
    last = words[-1]
    if len(words) > 1 and _FOOTNOTE_START.fullmatch(last):
        last = words[-2]  # "… the island.²": the sentence ends before the mark
    return last.endswith(SENTENCE_END)


def _ends_in_capitals(previous: RawLine, line: RawLine) -> bool:
    """Is `line` a last line of a word or two in capitals that ends the sentence
    `previous` broke off ("… after replacing TAPAS with" / "TABLEFORMER.")?"""
    last = previous.words[-1][1]
    return (len(line.words) <= 2 and line.text.endswith(".") and last[-1:].islower()
            and not looks_like_heading(previous.text))


def _continues(previous: RawLine, line: RawLine, spacing: Spacing, opening: bool = False,
               margin: float | None = None, full: bool = False) -> bool:
    """Is `line` the next line of the same paragraph (or list item, heading, code)?
    `spacing` is the document's usual spacing between the lines of a paragraph;
    `opening`: `previous` is the first line of its paragraph; `margin`: the left edge
    of a typewritten page (a transcript), whose paragraphs start with a line indented
    from it and no space above it; `full`: `previous` runs the width of the
    document's full lines (`Spacing.full`), so a loose gap may follow it."""
    if line.mono != previous.mono or line.bold != previous.bold or CAPTION.match(line.text):
        return False
    if ENTRY_END.search(previous.text):
        return False  # a contents entry ends at its page number: the next line is the next
    if (looks_like_heading(previous.text) != looks_like_heading(line.text)
            and not _ends_in_capitals(previous, line)):
        return False  # "TITLE II" or "GENERAL PROVISIONS" over its first paragraph
    if opening and numbered_title(previous.text) and (
            previous.bbox[2] < line.bbox[2] - 10 * line.size):
        return False  # "3.1.3 Windows", set like the text: a paragraph's first line is full
    if (margin is not None and line.bbox[0] - margin > 1.2 * line.size
            and previous.text.endswith((".", "?", "!", ":", "\"", "”"))):
        return False  # indented after a full stop: the next speaker, the next paragraph
    height = max(previous.bbox[3] - previous.bbox[1], 1.0)
    gap = line.bbox[1] - previous.bbox[3]
    # aligned on either edge (ragged right, or ragged left in right-to-left text) or
    # indented under it
    same_column = (abs(line.bbox[0] - previous.bbox[0]) < 40
                   or abs(line.bbox[2] - previous.bbox[2]) < 40
                   or line.bbox[0] > previous.bbox[0]
                   # a typewritten first line indented by tabs: a transcript's speaker
                   # ("          MR. BRANDT: Peter Brandt for the defendant,")
                   or (opening and margin is not None
                       and 0 < previous.bbox[0] - line.bbox[0] <= 8 * line.size))
    # loosely set text (a gap of most of a line) still holds paragraphs together; a
    # whole blank line is a break, unless the document's lines are that far apart
    return spacing.within(gap, height, full) and same_column

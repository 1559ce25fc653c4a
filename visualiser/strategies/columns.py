"""Where a run of markdown blocks moves on from one column of the page to the next.

The layout reads a page column by column, so a section without a heading of its own
at the top of a column carries on from the foot of the column before it; kept as one
chunk, its box spans both columns. Its blocks still know their words, and so their
lines' boxes: a block whose first line starts higher up the same page and right of
where the block before it ended may begin a new column; the cut stands when the
pieces on either side lie in different columns (labels strewn over a diagram jump
up and right too, but side by side they overlap). Sections are cut there, unless
the text is carried across the break (a paragraph or list item continued in the next
column is one thought and stays whole; but a section too long for one chunk is cut
somewhere anyway, and the column break is the place), and unless a piece would hold
less than a sentence (a heading at the foot of a column goes with the text it
introduces; the labels of a picture at a column's top go with the heading below
them, or stay where they were).
"""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy

from visualiser.geometry import BBox, height
from visualiser.markdown import SYNTHETIC, MdBlock, SourceMarkdown
from visualiser.patterns import CAPTION, RUNNING_WORDS

# Fewer words than this is no piece of text to stand alone as a chunk: a heading,
# a picture's callout numbers, a page number.
MIN_WORDS = 8
_TABLE_NOTE = re.compile(r"[a-z*†‡§]\s+[A-Z]")  # a note's mark, then its text
_SENTENCE_END = (".", "!", "?", ":", "\"", "”", ")")


def column_pieces(source: SourceMarkdown, sections: list[list[MdBlock]],
                  fits: Callable[[list[MdBlock]], bool]) -> list[list[list[MdBlock]]]:
    """Each section as its pieces, one per column it runs through. `fits` says
    whether a section fits one chunk: one that does not is cut somewhere anyway, and
    then a column break is the place, even where text is carried across it."""
    cut = [_Cutter(source, fits(section)).pieces(section) for section in sections]
    for n in range(len(cut) - 1):
        # Labels at the top of a column above the next section's heading belong to
        # the picture that section begins with, not to the previous column's text.
        last, following = cut[n][-1], cut[n + 1][0]
        if len(cut[n]) > 1 and _small(source, last) and _above(source, last, following):
            cut[n].pop()
            cut[n + 1][0] = last + following
    for pieces in cut:
        _merge_small(source, pieces)
    return cut


def runs_across_columns(source: SourceMarkdown, blocks: list[MdBlock]) -> bool:
    """Does the text of `blocks` run on from one column into the next on some page? A
    line starts well above and right of where the line before it ended, and the text
    before it on that page lies left of the text after it up to that height (below
    may come a footer across the page), which holds running text (a figure's labels
    may come first). Kept as one chunk, its box spans both columns. (Labels strewn
    over a diagram jump up and right too, but their pieces overlap side by side; a
    masthead's issue number or a form's next field is no running text.)"""
    ids = source.words_between(blocks[0].start, blocks[-1].end)
    if len(ids) < 2:
        return False
    pages, lefts, rights, tops, bottoms = (a[ids] for a in source.line_geometry())
    # up by three lines at least: a form's value set a little higher is no break
    jumps = numpy.flatnonzero((pages[1:] == pages[:-1]) & (lefts[1:] >= rights[:-1] - 1)
                              & (tops[1:] < tops[:-1] - 3 * (bottoms[:-1] - tops[:-1])))
    layout = source.layout
    for jump in jumps.tolist():
        page = pages == pages[jump]
        before = page[: jump + 1]
        after = page[jump + 1 :] & (tops[jump + 1 :] <= bottoms[jump])
        if rights[: jump + 1][before].max() > lefts[jump + 1 :][after].min() + 1:
            continue
        lines = {layout.words[w].line for w in ids[jump + 1 :][after].tolist()}
        if any(len(layout.lines[n].word_ids) >= RUNNING_WORDS for n in lines):
            return True
    return False


class _Cutter:
    def __init__(self, source: SourceMarkdown, whole: bool) -> None:
        self.source = source
        self.whole = whole  # the section fits one chunk: a cut must earn its place

    def pieces(self, blocks: list[MdBlock]) -> list[list[MdBlock]]:
        pieces: list[list[MdBlock]] = [[]]
        before: MdBlock | None = None  # the last block with words
        after_before = 0  # where, in the current piece, the blocks after `before` begin
        for n, block in enumerate(blocks):
            if _first_word(self.source, block) is not None:
                if before is not None and self._breaks(before, blocks[n:]):
                    # Pictures between the two (no words to place them) go with the
                    # column that follows, where a picture usually heads the text.
                    moved = pieces[-1][after_before:]
                    del pieces[-1][after_before:]
                    pieces.append(moved)
                before = block
                after_before = len(pieces[-1]) + 1
            pieces[-1].append(block)
        return self._side_by_side(pieces)

    def _side_by_side(self, pieces: list[list[MdBlock]]) -> list[list[MdBlock]]:
        """Only cuts between pieces that lie in different columns stay: labels strewn
        over a diagram jump up and right too, but their pieces overlap side by side."""
        if len(pieces) == 1:
            return pieces  # most sections: no cut to weigh
        kept = [pieces[0]]
        spans = [self._spans(pieces[0])]
        for piece in pieces[1:]:
            span = self._spans(piece)
            shared = spans[-1].keys() & span.keys()
            if shared and all(_overlap(spans[-1][p], span[p]) for p in shared):
                kept[-1] = kept[-1] + piece
                for page, (x0, x1) in span.items():
                    a, b = spans[-1].get(page, (x0, x1))
                    spans[-1][page] = (min(a, x0), max(b, x1))
            else:
                kept.append(piece)
                spans.append(span)
        return kept

    def _spans(self, blocks: list[MdBlock]) -> dict[int, tuple[float, float]]:
        """From left to right, how far the lines of `blocks` reach on each page (in
        numpy: a Python loop over every word of a section was a third of chunking)."""
        pages, lefts, rights, _, _ = self.source.line_geometry()
        spans: dict[int, tuple[float, float]] = {}
        for block in blocks:
            ids = self.source.words_between(block.start, block.end)
            if not len(ids):
                continue
            on = pages[ids]
            on_pages = numpy.unique(on).tolist()
            for page in on_pages:
                here = ids if len(on_pages) == 1 else ids[on == page]
                x0, x1 = float(lefts[here].min()), float(rights[here].max())
                a, b = spans.get(page, (x0, x1))
                spans[page] = (min(a, x0), max(b, x1))
        return spans

    def _breaks(self, before: MdBlock, following: list[MdBlock]) -> bool:
        block = following[0]
        last = _line_box(self.source, _last_word(self.source, before))
        first = _line_box(self.source, _first_word(self.source, block))
        if last is None or first is None or last[0] != first[0]:
            return False  # another page: a page break, not a column break
        (_, a), (_, b) = last, first
        new_column = b[0] >= a[2] - 1 and b[1] < a[1] - height(a)
        if not new_column:
            return False
        return not self.whole or not self._carried(before, self._text_after(following))

    def _text_after(self, following: list[MdBlock]) -> MdBlock | None:
        """The first block of running text from here on: a table, picture, caption or
        a few labels set at the top of a column sit in the text's way, they do not
        end it."""
        after_table = False
        for block in following:
            text = self.source.text[block.start : block.end]
            floats = block.kind in ("table", "image", "code") or (
                block.kind == "paragraph"
                and (CAPTION.match(text) or _small(self.source, [block])
                     # a table's notes, marked "a", "b" ("a Default option."): no
                     # sentence carried on in lower case
                     or (after_table and _TABLE_NOTE.match(text))))
            if not floats:
                return block
            after_table = block.kind == "table" or (after_table and block.kind == "paragraph")
        return None  # nothing but floats to the section's end: no text carried on

    def _carried(self, before: MdBlock, block: MdBlock | None) -> bool:
        """Does `block`, the first text of a column, carry on text from the column
        before? One that opens in mid-sentence (lower case) does, even when a caption
        or a table stands between; so does one after text that did not end a
        sentence, unless it opens with a capital ("pages" then "1470–1480", or a
        script without capitals, where only the stop can tell), or after a word
        broken by a hyphen. (A callout number is no text: `_text_after` skips it.)"""
        if block is None or block.kind != "paragraph":
            return False
        text = self.source.text
        first = text[block.start : block.end].lstrip()
        if not first or first[0].islower():
            return bool(first)
        last = text[before.start : before.end].rstrip()
        if before.kind not in ("paragraph", "list") or last.endswith(_SENTENCE_END):
            return False
        return not first[0].isupper() or last.endswith("-")


def _merge_small(source: SourceMarkdown, pieces: list[list[MdBlock]]) -> None:
    """A piece of less than a sentence joins the piece before it (the first piece,
    the one after it: a heading at a column's foot goes with its text)."""
    if len(pieces) < 2:
        return  # most sections: one piece, nothing to count
    # Each piece's count of words, kept beside it: a joined piece's is the sum, so no
    # piece is counted again.
    words = [_word_count(source, piece) for piece in pieces]
    n = 0
    while len(pieces) > 1 and n < len(pieces):
        if words[n] < MIN_WORDS:
            if n == 0:
                pieces[0:2] = [pieces[0] + pieces[1]]
                words[0:2] = [words[0] + words[1]]
            else:
                pieces[n - 1 : n + 1] = [pieces[n - 1] + pieces[n]]
                words[n - 1 : n + 1] = [words[n - 1] + words[n]]
                n -= 1
            continue
        n += 1


def _small(source: SourceMarkdown, blocks: list[MdBlock]) -> bool:
    return _word_count(source, blocks) < MIN_WORDS


def _word_count(source: SourceMarkdown, blocks: list[MdBlock]) -> int:
    return sum(len(source.words_between(b.start, b.end)) for b in blocks)


def _above(source: SourceMarkdown, blocks: list[MdBlock], following: list[MdBlock]) -> bool:
    """Do `blocks` sit right above the heading `following` begins with, in its column?"""
    if not following or following[0].kind != "heading":
        return False
    last = _line_box(source, next(
        (w for b in reversed(blocks) if (w := _last_word(source, b)) is not None), None))
    first = _line_box(source, _first_word(source, following[0]))
    if last is None or first is None or last[0] != first[0]:
        return False
    (_, a), (_, b) = last, first
    return a[0] < b[2] and b[0] < a[2] and b[1] >= a[3] - 1


def _overlap(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return a[0] < b[1] - 1 and b[0] < a[1] - 1


def _first_word(source: SourceMarkdown, block: MdBlock) -> int | None:
    return next((w for w in source.word_at[block.start : block.end] if w != SYNTHETIC), None)


def _last_word(source: SourceMarkdown, block: MdBlock) -> int | None:
    return next((w for w in reversed(source.word_at[block.start : block.end])
                 if w != SYNTHETIC), None)


def _line_box(source: SourceMarkdown, word_id: int | None) -> tuple[int, BBox] | None:
    """The page and box of the line the word sits on."""
    if word_id is None:
        return None
    layout = source.layout
    word = layout.words[word_id]
    return word.page, layout.lines[word.line].bbox

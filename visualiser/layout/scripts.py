"""Scripts that do not run left to right in spaced words: right-to-left lines (Arabic,
Hebrew), CJK without spaces, vertical Japanese, and ligatures.

PyMuPDF hands us characters with their boxes. For an ordinary Latin line its own word
list is right and cheap, and `pages.py` keeps it; the lines this module handles are
rebuilt from the characters:

- right-to-left lines: MuPDF splits a visual line where the direction changes and
  keeps neutrals (spaces, commas, brackets) where the content stream put them, so the
  fragments and punctuation come out of order. We sort the characters by where they
  sit on the page (visual order) and undo the Unicode bidi reordering (a compact form of
  UAX #9 for one line) to get the reading order back;
- ligatures: a glyph mapped to several characters gives the first one the glyph's box
  and the rest zero width; those are kept with their glyph so that lam-alef reads
  "لأ" and not "أل"; presentation forms (ﻻ, ﬁ, shaped Arabic letters) are normalised
  with NFKC in the word text while the word keeps the glyph's box;
- CJK: a run of wide characters is split into words where the run is interrupted on
  the page (a gap), and a line into lines at a gutter, never one word spanning columns;
- vertical text: columns of characters are read top to bottom, the columns right to
  left (`vertical_order`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from visualiser.geometry import BBox, union
from visualiser.layout.items import Item, WordBox

Char = tuple[BBox, str]

_PRESENTATION_FORMS = ((0xFB00, 0xFDFF), (0xFE70, 0xFEFF))  # ligatures, shaped Arabic/Hebrew
WORD_GAP = 0.4  # of the font size: a wider gap between two glyphs separates words
# ... and between glyphs of a spaced script (Arabic, Latin, digits), whose letters
# touch (their boxes are their advances; measured gaps inside words stay under 0.1)
# while a word space, when the text layer leaves its character out, is 0.2-0.3
SPACED_GAP = 0.15
COLUMN_GAP = 2.0  # of the font size: a wider gap inside a line is a gutter
OCR_CHAR_GAP = 0.8  # OCR boxes hug the ink, so narrow CJK glyphs leave wider gaps


def normalise(text: str) -> str:
    """`text` with ligatures and presentation forms decomposed (NFKC for those only:
    full NFKC would also rewrite superscripts, fractions and full-width CJK)."""
    if text.isascii() or max(text) < "\ufb00":  # the usual case, decided in C
        return text
    return "".join(unicodedata.normalize("NFKC", c) if _is_presentation(c) else c
                   for c in text)


def _is_presentation(c: str) -> bool:
    code = ord(c)
    return any(lo <= code <= hi for lo, hi in _PRESENTATION_FORMS)


def stretching_glyphs(trace: Iterable[dict]) -> list[Char]:
    """Glyphs of a right-to-left text that MuPDF's text layer leaves out: a joining
    glyph (a kashida, or the letter a broken font maps it to) drawn again a little
    further on to stretch a justified line. MuPDF drops a glyph that repeats the one
    before it closer than a tenth of the type size, taking it for a fake-bold
    overstrike; but an overstrike lands within a sliver of its own width, while a
    repeat moved on by a third of its width or more shows ink of its own.
    `trace`: `page.get_texttrace()`."""
    out: list[Char] = []
    for span in trace:
        chars = span["chars"]
        size = span["size"] or 1.0
        for before, c in zip(chars, chars[1:], strict=False):
            if c[0] != before[0] or not is_rtl(chr(c[0])):
                continue
            width = c[3][2] - c[3][0]
            step = abs(c[2][0] - before[2][0])
            if (width / 3 <= step < 0.1 * size
                    and abs(c[2][1] - before[2][1]) < 0.1 * size):
                out.append((tuple(c[3]), chr(c[0])))
    return out


def with_stretching(chars: list[Char], glyphs: list[Char]) -> list[Char]:
    """`chars` of one line with the stretching `glyphs` that fall on it put back,
    each right after the glyph it repeats."""
    if not glyphs or not chars:
        return chars
    box = union(b for b, _ in chars)
    out = list(chars)
    for gbox, g in glyphs:
        x, y = (gbox[0] + gbox[2]) / 2, (gbox[1] + gbox[3]) / 2
        if not (box[0] <= x <= box[2] and box[1] <= y <= box[3]):
            continue
        twins = [n for n, (_, c) in enumerate(out) if c == g]
        if twins:
            n = min(twins, key=lambda i: abs(out[i][0][0] - gbox[0]))
            if abs(out[n][0][0] - gbox[0]) < 2 * (gbox[2] - gbox[0]) + 1.0:
                out.insert(n + 1, (gbox, g))
    return out


def is_rtl(c: str) -> bool:
    return unicodedata.bidirectional(c) in ("R", "AL")


def right_to_left(texts: Iterable[str]) -> bool:
    """Are `texts` (a page's lines) written mostly right to left? More letters of a
    right-to-left script than of a left-to-right one: Latin names, numbers and
    formulas inside Arabic running text do not turn the page around."""
    texts = list(texts)
    # No ASCII character is right to left, so a page without a right-to-left letter
    # among its other characters (nearly every page) is decided without counting its
    # left-to-right letters one by one.
    others = "".join(text for text in texts if not text.isascii()).translate(_ASCII_DROPPED)
    if not any(unicodedata.bidirectional(c) in ("R", "AL") for c in set(others)):
        return False
    rtl = ltr = 0
    for text in texts:
        if text.isascii():  # the usual line, decided in C
            ltr += sum(1 for c in text if c.isalpha())
            continue
        for c in text:
            kind = unicodedata.bidirectional(c)
            if kind in ("R", "AL"):
                rtl += 1
            elif kind == "L":
                ltr += 1
    return rtl > ltr


_ASCII_DROPPED = dict.fromkeys(range(128))  # str.translate: ASCII characters removed


def is_wide(c: str) -> bool:
    """CJK ideographs, kana, hangul and their full-width punctuation."""
    return unicodedata.east_asian_width(c) in ("W", "F")


# Scripts written without spaces between words: Han ideographs, kana, bopomofo, the
# CJK punctuation and full-width forms. Not hangul: Korean puts spaces between words.
_UNSPACED = ((0x2E80, 0x2FDF), (0x3000, 0x30FF), (0x3100, 0x312F), (0x31A0, 0x31FF),
             (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0xFE30, 0xFE4F),
             (0xFF00, 0xFF60), (0x20000, 0x3FFFF))
UNSPACED_CHAR = re.compile("[" + "".join(f"\\U{low:08x}-\\U{high:08x}"
                                         for low, high in _UNSPACED) + "]")


def is_unspaced(c: str) -> bool:
    """Is `c` of a script that puts no space between its words (Chinese, Japanese)?"""
    return UNSPACED_CHAR.match(c) is not None


def needs_chars(text: str) -> bool:
    """Does a line's text need the character-level treatment of this module?"""
    if text.isascii():
        return False
    # ASCII characters are neither right to left nor wide: only the others are looked up
    return any(is_rtl(c) or is_wide(c) for c in set(text.translate(_ASCII_DROPPED)))


@dataclass(slots=True)
class _Cluster:
    """One glyph on the page: its box and the characters it stands for."""

    box: BBox
    text: str
    word: int = 0  # which word on the page it belongs to (`_mark_words`)

    @property
    def centre(self) -> float:
        return (self.box[0] + self.box[2]) / 2


def _clusters(chars: Sequence[Char]) -> list[_Cluster]:
    """Characters (in PyMuPDF's order) grouped into glyphs. A combining mark belongs to
    the glyph before it; a zero-width character is the tail of a ligature, and belongs
    to the glyph whose right edge it sits on (MuPDF gives the first character of a
    ligature the glyph and puts the others at its end), next to it in the stream."""
    out: list[_Cluster] = []
    pending: list[Char] = []  # zero-width characters waiting for their glyph
    for box, c in chars:
        width = box[2] - box[0]
        if unicodedata.category(c) in ("Mn", "Me") and out and not pending:
            out[-1].text += c
            continue
        if width <= 0.01 and not c.isspace():
            if out and abs(out[-1].box[2] - box[0]) < 0.5:
                out[-1].text += c
            else:
                pending.append((box, c))
            continue
        cluster = _Cluster(box, c)
        if pending:
            if abs(box[2] - pending[0][0][0]) < 0.5:
                cluster.text += "".join(t for _, t in pending)
            else:  # not this glyph's: keep them as they came
                out.extend(_Cluster(b, t) for b, t in pending)
            pending = []
        out.append(cluster)
    out.extend(_Cluster(b, t) for b, t in pending)
    return out


def _place_spaces(clusters: list[_Cluster]) -> None:
    """Spaces of right-to-left text written in logical order sit between the words
    they part. MuPDF boxes a space as if the pen moved right, from the glyph before
    it, so in an Arabic line it overlaps the last letters of that word and, sorted by
    position, falls inside it (LuaTeX's vocalised "دَجَاجَ ةُ" for "دَجَاجَةُ"). Where the
    glyphs around a space run leftwards (the stream is in logical order), the space
    is moved into the gap between them."""
    for n in range(1, len(clusters) - 1):
        space, before, after = clusters[n], clusters[n - 1], clusters[n + 1]
        if (space.text.isspace() and not before.text.isspace() and not after.text.isspace()
                and (is_rtl(before.text[0]) or is_rtl(after.text[0]))
                and after.box[2] <= before.box[0] + 0.5 and space.box[2] > before.box[0]):
            x0, x1 = sorted((after.box[2], before.box[0]))
            space.box = (x0, space.box[1], x1, space.box[3])


def _kind(c: str) -> str:
    """The bidi class that matters here: R(ight-to-left), L(eft-to-right), N(umber),
    or O(ther: spaces, punctuation)."""
    bidi = unicodedata.bidirectional(c)
    if bidi in ("R", "AL"):
        return "R"
    if bidi == "L":
        return "L"
    if bidi in ("EN", "AN"):
        return "N"
    return "O"


def _number_kinds(clusters: Sequence[_Cluster], base: int = 0) -> list[str]:
    """`_kind` of each cluster, with the weak rules that make separators and signs part
    of a number (UAX #9 W2, W4, W5): European digits after an Arabic letter are Arabic
    numbers; a point or comma between two digits of one kind, a plus or minus between
    European digits, is part of the number; a % or currency sign joins European
    digits only. So "5.5%" in an English line reads as set, while in Arabic text,
    where renderers put the % on the number's left, it reads "5.5%" again.
    'The letter before' is the nearest strong one to the number's right on the page:
    in a right-to-left run that is the one read before it, and an Arabic word inside
    a left-to-right line shows its number on its left too. A number that opens a
    right-to-left line (`base` 1) has that letter on the line before, out of sight:
    where the renderer set its % (on the left: it took the number as Arabic) says."""
    types = [unicodedata.bidirectional(c.text[0]) for c in clusters]
    after: str | None = None  # the nearest strong type to the right
    for n in range(len(types) - 1, -1, -1):
        t = types[n]
        if t in ("L", "R", "AL"):
            after = t
        elif t == "EN" and (after == "AL" or (after is None and base and _sign_on_left(types, n))):
            types[n] = "AN"
    for n in range(1, len(types) - 1):  # W4
        before, here, then = types[n - 1], types[n], types[n + 1]
        if before == then and ((before == "EN" and here in ("CS", "ES"))
                               or (before == "AN" and here == "CS")):
            types[n] = before
    for n, t in enumerate(types):  # W5
        if t == "ET" and ((n and types[n - 1] == "EN")
                          or (n + 1 < len(types) and types[n + 1] == "EN")):
            types[n] = "EN"
    return ["N" if t in ("EN", "AN") else _kind(c.text[0])
            for t, c in zip(types, clusters, strict=True)]


def _sign_on_left(types: list[str], n: int) -> bool:
    """Is the number whose digit is `types[n]` set with a % or currency sign on its
    left (visual order)?"""
    while n > 0 and types[n - 1] in ("EN", "AN", "CS", "ES"):
        n -= 1
    return n > 0 and types[n - 1] == "ET"


def _levels(clusters: Sequence[_Cluster], base: int) -> list[int]:
    """Embedding levels (UAX #9 for one line without explicit controls), computed on
    the visual sequence, which resolves the same as the logical one for a line."""
    kinds = _number_kinds(clusters, base)
    # numbers: after a left-to-right word they run with it, else they act as R (W7, N1)
    strong_left = _nearest_strong(kinds, reverse=False)
    strong_right = _nearest_strong(kinds, reverse=True)
    acts: list[str] = []
    for n, k in enumerate(kinds):
        if k == "N":
            sides = {strong_left[n], strong_right[n]} - {None}
            if base == 0:
                acts.append("R" if sides == {"R"} else "L")
            else:
                acts.append("L" if strong_left[n] == "L" else "R")
        else:
            acts.append(k)
    levels: list[int] = []
    edge = "R" if base else "L"  # the line's ends count as its own direction (sos, eos)
    lefts = _nearest_strong(acts, reverse=False)
    rights = _nearest_strong(acts, reverse=True)
    for n, k in enumerate(kinds):
        act = acts[n]
        if act == "O":  # N1/N2: a neutral between two of one direction takes it
            left, right = lefts[n] or edge, rights[n] or edge
            act = left if left == right else edge
        if k == "N" and act == "R":
            levels.append(2)  # digits always read left to right
        elif act == "R":
            levels.append(1)
        else:
            levels.append(0 if base == 0 else 2)
    return levels


def _nearest_strong(kinds: Sequence[str], *, reverse: bool) -> list[str | None]:
    out: list[str | None] = [None] * len(kinds)
    last: str | None = None
    order = range(len(kinds) - 1, -1, -1) if reverse else range(len(kinds))
    for n in order:
        out[n] = last
        if kinds[n] in ("L", "R"):
            last = kinds[n]
    return out


def _reorder(items: list[_Cluster], levels: list[int]) -> list[_Cluster]:
    """UAX #9 rule L2: from the highest level down to the lowest odd one, reverse every
    run at that level or above. Applied to visual order it gives back logical order."""
    items = list(items)
    if not levels:
        return items
    top = max(levels)
    lowest_odd = min((lv for lv in levels if lv % 2), default=top + 1)
    for level in range(top, lowest_odd - 1, -1):
        n = 0
        while n < len(items):
            if levels[n] >= level:
                end = n
                while end < len(items) and levels[end] >= level:
                    end += 1
                items[n:end] = items[n:end][::-1]
                levels[n:end] = levels[n:end][::-1]
                n = end
            else:
                n += 1
    return items


def horizontal_lines(chars: Sequence[Char], size: float) -> list[list[WordBox]]:
    """The words of a horizontal line from its characters, in reading order; more than
    one list when the line crosses a gutter (each part is a line of its own)."""
    clusters = [c for c in _clusters(chars) if c.text]
    if any(is_rtl(c.text[0]) for c in clusters):
        # visual order, left to right, for the bidi algorithm; a left-to-right line
        # keeps the content stream's order (MuPDF's, as for every other line)
        _place_spaces(clusters)
        clusters.sort(key=lambda c: c.centre)
    parts: list[list[_Cluster]] = [[]]
    last_solid: _Cluster | None = None
    for cluster in clusters:
        if cluster.text.isspace():
            parts[-1].append(cluster)
            continue
        if last_solid is not None and cluster.box[0] - last_solid.box[2] > COLUMN_GAP * size:
            parts.append([])
        parts[-1].append(cluster)
        last_solid = cluster
    lines = []
    for part in parts:
        rtl = sum(len(c.text) for c in part if is_rtl(c.text[0]))
        ltr = sum(len(c.text) for c in part if _kind(c.text[0]) == "L")
        base = 1 if rtl and rtl >= ltr else 0
        _mark_words(part, size)
        if rtl:
            levels = _levels(part, base)
            ordered = _unmirrored(_reorder(part, levels), levels)  # levels now in logical order
        else:
            ordered = part
        words = _words(ordered)
        if words:
            lines.append(words)
    return lines


_CLOSING = {")": "(", "]": "[", "}": "{", ">": "<", "»": "«", "›": "‹"}
_MIRRORS = {**_CLOSING, **{o: c for c, o in _CLOSING.items()}}


def _unmirrored(clusters: list[_Cluster], levels: Sequence[int]) -> list[_Cluster]:
    """Brackets of right-to-left runs as written. A renderer shows "(" in an Arabic run
    as the mirrored glyph; some producers map that glyph back to "(" in the text layer,
    others to ")", which read in logical order gives "كتاب )مثال(". Which producer
    made the line shows in its brackets: an opening one sits against the start of the
    word after it, a closing one against the end of the word before it, and pairs
    close. When mirroring the brackets of the right-to-left runs fits that better
    than leaving them, they are mirrored.
    `levels`: the clusters' embedding levels, in the same (logical) order."""
    odd = [n for n, c in enumerate(clusters) if levels[n] % 2 and c.text in _MIRRORS]
    if not odd:
        return clusters
    flipped = list(clusters)
    for n in odd:
        c = clusters[n]
        flipped[n] = _Cluster(c.box, _MIRRORS[c.text], c.word)
    return flipped if _fit(flipped, odd) > _fit(clusters, odd) else clusters


def _fit(clusters: Sequence[_Cluster], brackets: Sequence[int]) -> int:
    """How well the brackets of `clusters` (in reading order) read as written: the
    pairs that close, and the `brackets` set against the side of a word they open or
    close."""
    stack: list[str] = []
    fit = 0
    for c in clusters:
        if c.text in _CLOSING:
            if stack and stack[-1] == _CLOSING[c.text]:
                stack.pop()
                fit += 1
        elif c.text in _MIRRORS:
            stack.append(c.text)

    for n in brackets:
        word = clusters[n].word
        before = n > 0 and clusters[n - 1].word == word and not clusters[n - 1].text.isspace()
        after = n + 1 < len(clusters) and clusters[n + 1].word == word \
            and not clusters[n + 1].text.isspace()
        if before != after:  # against one side of a word only
            fit += (clusters[n].text in _CLOSING) == before
    return fit


def _mark_words(clusters: Sequence[_Cluster], size: float) -> None:
    """Number the words of `clusters`, given in the order they sit on the page (left
    to right): a new word after a space and at a gap (CJK has no spaces; a gap is
    where its run is interrupted, and some text layers leave the space out). Done on
    the page's order because that is where glyphs of one word touch: in reading order
    a bracket or a full stop next to a number ("(2024", "2024.") follows the digit
    farthest from it."""
    word = 0
    previous: _Cluster | None = None
    for cluster in clusters:
        if cluster.text.isspace():
            word += 1
            previous = None
            continue
        if previous is not None:
            wide = is_wide(cluster.text[0]) or is_wide(previous.text[0])
            if cluster.box[0] - previous.box[2] > (WORD_GAP if wide else SPACED_GAP) * size:
                word += 1
        cluster.word = word
        previous = cluster


def _words(clusters: Sequence[_Cluster]) -> list[WordBox]:
    """Clusters in reading order → words, as `_mark_words` numbered them."""
    words: list[WordBox] = []
    current: list[_Cluster] = []

    def flush() -> None:
        if current:
            text = normalise("".join(c.text for c in current))
            words.append((union(c.box for c in current), text))
            current.clear()

    for cluster in clusters:
        if cluster.text.isspace():
            flush()
            continue
        if current and cluster.word != current[-1].word:
            flush()
        current.append(cluster)
    flush()
    return words


def vertical_words(chars: Sequence[Char], size: float) -> list[WordBox]:
    """The words of a vertical column, top to bottom. A wide (CJK) character is a word
    of its own: MuPDF reports a vertical column one character at a time, and a word is
    what PyMuPDF and the box checks call a word; runs of Latin letters or digits set
    upright in the column stay one word."""
    clusters = [c for c in _clusters(sorted(chars, key=lambda c: (c[0][1], c[0][0])))
                if c.text]
    words: list[WordBox] = []
    current: list[_Cluster] = []

    def flush() -> None:
        if current:
            words.append((union(c.box for c in current),
                          normalise("".join(c.text for c in current))))
            current.clear()

    for cluster in clusters:
        if cluster.text.isspace():
            flush()
            continue
        if current and (cluster.box[1] - current[-1].box[3] > WORD_GAP * size
                        or is_wide(current[-1].text[0]) or is_wide(cluster.text[0])):
            flush()
        current.append(cluster)
    flush()
    return words


@dataclass(slots=True)
class Piece:
    """A fragment of a vertical column as PyMuPDF reports it (often one character)."""

    box: BBox
    chars: list[Char]
    size: float
    styled: tuple[bool, bool]  # bold, mono


def is_vertical_piece(direction: tuple[float, float], box: BBox, text: str) -> bool:
    """A line written top to bottom, or one wide character on its own that may be part
    of a column (MuPDF cuts vertical Japanese into one 'line' per character)."""
    if abs(direction[0]) < 0.5 and direction[1] > 0.5:
        return True
    solid = text.strip()
    return len(solid) == 1 and is_wide(solid) and box[3] - box[1] <= (box[2] - box[0]) * 1.6


def columns(pieces: Iterable[Piece]) -> list[list[Piece]]:
    """Pieces chained into columns: same horizontal position, each below the last with
    less than a character cell between (vertical punctuation sits off-centre; a wider
    gap is the space between two tiers of columns)."""
    chains: list[list[Piece]] = []
    for piece in sorted(pieces, key=lambda p: (p.box[1], p.box[0])):
        width = max(piece.box[2] - piece.box[0], 1.0)
        best = None
        for chain in chains:
            last = chain[-1].box
            if abs((last[0] + last[2]) - (piece.box[0] + piece.box[2])) / 2 < 0.35 * width \
                    and -0.9 * width < piece.box[1] - last[3] < 0.8 * width:
                best = chain
                break
        if best is None:
            chains.append([piece])
        else:
            best.append(piece)
    return chains


def vertical_order(items: list[Item], vertical: list[Item]) -> list[Item]:
    """`items` (already in reading order) with the vertical lines merged in, read the
    Japanese way: in tiers (段) from the top, each tier's columns right to left. A tier
    is where many columns start at about the same height; a column belongs to the last
    tier starting above it. Each tier goes before the first item that starts below it."""
    if not vertical:
        return items
    ordered = list(items)
    for tier in reversed(_tiers(vertical)):
        tier.sort(key=lambda i: (-i.bbox[2], i.bbox[1]))
        top = min(i.bbox[1] for i in tier)
        at = next((n for n, i in enumerate(ordered) if i.bbox[1] > top), len(ordered))
        ordered[at:at] = tier
    return ordered


TIER_COLUMNS = 3  # columns starting together that make a tier


def _tiers(lines: list[Item]) -> list[list[Item]]:
    widths = sorted(i.bbox[2] - i.bbox[0] for i in lines)
    cell = max(widths[len(widths) // 2], 1.0)
    tops = sorted(i.bbox[1] for i in lines)
    starts: list[float] = []
    group: list[float] = [tops[0]]
    for top in tops[1:] + [float("inf")]:
        if top - group[-1] > 2 * cell:  # a jump in where columns start
            if len(group) >= TIER_COLUMNS or not starts:
                starts.append(group[0])
            group = []
        group.append(top)
    tiers: list[list[Item]] = [[] for _ in starts]
    for line in lines:
        n = max((k for k, start in enumerate(starts) if start <= line.bbox[1] + cell),
                default=0)
        tiers[n].append(line)
    return [t for t in tiers if t]


def join_wide_words(words: Sequence[WordBox], size: float) -> list[WordBox]:
    """OCR words of a line with neighbouring CJK characters joined into runs: Tesseract
    reports Chinese and Japanese one character per word, and CJK has no spaces."""
    out: list[WordBox] = []
    for box, text in words:
        if out:
            last_box, last_text = out[-1]
            if is_wide(last_text[-1]) and is_wide(text[0]) and \
                    box[0] - last_box[2] < OCR_CHAR_GAP * size:
                out[-1] = (union((last_box, box)), last_text + text)
                continue
        out.append((box, text))
    return out

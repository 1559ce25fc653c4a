"""Accents typeset apart from their letters.

TeX's old font encoding (OT1, still the default of plain LaTeX with Computer Modern,
so of many papers) has no accented letters: "Pål" is set as the ring glyph, moved
back over an "a". The text layer keeps both characters, so the word reads "P˚al",
"Sch¨utze", "Baudiˇs": a search for the name finds nothing, and a tokenizer cuts the
word in two. Where an accent's glyph sits over the letter next to it (their boxes
overlap, which a character of its own, with an advance of its own, never does), the
pair is the accented letter; the word keeps its box. An accent with a width of its
own (a backtick in code, "don´t" typed with an acute) stays as written.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from visualiser.geometry import BBox, union
from visualiser.layout.items import WordBox

Char = tuple[BBox, str]

# the spacing accents of the text layer and the combining marks they stand for
_MARKS = {
    "\u00a8": "\u0308",  # diaeresis
    "\u00b4": "\u0301",  # acute
    "`": "\u0300",  # grave, as OT1's glyph maps to the backtick
    "\u02cb": "\u0300",  # modifier grave
    "\u02c6": "\u0302",  # circumflex
    "\u02dc": "\u0303",  # tilde
    "\u00af": "\u0304",  # macron
    "\u02d8": "\u0306",  # breve
    "\u02d9": "\u0307",  # dot above
    "\u02da": "\u030a",  # ring
    "\u02dd": "\u030b",  # double acute
    "\u02c7": "\u030c",  # caron
    "\u00b8": "\u0327",  # cedilla
    "\u02db": "\u0328",  # ogonek
}
_DOTLESS = {"\u0131": "i", "\u0237": "j"}  # TeX accents an i or j without its dot
OVERLAP = 0.5  # share of the narrower glyph the two must overlap by
ACCENT_JOIN = 0.1  # em: a letter closer than this to the word before it carries it on


def has_accent(text: str) -> bool:
    """Might `text` (a line) hold an accent set apart? A quick test on every line."""
    if text.isascii():
        return "`" in text
    return not _MARKS.keys().isdisjoint(text)


def with_accents(words: list[WordBox], chars: Sequence[Char]) -> list[WordBox]:
    """`words` (PyMuPDF's, of one line) with each accent set over a letter composed
    with it. `chars`: the line's characters with their boxes, in the same order; when
    they do not spell the words (another reading of the line), the words stay."""
    solid = [c for c in chars if not c[1].isspace()]
    if "".join(text for _, text in words) != "".join(c for _, c in solid):
        return words
    out: list[WordBox] = []
    start = 0
    for box, text in words:
        mine = solid[start:start + len(text)]
        start += len(text)
        composed = _composed(mine) if has_accent(text) else text
        if out and _carries_on(out[-1], mine, composed):
            before_box, before = out[-1]
            out[-1] = (union((before_box, box)), before + composed)
            continue
        out.append((box, composed))
    return out


def _carries_on(before: WordBox, chars: Sequence[Char], composed: str) -> bool:
    """Is a word that opens with an accent, composed onto its first letter, the rest of
    the word before it? MuPDF starts a word where the accent's glyph jumps ahead of the
    pen (small capitals spaced out: "pers" "önliche", "PRODUÇ" "ÃO"); the letter
    itself follows the word before as closely as its letters follow each other."""
    if len(chars) < 2 or chars[0][1] not in _MARKS or composed[:1] == chars[0][1]:
        return False
    box, text = before
    last, first = text[-1:], composed[:1]
    # a letter of the same case: no reference number ("28" "É."), no symbols of a
    # formula set close ("µ" "Ē"); after capitals, capitals only (not "LATEX" "Ṫhe",
    # a full stop's dot taken for an accent)
    if not (last.isalpha() and last.isupper() == first.isupper()):
        return False
    if first.isupper() and not all(c.isupper() for c in composed if c.isalpha()):
        return False
    return chars[1][0][0] - box[2] < ACCENT_JOIN * (box[3] - box[1])


def _composed(chars: Sequence[Char]) -> str:
    """The characters' text, each accent over a neighbouring letter (the one after it,
    as TeX writes them, or else the one before) composed with it."""
    out: list[str] = []
    n = 0
    while n < len(chars):
        box, c = chars[n]
        mark = _MARKS.get(c)
        if mark is not None:
            if n + 1 < len(chars) and (letter := _with(chars[n + 1], box, mark)):
                out.append(letter)
                n += 2
                continue
            if out and n > 0 and len(out[-1]) == 1 and out[-1] == chars[n - 1][1] and (
                    letter := _with(chars[n - 1], box, mark)):
                out[-1] = letter
                n += 1
                continue
        out.append(c)
        n += 1
    return "".join(out)


def _with(char: Char, accent: BBox, mark: str) -> str | None:
    """The letter `char` with `mark` on it, if the accent's box sits over it and the
    pair has a letter of its own in Unicode; None otherwise."""
    box, letter = char
    if not letter.isalpha():
        return None
    overlap = min(box[2], accent[2]) - max(box[0], accent[0])
    if overlap < OVERLAP * min(box[2] - box[0], accent[2] - accent[0]) or overlap <= 0:
        return None
    composed = unicodedata.normalize("NFC", _DOTLESS.get(letter, letter) + mark)
    return composed if len(composed) == 1 else None

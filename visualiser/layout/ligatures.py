"""Ligature glyphs a PDF gives no text for.

Word sets Calibri with ligatures of "t" ("ti", "tt", "ft") and writes no text mapping
for them, so the text layer holds U+FFFD where the page shows two letters: "wri�ng",
"opera�on", a word no search finds and no tokenizer knows. A ligature is as wide as
its letters or a little narrower (kerned tighter), never wider, so the glyph's
advance, against the advances of its own font's letters on the same page, says
which letters it stands for. Where more readings than one fit ("ft" and "tf"; "fi"
and "fl" in a font whose i and l are alike), or the font's letters are not on the
page, the glyph stays as it was: a wrong word would be worse than a marked gap.
"""

from __future__ import annotations

from collections import defaultdict
from statistics import median

UNMAPPED = "\ufffd"
# the letters a Latin ligature glyph can stand for: f and t ligatures (fi and fl are
# mostly mapped, but not in every font)
READINGS = ("ff", "fi", "fl", "ffi", "ffl", "ft", "tf", "ti", "tt", "tti", "fft")
# em: a ligature is as wide as its letters or a little narrower, never wider (but for
# rounding). Calibri's "ti" is 0.007 em narrower than t and i, its "ft" 0.024, its
# "tt" 0.036 and its "tti" 0.043; a glyph whose width more readings than one could
# have ("ft", "tf" and "tt" for Calibri's "tt") stays unread.
KERNED = 0.045
ROUNDING = 0.003

Word = tuple  # PyMuPDF's word: x0, y0, x1, y1, text, block, line, word number


def has_unmapped(words: list[Word]) -> bool:
    return UNMAPPED in "".join([w[4] for w in words])  # one search in C, on every page


def restore_ligatures(words: list[Word], blocks: list[dict]) -> list[Word]:
    """`words` (the text page's `extractWORDS()`) with each unmapped glyph inside a
    word spelled by the letters its width says. `blocks`: the text page's
    `extractRAWDICT()` blocks, whose lines the words' block and line numbers name."""
    widths = _letter_widths(blocks)
    readings: dict[tuple[int, int], list[str]] = {}
    for block_no, block in enumerate(blocks):
        for line_no, line in enumerate(block.get("lines", ())):
            chars = [(c, span) for span in line["spans"] for c in span["chars"]]
            if not any(c["c"] == UNMAPPED for c, _ in chars):
                continue
            found = readings.setdefault((block_no, line_no), [])
            turned = _turned(line)  # its boxes' widths are no advances
            for n, (c, span) in enumerate(chars):
                if c["c"] != UNMAPPED:
                    continue
                inside = any(0 <= m < len(chars) and chars[m][0]["c"].isascii()
                             and chars[m][0]["c"].isalpha() for m in (n - 1, n + 1))
                letters = None
                if inside and not turned and span["size"]:
                    letters = _reading(_advance(c, span), widths.get(span["font"], {}))
                found.append(letters or UNMAPPED)
    out = []
    for word in words:
        queue = readings.get((word[5], word[6]))  # the line's glyphs, in order
        if queue and UNMAPPED in word[4]:
            text = "".join(queue.pop(0) if ch == UNMAPPED and queue else ch for ch in word[4])
            word = (*word[:4], text, *word[5:])
        out.append(word)
    return out


def _advance(char: dict, span: dict) -> float:
    """A glyph's advance in em: its box's width, on a line set horizontally."""
    return (char["bbox"][2] - char["bbox"][0]) / span["size"]


def _letter_widths(blocks: list[dict]) -> dict[str, dict[str, float]]:
    """Per font, the advance in em of each ASCII letter set horizontally on the page."""
    seen: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for block in blocks:
        for line in block.get("lines", ()):
            if _turned(line):
                continue
            for span in line["spans"]:
                if not span["size"]:
                    continue
                for c in span["chars"]:
                    if c["c"].isascii() and c["c"].isalpha():
                        seen[span["font"]][c["c"]].append(_advance(c, span))
    return {font: {ch: median(v) for ch, v in letters.items()} for font, letters in seen.items()}


def _turned(line: dict) -> bool:
    return abs(line["dir"][1]) > 0.01


def _reading(advance: float, widths: dict[str, float]) -> str | None:
    """The letters whose advances add up to `advance` or a little more, where the
    letters of one reading alone do."""
    fitting = [reading for reading in READINGS if all(ch in widths for ch in reading)
               and -ROUNDING <= sum(widths[ch] for ch in reading) - advance <= KERNED]
    return fitting[0] if len(fitting) == 1 else None

"""Words spelled down the page in upright letters, one letter a line: a form's margin
label ("P R I N T  C L E A R L Y" set letter under letter beside the name fields).

The text layer gives every letter as a line of its own; read as lines, each letter
lands on the row of the field beside it ("name R your first name", "address I N").
Stacked letters are one vertical line instead, a word wherever a letter's gap opens,
and so a note set aside from the body like any other vertical text (`pages._in_order`).
"""

from __future__ import annotations

from bisect import bisect_right

from visualiser.geometry import union
from visualiser.layout.items import RawLine, WordBox

MIN_LETTERS = 3  # fewer stacked letters are item labels ("a", "b") in a form's column
WORD_STEP = 1.4  # a step down this many times the stack's usual one parts two words
SPACE_GAP = 1.6  # a wider gap than this (in heights) ends the stack
ALIGN = 0.6  # letters of one stack have centres this share of a height apart, at most


def split_stacked_letters(lines: list[RawLine]) -> tuple[list[RawLine], list[RawLine]]:
    """`lines` without their stacked letters, and the stacks as vertical lines."""
    letters = sorted((line for line in lines if _letter(line)), key=lambda ln: ln.bbox[1])
    if len(letters) < MIN_LETTERS:
        return lines, []
    tops = [line.bbox[1] for line in letters]
    tallest = max(_height(line) for line in letters)
    used: set[int] = set()
    stacks: list[RawLine] = []
    for first in letters:
        if id(first) in used:
            continue
        # Letters are taken top to bottom; only those whose tops lie within reach of
        # the chain's last letter can follow it (`_below`, with the tallest letter's
        # height for the other's), so the walk starts and stops there: a page of
        # single letters (a CJK page set a character a line) is not read all-pairs.
        chain = [first]
        reach = max(_height(first), tallest)
        at = bisect_right(tops, first.bbox[3] - 0.5 * reach)
        while at < len(letters):
            other, last = letters[at], chain[-1]
            if other.bbox[1] >= last.bbox[3] + SPACE_GAP * max(_height(last), tallest):
                break  # the later ones start lower still
            if id(other) not in used and other is not first and _below(last, other):
                chain.append(other)
            at += 1
        if len(chain) < MIN_LETTERS:
            continue
        words = _words(chain)
        if any(len(text) > 1 for _, text in words):
            used.update(id(line) for line in chain)
            stacks.append(RawLine(union(box for box, _ in words), words,
                                  max(line.size for line in chain),
                                  all(line.bold for line in chain),
                                  all(line.mono for line in chain), horizontal=False))
    if not stacks:
        return lines, []
    return [line for line in lines if id(line) not in used], stacks


def _letter(line: RawLine) -> bool:
    return line.horizontal and len(line.words) == 1 and len(line.text) == 1 \
        and line.text.isalpha()


def _height(line: RawLine) -> float:
    return max(line.bbox[3] - line.bbox[1], 1.0)


def _below(above: RawLine, line: RawLine) -> bool:
    """Is `line` the next letter down from `above` in one stack?"""
    h = max(_height(above), _height(line))
    gap = line.bbox[1] - above.bbox[3]
    x_above = (above.bbox[0] + above.bbox[2]) / 2
    x_line = (line.bbox[0] + line.bbox[2]) / 2
    return -0.5 * h < gap < SPACE_GAP * h and abs(x_above - x_line) < ALIGN * h


def _words(chain: list[RawLine]) -> list[WordBox]:
    """The stack's letters joined into words, parted where the step down from one
    letter to the next is wider than the stack's usual one (measured top to top:
    letter boxes hold their font's leading, which differs from font to font)."""
    steps = [line.bbox[1] - above.bbox[1] for above, line in zip(chain, chain[1:], strict=False)]
    usual = sorted(steps)[len(steps) // 2]
    words: list[list[RawLine]] = [[chain[0]]]
    for line, step in zip(chain[1:], steps, strict=True):
        if step > WORD_STEP * usual:
            words.append([line])
        else:
            words[-1].append(line)
    return [(union(line.bbox for line in word), "".join(line.text for line in word))
            for word in words]

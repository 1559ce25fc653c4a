"""Words → provenance: text that is not a slice of the markdown placed on the
document's words.

Both sides become sequences of normalised words; anchors (word 4-grams seen once in
the document) place a text roughly, and a sequence match inside that stretch pairs
its words with document words. Each paired word points at its document word, so a
text from another extractor, or one a splitter rewrote, gets the same provenance our
own slices carry.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_left
from difflib import SequenceMatcher

from visualiser.markdown import SYNTHETIC, SourceMarkdown, Traced

_WORD = re.compile(r"\w+", re.UNICODE)
_ANCHOR = 4  # words per anchor n-gram


class WordAligner:
    """Places texts on one document's words (its word index is built once)."""

    def __init__(self, source: SourceMarkdown) -> None:
        self._doc = _DocumentWords(source)

    def traced(self, text: str) -> tuple[Traced, float]:
        """`text`, each of its words pointing at the document word it matched, and the
        share of its words matched."""
        return _aligned(self._doc, text)


def _normal(word: str) -> str:
    return word.casefold()


class _DocumentWords:
    """The markdown's words (from the layout), in order, with an anchor index."""

    def __init__(self, source: SourceMarkdown) -> None:
        self.source = source
        self.words: list[str] = []
        self.offsets: list[tuple[int, int]] = []  # markdown span of each word
        for match in _WORD.finditer(source.text):
            if source.word_at[match.start()] != SYNTHETIC:
                self.words.append(_normal(match.group()))
                self.offsets.append(match.span())
        self.anchors: dict[tuple[str, ...], int] = {}
        seen_twice: set[tuple[str, ...]] = set()
        for i in range(len(self.words) - _ANCHOR + 1):
            gram = tuple(self.words[i : i + _ANCHOR])
            if gram in self.anchors:
                seen_twice.add(gram)
            self.anchors[gram] = i
        for gram in seen_twice:  # an anchor must say where, so it must be unique
            del self.anchors[gram]


def _aligned(doc: _DocumentWords, text: str) -> tuple[Traced, float]:
    """`text` with each of its words pointing at the document word it was matched to,
    and the share of its words matched."""
    found = list(_WORD.finditer(text))
    words = [_normal(m.group()) for m in found]
    pos = array("i", [SYNTHETIC]) * len(text)
    matched = 0
    span = _locate(doc, words)
    if span is not None:
        start, stop = span
        matcher = SequenceMatcher(None, words, doc.words[start:stop], autojunk=False)
        for block in matcher.get_matching_blocks():
            for k in range(block.size):
                here = found[block.a + k]
                there = doc.offsets[start + block.b + k]
                _point(pos, here.span(), there)
                matched += 1
    return Traced(text, pos), (matched / len(words) if words else 0.0)


def _locate(doc: _DocumentWords, words: list[str]) -> tuple[int, int] | None:
    """The stretch of document words the chunk most likely came from."""
    hits = []
    for i in range(len(words) - _ANCHOR + 1):
        at = doc.anchors.get(tuple(words[i : i + _ANCHOR]))
        if at is not None:
            hits.append(at - i)  # where the chunk would start if this anchor is right
    if not hits:
        return None
    hits.sort()
    # The densest cluster of implied starts wins (anchors from a repeated passage
    # elsewhere land far from the rest).
    slack = max(8, len(words) // 10)
    best_lo, best_count = hits[0], 0
    for lo in hits:
        count = bisect_left(hits, lo + slack) - bisect_left(hits, lo)
        if count > best_count:
            best_lo, best_count = lo, count
    start = max(0, best_lo - slack)
    return start, min(len(doc.words), best_lo + len(words) + 2 * slack)


def _point(pos: array, here: tuple[int, int], there: tuple[int, int]) -> None:
    """Point the characters of a chunk word at the document word it matched."""
    length = there[1] - there[0]
    for k, i in enumerate(range(*here)):
        pos[i] = there[0] + min(k, length - 1)

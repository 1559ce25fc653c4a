"""Words broken across two lines at a hyphen: joined again only where the break is a
soft one, told from the document itself (no dictionary).

"detec-" + "tion" is one word broken by the typesetter: the text says "detection".
"self-" + "publishing" may be the compound "self-publishing" that happened to break at
its own hyphen. The document decides: the hyphen stays where the document spells the
word with it inside a line (at least as often as without), the halves are joined where
it spells the word joined ("TABLE-" + "FORMER" where "TABLEFORMER" is written
elsewhere); without either, the hyphen stays where the second part starts with a
capital or a digit ("Jean-" + "Pierre", "COVID-" + "19") and goes before lower case.
Either way both halves stay words of their own, with their own boxes: only the text
between them changes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from typing import Literal

SOFT_HYPHEN = "\u00ad"
Joint = Literal["join", "keep"]  # drop the hyphen / keep it; both without a space


def bare(text: str) -> str:
    """A word as compared across the document: outer punctuation off, case folded."""
    return text.strip(".,;:!?()[]{}\"'“”‘’").casefold()


class LineEndHyphens:
    """How to write a word that ends a line with a hyphen and the word that starts
    the next line, from the evidence of the document's words."""

    def __init__(self, words: Callable[[], Iterable[str]]) -> None:
        """`words`: the document's word texts, read (to count them) only when a
        line-end hyphen first needs them: a document without any never does."""
        self._words = words
        self._counts: Counter[str] | None = None

    def joint(self, first: str, second: str) -> Joint | None:
        """"join", "keep", or None where `first` (ending a line) and `second`
        (starting the next) are two words, written with a space between them."""
        if len(first) < 2 or first[-1] not in ("-", SOFT_HYPHEN) or not first[-2].isalnum():
            return None
        head = second[:1]
        if not head.isalnum():
            return None
        if first[-1] == SOFT_HYPHEN:
            return "join"  # the typesetter's own mark for a break inside a word
        with_hyphen = self._count(bare(first + second))  # written whole, inside a line
        without = self._count(bare(first[:-1] + second))
        if with_hyphen and with_hyphen >= without:
            return "keep"  # "self-publishing", as the document spells it elsewhere
        if without:
            return "join"  # "TABLEFORMER", as the document spells it elsewhere
        if head.isupper() or head.isdigit() or first[-2].isdigit():
            return "keep"  # "Jean-Pierre", "COVID-19", "3-dimensional"
        return "join" if head.islower() else None  # no case (a script without it): two words

    def _count(self, word: str) -> int:
        if self._counts is None:
            # each distinct text folded once: a long document writes the same words
            # thousands of times (300,000 words, 20,000 distinct in 600 pages)
            counts: Counter[str] = Counter()
            for text, times in Counter(self._words()).items():
                counts[bare(text)] += times
            self._counts = counts
        return self._counts[word]

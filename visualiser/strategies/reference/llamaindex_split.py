"""LlamaIndex's SentenceSplitter and TokenTextSplitter, worked in source offsets.

Both cut the text into pieces that fit `chunk_size` tokens (trying coarse separators
first), count each piece once, and merge neighbouring pieces greedily. They differ
in the cuts and in how the next chunk re-uses the end of the previous one:

- SentenceSplitter: paragraphs ("\\n\\n\\n"), Punkt sentences, then phrases (up to
  `,.;。？！`), words, characters. A new chunk starts with whole pieces from the end
  of the previous chunk, as many as fit in `chunk_overlap` tokens.
- TokenTextSplitter: words, lines, characters. On overflow it drops pieces from the
  front of the current chunk until what is left fits the overlap and the next piece.

Token counts are of each piece on its own, summed — as the libraries do — so chunk
sizes match theirs exactly, not the count of the joined text.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable

from visualiser.strategies.reference.common import (
    Piece,
    Span,
    characters,
    split_keeping_separator,
)
from visualiser.strategies.reference.punkt import sentence_starts

Counter = Callable[[str], int]
PARAGRAPH_SEPARATOR = "\n\n\n"
_PHRASE = re.compile("[^,.;。？！]+[,.;。？！]?|[,.;。？！]")


# --- SentenceSplitter -----------------------------------------------------------------

def sentence_splitter(text: str, size: int, overlap: int, count: Counter) -> list[list[Piece]]:
    """The chunks of SentenceSplitter(size, overlap), each as its pieces (unstripped)."""
    if not text:
        return []
    pieces: list[Piece] = []
    _split_sentences(text, Piece(0, len(text), count(text)), size, count, pieces)
    return _merge_with_whole_piece_overlap(pieces, size, overlap)


def _split_sentences(text: str, piece: Piece, size: int, count: Counter,
                     out: list[Piece]) -> None:
    if piece.size <= size:
        out.append(piece)
        return
    spans = _sentence_level_cut(text, piece.start, piece.end)
    for start, end in spans:
        part = Piece(start, end, count(text[start:end]))
        if part.size <= size or len(spans) == 1:  # one piece: nothing finer to try
            out.append(part)
        else:
            _split_sentences(text, part, size, count, out)


def _sentence_level_cut(text: str, start: int, end: int) -> list[Span]:
    """Paragraphs or sentences if either gives more than one piece; otherwise the first
    of phrases, words, characters that does (or the characters)."""
    spans = split_keeping_separator(text, start, end, PARAGRAPH_SEPARATOR)
    if len(spans) > 1:
        return spans
    spans = _sentences(text, start, end)
    if len(spans) > 1:
        return spans
    spans = [m.span() for m in _PHRASE.finditer(text, start, end)]
    if len(spans) > 1:
        return spans
    spans = split_keeping_separator(text, start, end, " ")
    if len(spans) > 1:
        return spans
    return characters(start, end)


def _sentences(text: str, start: int, end: int) -> list[Span]:
    """Each sentence runs to where the next begins, so the space after a sentence stays
    with it; text before the first sentence is dropped, as LlamaIndex drops it."""
    starts = [start + s for s in sentence_starts(text[start:end])]
    return list(zip(starts, [*starts[1:], end], strict=True))


def _merge_with_whole_piece_overlap(pieces: list[Piece], size: int, overlap: int
                                    ) -> list[list[Piece]]:
    chunks: list[list[Piece]] = []
    current: deque[Piece] = deque()
    total = 0
    fresh = True  # nothing added since the chunk was opened (it may hold overlap only)
    n = 0
    while n < len(pieces):
        piece = pieces[n]
        if total + piece.size > size and not fresh:
            chunks.append(list(current))
            current = _carried_overlap(current, overlap)
            total = sum(p.size for p in current)
            fresh = True
            continue  # the same piece again, now against the carried overlap
        while fresh and current and total + piece.size > size:
            total -= current.popleft().size  # overlap gives way to new text
        current.append(piece)
        total += piece.size
        fresh = False
        n += 1
    if not fresh:
        chunks.append(list(current))
    return chunks


def _carried_overlap(closed: deque[Piece], overlap: int) -> deque[Piece]:
    """Whole pieces from the end of a closed chunk, while they fit in `overlap`."""
    carried: deque[Piece] = deque()
    total = 0
    for piece in reversed(closed):
        if total + piece.size > overlap:
            break
        carried.appendleft(piece)
        total += piece.size
    return carried


# --- TokenTextSplitter ----------------------------------------------------------------

def token_text_splitter(text: str, size: int, overlap: int, count: Counter
                        ) -> list[list[Piece]]:
    """The chunks of TokenTextSplitter(size, overlap), each as its pieces (unstripped)."""
    if not text:
        return []
    pieces: list[Piece] = []
    _split_words(text, Piece(0, len(text), count(text)), size, count, pieces)
    return _merge_dropping_front(pieces, size, overlap)


def _split_words(text: str, piece: Piece, size: int, count: Counter,
                 out: list[Piece]) -> None:
    if piece.size <= size:
        out.append(piece)
        return
    spans = split_keeping_separator(text, piece.start, piece.end, " ")
    if len(spans) <= 1:
        spans = split_keeping_separator(text, piece.start, piece.end, "\n")
    if len(spans) <= 1:
        spans = characters(piece.start, piece.end)
    for start, end in spans:
        part = Piece(start, end, count(text[start:end]))
        if part.size <= size or len(spans) == 1:
            out.append(part)
        else:
            _split_words(text, part, size, count, out)


def _merge_dropping_front(pieces: list[Piece], size: int, overlap: int) -> list[list[Piece]]:
    chunks: list[list[Piece]] = []
    current: deque[Piece] = deque()
    total = 0
    for piece in pieces:
        if total + piece.size > size:
            chunks.append(list(current))
            while current and (total > overlap or total + piece.size > size):
                total -= current.popleft().size
        current.append(piece)
        total += piece.size
    chunks.append(list(current))
    return [c for c in chunks if c]

"""Token windows, the primitive under every token-sized strategy.

`token_windows` reproduces LightRAG's `chunking_by_token_size` exactly: encode, take
windows of `size` tokens whose starts advance by `size - overlap`, decode, strip.
The last window may lie wholly inside the previous one; LightRAG keeps it, so do we.
"""

from __future__ import annotations

from dataclasses import dataclass

from visualiser.markdown import Traced
from visualiser.tokenizers import get_encoding, token_offsets


@dataclass(frozen=True, slots=True)
class Window:
    text: Traced
    tokens: int  # LightRAG's count: min(size, n - start)
    number: int  # 1-based
    of: int


def token_windows(
    text: Traced,
    size: int,
    overlap: int,
    encoding: str,
    *,
    drop_contained_tail: bool = False,
) -> list[Window]:
    """Cut `text` into overlapping token windows.

    With `drop_contained_tail` the walk stops once a window reaches the end, so no
    window lies inside another (structure-aware splitting wants that; LightRAG not).
    """
    if overlap >= size:
        raise ValueError("overlap must be smaller than size")
    enc = get_encoding(encoding)
    tokens = enc.encode(text.text, disallowed_special=())
    if not tokens:
        return []
    # Character offset where each token starts in the text (tokens that begin inside
    # a multi-byte character report that character's start).
    offsets = [*token_offsets(tokens, encoding), len(text.text)]
    step = size - overlap
    starts = []
    for start in range(0, len(tokens), step):
        starts.append(start)
        if drop_contained_tail and start + size >= len(tokens):
            break
    windows = []
    for number, start in enumerate(starts, start=1):
        end = min(start + size, len(tokens))
        decoded = enc.decode(tokens[start:end])
        span = text[offsets[start] : offsets[end]]
        piece = span if decoded == span.text else span.with_text(decoded)
        windows.append(Window(piece.strip(), end - start, number, len(starts)))
    return windows

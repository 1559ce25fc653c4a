"""`fixed_tokens` and `fixed_chars`: the naive splitter — windows of a fixed size that
advance by size − overlap and cut wherever they end, mid-word included."""

from __future__ import annotations

from typing import Any, ClassVar

from visualiser.markdown import SourceMarkdown
from visualiser.strategies.base import TOKENIZER, Chunk, Param, Strategy, register
from visualiser.strategies.reference.common import (
    COUNTING_TOKENIZER,
    WINDOW,
    overlap_banner,
    window_chunks,
)
from visualiser.strategies.windows import token_windows


def _banner(unit: str) -> str:
    return (
        "These are plain fixed windows: each repeats the last {overlap} " + unit + " of the "
        "one before on purpose, so neighbouring boxes overlap. Cuts fall wherever a window "
        "ends — mid-word, mid-sentence, mid-table — and the last window may lie wholly "
        "inside the one before it."
    )


TOKENS_BANNER = _banner("tokens")
CHARS_BANNER = _banner("characters")


class _FixedWindows(Strategy):
    """Both naive splitters: a window size, a step, and the overlap banner."""

    banner_template: ClassVar[str]
    rules = (WINDOW,)
    windows_cut_tables = True

    @classmethod
    def banner_for(cls, settings: dict[str, Any]) -> str | None:
        return overlap_banner(cls.banner_template, settings["chunk_overlap"])


@register
class FixedTokens(_FixedWindows):
    name = "fixed_tokens"
    label = "Fixed token windows (naive)"
    explanation = (
        "Encodes the whole text and cuts it every N tokens, each window starting "
        "size − overlap tokens after the previous one, with no regard for words, "
        "sentences, headings or tables. It is the baseline the other strategies improve on."
    )
    banner_template = TOKENS_BANNER
    banner = TOKENS_BANNER.format(overlap=200)
    sizing = ("chunk_size", "chunk_overlap", "tokens")
    params = (
        Param("chunk_size", "int", 1024, "tokens per window", 8, 100_000),
        Param("chunk_overlap", "int", 200, "tokens each window shares with the next",
              0, 99_999),
        TOKENIZER,
    )

    def chunk(self, source: SourceMarkdown, settings: dict[str, Any]) -> list[Chunk]:
        size, overlap = settings["chunk_size"], settings["chunk_overlap"]
        windows = token_windows(source.traced(), size, overlap, settings["tokenizer"])
        return window_chunks((w.text for w in windows), size, overlap, "tokens")


@register
class FixedChars(_FixedWindows):
    name = "fixed_chars"
    label = "Fixed character windows (naive)"
    explanation = (
        "Slices the text every N characters, each window starting size − overlap "
        "characters after the previous one, with no regard for words, sentences, headings "
        "or tables; surrounding whitespace is trimmed. It is the crudest baseline."
    )
    banner_template = CHARS_BANNER
    banner = CHARS_BANNER.format(overlap=200)
    sizing = ("chunk_size", "chunk_overlap", "characters")
    params = (
        Param("chunk_size", "int", 4000, "characters per window", 10, 1_000_000),
        Param("chunk_overlap", "int", 200, "characters each window shares with the next",
              0, 999_999),
        COUNTING_TOKENIZER,
    )

    def chunk(self, source: SourceMarkdown, settings: dict[str, Any]) -> list[Chunk]:
        size, overlap = settings["chunk_size"], settings["chunk_overlap"]
        step = size - overlap
        texts = (source.traced(start, start + size).strip()
                 for start in range(0, len(source.text), step))
        return window_chunks(texts, size, overlap, "characters")

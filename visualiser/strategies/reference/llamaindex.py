"""`llamaindex_sentence` and `llamaindex_token`: LlamaIndex's SentenceSplitter and
TokenTextSplitter, chunk for chunk, on the document's markdown."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, ClassVar

from visualiser.markdown import SourceMarkdown, Traced
from visualiser.strategies.base import Chunk, Param, Strategy, register
from visualiser.strategies.reference.common import (
    WINDOW,
    TokenCounter,
    overlap_banner,
    traced_span,
    window_chunks,
)
from visualiser.strategies.reference.libraries import LLAMAINDEX, RunsLibrary, slices
from visualiser.strategies.reference.llamaindex_split import (
    sentence_splitter,
    token_text_splitter,
)
from visualiser.tokenizers import ENCODINGS

# A single character is at most 4 tokens, so no piece can outgrow a chunk of 8.
MIN_CHUNK_TOKENS = 8
SENTENCE_BANNER = (
    "Neighbouring chunks share text on purpose: each chunk starts with the last whole "
    "sentences of the one before it (up to {overlap} tokens), so a statement at a boundary "
    "is complete in at least one of them. That is why their boxes overlap."
)
TOKEN_BANNER = (
    "Neighbouring chunks share a few words on purpose: each chunk starts with the last "
    "words of the one before it (up to {overlap} tokens), so their boxes touch or overlap "
    "slightly."
)


def _params(size: int, overlap: int, overlap_help: str) -> tuple[Param, ...]:
    return (
        Param("chunk_size", "int", size, "most tokens in a chunk", MIN_CHUNK_TOKENS, 100_000),
        Param("chunk_overlap", "int", overlap, overlap_help, 0, 100_000),
        Param("tokenizer", "choice", "cl100k_base",
              "tiktoken encoding (LlamaIndex's default is cl100k_base)", choices=ENCODINGS),
    )


class _LlamaIndexSplitter(RunsLibrary, Strategy):
    """What both LlamaIndex splitters share; each names its splitter and banner text."""

    sizing = ("chunk_size", "chunk_overlap", "tokens")
    library = LLAMAINDEX
    rules = (WINDOW,)
    windows_cut_tables = True
    banner_template: ClassVar[str]
    splitter: ClassVar[Callable[..., list[list[Any]]]]  # the port
    library_splitter: ClassVar[str]  # the library's class of the same behaviour

    @classmethod
    def banner_for(cls, settings: dict[str, Any]) -> str | None:
        return overlap_banner(cls.banner_template, settings["chunk_overlap"])

    def chunk(self, source: SourceMarkdown, settings: dict[str, Any]) -> list[Chunk]:
        size, overlap = settings["chunk_size"], settings["chunk_overlap"]
        module = self.library.load()
        texts: Iterable[Traced]
        if module is not None:
            # Special tokens count as text, as for the port; the same words are counted
            # thousands of times, so short pieces' tokens are cached.
            splitter = getattr(module, self.library_splitter)(
                chunk_size=size, chunk_overlap=overlap,
                tokenizer=TokenCounter(settings["tokenizer"]).tokens)
            texts = slices(source, splitter.split_text(source.text))
        else:
            chunks = type(self).splitter(source.text, size, overlap,
                                         TokenCounter(settings["tokenizer"]))
            texts = (traced_span(source, [(p.start, p.end) for p in c]) for c in chunks)
        return window_chunks(texts, size, overlap, "tokens")


@register
class LlamaIndexSentence(_LlamaIndexSplitter):
    name = "llamaindex_sentence"
    label = "LlamaIndex SentenceSplitter (whole sentences, tokens)"
    explanation = (
        "LlamaIndex's default splitter. It fills each chunk with whole sentences up to a "
        "token budget, cutting a sentence only when it cannot fit a chunk on its own (then "
        "at commas and semicolons, then between words). Each chunk begins by repeating the "
        "last sentences of the chunk before it, as many whole ones as fit in the overlap."
    )
    banner_template = SENTENCE_BANNER
    banner = SENTENCE_BANNER.format(overlap=200)
    params = _params(1024, 200, "tokens of whole sentences a chunk repeats from the one before")
    splitter = staticmethod(sentence_splitter)
    library_splitter = "SentenceSplitter"


@register
class LlamaIndexToken(_LlamaIndexSplitter):
    name = "llamaindex_token"
    label = "LlamaIndex TokenTextSplitter (words, tokens)"
    explanation = (
        "LlamaIndex's token splitter. It fills each chunk with words up to a token budget "
        "without regard for sentences (a word too long for a chunk is cut by lines, then "
        "characters). Each chunk begins by repeating the last few words of the chunk "
        "before it, up to the overlap."
    )
    banner_template = TOKEN_BANNER
    banner = TOKEN_BANNER.format(overlap=20)
    params = _params(1024, 20, "tokens of words a chunk repeats from the one before")
    splitter = staticmethod(token_text_splitter)
    library_splitter = "TokenTextSplitter"

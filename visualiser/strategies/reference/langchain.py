"""`langchain_recursive` and `langchain_markdown_headers`: LangChain's
RecursiveCharacterTextSplitter and MarkdownHeaderTextSplitter on the markdown."""

from __future__ import annotations

from collections.abc import Iterable
from types import ModuleType
from typing import Any

from visualiser.markdown import SourceMarkdown, Traced
from visualiser.strategies.base import Chunk, Param, Strategy, register
from visualiser.strategies.reference.common import (
    COUNTING_TOKENIZER,
    WINDOW,
    overlap_banner,
    window_chunks,
)
from visualiser.strategies.reference.langchain_split import (
    HEADER_MARKS,
    HeaderSection,
    markdown_header_splitter,
    recursive_character_splitter,
)
from visualiser.strategies.reference.libraries import (
    LANGCHAIN,
    RunsLibrary,
    rewritten,
    slices,
)
from visualiser.strategies.structure_aware import SECTION

RECURSIVE_BANNER = (
    "Neighbouring chunks share text on purpose: each chunk starts with the last pieces of "
    "the one before it (up to {overlap} characters), so their boxes overlap. Sizes here are "
    "characters, not tokens."
)


@register
class LangChainRecursive(RunsLibrary, Strategy):
    name = "langchain_recursive"
    label = "LangChain RecursiveCharacterTextSplitter (characters)"
    explanation = (
        "LangChain's default splitter. It cuts at blank lines, then at line breaks, then "
        "at spaces, then anywhere — the coarsest cut that makes pieces small enough — and "
        "packs pieces into chunks of at most a number of characters (not tokens: 4,000 "
        "characters is roughly 1,000 tokens of English). Each chunk begins by repeating "
        "up to the overlap's worth of characters from the end of the one before."
    )
    banner = RECURSIVE_BANNER.format(overlap=200)
    sizing = ("chunk_size", "chunk_overlap", "characters")
    library = LANGCHAIN
    rules = (WINDOW,)
    windows_cut_tables = True
    params = (
        Param("chunk_size", "int", 4000, "most characters in a chunk", 10, 1_000_000),
        Param("chunk_overlap", "int", 200,
              "characters a chunk may repeat from the one before", 0, 1_000_000),
        COUNTING_TOKENIZER,
    )

    @classmethod
    def banner_for(cls, settings: dict[str, Any]) -> str | None:
        return overlap_banner(RECURSIVE_BANNER, settings["chunk_overlap"])

    def chunk(self, source: SourceMarkdown, settings: dict[str, Any]) -> list[Chunk]:
        size, overlap = settings["chunk_size"], settings["chunk_overlap"]
        module = self.library.load()
        if module is not None:
            splitter = module.RecursiveCharacterTextSplitter(chunk_size=size,
                                                              chunk_overlap=overlap)
            texts: Iterable[Traced] = slices(source, splitter.split_text(source.text), overlap)
        else:
            texts = (source.traced(c.start, c.end).strip() if c.strip
                     else source.traced(c.start, c.end)
                     for c in recursive_character_splitter(source.text, size, overlap))
        return window_chunks(texts, size, overlap, "characters")


@register
class LangChainMarkdownHeaders(RunsLibrary, Strategy):
    name = "langchain_markdown_headers"
    label = "LangChain MarkdownHeaderTextSplitter (# to ####)"
    explanation = (
        "LangChain's markdown splitter: one chunk per section under a heading of level 1 "
        "to 4, however long the section is. By default (strip_headers on) the heading line "
        "is removed from the chunk and kept only as metadata, which is shown here as the "
        "heading path. Metadata is not embedded: the stripped heading is not part of the "
        "chunk's vector, so a chunk may no longer say what it is about. Lines are trimmed, "
        "so indentation is lost."
    )
    banner = None  # sections do not overlap: nothing is deliberate that needs explaining
    library = LANGCHAIN
    rules = (SECTION,)
    params = (
        Param("strip_headers", "bool", True,
              "remove heading lines from the chunk text (kept as metadata only)"),
        COUNTING_TOKENIZER,
    )

    def chunk(self, source: SourceMarkdown, settings: dict[str, Any]) -> list[Chunk]:
        module = self.library.load()
        if module is not None:
            sections = _library_sections(module, source, settings["strip_headers"])
        else:
            sections = markdown_header_splitter(source.traced(), settings["strip_headers"])
        return [
            Chunk(section.text, "text",
                  heading_path=tuple(section.headers[level] for level in sorted(section.headers)),
                  origin={"rule": "section", "section": number,
                          "headings_stripped": settings["strip_headers"]})
            for number, section in enumerate(sections, start=1)
        ]


# The splitter's metadata names for heading levels 1 to 4 (any names would do: they
# are read back into levels).
_HEADER_NAMES = {mark: f"Header {len(mark)}" for mark in HEADER_MARKS}


def _library_sections(module: ModuleType, source: SourceMarkdown,
                      strip_headers: bool) -> list[HeaderSection]:
    splitter = module.MarkdownHeaderTextSplitter(list(_HEADER_NAMES.items()),
                                                  strip_headers=strip_headers)
    documents = splitter.split_text(source.text)
    levels = {name: len(mark) for mark, name in _HEADER_NAMES.items()}
    texts = rewritten(source, [d.page_content for d in documents])
    return [HeaderSection(text, {levels[k]: v for k, v in d.metadata.items() if k in levels})
            for text, d in zip(texts, documents, strict=True)]

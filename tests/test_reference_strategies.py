"""Reference strategies: our ports give chunk for chunk what the pinned LlamaIndex and
LangChain give, run as oracles on the same text and settings (no network: the
tokenizer is ours, Punkt is used untrained, and NLTK is forbidden to download
anything). The strategies run the libraries themselves when they import, so here the
imports are blocked and the ports run; tests/test_reference_libraries.py covers the
library path."""

from __future__ import annotations

import logging
import random
import sys
import time
import tomllib
from array import array
from functools import partial
from importlib import metadata

import nltk
import pytest
from langchain_text_splitters import MarkdownHeaderTextSplitter, RecursiveCharacterTextSplitter
from llama_index.core.node_parser import SentenceSplitter, TokenTextSplitter
from nltk.tokenize import PunktSentenceTokenizer

from tests.conftest import APEX, RATES, REPORT, SAMPLES
from tests.fuzzing import REPO
from tests.test_token_based import SAMPLE_433
from visualiser.cli import main as cli
from visualiser.errors import BadParameter
from visualiser.markdown import SourceMarkdown, Traced
from visualiser.pipeline import chunk_report
from visualiser.strategies import STRATEGIES, get_strategy
from visualiser.strategies.reference.libraries import LANGCHAIN, LLAMAINDEX
from visualiser.strategies.reference.punkt import sentence_starts
from visualiser.strategies.table_split import split_tables, strip_separator_rows
from visualiser.tokenizers import get_encoding

REFERENCE = ("llamaindex_sentence", "llamaindex_token", "langchain_recursive",
             "langchain_markdown_headers", "fixed_tokens", "fixed_chars", "table_header_aware")
HEADERS = [("#", "Header 1"), ("##", "Header 2"), ("###", "Header 3"), ("####", "Header 4")]
TRICKY = {
    "sample_433": SAMPLE_433,
    "abbreviations": ("See Fig. 3 and J. R. R. Tolkien's notes (p. 5). Prices rose 5. "
                      "then fell! Really?! \"Quoted.\" Next one... and e.g. this; U.S.A. "
                      "Done.\n\n\n" * 12),
    "cjk_and_emoji": "東京は大きい。本当に？はい！ " * 30 + "emoji 🚚📦 end. " * 20,
    "markdown": ("# Title\n\nIntro text.\n\n## Part A\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n"
                 "```\n# not a heading\n  indented code\n```\n\n### Deep\n\n#### Deeper\n\n"
                 "##### Too deep\n#NoSpace\n\tTabbed\xa0line\n\n## Part B\n\ntext " * 8),
    "long_word": "x" * 3000 + " tail words here.",
    "whitespace": "   \n\n  ",
    "empty": "",
}


@pytest.fixture(autouse=True)
def _offline(monkeypatch):
    """LlamaIndex bundles the NLTK data it checks for; fail rather than fetch it.
    (tests/test_reference_libraries.py uses this fixture too.)"""
    def refuse(*_args, **_kwargs):
        raise AssertionError("NLTK tried to download data")
    monkeypatch.setattr(nltk, "download", refuse)
    logging.getLogger("langchain_text_splitters.base").setLevel(logging.ERROR)


@pytest.fixture(autouse=True)
def _ports(monkeypatch):
    """The strategies' imports of the libraries fail (the oracles imported above keep
    working), so what is tested is the port."""
    for library in (LANGCHAIN, LLAMAINDEX):
        monkeypatch.setitem(sys.modules, library.module, None)


def test_the_ports_run_here():
    for name, library in (("llamaindex_sentence", LLAMAINDEX), ("llamaindex_token", LLAMAINDEX),
                          ("langchain_recursive", LANGCHAIN),
                          ("langchain_markdown_headers", LANGCHAIN)):
        assert get_strategy(name).implementation() == (
            f"port equal to {library.name} {library.ported}")


def test_the_oracles_are_the_versions_the_ports_claim_to_equal():
    """The oracle tests compare the ports with what is installed: it must be the pinned
    version the report names ("port equal to LangChain 1.1.3"), and the test extra must
    pin that version."""
    with open(REPO / "pyproject.toml", "rb") as handle:
        test_extra = tomllib.load(handle)["project"]["optional-dependencies"]["test"]
    for library in (LANGCHAIN, LLAMAINDEX):
        assert metadata.version(library.distribution) == library.ported
        assert f"{library.distribution}=={library.ported}" in test_extra


def _bare(text: str) -> SourceMarkdown:
    """A source with no layout behind it (the strategies read only text and offsets)."""
    return SourceMarkdown(text, array("i", [-1]) * len(text), [], None)  # type: ignore[arg-type]


def _texts(name: str, text: str, **settings) -> list[str]:
    cls = get_strategy(name)
    return [c.text.text for c in cls().chunk(_bare(text), cls.settings(settings))]


def _tokenizer(encoding: str = "cl100k_base"):
    return partial(get_encoding(encoding).encode, allowed_special="all")


def _library(chunks: list[str]) -> list[str]:
    """What the libraries return, as the product shows it: stripped (they already are),
    without the lone "" LlamaIndex returns for an empty text."""
    return [c.strip() for c in chunks if c.strip()]


def _all_texts(processed) -> dict[str, str]:
    return {**TRICKY, **{name: processed(name).source.text for name in SAMPLES}}


# --- the goldens of REFERENCE_SPLITTERS.md ---------------------------------------------

def _spans(name: str, **settings) -> list[tuple[int, int]]:
    cls = get_strategy(name)
    chunks = cls().chunk(_bare(SAMPLE_433), cls.settings(settings))
    return [(c.text.pos[0], c.text.pos[-1] + 1) for c in chunks]


def test_sentence_splitter_golden_spans():
    assert _spans("llamaindex_sentence", chunk_size=32, chunk_overlap=8) == [
        (0, 133), (99, 204), (169, 277), (280, 433)]


def test_recursive_splitter_golden_spans():
    assert _spans("langchain_recursive", chunk_size=100, chunk_overlap=20) == [
        (0, 98), (81, 167), (169, 265), (252, 277), (280, 377), (360, 433)]


# --- oracles -----------------------------------------------------------------------------

@pytest.mark.parametrize("size,overlap", [(1024, 200), (256, 50), (128, 20), (64, 16),
                                          (32, 8), (100, 0), (20, 10)])
@pytest.mark.parametrize("encoding", ["cl100k_base", "o200k_base"])
def test_llamaindex_sentence_equals_sentence_splitter(processed, size, overlap, encoding):
    oracle = SentenceSplitter(chunk_size=size, chunk_overlap=overlap,
                              tokenizer=_tokenizer(encoding))
    for name, text in _all_texts(processed).items():
        ours = _texts("llamaindex_sentence", text, chunk_size=size, chunk_overlap=overlap,
                      tokenizer=encoding)
        assert ours == _library(oracle.split_text(text)), name


@pytest.mark.parametrize("size,overlap", [(1024, 20), (256, 20), (64, 10), (32, 8), (20, 0)])
def test_llamaindex_token_equals_token_text_splitter(processed, size, overlap):
    oracle = TokenTextSplitter(chunk_size=size, chunk_overlap=overlap, tokenizer=_tokenizer())
    for name, text in _all_texts(processed).items():
        ours = _texts("llamaindex_token", text, chunk_size=size, chunk_overlap=overlap)
        assert ours == _library(oracle.split_text(text)), name


def test_llamaindex_defaults_are_the_librarys(processed):
    """Default settings, and LlamaIndex's own default tokenizer, give the same chunks."""
    text = processed(APEX).source.text
    assert _texts("llamaindex_sentence", text) == _library(SentenceSplitter().split_text(text))
    assert _texts("llamaindex_token", text) == _library(TokenTextSplitter().split_text(text))


@pytest.mark.parametrize("size,overlap", [(4000, 200), (1000, 200), (300, 60), (100, 20),
                                          (50, 0), (10, 5)])
def test_langchain_recursive_equals_recursive_character_splitter(processed, size, overlap):
    oracle = RecursiveCharacterTextSplitter(chunk_size=size, chunk_overlap=overlap)
    for name, text in _all_texts(processed).items():
        ours = _texts("langchain_recursive", text, chunk_size=size, chunk_overlap=overlap)
        assert ours == _library(oracle.split_text(text)), name


@pytest.mark.parametrize("strip", [True, False])
def test_langchain_markdown_headers_equals_markdown_header_splitter(processed, strip):
    oracle = MarkdownHeaderTextSplitter(HEADERS, strip_headers=strip)
    for name, text in _all_texts(processed).items():
        cls = get_strategy("langchain_markdown_headers")
        chunks = cls().chunk(_bare(text), cls.settings({"strip_headers": strip}))
        ours = [(c.text.text, c.heading_path) for c in chunks]
        expected = [(d.page_content, tuple(d.metadata[n] for _, n in HEADERS if n in d.metadata))
                    for d in oracle.split_text(text)]
        assert ours == expected, name


def test_stripped_headings_are_only_in_the_heading_path(processed):
    report = chunk_report(processed(APEX), "langchain_markdown_headers")
    chunks = report["chunks"]
    assert not any(line.startswith("#") for c in chunks for line in c["text"].split("\n"))
    assert chunks[0]["heading_path"] == ["Apex Logistics Services Agreement 2025",
                                         "1. Definitions"]
    assert "not embedded" in report["strategy"]["explanation"]
    kept = chunk_report(processed(APEX), "langchain_markdown_headers", {"strip_headers": "no"})
    assert kept["chunks"][0]["text"].startswith("# Apex Logistics Services Agreement 2025")


@pytest.mark.parametrize("size,overlap", [(1024, 200), (100, 10), (17, 0), (8, 4)])
def test_fixed_tokens_are_plain_token_slices(processed, size, overlap):
    enc = get_encoding("cl100k_base")
    for name, text in _all_texts(processed).items():
        tokens = enc.encode(text, disallowed_special=())
        slices = [enc.decode(tokens[i : i + size]).strip()
                  for i in range(0, len(tokens), size - overlap)]
        ours = _texts("fixed_tokens", text, chunk_size=size, chunk_overlap=overlap)
        assert ours == [s for s in slices if s], name


@pytest.mark.parametrize("size,overlap", [(4000, 200), (100, 30), (10, 0), (11, 5)])
def test_fixed_chars_are_plain_character_slices(processed, size, overlap):
    for name, text in _all_texts(processed).items():
        slices = [text[i : i + size].strip() for i in range(0, len(text), size - overlap)]
        ours = _texts("fixed_chars", text, chunk_size=size, chunk_overlap=overlap)
        assert ours == [s for s in slices if s], name


def test_fixed_windows_name_a_tail_that_lies_inside_its_neighbour():
    cls = get_strategy("fixed_chars")
    # 28 characters in windows of 12 every 8: the last, [24, 28), lies inside [16, 28).
    chunks = cls().chunk(_bare("abcdefg" * 4), cls.settings({"chunk_size": 12,
                                                            "chunk_overlap": 4}))
    assert [c.origin.get("inside_previous", False) for c in chunks] == [
        False, False, False, True]


# --- untrained Punkt ---------------------------------------------------------------------

def test_punkt_sentence_starts_equal_nltk_untrained(processed):
    punkt = PunktSentenceTokenizer()
    for name, text in _all_texts(processed).items():
        assert sentence_starts(text) == [s for s, _ in punkt.span_tokenize(text)], name


def test_punkt_sentence_starts_equal_nltk_on_random_text():
    atoms = ["word", "Word", "J.", "j.", "Dr.", "5.", "2024.", "3.5", "e.g.", "U.S.A.", "...",
             ". . .", "--", "?", "!", ".", ",", ";", ":", "(", ")", '"', "'", "“", "”", "«",
             "»", "[", "]", "*", "@", " ", " ", "  ", "\n", "\n\n", "\t", "\xa0", "\x1c",
             "\u2028", "ünï", "東京", "。", "².", "Ⓐ.", "_.", "é.", "Ⅻ.", "-5.", "ok.)", 'end."']
    rng = random.Random(7)
    punkt = PunktSentenceTokenizer()
    for _ in range(1500):
        text = "".join(rng.choice(atoms) for _ in range(rng.randint(1, 40)))
        assert sentence_starts(text) == [s for s, _ in punkt.span_tokenize(text)], repr(text)


# --- the header-aware table splitter -----------------------------------------------------

def test_table_parts_repeat_caption_and_header_and_fit_the_limit(processed):
    limit = 200
    doc = processed(RATES)
    report = chunk_report(doc, "table_header_aware", {"max_table_token_size": limit})
    parts = [c for c in report["chunks"] if c["origin"]["rule"] == "table_part"]
    (table,) = [s for s in split_tables(strip_separator_rows(doc.source.traced()))
                if not isinstance(s, Traced)]
    head = [line.text for line in [*table.lead, table.header]]
    assert head[0] == "Table 1: Domestic freight rates by zone and weight band"
    assert len(parts) >= 3 and [p["origin"]["part"] for p in parts] == list(
        range(1, len(parts) + 1))
    body = []
    for part in parts:
        lines = part["text"].split("\n")
        assert lines[: len(head)] == head  # caption and header row on every part
        assert part["tokens"] <= limit
        body += lines[len(head) :]
    footer = [line.text for line in table.footer]
    assert body == [row.text for row in table.rows] + footer  # every row once, in order
    reasons = {o["reason"] for o in report["overlaps"]
               if {o["a"], o["b"]} <= {p["index"] for p in parts}}
    assert reasons <= {"repeated_header", "layout_only"} and "repeated_header" in reasons
    assert not [o for o in report["overlaps"] if o["reason"] == "unexplained"]
    assert "Part 2 of" in parts[1]["why"]


def test_table_header_aware_keeps_a_small_table_whole_and_windows_prose(processed):
    doc = processed(APEX)
    report = chunk_report(doc, "table_header_aware")
    kinds = [c["chunk_type"] for c in report["chunks"]]
    assert kinds.count("table") == 1 and set(kinds) == {"text", "table"}
    table = next(c for c in report["chunks"] if c["chunk_type"] == "table")
    assert table["origin"]["rule"] == "table"
    assert table["text"].startswith("Table 1: Service level targets\n| Service |")


# --- provenance, analysis, parameters, registry --------------------------------------------

@pytest.mark.parametrize("name", REFERENCE)
def test_every_character_points_back_at_itself(processed, name):
    cls = get_strategy(name)
    small = {"table_header_aware": {"chunk_token_size": 64, "chunk_overlap_token_size": 8,
                                    "max_table_token_size": 100},
             "langchain_recursive": {"chunk_size": 300, "chunk_overlap": 50},
             "fixed_chars": {"chunk_size": 300, "chunk_overlap": 50},
             "langchain_markdown_headers": {}}.get(name, {"chunk_size": 64, "chunk_overlap": 16})
    for sample in SAMPLES:
        source = processed(sample).source
        for chunk in cls().chunk(source, cls.settings(small)):
            text, pos = chunk.text.text, chunk.text.pos
            assert all(source.text[p] == ch for ch, p in zip(text, pos, strict=True) if p >= 0)
            if name not in ("langchain_markdown_headers", "table_header_aware"):
                assert text == source.text[pos[0] : pos[-1] + 1]  # a verbatim slice


@pytest.mark.parametrize("name,settings", [
    ("llamaindex_sentence", {"chunk_size": "64", "chunk_overlap": "16"}),
    ("llamaindex_token", {"chunk_size": "64", "chunk_overlap": "16"}),
    ("langchain_recursive", {"chunk_size": "400", "chunk_overlap": "80"}),
    ("fixed_tokens", {"chunk_size": "64", "chunk_overlap": "16"}),
    ("fixed_chars", {"chunk_size": "400", "chunk_overlap": "80"}),
])
def test_overlap_windows_are_labelled_as_intended(processed, name, settings):
    report = chunk_report(processed(REPORT), name, settings)
    reasons = {o["reason"] for o in report["overlaps"]} | {
        c["reason"] for c in report["containment"]}
    assert "overlap_window" in reasons and "unexplained" not in reasons
    assert report["strategy"]["banner"]
    middle = report["chunks"][1]
    assert middle["origin"]["rule"] == "window"
    assert "on purpose" in middle["why"] and middle["origin"]["unit"] in middle["why"]


@pytest.mark.parametrize("name,overlap_param,default", [
    ("llamaindex_sentence", "chunk_overlap", "200 tokens"),
    ("llamaindex_token", "chunk_overlap", "20 tokens"),
    ("langchain_recursive", "chunk_overlap", "200 characters"),
    ("fixed_tokens", "chunk_overlap", "200 tokens"),
    ("fixed_chars", "chunk_overlap", "200 characters"),
    ("table_header_aware", "chunk_overlap_token_size", "100 tokens"),
])
def test_banners_name_the_overlap_in_force(name, overlap_param, default):
    cls = get_strategy(name)
    assert default in cls.banner and cls.banner_for(cls.settings({})) == cls.banner
    assert "37 " in cls.banner_for(cls.settings({overlap_param: "37"}))
    without = cls.banner_for(cls.settings({overlap_param: "0"}))
    if name == "table_header_aware":
        assert "header row" in without and "Prose" not in without  # headers still repeat
    else:
        assert without is None  # nothing overlaps on purpose, nothing to explain


def test_markdown_headers_has_no_banner_and_no_overlap(processed):
    report = chunk_report(processed(APEX), "langchain_markdown_headers")
    assert report["strategy"]["banner"] is None
    assert not report["containment"]
    assert all(o["reason"] == "layout_only" for o in report["overlaps"])


@pytest.mark.parametrize("name,settings,parameter", [
    ("llamaindex_sentence", {"chunk_size": "64", "chunk_overlap": "65"}, "chunk_overlap"),
    ("llamaindex_sentence", {"chunk_size": "4"}, "chunk_size"),
    ("llamaindex_token", {"chunk_size": "lots"}, "chunk_size"),
    ("llamaindex_token", {"tokenizer": "gpt2"}, "tokenizer"),
    ("langchain_recursive", {"chunk_size": "100", "chunk_overlap": "101"}, "chunk_overlap"),
    ("langchain_markdown_headers", {"strip_headers": "maybe"}, "strip_headers"),
    ("langchain_markdown_headers", {"chunk_size": "10"}, "chunk_size"),
    ("fixed_tokens", {"chunk_size": "64", "chunk_overlap": "64"}, "chunk_overlap"),
    ("fixed_chars", {"chunk_overlap": "-1"}, "chunk_overlap"),
    ("table_header_aware", {"chunk_token_size": "100", "chunk_overlap_token_size": "100"},
     "chunk_overlap_token_size"),
    ("table_header_aware", {"max_table_token_size": "3"}, "max_table_token_size"),
])
def test_parameters_are_validated_by_name(name, settings, parameter):
    with pytest.raises(BadParameter) as caught:
        get_strategy(name).settings(settings)
    assert caught.value.message.startswith(f"{parameter}: ")
    assert caught.value.details["parameter"] == parameter


def test_defaults_are_the_libraries_defaults():
    def defaults(name):
        return get_strategy(name).settings({})
    assert defaults("llamaindex_sentence") == {"chunk_size": 1024, "chunk_overlap": 200,
                                               "tokenizer": "cl100k_base"}
    assert defaults("llamaindex_token")["chunk_overlap"] == 20
    assert defaults("langchain_recursive") == {"chunk_size": 4000, "chunk_overlap": 200,
                                               "tokenizer": "cl100k_base"}  # counts only
    assert defaults("langchain_markdown_headers")["strip_headers"] is True


def test_registry_and_cli_list_them(capsys):
    assert set(REFERENCE) <= set(STRATEGIES)
    assert list(STRATEGIES)[:2] == ["structure_aware", "token_based"]  # built-ins first
    assert cli(["strategies"]) == 0
    listing = capsys.readouterr().out
    for name in REFERENCE:
        assert f"{name}: " in listing


@pytest.mark.parametrize("name", REFERENCE)
def test_empty_documents_give_no_chunks(name):
    cls = get_strategy(name)
    for text in ("", "  \n\n\n  "):
        assert cls().chunk(_bare(text), cls.settings({})) == []


@pytest.mark.parametrize("name", REFERENCE)
def test_a_long_document_takes_linear_time(processed, name):
    """~600k characters (a 250-page report) must not crawl: nothing re-encodes a growing
    chunk. The bound is loose; a quadratic step would blow it by far."""
    text = "\n\n".join([processed(REPORT).source.text] * 72)
    cls = get_strategy(name)
    started = time.perf_counter()
    chunks = cls().chunk(_bare(text), cls.settings({}))
    assert chunks and time.perf_counter() - started < 20


def test_traced_join_of_header_sections_keeps_synthetic_separators():
    cls = get_strategy("langchain_markdown_headers")
    text = "# A\n\none\n\ntwo\n"
    (chunk,) = cls().chunk(_bare(text), cls.settings({}))
    assert chunk.text.text == "one  \ntwo"
    assert [p for p in chunk.text.pos if p < 0] == [-1, -1, -1]  # the "  \n" join
    assert Traced.of_source(text)[5:8].text == "one"

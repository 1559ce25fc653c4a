"""The reference strategies' library path: with LangChain and LlamaIndex installed (the
test extra installs them) the strategies run the libraries themselves, find each chunk
in the markdown, and say so in the report; with the import blocked the port runs and
the report says that instead. The ports' own oracle tests are in
tests/test_reference_strategies.py."""

from __future__ import annotations

import sys
from functools import partial
from importlib import metadata

import pytest
from langchain_text_splitters import RecursiveCharacterTextSplitter
from llama_index.core import Document
from llama_index.core.node_parser import SentenceSplitter, TokenTextSplitter

from tests.conftest import APEX, SAMPLES
from tests.test_reference_strategies import TRICKY, _bare, _offline  # noqa: F401 (autouse)
from visualiser.ingest import admit, process, stored_report
from visualiser.knowledgebase import new_metadata
from visualiser.markdown import SourceMarkdown
from visualiser.pipeline import chunk_report
from visualiser.store import Store
from visualiser.strategies import get_strategy
from visualiser.strategies.reference.libraries import (
    LANGCHAIN,
    LLAMAINDEX,
    forward_spans,
    rewritten,
)
from visualiser.tokenizers import get_encoding

LANGCHAIN_VERSION = metadata.version("langchain-text-splitters")
LLAMAINDEX_VERSION = metadata.version("llama-index-core")
LIBRARY_OF = {"llamaindex_sentence": LLAMAINDEX, "llamaindex_token": LLAMAINDEX,
              "langchain_recursive": LANGCHAIN, "langchain_markdown_headers": LANGCHAIN}
SETTINGS = {
    "llamaindex_sentence": [{}, {"chunk_size": 64, "chunk_overlap": 16},
                            {"chunk_size": 200, "chunk_overlap": 0, "tokenizer": "o200k_base"}],
    "llamaindex_token": [{}, {"chunk_size": 64, "chunk_overlap": 10}],
    "langchain_recursive": [{}, {"chunk_size": 300, "chunk_overlap": 60},
                            {"chunk_size": 50, "chunk_overlap": 0}],
    "langchain_markdown_headers": [{}, {"strip_headers": False}],
}


def _chunks(name: str, source: SourceMarkdown, settings: dict, monkeypatch=None, port=False):
    if port:
        with monkeypatch.context() as blocked:
            blocked.setitem(sys.modules, LIBRARY_OF[name].module, None)
            return _chunks(name, source, settings)
    cls = get_strategy(name)
    return cls().chunk(source, cls.settings(settings))


def _spans(chunks) -> list[tuple[int, int]]:
    return [(c.text.pos[0], c.text.pos[-1] + 1) for c in chunks]


def test_the_libraries_run_and_the_report_names_them_with_their_version(processed):
    for name, library in LIBRARY_OF.items():
        version = LANGCHAIN_VERSION if library is LANGCHAIN else LLAMAINDEX_VERSION
        assert get_strategy(name).implementation() == f"{library.name} {version}"
        report = chunk_report(processed(APEX), name)
        assert report["strategy"]["implementation"] == f"{library.name} {version}"
    assert chunk_report(processed(APEX), "token_based")["strategy"]["implementation"] is None


@pytest.mark.parametrize("name", list(LIBRARY_OF))
def test_with_the_import_blocked_the_port_runs_and_the_report_says_so(name, processed,
                                                                       monkeypatch):
    library = LIBRARY_OF[name]
    with monkeypatch.context() as blocked:
        blocked.setitem(sys.modules, library.module, None)
        assert library.load() is None
        report = chunk_report(processed(APEX), name)
    assert report["strategy"]["implementation"] == f"port equal to {library.name} {library.ported}"
    with_library = chunk_report(processed(APEX), name)
    assert with_library["strategy"]["implementation"].startswith(f"{library.name} ")
    # Same chunks either way: the port equals the library.
    assert ([(c["text"], c["regions"]) for c in report["chunks"]]
            == [(c["text"], c["regions"]) for c in with_library["chunks"]])


@pytest.mark.parametrize("name", ["llamaindex_sentence", "llamaindex_token",
                                  "langchain_recursive"])
def test_library_chunks_are_found_at_the_ports_spans(name, processed, monkeypatch):
    """The port works in offsets, so its spans are exact: the library's chunks, found
    by forward search, land on exactly those spans, and each is a slice of the text.
    (Text repeated within a window's reach is ambiguous to a search; the next tests
    cover it.)"""
    texts = {"sample_433": TRICKY["sample_433"],
             **{n: processed(n).source.text for n in SAMPLES}}
    for settings in SETTINGS[name]:
        for label, text in texts.items():
            source = _bare(text)
            library = _chunks(name, source, settings)
            port = _chunks(name, source, settings, monkeypatch, port=True)
            assert [c.text.text for c in library] == [c.text.text for c in port], label
            assert _spans(library) == _spans(port), (label, settings)
            for chunk, (start, end) in zip(library, _spans(library), strict=True):
                assert text[start:end] == chunk.text.text
                assert list(chunk.text.pos) == list(range(start, end))


def _all_texts(processed) -> dict[str, str]:
    return {**TRICKY, **{n: processed(n).source.text for n in SAMPLES}}


@pytest.mark.parametrize("size,overlap", [(300, 60), (100, 20), (50, 0), (4000, 200)])
def test_langchain_spans_equal_its_own_start_index(processed, monkeypatch, size, overlap):
    """LangChain says where its chunks start (add_start_index): our spans agree, on
    repetitive text too, and the texts are the port's."""
    splitter = RecursiveCharacterTextSplitter(chunk_size=size, chunk_overlap=overlap,
                                              add_start_index=True)
    settings = {"chunk_size": size, "chunk_overlap": overlap}
    for label, text in _all_texts(processed).items():
        documents = splitter.create_documents([text])
        theirs = [(d.metadata["start_index"], d.metadata["start_index"] + len(d.page_content))
                  for d in documents if d.page_content.strip()]
        ours = _chunks("langchain_recursive", _bare(text), settings)
        assert _spans(ours) == theirs, label
        port = _chunks("langchain_recursive", _bare(text), settings, monkeypatch, port=True)
        assert [c.text.text for c in ours] == [c.text.text for c in port], label


@pytest.mark.parametrize("splitter,name", [(SentenceSplitter, "llamaindex_sentence"),
                                           (TokenTextSplitter, "llamaindex_token")])
@pytest.mark.parametrize("size,overlap", [(64, 10), (256, 40)])
def test_llamaindex_spans_equal_its_nodes_offsets(processed, monkeypatch, splitter, name,
                                                  size, overlap):
    """LlamaIndex's nodes carry start and end offsets: our spans agree, on repetitive
    text too, and the texts are the port's."""
    tokenizer = partial(get_encoding("cl100k_base").encode, allowed_special="all")

    class Plain(splitter):
        """Nodes of the chunks split_text makes: no tokens kept back for metadata (a
        node parser keeps a few even for a document without any)."""

        def split_text_metadata_aware(self, text: str, metadata_str: str) -> list[str]:
            return self.split_text(text)

    parser = Plain(chunk_size=size, chunk_overlap=overlap, tokenizer=tokenizer)
    settings = {"chunk_size": size, "chunk_overlap": overlap}
    for label, text in _all_texts(processed).items():
        if not text.strip():
            continue  # LlamaIndex makes no node of nothing
        nodes = parser.get_nodes_from_documents([Document(text=text)])
        ours = _chunks(name, _bare(text), settings)
        assert _spans(ours) == [(n.start_char_idx, n.end_char_idx) for n in nodes], label
        port = _chunks(name, _bare(text), settings, monkeypatch, port=True)
        assert [c.text.text for c in ours] == [c.text.text for c in port], label


@pytest.mark.parametrize("strip", [True, False])
def test_markdown_header_sections_land_on_the_ports_words(processed, monkeypatch, strip):
    """MarkdownHeaderTextSplitter rewrites lines; followed line by line, each section
    covers exactly the document words the port's section covers."""
    for name in SAMPLES:
        source = processed(name).source
        settings = {"strip_headers": strip}
        library = _chunks("langchain_markdown_headers", source, settings)
        port = _chunks("langchain_markdown_headers", source, settings, monkeypatch, port=True)
        assert ([(c.text.text, c.heading_path) for c in library]
                == [(c.text.text, c.heading_path) for c in port]), name
        for ours, theirs in zip(library, port, strict=True):
            assert source.words_of(ours.text) == source.words_of(theirs.text), name


def test_markdown_header_texts_equal_the_ports_on_rewritten_lines(monkeypatch):
    """Tabs and no-break spaces removed, indentation lost: the text and headings are
    the library's, whatever had to be placed by words."""
    text = TRICKY["markdown"]
    for strip in (True, False):
        library = _chunks("langchain_markdown_headers", _bare(text), {"strip_headers": strip})
        port = _chunks("langchain_markdown_headers", _bare(text), {"strip_headers": strip},
                       monkeypatch, port=True)
        assert ([(c.text.text, c.heading_path) for c in library]
                == [(c.text.text, c.heading_path) for c in port])


def test_forward_search_matches_repeated_text_in_reading_order():
    text = "alpha beta. alpha beta. alpha beta."
    assert forward_spans(text, ["alpha beta.", "alpha beta.", "alpha beta."]) == [
        (0, 11), (12, 23), (24, 35)]
    assert forward_spans(text, ["beta. alpha", "missing", "alpha beta."]) == [
        (6, 17), None, (12, 23)]


def test_a_rewritten_line_is_found_only_as_a_whole_line():
    """"Intro" is a line of its own, not the heading "# Intro" above it."""
    text = "# Intro\n\nIntro\n\nmore text"
    (traced,) = list(rewritten(_bare(text), ["Intro  \nmore text"]))
    assert traced.text == "Intro  \nmore text"
    assert traced.pos[0] == text.index("\nIntro") + 1
    assert traced.pos[-1] == len(text) - 1


def test_a_stored_report_names_what_cut_its_chunks_not_what_would_now(tmp_path, sample_path,
                                                                       monkeypatch):
    store = Store(tmp_path / "kb.sqlite")
    try:
        kb = store.create_knowledgebase("Splitters", new_metadata("langchain_recursive"))
        admitted = admit(store, kb.id, sample_path(APEX).read_bytes(), APEX)
        process(store, kb.id, admitted.doc_id)
        made_by = f"LangChain {LANGCHAIN_VERSION}"
        assert stored_report(store, kb.id, admitted.doc_id)["strategy"]["implementation"] \
            == made_by
        monkeypatch.setitem(sys.modules, LANGCHAIN.module, None)  # uninstalled since
        assert stored_report(store, kb.id, admitted.doc_id)["strategy"]["implementation"] \
            == made_by
    finally:
        store.close()


def test_the_cli_summary_names_the_library(sample_path, capsys, monkeypatch):
    from visualiser.cli import main
    pdf = str(sample_path(APEX))
    assert main(["chunk", pdf, "--strategy", "langchain_recursive", "--format", "text"]) == 0
    assert f"strategy langchain_recursive (LangChain {LANGCHAIN_VERSION})," in (
        capsys.readouterr().out)
    monkeypatch.setitem(sys.modules, LANGCHAIN.module, None)
    assert main(["chunk", pdf, "--strategy", "langchain_recursive", "--format", "text"]) == 0
    assert f"(port equal to LangChain {LANGCHAIN.ported})," in capsys.readouterr().out

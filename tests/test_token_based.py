"""token_based: LightRAG's windows for prose, the table handling on top of them."""

import pytest
from lightrag.chunker.token_size import chunking_by_token_size
from lightrag.utils import Tokenizer

from tests.conftest import APEX, POLICY, RATES
from visualiser.errors import BadParameter
from visualiser.markdown import Traced
from visualiser.pipeline import chunk_report
from visualiser.strategies import get_strategy
from visualiser.strategies.table_split import split_tables, strip_separator_rows
from visualiser.strategies.windows import token_windows
from visualiser.tokenizers import get_encoding

SAMPLE_433 = (
    "LightRAG splits documents into overlapping token windows. Each window is decoded back "
    "to text. Dr. Smith reviewed the results on Jan. 5, 2024; the numbers looked fine.\n\n"
    "LlamaIndex prefers whole sentences. It first splits on paragraphs, then sentences, then "
    "phrases, then words.\n\n\nLangChain tries separators in order: blank lines, newlines, "
    "spaces, and finally characters. Short pieces are merged back until the size limit is "
    "reached."
)
TEXTS = {
    "sample_433": SAMPLE_433,
    "multibyte": "Zürich — 東京 — Ελλάδα. " * 40 + "emoji 🚚📦 end",
    "markdown": "# Title\n\n" + "| a | b |\n| 1 | 2 |\n" * 30 + "\n\nclosing words " * 50,
    "empty": "",
    "whitespace": "   \n\n  ",
}


def _oracle(text: str, size: int, overlap: int, encoding: str) -> list[tuple[str, int]]:
    tokenizer = Tokenizer(model_name=encoding, tokenizer=get_encoding(encoding))
    return [(c["content"], c["tokens"]) for c in chunking_by_token_size(
        tokenizer, text, chunk_overlap_token_size=overlap, chunk_token_size=size)]


@pytest.mark.parametrize("name", TEXTS)
@pytest.mark.parametrize("size,overlap", [(1200, 100), (40, 10), (32, 8), (17, 0), (5, 4)])
@pytest.mark.parametrize("encoding", ["cl100k_base", "o200k_base"])
def test_prose_windows_equal_lightrag(name, size, overlap, encoding):
    text = TEXTS[name]
    ours = [(w.text.text, w.tokens)
            for w in token_windows(Traced.of_source(text), size, overlap, encoding)]
    assert ours == _oracle(text, size, overlap, encoding)


def test_sample_433_gives_the_documented_starts():
    windows = token_windows(Traced.of_source(SAMPLE_433), 40, 10, "cl100k_base")
    assert [w.tokens for w in windows] == [40, 40, 32, 2]  # 92 tokens: starts 0, 30, 60, 90
    assert windows[-1].text.text in windows[-2].text.text  # the tail lies inside its neighbour


def test_window_positions_point_back_at_the_same_text():
    text = TEXTS["multibyte"]
    for w in token_windows(Traced.of_source(text), 7, 2, "cl100k_base"):
        if "\ufffd" not in w.text.text:
            assert text[w.text.pos[0] : w.text.pos[-1] + 1] == w.text.text


def test_separator_rows_are_stripped_and_tables_found_with_their_caption():
    md = ("Intro paragraph.\n\n## 3. Rates\n\nTable 1: Rates\n\n| a | b |\n|---|---|\n"
          "| 1 | 2 |\n\nNote: excludes VAT\n\nAfter.")
    parts = split_tables(strip_separator_rows(Traced.of_source(md)))
    assert [type(p).__name__ for p in parts] == ["Traced", "MarkdownTable", "Traced"]
    table = parts[1]
    assert [line.text for line in table.lead] == ["## 3. Rates", "Table 1: Rates"]
    assert table.header.text == "| a | b |" and [r.text for r in table.rows] == ["| 1 | 2 |"]
    assert [line.text for line in table.footer] == ["Note: excludes VAT"]
    assert parts[0].text.strip() == "Intro paragraph." and parts[2].text.strip() == "After."


def test_heading_lookback_stops_at_prose_and_after_two_blank_lines():
    prose_above = "A heading-less paragraph.\n| a | b |\n| 1 | 2 |"
    assert split_tables(Traced.of_source(prose_above))[1].lead == []
    far = "## Far heading\n\n\n\n| a | b |\n| 1 | 2 |"  # three blank lines
    assert split_tables(Traced.of_source(far))[1].lead == []
    near = "## Near heading\n\n\n| a | b |\n| 1 | 2 |"  # two blank lines
    assert [t.text for t in split_tables(Traced.of_source(near))[0].lead] == ["## Near heading"]


def _texts(report):
    return [c["text"] for c in report["chunks"]]


def test_apex_five_chunks_the_last_spanning_chunks_1_to_3(processed):
    report = chunk_report(processed(APEX), "token_based")
    chunks = report["chunks"]
    assert [c["chunk_type"] for c in chunks] == ["text", "text", "table", "text", "table_context"]
    texts = _texts(report)
    assert texts[4] == "\n\n".join(texts[1:4])
    assert chunks[4]["origin"]["sources"] == [1, 2, 3]
    assert texts[2].startswith("Table 1: Service level targets\n| Service |")
    assert "|---|" not in texts[2]
    pairs = {(p["container"], p["contained"]): p["reason"] for p in report["containment"]}
    assert pairs == {(0, 1): "overlap_window", (4, 1): "table_context",
                     (4, 2): "table_context", (4, 3): "table_context"}
    assert report["overlap_method"] == "bbox_adjacent"


def test_policy_context_chunk_is_chunks_0_1_2(processed):
    texts = _texts(chunk_report(processed(POLICY), "token_based"))
    assert len(texts) == 4
    assert texts[3] == "\n\n".join(texts[:3])


def test_big_table_splits_by_rows_with_the_header_repeated_plus_table_full(processed):
    report = chunk_report(processed(RATES), "token_based")
    chunks = report["chunks"]
    parts = [c for c in chunks if c["origin"].get("rule") == "table_part"]
    full = [c for c in chunks if c["chunk_type"] == "table_full"]
    assert len(parts) >= 2 and len(full) == 1
    header = parts[0]["text"].split("\n")[1]
    assert header.startswith("| Zone | Service |")
    for part in parts[1:]:
        assert part["text"].split("\n")[0] == header
    limit = 2 * 1200
    assert all(p["tokens"] <= limit for p in parts)
    rows = [ln for p in parts for ln in p["text"].split("\n")[1:] if ln != header]
    assert full[0]["text"].count("\n| ") == len(rows) + 1
    assert all(r in full[0]["text"] for r in rows)
    # one context chunk per part, none for table_full; each walks past the whole run
    contexts = [c for c in chunks if c["chunk_type"] == "table_context"]
    assert len(contexts) == len(parts)
    prose = [c["index"] for c in chunks if c["chunk_type"] == "text"]
    for ctx, part in zip(contexts, parts, strict=True):
        assert ctx["origin"]["sources"] == [prose[0], part["index"], prose[-1]]


def test_lone_table_gets_no_context_chunk():
    from visualiser.strategies.base import Chunk
    from visualiser.strategies.token_based import _context_chunks

    lone = [Chunk(Traced.synthetic("| a |"), "table")]
    assert _context_chunks(lone) == []
    with_prose = [Chunk(Traced.synthetic("before"), "text"), *lone]
    assert [c.origin["sources"] for c in _context_chunks(with_prose)] == [[0, 1]]


def test_table_context_can_be_switched_off(processed):
    report = chunk_report(processed(APEX), "token_based", {"table_context": "false"})
    assert [c["chunk_type"] for c in report["chunks"]] == ["text", "text", "table", "text"]


def test_parameters_are_validated_with_names():
    cls = get_strategy("token_based")
    with pytest.raises(BadParameter, match="chunk_overlap_token_size: must be smaller"):
        cls.settings({"chunk_token_size": "100", "chunk_overlap_token_size": "100"})
    with pytest.raises(BadParameter, match="chunk_token_size: expected a whole number"):
        cls.settings({"chunk_token_size": "big"})
    with pytest.raises(BadParameter, match="valid: chunk_token_size"):
        cls.settings({"size": "10"})
    assert cls.settings({"max_table_token_size": ""})["max_table_token_size"] is None


def test_banner_follows_the_settings(processed):
    on = chunk_report(processed(APEX), "token_based")["strategy"]["banner"]
    assert "context chunk" in on and "structure-aware" in on
    off = chunk_report(processed(APEX), "token_based", {"table_context": "false"})
    assert "switched off" in off["strategy"]["banner"]
    bare = chunk_report(processed(APEX), "token_based",
                        {"table_context": "false", "chunk_overlap_token_size": "0"})
    assert bare["strategy"]["banner"] is None


def test_configuration_risks_are_diagnosed(processed):
    def codes(strategy, params=None):
        report = chunk_report(processed(APEX), strategy, params)
        return {d["code"] for d in report["diagnostics"]}

    assert "zero_overlap" in codes("token_based", {"chunk_token_size": "300",
                                                   "chunk_overlap_token_size": "0"})
    assert "high_overlap_setting" in codes("token_based", {"chunk_token_size": "300",
                                                           "chunk_overlap_token_size": "120"})
    assert not {"zero_overlap", "high_overlap_setting"} & codes("token_based")
    assert "character_sizing" in codes("langchain_recursive")
    assert "character_sizing" not in codes("llamaindex_sentence")

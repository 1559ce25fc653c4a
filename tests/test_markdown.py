import pytest

from tests.conftest import REPORT, SAMPLES
from visualiser.markdown import SYNTHETIC, Traced


@pytest.mark.parametrize("name", SAMPLES)
def test_every_word_is_spelled_by_the_characters_that_name_it(processed, name):
    doc = processed(name)
    spans: dict[int, list[int]] = {}
    for offset, word_id in enumerate(doc.source.word_at):
        if word_id != SYNTHETIC:
            spans.setdefault(word_id, []).append(offset)
    for word in doc.layout.words:
        if word.id in doc.source.dropped_words:
            assert word.id not in spans
            continue
        offsets = spans.get(word.id)
        assert offsets, f"word {word.text!r} missing from the markdown"
        assert offsets == list(range(offsets[0], offsets[-1] + 1)), "a word is one run"
        spelled = doc.source.text[offsets[0] : offsets[-1] + 1]
        # a word broken across lines with a hyphen is joined again without it
        assert spelled == word.text or (spelled == word.text[:-1] and word.text[-1] == "-")


def test_only_repeated_table_headers_are_dropped(processed):
    doc = processed(REPORT)
    assert doc.source.dropped_words
    texts = {doc.layout.words[w].text for w in doc.source.dropped_words}
    assert {"Fleet", "no.", "Type", "Depot"} <= texts


def test_synthetic_characters_are_markup_only(processed):
    doc = processed(REPORT)
    synthetic = {doc.source.text[i] for i, w in enumerate(doc.source.word_at) if w == SYNTHETIC}
    assert synthetic <= set("#|-` \n")


def test_markdown_shape(processed):
    text = processed(REPORT).source.text
    assert text.startswith("# Quarterly Operations Report")
    assert "\n## 1. Executive Summary\n" in text
    assert "\n|---|---|---|---|---|\n" in text
    assert "\n- Outbound orders reached" in text
    assert "\n1. Add two spare tractor units" in text


def test_traced_operations_keep_positions():
    t = Traced.of_source("  hello world  ", 10)
    s = t.strip()
    assert s.text == "hello world" and list(s.pos[:2]) == [12, 13]
    joined = Traced.join("\n\n", [s[0:5], s[6:]])
    assert joined.text == "hello\n\nworld"
    assert list(joined.pos) == [12, 13, 14, 15, 16, -1, -1, 18, 19, 20, 21, 22]
    assert [line.text for line in Traced.of_source("a\nb\n").lines()] == ["a", "b", ""]

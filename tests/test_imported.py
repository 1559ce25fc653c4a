"""Chunks made elsewhere, aligned back to the page by their words."""

import json

import pymupdf
import pytest

from tests.conftest import APEX, REPORT
from visualiser.cli import main
from visualiser.errors import BadImport
from visualiser.imported import parse_chunks
from visualiser.pipeline import chunk_report, imported_report


def _other_extractor_text(path) -> str:
    """Text as another pipeline would see it: PyMuPDF's plain text, line breaks and all."""
    with pymupdf.open(path) as doc:
        return "".join(page.get_text() for page in doc)


def test_every_supported_shape_is_read():
    shapes = [
        ["a", "b"],
        [{"page_content": "a", "metadata": {"source": "x"}}, {"page_content": "b"}],
        [{"text": "a", "id_": "n1"}, {"text": "b"}],
        {"chunks": [{"text": "a", "chunk_type": "table"}, {"text": "b"}]},
    ]
    for shape in shapes:
        chunks = parse_chunks(json.dumps(shape).encode())
        assert [c.text for c in chunks] == ["a", "b"]
    jsonl = b'{"page_content": "a"}\n\n{"content": "b"}\n'
    assert [c.text for c in parse_chunks(jsonl)] == ["a", "b"]
    assert parse_chunks(json.dumps(shapes[3]).encode())[0].chunk_type == "table"


@pytest.mark.parametrize("data,message", [
    (b"\xff\xfe garbage", "not UTF-8"),
    (b"{not json", "neither JSON nor JSON Lines"),
    (b"[]", "non-empty list"),
    (b'[{"id": 1}]', "chunk 0 has no text"),
])
def test_unusable_files_say_why(data, message):
    with pytest.raises(BadImport, match=message):
        parse_chunks(data)


def test_windows_over_foreign_text_land_on_their_words(processed, sample_path):
    doc = processed(APEX)
    text = _other_extractor_text(sample_path(APEX))
    windows = [text[i : i + 900] for i in range(0, len(text), 800)]
    report = imported_report(doc, json.dumps(windows).encode(), "windows.json")
    assert len(report["chunks"]) == len(windows)
    for chunk, window in zip(report["chunks"], windows, strict=True):
        assert chunk["origin"]["aligned"] > 0.95
        placed = " ".join(doc.layout.words[w].text for w in _words(doc, chunk))
        # every whole word of the window (not the cut ones at its ends) is on the page
        inner = window.split()[1:-1]
        assert all(word in placed for word in inner[:20] + inner[-20:])
    assert report["strategy"]["banner"].startswith("These chunks were made by another")


def test_our_own_export_round_trips(processed):
    doc = processed(REPORT)
    ours = chunk_report(doc, "structure_aware")
    back = imported_report(doc, json.dumps(ours).encode(), "ours.json")
    assert [c["pages"] for c in back["chunks"]] == [c["pages"] for c in ours["chunks"]]
    assert [c["chunk_type"] for c in back["chunks"]] == [c["chunk_type"] for c in ours["chunks"]]
    for a, b in zip(back["chunks"], ours["chunks"], strict=True):
        assert a["origin"]["aligned"] == 1.0  # the same words, so every one is found
        assert a["regions"] == b["regions"]


def test_text_from_another_document_is_reported_unplaced(processed):
    stray = ["The quick brown fox jumps over the lazy dog while nobody watches the river."]
    report = imported_report(processed(APEX), json.dumps(stray).encode(), "stray.json")
    assert report["chunks"][0]["regions"] == []
    assert "could not be placed" in report["strategy"]["banner"]


def test_cli_import(tmp_path, capsys, sample_path):
    chunks = tmp_path / "chunks.jsonl"
    text = _other_extractor_text(sample_path(APEX))
    chunks.write_text("\n".join(json.dumps({"page_content": text[i : i + 1500]})
                                for i in range(0, len(text), 1500)))
    assert main(["chunk", str(sample_path(APEX)), "--import", str(chunks)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["chunking_strategy"] == "imported"
    assert all(c["regions"] for c in report["chunks"])
    bad = tmp_path / "bad.json"
    bad.write_text("{nope")
    assert main(["chunk", str(sample_path(APEX)), "--import", str(bad)]) == 2
    assert "neither JSON" in capsys.readouterr().err


def _words(doc, chunk):
    """The layout words inside the chunk's rectangles."""
    found = []
    for region in chunk["regions"]:
        for word in doc.layout.words:
            x, y = (word.bbox[0] + word.bbox[2]) / 2, (word.bbox[1] + word.bbox[3]) / 2
            if word.page == region["page"] and any(
                    r[0] <= x <= r[2] and r[1] <= y <= r[3] for r in region["rects"]):
                found.append(word.id)
    return found


def test_neighbours_sharing_words_are_an_overlap_window(processed, sample_path):
    text = _other_extractor_text(sample_path(APEX))
    windows = [text[i : i + 1000] for i in range(0, len(text), 700)]  # 300 chars shared
    report = imported_report(processed(APEX), json.dumps(windows).encode(), "w.json")
    assert report["overlaps"]
    assert {o["reason"] for o in report["overlaps"]} == {"overlap_window"}
    assert report["chunks"][0]["why"].startswith("Imported chunk 0, made by another pipeline; 9")

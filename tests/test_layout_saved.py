"""A layout is read once: saved as JSON, loaded as the same Layout, reused by a new
Library (a restarted server, another process) without reading the PDF's pages again."""

from __future__ import annotations

import pytest

from tests.conftest import APEX, MEMO, SAMPLES
from visualiser import pipeline
from visualiser.layout import engines, saved
from visualiser.library import Library
from visualiser.markdown import build_markdown
from visualiser.resources import samples_dir


@pytest.mark.parametrize("name", SAMPLES)
def test_a_saved_layout_loads_as_the_same_layout(processed, name):
    layout = processed(name).layout
    again = saved.loads(saved.dumps(layout))
    assert again == layout
    assert build_markdown(again).text == processed(name).source.text


def test_another_format_version_is_not_read(processed):
    data = saved.dumps(processed(APEX).layout).replace(b'"format":1', b'"format":0', 1)
    assert saved.loads(data) is None


def _report(library: Library, name: str) -> dict:
    entry = next(e for e in library.documents() if e.name == name)
    return library.report(entry, "structure_aware", {}).data


def test_a_new_library_reuses_the_layout_on_disk(tmp_path, monkeypatch):
    first = _report(Library(samples_dir(), layout_dir=tmp_path), MEMO)  # an OCR'd scan
    assert list(tmp_path.glob("*.json"))

    def no_extraction(*args, **kwargs):
        raise AssertionError("the layout was extracted again")

    monkeypatch.setattr(pipeline, "process_pdf", no_extraction)
    second = _report(Library(samples_dir(), layout_dir=tmp_path), MEMO)
    assert second["chunks"] == first["chunks"]
    assert second["pages"][0]["ocr"]


def test_an_unreadable_saved_layout_is_read_again(tmp_path):
    library = Library(samples_dir(), layout_dir=tmp_path)
    first = _report(library, APEX)
    for path in tmp_path.glob("*.json"):
        path.write_bytes(b'{"format": 1, "pages": [')  # cut short
    again = _report(Library(samples_dir(), layout_dir=tmp_path), APEX)
    assert again["chunks"] == first["chunks"]
    assert all(saved.loads(p.read_bytes()) for p in tmp_path.glob("*.json"))  # replaced


def test_a_layout_read_by_other_layout_code_is_read_again(tmp_path, processed, monkeypatch):
    path = tmp_path / "layout.json"
    saved.write_file(path, processed(APEX).layout)
    assert saved.read_file(path) == processed(APEX).layout
    monkeypatch.setattr(engines, "layout_code_digest", lambda: "0" * 64)
    assert saved.read_file(path) is None and not path.exists()


def test_a_long_ocr_layout_read_by_other_code_is_kept_and_says_so(tmp_path, processed,
                                                                  monkeypatch):
    """Reading it again would OCR every page again: it is kept, with a warning."""
    path = tmp_path / "layout.json"
    layout = processed(MEMO).layout  # one page, read by OCR
    saved.write_file(path, layout)
    monkeypatch.setattr(engines, "layout_code_digest", lambda: "0" * 64)
    monkeypatch.setattr(saved, "KEEP_OCR_PAGES", 0)
    kept = saved.read_file(path)
    assert kept is not None and kept.words == layout.words
    assert any("earlier version of the layout rules" in w for w in kept.warnings)
    monkeypatch.setattr(saved, "KEEP_OCR_PAGES", 5)
    assert saved.read_file(path) is None  # a short scan is read again

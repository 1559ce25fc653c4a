"""Text in scripts Liberation Sans lacks (Arabic, Chinese, Japanese, Korean) shows in
the viewer in fonts the server ships, in a real browser (Debian's chromium through
Playwright): without them a machine with no CJK font drew every character of a
Japanese chunk as an empty box, and one with such a font drew it in its own."""

from __future__ import annotations

import hashlib

import pymupdf
import pytest
from conftest_web import live_server, open_tab, sample_app_config

from visualiser.resources import static_dir

NAME = "scripts.pdf"
READY = '[data-testid="viewer"][data-report-state="ready"]'
FIRST = '[data-testid="chunk-list"] > li[data-chunk-index="0"]'
JAPANESE = "道路交通法施行令の一部を改正する政令"
KOREAN = "이 문서는 한국어로 작성되었습니다"
ARABIC = "هذا نص عربي قصير"


def _scripts_pdf() -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=420, height=300)
    page.insert_text((30, 60), JAPANESE, fontname="japan", fontsize=12)
    page.insert_text((30, 90), KOREAN, fontname="korea", fontsize=12)
    page.insert_font(fontname="dejavu", fontfile=str(static_dir() / "fonts" / "DejaVuSans.ttf"))
    page.insert_text((30, 120), ARABIC, fontname="dejavu", fontsize=12)
    return doc.tobytes()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    config = sample_app_config(tmp_path_factory)
    data = _scripts_pdf()
    (config["SAMPLES_DIR"] / NAME).write_bytes(data)
    with live_server(config) as running:
        running.doc_id = hashlib.sha256(data).hexdigest()
        yield running


def test_chinese_japanese_korean_and_arabic_chunks_show_in_the_served_fonts(chromium, server):
    with open_tab(chromium, server) as tab:
        tab.goto(f"{server.url}/documents/{server.doc_id}")
        tab.wait_for_selector(READY, state="attached")
        text = tab.locator(FIRST).text_content() or ""
        assert JAPANESE in text and KOREAN in text, text
        loaded = tab.evaluate("""async () => {
            await document.fonts.ready;
            return [...document.fonts].filter(f => f.status === "loaded")
                .map(f => f.family.replaceAll('"', ""));
        }""")
        # A face with a unicode-range is fetched only once text in its range is drawn
        assert {"Viewer Sans CJK", "Viewer Sans Scripts"} <= set(loaded), loaded
        # Drawn, not empty boxes: the Japanese line is as wide as the served font's
        # advances make it (a missing glyph's box is narrower than a full-width one)
        width = tab.evaluate("""(text) => {
            const probe = document.createElement("span");
            probe.textContent = text;
            probe.style.cssText = "position: absolute; display: inline-block; font-size: 20px";
            document.body.append(probe);
            const width = probe.getBoundingClientRect().width;
            probe.remove();
            return width;
        }""", JAPANESE)
        assert width == pytest.approx(20 * len(JAPANESE), rel=0.05), width

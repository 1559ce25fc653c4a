"""Helpers for the web and render tests: a live server in a thread, and golden PNG
comparison without PIL (PNG decoding by PyMuPDF).

Imported by the test modules (`tests/` is on sys.path under pytest's default import
mode); not a conftest plugin, so it adds no fixtures to other test modules.
"""

from __future__ import annotations

import io
import logging
import os
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy
import pymupdf
from werkzeug.serving import make_server

from visualiser import analysis
from visualiser.resources import samples_dir
from visualiser.strategies import STRATEGIES
from visualiser.web import create_app

GOLDENS = Path(__file__).parent / "goldens"
FAILED = Path(__file__).parent / "output"  # git-ignored; actual + diff images of failures

# The browser tests' chromium: Debian's, headless, as the CI machine has it.
CHROMIUM = Path("/usr/bin/chromium")
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
VIEWPORT = {"width": 1400, "height": 900}

# The token_based banner on the Apex sample, whose one table-context chunk is chunk 4.
_TOKEN_BASED = STRATEGIES["token_based"]
APEX_TOKEN_BANNER = analysis.banner(_TOKEN_BASED, _TOKEN_BASED.settings(),
                                    ["text", "text", "table", "text", "table_context"])["banner"]


@dataclass
class LiveServer:
    url: str
    log: io.StringIO


LETTER = (612.0, 792.0)
A4 = (595.0, 842.0)


def make_long_pdf(path: Path, pages: int, *, table_every: int = 0) -> None:
    """`long_pdf_bytes` written to `path` (bench/bench_web.py and the tests of long
    documents)."""
    path.write_bytes(long_pdf_bytes(pages, table_every=table_every))


def long_pdf_bytes(pages: int, *, size: tuple[float, float] = LETTER, words: str = "",
                   table_every: int = 0) -> bytes:
    """A multi-page text document: a heading and a few paragraphs per page, and with
    `table_every` a small ruled table on every so many pages (bench/bench_web.py).
    `words` open every paragraph, to give a document bytes, and so an id, of its own.
    Some 60 pages take long enough to process for a browser test to see the progress."""
    with pymupdf.open() as document:
        for number in range(1, pages + 1):
            page = document.new_page(width=size[0], height=size[1])
            page.insert_text((72, 90), f"Section {number}", fontsize=16, fontname="hebo")
            y = 120
            for paragraph in range(4):
                text = (f"{words} " if words else "") + (
                    f"Paragraph {paragraph + 1} of section {number} says what the parties "
                    "agreed about the delivery of goods, the charges and the service levels. "
                ) * 3
                rect = pymupdf.Rect(72, y, 540, y + 110)
                page.insert_textbox(rect, text, fontsize=10, fontname="helv")
                y += 130
            if table_every and number % table_every == 0:
                _ruled_table(page, y)
        return document.tobytes()


def _ruled_table(page: pymupdf.Page, y: float) -> None:
    """Five rows of three cells, ruled, from `y` down (100 points)."""
    for row in range(5):
        top = y + row * 20
        page.draw_line((72, top), (540, top))
        for col, x in enumerate((76, 232, 388)):
            label = "Service" if row == 0 else f"Item {row}.{col}"
            page.insert_text((x, top + 14), label, fontsize=10)
    page.draw_line((72, y + 100), (540, y + 100))
    for x in (72, 228, 384, 540):
        page.draw_line((x, y), (x, y + 100))


def make_long_table_pdf(path: Path, pages: int = 16, rows_per_page: int = 34) -> None:
    """A report whose ruled table runs across every page (header row repeated on each),
    with a title and an introduction on page 1 and a closing note on the last page: the
    dense case where many chunks start on the same lines."""
    columns = [("Route", 72), ("Depot", 160), ("Pallets", 250), ("Charge", 330), ("Notes", 410)]
    right = 540
    with pymupdf.open() as document:
        row = 0
        for number in range(1, pages + 1):
            page = document.new_page(width=612, height=792)
            y = 72
            if number == 1:
                page.insert_text((72, y + 14), "Quarterly freight charges by route",
                                 fontsize=16, fontname="hebo")
                intro = ("This report lists every route served in the quarter with its depot, "
                         "the pallets moved and the charge agreed. Charges are in pounds and "
                         "exclude VAT. Routes marked as seasonal run from April to September. ")
                page.insert_textbox(pymupdf.Rect(72, y + 26, right, y + 90), intro * 2,
                                    fontsize=9.5)
                y += 96
            lines = [("Route", "Depot", "Pallets", "Charge", "Notes")]
            for _ in range(rows_per_page - (4 if number == 1 else 0)):
                row += 1
                notes = "seasonal" if row % 5 == 0 else "all year"
                lines.append((f"R-{row:03d}", f"Depot {row % 7 + 1}", str(40 + row * 3 % 97),
                              f"{1200 + row * 37 % 900:,}", notes))
            height = 17
            for n, cells in enumerate(lines):
                top = y + n * height
                for (_, x), text in zip(columns, cells, strict=True):
                    page.insert_text((x + 3, top + 12), text, fontsize=9,
                                     fontname="hebo" if n == 0 else "helv")
                page.draw_line((72, top), (right, top), width=0.6)
            bottom = y + len(lines) * height
            page.draw_line((72, bottom), (right, bottom), width=0.6)
            for _, x in [*columns, ("", right)]:
                page.draw_line((x, y), (x, bottom), width=0.6)
            if number == pages:
                page.insert_textbox(pymupdf.Rect(72, bottom + 14, right, bottom + 60),
                                    "Charges are reviewed each quarter against the fuel index.",
                                    fontsize=9.5)
        document.save(path)


def launch_chromium() -> Iterator[Any]:
    """Debian's chromium driven by Playwright; a missing browser fails loudly (the
    browser tests are the point, not an optional extra)."""
    from playwright.sync_api import sync_playwright

    assert CHROMIUM.exists(), "install Debian's chromium (apt-get install chromium)"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=LAUNCH_ARGS)
        yield browser
        browser.close()


@contextmanager
def open_tab(browser: Any, server: LiveServer,
             expected_statuses: tuple[str, ...] = ("400 (BAD REQUEST)",)) -> Iterator[Any]:
    """A fresh tab; any page error, or a console error other than an HTTP status the
    test provokes on purpose, fails the test with the server's log."""
    context = browser.new_context(viewport=VIEWPORT, device_scale_factor=1)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(f"page error: {error}"))
    page.on(
        "console",
        lambda message: (
            errors.append(f"console: {message.text}")
            if message.type == "error"
            and not any(status in message.text for status in expected_statuses)
            else None
        ),
    )
    page.set_default_timeout(20_000)
    yield page
    context.close()
    assert not errors, "\n".join(errors) + "\nserver log:\n" + server.log.getvalue()


def sample_app_config(tmp_path_factory: Any, *names: str) -> dict[str, Any]:
    """A config for `live_server` over a fresh samples folder holding copies of the
    named bundled samples (tests add generated PDFs to `config["SAMPLES_DIR"]`), with
    its own cache and SQLite file."""
    samples = tmp_path_factory.mktemp("samples")
    for name in names:
        shutil.copy(samples_dir() / name, samples / name)
    scratch = tmp_path_factory.mktemp("app")
    return {"SAMPLES_DIR": samples, "CACHE_DIR": scratch / "cache",
            "DATABASE": scratch / "kb.sqlite"}


@contextmanager
def live_server(config: dict[str, Any]) -> Iterator[LiveServer]:
    """The real app behind a real threaded WSGI server on a free 127.0.0.1 port."""
    log = io.StringIO()
    handler = logging.StreamHandler(log)
    logger = logging.getLogger("werkzeug")
    logger.addHandler(handler)
    # No background previews unless asked (as `conftest.make_app`).
    app = create_app({"TESTING": True, "PRECOMPUTE_PREVIEWS": False, **config})
    app.logger.addHandler(handler)
    try:
        server = make_server("127.0.0.1", 0, app, threaded=True)
    except OSError as error:
        raise RuntimeError(f"the test server did not start: {error}\n{log.getvalue()}") from error
    thread = threading.Thread(target=server.serve_forever, name="live-server", daemon=True)
    thread.start()
    try:
        yield LiveServer(f"http://127.0.0.1:{server.server_port}", log)
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)
        app.extensions["visualiser"].close()
        logger.removeHandler(handler)


def _pixmap(png: bytes) -> pymupdf.Pixmap:
    pixmap = pymupdf.Pixmap(png)
    if pixmap.alpha:  # compare colour only
        pixmap = pymupdf.Pixmap(pixmap, 0)
    return pixmap


def png_difference(actual: bytes, expected: bytes, threshold: int = 24) -> tuple[int, bytes]:
    """(number of pixels differing by more than `threshold` in some channel, diff PNG).

    The diff image shows the expected image faded, with the differing pixels in red.
    """
    a, b = _pixmap(actual), _pixmap(expected)
    if (a.width, a.height, a.n) != (b.width, b.height, b.n):
        raise AssertionError(
            f"image size differs: got {a.width}x{a.height}x{a.n}, "
            f"expected {b.width}x{b.height}x{b.n}"
        )
    shape = (b.height, b.width, b.n)
    pa = numpy.frombuffer(a.samples, dtype=numpy.uint8).reshape(shape).astype(numpy.int16)
    pb = numpy.frombuffer(b.samples, dtype=numpy.uint8).reshape(shape).astype(numpy.int16)
    differs = numpy.abs(pa - pb).max(axis=2) > threshold
    out = (200 + pb * 55 // 255).astype(numpy.uint8)
    out[differs] = (255, 0, 0)[: b.n] if b.n >= 3 else 0
    diff = pymupdf.Pixmap(b.colorspace, b.width, b.height, out.tobytes(), False)
    return int(differs.sum()), diff.tobytes("png")


def assert_matches_golden(actual: bytes, name: str, max_fraction: float = 0.0001) -> None:
    """Compare with tests/goldens/<name>; UPDATE_GOLDENS=1 rewrites the golden."""
    golden = GOLDENS / name
    if os.environ.get("UPDATE_GOLDENS") == "1":
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_bytes(actual)
        return
    if not golden.exists():
        raise AssertionError(f"no golden {golden}; run with UPDATE_GOLDENS=1 to create it")
    expected = golden.read_bytes()
    try:
        bad, diff = png_difference(actual, expected)
    except AssertionError:
        (FAILED / name).parent.mkdir(parents=True, exist_ok=True)
        (FAILED / name).write_bytes(actual)
        raise
    reference = _pixmap(expected)
    pixels = reference.width * reference.height
    if bad > pixels * max_fraction:
        (FAILED / name).parent.mkdir(parents=True, exist_ok=True)
        actual_path = FAILED / name
        diff_path = FAILED / name.replace(".png", ".diff.png")
        actual_path.write_bytes(actual)
        diff_path.write_bytes(diff)
        raise AssertionError(
            f"{name}: {bad} of {pixels} pixels differ (allowed {max_fraction:.2%}); "
            f"see {actual_path} and {diff_path}; UPDATE_GOLDENS=1 accepts the new image"
        )

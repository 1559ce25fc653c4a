"""One lock for PyMuPDF in this process, and MuPDF's messages kept off stdout.

PyMuPDF is not thread-safe, and the web server has threads: page images are rendered
while a layout is being read and an upload is being checked. Every in-process call
sequence into PyMuPDF holds `LOCK`, briefly: layout reading takes it page by page, so
a page image never waits for a whole document. Layouts read by worker processes run
in their own interpreter and need no lock.

MuPDF prints "MuPDF error: …" on stdout by default, which corrupts the CLI's JSON.
Importing this module switches that off (worker processes import it too, through the
layout reader); what MuPDF had to say is collected instead with `take_messages` and
reported as warnings, each distinct message once with its count.
"""

from __future__ import annotations

import threading
from collections import Counter

import pymupdf

LOCK = threading.RLock()

pymupdf.TOOLS.mupdf_display_errors(False)
pymupdf.TOOLS.mupdf_display_warnings(False)

MAX_DISTINCT_MESSAGES = 20  # a broken file can say the same few things thousands of times


def take_messages() -> list[str]:
    """MuPDF's errors and warnings since the last call (the buffer is emptied).
    Call under `LOCK`: the buffer is process-wide."""
    text = valid_text(pymupdf.TOOLS.mupdf_warnings(reset=True))
    return [line.strip() for line in text.splitlines() if line.strip()]


def valid_text(text: str) -> str:
    """`text` with lone surrogates (undecodable bytes MuPDF passed through, e.g. from a
    garbled keyword it quotes) replaced, so it can be written as UTF-8 JSON."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogateescape" if _escaped(text) else "replace"
                           ).decode("utf-8", "replace")


def _escaped(text: str) -> bool:
    """Are all surrogates in `text` of the kind `surrogateescape` makes (U+DC80–DCFF)?"""
    return all(0xDC80 <= ord(c) <= 0xDCFF for c in text if 0xD800 <= ord(c) <= 0xDFFF)


def summarise(messages: list[str]) -> list[str]:
    """Each distinct message once, in order of first appearance, with its count."""
    counts = Counter(messages)
    distinct = list(dict.fromkeys(messages))
    summary = [f"MuPDF: {m}" + (f" (×{counts[m]})" if counts[m] > 1 else "")
               for m in distinct[:MAX_DISTINCT_MESSAGES]]
    if len(distinct) > MAX_DISTINCT_MESSAGES:
        rest = sum(counts[m] for m in distinct[MAX_DISTINCT_MESSAGES:])
        summary.append(f"MuPDF: {len(distinct) - MAX_DISTINCT_MESSAGES} more distinct "
                       f"messages ({rest} in all)")
    return summary

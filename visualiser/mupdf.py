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

`raised_by_pymupdf` tells PyMuPDF's complaints about a file from everything else.
"""

from __future__ import annotations

import importlib.util
import re
import threading
from collections import Counter
from pathlib import Path
from types import TracebackType

import pymupdf

LOCK = threading.RLock()

pymupdf.TOOLS.mupdf_display_errors(False)
pymupdf.TOOLS.mupdf_display_warnings(False)
# PyMuPDF's advert for its layout package (printed on stdout, where the CLI writes
# JSON), switched off in PyMuPDF itself rather than through the process environment.
pymupdf.no_recommend_layout()

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


# PyMuPDF's own exception types (FileDataError and EmptyFileError are RuntimeErrors;
# MuPDF's FzErrorFormat, FzErrorArgument, … derive from FzErrorBase, which is not).
PYMUPDF_ERRORS: tuple[type[BaseException], ...] = (
    pymupdf.FileDataError, pymupdf.EmptyFileError, pymupdf.mupdf.FzErrorBase)
# What PyMuPDF's Python layer also raises on nonsense in a file (a negative page
# count, a bad xref): plain built-in types, told apart by where they were raised.
_GENERIC = (RuntimeError, ValueError, IndexError)
# PyMuPDF's code: pymupdf itself (with pymupdf.layout) and pymupdf4llm, its document
# parser that the ML layout engine drives (found without importing it: it is heavy).
_PYMUPDF_DIRS = tuple(
    Path(spec.origin).resolve().parent
    for spec in (importlib.util.find_spec(name) for name in ("pymupdf", "pymupdf4llm"))
    if spec is not None and spec.origin is not None)
_FILE_LINE = re.compile(r'File "([^"]+)"')


def raised_by_pymupdf(error: BaseException) -> bool:
    """Did PyMuPDF raise `error` about the file it was reading? Its own types always;
    a RuntimeError, ValueError or IndexError only when raised inside PyMuPDF's code
    (also in a worker process, whose traceback comes back as text). A multiprocessing
    start-up failure or a bug of ours is not the PDF's fault and stays what it is."""
    if isinstance(error, PYMUPDF_ERRORS):
        return True
    if not isinstance(error, _GENERIC):
        return False
    remote = getattr(error.__cause__, "tb", None)  # concurrent.futures' _RemoteTraceback
    if isinstance(remote, str):  # re-raised from a worker process: its traceback as text
        files = _FILE_LINE.findall(remote)
        return bool(files) and _inside_pymupdf(files[-1])
    frame = _innermost(error.__traceback__)
    return frame is not None and _inside_pymupdf(frame.tb_frame.f_code.co_filename)


def _innermost(tb: TracebackType | None) -> TracebackType | None:
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return tb


def _inside_pymupdf(filename: str) -> bool:
    path = Path(filename).resolve()
    return any(path.is_relative_to(folder) for folder in _PYMUPDF_DIRS)

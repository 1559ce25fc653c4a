"""PDF → Layout. `pages.py` reads pages with PyMuPDF (in parallel for long
documents); `build.py` turns what was read into words, lines and blocks."""

from __future__ import annotations

from collections.abc import Callable

from visualiser.layout.build import build_layout
from visualiser.layout.model import Layout
from visualiser.layout.pages import ocr_available, read_pages

__all__ = ["extract_layout", "ocr_available"]


def extract_layout(data: bytes, *, ocr: bool = True,
                   progress: Callable[[int, int], None] | None = None) -> Layout:
    """The layout of every page of the PDF `data`, in reading order."""
    return build_layout(read_pages(data, ocr=ocr, progress=progress))

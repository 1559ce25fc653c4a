"""OCR for pages without a text layer, through Tesseract (PyMuPDF drives it)."""

from __future__ import annotations

import shutil

import pymupdf

from visualiser.layout.engines import LayoutOptions


def ocr_available() -> bool:
    return shutil.which("tesseract") is not None


def ocr_textpage(page: pymupdf.Page, flags: int, options: LayoutOptions) -> pymupdf.TextPage:
    """The page's words as Tesseract reads them from a 200 dpi rendering."""
    return page.get_textpage_ocr(flags=flags, dpi=200, full=True, language=options.ocr_lang)

"""OCR for pages without a text layer, through the Tesseract command line.

What it does, and says it did:

1. the page is rendered as displayed and Tesseract's orientation detection (`--psm 0`,
   the `osd` pack) says how far the scan must be turned to stand upright;
2. the upright rendering is OCR'd (`tsv` output: words with boxes and a confidence);
3. the words are returned in an upright text space with the matrix that maps it onto
   the page as displayed, so every box sits on its glyphs in the page image;
4. warnings name the page when the scan was turned, when a requested language pack is
   missing (with the packs installed), and when the confidence is so low that the
   words are likely junk (the usual cause: a script the languages given do not cover).

We call Tesseract ourselves rather than through PyMuPDF's OCR text page because that
path hides the confidence and cannot turn the page first.
"""

from __future__ import annotations

import csv
import io
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from functools import lru_cache

import pymupdf

from visualiser.geometry import BBox, union
from visualiser.layout.engines import LayoutOptions
from visualiser.layout.items import RawLine, WordBox
from visualiser.layout.scripts import join_wide_words

DPI = 200
LOW_CONFIDENCE = 55.0  # mean word confidence (0-100) under which a page reads as junk
MIN_OSD_CONFIDENCE = 1.5  # Tesseract's orientation confidence; lower is a guess
_OSD_ROTATE = re.compile(r"Rotate:\s*(\d+)")
_OSD_CONFIDENCE = re.compile(r"Orientation confidence:\s*([\d.]+)")
_TIMEOUT = 300


def ocr_available() -> bool:
    return shutil.which("tesseract") is not None


@lru_cache(maxsize=1)
def installed_languages() -> tuple[str, ...]:
    """The language packs Tesseract has (`tesseract --list-langs`)."""
    try:
        out = subprocess.run(["tesseract", "--list-langs"], capture_output=True, text=True,
                             timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return ()
    lines = (out.stdout or out.stderr).splitlines()
    return tuple(sorted(ln.strip() for ln in lines[1:] if ln.strip()))


@dataclass(slots=True)
class OcrPage:
    """A page's words as OCR read them, in an upright text space."""

    lines: list[RawLine]
    matrix: tuple[float, float, float, float, float, float]  # upright text → displayed
    width: float  # of the upright text space, in points
    turned: int  # degrees the scan was turned clockwise to stand upright
    confidence: float | None  # mean word confidence, 0-100; None without words
    languages: str  # the packs actually used, "+"-joined
    warnings: list[str] = field(default_factory=list)

    @property
    def low_confidence(self) -> bool:
        return self.confidence is not None and self.confidence < LOW_CONFIDENCE


def choose_languages(requested: str) -> tuple[str | None, str | None]:
    """The installed part of `requested` ("+"-joined packs) and a warning when part
    of it is missing. None for the languages when none of them is installed."""
    installed = installed_languages()
    wanted = [lang for lang in requested.split("+") if lang.strip()] or ["eng"]
    usable = [lang for lang in wanted if lang in installed]
    missing = [lang for lang in wanted if lang not in installed]
    if not missing:
        return "+".join(usable), None
    have = ", ".join(lang for lang in installed if lang != "osd") or "none"
    packs = ", ".join(f"tesseract-ocr-{lang.replace('_', '-').lower()}" for lang in missing)
    if usable:
        return "+".join(usable), (
            f"OCR language {', '.join(missing)} is not installed (install {packs}); "
            f"read with {'+'.join(usable)} only. Installed: {have}")
    fallback = "eng" if "eng" in installed else next(
        (lang for lang in installed if lang != "osd"), None)
    if fallback is None:
        return None, (f"OCR language {', '.join(missing)} is not installed (install "
                      f"{packs}) and Tesseract has no language pack at all")
    return fallback, (f"OCR language {', '.join(missing)} is not installed (install {packs}); "
                      f"read with {fallback} instead. Installed: {have}")


def ocr_page(page: pymupdf.Page, options: LayoutOptions) -> OcrPage:
    """OCR `page`: turned upright first, words mapped back onto the page as shown."""
    number = page.number + 1
    warnings: list[str] = []
    languages, problem = choose_languages(options.ocr_lang)
    if problem:
        warnings.append(f"page {number}: {problem}")
    zoom = DPI / 72
    turned, osd_problem = _orientation(page, zoom)
    if osd_problem:
        warnings.append(f"page {number}: {osd_problem}")
    render = pymupdf.Matrix(zoom, zoom).prerotate(turned)
    pix = page.get_pixmap(matrix=render, colorspace=pymupdf.csGRAY, alpha=False)
    # pixel → displayed page: undo the pixmap's origin, then the rendering matrix
    x0, y0 = pix.irect[:2]
    to_page = pymupdf.Matrix(zoom, 0, 0, zoom, x0, y0) * ~render
    if turned:
        warnings.append(f"page {number}: the scan was turned {turned}° to stand upright "
                        "before OCR (Tesseract's orientation detection)")
    lines: list[RawLine] = []
    confidences: list[float] = []
    if languages is not None:
        rows, error = _tesseract_tsv(pix.tobytes("png"), languages)
        if error:
            warnings.append(f"page {number}: OCR failed ({error}); its words are missing")
        lines, confidences = _lines(rows, zoom)
    m = to_page
    confidence = sum(confidences) / len(confidences) if confidences else None
    result = OcrPage(lines, (m.a, m.b, m.c, m.d, m.e, m.f), pix.width / zoom, turned,
                     confidence, languages or "", warnings)
    if result.low_confidence:
        warnings.append(
            f"page {number}: OCR confidence is low ({confidence:.0f}/100 with "
            f"{languages}): its words are likely wrong, none is taken for a heading. "
            "If the page is in another script, give its language pack with --ocr-lang "
            f"(installed: {', '.join(x for x in installed_languages() if x != 'osd')})")
    return result


def _orientation(page: pymupdf.Page, zoom: float) -> tuple[int, str | None]:
    """Degrees to turn the displayed page clockwise so its text stands upright."""
    if "osd" not in installed_languages():
        return 0, ("orientation detection is unavailable (install tesseract-ocr-osd); "
                   "the scan was read as it lies")
    pix = page.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), colorspace=pymupdf.csGRAY,
                          alpha=False)
    try:
        out = subprocess.run(["tesseract", "stdin", "stdout", "--psm", "0", "-l", "osd"],
                             input=pix.tobytes("png"), capture_output=True, timeout=_TIMEOUT,
                             check=False)
    except (OSError, subprocess.TimeoutExpired):
        return 0, None
    text = out.stdout.decode("utf-8", "replace")
    rotate, confidence = _OSD_ROTATE.search(text), _OSD_CONFIDENCE.search(text)
    if not rotate or not confidence:
        return 0, None  # too little text to tell ("Too few characters"): read as it lies
    if float(confidence.group(1)) < MIN_OSD_CONFIDENCE:
        return 0, None
    return int(rotate.group(1)) % 360, None


def _tesseract_tsv(png: bytes, languages: str) -> tuple[list[dict[str, str]], str | None]:
    try:
        out = subprocess.run(["tesseract", "stdin", "stdout", "-l", languages, "--psm", "3",
                              "tsv"], input=png, capture_output=True, timeout=_TIMEOUT,
                             check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return [], str(exc)
    if out.returncode:
        said = out.stderr.decode("utf-8", "replace").strip().splitlines()
        return [], said[-1] if said else f"tesseract exited with {out.returncode}"
    reader = csv.DictReader(io.StringIO(out.stdout.decode("utf-8", "replace")),
                            delimiter="\t", quoting=csv.QUOTE_NONE)
    return list(reader), None


def _lines(rows: list[dict[str, str]], zoom: float) -> tuple[list[RawLine], list[float]]:
    """TSV word rows (level 5) → lines in Tesseract's reading order, in points."""
    by_line: dict[tuple[str, str, str], list[WordBox]] = {}
    heights: dict[tuple[str, str, str], float] = {}
    confidences: list[float] = []
    for row in rows:
        key = (row.get("block_num", ""), row.get("par_num", ""), row.get("line_num", ""))
        try:
            left, top = float(row["left"]) / zoom, float(row["top"]) / zoom
            width, height = float(row["width"]) / zoom, float(row["height"]) / zoom
        except (KeyError, TypeError, ValueError):
            continue
        if row.get("level") == "4":
            heights[key] = height
            continue
        text = (row.get("text") or "").strip()
        if row.get("level") != "5" or not text:
            continue
        box: BBox = (left, top, left + width, top + height)
        by_line.setdefault(key, []).append((box, text))
        try:
            confidences.append(max(0.0, float(row.get("conf", "0"))))
        except ValueError:
            pass
    lines = []
    for key, words in by_line.items():
        bbox = union(b for b, _ in words)
        # a line box spans ascenders to descenders: about 1.2 times the type size
        size = heights.get(key, bbox[3] - bbox[1]) / 1.2
        lines.append(RawLine(bbox, join_wide_words(words, size), size, False, False))
    return lines, confidences

"""OCR for pages without a text layer, through the Tesseract command line.

What it does, and says it did:

1. the page is rendered as displayed and Tesseract's orientation detection (`--psm 0`,
   the `osd` pack) says how far the scan must be turned to stand upright; when it
   cannot tell (too little text, a script it does not know) and the scan reads badly
   as it lies, the other three ways round are tried and the best read is kept;
2. the upright rendering is OCR'd (`tsv` output: words with boxes and a confidence);
   when the languages asked for read it as junk and orientation detection named a
   script they do not cover ("Han" for `eng`), it is read again with that script's
   installed pack (`SCRIPT_PACKS`) and the better read kept;
3. the words are returned in an upright text space with the matrix that maps it onto
   the page as displayed, so every box sits on its glyphs in the page image;
4. warnings name the page when the scan was turned, when a requested language pack is
   missing (with the packs installed), when another pack read the page, and when the
   confidence is so low that the words are likely junk (the usual cause: a script the
   languages given do not cover); a line read at low confidence is never a heading.

We call Tesseract ourselves rather than through PyMuPDF's OCR text page because that
path hides the confidence and cannot turn the page first.
"""

from __future__ import annotations

import csv
import io
import math
import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from functools import lru_cache

import numpy
import pymupdf

from visualiser.geometry import BBox, union
from visualiser.layout import ink
from visualiser.layout.engines import LayoutOptions
from visualiser.layout.items import RawLine, WordBox
from visualiser.layout.scripts import join_wide_words

DPI = 200
MAX_PIXELS = 40_000_000  # of a page rendered for OCR: a letter page at DPI is 3.7 million
LOW_CONFIDENCE = 55.0  # mean word confidence (0-100) under which a page reads as junk
OSD_PIXELS = 2400  # long side of the image orientation detection reads (a letter page
# at 200 dpi is 2200; below about 150 dpi its confidence drops fast)
MIN_OSD_CONFIDENCE = 1.5  # Tesseract's orientation confidence; lower is a guess
_OSD_ROTATE = re.compile(r"Rotate:\s*(\d+)")
_OSD_SCRIPT = re.compile(r"Script:\s*(\w+)")
_OSD_CONFIDENCE = re.compile(r"Orientation confidence:\s*([\d.]+)")
# The packs that read a script orientation detection names, in the order tried: the
# first one installed is used when the languages asked for read a page badly.
SCRIPT_PACKS = {
    "Han": ("chi_sim", "chi_tra", "jpn"), "Japanese": ("jpn",), "Hiragana": ("jpn",),
    "Katakana": ("jpn",), "Hangul": ("kor",), "Korean": ("kor",),
    "Arabic": ("ara", "fas", "urd"), "Hebrew": ("heb",), "Cyrillic": ("rus", "ukr", "bul"),
    "Greek": ("ell",), "Devanagari": ("hin", "mar", "nep"), "Thai": ("tha",),
    "Latin": ("eng",),
}
_TIMEOUT = 300
# Tesseract's OpenMP threads fight each other (and our page workers) on a busy machine:
# one thread per process read a large scan in 3.6 s instead of 12-14 s here.
_ENV = {**os.environ, "OMP_THREAD_LIMIT": os.environ.get("OMP_THREAD_LIMIT", "1")}


def ocr_available() -> bool:
    return shutil.which("tesseract") is not None


@lru_cache(maxsize=1)
def installed_languages() -> tuple[str, ...]:
    """The language packs Tesseract has (`tesseract --list-langs`)."""
    try:
        out = subprocess.run(["tesseract", "--list-langs"], capture_output=True, text=True,
                             timeout=30, check=False, env=_ENV)
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
    doubtful: set[int] = field(default_factory=set)  # lines read at low confidence
    pictures: list[BBox] = field(default_factory=list)  # ink no word is made of
    error: str | None = None  # why Tesseract gave nothing, if it failed

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
    zoom = ocr_zoom(page.rect)
    as_shown = _matrix(page, zoom, 0)  # rendered once: for orientation, and read if upright
    turned, script, osd_problem = _orientation(_osd_image(page, as_shown[0]))
    if osd_problem:
        warnings.append(f"page {number}: {osd_problem}")
    if languages is None:
        return OcrPage([], as_shown[1], page.rect.width, 0, None, "", warnings)
    upright = _upright(page, zoom, turned or 0, as_shown)
    result = _read(upright, zoom, turned or 0, languages)
    pack = _pack_for(script, languages)
    if result.low_confidence and pack is not None:
        # The languages asked for do not cover the page's script: read it with the
        # pack that does, when it is installed, and keep the better read.
        trial = _read(upright, zoom, turned or 0, pack)
        if trial.confidence is not None and trial.confidence > (result.confidence or 0):
            warnings.append(
                f"page {number}: read with {pack}, not {languages}: orientation detection "
                f"found {script} script, and {languages} read it at "
                f"{result.confidence or 0:.0f}/100 ({pack}: {trial.confidence:.0f}/100)")
            result = trial
    how = "Tesseract's orientation detection"
    if turned is None and result.low_confidence:
        # Orientation detection could not tell (too little text, or a script it does
        # not know): a scan that reads badly is tried the other ways round.
        for turn in (180, 90, 270):
            trial = _read(_upright(page, zoom, turn), zoom, turn, languages)
            if trial.confidence is not None and trial.confidence > (result.confidence or 0):
                result = trial
            if not result.low_confidence:
                break
        how = "the orientation OCR read best; orientation detection could not tell"
    if result.turned:
        warnings.append(f"page {number}: the scan was turned {result.turned}° to stand "
                        f"upright before OCR ({how})")
    if result.error:
        warnings.append(f"page {number}: OCR failed ({result.error}); its words are missing")
    if result.low_confidence:
        warnings.append(
            f"page {number}: OCR confidence is low ({result.confidence:.0f}/100 with "
            f"{languages}): its words are likely wrong, none is taken for a heading. "
            "If the page is in another script, give its language pack with --ocr-lang "
            f"(installed: {', '.join(x for x in installed_languages() if x != 'osd')})")
    result.warnings = warnings
    return result


def ocr_zoom(rect: pymupdf.Rect) -> float:
    """Pixels per point for OCR: DPI, unless that makes the page more than MAX_PIXELS
    (a poster-sized scan, or a hostile page 200 inches square: 1.6 billion pixels at
    200 dpi); then as much as fits."""
    zoom = DPI / 72
    area = max(rect.width * rect.height, 1.0)
    return min(zoom, math.sqrt(MAX_PIXELS / area))


def _matrix(page: pymupdf.Page, zoom: float, turn: float) -> tuple[pymupdf.Pixmap, tuple]:
    """The page rendered turned `turn`° clockwise, and the matrix from that rendering's
    space (pixels / zoom, in points) back onto the page as displayed."""
    render = pymupdf.Matrix(zoom, zoom).prerotate(turn)
    pix = page.get_pixmap(matrix=render, colorspace=pymupdf.csGRAY, alpha=False)
    x0, y0 = pix.irect[:2]  # the rendering's origin
    m = pymupdf.Matrix(zoom, 0, 0, zoom, x0, y0) * ~render
    return pix, (m.a, m.b, m.c, m.d, m.e, m.f)


def _upright(page: pymupdf.Page, zoom: float, turn: int,
             as_shown: tuple[pymupdf.Pixmap, tuple] | None = None
             ) -> tuple[pymupdf.Pixmap, tuple]:
    """The page rendered turned `turn`° and straightened (`_matrix`'s pair): fed
    crooked, its columns' gutters slant, and its words' ink grows taller by their
    width. `as_shown`: the rendering at 0°, when there is one."""
    pix, matrix = as_shown if turn == 0 and as_shown else _matrix(page, zoom, turn)
    slope = ink.skew(_grey(pix))
    return _matrix(page, zoom, turn - slope) if slope else (pix, matrix)


def _read(upright: tuple[pymupdf.Pixmap, tuple], zoom: float, turn: int,
          languages: str) -> OcrPage:
    """OCR with `languages` of the rendering `upright` (`_upright(page, zoom, turn)`)."""
    pix, matrix = upright
    grey = _grey(pix)
    rows, error = _tesseract_tsv(pix.tobytes("png"), languages)
    lines, confidences, doubtful = _lines(rows, zoom, grey)
    confidence = sum(confidences) / len(confidences) if confidences else None
    words = [box for line in lines for box, _ in line.words]
    return OcrPage(lines, matrix, pix.width / zoom, turn, confidence, languages, error=error,
                   doubtful=doubtful, pictures=ink.pictures(grey, words, zoom))


def _osd_image(page: pymupdf.Page, pix: pymupdf.Pixmap) -> bytes:
    """The rendering orientation detection looks at: the page as shown, at most
    `OSD_PIXELS` on its long side (more only slows it: 5 s on a 5000-pixel scan)."""
    long_side = max(pix.width, pix.height)
    if long_side <= OSD_PIXELS:
        return pix.tobytes("png")
    zoom = OSD_PIXELS / max(page.rect.width, page.rect.height)
    small = page.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), colorspace=pymupdf.csGRAY,
                            alpha=False)
    return small.tobytes("png")


def _orientation(png: bytes) -> tuple[int | None, str | None, str | None]:
    """Degrees to turn the displayed page clockwise so its text stands upright (None
    when Tesseract cannot tell), the script it found ("Latin", "Han"; None when it
    cannot tell), and a warning if it cannot run at all."""
    if "osd" not in installed_languages():
        return None, None, ("orientation detection is unavailable (install "
                            "tesseract-ocr-osd); the scan is turned only if it reads "
                            "better that way")
    try:
        out = subprocess.run(["tesseract", "stdin", "stdout", "--psm", "0", "-l", "osd"],
                             input=png, capture_output=True, timeout=_TIMEOUT, env=_ENV,
                             check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None, None, None
    text = out.stdout.decode("utf-8", "replace")
    rotate, confidence = _OSD_ROTATE.search(text), _OSD_CONFIDENCE.search(text)
    if not rotate or not confidence:
        return None, None, None  # too little text to tell ("Too few characters")
    if float(confidence.group(1)) < MIN_OSD_CONFIDENCE:
        return None, None, None
    script = _OSD_SCRIPT.search(text)
    return int(rotate.group(1)) % 360, script.group(1) if script else None, None


def _pack_for(script: str | None, languages: str) -> str | None:
    """The installed pack for `script` when `languages` has none of its packs."""
    packs = SCRIPT_PACKS.get(script or "", ())
    if any(lang in packs for lang in languages.split("+")):
        return None
    installed = installed_languages()
    return next((pack for pack in packs if pack in installed), None)


def _tesseract_tsv(png: bytes, languages: str) -> tuple[list[dict[str, str]], str | None]:
    try:
        out = subprocess.run(["tesseract", "stdin", "stdout", "-l", languages, "--psm", "3",
                              "tsv"], input=png, capture_output=True, timeout=_TIMEOUT,
                             env=_ENV, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return [], str(exc)
    if out.returncode:
        said = out.stderr.decode("utf-8", "replace").strip().splitlines()
        return [], said[-1] if said else f"tesseract exited with {out.returncode}"
    reader = csv.DictReader(io.StringIO(out.stdout.decode("utf-8", "replace")),
                            delimiter="\t", quoting=csv.QUOTE_NONE)
    return list(reader), None


def _grey(pix: pymupdf.Pixmap) -> numpy.ndarray:
    """A grey rendering's pixels, row by row."""
    return numpy.frombuffer(pix.samples, numpy.uint8).reshape(pix.height, pix.width)


def _lines(rows: list[dict[str, str]], zoom: float, grey: numpy.ndarray
           ) -> tuple[list[RawLine], list[float], set[int]]:
    """TSV word rows (level 5) → lines in Tesseract's reading order, in points, with
    the size and weight their ink shows (`ink.py`); the words' confidences; and the
    lines whose words' mean confidence is low (misread: on a page that reads well as
    a whole, such a line, its box often stretched tall by a rule or a speck beside
    it, was taken for a heading)."""
    by_line: dict[tuple[str, str, str], list[WordBox]] = {}
    heights: dict[tuple[str, str, str], float] = {}
    line_confidences: dict[tuple[str, str, str], list[float]] = {}
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
            confidence = max(0.0, float(row.get("conf", "0")))
        except ValueError:
            continue
        confidences.append(confidence)
        line_confidences.setdefault(key, []).append(confidence)
    doubtful: set[int] = set()
    found: list[tuple[BBox, list[WordBox], float]] = []
    paragraphs: list[tuple[str, str]] = []  # Tesseract's (block, paragraph) of each line
    for key, words in by_line.items():
        bbox = union(b for b, _ in words)
        size = ink.type_size(words, heights.get(key, bbox[3] - bbox[1]), grey, zoom)
        mine = line_confidences.get(key)
        if mine and sum(mine) / len(mine) < LOW_CONFIDENCE:
            doubtful.add(len(found))
        found.append((bbox, words, size))
        paragraphs.append(key[:2])
    counts = [len(words) for _, words, _ in found]
    sizes = ink.steady_sizes([size for _, _, size in found], counts, paragraphs)
    bold = ink.bold_lines([ink.stroke(grey, [b for b, _ in words], zoom) for _, words, _ in found],
                          sizes, counts, zoom)
    lines = [RawLine(ink.line_box(bbox, size), join_wide_words(words, size), size, heavy, False)
             for (bbox, words, _), size, heavy in zip(found, sizes, bold, strict=True)]
    return lines, confidences, doubtful

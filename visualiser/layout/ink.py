"""What the ink of a scanned page says: how large its lines' type is, whether it is
bold, how crooked the page was fed, and where its pictures are.

A text layer names each span's font and size; a scan has only pixels, and Tesseract's
word boxes hug the ink. Headings are found by size and weight relative to the body
(`headings.py`), and columns and paragraphs by the gaps between line boxes
(`order.py`, `build.py`), so a scan needs all three measured as a text layer gives
them:

- size: a word's box runs from its tallest letter to its deepest, so "Initial" (no
  descender) is shorter than "typing" by a fifth at the same size, and a short
  heading without descenders read smaller than the body beside it. Each word's ink
  height is divided by the share of the type size its letters reach (ascenders,
  capitals, a t, x-height letters; descenders, a comma's tail), the line takes the
  median, and sizes a few per cent apart (what measuring pixels gives) are made one;
- weight: a bold face's stems are thicker in proportion to its size. Across a word's
  ink, the mean length of its horizontal runs of dark pixels is about a stem's width;
  divided by the size it is about 0.1 for a regular face and 0.15-0.2 for a bold one.
  A line is bold when it stands that far above the page's body lines;
- line boxes: the height a text layer's line has (`line_box`), not the ink's;
- skew (`skew`): the angle the page's lines slope at, so that it is read straightened;
- pictures (`pictures`): ink no word is made of, which a text layer would hold as an
  image of its own.

Only Latin letters have known extents here; a line of another script keeps the size
its box gives, and is weighed against the same page.
"""

from __future__ import annotations

from collections import Counter
from statistics import median

import numpy

from visualiser.geometry import BBox
from visualiser.layout.items import RawLine, WordBox

# How far a word's ink reaches, as shares of the type size. Up: to the ascender line
# (b d f h k l, the dot of i and j), to the capitals' height (capitals, digits,
# quotes, most signs), to the top of a t, or only to the x-height; down: to the
# descender line (g j p q y, brackets), a comma's tail, or the baseline. Between
# Times' and Helvetica's (measured: Times 0.69 / 0.68 / 0.59 / 0.46 / 0.21,
# Helvetica 0.75 / 0.73 / 0.69 / 0.54 / 0.21), so that in either a word reads its
# size within 8 % whatever its letters.
_X_HIGH = frozenset("acegmnopqrsuvwxyz.,:;-–—_~")  # letters and marks up to the x-height
_ASCENDERS = frozenset("bdfhklij")
_DESCENDERS = frozenset("gjpqy()[]{}§$|")
_TAILS = frozenset(",;")
_UP = {"ascender": 0.71, "capital": 0.69, "t": 0.63, "x": 0.50}
_DOWN = {"descender": 0.22, "tail": 0.12, "baseline": 0.0}
LINE_BOX = 1.2  # a line of another script: Tesseract's line box is about 1.2 sizes tall

BOLD = 1.3  # times the body's stroke, for its size, that a bold line's stroke reaches
BODY_WORDS = 4  # a line of this many words at least is running text, to weigh against
MIN_BODY_LINES = 3  # ... and a page needs so many to say what its body weighs
SAME_SIZE = 0.08  # sizes so near the body's are the body's: measuring ink, capitals
# read a few per cent smaller than lowercase with ascenders, and a pixel is 4 % of a
# 9-point word's height at 200 dpi
ONE_WORD = 0.2  # ... for a line of one word, measured once, in a paragraph of more
INK = 128  # grey level under which a pixel is ink, for the strokes and the lines
FAINT = 160  # ... and for how far the ink reaches


def type_size(words: list[WordBox], line_box: float, grey: numpy.ndarray, zoom: float
              ) -> float:
    """The type size of a line of `words`, in points; `line_box` is Tesseract's height
    for the whole line, used where no word is in Latin letters. Each word's height is
    its ink's (`grey`: the page rendered in grey, `zoom` pixels per point): Tesseract
    sometimes boxes a word of a widely spaced line with the white above and below."""
    tall: list[float] = []
    short: list[float] = []
    for box, text in words:
        reach = _reach(text)
        if reach is None:
            continue
        up, down = reach
        # a word of x-height letters alone is the least sure (x-heights differ most
        # between faces): used only when the line has no other
        (short if (up, down) == ("x", "baseline") else tall).append(
            _ink_height(grey, box, zoom) / (_UP[up] + _DOWN[down]))
    estimates = [e for e in tall or short if e > 0]
    return median(estimates) if estimates else line_box / LINE_BOX


def _reach(text: str) -> tuple[str, str] | None:
    """How far up and down the ink of the word `text` reaches (keys of `_UP` and
    `_DOWN`); None for a word too short to say, or with letters outside ASCII (an
    accent over a capital reaches higher)."""
    if sum(c.isalnum() for c in text) < 2 or any(c.isalpha() and not c.isascii() for c in text):
        return None
    if any(c in _ASCENDERS for c in text):
        up = "ascender"
    elif any(c not in _X_HIGH and c != "t" for c in text):
        up = "capital"
    else:
        up = "t" if "t" in text else "x"
    down = ("descender" if any(c in _DESCENDERS for c in text)
            else "tail" if any(c in _TAILS for c in text) else "baseline")
    return up, down


def _ink_height(grey: numpy.ndarray, box: BBox, zoom: float) -> float:
    """How tall the ink inside `box` is, in points: its rows from the first with a
    pixel of ink, however faint, to the last. (A regular face's hairline serifs and
    tails scanned at 150 dpi are pale grey: counted as light, they made its words a
    tenth shorter than bold ones of the same size.)"""
    region = _pixels(grey, box, zoom) < FAINT
    rows = numpy.flatnonzero(region.any(axis=1)) if region.size else region
    return float(rows[-1] - rows[0] + 1) / zoom if len(rows) else 0.0


def _pixels(grey: numpy.ndarray, box: BBox, zoom: float) -> numpy.ndarray:
    height, width = grey.shape
    x0, y0, x1, y1 = box
    top, bottom = max(0, int(y0 * zoom)), min(height, int(y1 * zoom) + 1)
    left, right = max(0, int(x0 * zoom)), min(width, int(x1 * zoom) + 1)
    return grey[top:max(top, bottom), left:max(left, right)]


def line_box(ink: BBox, size: float) -> BBox:
    """The box a text layer would give a line whose words' ink spans `ink`: the type's
    whole height, leading included (`LINE_BOX` sizes), centred on the ink. Lines of
    two columns set at staggered baselines then overlap as a text layer's do, and the
    rules that read columns and paragraphs measure the gaps between them alike."""
    x0, y0, x1, y1 = ink
    pad = max(0.0, (LINE_BOX * size - (y1 - y0)) / 2)
    return x0, y0 - pad, x1, y1 + pad


def stroke(grey: numpy.ndarray, boxes: list[BBox], zoom: float) -> float | None:
    """Mean width in pixels of the runs of ink across the words' boxes (`grey`: the
    page rendered in grey; boxes in points, `zoom` pixels per point)."""
    inked = runs = 0
    for box in boxes:
        region = _pixels(grey, box, zoom) < INK
        if not region.size:
            continue
        inked += int(region.sum())
        # a run starts where a dark pixel follows a light one (or the box's edge)
        runs += int(region[:, 0].sum()) + int((region[:, 1:] & ~region[:, :-1]).sum())
    return inked / runs if runs else None


def steady_sizes(sizes: list[float], word_counts: list[int], paragraphs: list[object]
                 ) -> list[float]:
    """`sizes` with the noise of measuring ink taken out: a line's size near its
    paragraph's (Tesseract's `paragraphs`, one key per line) is the paragraph's median,
    so the lines of a heading set on two lines agree; then one near the page's body
    size (the median of its lines of `BODY_WORDS` words or more) is the body size.
    Near: within `SAME_SIZE`, or `ONE_WORD` for a line of one word in a paragraph of
    more lines (a paragraph's last word alone on its line, its size measured once, on
    a word a tilted scan makes taller by its width)."""
    members: dict[object, list[float]] = {}
    for size, key in zip(sizes, paragraphs, strict=True):
        members.setdefault(key, []).append(size)
    sizes = [_snapped(size, median(members[key]),
                      ONE_WORD if n == 1 and len(members[key]) > 2 else SAME_SIZE)
             for size, n, key in zip(sizes, word_counts, paragraphs, strict=True)]
    body = [size for size, n in zip(sizes, word_counts, strict=True) if n >= BODY_WORDS]
    if len(body) < MIN_BODY_LINES:
        return sizes
    usual = median(body)
    return [_snapped(size, usual, SAME_SIZE) for size in sizes]


def _snapped(size: float, usual: float, near: float) -> float:
    return usual if abs(size - usual) <= near * usual else size


def common_sizes(lines: list[RawLine]) -> None:
    """The lines of a scanned document, each set to the commonest size measured within
    `SAME_SIZE` of its own (by characters): headings of one style measured a few per
    cent apart on different pages are one size, and so one level."""
    weight: Counter[float] = Counter()
    for line in lines:
        weight[round(line.size, 1)] += len(line.text)
    commonest: list[float] = []  # by weight, none within SAME_SIZE of one before it
    for size, _ in weight.most_common():
        if not any(abs(size - c) <= SAME_SIZE * c for c in commonest):
            commonest.append(size)
    for line in lines:
        line.size = next((c for c in commonest if abs(line.size - c) <= SAME_SIZE * c),
                         line.size)


def bold_lines(strokes: list[float | None], sizes: list[float], word_counts: list[int],
               zoom: float) -> list[bool]:
    """Which lines of a page are bold: their stroke for their size is `BOLD` times the
    page's body lines' (the median of those of `BODY_WORDS` words or more). A page
    with fewer than `MIN_BODY_LINES` such lines has no weight to compare with (a
    chart's labels, a screenshot): none of its lines is bold."""
    weights = [s / (size * zoom) if s is not None and size > 0 else None
               for s, size in zip(strokes, sizes, strict=True)]
    body = [w for w, n in zip(weights, word_counts, strict=True)
            if w is not None and n >= BODY_WORDS]
    if len(body) < MIN_BODY_LINES:
        return [False] * len(weights)
    regular = median(body)
    return [bool(w is not None and w >= BOLD * regular) for w in weights]


MAX_SKEW = 3.0  # degrees: a page fed crooked into a scanner; more is a turned page
MIN_SKEW = 0.2  # degrees: less moves a line's end by under a point across a page
_SKEW_STRIPS = 48  # vertical strips the page is cut into to weigh an angle
_SKEW_WINDOW = 12  # ... and how many side by side are lined up together


def skew(grey: numpy.ndarray) -> float:
    """How many degrees the lines of a scan slope down to the right (negative: up),
    from its ink (`grey`: the page rendered in grey): the angle at which the rows of
    neighbouring vertical strips, shifted to undo it, line up sharpest (a projection
    profile); 0.0 when it is under `MIN_SKEW` or the page shows no lines to tell by.
    Strips are lined up a few at a time, within a column's width: the lines of
    columns side by side need not share baselines, and lined up across the page
    they made a slope of their own."""
    narrow = grey[:, ::2] < INK
    height, width = narrow.shape
    strip = width // _SKEW_STRIPS
    if height < 100 or strip < 2:
        return 0.0
    profiles = narrow[:, :strip * _SKEW_STRIPS].reshape(height, _SKEW_STRIPS, strip).sum(axis=2)
    profiles = profiles.astype(numpy.float64)
    offsets = numpy.arange(_SKEW_STRIPS) * strip * 2  # in pixels of `grey`
    windows = range(0, _SKEW_STRIPS - _SKEW_WINDOW + 1, _SKEW_WINDOW // 2)
    margin = int(_SKEW_WINDOW * strip * 2 * numpy.tan(numpy.radians(MAX_SKEW))) + 1

    def sharpness(degrees: float) -> float:
        shifts = numpy.rint(-offsets * numpy.tan(numpy.radians(degrees))).astype(int)
        score = 0.0
        for first in windows:
            total = numpy.zeros(height + 2 * margin)
            base = shifts[first]
            for n in range(first, first + _SKEW_WINDOW):
                start = margin + shifts[n] - base
                total[start:start + height] += profiles[:, n]
            score += float((total * total).sum())
        return score

    flat = sharpness(0.0)
    if flat == 0.0:
        return 0.0
    coarse = max(numpy.arange(-MAX_SKEW, MAX_SKEW + 0.01, 0.25), key=sharpness)
    best, sharpest = max(((a, sharpness(a)) for a in numpy.arange(coarse - 0.25, coarse + 0.26,
                                                                   0.05)), key=lambda t: t[1])
    # a page without lines of text is as sharp at any angle
    return float(round(best, 2)) if abs(best) >= MIN_SKEW and sharpest > 1.01 * flat else 0.0


PAPER = 230  # grey level under which a pixel is not paper: a picture's light tones too
PICTURE_SIDE = 36.0  # points a picture spans at least, each way (less: a mark, a logo)
PICTURE_FILL = 0.5  # of its box a picture's ink fills (a table's rules far less)
_CELL = 8  # pixels a side of the grid pictures are found on
_INKED = 0.25  # of a cell's pixels not paper, for it to be part of a picture


def pictures(grey: numpy.ndarray, words: list[BBox], zoom: float) -> list[BBox]:
    """The pictures of a scan, in points: patches of ink where OCR found no word (a
    photo, a chart, a shaded panel), at least `PICTURE_SIDE` each way and filling
    `PICTURE_FILL` of their box. On a text layer a picture is an object of its own;
    on a scan it is ink, and unseen, a column topped by one was taken to start
    where its text does, below the top of the column beside it."""
    rows, cols = grey.shape[0] // _CELL, grey.shape[1] // _CELL
    if not rows or not cols:
        return []
    cells = ((grey[:rows * _CELL, :cols * _CELL] < PAPER)
             .reshape(rows, _CELL, cols, _CELL).mean(axis=(1, 3)) > _INKED)
    for x0, y0, x1, y1 in words:  # a word's ink is text, and a cell round it
        cells[max(0, int(y0 * zoom / _CELL) - 1):int(y1 * zoom / _CELL) + 2,
              max(0, int(x0 * zoom / _CELL) - 1):int(x1 * zoom / _CELL) + 2] = False
    found: list[BBox] = []
    side = PICTURE_SIDE * zoom / _CELL  # in cells
    for start in zip(*numpy.nonzero(cells), strict=True):
        if not cells[start]:
            continue  # taken into a patch already
        cells[start] = False
        todo, patch = [start], []
        while todo:  # the patch's cells, side by side or one over the other
            r, c = todo.pop()
            patch.append((r, c))
            for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if 0 <= n[0] < rows and 0 <= n[1] < cols and cells[n]:
                    cells[n] = False
                    todo.append(n)
        top, bottom = min(r for r, _ in patch), max(r for r, _ in patch) + 1
        left, right = min(c for _, c in patch), max(c for _, c in patch) + 1
        if (bottom - top >= side and right - left >= side
                and len(patch) >= PICTURE_FILL * (bottom - top) * (right - left)):
            scale = _CELL / zoom
            found.append((left * scale, top * scale, right * scale, bottom * scale))
    return found

"""Clean-up of a page's lines before blocks are gathered: running heads and feet
left out, pieces of one row joined into one line, a figure that interrupts a
paragraph moved after it."""

from __future__ import annotations

import re
from collections import Counter
from statistics import median

from visualiser.geometry import BBox, same_row, union
from visualiser.layout.headings import size_class
from visualiser.layout.items import Item, PageRead, RawLine
from visualiser.patterns import CAPTION, CAPTION_TITLE, numbers_aside

RUNNING_MARGIN = 0.1  # top and bottom share of a page where running heads and feet live
# the top share of a page a running head that names the section may sit in: KOMA-Script
# and other classes set it lower than a recurring head, a line above the text
SECTION_MARK_BAND = 0.15


def join_rows(items: list[Item]) -> list[Item]:
    """Lines that follow each other on one row become one line: PyMuPDF splits a line
    at wide spaces and at a change of baseline, so a section number and its title
    ("5.1" and "Results"), a justified line or a footnote mark would otherwise be
    read as several. (A mark set tight against a word stays a word of its own: the
    text layer has no space there, but its words are what the boxes are drawn on.)"""
    joined: list[Item] = []
    for item in items:
        before = joined[-1] if joined else None
        if (before is not None and before.line is not None and item.line is not None
                and before.role == item.role and before.group == item.group
                and _same_row(before.line, item.line)):
            before.line = _joined(before.line, item.line)
            before.bbox = before.line.bbox
            continue
        joined.append(item)
    return joined


def _joined(a: RawLine, b: RawLine) -> RawLine:
    main = a if len(a.text) >= len(b.text) else b
    return RawLine(union((a.bbox, b.bbox)), a.words + b.words, main.size, a.bold and b.bold,
                   a.mono and b.mono, a.horizontal,
                   bold_lead=a.bold_lead or (a.bold and not b.bold))


def _same_row(a: RawLine, b: RawLine) -> bool:
    """Are `a` and `b` on one row: side by side at one baseline and size, or one a
    smaller mark (a footnote number, an index) inside the other's height?"""
    if not (a.horizontal and b.horizontal):
        return False
    gap = max(b.bbox[0] - a.bbox[2], a.bbox[0] - b.bbox[2])  # either may come first
    if not -1.0 < gap < 2.5 * max(a.size, b.size, 1.0):
        return False
    if size_class(a.size) == size_class(b.size):
        height = max(a.bbox[3] - a.bbox[1], b.bbox[3] - b.bbox[1], 1.0)
        return abs((a.bbox[1] + a.bbox[3]) - (b.bbox[1] + b.bbox[3])) / 2 < 0.3 * height
    small, large = sorted((a, b), key=lambda line: line.size)
    pad = 0.25 * (large.bbox[3] - large.bbox[1])
    return (gap < 0.3 * large.size and small.size < 0.85 * large.size
            and large.bbox[1] - pad <= small.bbox[1] and small.bbox[3] <= large.bbox[3] + pad)


def drop_running_lines(pages: list[PageRead]) -> int:
    """Remove running heads and feet: a line in the top or bottom margin whose text,
    numbers aside, recurs there on at least half the pages (and three), at the height
    it has on most of them, and a line that shares its row with such a recurring page
    number; on a two-sided document, on half the pages of one side (a report's
    left-hand feet name the series, its right-hand ones the chapter). They would
    otherwise sit in the middle of every chunk that crosses a page.
    (A book's running head names its chapter, "Chapter 2: Parsing  3", so its text
    recurs only within a chapter; the page number beside it is what gives it away.)
    A two-page document (a web page printed with the browser's head and foot: title,
    date, address, "1/2") has them on both pages, at one height to the point: its
    heads, and its feet where a page number is among them."""
    if len(pages) < 2:
        return 0

    def key(page: PageRead, item: Item) -> tuple[str, str] | None:
        if item.line is None:
            return None
        height = page.text_size[1]
        top, bottom = item.bbox[1], item.bbox[3]
        band = "head" if bottom < height * RUNNING_MARGIN else (
            "foot" if top > height * (1 - RUNNING_MARGIN) else None)
        return (band, numbers_aside(item.line.text)) if band else None

    heights: dict[tuple[str, str], list[float]] = {}  # where each key sits, page by page
    sides: dict[tuple[str, str], set[int]] = {}  # the parities of the pages it is on
    for n, page in enumerate(pages):
        found = {k: item.bbox for item in page.items if (k := key(page, item))}
        for k, box in found.items():
            heights.setdefault(k, []).append((box[1] + box[3]) / 2)
            sides.setdefault(k, set()).add(n % 2)

    def both(k: tuple[str, str]) -> bool:
        """On both pages of two, at one height to the point."""
        return len(heights[k]) == 2 and abs(heights[k][0] - heights[k][1]) <= 1.0

    # a form's feet ("Form 1040 (2010)") name it on both its pages: the page numbers
    # say the feet are a printout's
    numbered_foot = len(pages) == 2 and any(
        k[0] == "foot" and _FOLIO_OF.fullmatch(k[1]) and both(k) for k in heights)

    def recurring(k: tuple[str, str]) -> bool:
        """On half the pages, or (a two-sided document's left or right feet) on half
        the pages of one side."""
        n = len(heights[k])
        if len(pages) == 2:  # a head, or a foot beside a page number ("1/2", "2/2")
            return both(k) and (k[0] == "head" or numbered_foot)
        if n >= max(3, len(pages) / 2):
            return True
        side = next(iter(sides[k])) if len(sides[k]) == 1 else None
        return side is not None and n >= 3 and n >= (len(pages) + 1 - side) // 2 / 2

    running = {k: sorted(v)[len(v) // 2] for k, v in heights.items() if recurring(k)}

    def recurs(item: Item, k: tuple[str, str] | None) -> bool:
        """Is `item` the running line of key `k`, where that line sits on most pages?
        (A chapter's number "1" over its title is no page number, though it looks like
        one, and "Results" at the top of a column no running head.)"""
        if k not in running:
            return False
        line_height = max(item.bbox[3] - item.bbox[1], 4.0)
        return abs((item.bbox[1] + item.bbox[3]) / 2 - running[k]) <= line_height

    dropped = 0
    for page in pages:
        keys = [key(page, item) for item in page.items]
        numbers = [item.bbox for item, k in zip(page.items, keys, strict=True)
                   if k is not None and k[1] in _BARE_NUMBERS and recurs(item, k)]
        going = [k is not None and (recurs(item, k) or any(same_row(item.bbox, n)
                                                             for n in numbers))
                 for item, k in zip(page.items, keys, strict=True)]
        captions = _captions(page.items) if any(going) else set()
        kept = [item for item, gone in zip(page.items, going, strict=True)
                if not gone or id(item) in captions]
        dropped += len(page.items) - len(kept)
        page.items = kept
    return dropped


def _captions(items: list[Item]) -> set[int]:
    """The ids of the lines that make a caption's first row: a label ("Table 14.")
    and the text that goes on beside it ("Actual and projected numbers …"). A report
    of one table a page starts every page with one at one height, and its label (and,
    on the pages a table continues on, its text) recurs there as a running head does."""
    found: set[int] = set()
    for item in items:
        line = item.line
        if line is None or not CAPTION.match(line.text):
            continue
        row, end = [item], item.bbox[2]
        for other in sorted((o for o in items if o.line is not None and o is not item
                             and same_row(item.bbox, o.bbox) and o.bbox[0] >= end - 1.0),
                            key=lambda o: o.bbox[0]):
            if other.bbox[0] - end >= 2 * line.size:
                break
            row.append(other)
            end = other.bbox[2]
        if len(row) > 1:
            found.update(id(i) for i in row)
    return found


def drop_section_marks(pages: list[PageRead]) -> int:
    """Remove running heads that name the current section (a book's chapter, a
    statute's "§ 6 Becoming a Member"): a page's top line in its top 15 %, set
    apart from the text below it, whose text (numbers aside) is a heading of the body
    on that page or an earlier one, set larger than it, where such a line sits on two
    pages or more at one height. Its text changes with the section, so
    `drop_running_lines` does not see it recur; in the chunks it would repeat the
    heading inside the section's text. (A heading at the top of a page that a table
    of contents named before is set larger than the entry, and stays.)"""
    seen: dict[str, float] = {}  # body lines so far, numbers aside → the largest size
    marks: list[tuple[PageRead, Item]] = []
    for page in pages:
        height = page.text_size[1]
        lines = [(i, i.line) for i in page.items if i.line is not None and i.line.horizontal]
        if len(lines) < 2:
            continue
        top, line = min(lines, key=lambda pair: pair[0].bbox[1])
        body = [(i, line) for i, line in lines
                if i is not top and i.bbox[3] >= height * RUNNING_MARGIN]
        for _, body_line in body:
            text = numbers_aside(body_line.text)
            seen[text] = max(seen.get(text, 0.0), body_line.size)
        if not body:
            continue
        below = min(i.bbox[1] for i, _ in body)
        text = numbers_aside(line.text)
        if (top.bbox[3] < height * SECTION_MARK_BAND and top.role is None
                and below - top.bbox[3] > top.bbox[3] - top.bbox[1]
                and seen.get(text, 0.0) > line.size + 0.5):
            marks.append((page, top))
        elif top.bbox[3] >= height * RUNNING_MARGIN:
            seen[text] = max(seen.get(text, 0.0), line.size)  # a heading atop its page
    if len(marks) < 2:
        return 0
    usual = sorted(item.bbox[1] for _, item in marks)[len(marks) // 2]
    dropped = 0
    for page, item in marks:
        if abs(item.bbox[1] - usual) <= item.bbox[3] - item.bbox[1]:
            page.items.remove(item)
            dropped += 1
    return dropped


def drop_folio_lines(pages: list[PageRead]) -> int:
    """Remove running heads and feet that carry the page number, whose text does not
    recur: a book names each chapter in its own, a scan's OCR reads each page's a
    little differently ("16      第一篇 商品和货币", "Chapter 2: Parsing      17"). The
    number gives them away: it goes up by one page by page, on the top (or bottom)
    row of at least half the pages, and three; the whole row goes."""
    if len(pages) < 3:
        return 0
    in_step: dict[tuple[str, int], list[tuple[PageRead, list[Item]]]] = {}
    for n, page in enumerate(pages):
        lines = [i for i in page.items
                 if i.line is not None and i.line.horizontal and i.role is None]
        if len(lines) < 2:
            continue
        height = page.text_size[1]
        highest = min(lines, key=lambda i: i.bbox[1])
        lowest = max(lines, key=lambda i: i.bbox[1])
        for band, edge in (("head", highest), ("foot", lowest)):
            if not (edge.bbox[3] <= height * SECTION_MARK_BAND if band == "head"
                    else edge.bbox[1] >= height * (1 - PAGE_NUMBER_FOOT)):
                continue
            row = [i for i in lines if same_row(i.bbox, edge.bbox)]
            if len(row) == len(lines):
                continue  # the page's only row is its text
            numbers = {f for item in row for f in _folios(item.line)}  # type: ignore[arg-type]
            if len(numbers) == 1:  # a page has one number; a chart's scale has many
                in_step.setdefault((band, numbers.pop() - n), []).append((page, row))
    going = {id(item): (page, item) for found in in_step.values()
             if len(found) >= max(3, len(pages) / 2) for page, row in found for item in row}
    for page, item in going.values():
        page.items.remove(item)
    return len(going)


def _folios(line: RawLine) -> list[int]:
    """The page numbers `line` may carry: the number it is, or a number as its first or
    last word set apart from the word next to it by a wide space (a running head's
    \\hfill; a numbered title, "1 Introduction", has a word space there)."""
    words = line.words
    if len(words) == 1:
        return [int(words[0][1])] if _FOLIO.fullmatch(words[0][1]) else []
    apart = _FOLIO_GAP * max(line.size, 1.0)
    found = []
    for (a, text), (b, _) in ((words[0], words[1]), (words[-1], words[-2])):
        # either side: a line written right to left has its first word on the right
        if _FOLIO.fullmatch(text) and max(a[0] - b[2], b[0] - a[2]) >= apart:
            found.append(int(text))
    return found


_FOLIO = re.compile(r"\d{1,4}")
_FOLIO_GAP = 3.0  # ems between a running head's page number and its text, at least


# a page number as `numbers_aside` writes it: "7", "- 7 -", "(7)"
_BARE_NUMBERS = frozenset({"#", "- # -", "– # –", "(#)", "[#]"})
# and with the count of pages: "1/2", "1 / 2", "Page 1 of 2", "1 of 2"
_FOLIO_OF = re.compile(r"(?:page\s+)?#\s*(?:/|of)\s*#|" + "|".join(map(re.escape, _BARE_NUMBERS)))


# a page number as set in a foot or head: "7", "- 7 -", "(vii)", "Page 7", and with the
# count of pages, as a browser prints it: "1/2", "1 / 2", "Page 1 of 2"
_PAGE_NUMBER = re.compile(r"(?:page\s+)?[-–—(]?\s*(?:\d{1,4}|[ivxlcdm]{1,7})"
                          r"(?:\s*(?:/|of)\s*\d{1,4})?\s*[-–—)]?", re.IGNORECASE)
PAGE_NUMBER_FOOT = 0.2  # bottom share of a page where a page number may sit (LaTeX: 0.12)
PAGE_NUMBER_HEAD = 0.12


def drop_page_numbers(pages: list[PageRead]) -> int:
    """Remove page numbers that `drop_running_lines` cannot see (documents of one or
    two pages, numbers set above the margin band as LaTeX does): a bare number that
    is the lowest (or highest) line of its page, alone on its row and set apart from
    the text by more than a line. In the chunks it would sit between the last words
    of one page and the first of the next."""
    dropped = 0
    for page in pages:
        lines = [i for i in page.items if i.line is not None and i.line.horizontal]
        if len(lines) < 2:
            continue
        height = page.text_size[1]
        lowest = max(lines, key=lambda i: i.bbox[1])
        highest = min(lines, key=lambda i: i.bbox[1])
        numbers = [item for item, band in ((lowest, "foot"), (highest, "head"))
                   if _page_number(item, lines, height, band)]
        for item in numbers:
            page.items.remove(item)
            dropped += 1
    return dropped


def _page_number(item: Item, lines: list[Item], height: float, band: str) -> bool:
    if item.role is not None or item.line is None or \
            not _PAGE_NUMBER.fullmatch(item.line.text.strip()):
        return False
    top, bottom = item.bbox[1], item.bbox[3]
    if band == "foot" and top < height * (1 - PAGE_NUMBER_FOOT):
        return False
    if band == "head" and bottom > height * PAGE_NUMBER_HEAD:
        return False
    line_height = bottom - top
    for other in lines:
        if other is item:
            continue
        if other.bbox[1] < bottom and top < other.bbox[3]:
            return False  # not alone on its row: a column of numbers, a table's total
        gap = top - other.bbox[3] if band == "foot" else other.bbox[1] - bottom
        if gap < line_height:
            return False  # right under (or over) the text: part of it
    return True


LINE_NUMBERS_MIN = 8  # numbers in a column before it counts as line numbering
_LINE_NUMBER = re.compile(r"\d{1,4}")


def drop_line_numbers(pages: list[PageRead]) -> int:
    """Remove the numbers a transcript, a pleading or a paper under review prints in
    its margin beside every line ("12  Q. And where were you?"): read with the text
    they would sit between the words of every sentence ("We 2 are on the record").
    A column of them is told from a numbered list by what a list cannot be: at least
    LINE_NUMBERS_MIN bare numbers aligned on one edge, rising by one step (1 at an even
    pitch, or 5 or 10; in a margin no text reaches, 1 at any pitch), each set apart
    from the text of its row, on at least half of the document's pages (a page of a
    one- or two-page document needs twice as many)."""
    least = LINE_NUMBERS_MIN if len(pages) > 2 else 2 * LINE_NUMBERS_MIN
    found = [_line_number_columns(page, uneven=True) for page in pages]
    edges = [(edge, x) for columns in found for edge, x, column in columns
             if len(column) >= least]
    numbered = sum(1 for columns in found if any(len(c) >= least for _, _, c in columns))
    if numbered < max(1, len(pages) / 2):
        return 0
    # The document is numbered: a page's short column (the last lines of a section)
    # counts where it stands where the long ones stand.
    dropped = 0
    for page, columns in zip(pages, found, strict=True):
        numbers = {(id(item), at) for edge, x, column in columns
                   if any(e == edge and abs(x - ex) < 2.0 for e, ex in edges)
                   for item, at in column}
        if not numbers:
            continue
        kept = []
        for item in page.items:
            line = item.line
            cut = [at for at in (0, -1) if (id(item), at) in numbers] if line else []
            if not cut:
                kept.append(item)
                continue
            words = line.words[1:] if 0 in cut else list(line.words)
            if -1 in cut and len(line.words) > 1:
                words = words[:-1]
            dropped += 1
            if words:
                item.line = RawLine(union(b for b, _ in words), words, line.size, line.bold,
                                    line.mono, line.horizontal)
                item.bbox = item.line.bbox
                kept.append(item)
        page.items = kept
    return dropped


def margin_numbers(page: PageRead) -> list[Item]:
    """The lone numbers of `page`'s margin line numbering, as `drop_line_numbers` sees
    it on one page (whether they go is decided over the whole document). Read with
    the text, a draft's numbers down both margins make every row of its two columns
    look like a table's row, and the reading order would go across the gutter."""
    lone = {id(item): item for _, _, column in _line_number_columns(page)
            if len(column) >= LINE_NUMBERS_MIN and not _years(column)
            for item, _ in column if item.line is not None and len(item.line.words) == 1}
    return list(lone.values())  # a number may align on both edges: once


def _years(column: list[tuple[Item, int]]) -> bool:
    """A column of years, most of it (a statistical table's 1996, 1997, …), not line
    numbers: before the tables are found it looks just like them."""
    years = sum(item.line is not None and 1800 <= int(item.line.words[at][1]) <= 2100
                for item, at in column)
    return 4 * years >= 3 * len(column)


def _line_number_columns(page: PageRead, uneven: bool = False
                         ) -> list[tuple[int, float, list[tuple[Item, int]]]]:
    """The columns of margin line numbers on `page` (two numbers or more): the edge
    they align on (0 left, 2 right), its x, and (item, 0 or -1: the line's first or
    last word) for each number. With `uneven`, numbers in a margin of their own may
    stand at an uneven pitch (lists, headings, equations between the rows): then only
    the whole document can tell them from a listing's numbers."""
    candidates: list[tuple[BBox, int, Item, int]] = []
    for item in page.items:
        line = item.line
        if line is None or not line.horizontal:
            continue
        words = line.words
        apart = 1.5 * line.size  # wider than any word space: a margin, not a sentence
        for at, neighbour in ((0, 1), (-1, -2)):
            box, text = words[at]
            if not _LINE_NUMBER.fullmatch(text):
                continue
            if len(words) > 1:
                other = words[neighbour][0]
                if (other[0] - box[2] if at == 0 else box[0] - other[2]) < apart:
                    continue
            candidates.append((box, int(text), item, at))
            if len(words) == 1:
                break
    columns, gutters = [], []
    for edge in (0, 2):  # numbers aligned on their left edge, or on their right
        for run in _aligned(candidates, edge):
            if not _counts_lines(run, even=False):
                continue  # the loosest count first: it is cheap, where a run stands is not
            place = _standing(run, page)
            column = (edge, run[0][0][edge], [(item, at) for _, _, item, at in run])
            if place == "gutter":
                gutters.append(column)
            # at the body's own edge, numbers rising by one could be a list's: an even
            # pitch tells line numbers apart
            elif place is not None and ((place == "margin" and uneven) or _counts_lines(run)):
                columns.append(column)
    # A draft in two columns may number the second one in the gutter (REVTeX's
    # preprint): lone numbers between the columns count where the margin has its own.
    return columns + gutters if columns else []


def _standing(run: list[tuple[BBox, int, Item, int]], page: PageRead) -> str | None:
    """Where the column of numbers `run` stands: "margin" (outside the text, no other
    line reaching its strip), "edge" (outside the text, lines starting at its edge: a
    form's numbered lines, a list), "gutter" (lone numbers in a clear strip with text
    on both sides, between two columns), or None (among the text)."""
    numbers = {id(item) for _, _, item, _ in run}
    x0 = min(c[0][0] for c in run)
    x1 = max(c[0][2] for c in run)
    y0, y1 = run[0][0][1], run[-1][0][3]
    width = page.text_size[0]  # boxes are in text space
    left = x1 < width / 2
    others = [item.bbox for item in page.items if item.line is not None
              and id(item) not in numbers]
    allowed = 0.05 * len(page.items)
    beyond = sum(1 for b in others if (b[0] < x0 if left else b[2] > x1))
    if beyond <= allowed:
        reaching = sum(1 for b in others if (b[0] < x1 if left else b[2] > x0))
        return "margin" if reaching <= allowed else "edge"
    if not all(len(item.line.words) == 1 for _, _, item, _ in run):
        return None
    beside = [item for item in page.items if item.line is not None
              and id(item) not in numbers and item.bbox[3] > y0 and item.bbox[1] < y1]
    if not beside:
        return None
    middle = (x0 + x1) / 2  # a justified column may reach the widest numbers' edge
    before = sum(1 for item in beside if item.bbox[2] <= middle)
    after = sum(1 for item in beside if item.bbox[0] >= middle)
    crossing = len(beside) - before - after
    # set smaller than the text, as drafts set them: a table's column of ranks between
    # two others is in the table's own size
    smaller = (median(item.line.size for _, _, item, _ in run)
               < 0.85 * median(item.line.size for item in beside))
    if smaller and min(before, after) >= len(run) and crossing <= 0.05 * len(beside):
        return "gutter"
    return None


def _aligned(candidates: list[tuple[BBox, int, Item, int]],
             edge: int) -> list[list[tuple[BBox, int, Item, int]]]:
    runs: list[list[tuple[BBox, int, Item, int]]] = []
    for c in sorted(candidates, key=lambda c: c[0][edge]):
        if runs and c[0][edge] - runs[-1][-1][0][edge] < 2.0:
            runs[-1].append(c)
        else:
            runs.append([c])
    return [sorted(run, key=lambda c: c[0][1]) for run in runs if len(run) >= 2]


def _counts_lines(run: list[tuple[BBox, int, Item, int]], even: bool = True) -> bool:
    """Do the numbers of `run` (top to bottom) rise by one step, 1 at an even pitch (a
    list's numbers rise by one too, item by item), or 5 or 10? Unless `even`, a step
    of 1 may come at any pitch, and the count may skip ahead once."""
    steps = Counter(b[1] - a[1] for a, b in zip(run, run[1:], strict=False))
    step, rising = steps.most_common(1)[0]
    if len(run) == 2:
        return step in (1, 5, 10)
    if step not in (1, 5, 10):
        return False
    if rising >= 0.95 * (len(run) - 1):  # a form skips some
        # every fifth line: headings and equations between make the pitch uneven
        if step > 1 or not even or _even_pitch(run, step):
            return True
    # one skip at most, ahead: where the column's count went on in the other column (a
    # form's numbers skip wherever it leaves lines out)
    return (not even and rising >= len(run) - 2
            and all(a[1] < b[1] for a, b in zip(run, run[1:], strict=False)))


def _even_pitch(run: list[tuple[BBox, int, Item, int]], step: int) -> bool:
    pitches = sorted(b[0][1] - a[0][1] for a, b in zip(run, run[1:], strict=False)
                     if b[1] - a[1] == step)
    pitch = pitches[len(pitches) // 2]
    regular = sum(1 for p in pitches if abs(p - pitch) <= 0.2 * pitch)
    return pitch > 0 and regular >= 0.8 * len(pitches)


_OPEN_END = re.compile(r"[-\w,;]$")  # a line that ends mid-sentence (a hyphen, a word)
_CLOSED_END = (".", "!", "?", ":")


def figures_after_paragraphs(pages: list[PageRead]) -> None:
    """A figure (its labels and pictures) read between two parts of one paragraph,
    the text before it ending mid-sentence ("perfor-") and the text after it going
    on in lower case ("mance"), is moved after that paragraph: it was placed there,
    at the top of a column or a page, by the typesetter, not by the author."""
    before: RawLine | None = None  # the last body line read, across pages
    for page in pages:
        items = page.items
        n = 0
        while n < len(items):
            if not (_aside(items[n]) or _caption_over(items, n)):
                if items[n].line is not None and items[n].role is None:
                    before = items[n].line
                n += 1
                continue
            end = n + 1
            while end < len(items) and _aside(items[end]):
                end += 1
            after = items[end].line if end < len(items) and items[end].role is None else None
            if (before is not None and after is not None and before.horizontal
                    and _OPEN_END.search(before.text) and after.text[:1].islower()):
                stop = end
                while (stop < len(items) and items[stop].line is not None
                       and items[stop].role is None
                       and not items[stop].line.text.rstrip().endswith(_CLOSED_END)):
                    stop += 1
                stop = min(stop + 1, len(items))
                if all(i.line is not None and i.role is None for i in items[end:stop]):
                    items[n:stop] = items[end:stop] + items[n:end]
                    n += stop - end
                    continue
            n = end


def _caption_over(items: list[Item], n: int) -> bool:
    """Is `items[n]` a caption set over the figure read next ("FIGURE 2: THE DEPOTS")?
    It moves with the figure: left behind, it took the paragraph's second half for
    its own."""
    line = items[n].line
    return (line is not None and items[n].role is None
            and bool(CAPTION_TITLE.match(line.text))
            and n + 1 < len(items) and _aside(items[n + 1]))


def _aside(item: Item) -> bool:
    """A figure's part: a picture, or a line that is a figure's label."""
    return item.kind == "image" or (item.line is not None and item.role in ("note", "label")
                                    and item.line.horizontal)


NOTE_GAP = 0.5  # em between a margin note and the text block it stands beside
NOTE_SHARE = 0.12  # of a page's characters: notes are a minority
_PROSE = 6  # words: a line this long is running text, the text block's substance
SIDE_HEAD = (1.15, 1.5)  # a line in the margin this much larger than the text, bold or
# not, is a section head beside it (a form's "Income", a résumé's "Experience")


def margin_notes(items: list[Item]) -> list[Item]:
    """The notes set in a page's margin beside its one text block (a package manual's
    macro names, a statute's side notes, a textbook's key words): lines wholly left or
    right of where the page's running text starts and ends, set apart by a gap. Short
    and sparse, they are no column the reading order would keep apart, and read by
    rows they split each paragraph they stand beside.

    Only where the page's running text is one block (four fifths of its lines start
    at one left edge, a paragraph's indent allowed: a page in two columns has no
    margin to find) and the notes are a minority, at most one beside every two lines
    of running text: a glossary's terms or a CV's dates, one per entry, stay. A
    section number or a list label hung in the margin belongs to its line."""
    lines = [i for i in items if i.kind == "line" and i.line is not None and i.role is None
             and i.line.horizontal]
    prose = [i for i in lines if _running_text(i.line.text)]  # type: ignore[union-attr]
    if len(prose) < 5:
        return []
    size = sorted(i.line.size for i in prose)[len(prose) // 2]  # type: ignore[union-attr]
    left = Counter(round(i.bbox[0]) for i in prose).most_common(1)[0][0]
    block = [i for i in prose if -0.5 * size <= i.bbox[0] - left <= 2.5 * size]
    starts = [i for i in lines if i.bbox[0] >= left - 0.5 * size]
    runs_on = [i for i in prose if i.bbox[0] - left > 2.5 * size
               and _runs_on(i, starts, size)]  # the rest of a row after a change of font
    if 5 * (len(block) + len(runs_on)) < 4 * len(prose):
        return []
    right = max(i.bbox[2] for i in block)
    # a right margin only beside justified text: ragged lines give no edge to be
    # outside of (a proof's "Q.E.D." set flush right is no note)
    justified = 2 * sum(i.bbox[2] >= right - 0.5 * size for i in block) >= len(block)
    top, bottom = min(i.bbox[1] for i in block), max(i.bbox[3] for i in block)
    gap = NOTE_GAP * size
    found = [i for i in lines if (i.bbox[2] <= left - gap
                                  or (justified and i.bbox[0] >= right + gap))
             and top - size <= i.bbox[1] and i.bbox[3] <= bottom + size
             and not _hung_label(i.line.text)  # type: ignore[union-attr]
             and not _side_head(i.line, size)]  # type: ignore[arg-type]
    on_left = [i for i in found if i.bbox[2] <= left - gap]
    notes = _alone(on_left, lines, size) + _alone(
        [i for i in found if i.bbox[2] > left - gap], lines, size, right=True)
    if not notes or 2 * len(notes) > len(prose):
        return []
    characters = sum(len(i.line.text) for i in lines)  # type: ignore[union-attr]
    if sum(len(i.line.text) for i in notes) > NOTE_SHARE * characters:  # type: ignore[union-attr]
        return []
    return notes


def _alone(notes: list[Item], lines: list[Item], size: float, right: bool = False,
           ) -> list[Item]:
    """`notes` if their column in the margin holds nothing else: a line reaching into
    it (a heading at the page's edge over a description list's terms) makes it no
    margin, and its lines part of the text."""
    if not notes:
        return []
    ids = {id(i) for i in notes}
    others = [i for i in lines if id(i) not in ids]
    if right:
        inner = min(i.bbox[0] for i in notes) + size
        crossed = any(i.bbox[2] > inner for i in others)
    else:
        inner = max(i.bbox[2] for i in notes) - size
        crossed = any(i.bbox[0] < inner for i in others)
    return [] if crossed else notes


def _side_head(line: RawLine, size: float) -> bool:
    """Is `line`, in the margin beside text set in `size`, a section head there rather
    than a note: set in larger type (bold, or much larger)? A manual's notes in the
    margin may be set a size up from a small body; not in bold too."""
    bold, larger = SIDE_HEAD
    return line.size >= larger * size or (line.bold and line.size >= bold * size)


def _running_text(text: str) -> bool:
    """Is `text` a line of running text: six words or more, or in a script written
    without spaces (Chinese, Japanese) twenty characters?"""
    return len(text.split()) >= _PROSE or (len(text) >= 20 and not text.isascii())


def _runs_on(item: Item, lines: list[Item], size: float) -> bool:
    """Does `item` carry on a row that another of `lines` starts, close before it?"""
    return any(0 <= item.bbox[0] - other.bbox[2] < 2 * size and same_row(other.bbox, item.bbox)
               for other in lines if other is not item)


_HUNG_LABEL = re.compile(r"^(§+\s*)?[(\[]?([0-9]+(\.[0-9]+)*|[a-zA-Z]|[ivxlcIVXLC]+)[.)\]:]?$")


def _hung_label(text: str) -> bool:
    """A section number ("5.1", "§ 3"), a list label ("(a)", "iv.") or a bullet, which a
    class may hang in the margin before its line."""
    text = text.strip()
    return len(text) <= 2 or bool(_HUNG_LABEL.match(text))

"""Which blocks are headings, and of what level.

Font size relative to the body text gives the first answer (`build.py`: every size a
point or more above the body size is a rank, and the ranks headings use become levels
1–4). This module corrects it block by block:
a short standalone line set in bold at body size, in capitals, or numbered like a
section ("2.1 Results", "TITLE IV", "Article 5", a regulation's "§ 101.1 Purpose.")
is a heading too; a "heading" with no letters or mostly digits (a page number, a year
on a cover, a warning icon, a row of figures), a byline (an author with a footnote
mark, an e-mail address), an entry of the table of contents (dot leaders to a page
number) or one as long as a sentence is not.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from visualiser.layout.items import PageRead, RawLine
from visualiser.patterns import CAPTION

MAX_HEADING_WORDS = 20  # longer is a sentence set large, not a heading
# A heading found only by its weight says more than two letters: a form's tick-box
# answer ("No" set bold beside its box) or a bold "Or" between two choices is a label
MIN_BOLD_LETTERS = 3
_LETTER = re.compile(r"[^\W\d_]", re.UNICODE)
_SECTION_NUMBER = re.compile(r"^(\d+(\.\d+)*\.?|[IVXLC]+\.|[A-Z]\.|§+\s*\d+(\.\d+)*)$")
# 2.1, 3.4.1: sections, not list items (and not dates: 2020.1.1)
_MULTI_LEVEL = re.compile(r"^\d{1,2}(\.\d{1,2}){1,3}\.?$")
# an e-mail, a web address, an author's or affiliation's footnote mark: a byline
_ADDRESS = re.compile(r"@|https?:|www\.")
_BYLINE = re.compile(_ADDRESS.pattern + r"|[†‡⋆∗]")  # an address, or a footnote mark
_NAME = r"(?:[A-Z]\.\s*)+[A-Z][\w'’-]+"
# two names at least, or one with "et al.": one alone may be a lettered heading
# ("A. Overview")
_INITIALLED_NAMES = re.compile(
    rf"{_NAME}(?:(?:\s*(?:,|and|&|,\s*and)\s*{_NAME})+(?:,?\s*et al\.)?|,?\s*et al\.)")
_DIVISION = re.compile(
    r"^(TITLE|CHAPTER|PART|ARTICLE|SECTION|ANNEX|APPENDIX|SCHEDULE|Title|Chapter|Part|"
    r"Article|Section|Annex|Appendix|Schedule)\s+([IVXLC]+|\d+[A-Z]?|[A-Z])\b[.:]?")
_OPEN_END = (",", ";", "-", "–")
_TAIL_START = (",", ";", ":", ".", ")", "]", "}")  # nothing begins so: a fragment's rest
# a contents entry: a title, dot leaders, a page number ("Appendix A Copying . . . 24")
_LEADER = re.compile(r"(?:\.\s?){4,}|…{2,}|_{4,}")
_OPERATORS = frozenset("+=−×÷<>≤≥±→")  # standing alone between the terms of a formula


def size_class(size: float) -> float:
    return round(size * 2) / 2


FRONT_MATTER_PAGES = 3  # a long document's cover and title page lie within these
FRONT_MATTER_DOCUMENT = 20  # pages: a shorter one (a paper) has no front matter
RUNNING_WORDS = 10  # a line of this many words is running text, rarely a heading
RUNNING_LINES = 3  # ... and a size set in so many of them (more than half) is a body's
SMALL_HEADING = 1.5  # points under the body size a numbered bold heading may be set
SPECIMEN = 4.0  # times the body size: larger type past the front matter shows type


@dataclass(slots=True)
class DocumentStyle:
    """What the body text of a document looks like, from its character counts."""

    body: float = 10.0  # the size class most characters are set in
    # bigger sizes → their rank, 1 for the largest; `build` makes levels 1–4 of the
    # ranks that headings turn out to use
    ranks: dict[float, int] = field(default_factory=dict)
    bold_body: bool = False  # most text is bold: bold says nothing
    mono_body: bool = False  # most text is monospace (a transcript): not code

    @classmethod
    def of(cls, pages: Iterable[PageRead]) -> DocumentStyle:
        sizes: Counter[float] = Counter()
        last_page: dict[float, int] = {}  # the last page each size sets words on
        first_page: dict[float, int] = {}  # ... and the first
        running: Counter[float] = Counter()  # characters in lines of running text
        running_lines: Counter[float] = Counter()
        chars = bold = mono = count = 0
        for count, page in enumerate(pages, start=1):
            for item in page.items:
                line = item.line
                if line is None or item.role in ("note", "label", "running"):
                    continue
                n = len(line.text)
                chars += n
                bold += n * line.bold
                mono += n * line.mono
                size = size_class(line.size)
                sizes[size] += n
                if (len(line.text.split()) >= RUNNING_WORDS  # counted only if it may be
                        and _words(line.text) >= RUNNING_WORDS):
                    running[size] += n
                    running_lines[size] += 1
                if len(_LETTER.findall(line.text)) >= 2:  # no heading has fewer (`refine`)
                    last_page[size] = count
                    first_page.setdefault(size, count)
        body = sizes.most_common(1)[0][0] if sizes else 10.0
        # A size is a heading level only if used for headings, not for a body of its
        # own (e.g. a large-print page): at most a fifth of the body's characters.
        # Sizes only set in glyphs (a margin icon, a drop capital) head nothing, nor
        # do giant ones first set past the cover and title page: a manual's specimen
        # of what a font or special draws ("NEAT" at 100 pt in a 10 pt manual). Nor
        # does a size set mostly in long lines: running text, as the prose between
        # the listings of a program documented in its own source, set larger than
        # the code that makes up most of the characters.
        bigger = sorted((s for s, n in sizes.items()
                         if s >= body + 1.0 and n <= 0.2 * sizes[body] and s in last_page
                         and not (2 * running[s] > n and running_lines[s] >= RUNNING_LINES)
                         and not (s >= SPECIMEN * body
                                  and first_page[s] > FRONT_MATTER_PAGES)),
                        reverse=True)
        # In a long document the sizes of its cover and title page, used there only,
        # are one rank: the title's. Else a book's cover and title page take two of
        # the four levels and push its chapters and sections together.
        front = [s for s in bigger if last_page[s] <= FRONT_MATTER_PAGES]
        if count >= FRONT_MATTER_DOCUMENT and front and front[0] == bigger[0]:
            rest = [s for s in bigger if s not in front]
            ranks = {s: 1 for s in front} | {s: n for n, s in enumerate(rest, start=2)}
        else:
            ranks = {s: n for n, s in enumerate(bigger, start=1)}
        return cls(body, ranks, bold_body=bold > 0.4 * chars, mono_body=mono > 0.5 * chars)

    @property
    def next_rank(self) -> int:
        """The rank of headings found by weight or numbering, below the sized ones."""
        return len(set(self.ranks.values())) + 1


def _words(text: str) -> int:
    """The words of `text` that hold a letter: a contents entry's dot leaders and page
    number are none."""
    return sum(1 for word in text.split() if _LETTER.search(word))


def is_section_number(text: str) -> bool:
    """"5.1", "2.", "IV.", "§ 3": a number that a heading's title may follow."""
    return bool(_SECTION_NUMBER.match(text.strip()))


def is_byline(text: str) -> bool:
    """An author with a footnote mark, an e-mail or web address; or authors named by
    their initials ("B. Jackowski and J. M. Nowacki", "R. Smith, et al.")."""
    return bool(_BYLINE.search(text) or _INITIALLED_NAMES.fullmatch(text.strip()))


_MONTH = (r"(jan(uary)?|feb(ruary)?|mar(ch)?|apr(il)?|may|june?|july?|aug(ust)?|"
          r"sep(t|tember)?|oct(ober)?|nov(ember)?|dec(ember)?"
          # the Persian solar months, and the Gregorian ones as Persian and Arabic
          # (Egyptian and Levantine) write them: a title page's date in either script
          r"|فروردین|اردیبهشت|خرداد|تیر|مرداد|شهریور|مهر|آبان|آذر|دی|بهمن|اسفند"
          r"|ژانویه|فوریه|آوریل|مه|ژوئن|ژوئیه|اوت|سپتامبر|اکتبر|نوامبر|دسامبر"
          r"|يناير|فبراير|مارس|أبريل|ابريل|مايو|يونيو|يوليو|أغسطس|سبتمبر|أكتوبر|نوفمبر|ديسمبر"
          r"|كانون الثاني|شباط|آذار|نيسان|أيار|حزيران|تموز|آب|أيلول|تشرين الأول"
          r"|تشرين الثاني|كانون الأول"
          # German, Dutch, French, Spanish, Italian and Portuguese, in full (the
          # abbreviations they share with English are above)
          r"|januar|jänner|februar|märz|mai|juni|juli|oktober|dezember"
          r"|januari|februari|maart|mei|augustus"
          r"|janvier|février|mars|avril|juin|juillet|août|septembre|octobre|novembre"
          r"|décembre|enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre"
          r"|setiembre|octubre|noviembre|diciembre|gennaio|febbraio|aprile|maggio"
          r"|giugno|luglio|settembre|ottobre|dicembre|janeiro|fevereiro|março|maio"
          r"|junho|julho|setembro|outubro|dezembro)\.?")
_DATE = re.compile(
    rf"({_MONTH}\s+\d{{1,2}}(st|nd|rd|th)?,?\s+\d{{4}}"  # February 8, 1988
    # 8 February 1988, 11. Dezember 2022, 1er mars 2021, 2 de marzo de 2021
    rf"|\d{{1,2}}(st|nd|rd|th|er|º|°)?\.?\s+(de\s+)?{_MONTH}\s+(de\s+)?\d{{4}}"
    rf"|{_MONTH}\s+\d{{4}}"  # February 1988
    r"|\d{4}(?P<sep>[-/])\d{2}(?P=sep)\d{2}"  # 1988-02-08, 1988/02/08
    r"|\d{1,2}[./]\s?\d{1,2}[./]\s?\d{2,4})",  # 8. 2. 1988
    re.IGNORECASE)
# a title page's release line: "Version 3.00, 2009/06/22", "v1.2 — March 2020"
_DIGIT = re.compile(r"\d")  # every date has a number
# no date is longer ("v1.2 — 2 de marzo de 2021", "Version 3.00, 15 كانون الثاني 2021")
_DATE_WORDS = 12
_VERSION = re.compile(r"(version|v\.?|rev(ision)?\.?)\s*\d+(\.\d+)*[a-z]?\s*[,:–—-]?\s*",
                      re.IGNORECASE)


def is_date(text: str) -> bool:
    """A date and nothing else (a title page's, a letter's), or a release's version
    and date. It heads nothing."""
    if _DIGIT.search(text) is None or len(text.split()) > _DATE_WORDS:
        return False  # most lines, decided without the pattern (slow to fail)
    text = text.strip()
    version = _VERSION.match(text)
    return bool(_DATE.fullmatch(text[version.end():] if version else text))


def is_division_label(text: str) -> bool:
    """"Chapter 2", "PART IV", "Article 5:": a division's label with no title, set
    over the title it belongs to."""
    return bool(_DIVISION.fullmatch(text.strip()))


def looks_like_heading(text: str) -> bool:
    """A short line in capitals or naming a division ("TITLE II", "Article 5"): it
    heads what follows even when set like the body text."""
    words = text.split()
    if not words or len(words) > 10:
        return False
    if _names_division(text) and len(words) <= 6 and not text.rstrip().endswith("."):
        return True
    return in_capitals(text)


def numbered_title(text: str) -> bool:
    """"3.1.3 Windows": a subsection's number and a short title, no sentence."""
    words = text.split()
    return (1 < len(words) <= 8 and bool(_MULTI_LEVEL.match(words[0]))
            and not words[-1].isdigit()  # a contents entry's page number
            and not text.rstrip().endswith((".", ",", ";", ":", "-")))


def in_capitals(text: str) -> bool:
    """Is `text` set in capitals: four letters or more, nearly all of its letters
    cased, none of them lower case? In Chinese or Japanese, which have no case, a
    word in capitals ("LATEX コマンドは…") does not make the line one in capitals."""
    if text.upper() != text:
        return False  # a lower-case letter: most lines, decided without a loop
    letters = _LETTER.findall(text)
    cased = [c for c in letters if c.lower() != c.upper()]
    return len(cased) >= 4 and 5 * len(cased) >= 4 * len(letters)


def refine(kind: str, level: int, lines: list[RawLine], style: DocumentStyle) -> tuple[str, int]:
    """The kind and rank (`DocumentStyle.ranks`) of a block gathered from `lines` as
    `kind`, corrected."""
    promotable = kind in ("paragraph", "list_item") and len(lines) <= 2
    if kind != "heading" and not promotable:
        return kind, level  # most blocks: only a heading is demoted, a short line promoted
    text = " ".join(line.text for line in lines).strip()
    words = text.split()
    if kind != "heading" and len(words) > 12:
        return kind, level  # a sentence (a promoted heading has at most 12 words, below)
    letters = len(_LETTER.findall(text))
    digits = sum(map(str.isdigit, text))
    # A title in the document's largest type may carry a thanks mark ("The jura class ∗",
    # `\thanks` in `\title`, which takes the first of LaTeX's marks, an asterisk):
    # only a dagger ("Denis Bitouzé †") makes a byline of a line in the title's size
    titled = (kind == "heading" and level == 1 and not _ADDRESS.search(text)
              and any(mark in text for mark in "∗⋆*"))
    if (letters < 2 or digits > letters or (is_byline(text) and not titled)
            or text.startswith(_TAIL_START)
            or any(is_date(line.text) for line in lines) or _LEADER.search(text)
            or sum(word in _OPERATORS for word in words) >= 2):
        # figures, bylines, dates, the table of contents, a formula or its tail
        return ("paragraph", 0) if kind == "heading" else (kind, level)
    if kind == "heading":
        if len(words) > MAX_HEADING_WORDS or len(lines) > 3 or _cjk_sentence(text):
            return "paragraph", 0
        return kind, level
    if kind not in ("paragraph", "list_item") or len(lines) > 2 or not words or CAPTION.match(text):
        return kind, level
    # "§ 101.1": the section sign may be a word of its own
    first = " ".join(words[:2]) if words[0] in ("§", "§§") and len(words) > 1 else words[0]
    numbered = is_section_number(first) and len(words) > len(first.split())
    bold = all(line.bold for line in lines) and not style.bold_body
    if len(words) > 12 or text.endswith(_OPEN_END) or text.endswith("."):
        if not (_names_division(text) and len(words) <= 4) and not (
                numbered and bold and _one_phrase(text, first)):
            return kind, level
    size = size_class(sum(line.size for line in lines) / len(lines))
    if size < style.body - 0.5 and not (numbered and bold and len(lines) == 1
                                        and size >= style.body - SMALL_HEADING):
        # small print: footnotes, captions, labels; but a journal may set its numbered
        # section headings in bold a size below the body ("I. INTRODUCTION" in 9 pt
        # beside 10 pt text: the Physical Review's, AIP's)
        return kind, level
    if size >= SPECIMEN * style.body and size not in style.ranks:
        return kind, level  # a specimen of type (`DocumentStyle.of`)
    capitals = in_capitals(text)
    if _names_division(text):
        return "heading", style.next_rank
    if not (first[0].isupper() or first[0].isdigit() or not first[0].isalpha()):
        return kind, level  # starts lower case: the tail of a sentence
    if (bold and (numbered or not _a_label_word(text))) or (capitals and len(lines) == 1):
        depth = first.rstrip(".").count(".") if numbered else 0
        return "heading", style.next_rank + depth
    if kind == "paragraph" and len(lines) == 1 and _MULTI_LEVEL.match(first) and len(words) > 1:
        return "heading", style.next_rank + first.rstrip(".").count(".")
    return kind, level


def _a_label_word(text: str) -> bool:
    """Fewer than `MIN_BOLD_LETTERS` letters, all of a cased alphabet: "No", "Or".
    Chinese and Japanese, without case, say a heading in two signs ("概要")."""
    letters = _LETTER.findall(text)
    return len(letters) < MIN_BOLD_LETTERS and all(c.lower() != c.upper() for c in letters)


# Chinese and Japanese headings hold no full stop and no full-width comma; a line
# that does is a sentence, or runs on into one. Its words cannot be counted (no
# spaces), and an OCR'd line's size is its box's height, which a tall mark or a box
# stretched over a speck inflates, so body lines of a scan came out as headings.
_CJK_SENTENCE = re.compile(r"[。，！？]")


def _cjk_sentence(text: str) -> bool:
    return not text.isascii() and _CJK_SENTENCE.search(text) is not None


def _names_division(text: str) -> bool:
    """Does `text` begin with a division's label as a heading does ("Article 5",
    "TITLE II: Scope", "Chapter 3 The models")? Not when a lower-case word follows the
    label: "Article 11 of the WCT states:" cites the article in a sentence."""
    label = _DIVISION.match(text)
    if not label:
        return False
    rest = text[label.end():].split(maxsplit=1)
    return not (rest and rest[0][0].islower())


def _one_phrase(text: str, number: str) -> bool:
    """A numbered bold line that ends with a full stop is a regulation's section
    heading ("§ 101.1 Purpose.", "4. Definitions.") when its title is one short
    phrase, not a sentence or two."""
    title = text[len(number):].strip().removesuffix(".")
    return 0 < len(title.split()) <= 10 and ". " not in title and not title.endswith(
        (",", ";", ":"))

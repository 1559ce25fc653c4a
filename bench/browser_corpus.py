"""Documents printed to PDF by a browser, with the groundtruth their HTML gives: the
other great producer of the PDFs users bring (reports and articles saved from the web,
invoices, HTML made into PDF by a service), whose text layer differs from TeX's and
Word's: Skia's glyph runs, CSS columns, HarfBuzz-shaped Arabic with its own ToUnicode
maps, running heads and page numbers from the print dialog. A script, not a test (it
needs Debian's chromium and Playwright, as the browser tests do):

    python bench/browser_corpus.py OUTDIR
    python ../shared/tools/structure_score.py .venv/bin/visualiser OUTDIR

For each document it writes NAME.pdf and NAME.md beside it in the form of Docling's
groundtruth (`#` headings, paragraphs separated by blank lines, list items as "- "),
as `typeset_corpus.py` does for LaTeX, from the same seeded grammar; the Arabic one
from a small Arabic grammar of its own.
"""

from __future__ import annotations

import argparse
import html
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from typeset_corpus import Prose  # noqa: E402  (a script beside this one)

CHROMIUM = "/usr/bin/chromium"

_AR_NOUNS = """الحكومة الوزارة المشروع البرنامج التقرير المدينة الشركة الجامعة المجلس
اللجنة السوق الطاقة المياه الصحة التعليم الاقتصاد المواطن القانون الخطة الميزانية
الإنتاجية الاستثمار الإدارة المستشفى الطلاب المصانع الزراعة الصادرات""".split()
_AR_ADJECTIVES = """الوطنية الجديدة العامة الرئيسية المحلية الدولية السنوية الاقتصادية
الاجتماعية الرقمية الأساسية المستدامة الإقليمية""".split()
_AR_VERBS = "تدعم تراجع تنشر تطور تقدم تحدد تنظم تتابع تعلن تضمن تقيس تستقبل".split()
_AR_PREPOSITIONS = "في من إلى على مع عن".split()


class ArabicProse(Prose):
    """Arabic sentences from a small grammar (agreement aside), seeded."""

    def sentence(self) -> str:
        r = self.random
        words = [r.choice(_AR_NOUNS), r.choice(_AR_ADJECTIVES), r.choice(_AR_VERBS),
                 r.choice(_AR_NOUNS), r.choice(_AR_ADJECTIVES)]
        if r.random() < 0.6:
            words += [r.choice(_AR_PREPOSITIONS), r.choice(_AR_NOUNS)]
        if r.random() < 0.3:
            words += ["خلال", "الفترة", f"({r.randint(2000, 2020)} - {r.randint(2021, 2030)})"]
        return " ".join(words) + "."

    def title(self, words: int = 2) -> str:
        return " ".join([self.random.choice(_AR_NOUNS)]
                        + [self.random.choice(_AR_ADJECTIVES) for _ in range(words - 1)])


@dataclass
class Document:
    """An HTML page and the groundtruth markdown that says what it holds."""

    name: str
    style: str
    body: list[str] = field(default_factory=list)
    truth: list[str] = field(default_factory=list)
    lang: str = "en"
    header: str = ""  # the print dialog's running head: "" for none

    def heading(self, level: int, text: str, attrs: str = "") -> None:
        self.body.append(f"<h{level}{attrs}>{html.escape(text)}</h{level}>")
        self.truth.append(f"{'#' * level} {text}")

    def paragraph(self, text: str, shown: str | None = None) -> None:
        self.body.append(f"<p>{shown if shown is not None else html.escape(text)}</p>")
        self.truth.append(text)

    def items(self, texts: list[str], tag: str = "ul") -> None:
        self.body.append(f"<{tag}>" + "".join(f"<li>{html.escape(t)}</li>" for t in texts)
                         + f"</{tag}>")
        self.truth.append("\n".join(f"- {t}" for t in texts))

    def raw(self, markup: str, truth: str | None = None) -> None:
        self.body.append(markup)
        if truth:
            self.truth.append(truth)

    def page(self) -> str:
        direction = ' dir="rtl"' if self.lang == "ar" else ""
        return (f'<!doctype html><html lang="{self.lang}"{direction}><head><meta charset="utf-8">'
                f"<style>{self.style}</style></head><body>" + "\n".join(self.body)
                + "</body></html>")


def _table(doc: Document, prose: Prose, rows: int = 5) -> None:
    """A ruled table with its caption above it (the caption is text, the table not)."""
    caption = prose.sentence()
    cells = "".join(
        f"<tr><td>{prose.random.choice(['permit', 'ledger', 'parcel', 'survey'])}</td>"
        f"<td>{prose.random.randint(10, 999)}</td><td>{prose.random.randint(1, 99)}.5</td></tr>"
        for _ in range(rows))
    doc.raw("<table><caption>" + html.escape(caption) + "</caption>"
            "<tr><th>Item</th><th>Count</th><th>Share</th></tr>" + cells + "</table>", caption)


_BASE = ("body{font-family:'Liberation Serif',serif;font-size:11pt;line-height:1.3}"
         "table{border-collapse:collapse;margin:8pt auto;break-inside:avoid}"
         "td,th{border:1px solid #000;padding:2pt 6pt}caption{font-style:italic;margin-bottom:4pt}")


def report(seed: int = 11) -> Document:
    """A one-column report from a web page: a title, numbered h2, bold h3 barely larger
    than the text, bulleted and numbered lists, a ruled table, the print dialog's
    running head (the page's title and date) and page numbers."""
    prose = Prose(seed)
    doc = Document("browser_report", _BASE + "h1{font-size:20pt}h2{font-size:15pt}"
                   "h3{font-size:11.5pt}p{text-align:justify;margin:0 0 7pt}",
                   header="Quarterly report")
    doc.heading(1, prose.title(4))
    for s in range(1, 6):
        doc.heading(2, f"{s}. {prose.title(2)}")
        for sub in range(1, 3):
            doc.heading(3, f"{s}.{sub} {prose.title(3)}")
            for _ in range(2):
                doc.paragraph(prose.paragraph(prose.random.randint(3, 6)))
        if s == 2:
            doc.items([prose.sentence() for _ in range(4)])
        if s == 3:
            _table(doc, prose)
            doc.items([prose.sentence() for _ in range(3)], "ol")
    return doc


def regulation(seed: int = 12) -> Document:
    """A regulation in three CSS columns: small justified type, indented paragraphs
    with no space between them, centred part titles and bold section heads."""
    prose = Prose(seed)
    doc = Document("browser_regulation_3col", _BASE +
                   "body{font-size:8.5pt;column-count:3;column-gap:14pt;margin:0}"
                   "p{text-align:justify;text-indent:10pt;margin:0}"
                   "h2{font-size:9pt;text-align:center;margin:8pt 0 4pt}"
                   "h3{font-size:8.5pt;margin:6pt 0 2pt}")
    for part in range(1, 4):
        doc.heading(2, f"PART {100 + part}—{prose.title(2).upper()}")
        for section in range(1, 5):
            doc.heading(3, f"§ {100 + part}.{section} {prose.title(2)}.")
            for p in range(prose.random.randint(2, 4)):
                text = f"({chr(ord('a') + p)}) " + prose.paragraph(prose.random.randint(3, 6))
                doc.paragraph(text)
    return doc


def paper(seed: int = 13) -> Document:
    """A two-column paper: title and authors across both columns, an abstract, numbered
    section heads, a boxed figure with its caption and a table in a column."""
    prose = Prose(seed)
    doc = Document("browser_paper_2col", _BASE +
                   ".cols{column-count:2;column-gap:18pt}h1{text-align:center;font-size:17pt}"
                   ".authors{text-align:center;margin-bottom:12pt}"
                   "h2{font-size:12pt;margin:10pt 0 4pt}p{text-align:justify;margin:0 0 6pt}"
                   "figure{margin:6pt 0;break-inside:avoid}figure div{height:90pt;"
                   "border:1px solid #000}figcaption{font-size:9.5pt;margin-top:4pt}")
    doc.heading(1, prose.title(5))
    doc.raw('<div class="authors">Ana Pereira · Jonas Weber · Mei Tanaka</div>',
            "Ana Pereira · Jonas Weber · Mei Tanaka")
    doc.raw('<div class="cols">')
    doc.heading(2, "Abstract")
    doc.paragraph(prose.paragraph(6))
    for s in range(1, 6):
        doc.heading(2, f"{s} {prose.title(2)}")
        for p in range(3):
            doc.paragraph(prose.paragraph(prose.random.randint(4, 7)))
            if s == 2 and p == 0:
                caption = "Figure 1: " + prose.sentence()
                doc.raw(f"<figure><div></div><figcaption>{html.escape(caption)}</figcaption>"
                        "</figure>", caption)
            if s == 4 and p == 1:
                _table(doc, prose, 4)
    doc.raw("</div>")
    return doc


def arabic(seed: int = 14) -> Document:
    """An Arabic article, right to left in Amiri: headings, justified paragraphs with
    years in brackets (digits run left to right inside the line), a list."""
    prose = ArabicProse(seed)
    doc = Document("browser_arabic", "body{font-family:Amiri,serif;font-size:14pt;"
                   "line-height:1.6}h1{font-size:22pt}h2{font-size:17pt}"
                   "p{text-align:justify;margin:0 0 8pt}", lang="ar")
    doc.heading(1, prose.title())
    for _ in range(4):
        doc.heading(2, prose.title())
        for _ in range(2):
            doc.paragraph(prose.paragraph(prose.random.randint(3, 5)))
    doc.items([prose.sentence() for _ in range(4)])
    return doc


def handbook(seed: int = 15) -> Document:
    """A handbook page from a web site: a photo floated right beside the prose with
    its caption (the text wraps round it), a shaded note box, a list, the print
    dialog's running head and page numbers."""
    prose = Prose(seed)
    doc = Document("browser_handbook", _BASE +
                   "h1{font-size:19pt}h2{font-size:14pt;border-bottom:1px solid #888}"
                   "p{margin:0 0 7pt}.fig{float:right;width:180pt;margin:0 0 8pt 12pt}"
                   ".fig img{width:180pt;height:120pt;display:block}.fig p{font-size:9pt}"
                   ".note{background:#eee;border-left:4pt solid #555;padding:6pt;margin:8pt 0}",
                   header="Operator handbook")
    doc.heading(1, prose.title(3))
    for s in range(1, 5):
        doc.heading(2, prose.title(2))
        if s % 2:
            caption = prose.sentence()
            doc.raw(f'<div class="fig"><img src="{_PICTURE}" alt=""><p>{html.escape(caption)}</p>'
                    '</div>',
                    caption)
        for _ in range(3):
            doc.paragraph(prose.paragraph(prose.random.randint(3, 6)))
        if s == 2:
            note = "Note: " + prose.paragraph(2)
            doc.raw(f'<div class="note">{html.escape(note)}</div>', note)
            doc.items([prose.sentence() for _ in range(3)])
    return doc


def newsletter(seed: int = 16) -> Document:
    """A newsletter: two CSS columns with a pull quote, then three, then the full
    width; a section head set under the first column where all columns have ended,
    over the full-width text it heads."""
    prose = Prose(seed)
    doc = Document("browser_newsletter", _BASE +
                   ".c2{column-count:2;column-gap:16pt}.c3{column-count:3;column-gap:12pt}"
                   "p{text-align:justify;margin:0 0 6pt}h2{font-size:14pt}"
                   "blockquote{font-style:italic;margin:6pt 12pt}", header="Newsletter")
    doc.heading(1, prose.title(3))
    doc.raw('<div class="c2">')
    doc.heading(2, prose.title(2))
    for n in range(7):
        doc.paragraph(prose.paragraph(5))
        if n == 3:
            quote = prose.paragraph(2)
            doc.raw(f"<blockquote>{html.escape(quote)}</blockquote>", quote)
    doc.raw('</div><div class="c3">')
    doc.heading(2, prose.title(2))
    for _ in range(6):
        doc.paragraph(prose.paragraph(4))
    doc.raw("</div>")
    doc.heading(2, prose.title(2))
    for _ in range(3):
        doc.paragraph(prose.paragraph(5))
    return doc


def _png() -> str:
    """A small raster picture as a data URI (a photo's stand-in: an image block)."""
    import base64

    import pymupdf
    pixmap = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 60, 40), False)
    pixmap.set_rect(pixmap.irect, (200, 200, 220))
    pixmap.set_rect(pymupdf.IRect(10, 10, 50, 30), (90, 110, 160))
    return "data:image/png;base64," + base64.b64encode(pixmap.tobytes("png")).decode()


_PICTURE = _png()
DOCUMENTS = (report, regulation, paper, arabic, handbook, newsletter)


def build(docs: list[Document], out: Path, browser: Any = None) -> None:
    """Print each document to OUT/NAME.pdf, its groundtruth to OUT/NAME.md, with
    `browser` (a Playwright chromium; one is launched when None)."""
    if browser is None:
        from playwright.sync_api import sync_playwright
        with sync_playwright() as p:
            launched = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                         args=["--no-sandbox"])
            build(docs, out, launched)
            launched.close()
        return
    page = browser.new_page()
    for doc in docs:
        page.set_content(doc.page())
        page.emulate_media(media="print")
        options: dict = {"format": "A4", "print_background": True,
                         "margin": {"top": "2cm", "bottom": "2cm", "left": "1.8cm",
                                    "right": "1.8cm"}}
        if doc.header:
            options |= {"display_header_footer": True,
                        "header_template": '<div style="font-size:8pt;width:100%;'
                        f'text-align:center">{html.escape(doc.header)}</div>',
                        "footer_template": '<div style="font-size:8pt;width:100%;'
                        'text-align:center"><span class="pageNumber"></span> / '
                        '<span class="totalPages"></span></div>'}
        page.pdf(path=str(out / f"{doc.name}.pdf"), **options)
        (out / f"{doc.name}.md").write_text("\n\n".join(doc.truth) + "\n", encoding="utf-8")
    page.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    build([make() for make in DOCUMENTS], args.out)
    for make in DOCUMENTS:
        print(args.out / f"{make().name}.pdf")


if __name__ == "__main__":
    main()

"""Documents a word processor wrote to PDF, with the groundtruth their source gives:
the producer behind most regulations, handbooks, reports, transcripts and letters
users bring (Word and LibreOffice export), whose text layer differs from TeX's and a
browser's: list labels and heading numbers as runs of their own followed by a tab,
bullets from a symbol font, sections in columns, footnotes, line numbers in the margin,
running heads and "Page 1 of 4" from header and footer fields. A script, not a test (it
needs LibreOffice Writer: Debian's libreoffice-writer-nogui):

    python bench/office_corpus.py OUTDIR
    python ../shared/tools/structure_score.py .venv/bin/visualiser OUTDIR

Each document is written as a flat OpenDocument file (.fodt) and exported to PDF by
`soffice --headless --convert-to pdf`; NAME.md beside each PDF is its groundtruth in
the form of Docling's (`#` headings, paragraphs separated by blank lines, list items as
"- "), from the same seeded grammar as `typeset_corpus.py` and `browser_corpus.py`.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from xml.sax.saxutils import escape

sys.path.insert(0, str(Path(__file__).resolve().parent))
from browser_corpus import _PICTURE, ArabicProse  # noqa: E402  (scripts beside this one)
from typeset_corpus import Prose  # noqa: E402

_NAMESPACES = " ".join(
    f'xmlns:{prefix}="urn:oasis:names:tc:opendocument:xmlns:{name}"' for prefix, name in (
        ("office", "office:1.0"), ("style", "style:1.0"), ("text", "text:1.0"),
        ("table", "table:1.0"), ("draw", "drawing:1.0"), ("fo", "xsl-fo-compatible:1.0"),
        ("svg", "svg-compatible:1.0"))) + ' xmlns:xlink="http://www.w3.org/1999/xlink"'

# Paragraph styles every document shares; a document adds its own after them.
_STYLES = """
<style:default-style style:family="paragraph">
 <style:paragraph-properties style:writing-mode="{mode}"/>
 <style:text-properties style:font-name="{font}" fo:font-size="{size}" fo:language="en"
  fo:country="US" style:font-name-complex="{complex_font}" style:font-size-complex="{size}"
  style:language-complex="{lang}"/>
</style:default-style>
<style:style style:name="Standard" style:family="paragraph" style:class="text"/>
<style:style style:name="Text_20_body" style:display-name="Text body" style:family="paragraph"
 style:parent-style-name="Standard">
 <style:paragraph-properties fo:margin-top="0pt" fo:margin-bottom="{gap}" fo:text-align="justify"
  fo:text-indent="{indent}" fo:line-height="{leading}"/>
</style:style>
<style:style style:name="Title" style:family="paragraph" style:parent-style-name="Standard">
 <style:paragraph-properties fo:text-align="center" fo:margin-bottom="12pt"/>
 <style:text-properties style:font-name="Liberation Sans" fo:font-size="20pt" fo:font-weight="bold"
  style:font-size-complex="20pt" style:font-weight-complex="bold"/>
</style:style>
{headings}
<style:style style:name="Caption" style:family="paragraph" style:parent-style-name="Standard">
 <style:paragraph-properties fo:margin-top="4pt" fo:margin-bottom="8pt"/>
 <style:text-properties fo:font-size="9pt" fo:font-style="italic"/>
</style:style>
<style:style style:name="Footnote" style:family="paragraph" style:parent-style-name="Standard">
 <style:paragraph-properties fo:margin-left="0.5cm" fo:text-indent="-0.5cm"/>
 <style:text-properties fo:font-size="8.5pt"/>
</style:style>
<style:style style:name="Header" style:family="paragraph" style:parent-style-name="Standard">
 <style:paragraph-properties fo:text-align="center"/>
 <style:text-properties fo:font-size="9pt"/>
</style:style>
<style:style style:name="Footer" style:family="paragraph" style:parent-style-name="Header"/>
<style:style style:name="Note" style:family="paragraph" style:parent-style-name="Text_20_body">
 <style:paragraph-properties fo:background-color="#e8e8e8" fo:padding="5pt"
  fo:border-left="3pt solid #555555" fo:margin-top="6pt" fo:margin-bottom="8pt"/>
</style:style>
<style:style style:name="Cell" style:family="paragraph" style:parent-style-name="Standard"/>
"""



def _heading_style(level: int, above: str, below: str, size: str = "",
                   complex_size: str = "") -> str:
    """Writer's "Heading N": bold, kept with the next paragraph; in Liberation Sans at
    `size` (Arabic at `complex_size`), or in the text's font and size when none."""
    font = (f'style:font-name="Liberation Sans" fo:font-size="{size}" '
            f'style:font-size-complex="{complex_size}" ' if size else "")
    return (f'<style:style style:name="Heading_20_{level}" style:display-name="Heading {level}"'
            ' style:family="paragraph" style:parent-style-name="Standard"'
            f' style:default-outline-level="{level}">'
            f'<style:paragraph-properties fo:margin-top="{above}" fo:margin-bottom="{below}"'
            ' fo:keep-with-next="always"/>'
            f'<style:text-properties {font}fo:font-weight="bold"'
            ' style:font-weight-complex="bold"/></style:style>\n')


_HEADINGS = (_heading_style(1, "14pt", "6pt", "15pt", "16pt")
             + _heading_style(2, "10pt", "4pt", "12.5pt", "13pt") + _heading_style(3, "6pt", "2pt"))


def _label(indent_cm: float) -> str:
    """A list level's label (a bullet, a number) hanging `indent_cm` left of its text,
    followed by a tab, as Word and Writer set them."""
    return ('<style:list-level-properties text:list-level-position-and-space-mode='
            '"label-alignment"><style:list-level-label-alignment text:label-followed-by='
            f'"listtab" text:list-tab-stop-position="{indent_cm}cm" fo:text-indent='
            f'"-{indent_cm}cm" fo:margin-left="{indent_cm}cm"/></style:list-level-properties>')


# Heading numbers from the outline ("2", "2.1"), set as a label and a tab before the
# title as Word and Writer do: the number is a run of its own.
_OUTLINE = f"""
<text:outline-style style:name="Outline">
 <text:outline-level-style text:level="1" style:num-format="{{fmt}}" style:num-suffix="">
  {_label(0.9)}
 </text:outline-level-style>
 <text:outline-level-style text:level="2" style:num-format="{{fmt}}" text:display-levels="2">
  {_label(1.1)}
 </text:outline-level-style>
</text:outline-style>
"""

_LISTS = f"""
<text:list-style style:name="Bullets">
 <text:list-level-style-bullet text:level="1" text:bullet-char="•">{_label(0.63)}
 </text:list-level-style-bullet>
</text:list-style>
<text:list-style style:name="Numbers">
 <text:list-level-style-number text:level="1" style:num-format="1" style:num-suffix=".">
  {_label(0.63)}
 </text:list-level-style-number>
</text:list-style>
<style:style style:name="Ruled" style:family="table">
 <style:table-properties style:width="12cm" table:align="center" fo:margin-top="4pt"
  fo:margin-bottom="8pt"/>
</style:style>
<style:style style:name="RuledCell" style:family="table-cell">
 <style:table-cell-properties fo:border="0.5pt solid #000000" fo:padding="0.08cm"/>
</style:style>
<style:style style:name="Picture" style:family="graphic">
 <style:graphic-properties style:wrap="none" style:horizontal-pos="right"
  style:horizontal-rel="paragraph" fo:margin-left="0.3cm" fo:margin-bottom="0.2cm"/>
</style:style>
"""


@dataclass
class Document:
    """A flat OpenDocument text and the groundtruth markdown that says what it holds."""

    name: str
    font: str = "Liberation Serif"
    size: str = "11pt"
    leading: str = "115%"
    gap: str = "6pt"  # space after a body paragraph
    indent: str = "0pt"  # first-line indent of a body paragraph
    columns: int = 1  # columns of the body's section (the title stays across them all)
    numbered: bool = False  # headings numbered from the outline
    header: str = ""
    footer: str = "Page <text:page-number/> of <text:page-count/>"
    line_numbers: bool = False
    rtl: bool = False
    styles: str = ""  # more paragraph styles
    title: list[str] = field(default_factory=list)
    body: list[str] = field(default_factory=list)
    truth: list[str] = field(default_factory=list)
    _numbers: list[int] = field(default_factory=lambda: [0, 0])

    def heading(self, level: int, text: str, style: str = "") -> None:
        """A heading; when `numbered`, levels 1 and 2 take the outline's number."""
        shown = text
        if self.numbered and level <= 2:
            self._numbers[level - 1:] = [self._numbers[level - 1] + 1, 0][:3 - level]
            shown = ".".join(str(n) for n in self._numbers[:level]) + " " + text
        style = style or f"Heading_20_{level}"
        self.body.append(f'<text:h text:style-name="{style}" text:outline-level="{level}">'
                         f"{escape(text)}</text:h>")
        self.truth.append(f"{'#' * level} {shown}")

    def title_line(self, text: str) -> None:
        self.title.append(f'<text:p text:style-name="Title">{escape(text)}</text:p>')
        self.truth.append(f"# {text}")

    def paragraph(self, text: str, style: str = "Text_20_body", note: str = "") -> None:
        """A paragraph; `note` puts a footnote after its second sentence (the note's
        text is not part of the paragraph, so the groundtruth leaves it out)."""
        shown = escape(text)
        if note:
            cut = text.find(". ", text.find(". ") + 2)
            if cut > 0:
                shown = (escape(text[:cut + 1]) + '<text:note text:note-class="footnote">'
                         '<text:note-citation>*</text:note-citation><text:note-body>'
                         f'<text:p text:style-name="Footnote">{escape(note)}</text:p>'
                         "</text:note-body></text:note>" + escape(text[cut + 1:]))
        self.body.append(f'<text:p text:style-name="{style}">{shown}</text:p>')
        self.truth.append(text)

    def items(self, texts: list[str], style: str = "Bullets") -> None:
        self.body.append(f'<text:list text:style-name="{style}">' + "".join(
            f'<text:list-item><text:p text:style-name="Text_20_body">{escape(t)}</text:p>'
            "</text:list-item>" for t in texts) + "</text:list>")
        self.truth.append("\n".join(f"- {t}" for t in texts))

    def table(self, prose: Prose, rows: int = 5) -> None:
        """A ruled table with its caption above it (the caption is text, the table not)."""
        caption = "Table 1: " + prose.sentence()
        self.body.append(f'<text:p text:style-name="Caption">{escape(caption)}</text:p>')
        self.truth.append(caption)
        cells = [["Item", "Count", "Share"]] + [
            [prose.random.choice(["permit", "ledger", "parcel", "survey"]),
             str(prose.random.randint(10, 999)), f"{prose.random.randint(1, 99)}.5"]
            for _ in range(rows)]
        self.body.append(
            '<table:table table:name="Table1" table:style-name="Ruled">'
            '<table:table-column table:number-columns-repeated="3"/>' + "".join(
                "<table:table-row>" + "".join(
                    '<table:table-cell table:style-name="RuledCell" office:value-type="string">'
                    f'<text:p text:style-name="Cell">{escape(c)}</text:p></table:table-cell>'
                    for c in row) + "</table:table-row>" for row in cells) + "</table:table>")

    def picture(self, caption: str, width_cm: float = 7.0, height_cm: float = 4.5) -> None:
        """A raster picture anchored in its caption's paragraph, above the caption,
        with no text beside it."""
        data = _PICTURE.split(",", 1)[1]
        frame = (f'<draw:frame draw:style-name="Picture" text:anchor-type="paragraph" '
                 f'svg:width="{width_cm}cm" svg:height="{height_cm}cm">'
                 f"<draw:image><office:binary-data>{data}</office:binary-data></draw:image>"
                 "</draw:frame>")
        self.body.append(f'<text:p text:style-name="Caption">{frame}{escape(caption)}</text:p>')
        self.truth.append(caption)

    def source(self) -> str:
        complex_font = "Amiri" if self.rtl else "DejaVu Sans"
        styles = _STYLES.format(mode="rl-tb" if self.rtl else "lr-tb", font=self.font,
                                size=self.size, complex_font=complex_font,
                                lang="ar" if self.rtl else "en", gap=self.gap,
                                indent=self.indent, leading=self.leading,
                                headings=_HEADINGS)
        outline = _OUTLINE.format(fmt="1" if self.numbered else "")
        numbering = ('<text:linenumbering-configuration text:number-lines="true" '
                     'text:increment="1" text:offset="0.6cm" style:num-format="1" '
                     'text:number-position="left" text:restart-on-page="true" '
                     'text:count-empty-lines="false"/>' if self.line_numbers else "")
        header = (f'<style:header><text:p text:style-name="Header">{escape(self.header)}'
                  "</text:p></style:header>" if self.header else "")
        footer = (f'<style:footer><text:p text:style-name="Footer">{self.footer}</text:p>'
                  "</style:footer>" if self.footer else "")
        body = "".join(self.body)
        if self.columns > 1:
            body = f'<text:section text:style-name="Columns" text:name="Body">{body}</text:section>'
        return f"""<?xml version="1.0" encoding="UTF-8"?>
<office:document {_NAMESPACES} office:version="1.3"
 office:mimetype="application/vnd.oasis.opendocument.text">
<office:font-face-decls>
 <style:font-face style:name="Liberation Serif" svg:font-family="'Liberation Serif'"/>
 <style:font-face style:name="Liberation Sans" svg:font-family="'Liberation Sans'"/>
 <style:font-face style:name="Liberation Mono" svg:font-family="'Liberation Mono'"
  style:font-pitch="fixed"/>
 <style:font-face style:name="DejaVu Sans" svg:font-family="'DejaVu Sans'"/>
 <style:font-face style:name="Amiri" svg:font-family="Amiri"/>
</office:font-face-decls>
<office:styles>{styles}{self.styles}{outline}{numbering}</office:styles>
<office:automatic-styles>
 <style:page-layout style:name="Page">
  <style:page-layout-properties fo:page-width="21cm" fo:page-height="29.7cm"
   fo:margin-top="1.5cm" fo:margin-bottom="1.5cm" fo:margin-left="2cm" fo:margin-right="2cm"
   style:writing-mode="{"rl-tb" if self.rtl else "lr-tb"}"/>
  <style:header-style><style:header-footer-properties fo:min-height="0cm"
   fo:margin-bottom="0.5cm"/></style:header-style>
  <style:footer-style><style:header-footer-properties fo:min-height="0cm"
   fo:margin-top="0.5cm"/></style:footer-style>
 </style:page-layout>
 <style:style style:name="Columns" style:family="section">
  <style:section-properties><style:columns fo:column-count="{self.columns}"
   fo:column-gap="0.5cm"/></style:section-properties>
 </style:style>
 {_LISTS}
</office:automatic-styles>
<office:master-styles>
 <style:master-page style:name="Standard" style:page-layout-name="Page">{header}{footer}
 </style:master-page>
</office:master-styles>
<office:body><office:text>{"".join(self.title)}{body}</office:text></office:body>
</office:document>
"""


def report(seed: int = 21) -> Document:
    """A report: a title, headings numbered by the outline ("2.1" and a tab before the
    title), justified paragraphs with footnotes, bulleted and numbered lists, a ruled
    table with its caption, a running head and "Page 1 of 4" at the foot."""
    prose = Prose(seed)
    doc = Document("office_report", numbered=True, header="Annual review of the district")
    doc.title_line(prose.title(4))
    for s in range(1, 6):
        doc.heading(1, prose.title(2))
        for sub in range(1, 3):
            doc.heading(2, prose.title(3))
            for p in range(2):
                doc.paragraph(prose.paragraph(prose.random.randint(3, 6)),
                              note=prose.sentence() if (s + sub + p) % 4 == 0 else "")
        if s == 2:
            doc.items([prose.sentence() for _ in range(4)])
        if s == 3:
            doc.table(prose)
            doc.items([prose.sentence() for _ in range(3)], "Numbers")
    return doc


def regulation(seed: int = 22) -> Document:
    """A regulation in a three-column section: small justified type, indented
    paragraphs with no space between them, centred part titles and bold section heads."""
    prose = Prose(seed)
    doc = Document("office_regulation_3col", size="8.5pt", leading="100%", gap="0pt",
                   indent="10pt", columns=3, styles="""
<style:style style:name="Part" style:family="paragraph" style:parent-style-name="Heading_20_2">
 <style:paragraph-properties fo:text-align="center"/>
 <style:text-properties style:font-name="Liberation Serif" fo:font-size="9pt"/>
</style:style>
<style:style style:name="Section" style:family="paragraph" style:parent-style-name="Heading_20_3">
 <style:paragraph-properties fo:margin-top="5pt" fo:margin-bottom="1pt"/>
</style:style>""")
    for part in range(1, 4):
        doc.heading(2, f"PART {100 + part}—{prose.title(2).upper()}", "Part")
        for section in range(1, 5):
            doc.heading(3, f"§ {100 + part}.{section} {prose.title(2)}.", "Section")
            for p in range(prose.random.randint(2, 4)):
                text = prose.paragraph(prose.random.randint(3, 6))
                doc.paragraph(f"({chr(ord('a') + p)}) {text}")
    return doc


def handbook(seed: int = 23) -> Document:
    """A handbook in a two-column section under a title across the page: headings, a
    picture with its caption in a column, a shaded note, a bulleted list."""
    prose = Prose(seed)
    doc = Document("office_handbook_2col", size="10pt", columns=2, header="Operator handbook",
                   footer="<text:page-number/>")
    doc.title_line(prose.title(3))
    for s in range(1, 5):
        doc.heading(1, prose.title(2))
        for p in range(3):
            doc.paragraph(prose.paragraph(prose.random.randint(3, 6)))
            if p == 0 and s % 2:
                doc.picture(f"Figure {s // 2 + 1}: " + prose.sentence())
        if s == 2:
            doc.paragraph("Note: " + prose.paragraph(2), "Note")
            doc.items([prose.sentence() for _ in range(3)])
    return doc


def transcript(seed: int = 24) -> Document:
    """A court transcript: Liberation Mono at 12 pt, double-spaced, every line numbered
    in the left margin, questions and answers as paragraphs, a centred caption."""
    prose = Prose(seed)
    doc = Document("office_transcript", font="Liberation Mono", size="12pt", leading="200%",
                   gap="0pt", indent="36pt", line_numbers=True, footer="<text:page-number/>",
                   styles="""
<style:style style:name="Centred" style:family="paragraph" style:parent-style-name="Heading_20_1">
 <style:paragraph-properties fo:text-align="center"/>
 <style:text-properties style:font-name="Liberation Mono" fo:font-size="12pt"/>
</style:style>""")
    doc.heading(1, "TRANSCRIPT OF PROCEEDINGS", "Centred")
    for witness in ("MARGARET HOLLOWAY", "DANIEL OKAFOR"):
        doc.heading(2, f"DIRECT EXAMINATION OF {witness}", "Centred")
        for _ in range(6):
            doc.paragraph("Q. " + prose.paragraph(prose.random.randint(1, 2)))
            doc.paragraph("A. " + prose.paragraph(prose.random.randint(1, 3)))
    return doc


def arabic(seed: int = 25) -> Document:
    """An Arabic article, right to left in Amiri: a title, headings, justified
    paragraphs with years in brackets, a bulleted list, page numbers."""
    prose = ArabicProse(seed)
    doc = Document("office_arabic", font="Amiri", size="14pt", rtl=True,
                   footer="<text:page-number/>")
    doc.title_line(prose.title())
    for _ in range(4):
        doc.heading(1, prose.title())
        for _ in range(2):
            doc.paragraph(prose.paragraph(prose.random.randint(3, 5)))
    doc.items([prose.sentence() for _ in range(4)])
    return doc


DOCUMENTS = (report, regulation, handbook, transcript, arabic)
SOFFICE = shutil.which("soffice") or "/usr/bin/soffice"


def build(docs: list[Document], out: Path) -> None:
    """Export each document to OUT/NAME.pdf with LibreOffice, its groundtruth to
    OUT/NAME.md."""
    with tempfile.TemporaryDirectory() as tmp:
        sources = []
        for doc in docs:
            source = Path(tmp) / f"{doc.name}.fodt"
            source.write_text(doc.source(), encoding="utf-8")
            sources.append(str(source))
            (out / f"{doc.name}.md").write_text("\n\n".join(doc.truth) + "\n", encoding="utf-8")
        # A profile of its own, so that a LibreOffice the user has open is not asked.
        subprocess.run([SOFFICE, f"-env:UserInstallation=file://{tmp}/profile", "--headless",
                        "--convert-to", "pdf", "--outdir", str(out), *sources],
                       check=True, capture_output=True, timeout=300)
    # soffice exits 0 on a file it cannot read, and writes nothing for it
    missing = [doc.name for doc in docs if not (out / f"{doc.name}.pdf").exists()]
    if missing:
        raise RuntimeError(f"LibreOffice exported no PDF for {', '.join(missing)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    docs = [make() for make in DOCUMENTS]
    build(docs, args.out)
    for doc in docs:
        print(args.out / f"{doc.name}.pdf")


if __name__ == "__main__":
    main()

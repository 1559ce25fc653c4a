"""Documents typeset by LaTeX, with the groundtruth their source gives, to measure the
layout on the kinds of document users bring that our generated samples are not: a
two-column paper (and the same paper as a draft under review, every line or every
fifth line numbered), a three-column regulation, a two-sided handbook with running
heads, a book with chapters and a table of contents. A script, not a test (it needs
`pdflatex`: Debian's texlive-latex-base, -latex-recommended, -fonts-recommended):

    python bench/typeset_corpus.py OUTDIR
    python ../shared/tools/structure_score.py .venv/bin/visualiser OUTDIR

For each document it writes NAME.pdf and NAME.md beside it in the form of Docling's
groundtruth (`#` headings, paragraphs separated by blank lines, list items as "- "),
so the shared `structure_score.py` scores it as it scores Docling's files. LaTeX does
what real typesetting does: hyphenation, ligatures, justified lines, floats moved to
the top of a column, footnotes, running heads. The prose is made from a seeded grammar
so that every paragraph's word pairs are its own.
"""

from __future__ import annotations

import argparse
import random
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

_NOUNS = """agency applicant archive audit authority budget carrier catalogue committee
contract council customer database deadline delivery department deposit district
document employer engine estimate facility framework grant harbour hospital household
inspector inventory island journal laboratory landlord ledger licence manager market
method network notice officer operator orchard parcel patient permit pipeline policy
portfolio procedure program provider quarry railway record region register reservoir
retailer schedule scholar sensor settlement shipment signal station statute student
supplier survey tenant terminal tribunal turbine utility vehicle vendor village
warehouse witness workshop""".split()
_VERBS = """approves assesses audits calculates certifies collects compares confirms
coordinates delivers describes designates documents estimates evaluates examines
finances forwards identifies inspects maintains measures monitors notifies obtains
operates prepares publishes receives records reduces registers reviews schedules
submits supervises transfers updates verifies""".split()
_ADJECTIVES = """annual approximate careful central complete considerable current
detailed effective eligible external federal formal frequent general historical
independent individual initial internal limited local measurable minimal municipal
necessary occasional official operational ordinary particular permanent preliminary
previous primary provisional quarterly regional regular relevant remote reasonable
seasonal separate significant specific standard substantial temporary thorough
uniform""".split()
_LINKS = ("because", "although", "whenever", "unless", "before", "after", "while",
          "provided that", "so that", "even though")
_PREPOSITIONS = ("for", "with", "under", "within", "across", "beyond", "through",
                 "against", "beside", "toward")


class Prose:
    """Sentences from a small grammar, seeded: the same document every run."""

    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)

    def _phrase(self) -> str:
        r = self.random
        return f"the {r.choice(_ADJECTIVES)} {r.choice(_NOUNS)}"

    def sentence(self) -> str:
        r = self.random
        clause = f"{self._phrase()} {r.choice(_VERBS)} {self._phrase()}"
        if r.random() < 0.6:
            clause += f" {r.choice(_PREPOSITIONS)} {self._phrase()}"
        if r.random() < 0.5:
            clause += f" {r.choice(_LINKS)} {self._phrase()} {r.choice(_VERBS)} {self._phrase()}"
        return clause[0].upper() + clause[1:] + "."

    def paragraph(self, sentences: int) -> str:
        return " ".join(self.sentence() for _ in range(sentences))

    def title(self, words: int = 3) -> str:
        r = self.random
        picked = [r.choice(_ADJECTIVES).capitalize()] + [
            r.choice(_NOUNS).capitalize() for _ in range(words - 1)]
        return " ".join(picked)


@dataclass
class Document:
    """A LaTeX source and the groundtruth markdown that says what it holds."""

    name: str
    preamble: str
    body: list[str] = field(default_factory=list)
    truth: list[str] = field(default_factory=list)

    def heading(self, command: str, title: str, shown: str) -> None:
        self.body.append(f"\\{command}{{{title}}}")
        self.truth.append(f"## {shown}")

    def paragraph(self, text: str) -> None:
        self.body.append(text)
        self.truth.append(text)

    def items(self, texts: list[str]) -> None:
        self.body.append("\\begin{itemize}\n" + "\n".join(f"\\item {t}" for t in texts)
                         + "\n\\end{itemize}")
        self.truth.append("\n".join(f"- {t}" for t in texts))

    def raw(self, latex: str, truth: str | None = None) -> None:
        self.body.append(latex)
        if truth:
            self.truth.append(truth)

    def source(self) -> str:
        return self.preamble + "\n\\begin{document}\n" + "\n\n".join(self.body) + \
            "\n\\end{document}\n"


def _figure(prose: Prose, star: str = "") -> tuple[str, str]:
    caption = prose.sentence()
    latex = (f"\\begin{{figure{star}}}[t]\\centering\\fbox{{\\rule{{0pt}}{{3cm}}"
             f"\\rule{{0.8\\linewidth}}{{0pt}}}}\\caption{{{caption}}}\\end{{figure{star}}}")
    return latex, caption


def _table(prose: Prose) -> str:
    rows = " \\\\\n".join(
        f"{prose.random.choice(_NOUNS)} & {prose.random.randint(10, 999)} & "
        f"{prose.random.randint(1, 99)}.{prose.random.randint(0, 9)}" for _ in range(5))
    return ("\\begin{table}[t]\\centering\\caption{" + prose.sentence() + "}\n"
            "\\begin{tabular}{lrr}\\hline Item & Count & Share \\\\ \\hline\n" + rows +
            " \\\\ \\hline\\end{tabular}\\end{table}")


def paper(seed: int = 1, draft: str = "") -> Document:
    """A two-column conference paper: title block across both columns, numbered
    sections and subsections, footnotes, floats, a list, an equation. As a `draft`
    under review, its lines are numbered in the outer margins (`lineno`): every line
    ("draft"), or every fifth ("draft5")."""
    prose = Prose(seed)
    doc = Document("typeset_paper_2col" + (f"_{draft}" if draft else ""),
                   "\\documentclass[10pt,twocolumn]{article}\n"
                   "\\usepackage[T1]{fontenc}\\usepackage{lmodern}\n"
                   "\\usepackage[margin=2cm]{geometry}\n")
    if draft:
        modulo = ",modulo" if draft == "draft5" else ""
        doc.preamble += f"\\usepackage[switch{modulo}]{{lineno}}\n"
        doc.raw("\\linenumbers")
    title = prose.title(4)
    doc.raw(f"\\title{{{title}}}\\author{{Ada Lindqvist\\thanks{{Harbour Institute.}} "
            "\\and Tomas Okoro}\\date{}\\maketitle", f"# {title}")
    doc.raw("\\begin{abstract}" + (abstract := prose.paragraph(5)) + "\\end{abstract}",
            "## Abstract\n\n" + abstract)
    for s in range(1, 6):
        doc.heading("section", name := prose.title(2), f"{s} {name}")
        for p in range(3):
            text = prose.paragraph(prose.random.randint(4, 7))
            if p == 1 and s % 2:
                doc.raw(text + f"\\footnote{{{prose.sentence()}}}", text)
            else:
                doc.paragraph(text)
        if s == 2:
            latex, caption = _figure(prose)
            doc.raw(latex, caption)
        if s == 3:
            doc.raw(_table(prose))
            doc.items([prose.sentence() for _ in range(3)])
        if s == 4:
            doc.raw("\\begin{equation} E = \\sum_{i=1}^{n} w_i x_i \\end{equation}")
        for sub in range(1, 3 if s in (2, 4) else 1):
            doc.heading("subsection", name := prose.title(3), f"{s}.{sub} {name}")
            for _ in range(2):
                doc.paragraph(prose.paragraph(prose.random.randint(4, 6)))
    return doc


def regulation(seed: int = 2) -> Document:
    """A regulation set in three columns, small type, indented paragraphs with no
    space between them, centred part titles and bold section headings."""
    prose = Prose(seed)
    doc = Document("typeset_regulation_3col",
                   "\\documentclass[9pt]{extarticle}\n" if shutil.which("kpsewhich") and
                   subprocess.run(["kpsewhich", "extarticle.cls"], capture_output=True,
                                  text=True).stdout.strip() else
                   "\\documentclass[10pt]{article}\n")
    doc.preamble += ("\\usepackage[T1]{fontenc}\\usepackage{times}\\usepackage{multicol}\n"
                     "\\usepackage[margin=1.5cm]{geometry}\\setlength{\\columnsep}{0.5cm}\n"
                     "\\setlength{\\parskip}{0pt}\\pagestyle{plain}\n")
    doc.raw("\\begin{multicols}{3}\\small")
    for part in range(1, 4):
        name = prose.title(2).upper()
        doc.raw(f"\\begin{{center}}\\textbf{{PART {100 + part}---{name}}}\\end{{center}}",
                f"## PART {100 + part}—{name}")
        for section in range(1, 5):
            title = prose.title(2)
            number = f"§ {100 + part}.{section}"
            doc.raw(f"\\medskip\\noindent\\textbf{{\\S\\,{100 + part}.{section} {title}.}}\\par",
                    f"## {number} {title}.")
            for p in range(prose.random.randint(2, 4)):
                text = prose.paragraph(prose.random.randint(3, 6))
                mark = f"({chr(ord('a') + p)}) "
                doc.raw(mark + text, mark + text)
    doc.raw("\\end{multicols}")
    return doc


def handbook(seed: int = 3) -> Document:
    """A two-sided handbook in two columns: running heads naming the section with the
    page number, a figure across both columns, lists."""
    prose = Prose(seed)
    doc = Document("typeset_handbook_2col",
                   "\\documentclass[10pt,twocolumn,twoside]{article}\n"
                   "\\usepackage[T1]{fontenc}\\usepackage{lmodern}\n"
                   "\\usepackage[margin=2cm]{geometry}\\pagestyle{headings}\n")
    for s in range(1, 7):
        doc.heading("section", name := prose.title(2), f"{s} {name}")
        for p in range(4):
            doc.paragraph(prose.paragraph(prose.random.randint(4, 8)))
            if s == 2 and p == 1:
                latex, caption = _figure(prose, "*")
                doc.raw(latex, caption)
        if s % 2 == 0:
            doc.items([prose.sentence() for _ in range(4)])
    return doc


def book(seed: int = 4) -> Document:
    """A one-column book: a table of contents with dot leaders, chapters titled over
    two lines ("Chapter 1" above the title), running heads, footnotes."""
    prose = Prose(seed)
    doc = Document("typeset_book", "\\documentclass[11pt]{report}\n"
                   "\\usepackage[T1]{fontenc}\\usepackage{lmodern}\n"
                   "\\usepackage[margin=2.5cm]{geometry}\\pagestyle{headings}\n")
    doc.raw("\\tableofcontents", "## Contents")
    for c in range(1, 4):
        name = prose.title(2)
        doc.raw(f"\\chapter{{{name}}}", f"## Chapter {c} {name}")
        for s in range(1, 6):
            doc.heading("section", sec := prose.title(3), f"{c}.{s} {sec}")
            for p in range(3):
                text = prose.paragraph(prose.random.randint(4, 8))
                if p == 2:
                    doc.raw(text + f"\\footnote{{{prose.sentence()}}}", text)
                else:
                    doc.paragraph(text)
    return doc


def build(doc: Document, out: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        tex = Path(tmp) / f"{doc.name}.tex"
        tex.write_text(doc.source(), encoding="utf-8")
        for _ in range(2):  # twice: the table of contents
            run = subprocess.run(["pdflatex", "-interaction=nonstopmode", tex.name], cwd=tmp,
                                 capture_output=True, text=True, timeout=120)
            if run.returncode:
                sys.exit(f"pdflatex failed on {doc.name}:\n{run.stdout[-2000:]}")
        shutil.copy(Path(tmp) / f"{doc.name}.pdf", out / f"{doc.name}.pdf")
    (out / f"{doc.name}.md").write_text("\n\n".join(doc.truth) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    args = parser.parse_args()
    if not shutil.which("pdflatex"):
        sys.exit("pdflatex is not installed (apt install texlive-latex-base "
                 "texlive-latex-recommended texlive-fonts-recommended)")
    args.out.mkdir(parents=True, exist_ok=True)
    for make in (paper, lambda: paper(draft="draft"), lambda: paper(draft="draft5"),
                 regulation, handbook, book):
        doc = make()
        build(doc, args.out)
        print(f"wrote {args.out / doc.name}.pdf and .md")


if __name__ == "__main__":
    main()

"""How much table detection costs. A script, not a test:

    python bench/bench_tables.py [--repeat 3] [PDF ...]

Per file (default: the corpus's table and form files, when present, and the
samples), medians of several runs of:
  words      PyMuPDF's bare word pass (text page + words), the floor;
  old        the table step as it was: `page.find_tables()` on every page with a
             horizontal and a vertical stroke, cells filled by testing every word
             against every cell;
  new        `visualiser.layout.tables.find_tables` (grids from the page's strokes,
             unruled tables from aligned columns);
and the tables each finds. Ratios are against `words`, measured in the same run.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("PYMUPDF_SUGGEST_LAYOUT_ANALYZER", "0")

import pymupdf  # noqa: E402

from visualiser.layout.tables import find_tables  # noqa: E402

CORPUS = Path(os.environ.get("VISUALISER_CORPUS", ROOT.parent / "shared" / "corpus"))
DEFAULT = ["pdfplumber__ca-warn-report.pdf", "camelot__twotables_2.pdf", "camelot__us-018.pdf",
           "pdfjs__prefilled_f1040.pdf", "pdfplumber__issue-140-example.pdf",
           "mineru__demo3.pdf", "pdfminer__naacl06-shinyama.pdf"]


def _old_has_rules(page: pymupdf.Page) -> bool:
    horizontal = vertical = False
    for path in page.get_cdrawings():
        for item in path["items"]:
            if item[0] == "re":
                x0, y0, x1, y1 = item[1]
                horizontal |= x1 - x0 > 10
                vertical |= y1 - y0 > 10
            elif item[0] == "l":
                (xa, ya), (xb, yb) = item[1], item[2]
                horizontal |= abs(ya - yb) < 1 and abs(xa - xb) > 10
                vertical |= abs(xa - xb) < 1 and abs(ya - yb) > 10
            if horizontal and vertical:
                return True
    return False


def old_tables(page: pymupdf.Page, textpage: pymupdf.TextPage) -> int:
    """The table step before this change (visualiser/layout/tables.py on main)."""
    if not _old_has_rules(page):
        return 0
    words = textpage.extractWORDS()
    found = 0
    for table in page.find_tables().tables:
        if table.row_count < 1 or table.col_count < 2:
            continue
        for row in table.rows:
            for cell in row.cells:
                if cell is not None:
                    [w for w in words if cell[0] <= (w[0] + w[2]) / 2 <= cell[2]
                     and cell[1] <= (w[1] + w[3]) / 2 <= cell[3]]
        found += 1
    return found


def median(run: Callable[[], object], repeat: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def per_page(path: Path, step: Callable[[pymupdf.Page, pymupdf.TextPage], object]) -> list:
    with pymupdf.open(path) as doc:
        out = []
        for page in doc:
            textpage = page.get_textpage()
            textpage.extractWORDS()
            out.append(step(page, textpage))
        return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("pdfs", nargs="*", type=Path)
    args = parser.parse_args()
    files = args.pdfs or ([CORPUS / n for n in DEFAULT if (CORPUS / n).exists()]
                          + sorted((ROOT / "sample_pdfs").glob("*.pdf")))
    print(f"medians of {args.repeat} runs; ratios against the bare word pass")
    print(f"{'file':44} {'pages':>5} {'words s':>8} {'old s':>7} {'old x':>6} "
          f"{'new s':>7} {'new x':>6} {'tables old/new':>15}")
    totals = [0.0, 0.0, 0.0]
    for path in files:
        with pymupdf.open(path) as doc:
            pages = doc.page_count
        words, _ = median(lambda p=path: per_page(p, lambda page, tp: None), args.repeat)
        old, old_found = median(lambda p=path: per_page(p, old_tables), args.repeat)
        new, new_found = median(
            lambda p=path: per_page(p, lambda page, tp: len(find_tables(page, tp))), args.repeat)
        totals = [totals[0] + words, totals[1] + old, totals[2] + new]
        print(f"{path.name[:44]:44} {pages:5d} {words:8.3f} {old:7.3f} {old / words:6.1f} "
              f"{new:7.3f} {new / words:6.1f} {sum(old_found):>7}/{sum(new_found):<7}")
    words, old, new = totals
    print(f"{'all':44} {'':5} {words:8.3f} {old:7.3f} {old / words:6.1f} "
          f"{new:7.3f} {new / words:6.1f}")


if __name__ == "__main__":
    main()

"""Paragraph boundaries against a groundtruth markdown (NAME.pdf beside NAME.md). A
script, not a test:

    python bench/paragraph_bounds.py DIR [DIR ...]

`structure_score.py`'s "paragraphs whole" asks whether each groundtruth paragraph lies
inside one chunk, which a layout that runs every paragraph of a page together passes.
This asks the converse too: the share of groundtruth paragraphs (eight words or more,
list items aside) that are exactly one paragraph of our markdown, no more and no less.
Footnote marks (a number of one to three digits standing alone) are left out on both
sides: the groundtruth drops them, the page has them.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from visualiser.layout import LayoutOptions  # noqa: E402
from visualiser.pipeline import process_pdf  # noqa: E402

WORD = re.compile(r"[^\W_]+", re.UNICODE)
_MARK = re.compile(r"\d{1,3}")
_NOT_PARAGRAPHS = ("#", "|", "<!--", "```", "$$", "- ")


def words(text: str) -> tuple[str, ...]:
    return tuple(w.lower() for w in WORD.findall(text) if not _MARK.fullmatch(w))


def bounds(groundtruth: str, ours: str) -> tuple[int, int]:
    """(groundtruth paragraphs that are one of ours exactly, groundtruth paragraphs)."""
    truth = [words(b) for b in groundtruth.split("\n\n")
             if b.strip() and not b.strip().startswith(_NOT_PARAGRAPHS)]
    truth = [t for t in truth if len(t) >= 8]
    blocks = {words(b) for b in ours.split("\n\n")}
    return sum(t in blocks for t in truth), len(truth)


def main() -> None:
    total = [0, 0]
    for folder in map(Path, sys.argv[1:]):
        for pdf in sorted(folder.glob("*.pdf")):
            md = pdf.with_suffix(".md")
            if not md.exists():
                continue
            doc = process_pdf(pdf.read_bytes(), pdf.name, options=LayoutOptions(ocr=False))
            exact, count = bounds(md.read_text(encoding="utf-8"), doc.source.text)
            total[0] += exact
            total[1] += count
            print(f"{pdf.stem[:40]:40s} paragraphs exactly one of ours {exact:3d} / {count:3d}")
    if total[1]:
        print(f"all: {total[0]} / {total[1]} = {total[0] / total[1]:.2f}")


if __name__ == "__main__":
    main()

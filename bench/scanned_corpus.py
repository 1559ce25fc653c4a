"""Scans of documents we can score: every PDF of a directory (with its groundtruth
NAME.md beside it, as `office_corpus.py`, `browser_corpus.py` and `typeset_corpus.py`
write them) rasterised as a scanner gives pages back, without a text layer, so the
layout must come from OCR and the ink (`visualiser/layout/ink.py`).

usage: scanned_corpus.py SRC_DIR OUT_DIR [--dpi 200] [--tilt 0.4] [--bilevel]

Grey and a little blurred by default; `--bilevel` thresholds to black and white with
specks, as a fax or an office copier's scan-to-PDF does. `--tilt` turns each page
that many degrees anticlockwise (a page fed crooked). Score the result with
`../shared/tools/structure_score.py .venv/bin/visualiser OUT_DIR`.
"""

from __future__ import annotations

import argparse
import io
import random
import shutil
from pathlib import Path

import pymupdf
from PIL import Image, ImageFilter

SPECKS = 1 / 2000  # of a bilevel scan's pixels: dust on the glass


def scanned(pdf: bytes, dpi: int = 200, tilt: float = 0.0, bilevel: bool = False) -> bytes:
    """`pdf` as a scan: each page an image at `dpi`, turned `tilt` degrees
    anticlockwise, grey and blurred a little (or black and white with specks)."""
    source, scan = pymupdf.open(stream=pdf), pymupdf.open()
    specks = random.Random(2)
    for page in source:
        pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY)
        image = Image.frombytes("L", (pix.width, pix.height), pix.samples)
        image = image.rotate(tilt, resample=Image.BICUBIC, fillcolor=255)
        if bilevel:
            image = image.point(lambda v: 0 if v < 150 else 255).convert("1")
            pixels = image.load()
            for _ in range(int(image.width * image.height * SPECKS)):
                pixels[specks.randrange(image.width), specks.randrange(image.height)] = 0
        else:
            image = image.filter(ImageFilter.GaussianBlur(0.6))
        png = io.BytesIO()
        image.save(png, "PNG")
        scan.new_page(width=page.rect.width, height=page.rect.height).insert_image(
            page.rect, stream=png.getvalue())
    return scan.tobytes()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--dpi", type=int, default=200)
    parser.add_argument("--tilt", type=float, default=0.4)
    parser.add_argument("--bilevel", action="store_true")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for pdf in sorted(args.source.glob("*.pdf")):
        (args.out / pdf.name).write_bytes(
            scanned(pdf.read_bytes(), args.dpi, args.tilt, args.bilevel))
        truth = pdf.with_suffix(".md")
        if truth.exists():
            shutil.copy(truth, args.out / truth.name)
        print(args.out / pdf.name)


if __name__ == "__main__":
    main()

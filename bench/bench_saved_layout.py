"""A document's first view with its layout read from the PDF against one whose layout
was saved before (a restarted server, another web process), medians of --repeat runs:

    python bench/bench_saved_layout.py [--pages 200] [--repeat 3]

On the OCR'd sample memo and on a long generated document.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_web import make_long_pdf  # noqa: E402

from visualiser.library import Library  # noqa: E402


def first_view(folder: Path, layouts: Path, name: str) -> float:
    library = Library(folder, layout_dir=layouts)  # a fresh process's library
    entry = next(e for e in library.documents() if e.name == name)
    start = time.perf_counter()
    library.report(entry, "structure_aware", {})
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pages", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "docs"
        folder.mkdir()
        (folder / "scanned_memo.pdf").write_bytes(
            (ROOT / "sample_pdfs" / "scanned_memo.pdf").read_bytes())
        make_long_pdf(folder / "long.pdf", args.pages)
        for name in ("scanned_memo.pdf", "long.pdf"):
            read, reused = [], []
            for n in range(args.repeat):
                layouts = Path(tmp) / f"layouts-{name}-{n}"
                read.append(first_view(folder, layouts, name))
                reused.append(first_view(folder, layouts, name))
            a, b = statistics.median(read), statistics.median(reused)
            print(f"{name:20} layout read {a:7.2f} s   saved layout {b:6.2f} s   {a / b:5.1f}x")


if __name__ == "__main__":
    main()

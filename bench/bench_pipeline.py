"""How fast the pipeline is on a long document. A script, not a test:

    python bench/bench_pipeline.py [--pages 600] [--repeat 3]

Prints medians of several runs and ratios against a baseline measured in the same
run: PyMuPDF opening the file and extracting every page's words. Layout is timed
read in one process and in parallel worker processes; each strategy is timed on
the laid-out document (what a strategy switch costs).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_web import baseline, make_long_pdf  # noqa: E402
from timing import median  # noqa: E402

from visualiser.layout import LayoutOptions  # noqa: E402
from visualiser.pipeline import chunk_report, process_pdf  # noqa: E402
from visualiser.strategies import STRATEGIES  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pages", type=int, default=600)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "long.pdf"
        make_long_pdf(path, args.pages)
        data = path.read_bytes()
    base = median(lambda: baseline(data), args.repeat)
    print(f"{args.pages} pages, medians of {args.repeat} runs")
    print(f"{'baseline: PyMuPDF open + words':44} {base:8.2f} s   1.0x")

    def row(label: str, seconds: float) -> None:
        print(f"{label:44} {seconds:8.2f} s {seconds / base:5.1f}x")

    row("layout, one process", median(lambda: process_pdf(data, "long.pdf"), args.repeat))
    doc = process_pdf(data, "long.pdf")
    two = LayoutOptions(workers=2)
    row("layout, 2 worker processes",
        median(lambda: process_pdf(data, "long.pdf", options=two), args.repeat))
    for name in STRATEGIES:
        row(f"chunk report: {name}", median(lambda n=name: chunk_report(doc, n), args.repeat))


if __name__ == "__main__":
    main()

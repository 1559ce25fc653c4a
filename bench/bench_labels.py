"""What placing labels costs (visualiser/labels.py). A script, not a test:

    python bench/bench_labels.py [--pages 16] [--repeat 5]

On a generated document whose ruled table runs across every page (the dense case),
prints the median time of placing every page's labels next to the median time of the
whole chunk report (which includes it), for each built-in strategy.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "tests"))

from conftest_web import make_long_table_pdf  # noqa: E402
from timing import median  # noqa: E402

from visualiser import labels  # noqa: E402
from visualiser.pipeline import chunk_report, process_pdf  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pages", type=int, default=16)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "table.pdf"
        make_long_table_pdf(path, args.pages)
        doc = process_pdf(path.read_bytes(), path.name)
    for strategy in ("token_based", "structure_aware"):
        report = chunk_report(doc, strategy)
        whole = median(lambda s=strategy: chunk_report(doc, s), args.repeat)
        placing = median(lambda r=report: labels.place_all(r), args.repeat)
        print(f"{strategy:16} {len(report['chunks']):4} chunks  report {whole * 1000:7.1f} ms  "
              f"labels {placing * 1000:6.1f} ms  ({placing / whole:.0%} of the report)")


if __name__ == "__main__":
    main()

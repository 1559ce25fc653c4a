"""How fast the pipeline is on a long document. A script, not a test:

    python bench/bench_pipeline.py [--pages 600] [--repeat 3] [--workers 1,2,4]
        [--corpus] [--no-strategies]

Prints medians of several runs and ratios against a baseline measured in the same
run: PyMuPDF opening the file and extracting every page's words. Layout is timed
read in 1, 2 and 4 page-reading processes (`--workers`), interleaved, on a synthetic
document of `--pages` pages, and with `--corpus` on the corpus's long documents too;
each strategy is timed on the laid-out document (what a strategy switch costs).
The last line says which worker count was fastest on this machine's cores: the
default (`layout.engines.default_workers`) follows it.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_web import CORPUS, baseline, make_long_pdf  # noqa: E402
from timing import median  # noqa: E402

from visualiser.layout import LayoutOptions  # noqa: E402
from visualiser.layout.engines import default_workers  # noqa: E402
from visualiser.pipeline import chunk_report, process_pdf  # noqa: E402
from visualiser.strategies import STRATEGIES  # noqa: E402

LONG_CORPUS = ("unstructured__DA-619p.pdf",)  # the corpus's documents of 100+ pages


def workers_table(label: str, data: bytes, counts: list[int], repeat: int) -> dict[int, float]:
    """Medians of `repeat` interleaved runs of the layout in each worker count."""
    runs: dict[int, list[float]] = {n: [] for n in counts}
    base: list[float] = []
    for _ in range(repeat):
        base.append(timed(lambda: baseline(data)))
        for n in counts:
            options = LayoutOptions(ocr=False, workers=n)
            runs[n].append(timed(lambda o=options: process_pdf(data, label, options=o)))
    floor = statistics.median(base)
    print(f"\n{label}: layout (OCR off) by page-reading processes; bare words "
          f"{floor:.2f} s")
    got = {n: statistics.median(r) for n, r in runs.items()}
    for n, seconds in got.items():
        print(f"  {n} worker{'s' if n > 1 else ' '}  {seconds:8.2f} s  {seconds / floor:5.1f}x bare"
              f"  {got[counts[0]] / seconds:5.2f}x faster than {counts[0]}")
    return got


def timed(run) -> float:
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pages", type=int, default=600)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--workers", default="1,2,4")
    parser.add_argument("--corpus", action="store_true",
                        help="also the corpus's long documents (VISUALISER_CORPUS)")
    parser.add_argument("--no-strategies", action="store_true")
    args = parser.parse_args()
    counts = [int(n) for n in args.workers.split(",")]
    print(f"machine: {os.cpu_count()} cores; medians of {args.repeat} interleaved runs; "
          f"default page-reading processes here: {default_workers()}")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "long.pdf"
        make_long_pdf(path, args.pages)
        data = path.read_bytes()
    totals = dict.fromkeys(counts, 0.0)
    documents = [(f"synthetic, {args.pages} pages", data)]
    if args.corpus:
        documents += [(name, (CORPUS / name).read_bytes()) for name in LONG_CORPUS
                      if (CORPUS / name).exists()]
    for label, pdf in documents:
        for n, seconds in workers_table(label, pdf, counts, args.repeat).items():
            totals[n] += seconds
    best = min(totals, key=totals.__getitem__)
    print(f"\nfastest over these documents on {os.cpu_count()} cores: {best} "
          f"page-reading process{'es' if best > 1 else ''}")
    if args.no_strategies:
        return
    base = median(lambda: baseline(data), args.repeat)
    doc = process_pdf(data, "long.pdf")
    print(f"\nchunk reports on the synthetic document (bare words {base:.2f} s)")
    for name in STRATEGIES:
        seconds = median(lambda n=name: chunk_report(doc, n), args.repeat)
        print(f"  {name:42} {seconds:8.2f} s {seconds / base:5.1f}x")


if __name__ == "__main__":
    main()

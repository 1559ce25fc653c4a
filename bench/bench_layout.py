"""Layout engines against each other on the real PDFs of the shared corpus. A script,
not a test:

    python bench/bench_layout.py [--corpus DIR] [--engine NAME ...] [--long] [--repeat N]

For each engine (an unavailable one is skipped, saying why) and each corpus file, one
row of one table, all under `structure_aware`:

- headings / whole / order — against Docling's groundtruth `NAME.md` beside the PDF
  (as `structure_score.py` in the shared tools): heading recall, share of paragraphs
  kept whole in one chunk, share of our word pairs adjacent in the groundtruth;
- pdf order — share of our word pairs adjacent in the PDF's own content order (as
  `order_score.py`; files with fewer than 50 text-layer words are skipped);
- order* — the same after NFKC, a pair counted in order under the PDF's line-end
  hyphens joined or kept: our text writes "detection" and "find" where the page's
  words are "detec-", "tion" and "ﬁnd" (and keeps "self-publishing" whole), which
  `order_score.py` counts as disorder;
- coverage / inflation — document words found in some chunk, and words stored ÷ words
  of the document (as `coverage_score.py`);
- box R / P — medians over the chunks of the words of a chunk found inside its boxes,
  and of the words inside its boxes that belong to it (as `box_score.py`);
- s/page — seconds of layout extraction (process_pdf) per page, the median of
  `--repeat` runs, and its ratio to `builtin` measured in the same run.

The scores re-implement the shared tools' definitions in-process (the tools run the
CLI once per file and measure); `--check-tools DIR` runs the tools themselves on one
file per engine and prints both, to show that the figures agree.
DA-619p (619 pages) is read only with `--long`.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import pymupdf

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from visualiser.layout import ENGINES, LayoutOptions  # noqa: E402
from visualiser.pipeline import chunk_report, process_pdf  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
from scores import boxes, coverage, pdf_order, pdf_order_normalised, structure  # noqa: E402

LONG = "unstructured__DA-619p.pdf"
STRATEGY = "structure_aware"


# --- the run ------------------------------------------------------------------------


@dataclass
class Row:
    engine: str
    file: str
    pages: int
    seconds: float  # per page
    structure: tuple[float, float, float] | None = None
    order: float | None = None
    order_normalised: float | None = None
    coverage: tuple[float, float] | None = None
    boxes: tuple[float, float] | None = None
    error: str | None = None
    ratio: float | None = None  # s/page ÷ builtin's on the same file
    notes: list[str] = field(default_factory=list)


def measure(engine: str, path: Path, repeat: int) -> Row:
    data = path.read_bytes()
    options = LayoutOptions(engine=engine, ocr=True)
    times, doc = [], None
    try:
        for _ in range(repeat):
            start = time.perf_counter()
            doc = process_pdf(data, path.name, options=options)
            times.append(time.perf_counter() - start)
    except Exception as exc:  # a bench reports a failure and goes on
        return Row(engine, path.name, 0, 0.0, error=f"{type(exc).__name__}: {exc}")
    assert doc is not None
    pages = len(doc.layout.pages)
    chunks = chunk_report(doc, STRATEGY)["chunks"]
    pdf = pymupdf.open(path)
    md = path.with_suffix(".md")
    row = Row(engine, path.name, pages, statistics.median(times) / pages)
    row.structure = structure(md.read_text(encoding="utf-8"), chunks) if md.exists() else None
    row.order = pdf_order(pdf, chunks)
    row.order_normalised = pdf_order_normalised(pdf, chunks)
    row.coverage = coverage(pdf, chunks)
    row.boxes = boxes(pdf, chunks)
    pdf.close()
    return row


def warm_up(engine: str) -> None:
    """Load the engine's model (a second for the ML engine) outside the timings."""
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "Warm up the layout engine.")
    process_pdf(doc.tobytes(), "warm-up.pdf", options=LayoutOptions(engine=engine))


def fmt(value: float | None, digits: int = 2) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def table(rows: list[Row]) -> str:
    head = ("| engine | file | pages | headings | whole | order | pdf order | order* | coverage | "
            "inflation | box R | box P | s/page | × builtin |")
    lines = [head, "|" + "---|" * (head.count("|") - 1)]
    for r in rows:
        if r.error:
            lines.append(f"| {r.engine} | {r.file} | | failed: {r.error} " + "| " * 10 + "|")
            continue
        s = r.structure or (None, None, None)
        c = r.coverage or (None, None)
        b = r.boxes or (None, None)
        lines.append(
            f"| {r.engine} | {r.file.removesuffix('.pdf')} | {r.pages} | {fmt(s[0])} | "
            f"{fmt(s[1])} | {fmt(s[2], 3)} | {fmt(r.order, 3)} | "
            f"{fmt(r.order_normalised, 3)} | {fmt(c[0], 3)} | "
            f"{fmt(c[1])} | {fmt(b[0])} | {fmt(b[1])} | {r.seconds:.3f} | "
            f"{fmt(r.ratio, 1)} |")
    return "\n".join(lines)


def summary(rows: list[Row], engine: str) -> str:
    mine = [r for r in rows if r.engine == engine and not r.error]
    if not mine:
        return f"{engine}: no file read"
    st = [r.structure for r in mine if r.structure]
    means = [statistics.mean(s[i] for s in st) for i in range(3)] if st else [None] * 3
    orders = [r.order for r in mine if r.order is not None]
    normalised = [r.order_normalised for r in mine if r.order_normalised is not None]
    covs = [r.coverage for r in mine if r.coverage]
    bx = [r.boxes for r in mine if r.boxes]
    pages = sum(r.pages for r in mine)
    seconds = sum(r.seconds * r.pages for r in mine)
    return (f"{engine}: Docling files ({len(st)}) headings {fmt(means[0])} / whole "
            f"{fmt(means[1])} / order {fmt(means[2], 3)}; pdf order lowest "
            f"{fmt(min(orders) if orders else None, 3)} (order* "
            f"{fmt(min(normalised) if normalised else None, 3)}); coverage lowest "
            f"{fmt(min(c[0] for c in covs), 3)}, inflation highest "
            f"{fmt(max(c[1] for c in covs))} ({len(covs)} files with a text layer); box "
            "medians R "
            f"{fmt(statistics.median(b[0] for b in bx))} / P "
            f"{fmt(statistics.median(b[1] for b in bx))}; {pages} pages in {seconds:.1f} s "
            f"({seconds / pages:.3f} s/page)")


def check_tools(tools: Path, pdf: Path, engines: list[str]) -> None:
    """Run the shared tools through the CLI (a wrapper adds `--layout`), for comparing
    with this script's figures on one file."""
    cli = Path(sys.executable).with_name("visualiser")
    for engine in engines:
        with tempfile.TemporaryDirectory() as tmp:
            wrapper = Path(tmp) / "visualiser"
            wrapper.write_text(f'#!/bin/sh\nexec "{cli}" "$@" --layout {engine}\n')
            wrapper.chmod(0o755)
            runs = [["box_score.py", STRATEGY, str(pdf)], ["order_score.py", STRATEGY, str(pdf)],
                    ["coverage_score.py", str(pdf)]]
            if pdf.with_suffix(".md").exists():
                docling = Path(tmp) / "docling"
                docling.mkdir()
                (docling / pdf.name).symlink_to(pdf)
                (docling / pdf.with_suffix(".md").name).symlink_to(pdf.with_suffix(".md"))
                runs.append(["structure_score.py", str(docling)])
            for tool, *rest in runs:
                out = subprocess.run([sys.executable, str(tools / tool), str(wrapper), *rest],
                                     capture_output=True, text=True, timeout=900)
                last = (out.stdout.strip().splitlines() or [out.stderr.strip()])[0]
                print(f"  tools/{tool} [{engine}]: {last}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    default_corpus = os.environ.get("VISUALISER_CORPUS") or str(ROOT.parent / "shared" / "corpus")
    parser.add_argument("--corpus", type=Path, default=Path(default_corpus))
    parser.add_argument("--engine", action="append", choices=sorted(ENGINES),
                        help="an engine to measure; repeat for several (default: all)")
    parser.add_argument("--long", action="store_true", help=f"also read {LONG} (619 pages)")
    parser.add_argument("--repeat", type=int, default=1, help="timed runs per file (median)")
    parser.add_argument("--file", action="append", help="only these corpus file names")
    parser.add_argument("--check-tools", type=Path, metavar="TOOLS_DIR",
                        help="also run the shared tools on the first file, to compare")
    args = parser.parse_args()
    if not args.corpus.is_dir():
        print(f"no corpus at {args.corpus}: set VISUALISER_CORPUS or pass --corpus; "
              "nothing to measure")
        return
    files = sorted(args.corpus.glob("*.pdf"))
    if args.file:
        files = [f for f in files if f.name in args.file]
    if not args.long:
        files = [f for f in files if f.name != LONG]
    engines = []
    for name in args.engine or list(ENGINES):
        missing = ENGINES[name].available()
        if missing:
            print(f"skipping engine {name}: {missing}")
        else:
            engines.append(name)
    print(f"{len(files)} files of {args.corpus}; engines {', '.join(engines)}; "
          f"{platform.node() or 'this machine'}, {os.cpu_count()} cores, Python "
          f"{platform.python_version()}, PyMuPDF {pymupdf.VersionBind}, "
          f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC")
    rows: list[Row] = []
    for engine in engines:
        warm_up(engine)
        for path in files:
            row = measure(engine, path, args.repeat)
            rows.append(row)
            print(f"  {engine:16} {path.name:40} "
                  f"{row.error or f'{row.pages} pages, {row.seconds:.3f} s/page'}",
                  file=sys.stderr, flush=True)
    builtin = {r.file: r.seconds for r in rows if r.engine == "builtin" and not r.error}
    for r in rows:
        if r.file in builtin and builtin[r.file] > 0 and not r.error:
            r.ratio = r.seconds / builtin[r.file]
    rows.sort(key=lambda r: (r.file, r.engine != "builtin", r.engine))
    print(table(rows))
    print()
    for engine in engines:
        print(summary(rows, engine))
    if args.check_tools and files:
        print(f"\nthe shared tools on {files[0].name}, for comparison:")
        check_tools(args.check_tools, files[0], engines)


if __name__ == "__main__":
    main()

"""The speed table of issue 10 in one command. A script, not a test:

    VISUALISER_CORPUS=/work/shared/corpus python bench/bench_speed.py [--repeat 3]
        [--growth 50,200,800] [--no-growth] [--only NAME]

For each long or table-heavy corpus document, medians of `--repeat` interleaved runs of
PyMuPDF's bare word pass (the baseline, measured in the same run), our cold processing
(layout + markdown + chunk report) under `structure_aware` and `token_based`, the
ratio ours ÷ bare words, pymupdf4llm when it is installed (it is not a dependency:
its column says "n/i" otherwise), the layout engines that can run here (pymupdf-layout
needs the [ml] extra), and the peak RSS of one cold `structure_aware` run in a fresh
process. Then the growth: the first 50 pages of the 619-page document repeated to 50,
200 and 800 pages, seconds and milliseconds per page.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pymupdf

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("PYMUPDF_SUGGEST_LAYOUT_ANALYZER", "0")

from visualiser.layout import LayoutOptions  # noqa: E402
from visualiser.layout.engines import ENGINES  # noqa: E402
from visualiser.pipeline import chunk_report, process_pdf  # noqa: E402

DOCUMENTS = [
    ("619-page rulebook", "unstructured__DA-619p.pdf"),
    ("WARN report (table on every page)", "pdfplumber__ca-warn-report.pdf"),
    ("two-column paper", "pdfminer__naacl06-shinyama.pdf"),
    ("2-column paper, figures, tables", "unstructured__multi-column.pdf"),
    ("legal prose", "pdfminer__dmca.pdf"),
]


def corpus_dir() -> Path:
    return Path(os.environ.get("VISUALISER_CORPUS") or ROOT.parent / "shared" / "corpus")


def bare_words(data: bytes) -> None:
    with pymupdf.open(stream=data, filetype="pdf") as document:
        for page in document:
            page.get_text("words")


def ours(data: bytes, strategy: str, engine: str = "builtin") -> None:
    doc = process_pdf(data, "bench.pdf", options=LayoutOptions(engine=engine, ocr=False))
    chunk_report(doc, strategy)


def to_markdown(data: bytes) -> None:
    import pymupdf4llm  # only when installed; never a dependency

    with pymupdf.open(stream=data, filetype="pdf") as document:
        pymupdf4llm.to_markdown(document, show_progress=False)


def interleaved(runs: dict[str, Callable[[], object]], repeat: int) -> dict[str, float]:
    """Median seconds per run, the runs interleaved so a busy moment of this shared
    machine falls on all of them alike."""
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(repeat):
        for name, run in runs.items():
            start = time.perf_counter()
            run()
            times[name].append(time.perf_counter() - start)
    return {name: sorted(t)[len(t) // 2] for name, t in times.items()}


PEAK_RSS = """
import sys
from pathlib import Path
sys.path.insert(0, {root!r})
from visualiser.layout import LayoutOptions
from visualiser.pipeline import chunk_report, process_pdf
doc = process_pdf(Path({path!r}).read_bytes(), "x.pdf", options=LayoutOptions(ocr=False))
chunk_report(doc, "structure_aware")
# VmHWM, not ru_maxrss: the latter keeps the forking parent's peak across exec
hwm = [l for l in open("/proc/self/status") if l.startswith("VmHWM")][0]
print(hwm.split()[1])
"""


def peak_rss_mb(path: Path) -> float:
    """Peak resident memory of one cold structure_aware run in a fresh process."""
    out = subprocess.run([sys.executable, "-c", PEAK_RSS.format(root=str(ROOT), path=str(path))],
                         check=True, capture_output=True, text=True).stdout
    return int(out.split()[-1]) / 1024


def repeated(source: Path, first: int, pages: int) -> bytes:
    """`pages` pages: the first `first` pages of `source` over and over."""
    with pymupdf.open(source) as src, pymupdf.open() as out:
        while out.page_count < pages:
            out.insert_pdf(src, from_page=0, to_page=min(first, pages - out.page_count) - 1)
        return out.tobytes()


def engines_here() -> list[str]:
    return [name for name, cls in ENGINES.items() if cls.available() is None]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--growth", default="50,200,800")
    parser.add_argument("--no-growth", action="store_true")
    parser.add_argument("--only", help="one corpus file name")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--no-pymupdf4llm", action="store_true",
                        help="leave out pymupdf4llm (a minute per run on the 619 pages)")
    parser.add_argument("--no-engines", action="store_true",
                        help="leave out the layout engines other than builtin (the ML "
                             "engine takes 0.3-1.2 s per page)")
    args = parser.parse_args()
    corpus = corpus_dir()
    if not corpus.is_dir():
        raise SystemExit(f"no corpus at {corpus}; set VISUALISER_CORPUS")
    has_llm = importlib.util.find_spec("pymupdf4llm") is not None and not args.no_pymupdf4llm
    engines = [] if args.no_engines else [e for e in engines_here() if e != "builtin"]
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}, "
          f"PyMuPDF {pymupdf.VersionBind}; medians of {args.repeat} interleaved runs")
    if not has_llm:
        print("pymupdf4llm is left out (--no-pymupdf4llm) or not installed: its column shows "
              "n/i (it is not a dependency)")
    header = ["document", "pages", "bare words", "pymupdf4llm", "ours structure_aware",
              "ours token_based", "ours ÷ bare (sa / tb)"]
    header += [f"engine {e} (sa)" for e in engines] + ["peak RSS"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    figures: dict[str, object] = {}
    for label, name in DOCUMENTS:
        if args.only and name != args.only:
            continue
        path = corpus / name
        if not path.exists():
            print(f"| {label} | missing: {name} |")
            continue
        data = path.read_bytes()
        with pymupdf.open(stream=data, filetype="pdf") as document:
            pages = document.page_count
        runs: dict[str, Callable[[], object]] = {
            "bare": lambda d=data: bare_words(d),
            "structure_aware": lambda d=data: ours(d, "structure_aware"),
            "token_based": lambda d=data: ours(d, "token_based"),
        }
        if has_llm:
            runs["pymupdf4llm"] = lambda d=data: to_markdown(d)
        for engine in engines:
            runs[engine] = lambda d=data, e=engine: ours(d, "structure_aware", e)
        got = interleaved(runs, args.repeat)
        rss = peak_rss_mb(path)
        base = got["bare"]
        cells = [label, str(pages), f"{base:.2f} s",
                 f"{got['pymupdf4llm']:.1f} s" if has_llm else "n/i",
                 f"{got['structure_aware']:.2f} s", f"{got['token_based']:.2f} s",
                 f"{got['structure_aware'] / base:.1f}× / {got['token_based'] / base:.1f}×"]
        cells += [f"{got[e]:.1f} s" for e in engines] + [f"{rss:.0f} MB"]
        print("| " + " | ".join(cells) + " |", flush=True)
        figures[name] = {**got, "pages": pages, "peak_rss_mb": rss}
    if not args.no_growth and not args.only:
        growth(corpus / DOCUMENTS[0][1], [int(n) for n in args.growth.split(",")], figures)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1))


def growth(source: Path, sizes: list[int], figures: dict[str, object]) -> None:
    if not source.exists():
        print(f"growth: {source} is missing")
        return
    print(f"\ngrowth: the first 50 pages of {source.name} repeated; one cold run each "
          "(structure_aware), bare words alongside")
    print("| pages | bare words | ours | ms per page (ours) | ours ÷ bare | peak RSS |")
    print("|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for pages in sizes:
            data = repeated(source, 50, pages)
            path = Path(tmp) / f"growth{pages}.pdf"
            path.write_bytes(data)
            got = interleaved({"bare": lambda d=data: bare_words(d),
                               "ours": lambda d=data: ours(d, "structure_aware")}, 1)
            rss = peak_rss_mb(path)
            print(f"| {pages} | {got['bare']:.2f} s | {got['ours']:.2f} s | "
                  f"{got['ours'] / pages * 1000:.1f} | {got['ours'] / got['bare']:.1f}× | "
                  f"{rss:.0f} MB |", flush=True)
            figures[f"growth{pages}"] = {**got, "peak_rss_mb": rss}


if __name__ == "__main__":
    main()

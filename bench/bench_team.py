"""A team server under a burst of uploads: 20 documents (one of ~600 pages, the rest
1 to 60 pages) sent at once to `visualiser serve` on a throwaway PostgreSQL + Redis,
processed by 1, 2 and 4 `visualiser worker`s. A script, not a test:

    .venv/bin/python bench/bench_team.py [--workers 1 2 4] [--repeat 3] [--long FILE.pdf]
                                         [--split]

For each number of workers, on a fresh store and queue, under two schedulings: the
baseline, one first-come-first-served queue of whole documents (what the workers did
before: `VISUALISER_LONG_PAGES` set past any document), and small documents first with
long ones read in turns (the default). Printed: the seconds from the first upload until
every document is ready, until the first small document (≤ 10 pages) is ready, until
every small one is, and until the long one is; medians of `--repeat` runs. The long document is sent
first (answered before the 19 others go at once): the worst case for the small ones,
which must not wait behind it. It is `unstructured__DA-619p.pdf` of the corpus
(`../shared/corpus` or `VISUALISER_CORPUS`) when present, a real 619-page document,
else a generated 600-page one.

`--split` also measures whether splitting the long document into page ranges read in
parallel could pay here: its pages read in one process against two processes reading
page ranges (the layout's own process pool: the same split, without a queue between),
and the part that cannot be split (making the layout from the pages, chunking), as
medians of three runs.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import servers  # noqa: E402
from conftest_web import make_long_pdf  # noqa: E402

from tests.test_reliability_processes import post_file, post_json  # noqa: E402
from visualiser.resources import samples_dir  # noqa: E402

CORPUS = Path(os.environ.get("VISUALISER_CORPUS") or ROOT.parent / "shared" / "corpus")
CORPUS_LONG = CORPUS / "unstructured__DA-619p.pdf"
SMALL_PAGES = 10
# Page counts of the generated documents beside the five samples (each count once: the
# same count would give the same bytes, one document).
GENERATED = (1, 2, 3, 4, 5, 6, 8, 10, 14, 20, 28, 40, 50, 60)
VISUALISER = [sys.executable, "-m", "visualiser.cli"]


def documents(folder: Path, long_pdf: Path | None) -> list[Path]:
    """The long document first, then the 19 others."""
    if long_pdf is None:
        long_pdf = folder / "long-600.pdf"
        make_long_pdf(long_pdf, 600)
    others = sorted(samples_dir().glob("*.pdf"))
    for pages in GENERATED:
        make_long_pdf(folder / f"generated-{pages:02d}.pdf", pages)
        others.append(folder / f"generated-{pages:02d}.pdf")
    return [long_pdf, *others]


def page_count(pdf: Path) -> int:
    import pymupdf

    with pymupdf.open(pdf) as doc:
        return doc.page_count


SCHEDULINGS = {"one FIFO queue": {"VISUALISER_LONG_PAGES": "1000000"},
               "small first": {}}


def run(workers: int, scheduling: str, pdfs: list[Path], pages: dict[str, int],
        postgres: str, redis_url: str, folder: Path) -> dict[str, float]:
    import shutil

    import redis

    redis.Redis.from_url(redis_url).flushdb()
    data_dir = folder / "data"
    shutil.rmtree(data_dir, ignore_errors=True)
    urls = ["--database", servers.new_schema(postgres), "--queue", redis_url,
            "--data-dir", str(data_dir)]
    env = {"XDG_CACHE_HOME": str(folder / "xdg-cache"), "XDG_DATA_HOME": str(folder / "xdg"),
           **SCHEDULINGS[scheduling]}
    port = servers.free_port()
    base = f"http://127.0.0.1:{port}"
    log = folder / f"serve-{workers}.log"
    processes = [servers.spawn([*VISUALISER, "serve", "--port", str(port), *urls], log,
                               env, ROOT)]
    try:
        servers.wait_until_answering(f"{base}/api/knowledgebases", processes[0], log)
        from rq import Worker

        connection = redis.Redis.from_url(redis_url)
        for number in range(workers):
            processes.append(servers.spawn([*VISUALISER, "worker", *urls],
                                           folder / f"worker-{workers}-{number}.log", env, ROOT))
        while Worker.count(connection=connection) < workers:  # all listening before t0
            time.sleep(0.1)
        status, kb = post_json(f"{base}/api/knowledgebases", {"name": "Burst"})
        assert status == 201, kb
        upload_url = f"{base}/api/knowledgebases/{kb['id']}/documents"

        def upload(pdf: Path) -> str:
            status, body = post_file(upload_url, pdf.read_bytes(), pdf.name)
            assert status == 202, body
            return json.loads(body)["id"]

        start = time.monotonic()
        names = {upload(pdfs[0]): pdfs[0].name}
        with ThreadPoolExecutor(len(pdfs) - 1) as pool:
            names.update(zip(pool.map(upload, pdfs[1:]), (p.name for p in pdfs[1:]),
                             strict=True))
        ready: dict[str, float] = {}
        while len(ready) < len(names):
            with urllib.request.urlopen(f"{upload_url}", timeout=30) as response:
                listing = json.loads(response.read())["documents"]
            now = time.monotonic() - start
            for doc in listing:
                assert doc["state"] != "failed", doc
                if doc["state"] == "ready" and doc["id"] not in ready:
                    ready[doc["id"]] = now
            assert now < 900, f"not done after 900 s: {len(ready)} of {len(names)}"
            time.sleep(0.1)
    finally:
        for process in reversed(processes):
            servers.stop(process)
    small = [t for doc_id, t in ready.items() if pages[names[doc_id]] <= SMALL_PAGES]
    long_id = next(d for d, n in names.items() if n == pdfs[0].name)
    return {"all": max(ready.values()), "first_small": min(small),
            "median_small": statistics.median(small), "all_small": max(small),
            "long": ready[long_id]}


def split_check(pdf: Path, repeat: int = 3) -> None:
    """Could page ranges on two workers beat one worker on this machine?"""
    from visualiser.layout import LayoutOptions
    from visualiser.layout.build import build_layout
    from visualiser.layout.pages import read_pages
    from visualiser.pipeline import chunk_report, process_pdf

    data = pdf.read_bytes()
    one = statistics.median(_seconds(lambda: read_pages(data, LayoutOptions())) for _ in
                            range(repeat))
    two = statistics.median(_seconds(lambda: read_pages(data, LayoutOptions(workers=2)))
                            for _ in range(repeat))
    pages = read_pages(data, LayoutOptions())
    build = statistics.median(_seconds(lambda: build_layout(pages)) for _ in range(repeat))
    processed = process_pdf(data, pdf.name)
    chunking = statistics.median(_seconds(lambda: chunk_report(processed, "structure_aware"))
                                 for _ in range(repeat))
    whole = one + build + chunking
    print(f"\nsplitting {pdf.name} into page ranges, medians of {repeat}:")
    print(f"  reading its pages, 1 process:      {one:6.1f} s")
    print(f"  reading its pages, 2 processes:    {two:6.1f} s  ({one / two:.2f}x)")
    print(f"  making the layout (not splittable): {build:5.1f} s")
    print(f"  chunking it (not splittable):      {chunking:6.1f} s")
    print(f"  the whole job: {whole:.1f} s; split in two at best {whole - one + two:.1f} s "
          f"({whole / (whole - one + two):.2f}x)")


def _seconds(run) -> float:  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--long", type=Path, default=CORPUS_LONG if CORPUS_LONG.is_file()
                        else None, help="the long document (default: DA-619p, else generated)")
    parser.add_argument("--repeat", type=int, default=1, help="runs per row (medians)")
    parser.add_argument("--split", action="store_true",
                        help="also measure whether page ranges read in parallel pay")
    args = parser.parse_args()
    for reason in (servers.postgres_missing(), servers.redis_missing()):
        if reason:
            sys.exit(f"bench_team needs PostgreSQL and Redis: {reason}")
    folder = Path(tempfile.mkdtemp(prefix="bench-team-"))
    pdfs = documents(folder, args.long)
    pages = {p.name: page_count(p) for p in pdfs}
    small = sum(1 for n in pages.values() if n <= SMALL_PAGES)
    print(f"{len(pdfs)} documents, {sum(pages.values())} pages: {pdfs[0].name} "
          f"({pages[pdfs[0].name]} pages) sent first, then {len(pdfs) - 1} at once "
          f"({small} of ≤ {SMALL_PAGES} pages); {os.cpu_count()} cores")
    print(f"{'scheduling':>15} {'workers':>7} {'all ready':>10} {'1st small':>10} "
          f"{'median small':>13} {'all small':>10} {'long':>8}   (medians of {args.repeat})")
    results: dict[tuple[str, int], dict[str, float]] = {}
    with servers.postgres_server() as postgres, servers.redis_server() as redis_url:
        for workers in args.workers:
            for scheduling in SCHEDULINGS:
                runs = [run(workers, scheduling, pdfs, pages, postgres, redis_url, folder)
                        for _ in range(args.repeat)]
                r = {key: statistics.median(x[key] for x in runs) for key in runs[0]}
                results[scheduling, workers] = r
                print(f"{scheduling:>15} {workers:>7} {r['all']:>9.1f}s "
                      f"{r['first_small']:>9.1f}s {r['median_small']:>12.1f}s "
                      f"{r['all_small']:>9.1f}s {r['long']:>7.1f}s", flush=True)
    for workers in args.workers:
        fifo, first = results["one FIFO queue", workers], results["small first", workers]
        one = results["small first", args.workers[0]]["all"]
        print(f"{workers} worker(s): first small document {fifo['first_small']:.1f} s → "
              f"{first['first_small']:.1f} s ({fifo['first_small'] / first['first_small']:.1f}x"
              f" sooner); all ready {one / first['all']:.2f}x the speed of "
              f"{args.workers[0]} worker(s)")
    if args.split:
        split_check(pdfs[0])


if __name__ == "__main__":
    main()

"""A team server under a burst of uploads: 20 documents (one of ~600 pages, the rest
1 to 60 pages) sent at once to `visualiser serve` on a throwaway PostgreSQL + Redis,
processed by 1, 2 and 4 `visualiser worker`s. A script, not a test:

    .venv/bin/python bench/bench_team.py [--workers 1 2 4] [--long FILE.pdf]

For each number of workers, on a fresh store and queue: the seconds from the first
upload until every document is ready, until the first small document (≤ 10 pages) is
ready, until every small one is, and until the long one is. The long document is sent
first (answered before the 19 others go at once): the worst case for the small ones,
which must not wait behind it. It is `unstructured__DA-619p.pdf` of the corpus
(`../shared/corpus` or `VISUALISER_CORPUS`) when present, a real 619-page document,
else a generated 600-page one.
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


def run(workers: int, pdfs: list[Path], pages: dict[str, int], postgres: str, redis_url: str,
        folder: Path) -> dict[str, float]:
    import redis

    redis.Redis.from_url(redis_url).flushdb()
    data_dir = folder / f"data-{workers}"
    urls = ["--database", servers.new_schema(postgres), "--queue", redis_url,
            "--data-dir", str(data_dir)]
    env = {"XDG_CACHE_HOME": str(folder / "xdg-cache"), "XDG_DATA_HOME": str(folder / "xdg")}
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--long", type=Path, default=CORPUS_LONG if CORPUS_LONG.is_file()
                        else None, help="the long document (default: DA-619p, else generated)")
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
    print(f"{'workers':>7} {'all ready':>10} {'1st small':>10} {'median small':>13} "
          f"{'all small':>10} {'long':>8}")
    with servers.postgres_server() as postgres, servers.redis_server() as redis_url:
        results = {}
        for workers in args.workers:
            r = run(workers, pdfs, pages, postgres, redis_url, folder)
            results[workers] = r
            print(f"{workers:>7} {r['all']:>9.1f}s {r['first_small']:>9.1f}s "
                  f"{r['median_small']:>12.1f}s {r['all_small']:>9.1f}s {r['long']:>7.1f}s",
                  flush=True)
    first = results[args.workers[0]]["all"]
    for workers, r in results.items():
        print(f"all ready, {workers} worker(s) vs {args.workers[0]}: "
              f"{first / r['all']:.2f}x faster")


if __name__ == "__main__":
    main()

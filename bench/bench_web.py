"""How fast the web viewer answers. A script, not a test:

    python bench/bench_web.py [--repeat 5] [--long-pages 600] [--long-repeat 3]
    python bench/bench_web.py --browser [PDF] [--repeat 3] [--server waitress|werkzeug]

Every figure is the median of several runs, each on a fresh app (so nothing is cached
unless the line says so), measured through Flask's test client, i.e. including
routing and JSON encoding but not the network. Ratios are against a baseline measured
in the same run on the same machine: PyMuPDF opening the file and extracting every
page's words, the least any layout-based viewer must do.

`--browser` measures in the real browser instead (Debian's chromium driven by
Playwright, launched as tests/conftest_web.py does, against `visualiser serve` in its
own process (waitress, as users run it; `--server werkzeug`: werkzeug's threaded test
server in the bench's process, as the browser tests have it):
PDF (default: the corpus's 619-page DA-619p) is uploaded to a knowledgebase and
processed once, and the server computes every strategy's default report of it in the
background (`visualiser.previews`; timed until the document API says all are ready,
when it says so: the viewer before them did not); then, per run, a new server on the
same store and cache (a restart: nothing in memory) and a new browser context (nothing
in its cache) time the first view to the first page with boxes, the first strategy
switch, a second strategy, a warm switch (back to a report already shown), a page
jump, and a first switch to each of the other strategies (their median and slowest).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pymupdf

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.conftest_web import make_long_pdf  # noqa: E402
from visualiser.resources import samples_dir  # noqa: E402
from visualiser.web import create_app  # noqa: E402

CORPUS = Path(os.environ.get("VISUALISER_CORPUS") or ROOT.parent / "shared" / "corpus")
DEFAULT_BROWSER_PDF = CORPUS / "unstructured__DA-619p.pdf"


def median_seconds(
    run: Callable[[], object], repeat: int, setup: Callable[[], object] | None = None
) -> float:
    times = []
    for _ in range(repeat):
        if setup is not None:
            setup()
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def page_count(path: Path) -> int:
    with pymupdf.open(path) as document:
        return document.page_count


def baseline(data: bytes) -> None:
    with pymupdf.open(stream=data, filetype="pdf") as document:
        for page in document:
            page.get_text("words")



class Fresh:
    """A fresh app (empty caches) on a fresh cache directory, per repetition."""

    def __init__(self, samples: Path, scratch: Path) -> None:
        self.samples, self.scratch, self.count = samples, scratch, 0
        self.client = None

    def __call__(self) -> None:
        self.count += 1
        app = create_app({
            "SAMPLES_DIR": self.samples,
            "CACHE_DIR": self.scratch / f"cache{self.count}",
            "DATABASE": self.scratch / f"kb{self.count}.sqlite",  # not the user's own
        })
        self.client = app.test_client()

    def get(self, url: str) -> bytes:
        response = self.client.get(url)
        if response.status_code != 200:
            raise SystemExit(f"{url} answered {response.status_code}: {response.data[:300]!r}")
        data = response.data
        response.close()
        return data


def document_id(fresh: Fresh, name: str) -> str:
    fresh()
    documents = fresh.client.get("/api/documents").get_json()["documents"]
    return next(d["id"] for d in documents if d["name"] == name)


def row(label: str, seconds: float, base: float | None = None) -> None:
    ratio = f"{seconds / base:8.1f}x" if base else " " * 9
    print(f"  {label:<58} {seconds * 1000:10.1f} ms {ratio}")


def bench_samples(scratch: Path, repeat: int) -> None:
    largest, pages = max(
        ((path, page_count(path)) for path in samples_dir().glob("*.pdf")),
        key=lambda item: (item[1], item[0].stat().st_size),
    )
    data = largest.read_bytes()
    print(f"Largest sample: {largest.name} ({len(data) / 1024:.0f} KB, {pages} pages)")
    fresh = Fresh(samples_dir(), scratch)
    doc = document_id(fresh, largest.name)
    chunks = f"/api/documents/{doc}/chunks"

    base = median_seconds(lambda: baseline(data), repeat)
    row("baseline: PyMuPDF open + words of every page", base, base)
    row(
        "first view: viewer page + chunks JSON (process + report)",
        median_seconds(
            lambda: (fresh.get(f"/documents/{doc}"), fresh.get(f"{chunks}?strategy=token_based")),
            repeat,
            setup=fresh,
        ),
        base,
    )

    def warm() -> None:
        fresh()
        fresh.get(f"{chunks}?strategy=token_based")

    row(
        "strategy switch: chunks JSON from the cached layout",
        median_seconds(lambda: fresh.get(f"{chunks}?strategy=structure_aware"), repeat, warm),
        base,
    )
    row(
        "same report again (memoised)",
        median_seconds(lambda: fresh.get(f"{chunks}?strategy=token_based"), repeat, warm),
        base,
    )
    page_url = f"/api/documents/{doc}/pages/1.png?scale=1.25"
    row(
        "page image, rendered (scale 1.25)",
        median_seconds(lambda: fresh.get(page_url), repeat, fresh),
        base,
    )
    row(
        "page image, from the disk cache", median_seconds(lambda: fresh.get(page_url), repeat), base
    )


def bench_long(scratch: Path, pages: int, repeat: int) -> None:
    samples = scratch / "long"
    samples.mkdir()
    path = samples / f"synthetic_{pages}_pages.pdf"
    make_long_pdf(path, pages, table_every=10)
    data = path.read_bytes()
    print(f"\nSynthetic document: {path.name} ({len(data) / 2**20:.1f} MB, {pages} pages)")
    fresh = Fresh(samples, scratch)
    doc = document_id(fresh, path.name)
    chunks = f"/api/documents/{doc}/chunks?strategy=structure_aware"

    base = median_seconds(lambda: baseline(data), repeat)
    row("baseline: PyMuPDF open + words of every page", base, base)
    viewer = median_seconds(lambda: fresh.get(f"/documents/{doc}"), repeat, fresh)
    row("viewer page (placeholders for every page), cold", viewer, base)
    sizes: list[int] = []
    row(
        "chunks JSON, cold (layout of every page + report)",
        median_seconds(lambda: sizes.append(len(fresh.get(chunks))), repeat, fresh),
        base,
    )
    row("chunks JSON, memoised", median_seconds(lambda: fresh.get(chunks), repeat), base)
    other = chunks.replace("structure_aware", "token_based")
    row(
        "strategy switch (token_based from the cached layout)",
        median_seconds(lambda: fresh.get(other), 1),
        base,
    )
    row(
        f"page image {pages // 2}, rendered (scale 1.25)",
        median_seconds(
            lambda: fresh.get(f"/api/documents/{doc}/pages/{pages // 2}.png?scale=1.25"), 1
        ),
        base,
    )
    print(f"  chunks JSON size: {sizes[-1] / 2**20:.2f} MB")


BUDGET = 10.0  # seconds: the app's REPORT_TIME_BUDGET default, as `visualiser serve` has it
SERVERS = {"waitress": "`visualiser serve`, waitress",
           "werkzeug": "werkzeug's threaded test server, in the bench's process"}


class Refused(Exception):
    """The viewer showed an error instead of the report (e.g. past the time budget)."""


def _ready_with_boxes(tab, page: int) -> None:
    """Wait until the report is drawn: the viewer ready, `page` showing image and boxes;
    Refused with the viewer's message when it shows an error instead."""
    tab.wait_for_function(
        """(page) => {
             const viewer = document.querySelector('[data-testid="viewer"]');
             if (!viewer) return false;  // the page is still arriving
             const state = viewer.dataset.reportState;
             return state === "error" || (state === "ready" && document.querySelector(
               `section.page[data-page="${page}"][data-loaded] svg.overlay g.box`));
           }""", arg=page, timeout=300_000)
    if tab.get_attribute('[data-testid="viewer"]', "data-report-state") == "error":
        raise Refused(" ".join(tab.inner_text('[data-testid="error"]').split()))


def _timed(action: Callable[[], object], tab, page: int) -> float | str:
    """Seconds from `action` to the report drawn, or why it was not."""
    start = time.perf_counter()
    action()
    try:
        _ready_with_boxes(tab, page)
    except Refused as refused:
        return f"refused after {time.perf_counter() - start:.1f} s: {refused}"
    return time.perf_counter() - start


@dataclass
class Served:
    url: str


@contextlib.contextmanager
def served(scratch: Path, kind: str) -> Iterator[Served]:
    """The app on the store and cache in `scratch`: `visualiser serve` in a process of
    its own (waitress, as users run it, previews computed ahead), or werkzeug's
    threaded test server in this process (tests/conftest_web.py)."""
    cache = scratch / "cache"
    if kind == "werkzeug":
        from conftest_web import live_server  # on the path bench_browser set

        config = {"SAMPLES_DIR": samples_dir(), "CACHE_DIR": cache,
                  "DATABASE": scratch / "kb.sqlite", "REPORT_TIME_BUDGET": BUDGET,
                  "PRECOMPUTE_PREVIEWS": True}  # as `visualiser serve` has it
        with live_server(config) as server:
            yield Served(server.url)
        return
    # `serve` keeps its cache in $XDG_CACHE_HOME/chunk-visualiser: the same folder.
    cache.mkdir(exist_ok=True)
    xdg = scratch / "xdg"
    xdg.mkdir(exist_ok=True)
    if not (xdg / "chunk-visualiser").exists():
        (xdg / "chunk-visualiser").symlink_to(cache.resolve(), target_is_directory=True)
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    with (scratch / "server.log").open("ab") as log:
        server = subprocess.Popen(
            [sys.executable, "-m", "visualiser.cli", "serve", "--port", str(port),
             "--database", str(scratch / "kb.sqlite")],
            cwd=ROOT, env={**os.environ, "XDG_CACHE_HOME": str(xdg)}, stdout=log,
            stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(f"{url}/api/knowledgebases", timeout=5):
                    break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    log_file = scratch / "server.log"
                    raise SystemExit(f"the server did not start; see {log_file}") from None
                time.sleep(0.1)
        yield Served(url)
    finally:
        server.terminate()
        server.wait(30)


def bench_browser(scratch: Path, pdf: Path, repeat: int, server_kind: str) -> None:
    sys.path.insert(0, str(ROOT / "tests"))
    from conftest_web import CHROMIUM, LAUNCH_ARGS, VIEWPORT
    from playwright.sync_api import sync_playwright

    data = pdf.read_bytes()
    pages = page_count(pdf)
    jump = max(1, pages // 2)
    print(f"Browser (Debian chromium, headless, {VIEWPORT['width']}x{VIEWPORT['height']}): "
          f"{pdf.name}, {pages} pages, stored in a knowledgebase; medians of {repeat} runs, "
          f"each on a restarted server ({SERVERS[server_kind]}) and a fresh browser context")
    base = median_seconds(lambda: baseline(data), repeat)
    row("baseline: PyMuPDF open + words of every page", base, base)
    times: dict[str, list[float | str]] = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                             args=LAUNCH_ARGS)
        with served(scratch, server_kind) as server:
            context = browser.new_context(viewport=VIEWPORT, device_scale_factor=1)
            request = context.request
            known = request.get(f"{server.url}/api/knowledgebases").json()["knowledgebases"]
            kb = next((k for k in known if k["name"] == "bench"), None)
            if kb is None:
                kb = request.post(f"{server.url}/api/knowledgebases",
                                  data={"name": "bench"}).json()
            start = time.perf_counter()
            uploaded = request.post(
                f"{server.url}/api/knowledgebases/{kb['id']}/documents",
                multipart={"file": {"name": pdf.name, "mimeType": "application/pdf",
                                    "buffer": data}}).json()
            document = f"{server.url}/api/knowledgebases/{kb['id']}/documents/{uploaded['id']}"
            reused = uploaded["state"] == "ready"  # `--keep`: stored by an earlier run
            while (state := request.get(document).json()["state"]) == "processing":
                time.sleep(0.2)
            if state != "ready":
                raise SystemExit(f"processing ended {state}: {request.get(document).text()}")
            if not reused:
                row("upload to stored chunks (layout, first screen, chunks)",
                    time.perf_counter() - start, base)
            previews = request.get(document).json().get("previews")
            if previews is not None and not reused:  # a server that computes them ahead
                while previews["count"] < previews["total"]:
                    time.sleep(0.5)
                    previews = request.get(document).json()["previews"]
                row(f"upload to all {previews['total']} strategies' reports computed ahead",
                    time.perf_counter() - start, base)
            strategies = [s["name"] for s in request.get(
                f"{server.url}/api/strategies").json()["strategies"]]
            context.close()
        for _ in range(repeat):
            # a restart: same store and caches, nothing in memory
            with served(scratch, server_kind) as server:
                viewer = server.url + uploaded["links"]["viewer"]
                context = browser.new_context(viewport=VIEWPORT, device_scale_factor=1)
                tab = context.new_page()
                tab.set_default_timeout(120_000)
                got = {
                    "first view: page 1 with its boxes (stored chunks)":
                        _timed(lambda t=tab, u=viewer: t.goto(u, wait_until="commit"), tab, 1),
                    "first strategy switch (token_based; layout from the stored file)":
                        _timed(lambda t=tab: t.select_option(
                            '[data-testid="strategy-select"]', "token_based"), tab, 1),
                    "second strategy (structure_aware; layout in memory)":
                        _timed(lambda t=tab: t.select_option(
                            '[data-testid="strategy-select"]', "structure_aware"), tab, 1),
                    "warm switch (back to token_based, report made)":
                        _timed(lambda t=tab: t.select_option(
                            '[data-testid="strategy-select"]', "token_based"), tab, 1),
                    f"page jump (page {jump}, image and boxes)":
                        _timed(lambda t=tab: (t.fill('[data-testid="page-input"]', str(jump)),
                                              t.press('[data-testid="page-input"]', "Enter")),
                               tab, jump),
                }
                others = [_timed(lambda t=tab, name=name: t.select_option(
                    '[data-testid="strategy-select"]', name), tab, jump)
                    for name in strategies if name not in ("token_based", "structure_aware")]
                worked = [seconds for seconds in others if isinstance(seconds, float)]
                if len(worked) == len(others) and others:
                    got[f"each other strategy, first switch ({len(others)}): median"] = \
                        statistics.median(worked)
                    got[f"each other strategy, first switch ({len(others)}): slowest"] = \
                        max(worked)
                else:
                    got["each other strategy, first switch"] = next(
                        (s for s in others if isinstance(s, str)), "none")
                for label, seconds in got.items():
                    times.setdefault(label, []).append(seconds)
                context.close()
        browser.close()
    for label, runs in times.items():
        seconds = [r for r in runs if isinstance(r, float)]
        if len(seconds) == len(runs):
            row(label, statistics.median(seconds), base)
        else:
            print(f"  {label}: {len(runs) - len(seconds)} of {len(runs)} runs failed: "
                  f"{next(r for r in runs if isinstance(r, str))}")
            if seconds:
                row(f"  ...the runs that worked ({len(seconds)})", statistics.median(seconds), base)
    print(f"  (the server's time budget for one report: {BUDGET:.0f} s; the default)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--long-pages", type=int, default=600)
    parser.add_argument("--long-repeat", type=int, default=3)
    parser.add_argument("--browser", nargs="?", type=Path, const=DEFAULT_BROWSER_PDF,
                        help="time the viewer in chromium on this PDF, stored")
    parser.add_argument("--keep", type=Path, metavar="DIR",
                        help="with --browser: the store and caches in DIR, kept between "
                             "runs (the document is uploaded once), so that two versions "
                             "of the viewer can be timed alternately on the same store")
    parser.add_argument("--server", choices=sorted(SERVERS), default="waitress",
                        help="with --browser: the server the viewer is timed against")
    args = parser.parse_args()
    if args.browser and args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
        bench_browser(args.keep, args.browser, args.repeat, args.server)
        return
    if args.browser:
        with tempfile.TemporaryDirectory(prefix="bench-web-") as scratch:
            bench_browser(Path(scratch), args.browser, args.repeat, args.server)
        return
    print(
        f"Medians of {args.repeat} runs ({args.long_repeat} for the long document); "
        "ratio = time / baseline"
    )
    with tempfile.TemporaryDirectory(prefix="bench-web-") as scratch:
        bench_samples(Path(scratch), args.repeat)
        bench_long(Path(scratch), args.long_pages, args.long_repeat)


if __name__ == "__main__":
    main()

"""Hostile parameters against one document through the chunks API: for every strategy,
sizes at their minimum and overlaps at (and past) the limit, the way an attacker or a
careless user would call it. Prints each request's status, time and response size,
the slowest request, and the process's peak resident set.

    .venv/bin/python bench/bench_hostile.py            # a generated 20-page document
    .venv/bin/python bench/bench_hostile.py FILE.pdf   # any PDF

"Done when" for issue 8: no request over 10 s or 1 GB, whatever its parameters.
"""

from __future__ import annotations

import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.conftest_web import make_long_pdf  # noqa: E402
from visualiser.strategies import STRATEGIES  # noqa: E402
from visualiser.web import create_app  # noqa: E402


def hostile_params(name: str) -> list[dict[str, object]]:
    """Every size at its minimum, with no overlap, half and size − 1 for its overlap;
    then sizes doubling from the minimum until one is accepted."""
    cls = STRATEGIES[name]
    sizes = {p.name: p.minimum or 1 for p in cls.params
             if p.kind == "int" and "overlap" not in p.name}
    if not cls.sizing:
        overlaps = [p.name for p in cls.params if "overlap" in p.name]
        base = dict(sizes)
        return [base] + [{**base, o: 8} for o in overlaps]
    size_name, overlap_name, _ = cls.sizing
    size = sizes[size_name]
    tries = [{**sizes, overlap_name: size - 1}, {**sizes, overlap_name: size // 2},
             {**sizes, overlap_name: 0}]
    for factor in (2, 4, 8, 16, 32, 64):
        tries.append({**sizes, size_name: size * factor, overlap_name: size * factor // 2})
    return tries


def main() -> int:
    folder = Path(tempfile.mkdtemp(prefix="hostile-"))
    if len(sys.argv) > 1:
        pdf = Path(sys.argv[1])
    else:
        pdf = folder / "long.pdf"
        make_long_pdf(pdf, 20)
    samples = folder / "samples"
    samples.mkdir()
    (samples / pdf.name).write_bytes(pdf.read_bytes())
    app = create_app({"TESTING": True, "SAMPLES_DIR": samples, "CACHE_DIR": folder / "cache",
                      "DATABASE": folder / "kb.sqlite", "RESUME_PROCESSING": False})
    client = app.test_client()
    (doc,) = client.get("/api/documents").get_json()["documents"]
    print(f"{pdf.name}: {doc['page_count']} pages")
    started = time.perf_counter()
    client.get(f"/api/documents/{doc['id']}/chunks")  # the layout, once
    print(f"layout and first report: {time.perf_counter() - started:.2f} s\n")
    slowest = (0.0, "")
    for name in STRATEGIES:
        for params in hostile_params(name):
            query = "&".join(f"{k}={v}" for k, v in params.items())
            started = time.perf_counter()
            response = client.get(f"/api/documents/{doc['id']}/chunks?strategy={name}&{query}")
            seconds = time.perf_counter() - started
            body = response.get_json()
            what = (f"{len(body['chunks'])} chunks" if response.status_code == 200
                    else body["message"][:90])
            print(f"{response.status_code} {seconds:6.2f} s {len(response.data) / 1e6:6.2f} MB "
                  f"{name} {query}: {what}")
            slowest = max(slowest, (seconds, f"{name} {query}"))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\nslowest request: {slowest[0]:.2f} s ({slowest[1]}); peak RSS {peak:.0f} MB")
    app.extensions["visualiser"].close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

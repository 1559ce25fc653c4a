"""The long fuzz: N seeded mutations of the sample PDFs through `visualiser chunk`.

    .venv/bin/python bench/fuzz_pdfs.py --count 300 --seed 1

Prints how many runs gave valid JSON, a refusal (exit 2 with a message), and each kind
of failure (invalid JSON, a traceback, a hang over the timeout, another exit code),
the slowest run and the largest resident set of any run. Failing files are kept in
--keep (default: a temporary folder) with their outcome, to become regression tests.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.fuzzing import TIMEOUT, children_max_rss_mb, fuzz  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=TIMEOUT)
    parser.add_argument("--keep", type=Path, help="folder for the failing files")
    args = parser.parse_args()
    folder = args.keep or Path(tempfile.mkdtemp(prefix="fuzz-pdfs-"))
    folder.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    counts, failures, seconds = fuzz(args.count, args.seed, folder, args.timeout,
                                     with_times=True)
    elapsed = time.monotonic() - started
    print(f"{args.count} mutations (seed {args.seed}) in {elapsed:.0f} s")
    for kind in ("json", "refused", "invalid_json", "traceback", "hang"):
        print(f"  {kind:13} {counts.get(kind, 0)}")
    for kind, number in sorted(counts.items()):
        if kind not in ("json", "refused", "invalid_json", "traceback", "hang"):
            print(f"  {kind:13} {number}")
    print(f"  run time: median {statistics.median(seconds):.2f} s, max {max(seconds):.2f} s")
    print(f"  largest resident set of a run: {children_max_rss_mb():.0f} MB")
    for path, outcome in failures:
        print(f"FAIL {outcome.kind} {path}\n{outcome.detail}")
    if failures:
        print(f"failing files kept in {folder}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

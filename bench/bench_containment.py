"""Containment search: the near-linear `analysis.find_containment` against the quadratic
search it replaced (kept in tests/test_reliability_limits.py as the oracle), on the
windows of a long generated document. Prints medians and the ratio, and checks that
both find the same pairs.

    .venv/bin/python bench/bench_containment.py [--pages 120]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from timing import median  # noqa: E402

from tests.conftest_web import make_long_pdf  # noqa: E402
from tests.test_reliability_limits import quadratic_containment  # noqa: E402
from visualiser import analysis  # noqa: E402
from visualiser.pipeline import process_pdf  # noqa: E402
from visualiser.strategies import STRATEGIES  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pages", type=int, default=120)
    args = parser.parse_args()
    pdf = Path(tempfile.mkdtemp()) / "long.pdf"
    make_long_pdf(pdf, args.pages)
    doc = process_pdf(pdf.read_bytes(), pdf.name)
    for name, params in (("fixed_tokens", {"chunk_size": 32, "chunk_overlap": 16}),
                         ("fixed_chars", {"chunk_size": 200, "chunk_overlap": 100}),
                         ("token_based", {})):
        cls = STRATEGIES[name]
        chunks = cls().chunk(doc.source, cls.settings(params))
        placed = [analysis.Placed(i, c, 1, doc.source.words_of(c.text), [])
                  for i, c in enumerate(chunks)]
        assert analysis.find_containment(placed) == quadratic_containment(placed)
        fast = median(lambda p=placed: analysis.find_containment(p), 5)
        slow = median(lambda p=placed: quadratic_containment(p),
                              1 if len(placed) > 2000 else 3)
        print(f"{name} {params}: {len(placed):,} chunks; quadratic {slow:.3f} s, "
              f"near-linear {fast:.3f} s ({slow / fast:.0f}× faster)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

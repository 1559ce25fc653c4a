"""The one timing helper the benches share."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def median(run: Callable[[], object], repeat: int) -> float:
    """Seconds `run` takes, the median of `repeat` runs (this machine is shared)."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)

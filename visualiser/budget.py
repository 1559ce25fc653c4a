"""A time budget for one computation, checked where the work loops.

Python cannot stop a thread from outside, so long loops (placing chunks, finding
containment) call `check()`; past the deadline it raises OutOfTime (503), the
computation unwinds, and nothing half-made is cached. The deadline lives in a context
variable, so each request thread has its own.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from visualiser.errors import OutOfTime

_deadline: ContextVar[tuple[float, float] | None] = ContextVar("deadline", default=None)


@contextmanager
def time_budget(seconds: float | None) -> Iterator[None]:
    """Run the block under a budget of `seconds` (None or 0: no budget)."""
    if not seconds:
        yield
        return
    token = _deadline.set((time.monotonic() + seconds, seconds))
    try:
        yield
    finally:
        _deadline.reset(token)


def check(doing: str) -> None:
    deadline = _deadline.get()
    if deadline is not None and time.monotonic() > deadline[0]:
        raise OutOfTime(f"stopped after {deadline[1]:g} s while {doing}; choose settings that "
                        "make fewer, larger chunks, or try again when the server is less busy",
                        budget_seconds=deadline[1])

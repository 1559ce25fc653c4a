"""A time budget for one computation, checked where the work loops.

Python cannot stop a thread from outside, so long loops (placing chunks, finding
containment) call `check()`; past the deadline it raises OutOfTime, the
computation unwinds, and nothing half-made is cached. The same check stops the work
when the client that asked for it has gone (`watch_client`, fed by waitress's
`waitress.client_disconnected`). Both live in context variables, so each request
thread has its own.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar, Token

from visualiser.errors import ClientGone, OutOfTime

_deadline: ContextVar[tuple[float, float] | None] = ContextVar("deadline", default=None)
_client_gone: ContextVar[Callable[[], bool] | None] = ContextVar("client_gone", default=None)


def watch_client(gone: Callable[[], bool] | None) -> Token[Callable[[], bool] | None]:
    """Make `check()` stop work once `gone()` is true; reset with `unwatch(token)`."""
    return _client_gone.set(gone)


def unwatch(token: Token[Callable[[], bool] | None]) -> None:
    _client_gone.reset(token)


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
    gone = _client_gone.get()
    if gone is not None and gone():
        raise ClientGone(f"the client disconnected while the server was {doing}")
    deadline = _deadline.get()
    if deadline is not None and time.monotonic() > deadline[0]:
        raise OutOfTime(f"stopped after {deadline[1]:g} s while {doing}; choose settings that "
                        "make fewer, larger chunks, or try again when the server is less busy",
                        budget_seconds=deadline[1])

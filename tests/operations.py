"""Counting work instead of timing it, for the linear-growth tests: the Python lines a
call executes plus the C functions it calls (each comparison a quadratic step makes
is one or the other), and a layout repeated end to end to double an input.

Imported by the test modules (`tests/` is on sys.path under pytest's default import
mode); not a conftest plugin.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import replace
from types import FrameType
from typing import Any

from visualiser.layout.model import Layout


def count_operations(run: Callable[[], Any]) -> int:
    """How many Python lines and calls `run()` executes, and C functions it calls."""
    count = 0

    def trace(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal count
        count += 1  # "call", then one "line" per line executed, "return"
        return trace

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        nonlocal count
        if event == "c_call":
            count += 1

    previous_trace, previous_profile = sys.gettrace(), sys.getprofile()
    sys.settrace(trace)
    sys.setprofile(profile)
    try:
        run()
    finally:
        sys.settrace(previous_trace)
        sys.setprofile(previous_profile)
    return count


def repeated_layout(layout: Layout, times: int, distinct: bool = True) -> Layout:
    """`layout` `times` over, as one document: pages renumbered, ids shifted. With
    `distinct`, every word of copy k ends in k (three digits), so no two copies hold
    the same text: identical copies would make every chunk contained in its copies,
    a quadratic number of true answers that no algorithm finds in linear time."""
    out = Layout(pages=[], warnings=list(layout.warnings), engine=layout.engine)
    pages, words, lines, blocks = (len(layout.pages), len(layout.words), len(layout.lines),
                                   len(layout.blocks))
    for k in range(times):
        dp, dw, dl, db = k * pages, k * words, k * lines, k * blocks
        out.pages += [replace(p, number=p.number + dp) for p in layout.pages]
        mark = f"{k:03d}" if distinct else ""
        # a Word is a named tuple (`model.py`), not a dataclass
        out.words += [w._replace(id=w.id + dw, page=w.page + dp, line=w.line + dl,
                                 text=w.text + mark)
                      for w in layout.words]
        out.lines += [replace(line, id=line.id + dl, page=line.page + dp,
                              word_ids=tuple(i + dw for i in line.word_ids))
                      for line in layout.lines]
        out.blocks += [
            replace(b, id=b.id + db, page=b.page + dp,
                    line_ids=tuple(i + dl for i in b.line_ids),
                    table=None if b.table is None else replace(b.table, rows=tuple(
                        tuple(tuple(i + dw for i in cell) for cell in row)
                        for row in b.table.rows)))
            for b in layout.blocks]
    return out


def without_headings(layout: Layout) -> Layout:
    """The same layout with every heading a paragraph: one long section."""
    return replace(layout, blocks=[replace(b, kind="paragraph", level=0)
                                   if b.kind == "heading" else b for b in layout.blocks])

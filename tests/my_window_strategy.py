"""A strategy written the way a newcomer would add one, with its own overlap rule.

It lives in `tests/` to prove the contract: its module declares its rule (why-text and
which shared ground is intended) and nothing in `visualiser/analysis.py` knows of it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from visualiser.markdown import SourceMarkdown
from visualiser.strategies.base import Chunk, Context, Neighbour, Param, Rule, Strategy

REASON = "my_window_repeat"


def _why(o: Mapping[str, Any], c: Context) -> str:
    return (f"Word window {o['window']} of {o['of']}, {c.tokens} tokens; it repeats the last "
            f"{o['repeat']} words of the window before it on purpose.")


def _shares(mine: Neighbour, other: Neighbour) -> str | None:
    """Only its own neighbouring windows overlap on purpose."""
    neighbours = abs(mine.origin.get("window", 0) - other.origin.get("window", 0)) == 1
    return REASON if other.origin.get("rule") == "my_window" and neighbours else None


MY_WINDOW = Rule("my_window", _why, _shares)


class MyWindow(Strategy):
    name = "my_window"
    label = "Word windows (test strategy)"
    explanation = "Windows of a fixed number of words, each repeating a few of the last."
    rules = (MY_WINDOW,)
    params = (Param("words", "int", 60, "words per window", 4, 10_000),
              Param("repeat", "int", 15, "words repeated from the window before", 0, 5_000))

    def chunk(self, source: SourceMarkdown, settings: dict[str, Any]) -> list[Chunk]:
        words = [m.span() for m in re.finditer(r"\S+", source.text)]
        size, repeat = settings["words"], settings["repeat"]
        starts = range(0, max(len(words) - repeat, 1), size - repeat)
        return [Chunk(source.traced(words[s][0], words[min(s + size, len(words)) - 1][1]),
                      origin={"rule": "my_window", "window": n, "of": len(starts),
                              "repeat": repeat})
                for n, s in enumerate(starts, start=1)]

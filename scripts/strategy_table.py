"""The README's strategy table, made from the registry: every registered strategy's
name, label, explanation and parameters with their defaults, in the order the menus
list them.

    .venv/bin/python scripts/strategy_table.py          # rewrite the table in README.md
    .venv/bin/python scripts/strategy_table.py --check  # exit 1 if README.md is stale

tests/test_readme.py fails when the README's table is not this script's output, so a
strategy added (or its explanation changed) without rerunning it is caught.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from visualiser.strategies import STRATEGIES  # noqa: E402

README = REPO / "README.md"
BEGIN = "<!-- strategy table: made by scripts/strategy_table.py from the registry -->"
END = "<!-- end of strategy table -->"


def built_in() -> list[type]:
    """The project's own strategies (tests register theirs in the same registry)."""
    return [cls for cls in STRATEGIES.values() if cls.__module__.startswith("visualiser.")]


def table() -> str:
    rows = ["| name | label | what it does | parameters (defaults) |", "|---|---|---|---|"]
    for cls in built_in():
        params = ", ".join(f"`{p.name}={p.default}`" for p in cls.params)
        rows.append(f"| `{cls.name}` | {_cell(cls.label)} | {_cell(cls.explanation)} "
                    f"| {params} |")
    return "\n".join(rows)


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def with_table(readme: str) -> str:
    """`readme` with the text between the markers replaced by the table."""
    start, end = readme.index(BEGIN) + len(BEGIN), readme.index(END)
    return f"{readme[:start]}\n{table()}\n{readme[end:]}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="only say whether it is stale")
    args = parser.parse_args()
    current = README.read_text(encoding="utf-8")
    wanted = with_table(current)
    if args.check:
        if wanted != current:
            print("README.md's strategy table is stale: run scripts/strategy_table.py")
            return 1
        return 0
    README.write_text(wanted, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

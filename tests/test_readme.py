"""The README's strategy table is the registry's: every built-in strategy, with its
label, explanation and parameters as the code declares them."""

from __future__ import annotations

import importlib.util
import re

from tests.fuzzing import REPO
from visualiser.strategies import STRATEGIES


def _script():
    spec = importlib.util.spec_from_file_location("strategy_table",
                                                  REPO / "scripts" / "strategy_table.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_readme_strategy_table_is_made_from_the_registry():
    script = _script()
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert script.with_table(readme) == readme, (
        "README.md's strategy table is stale: run .venv/bin/python scripts/strategy_table.py")


def test_the_table_lists_every_built_in_strategy_once_in_registry_order():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index(_script().BEGIN):readme.index(_script().END)]
    listed = re.findall(r"^\| `([a-z_0-9]+)` \|", section, flags=re.MULTILINE)
    built_in = [name for name, cls in STRATEGIES.items()
                if cls.__module__.startswith("visualiser.")]
    assert listed == built_in and len(built_in) >= 9
    for name in built_in:
        row = next(line for line in section.splitlines() if line.startswith(f"| `{name}` |"))
        assert " ".join(STRATEGIES[name].explanation.split()) in row

"""Per-app state, kept on `app.extensions["visualiser"]` rather than in globals."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask import current_app

from visualiser.library import Library
from visualiser.render import PageImageCache
from visualiser.strategies import STRATEGIES, get_strategy

# Query-string names that belong to the view, not to the strategy's parameters.
VIEW_KEYS = frozenset({"strategy", "page", "chunk"})


@dataclass(slots=True)
class WebState:
    library: Library
    images: PageImageCache
    default_strategy: str

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> WebState:
        default = config["DEFAULT_STRATEGY"]
        if default not in STRATEGIES:  # fall back rather than refuse to start
            default = next(iter(STRATEGIES))
        return cls(
            library=Library(
                Path(config["SAMPLES_DIR"]),
                Path(config["CACHE_DIR"]) / "uploads",
                documents=config["DOCUMENT_CACHE_SIZE"],
                reports=config["REPORT_CACHE_SIZE"],
            ),
            images=PageImageCache(Path(config["CACHE_DIR"])),
            default_strategy=default,
        )


def state() -> WebState:
    return current_app.extensions["visualiser"]


def strategy_and_params(args: Mapping[str, str]) -> tuple[str, dict[str, str]]:
    """The strategy named in a query string (validated) and its raw parameters."""
    name = args.get("strategy") or state().default_strategy
    get_strategy(name)
    return name, {key: value for key, value in args.items() if key not in VIEW_KEYS}


def strategies() -> list[dict[str, Any]]:
    return [strategy.describe() for strategy in STRATEGIES.values()]

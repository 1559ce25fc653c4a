"""The knowledgebase chunking default, decided in one place.

Two rules, and their history. A knowledgebase created today gets `structure_aware`
unless its creator chooses otherwise — whichever path creates it (web form, JSON API,
CLI) calls `new_metadata`. A knowledgebase stored before the field existed was built
when absence meant `token_based`, so reading resolves absence to `token_based`: a
rebuild must never switch strategy under existing chunks.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from visualiser.strategies import get_strategy

DEFAULT_STRATEGY = "structure_aware"  # for knowledgebases created from now on
LEGACY_STRATEGY = "token_based"  # what a stored metadata without the field was built with


def new_metadata(strategy: str | None = None, params: Mapping[str, Any] | None = None,
                 **extra: Any) -> dict[str, Any]:
    """Metadata for a new knowledgebase; validates the strategy and its parameters."""
    name = strategy or DEFAULT_STRATEGY
    settings = get_strategy(name).settings(params)
    return {**extra, "chunking_strategy": name, "chunking_params": settings}


def strategy_in_effect(raw_metadata: str | None) -> str | None:
    """The strategy a stored knowledgebase chunks with; None when the metadata cannot
    be read (then nobody should guess, and the UI shows no banner)."""
    try:
        metadata = json.loads(raw_metadata) if raw_metadata is not None else None
    except (TypeError, ValueError):
        return None
    if not isinstance(metadata, dict):
        return None
    strategy = metadata.get("chunking_strategy", LEGACY_STRATEGY)
    return strategy if isinstance(strategy, str) else None


def params_in_effect(raw_metadata: str | None) -> dict[str, Any]:
    try:
        metadata = json.loads(raw_metadata) if raw_metadata is not None else {}
    except (TypeError, ValueError):
        return {}
    params = metadata.get("chunking_params") if isinstance(metadata, dict) else None
    return params if isinstance(params, dict) else {}

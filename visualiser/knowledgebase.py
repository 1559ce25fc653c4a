"""The knowledgebase chunking default, decided in one place.

Two rules, and their history. A knowledgebase created today gets `structure_aware`
unless its creator chooses otherwise — whichever path creates it (web form, JSON API,
CLI) calls `new_metadata`. A knowledgebase stored before the field existed was built
when absence meant `token_based`, so reading resolves absence to `token_based`: a
rebuild must never switch strategy under existing chunks.

The layout engine (and the OCR languages) are stored beside the strategy, by the same
two rules: a new knowledgebase gets `DEFAULT_LAYOUT` unless its creator chooses, and a
stored one without the field was read by the only engine there was then, `builtin`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from visualiser.layout import DEFAULT_OPTIONS, LayoutOptions, layout_options
from visualiser.strategies import get_strategy

DEFAULT_STRATEGY = "structure_aware"  # for knowledgebases created from now on
LEGACY_STRATEGY = "token_based"  # what a stored metadata without the field was built with
# builtin, not the ML engine, for new knowledgebases: the ML engine is an optional extra
# (130 MB) and, measured on the corpus (README, "Layout engines"), is better on tables
# and forms but not on headings, and 5-60× slower on text pages.
DEFAULT_LAYOUT = "builtin"
LEGACY_LAYOUT = "builtin"  # the only engine before the field existed


def new_metadata(strategy: str | None = None, params: Mapping[str, Any] | None = None,
                 *, layout: str | None = None, ocr_lang: str | None = None,
                 **extra: Any) -> dict[str, Any]:
    """Metadata for a new knowledgebase; validates the strategy and its parameters, the
    layout engine (it must run here) and the OCR languages."""
    name = strategy or DEFAULT_STRATEGY
    settings = get_strategy(name).settings(params)
    options = layout_options(layout or DEFAULT_LAYOUT, ocr_lang)
    return {**extra, "chunking_strategy": name, "chunking_params": settings,
            "layout": options.engine, "ocr_lang": options.ocr_lang}


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


def layout_in_effect(raw_metadata: str | None) -> LayoutOptions:
    """How a stored knowledgebase reads its documents' pages. Absent fields (and
    unreadable metadata) mean what they meant before the fields existed: builtin, eng.
    The engine is not checked here: a knowledgebase whose engine cannot run here says
    so when it processes a document."""
    try:
        metadata = json.loads(raw_metadata) if raw_metadata is not None else {}
    except (TypeError, ValueError):
        metadata = {}
    if not isinstance(metadata, dict):
        metadata = {}
    engine = metadata.get("layout", LEGACY_LAYOUT)
    langs = metadata.get("ocr_lang", DEFAULT_OPTIONS.ocr_lang)
    return LayoutOptions(engine if isinstance(engine, str) else LEGACY_LAYOUT,
                         ocr_lang=langs if isinstance(langs, str) else DEFAULT_OPTIONS.ocr_lang)

"""What a view shows — a strategy with its parameters, an imported chunks file, or a
knowledgebase document's stored chunks — read from a query string, validated, and
turned into a chunk report. The viewer, the chunks API and both sides of a
comparison go through here, so they accept and refuse exactly the same things."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Literal

from visualiser.errors import BadParameter
from visualiser.layout import DEFAULT_OPTIONS, LayoutOptions, layout_options
from visualiser.library import Entry, Report
from visualiser.strategies import get_strategy
from visualiser.web.imports import ImportedFile
from visualiser.web.state import VIEW_KEYS, state

IMPORT_PREFIX = "import:"
STORED = "stored"


@dataclass(frozen=True, slots=True)
class Source:
    kind: Literal["strategy", "import", "stored"]
    strategy: str | None = None
    params: Mapping[str, str] = field(default_factory=dict)
    imported: ImportedFile | None = None
    layout: LayoutOptions = DEFAULT_OPTIONS  # which engine reads the pages

    @property
    def value(self) -> str:
        """As a compare URL writes it: "token_based", "import:<sha256>" or "stored"."""
        if self.imported is not None:
            return IMPORT_PREFIX + self.imported.id
        return self.strategy or STORED


def strategy_source(name: str, params: Mapping[str, str]) -> Source:
    """A known strategy and its raw parameters; the parameters are checked by
    `check` (apart, so a page can still show a form with a bad value in it)."""
    get_strategy(name)  # UnknownStrategy, listing what there is
    return Source("strategy", name, dict(params))


def import_source(import_id: str, params: Mapping[str, str]) -> Source:
    if params:
        first = sorted(params)[0]
        raise BadParameter(first, "imported chunks take no parameters")
    return Source("import", imported=state().imports.get(import_id))


def check(source: Source) -> None:
    """BadParameter naming the first parameter that is unknown or out of range."""
    if source.kind == "strategy" and source.strategy:
        get_strategy(source.strategy).settings(source.params)


def layout_from_args(args: Mapping[str, str], default: LayoutOptions | None = None
                     ) -> LayoutOptions:
    """`layout=<engine>` (BadParameter listing the engines when unknown), else `default`
    (a knowledgebase's stored layout), else the app's."""
    base = default or state().default_layout
    name = args.get("layout")
    if not name or name == base.engine:
        return base
    return layout_options(name, base.ocr_lang, base.workers, base.ocr)


def from_args(args: Mapping[str, str], default: str | None = None,
              layout: LayoutOptions | None = None) -> Source:
    """The viewer's and the chunks API's query string: `strategy=…` and its parameters,
    or `import=<sha256>` alone; and `layout=…`, the engine that reads the pages."""
    params = {key: value for key, value in args.items() if key not in VIEW_KEYS}
    options = layout_from_args(args, layout)
    import_id = args.get("import")
    if import_id:
        if args.get("strategy"):
            raise BadParameter("import", "name a strategy or an imported file, not both")
        return replace(import_source(import_id, params), layout=options)
    source = strategy_source(args.get("strategy") or default or state().default_strategy, params)
    return replace(source, layout=options)


def from_value(value: str, params: Mapping[str, str], stored_ok: bool) -> Source:
    """One side of a comparison: a strategy name, "import:<sha256>" or "stored"."""
    if value.startswith(IMPORT_PREFIX):
        return import_source(value[len(IMPORT_PREFIX):], params)
    if value == STORED:
        if not stored_ok:
            raise BadParameter(
                "stored", "only a knowledgebase document has stored chunks; choose a strategy"
            )
        if params:
            raise BadParameter(sorted(params)[0], "the stored chunks take no parameters")
        return Source("stored")
    return strategy_source(value, params)


def report(entry: Entry, source: Source) -> Report:
    """The chunk report of a strategy or an import (stored chunks come from the store)."""
    library = state().library
    if source.imported is not None:
        imported = source.imported
        return library.imported(
            entry, imported.id, imported.name, lambda: state().imports.data(imported.id),
            source.layout,
        )
    assert source.strategy is not None, "stored chunks are read from the store"
    return library.report(entry, source.strategy, source.params, source.layout)

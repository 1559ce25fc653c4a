"""PDF → Layout. An engine (`engines.py`: `builtin` in `pages.py`,
`pymupdf-layout` in `ml.py`) reads the pages;
`build.py` turns what was read into words, lines and blocks."""

from __future__ import annotations

from visualiser.layout import ml, pages  # noqa: F401  (register the builtin and ML engines)
from visualiser.layout.build import build_layout
from visualiser.layout.engines import (
    DEFAULT_OPTIONS,
    ENGINES,
    LayoutOptions,
    Progress,
    describe_engines,
    get_engine,
    layout_options,
)
from visualiser.layout.items import PageRead
from visualiser.layout.model import Layout
from visualiser.layout.ocr import ocr_available

__all__ = ["DEFAULT_OPTIONS", "ENGINES", "LayoutOptions", "describe_engines", "extract_layout",
           "get_engine", "layout_options", "ocr_available"]


def extract_layout(data: bytes, options: LayoutOptions = DEFAULT_OPTIONS,
                   progress: Progress | None = None,
                   pages_read: list[PageRead] | None = None) -> Layout:
    """The layout of every page of the PDF `data`, in reading order; from `pages_read` when
    they were read before (a worker reading a long document in turns)."""
    engine = get_engine(options.engine)
    layout = build_layout(pages_read if pages_read is not None
                          else engine().read(data, options, progress))
    layout.engine = f"{engine.name} {engine.version()}"
    return layout

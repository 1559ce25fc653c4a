"""Per-app state, kept on `app.extensions["visualiser"]` rather than in globals."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask import current_app

from visualiser.errors import VisualiserError
from visualiser.layout import LayoutOptions, layout_options
from visualiser.library import Library
from visualiser.render import PageImageCache
from visualiser.store import Store, data_folders
from visualiser.strategies import STRATEGIES
from visualiser.web.imports import ImportFiles
from visualiser.web.jobs import Processor
from visualiser.workers import QueueProcessor

# Query-string names that belong to the view, not to the strategy's parameters.
VIEW_KEYS = frozenset({"strategy", "import", "page", "chunk", "layout"})


@dataclass(slots=True)
class WebState:
    library: Library
    images: PageImageCache
    store: Store
    processor: Processor | QueueProcessor
    imports: ImportFiles
    default_strategy: str  # what the samples' viewer opens with
    max_upload_pages: int
    default_layout: LayoutOptions  # the layout engine the samples' viewer opens with

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> WebState:
        default = config["DEFAULT_STRATEGY"]
        if default not in STRATEGIES:  # fall back rather than refuse to start
            default = next(iter(STRATEGIES))
        cache_dir, files = Path(config["CACHE_DIR"]), None
        if config.get("DATA_DIR"):  # one folder every web process and worker shares
            folders = data_folders(config["DATA_DIR"])
            cache_dir, files = folders["cache"], folders["pdfs"]
        library = Library(
            Path(config["SAMPLES_DIR"]),
            documents=config["DOCUMENT_CACHE_SIZE"],
            reports=config["REPORT_CACHE_SIZE"],
            time_budget=config.get("REPORT_TIME_BUDGET"),
            layout_dir=cache_dir / "layouts",
        )
        store = Store(config["DATABASE"], files)
        try:
            layout = layout_options(config["DEFAULT_LAYOUT"], workers=config["LAYOUT_WORKERS"])
        except VisualiserError:  # an engine that cannot run here: fall back, still start
            layout = layout_options(workers=config["LAYOUT_WORKERS"])
        library.layout_workers = layout.workers
        images = PageImageCache(cache_dir)
        return cls(
            library=library,
            images=images,
            store=store,
            processor=processor(config, store, library, layout.workers, images),
            imports=ImportFiles(cache_dir / "imports", int(config["MAX_IMPORT_BYTES"])),
            default_strategy=default,
            max_upload_pages=int(config["MAX_UPLOAD_PAGES"]),
            default_layout=layout,
        )

    def close(self) -> None:
        """Stop the worker and close cached documents (tests make many apps)."""
        self.processor.shutdown()
        self.images.close()
        self.store.close()


def processor(config: Mapping[str, Any], store: Store, library: Library,
              layout_workers: int, images: PageImageCache | None = None
              ) -> Processor | QueueProcessor:
    """The in-process worker (the default), or the queue the `visualiser worker`s take
    their jobs from when `QUEUE_URL` is set."""
    if config.get("QUEUE_URL"):
        return QueueProcessor(store, str(config["QUEUE_URL"]))
    return Processor(
        store, library, workers=config["PROCESSING_WORKERS"],
        lease_seconds=float(config.get("LEASE_SECONDS", 30)),
        sweep=bool(config.get("RESUME_PROCESSING", True)),
        layout_workers=layout_workers, images=images,
        previews=bool(config.get("PRECOMPUTE_PREVIEWS", True)),
    )


def state() -> WebState:
    return current_app.extensions["visualiser"]


def strategies() -> list[dict[str, Any]]:
    return [strategy.describe() for strategy in STRATEGIES.values()]

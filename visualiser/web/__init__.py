"""The web app: a thin shell over the pipeline. `create_app` builds a fresh app with
its own catalogue and image cache (no module-level state), so tests can make as many
as they like."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from flask import Flask, g, request
from jinja2 import FileSystemBytecodeCache

from visualiser import budget, knowledgebase, resources, store
from visualiser.pipeline import MAX_PAGES
from visualiser.web.api import api
from visualiser.web.compare_pages import compare_pages
from visualiser.web.errors import register_error_handler
from visualiser.web.kb_api import kb_api
from visualiser.web.kb_pages import kb_pages
from visualiser.web.pages import pages
from visualiser.web.security import LOCAL_NAMES, protect
from visualiser.web.state import WebState
from visualiser.web.uploads import StreamingRequest


def default_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "chunk-visualiser"


def watch_for_disconnects(app: Flask) -> None:
    """Long computations stop when their client has gone (waitress tells us)."""

    @app.before_request
    def _watch() -> None:
        gone = request.environ.get("waitress.client_disconnected")
        g.client_watch = budget.watch_client(gone if callable(gone) else None)

    @app.teardown_request
    def _unwatch(_: BaseException | None) -> None:
        token = g.pop("client_watch", None)
        if token is not None:
            budget.unwatch(token)


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    app = Flask(
        __name__,
        template_folder=str(resources.templates_dir()),
        static_folder=str(resources.static_dir()),
    )
    app.request_class = StreamingRequest  # uploads go to disk as they arrive
    app.config.from_mapping(
        SAMPLES_DIR=resources.samples_dir(),
        CACHE_DIR=default_cache_dir(),
        DATABASE=store.default_database(),  # knowledgebases; `serve --database` sets it
        # The samples' viewer opens with what new knowledgebases get: one source of truth.
        DEFAULT_STRATEGY=knowledgebase.DEFAULT_STRATEGY,
        MAX_CONTENT_LENGTH=64 * 1024 * 1024,  # bytes per upload request
        MAX_IMPORT_BYTES=16 * 1024 * 1024,  # an imported chunks file (JSON/JSONL)
        MAX_UPLOAD_PAGES=MAX_PAGES,
        PROCESSING_WORKERS=1,
        DEFAULT_LAYOUT="builtin",  # the samples' viewer; `serve --layout` sets it
        # processes reading the pages of one document (`serve --layout-workers`); None:
        # as measured for this machine's cores (layout.engines.default_workers)
        LAYOUT_WORKERS=None,
        # The heartbeat also takes up documents whose server died (`serve` starts it).
        RESUME_PROCESSING=True,
        # A team server: `serve --data-dir` (PDFs and caches shared by every process)
        # and `--queue redis://…` (documents processed by `visualiser worker`s, not here).
        DATA_DIR=None,
        QUEUE_URL=None,
        DOCUMENT_CACHE_SIZE=8,
        REPORT_CACHE_SIZE=64,
        REPORT_TIME_BUDGET=10.0,  # seconds for one chunk report; then 503
        # Once a document is processed, every strategy's default report is computed in
        # the background and kept beside its PDF (visualiser/previews.py).
        PRECOMPUTE_PREVIEWS=True,
        LEASE_SECONDS=30.0,  # a processing row is this server's for so long, renewed
        # Host names answered (DNS rebinding); None answers any. `serve` sets it.
        ALLOWED_HOSTS=list(LOCAL_NAMES),
    )
    if test_config:
        app.config.from_mapping(test_config)
    web_state = WebState.from_config(app.config)
    app.extensions["visualiser"] = web_state
    # Compiled templates kept on disk: a just-restarted server's first viewer page
    # would otherwise compile viewer.html and its macros (about 0.1 s) while it waits.
    templates = web_state.images.directory / "templates"
    templates.mkdir(parents=True, exist_ok=True)
    app.jinja_env.bytecode_cache = FileSystemBytecodeCache(str(templates))
    app.register_blueprint(pages)
    app.register_blueprint(kb_pages)
    app.register_blueprint(compare_pages)
    app.register_blueprint(api, url_prefix="/api")
    app.register_blueprint(kb_api, url_prefix="/api/knowledgebases")
    register_error_handler(app)
    protect(app)
    watch_for_disconnects(app)
    # Nothing starts here (no thread, no resumed queue): `serve` starts processing in
    # the one process that should (`start_processing`), a worker process its own.
    return app


def start_processing(app: Flask) -> int:
    """Process here: the in-process worker and the documents a stopped server left
    (when a queue is configured, only the latter are queued again for the workers)."""
    web_state: WebState = app.extensions["visualiser"]
    if app.config.get("QUEUE_URL"):
        return web_state.processor.resume()
    return web_state.processor.start()

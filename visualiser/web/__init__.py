"""The web app: a thin shell over the pipeline. `create_app` builds a fresh app with
its own catalogue and image cache (no module-level state), so tests can make as many
as they like."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from flask import Flask

from visualiser import knowledgebase, resources, store
from visualiser.pipeline import MAX_PAGES
from visualiser.web.api import api
from visualiser.web.compare_pages import compare_pages
from visualiser.web.errors import register_error_handler
from visualiser.web.kb_api import kb_api
from visualiser.web.kb_pages import kb_pages
from visualiser.web.pages import pages
from visualiser.web.state import WebState


def default_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "chunk-visualiser"


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    app = Flask(
        __name__,
        template_folder=str(resources.templates_dir()),
        static_folder=str(resources.static_dir()),
    )
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
        LAYOUT_WORKERS=1,  # processes reading the pages of one document; `serve --workers`
        RESUME_PROCESSING=True,  # re-queue documents a stopped server left unprocessed
        DOCUMENT_CACHE_SIZE=8,
        REPORT_CACHE_SIZE=64,
    )
    if test_config:
        app.config.from_mapping(test_config)
    web_state = WebState.from_config(app.config)
    app.extensions["visualiser"] = web_state
    app.register_blueprint(pages)
    app.register_blueprint(kb_pages)
    app.register_blueprint(compare_pages)
    app.register_blueprint(api, url_prefix="/api")
    app.register_blueprint(kb_api, url_prefix="/api/knowledgebases")
    register_error_handler(app)
    if app.config["RESUME_PROCESSING"]:
        web_state.processor.resume()
    return app

"""HTML pages: the index (samples and knowledgebases) and the samples' viewer. The
viewer page is cheap to serve (page sizes only); the chunks arrive afterwards from the
JSON API, so even a 600-page document opens at once while its layout is extracted."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template, request, url_for

from visualiser.web import sources
from visualiser.web.state import state, strategies
from visualiser.web.units import human_size
from visualiser.web.views import (
    creatable_strategies,
    default_choice_label,
    preloaded_images,
    strategy_status,
    viewer_config,
)

pages = Blueprint("pages", __name__)


@pages.app_template_filter("filesize")
def filesize_filter(size: int) -> str:
    return human_size(size)


def render_index(form: dict[str, Any] | None = None, error: str | None = None,
                 status: int = 200) -> tuple[str, int]:
    """The index; after a refused creation form, with its values and the reason."""
    store = state().store
    knowledgebases = [
        {
            "id": kb.id,
            "name": kb.name,
            "status": strategy_status(kb),
            "document_count": len(store.documents(kb.id)),
            "url": url_for("kb_pages.knowledgebase", kb_id=kb.id),
        }
        for kb in store.knowledgebases()
    ]
    html = render_template(
        "index.html",
        documents=state().library.documents(),
        strategies=strategies(),
        default_strategy=state().default_strategy,
        knowledgebases=knowledgebases,
        default_choice=default_choice_label(),
        creatable=creatable_strategies(),
        form=form or {},
        form_error=error,
    )
    return html, status


@pages.get("/")
def index() -> tuple[str, int]:
    return render_index()


@pages.get("/documents/<doc_id>")
def viewer(doc_id: str) -> str:
    entry = state().library.entry(doc_id)
    # An unknown strategy is a 400 page, an unknown import a 404 page; a bad parameter
    # is left to the chunks request, so the viewer opens and shows it on the form.
    source = sources.from_args(request.args)
    urls = {
        "chunks": url_for("api.chunks", doc_id=entry.id),
        # The JS substitutes the page number for the 0 (url_for needs an int).
        "page_image": url_for("api.page_image", doc_id=entry.id, number=0),
        "page_words": url_for("api.page_words", doc_id=entry.id, number=0),
        "export": url_for("api.export_chunks", doc_id=entry.id),
        "imports": url_for("api.add_import", doc_id=entry.id),
        "compare": url_for("compare_pages.sample", doc_id=entry.id),
    }
    return render_template(
        "viewer.html", entry=entry, config=viewer_config(entry, source, urls), stored=None,
        preload_images=preloaded_images(entry, urls["page_image"]),
    )

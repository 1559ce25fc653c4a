"""HTML pages for knowledgebases: the creation form's target, the knowledgebase page
(documents, states, upload area) and the viewer of a stored document.

The forms work without JavaScript (POST, then a 303 to the page to show); the page's
script enhances the upload with progress, drag and drop, and live processing state.
"""

from __future__ import annotations

from flask import Blueprint, current_app, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from visualiser.errors import VisualiserError
from visualiser.web import kb_actions, sources
from visualiser.web.errors import http_status
from visualiser.web.kb_api import stored_entry
from visualiser.web.pages import render_index
from visualiser.web.state import state
from visualiser.web.units import human_size
from visualiser.web.views import (
    document_dict,
    kb_dict,
    kb_label,
    preloaded_images,
    previews_status,
    viewer_config,
)

kb_pages = Blueprint("kb_pages", __name__)


@kb_pages.post("/knowledgebases")
def create() -> Response | tuple[str, int]:
    form = {"name": request.form.get("name", ""),
            "chunking_strategy": request.form.get("chunking_strategy", "")}
    try:
        kb = kb_actions.create(form["name"], form["chunking_strategy"],
                               layout=request.form.get("layout") or None)
    except VisualiserError as error:
        # Back to the form with what was typed and why it was refused.
        return render_index(form=form, error=error.message, status=http_status(error))
    return redirect(url_for("kb_pages.knowledgebase", kb_id=kb.id), code=303)


@kb_pages.get("/knowledgebases/<int:kb_id>")
def knowledgebase(kb_id: int) -> str:
    store = state().store
    kb = kb_dict(store.knowledgebase(kb_id), documents=store.documents(kb_id))
    limit = current_app.config.get("MAX_CONTENT_LENGTH")
    config = {
        "knowledgebase": {"id": kb["id"], "name": kb["name"]},
        "documents": kb["documents"],
        "max_upload_bytes": limit,
        "urls": {
            "knowledgebase": kb["links"]["self"],
            "documents": kb["links"]["documents"],
            "index": url_for("pages.index"),
        },
    }
    pages = f"{state().max_upload_pages} pages"
    limits = f"Up to {human_size(limit)} and {pages}" if limit else f"At most {pages}"
    return render_template(
        "knowledgebase.html", kb=kb, label=kb_label(kb["chunking_strategy"]), config=config,
        limits=limits,
    )


@kb_pages.post("/knowledgebases/<int:kb_id>/documents")
def upload(kb_id: int) -> Response:
    """The upload form without JavaScript; a refusal goes to the error page (files
    before it in the same form are kept)."""
    files = request.files.getlist("file") or [None]
    for upload in files:
        kb_actions.add_document(kb_id, upload)
    return redirect(url_for("kb_pages.knowledgebase", kb_id=kb_id), code=303)


@kb_pages.get("/knowledgebases/<int:kb_id>/documents/<doc_id>")
def viewer(kb_id: int, doc_id: str) -> str:
    store = state().store
    kb = store.knowledgebase(kb_id)
    entry = stored_entry(kb_id, doc_id, lenient=True)
    doc = document_dict(kb_id, store.document(kb_id, doc_id))
    # No strategy in the URL: the stored chunks. A strategy or an import: a preview
    # (validated here, so an unknown one is a 400/404 page rather than a broken viewer).
    previewing = request.args.get("strategy") or request.args.get("import")
    source = (sources.from_args(request.args, layout=kb.layout_options) if previewing
              else sources.Source("stored", layout=kb.layout_options))
    urls = {
        "chunks": doc["links"]["chunks"],
        "document": doc["links"]["self"],
        "page_image": url_for("kb_api.page_image", kb_id=kb_id, doc_id=doc_id, number=0),
        "page_words": url_for("kb_api.page_words", kb_id=kb_id, doc_id=doc_id, number=0),
        "export": url_for("kb_api.export_chunks", kb_id=kb_id, doc_id=doc_id),
        "knowledgebase": url_for("kb_pages.knowledgebase", kb_id=kb_id),
        "imports": url_for("kb_api.add_import", kb_id=kb_id, doc_id=doc_id),
        "compare": url_for("compare_pages.stored", kb_id=kb_id, doc_id=doc_id),
    }
    stored = {
        "knowledgebase": {"id": kb.id, "name": kb.name},
        "chunking_strategy": kb.chunking_strategy,
        "label": kb_label(kb.chunking_strategy),
        "state": doc["state"],
        "layout": kb.layout_options.engine,
        "previews": previews_status(kb, store.document(kb_id, doc_id)),
    }
    return render_template(
        "viewer.html", entry=entry, config=viewer_config(entry, source, urls, stored),
        stored=stored, kb_url=urls["knowledgebase"],
        # The stored chunks are asked for by the page itself, before its scripts load.
        early_chunks=None if previewing else urls["chunks"],
        preload_images=preloaded_images(entry, urls["page_image"]),
    )

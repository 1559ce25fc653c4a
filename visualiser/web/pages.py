"""HTML pages: the document list and the viewer. The viewer page is cheap to serve
(page sizes only); the chunks arrive afterwards from the JSON API, so even a
600-page document opens at once while its layout is being extracted."""

from __future__ import annotations

from flask import Blueprint, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from visualiser.errors import BadParameter
from visualiser.render import PALETTE
from visualiser.web.state import state, strategies, strategy_and_params

pages = Blueprint("pages", __name__)


def human_size(size: int) -> str:
    if size < 1024:
        return f"{size} bytes"
    if size < 1024 * 1024:
        return f"{size / 1024:.1f} KB"
    return f"{size / (1024 * 1024):.1f} MB"


@pages.app_template_filter("filesize")
def filesize_filter(size: int) -> str:
    return human_size(size)


@pages.get("/")
def index() -> str:
    return render_template(
        "index.html",
        documents=state().library.documents(),
        strategies=strategies(),
        default_strategy=state().default_strategy,
    )


@pages.post("/upload")
def upload() -> Response:
    upload = request.files.get("file")
    if upload is None or not upload.filename:
        raise BadParameter("file", "choose a PDF file to upload")
    entry = state().library.add(upload.read(), upload.filename)
    return redirect(url_for("pages.viewer", doc_id=entry.id), code=303)


@pages.get("/documents/<doc_id>")
def viewer(doc_id: str) -> str:
    entry = state().library.entry(doc_id)
    strategy, _ = strategy_and_params(request.args)  # an unknown strategy is a 400 page
    config = {
        "document": {
            **entry.to_dict(),
            "pages": [
                {"number": p.number, "width": p.width, "height": p.height} for p in entry.pages
            ],
        },
        "strategies": strategies(),
        "default_strategy": state().default_strategy,
        "strategy": strategy,
        "palette": list(PALETTE),
        "urls": {
            "chunks": url_for("api.chunks", doc_id=entry.id),
            # The JS substitutes the page number for the 0 (url_for needs an int).
            "page_image": url_for("api.page_image", doc_id=entry.id, number=0),
        },
    }
    return render_template("viewer.html", entry=entry, config=config)

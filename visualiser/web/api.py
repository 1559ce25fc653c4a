"""The JSON API for the bundled samples: documents, strategies, chunk reports and page
images. Knowledgebases have their own (`kb_api`)."""

from __future__ import annotations

import json
from pathlib import Path

from flask import Blueprint, Response, jsonify, request, url_for

from visualiser import export
from visualiser.errors import BadParameter, NotFound
from visualiser.layout import describe_engines
from visualiser.render import parse_scale
from visualiser.web import sources
from visualiser.web.reports import report_response
from visualiser.web.state import state, strategies

api = Blueprint("api", __name__)

# Page images are addressed by the SHA-256 of the file, so they never change.
IMAGE_MAX_AGE = 365 * 24 * 3600


def _document_dict(entry_id: str) -> dict[str, object]:
    entry = state().library.entry(entry_id)
    return {
        **entry.to_dict(),
        "pages": [
            {"number": p.number, "width": p.width, "height": p.height, "rotation": p.rotation}
            for p in entry.pages
        ],
        "links": {
            "viewer": url_for("pages.viewer", doc_id=entry.id),
            "chunks": url_for("api.chunks", doc_id=entry.id),
        },
    }


@api.get("/documents")
def documents() -> Response:
    return jsonify(
        documents=[
            {**entry.to_dict(), "links": {"viewer": url_for("pages.viewer", doc_id=entry.id)}}
            for entry in state().library.documents()
        ]
    )


@api.get("/documents/<doc_id>")
def document(doc_id: str) -> Response:
    return jsonify(_document_dict(doc_id))


@api.get("/strategies")
def list_strategies() -> Response:
    return jsonify(default=state().default_strategy, strategies=strategies())


@api.get("/layout-engines")
def layout_engines() -> Response:
    """The registry: names, labels, whether each can run here (and why not), version."""
    return jsonify(default=state().default_layout.engine, engines=describe_engines())


@api.get("/documents/<doc_id>/chunks")
def chunks(doc_id: str) -> Response:
    """`?strategy=…` and its parameters, or `?import=<sha256>` for an imported file;
    `&layout=…` names the layout engine."""
    entry = state().library.entry(doc_id)
    return report_response(sources.report(entry, sources.from_args(request.args)))


@api.get("/documents/<doc_id>/chunks/export")
def export_chunks(doc_id: str) -> Response:
    """The chunks of a view (`?strategy=…` or `?import=…`) as a file: `?format=` json,
    jsonl, langchain or llamaindex (visualiser/export.py)."""
    entry = state().library.entry(doc_id)
    args = request.args.to_dict()
    fmt = args.pop("format", "json")
    if fmt not in export.FORMATS:
        raise BadParameter("format", f"expected one of {', '.join(export.FORMATS)}, got {fmt!r}")
    report = json.loads(sources.report(entry, sources.from_args(args)).json_bytes())
    return export_response(report, fmt)


def export_response(report: dict, fmt: str) -> Response:
    response = Response(export.export(report, fmt), mimetype=export.MEDIA_TYPES[fmt])
    response.headers["Content-Disposition"] = (
        f'attachment; filename="{export.file_name(report, fmt)}"')
    return response


@api.post("/documents/<doc_id>/imports")
def add_import(doc_id: str) -> tuple[Response, int]:
    """Store a chunks file (multipart field `file`) for `?import=` views; 201 when new,
    200 when these bytes were imported before."""
    entry = state().library.entry(doc_id)  # an unknown document stores nothing
    imported, new = state().imports.receive(request.files.get("file"))
    links = {
        "viewer": url_for("pages.viewer", doc_id=entry.id, **{"import": imported.id}),
        "chunks": url_for("api.chunks", doc_id=entry.id, **{"import": imported.id}),
    }
    return jsonify({**imported.to_dict(), "links": links}), 201 if new else 200


@api.get("/documents/<doc_id>/pages/<int:number>.png")
def page_image(doc_id: str, number: int) -> Response:
    library = state().library
    entry = library.entry(doc_id)
    scale = parse_scale(request.args.get("scale"))
    if not 1 <= number <= entry.page_count:
        raise NotFound(f"page {number} does not exist; {entry.name} has {entry.page_count} pages")
    path = state().images.get(doc_id, lambda: library.pdf(entry), number, scale)
    return png_response(path)


@api.get("/documents/<doc_id>/pages/<int:number>/words")
def page_words(doc_id: str, number: int) -> Response:
    """The words of one page with their boxes (`[x0, top, x1, bottom, text]`, PDF points
    as displayed): what the viewer highlights search matches on."""
    library = state().library
    entry = library.entry(doc_id)
    if not 1 <= number <= entry.page_count:
        raise NotFound(f"page {number} does not exist; {entry.name} has {entry.page_count} pages")
    layout = library.processed(entry).layout
    words = [[*(round(v, 2) for v in w.bbox), w.text] for w in layout.words if w.page == number]
    return jsonify(page=number, words=words)


def png_response(path: Path) -> Response:
    """A cached page image. Its bytes are read into the response rather than streamed
    from an open file: the browser drops image requests for pages scrolled past, and a
    dropped stream left the file handle open in the development server."""
    response = Response(path.read_bytes(), mimetype="image/png")
    response.cache_control.max_age = IMAGE_MAX_AGE
    response.cache_control.public = True
    response.cache_control.immutable = True
    response.add_etag()
    return response.make_conditional(request)

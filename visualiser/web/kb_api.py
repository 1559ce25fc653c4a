"""The knowledgebase JSON API: knowledgebases, their documents, stored chunks (and
previews under another strategy, which change nothing stored) and page images."""

from __future__ import annotations

import json

from flask import Blueprint, Response, jsonify, request, url_for

from visualiser import export, ingest, stored_packed
from visualiser.errors import BadParameter, BadPdf, Conflict, NotFound
from visualiser.library import Entry
from visualiser.render import parse_scale
from visualiser.store import Store
from visualiser.web import kb_actions, sources
from visualiser.web.api import export_response, png_response
from visualiser.web.reports import report_response
from visualiser.web.state import state
from visualiser.web.views import document_dict, kb_dict, previews_status

kb_api = Blueprint("kb_api", __name__)



def stored_entry(kb_id: int, doc_id: str, lenient: bool = False) -> Entry:
    """Page sizes (and the file) of a knowledgebase document; 404 if it is not there.
    A file that cannot be read is BadPdf (422) with the reason — or, when `lenient`
    (the pages that show a document's state and its failure), an entry without pages."""
    web = state()
    doc = web.store.document(kb_id, doc_id)
    path = web.store.pdf_path(doc_id)
    try:
        return web.library.stored_entry(doc_id, doc["name"], path,
                                        web.store.document_folder(doc_id))
    except (BadPdf, OSError) as error:
        if not lenient:
            raise BadPdf(f"{doc['name']} cannot be shown: {_reason(error)}") from None
        return Entry(doc_id, doc["name"], int(doc["size"]), (), "knowledgebase", path)


def _reason(error: Exception) -> str:
    return error.message if isinstance(error, BadPdf) else f"its file cannot be read ({error})"


# --- knowledgebases -----------------------------------------------------------------


@kb_api.get("")
def knowledgebases() -> Response:
    store = state().store
    return jsonify(knowledgebases=[
        {**kb_dict(kb), "document_count": len(store.documents(kb.id))}
        for kb in store.knowledgebases()
    ])


@kb_api.post("")
def create() -> tuple[Response, int]:
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        raise BadParameter(
            "body", 'send a JSON object: {"name": ..., "chunking_strategy"?: ..., '
            '"chunking_params"?: {...}, "layout"?: ..., "ocr_lang"?: ...}')
    kb = kb_actions.create(
        body.get("name"), body.get("chunking_strategy"), body.get("chunking_params"),
        body.get("layout"), body.get("ocr_lang"),
    )
    return jsonify(kb_dict(kb, documents=[])), 201


@kb_api.get("/<int:kb_id>")
def knowledgebase(kb_id: int) -> Response:
    store = state().store
    return jsonify(kb_dict(store.knowledgebase(kb_id), documents=store.documents(kb_id)))


@kb_api.delete("/<int:kb_id>")
def delete_knowledgebase(kb_id: int) -> tuple[str, int]:
    state().store.delete_knowledgebase(kb_id)
    return "", 204


# --- documents ------------------------------------------------------------------------


@kb_api.get("/<int:kb_id>/documents")
def documents(kb_id: int) -> Response:
    store = state().store
    store.knowledgebase(kb_id)  # 404 for an unknown knowledgebase, not an empty list
    docs = [document_dict(kb_id, doc) for doc in store.documents(kb_id)]
    return jsonify(
        documents=docs, processing=sum(1 for doc in docs if doc["state"] == "processing")
    )


@kb_api.post("/<int:kb_id>/documents")
def upload(kb_id: int) -> tuple[Response, int]:
    admitted, doc = kb_actions.add_document(kb_id, request.files.get("file"))
    # 202: stored and queued, the chunks come later; 200: these bytes were already here.
    return jsonify(document_dict(kb_id, doc)), 202 if admitted.new else 200


@kb_api.get("/<int:kb_id>/documents/<doc_id>")
def document(kb_id: int, doc_id: str) -> Response:
    store = state().store
    doc = store.document(kb_id, doc_id)
    return jsonify({**document_dict(kb_id, doc),
                    "previews": previews_status(store.knowledgebase(kb_id), doc)})


@kb_api.delete("/<int:kb_id>/documents/<doc_id>")
def delete_document(kb_id: int, doc_id: str) -> tuple[str, int]:
    state().store.remove_document(kb_id, doc_id)
    return "", 204


@kb_api.get("/<int:kb_id>/documents/<doc_id>/chunks")
def chunks(kb_id: int, doc_id: str) -> Response:
    """The stored chunks; with `?strategy=…` (or `?import=<sha256>`) a preview computed
    from the stored PDF instead, marked `"preview": true`, which changes nothing stored."""
    web = state()
    if not any(request.args.get(key) for key in ("strategy", "import", "layout")):
        report, extra = stored_packed.stored_chunks(web.store, kb_id, doc_id)
        tokens = web.library.document_tokens(doc_id, *_tokenizer(web.store, kb_id),
                                             folder=web.store.document_folder(doc_id))
        if tokens is not None:  # known when this server has chunked the document
            extra["document_tokens"] = tokens
        return report_response(report, extra)
    kb = web.store.knowledgebase(kb_id)
    doc = web.store.document(kb_id, doc_id)
    # A preview reads the pages as the knowledgebase does unless `layout=` says otherwise;
    # `layout=` alone previews the stored strategy and parameters under another engine.
    source = sources.from_args(request.args, layout=kb.layout_options)
    if not (request.args.get("strategy") or request.args.get("import")) and kb.chunking_strategy:
        source = sources.Source("strategy", kb.chunking_strategy,
                                {k: str(v) for k, v in kb.chunking_params.items()},
                                layout=source.layout)
    if doc["state"] == "processing":
        # The worker is extracting this layout right now; a preview would do it twice.
        raise Conflict(f"{doc['name']} is still being processed; a preview is possible "
                       "once it is ready")
    report = sources.report(stored_entry(kb_id, doc_id), source)
    extra = {
        "preview": True,
        "knowledgebase": {"id": kb.id, "name": kb.name},
        "stored_strategy": kb.chunking_strategy,
        "stored_layout": kb.layout_options.engine,
    }
    return report_response(report, extra)


def _tokenizer(store: Store, kb_id: int) -> list[str]:
    """The stored chunks' tokenizer, from the knowledgebase's parameters (which made
    them) rather than from the report, which is not decoded to answer."""
    tokenizer = store.knowledgebase(kb_id).chunking_params.get("tokenizer")
    return [tokenizer] if isinstance(tokenizer, str) and tokenizer else []


@kb_api.get("/<int:kb_id>/documents/<doc_id>/chunks/export")
def export_chunks(kb_id: int, doc_id: str) -> Response:
    """The stored chunks (or, with `?strategy=…`/`?import=…`, a preview) as a file:
    `?format=` json, jsonl, langchain or llamaindex, as for a sample document."""
    args = request.args.to_dict()
    fmt = args.pop("format", "json")
    if fmt not in export.FORMATS:
        raise BadParameter("format", f"expected one of {', '.join(export.FORMATS)}, got {fmt!r}")
    if not (args.get("strategy") or args.get("import")):
        return export_response(ingest.stored_report(state().store, kb_id, doc_id), fmt)
    if state().store.document(kb_id, doc_id)["state"] == "processing":
        raise Conflict("the document is still being processed; export it once it is ready")
    report = sources.report(stored_entry(kb_id, doc_id), sources.from_args(args))
    return export_response(json.loads(report.json_bytes()), fmt)


@kb_api.get("/<int:kb_id>/documents/<doc_id>/pages/<int:number>/words")
def page_words(kb_id: int, doc_id: str, number: int) -> Response:
    """A stored document's words on one page, as `GET /api/documents/<id>/pages/<n>/words`."""
    web = state()
    if web.store.document(kb_id, doc_id)["state"] == "processing":
        raise Conflict("the document is still being processed; its words come once it is ready")
    entry = stored_entry(kb_id, doc_id)
    if not 1 <= number <= entry.page_count:
        raise NotFound(f"page {number} does not exist; {entry.name} has {entry.page_count} pages")
    # read as the knowledgebase reads its pages: the layout kept beside the PDF
    options = web.store.knowledgebase(kb_id).layout_options
    layout = web.library.processed(entry, options).layout
    words = [[*(round(v, 2) for v in w.bbox), w.text] for w in layout.words if w.page == number]
    return jsonify(page=number, words=words)


@kb_api.post("/<int:kb_id>/documents/<doc_id>/imports")
def add_import(kb_id: int, doc_id: str) -> tuple[Response, int]:
    """As `POST /api/documents/<id>/imports`, for a knowledgebase document; the import
    is shown as a preview and changes nothing stored."""
    state().store.document(kb_id, doc_id)  # 404 before anything is stored
    imported, new = state().imports.receive(request.files.get("file"))
    query = {"import": imported.id}
    links = {
        "viewer": url_for("kb_pages.viewer", kb_id=kb_id, doc_id=doc_id, **query),
        "chunks": url_for("kb_api.chunks", kb_id=kb_id, doc_id=doc_id, **query),
    }
    return jsonify({**imported.to_dict(), "links": links}), 201 if new else 200


@kb_api.get("/<int:kb_id>/documents/<doc_id>/pages/<int:number>.png")
def page_image(kb_id: int, doc_id: str, number: int) -> Response:
    web = state()
    entry = stored_entry(kb_id, doc_id)
    scale = parse_scale(request.args.get("scale"))
    if not 1 <= number <= entry.page_count:
        raise NotFound(f"page {number} does not exist; {entry.name} has {entry.page_count} pages")
    path = web.images.get(doc_id, lambda: web.library.pdf(entry), number, scale)
    return png_response(path)

"""Creating knowledgebases and adding documents: the steps shared by the HTML forms
and the JSON API, so both paths validate and default exactly alike."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from werkzeug.datastructures import FileStorage

from visualiser import ingest, knowledgebase
from visualiser.errors import BadParameter
from visualiser.library import safe_name
from visualiser.store import Knowledgebase
from visualiser.web.state import state
from visualiser.web.uploads import ReceivedFile, sent_name

MAX_NAME_LENGTH = 200


def create(name: Any, strategy: Any = None, params: Any = None, layout: Any = None,
           ocr_lang: Any = None) -> Knowledgebase:
    """A new knowledgebase. No strategy or layout (None or "") means the default,
    decided by `knowledgebase.new_metadata` and nowhere else."""
    if not isinstance(name, str) or not name.strip():
        raise BadParameter("name", "a knowledgebase needs a name")
    if len(name.strip()) > MAX_NAME_LENGTH:
        raise BadParameter("name", f"at most {MAX_NAME_LENGTH} characters, got {len(name)}")
    if strategy is not None and not isinstance(strategy, str):
        raise BadParameter("chunking_strategy", f"expected a strategy name, got {strategy!r}")
    if params is not None and not isinstance(params, Mapping):
        raise BadParameter(
            "chunking_params", "expected an object of parameter names and values"
        )
    for field, value in (("layout", layout), ("ocr_lang", ocr_lang)):
        if value is not None and not isinstance(value, str):
            raise BadParameter(field, f"expected a string, got {value!r}")
    metadata = knowledgebase.new_metadata(strategy or None, params, layout=layout or None,
                                          ocr_lang=ocr_lang or None)
    return state().store.create_knowledgebase(name, metadata)


def add_document(kb_id: int, upload: FileStorage | None) -> tuple[ingest.Admitted, dict[str, Any]]:
    """Validate and store an uploaded PDF (BadPdf with the reason, and nothing stored,
    when it is unusable) and queue it for processing when it is new."""
    if upload is None or not upload.filename:
        raise BadParameter("file", "send the PDF as a multipart form field named 'file'")
    web = state()
    received = upload.stream
    if isinstance(received, ReceivedFile):  # streamed to disk and hashed on arrival
        data: bytes | Path = received.finish()
        doc_id: str | None = received.sha256()
    else:
        data, doc_id = upload.read(), None
    admitted = ingest.admit(
        web.store, kb_id, data, safe_name(sent_name(upload.filename)),
        max_pages=web.max_upload_pages, doc_id=doc_id,
    )
    if admitted.new:
        web.processor.submit(kb_id, admitted.doc_id)
    return admitted, web.store.document(kb_id, admitted.doc_id)

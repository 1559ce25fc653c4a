"""A knowledgebase document's stored chunks as the API sends them, packed once
(`visualiser.packed`) and kept beside its PDF, so that opening the viewer reads one
file of a sixth of the JSON's size instead of decoding every stored chunk's fields
from the database and encoding them again (0.3 s for 1,451 chunks, every view).

What is kept follows from the chunk set and the knowledgebase's strategy alone
(`ingest.stored_body`); the document's state and the knowledgebase's name are added
to each response (`ingest.stored_state`). A kept file is named after the chunk set
it was made from (`Store.chunk_set_stamp`) and this program's source, so a re-chunk
or a new version of the program is never answered with the old one; the files of a
knowledgebase go when it, or the document, is removed (`Store._drop_kept`).
"""

from __future__ import annotations

import hashlib
import logging
from pathlib import Path
from typing import Any

from visualiser import ingest, packed, previews
from visualiser.library import Report
from visualiser.store import KEPT_FOLDER, Store

log = logging.getLogger(__name__)


def kept_path(store: Store, kb_id: int, doc_id: str, stamp: str) -> Path:
    key = hashlib.sha256(f"{previews.code_digest()}|{stamp}".encode()).hexdigest()[:20]
    return store.document_folder(doc_id) / KEPT_FOLDER / f"{kb_id}-{key}{previews.SUFFIX}"


def stored_chunks(store: Store, kb_id: int, doc_id: str) -> tuple[Report, dict[str, Any]]:
    """The stored report (packed, read from its file, or made and kept now) and the
    fields to add to it for this response."""
    kb = store.knowledgebase(kb_id)
    extra = ingest.stored_state(kb, store.document(kb_id, doc_id))
    stamp = store.chunk_set_stamp(kb_id, doc_id)
    if stamp is None:  # nothing stored yet (processing) or ever (failed)
        return Report(ingest.stored_body(kb, None)), extra
    path = kept_path(store, kb_id, doc_id, stamp)
    kept = packed.read_file(path)
    if kept is not None:
        return Report(packed=kept), extra
    # Read after the stamp: a re-chunk meanwhile makes what is read newer than the
    # name says, and a newer stamp is another name; an old body is never served.
    report = Report(ingest.stored_body(kb, store.chunk_set(kb_id, doc_id)))
    if packed.write_file(path, report.packed()):
        for other in path.parent.glob(f"{kb_id}-*{previews.SUFFIX}"):
            if other != path:
                other.unlink(missing_ok=True)
    return report, extra


def keep(store: Store, kb_id: int, doc_id: str) -> None:
    """Pack a just-processed document's stored chunks now, in the background, so that
    the first view reads them packed. Never raises: the view packs them otherwise."""
    try:
        if store.document(kb_id, doc_id)["state"] == "ready":
            stored_chunks(store, kb_id, doc_id)
    except Exception:  # deleted meanwhile, a full disk: the first view does it
        log.info("the stored chunks of %s were not packed ahead", doc_id, exc_info=True)

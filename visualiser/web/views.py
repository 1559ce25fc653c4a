"""What the pages and the JSON API say about knowledgebases and their documents: one
place that turns store rows into view data, so templates only loop and print."""

from __future__ import annotations

import math
import time
from typing import Any

from flask import current_app, request, url_for

from visualiser import knowledgebase, previews
from visualiser.layout import describe_engines
from visualiser.library import Entry
from visualiser.render import FIRST_SCREEN_PAGES, FIRST_SCREEN_SCALE, PALETTE
from visualiser.store import MAX_ATTEMPTS, QUEUE_OWNER, Knowledgebase
from visualiser.strategies import STRATEGIES
from visualiser.web.sources import Source
from visualiser.web.state import state, strategies


def default_choice_label() -> str:
    """The creation form's first option; the name comes from the one source of truth."""
    return f"Default ({knowledgebase.DEFAULT_STRATEGY.replace('_', '-')})"


def creatable_strategies() -> list[dict[str, str]]:
    """The form's other options: every registered strategy except the default, which
    the first option ("Default (…)", sending no strategy) already stands for."""
    return [
        {"name": cls.name, "label": cls.label}
        for cls in STRATEGIES.values()
        if cls.name != knowledgebase.DEFAULT_STRATEGY
    ]


def strategy_status(kb: Knowledgebase) -> dict[str, Any]:
    """The strategy in effect, where it comes from, and a sentence saying so.

    `source` is "stored" (the metadata names it), "legacy" (the metadata predates the
    field, so it reads as what absence meant then) or "unknown" (unreadable)."""
    strategy = kb.chunking_strategy
    metadata = kb.to_dict()["metadata"]
    if strategy is None:
        return {
            "strategy": None,
            "source": "unknown",
            "note": "unknown — the knowledgebase's stored metadata cannot be read, so its "
            "chunking strategy is unknown; documents added to it cannot be chunked.",
        }
    if isinstance(metadata, dict) and "chunking_strategy" in metadata:
        return {"strategy": strategy, "source": "stored", "note": f"stored: {strategy}"}
    return {
        "strategy": strategy,
        "source": "legacy",
        "note": f"reads as {strategy} — this knowledgebase predates the stored "
        f"chunking_strategy field, and knowledgebases without it were built with {strategy}.",
    }


def kb_label(strategy: str | None) -> str | None:
    cls = STRATEGIES.get(strategy or "")
    return cls.label if cls else None


# What the documents table says while a document is processed (knowledgebase.js too).
PHASE_TEXT = {
    "queued": "Queued · waiting for the uploads before it",
    "reading": "Processing · {percent} %",
    "chunking": "Processing · all pages read, chunking",
    "paused": "Paused at {percent} % · smaller uploads go first",
}


def processing_phase(kb_id: int, doc: dict[str, Any]) -> str:
    """What a document is waiting for, in the words the page shows: "queued" (behind
    other uploads), "reading" (its layout, with a progress), "chunking" (the layout is
    read; chunks are being made and stored), "paused" (a long document part-read,
    handed back to the queue while small ones go first), else its state ("ready",
    "failed")."""
    if doc["state"] != "processing":
        return str(doc["state"])
    if doc.get("lease_owner") == QUEUE_OWNER:
        return "paused"
    # Worked on here, or under another server's live lease (several servers may share
    # one database): being read. Otherwise it waits in a queue.
    leased = doc.get("lease_until") is not None and float(doc["lease_until"]) > time.time()
    if not (state().processor.is_running(kb_id, doc["id"]) or leased):
        return "queued"
    return "chunking" if float(doc["progress"]) >= 1 else "reading"


def attempts_text(doc: dict[str, Any]) -> str:
    """What the table says of a document a worker stopped on ("" when none did)."""
    attempts = int(doc.get("attempts") or 0)
    if attempts < 2:
        return ""
    if doc["state"] == "processing":
        return f"attempt {attempts} of {MAX_ATTEMPTS}: a worker stopped mid-job"
    return f"after {attempts} attempts"


def document_dict(kb_id: int, doc: dict[str, Any]) -> dict[str, Any]:
    return {
        "phase": processing_phase(kb_id, doc),
        "phase_text": PHASE_TEXT.get(processing_phase(kb_id, doc), "").format(
            percent=min(100, int(float(doc["progress"]) * 100))),
        "id": doc["id"],
        "name": doc["name"],
        "size": doc["size"],
        "page_count": doc["page_count"],
        "state": doc["state"],
        "progress": round(float(doc["progress"]), 4),
        "percent": min(100, int(float(doc["progress"]) * 100)),
        "error": doc["error"],
        # How many times a worker took it up: more than 1 means one died on it.
        "attempts": int(doc.get("attempts") or 0),
        "attempts_text": attempts_text(doc),
        "added_at": doc["added_at"],
        "links": {
            "self": url_for("kb_api.document", kb_id=kb_id, doc_id=doc["id"]),
            "viewer": url_for("kb_pages.viewer", kb_id=kb_id, doc_id=doc["id"]),
            "chunks": url_for("kb_api.chunks", kb_id=kb_id, doc_id=doc["id"]),
            "compare": url_for("compare_pages.stored", kb_id=kb_id, doc_id=doc["id"]),
        },
    }


def previews_status(kb: Knowledgebase, doc: dict[str, Any]) -> dict[str, Any]:
    """Which strategies' default reports of a stored document are computed ahead (a
    switch to them reads a file; the others are computed when chosen, as a preview
    with other parameters is), for the viewer and the document API."""
    ready = previews.status(state().store.document_folder(doc["id"]), doc["name"],
                            kb.layout_options) if doc["state"] == "ready" else {}
    names = [name for name, kept in ready.items() if kept]
    # `ahead`: this server has them computed after processing (`--no-previews` not)
    return {"ready": names, "count": len(names), "total": len(STRATEGIES),
            "ahead": bool(current_app.config.get("PRECOMPUTE_PREVIEWS", True))}


def kb_dict(kb: Knowledgebase, documents: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    status = strategy_status(kb)
    body: dict[str, Any] = {
        **kb.to_dict(),
        "chunking_params": kb.chunking_params,
        "strategy_source": status["source"],
        "strategy_note": status["note"],
        "links": {
            "self": url_for("kb_api.knowledgebase", kb_id=kb.id),
            "page": url_for("kb_pages.knowledgebase", kb_id=kb.id),
            "documents": url_for("kb_api.documents", kb_id=kb.id),
        },
    }
    if documents is not None:
        body["documents"] = [document_dict(kb.id, doc) for doc in documents]
    return body


def document_config(entry: Entry) -> dict[str, Any]:
    """The document as the viewer and the compare page lay out its page placeholders."""
    return {
        **entry.to_dict(),
        "pages": [{"number": p.number, "width": p.width, "height": p.height} for p in entry.pages],
    }


# What the viewer's page column leaves out of the window's width (static/css/app.css):
# the minimap (34 px), the side panel (460 px), the column's padding (16 px a side) and
# room for a scroll bar. A page narrower than what is left shows at the default zoom.
VIEWER_CHROME_PX = 34 + 460 + 2 * 16 + 20


def first_screen_images(entry: Entry, image_url: str, first: int) -> list[dict[str, str]]:
    """The page images the viewer's first screen will ask for, to be preloaded by the
    page's head: asked for while the stylesheet and scripts arrive instead of once the
    report is drawn (the images the processing rendered ahead, from the cache). Each
    is for the window it fits: at least as wide as the page at the default zoom, at
    one device pixel per CSS pixel; elsewhere the viewer asks for another scale."""
    first = min(max(first, 1), len(entry.pages) or 1)
    images = []
    for page in entry.pages[first - 1:first - 1 + FIRST_SCREEN_PAGES]:
        width = math.ceil(page.width * FIRST_SCREEN_SCALE) + VIEWER_CHROME_PX
        images.append({
            "href": f"{image_url.removesuffix('/0.png')}/{page.number}.png"
                    f"?scale={FIRST_SCREEN_SCALE:g}",
            "media": f"(min-width: {width}px) and (resolution: 1dppx)",
        })
    return images


def preloaded_images(entry: Entry, image_url: str) -> list[dict[str, str]]:
    """The first screen's images for this request's view (`page=`), none when the URL
    sets a zoom (the images are then at another scale)."""
    if request.args.get("zoom"):
        return []
    return first_screen_images(entry, image_url, request.args.get("page", 1, type=int))


def viewer_config(
    entry: Entry, source: Source, urls: dict[str, str], stored: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The viewer's JSON config. `stored` is set for a knowledgebase document: the
    viewer then opens on the stored chunks, and a chosen strategy is only a preview.
    `strategy` is a strategy name, "import:<sha256>", or "" for the stored chunks."""
    return {
        "document": document_config(entry),
        "strategies": strategies(),
        "strategy": "" if source.kind == "stored" else source.value,
        "layouts": describe_engines(),
        "layout": source.layout.engine,
        # What a URL without `layout=` means: the knowledgebase's engine or the app's.
        "default_layout": stored["layout"] if stored else state().default_layout.engine,
        # Names of the imported files the URL refers to, for the selector's label.
        "imports": [source.imported.to_dict()] if source.imported else [],
        "palette": list(PALETTE),
        "urls": urls,
        "stored": stored,
    }

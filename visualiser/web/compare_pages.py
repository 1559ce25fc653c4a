"""The side-by-side comparison of two chunkings of one document, for the bundled samples
and for knowledgebase documents (where a side may be the stored chunks).

The URL holds the whole view: `left=` and `right=` name each side (a strategy,
`import:<sha256>` or `stored`), each side's parameters are prefixed with its name
(`left.chunk_token_size=800`), and `page=` and `chunk=left:3` say where the reader is.
Like the viewer, the page is served from page sizes alone; each side's chunks come
from the ordinary chunks API afterwards.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, render_template, request, url_for

from visualiser.errors import BadParameter, SideError, VisualiserError
from visualiser.library import Entry
from visualiser.render import PALETTE
from visualiser.strategies import STRATEGIES
from visualiser.web import sources
from visualiser.web.errors import http_status
from visualiser.web.kb_api import stored_entry
from visualiser.web.state import state, strategies
from visualiser.web.views import document_config, document_dict, kb_label

compare_pages = Blueprint("compare_pages", __name__)

SIDES = ("left", "right")
VIEW_KEYS = frozenset({*SIDES, "page", "chunk", "fixture"})  # fixture: static/js/fixture.js


@dataclass(frozen=True, slots=True)
class Side:
    name: str
    source: sources.Source
    error: SideError | None  # a bad parameter: the page still opens, the side says why

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": self.source.value,
            "params": dict(self.source.params),
            "error": self.error.to_dict() if self.error else None,
        }


def default_sides(
    left: str | None, stored_strategy: str | None = None, stored: bool = False
) -> dict[str, str]:
    """What a comparison shows when the URL does not say. Left: the knowledgebase's
    stored chunks, or the default strategy. Right: for a knowledgebase, the stored
    chunks when the left shows something else; otherwise the other of the two main
    strategies, so "Compare with…" from a token_based view faces structure_aware."""
    left = left or (sources.STORED if stored else state().default_strategy)
    if stored and left != sources.STORED:
        return {"left": left, "right": sources.STORED}
    shown = stored_strategy if left == sources.STORED else left
    if shown not in STRATEGIES:  # an import, or unreadable knowledgebase metadata
        right = state().default_strategy
    else:
        right = "token_based" if shown != "token_based" else "structure_aware"
    if right not in STRATEGIES or right == shown:  # a registry without them
        right = next((name for name in STRATEGIES if name != shown), next(iter(STRATEGIES)))
    return {"left": left, "right": right}


def read_sides(args: Mapping[str, str], defaults: Mapping[str, str], stored_ok: bool) -> list[Side]:
    """Both sides from a query string. An unknown strategy or import is an error for
    the whole page (SideError); a bad parameter stays with its side."""
    stray = sorted(k for k in args if k not in VIEW_KEYS and not k.startswith(("left.", "right.")))
    if stray:
        raise BadParameter(
            stray[0], "not a comparison setting: name the sides with left= and right=, and "
            "their parameters as left.<name>= and right.<name>=")
    sides = []
    for name in SIDES:
        prefix = f"{name}."
        params = {k[len(prefix):]: v for k, v in args.items() if k.startswith(prefix)}
        try:
            source = sources.from_value(args.get(name) or defaults[name], params, stored_ok)
        except VisualiserError as error:
            raise SideError(name, error) from None
        try:
            sources.check(source)
            error = None
        except VisualiserError as problem:
            error = SideError(name, problem)
        sides.append(Side(name, source, error))
    return sides


def render_compare(
    entry: Entry,
    sides: list[Side],
    urls: dict[str, str],
    defaults: Mapping[str, str],
    stored: dict[str, Any] | None = None,
) -> tuple[str, int]:
    config = {
        "document": document_config(entry),
        "strategies": strategies(),
        "sides": {side.name: side.to_dict() for side in sides},
        "defaults": dict(defaults),
        "imports": [s.source.imported.to_dict() for s in sides if s.source.imported],
        "palette": list(PALETTE),
        "urls": urls,
        "stored": stored,
    }
    # A side with a bad parameter still gets the page (with that side's error and its
    # form to fix it), but the status says the link is not right.
    status = next((http_status(side.error) for side in sides if side.error), 200)
    html = render_template(
        "compare.html", entry=entry, config=config, sides=sides, stored=stored,
        kb_url=urls.get("knowledgebase"),
    )
    return html, status


@compare_pages.get("/documents/<doc_id>/compare")
def sample(doc_id: str) -> tuple[str, int]:
    entry = state().library.entry(doc_id)
    defaults = default_sides(request.args.get("left"))
    sides = read_sides(request.args, defaults, stored_ok=False)
    urls = {
        "chunks": url_for("api.chunks", doc_id=entry.id),
        "page_image": url_for("api.page_image", doc_id=entry.id, number=0),
        "imports": url_for("api.add_import", doc_id=entry.id),
        "viewer": url_for("pages.viewer", doc_id=entry.id),
        "diff": url_for("compare_pages.chunking_diff"),
    }
    return render_compare(entry, sides, urls, defaults)


@compare_pages.get("/knowledgebases/<int:kb_id>/documents/<doc_id>/compare")
def stored(kb_id: int, doc_id: str) -> tuple[str, int]:
    store = state().store
    kb = store.knowledgebase(kb_id)
    entry = stored_entry(kb_id, doc_id, lenient=True)
    doc = document_dict(kb_id, store.document(kb_id, doc_id))
    defaults = default_sides(request.args.get("left"), kb.chunking_strategy, stored=True)
    sides = read_sides(request.args, defaults, stored_ok=True)
    urls = {
        "chunks": doc["links"]["chunks"],
        "page_image": url_for("kb_api.page_image", kb_id=kb_id, doc_id=doc_id, number=0),
        "imports": url_for("kb_api.add_import", kb_id=kb_id, doc_id=doc_id),
        "viewer": doc["links"]["viewer"],
        "knowledgebase": url_for("kb_pages.knowledgebase", kb_id=kb_id),
        "diff": url_for("compare_pages.chunking_diff"),
    }
    info = {
        "knowledgebase": {"id": kb.id, "name": kb.name},
        "chunking_strategy": kb.chunking_strategy,
        "label": kb_label(kb.chunking_strategy),
        "state": doc["state"],
    }
    return render_compare(entry, sides, urls, defaults, stored=info)


@compare_pages.post("/api/diff")
def chunking_diff() -> Any:
    """What changed from `old` to `new` (two chunk reports, as the chunks API gives
    them): the compare page's "what changed between these two sides"."""
    from visualiser.regression.diff import diff_reports

    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        raise BadParameter("body", 'expected JSON {"old": report, "new": report}')
    for key in ("old", "new"):
        if not isinstance(body.get(key), dict) or not isinstance(body[key].get("chunks"), list):
            raise BadParameter(key, "expected a chunk report with a `chunks` list")
    try:
        return diff_reports(body["old"], body["new"])
    except (KeyError, TypeError, ValueError) as error:
        raise BadParameter("body", f"not a chunk report: {error}") from None

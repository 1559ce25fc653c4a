"""The pipeline end to end: PDF bytes → layout → markdown → chunks → regions → report.

`process_pdf` is the slow, once-per-file part; `chunk_report` re-chunks a processed
document with any strategy and settings, cheaply. Neither does network I/O and
neither knows about Flask; the web layer and the CLI are thin shells over them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import pymupdf

from visualiser import analysis, labels
from visualiser.align import regions_of
from visualiser.errors import BadPdf
from visualiser.imported import align as align_imported
from visualiser.imported import parse_chunks
from visualiser.layout import DEFAULT_OPTIONS, LayoutOptions, extract_layout
from visualiser.layout.model import Layout
from visualiser.markdown import SourceMarkdown, build_markdown
from visualiser.mupdf import LOCK
from visualiser.strategies import Chunk, get_strategy
from visualiser.tokenizers import DEFAULT_ENCODING, count_tokens

MAX_BYTES = 200 * 1024 * 1024
MAX_PAGES = 2000


@dataclass(slots=True)
class ProcessedDocument:
    id: str  # SHA-256 of the PDF bytes
    name: str
    pdf: bytes
    layout: Layout
    source: SourceMarkdown


def open_pdf(data: bytes, *, max_bytes: int = MAX_BYTES,
             max_pages: int = MAX_PAGES) -> pymupdf.Document:
    """Open `data` as a PDF, or raise BadPdf saying what is wrong with it. The caller
    uses the document under `visualiser.mupdf.LOCK`."""
    with LOCK:
        return _open_pdf(data, max_bytes=max_bytes, max_pages=max_pages)


def _open_pdf(data: bytes, *, max_bytes: int, max_pages: int) -> pymupdf.Document:
    if not data:
        raise BadPdf("the file is empty")
    if len(data) > max_bytes:
        raise BadPdf(f"the file is {len(data) / 2**20:.1f} MiB; the limit is "
                     f"{max_bytes / 2**20:.0f} MiB")
    if b"%PDF-" not in data[:1024]:
        raise BadPdf("this is not a PDF (no %PDF- header in its first bytes)")
    try:
        doc = pymupdf.open(stream=data, filetype="pdf")
    except (pymupdf.FileDataError, RuntimeError, ValueError) as exc:
        raise BadPdf(f"the PDF cannot be read: {exc}") from None
    if doc.needs_pass:
        raise BadPdf("the PDF is encrypted with a password; upload an unprotected copy")
    if doc.page_count == 0:
        raise BadPdf("the PDF has no pages (it may be truncated)")
    if doc.page_count > max_pages:
        raise BadPdf(f"the PDF has {doc.page_count} pages; the limit is {max_pages}")
    if doc.is_repaired and not any(page.get_text("text").strip() or page.get_images()
                                   for page in doc):
        raise BadPdf("the PDF is damaged (truncated or corrupt) and nothing could be "
                     "recovered from it")
    return doc


def process_pdf(data: bytes, name: str, *, options: LayoutOptions = DEFAULT_OPTIONS,
                max_bytes: int = MAX_BYTES,
                max_pages: int = MAX_PAGES,
                progress: Callable[[int, int], None] | None = None) -> ProcessedDocument:
    with LOCK:
        open_pdf(data, max_bytes=max_bytes, max_pages=max_pages).close()
    try:
        layout = extract_layout(data, options, progress)
    except (RuntimeError, ValueError) as exc:  # MuPDF errors on damaged content
        raise BadPdf(f"the PDF's content cannot be read: {exc}") from None
    return ProcessedDocument(hashlib.sha256(data).hexdigest(), name, data, layout,
                             build_markdown(layout))


def chunk_report(doc: ProcessedDocument, strategy: str,
                 params: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The chunks JSON (docs/chunks-json.md) for `doc` under `strategy`."""
    cls = get_strategy(strategy)
    settings = cls.settings(params)
    chunks = cls().chunk(doc.source, settings)
    about = {"name": cls.name, "label": cls.label, "explanation": cls.explanation,
             **analysis.banner(cls, settings, [c.chunk_type for c in chunks])}
    return _report(doc, chunks, about, settings, cls.sizing)


def imported_report(doc: ProcessedDocument, data: bytes, file_name: str,
                    encoding: str = DEFAULT_ENCODING) -> dict[str, Any]:
    """The chunks JSON for chunks made elsewhere (a JSON/JSONL file), aligned to `doc`."""
    chunks = align_imported(doc.source, parse_chunks(data))
    lost = sum(1 for c in chunks if c.origin["aligned"] < 0.5)
    banner = ("These chunks were made by another pipeline and placed on the page by "
              "matching their words; each box shows where a chunk's words were found.")
    if lost:
        banner += (f" {lost} of {len(chunks)} chunks could not be placed with confidence "
                   "(under half of their words found): their text may come from elsewhere.")
    about = {"name": "imported", "label": f"Imported chunks ({file_name})",
             "explanation": "Chunks read from a file and aligned to this document by words.",
             "banner": banner, "banner_parts": [{"text": banner}]}
    return _report(doc, chunks, about, {"file": file_name, "tokenizer": encoding})


def _report(doc: ProcessedDocument, chunks: list[Chunk], about: dict[str, Any],
            settings: dict[str, Any],
            sizing: tuple[str, str, str] | None = None) -> dict[str, Any]:
    encoding = settings.get("tokenizer", DEFAULT_ENCODING)
    placed = []
    for index, chunk in enumerate(chunks):
        if not chunk.heading_path:
            first = next((p for p in chunk.text.pos if p >= 0), None)
            if first is not None:
                chunk.heading_path = doc.source.heading_path_at(first)
        words = doc.source.words_of(chunk.text)
        placed.append(analysis.Placed(index, chunk, count_tokens(chunk.text.text, encoding),
                                      words, regions_of(words, doc.layout)))
    overlaps = analysis.find_overlaps(placed, doc.layout)
    containment = analysis.find_containment(placed)
    source_tokens = count_tokens(doc.source.text, encoding)
    report = {
        "document": {"id": doc.id, "name": doc.name, "page_count": len(doc.layout.pages)},
        "layout_engine": doc.layout.engine,
        "chunking_strategy": about["name"],
        "strategy": about,
        "parameters": settings,
        "overlap_method": analysis.OVERLAP_METHOD,
        "pages": [{"number": p.number, "width": p.width, "height": p.height,
                   "rotation": p.rotation, "ocr": p.ocr} for p in doc.layout.pages],
        "chunks": [_chunk_dict(c, flags) for c, flags in
                   zip(placed, analysis.flags_by_chunk(len(placed), overlaps, containment),
                       strict=True)],
        "overlaps": [o.to_dict() for o in overlaps],
        "containment": [c.to_dict() for c in containment],
        "diagnostics": (analysis.sizing_diagnostics(sizing, settings, placed)
                        + analysis.diagnostics(placed, source_tokens)),
        "warnings": list(doc.layout.warnings),
    }
    # Where chunk numbers and tags go, placed once here for the viewer and the render.
    report["labels"] = labels.place_all(report)
    return report


def _chunk_dict(c: analysis.Placed, flags: list[dict[str, str]]) -> dict[str, Any]:
    return {
        "index": c.index,
        "chunk_type": c.kind,
        "text": c.chunk.text.text,
        "tokens": c.tokens,
        "heading_path": list(c.chunk.heading_path),
        "pages": [r.page for r in c.regions],
        "regions": [r.to_dict() for r in c.regions],
        "origin": c.origin,
        "why": analysis.why(c.origin, c.kind, c.tokens, c.chunk.heading_path),
        "flags": flags,
    }

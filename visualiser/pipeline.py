"""The pipeline end to end: PDF bytes → layout → markdown → chunks → regions → report.

`process_pdf` is the slow, once-per-file part; `chunk_report` re-chunks a processed
document with any strategy and settings, cheaply. Neither does network I/O and
neither knows about Flask; the web layer and the CLI are thin shells over them.
"""

from __future__ import annotations

import hashlib
import math
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pymupdf

from visualiser import analysis, budget, labels
from visualiser.align import regions_of
from visualiser.errors import BadPdf, LimitExceeded, reading_pdf
from visualiser.imported import align as align_imported
from visualiser.imported import parse_chunks
from visualiser.layout import DEFAULT_OPTIONS, LayoutOptions, extract_layout
from visualiser.layout.items import PageRead
from visualiser.layout.model import Layout
from visualiser.markdown import SourceMarkdown, build_markdown
from visualiser.mupdf import LOCK, summarise, take_messages
from visualiser.strategies import Chunk, get_strategy
from visualiser.tokenizers import DEFAULT_ENCODING, count_tokens

MAX_BYTES = 200 * 1024 * 1024
MAX_PAGES = 2000
# Work per request follows from the document: a chunking may cut it into at most this
# many chunks per page (on average; small documents get MIN_CHUNK_LIMIT), and no page
# may be touched by more than MAX_CHUNKS_ON_A_PAGE of them. Real settings stay far
# below (1,200-token windows give about one chunk per page).
CHUNKS_PER_PAGE = 100
MIN_CHUNK_LIMIT = 300
MAX_CHUNKS_ON_A_PAGE = 500
# The PDF specification's limit for a page's side (ISO 32000-1, Annex C): a MediaBox
# beyond it is damage or an attack (a 7 KB file whose page was 2^32 pt wide took the
# label placement to 24 GB).
MAX_PAGE_SIDE = 14_400


@dataclass(slots=True)
class ProcessedDocument:
    id: str  # SHA-256 of the PDF bytes
    name: str
    pdf: bytes
    layout: Layout
    source: SourceMarkdown
    token_counts: dict[str, int] = field(default_factory=dict)  # per encoding, made once


def open_pdf(data: bytes | Path, *, max_bytes: int = MAX_BYTES,
             max_pages: int = MAX_PAGES) -> pymupdf.Document:
    """Open `data` (bytes, or a file) as a PDF, or raise BadPdf saying what is wrong with
    it. Every page is loaded here, inside one guard, so a broken page tree (a page count
    MuPDF cannot read, a cycle, a page that will not load) is refused at the door rather
    than failing later. The caller uses the document under `visualiser.mupdf.LOCK`."""
    with LOCK:
        return _open_pdf(data, max_bytes=max_bytes, max_pages=max_pages)


def _open_pdf(data: bytes | Path, *, max_bytes: int, max_pages: int) -> pymupdf.Document:
    if isinstance(data, Path):
        size = data.stat().st_size
        with data.open("rb") as handle:
            head = handle.read(1024)
    else:
        size, head = len(data), data[:1024]
    if not size:
        raise BadPdf("the file is empty")
    if size > max_bytes:
        raise BadPdf(f"the file is {size / 2**20:.1f} MiB; the limit is "
                     f"{max_bytes / 2**20:.0f} MiB")
    if b"%PDF-" not in head:
        raise BadPdf("this is not a PDF (no %PDF- header in its first bytes)")
    with reading_pdf("the PDF (its structure is broken, or its encryption is unsupported)"):
        if isinstance(data, Path):
            doc = pymupdf.open(data, filetype="pdf")
        else:
            doc = pymupdf.open(stream=data, filetype="pdf")
    with reading_pdf():
        try:
            _check_pages(doc, max_pages)
        except BaseException:
            doc.close()
            raise
    return doc


def _check_pages(doc: pymupdf.Document, max_pages: int) -> None:
    if doc.needs_pass:
        raise BadPdf("the PDF is encrypted with a password; upload an unprotected copy")
    count = doc.page_count
    if count <= 0:
        raise BadPdf("the PDF has no pages (it may be truncated)")
    if count > max_pages:
        raise BadPdf(f"the PDF has {count} pages; the limit is {max_pages}")
    for number in range(count):
        page = doc.load_page(number)
        rect = page.rect
        if not (rect.width > 0 and rect.height > 0):
            raise BadPdf(f"page {number + 1} has no size (its MediaBox is empty or invalid)")
        if max(rect.width, rect.height) > MAX_PAGE_SIDE:
            raise BadPdf(f"page {number + 1} is {rect.width:,.0f} × {rect.height:,.0f} pt; "
                         f"a PDF page is at most {MAX_PAGE_SIDE:,} pt (200 in) on a side")
    if doc.is_repaired and not any(page.get_text("text").strip() or page.get_images()
                                   for page in doc):
        raise BadPdf("the PDF is damaged (truncated or corrupt) and nothing could be "
                     "recovered from it")


def process_pdf(data: bytes, name: str, *, options: LayoutOptions = DEFAULT_OPTIONS,
                max_bytes: int = MAX_BYTES,
                max_pages: int = MAX_PAGES,
                progress: Callable[[int, int], None] | None = None,
                pages_read: list[PageRead] | None = None) -> ProcessedDocument:
    """`pages_read`: every page already read by `options.engine` (see `extract_layout`)."""
    with LOCK:
        take_messages()  # whatever earlier work left in MuPDF's buffer is not ours
        open_pdf(data, max_bytes=max_bytes, max_pages=max_pages).close()
    with reading_pdf("the PDF's content"):
        layout = extract_layout(data, options, progress, pages_read)
    with LOCK:
        layout.warnings.extend(summarise(take_messages()))
    return ProcessedDocument(hashlib.sha256(data).hexdigest(), name, data, layout,
                             build_markdown(layout))


def from_layout(data: bytes, name: str, layout: Layout) -> ProcessedDocument:
    """A processed document from a layout read before (`layout/saved.py`)."""
    return ProcessedDocument(hashlib.sha256(data).hexdigest(), name, data, layout,
                             build_markdown(layout))


def chunk_limit(page_count: int) -> int:
    """How many chunks a document of `page_count` pages may be cut into."""
    return max(MIN_CHUNK_LIMIT, CHUNKS_PER_PAGE * page_count)


def source_tokens(doc: ProcessedDocument, encoding: str) -> int:
    """The document's own token count under `encoding`, counted once."""
    if encoding not in doc.token_counts:
        doc.token_counts[encoding] = count_tokens(doc.source.text, encoding)
    return doc.token_counts[encoding]


def check_expected_chunks(doc: ProcessedDocument, sizing: tuple[str, str, str] | None,
                          settings: Mapping[str, Any]) -> None:
    """Refuse window settings that would cut the document into more chunks than it
    warrants, before any chunking is done."""
    if sizing is None:
        return
    size_name, overlap_name, unit = sizing
    size, overlap = int(settings[size_name]), int(settings[overlap_name])
    if unit == "tokens":
        total = source_tokens(doc, settings.get("tokenizer", DEFAULT_ENCODING))
    else:
        total = len(doc.source.text)
    expected = total / max(1, size - overlap)
    limit = chunk_limit(len(doc.layout.pages))
    if expected > limit:
        least = math.ceil(total / limit) + overlap
        raise LimitExceeded(
            size_name, f"{size} {unit} advancing by {size - overlap} would cut this "
            f"{len(doc.layout.pages)}-page document ({total:,} {unit}) into about "
            f"{expected:,.0f} chunks; the limit is {limit:,} ({CHUNKS_PER_PAGE} per page); "
            f"use a {size_name} of at least {least:,}", limit)


def check_chunk_count(doc: ProcessedDocument, count: int) -> None:
    limit = chunk_limit(len(doc.layout.pages))
    if count > limit:
        raise LimitExceeded(
            "chunks", f"these settings cut this {len(doc.layout.pages)}-page document into "
            f"{count:,} chunks; the limit is {limit:,} ({CHUNKS_PER_PAGE} per page); choose "
            "larger chunks", limit)


def chunk_report(doc: ProcessedDocument, strategy: str,
                 params: Mapping[str, Any] | None = None,
                 time_budget: float | None = None) -> dict[str, Any]:
    """The chunks JSON (docs/chunks-json.md) for `doc` under `strategy`. Settings that
    would make more chunks than the document warrants are refused (LimitExceeded);
    past `time_budget` seconds the work stops with OutOfTime."""
    cls = get_strategy(strategy)
    settings = cls.settings(params)
    check_expected_chunks(doc, cls.sizing, settings)
    with budget.time_budget(time_budget):
        implementation = cls.implementation()  # asked first: it says what chunk() runs
        chunks = cls().chunk(doc.source, settings)
        budget.check("chunking")
        about = {"name": cls.name, "label": cls.label, "explanation": cls.explanation,
                 "implementation": implementation,
                 **analysis.banner(cls, settings, [c.chunk_type for c in chunks])}
        windows = None
        if cls.windows_cut_tables and cls.sizing is not None:
            size_name, overlap_name, unit = cls.sizing
            windows = (settings[size_name], settings[overlap_name], unit)
        return _report(doc, chunks, about, settings, cls.sizing, windows)


def imported_report(doc: ProcessedDocument, data: bytes, file_name: str,
                    encoding: str = DEFAULT_ENCODING,
                    time_budget: float | None = None) -> dict[str, Any]:
    """The chunks JSON for chunks made elsewhere (a JSON/JSONL file), aligned to `doc`."""
    with budget.time_budget(time_budget):
        return _imported_report(doc, data, file_name, encoding)


def _imported_report(doc: ProcessedDocument, data: bytes, file_name: str,
                     encoding: str) -> dict[str, Any]:
    parsed = parse_chunks(data)
    check_chunk_count(doc, len(parsed))
    chunks = align_imported(doc.source, parsed)
    budget.check("aligning the imported chunks")
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
            sizing: tuple[str, str, str] | None = None,
            windows: tuple[int, int, str] | None = None) -> dict[str, Any]:
    encoding = settings.get("tokenizer", DEFAULT_ENCODING)
    check_chunk_count(doc, len(chunks))
    placed = place_chunks(doc, chunks, encoding)
    check_chunks_per_page(placed)
    overlaps = analysis.find_overlaps(placed, doc.layout)
    containment = analysis.find_containment(placed)
    budget.check("finding contained chunks")
    document_tokens = source_tokens(doc, encoding)
    report = {
        "document": {"id": doc.id, "name": doc.name, "page_count": len(doc.layout.pages)},
        "layout_engine": doc.layout.engine,
        "chunking_strategy": about["name"],
        "strategy": about,
        "parameters": settings,
        "overlap_method": analysis.OVERLAP_METHOD,
        "pages": [{"number": p.number, "width": p.width, "height": p.height,
                   "rotation": p.rotation, "ocr": p.ocr} for p in doc.layout.pages],
        "chunks": [_chunk_dict(c, flags, doc.layout.engine) for c, flags in
                   zip(placed, analysis.flags_by_chunk(len(placed), overlaps, containment,
                                                           placed),
                       strict=True)],
        "overlaps": [o.to_dict() for o in overlaps],
        "containment": [c.to_dict() for c in containment],
        "diagnostics": (analysis.sizing_diagnostics(sizing, settings, placed)
                        + analysis.diagnostics(placed, document_tokens)),
        "tables": analysis.table_figures(doc.source, placed, encoding, windows),
        "warnings": list(doc.layout.warnings),
    }
    # Where chunk numbers and tags go, placed once here for the viewer and the render.
    report["labels"] = labels.place_all(report)
    return report


def place_chunks(doc: ProcessedDocument, chunks: list[Chunk],
                 encoding: str = DEFAULT_ENCODING) -> list[analysis.Placed]:
    """Each chunk with its words, tokens, heading path and regions on the pages."""
    placed = []
    for index, chunk in enumerate(chunks):
        if index % 64 == 0:
            budget.check("placing the chunks on the pages")
        if not chunk.heading_path:
            first = next((p for p in chunk.text.pos if p >= 0), None)
            if first is not None:
                chunk.heading_path = doc.source.heading_path_at(first)
        words = doc.source.words_of(chunk.text)
        placed.append(analysis.Placed(index, chunk, count_tokens(chunk.text.text, encoding),
                                      words, regions_of(words, doc.layout)))
    return placed


def check_chunks_per_page(placed: list[analysis.Placed]) -> None:
    on_page = Counter(region.page for chunk in placed for region in chunk.regions)
    page, count = max(on_page.items(), key=lambda item: item[1], default=(0, 0))
    if count > MAX_CHUNKS_ON_A_PAGE:
        raise LimitExceeded(
            "chunks", f"{count:,} chunks touch page {page}; at most {MAX_CHUNKS_ON_A_PAGE} "
            "may touch one page; choose larger chunks", MAX_CHUNKS_ON_A_PAGE)


def _chunk_dict(c: analysis.Placed, flags: list[dict[str, str]],
                layout_engine: str) -> dict[str, Any]:
    return {
        "index": c.index,
        "chunk_type": c.kind,
        "text": c.chunk.text.text,
        "tokens": c.tokens,
        "heading_path": list(c.chunk.heading_path),
        "pages": [r.page for r in c.regions],
        "regions": [r.to_dict() for r in c.regions],
        "origin": c.origin,
        "why": analysis.why(c.origin, c.kind, c.tokens, c.chunk.heading_path, layout_engine),
        "flags": flags,
    }

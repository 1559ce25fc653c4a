"""The chunks of a report in the shapes other tools read: our chunks JSON, JSON Lines,
LangChain documents and LlamaIndex nodes.

Each chunk carries its text and the same metadata in every shape: the document, the
chunk's index and type, its heading path, its pages and its boxes (line rectangles and
enclosing box per page, PDF points), its token count and the strategy that made it.
Every shape reads back through `--import` (visualiser/imported.py), which places the
chunks on the page again by their words.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

FORMATS = ("json", "jsonl", "langchain", "llamaindex")
MEDIA_TYPES = {"json": "application/json", "jsonl": "application/x-ndjson",
               "langchain": "application/json", "llamaindex": "application/json"}
SUFFIXES = {"json": ".chunks.json", "jsonl": ".chunks.jsonl",
            "langchain": ".langchain.json", "llamaindex": ".llamaindex.json"}


def metadata(report: Mapping[str, Any], chunk: Mapping[str, Any]) -> dict[str, Any]:
    regions = chunk.get("regions", [])
    return {
        "source": report["document"]["name"],
        "document_id": report["document"]["id"],
        "chunk_index": chunk["index"],
        "chunk_type": chunk["chunk_type"],
        "heading_path": list(chunk.get("heading_path", [])),
        "page": regions[0]["page"] if regions else None,
        "pages": [r["page"] for r in regions],
        "regions": [{"page": r["page"], "bbox": r["bbox"], "rects": r["rects"]}
                    for r in regions],
        "tokens": chunk.get("tokens"),
        "chunking_strategy": report.get("chunking_strategy"),
    }


def _jsonl(report: Mapping[str, Any]) -> bytes:
    lines = [json.dumps({"text": c["text"], "chunk_type": c["chunk_type"],
                         "metadata": metadata(report, c)}, ensure_ascii=False)
             for c in report["chunks"]]
    return ("\n".join(lines) + "\n").encode()


def _langchain(report: Mapping[str, Any]) -> bytes:
    # langchain_core.documents.Document as its dict: page_content + metadata.
    documents = [{"type": "Document", "page_content": c["text"],
                  "metadata": metadata(report, c)} for c in report["chunks"]]
    return _dump(documents)


def _llamaindex(report: Mapping[str, Any]) -> bytes:
    # llama_index.core.schema.TextNode as its to_dict(): id_, text, metadata.
    doc_id = report["document"]["id"]
    nodes = [{"class_name": "TextNode", "id_": f"{doc_id}-{c['index']}", "text": c["text"],
              "metadata": metadata(report, c),
              "excluded_embed_metadata_keys": ["regions", "rects"],
              "excluded_llm_metadata_keys": ["regions", "rects"]}
             for c in report["chunks"]]
    return _dump(nodes)


def _dump(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, indent=1).encode()


_WRITERS: dict[str, Callable[[Mapping[str, Any]], bytes]] = {
    "json": _dump, "jsonl": _jsonl, "langchain": _langchain, "llamaindex": _llamaindex}


def export(report: Mapping[str, Any], fmt: str) -> bytes:
    """The chunks of `report` as `fmt` (one of FORMATS)."""
    try:
        return _WRITERS[fmt](report)
    except KeyError:
        raise ValueError(f"no export format {fmt!r}; available: {', '.join(FORMATS)}") from None


def file_name(report: Mapping[str, Any], fmt: str) -> str:
    stem = report["document"]["name"].rsplit(".", 1)[0]
    return f"{stem}.{report.get('chunking_strategy') or 'chunks'}{SUFFIXES[fmt]}"

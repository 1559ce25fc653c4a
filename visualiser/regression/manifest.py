"""The manifest written beside a batch of renders: what produced each picture.

Deterministic on purpose (sorted keys, no timestamps), so a suite can keep it as a
golden too. `chunking_sha256` digests the chunk boundaries and boxes on the page: when
it is unchanged and `output_sha256` is not, only the drawing changed.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from importlib.metadata import PackageNotFoundError, version
from typing import Any

import pymupdf


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def our_version() -> str:
    try:
        return version("chunk-visualiser")
    except PackageNotFoundError:
        return "unknown"


def chunking_digest(report: Mapping[str, Any], page: int) -> str:
    """SHA-256 of what the chunking put on `page`: each chunk's index, type, text and
    line boxes there."""
    parts = []
    for chunk in report["chunks"]:
        regions = [r for r in chunk["regions"] if r["page"] == page]
        if regions:
            parts.append({"index": chunk["index"], "type": chunk.get("chunk_type"),
                          "text": chunk.get("text"),
                          "rects": [[round(v, 2) for v in rect]
                                    for r in regions for rect in r["rects"]]})
    return sha256(json.dumps(parts, sort_keys=True, ensure_ascii=False).encode())


def picture(report: Mapping[str, Any], input_sha256: str, page: int, output: bytes,
            file: str) -> dict[str, Any]:
    return {
        "file": file,
        "input_sha256": input_sha256,
        "strategy": report.get("chunking_strategy"),
        "parameters": report.get("parameters", {}),
        "layout_engine": report.get("layout_engine"),
        "visualiser_version": our_version(),
        "pymupdf_version": pymupdf.VersionBind,
        "page": page,
        "output_sha256": sha256(output),
        "chunking_sha256": chunking_digest(report, page),
    }


def dumps(pictures: list[dict[str, Any]]) -> str:
    ordered = sorted(pictures, key=lambda p: (p["strategy"] or "", p["page"], p["file"]))
    return json.dumps({"pictures": ordered}, indent=2, sort_keys=True, ensure_ascii=False) + "\n"

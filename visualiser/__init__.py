"""Chunk visualiser: see how a PDF is chunked for retrieval, box by box."""

import os

# PyMuPDF 1.26+ prints an advert for its layout model on import; keep stdout clean
# for the CLI's JSON output.
os.environ.setdefault("PYMUPDF_SUGGEST_LAYOUT_ANALYZER", "0")

"""Chunk visualiser: see how a PDF is chunked for retrieval, box by box."""

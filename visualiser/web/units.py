"""Sizes in words, the same everywhere: the `filesize` filter, the upload limits on the
knowledgebase page and in the 413 message, and static/js/format.js's `fileSize`."""

from __future__ import annotations


def human_size(size: int) -> str:
    if size < 1024:
        return f"{size} bytes"
    if size < 1024 * 1024:
        return f"{size / 1024:.1f} KB"
    return f"{size / (1024 * 1024):.1f} MB"

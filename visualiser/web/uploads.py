"""Uploads streamed to disk and hashed as they arrive.

Werkzeug parses a multipart body chunk by chunk and asks the request for a file to
write each file part into. Ours is a temporary file in the store's `incoming` folder
that hashes what is written: an upload is never held whole in memory, its SHA-256 is
known the moment it has arrived, and keeping it is a rename into the store. The file
is deleted when the request ends unless it was kept.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path
from typing import IO, Any

from flask import Request, current_app


class ReceivedFile:
    """A write-then-read temporary file that knows the SHA-256 of what was written."""

    def __init__(self, folder: Path) -> None:
        handle, name = tempfile.mkstemp(dir=folder, suffix=".upload")
        self.path = Path(name)
        self._file: IO[bytes] = os.fdopen(handle, "w+b")
        self._digest = hashlib.sha256()
        self.size = 0

    def write(self, data: bytes) -> int:
        self._digest.update(data)
        self.size += len(data)
        return self._file.write(data)

    def sha256(self) -> str:
        return self._digest.hexdigest()

    def finish(self) -> Path:
        """Everything written is on disk; the path, for MuPDF and for keeping."""
        self._file.flush()
        return self.path

    def close(self) -> None:
        self._file.close()
        self.path.unlink(missing_ok=True)  # gone already when the store kept it

    def __getattr__(self, name: str) -> Any:  # read, seek, tell, … of the real file
        return getattr(self._file, name)

    def __iter__(self) -> Any:
        return iter(self._file)


def sent_name(filename: str) -> str:
    """The file name as the user's file system spells it. A browser writes `"` as
    `%22`, and CR and LF as `%0D` and `%0A`, inside a multipart header (the HTML
    standard's form encoding); undo that, and nothing else."""
    return (filename.replace("%22", '"').replace("%0D", "\r").replace("%0A", "\n"))


class StreamingRequest(Request):
    def _get_file_stream(self, total_content_length: int | None, content_type: str | None,
                         filename: str | None = None,
                         content_length: int | None = None) -> IO[bytes]:
        folder = current_app.extensions["visualiser"].store.incoming()
        return ReceivedFile(folder)  # type: ignore[return-value]

"""Chunk files uploaded for import (chunks made by another pipeline), kept on disk.

A file is stored under CACHE_DIR by the SHA-256 of its bytes, and that hash is the
import's id: `?import=<sha256>` in a viewer or compare URL names exactly the chunks
someone looked at, and uploading the same file twice stores it once. A file is
checked (size, then `parse_chunks`) before anything is written, so a refused file
leaves nothing behind; its metadata (the file name, for labels) is written last, so a
half-written import is never found.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from werkzeug.datastructures import FileStorage

from visualiser.errors import BadImport, BadParameter, ImportTooLarge, NotFound
from visualiser.files import write_atomically
from visualiser.imported import parse_chunks
from visualiser.library import safe_name
from visualiser.web.units import human_size
from visualiser.web.uploads import sent_name

_ID = re.compile(r"[0-9a-f]{64}")


@dataclass(frozen=True, slots=True)
class ImportedFile:
    id: str  # SHA-256 of the file
    name: str  # as uploaded (made safe), for labels: "Imported: chunks.jsonl"
    size: int
    chunks: int

    def to_dict(self) -> dict[str, Any]:
        return {"import": self.id, "name": self.name, "size": self.size, "chunks": self.chunks}


def check_id(import_id: str) -> str:
    if not _ID.fullmatch(import_id):
        raise BadParameter(
            "import", f"expected the SHA-256 of an imported file (64 hex digits), got {import_id!r}"
        )
    return import_id


class ImportFiles:
    def __init__(self, directory: Path, max_bytes: int) -> None:
        self.directory = directory
        self.max_bytes = max_bytes

    def _paths(self, import_id: str) -> tuple[Path, Path]:
        folder = self.directory / import_id[:2]
        return folder / f"{import_id}.chunks", folder / f"{import_id}.json"

    def receive(self, upload: FileStorage | None) -> tuple[ImportedFile, bool]:
        """An uploaded form field → a stored import, and whether it was new."""
        if upload is None or not upload.filename:
            raise BadParameter(
                "file", "send the chunks file (JSON or JSON Lines) as a form field named 'file'"
            )
        # One byte past the limit is enough to know it is too big.
        data = upload.read(self.max_bytes + 1)
        return self.add(data, safe_name(sent_name(upload.filename), default="chunks.json"))

    def add(self, data: bytes, name: str) -> tuple[ImportedFile, bool]:
        if not data:
            raise BadImport("the chunks file is empty")
        if len(data) > self.max_bytes:
            raise ImportTooLarge(
                f"the chunks file is larger than this server imports: at most "
                f"{human_size(self.max_bytes)}"
            )
        chunks = parse_chunks(data)  # BadImport with the reason; nothing written yet
        import_id = hashlib.sha256(data).hexdigest()
        data_path, meta_path = self._paths(import_id)
        new = not meta_path.is_file()
        imported = ImportedFile(import_id, name, len(data), len(chunks))
        if new:
            write_atomically(data_path, data)
        # The same bytes uploaded under another name take that name: the label shows
        # what the person just chose. The chunks, and so the view, are the same.
        if new or self.get(import_id).name != name:
            write_atomically(meta_path, json.dumps(imported.to_dict()).encode())
        return imported, new

    def get(self, import_id: str) -> ImportedFile:
        _, meta_path = self._paths(check_id(import_id))
        try:
            meta = json.loads(meta_path.read_bytes())
        except FileNotFoundError:
            raise NotFound(
                f"no imported chunks file with id {import_id}; import the file again",
                **{"import": import_id},
            ) from None
        return ImportedFile(import_id, str(meta["name"]), int(meta["size"]), int(meta["chunks"]))

    def data(self, import_id: str) -> bytes:
        data_path, _ = self._paths(check_id(import_id))
        return data_path.read_bytes()

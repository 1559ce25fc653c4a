"""Bad input gets a clear reason, never a crash."""

import pymupdf
import pytest

from tests.conftest import APEX
from visualiser.errors import BadPdf
from visualiser.pipeline import process_pdf
from visualiser.web.errors import http_status


def _encrypted() -> bytes:
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "secret")
    return doc.tobytes(encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="pw", owner_pw="pw")


def _zero_pages() -> bytes:
    return (b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n"
            b"2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF")


@pytest.mark.parametrize("data,reason", [
    (b"", "empty"),
    (b"PK\x03\x04 this is a zip", "not a PDF"),
    (b"%PDF-1.7\n" + b"\x00garbage" * 50, "cannot be read|no pages|damaged"),
    (_zero_pages(), "no pages"),
])
def test_unusable_bytes_are_refused_with_a_reason(data, reason):
    with pytest.raises(BadPdf, match=reason):
        process_pdf(data, "bad.pdf")


def test_encrypted_pdf_is_refused():
    with pytest.raises(BadPdf, match="encrypted with a password"):
        process_pdf(_encrypted(), "locked.pdf")


@pytest.mark.parametrize("keep", [0.1, 0.5, 0.9])
def test_truncated_pdf_is_refused_or_read_never_crashes(sample_path, keep):
    data = sample_path(APEX).read_bytes()
    cut = data[: int(len(data) * keep)]
    try:
        doc = process_pdf(cut, "cut.pdf")
    except BadPdf as exc:
        assert http_status(exc) == 422 and exc.message
    else:  # MuPDF repaired what was there; whatever it read must be consistent
        assert all(w.page <= len(doc.layout.pages) for w in doc.layout.words)


def test_size_and_page_limits(sample_path):
    data = sample_path(APEX).read_bytes()
    with pytest.raises(BadPdf, match="limit is"):
        process_pdf(data, "a.pdf", max_bytes=1000)
    with pytest.raises(BadPdf, match="4 pages; the limit is 2"):
        process_pdf(data, "a.pdf", max_pages=2)

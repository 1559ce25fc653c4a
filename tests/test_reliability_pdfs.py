"""Broken PDFs: refused at the door with a reason, or — when one got into a store
before the door was this strict — a stored failure with a reason; never a 500, never
a traceback, and MuPDF's own messages never on stdout (they become warnings)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.broken_pdfs import REFUSED, page_tree_cycle, truncated_xref
from tests.conftest import make_app
from tests.fuzzing import REPO, fuzz
from tests.test_kb_api import create_kb, sql, upload, wait_until_processed
from visualiser import ingest, library
from visualiser.errors import BadPdf
from visualiser.mupdf import summarise
from visualiser.pipeline import open_pdf, process_pdf


def cli(*args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "visualiser.cli", *args],
                          capture_output=True, timeout=120, cwd=REPO)


@pytest.mark.parametrize("name", list(REFUSED))
def test_each_class_of_broken_pdf_is_refused_at_the_door_with_a_reason(name):
    data, reason = REFUSED[name]
    with pytest.raises(BadPdf, match=reason):
        open_pdf(data)
    with pytest.raises(BadPdf, match=reason):
        process_pdf(data, f"{name}.pdf")


@pytest.mark.parametrize("name", list(REFUSED))
def test_each_broken_upload_is_a_422_and_stores_nothing(tmp_path, name):
    data, reason = REFUSED[name]
    app = make_app(tmp_path)
    try:
        client = app.test_client()
        kb = create_kb(client)
        response = upload(client, kb["id"], data, f"{name}.pdf")
        assert response.status_code == 422, response.get_data(as_text=True)
        assert re.search(reason, response.get_json()["message"])
        assert sql(app, "SELECT COUNT(*) FROM documents")[0][0] == 0
        assert list(app.extensions["visualiser"].store.files.iterdir()) == []
    finally:
        app.extensions["visualiser"].close()


@pytest.mark.parametrize("name", list(REFUSED))
def test_the_cli_refuses_each_broken_pdf_with_exit_2_and_no_traceback(tmp_path, name):
    data, reason = REFUSED[name]
    pdf = tmp_path / "broken.pdf"
    pdf.write_bytes(data)
    done = cli("chunk", str(pdf))
    err = done.stderr.decode()
    assert done.returncode == 2 and done.stdout == b""
    assert err.startswith("error: ") and re.search(reason, err)
    assert "Traceback" not in err


def test_mupdf_messages_become_counted_warnings_never_stdout(tmp_path):
    pdf = tmp_path / "repaired.pdf"
    pdf.write_bytes(truncated_xref())
    done = cli("chunk", str(pdf), "--format", "json")
    assert done.returncode == 0, done.stderr.decode()
    assert b"MuPDF" not in done.stderr
    report = json.loads(done.stdout)  # nothing but the JSON on stdout
    mupdf = [w for w in report["warnings"] if w.startswith("MuPDF: ")]
    assert any("repair" in w for w in mupdf)
    assert len(mupdf) == len(set(mupdf))  # each message once …
    text = " ".join(report["chunks"][0]["text"].split())
    assert text == "Hello world"


def test_summarise_counts_repeats_and_caps_the_distinct_messages():
    assert summarise(["a", "b", "a", "a"]) == ["MuPDF: a (×3)", "MuPDF: b"]
    many = summarise([f"m{n}" for n in range(30)] * 2)
    assert len(many) == 21 and many[0] == "MuPDF: m0 (×2)"
    assert many[-1] == "MuPDF: 10 more distinct messages (20 in all)"


def _smuggle(app, kb_id: int, data: bytes, name: str) -> str:
    """Store a broken file as an older, laxer door would have (bypassing the checks)."""
    import hashlib

    store = app.extensions["visualiser"].store
    doc_id = hashlib.sha256(data).hexdigest()
    store.add_document(kb_id, doc_id, name, data, 2)
    return doc_id


def test_a_broken_document_already_stored_fails_with_a_reason_everywhere(tmp_path):
    app = make_app(tmp_path)
    try:
        client = app.test_client()
        kb = create_kb(client)
        doc_id = _smuggle(app, kb["id"], page_tree_cycle(), "cycle.pdf")
        ingest.process(app.extensions["visualiser"].store, kb["id"], doc_id)
        (doc,) = wait_until_processed(client, kb["id"])
        assert doc["state"] == "failed"
        assert "cycle in page tree" in doc["error"] and "internal error" not in doc["error"]
        base = f"/api/knowledgebases/{kb['id']}/documents/{doc_id}"
        image = client.get(f"{base}/pages/1.png")
        assert image.status_code == 422 and "cycle in page tree" in image.get_json()["message"]
        preview = client.get(f"{base}/chunks?strategy=token_based")
        assert preview.status_code == 422
        assert "cycle in page tree" in preview.get_json()["message"]
        stored = client.get(f"{base}/chunks").get_json()
        assert stored["state"] == "failed" and "cycle in page tree" in stored["error"]
        for page in (f"/knowledgebases/{kb['id']}/documents/{doc_id}",
                     f"/knowledgebases/{kb['id']}/documents/{doc_id}/compare"):
            response = client.get(page)
            assert response.status_code == 200, page  # the page opens and shows why
    finally:
        app.extensions["visualiser"].close()


def test_read_entry_turns_what_pymupdf_throws_into_bad_pdf():
    with pytest.raises(BadPdf, match="cycle in page tree"):
        library.read_entry(page_tree_cycle(), "cycle.pdf", "knowledgebase")


def test_a_seeded_slice_of_mutated_samples_gives_json_or_a_refusal(tmp_path):
    counts, failures = fuzz(16, seed=20261203, folder=tmp_path)
    assert not failures, "\n".join(f"{p.name}: {o.kind}\n{o.detail}" for p, o in failures)
    assert counts["json"] + counts["refused"] == 16 and counts["refused"] > 0


def test_the_fuzzer_is_seeded(tmp_path):
    import random

    from tests.fuzzing import SAMPLES, mutate

    data = Path(SAMPLES[0]).read_bytes()
    assert mutate(data, random.Random(5)) == mutate(data, random.Random(5))
    assert mutate(data, random.Random(5)) != data

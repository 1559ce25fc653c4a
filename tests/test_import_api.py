"""Imported chunks over HTTP (Flask's test client): uploading a chunks file made
elsewhere for a sample or a knowledgebase document, the refusals (with their reasons,
and nothing stored), and the views that show it (`?import=<sha256>`)."""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path

import pymupdf
import pytest

from visualiser.resources import samples_dir
from visualiser.web import create_app

APEX = "05_Apex_Logistics_Services_Agreement_2025.pdf"
APEX_BYTES = (samples_dir() / APEX).read_bytes()
APEX_ID = hashlib.sha256(APEX_BYTES).hexdigest()
SAMPLE = f"/api/documents/{APEX_ID}"


def apex_text() -> str:
    """The sample's text as another pipeline would have it: PyMuPDF's plain text."""
    with pymupdf.open(stream=APEX_BYTES, filetype="pdf") as document:
        return "".join(page.get_text() for page in document)


def windows(size: int = 900, step: int = 800) -> list[str]:
    text = apex_text()
    return [text[i : i + size] for i in range(0, len(text), step)]


def shapes() -> dict[str, bytes]:
    """One chunks file per supported shape, all over the same windows of text."""
    parts = windows()
    return {
        "strings.json": json.dumps(parts).encode(),
        "langchain.json": json.dumps(
            [{"page_content": p, "metadata": {"source": APEX, "seq": i}}
             for i, p in enumerate(parts)]
        ).encode(),
        "llamaindex.json": json.dumps(
            [{"id_": f"node-{i}", "text": p, "metadata": {}} for i, p in enumerate(parts)]
        ).encode(),
        "langchain.jsonl": "\n".join(
            json.dumps({"page_content": p, "metadata": {"seq": i}}) for i, p in enumerate(parts)
        ).encode(),
    }


def stored_files(app) -> list[Path]:
    folder = Path(app.config["CACHE_DIR"]) / "imports"
    return sorted(p for p in folder.rglob("*") if p.is_file()) if folder.exists() else []


def send(client, url: str, data: bytes, name: str = "chunks.json"):
    return client.post(
        url, data={"file": (io.BytesIO(data), name)}, content_type="multipart/form-data"
    )


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    scratch = tmp_path_factory.mktemp("import-app")
    app = create_app({
        "TESTING": True,
        "CACHE_DIR": scratch / "cache",
        "DATABASE": scratch / "kb.sqlite",
        "MAX_IMPORT_BYTES": 256 * 1024,
    })
    yield app
    app.extensions["visualiser"].close()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture(scope="module")
def kb_doc(app):
    """A knowledgebase (token_based) holding the Apex sample, processed."""
    client = app.test_client()
    kb = client.post("/api/knowledgebases", json={"name": "Imports",
                                                  "chunking_strategy": "token_based"})
    kb_id = kb.get_json()["id"]
    response = client.post(
        f"/api/knowledgebases/{kb_id}/documents",
        data={"file": (io.BytesIO(APEX_BYTES), APEX)}, content_type="multipart/form-data",
    )
    assert response.status_code == 202
    assert app.extensions["visualiser"].processor.wait(60)
    return kb_id


# --- uploading --------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(shapes()))
def test_each_shape_is_imported_and_shown_on_its_words(app, client, name):
    data = shapes()[name]
    response = send(client, f"{SAMPLE}/imports", data, name)
    assert response.status_code in (200, 201), response.get_json()
    body = response.get_json()
    import_id = hashlib.sha256(data).hexdigest()
    assert body["import"] == import_id
    assert body["name"] == name and body["size"] == len(data)
    assert body["chunks"] == len(windows())
    assert body["links"]["viewer"] == f"/documents/{APEX_ID}?import={import_id}"
    # Stored under CACHE_DIR by its SHA-256, byte for byte.
    assert any(p.read_bytes() == data for p in stored_files(app) if import_id in p.name)

    report = client.get(body["links"]["chunks"]).get_json()
    assert report["chunking_strategy"] == "imported"
    assert report["strategy"]["label"] == f"Imported chunks ({name})"
    assert report["strategy"]["banner"].startswith("These chunks were made by another pipeline")
    assert len(report["chunks"]) == len(windows())
    for chunk in report["chunks"]:
        assert chunk["origin"]["aligned"] > 0.9
        assert chunk["regions"], chunk["text"][:60]
        assert "of its words were found on the page" in chunk["why"]
    assert report["document_tokens"] > 0


def test_our_own_chunks_json_round_trips(app, client):
    ours = client.get(f"{SAMPLE}/chunks?strategy=structure_aware").get_data()
    body = send(client, f"{SAMPLE}/imports", ours, "export.json").get_json()
    report = client.get(body["links"]["chunks"]).get_json()
    original = json.loads(ours)
    assert len(report["chunks"]) == len(original["chunks"]) == 17
    for mine, theirs in zip(report["chunks"], original["chunks"], strict=True):
        assert mine["pages"] == theirs["pages"]
        assert mine["chunk_type"] == theirs["chunk_type"]


def test_the_same_file_twice_is_stored_once(app, client):
    data = json.dumps(["Apex Logistics Services Agreement 2025", "Term of the agreement"]).encode()
    first = send(client, f"{SAMPLE}/imports", data, "twice.json")
    files = stored_files(app)
    again = send(client, f"{SAMPLE}/imports", data, "renamed.json")
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.get_json()["import"] == first.get_json()["import"]
    assert stored_files(app) == files
    # The latest name labels it, in the views too.
    assert again.get_json()["name"] == "renamed.json"
    report = client.get(again.get_json()["links"]["chunks"]).get_json()
    assert report["strategy"]["label"] == "Imported chunks (renamed.json)"


@pytest.mark.parametrize(
    ("data", "status", "reason"),
    [
        (b"\x00\x01 not json at all {", 400, "neither JSON nor JSON Lines"),
        (b"[]", 400, "non-empty list"),
        (b"", 400, "empty"),
        ("[\"caf\xe9\"]".encode("latin-1"), 400, "not UTF-8"),
        (b'[{"id": 1, "score": 0.3}]', 400, "chunk 0 has no text"),
        (json.dumps(["x" * 300_000]).encode(), 413, "at most 256.0 KB"),
    ],
    ids=["garbage", "empty-list", "empty-file", "latin-1", "no-text", "too-big"],
)
def test_a_file_that_is_not_understood_is_refused_with_the_reason(app, client, data, status,
                                                                  reason):
    before = stored_files(app)
    response = send(client, f"{SAMPLE}/imports", data, "bad.json")
    assert response.status_code == status
    body = response.get_json()
    assert reason in body["message"]
    assert body["error"] in ("Unusable chunks file", "File too large")
    assert stored_files(app) == before


def test_a_request_over_the_servers_upload_limit_is_a_413(tmp_path):
    app = create_app({"TESTING": True, "CACHE_DIR": tmp_path / "cache",
                      "DATABASE": tmp_path / "kb.sqlite", "MAX_CONTENT_LENGTH": 4096})
    try:
        response = send(app.test_client(), f"{SAMPLE}/imports", b"[" + b'"x",' * 4000 + b'"x"]')
        assert response.status_code == 413
        assert "at most 4.0 KB" in response.get_json()["message"]
        assert stored_files(app) == []
    finally:
        app.extensions["visualiser"].close()


def test_no_file_field_is_a_400_naming_it(app, client):
    before = stored_files(app)
    response = client.post(f"{SAMPLE}/imports", data={}, content_type="multipart/form-data")
    assert response.status_code == 400
    assert response.get_json()["parameter"] == "file"
    assert stored_files(app) == before


def test_an_unknown_document_stores_nothing(app, client):
    before = stored_files(app)
    response = send(client, f"/api/documents/{'f' * 64}/imports", b'["text"]')
    assert response.status_code == 404
    assert stored_files(app) == before


# --- showing --------------------------------------------------------------------------------


def test_unknown_and_malformed_import_ids(client):
    missing = client.get(f"{SAMPLE}/chunks?import={'0' * 64}")
    assert missing.status_code == 404
    assert "import the file again" in missing.get_json()["message"]
    malformed = client.get(f"{SAMPLE}/chunks?import=../../etc/passwd")
    assert malformed.status_code == 400 and malformed.get_json()["parameter"] == "import"
    page = client.get(f"/documents/{APEX_ID}?import={'0' * 64}", headers={"Accept": "text/html"})
    assert page.status_code == 404 and 'data-testid="error-page"' in page.get_data(as_text=True)


def test_an_import_takes_no_strategy_and_no_parameters(client):
    import_id = send(client, f"{SAMPLE}/imports", shapes()["strings.json"]).get_json()["import"]
    both = client.get(f"{SAMPLE}/chunks?import={import_id}&strategy=token_based")
    assert both.status_code == 400 and both.get_json()["parameter"] == "import"
    params = client.get(f"{SAMPLE}/chunks?import={import_id}&chunk_token_size=5")
    assert params.status_code == 400 and params.get_json()["parameter"] == "chunk_token_size"


def test_the_viewer_opens_on_an_import(client):
    data = shapes()["langchain.json"]
    import_id = send(client, f"{SAMPLE}/imports", data, "langchain.json").get_json()["import"]
    html = client.get(f"/documents/{APEX_ID}?import={import_id}&page=2").get_data(as_text=True)
    marker = '<script type="application/json" id="viewer-config">'
    start = html.index(marker) + len(marker)
    config = json.loads(html[start : html.index("</script>", start)])
    assert config["strategy"] == f"import:{import_id}"
    assert config["imports"][0]["name"] == "langchain.json"
    assert config["urls"]["imports"] == f"{SAMPLE}/imports"
    assert 'data-testid="import-input"' in html and 'type="file"' in html


# --- knowledgebase documents -------------------------------------------------------------------


def test_a_knowledgebase_document_previews_an_import_and_keeps_its_chunks(app, client, kb_doc):
    base = f"/api/knowledgebases/{kb_doc}/documents/{APEX_ID}"
    stored_before = client.get(f"{base}/chunks").get_json()
    data = shapes()["llamaindex.json"]
    response = send(client, f"{base}/imports", data, "nodes.json")
    assert response.status_code in (200, 201)
    body = response.get_json()
    assert body["links"]["viewer"] == (
        f"/knowledgebases/{kb_doc}/documents/{APEX_ID}?import={body['import']}")
    preview = client.get(body["links"]["chunks"]).get_json()
    assert preview["preview"] is True and preview["chunking_strategy"] == "imported"
    assert preview["stored_strategy"] == "token_based"
    assert len(preview["chunks"]) == len(windows())
    stored_after = client.get(f"{base}/chunks").get_json()
    assert stored_after["chunks"] == stored_before["chunks"]
    assert stored_after["chunking_strategy"] == "token_based" and not stored_after["preview"]
    page = client.get(f"/knowledgebases/{kb_doc}/documents/{APEX_ID}?import={body['import']}")
    assert page.status_code == 200


def test_a_knowledgebase_import_is_refused_with_the_reason(app, client, kb_doc):
    before = stored_files(app)
    base = f"/api/knowledgebases/{kb_doc}/documents/{APEX_ID}"
    response = send(client, f"{base}/imports", b'{"chunks": "nope"}')
    assert response.status_code == 400 and "non-empty list" in response.get_json()["message"]
    missing = send(client, f"/api/knowledgebases/{kb_doc}/documents/{'0' * 64}/imports", b'["a"]')
    assert missing.status_code == 404
    assert stored_files(app) == before


def test_the_stored_report_says_the_document_tokens_once_known(client, kb_doc):
    # Chunking in this app (a preview) counted the document's tokens; the stored view
    # reuses the count instead of extracting the layout again.
    base = f"/api/knowledgebases/{kb_doc}/documents/{APEX_ID}/chunks"
    preview = client.get(f"{base}?strategy=token_based").get_json()
    stored = client.get(base).get_json()
    assert stored["document_tokens"] == preview["document_tokens"] > 0


def test_the_banner_counts_the_chunks_that_could_not_be_placed(client):
    foreign = "Quarterly revenue of the bakery rose on croissant sales across three new shops."
    data = json.dumps([*windows()[:3], foreign]).encode()
    body = send(client, f"{SAMPLE}/imports", data, "mixed.json").get_json()
    report = client.get(body["links"]["chunks"]).get_json()
    assert "1 of 4 chunks could not be placed" in report["strategy"]["banner"]
    lost = report["chunks"][3]
    assert lost["origin"]["aligned"] < 0.5 and lost["regions"] == []
    assert "too few to trust its boxes" in lost["why"]

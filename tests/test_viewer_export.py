"""Export in the shapes other tools read (JSON, JSONL, LangChain documents, LlamaIndex
nodes), each with the metadata a retrieval pipeline keeps, and each read back through
the import to the same boxes."""

from __future__ import annotations

import json

import pytest
from conftest import APEX

from visualiser.cli import main
from visualiser.export import FORMATS, export
from visualiser.pipeline import chunk_report, imported_report
from visualiser.resources import samples_dir


def records(data: bytes, fmt: str) -> list[dict]:
    if fmt == "jsonl":
        return [json.loads(line) for line in data.decode().splitlines()]
    body = json.loads(data)
    return body["chunks"] if fmt == "json" else body


@pytest.mark.parametrize("strategy", ["token_based", "structure_aware"])
@pytest.mark.parametrize("fmt", FORMATS)
def test_each_format_round_trips_to_the_same_boxes(processed, fmt, strategy):
    doc = processed(APEX)
    report = chunk_report(doc, strategy)
    data = export(report, fmt)
    back = imported_report(doc, data, f"apex.{fmt}")
    assert len(back["chunks"]) == len(report["chunks"])
    for original, imported in zip(report["chunks"], back["chunks"], strict=True):
        assert imported["regions"] == original["regions"]
        assert imported["chunk_type"] == original["chunk_type"]
        assert imported["text"] == original["text"]


@pytest.mark.parametrize("fmt", ["jsonl", "langchain", "llamaindex"])
def test_metadata_has_pages_boxes_heading_path_and_type(processed, fmt):
    report = chunk_report(processed(APEX), "token_based")
    items = records(export(report, fmt), fmt)
    text_key = {"jsonl": "text", "langchain": "page_content", "llamaindex": "text"}[fmt]
    for item, chunk in zip(items, report["chunks"], strict=True):
        assert item[text_key] == chunk["text"]
        meta = item["metadata"]
        assert meta["chunk_index"] == chunk["index"]
        assert meta["chunk_type"] == chunk["chunk_type"]
        assert meta["heading_path"] == chunk["heading_path"]
        assert meta["pages"] == chunk["pages"] and meta["page"] == chunk["pages"][0]
        assert [r["bbox"] for r in meta["regions"]] == [r["bbox"] for r in chunk["regions"]]
        assert meta["source"] == APEX and meta["document_id"] == report["document"]["id"]
    if fmt == "langchain":
        assert {i["type"] for i in items} == {"Document"}
    if fmt == "llamaindex":
        assert {i["class_name"] for i in items} == {"TextNode"}
        assert len({i["id_"] for i in items}) == len(items)


def test_cli_formats(capsys):
    pdf = str(samples_dir() / APEX)
    assert main(["chunk", pdf, "--strategy", "structure_aware", "--format", "langchain"]) == 0
    documents = json.loads(capsys.readouterr().out)
    assert len(documents) == 17 and documents[0]["page_content"]
    assert main(["chunk", pdf, "--strategy", "structure_aware", "--format", "jsonl"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 17 and json.loads(lines[0])["metadata"]["chunk_type"]


def test_api_export_is_a_download(tmp_path):
    import hashlib

    from visualiser.web import create_app

    app = create_app({"TESTING": True, "CACHE_DIR": tmp_path / "c",
                      "DATABASE": tmp_path / "kb.sqlite"})
    try:
        client = app.test_client()
        doc_id = hashlib.sha256((samples_dir() / APEX).read_bytes()).hexdigest()
        response = client.get(f"/api/documents/{doc_id}/chunks/export"
                              "?strategy=token_based&format=llamaindex")
        assert response.status_code == 200
        assert "attachment" in response.headers["Content-Disposition"]
        assert ".token_based.llamaindex.json" in response.headers["Content-Disposition"]
        assert len(response.get_json()) == 5
        bad = client.get(f"/api/documents/{doc_id}/chunks/export?format=xml")
        assert bad.status_code == 400 and "format" in bad.get_json()["message"]
    finally:
        app.extensions["visualiser"].close()


def test_a_knowledgebase_documents_stored_chunks_export_and_words(tmp_path, processed):
    from test_kb_api import APEX_BYTES, APEX_ID, create_kb, make_app, upload, wait_until_processed

    app = make_app(tmp_path)
    try:
        client = app.test_client()
        kb = create_kb(client)
        assert upload(client, kb["id"], APEX_BYTES, APEX).status_code == 202
        wait_until_processed(client, kb["id"])
        base = f"/api/knowledgebases/{kb['id']}/documents/{APEX_ID}"
        stored = client.get(f"{base}/chunks").get_json()
        response = client.get(f"{base}/chunks/export?format=langchain")
        assert response.status_code == 200 and "attachment" in response.headers[
            "Content-Disposition"]
        back = imported_report(processed(APEX), response.data, "stored.json")
        assert [c["regions"] for c in back["chunks"]] == [c["regions"] for c in stored["chunks"]]
        words = client.get(f"{base}/pages/1/words").get_json()["words"]
        assert words and all(len(w) == 5 for w in words)
        page = client.get(f"/knowledgebases/{kb['id']}/documents/{APEX_ID}").get_data(
            as_text=True)
        assert f"{base}/chunks/export" in page and f"{base}/pages/0/words" in page
    finally:
        app.extensions["visualiser"].close()

"""HTTP behaviour of the web app through Flask's test client: pages, JSON API, errors."""

from __future__ import annotations

import hashlib
import json
import logging
import threading

import pymupdf
import pytest

from visualiser import pipeline
from visualiser.resources import samples_dir
from visualiser.strategies import STRATEGIES
from visualiser.web import create_app

APEX = "05_Apex_Logistics_Services_Agreement_2025.pdf"
APEX_ID = hashlib.sha256((samples_dir() / APEX).read_bytes()).hexdigest()
SAMPLE_NAMES = sorted(p.name for p in samples_dir().glob("*.pdf"))


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    # One app for the module: layout extraction is cached per app, as in production.
    scratch = tmp_path_factory.mktemp("app")
    app = create_app(
        {"TESTING": True, "CACHE_DIR": scratch / "cache", "DATABASE": scratch / "kb.sqlite"}
    )
    yield app
    app.extensions["visualiser"].close()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def fresh_app(tmp_path):
    app = create_app(
        {"TESTING": True, "CACHE_DIR": tmp_path / "cache", "DATABASE": tmp_path / "kb.sqlite"}
    )
    yield app
    app.extensions["visualiser"].close()


def test_samples_are_there():
    assert APEX in SAMPLE_NAMES and len(SAMPLE_NAMES) >= 2


# --- pages ----------------------------------------------------------------------------


def test_index_lists_every_sample_with_a_link_per_strategy(client):
    response = client.get("/")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    for name in SAMPLE_NAMES:
        assert name in html
    assert html.count('data-testid="page-count"') == len(SAMPLE_NAMES)
    assert f'data-document-id="{APEX_ID}"' in html
    for strategy in STRATEGIES:
        assert f"/documents/{APEX_ID}?strategy={strategy}" in html


def test_viewer_page_has_a_placeholder_per_page_and_its_config(client):
    response = client.get(f"/documents/{APEX_ID}?strategy=token_based&page=2&chunk=4")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert html.count('<section class="page"') == 4
    start = html.index('<script type="application/json" id="viewer-config">') + len(
        '<script type="application/json" id="viewer-config">'
    )
    config = json.loads(html[start : html.index("</script>", start)])
    assert config["strategy"] == "token_based"
    assert [s["name"] for s in config["strategies"]] == list(STRATEGIES)
    assert [p["number"] for p in config["document"]["pages"]] == [1, 2, 3, 4]
    assert config["palette"] and all(c.startswith("#") for c in config["palette"])


def test_viewer_page_does_not_wait_for_the_layout(fresh_app):
    # Serving the page does not extract the layout (the chunks request does, later),
    # which is what lets a 600-page document open at once.
    assert fresh_app.test_client().get(f"/documents/{APEX_ID}").status_code == 200
    assert not fresh_app.extensions["visualiser"].library.is_processed(APEX_ID)


def test_viewer_unknown_document_is_an_html_404(client):
    response = client.get("/documents/" + "0" * 64, headers={"Accept": "text/html"})
    assert response.status_code == 404
    assert response.mimetype == "text/html"
    assert 'data-testid="error-page"' in response.get_data(as_text=True)


def test_viewer_unknown_strategy_is_a_400_listing_the_strategies(client):
    response = client.get(f"/documents/{APEX_ID}?strategy=nope")
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert "nope" in html
    for strategy in STRATEGIES:
        assert strategy in html


# --- JSON API ---------------------------------------------------------------------------


def test_api_documents(client):
    body = client.get("/api/documents").get_json()
    by_name = {d["name"]: d for d in body["documents"]}
    assert sorted(by_name) == SAMPLE_NAMES
    apex = by_name[APEX]
    assert apex["id"] == APEX_ID
    assert apex["page_count"] == 4
    assert apex["size"] == (samples_dir() / APEX).stat().st_size
    assert apex["links"]["viewer"] == f"/documents/{APEX_ID}"


def test_api_document_has_page_sizes(client):
    body = client.get(f"/api/documents/{APEX_ID}").get_json()
    assert [p["number"] for p in body["pages"]] == [1, 2, 3, 4]
    assert body["pages"][0]["width"] == pytest.approx(612, abs=1)


def test_api_strategies_come_from_the_registry(client):
    body = client.get("/api/strategies").get_json()
    assert [s["name"] for s in body["strategies"]] == list(STRATEGIES)
    described = {s["name"]: s for s in body["strategies"]}
    assert described["token_based"]["banner"]
    assert described["structure_aware"]["banner"] is None
    assert body["default"] == "structure_aware"
    for strategy in body["strategies"]:
        for param in strategy["params"]:
            assert param["kind"] in {"int", "bool", "choice"}


def test_chunks_json_token_based(client):
    response = client.get(f"/api/documents/{APEX_ID}/chunks?strategy=token_based")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    report = response.get_json()
    assert report["chunking_strategy"] == "token_based"
    # The banner names the document's one table-context chunk.
    assert "1 table-context chunk — 4 — repeats" in report["strategy"]["banner"]
    assert report["overlap_method"] == "bbox_adjacent"
    assert report["document"] == {"id": APEX_ID, "name": APEX, "page_count": 4}
    assert [c["index"] for c in report["chunks"]] == [0, 1, 2, 3, 4]
    sizes = {p["number"]: p for p in report["pages"]}
    for chunk in report["chunks"]:
        assert set(chunk) >= {
            "index",
            "chunk_type",
            "text",
            "tokens",
            "heading_path",
            "pages",
            "regions",
            "why",
            "flags",
        }
        assert chunk["why"]
        for region in chunk["regions"]:
            page = sizes[region["page"]]
            x0, top, x1, bottom = region["bbox"]
            assert 0 <= x0 < x1 <= page["width"] and 0 <= top < bottom <= page["height"]
            for rect in region["rects"]:
                assert x0 - 0.01 <= rect[0] and rect[2] <= x1 + 0.01
    contained = sorted(c["contained"] for c in report["containment"] if c["container"] == 4)
    assert contained == [1, 2, 3]
    assert report["chunks"][4]["chunk_type"] == "table_context"
    assert any(o["a"] == 3 and o["b"] == 4 for o in report["overlaps"])


def test_chunks_json_structure_aware_has_no_banner(client):
    report = client.get(f"/api/documents/{APEX_ID}/chunks?strategy=structure_aware").get_json()
    assert len(report["chunks"]) == 17
    assert report["strategy"]["banner"] is None
    assert report["containment"] == []


def test_chunks_default_strategy_is_structure_aware(client):
    report = client.get(f"/api/documents/{APEX_ID}/chunks").get_json()
    assert report["chunking_strategy"] == "structure_aware"


def test_parameters_change_the_chunks(client):
    url = f"/api/documents/{APEX_ID}/chunks?strategy=token_based"
    default = client.get(url).get_json()
    small = client.get(url + "&chunk_token_size=200&chunk_overlap_token_size=20").get_json()
    assert small["parameters"]["chunk_token_size"] == 200
    assert len(small["chunks"]) > len(default["chunks"])


def test_unknown_document_is_a_json_404(client):
    response = client.get("/api/documents/" + "f" * 64 + "/chunks")
    assert response.status_code == 404
    assert response.get_json()["error"] == "Not found"


@pytest.mark.parametrize(
    ("query", "parameter"),
    [
        ("strategy=structure_aware&max_token_size=0", "max_token_size"),
        ("strategy=structure_aware&max_token_size=lots", "max_token_size"),
        ("strategy=token_based&no_such_knob=1", "no_such_knob"),
    ],
)
def test_bad_parameter_is_a_400_naming_it(client, query, parameter):
    response = client.get(f"/api/documents/{APEX_ID}/chunks?{query}")
    assert response.status_code == 400
    body = response.get_json()
    assert body["error"] == "Bad parameter"
    assert body["parameter"] == parameter
    assert parameter in body["message"]


def test_unknown_strategy_is_a_400_listing_the_others(client):
    response = client.get(f"/api/documents/{APEX_ID}/chunks?strategy=nope")
    assert response.status_code == 400
    body = response.get_json()
    assert "nope" in body["message"]
    assert body["available"] == list(STRATEGIES)


def test_page_image(app, client):
    # `with`: the response streams the cached file, and must be closed to release it.
    with client.get(f"/api/documents/{APEX_ID}/pages/2.png?scale=0.5") as response:
        assert response.status_code == 200
        assert response.mimetype == "image/png"
        assert "immutable" in response.headers["Cache-Control"]
        png = response.data
    pixmap = pymupdf.Pixmap(png)
    assert (pixmap.width, pixmap.height) == (306, 396)
    cached = list((app.config["CACHE_DIR"] / "pages").rglob("2@0.50.png"))
    assert len(cached) == 1 and cached[0].read_bytes() == png
    with client.get(f"/api/documents/{APEX_ID}/pages/2.png?scale=0.5") as again:
        assert again.data == png


@pytest.mark.parametrize("page", [0, 5, 999])
def test_page_image_missing_page_is_a_404(client, page):
    response = client.get(f"/api/documents/{APEX_ID}/pages/{page}.png")
    assert response.status_code == 404
    assert "4 pages" in response.get_json()["message"]


@pytest.mark.parametrize("scale", ["abc", "0.1", "10", "nan", "inf", "-1"])
def test_page_image_bad_scale_is_a_400(client, scale):
    response = client.get(f"/api/documents/{APEX_ID}/pages/1.png?scale={scale}")
    assert response.status_code == 400
    assert response.get_json()["parameter"] == "scale"


# --- the error handler ----------------------------------------------------------------


def test_unknown_route_answers_html_or_json_as_asked(client):
    html = client.get("/nowhere", headers={"Accept": "text/html"})
    assert html.status_code == 404 and html.mimetype == "text/html"
    assert 'data-status="404"' in html.get_data(as_text=True)
    data = client.get("/nowhere", headers={"Accept": "application/json"})
    assert data.status_code == 404 and data.get_json()["error"] == "Not Found"
    api = client.get("/api/nowhere", headers={"Accept": "text/html"})
    assert api.status_code == 404 and api.mimetype == "application/json"


def test_wrong_method_is_a_json_405_under_api(client):
    response = client.delete("/api/documents")
    assert response.status_code == 405
    assert response.get_json()["error"] == "Method Not Allowed"


def test_unexpected_error_is_a_logged_500_and_the_server_keeps_serving(fresh_app, caplog):
    def boom() -> str:
        raise RuntimeError("kaput")

    fresh_app.add_url_rule("/api/boom", "boom", boom)
    fresh_app.add_url_rule("/boom", "boom_page", boom)
    client = fresh_app.test_client()
    with caplog.at_level(logging.ERROR):
        response = client.get("/api/boom")
    assert response.status_code == 500
    assert "RuntimeError" in response.get_json()["message"]
    assert any("unexpected error" in r.getMessage() and r.exc_info for r in caplog.records)
    page = client.get("/boom", headers={"Accept": "text/html"})
    assert page.status_code == 500 and "RuntimeError" in page.get_data(as_text=True)
    assert client.get("/api/strategies").status_code == 200


# --- the library ----------------------------------------------------------------------


def test_there_is_no_loose_upload_any_more(client):
    # Uploads belong to knowledgebases (tests/test_kb_api.py); the old paths are gone.
    assert client.post("/api/documents", data={}).status_code == 405
    assert client.post("/upload", data={}).status_code in (404, 405)


def test_layout_is_extracted_once_per_document(fresh_app, monkeypatch):
    calls = []
    real = pipeline.process_pdf

    def counting(data: bytes, name: str, **options):
        calls.append(name)
        return real(data, name, **options)

    monkeypatch.setattr(pipeline, "process_pdf", counting)
    client = fresh_app.test_client()
    base = f"/api/documents/{APEX_ID}/chunks"
    for query in (
        "strategy=token_based",
        "strategy=structure_aware",
        "strategy=token_based&chunk_token_size=300",
        "strategy=token_based",
    ):
        assert client.get(f"{base}?{query}").status_code == 200
    assert calls == [APEX]


def test_concurrent_requests_share_one_extraction(fresh_app, monkeypatch):
    calls = []
    real = pipeline.process_pdf
    gate = threading.Event()

    def slow(data: bytes, name: str, **options):
        calls.append(name)
        gate.wait(5)
        return real(data, name, **options)

    monkeypatch.setattr(pipeline, "process_pdf", slow)
    library = fresh_app.extensions["visualiser"].library
    entry = library.entry(APEX_ID)
    results: list[int] = []

    def fetch() -> None:
        results.append(len(library.report(entry, "structure_aware").data["chunks"]))

    threads = [threading.Thread(target=fetch) for _ in range(4)]
    for thread in threads:
        thread.start()
    gate.set()
    for thread in threads:
        thread.join(30)
    assert results == [17, 17, 17, 17]
    assert calls == [APEX]


def test_bad_parameters_are_rejected_before_any_extraction(fresh_app, monkeypatch):
    def fail(data: bytes, name: str, **options):
        raise AssertionError("process_pdf should not run for a bad parameter")

    monkeypatch.setattr(pipeline, "process_pdf", fail)
    response = fresh_app.test_client().get(
        f"/api/documents/{APEX_ID}/chunks?strategy=token_based&chunk_token_size=-5"
    )
    assert response.status_code == 400

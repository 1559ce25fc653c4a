"""The compare page over HTTP (Flask's test client): what it renders, how it reads its
sides from the URL, and how a bad side is refused — naming the side and the
parameter — for samples and knowledgebase documents."""

from __future__ import annotations

import hashlib
import html as html_lib
import io
import json

import pytest

from visualiser.resources import samples_dir
from visualiser.strategies import STRATEGIES
from visualiser.web import create_app

APEX = "05_Apex_Logistics_Services_Agreement_2025.pdf"
APEX_BYTES = (samples_dir() / APEX).read_bytes()
APEX_ID = hashlib.sha256(APEX_BYTES).hexdigest()
COMPARE = f"/documents/{APEX_ID}/compare"


def compare_config(html: str) -> dict:
    marker = '<script type="application/json" id="compare-config">'
    start = html.index(marker) + len(marker)
    return json.loads(html[start : html.index("</script>", start)])


def text_of(response) -> str:
    return html_lib.unescape(response.get_data(as_text=True))


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    scratch = tmp_path_factory.mktemp("compare-app")
    app = create_app(
        {"TESTING": True, "CACHE_DIR": scratch / "cache", "DATABASE": scratch / "kb.sqlite"}
    )
    yield app
    app.extensions["visualiser"].close()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture(scope="module")
def kb_doc(app):
    client = app.test_client()
    kb_id = client.post("/api/knowledgebases", json={"name": "Compare"}).get_json()["id"]
    client.post(f"/api/knowledgebases/{kb_id}/documents",
                data={"file": (io.BytesIO(APEX_BYTES), APEX)}, content_type="multipart/form-data")
    assert app.extensions["visualiser"].processor.wait(60)
    return kb_id


def imported(client, data: bytes = b'["Apex Logistics Services Agreement 2025"]') -> str:
    response = client.post(f"/api/documents/{APEX_ID}/imports",
                           data={"file": (io.BytesIO(data), "mine.json")},
                           content_type="multipart/form-data")
    assert response.status_code in (200, 201)
    return response.get_json()["import"]


# --- rendering -------------------------------------------------------------------------------


def test_compare_page_renders_both_sides_over_the_same_pages(client):
    response = client.get(
        f"{COMPARE}?left=token_based&right=structure_aware&left.chunk_token_size=800&page=3"
        "&chunk=left:2")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    config = compare_config(html)
    assert config["sides"]["left"] == {"source": "token_based",
                                       "params": {"chunk_token_size": "800"}, "error": None}
    assert config["sides"]["right"] == {"source": "structure_aware", "params": {}, "error": None}
    assert config["urls"]["chunks"] == f"/api/documents/{APEX_ID}/chunks"
    assert config["urls"]["viewer"] == f"/documents/{APEX_ID}"
    assert [s["name"] for s in config["strategies"]] == list(STRATEGIES)
    # One column of page placeholders per side, four pages each.
    for side in ("left", "right"):
        assert f'data-testid="{side}-pages"' in html and f'data-testid="{side}-select"' in html
        assert f'data-testid="{side}-import"' in html
    assert html.count('<section class="page"') == 8
    assert 'data-testid="left-error" role="alert" hidden' in html


def test_without_sides_the_default_faces_the_other_main_strategy(client):
    config = compare_config(client.get(COMPARE).get_data(as_text=True))
    assert config["sides"]["left"]["source"] == "structure_aware"
    assert config["sides"]["right"]["source"] == "token_based"
    config = compare_config(client.get(f"{COMPARE}?left=token_based").get_data(as_text=True))
    assert config["sides"]["right"]["source"] == "structure_aware"


def test_compare_page_does_not_wait_for_the_layout(tmp_path):
    app = create_app({"TESTING": True, "CACHE_DIR": tmp_path / "c", "DATABASE": tmp_path / "k"})
    try:
        assert app.test_client().get(COMPARE).status_code == 200
        assert not app.extensions["visualiser"].library.is_processed(APEX_ID)
    finally:
        app.extensions["visualiser"].close()


def test_an_imported_set_can_be_a_side(client):
    import_id = imported(client)
    response = client.get(f"{COMPARE}?left=token_based&right=import:{import_id}")
    assert response.status_code == 200
    config = compare_config(response.get_data(as_text=True))
    assert config["sides"]["right"]["source"] == f"import:{import_id}"
    assert config["imports"] == [{"import": import_id, "name": "mine.json",
                                  "size": 42, "chunks": 1}]


def test_it_is_reached_from_the_index_and_the_viewer(client):
    index = client.get("/").get_data(as_text=True)
    assert f'{COMPARE}?left=token_based&amp;right=structure_aware' in index
    viewer = client.get(f"/documents/{APEX_ID}").get_data(as_text=True)
    assert 'data-testid="compare-link"' in viewer
    marker = '<script type="application/json" id="viewer-config">'
    start = viewer.index(marker) + len(marker)
    config = json.loads(viewer[start : viewer.index("</script>", start)])
    assert config["urls"]["compare"] == COMPARE


# --- bad sides ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "side", "parameter", "words"),
    [
        ("left=token_based&left.chunk_token_size=0", "left", "left.chunk_token_size", "at least"),
        ("right=structure_aware&right.max_token_size=lots", "right", "right.max_token_size",
         "whole number"),
        ("left=token_based&left.no_such_knob=1", "left", "left.no_such_knob", "no such parameter"),
    ],
)
def test_a_bad_side_parameter_is_a_400_naming_side_and_parameter(client, query, side, parameter,
                                                                 words):
    response = client.get(f"{COMPARE}?{query}")
    assert response.status_code == 400
    text = text_of(response)
    # The page still opens, with the side's error on it and its form to fix it.
    error = compare_config(response.get_data(as_text=True))["sides"][side]["error"]
    assert error["side"] == side and error["parameter"] == parameter
    assert error["message"].startswith(f"{side} side: {parameter.split('.', 1)[1]}: ")
    assert words in error["message"] and error["message"] in text
    assert f'data-testid="{side}-error" role="alert"><strong>Bad parameter:</strong>' in text
    other = "right" if side == "left" else "left"
    assert compare_config(response.get_data(as_text=True))["sides"][other]["error"] is None


def test_an_unknown_strategy_on_a_side_is_a_400_page_naming_it(client):
    response = client.get(f"{COMPARE}?right=nope", headers={"Accept": "text/html"})
    assert response.status_code == 400
    text = text_of(response)
    assert "right side: no chunking strategy named 'nope'" in text
    for strategy in STRATEGIES:
        assert strategy in text


@pytest.mark.parametrize(
    ("query", "status", "words"),
    [
        (f"left=import:{'0' * 64}", 404, "left side: no imported chunks file"),
        ("right=import:xyz", 400, "right side: import: expected the SHA-256"),
        ("left=stored", 400, "left side: stored: only a knowledgebase document has stored chunks"),
        ("chunk_token_size=800", 400, "not a comparison setting"),
    ],
)
def test_other_bad_sides_are_refused_with_the_reason(client, query, status, words):
    response = client.get(f"{COMPARE}?{query}", headers={"Accept": "text/html"})
    assert response.status_code == status
    assert words in text_of(response)


def test_an_import_side_takes_no_parameters(client):
    import_id = imported(client)
    response = client.get(f"{COMPARE}?left=import:{import_id}&left.chunk_token_size=5")
    assert response.status_code == 400
    assert "left side: chunk_token_size: imported chunks take no parameters" in text_of(response)


def test_unknown_document_is_a_404(client):
    assert client.get(f"/documents/{'0' * 64}/compare").status_code == 404


# --- knowledgebase documents ---------------------------------------------------------------------


def test_knowledgebase_compare_defaults_to_the_stored_chunks(client, kb_doc):
    url = f"/knowledgebases/{kb_doc}/documents/{APEX_ID}/compare"
    response = client.get(url)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    config = compare_config(html)
    # structure_aware is stored (the default); it faces token_based.
    assert config["sides"]["left"]["source"] == "stored"
    assert config["sides"]["right"]["source"] == "token_based"
    assert config["stored"]["chunking_strategy"] == "structure_aware"
    assert config["urls"]["chunks"] == f"/api/knowledgebases/{kb_doc}/documents/{APEX_ID}/chunks"
    assert '<option value="stored" selected>Stored chunks (structure_aware)</option>' in html
    import_id = imported(client)
    assert client.get(f"{url}?left=import:{import_id}&right=stored").status_code == 200
    bad = client.get(f"{url}?left=stored&left.max_token_size=5")
    assert bad.status_code == 400
    assert "left side: max_token_size: the stored chunks take no parameters" in text_of(bad)
    kb_page = client.get(f"/knowledgebases/{kb_doc}").get_data(as_text=True)
    assert f'href="{url}"' in kb_page
    assert client.get(f"/knowledgebases/{kb_doc}/documents/{'0' * 64}/compare").status_code == 404

"""Choosing the layout engine: the CLI's --layout/--ocr-lang/--workers, a
knowledgebase's stored layout (absent means builtin), the web's `layout=` and the
engine registry's route, the layout cache keyed by engine; and the `pymupdf-layout`
engine itself on generated PDFs (skipped, saying why, without the `[ml]` extra)."""

from __future__ import annotations

import hashlib
import io
import json
import shutil
from pathlib import Path

import pymupdf
import pytest

from tests.conftest import make_app
from tests.test_layout_rules import unmapped_ligatures_pdf
from tests.upper_engine import UpperCaseEngine
from visualiser import knowledgebase
from visualiser.cli import main
from visualiser.layout import ENGINES, LayoutOptions, get_engine, layout_options
from visualiser.layout.pages import BuiltinEngine
from visualiser.pipeline import chunk_report, process_pdf
from visualiser.resources import samples_dir
from visualiser.store import Store

APEX = "05_Apex_Logistics_Services_Agreement_2025.pdf"
APEX_BYTES = (samples_dir() / APEX).read_bytes()
APEX_ID = hashlib.sha256(APEX_BYTES).hexdigest()
LEGACY = Path(__file__).parent / "fixtures" / "legacy.sqlite"
ML = "pymupdf-layout"
ML_MISSING = ENGINES[ML].available()
needs_ml = pytest.mark.skipif(
    ML_MISSING is not None,
    reason=f"the {ML} engine is not installed here ({ML_MISSING}); "
           "pip install -e '.[ml]' to run these tests")


# --- the command line ----------------------------------------------------------------


def test_chunk_names_the_layout_engine_in_the_report(capsys):
    assert main(["chunk", str(samples_dir() / APEX), "--strategy", "structure_aware",
                 "--layout", "builtin"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["layout_engine"] == f"builtin {BuiltinEngine.version()}"


def test_an_unknown_layout_engine_exits_2_listing_the_valid_ones(capsys):
    assert main(["chunk", str(samples_dir() / APEX), "--layout", "docling"]) == 2
    err = capsys.readouterr().err
    assert "layout: unknown layout engine 'docling'" in err
    assert "builtin" in err and ML in err


@pytest.mark.parametrize(("flag", "value", "named"), [
    ("--workers", "0", "workers: at least 1"),
    ("--ocr-lang", "eng ara", "ocr_lang: Tesseract language codes"),
])
def test_bad_layout_options_exit_2_naming_them(capsys, flag, value, named):
    assert main(["chunk", str(samples_dir() / APEX), flag, value]) == 2
    assert named in capsys.readouterr().err


def test_layouts_lists_the_registry_with_availability(capsys):
    assert main(["layouts"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("builtin: ") and "available" in out
    ml_line = next(line for line in out.splitlines() if line.startswith(f"{ML}: "))
    assert ("unavailable" in ml_line) == (ML_MISSING is not None)


def test_render_takes_the_layout_flag(tmp_path, capsys):
    out = tmp_path / "p1.png"
    assert main(["render", str(samples_dir() / APEX), "--layout", "builtin", "-o",
                 str(out)]) == 0
    assert out.read_bytes().startswith(b"\x89PNG")
    assert main(["render", str(samples_dir() / APEX), "--layout", "nope", "-o",
                 str(out)]) == 2


def test_serve_refuses_an_unknown_default_layout(capsys, tmp_path):
    assert main(["serve", "--database", str(tmp_path / "kb.sqlite"), "--layout", "nope"]) == 2
    assert "unknown layout engine 'nope'" in capsys.readouterr().err


# --- knowledgebases ------------------------------------------------------------------


def test_kb_create_stores_the_layout_with_the_chunking_config(capsys, tmp_path):
    db = tmp_path / "kb.sqlite"
    assert main(["kb", "--database", str(db), "create", "Papers", "--layout", "builtin",
                 "--ocr-lang", "eng+deu"]) == 0
    assert "layout: builtin" in capsys.readouterr().out
    (kb,) = Store(db).knowledgebases()
    metadata = json.loads(kb.raw_metadata)
    assert metadata["layout"] == "builtin" and metadata["ocr_lang"] == "eng+deu"
    assert metadata["chunking_strategy"] == knowledgebase.DEFAULT_STRATEGY
    assert kb.layout_options == LayoutOptions("builtin", ocr_lang="eng+deu")


def test_kb_create_without_a_layout_stores_the_default(tmp_path):
    db = tmp_path / "kb.sqlite"
    assert main(["kb", "--database", str(db), "create", "Plain"]) == 0
    (kb,) = Store(db).knowledgebases()
    assert json.loads(kb.raw_metadata)["layout"] == knowledgebase.DEFAULT_LAYOUT


def test_kb_create_with_an_unknown_layout_exits_2_and_stores_nothing(capsys, tmp_path):
    db = tmp_path / "kb.sqlite"
    assert main(["kb", "--database", str(db), "create", "Bad", "--layout", "nope"]) == 2
    assert "builtin" in capsys.readouterr().err
    assert Store(db).knowledgebases() == []


def test_a_stored_knowledgebase_without_the_field_reads_as_builtin(tmp_path):
    database = tmp_path / "legacy.sqlite"
    shutil.copy(LEGACY, database)
    store = Store(database)
    for kb in store.knowledgebases():  # one predates the field, one is unreadable
        assert "layout" not in kb.raw_metadata
        assert kb.layout_options == LayoutOptions("builtin", ocr_lang="eng")
    app = make_app(tmp_path, database)
    try:
        body = app.test_client().get("/api/knowledgebases/1").get_json()
        assert body["layout"] == "builtin" and body["ocr_lang"] == "eng"
    finally:
        app.extensions["visualiser"].close()


def test_kb_api_creation_takes_and_checks_the_layout(client):
    made = client.post("/api/knowledgebases", json={"name": "A", "layout": "builtin",
                                                    "ocr_lang": "eng+ara"})
    assert made.status_code == 201
    assert made.get_json()["layout"] == "builtin" and made.get_json()["ocr_lang"] == "eng+ara"
    refused = client.post("/api/knowledgebases", json={"name": "B", "layout": "nope"})
    assert refused.status_code == 400
    body = refused.get_json()
    assert body["parameter"] == "layout" and "builtin" in body["message"]
    assert client.post("/api/knowledgebases", json={"name": "C", "layout": 3}).status_code == 400
    names = [kb["name"] for kb in client.get("/api/knowledgebases").get_json()["knowledgebases"]]
    assert names == ["A"]


def test_processing_uses_the_knowledgebases_layout_engine(app, client):
    store = app.extensions["visualiser"].store
    kb = store.create_knowledgebase("Gone", {"chunking_strategy": "structure_aware",
                                             "chunking_params": {}, "layout": "vanished"})
    upload = client.post(f"/api/knowledgebases/{kb.id}/documents",
                         data={"file": (io.BytesIO(APEX_BYTES), APEX)},
                         content_type="multipart/form-data")
    assert upload.status_code == 202
    assert app.extensions["visualiser"].processor.wait(60)
    doc = client.get(f"/api/knowledgebases/{kb.id}/documents/{APEX_ID}").get_json()
    # The stored engine is the one used: here it no longer exists, and the reason says so.
    assert doc["state"] == "failed" and "unknown layout engine 'vanished'" in doc["error"]


# --- the web -------------------------------------------------------------------------


def test_layout_engines_route_lists_the_registry(client):
    body = client.get("/api/layout-engines").get_json()
    assert body["default"] == "builtin"
    engines = {e["name"]: e for e in body["engines"]}
    assert set(engines) == set(ENGINES)
    assert engines["builtin"]["available"] and engines["builtin"]["unavailable_reason"] is None
    assert engines["builtin"]["version"] == BuiltinEngine.version()
    assert engines[ML]["available"] == (ML_MISSING is None)
    assert engines[ML]["unavailable_reason"] == ML_MISSING
    assert all(e["label"] and e["explanation"] for e in engines.values())


def test_chunks_api_takes_layout_and_refuses_an_unknown_one(client):
    base = f"/api/documents/{APEX_ID}/chunks?strategy=structure_aware"
    ok = client.get(base + "&layout=builtin")
    assert ok.status_code == 200 and ok.get_json()["layout_engine"].startswith("builtin ")
    bad = client.get(base + "&layout=nope")
    assert bad.status_code == 400
    assert bad.get_json()["parameter"] == "layout" and "builtin" in bad.get_json()["message"]
    assert client.get(f"/documents/{APEX_ID}?layout=nope").status_code == 400


def test_the_viewer_offers_the_registry_and_marks_the_chosen_engine(client):
    page = client.get(f"/documents/{APEX_ID}?strategy=structure_aware&layout=builtin")
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and 'data-testid="layout-select"' in html
    config = json.loads(html.split('id="viewer-config">')[1].split("</script>")[0])
    assert config["layout"] == "builtin" and config["default_layout"] == "builtin"
    assert [e["name"] for e in config["layouts"]] == list(ENGINES)


@pytest.fixture
def upper_engine(monkeypatch):
    monkeypatch.setitem(ENGINES, UpperCaseEngine.name, UpperCaseEngine)
    yield UpperCaseEngine.name


def test_the_layout_cache_is_keyed_by_document_and_engine(client, upper_engine):
    base = f"/api/documents/{APEX_ID}/chunks?strategy=structure_aware"
    plain = client.get(base).get_json()
    upper = client.get(base + f"&layout={upper_engine}").get_json()
    again = client.get(base + "&layout=builtin").get_json()
    assert upper["layout_engine"].startswith("test-upper ")
    assert upper["chunks"][0]["text"] == plain["chunks"][0]["text"].upper() != plain[
        "chunks"][0]["text"]
    assert again["chunks"] == plain["chunks"]


def test_a_knowledgebase_preview_under_another_layout(app, client, upper_engine):
    store = app.extensions["visualiser"].store
    kb = client.post("/api/knowledgebases", json={"name": "K"}).get_json()
    client.post(f"/api/knowledgebases/{kb['id']}/documents",
                data={"file": (io.BytesIO(APEX_BYTES), APEX)},
                content_type="multipart/form-data")
    assert app.extensions["visualiser"].processor.wait(60)
    chunks = f"/api/knowledgebases/{kb['id']}/documents/{APEX_ID}/chunks"
    stored = client.get(chunks).get_json()
    assert not stored["preview"] and stored["layout_engine"].startswith("builtin ")
    preview = client.get(chunks + f"?layout={upper_engine}").get_json()
    assert preview["preview"] and preview["stored_layout"] == "builtin"
    assert preview["chunking_strategy"] == stored["chunking_strategy"]
    assert preview["layout_engine"].startswith("test-upper ")
    assert client.get(chunks + "?layout=nope").status_code == 400
    assert store.chunk_set(kb["id"], APEX_ID)["layout_engine"].startswith("builtin ")


# --- the pymupdf-layout engine -------------------------------------------------------

PROSE = ("Retrieval pipelines cut documents into chunks before anything is embedded, and "
         "the cut decides what a question can find later on. ")


def report_pdf(rotation: int = 0, pages: int = 3) -> bytes:
    """Three pages: a title, numbered section headings, paragraphs, bullets, and a page
    number at the foot of each page; written upright as displayed, on a page turned
    by `rotation` when asked (as a landscape table page is)."""
    doc = pymupdf.open()
    for n in range(pages):
        page = doc.new_page(width=595, height=842)
        page.set_rotation(rotation)
        to_page = page.derotation_matrix

        def text(x, y, s, size, font="helv", page=page, to_page=to_page):
            page.insert_text(pymupdf.Point(x, y) * to_page, s, fontsize=size, fontname=font,
                             rotate=rotation)

        y = 80
        if n == 0:
            text(72, y, "Chunking Real Documents", 22, "hebo")
            y += 40
        for s, title in enumerate(("Introduction", "Methods")):
            text(72, y, f"{n * 2 + s + 1}. {title} of part {n + 1}", 14, "hebo")
            y += 24
            words = (PROSE * 4).split()
            for row in range(5):
                text(72, y, " ".join(words[row * 12:(row + 1) * 12]), 10)
                y += 13
            y += 10
            for item in ("First point about chunk boundaries", "Second point about levels"):
                text(84, y, "•", 10)
                text(96, y, item, 10)
                y += 15
            y += 18
        text(280, 810 if rotation == 0 else 570, f"Page {n + 1}", 8)
    return doc.tobytes()


@needs_ml
def test_ml_engine_reads_headings_lists_and_running_feet():
    engine = get_engine(ML)()
    pages = engine.read(report_pdf(), LayoutOptions(engine=ML))
    roles = [(i.role, i.level, i.line.text) for p in pages for i in p.items if i.line]
    headings = [(level, text) for role, level, text in roles if role == "heading"]
    assert (1, "Chunking Real Documents") in headings
    numbered = [text for level, text in headings if level == 2]
    assert numbered == [f"{n}. {t} of part {(n + 1) // 2}"
                        for n, t in zip(range(1, 7), ["Introduction", "Methods"] * 3,
                                        strict=True)]
    assert sum(role == "list_item" for role, _, _ in roles) == 12
    assert {text for role, _, text in roles if role == "running"} == {
        "Page 1", "Page 2", "Page 3"}
    assert all(i.group is not None for p in pages for i in p.items if i.line)


@needs_ml
def test_ml_engine_reads_a_ligature_glyph_without_text_as_the_builtin_does():
    """The engines share the line reader, and with it `ligatures.py`: Calibri's
    "ti" without a text mapping is "writing" under either, not "wri\ufffdng"."""
    data = unmapped_ligatures_pdf([b"The wri\x80ng of an opera\x80on and its rules."],
                                  {128: 0.335 + 0.229 - 0.007})
    for engine in ("builtin", ML):
        doc = process_pdf(data, "calibri.pdf", options=LayoutOptions(engine=engine))
        words = [w.text for w in doc.layout.words]
        assert "writing" in words and "operation" in words, (engine, words)


@needs_ml
@pytest.mark.parametrize("rotation", [0, 90])
def test_ml_engine_keeps_every_word_with_its_own_box(rotation):
    data = report_pdf(rotation)
    doc = process_pdf(data, "report.pdf", options=LayoutOptions(engine=ML))
    assert doc.layout.engine.startswith(f"{ML} ")
    words = sorted((w.page, w.text, w.bbox) for w in doc.layout.words)
    expected = []
    for page in pymupdf.open(stream=data):
        foot = page.rect.height - 40  # the page numbers: running feet, left out
        for x0, y0, x1, y1, text, *_ in page.get_text("words"):
            box = pymupdf.Rect(x0, y0, x1, y1) * page.rotation_matrix
            if box.y1 < foot and text != "·":  # bullets become markdown's "- "
                expected.append((page.number + 1, text, tuple(box)))
    # PyMuPDF's own words with their own boxes, on the page as displayed; only the
    # order and the blocks are the model's.
    expected.sort()
    assert [(p, t) for p, t, _ in words] == [(p, t) for p, t, _ in expected]
    for (_, _, ours), (_, _, theirs) in zip(words, expected, strict=True):
        assert max(abs(a - b) for a, b in zip(ours, theirs, strict=True)) < 1.0
    blocks = [(b.kind, b.level) for b in doc.layout.blocks]
    assert blocks[:4] == [("heading", 1), ("heading", 2), ("paragraph", 0), ("list_item", 0)]
    paragraph = doc.layout.blocks[2]
    assert len(paragraph.line_ids) == 5  # the model's box: one paragraph of five lines


@needs_ml
def test_ml_headings_say_so_in_the_why_text():
    doc = process_pdf(report_pdf(), "report.pdf", options=LayoutOptions(engine=ML))
    report = chunk_report(doc, "structure_aware")
    assert report["layout_engine"].startswith(ML)
    section = next(c for c in report["chunks"] if c["heading_path"][-1:] == [
        "2. Methods of part 1"])
    assert "read as a heading by the layout model" in section["why"]
    builtin = chunk_report(process_pdf(report_pdf(), "report.pdf"), "structure_aware")
    assert not any("layout model" in c["why"] for c in builtin["chunks"])


@needs_ml
def test_ml_engine_leaves_the_builtin_engine_as_it_was():
    """The model switches PyMuPDF globals on while it reads; they are off again after."""
    before = process_pdf(APEX_BYTES, APEX).layout
    process_pdf(APEX_BYTES, APEX, options=LayoutOptions(engine=ML))
    assert pymupdf._get_layout is None
    after = process_pdf(APEX_BYTES, APEX).layout
    assert after.words == before.words and after.blocks == before.blocks


def test_ml_engine_unavailable_says_how_to_install(monkeypatch):
    from visualiser.layout import ml

    if ML_MISSING is None:
        monkeypatch.setattr(ml, "_missing", lambda: "pymupdf-layout not installed; install "
                            "the ml extra: pip install 'chunk-visualiser[ml]'")
    with pytest.raises(Exception) as refused:
        get_engine(ML)
    assert "cannot run here" in str(refused.value) and "[ml]" in str(refused.value)


@needs_ml
def test_ml_engine_in_two_processes_reads_what_one_reads():
    from visualiser.layout import ml

    data = report_pdf(pages=ml.PARALLEL_FROM_PAGES)
    one = process_pdf(data, "r.pdf", options=LayoutOptions(engine=ML)).layout
    two = process_pdf(data, "r.pdf", options=LayoutOptions(engine=ML, workers=2)).layout
    assert two.words == one.words and two.blocks == one.blocks
    assert [b.level for b in two.blocks if b.kind == "heading"][:2] == [1, 2]


def test_a_section_number_boxed_apart_joins_its_title():
    """The model sometimes boxes "5.1" apart from "Hyper Parameter Optimization"; the
    number joins the title's box (pure mapping code: runs without the model too)."""
    from visualiser.layout import ml
    from visualiser.layout.items import RawLine

    def line(x0, x1, text, y=100.0):
        return RawLine((x0, y, x1, y + 12), [((x0, y, x1, y + 12), text)], 12, True, False)

    boxes = [ml._Box(0, "section-header", (120, 100, 300, 112), 12),
             ml._Box(1, "section-header", (72, 100, 95, 112), 12),
             ml._Box(2, "text", (72, 130, 300, 142), 10)]
    by_box = {0: [line(120, 300, "Hyper Parameter Optimization")], 1: [line(72, 95, "5.1")],
              2: [line(72, 300, "2024 was a good year", 130)]}
    ml._join_numbers_to_titles(boxes, by_box)
    assert set(by_box) == {0, 2}
    (heading,) = ml._rows(by_box[0])
    assert heading.text == "5.1 Hyper Parameter Optimization"


def test_page_reading_processes_default_to_the_measured_count():
    """bench/bench_pipeline.py found one process fastest on 2 cores (README, "Speed");
    unmeasured larger machines keep that count, and an explicit count is kept."""
    from visualiser.layout.engines import MEASURED_WORKERS, default_workers

    assert default_workers(2) == MEASURED_WORKERS[2] == 1
    assert default_workers(1) == 1 and default_workers(64) == 1
    assert layout_options().workers == default_workers()
    assert layout_options(workers=3).workers == 3
